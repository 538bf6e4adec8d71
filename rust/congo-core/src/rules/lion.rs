//! Lion (docs/rules.md §4): a king step, move or capture, to a square inside its own castle; and the facing
//! capture: when the enemy lion is the first piece met along the lion's file or a forward diagonal
//! (c3–d4–e5, e3–d4–c5), the lion captures it by moving onto it. It never flies to an empty square.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::{castle_of, first_on_ray, forward_directions, KING, RAY};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    let steps = KING[from.index()] & castle_of(sides.us) & !sides.own;
    steps | facing_capture(from, sides)
}

/// The enemy lion's square if it faces the lion on `from` with nothing in between, else empty.
///
/// Walking the three forward rays is exact: the only forward rays from a castle square that reach the
/// enemy castle are the file and the two long diagonals through d4.
#[inline]
pub fn facing_capture(from: Square, sides: &Sides) -> Bitboard {
    if sides.enemy_lion.is_empty() {
        return Bitboard::EMPTY;
    }
    for dir in forward_directions(sides.us) {
        let ray = RAY[dir.index()][from.index()];
        if (ray & sides.enemy_lion).any() {
            let first = first_on_ray(ray & sides.occupied, dir);
            return match first {
                Some(sq) if sides.enemy_lion.contains(sq) => sides.enemy_lion,
                _ => Bitboard::EMPTY,
            };
        }
    }
    Bitboard::EMPTY
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(target: Square, pieces: Bitboard, sides: &Sides) -> Bitboard {
    pieces.into_iter().filter(|&from| targets(from, sides).contains(target)).collect()
}

/// The squares a lion on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a step inside its castle (the facing capture captures).
/// A superset of the empty squares it came from (the caller keeps those); the river rule is
/// [`super::river`]'s. Retrograde analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, sides: &Sides) -> Bitboard {
    KING[to.index()] & castle_of(sides.us)
}
