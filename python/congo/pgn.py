"""Game records in a PGN-style text format: reading, writing and editing games.

A record is a block of tags followed by the moves::

    [Event "Club championship"]
    [Site "?"]
    [Date "2024.05.01"]
    [Round "1"]
    [White "Ada"]
    [Black "Bert"]
    [Result "1-0"]
    [Variant "Congo"]

    1. Zf3 Ec5 {a quiet start} 2. cc3 (2. Ee3 Mb5) 2... Gc7 ... 1-0

Moves are written in this project's SAN (``docs/notation.md``); on reading, move strings in the machine
notation (``b1d3f5``) are accepted too. A game that does not start from the start position carries
``[SetUp "1"]`` and ``[FEN "..."]``. Comments (``{...}`` and ``; ...``), numeric annotation glyphs
(``$1``, and ``!``/``?`` suffixes), variations in parentheses and the four results ``1-0``, ``0-1``,
``1/2-1/2`` and ``*`` are supported.

Reading is tolerant, as in python-chess: :func:`read_game` never raises for a malformed record (unless
``strict=True``). Each problem becomes a :class:`PgnError` (a ``ValueError`` with the line number) in
:attr:`Game.errors`, and the rest of the record is still read: after a bad or illegal move, the other
moves of that line are skipped, so the game holds the moves up to the problem.

>>> import io, congo.pgn
>>> game = congo.pgn.read_game(io.StringIO('[White "Ada"]\\n\\n1. Zf3 Ec5 2. cc3 *'))
>>> [move.uci() for move in game.mainline_moves()]
['g1f3', 'c7c5', 'c2c3']
>>> game.end().board().fen()
'gm1lecz/ppppppp/2e4/7/2P2Z1/PP1PPPP/GMELEC1 b 2'
"""

from __future__ import annotations

import abc
import collections
import enum
import math
import re
import typing
import weakref
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Any, Callable, Final, Generic, TextIO, TypeVar

from congo import _core
from congo._core import STARTING_FEN, IllegalMoveError, Move, Position
from congo.board import Board
from congo.engine import PovScore, Score
from congo.svg import Arrow

__all__ = [
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DUBIOUS_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_SPECULATIVE_MOVE",
    "SKIP",
    "TAG_ROSTER",
    "BaseVisitor",
    "BoardBuilder",
    "ChildNode",
    "Game",
    "GameBuilder",
    "GameNode",
    "Headers",
    "HeadersBuilder",
    "MoveStats",
    "PgnError",
    "SkipType",
    "SkipVisitor",
    "iter_games",
    "read_game",
    "read_headers",
    "skip_game",
    "write_game",
]

NAG_GOOD_MOVE: Final = 1
"""``!``"""
NAG_MISTAKE: Final = 2
"""``?``"""
NAG_BRILLIANT_MOVE: Final = 3
"""``!!``"""
NAG_BLUNDER: Final = 4
"""``??``"""
NAG_SPECULATIVE_MOVE: Final = 5
"""``!?``"""
NAG_DUBIOUS_MOVE: Final = 6
"""``?!``"""

TAG_ROSTER: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The Seven Tag Roster: always written first, in this order."""

_DEFAULT_TAGS: Final = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
    "Variant": "Congo",
}
_RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
_MOVE_NUMBER: Final = re.compile(r"\d+\.+", re.ASCII)


class PgnError(ValueError):
    """A problem in a game record: a malformed tag, an invalid or illegal move, an unknown variant, a
    bad FEN, a stray character. ``line`` is the line number in the handle (from 1), or ``None``."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


# -- headers -------------------------------------------------------------------------------------


class Headers(MutableMapping[str, str]):
    """The tags of a game, in order: the Seven Tag Roster first, then the others as added.

    ``Headers()`` holds the roster with unknown values (``"?"``, ``"????.??.??"``, result ``"*"``)
    and ``[Variant "Congo"]``; ``Headers({})`` or :meth:`Game.without_tag_roster` holds nothing.
    Setting a tag raises ``TypeError`` for a non-str name or value and ``ValueError`` for a name that
    is not a PGN tag name or a value with a line break."""

    def __init__(self, data: Iterable[tuple[str, str]] | dict[str, str] | None = None) -> None:
        self._tags: dict[str, str] = {}
        items = _DEFAULT_TAGS.items() if data is None else (data.items() if isinstance(data, dict) else data)
        for key, value in items:
            self[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tags[key]

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"a tag name and value are str, got {type(key).__name__}: {type(value).__name__}")
        if not _core.is_tag_name(key):
            raise ValueError(f"{key!r} is not a PGN tag name (letters, digits and _ + # = : -)")
        if "\n" in value or "\r" in value:
            raise ValueError(f"the value of tag {key!r} contains a line break")
        self._tags[key] = value

    def __delitem__(self, key: str) -> None:
        del self._tags[key]

    @classmethod
    def _trusted(cls, pairs: list[tuple[str, str]]) -> Headers:
        """Headers from tags the record reader has already checked."""
        headers = cls.__new__(cls)
        headers._tags = dict(pairs)
        return headers

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._tags:
                yield key
        for key in self._tags:
            if key not in TAG_ROSTER:
                yield key

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        """A copy."""
        return Headers(list(self.items()))

    def __repr__(self) -> str:
        pairs = ", ".join(f"{key}={value!r}" for key, value in self.items())
        return f"Headers({pairs})"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# ASCII digits only: a str pattern's \d also matches other scripts' digits, which int() reads.
