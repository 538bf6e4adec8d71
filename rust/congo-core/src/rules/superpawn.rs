//! Superpawn (docs/rules.md §4): every forward move and capture of a pawn, one square sideways (move or
//! capture), and anywhere on the board one or two squares straight or diagonally back, move only,
//! without jumping.

use super::pawn::retreats;
use super::Sides;
use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::Square;
use crate::tables::{backward_directions, PAWN_FORWARD, SIDEWAYS};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    let forward_and_sideways =
        (PAWN_FORWARD[sides.us.index()][from.index()] | SIDEWAYS[from.index()]) & !sides.own;
    forward_and_sideways | retreats(from, &backward_directions(sides.us), sides.empty)
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(us: Color, target: Square, pieces: Bitboard) -> Bitboard {
    // The pawn's forward captures and the sideways one; the retreats never capture.
    super::pawn::capturers(us, target, pieces) | (SIDEWAYS[target.index()] & pieces)
}

/// The squares a superpawn on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a forward or sideways step, or a retreat of one or two
/// squares straight or diagonally back, from the squares ahead of it. A superset of the empty
/// squares it came from (the caller keeps those); the river rule is [`super::river`]'s. Retrograde
/// analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, sides: &Sides) -> Bitboard {
    let behind = PAWN_FORWARD[(!sides.us).index()][to.index()];
    behind | SIDEWAYS[to.index()] | retreats(to, &backward_directions(!sides.us), sides.empty)
}
