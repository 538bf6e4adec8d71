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

import re
import weakref
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Final, TextIO

from congo._core import STARTING_FEN, IllegalMoveError, InvalidMoveError, Move, Position
from congo.board import Board

__all__ = [
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DUBIOUS_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_SPECULATIVE_MOVE",
    "TAG_ROSTER",
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "PgnError",
    "iter_games",
    "read_game",
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

_SUFFIX_NAGS: Final = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

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
_MOVE_NUMBER: Final = re.compile(r"\d+\.+")
_TAG_NAME: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*\Z")


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
        if not _TAG_NAME.match(key):
            raise ValueError(f"{key!r} is not a PGN tag name (letters, digits and _ + # = : -)")
        if "\n" in value or "\r" in value:
            raise ValueError(f"the value of tag {key!r} contains a line break")
        self._tags[key] = value

    def __delitem__(self, key: str) -> None:
        del self._tags[key]

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


# -- the game tree ----------------------------------------------------------------------------


class GameNode:
    """A point in a game: the move that led here (``None`` at the start), comments, annotation glyphs
    and the moves played from here (``variations``; the first is the main line)."""

    parent: GameNode | None
    move: Move | None

    def __init__(self) -> None:
        self.parent = None
        self.move = None
        self.variations: list[ChildNode] = []
        self.comment: str = ""
        """The comment after the move (for the game itself: before the first move)."""
        self.nags: set[int] = set()
        """Numeric annotation glyphs, e.g. ``{NAG_GOOD_MOVE}`` for ``!``."""

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

    parent: GameNode
    move: Move

    def __init__(self, parent: GameNode, move: Move) -> None:
        super().__init__()
        self.parent = parent
        self.move = move
        self.starting_comment: str = ""
        """A comment before the move, written only where a variation starts."""

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
        super().__init__()
        self.headers: Headers = headers if isinstance(headers, Headers) else Headers(headers)
        self.errors: list[PgnError] = []
        """Problems found while reading the record (empty for a clean record or a game built in code)."""

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
        _export_line(self, self.board(), words, comments=comments, variations=variations, force_number=True)
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


# -- reading ------------------------------------------------------------------------------------

_TAG_LINE: Final = re.compile(r'\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN: Final = re.compile(
    r"""
      (?P<brace>\{)
    | (?P<semicolon>;)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d+)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?![\w/-])
    | (?P<number>\d+\s*\.+)
    | (?P<move>[A-Za-z1-7][A-Za-z0-9=,#+-]*)(?P<suffix>[!?]{1,2})?
    | (?P<annotation>[!?]{1,2})
    | (?P<other>\S)
    """,
    re.VERBOSE,
)


class _HandleState:
    __slots__ = ("line", "pending")

    def __init__(self) -> None:
        self.line = 0
        self.pending: str | None = None


_STATES: weakref.WeakKeyDictionary[object, _HandleState] = weakref.WeakKeyDictionary()


class _LineReader:
    """Reads lines from a handle, counting them and keeping one line back for the next game."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        try:
            self.state = _STATES.setdefault(handle, _HandleState())
        except TypeError:  # a handle that takes no weak reference: count from here
            self.state = _HandleState()

    def readline(self) -> str:
        if self.state.pending is not None:
            line, self.state.pending = self.state.pending, None
        else:
            line = self.handle.readline()
            if not isinstance(line, str):
                raise TypeError(
                    f"read_game needs a text handle (opened without 'b'), got {type(line).__name__}"
                )
        if line:
            self.state.line += 1
            if self.state.line == 1:
                line = line.lstrip("\ufeff")
        return line

    def unread(self, line: str) -> None:
        self.state.pending = line
        self.state.line -= 1

    @property
    def line(self) -> int:
        return self.state.line


class _Builder:
    """Turns movetext tokens into a game tree."""

    def __init__(self, game: Game, board: Board | None, line: int) -> None:
        self.game = game
        self.node: GameNode = game
        self.board = board
        self.broken = board is None  # skip the moves of the current line after an error
        self.stack: list[tuple[GameNode, Board | None, bool]] = []
        self.skipped_depth = 0
        self.starting_comment: str | None = None
        self.result: str | None = None
        self.line = line

    def error(self, message: str) -> None:
        self.game.errors.append(PgnError(message, self.line))

    def comment(self, text: str) -> None:
        text = text.strip()
        if self.skipped_depth or self.broken:
            return  # a comment on a move that was not read
        if self.starting_comment is not None:
            self.starting_comment = f"{self.starting_comment} {text}".strip()
        elif self.node.comment:
            self.node.comment = f"{self.node.comment} {text}"
        else:
            self.node.comment = text

    def open_variation(self) -> None:
        if self.skipped_depth or self.broken or self.board is None or self.node.parent is None:
            # Skip the variation: it is an alternative to a move that was not read.
            if not (self.skipped_depth or self.broken or self.board is None):
                self.error("a variation '(' before any move")
            self.skipped_depth += 1
            return
        self.stack.append((self.node, self.board, self.broken))
        board = self.board.copy()
        board.pop()
        self.node, self.board = self.node.parent, board
        self.starting_comment = ""

    def close_variation(self) -> None:
        if self.skipped_depth:
            self.skipped_depth -= 1
            return
        if not self.stack:
            self.error("')' without a variation to close")
            return
        self.node, self.board, self.broken = self.stack.pop()
        self.starting_comment = None

    def move(self, text: str, suffix: str | None) -> None:
        if self.skipped_depth or self.broken or self.board is None:
            return
        try:
            move = self.board.parse_san(text)
        except (InvalidMoveError, IllegalMoveError) as error:
            number = f"{self.board.fullmove_number}{'.' if self.board.turn else '...'}"
            self.error(f"move {number} {text}: {error}")
            self.broken = True
            return
        self.node = self.node._add(move)
        self.board.push(move)
        if self.starting_comment:
            self.node.starting_comment = self.starting_comment
        self.starting_comment = None
        if suffix:
            self.nag(_SUFFIX_NAGS.get(suffix))

    def nag(self, nag: int | None) -> None:
        if self.skipped_depth or self.broken or nag is None:
            return
        if self.node.parent is None:
            self.error(f"an annotation glyph ${nag} before any move")
            return
        self.node.nags.add(nag)


def read_game(handle: TextIO, *, strict: bool = False) -> Game | None:
    """Reads the next game record from a text handle, or returns ``None`` at the end of the input.

    The handle is left after the game, so calling ``read_game`` again reads the next one (see
    :func:`iter_games`). Problems are collected in :attr:`Game.errors` as :class:`PgnError` objects;
    with ``strict=True`` the first one is raised instead (after the whole record has been read).
    Raises ``TypeError`` for something that is not a text handle (a binary file, a path)."""
    if not hasattr(handle, "readline"):
        raise TypeError(f"read_game needs a text handle such as an open file, got {type(handle).__name__}")
    reader = _LineReader(handle)

    # Skip blank lines and escape lines before the game.
    line = reader.readline()
    while line and (not line.strip() or line.startswith("%")):
        line = reader.readline()
    if not line:
        return None

    game = Game(Headers({}))
    # Tags.
    while line and line.lstrip().startswith("["):
        text = line.strip()
        matched = False
        for tag in _TAG_LINE.finditer(text):
            matched = True
            name, value = tag.group(1), re.sub(r"\\(.)", r"\1", tag.group(2))
            game.headers[name] = value
        if not matched:
            game.errors.append(PgnError(f'malformed tag {text!r} (expected [Name "value"])', reader.line))
        line = reader.readline()
        while line and line.startswith("%"):
            line = reader.readline()
    for key, value in _DEFAULT_TAGS.items():
        game.headers.setdefault(key, value)

    board: Board | None = None
    variant = game.headers.get("Variant", "Congo")
    if variant.strip().lower() != "congo":
        game.errors.append(
            PgnError(f"the game is not Congo but {variant!r}; its moves were skipped", reader.line)
        )
    else:
        try:
            board = game.board()
        except ValueError as error:
            game.errors.append(PgnError(f"bad FEN tag {game.headers['FEN']!r}: {error}", reader.line))

    builder = _Builder(game, board, reader.line)
    in_comment: list[str] | None = None
    seen_movetext = False
    while line:
        builder.line = reader.line
        if in_comment is None and line.startswith("[") and (seen_movetext or _TAG_LINE.match(line.strip())):
            # The next game's tags without a result before them: keep the line for the next call.
            if builder.stack or builder.skipped_depth:
                builder.error("the record ends inside a variation")
            reader.unread(line)
            break
        if line.startswith("%") and in_comment is None:
            line = reader.readline()
            continue
        pos = 0
        done = False
        while pos < len(line):
            if in_comment is not None:
                end = line.find("}", pos)
                if end < 0:
                    in_comment.append(line[pos:])
                    pos = len(line)
                    break
                in_comment.append(line[pos:end])
                builder.comment("".join(in_comment).replace("\n", " "))
                in_comment = None
                pos = end + 1
                continue
            match = _TOKEN.search(line, pos)
            if match is None:
                break
            pos = match.end()
            kind = match.lastgroup if match.lastgroup != "suffix" else "move"
            seen_movetext = True
            if kind == "brace":
                in_comment = []
            elif kind == "semicolon":
                builder.comment(line[pos:].rstrip("\r\n"))
                pos = len(line)
            elif kind == "open":
                builder.open_variation()
            elif kind == "close":
                builder.close_variation()
            elif kind == "nag":
                builder.nag(int(match.group("nag")[1:]))
            elif kind == "annotation":
                builder.nag(_SUFFIX_NAGS.get(match.group("annotation")))
            elif kind == "result":
                if builder.stack or builder.skipped_depth:
                    builder.error("a result inside a variation")
                    continue
                builder.result = match.group("result")
                done = True
                break
            elif kind == "move":
                builder.move(match.group("move"), match.group("suffix"))
            elif kind == "other":
                builder.error(f"unexpected character {match.group('other')!r} in the moves")
        if done:
            break
        line = reader.readline()
    if in_comment is not None:
        builder.error("a comment '{' is not closed before the end of the input")
        builder.comment("".join(in_comment).replace("\n", " "))

    if builder.result is not None:
        header = game.headers.get("Result", "*")
        if header not in _RESULTS:
            game.errors.append(
                PgnError(f"unknown result tag {header!r}; using {builder.result!r}", reader.line)
            )
            game.headers["Result"] = builder.result
        elif header != builder.result:
            game.errors.append(
                PgnError(
                    f"the result tag says {header!r} but the moves end with {builder.result!r}", reader.line
                )
            )
    if strict and game.errors:
        raise game.errors[0]
    return game


def iter_games(handle: TextIO, *, strict: bool = False) -> Iterator[Game]:
    """Every game record of a text handle, one after the other. Raises like :func:`read_game`."""
    while True:
        game = read_game(handle, strict=strict)
        if game is None:
            return
        yield game
