//! Moves: a path of squares plus what the move captures.
//!
//! A move is identified by its path (docs/rules.md §5.8): the from-square and every landing square.
//! Single-leg moves store `from` and `to`; a monkey chain of two or more jumps also stores the direction of
//! each jump, three bits per jump. A chain jumps each enemy piece at most once and its landing squares share
//! the start square's file and rank parity, so it has at most 33 jumps: 99 bits fit in a `u128`.

use core::fmt;

use crate::bitboard::Bitboard;
use crate::piece::Role;
use crate::square::Square;
use crate::tables::{Direction, JUMP, NO_SQUARE};

/// The longest possible monkey chain (see the module docs).
pub const MAX_JUMPS: usize = 33;

/// The squares a move visits, from its start to its final landing square.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Path {
    /// Jump directions of a chain of two or more jumps (3 bits each, first jump in the lowest bits); 0 otherwise.
    dirs: u128,
    from: Square,
    to: Square,
    /// Number of legs: 1 for every single-leg move (including a single monkey jump), n for an n-jump chain,
    /// 0 for the null move.
    legs: u8,
}

impl Path {
    /// The null move's path (python-chess's `Move.null()`, written `0000`): no squares. It is never
    /// a legal move; a board plays it as a pass (see [`crate::Position::play_null`]).
    pub const NULL: Path = Path { dirs: 0, from: Square::A1, to: Square::A1, legs: 0 };

    /// Whether this is the null move's path.
    #[inline]
    pub const fn is_null(&self) -> bool {
        self.legs == 0
    }

    /// A single-leg path `from → to`.
    #[inline]
    pub const fn single(from: Square, to: Square) -> Path {
        Path { dirs: 0, from, to, legs: 1 }
    }

    /// A path of `legs` jumps whose directions are packed in `dirs` (see [`Path`]'s fields).
    #[inline]
    pub(crate) const fn chain(from: Square, to: Square, dirs: u128, legs: u32) -> Path {
        Path { dirs: if legs >= 2 { dirs } else { 0 }, from, to, legs: legs as u8 }
    }

    /// A chain of jumps from `from` in the given directions. Returns `None` if a jump leaves the board
    /// or the chain is longer than [`MAX_JUMPS`].
    pub fn from_jumps(from: Square, directions: &[Direction]) -> Option<Path> {
        if directions.is_empty() || directions.len() > MAX_JUMPS {
            return None;
        }
        let mut cur = from;
        let mut dirs = 0u128;
        for (i, d) in directions.iter().enumerate() {
            cur = Square::new(JUMP[d.index()][cur.index()])?;
            dirs |= (d.index() as u128) << (3 * i);
        }
        let legs = directions.len() as u8;
        Some(Path { dirs: if legs >= 2 { dirs } else { 0 }, from, to: cur, legs })
    }

    /// Builds a path from its squares. Every leg of a path with more than two squares must be a jump
    /// (two squares along a line); a two-square path may be any pair of distinct squares.
    pub fn from_squares(squares: &[Square]) -> Result<Path, PathError> {
        match squares {
            [] | [_] => Err(PathError::TooShort),
            [from, to] if from == to => Err(PathError::NullLeg { leg: 1 }),
            [from, to] => Ok(Path::single(*from, *to)),
            _ if squares.len() - 1 > MAX_JUMPS => Err(PathError::TooLong { legs: squares.len() - 1 }),
            _ => {
                let mut directions = [Direction::North; MAX_JUMPS];
                for (i, pair) in squares.windows(2).enumerate() {
                    let (a, b) = (pair[0], pair[1]);
                    let d = Direction::between(a, b)
                        .filter(|d| JUMP[d.index()][a.index()] == b.index() as u8)
                        .ok_or(PathError::NotAJump { leg: i + 1, from: a, to: b })?;
                    directions[i] = d;
                }
                Path::from_jumps(squares[0], &directions[..squares.len() - 1])
                    .ok_or(PathError::TooLong { legs: squares.len() - 1 })
            }
        }
    }

    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    #[inline]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// Number of legs (1 unless this is a chain of two or more jumps; 0 for the null move).
    #[inline]
    pub const fn legs(&self) -> usize {
        self.legs as usize
    }

    /// Whether this path is a chain of two or more jumps.
    #[inline]
    pub const fn is_chain(&self) -> bool {
        self.legs >= 2
    }

