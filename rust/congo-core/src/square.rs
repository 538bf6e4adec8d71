//! Squares of the 7×7 board: `sq = rank_index * 7 + file_index`, so `a1 = 0`, `g1 = 6`, `a2 = 7`, `g7 = 48`.

use core::fmt;

/// Number of files and of ranks.
pub const SIDE: u8 = 7;
/// Number of squares on the board.
pub const NUM_SQUARES: usize = 49;
/// Length of per-square lookup tables: indices are masked to 6 bits, so a table of 64 entries needs
/// no bounds check (entries 49..64 are never read).
pub const TABLE_LEN: usize = 64;

/// A square of the board, always valid (`0..49`).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this index, or `None` outside `0..49`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be in range (tables and bit scans only).
    #[inline]
    pub(crate) const fn from_index(index: u32) -> Square {
        debug_assert!(index < 49);
        Square(index as u8)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), or `None` off the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIDE && rank < SIDE {
            Some(Square(rank * SIDE + file))
        } else {
            None
        }
    }

    /// The square `(file + df, rank + dr)`, or `None` off the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
        if file < 0 || rank < 0 || file >= SIDE as i8 || rank >= SIDE as i8 {
            None
        } else {
            Some(Square((rank * SIDE as i8 + file) as u8))
        }
    }

    /// The index `0..49`. (Masked to 6 bits, which changes nothing, so that indexing a
    /// [`TABLE_LEN`]-entry table compiles without a bounds check.)
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The file, 0 = a … 6 = g.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % SIDE
    }

    /// The rank index, 0 = rank 1 … 6 = rank 7.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / SIDE
    }

    /// King-move distance between two squares.
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Parses a lower- or upper-case name like `d4`.
    pub fn parse(name: &str) -> Option<Square> {
        match name.as_bytes() {
            [f, r] => Square::from_name_bytes(*f, *r),
            _ => None,
        }
    }

    /// The square named by a file letter and a rank digit, if both are on the board.
    pub(crate) const fn from_name_bytes(file: u8, rank: u8) -> Option<Square> {
        let file = file.to_ascii_lowercase();
        if file >= b'a' && file <= b'g' && rank >= b'1' && rank <= b'7' {
            Square::from_coords(file - b'a', rank - b'1')
        } else {
            None
        }
    }

    /// The two characters of the square's name, e.g. `[b'd', b'4']`.
    pub const fn name_bytes(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }

    /// Every square in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..NUM_SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [file, rank] = self.name_bytes();
        write!(f, "{}{}", file as char, rank as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

macro_rules! square_constants {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_constants! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6,
    A2 = 7, B2 = 8, C2 = 9, D2 = 10, E2 = 11, F2 = 12, G2 = 13,
    A3 = 14, B3 = 15, C3 = 16, D3 = 17, E3 = 18, F3 = 19, G3 = 20,
    A4 = 21, B4 = 22, C4 = 23, D4 = 24, E4 = 25, F4 = 26, G4 = 27,
    A5 = 28, B5 = 29, C5 = 30, D5 = 31, E5 = 32, F5 = 33, G5 = 34,
    A6 = 35, B6 = 36, C6 = 37, D6 = 38, E6 = 39, F6 = 40, G6 = 41,
    A7 = 42, B7 = 43, C7 = 44, D7 = 45, E7 = 46, F7 = 47, G7 = 48,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_layout_matches_the_rules() {
        assert_eq!(Square::parse("a1"), Some(Square::A1));
        assert_eq!(Square::parse("g1").map(Square::index), Some(6));
        assert_eq!(Square::parse("a2").map(Square::index), Some(7));
        assert_eq!(Square::parse("g7").map(Square::index), Some(48));
        assert_eq!(Square::parse("h1"), None);
        assert_eq!(Square::parse("a8"), None);
        assert_eq!(Square::parse("a"), None);
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
    }

    #[test]
    fn offsets_stay_on_the_board() {
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(Square::G7.offset(0, 1), None);
        assert_eq!(Square::D4.offset(1, 1), Some(Square::E5));
    }
}
