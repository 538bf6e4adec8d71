"""Self-play matches that measure what each search feature and evaluation term is worth.

Each match plays the engine as shipped against the same engine with one option changed (a feature
switched off, or a weight scaled; a weight of the hand-written evaluation is played with ``nnue=0``
on both sides, the default network having no such weights), at a fixed number of nodes per move so
that the result does not depend on the machine's load. The summaries go to
``benches/results/feature-matches.txt``; the numbers in ``docs/engine.md`` come from there.

    python benches/feature_matches.py                 # every match
    python benches/feature_matches.py --only lmr,pst  # some of them
    python benches/feature_matches.py --list
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
import warnings

import congo
from congo import match
from congo.files import atomic_output, check_outputs

RESULTS = pathlib.Path(__file__).parent / "results" / "feature-matches.txt"

# name -> engine options of the variant played against the defaults.
VARIANTS: dict[str, str] = {
    # search features, switched off
    "tt_cutoffs": "tt_cutoffs=0",
    "quiescence": "quiescence=0",
    "lion_extension": "lion_extension=0",
    "null_move": "null_move=0",
    "lmr": "lmr=0",
    "aspiration": "aspiration=0",
    "futility": "futility=0",
    "lmp": "lmp=0",
    "killers": "killers=0",
    "history": "history=0",
    "mvv_lva": "mvv_lva=0",
    # evaluation terms, switched off
    "pst": "pst=0",
    "mobility": "mobility=0",
    "drowning": "drowning=0",
    "lion_safety": "lion_safety=0",
    "lion_line": "lion_line=0",
    "pawn_advance": "pawn_advance=0",
    "promotion": "promotion=0",
    "tempo": "tempo=0",
    # evaluation weights, halved and doubled
    "pst/2": "pst=50",
    "pst*2": "pst=200",
    "mobility/2": "mobility=50",
    "mobility*2": "mobility=200",
    "drowning/2": "drowning=50",
    "drowning*2": "drowning=200",
    "lion_safety/2": "lion_safety=50",
    "lion_safety*2": "lion_safety=200",
    "pawn_advance/2": "pawn_advance=50",
    "pawn_advance*2": "pawn_advance=200",
}


def hand_written(options: str) -> bool:
    """Whether ``options`` (``name=value,...``) weigh the hand-written evaluation, which they only
    change with ``nnue=0``: such a match is played with ``nnue=0`` on both sides."""
    values = {
        name: int(value) for name, _, value in (item.partition("=") for item in options.split(",") if item)
    }
    with warnings.catch_warnings(record=True) as caught:  # congo.Engine names the options it ignores
        warnings.simplefilter("always")
        congo.Engine(threads=1, hash_mb=1, options=values)
    return any("no effect while nnue is on" in str(w.message) for w in caught)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=10_000, help="nodes per move (default: 10000)")
    parser.add_argument("--games", type=int, default=200, help="games per match (default: 200)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default: 1)")
    parser.add_argument("--only", help="comma-separated match names (default: all)")
    parser.add_argument("--extra", action="append", default=[], help="another variant as NAME=OPTIONS")
    parser.add_argument("--base", default="", help="options of the reference engine too, e.g. pst=150")
    parser.add_argument("--list", action="store_true", help="list the matches and exit")
    args = parser.parse_args()
    variants = dict(VARIANTS)
    for extra in args.extra:
        name, _, options = extra.partition("=")
        variants[name] = options
    if args.list:
        for name, options in variants.items():
            print(f"{name:16} {options}")
        return 0
    names = list(variants) if args.only is None else args.only.split(",")
    base = f"engine:nodes={args.nodes}" + (f",{args.base}" if args.base else "")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    try:  # before the matches: each result line is added to RESULTS as it is known
        check_outputs([RESULTS])
    except (OSError, ValueError) as problem:
        parser.error(str(problem))
    for name in names:
        reference = base
        if hand_written(f"{args.base},{variants[name]}") and "nnue=" not in base:
            reference = f"{base},nnue=0"  # the default evaluation, the network, has no such weights
        variant = f"{reference},{variants[name]}"
        start = time.perf_counter()
        result = match.run_match(
            match.parse_player(reference),
            match.parse_player(variant),
            games=args.games,
            concurrency=args.concurrency,
        )
        difference, error = result.elo()
        line = (
            f"{name:16} {reference} vs {variant}: +{result.wins} ={result.draws} -{result.losses} "
            f"({result.played} games) score {100 * result.score:.1f}% "
            f"Elo of the feature/default {difference:+.0f} ± {error:.0f} "
            f"[{time.perf_counter() - start:.0f} s]"
        )
        print(line, flush=True)
        # The log rewritten whole with the line added: a cut-off write never loses the earlier runs.
        earlier = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
        with atomic_output(RESULTS) as log:
            log.write(earlier + line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