_EVAL: Final = re.compile(
    r"\[%eval\s+(?:#([+-]?\d{1,5})|([+-]?(?:\d{1,10}(?:\.\d*)?|\.\d+)))(?:,\d+)?\]", re.ASCII
)
_ARROW_ITEMS: Final = r"[GRYB][a-g][1-7](?:[a-g][1-7])?"
_ARROWS: Final = re.compile(rf"\[%(?:csl|cal)\s+({_ARROW_ITEMS}(?:,{_ARROW_ITEMS})*)\]")
_CLOCK: Final = re.compile(r"\[%clk\s+(\d{1,6}):(\d{1,2}):(\d{1,2}(?:\.\d*)?)\]", re.ASCII)
_STATS: Final = re.compile(
    r"(?:^|\s)(?:([+-]?\d{1,7}\.\d\d)|([+-])M(\d{1,5}))/(\d{1,4}) (\d{1,9}(?:\.\d+)?)s"
    r"(?:,\s+n=(\d{1,20}))?(?=[,\s]|$)",
    re.ASCII,
)


class MoveStats(typing.NamedTuple):
    """What an engine said of its move in a match record, as fastchess and ``congo match`` write
    it first in the move's comment: ``{+0.35/12 0.101s, n=4521}``."""

    score: Score
    """From the mover's point of view (``+M3``: it mates with its 3rd move; ``-M2``: it is mated)."""
    depth: int
    time: float
    """Seconds the move took."""
    nodes: int | None


def _eval_text(score: PovScore) -> str:
    """``0.35``, ``-1.20``, ``#3``, ``#-2`` (White's point of view), ``#0`` (the side to move has
    lost), or ``""`` for ``MateGiven`` (which no annotation expresses, as in python-chess)."""
    relative = score.relative
    sign = 1 if score.turn else -1
    if relative.mate is not None:
        if relative.mate == 0:
            return "#0" if relative.score() < 0 else ""
        return f"#{sign * relative.mate}"
    return f"{sign * (relative.cp or 0) / 100:.2f}"


def _set_annotation(comment: str, pattern: re.Pattern[str], text: str) -> str:
    comment, found = pattern.subn(text.replace("\\", "\\\\"), comment, count=1)
    if not found and text:
        comment = f"{comment} {text}" if comment and not comment.endswith(" ") else comment + text
    elif found and not text:
        comment = " ".join(comment.split())
    return comment


# -- the game tree ----------------------------------------------------------------------------


