//! Crocodile (docs/rules.md §4): a king step, move or capture, anywhere. Out of the river it also slides
//! along its file toward the river over empty squares, stopping at the first piece (capturing it if it is an
//! enemy) or on the river square; never past the river. In the river it slides along rank 4 both ways,
//! capturing the first enemy met. It never drowns.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::square::Square;
use crate::tables::{ray_attacks, Direction, KING, RIVER};

#[inline]
pub fn targets(from: Square, sides: &Sides) -> Bitboard {
    let slide = if RIVER.contains(from) {
        ray_attacks(from, Direction::East, sides.occupied)
            | ray_attacks(from, Direction::West, sides.occupied)
    } else {
        let toward_river = if from.rank() < 3 { Direction::North } else { Direction::South };
        // The river square stops the slide as a piece would: the ray is cut just beyond it.
        ray_attacks(from, toward_river, sides.occupied | RIVER)
    };
    (KING[from.index()] | slide) & !sides.own
}

/// Which of `pieces` (squares of this kind of piece of the side `sides.us`) capture on `target`,
/// which holds an enemy piece in `sides`.
#[inline]
pub fn capturers(target: Square, pieces: Bitboard, sides: &Sides) -> Bitboard {
    // The slides are not symmetric (toward the river only): ask each crocodile.
    pieces.into_iter().filter(|&from| targets(from, sides).contains(target)).collect()
}

/// The squares a crocodile on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a step, or a slide over empty squares along its file
/// toward the river from further away, or along the river from another river square. A superset of
/// the empty squares it came from (the caller keeps those); the river rule is [`super::river`]'s.
/// Retrograde analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, sides: &Sides) -> Bitboard {
    let over_empty = |dir| ray_attacks(to, dir, sides.occupied) & sides.empty;
    let slid_from = if RIVER.contains(to) {
        // Along the river, or into it along the file from either side.
        over_empty(Direction::North)
            | over_empty(Direction::South)
            | over_empty(Direction::East)
            | over_empty(Direction::West)
    } else if to.rank() < 3 {
        over_empty(Direction::South)
    } else {
        over_empty(Direction::North)
    };
    KING[to.index()] | slid_from
}
