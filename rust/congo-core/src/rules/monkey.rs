//! Monkey (RULES §4, §5): a non-capturing king step, or a chain of jumps.
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
use crate::tables::{JUMP, KING, NO_SQUARE, STEP};

/// The monkey's non-capturing king steps.
#[inline]
pub fn steps(from: Square, sides: &Sides) -> Bitboard {
    KING[from.index()] & sides.empty
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
    (0..8).any(|d| {
        let (over, land) = (STEP[d][from.index()], JUMP[d][from.index()]);
        land != NO_SQUARE
            && sides.enemy.contains(Square::from_index(over as u32))
            && landing.contains(Square::from_index(land as u32))
    })
}

fn extend(chain: &Chain, at: Square, jumped: Bitboard, dirs: u128, legs: u32, emit: &mut impl FnMut(Move)) {
    let jumpable = KING[at.index()] & chain.enemy & !jumped;
    if jumpable.is_empty() {
        return;
    }
    for d in 0..8 {
        let over = STEP[d][at.index()];
        if over == NO_SQUARE || !jumpable.contains(Square::from_index(over as u32)) {
            continue;
        }
        let land = JUMP[d][at.index()];
        if land == NO_SQUARE || !chain.landing.contains(Square::from_index(land as u32)) {
            continue;
        }
        let land = Square::from_index(land as u32);
        let over = Bitboard(1 << over);
        let captured = jumped | over;
        let dirs = dirs | (d as u128) << (3 * legs);
        let legs = legs + 1;
        emit(Move { path: Path::chain(chain.from, land, dirs, legs), captured, role: Role::Monkey });
        if (over & chain.enemy_lion).is_empty() {
            extend(chain, land, captured, dirs, legs, emit);
        }
    }
}