class GameNode:
    """A point in a game: the move that led here (``None`` at the start), comments, annotation glyphs
    and the moves played from here (``variations``; the first is the main line)."""

    # Slots, and the glyph set made on first use: a record of 100,000 games makes millions of nodes,
    # and an empty set per node doubled the time to build them.
    __slots__ = ("_nags", "comment", "move", "parent", "variations")

    parent: GameNode | None
    move: Move | None
    variations: list[ChildNode]
    comment: str
    """The comment after the move (for the game itself: before the first move)."""

    def __init__(self) -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = ""
        self._nags: set[int] | None = None

    @property
    def nags(self) -> set[int]:
        """Numeric annotation glyphs, e.g. ``{NAG_GOOD_MOVE}`` for ``!``."""
        nags = self._nags
        if nags is None:
            nags = self._nags = set()
        return nags

    @nags.setter
    def nags(self, nags: Iterable[int]) -> None:
        self._nags = set(nags)

    # -- navigation --

    def game(self) -> Game:
        """The :class:`Game` at the root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise ValueError("this node is not attached to a Game")
        return node

    def ply(self) -> int:
        """The number of moves from the start of the game to this node."""
        n = 0
        node = self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def board(self) -> Board:
        """A new :class:`~congo.Board` at this node, with the moves from the game's start on its
        stack. Raises :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` if the
        game's ``FEN`` tag is bad."""
        moves: list[Move] = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        board = self.game().board()
        for move in reversed(moves):
            board.push(move)
        return board

    def next(self) -> ChildNode | None:
        """The main-line continuation, or ``None`` at the end."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        """Whether no move follows."""
        return not self.variations

    def is_mainline(self) -> bool:
        """Whether this node is on the game's main line."""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self) -> Iterator[ChildNode]:
        """The main-line nodes after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[Move]:
        """The main-line moves after this node."""
        return [node.move for node in self.mainline()]

    def variation(self, move: Move | int) -> ChildNode:
        """The continuation with this move, or with this index. Raises ``KeyError``."""
        if isinstance(move, int) and not isinstance(move, bool):
            try:
                return self.variations[move]
            except IndexError:
                raise KeyError(move) from None
        for child in self.variations:
            if child.move == move:
                return child
        raise KeyError(move)

    def has_variation(self, move: Move) -> bool:
        """Whether a continuation with this move exists."""
        return any(child.move == move for child in self.variations)

    # -- annotations in comments --

    def turn(self) -> bool:
        """The side to move at this node (``congo.WHITE`` is ``True``)."""
        return self.game().board().turn ^ (self.ply() % 2 == 1)

    def eval(self) -> PovScore | None:
        """The evaluation in the first ``[%eval …]`` annotation of the comment, or ``None``.

        ``[%eval 0.35]`` is in pawns from White's point of view, ``[%eval #3]`` a forced win for
        White with White's 3rd move, ``[%eval #-2]`` one for Black, ``[%eval #0]`` a game already
        lost by the side to move (as lichess and python-chess write them). The value is a
        :class:`PovScore` seen from the side to move at this node."""
        match = _EVAL.search(self.comment)
        if match is None:
            return None
        turn = self.turn()
        mate, pawns = match.group(1), match.group(2)
        if mate is not None:
            white_mate = int(mate)
            if white_mate == 0:
                return PovScore(Score(mate=0), turn)
            return PovScore(Score(mate=white_mate if turn else -white_mate), turn)
        white_cp = round(float(pawns) * 100)
        return PovScore(Score(cp=white_cp if turn else -white_cp), turn)

    def set_eval(self, score: PovScore | None) -> None:
        """Replaces the first ``[%eval …]`` annotation of the comment with ``score`` (or removes it
        for ``None``), or adds one at the end. Raises ``TypeError`` for anything but a
        :class:`PovScore` or ``None``."""
        text = ""
        if score is not None:
            if not isinstance(score, PovScore):
                raise TypeError(f"expected a PovScore or None, got {type(score).__name__}")
            value = _eval_text(score)
            text = f"[%eval {value}]" if value else ""
        self.comment = _set_annotation(self.comment, _EVAL, text)

    def move_stats(self) -> MoveStats | None:
        """The engine's score, depth, time and nodes of the first ``+0.35/12 0.101s, n=4521``
        annotation of the comment (what ``congo match`` and fastchess write), or ``None``."""
        match = _STATS.search(self.comment)
        if match is None:
            return None
        pawns, sign, mate, depth, seconds, nodes = match.groups()
        if pawns is not None:
            score = Score(cp=round(float(pawns) * 100))
        else:
            score = Score(mate=int(mate) if sign == "+" else -int(mate))
        return MoveStats(score, int(depth), float(seconds), None if nodes is None else int(nodes))

    def clock(self) -> float | None:
        """The clock time in seconds in the first ``[%clk h:mm:ss]`` annotation of the comment (the
        mover's time left after the move), or ``None``."""
        match = _CLOCK.search(self.comment)
        if match is None:
            return None
        hours, minutes, seconds = match.groups()
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)

    def set_clock(self, seconds: float | None, *, digits: int = 1) -> None:
        """Replaces the first ``[%clk …]`` annotation of the comment (or removes it for ``None``),
        or adds one at the end. Fractions of a second are kept to a tenth (a whole second written
        without one), or to ``digits`` decimals, always written, for ``digits`` 2 or 3 (match
        records keep milliseconds). Raises ``TypeError`` for a non-number and ``ValueError`` for a
        negative or non-finite one, or ``digits`` outside 1 … 3."""
        if digits not in (1, 2, 3) or isinstance(digits, bool):
            raise ValueError(f"digits must be 1, 2 or 3, got {digits!r}")
        text = ""
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise TypeError(f"seconds must be a number or None, got {type(seconds).__name__}")
            if not math.isfinite(seconds) or seconds < 0:
                raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
            scale = 10**digits
            units = round(seconds * scale)
            whole, part = divmod(units, scale)
            hours, rest = divmod(whole, 3600)
            minutes, secs = divmod(rest, 60)
            fraction = f".{part:0{digits}d}" if part or digits > 1 else ""
            text = f"[%clk {hours}:{minutes:02d}:{secs:02d}{fraction}]"
        self.comment = _set_annotation(self.comment, _CLOCK, text)

    def arrows(self) -> list[Arrow]:
        """The arrows and marked squares of every ``[%cal Gc1c3,Rd2d4]`` and ``[%csl Rd4]``
        annotation of the comment, in order, as :class:`congo.svg.Arrow` objects (a marked square is
        an arrow whose tail is its head; colours ``green``, ``red``, ``yellow``, ``blue`` from the
        letters ``G R Y B``). Annotations that do not parse are left alone, as python-chess does."""
        return [
            Arrow.from_pgn(item) for match in _ARROWS.finditer(self.comment) for item in match[1].split(",")
        ]

    def set_arrows(self, arrows: Iterable[Arrow | tuple[int, int]]) -> None:
        """Replaces every ``[%csl …]`` and ``[%cal …]`` annotation of the comment with one of each
        (marked squares in ``[%csl]``, arrows in ``[%cal]``; an empty iterable removes them), where
        the first one stood, or at the end. Items are :class:`congo.svg.Arrow` objects or
        ``(tail, head)`` pairs of squares (green). Raises ``TypeError`` for anything else and
        ``ValueError`` for a square off the board; the comment is then unchanged."""
        marks: list[str] = []
        lines: list[str] = []
        for item in arrows:
            if isinstance(item, tuple) and len(item) == 2:
                item = Arrow(item[0], item[1], "green")
            if not isinstance(item, Arrow):
                raise TypeError(f"an arrow is a congo.svg.Arrow or a (tail, head) pair, got {item!r}")
            (marks if item.tail == item.head else lines).append(item.pgn())
        text = (f"[%csl {','.join(marks)}]" if marks else "") + (f"[%cal {','.join(lines)}]" if lines else "")
        first = _ARROWS.search(self.comment)
        if first is None:
            self.comment = _set_annotation(self.comment, _ARROWS, text)
            return
        before, after = self.comment[: first.start()], _ARROWS.sub("", self.comment[first.start() :])
        comment = before + text + after
        self.comment = comment if text else " ".join(comment.split())

    # -- editing --

    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Adds a continuation (after the existing ones) and returns its node.

        Raises :class:`~congo.IllegalMoveError` if the move is not legal here and ``TypeError`` for a
        non-Move."""
        if not isinstance(move, Move):
            raise TypeError(f"expected a congo.Move, got {type(move).__name__}")
        if not self.board().is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()} at ply {self.ply() + 1} of the game")
        node = self._add(move)
        node.comment = comment
        node.starting_comment = starting_comment
        node.nags.update(nags)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> ChildNode:
        """Adds a continuation as the new main line. Raises like :meth:`add_variation`."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[Move], *, comment: str = "") -> GameNode:
        """Adds a sequence of moves as a variation (each the first continuation after the previous)
        and returns the last node; ``comment`` goes on it. Raises :class:`~congo.IllegalMoveError`
        before changing anything if a move is not legal where it would be played."""
        board = self.board()
        checked: list[Move] = []
        for move in moves:
            if not isinstance(move, Move):
                raise TypeError(f"expected congo.Move objects, got {type(move).__name__}")
            if not board.is_legal(move):
                raise IllegalMoveError(f"illegal move {move.uci()} at ply {board.ply() + 1} of the line")
            board.push(move)
            checked.append(move)
        node: GameNode = self
        for move in checked:
            node = node._add(move)
        if comment:
            node.comment = comment
        return node

    def promote_to_main(self, move: Move) -> None:
        """Makes the continuation with this move the main line. Raises ``KeyError``."""
        child = self.variation(move)
        self.variations.remove(child)
        self.variations.insert(0, child)

    def remove_variation(self, move: Move) -> None:
        """Removes the continuation with this move and everything after it. Raises ``KeyError``."""
        self.variations.remove(self.variation(move))

    def _add(self, move: Move) -> ChildNode:
        """Appends a continuation without checking legality (the caller has)."""
        node = ChildNode(self, move)
        self.variations.append(node)
        return node


class ChildNode(GameNode):
    """A node reached by a move: ``move`` and ``parent`` are set."""

    __slots__ = ("starting_comment",)

    parent: GameNode
    move: Move
    starting_comment: str
    """A comment before the move, written only where a variation starts."""

    def __init__(self, parent: GameNode, move: Move) -> None:
        # Every attribute set here rather than through GameNode.__init__: a record of 100,000
        # games makes millions of nodes.
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = ""
        self._nags = None
        self.starting_comment = ""

    def san(self) -> str:
        """The move in SAN, in the position before it. Raises like :meth:`GameNode.board`."""
        return self.parent.board().san(self.move)

    def uci(self) -> str:
        """The move in the machine notation (``b1d3f5``)."""
        return self.move.uci()

    def __repr__(self) -> str:
        return f"<ChildNode at {id(self):#x} (ply {self.ply()}: {self.move.uci()})>"


class Game(GameNode):
    """A game record: :attr:`headers`, the tree of moves from :meth:`board`, and :attr:`errors` found
    while reading it.

    ``str(game)`` (or :meth:`export`) writes the record; :func:`read_game` reads one."""

    def __init__(self, headers: Headers | dict[str, str] | None = None) -> None:
        self._events: list[Move | int | str] | None = None
        super().__init__()
        self.headers: Headers = headers if isinstance(headers, Headers) else Headers(headers)
        self.errors: list[PgnError] = []
        """Problems found while reading the record (empty for a clean record or a game built in code)."""

    # A game read by read_game keeps its moves as the reader's events (moves already checked, in
    # Rust) and makes the tree's nodes when they are first needed: reading a big file for some of
    # its games, or for their headers and errors, then costs no node at all.

    @property
    def variations(self) -> list[ChildNode]:
        """The moves played from the start (the first is the main line)."""
        events = self._events
        if events is not None:
            self._events = None
            _grow_tree(self, events)
        variations: list[ChildNode] = _VARIATIONS.__get__(self, Game)
        return variations

    @variations.setter
    def variations(self, variations: list[ChildNode]) -> None:
        self._events = None
        _VARIATIONS.__set__(self, variations)

    @property
    def nags(self) -> set[int]:
        """Numeric annotation glyphs of the game itself."""
        self.variations  # noqa: B018 - a glyph in the events may belong to the game
        nags: set[int] = _NAGS.__get__(self, Game)
        return nags

    @nags.setter
    def nags(self, nags: Iterable[int]) -> None:
        _NAGS.__set__(self, nags)

    @classmethod
    def without_tag_roster(cls) -> Game:
        """A game with no tags at all."""
        return cls(Headers({}))

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game of the moves on a board's stack, from the position before the first of them (with
        ``SetUp``/``FEN`` tags if that is not the start position) and ``Result`` set to
        ``board.result()``. Raises ``TypeError`` for a non-Board."""
        if not isinstance(board, Board):
            raise TypeError(f"expected a congo.Board, got {type(board).__name__}")
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for move in board.move_stack:
            node = node._add(move)
        game.headers["Result"] = board.result()
        return game

    def board(self) -> Board:
        """A new :class:`~congo.Board` at the start of the game: the ``FEN`` tag if there is one,
        else the start position. Raises :class:`~congo.InvalidFenError` or
        :class:`~congo.InvalidPositionError` for a bad ``FEN`` tag."""
        fen = self.headers.get("FEN")
        return Board() if fen is None else Board(fen)

    def setup(self, board: Board | Position | str) -> None:
        """Sets the starting position: the ``SetUp`` and ``FEN`` tags, removed again for the start
        position. Raises :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for
        a bad FEN and ``TypeError`` for anything but a Board, Position or str."""
        if isinstance(board, (Board, Position)):
            fen = board.fen()
        elif isinstance(board, str):
            fen = Position(board).fen()
        else:
            raise TypeError(f"expected a congo.Board, Position or FEN str, got {type(board).__name__}")
        if fen == STARTING_FEN:
            self.headers.pop("SetUp", None)
            self.headers.pop("FEN", None)
        else:
            self.headers["SetUp"] = "1"
            self.headers["FEN"] = fen

    def export(
        self,
        *,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
        columns: int | None = 80,
    ) -> str:
        """The record as text: tags, a blank line, then the moves wrapped at ``columns`` (``None``: one
        line) and the result. Raises :class:`~congo.IllegalMoveError` if the tree holds a move that
        is not legal where it stands (possible only after changing the ``FEN`` tag)."""
        out: list[str] = []
        if headers:
            out.extend(f'[{key} "{_escape(value)}"]' for key, value in self.headers.items())
            out.append("")
        words: list[str] = []
        if comments and self.comment:
            words.extend(_comment_words(self.comment))
        if self.variations:  # a game without moves needs no board: one whose FEN tag is bad still writes
            board = self.board()
            _export_line(self, board, words, comments=comments, variations=variations, force_number=True)
        words.append(self.headers.get("Result", "*"))
        out.extend(_wrap(words, columns))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.export()

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return (
            f"<Game at {id(self):#x} ({white!r} vs. {black!r}, {self.headers.get('Date', '????.??.??')!r})>"
        )


def _comment_words(comment: str) -> list[str]:
    words = comment.replace("}", "").split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def _move_words(
    node: ChildNode, board: Board, words: list[str], *, comments: bool, force_number: bool
) -> None:
    if board.turn:
        words.append(f"{board.fullmove_number}.")
    elif force_number:
        words.append(f"{board.fullmove_number}...")
    words.append(board.san(node.move))
    words.extend(f"${nag}" for nag in sorted(node.nags))
    if comments and node.comment:
        words.extend(_comment_words(node.comment))


def _export_line(
    node: GameNode, board: Board, words: list[str], *, comments: bool, variations: bool, force_number: bool
) -> None:
    while node.variations:
        main = node.variations[0]
        if comments and main.starting_comment:
            words.extend(_comment_words(main.starting_comment))
            force_number = True
        _move_words(main, board, words, comments=comments, force_number=force_number)
        force_number = comments and bool(main.comment)
        if variations:
            for side in node.variations[1:]:
                words.append("(")
                if comments and side.starting_comment:
                    words.extend(_comment_words(side.starting_comment))
                _move_words(side, board, words, comments=comments, force_number=True)
                side_board = board.copy(stack=False)
                side_board.push(side.move)
                _export_line(
                    side,
                    side_board,
                    words,
                    comments=comments,
                    variations=variations,
                    force_number=comments and bool(side.comment),
                )
                words[-1] += ")" if words[-1] != "(" else ""
                force_number = True
        board.push(main.move)
        node = main


def _wrap(words: list[str], columns: int | None) -> list[str]:
    # Join "(" to the word after it, so that a variation never starts with "( ", and keep a move number
    # on the line of its move.
    joined: list[str] = []
    glue: str | None = None
    for word in words:
        if glue is not None:
            joined[-1] += glue + word
        else:
            joined.append(word)
        glue = "" if word == "(" else " " if _MOVE_NUMBER.fullmatch(word) else None
    if columns is None:
        return [" ".join(joined)]
    lines: list[str] = []
    line = ""
    for word in joined:
        if line and len(line) + 1 + len(word) > columns:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def write_game(handle: TextIO, game: Game) -> None:
    """Writes a game record followed by a blank line, so that many games can follow each other."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a congo.pgn.Game, got {type(game).__name__}")
    handle.write(str(game))
    handle.write("\n\n")


def _grow_tree(game: Game, events: list[Move | int | str]) -> None:
    """Makes the nodes of a game read by :func:`read_game` from the reader's events."""
    node: GameNode = game
    stack: list[GameNode] = []
    starting: str | None = None  # a variation's comments before its first move
    for event in events:
        if type(event) is Move:
            child = ChildNode(node, event)
            node.variations.append(child)
            if starting:
                child.starting_comment = starting
            starting = None
            node = child
        elif type(event) is str:
            if starting is not None:
                starting = f"{starting} {event}".strip()
            elif node.comment:
                node.comment = f"{node.comment} {event}"
            else:
                node.comment = event
        elif type(event) is int:
            if event >= 0:
                node.nags.add(event)
            elif event == _EVENT_BEGIN_VARIATION:
                stack.append(node)
                parent = node.parent
                assert parent is not None
                node = parent
                starting = ""
            else:
                node = stack.pop()
                starting = None


# What Game's properties put in front of: the ``variations`` slot and the ``nags`` property of
# every node.
_VARIATIONS: Final[Any] = GameNode.__dict__["variations"]
_NAGS: Final[Any] = GameNode.__dict__["nags"]


# -- reading ------------------------------------------------------------------------------------
#
# The text is split into games, tokenised and its moves resolved in Rust (congo_core::pgn, through
# _core.RecordScanner): Python sees each game as a list of tags and a flat list of events, and
# builds from them whatever the visitor asks for.

_EVENT_BEGIN_VARIATION: Final = -1
_EVENT_END_VARIATION: Final = -2


class SkipType(enum.Enum):
    """The type of :data:`SKIP`."""

    SKIP = None


SKIP: Final = SkipType.SKIP
"""Returned by :meth:`BaseVisitor.begin_game`, :meth:`~BaseVisitor.end_headers` or
:meth:`~BaseVisitor.begin_variation` to skip the rest of the game or the variation."""

ResultT = TypeVar("ResultT", covariant=True)


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """What :func:`read_game` calls, in reading order, as it reads a game; :meth:`result` makes
    the value ``read_game`` returns.

    The order: :meth:`begin_game`, :meth:`begin_headers`, :meth:`visit_header` for each tag,
    :meth:`end_headers`, :meth:`visit_board` with the starting position, then for the movetext
    :meth:`visit_move` (with the board *before* the move), :meth:`visit_comment`,
    :meth:`visit_nag`, :meth:`begin_variation` / :meth:`end_variation`, then :meth:`visit_board`
    with the main line's last position, :meth:`visit_result`, :meth:`end_game`, :meth:`result`.
    :meth:`handle_error` gets each problem at its place. Returning :data:`SKIP` from
    :meth:`begin_game` or :meth:`end_headers` skips the rest of the game (its moves are then not
    even parsed), from :meth:`begin_variation` that variation.

    The moves are resolved in Rust before the visitor sees them, so :meth:`visit_move` gets a
    legal :class:`~congo.Move`; the boards are kept only for visitors that are not one of the
    builders of this module (subclasses included)."""

    def begin_game(self) -> SkipType | None:
        """The start of a game."""
        return None

    def begin_headers(self) -> Headers | None:
        """The start of the tags."""
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """A tag."""

    def end_headers(self) -> SkipType | None:
        """The end of the tags."""
        return None

    def visit_board(self, board: Board) -> None:
        """The starting position, and at the end the main line's last position."""

    def visit_move(self, board: Board, move: Move) -> None:
        """A move, with the position before it."""

    def visit_comment(self, comment: str) -> None:
        """A comment."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph."""

    def begin_variation(self) -> SkipType | None:
        """A variation starts: the moves that follow replace the last move."""
        return None

    def end_variation(self) -> None:
        """The variation ends."""

    def visit_result(self, result: str) -> None:
        """The result token that ends the moves."""

    def end_game(self) -> None:
        """The end of the game."""

    def handle_error(self, error: PgnError) -> None:
        """A problem in the record. This default raises it; the builders of this module collect or
        ignore it instead."""
        raise error

    @abc.abstractmethod
    def result(self) -> ResultT:
        """The value :func:`read_game` returns."""


GameT = TypeVar("GameT", bound=Game)


class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game` (or an instance of ``Game=``, a subclass), collecting problems in
    :attr:`Game.errors`. This is what :func:`read_game` uses by default.

    Exactly this class takes a fast path that builds the tree straight from the parsed events
    (about 10× fewer Python calls); a subclass gets every call."""

    @typing.overload
    def __init__(self: GameBuilder[Game]) -> None: ...
    @typing.overload
    def __init__(self: GameBuilder[GameT], *, Game: type[GameT]) -> None: ...
    def __init__(self, *, Game: Any = Game) -> None:
        self.Game = Game

    def begin_game(self) -> None:
        self.game: GameT = self.Game(Headers({}))
        self._stack: list[GameNode] = [self.game]
        self._starting_comment: str | None = None

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def end_headers(self) -> None:
        _add_default_tags(self.game.headers)

    def visit_comment(self, comment: str) -> None:
        node = self._stack[-1]
        if self._starting_comment is not None:
            self._starting_comment = f"{self._starting_comment} {comment}".strip()
        elif node.comment:
            node.comment = f"{node.comment} {comment}"
        else:
            node.comment = comment

    def visit_move(self, board: Board, move: Move) -> None:
        node = self._stack[-1]._add(move)
        if self._starting_comment:
            node.starting_comment = self._starting_comment
        self._starting_comment = None
        self._stack[-1] = node

    def visit_nag(self, nag: int) -> None:
        self._stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self._stack[-1].parent
        assert parent is not None
        self._stack.append(parent)
        self._starting_comment = ""

    def end_variation(self) -> None:
        self._stack.pop()
        self._starting_comment = None

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") not in _RESULTS:
            self.game.headers["Result"] = result

    def handle_error(self, error: PgnError) -> None:
        """Appends the problem to :attr:`Game.errors`."""
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the tags present in the record (no defaults) and skips the moves:
    :func:`read_headers`. Problems in tags are ignored."""

    def begin_headers(self) -> Headers:
        self.headers = Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def handle_error(self, error: PgnError) -> None:
        pass

    def result(self) -> Headers:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """The main line's last position, with the main line on the move stack. Variations are skipped
    and problems ignored (the board holds the moves up to the first one)."""

    def begin_game(self) -> None:
        self.board = Board()

    def visit_board(self, board: Board) -> None:
        self.board = board

    def begin_variation(self) -> SkipType:
        return SKIP

    def handle_error(self, error: PgnError) -> None:
        pass

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[bool]):
    """Skips a game: :func:`skip_game`."""

    def begin_game(self) -> SkipType:
        return SKIP

    def handle_error(self, error: PgnError) -> None:
        pass

    def result(self) -> bool:
        return True


