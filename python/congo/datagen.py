"""Training data at scale: self-play positions scored by a search, packed 32 bytes each.

>>> import congo.datagen, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "data.bin")
>>> header = congo.datagen.generate(path, 20, congo.datagen.DatagenConfig(nodes=200), seed=1, workers=1)
>>> header.count
20
>>> record = next(congo.datagen.read(path))
>>> record.result in (0.0, 0.5, 1.0) and congo.Board(record.fen).is_valid()
True

:func:`generate` (``congo datagen``) plays games of the engine against itself in Rust with the GIL
released, on threads of this process or on a Ray cluster (:mod:`congo.distributed`), and writes
the kept positions of games ``first_game, first_game + 1, …`` in that order until there are
``positions`` of them (the last game cut): the same file for the same seed and settings on any
number of threads or machines. :func:`read` iterates a file's records (``fen``, ``score`` in
centipawns for the side to move, ``result`` 1, 0.5 or 0 for the side to move, ``exact``, ``ply``,
``game``); :func:`batches` streams files as numpy arrays for training, with no Python object per
position. A file's checksum is verified before any of its records is used; a damaged, truncated or
foreign file raises :class:`DataFileError`.

How games are played and which positions are kept, the record's layout and the file's:
docs/datagen.md. A long run is written as shards: ``generate(…, after=PREVIOUS)`` continues the
run of the file ``PREVIOUS`` (its seed and settings) with the next game.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import struct
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple

from congo import _core
from congo._core import Move
from congo._files import PathLike, atomic_output, check_writable

__all__ = [
    "HEADER_SIZE",
    "MAGIC",
    "MATE_SCORE",
    "MAX_CP",
    "RECORD_SIZE",
    "VERSION",
    "DataFileError",
    "DatagenConfig",
    "GenerationInterrupted",
    "Header",
    "Record",
    "batches",
    "game_moves",
    "generate",
    "read",
    "read_header",
]

MAGIC = b"CONGODAT"
"""The first eight bytes of a data file."""
VERSION = 1
"""The format version this module writes and reads."""
RECORD_SIZE: int = _core.DATAGEN_RECORD_SIZE
"""Bytes of one position."""
HEADER_SIZE = 128
"""Bytes of a file's header."""
MATE_SCORE: int = _core.DATAGEN_MATE_SCORE
"""A forced win in ``n`` moves is stored as ``MATE_SCORE - n`` (a loss as its negative)."""
MAX_CP: int = _core.DATAGEN_MAX_CP
"""Evaluations are clamped to ``±MAX_CP``: a score beyond it is a forced result."""

# magic, version, record size, header size, count, seed, first game, games, nodes, depth,
# min/max random plies, multipv, margin, diversify plies, max plies, hash, tables' men, searched,
# the writer's version, reserved, CRC-32.
_HEADER = struct.Struct("<8sHHIQQQQQIHHHHHHIB3xQ16s20xI")
assert _HEADER.size == HEADER_SIZE
_CHUNK = 1 << 15
"""Records read at once while verifying and iterating."""
_GAME_WRAP = 1 << 24
"""A record stores its game's index modulo this."""


class DataFileError(ValueError):
    """A data file that is damaged, truncated or not a data file of this version."""


