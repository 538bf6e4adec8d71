//! The river and drowning (RULES §6).
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
use crate::square::Square;
use crate::tables::RIVER;

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

#[cfg(test)]
mod tests {
    use super::*;

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
