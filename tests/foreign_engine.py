"""A tiny engine for the protocol of docs/protocol.md that owes nothing to this library: plain Python,
standard library only, no rules of Congo at all. It knows a few positions by heart (a fixed table
of ranked moves) and pretends to search them, so that the client and the match runner can be tested
against a program they did not write.

    python tests/foreign_engine.py [--mode MODE] [--think SECONDS]

Modes: ``normal`` plays from its table (``bestmove (none)`` in a position it does not know);
``hang`` answers the handshake and ``isready`` but never a ``go``; ``illegal`` answers every ``go``
with an illegal move; ``nonsense`` answers ``go`` with a ``bestmove`` that is not a move; ``crash``
exits in the middle of its first search; ``deaf`` stops reading its input after the handshake;
``longline`` sends a line of over 1 MiB before each ``bestmove``, whose 1 MiB-th byte is followed by
a different ``bestmove``; ``reject`` refuses every ``position`` with moves (``info string error``,
keeping its old position, as ``congo uci`` does) and answers ``go`` for the old one; ``goerror``
reports an error at each ``go`` and then searches as usual. In every mode a ``Hash`` above 32 is
refused with an error. ``--think`` is how long a search takes without a time limit.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

# Ranked moves (best first) with scores in centipawns, by the moves played from the start position.
TABLE: dict[tuple[str, ...], list[tuple[str, int]]] = {
    (): [("a1c3", 14), ("g1f3", 11), ("e2d3", 8), ("c2c3", 3)],
    ("a1c3",): [("a7c5", -12), ("g7f5", -13), ("e6d5", -20)],
    ("c2c3",): [("a7c5", -4), ("e6d5", -9)],
    ("a1c3", "a7c5"): [("g1f3", 15), ("c2d3", 9)],
}


class Engine:
    def __init__(self, mode: str, think: float) -> None:
        self.mode = mode
        self.think = think
        self.moves: tuple[str, ...] | None = ()
        self.multipv = 1
        self.stop = threading.Event()
        self.ponderhit = threading.Event()
        self.search: threading.Thread | None = None
        self.lock = threading.Lock()

    def say(self, line: str) -> None:
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        command = words[0]
        if command == "uci":
            if self.mode == "nonsense":
                self.say("hello there, I am not quite an engine")
                self.say("option name Broken")
            self.say("id name Foreign Table Engine")
            self.say("id author the test suite")
            self.say("option name MultiPV type spin default 1 min 1 max 4")
            self.say("option name Hash type spin default 1 min 1 max 64")
            self.say("option name Style type combo default solid var solid var wild")
            self.say("option name Ponder type check default false")
            self.say("uciok")
        elif command == "isready":
            self.say("readyok")
        elif command == "setoption" and "MultiPV" in words and "value" in words:
            self.multipv = int(words[words.index("value") + 1])
        elif command == "setoption" and "Hash" in words and "value" in words:
            if int(words[words.index("value") + 1]) > 32:
                self.say("info string error: cannot allocate that much; the old table stays")
        elif command == "position":
            if self.mode == "reject" and "moves" in words:
                self.say("info string error: position unchanged: I only take the start position")
            else:
                self.moves = self.parse_position(words)
        elif command == "go":
            self.stop.clear()
            self.ponderhit.clear()
            self.search = threading.Thread(target=self.go, args=(words,), daemon=True)
            self.search.start()
        elif command == "stop":
            self.stop.set()
            if self.search is not None:
                self.search.join()
        elif command == "ponderhit":
            self.ponderhit.set()
        elif command == "quit":
            self.stop.set()
            return False
        return True

    @staticmethod
    def parse_position(words: list[str]) -> tuple[str, ...] | None:
        if len(words) >= 2 and words[1] == "startpos":
            return tuple(words[words.index("moves") + 1 :]) if "moves" in words else ()
        return None  # a FEN: not in the table

    def go(self, words: list[str]) -> None:
        if self.mode == "hang":
            return
        if self.mode == "goerror":
            self.say("info string error: something went wrong in this search")
        if self.mode == "crash":
            self.say("info depth 1 score cp 0 pv a1c3")
            time.sleep(0.05)
            print("foreign engine: simulated crash", file=sys.stderr, flush=True)
            os._exit(3)
        infinite = "infinite" in words or "ponder" in words
        budget = self.think
        if "movetime" in words:
            budget = min(budget, int(words[words.index("movetime") + 1]) / 1000)
        clock = "wtime" if len(self.moves or ()) % 2 == 0 else "btime"
        if clock in words:  # a thirtieth of its clock
            budget = min(budget, int(words[words.index(clock) + 1]) / 30_000)
        ranked = TABLE.get(self.moves, []) if self.moves is not None else []
        started = time.monotonic()
        depth = 0
        while ranked:
            depth += 1
            if depth == 2:  # a fail low at depth 2, as an aspiration search reports it
                move, score = ranked[0]
                self.say(
                    f"info depth 2 seldepth 3 multipv 1 score cp {score - 50} upperbound nodes 150 pv {move}"
                )
            for rank, (move, score) in enumerate(ranked[: self.multipv], 1):
                elapsed = int(1000 * (time.monotonic() - started))
                self.say(
                    f"info depth {depth} seldepth {depth + 1} multipv {rank} score cp {score + depth} "
                    f"nodes {100 * depth} nps 1000 time {elapsed} pv {move}"
                )
            if self.stop.wait(0.01):
                break
            if not infinite and time.monotonic() - started >= budget:
                break
            if "ponder" in words and self.ponderhit.is_set() and time.monotonic() - started >= budget:
                break
        if infinite and not ranked:
            self.stop.wait()
        if self.mode == "longline":
            # Cut after 1 MiB, as a reader of lines of at most 1 MiB would, the rest is a bestmove.
            head = "info string padding "
            self.say(head + "x" * ((1 << 20) - len(head)) + "bestmove e2d3")
        if self.mode == "illegal":
            self.say("bestmove a1a7")
        elif self.mode == "nonsense":
            self.say("bestmove banana")
        elif not ranked:
            self.say("info string I do not know this position")
            self.say("bestmove (none)")
        else:
            self.say(f"bestmove {ranked[0][0]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--mode",
        default="normal",
        choices=["normal", "hang", "illegal", "nonsense", "crash", "deaf", "longline", "reject", "goerror"],
    )
    parser.add_argument("--think", type=float, default=0.2)
    args = parser.parse_args()
    engine = Engine(args.mode, args.think)
    for line in sys.stdin:
        if not engine.handle(line.strip()):
            break
        if args.mode == "deaf" and line.strip() == "uci":
            time.sleep(3600)  # reads nothing more: whatever is sent fills the pipe
    return 0


if __name__ == "__main__":
    sys.exit(main())
