//! Zebra (RULES §4): a knight leap, move or capture.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::KNIGHT;

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    KNIGHT[from.index()] & !sides.own
}
