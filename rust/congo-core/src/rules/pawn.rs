//! Pawn (docs/rules.md §4): one square straight or diagonally forward, move or capture. Only when across the
//! river (never while in it) also one or two squares straight back, move only, without jumping.
//! Promotion: a pawn arriving on its far rank becomes a superpawn at once.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::Square;
use crate::tables::{across_river, backward_directions, Direction, PAWN_FORWARD, STEP};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    let forward = PAWN_FORWARD[sides.us.index()][from.index()] & !sides.own;
    if across_river(sides.us).contains(from) {
        forward | retreats(from, &[backward_directions(sides.us)[0]], sides.empty)
    } else {
        forward
    }
}

/// Steps of one or two squares in each of `directions`, onto empty squares only and never over a piece.
#[inline]
pub(crate) fn retreats(from: Square, directions: &[Direction], empty: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for dir in directions {
        let table = &STEP[dir.index()];
        let Some(one) = Square::new(table[from.index()]) else {
            continue;
        };
        if !empty.contains(one) {
            continue;
        }
        out = out.with(one);
        if let Some(two) = Square::new(table[one.index()]) {
            if empty.contains(two) {
                out = out.with(two);
            }
        }
    }
    out
}

/// The squares where a pawn of `color` promotes: its far rank.
#[inline]
pub const fn promotion_squares(color: Color) -> Bitboard {
    Bitboard::rank(color.far_rank())
}

/// Whether a pawn of `color` arriving on `to` promotes to a superpawn.
#[inline]
pub const fn promotes(color: Color, to: Square) -> bool {
    to.rank() == color.far_rank()
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(us: Color, target: Square, pieces: Bitboard) -> Bitboard {
    // A pawn captures on its three forward squares only: it stands on the target's forward squares
    // as the other side sees them.
    PAWN_FORWARD[(!us).index()][target.index()] & pieces
}

/// The squares a pawn on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a forward step from one of the three squares behind it,
/// or a retreat of one or two squares straight back from across the river (not its far rank, where
/// no pawn stands). A superset of the empty squares it came from (the caller keeps those); the
/// river rule is [`super::river`]'s. Retrograde analysis (the endgame tables) walks these
/// backwards.
#[inline]
pub fn unmoves(to: Square, sides: &Sides) -> Bitboard {
    let us = sides.us;
    let behind = PAWN_FORWARD[(!us).index()][to.index()];
    // A retreat is a retreat of the other side's pawn, backwards; it came from across the river.
    let allowed = across_river(us) & !promotion_squares(us);
    behind | (retreats(to, &[backward_directions(!us)[0]], sides.empty) & allowed)
}
