//! Zebra (RULES §4): a knight leap, move or capture.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::KNIGHT;

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    KNIGHT[from.index()] & !sides.own
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(target: Square, pieces: Bitboard) -> Bitboard {
    // The knight leap is symmetric: it reaches back from the target.
    KNIGHT[target.index()] & pieces
}
