"""The game board: a position plus the moves that led to it.

:class:`Board` is mutable and keeps its move stack, like python-chess's ``chess.Board``. Each state
is an immutable :class:`~congo.Position` from the Rust core, so ``push`` and ``pop`` are cheap and
every rule is decided in Rust.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from typing import Callable

from congo import _core
from congo._core import STARTING_FEN, LegalMoveGenerator, Move, Position
from congo.pieces import BLACK, PAWN, Color, Piece, PieceType, _piece, piece_symbol
from congo.squares import (
    BB_CASTLES,
    BB_RIVER,
    FILE_NAMES,
    SQUARE_NAMES,
    Square,
    SquareSet,
    _check_square,
    square,
)


class Termination(enum.Enum):
    """How a game ended."""

    LION_CAPTURED = 1
    """A lion was captured (by any piece, a monkey jump or the facing capture); the capturer wins."""
    NO_LEGAL_MOVES = 2
    """The side to move has no legal move and loses (there is no stalemate in Congo)."""
    BARE_LIONS = 3
    """Only the two lions are left and the side to move cannot capture the other: a draw."""
    THREEFOLD_REPETITION = 4
    """The same position occurred for the third time and a draw was claimed."""
    MOVE_LIMIT = 5
    """The caller's ply limit was reached: a draw."""


_CORE_TERMINATIONS = {
    1: Termination.LION_CAPTURED,
    2: Termination.NO_LEGAL_MOVES,
    3: Termination.BARE_LIONS,
}


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and who won (``None`` for a draw)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


_EMPTY_BOARD_FEN = "3l3/7/7/7/7/7/3L3 w 1"
"""What ``Board(None)`` sets up: the fewest pieces a position may have, the two lions."""


