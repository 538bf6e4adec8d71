"""A match of two players (``congo match`` player strings) with a patient UCI client: on a shared,
loaded machine a ``nice``-d engine can be starved for seconds, which ``congo match``'s 5 s protocol
timeout counts as a loss by crash. Same games, openings and statistics as ``congo match``.

    nice -n 19 python benches/tuning/versus.py engine:nodes=2000 \\
        "uci[nodes=2000,Hash=16]:/tmp/baseline/congo-uci" --games 300 --seed 7
    python benches/tuning/versus.py "uci[time=0.05]:congo-uci" "uci[time=0.05,nnue=false]:congo-uci" \\
        --games 2000 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05     # stops at a bound
"""

from __future__ import annotations

import argparse
import sys
import time

from congo import match, players
from congo.engine import EngineError, SimpleEngine


class PatientUciPlayer(players.UciPlayer):
    """A UCI player that waits long and starts again: an engine starting while the machine's disk
    is busy (a build, a test suite) once took more than the 30 s handshake timeout, and the error
    ended a match of 600 games. Starting is retried (the game has not begun, so nothing is
    counted twice); a failure during a game still loses it, as in ``congo match``."""

    def _started(self) -> SimpleEngine:
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                engine = super()._started()
                break
            except EngineError as error:
                if attempt == START_ATTEMPTS or self._cancel.is_set():
                    raise  # the last attempt, or the match stopped it (an SPRT's decision, Ctrl-C)
                print(f"  {self.name}: {error}; starting again ({attempt})", file=sys.stderr)
        engine.timeout = 120.0
        return engine


START_ATTEMPTS = 5


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (one core each)")
    parser.add_argument("--openings", help="FEN file (default: the bundled balanced suite)")
    parser.add_argument(
        "--sprt", nargs="+", metavar="NAME=VALUE", help="stop at an SPRT's bound, as congo match's --sprt"
    )
    args = parser.parse_args()
    sprt = None if args.sprt is None else match.SPRT.parse(args.sprt)
    players.UciPlayer = PatientUciPlayer  # type: ignore[misc]  # parse_player makes these
    first, second = (match.parse_player(spec) for spec in (args.first, args.second))
    start = time.time()

    def progress(result: match.MatchResult, game: object) -> None:
        if result.played % 20 == 0:
            score = f"+{result.wins} ={result.draws} -{result.losses}"
            llr = "" if result.llr is None else f", LLR {result.llr:.2f}"
            print(f"  {result.played} games: {score}{llr}", file=sys.stderr)

    openings = match.read_openings(args.openings) if args.openings else None
    result = match.run_match(
        first,
        second,
        games=args.games,
        seed=args.seed,
        openings=openings,
        concurrency=args.concurrency,
        sprt=sprt,
        on_game=progress,
    )
    print(result.summary())
    print(f"time {time.time() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
