//! Giraffe (docs/rules.md §4): a non-capturing king step, plus a leap of exactly two squares in any of the
//! eight directions (move or capture; the middle square is ignored).

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::{KING, LEAP_TWO};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    (KING[from.index()] & sides.empty) | (LEAP_TWO[from.index()] & !sides.own)
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(target: Square, pieces: Bitboard) -> Bitboard {
    // Only the two-square leap captures, and it is symmetric.
    LEAP_TWO[target.index()] & pieces
}

/// The squares a giraffe on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a step or a two-square leap, both symmetric. A superset
/// of the empty squares it came from (the caller keeps those); the river rule is
/// [`super::river`]'s. Retrograde analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, _sides: &Sides) -> Bitboard {
    KING[to.index()] | LEAP_TWO[to.index()]
}
