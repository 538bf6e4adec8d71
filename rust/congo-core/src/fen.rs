//! Position strings (docs/rules.md §9): `<rank7>/<rank6>/…/<rank1> <w|b> <fullmove>`.
//!
//! Parsing is lenient where docs/rules.md asks for it (a missing move number means 1; `W`/`B` are accepted;
//! any non-negative move number) and precise about everything else: each error says which rank, which
//! character and what is wrong.

use core::fmt;
use core::str::FromStr;

use crate::board::Board;
use crate::piece::{Color, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::square::Square;

/// The start position.
pub const STARTING_FEN: &str = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1";
/// The start position's placement.
pub const STARTING_BOARD_FEN: &str = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ";

/// What is wrong with a position string's syntax.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum FenError {
    /// Nothing but whitespace.
    Empty,
    /// More than three space-separated fields.
    TooManyFields { found: usize },
    /// The placement does not have seven ranks.
    WrongRankCount { found: usize },
    /// A character that is neither a piece letter nor a digit 1–7.
    InvalidChar { rank: u8, ch: char },
    /// A rank that describes more or fewer than seven squares.
    WrongRankLength { rank: u8, squares: usize },
    /// The side to move is not `w` or `b`.
    InvalidTurn { found: String },
    /// The move number is not a non-negative integer that fits in 32 bits.
    InvalidFullmove { found: String },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty position string"),
            FenError::TooManyFields { found } => write!(
                f,
                "expected at most 3 fields (placement, side to move, move number), found {found}"
            ),
            FenError::WrongRankCount { found } => {
                write!(f, "expected 7 ranks separated by '/', found {found}")
            }
            FenError::InvalidChar { rank, ch } => write!(
                f,
                "invalid character {ch:?} in rank {rank} (expected one of LZEGCMPS, lower or upper case, or a digit 1-7)"
            ),
            FenError::WrongRankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 7")
            }
            FenError::InvalidTurn { found } => {
                write!(f, "invalid side to move {found:?} (expected 'w' or 'b')")
            }
            FenError::InvalidFullmove { found } => {
                write!(f, "invalid move number {found:?} (expected a non-negative integer)")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// A position string that is malformed or describes an invalid position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum ParseFenError {
    Syntax(FenError),
    Position(PositionError),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Syntax(e) => e.fmt(f),
            ParseFenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseFenError {}

impl From<FenError> for ParseFenError {
    fn from(e: FenError) -> Self {
        ParseFenError::Syntax(e)
    }
}

impl From<PositionError> for ParseFenError {
    fn from(e: PositionError) -> Self {
        ParseFenError::Position(e)
    }
}

/// Parses the placement field alone.
pub fn parse_board(placement: &str) -> Result<Board, FenError> {
    let found = placement.split('/').count();
    if found != 7 {
        return Err(FenError::WrongRankCount { found });
    }
    let mut board = Board::empty();
    for (i, text) in placement.split('/').enumerate() {
        let rank = 6 - i as u8;
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(n) = ch.to_digit(10).filter(|n| (1..=7).contains(n)) {
                file += n as usize;
            } else if let Some(piece) = Piece::from_char(ch) {
                // A rank that runs past 255 squares must not wrap around onto a placed piece: it is
                // an error once the rank is read, and nothing beyond the seventh square is placed.
                if let Some(sq) = u8::try_from(file).ok().and_then(|file| Square::from_coords(file, rank)) {
                    board.put(sq, piece);
                }
                file += 1;
            } else {
                return Err(FenError::InvalidChar { rank: rank + 1, ch });
            }
        }
        if file != 7 {
            return Err(FenError::WrongRankLength { rank: rank + 1, squares: file });
        }
    }
    Ok(board)
}

/// Parses a position string without checking that the position is valid.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_whitespace();
    let (placement, turn, fullmove) = match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (None, ..) => return Err(FenError::Empty),
        (Some(p), t, n, None) => (p, t, n),
        (Some(_), ..) => return Err(FenError::TooManyFields { found: fen.split_whitespace().count() }),
    };
    let board = parse_board(placement)?;
    let turn = match turn {
        None | Some("w" | "W") => Color::White,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::InvalidTurn { found: other.to_owned() }),
    };
    let fullmove = match fullmove {
        None => 1,
        Some(n) if n.bytes().all(|b| b.is_ascii_digit()) => {
            n.parse().map_err(|_| FenError::InvalidFullmove { found: n.to_owned() })?
        }
        Some(n) => return Err(FenError::InvalidFullmove { found: n.to_owned() }),
    };
    Ok(Setup { board, turn, fullmove })
}

/// Writes the placement field.
pub fn board_fen(board: &Board) -> String {
    let mut out = String::with_capacity(40);
    for rank in (0..7u8).rev() {
        let mut empty = 0;
        for file in 0..7u8 {
            let piece = Square::from_coords(file, rank).and_then(|sq| board.piece_at(sq));
            match piece {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.char());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

impl Setup {
    /// The position string, always with three fields.
    pub fn fen(&self) -> String {
        format!("{} {} {}", board_fen(&self.board), self.turn.char(), self.fullmove)
    }
}

impl Position {
    /// Parses and validates a position string.
    pub fn from_fen(fen: &str) -> Result<Position, ParseFenError> {
        Ok(Position::from_setup(parse_setup(fen)?)?)
    }

    /// The position string, always with three fields.
    pub fn fen(&self) -> String {
        self.to_setup().fen()
    }

    /// The placement field alone.
    pub fn board_fen(&self) -> String {
        board_fen(self.board())
    }
}

impl FromStr for Position {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
