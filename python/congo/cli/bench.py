"""``congo bench``: the engine's fixed search suite; its node count is the search's signature."""

from __future__ import annotations

import argparse

from congo.cli._args import EXIT_OK, positive_int


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    from congo.bench import DEFAULT_DEPTH, DEFAULT_HASH_MB, DEFAULT_THREADS

    parser = subparsers.add_parser(
        "bench",
        help="search a fixed suite to a fixed depth: the node count is the search's signature",
        description=run.__doc__,
    )
    parser.add_argument(
        "depth",
        nargs="?",
        type=positive_int,
        default=DEFAULT_DEPTH,
        metavar="DEPTH",
        help=f"plies to search each position (default: {DEFAULT_DEPTH}, the signature's)",
    )
    parser.add_argument(
        "--hash",
        type=positive_int,
        default=DEFAULT_HASH_MB,
        metavar="MB",
        help=f"transposition table in MiB (default: {DEFAULT_HASH_MB}, the signature's)",
    )
    parser.add_argument(
        "--threads",
        type=positive_int,
        default=DEFAULT_THREADS,
        metavar="N",
        help=f"search threads (default: {DEFAULT_THREADS}; with more the count varies from run to run)",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Searches each position of a fixed suite (compiled into the core) to DEPTH, each from a fresh
    engine state, printing a line per position, then the totals; the last two lines are
    `Nodes searched: N` and `Nodes/second: M`. With the defaults (one thread, the default depth and
    table) N is the signature of the search's behaviour, the same on every machine and every run:
    a change to the search says its signature in the commit message and updates
    benches/bench-signature.txt (CONTRIBUTING.md). Ctrl-C stops the run (exit status 130)."""
    import congo.bench

    count = len(congo.bench.positions())
    width = len(str(count))

    def finished(entry: congo.bench.BenchEntry) -> None:
        move = entry.move.uci() if entry.move is not None else "(none)"
        print(
            f"Position {entry.index + 1:>{width}}/{count} {entry.name}: depth {entry.depth}, "
            f"nodes {entry.nodes}, {entry.time * 1000:.0f} ms, bestmove {move}, score {entry.score}",
            flush=True,
        )

    print(
        f"Bench: {count} positions, depth {args.depth}, hash {args.hash} MiB, threads {args.threads}",
        flush=True,
    )
    result = congo.bench.run(args.depth, hash_mb=args.hash, threads=args.threads, callback=finished)
    print()
    print(f"Total time (ms): {result.time * 1000:.0f}")
    print(f"Nodes searched: {result.nodes}")
    print(f"Nodes/second: {result.nps}")
    return EXIT_OK
