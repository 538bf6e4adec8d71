//! Elephant (docs/rules.md §4): a leap of one or two squares orthogonally, move or capture at either
//! distance. The two-square leap ignores the square in between.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::ELEPHANT;

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    ELEPHANT[from.index()] & !sides.own
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(target: Square, pieces: Bitboard) -> Bitboard {
    // Both leaps are symmetric: they reach back from the target.
    ELEPHANT[target.index()] & pieces
}

/// The squares a elephant on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: both leaps are symmetric. A superset of the empty
/// squares it came from (the caller keeps those); the river rule is [`super::river`]'s. Retrograde
/// analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, _sides: &Sides) -> Bitboard {
    ELEPHANT[to.index()]
}
