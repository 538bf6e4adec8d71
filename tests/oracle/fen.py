"""Position strings (docs/rules.md §9): parsing, writing and validation."""

from __future__ import annotations

from .geometry import BLACK_CASTLE, WHITE_CASTLE, square, square_name
from .pieces import Board

PIECE_LETTERS = "LZEGCMPS"
MAX_FULLMOVE = 2**32 - 1
"""The largest move number (a 32-bit count); it stays there after further moves (docs/rules.md)."""
ALL_LETTERS = PIECE_LETTERS + PIECE_LETTERS.lower()
MAX_PIECES_PER_COLOR = 14
"""docs/rules.md §9 (decision A21): at most 14 pieces of each colour, the lion included."""


def parse_board(text: str) -> Board:
    """Parse the board field ``<rank7>/<rank6>/.../<rank1>`` into a 49-entry board.

    Letters ``L Z E G C M P S`` (upper case White, lower case Black); digits 1-7 count empty
    squares; each rank must sum to exactly 7. Two digits in a row simply add up (``34`` is a
    non-canonical ``7``): docs/rules.md §9 only asks for the sum (project decision, docs/rules.md).
    """
    ranks = text.split("/")
    if len(ranks) != 7:
        raise ValueError(f"expected 7 ranks separated by '/', got {len(ranks)}: {text!r}")
    board: list[str | None] = [None] * 49
    for i, rank_text in enumerate(ranks):
        rank_index = 6 - i  # the first rank written is rank 7
        rank_label = rank_index + 1
        file_index = 0
        for ch in rank_text:
            if ch in "1234567":
                file_index += int(ch)
            elif ch in ALL_LETTERS:
                if file_index < 7:
                    board[square(file_index, rank_index)] = ch
                file_index += 1
            else:
                raise ValueError(f"invalid character {ch!r} in rank {rank_label}: {rank_text!r}")
            if file_index > 7:
                raise ValueError(f"rank {rank_label} has more than 7 squares: {rank_text!r}")
        if file_index != 7:
            raise ValueError(f"rank {rank_label} has {file_index} squares, not 7: {rank_text!r}")
    return tuple(board)


def board_fen(board: Board) -> str:
    """The board field of a FEN, ranks 7 to 1."""
    ranks = []
    for rank_index in range(6, -1, -1):
        text, empty = "", 0
        for file_index in range(7):
            piece = board[square(file_index, rank_index)]
            if piece is None:
                empty += 1
            else:
                text += (str(empty) if empty else "") + piece
                empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def parse_fen(fen: str) -> tuple[Board, bool, int]:
    """Parse a FEN into ``(board, turn, fullmove)`` (syntax only, no position validation).

    ``<board> [<w|b> [<fullmove>]]``: the side may also be ``W``/``B``; a missing counter means 1;
    any non-negative decimal counter is accepted (the Wits course data start at 0) up to
    ``MAX_FULLMOVE``. Project decisions where docs/rules.md §9 is silent (docs/rules.md): a placement alone
    means White to move at move 1, as in python-chess; the move number is a 32-bit count.
    """
    if not isinstance(fen, str):
        raise ValueError(f"FEN must be a string, not {type(fen).__name__}")
    fields = fen.split()
    if len(fields) not in (1, 2, 3):
        raise ValueError(f"expected 1 to 3 space-separated fields in FEN, got {len(fields)}")
    board = parse_board(fields[0])
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "b", "W", "B"):
        raise ValueError(f"invalid side to move {side!r} (expected 'w' or 'b')")
    fullmove = 1
    if len(fields) == 3:
        if not (fields[2].isascii() and fields[2].isdigit()):
            raise ValueError(f"invalid move number {fields[2]!r} (expected a non-negative integer)")
        fullmove = int(fields[2])
        if fullmove > MAX_FULLMOVE:
            raise ValueError(f"move number {fullmove} is above {MAX_FULLMOVE}")
    return board, side in ("w", "W"), fullmove


def validate_board(board: Board) -> None:
    """Raise ValueError naming the problem if ``board`` is not a valid position (docs/rules.md §9).

    * at most one lion per side, and at least one lion on the board;
    * while both lions are on the board, each stands inside its own castle (with one lion
      missing the game is decided and the remaining lion may stand anywhere);
    * no White pawn on rank 7 and no Black pawn on rank 1 (it would have promoted);
    * at most 14 pieces of each colour, the lion included (decision A21).
    """
    for name, is_mine in (("White", str.isupper), ("Black", str.islower)):
        count = sum(1 for piece in board if piece is not None and is_mine(piece))
        if count > MAX_PIECES_PER_COLOR:
            raise ValueError(f"{name} has {count} pieces, more than {MAX_PIECES_PER_COLOR}")
    white_lions = [sq for sq in range(49) if board[sq] == "L"]
    black_lions = [sq for sq in range(49) if board[sq] == "l"]
    if len(white_lions) > 1:
        raise ValueError(f"more than one White lion ({len(white_lions)})")
    if len(black_lions) > 1:
        raise ValueError(f"more than one Black lion ({len(black_lions)})")
    if not white_lions and not black_lions:
        raise ValueError("no lion on the board")
    if white_lions and black_lions:
        if white_lions[0] not in WHITE_CASTLE:
            raise ValueError(f"White lion outside its castle on {square_name(white_lions[0])}")
        if black_lions[0] not in BLACK_CASTLE:
            raise ValueError(f"Black lion outside its castle on {square_name(black_lions[0])}")
    for sq in range(42, 49):
        if board[sq] == "P":
            raise ValueError(f"White pawn on rank 7 ({square_name(sq)}) should have promoted")
    for sq in range(7):
        if board[sq] == "p":
            raise ValueError(f"Black pawn on rank 1 ({square_name(sq)}) should have promoted")
