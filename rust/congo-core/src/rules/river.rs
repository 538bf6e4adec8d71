//! The river and drowning (docs/rules.md §6).
//!
//! After a move's captures and promotion, every non-crocodile piece of the mover standing on rank 4
//! drowns, unless it entered the river on this very move from outside it:
//!
//! ```text
//! for each square s on rank 4 holding a non-crocodile piece of the mover:
//!     if s != to:               drown   # it was already in the river when the turn began
//!     elif from is on rank 4:   drown   # moved within the river (including a monkey out and back)
//!     else:                     keep    # entered the river this move
//! ```
//!
//! Only the mover's pieces drown. Captures made by a piece that then drowns still stand.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Role};
use crate::square::Square;
use crate::tables::RIVER;

/// The pieces of `color` that can drown: its non-crocodile pieces in the river.
#[inline]
pub fn swimmers(board: &Board, color: Color) -> Bitboard {
    board.by_color(color) & RIVER & !board.by_role(Role::Crocodile)
}

/// The mover's pieces that drown after a move `from → to`, given the mover's non-crocodile pieces
/// (`swimmers`) as they stand once the move's captures and promotion are done.
#[inline]
pub fn drowned(swimmers: Bitboard, from: Square, to: Square) -> Bitboard {
    let in_river = swimmers & RIVER;
    if RIVER.contains(from) {
        in_river
    } else {
        in_river.without(to)
    }
}

/// The squares a move of the piece of `role` from `from` drowns a piece by going to, when it captures
/// nothing: every square when another of the mover's pieces is in the river (`swimmers`, as
/// [`swimmers`] gives them before the move), the river when a non-crocodile moves within it, else none.
/// The same rule as [`drowned`], for all destinations at once.
#[inline]
pub fn drowning_destinations(role: Role, from: Square, swimmers: Bitboard) -> Bitboard {
    if swimmers.without(from).any() {
        Bitboard::FULL
    } else if role != Role::Crocodile && RIVER.contains(from) {
        RIVER
    } else {
        Bitboard::EMPTY
    }
}

/// Read backwards: the squares the mover's last move can have ended on if it drowned nothing, given
/// its pieces `own` and its [`swimmers`] after the move. Every piece when none is in the river; the
/// one swimmer when one is (it entered the river on that move); none when more are (the others would
/// have drowned).
#[inline]
pub fn quiet_arrivals(own: Bitboard, swimmers: Bitboard) -> Bitboard {
    match swimmers.count() {
        0 => own,
        1 => swimmers,
        _ => Bitboard::EMPTY,
    }
}

/// Read backwards: the squares the piece of `role` that arrived on `to` can have come from without
/// drowning: outside the river if it is a non-crocodile in the river (moving within it drowns).
#[inline]
pub fn quiet_origins(role: Role, to: Square) -> Bitboard {
    if role != Role::Crocodile && RIVER.contains(to) {
        !RIVER
    } else {
        Bitboard::FULL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mover's non-crocodile pieces after a move `from → to` that captured nothing, before drowning.
    fn after(role: Role, before: Bitboard, from: Square, to: Square) -> Bitboard {
        let moved = before.without(from);
        if role == Role::Crocodile {
            moved
        } else {
            moved.with(to)
        }
    }

    /// The forward and backward forms agree with [`drowned`] on every move of every role between any
    /// two squares, with up to one other swimmer.
    #[test]
    fn every_form_of_the_rule_agrees_with_drowned() {
        let others: Vec<Option<Square>> = core::iter::once(None).chain(Square::all().map(Some)).collect();
        for role in Role::ALL {
            for from in Square::all() {
                for to in Square::all().filter(|&to| to != from) {
                    for &other in &others {
                        let other = match other {
                            Some(sq) if sq == from || sq == to => continue,
                            Some(sq) => Bitboard::from_square(sq),
                            None => Bitboard::EMPTY,
                        };
                        let mover = if role == Role::Crocodile {
                            Bitboard::EMPTY
                        } else {
                            Bitboard::from_square(from)
                        };
                        let before = mover | other;
                        let after_move = after(role, before, from, to);
                        let drowns = drowned(after_move, from, to).any();
                        let forward = drowning_destinations(role, from, before & RIVER);
                        assert_eq!(forward.contains(to), drowns, "{role:?} {from}->{to} others {other:?}");
                        let own = other.with(to);
                        let backward = quiet_arrivals(own, after_move & RIVER).contains(to)
                            && quiet_origins(role, to).contains(from);
                        assert_eq!(backward, !drowns, "{role:?} {from}->{to} others {other:?} backward");
                    }
                }
            }
        }
    }

    fn bb(names: &[&str]) -> Bitboard {
        names.iter().map(|n| Square::parse(n).unwrap()).collect()
    }

    #[test]
    fn a_piece_entering_the_river_survives_its_first_turn() {
        let sq = |n| Square::parse(n).unwrap();
        assert_eq!(drowned(bb(&["d4"]), sq("d3"), sq("d4")), Bitboard::EMPTY);
    }

    #[test]
    fn pieces_already_in_the_river_drown() {
        let sq = |n| Square::parse(n).unwrap();
        assert_eq!(drowned(bb(&["a4", "d4", "g4"]), sq("d3"), sq("d4")), bb(&["a4", "g4"]));
    }

    #[test]
    fn moving_within_the_river_drowns() {
        let sq = |n| Square::parse(n).unwrap();
        assert_eq!(drowned(bb(&["e4"]), sq("c4"), sq("e4")), bb(&["e4"]));
    }

    #[test]
    fn pieces_off_the_river_never_drown() {
        let sq = |n| Square::parse(n).unwrap();
        assert_eq!(drowned(bb(&["d3", "d5"]), sq("d4"), sq("d5")), Bitboard::EMPTY);
    }
}