    /// The squares visited, `from` first, `to` last (none for the null move).
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        let mut cur = self.from;
        let mut started = false;
        let total = if self.is_null() { 0 } else { self.legs as usize + 1 };
        (0..total).map(move |i| {
            if !started {
                started = true;
                return cur;
            }
            if self.legs == 1 {
                cur = self.to;
            } else {
                let d = ((self.dirs >> (3 * (i - 1))) & 7) as usize;
                let next = JUMP[d][cur.index()];
                debug_assert_ne!(next, NO_SQUARE);
                cur = Square::new(next).unwrap_or(self.to);
            }
            cur
        })
    }

    /// Writes the path in this project's notation (squares concatenated), e.g. `b1d3f5`; `0000` for
    /// the null move.
    pub fn write_uci(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if self.is_null() {
            return out.write_str("0000");
        }
        for sq in self.squares() {
            let [f, r] = sq.name_bytes();
            out.write_char(f as char)?;
            out.write_char(r as char)?;
        }
        Ok(())
    }

    /// The path in this project's notation.
    pub fn uci(&self) -> String {
        let mut s = String::with_capacity(2 * (self.legs as usize + 1));
        let _ = self.write_uci(&mut s);
        s
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_uci(f)
    }
}

/// Why a list of squares is not a move path.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PathError {
    TooShort,
    NullLeg { leg: usize },
    NotAJump { leg: usize, from: Square, to: Square },
    TooLong { legs: usize },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::TooShort => f.write_str("a move needs at least two squares"),
            PathError::NullLeg { leg } => write!(f, "leg {leg} starts and ends on the same square"),
            PathError::NotAJump { leg, from, to } => write!(
                f,
                "leg {leg} ({from}-{to}) of a multi-leg move is not a monkey jump (two squares along a line)"
            ),
            PathError::TooLong { legs } => {
                write!(f, "a monkey chain has at most {MAX_JUMPS} jumps, this one has {legs}")
            }
        }
    }
}

impl std::error::Error for PathError {}

/// A move generated for a position: its path, the moving piece and every square it captures on.
///
/// The fields besides the path are derived from the position, so two moves of one position are equal
/// exactly when their paths are.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Move {
    pub path: Path,
    /// Squares of the enemy pieces this move removes: the target of a capture, or every jumped square of a chain.
    pub captured: Bitboard,
    /// The piece that moves (before any promotion).
    pub role: Role,
}

impl Move {
    /// The null move (see [`Path::NULL`]): it moves and captures nothing; its `role` means nothing.
    pub const NULL: Move = Move { path: Path::NULL, captured: Bitboard::EMPTY, role: Role::Lion };

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(&self) -> bool {
        self.path.is_null()
    }

    #[inline]
    pub const fn from(&self) -> Square {
        self.path.from
    }

    #[inline]
    pub const fn to(&self) -> Square {
        self.path.to
    }

    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// The move in this project's notation.
    pub fn uci(&self) -> String {
        self.path.uci()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path.write_uci(f)
    }
}

/// The moves of one position.
///
/// A plain `Vec`: loops that generate at every node (perft, playouts, search) keep one list per ply
/// and refill it with [`crate::Position::generate_moves`], so after the first few positions move
/// generation never allocates, and a pathological position with millions of monkey chains simply
/// grows its list. (A stack-allocated small vector measured slower: its push checks where its
/// storage lives, and returning it copies its whole inline buffer.)
pub type MoveList = Vec<Move>;

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn paths_round_trip_through_their_squares() {
        let squares = [sq("b1"), sq("d3"), sq("f5"), sq("d7")];
        let path = Path::from_squares(&squares).unwrap();
        assert_eq!(path.squares().collect::<Vec<_>>(), squares);
        assert_eq!(path.uci(), "b1d3f5d7");
        assert_eq!(path.to(), sq("d7"));
        assert_eq!(path.legs(), 3);
        let single = Path::from_squares(&[sq("b1"), sq("d3")]).unwrap();
        assert_eq!(single, Path::single(sq("b1"), sq("d3")));
        assert_eq!(single.uci(), "b1d3");
    }

    #[test]
    fn multi_leg_paths_must_jump() {
        assert_eq!(
            Path::from_squares(&[sq("b1"), sq("d3"), sq("e4")]),
            Err(PathError::NotAJump { leg: 2, from: sq("d3"), to: sq("e4") })
        );
        assert_eq!(
            Path::from_squares(&[sq("b1"), sq("d3"), sq("d6")]),
            Err(PathError::NotAJump { leg: 2, from: sq("d3"), to: sq("d6") })
        );
        assert_eq!(Path::from_squares(&[sq("b1"), sq("b1")]), Err(PathError::NullLeg { leg: 1 }));
        assert_eq!(Path::from_squares(&[sq("b1")]), Err(PathError::TooShort));
    }

    #[test]
    fn the_null_path_has_no_squares_and_is_written_0000() {
        assert!(Path::NULL.is_null() && Move::NULL.is_null());
        assert_eq!(Path::NULL.squares().count(), 0);
        assert_eq!(Path::NULL.uci(), "0000");
        assert_eq!(Path::NULL.legs(), 0);
        assert!(!Path::NULL.is_chain());
        assert!(!Path::single(sq("a1"), sq("a2")).is_null());
    }

    #[test]
    fn move_is_small() {
        assert!(core::mem::size_of::<Move>() <= 48);
    }
}
