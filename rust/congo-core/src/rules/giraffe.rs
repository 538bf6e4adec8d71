//! Giraffe (RULES §4): a non-capturing king step, plus a leap of exactly two squares in any of the
//! eight directions (move or capture; the middle square is ignored).

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::{KING, LEAP_TWO};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    (KING[from.index()] & sides.empty) | (LEAP_TWO[from.index()] & !sides.own)
}