_SCANNERS: weakref.WeakKeyDictionary[object, _core.RecordScanner] = weakref.WeakKeyDictionary()


def _scanner(handle: TextIO) -> _core.RecordScanner:
    """The reading state of a handle: the line count, and a line read ahead for the next game."""
    if not hasattr(handle, "readline"):
        raise TypeError(f"read_game needs a text handle such as an open file, got {type(handle).__name__}")
    try:
        scanner = _SCANNERS.get(handle)
        if scanner is None:
            scanner = _SCANNERS[handle] = _core.RecordScanner()
    except TypeError:  # a handle that takes no weak reference: count from here
        scanner = _core.RecordScanner()
    return scanner


def _read_record(handle: TextIO) -> _core.Record | None:
    """The lines of the next game, or ``None`` at the end of the input. The handle is left just
    after the game (the line that starts the next game, if read, is kept for it)."""
    return _scanner(handle).read(handle)


def _errors(errors: list[_core.RecordError]) -> list[PgnError]:
    return [PgnError(error.message, error.line) for error in errors]


def _add_default_tags(headers: Headers) -> None:
    tags = headers._tags
    for key, value in _DEFAULT_TAGS.items():
        if key not in tags:
            tags[key] = value


def _build_game(record: _core.Record, game_class: type[GameT]) -> GameT:
    """The fast path of :class:`GameBuilder`: the game from the events, its tree made when first
    needed (:attr:`Game.variations`)."""
    tags, events, result, errors, _ = record.parse()
    headers = Headers._trusted(tags)
    _add_default_tags(headers)
    game = game_class(headers)
    # Comments before the first move belong to the game itself: they are read now.
    first = 0
    for first, event in enumerate(events):  # noqa: B007 - the index is used after the loop
        if type(event) is not str:
            break
        game.comment = f"{game.comment} {event}" if game.comment else event
    else:
        first = len(events)
    if first < len(events):
        game._events = events[first:] if first else events
    if result is not None and headers._tags.get("Result") not in _RESULTS:
        headers._tags["Result"] = result
    if errors:
        game.errors.extend(_errors(errors))
    return game


