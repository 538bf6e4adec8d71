"""Self-play training data: the engine plays both sides at a node budget, and every position it
searched becomes a row with its planes, the search's evaluation and best move, and the game's result.

>>> from congo.selfplay import SelfPlayConfig, play_game
>>> rows = play_game(0, seed=1, config=SelfPlayConfig(nodes=100, max_plies=20))
>>> len(rows["fen"]) == len(rows["planes"]) == len(rows["best_move"]) > 0
True
>>> rows["fen"][0].endswith(" w 4")  # after six random opening moves, White to move
True

This is what ``congo selfplay --games N --nodes K -o FILE`` runs. Each game is a pure function of
its index, seed and configuration (:func:`play_game`; a fresh single-thread engine with a node limit
searches the same way every time), played in Rust with the GIL released. :func:`play_games` runs many
on the pools of :mod:`congo.distributed` — threads of this process (one per core by default) or Ray
actors on a cluster (``ray=ADDRESS``, ``congo selfplay --ray ADDRESS``) — and yields them in order:
the same rows either way.

Row columns (one entry per searched position):

* ``fen`` (str), ``planes`` (``PLANE_SIZE`` bytes each; the layout of :func:`congo.encode`);
* ``game`` (index), ``ply`` (moves played before), ``turn`` (True for White to move);
* ``score_cp`` (centipawns, side to move's view; 0 for a forced result) and ``score_mate``
  (own moves to a forced win, negative for a forced loss; 0 when none was found);
* ``best_move`` (move string), ``best_action`` (the first action of the best move), ``best_actions``
  (all of its actions, for a policy over whole chains);
* ``value`` (the game's result for the side to move: 1, 0, -1) and ``result`` (``"1-0"``…).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator, Iterable
from typing import IO, Any

from congo import _core
from congo._core import STARTING_FEN, Position, StopFlag
from congo._extras import pip_install
from congo._files import atomic_output
from congo.distributed import open_pool

__all__ = [
    "COLUMNS",
    "GameAbandoned",
    "SelfPlayConfig",
    "StopFlag",
    "game_seed",
    "merge",
    "play_game",
    "play_games",
    "write",
    "write_npz",
    "write_parquet",
]

Rows = dict[str, list[Any]]
"""Columns of rows: every value is a list with one entry per row."""

COLUMNS = (
    "game",
    "ply",
    "fen",
    "planes",
    "turn",
    "score_cp",
    "score_mate",
    "best_move",
    "best_action",
    "best_actions",
    "value",
    "result",
)
"""The columns of a self-play dataset, in file order."""


@dataclasses.dataclass(frozen=True)
class SelfPlayConfig:
    """How games are played: ``nodes`` searched per move, ``opening_plies`` uniformly random moves
    first (for variety), a draw after ``max_plies`` moves, the engine's table size, and the start
    position. Raises ``ValueError`` for out-of-range values."""

    nodes: int = 2000
    opening_plies: int = 6
    max_plies: int = _core.DEFAULT_MAX_PLIES
    hash_mb: int = _core.GAME_POOL_HASH_MB
    """Small by default (the core's ``GAME_POOL_HASH_MB``): each game in parallel has its own."""
    fen: str = STARTING_FEN

    def __post_init__(self) -> None:
        # The core checks every range (hash_mb up to MAX_HASH_MB), as it will when the games run.
        _core.check_selfplay_config(
            nodes=self.nodes, opening_plies=self.opening_plies, max_plies=self.max_plies, hash_mb=self.hash_mb
        )
        # InvalidFenError / InvalidPositionError now rather than in a worker; a finished game has
        # no position to search (every game would be empty: a run of 0 rows, exit 0).
        if Position(self.fen).outcome() is not None:
            raise ValueError(f"the game is already over in {self.fen!r}: self-play needs a move to play")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (distinct for every pair)."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) % 2**64


class GameAbandoned(RuntimeError):
    """A game stopped through its :class:`StopFlag` before it finished."""


def play_game(index: int, seed: int, config: SelfPlayConfig, *, stop: StopFlag | None = None) -> Rows:
    """Plays game ``index`` of a run seeded with ``seed`` and returns its rows (see the module
    docs). The same arguments give the same rows on every machine: the unit of work a distributed
    backend hands out. Setting ``stop`` (from any thread) abandons the game within one search:
    :class:`GameAbandoned` is raised."""
    data = _core.selfplay_game(
        Position(config.fen),
        game_seed(seed, index),
        nodes=config.nodes,
        opening_plies=config.opening_plies,
        max_plies=config.max_plies,
        hash_mb=config.hash_mb,
        stop=stop,
    )
    if data is None:
        raise GameAbandoned(f"game {index} was stopped before it finished")
    count = len(data["fen"])
    planes: bytes = data["planes"]
    size = _core.PLANE_SIZE
    result = {True: "1-0", False: "0-1", None: "1/2-1/2"}[data["winner"]]
    return {
        "game": [index] * count,
        "ply": data["ply"],
        "fen": data["fen"],
        "planes": [planes[i * size : (i + 1) * size] for i in range(count)],
        "turn": data["turn"],
        "score_cp": [0 if cp is None else cp for cp in data["score_cp"]],
        "score_mate": [0 if mate is None else mate for mate in data["score_mate"]],
        "best_move": data["best_move"],
        "best_action": [actions[0] for actions in data["best_actions"]],
        "best_actions": data["best_actions"],
        "value": data["value"],
        "result": [result] * count,
    }


class _Worker:
    """A self-play worker's state: the stop flag of the game it is playing (module level, so that
    Ray actors can make one)."""

    def __init__(self) -> None:
        self.flag = StopFlag()


def _stop_worker(worker: _Worker) -> None:
    worker.flag.set()


def _play_on(worker: _Worker, job: tuple[int, int, SelfPlayConfig]) -> Rows:
    # A fresh flag per game: a stop is meant for the games running when it came.
    worker.flag = StopFlag()
    return play_game(*job, stop=worker.flag)


def play_games(
    games: int,
    config: SelfPlayConfig,
    *,
    seed: int = 0,
    workers: int | None = None,
    ray: str | None = None,
) -> Generator[Rows, None, None]:
    """Plays games ``0 … games-1`` and yields each one's rows, in input order, on the pools of
    :mod:`congo.distributed`: ``workers`` threads of this process (default: one per core; each game
    runs in Rust with the GIL released), or with ``ray=ADDRESS`` Ray actors on that cluster
    (``"auto"``, ``"ray://host:10001"``, ``"local"``; ``pip install 'congo-chess[ray]'``), one per CPU of
    the cluster unless ``workers`` says otherwise.

    Leaving the loop early (``break``, an exception, Ctrl-C) abandons the running games within one
    search and drops the rest. Raises ``ValueError`` for a negative ``games``, and what
    :func:`congo.distributed.open_pool` raises for a bad ``workers`` or an unreachable cluster."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative int, got {games!r}")
    jobs = ((index, seed, config) for index in range(games))
    with open_pool(_new_worker, _play_on, workers=workers, ray=ray, stop=_stop_worker) as pool:
        yield from pool.imap(jobs)


def _new_worker() -> _Worker:
    return _Worker()


def merge(parts: Iterable[Rows]) -> Rows:
    """Concatenates the rows of several games."""
    merged: Rows = {name: [] for name in COLUMNS}
    for part in parts:
        for name in COLUMNS:
            merged[name].extend(part[name])
    return merged


def write_npz(path: str | IO[bytes], rows: Rows) -> None:
    """Writes rows to a compressed ``.npz``: ``planes`` as ``uint8 (N, 23, 7, 7)``, numbers as int
    arrays, strings as unicode arrays; ``best_actions`` as ``best_actions`` (int16, padded with -1)
    plus ``best_actions_len``. Needs numpy. ``path`` may be a binary file object; a path is written
    under exactly that name (numpy would add ``.npz`` to any other), to a temporary file renamed into
    place when complete."""
    if not hasattr(path, "write"):
        with atomic_output(path, "wb") as out:
            write_npz(out, rows)
        return
    import numpy as np

    from congo.learning import NUM_PLANES

    count = len(rows["fen"])
    planes = np.frombuffer(b"".join(rows["planes"]), dtype=np.uint8).reshape(count, NUM_PLANES, 7, 7)
    longest = max((len(a) for a in rows["best_actions"]), default=0)
    actions = np.full((count, longest), -1, dtype=np.int16)
    for i, acts in enumerate(rows["best_actions"]):
        actions[i, : len(acts)] = acts
    np.savez_compressed(
        path,
        game=np.array(rows["game"], dtype=np.int64),
        ply=np.array(rows["ply"], dtype=np.int32),
        fen=np.array(rows["fen"], dtype=str),
        planes=planes,
        turn=np.array(rows["turn"], dtype=bool),
        score_cp=np.array(rows["score_cp"], dtype=np.int32),
        score_mate=np.array(rows["score_mate"], dtype=np.int32),
        best_move=np.array(rows["best_move"], dtype=str),
        best_action=np.array(rows["best_action"], dtype=np.int16),
        best_actions=actions,
        best_actions_len=np.array([len(a) for a in rows["best_actions"]], dtype=np.int16),
        value=np.array(rows["value"], dtype=np.int8),
        result=np.array(rows["result"], dtype=str),
    )


def write_parquet(path: str | IO[bytes], rows: Rows) -> None:
    """Writes rows to Parquet: ``planes`` as fixed-size binary (``PLANE_SIZE`` bytes),
    ``best_actions`` as a list of int16, the rest as plain columns. Needs pyarrow. ``path`` may be
    a binary file object; a path is written to a temporary file renamed into place when complete."""
    if not hasattr(path, "write"):
        with atomic_output(path, "wb") as out:
            write_parquet(out, rows)
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("game", pa.int64()),
            ("ply", pa.int32()),
            ("fen", pa.string()),
            ("planes", pa.binary(_core.PLANE_SIZE)),
            ("turn", pa.bool_()),
            ("score_cp", pa.int32()),
            ("score_mate", pa.int32()),
            ("best_move", pa.string()),
            ("best_action", pa.int16()),
            ("best_actions", pa.list_(pa.int16())),
            ("value", pa.int8()),
            ("result", pa.string()),
        ]
    )
    table = pa.table({name: rows[name] for name in COLUMNS}, schema=schema)
    pq.write_table(table, path, compression="zstd")


def write(path: str, rows: Rows) -> None:
    """Writes rows as Parquet (``.parquet``/``.pq``) or ``.npz``, chosen by the extension. Raises
    ``ValueError`` for another extension and ``ImportError`` naming the extra when pyarrow or numpy
    is missing. The file is written whole or not at all (a temporary file next to it, renamed into
    place), so a failure leaves what was at ``path`` as it was."""
    lower = path.lower()
    if not lower.endswith((".parquet", ".pq", ".npz")):
        raise ValueError(f"unknown output format for {path!r}: use a .parquet or .npz file name")
    _check_writer(path)
    if lower.endswith(".npz"):
        write_npz(path, rows)
    else:
        write_parquet(path, rows)


def _check_writer(path: str) -> None:
    """Raises ``ImportError`` naming the extra when the library that writes ``path`` is missing."""
    if path.lower().endswith(".npz"):
        try:
            import numpy  # noqa: F401
        except ImportError as error:
            raise ImportError(f"writing .npz needs numpy: {pip_install('numpy')}") from error
    else:
        try:
            import pyarrow  # noqa: F401
        except ImportError as error:
            raise ImportError(f"writing Parquet needs pyarrow: {pip_install('pyarrow')}") from error