class Board:
    """A Congo game: the current position, its move stack and the rules.

    ``Board()`` is the start position; ``Board(fen)`` any position; ``Board(None)`` the two lions alone
    on d1 and d7, to build a position with :meth:`set_piece_at`.

    Raises :class:`~congo.InvalidFenError` for a malformed FEN and
    :class:`~congo.InvalidPositionError` for an impossible position.
    """

    def __init__(self, fen: str | None = STARTING_FEN) -> None:
        self._position: Position = Position(_EMPTY_BOARD_FEN if fen is None else _fen_text(fen))
        self._stack: list[tuple[Move, Position]] = []

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A board starting from an immutable :class:`Position`, with an empty move stack."""
        if not isinstance(position, Position):
            raise TypeError(f"expected a congo.Position, got {type(position).__name__}")
        board = cls.__new__(cls)
        board._position = position
        board._stack = []
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
        if not isinstance(color, bool):
            raise TypeError(f"turn must be WHITE (True) or BLACK (False), got {color!r}")
        self._replace(turn=color)

    @property
    def fullmove_number(self) -> int:
        """The move number: starts at 1, grows after Black's move. Settable."""
        return self._position.fullmove_number

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"fullmove_number must be an int, got {type(number).__name__}")
        self._replace(fullmove_number=number)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played on this board, oldest first (a new list each time)."""
        return [move for move, _ in self._stack]

    def ply(self) -> int:
        """The number of half-moves since the start of the game, from the move number and side to move
        (as python-chess does). The Wits FEN convention starting at move 0 counts as move 1."""
        return 2 * (max(self.fullmove_number, 1) - 1) + (self.turn == BLACK)

    def root(self) -> Board:
        """A new board at the position before the first move of the stack."""
        return Board.from_position(self._stack[0][1] if self._stack else self._position)

    # -- moves --------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves, as a live view. There is no check in Congo: every move generated is legal."""
        return LegalMoveGenerator(self)

    def push(self, move: Move) -> None:
        """Plays a move. Raises :class:`~congo.IllegalMoveError` if it is not legal here (the board
        is unchanged) and ``TypeError`` if it is not a :class:`Move`."""
        position = self._position
        self._position = position.push(move)
        self._stack.append((move, position))

    def pop(self) -> Move:
        """Takes back the last move and returns it. Raises ``IndexError`` on an empty stack."""
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        move, self._position = self._stack.pop()
        return move

    def peek(self) -> Move:
        """The last move played. Raises ``IndexError`` on an empty stack."""
        if not self._stack:
            raise IndexError("peek at an empty move stack")
        return self._stack[-1][0]

    def parse_uci(self, uci: str) -> Move:
        """The legal move for a move string (``e3e4``, ``b1d3f5``, MindSports and comma forms too).

        Raises :class:`~congo.InvalidMoveError` for a malformed string and
        :class:`~congo.IllegalMoveError` for a move that is not legal here."""
        if not isinstance(uci, str):
            raise TypeError(f"a move string is a str, got {type(uci).__name__}")
        return self._position.parse_uci(uci)

    def push_uci(self, uci: str) -> Move:
        """Parses a move string, plays it and returns the move. Raises like :meth:`parse_uci`."""
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def is_legal(self, move: Move) -> bool:
        """Whether a move is legal here."""
        return isinstance(move, Move) and self._position.is_legal(move)

    def is_capture(self, move: Move) -> bool:
        """Whether a move captures: exact for legal moves (a monkey chain always captures); for other
        moves, whether an enemy piece stands on its target square."""
        return self._position.is_capture(move)

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
        return _core.san(self._position, _check_move(move))

    def lan(self, move: Move) -> str:
        """The move in long algebraic form: piece letter (none for a pawn), the from-square, then each
        landing square after ``-`` for a move or ``x`` for a capture: ``Zg1-f3``, ``d3xe4``,
        ``Mb1xd3xf5``; ``#`` marks a winning move.

        Raises :class:`~congo.IllegalMoveError` if the move is not legal here and ``TypeError`` if it
        is not a :class:`Move`."""
        san = self.san(move)
        piece_type = self._position.moving_piece_type(move)
        capture = self._position.captured_mask(move) != 0
        letter = "" if piece_type == PAWN else piece_symbol(piece_type).upper()
        separator = "x" if capture else "-"
        first, *landings = (SQUARE_NAMES[sq] for sq in move.path)
        suffix = "#" if san.endswith("#") else ""
        return letter + first + "".join(separator + name for name in landings) + suffix

    def parse_san(self, san: str) -> Move:
        """The legal move a SAN string stands for (``docs/notation.md``). Lenient like python-chess:
        ``x`` and ``-`` are optional, ``+ # ! ?`` suffixes are ignored, ``=S`` may follow a promoting
        pawn move, and a move string in the machine notation (``b1d3f5``, ``d2-e3``) is accepted too.

        Raises :class:`~congo.InvalidMoveError` for text that is neither SAN nor a move string,
        :class:`~congo.IllegalMoveError` when no legal move matches, :class:`~congo.AmbiguousMoveError`
        (an ``IllegalMoveError``) when several do, and ``TypeError`` for a non-str."""
        if not isinstance(san, str):
            raise TypeError(f"a SAN move is a str, got {type(san).__name__}")
        return _core.parse_san(self._position, san)

    def push_san(self, san: str) -> Move:
        """Parses a SAN string, plays the move and returns it. Raises like :meth:`parse_san`; the board
        is then unchanged."""
        move = self.parse_san(san)
        self.push(move)
        return move

    def variation_san(self, variation: Iterable[Move]) -> str:
        """A line of moves played from the current position in SAN with move numbers:
        ``1. Zf3 Ec5 2. cc3``, or ``1... Ec5 2. cc3`` when Black is to move. The board is not changed.

        Raises :class:`~congo.IllegalMoveError` naming the first move that is not legal where it is
        played, and ``TypeError`` for anything but an iterable of :class:`Move`."""
        moves = [_check_move(move) for move in variation]
        sans = _core.san_line(self._position, moves)
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

    # -- pieces -------------------------------------------------------------------------------

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on a square, or ``None``. Raises ``ValueError`` for a square off the board and
        ``TypeError`` for a non-int."""
        found = self._position.piece_at(_check_square(sq))
        return None if found is None else _piece(*found)

    def piece_type_at(self, sq: Square) -> PieceType | None:
        """The type of the piece on a square, or ``None``. Raises like :meth:`piece_at`."""
        found = self._position.piece_at(_check_square(sq))
        return None if found is None else found[0]

    def color_at(self, sq: Square) -> Color | None:
        """The colour of the piece on a square, or ``None``. Raises like :meth:`piece_at`."""
        found = self._position.piece_at(_check_square(sq))
        return None if found is None else found[1]

    def piece_map(self) -> dict[Square, Piece]:
        """``{square: piece}`` for every piece."""
        return {sq: _piece(*found) for sq, found in self._position.piece_map().items()}

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        """The squares of the pieces of one type and colour."""
        return SquareSet(self._position.pieces_mask(piece_type, color))

    def occupied_co(self, color: Color) -> SquareSet:
        """The squares of one colour's pieces."""
        return SquareSet(self._position.occupied_mask(color))

    @property
    def occupied(self) -> SquareSet:
        """The squares of all pieces."""
        return SquareSet(self._position.occupied_mask())

    def lion(self, color: Color) -> Square | None:
        """The square of a colour's lion, or ``None`` once it has been captured."""
        mask = self._position.pieces_mask(8, color)
        return mask.bit_length() - 1 if mask else None

    def set_piece_at(self, sq: Square, piece: Piece | None) -> None:
        """Puts a piece on a square (``None`` clears it). The move stack is cleared, as the history no
        longer leads to the new position. Raises :class:`~congo.InvalidPositionError` if the result is
        not a valid position (the board is unchanged) and ``TypeError`` for a non-Piece."""
        _check_square(sq)
        if piece is not None and not isinstance(piece, Piece):
            raise TypeError(f"expected a congo.Piece or None, got {type(piece).__name__}")
        pieces = self.piece_map()
        if piece is None:
            pieces.pop(sq, None)
        else:
            pieces[sq] = piece
        self.set_piece_map(pieces)

    def remove_piece_at(self, sq: Square) -> Piece | None:
        """Clears a square and returns what stood there. Raises
        :class:`~congo.InvalidPositionError` if the result is not a valid position (e.g. removing the
        last lion); the board is then unchanged."""
        piece = self.piece_at(sq)
        if piece is not None:
            self.set_piece_at(sq, None)
        return piece

    def set_piece_map(self, pieces: Mapping[Square, Piece]) -> None:
        """Replaces every piece. Clears the move stack. Raises
        :class:`~congo.InvalidPositionError` if the result is invalid (the board is unchanged) and
        ``TypeError`` for anything but a mapping of squares to pieces."""
        if not isinstance(pieces, Mapping):
            raise TypeError(f"expected a mapping of squares to congo.Piece, got {type(pieces).__name__}")
        items = {}
        for sq, piece in pieces.items():
            _check_square(sq)
            if not isinstance(piece, Piece):
                raise TypeError(f"expected congo.Piece values, got {type(piece).__name__}")
            items[sq] = (piece.piece_type, piece.color)
        self._set_position(Position.from_piece_map(items, self.turn, self.fullmove_number))

    def clear_stack(self) -> None:
        """Forgets the move stack, keeping the current position."""
        self._stack.clear()

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
        self._set_position(Position(_fen_text(fen)))

    def reset(self) -> None:
        """Sets up the start position and clears the move stack."""
        self._set_position(Position(STARTING_FEN))

    def set_board_fen(self, board_fen: str) -> None:
        """Replaces the placement only, keeping side to move and move number. Raises like :meth:`set_fen`."""
        text = _fen_text(board_fen)
        if " " in text.strip():
            raise ValueError(f"expected a placement without side to move or move number, got {board_fen!r}")
        side = "w" if self.turn else "b"
        self._set_position(Position(f"{text} {side} {self.fullmove_number}"))

    def _set_position(self, position: Position) -> None:
        self._position = position
        self._stack.clear()

    def _replace(self, *, turn: Color | None = None, fullmove_number: int | None = None) -> None:
        """Changes side to move or move number; the history no longer applies, so the stack is cleared."""
        current = self._position
        self._set_position(
            Position.from_piece_map(
                current.piece_map(),
                current.turn if turn is None else turn,
                current.fullmove_number if fullmove_number is None else fullmove_number,
            )
        )

    # -- end of game --------------------------------------------------------------------------

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position (placement and side to move) has occurred ``count`` times in
        the move stack, counting the current one. Raises ``TypeError`` for a non-int ``count``."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"count must be an int, got {type(count).__name__}")
        current = self._position
        key = current.zobrist_hash()
        seen = 1
        for _, earlier in reversed(self._stack):
            if (
                earlier.zobrist_hash() == key
                and earlier.board_fen() == current.board_fen()
                and earlier.turn == current.turn
            ):
                seen += 1
                if seen >= count:
                    return True
        return seen >= count

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
        loses), bare lions (draw). ``claim_draw=True`` also ends the game on a threefold repetition
        (from the move stack). ``max_plies`` ends it as a draw once the move stack holds that many
        moves. Raises ``ValueError`` for a negative ``max_plies``."""
        if max_plies is not None and (
            isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 0
        ):
            raise ValueError(f"max_plies must be a non-negative int or None, got {max_plies!r}")
        found = self._position.outcome()
        if found is not None:
            code, winner = found
            return Outcome(_CORE_TERMINATIONS[code], winner)
        if max_plies is not None and len(self._stack) >= max_plies:
            return Outcome(Termination.MOVE_LIMIT, None)
        if claim_draw and self.can_claim_threefold_repetition():
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

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
        return found is not None and found[0] == 3

    def zobrist_hash(self) -> int:
        """A 64-bit hash of placement and side to move, with fixed keys (stable across runs)."""
        return self._position.zobrist_hash()

    # -- copies and comparison ----------------------------------------------------------------

    def copy(self, *, stack: bool | int = True) -> Board:
        """A copy. ``stack=False`` drops the move stack; an int keeps that many of the last moves.

        Raises ``TypeError`` for a ``stack`` that is neither a bool nor an int and ``ValueError`` for a
        negative one."""
        if not isinstance(stack, int):
            raise TypeError(f"stack must be a bool or an int, got {type(stack).__name__}")
        if stack < 0:
            raise ValueError(f"stack must be non-negative, got {stack}")
        board = type(self).__new__(type(self))
        board.__dict__.update(self.__dict__)
        board._position = self._position
        if stack is True:
            board._stack = list(self._stack)
        elif stack is False or stack == 0:
            board._stack = []
        else:
            board._stack = self._stack[-int(stack) :]
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def mirror(self) -> Board:
        """A new board with colours swapped and ranks reversed, without the move stack."""
        return Board.from_position(self._position.mirror())

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

        return svg.board(self, lastmove=self._stack[-1][0] if self._stack else None)

    def __str__(self) -> str:
        """The board as text, rank 7 at the top; the river is drawn as ``~`` on empty squares and the
        castles' empty squares as ``+``."""
        return self._text(lambda piece: piece.symbol(), river="~", castle="+", empty=".")

    def unicode(self, *, ascii: bool = False, empty: str = "·", borders: bool = False) -> str:
        """The board with the glyphs of :data:`~congo.pieces.UNICODE_PIECE_SYMBOLS` (``ascii=True``
        uses letters instead); river squares are drawn ``≈``, castle squares ``▫`` when empty."""
        if ascii:
            return self._text(lambda piece: piece.symbol(), river="~", castle="+", empty=".", borders=borders)
        return self._text(
            lambda piece: piece.unicode_symbol(),
            river="≈",
            castle="▫",
            empty=empty,
            borders=borders,
        )

    def _text(
        self,
        glyph: Callable[[Piece], str],
        *,
        river: str,
        castle: str,
        empty: str,
        borders: bool = False,
    ) -> str:
        castles = BB_CASTLES[0] | BB_CASTLES[1]
        lines = []
        for rank in range(6, -1, -1):
            cells = []
            for file in range(7):
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
            lines.append("  " + " ".join(FILE_NAMES))
        return "\n".join(lines)


def _check_move(move: object) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"expected a congo.Move, got {type(move).__name__}")
    return move


def _fen_text(fen: object) -> str:
    if not isinstance(fen, str):
        raise TypeError(f"a FEN is a str, got {type(fen).__name__}")
    return fen
