"""The game board: a position plus the moves that led to it.

:class:`Board` is mutable and keeps its move stack, like python-chess's ``chess.Board``. Each state
is an immutable :class:`~congo.Position` from the Rust core, so ``push`` and ``pop`` are cheap and
every rule is decided in Rust.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Callable, Final, TypeVar, Union

from congo import _core
from congo._core import STARTING_FEN, InvalidFenError, LegalMoveGenerator, Move, Position
from congo.outcome import Outcome, Termination
from congo.pieces import BLACK, LION, WHITE, Color, Piece, PieceType
from congo.squares import (
    BB_ALL,
    BB_CASTLES,
    BB_RIVER,
    FILE_NAMES,
    IntoSquareSet,
    Square,
    SquareSet,
    _mask,
    square,
)

__all__ = [
    "Board",
    "EpdOperand",
    "Outcome",
    "PositionLike",
    "Status",
    "Termination",
    "fen_status",
    "to_position",
]

BoardT = TypeVar("BoardT", bound="Board")

_EMPTY_BOARD_FEN = "3l3/7/7/7/7/7/3L3 w 1"
"""What ``Board(None)`` sets up: the fewest pieces a position may have, the two lions."""


class Status(enum.IntFlag):
    """What :meth:`Board.status` and :func:`fen_status` find wrong with a position, as python-chess's
    ``chess.Status``: ``VALID`` (no flag) or a combination of flags.

    The first group is what the core's FEN validation refuses (docs/rules.md §9): a :class:`Board` never
    holds such a position (every setter refuses it), so only :func:`fen_status` reports them. The
    second group is positions the core accepts but no game reaches, as python-chess's
    ``TOO_MANY_WHITE_PAWNS``: more pawns, or more of another piece, than the start position gives
    (no rule adds a piece; a pawn only becomes a superpawn), or more than one non-crocodile piece
    of the side that just moved standing in the river (all but the one that entered it with that
    move have drowned)."""

    VALID = 0
    NO_LIONS = 1 << 0
    TOO_MANY_WHITE_LIONS = 1 << 1
    TOO_MANY_BLACK_LIONS = 1 << 2
    WHITE_LION_OUTSIDE_CASTLE = 1 << 3
    BLACK_LION_OUTSIDE_CASTLE = 1 << 4
    WHITE_PAWN_ON_FAR_RANK = 1 << 5
    BLACK_PAWN_ON_FAR_RANK = 1 << 6
    TOO_MANY_WHITE_PIECES = 1 << 7
    TOO_MANY_BLACK_PIECES = 1 << 8
    TOO_MANY_WHITE_PAWNS = 1 << 9
    TOO_MANY_BLACK_PAWNS = 1 << 10
    IMPOSSIBLE_MATERIAL = 1 << 11
    IMPOSSIBLE_RIVER = 1 << 12


_PROBLEM_FLAGS: Final[dict[tuple[str, bool | None], Status]] = {
    ("no_lions", None): Status.NO_LIONS,
    ("too_many_lions", True): Status.TOO_MANY_WHITE_LIONS,
    ("too_many_lions", False): Status.TOO_MANY_BLACK_LIONS,
    ("lion_outside_castle", True): Status.WHITE_LION_OUTSIDE_CASTLE,
    ("lion_outside_castle", False): Status.BLACK_LION_OUTSIDE_CASTLE,
    ("pawn_on_far_rank", True): Status.WHITE_PAWN_ON_FAR_RANK,
    ("pawn_on_far_rank", False): Status.BLACK_PAWN_ON_FAR_RANK,
    ("too_many_pieces", True): Status.TOO_MANY_WHITE_PIECES,
    ("too_many_pieces", False): Status.TOO_MANY_BLACK_PIECES,
    ("too_many_pawns", True): Status.TOO_MANY_WHITE_PAWNS,
    ("too_many_pawns", False): Status.TOO_MANY_BLACK_PAWNS,
    ("impossible_material", True): Status.IMPOSSIBLE_MATERIAL,
    ("impossible_material", False): Status.IMPOSSIBLE_MATERIAL,
    ("impossible_river", None): Status.IMPOSSIBLE_RIVER,
}


def fen_status(fen: str) -> Status:
    """The :class:`Status` of the position a FEN describes, valid or not: every flag that applies,
    where ``Board(fen)`` would raise for the first problem only. Raises
    :class:`~congo.InvalidFenError` for a string that is not a FEN at all (bad syntax)."""
    flags = Status.VALID
    for kind, color, _message in _core.fen_problems(fen):
        flags |= _PROBLEM_FLAGS[(kind, color)]
    return flags


class Board(_core.BoardState):
    """A Congo game: the current position, its move stack and the rules.

    ``Board()`` is the start position; ``Board(fen)`` any position; ``Board(None)`` the two lions alone
    on d1 and d7, to build a position with :meth:`set_piece_at`.

    Raises :class:`~congo.InvalidFenError` for a malformed FEN and
    :class:`~congo.InvalidPositionError` for an impossible position.
    """

    # The position and the move stack are the Rust base's (``_core.BoardState``): ``_position``,
    # ``_history``, and ``_push``/``_pop``/``_reset``/``_restore``/``_snapshot``, which change or
    # read both in one step. The bindings know a board by that type (docs/architecture.md, the
    # ``rust/congo-py`` section).

    def __init__(self, fen: str | None = STARTING_FEN) -> None:
        self._reset(Position(_EMPTY_BOARD_FEN if fen is None else fen))

    @classmethod
    def empty(cls: type[BoardT]) -> BoardT:
        """The emptiest valid board: the two lions alone on d1 and d7, White to move (python-chess's
        ``Board.empty()`` has no pieces at all; a Congo position needs a lion)."""
        return cls(None)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A board starting from an immutable :class:`Position`, with an empty move stack."""
        if not isinstance(position, Position):
            raise TypeError(f"expected a congo.Position, got {type(position).__name__}")
        board = cls.__new__(cls)
        board._reset(position)
        return board

    @property
    def position(self) -> Position:
        """The current state as an immutable, hashable :class:`Position`."""
        return self._position

    # -- state --------------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move. Settable."""
        return self._position.turn

    @turn.setter
    def turn(self, color: Color) -> None:
        """Sets the side to move; the move stack is kept, as in python-chess (``pop()`` still goes
        back to the position before the last move). ``TypeError`` for anything but a colour."""
        self._position = self._position.with_turn(color)

    @property
    def fullmove_number(self) -> int:
        """The move number: starts at 1, grows after Black's move. Settable."""
        return self._position.fullmove_number

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        """Sets the move number (0 … 2**32 - 1); the move stack is kept. ``TypeError`` for a
        non-int, ``ValueError`` out of range."""
        self._position = self._position.with_fullmove_number(number)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played on this board, oldest first (a new list each time)."""
        return self._history.moves()

    def ply(self) -> int:
        """The number of half-moves since the start of the game, from the move number and side to move
        (as python-chess does). The Wits FEN convention starting at move 0 counts as move 1."""
        return 2 * (max(self.fullmove_number, 1) - 1) + (self.turn == BLACK)

    def root(self: BoardT) -> BoardT:
        """A new board (of this board's class) at the position before the first move of the stack."""
        board = self.copy(stack=False)
        board._position = self._history.root(self._position)
        return board

    # -- moves --------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves, as a live view. There is no check in Congo: every move generated is legal."""
        return LegalMoveGenerator(self)

    def push(self, move: Move) -> None:
        """Plays a move. Raises :class:`~congo.IllegalMoveError` if it is not legal here (the board
        is unchanged) and ``TypeError`` if it is not a :class:`Move`."""
        # One call: the core reads the position, records the move and stores the new position
        # without running Python code in between, so threads sharing a board never find the stack
        # and the position out of step (see "Threads" in docs/api.md).
        self._push(move)

    def pop(self) -> Move:
        """Takes back the last move and returns it. Raises ``IndexError`` on an empty stack."""
        return self._pop()

    def peek(self) -> Move:
        """The last move played. Raises ``IndexError`` on an empty stack."""
        return self._history.peek()

    def parse_uci(self, uci: str) -> Move:
        """The legal move for a move string (``e3e4``, ``b1d3f5``, MindSports and comma forms too).

        Raises :class:`~congo.InvalidMoveError` for a malformed string and
        :class:`~congo.IllegalMoveError` for a move that is not legal here."""
        return self._position.parse_uci(uci)

    def push_uci(self, uci: str) -> Move:
        """Parses a move string, plays it and returns the move. Raises like :meth:`parse_uci`."""
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def is_legal(self, move: Move) -> bool:
        """Whether a move is legal here. Raises ``TypeError`` for anything but a :class:`Move` (a
        move string included: use :meth:`parse_uci`)."""
        return self._position.is_legal(move)

    def is_capture(self, move: Move) -> bool:
        """Whether a move captures: exact for legal moves (a monkey chain always captures); for other
        moves, whether an enemy piece stands on its target square. ``TypeError`` for a non-Move."""
        return self._position.is_capture(move)

    def generate_legal_moves(
        self, from_mask: IntoSquareSet = BB_ALL, to_mask: IntoSquareSet = BB_ALL
    ) -> Iterator[Move]:
        """The legal moves from a square of ``from_mask`` whose final landing square is in
        ``to_mask`` (masks, square sets or squares), in generation order."""
        return iter(self._position.legal_moves(_mask(from_mask), _mask(to_mask)))

    def generate_legal_captures(
        self, from_mask: IntoSquareSet = BB_ALL, to_mask: IntoSquareSet = BB_ALL
    ) -> Iterator[Move]:
        """The legal captures (every monkey chain among them), filtered like
        :meth:`generate_legal_moves`."""
        return iter(self._position.legal_captures(_mask(from_mask), _mask(to_mask)))

    def find_move(self, from_square: Square, to_square: Square) -> Move:
        """The legal move from one square to another: the single-leg move if there is one, else
        the monkey chain ending there with the fewest jumps (the first generated among equally short
        ones; name the path with :meth:`Move.from_path` to pick another). Raises
        :class:`~congo.IllegalMoveError` when there is none."""
        return self._position.find_move(from_square, to_square)

    def attackers_mask(self, color: Color, square: Square) -> int:
        """:meth:`attackers` as a mask."""
        return self._position.attackers_mask(color, square)

    def attackers(self, color: Color, square: Square) -> SquareSet:
        """The squares of the pieces of ``color`` that could capture a piece of the other colour on
        ``square`` with one move (whatever stands there now): a leap, a slide, a pawn's forward or
        a superpawn's sideways capture, a monkey jumping it at any point of a chain, and the lion's
        facing capture when ``square`` holds the enemy lion. Moves that never capture (a giraffe's
        or monkey's step, a pawn's retreat) do not count."""
        return SquareSet(self._position.attackers_mask(color, square))

    def is_attacked_by(self, color: Color, square: Square) -> bool:
        """Whether any piece of ``color`` attacks ``square`` (see :meth:`attackers`). Congo has no
        check, but a lion that is attacked is lost unless its side acts."""
        return bool(self._position.attackers_mask(color, square))

    def attacks_mask(self, square: Square) -> int:
        """:meth:`attacks` as a mask."""
        return self._position.attacks_mask(square)

    def attacks(self, square: Square) -> SquareSet:
        """The squares the piece on ``square`` attacks: where it could capture a piece of the other
        colour (see :meth:`attackers`). Empty for an empty square."""
        return SquareSet(self._position.attacks_mask(square))

    def captured_squares(self, move: Move) -> SquareSet:
        """The squares of the enemy pieces a legal move captures. Raises :class:`~congo.IllegalMoveError`."""
        return SquareSet(self._position.captured_mask(move))

    # -- notation -----------------------------------------------------------------------------

    def san(self, move: Move) -> str:
        """The move in this project's SAN (``docs/notation.md``): ``Zf3``, ``Exc3``, ``cc3``, ``dxe4``,
        ``Mxd3xf5`` (a monkey chain: every landing square, each after ``x``); ``#`` marks a move that
        wins the game.

        Raises :class:`~congo.IllegalMoveError` if the move is not legal here and ``TypeError`` if it
        is not a :class:`Move`."""
        return _core.san(self._position, move)

    def lan(self, move: Move) -> str:
        """The move in long algebraic form: piece letter (none for a pawn), the from-square, then each
        landing square after ``-`` for a move or ``x`` for a capture: ``Zg1-f3``, ``d3xe4``,
        ``Mb1xd3xf5``; ``#`` marks a winning move.

        Raises :class:`~congo.IllegalMoveError` if the move is not legal here and ``TypeError`` if it
        is not a :class:`Move`."""
        return self._position.lan(move)

    def parse_san(self, san: str) -> Move:
        """The legal move a SAN string stands for (``docs/notation.md``). Lenient like python-chess:
        ``x`` and ``-`` are optional, ``+ # ! ?`` suffixes are ignored, ``=S`` may follow a promoting
        pawn move, and a move string in the machine notation (``b1d3f5``, ``d2-e3``) is accepted too.

        Raises :class:`~congo.InvalidMoveError` for text that is neither SAN nor a move string,
        :class:`~congo.IllegalMoveError` when no legal move matches, :class:`~congo.AmbiguousMoveError`
        (an ``IllegalMoveError``) when several do, and ``TypeError`` for a non-str."""
        return _core.parse_san(self._position, san)

    def push_san(self, san: str) -> Move:
        """Parses a SAN string, plays the move and returns it. Raises like :meth:`parse_san`; the board
        is then unchanged."""
        move = self.parse_san(san)
        self.push(move)
        return move

    def san_and_push(self, move: Move) -> str:
        """The move's SAN (as :meth:`san`), then plays it (as :meth:`push`); ``--`` for the null
        move. Raises like :meth:`san`; the board is then unchanged."""
        san = self.san(move)
        self.push(move)
        return san

    def variation_san(self, variation: Iterable[Move]) -> str:
        """A line of moves played from the current position in SAN with move numbers:
        ``1. Zf3 Ec5 2. cc3``, or ``1... Ec5 2. cc3`` when Black is to move. The board is not changed.

        Raises :class:`~congo.IllegalMoveError` naming the first move that is not legal where it is
        played, and ``TypeError`` for anything but an iterable of :class:`Move`."""
        sans = _core.san_line(self._position, list(variation))
        number, turn = self.fullmove_number, self.turn
        parts: list[str] = []
        for i, san in enumerate(sans):
            if turn:
                parts.append(f"{number}. {san}")
            elif i == 0:
                parts.append(f"{number}... {san}")
            else:
                parts.append(san)
            if not turn:
                number += 1
            turn = not turn
        return " ".join(parts)

    # -- validity -----------------------------------------------------------------------------

    def status(self) -> Status:
        """What is wrong with the position, as python-chess's ``Board.status()``: ``Status.VALID``
        or the :class:`Status` flags that apply. A board only ever holds a position the core
        accepts, so the flags found here are those of positions no game reaches (too much material,
        too many swimmers of the side that just moved); :func:`fen_status` checks any FEN."""
        return fen_status(self._position.fen())

    def is_valid(self) -> bool:
        """Whether :meth:`status` is ``Status.VALID``: the position could arise in a game."""
        return self.status() == Status.VALID

    # -- EPD ----------------------------------------------------------------------------------

    def epd(self, **operations: EpdOperand) -> str:
        """The position as EPD, python-chess's shape: the placement and the side to move (Congo
        has no castling or en passant fields, and the move number is the operation ``fmvn``), then
        each operation as ``opcode operand;``, in the order given.

        Operands: ``None`` (the opcode alone), a ``str`` (quoted, ``\\`` and ``"`` escaped, as
        are tab, carriage return and newline), an ``int``, a finite ``float``, a :class:`Move` (its
        SAN here), or an iterable of moves: for ``pv`` a line played from here (its SAN move by
        move), for any other opcode (``bm``, ``am``, …) moves of this position, written in SAN in
        sorted order. ``board.epd(bm=move, id="test 1", ce=35)`` →
        ``'<placement> w bm Zf3; id "test 1"; ce 35;'``.

        Raises ``ValueError`` for an opcode that does not start with a letter or holds anything
        but letters, digits and ``_``, or a non-finite float; :class:`~congo.IllegalMoveError` for a
        move that is not legal where it stands; ``TypeError`` for an operand of another type."""
        parts = [self._position.board_fen(), "w" if self.turn else "b"]
        for opcode, operand in operations.items():
            parts.append(self._epd_operation(opcode, operand))
        return " ".join(parts)

    def _epd_operation(self, opcode: str, operand: EpdOperand) -> str:
        if not _EPD_OPCODE.fullmatch(opcode):
            raise ValueError(
                f"an EPD opcode starts with a letter and holds only letters, digits and _, got {opcode!r}"
            )
        if operand is None:
            return f"{opcode};"
        if isinstance(operand, str):
            return f'{opcode} "{_epd_quote(operand)}";'
        if isinstance(operand, bool):
            raise TypeError(f"EPD operation {opcode}: a bool is not an operand (write an int)")
        if isinstance(operand, int):
            return f"{opcode} {operand};"
        if isinstance(operand, float):
            if not math.isfinite(operand):
                raise ValueError(f"EPD operation {opcode}: a number must be finite, got {operand!r}")
            return f"{opcode} {operand!r};"
        if isinstance(operand, Move):
            return f"{opcode} {self.san(operand)};"
        if isinstance(operand, Iterable) and not isinstance(operand, (Mapping, bytes, bytearray)):
            moves = list(operand)
            if not all(isinstance(move, Move) for move in moves):
                raise TypeError(f"EPD operation {opcode}: expected moves, got {moves!r}")
            if opcode == "pv":
                sans = _core.san_line(self._position, moves)
            else:
                sans = sorted(self.san(move) for move in moves)
            return f"{opcode} {' '.join(sans)};" if sans else f"{opcode};"
        raise TypeError(
            f"EPD operation {opcode}: expected None, a str, an int, a float, a Move or moves, "
            f"got {type(operand).__name__}"
        )

    def set_epd(self, epd: str) -> dict[str, object]:
        """Sets up the position of an EPD line (see :meth:`epd`) and returns its operations,
        python-chess's shape: ``{opcode: operand}`` with ``None`` for an opcode alone, a ``str``
        for a quoted operand (and for ``id`` and ``c0`` … ``c9``), moves for ``bm`` and ``am`` (a
        list of :class:`Move`, parsed as SAN or move strings in this position) and for ``pv`` (a
        line played from it), an ``int`` or ``float`` for a number (``acd``, ``ce``, ``dm``, …
        always an int), else the text. ``fmvn`` sets the move number; a third field of digits after
        the side to move is read as the move number too (the project's FEN form). The move stack is
        cleared.

        Raises :class:`~congo.InvalidFenError` for a malformed line (an unterminated string, an
        opcode twice, a bad opcode or number), :class:`~congo.InvalidPositionError` for an
        impossible position, and the move errors (:class:`~congo.InvalidMoveError`,
        :class:`~congo.IllegalMoveError`) for a move of ``bm``, ``am`` or ``pv``; the board is then
        unchanged. ``TypeError`` for a non-str."""
        position, operations = _parse_epd(epd)
        self._set_position(position)
        return operations

    @classmethod
    def from_epd(cls: type[BoardT], epd: str) -> tuple[BoardT, dict[str, object]]:
        """A new board at an EPD line's position, and its operations (see :meth:`set_epd`)."""
        board = cls(None)
        return board, board.set_epd(epd)

    # -- pieces -------------------------------------------------------------------------------

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on a square, or ``None``. Raises ``ValueError`` for a square off the board and
        ``TypeError`` for a non-int."""
        return self._position.piece_at(sq)

    def piece_type_at(self, sq: Square) -> PieceType | None:
        """The type of the piece on a square, or ``None``. Raises like :meth:`piece_at`."""
        piece = self._position.piece_at(sq)
        return None if piece is None else piece.piece_type

    def color_at(self, sq: Square) -> Color | None:
        """The colour of the piece on a square, or ``None``. Raises like :meth:`piece_at`."""
        piece = self._position.piece_at(sq)
        return None if piece is None else piece.color

    def piece_map(self) -> dict[Square, Piece]:
        """``{square: piece}`` for every piece."""
        return self._position.piece_map()

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        """The squares of the pieces of one type and colour."""
        return SquareSet(self._position.pieces_mask(piece_type, color))

    @property
    def occupied_co(self) -> _ByColor:
        """The squares of each colour's pieces: ``board.occupied_co[WHITE]`` as in python-chess (and
        ``board.occupied_co(WHITE)``)."""
        return _ByColor(self._position)

    @property
    def occupied(self) -> SquareSet:
        """The squares of all pieces."""
        return SquareSet(self._position.occupied_mask())

    def lion(self, color: Color) -> Square | None:
        """The square of a colour's lion, or ``None`` once it has been captured."""
        mask = self._position.pieces_mask(LION, color)
        return mask.bit_length() - 1 if mask else None

    def set_piece_at(self, sq: Square, piece: Piece | None) -> None:
        """Puts a piece on a square (``None`` clears it). The move stack is cleared, as the history no
        longer leads to the new position. Raises :class:`~congo.InvalidPositionError` if the result is
        not a valid position (the board is unchanged) and ``TypeError`` for a non-Piece."""
        self._set_position(self._position.with_piece_at(sq, piece))

    def remove_piece_at(self, sq: Square) -> Piece | None:
        """Clears a square and returns what stood there. Raises
        :class:`~congo.InvalidPositionError` if the result is not a valid position (e.g. removing the
        last lion); the board is then unchanged."""
        piece = self._position.piece_at(sq)
        if piece is not None:
            self._set_position(self._position.with_piece_at(sq, None))
        return piece

    def set_piece_map(self, pieces: Mapping[Square, Piece]) -> None:
        """Replaces every piece. Clears the move stack. Raises
        :class:`~congo.InvalidPositionError` if the result is invalid (the board is unchanged) and
        ``TypeError`` for anything but a mapping of squares to pieces."""
        if not isinstance(pieces, Mapping):
            raise TypeError(f"expected a mapping of squares to congo.Piece, got {type(pieces).__name__}")
        self._set_position(Position.from_piece_map(dict(pieces), self.turn, self.fullmove_number))

    def clear_board(self) -> None:
        """Removes every piece but the two lions, which go to d1 and d7 (a Congo position needs a
        lion; python-chess's ``clear_board`` leaves nothing). Keeps the side to move and the move
        number; clears the move stack."""
        side = "w" if self.turn else "b"
        self._set_position(Position(f"{_EMPTY_BOARD_FEN.split()[0]} {side} {self.fullmove_number}"))

    def clear(self) -> None:
        """The two lions alone on d1 and d7, White to move, move 1, no move stack (see
        :meth:`clear_board`)."""
        self._set_position(Position(_EMPTY_BOARD_FEN))

    def transform(self: BoardT, f: Callable[[int], int]) -> BoardT:
        """A new board (without the move stack) with ``f`` applied to the mask of every piece type
        and colour, e.g. :func:`congo.flip_horizontal` (always valid: the river and the castles are
        symmetric under it). Raises :class:`~congo.InvalidPositionError` if the result is not a
        valid position (:func:`congo.flip_vertical` moves each lion out of its castle: use
        :meth:`mirror` to swap the colours as well)."""
        board = self.copy(stack=False)
        board.apply_transform(f)
        return board

    def apply_transform(self, f: Callable[[int], int]) -> None:
        """:meth:`transform` in place (the move stack is cleared)."""
        pieces: dict[Square, Piece] = {}
        for sq, piece in self.piece_map().items():
            moved = f(1 << sq)
            if isinstance(moved, bool) or not isinstance(moved, int) or moved <= 0 or moved & (moved - 1):
                raise ValueError(
                    f"the transform must map each square's mask to one square's mask, got {moved!r}"
                )
            pieces[moved.bit_length() - 1] = piece
        if len(pieces) != len(self._position.piece_map()):
            raise ValueError("the transform maps two squares onto one")
        self._set_position(Position.from_piece_map(pieces, self.turn, self.fullmove_number))

    def clear_stack(self) -> None:
        """Forgets the move stack, keeping the current position."""
        self._reset(self._position)

    # -- FEN ----------------------------------------------------------------------------------

    def fen(self) -> str:
        """The position string, always three fields: ``<placement> <w|b> <move number>``."""
        return self._position.fen()

    def board_fen(self) -> str:
        """The placement field of the FEN."""
        return self._position.board_fen()

    def set_fen(self, fen: str) -> None:
        """Sets up a position and clears the move stack. Raises :class:`~congo.InvalidFenError` or
        :class:`~congo.InvalidPositionError`; the board is then unchanged."""
        self._set_position(Position(fen))

    def reset(self) -> None:
        """Sets up the start position and clears the move stack."""
        self._set_position(Position(STARTING_FEN))

    def set_board_fen(self, board_fen: str) -> None:
        """Replaces the placement only, keeping side to move and move number. Raises like :meth:`set_fen`."""
        if not isinstance(board_fen, str):
            raise TypeError(f"a placement is a str, got {type(board_fen).__name__}")
        text = board_fen
        if " " in text.strip():
            raise ValueError(f"expected a placement without side to move or move number, got {board_fen!r}")
        side = "w" if self.turn else "b"
        self._set_position(Position(f"{text} {side} {self.fullmove_number}"))

    def _set_position(self, position: Position) -> None:
        self._reset(position)

    # -- end of game --------------------------------------------------------------------------

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position (placement and side to move) has occurred ``count`` times in
        the game, counting the current one. Only positions since the last capture, drowning or
        promotion can repeat (the core decides, for the board and the search alike). Raises
        ``TypeError`` for a non-int ``count`` and ``ValueError`` for one below 1."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"count must be an int, got {type(count).__name__}")
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        return self._history.repetitions(self._position) >= count

    def transposition_key(self) -> bytes:
        """A hashable key, equal for two positions exactly when they are the same for repetition
        (placement and side to move, whatever the move number): for dictionaries of positions and
        counting repetitions across games."""
        return self._position.transposition_key()

    def can_claim_threefold_repetition(self) -> bool:
        """Whether a draw by threefold repetition can be claimed now."""
        return self.is_repetition(3)

    def can_claim_draw(self) -> bool:
        """Whether a draw can be claimed now: only threefold repetition exists in Congo (no fifty-move
        rule)."""
        return self.can_claim_threefold_repetition()

    def outcome(self, *, claim_draw: bool = False, max_plies: int | None = None) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on.

        By the rules alone: a captured lion (the capturer wins), no legal move (the side to move
        loses), bare lions (draw). ``max_plies`` ends it as a draw once the move stack holds that
        many moves. ``claim_draw=True`` also ends the game on a threefold repetition (from the move
        stack). Raises ``TypeError`` for a ``max_plies`` that is not an int or ``None`` and
        ``ValueError`` for a negative one."""
        return self._history.outcome(self._position, claim_draw=bool(claim_draw), max_plies=max_plies)

    def is_game_over(self, *, claim_draw: bool = False, max_plies: int | None = None) -> bool:
        """Whether :meth:`outcome` is not ``None``."""
        return self.outcome(claim_draw=claim_draw, max_plies=max_plies) is not None

    def result(self, *, claim_draw: bool = False, max_plies: int | None = None) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw, max_plies=max_plies)
        return "*" if outcome is None else outcome.result()

    def is_bare_lions(self) -> bool:
        """Only the two lions are left and the side to move cannot capture the other (a draw)."""
        found = self._position.outcome()
        return found is not None and found.termination is Termination.BARE_LIONS

    def zobrist_hash(self) -> int:
        """A 64-bit hash of placement and side to move, with fixed keys (stable across runs)."""
        return self._position.zobrist_hash()

    # -- copies and comparison ----------------------------------------------------------------

    def copy(self: BoardT, *, stack: bool | int = True) -> BoardT:
        """A copy. ``stack=False`` drops the move stack; an int keeps that many of the last moves.

        Raises ``TypeError`` for a ``stack`` that is neither a bool nor an int and ``ValueError`` for a
        negative one."""
        if not isinstance(stack, int):
            raise TypeError(f"stack must be a bool or an int, got {type(stack).__name__}")
        if stack < 0:
            raise ValueError(f"stack must be non-negative, got {stack}")
        board = type(self).__new__(type(self))
        board.__dict__.update(self.__dict__)
        board._restore(*self._snapshot(None if stack is True else int(stack)))
        return board

    def __copy__(self: BoardT) -> BoardT:
        return self.copy()

    def __deepcopy__(self: BoardT, memo: dict[int, object]) -> BoardT:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickles compactly: the root position and the moves (with any side to move or move number
        set by hand), plus a subclass's class and attributes. Loading replays the moves in Rust (see
        :func:`_unpickle`), so the move stack always leads to the position."""
        position, snapshot = self._snapshot()
        root, history = snapshot.encode(position)
        if type(self) is Board and not self.__dict__:
            return _unpickle, (root, history)
        return _unpickle, (root, history, type(self), dict(self.__dict__))

    def mirror(self: BoardT) -> BoardT:
        """A new board (of this board's class) with colours swapped and ranks reversed, without the
        move stack."""
        board = self.copy(stack=False)
        board._position = self._position.mirror()
        return board

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return self._position == other._position
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a board is mutable; hash .position instead

    # -- display ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG with the last move marked, for Jupyter and other rich displays (see
        :func:`congo.svg.board`)."""
        from congo import svg  # imported here: congo.svg imports this module

        return svg.board(self, lastmove=self._history.peek() if len(self._history) else None)

    def __str__(self) -> str:
        """The board as text, rank 7 at the top; the river is drawn as ``~`` on empty squares and the
        castles' empty squares as ``+``."""
        return self._text(lambda piece: piece.symbol(), river="~", castle="+", empty=".")

    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "·",
        orientation: Color = WHITE,
        ascii: bool = False,
        empty: str | None = None,
    ) -> str:
        """The board with the glyphs of :data:`~congo.pieces.UNICODE_PIECE_SYMBOLS`, python-chess's
        keywords: ``invert_color`` swaps the glyphs of the two colours (for dark terminals),
        ``borders`` adds rank and file labels, ``empty_square`` draws empty squares,
        ``orientation=BLACK`` shows Black's side at the bottom. River squares are drawn ``≈``,
        castle squares ``▫`` when empty. ``ascii=True`` uses letters instead (``empty`` is the older
        name of ``empty_square``)."""
        if ascii:
            return self._text(
                lambda piece: piece.symbol(),
                river="~",
                castle="+",
                empty=".",
                borders=borders,
                orientation=orientation,
            )

        def glyph(piece: Piece) -> str:
            shown = Piece(piece.piece_type, not piece.color) if invert_color else piece
            return shown.unicode_symbol()

        return self._text(
            glyph,
            river="≈",
            castle="▫",
            empty=empty_square if empty is None else empty,
            borders=borders,
            orientation=orientation,
        )

    def _text(
        self,
        glyph: Callable[[Piece], str],
        *,
        river: str,
        castle: str,
        empty: str,
        borders: bool = False,
        orientation: Color = WHITE,
    ) -> str:
        castles = BB_CASTLES[0] | BB_CASTLES[1]
        ranks = range(6, -1, -1) if orientation else range(7)
        files = range(7) if orientation else range(6, -1, -1)
        lines = []
        for rank in ranks:
            cells = []
            for file in files:
                sq = square(file, rank)
                piece = self.piece_at(sq)
                if piece is not None:
                    cells.append(glyph(piece))
                elif BB_RIVER >> sq & 1:
                    cells.append(river)
                elif castles >> sq & 1:
                    cells.append(castle)
                else:
                    cells.append(empty)
            row = " ".join(cells)
            lines.append(f"{rank + 1} {row}" if borders else row)
        if borders:
            lines.append("  " + " ".join(FILE_NAMES[file] for file in files))
        return "\n".join(lines)


