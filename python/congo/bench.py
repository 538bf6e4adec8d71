"""The engine's bench (``congo bench``): a fixed suite of positions searched to a fixed depth, as
Stockfish's ``bench``.

The total node count of the default run (:data:`DEFAULT_DEPTH`, :data:`DEFAULT_HASH_MB`, one
thread, each position from a fresh engine state) is the *signature* of the search's behaviour: the
same on every machine and every run, and changed by any change to the search or the evaluation
that changes what is searched. The committed signature is ``benches/bench-signature.txt``; the
tests check the build against it. Nodes per second measure the speed of the build on this machine.

>>> import congo.bench
>>> result = congo.bench.run(depth=2)
>>> len(result.entries) == len(congo.bench.positions())
True
>>> result.nodes == congo.bench.run(depth=2).nodes
True

The suite and the loop are in the Rust core (``congo_core::bench``), which runs with the GIL
released; the suite is compiled in, so it cannot drift from the committed signature.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from congo import _core

__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_HASH_MB",
    "DEFAULT_THREADS",
    "BenchEntry",
    "BenchResult",
    "build",
    "positions",
    "run",
]

DEFAULT_DEPTH: int = _core.BENCH_DEPTH
"""The depth of the default bench, whose node count is the signature."""

DEFAULT_HASH_MB: int = _core.BENCH_HASH_MB
"""The transposition table of the default bench, in MiB (part of the signature: the table's size
changes what it keeps)."""

DEFAULT_THREADS: int = _core.BENCH_THREADS
"""One: with more threads the node count depends on their timing and is no signature."""

BenchEntry = _core.BenchEntry
"""One position searched: ``index`` (its place in the suite, from 0), ``name``, ``fen``, ``depth``
(the deepest completed iteration), ``nodes``, ``time`` (seconds), ``nps``, ``move`` (the best move)
and ``score`` (a :class:`congo.engine.Score` for the side to move). A frozen record made by the
core."""

BenchResult = _core.BenchResult
"""What a bench came to: ``entries`` (a :data:`BenchEntry` per position, in order), ``nodes`` (their
sum: the signature for the default settings), ``time`` (seconds of search), ``nps``, and the
``depth``, ``hash_mb`` and ``threads`` it ran with. A frozen record made by the core."""


def build() -> str:
    """The file name of the compiled core this package runs: ``_core.abi3.so`` for the build on the
    stable ABI, ``_core.cpython-311-x86_64-linux-gnu.so`` and the like for one Python version's. A
    speed figure depends on it (``benches/run.py`` prints it); the signature does not."""
    return Path(_core.__file__).name


def positions() -> list[tuple[str, str]]:
    """The suite: ``(name, fen)`` pairs, in the order they are searched."""
    return _core.bench_positions()


def run(
    depth: int = DEFAULT_DEPTH,
    *,
    hash_mb: int = DEFAULT_HASH_MB,
    threads: int = DEFAULT_THREADS,
    callback: Callable[[BenchEntry], object] | None = None,
) -> BenchResult:
    """Searches every position of :func:`positions` to ``depth`` with ``threads`` threads and a
    ``hash_mb`` MiB transposition table, each from a fresh engine state (an empty table and
    move-ordering history), with the GIL released. ``callback(entry)`` is called with each
    :data:`BenchEntry` as its position finishes; if it raises, the run stops and the exception
    propagates. Ctrl-C stops the run (``KeyboardInterrupt``). A depth outside ``1..MAX_DEPTH`` or a
    bad thread count or table size raises ``ValueError``."""
    return _core.bench(depth, hash_mb=hash_mb, threads=threads, callback=callback)