def _visit(record: _core.Record, visitor: BaseVisitor[ResultT], strict: bool) -> ResultT:
    """Every call of the visitor API, in order."""
    problems: list[PgnError] = []

    def report(at_errors: list[_core.RecordError]) -> None:
        for error in _errors(at_errors):
            problems.append(error)
            visitor.handle_error(error)

    if visitor.begin_game() is SKIP:
        visitor.end_game()
        return visitor.result()
    visitor.begin_headers()
    tags, tag_errors = record.tags()
    for name, value in tags:
        visitor.visit_header(name, value)
    if visitor.end_headers() is SKIP:
        report(tag_errors)
        if strict and problems:
            raise problems[0]
        visitor.end_game()
        return visitor.result()
    _, events, result, errors, readable = record.parse()
    pending = collections.deque(errors)

    def report_until(index: int) -> None:
        while pending and pending[0].at <= index:
            report([pending.popleft()])

    headers = dict(tags)
    boards: list[Board] = []
    if readable:
        fen = headers.get("FEN")
        boards.append(Board() if fen is None else Board(fen))
        visitor.visit_board(boards[0].copy())
    skip_depth = 0
    for index, event in enumerate(events):
        report_until(index)
        if type(event) is Move:
            if not skip_depth:
                board = boards[-1]
                visitor.visit_move(board, event)
                board.push(event)
        elif isinstance(event, str):
            if not skip_depth:
                visitor.visit_comment(event)
        elif event >= 0:
            if not skip_depth:
                visitor.visit_nag(event)
        elif event == _EVENT_BEGIN_VARIATION:
            if skip_depth or visitor.begin_variation() is SKIP:
                skip_depth += 1
            else:
                board = boards[-1].copy()
                board.pop()
                boards.append(board)
        elif skip_depth:
            skip_depth -= 1
        else:
            boards.pop()
            visitor.end_variation()
    report_until(len(events))
    if boards:
        visitor.visit_board(boards[0])
    if result is not None:
        visitor.visit_result(result)
    if strict and problems:
        raise problems[0]
    visitor.end_game()
    return visitor.result()


