"""A minimal Congo bot speaking the engine protocol (docs/protocol.md): the start of a bot of your own.

It plays a capture when it has one, else a random legal move. Play it against the built-in engine's
simple opponents, or against the engine itself, with

    congo match "uci:python examples/uci_bot.py" greedy --games 2
    congo match "uci:python examples/uci_bot.py" engine:time=0.05 --games 2

Any program in any language that answers these few commands the same way can play: ``uci`` (answer
``id name …`` and ``uciok``), ``isready`` (``readyok``), ``ucinewgame``, ``position startpos|fen FEN
[moves …]``, ``go …`` (answer ``bestmove MOVE``, or ``bestmove (none)`` when the game is over) and
``quit``; a ``go infinite`` or ``go ponder`` is answered only at ``stop`` (or ``ponderhit``). Moves
are the squares a piece visits, concatenated (``c2c3``, a monkey chain ``b1d3f5d7``). Check a bot
of your own with ``congo uci-check python mybot.py``: it names every answer the protocol does not
allow.
"""

from __future__ import annotations

import random
import sys

import congo


def choose(board: congo.Board, rng: random.Random) -> congo.Move | None:
    """A capture if there is one, else any legal move; None when the game is over."""
    if board.is_game_over():
        return None
    moves = list(board.legal_moves)
    captures = [move for move in moves if board.is_capture(move)]
    return rng.choice(captures or moves)


def set_position(words: list[str]) -> congo.Board:
    """The board of ``position startpos|fen FEN [moves M …]`` (the words after ``position``)."""
    moves_at = words.index("moves") if "moves" in words else len(words)
    board = congo.Board() if words[0] == "startpos" else congo.Board(" ".join(words[1:moves_at]))
    for move in words[moves_at + 1 :]:
        board.push_uci(move)
    return board


def main() -> None:
    rng = random.Random(0)
    board = congo.Board()
    held: str | None = None  # the answer to a go infinite or go ponder, given at stop or ponderhit
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            print("id name capture-or-random", "id author the congo examples", "uciok", sep="\n")
        elif command == "isready":
            print("readyok")
        elif command == "position":
            board = set_position(words[1:])
        elif command == "go":
            move = choose(board, rng)
            answer = f"bestmove {move.uci() if move else '(none)'}"
            if "infinite" in words or "ponder" in words:
                held = answer  # a search that lasts until the controller says stop
            else:
                print(answer)
        elif command in ("stop", "ponderhit") and held is not None:
            print(held)
            held = None
        elif command == "quit":
            break
        sys.stdout.flush()  # each answer reaches the controller at once


if __name__ == "__main__":
    main()
