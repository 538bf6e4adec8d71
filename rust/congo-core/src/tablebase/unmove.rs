//! Quiet un-moves: the positions from which one quiet move (no capture, no promotion, no piece
//! drowned) leads to a given position. Retrograde analysis walks these backwards.
//!
//! Every other move changes the material and leads into a smaller table, which the generator
//! looks up going forward instead. What a quiet move can have been is the rules' to say: each
//! piece's moves read backwards are its rule file's `unmoves` ([`rules::unmoves`]), and which
//! un-moves drowned nothing is [`river::quiet_arrivals`] and [`river::quiet_origins`]. This file
//! only puts them together.

use crate::board::Board;
use crate::piece::{Color, Role};
use crate::rules::{self, river, Sides};
use crate::square::Square;

/// Calls `f(from, to)` for every quiet move `from → to` of `mover` (the side not to move on
/// `board`) that leads to `board` from the board with that piece back on `from`.
#[inline]
pub(crate) fn for_each_unmove(board: &Board, mover: Color, f: &mut impl FnMut(Square, Square)) {
    let sides = Sides::new(board, mover);
    let candidates = river::quiet_arrivals(sides.own, river::swimmers(board, mover));
    if candidates.is_empty() {
        return;
    }
    for role in Role::ALL {
        for to in board.by_role(role) & candidates {
            let sources = rules::unmoves(role, to, &sides) & sides.empty & river::quiet_origins(role, to);
            for from in sources {
                f(from, to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::position::{Position, Setup};
    use crate::rng::SplitMix64;
    use crate::tables::castle_of;

    /// Every board from which a quiet move of `mover` leads to `board`, by brute force: move each
    /// of its pieces to each empty square and ask the move generator.
    fn brute_force(board: &Board, mover: Color) -> Vec<String> {
        let mut found = Vec::new();
        for (to, piece) in board.pieces().filter(|(_, p)| p.color == mover).collect::<Vec<_>>() {
            for from in !board.occupied() {
                let mut before = *board;
                before.remove_piece_at(to);
                before.put(from, piece);
                let Ok(pos) = Position::from_setup(Setup { board: before, turn: mover, fullmove: 1 }) else {
                    continue;
                };
                for m in pos.legal_moves() {
                    if m.from() == from && m.to() == to && !m.is_capture() {
                        let after = pos.play_unchecked(&m);
                        if after.board() == board {
                            found.push(crate::fen::board_fen(&before));
                        }
                    }
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn unmoves_are_exactly_the_quiet_predecessors() {
        let mut rng = SplitMix64::new(7);
        let roles = &Role::ALL[..7]; // every role but the lion
        let mut checked = 0;
        while checked < 3000 {
            let mut board = Board::empty();
            let white_castle: Vec<Square> = castle_of(Color::White).into_iter().collect();
            let black_castle: Vec<Square> = castle_of(Color::Black).into_iter().collect();
            board.put(white_castle[rng.below(9)], Piece::new(Role::Lion, Color::White));
            board.put(black_castle[rng.below(9)], Piece::new(Role::Lion, Color::Black));
            for _ in 0..=rng.below(4) {
                let sq = Square::new(rng.below(49) as u8).unwrap();
                if board.occupied().contains(sq) {
                    continue;
                }
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                board.put(sq, Piece::new(roles[rng.below(7)], color));
            }
            let turn = if rng.below(2) == 0 { Color::White } else { Color::Black };
            if Position::from_setup(Setup { board, turn, fullmove: 1 }).is_err() {
                continue;
            }
            let mut found = Vec::new();
            for_each_unmove(&board, !turn, &mut |from, to| {
                let mut before = board;
                let piece = before.remove_piece_at(to).unwrap();
                before.put(from, piece);
                found.push(crate::fen::board_fen(&before));
            });
            found.sort();
            assert_eq!(found, brute_force(&board, !turn), "{}", crate::fen::board_fen(&board));
            checked += 1;
        }
    }
}
