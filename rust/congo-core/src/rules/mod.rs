//! The rules of Congo, one file per rule (docs/rules.md §4–§6).
//!
//! Each piece file answers the questions about that piece's geometry, and no other file does: from
//! this square, which squares can it reach (`targets`, never a friendly piece)? Which of its kind
//! capture on this square (`capturers`)? From which squares can it have come with a quiet move
//! (`unmoves`, the moves read backwards for the endgame tables' retrograde analysis)? Monkey jump
//! chains ([`monkey`]) and the drowning rule ([`river`], forwards and backwards) have files of their
//! own; move generation (`movegen.rs`), attacks and the tablebase generator only put these answers
//! together. [`repetition`] says which positions of a game can occur again, for the
//! board and the search alike.

pub mod attacks;
pub mod crocodile;
pub mod elephant;
pub mod giraffe;
pub mod lion;
pub mod monkey;
pub mod pawn;
pub mod repetition;
pub mod river;
pub mod superpawn;
pub mod zebra;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Role};
use crate::square::Square;

/// What a piece of the side to move needs to know about the board.
#[derive(Copy, Clone, Debug)]
pub struct Sides {
    pub us: Color,
    pub own: Bitboard,
    pub enemy: Bitboard,
    pub occupied: Bitboard,
    pub empty: Bitboard,
    /// The enemy lion's square as a set (empty when it has been captured).
    pub enemy_lion: Bitboard,
}

impl Sides {
    #[inline]
    pub fn new(board: &Board, us: Color) -> Sides {
        let own = board.by_color(us);
        let enemy = board.by_color(!us);
        let occupied = own | enemy;
        Sides { us, own, enemy, occupied, empty: !occupied, enemy_lion: board.by_role(Role::Lion) & enemy }
    }
}

/// The squares the piece of `role` on `from` moves or captures to in one leg: every move except the
/// monkey's jump chains.
///
/// Always inlined: move generation calls it in a loop over the piece types, and inlining lets the
/// compiler specialise each iteration (measured: bulk perft 400 -> 500 M leaves/s).
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn targets(role: Role, from: Square, sides: &Sides) -> Bitboard {
    match role {
        Role::Pawn => pawn::targets(from, sides),
        Role::Superpawn => superpawn::targets(from, sides),
        Role::Monkey => monkey::steps(from, sides),
        Role::Giraffe => giraffe::targets(from, sides),
        Role::Zebra => zebra::targets(from, sides),
        Role::Elephant => elephant::targets(from, sides),
        Role::Crocodile => crocodile::targets(from, sides),
        Role::Lion => lion::targets(from, sides),
    }
}

/// The squares the piece of `role` on `to` may have come from with a quiet move (no capture, no
/// promotion, nothing drowned) of the side `sides.us`: each piece's moves read backwards, from its
/// own rule file. A superset of the empty squares it came from (the caller keeps those); whether
/// the move drowned a piece is [`river::quiet_arrivals`] and [`river::quiet_origins`]. The endgame
/// tables' retrograde analysis walks these.
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn unmoves(role: Role, to: Square, sides: &Sides) -> Bitboard {
    match role {
        Role::Pawn => pawn::unmoves(to, sides),
        Role::Superpawn => superpawn::unmoves(to, sides),
        Role::Monkey => monkey::unmoves(to, sides),
        Role::Giraffe => giraffe::unmoves(to, sides),
        Role::Zebra => zebra::unmoves(to, sides),
        Role::Elephant => elephant::unmoves(to, sides),
        Role::Crocodile => crocodile::unmoves(to, sides),
        Role::Lion => lion::unmoves(to, sides),
    }
}