@typing.overload
def read_game(handle: TextIO, *, strict: bool = False) -> Game | None: ...
@typing.overload
def read_game(
    handle: TextIO, *, Visitor: Callable[[], BaseVisitor[ResultT]], strict: bool = False
) -> ResultT | None: ...
def read_game(handle: TextIO, *, Visitor: Any = GameBuilder, strict: bool = False) -> Any:
    """Reads the next game record from a text handle, or returns ``None`` at the end of the input.

    The handle is left after the game, so calling ``read_game`` again reads the next one (see
    :func:`iter_games`); ``handle.tell()`` before a call gives an offset to ``seek`` back to.
    ``Visitor`` makes what is returned (default :class:`GameBuilder`: a :class:`Game`; see
    :class:`BaseVisitor`). Problems go to the visitor's :meth:`~BaseVisitor.handle_error` (the
    builders of this module collect them in :attr:`Game.errors` or ignore them, and never raise);
    with ``strict=True`` the first one is raised instead, after the whole record has been read.
    Raises ``TypeError`` for something that is not a text handle (a binary file, a path)."""
    record = _read_record(handle)
    if record is None:
        return None
    visitor = Visitor()
    if type(visitor) is GameBuilder:
        game = _build_game(record, visitor.Game)
        if strict and game.errors:
            raise game.errors[0]
        return game
    return _visit(record, visitor, strict)


def read_headers(handle: TextIO) -> Headers | None:
    """The tags of the next game (only those present), skipping its moves unread; ``None`` at the
    end of the input. Much faster than :func:`read_game`: use it to index or filter a big file,
    with ``handle.tell()`` before each call to ``seek`` back to the games wanted. Never raises for
    a malformed record; raises ``TypeError`` like :func:`read_game`."""
    record = _read_record(handle)
    if record is None:
        return None
    tags, _ = record.tags()
    return Headers._trusted(tags)


def skip_game(handle: TextIO) -> bool:
    """Skips the next game unread; ``False`` at the end of the input. Raises ``TypeError`` like
    :func:`read_game`."""
    return _read_record(handle) is not None


def iter_games(handle: TextIO, *, strict: bool = False) -> Iterator[Game]:
    """Every game record of a text handle, one after the other. Raises like :func:`read_game`."""
    while True:
        game = read_game(handle, strict=strict)
        if game is None:
            return
        yield game