EpdOperand = Union[None, str, int, float, Move, Iterable[Move]]
"""An EPD operation's operand for :meth:`Board.epd`."""

_EPD_OPCODE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# ASCII digits only: a str pattern's \d also matches other scripts' digits, which int() reads.
_EPD_INT: Final = re.compile(r"[+-]?\d+", re.ASCII)
_EPD_FLOAT: Final = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_EPD_MOVE_LISTS: Final = frozenset({"am", "bm"})
_EPD_INTEGERS: Final = frozenset({"acd", "acn", "acs", "ce", "dm", "fmvn", "hmvc", "rc"})
_EPD_STRINGS: Final = frozenset({"id", *(f"c{i}" for i in range(10))})
_EPD_ESCAPES: Final = {"\\": "\\", '"': '"', "t": "\t", "r": "\r", "n": "\n"}


def _epd_quote(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\t", "\\t")
        .replace("\r", "\\r")
        .replace("\n", "\\n")
    )


def _epd_tokens(text: str) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The operations of an EPD line's operation part: ``(opcode, [(token, quoted), …])`` each."""
    operations: list[tuple[str, list[tuple[str, bool]]]] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i == n:
            return operations
        start = i
        while i < n and not text[i].isspace() and text[i] != ";":
            i += 1
        opcode = text[start:i]
        if not _EPD_OPCODE.fullmatch(opcode):
            raise InvalidFenError(
                f"bad EPD opcode {opcode!r} at character {start + 1} of the operations (an opcode "
                "starts with a letter and holds only letters, digits and _)"
            )
        tokens: list[tuple[str, bool]] = []
        while True:
            while i < n and text[i].isspace():
                i += 1
            if i == n:
                break  # a missing ';' after the last operation is tolerated, as python-chess does
            if text[i] == ";":
                i += 1
                break
            if text[i] == '"':
                i += 1
                chars: list[str] = []
                while True:
                    if i >= n:
                        raise InvalidFenError(f"unterminated string in EPD operation {opcode}")
                    c = text[i]
                    if c == '"':
                        i += 1
                        break
                    if c == "\\" and i + 1 < n and text[i + 1] in _EPD_ESCAPES:
                        chars.append(_EPD_ESCAPES[text[i + 1]])
                        i += 2
                        continue
                    chars.append(c)
                    i += 1
                tokens.append(("".join(chars), True))
            else:
                start = i
                while i < n and not text[i].isspace() and text[i] not in ';"':
                    i += 1
                tokens.append((text[start:i], False))
        if any(opcode == seen for seen, _ in operations):
            raise InvalidFenError(f"EPD operation {opcode} appears twice")
        operations.append((opcode, tokens))


