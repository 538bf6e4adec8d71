"""A Congo position: board, side to move and move number, with the rules of docs/rules.md §3, §7, §8."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .execution import execute_move
from .fen import MAX_FULLMOVE, board_fen, parse_fen, validate_board
from .geometry import parse_square
from .notation import move_string, parse_move
from .pieces import Board, Path, paths_from

STARTING_FEN = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"

#: An outcome: ``(termination, winner)`` with winner True = White, False = Black, None = draw.
Outcome = tuple[str, Optional[bool]]


@dataclass(frozen=True)
class Position:
    """An immutable Congo position.

    ``board`` is a tuple of 49 entries indexed by square (a1 = 0 ... g7 = 48), each ``None`` or a
    piece letter (``L Z E G C M P S``, upper case White). ``turn`` is True when White is to move.
    """

    board: Board
    turn: bool
    fullmove: int = 1

    # ------------------------------------------------------------------ FEN (§9)

    @classmethod
    def from_fen(cls, fen: str, *, validate: bool = True) -> Position:
        """Parse a FEN. With ``validate=False`` the position checks of docs/rules.md §9 (lion count,
        lions in castles, unpromoted pawns) are skipped, so that single-piece boards without
        lions can be loaded for :func:`piece_moves`; the syntax is still checked."""
        board, turn, fullmove = parse_fen(fen)
        if validate:
            validate_board(board)
        return cls(board, turn, fullmove)

    def fen(self) -> str:
        """The FEN, always three fields: ``<board> <w|b> <fullmove>``."""
        return f"{board_fen(self.board)} {'w' if self.turn else 'b'} {self.fullmove}"

    def board_fen(self) -> str:
        """The board field of the FEN."""
        return board_fen(self.board)

    def piece_at(self, sq: int) -> str | None:
        """The piece letter on a square, or None."""
        return self.board[sq]

    def __str__(self) -> str:
        return self.fen()

    # ------------------------------------------------------------------ moves (§3, §4, §5)

    def has_both_lions(self) -> bool:
        """Whether both lions are on the board (otherwise the game is decided, docs/rules.md §8)."""
        return "L" in self.board and "l" in self.board

    def legal_paths(self) -> list[Path]:
        """All legal moves as paths, in generation order.

        There is no check (docs/rules.md §3): every generated move is legal. A position with a lion
        missing is decided and has no legal moves (docs/rules.md §8).
        """
        if not self.has_both_lions():
            return []
        board, turn = self.board, self.turn
        paths: list[Path] = []
        for sq in range(49):
            piece = board[sq]
            if piece is not None and piece.isupper() == turn:
                paths += paths_from(board, sq)
        return paths

    def legal_moves(self) -> list[str]:
        """All legal move strings, sorted as plain strings."""
        return sorted(move_string(path) for path in self.legal_paths())

    def play_path(self, path: Path) -> Position:
        """The position after a move given as a path, WITHOUT checking its legality (docs/rules.md §7).

        The mover is the colour of the piece on ``path[0]``; the turn passes to the other side
        and the move number increases after Black's move.
        """
        piece = self.board[path[0]]
        if piece is None:
            raise ValueError(f"no piece on the from-square of {move_string(path)!r}")
        mover_white = piece.isupper()
        new_board = execute_move(self.board, path)
        fullmove = min(self.fullmove + (0 if mover_white else 1), MAX_FULLMOVE)
        return Position(new_board, not mover_white, fullmove)

    def play(self, move: str) -> Position:
        """The position after a legal move; ValueError if ``move`` is malformed or not legal.

        Accepts the concatenated form and the MindSports/comma forms (see ``normalize_move``).
        """
        path = parse_move(move)
        if path not in set(self.legal_paths()):
            raise ValueError(f"illegal move {move!r} in {self.fen()}")
        return self.play_path(path)

    # ------------------------------------------------------------------ end of game (§8)

    def outcome(self) -> Outcome | None:
        """The history-free part of docs/rules.md §8.

        * ``("LION_CAPTURED", winner)``: a lion is missing; its owner has lost.
        * ``("NO_LEGAL_MOVES", winner)``: both lions present and the side to move has no legal
          move; the side to move loses (no stalemate draw in Congo).
        * ``("BARE_LIONS", None)``: only the two lions are left and the side to move cannot
          capture the other lion at once.
        * ``None`` otherwise.
        """
        white_lion, black_lion = "L" in self.board, "l" in self.board
        if not (white_lion and black_lion):
            return ("LION_CAPTURED", white_lion)
        paths = self.legal_paths()
        if not paths:
            return ("NO_LEGAL_MOVES", not self.turn)
        pieces = [p for p in self.board if p is not None]
        if len(pieces) == 2:
            enemy_lion = self.board.index("l" if self.turn else "L")
            if not any(path[-1] == enemy_lion for path in paths):
                return ("BARE_LIONS", None)
        return None


def piece_moves(position_or_board: Position | Board, square: int | str) -> list[str]:
    """The moves of the single piece on ``square`` (int or name), sorted, whoever is to move.

    Works on boards without lions (load them with ``Position.from_fen(fen, validate=False)``),
    so that per-piece test vectors can be checked. Empty square: ``[]``.
    """
    board = position_or_board.board if isinstance(position_or_board, Position) else position_or_board
    sq = parse_square(square) if isinstance(square, str) else square
    return sorted(move_string(path) for path in paths_from(board, sq))
