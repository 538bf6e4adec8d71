"""Opening books: moves with weights for the positions of the opening, read in python-chess's shape.

>>> import congo, congo.book
>>> with congo.book.open_reader(congo.book.default_book()) as reader:
...     entry = reader.find(congo.Board())
...     entry.move in congo.Board().legal_moves
True

A book maps a position (its :meth:`~congo.Board.zobrist_hash`: placement and side to move) to
moves with weights. :func:`open_reader` reads and checks a file whole (magic, version, length,
checksum, every move, the order of the entries); a damaged, truncated or foreign file raises
:class:`BookError`, a ``ValueError``. The :class:`Reader` then answers in Rust, a directory
lookup and a few keys per probe: :meth:`~Reader.find` (the heaviest entry),
:meth:`~Reader.find_all`, :meth:`~Reader.get`, :meth:`~Reader.choice` and
:meth:`~Reader.weighted_choice`, with python-chess's
``minimum_weight`` and ``exclude_moves``. Probing with a board (or a :class:`~congo.Position`)
returns only moves legal there; probing with a key (an int) returns every entry of the key.

Books are made from game records by :func:`make` (``congo book make``): every move of every
game up to ``max_ply`` plies, weighted by the games' results for the side that played it (a win 2,
a draw 1, a loss 0, as polyglot's makers count), kept when at least ``min_games`` games played
it. :func:`merge` sums the weights of equal moves; :func:`write` writes a file atomically.
The format, byte by byte, is in ``docs/book.md``.
"""

from __future__ import annotations

import collections
import importlib.resources
import os
import random as _random
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, Union

from congo import _core
from congo._core import Move
from congo._files import atomic_output
from congo.board import Board

__all__ = [
    "DRAW_POINTS",
    "LOSS_POINTS",
    "WIN_POINTS",
    "BookError",
    "Entry",
    "Reader",
    "default_book",
    "dump",
    "make",
    "merge",
    "open_reader",
    "openings",
    "read_entries",
    "write",
]

PathLike = Union[str, "os.PathLike[str]"]

Entry = _core.BookEntry
"""One move of a book position: ``key``, ``move``, ``weight``, ``learn`` (and ``raw_move``, the
move's code in the file). Frozen and hashable; ``Entry(key, move, weight, learn=0)`` makes one."""

Reader = _core.BookReader
"""A book read from a file (:func:`open_reader`). A context manager; ``len(reader)`` is its number of
entries, ``board in reader`` whether it has the position."""

BookError = _core.BookError
"""A book file that is damaged, truncated, of another format version or not a book at all, or
entries that cannot be written (the null move; a position's move twice). A ``ValueError``."""

WIN_POINTS = 2
"""What a won game adds to the weight of each of the winner's moves in :func:`make`."""
DRAW_POINTS = 1
"""What a drawn game adds to the weight of each move played in it."""
LOSS_POINTS = 0
"""What a lost game adds to the weight of each of the loser's moves."""

_POINTS = {"1-0": (WIN_POINTS, LOSS_POINTS), "0-1": (LOSS_POINTS, WIN_POINTS), "1/2-1/2": (DRAW_POINTS,) * 2}


def open_reader(path: PathLike) -> Reader:
    """Reads and checks the book at ``path``. Raises :class:`BookError` for a file that is not a
    valid book, ``OSError`` for one that cannot be read."""
    return _core.BookReader(path)


def default_book() -> str:
    """The path of the bundled book (``congo/data/book.cbk``), made from the engine's own games
    (``benches/make_book.py`` says how, ``benches/results/book.txt`` what it holds)."""
    return str(importlib.resources.files("congo").joinpath("data/book.cbk"))


def write(path: PathLike, entries: Iterable[Entry], *, inputs: Iterable[PathLike] = ()) -> int:
    """Writes a book of ``entries`` (any order) to ``path``, whole or not at all, never over one of
    ``inputs`` (``congo._files.atomic_output``). Returns the number of entries. Raises
    :class:`BookError` if a position's move appears twice (merge them first: :func:`merge`)."""
    entries = list(entries)
    data = _core.book_encode(entries)
    with atomic_output(path, "wb", inputs=inputs) as file:
        file.write(data)
    return len(entries)


def read_entries(path: PathLike) -> list[Entry]:
    """Every entry of the book at ``path``, in the file's order."""
    with open_reader(path) as reader:
        return reader.entries()


def _records(
    sources: Iterable[PathLike | TextIO], on_problem: Callable[[str], object] | None
) -> Iterator[tuple[Board, list[Move], str]]:
    """(start board, moves, result) of every game of the sources (paths or text handles)."""
    from congo import pgn

    for source in sources:
        path = isinstance(source, (str, os.PathLike))
        name = os.fspath(source) if path else str(getattr(source, "name", "the input"))  # type: ignore[arg-type]
        try:
            if path:
                with open(source, encoding="utf-8") as handle:  # type: ignore[arg-type]
                    yield from _games(pgn.iter_games(handle), name, on_problem)
            else:
                yield from _games(pgn.iter_games(source), name, on_problem)  # type: ignore[arg-type]
        except UnicodeDecodeError as error:  # a data file, a book: not records at all
            byte = error.object[error.start]
            raise ValueError(
                f"{name}: not game records (not UTF-8 text: byte {error.start} is {byte:#04x})"
            ) from None


def _games(
    games: Iterable[object], name: str, on_problem: Callable[[str], object] | None
) -> Iterator[tuple[Board, list[Move], str]]:
    from congo import pgn

    for number, game in enumerate(games, 1):
        assert isinstance(game, pgn.Game)
        if game.errors and on_problem is not None:
            on_problem(f"{name}, game {number}: {game.errors[0]}")
        yield game.board(), game.mainline_moves(), game.headers.get("Result", "*")