def _parse_epd(epd: str) -> tuple[Position, dict[str, object]]:
    """The position and the operations of an EPD line (see :meth:`Board.set_epd`)."""
    if not isinstance(epd, str):
        raise TypeError(f"an EPD line is a str, got {type(epd).__name__}")
    fields = epd.strip().split(None, 2)
    if len(fields) < 2:
        raise InvalidFenError(f"an EPD line starts with the placement and the side to move, got {epd!r}")
    placement, turn = fields[0], fields[1]
    rest = fields[2] if len(fields) > 2 else ""
    fullmove = "1"
    number = re.match(r"(\d+)(?:\s+|$)", rest, re.ASCII)
    if number:
        fullmove, rest = number.group(1), rest[number.end() :]
    if turn not in ("w", "b", "W", "B"):
        raise InvalidFenError(f"the side to move of an EPD line is w or b, got {turn!r}")
    tokens = _epd_tokens(rest)
    operations: dict[str, object] = {}
    for opcode, operand in tokens:
        if opcode == "fmvn":
            if len(operand) != 1 or operand[0][1] or not _EPD_INT.fullmatch(operand[0][0]):
                raise InvalidFenError(f"EPD operation fmvn takes a move number, got {operand!r}")
            fullmove = operand[0][0]
    position = Position(f"{placement} {turn} {int(fullmove)}")
    for opcode, operand in tokens:
        operations[opcode] = _epd_operand(position, opcode, operand)
    return position, operations


