//! Zebra (docs/rules.md §4): a knight leap, move or capture.

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

/// The squares a zebra on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: the knight leap is symmetric. A superset of the empty
/// squares it came from (the caller keeps those); the river rule is [`super::river`]'s. Retrograde
/// analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, _sides: &Sides) -> Bitboard {
    KNIGHT[to.index()]
}