def make(
    records: Iterable[PathLike | TextIO],
    *,
    min_games: int = 1,
    max_ply: int = 20,
    on_problem: Callable[[str], object] | None = None,
) -> tuple[list[Entry], dict[str, int]]:
    """The entries of a book made from game records (paths or text handles of PGN-style records,
    as :mod:`congo.pgn` reads them), and counts of what was read.

    Every move of a game's first ``max_ply`` plies becomes an entry of the position before it; its
    weight is the sum, over the games that played it there, of the points of the side that played
    it (:data:`WIN_POINTS`, :data:`DRAW_POINTS`, :data:`LOSS_POINTS`). A position and move played
    by fewer than ``min_games`` games is left out; so are games without a result (``*``). A move
    that only lost keeps weight 0: :meth:`Reader.find` skips it unless ``minimum_weight=0``.
    ``on_problem(text)`` is told of each record with a problem (a bad or illegal move: its moves
    from there are skipped), its first problem named. Raises ``ValueError`` for a source that is
    not text. The counts: ``games`` read, ``used`` (with a result), ``entries``, ``positions``."""
    if isinstance(min_games, bool) or not isinstance(min_games, int) or min_games < 1:
        raise ValueError(f"min_games must be a positive integer, got {min_games!r}")
    if isinstance(max_ply, bool) or not isinstance(max_ply, int) or max_ply < 1:
        raise ValueError(f"max_ply must be a positive integer, got {max_ply!r}")
    weights: collections.Counter[tuple[int, Move]] = collections.Counter()
    games: collections.Counter[tuple[int, Move]] = collections.Counter()
    read = used = 0
    for board, moves, result in _records(records, on_problem):
        read += 1
        points = _POINTS.get(result)
        if points is None:
            continue
        used += 1
        position = board._position
        seen: set[tuple[int, Move]] = set()
        for move in moves[:max_ply]:
            pair = (position.zobrist_hash(), move)
            if pair not in seen:  # a repetition counts a game once
                seen.add(pair)
                games[pair] += 1
                weights[pair] += points[0 if position.turn else 1]
            try:
                position = position.push(move)
            except ValueError:  # a record's bad move ends its line; the reader has said so
                break
    entries = [
        Entry(key, move, min(weights[key, move], 2**32 - 1))
        for (key, move), count in games.items()
        if count >= min_games
    ]
    counts = {
        "games": read,
        "used": used,
        "entries": len(entries),
        "positions": len({entry.key for entry in entries}),
    }
    return entries, counts


def merge(*books: Iterable[Entry]) -> list[Entry]:
    """The entries of several books (readers or lists of entries) as one: a position's equal moves
    summed, weights and learn values saturating at 2**32 - 1."""
    weights: dict[tuple[int, Move], list[int]] = {}
    for book in books:
        for entry in book:
            pair = (entry.key, entry.move)
            total = weights.setdefault(pair, [0, 0])
            total[0] += entry.weight
            total[1] += entry.learn
    limit = 2**32 - 1
    return [Entry(key, move, min(w, limit), min(learn, limit)) for (key, move), (w, learn) in weights.items()]


def dump(reader: Reader) -> Iterator[str]:
    """The lines of ``congo book dump``: one entry a line, ``FEN move weight learn``, for the
    positions reached from the start position by book moves (in the order of a walk that plays
    the heaviest first), then ``key move weight learn`` (the key in hexadecimal) for the others."""
    named: set[int] = set()
    shown: set[Entry] = set()
    stack = [Board()]
    while stack:
        board = stack.pop()
        key = board.zobrist_hash()
        if key in named or key not in reader:
            continue
        named.add(key)
        entries = reader.find_all(board, minimum_weight=0)  # the moves legal here
        for entry in entries:
            shown.add(entry)
            yield f"{board.fen()}  {entry.move.uci()}  {entry.weight}  {entry.learn}"
        for entry in reversed(entries):
            after = board.copy(stack=False)
            after.push(entry.move)
            stack.append(after)
    # Everything else, a move not legal in the position reached under its key included.
    for entry in reader:
        if entry not in shown:
            yield f"{entry.key:016x}  {entry.move.uci()}  {entry.weight}  {entry.learn}"


def openings(
    reader: Reader, count: int, *, seed: int = 0, max_plies: int = 40, attempts: int = 20
) -> list[str]:
    """``count`` opening positions (FENs) for a match, each the end of a line from the start
    position whose every move, of either side, is a weighted choice of the book
    (:meth:`Reader.weighted_choice` with ``random.Random(seed)``), until the book has no entry for
    the position (or ``max_plies`` plies). Distinct when the book allows it (up to ``attempts``
    tries each), repeated otherwise. Raises :class:`BookError` if the book has no move for the
    start position."""
    if Board() not in reader or not reader.find_all(Board()):
        raise BookError(f"the book {os.fspath(reader.path)} has no move for the start position")
    generator = _random.Random(seed)
    found: list[str] = []
    seen: set[str] = set()
    while len(found) < count:
        for _ in range(attempts):
            fen = _line_end(reader, generator, max_plies)
            if fen not in seen:
                break
        seen.add(fen)
        found.append(fen)
    return found


def _line_end(reader: Reader, generator: _random.Random, max_plies: int) -> str:
    board = Board()
    for _ in range(max_plies):
        entry = reader.get(board) and reader.weighted_choice(board, random=generator)
        if entry is None:
            break
        board.push(entry.move)
        if board.is_game_over():
            board.pop()
            break
    return board.fen()
