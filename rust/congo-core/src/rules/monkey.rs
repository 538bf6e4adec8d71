//! Monkey (docs/rules.md §4, §5): a non-capturing king step, or a chain of jumps.
//!
//! A jump goes over an adjacent enemy piece to the empty square just beyond, capturing it. After each
//! jump the player may stop or jump again, so every prefix of a chain is a move of its own. Each enemy
//! piece is jumped at most once; squares may be revisited (the start square is empty once the monkey
//! has left it); jumping the enemy lion ends the chain. Two different paths are two different moves.
//!
//! Jumped pieces stay on the board until the move is complete, which changes nothing: a landing square
//! always has the start square's file and rank parity and a jumped square never does.

use super::Sides;
use crate::bitboard::Bitboard;
use crate::moves::{Move, Path};
use crate::piece::Role;
use crate::square::Square;
use crate::tables::{Direction, KING, LEAP_TWO, STEP};

/// The monkey's non-capturing king steps.
#[inline]
pub fn steps(from: Square, sides: &Sides) -> Bitboard {
    KING[from.index()] & sides.empty
}

/// The squares a monkey on `to` may have come from with a quiet move (no capture, no promotion,
/// nothing drowned) of the side `sides.us`: a step (symmetric); a jump chain captures, so it is
/// never quiet. A superset of the empty squares it came from (the caller keeps those); the river
/// rule is [`super::river`]'s. Retrograde analysis (the endgame tables) walks these backwards.
#[inline]
pub fn unmoves(to: Square, _sides: &Sides) -> Bitboard {
    KING[to.index()]
}

/// The state a chain search carries from jump to jump.
struct Chain {
    from: Square,
    /// Enemy pieces that may still be jumped.
    enemy: Bitboard,
    enemy_lion: Bitboard,
    /// Squares a jump may land on: empty, counting the monkey's start square as empty.
    landing: Bitboard,
}

/// Calls `emit` for every jump chain of the monkey on `from`, each prefix as its own move.
#[inline]
pub fn for_each_chain(from: Square, sides: &Sides, emit: &mut impl FnMut(Move)) {
    if (KING[from.index()] & sides.enemy).is_empty() {
        return;
    }
    let chain =
        Chain { from, enemy: sides.enemy, enemy_lion: sides.enemy_lion, landing: sides.empty.with(from) };
    extend(&chain, from, Bitboard::EMPTY, 0, 0, emit);
}

/// Counts the jump chains of the monkey on `from` without building moves.
#[inline]
pub fn count_chains(from: Square, sides: &Sides) -> u64 {
    let mut n = 0;
    for_each_chain(from, sides, &mut |_| n += 1);
    n
}

/// Whether the monkey on `from` can make at least one jump.
#[inline]
pub fn has_jump(from: Square, sides: &Sides) -> bool {
    let landing = sides.empty.with(from);
    (KING[from.index()] & sides.enemy).into_iter().any(|over| landing_square(from, over, landing).is_some())
}

/// Which of `pieces` (the side's monkeys) capture on `target` (an enemy piece in `sides`) by a
/// jump chain, at any of its jumps.
pub fn capturers(target: Square, pieces: Bitboard, sides: &Sides) -> Bitboard {
    pieces.into_iter().filter(|&from| can_capture(from, target, sides)).collect()
}

/// Whether the monkey on `from` has a jump chain that jumps the enemy piece on `target`.
fn can_capture(from: Square, target: Square, sides: &Sides) -> bool {
    // Cheap filters first. Landing squares keep the monkey's file and rank parity, so it can only
    // jump the target from a neighbour of that parity, with an empty square beyond.
    let parity = (from.file() & 1, from.rank() & 1);
    let landing = sides.empty.with(from);
    let launch_exists = Direction::ALL.into_iter().any(|d| {
        let opposite = Direction::from_index((d.index() + 4) % 8);
        match (
            Square::new(STEP[opposite.index()][target.index()]),
            Square::new(STEP[d.index()][target.index()]),
        ) {
            (Some(launch), Some(beyond)) => {
                (launch.file() & 1, launch.rank() & 1) == parity
                    && landing.contains(launch)
                    && landing.contains(beyond)
            }
            _ => false,
        }
    });
    if !launch_exists || !has_jump(from, sides) {
        return false;
    }
    let mut found = false;
    for_each_chain(from, sides, &mut |m| found |= m.captured.contains(target));
    found
}

/// The direction index (see [`crate::tables::Direction`]) of a step from `at` to its neighbour
/// `over`, looked up by the index difference `over - at + 8`: N = +7, NE = +8, E = +1, SE = -6,
/// S = -7, SW = -8, W = -1, NW = +6.
const DIRECTION_OF_DELTA: [u8; 17] = [5, 4, 3, 0, 0, 0, 0, 6, 0, 2, 0, 0, 0, 0, 7, 0, 1];

/// The square beyond the neighbour `over` of `at`, if it is on the board and in `landing`.
///
/// The square beyond is `2 * over - at` in index arithmetic; it must also be a two-square leap
/// from `at`, which rules out wrapping around the board's edge.
#[inline]
fn landing_square(at: Square, over: Square, landing: Bitboard) -> Option<Square> {
    let beyond = u8::try_from(2 * over.index()).ok()?.checked_sub(at.index() as u8)?;
    let beyond = Square::new(beyond)?;
    (LEAP_TWO[at.index()] & landing).contains(beyond).then_some(beyond)
}

fn extend(chain: &Chain, at: Square, jumped: Bitboard, dirs: u128, legs: u32, emit: &mut impl FnMut(Move)) {
    for over in KING[at.index()] & chain.enemy & !jumped {
        let Some(land) = landing_square(at, over, chain.landing) else { continue };
        let direction = DIRECTION_OF_DELTA[over.index() + 8 - at.index()];
        let over = Bitboard::from_square(over);
        let captured = jumped | over;
        let dirs = dirs | u128::from(direction) << (3 * legs);
        let legs = legs + 1;
        emit(Move { path: Path::chain(chain.from, land, dirs, legs), captured, role: Role::Monkey });
        if (over & chain.enemy_lion).is_empty() {
            extend(chain, land, captured, dirs, legs, emit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_table_matches_the_step_table() {
        for at in Square::all() {
            for d in Direction::ALL {
                if let Some(over) = Square::new(STEP[d.index()][at.index()]) {
                    assert_eq!(DIRECTION_OF_DELTA[over.index() + 8 - at.index()], d as u8, "{at} -> {over}");
                }
            }
        }
    }
}
