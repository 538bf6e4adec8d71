"""Makes the bundled balanced opening suite, ``python/congo/data/openings.txt``.

Candidates are distinct positions a few uniformly random plies from the start (``match.make_openings``:
none ends the game or leaves a lion to be taken at once); each is searched by the engine for a fixed
number of nodes, and those it scores within ``--margin`` centipawns of equal are kept, in the order
drawn, until ``--count`` of them. Deterministic for a given seed and engine (node-limited searches on
one thread); about a minute on one core::

    python benches/make_openings.py                   # 200 positions, 6 plies, |score| <= 50 cp at 20k nodes
    python benches/make_openings.py --count 300 --plies 8 --out /tmp/openings.txt

Each line is ``FEN ; cp SCORE ; plies MOVES`` (the fields after the FEN are information for the
reader; ``congo match --openings`` reads the FEN only).
"""

from __future__ import annotations

import argparse
import pathlib
import time

import congo
from congo import match
from congo.files import atomic_output, check_outputs

OUT = pathlib.Path(__file__).resolve().parent.parent / "python" / "congo" / "data" / "openings.txt"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=200, help="positions to keep (default: 200)")
    parser.add_argument("--plies", type=int, default=6, help="random plies from the start (default: 6)")
    parser.add_argument(
        "--nodes", type=int, default=20_000, help="nodes searched per candidate (default: 20000)"
    )
    parser.add_argument(
        "--margin", type=int, default=50, help="largest |score| kept, centipawns (default: 50)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random plies (default: 2026)")
    parser.add_argument("--out", type=pathlib.Path, default=OUT, help=f"output file (default: {OUT})")
    args = parser.parse_args()
    try:  # before the work: a bad path fails now, not after it
        check_outputs([args.out])
    except (OSError, ValueError) as error:
        parser.error(str(error))

    start = time.perf_counter()
    candidates = match.make_openings(20 * args.count, args.plies, args.seed)
    engine = congo.Engine(threads=1, hash_mb=16)
    kept: list[str] = []
    tried = 0
    for line in candidates:
        if len(kept) == args.count:
            break
        tried += 1
        board = congo.Board()
        for move in line:
            board.push(move)
        engine.clear()
        info = engine.analyse(board, congo.Limit(nodes=args.nodes))
        score = info["score"].white()
        if score.mate is not None or score.cp is None or abs(score.cp) > args.margin:
            continue
        kept.append(f"{board.fen()} ; cp {score.cp:+d} ; plies {' '.join(m.uci() for m in line)}")
    if len(kept) < args.count:
        raise SystemExit(f"only {len(kept)} of {tried} candidates were within {args.margin} cp")
    elapsed = time.perf_counter() - start
    header = [
        "# The balanced opening suite of `congo match` (congo.match.default_openings).",
        f"# {len(kept)} positions {args.plies} random plies from the start (seed {args.seed})",
        f"# that the engine scores within {args.margin} cp of equal at {args.nodes:,} nodes",
        f"# (White's view), kept from {tried} candidates. Made by: python benches/make_openings.py"
        + (
            ""
            if (args.count, args.plies, args.nodes, args.margin, args.seed) == (200, 6, 20_000, 50, 2026)
            else f" --count {args.count} --plies {args.plies} --nodes {args.nodes} "
            f"--margin {args.margin} --seed {args.seed}"
        ),
        "# Each line: FEN ; cp SCORE ; plies MOVES (only the FEN is read).",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(args.out) as out:  # the bundled suite: never half of one
        out.write("\n".join(header + kept) + "\n")
    print(f"{len(kept)} of {tried} candidates kept in {elapsed:.1f} s: {args.out}")


if __name__ == "__main__":
    main()