@dataclasses.dataclass(frozen=True)
class DatagenConfig:
    """How the games are played and scored (docs/datagen.md): ``nodes`` or ``depth`` per search
    (default: 5000 nodes), ``min_random_plies`` … ``max_random_plies`` random opening moves, then
    for ``diversify_plies`` engine moves a choice among the best ``multipv`` lines within ``margin``
    centipawns; a draw after ``max_plies`` moves; the engine's table size, cleared before every
    search. Raises ``ValueError`` for out-of-range values (checked by the core)."""

    nodes: int | None = None
    depth: int | None = None
    min_random_plies: int = 4
    max_random_plies: int = 8
    multipv: int = 3
    margin: int = 50
    diversify_plies: int = 16
    max_plies: int = 300
    hash_mb: int = 2

    def __post_init__(self) -> None:
        if self.nodes is None and self.depth is None:
            object.__setattr__(self, "nodes", 5000)
        _core.DatagenWorker(**self._arguments())  # the core checks every range

    def _arguments(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Header:
    """What a data file's header says: its positions, and the run they come from."""

    count: int
    """Positions in the file."""
    seed: int
    first_game: int
    """The index of the file's first game."""
    games: int
    """Games whose positions the file holds (the last one possibly cut): the next shard of the
    run starts at ``first_game + games``."""
    config: DatagenConfig
    tablebase_men: int
    """The most men of the tables that labelled the positions (0: none)."""
    searched: int
    """Positions searched for the file, kept or not."""
    writer: str
    """The congo version that wrote the file."""


class Record(NamedTuple):
    """One position of a data file."""

    fen: str
    score: int
    """The search's score in centipawns for the side to move (a forced result beyond ``±MAX_CP``:
    ``MATE_SCORE - n`` for a win in ``n`` moves)."""
    result: float
    """The result for the side to move: 1, 0.5 or 0."""
    exact: bool
    """``result`` is the tables' value of this position (else the game's result)."""
    ply: int
    """Moves played in the game before this position."""
    game: int
    """The game's index in the run."""


class GenerationInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`generate`: the finished games were written; ``header`` describes the
    file."""

    def __init__(self, header: Header) -> None:
        super().__init__()
        self.header = header


# -- the header ----------------------------------------------------------------------------------


def _header_fields(header: Header) -> bytes:
    """The header's first 124 bytes."""
    c = header.config
    return _HEADER.pack(
        MAGIC,
        VERSION,
        RECORD_SIZE,
        HEADER_SIZE,
        header.count,
        header.seed,
        header.first_game,
        header.games,
        c.nodes or 0,
        c.depth or 0,
        c.min_random_plies,
        c.max_random_plies,
        c.multipv,
        c.margin,
        c.diversify_plies,
        c.max_plies,
        c.hash_mb,
        header.tablebase_men,
        header.searched,
        header.writer.encode("utf-8")[:16],
        0,
    )[:-4]


def _parse_header(name: str, data: bytes, size: int) -> Header:
    if len(data) < HEADER_SIZE:
        raise DataFileError(f"{name}: {len(data)} bytes, shorter than a data file's header")
    fields = _HEADER.unpack(data[:HEADER_SIZE])
    magic, version, record_size, header_size, count, seed, first, games = fields[:8]
    if magic != MAGIC:
        raise DataFileError(f"{name}: not a congo data file (no {MAGIC.decode()} header)")
    if version != VERSION or record_size != RECORD_SIZE or header_size != HEADER_SIZE:
        raise DataFileError(
            f"{name}: format version {version} with {record_size}-byte records; this congo reads "
            f"version {VERSION} with {RECORD_SIZE}-byte records"
        )
    expected = HEADER_SIZE + count * RECORD_SIZE
    if size != expected:
        what = "truncated" if size < expected else "has trailing bytes"
        raise DataFileError(f"{name}: {what}: {size} bytes for the {count} positions its header counts")
    nodes, depth, lo, hi, multipv, margin, diversify, max_plies, hash_mb, men, searched, writer = fields[8:20]
    try:
        config = DatagenConfig(
            nodes=nodes or None,
            depth=depth or None,
            min_random_plies=lo,
            max_random_plies=hi,
            multipv=multipv,
            margin=margin,
            diversify_plies=diversify,
            max_plies=max_plies,
            hash_mb=hash_mb,
        )
    except (TypeError, ValueError) as error:
        raise DataFileError(f"{name}: its header's settings are invalid: {error}") from None
    return Header(
        count, seed, first, games, config, men, searched, writer.rstrip(b"\0").decode("utf-8", "replace")
    )


def _open(path: PathLike) -> tuple[IO[bytes], Header]:
    """The file, positioned after its header, and the header; the checksum verified."""
    name = os.fspath(path)
    file = open(name, "rb")  # noqa: SIM115 - returned open to the caller
    try:
        size = os.fstat(file.fileno()).st_size
        head = file.read(HEADER_SIZE)
        header = _parse_header(name, head, size)
        crc = 0
        while chunk := file.read(_CHUNK * RECORD_SIZE):
            crc = zlib.crc32(chunk, crc)
        crc = zlib.crc32(head[: HEADER_SIZE - 4], crc)
        (stored,) = struct.unpack("<I", head[HEADER_SIZE - 4 :])
        if crc != stored:
            raise DataFileError(f"{name}: damaged: the checksum does not match its contents")
        file.seek(HEADER_SIZE)
    except BaseException:
        file.close()
        raise
    return file, header


def read_header(path: PathLike) -> Header:
    """The header of a data file, its checksum verified. Raises :class:`DataFileError` for a
    damaged, truncated or foreign file and ``OSError`` when it cannot be read."""
    file, header = _open(path)
    file.close()
    return header


# -- reading -------------------------------------------------------------------------------------


def _game(first: int, stored: int) -> int:
    return first + (stored - first) % _GAME_WRAP


def read(path: PathLike) -> Iterator[Record]:
    """The records of a data file, in file order. The file is verified by this call, before any
    record is read: a damaged, truncated or foreign file raises :class:`DataFileError` (a record
    that is not a valid position raises it when the iteration reaches it)."""
    file, header = _open(path)
    return _records(os.fspath(path), file, header)


def _records(name: str, file: IO[bytes], header: Header) -> Iterator[Record]:
    results = (0.0, 0.5, 1.0)
    done = 0
    with file:
        while chunk := file.read(_CHUNK * RECORD_SIZE):
            try:
                rows = _core.datagen_unpack(chunk)
            except ValueError as error:
                raise DataFileError(f"{name}: {_shifted(str(error), done)}") from None
            for fen, score, result, exact, ply, game in rows:
                yield Record(fen, score, results[result], exact, ply, _game(header.first_game, game))
            done += len(rows)


def _shifted(message: str, offset: int) -> str:
    """A core message ``record I: …`` about a chunk, renumbered for the file."""
    head, _, rest = message.partition(": ")
    if head.startswith("record ") and head[7:].isdigit():
        return f"record {int(head[7:]) + offset}: {rest}"
    return message


def batches(paths: PathLike | Iterable[PathLike], batch_size: int = 65536) -> Iterator[dict[str, Any]]:
    """Streams data files as numpy arrays, ``batch_size`` positions at a time (the last batch of
    each file may be shorter): ``board`` ``int8 (B, 49)`` (squares a1 … g7; ``+role`` for a white
    piece, ``-role`` for a black one, pawn 1 … lion 8, 0 empty), ``white`` (bool: White to move),
    ``score`` (int16), ``result`` (float32: 1, 0.5, 0 for the side to move), ``exact`` (bool),
    ``ply`` and ``fullmove`` (uint16), ``game`` (int64). Each file's checksum is verified before
    its first batch, and every record is checked as it is decoded (in Rust, the GIL released):
    :class:`DataFileError` otherwise. Needs numpy."""
    try:
        import numpy as np
    except ImportError as error:
        from congo._extras import pip_install

        raise ImportError(f"congo.datagen.batches needs numpy: {pip_install('numpy')}") from error
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    names = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    layout = np.dtype(
        [
            ("occupancy", "<u8"),
            ("pieces", "u1", (14,)),
            ("score", "<i2"),
            ("ply", "<u2"),
            ("fullmove", "<u2"),
            ("game", "u1", (3,)),
            ("flags", "u1"),
        ]
    )
    assert layout.itemsize == RECORD_SIZE
    for path in names:
        name = os.fspath(path)
        file, header = _open(path)
        with file:
            done = 0
            while chunk := file.read(batch_size * RECORD_SIZE):
                try:
                    board = np.frombuffer(_core.datagen_boards(chunk), dtype=np.int8).reshape(-1, 49)
                except ValueError as error:
                    raise DataFileError(f"{name}: {_shifted(str(error), done)}") from None
                rows = np.frombuffer(chunk, dtype=layout)
                flags = rows["flags"]
                game = rows["game"].astype(np.int64)
                stored = game[:, 0] | game[:, 1] << 8 | game[:, 2] << 16
                first = header.first_game
                yield {
                    "board": board,
                    "white": (flags & 8) != 0,
                    "score": rows["score"].copy(),
                    "result": ((flags & 3).astype(np.float32) / 2),
                    "exact": (flags & 4) != 0,
                    "ply": rows["ply"].copy(),
                    "fullmove": rows["fullmove"].copy(),
                    "game": first + (stored - first) % _GAME_WRAP,
                }
                done += len(rows)


# -- generating ----------------------------------------------------------------------------------

_TABLES: dict[str, Any] = {}
_TABLES_LOCK = threading.Lock()


def _tables(directory: str) -> Any:
    """The tables of a directory, opened once per process (the pool's threads share them)."""
    with _TABLES_LOCK:
        if directory not in _TABLES:
            _TABLES[directory] = _core.Tablebase(directory)
        return _TABLES[directory]


def _new_worker(arguments: dict[str, Any], tablebase: str | None) -> Any:
    tables = _tables(tablebase) if tablebase is not None else None
    return _core.DatagenWorker(**arguments, tablebase=tables)


def _play(worker: Any, job: tuple[int, int, int]) -> Any:
    played = worker.play(*job)
    if played is None:
        raise RuntimeError("a data game was stopped")  # the pool is being left: nobody waits
    return played


def _stop(worker: Any) -> None:
    worker.stop()


def game_moves(
    index: int, config: DatagenConfig | None = None, *, seed: int = 0, tablebase: PathLike | None = None
) -> list[Move]:
    """The moves of game ``index`` of the run seeded with ``seed`` (the random opening first): the
    game whose positions carry that ``game`` index, played again (the same moves on every machine;
    give the run's ``tablebase`` too if it had one). Raises ``ValueError`` for bad arguments."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 2**64:
        raise ValueError(f"index must be an int from 0 to 2**64 - 1, got {index!r}")
    config = config if config is not None else DatagenConfig()
    tables = _tables(os.fspath(tablebase)) if tablebase is not None else None
    worker = _core.DatagenWorker(**config._arguments(), tablebase=tables)
    moves = worker.moves(seed, index)
    assert moves is not None  # nothing stops this worker
    return [Move.from_uci(uci) for uci in moves]


def _check_positions(positions: object) -> int:
    if isinstance(positions, bool) or not isinstance(positions, int):
        raise TypeError(f"positions must be an int, got {type(positions).__name__}")
    if positions < 1:
        raise ValueError(f"positions must be at least 1, got {positions}")
    return positions


def generate(
    path: PathLike,
    positions: int,
    config: DatagenConfig | None = None,
    *,
    seed: int = 0,
    first_game: int = 0,
    after: PathLike | None = None,
    workers: int | None = None,
    ray: str | None = None,
    tablebase: PathLike | None = None,
    progress: Callable[[int, int, int], object] | None = None,
) -> Header:
    """Plays games ``first_game, first_game + 1, …`` of the run seeded with ``seed`` and writes
    their first ``positions`` kept positions to ``path`` (docs/datagen.md); returns the file's
    header. ``after=PREVIOUS``: the next shard of the run of the data file ``PREVIOUS`` (its seed,
    settings and next game; ``config``, ``seed`` and ``first_game`` must then be left out or
    agree). ``tablebase``: a directory of endgame tables (``congo tablebase generate``) that the
    engine uses and that labels the positions within them exactly. ``workers`` threads (default:
    one per core) or, with ``ray=ADDRESS``, Ray actors (:func:`congo.distributed.open_pool`): the
    file is the same either way. ``progress(positions, games, searched)`` is called after each game.

    The file is written whole or not at all (a temporary file next to it, renamed into place), and
    never over an input. Ctrl-C writes the games finished so far, then raises
    :class:`GenerationInterrupted`. Raises ``ValueError`` for bad arguments and
    :class:`DataFileError` for a damaged ``after`` file."""
    from congo.distributed import open_pool

    positions = _check_positions(positions)
    for name, value in (("seed", seed), ("first_game", first_game)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
            raise ValueError(f"{name} must be an int from 0 to 2**64 - 1, got {value!r}")
    inputs: list[PathLike] = []
    if after is not None:
        previous = read_header(after)
        inputs.append(after)
        if config is not None and config != previous.config:
            raise ValueError(
                f"the settings differ from those of {os.fspath(after)!r}: leave them out to continue its run"
            )
        if seed not in (0, previous.seed) or first_game not in (0, previous.first_game + previous.games):
            raise ValueError(f"seed and first_game come from {os.fspath(after)!r}: leave them out")
        config, seed, first_game = previous.config, previous.seed, previous.first_game + previous.games
    config = config if config is not None else DatagenConfig()
    tables_dir = None
    men = 0
    if tablebase is not None:
        tables_dir = os.fspath(tablebase)
        try:
            men = _tables(tables_dir).max_men
        except OSError as error:
            raise ValueError(f"cannot open the tables in {tables_dir}: {error.strerror or error}") from None
    if after is not None:
        # The positions depend on the tables and on the engine as much as on the settings: a shard
        # made with others would be silently another run's.
        if men != previous.tablebase_men:
            used = f"tables of up to {previous.tablebase_men} men" if previous.tablebase_men else "no tables"
            given = f"tables of up to {men} men" if men else "none"
            raise ValueError(
                f"{os.fspath(after)!r} was made with {used}, this shard would use {given}: give "
                "--tablebase with the same tables to continue its run"
            )
        if previous.writer != _core.__version__:
            raise ValueError(
                f"{os.fspath(after)!r} was written by congo {previous.writer}, this is "
                f"{_core.__version__}: another engine plays other games, so its run cannot be "
                "continued (start a new run with --seed)"
            )
    check_writable(path, inputs=inputs)
    factory = functools.partial(_new_worker, config._arguments(), tables_dir)
    jobs = ((seed, index, 1) for index in range(first_game, 2**64))
    written = searched = games = 0
    crc = 0
    interrupted = False
    writer: str = _core.__version__
    with atomic_output(path, "wb", inputs=inputs) as out:
        seekable = out.seekable()
        held = bytearray()
        if seekable:
            out.write(bytes(HEADER_SIZE))
        with open_pool(factory, _play, workers=workers, ray=ray, stop=_stop) as pool:
            results = pool.imap(jobs)
            try:
                for data, counts, searched_now, _winners in results:
                    part = data[: min(len(data), (positions - written) * RECORD_SIZE)]
                    grown = zlib.crc32(part, crc)
                    if seekable:
                        out.write(part)
                    else:
                        held += part
                    crc, written, games = grown, written + len(part) // RECORD_SIZE, games + len(counts)
                    searched += searched_now
                    if progress is not None:
                        progress(written, games, searched)
                    if written >= positions:
                        break
            except KeyboardInterrupt:
                # Only whole games are kept: a game written in part when Ctrl-C came is cut off
                # (the next shard starts after the last game counted).
                interrupted = True
                if seekable:
                    out.truncate(HEADER_SIZE + written * RECORD_SIZE)
                else:
                    del held[written * RECORD_SIZE :]
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
        header = Header(written, seed, first_game, games, config, men, searched, writer)
        fields = _header_fields(header)
        crc = zlib.crc32(fields, crc)
        head = fields + struct.pack("<I", crc)
        if seekable:
            out.seek(0)
            out.write(head)
        else:
            out.write(head + held)
    if interrupted:
        raise GenerationInterrupted(header)
    return header