def _epd_operand(position: Position, opcode: str, operand: list[tuple[str, bool]]) -> object:
    if not operand:
        return None
    texts = [text for text, _ in operand]
    if opcode in _EPD_MOVE_LISTS or opcode == "pv":
        if any(quoted for _, quoted in operand):
            raise InvalidFenError(f"EPD operation {opcode} takes moves, not a quoted string")
        moves: list[Move] = []
        current = position
        for text in texts:
            try:
                move = _core.parse_san(current, text)
            except ValueError as error:
                raise type(error)(f"EPD operation {opcode}: {error}") from None
            moves.append(move)
            if opcode == "pv":
                board = Board.from_position(current)
                board.push(move)
                current = board.position
        return moves
    if opcode in _EPD_STRINGS:
        return " ".join(texts)
    if len(operand) == 1 and operand[0][1]:
        if opcode in _EPD_INTEGERS:
            raise InvalidFenError(f"EPD operation {opcode} takes an integer, got the string {texts[0]!r}")
        return texts[0]
    if opcode in _EPD_INTEGERS:
        if len(texts) != 1 or not _EPD_INT.fullmatch(texts[0]):
            raise InvalidFenError(f"EPD operation {opcode} takes an integer, got {' '.join(texts)!r}")
        return int(texts[0])
    if len(texts) == 1 and _EPD_INT.fullmatch(texts[0]):
        return int(texts[0])
    if len(texts) == 1 and _EPD_FLOAT.fullmatch(texts[0]):
        return float(texts[0])
    if any(quoted for _, quoted in operand):
        raise InvalidFenError(f"EPD operation {opcode}: a quoted string must be the whole operand")
    return " ".join(texts)


