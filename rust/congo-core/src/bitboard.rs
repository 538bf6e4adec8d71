//! Sets of squares as 49-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::Square;

/// A set of squares; bit `i` stands for the square with index `i`. Bits 49..64 are always zero.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard((1 << 49) - 1);

    /// The set holding one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of a rank (0 = rank 1).
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0x7f << (7 * rank))
    }

    /// All squares of a file (0 = a).
    pub const fn file(file: u8) -> Bitboard {
        Bitboard((1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28 | 1 << 35 | 1 << 42) << file)
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline]
    #[must_use]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline]
    #[must_use]
    pub const fn intersect(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The square with the lowest index.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros()))
        }
    }

    /// The square with the highest index.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.ilog2()))
        }
    }

    /// Exactly one square in the set.
    #[inline]
    pub const fn is_single(self) -> bool {
        self.0.is_power_of_two()
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.ilog2();
        self.0 ^= 1 << index;
        Some(Square::from_index(index))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_files() {
        assert_eq!(Bitboard::rank(3).count(), 7);
        assert!(Bitboard::rank(3).contains(Square::A4) && Bitboard::rank(3).contains(Square::G4));
        assert_eq!(Bitboard::file(6).count(), 7);
        assert!(Bitboard::file(6).contains(Square::G1) && Bitboard::file(6).contains(Square::G7));
        let all = (0..7).fold(Bitboard::EMPTY, |acc, f| acc | Bitboard::file(f));
        assert_eq!(all, Bitboard::FULL);
    }

    #[test]
    fn iteration_is_in_index_order() {
        let bb: Bitboard = [Square::G7, Square::A1, Square::D4].into_iter().collect();
        assert_eq!(bb.into_iter().collect::<Vec<_>>(), vec![Square::A1, Square::D4, Square::G7]);
        assert_eq!(bb.into_iter().rev().collect::<Vec<_>>(), vec![Square::G7, Square::D4, Square::A1]);
        assert_eq!(bb.last(), Some(Square::G7));
        assert_eq!((!bb).count(), 46);
    }
}