def _unpickle(
    root: str, history: str, cls: type[Board] | None = None, extra: dict[str, object] | None = None
) -> Board:
    """A pickled board: replays its moves in Rust. Raises :class:`~congo.IllegalMoveError` for a
    move that is not legal where it stands (a tampered pickle), another ``ValueError`` for a
    malformed one."""
    board = (cls or Board).__new__(cls or Board)
    if extra:
        board.__dict__.update(extra)
    moves, position = _core.History.decode(root, history)
    board._restore(position, moves)
    return board


class _ByColor:
    """``board.occupied_co``: the squares of each colour's pieces, by ``[color]`` or ``(color)``."""

    __slots__ = ("_position",)

    def __init__(self, position: Position) -> None:
        self._position = position

    def __getitem__(self, color: Color) -> SquareSet:
        return SquareSet(self._position.occupied_mask(color))

    def __call__(self, color: Color) -> SquareSet:
        return self[color]

    def __repr__(self) -> str:
        return f"<occupied_co white={self[WHITE]!r} black={self[BLACK]!r}>"


PositionLike = Union[Board, Position, str]
"""What the bulk calls, the engine and the SVG renderer take: a board, a position or a FEN."""


def to_position(value: PositionLike) -> Position:
    """The position of a :class:`Board`, a :class:`~congo.Position` itself, or the position a FEN
    describes: the one conversion every API taking "a board, a position or a FEN" uses. Raises
    :class:`~congo.InvalidFenError` / :class:`~congo.InvalidPositionError` for a bad FEN and
    ``TypeError`` for anything else."""
    if isinstance(value, Board):
        return value._position
    if isinstance(value, Position):
        return value
    if isinstance(value, str):
        return Position(value)
    raise TypeError(f"expected a congo.Board, a congo.Position or a FEN str, got {type(value).__name__}")
