//! Quiet un-moves: the positions from which one quiet move (no capture, no promotion, no piece
//! drowned) leads to a given position. Retrograde analysis walks these backwards.
//!
//! Every other move changes the material and leads into a smaller table, which the generator
//! looks up going forward instead. What a quiet move can have been, for the side that just moved:
//!
//! * zebra, elephant, giraffe (step or leap), monkey (step): their patterns are symmetric, so the
//!   piece came from a square it could move to now, which was empty;
//! * lion: a step inside its castle (the facing capture captures);
//! * crocodile: a step, or a slide along its file toward the river from further away (over empty
//!   squares), or along the river from another river square;
//! * pawn: a forward step from one of the three squares behind it, or a retreat of one or two
//!   squares straight back from across the river (not its far rank, where no pawn stands);
//! * superpawn: a forward or sideways step, or a retreat of one or two squares straight or
//!   diagonally back, from the squares ahead of it;
//! * the river rule for the side that just moved: none of its other non-crocodile pieces can be in
//!   the river (they would have drowned), and a non-crocodile piece in the river must have
//!   entered it on this move, from outside it.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Role};
use crate::square::Square;
use crate::tables::{
    across_river, backward_directions, castle_of, ray_attacks, Direction, ELEPHANT, KING, KNIGHT, LEAP_TWO,
    PAWN_FORWARD, RIVER, SIDEWAYS, STEP,
};

/// Calls `f(from, to)` for every quiet move `from → to` of `mover` (the side not to move on
/// `board`) that leads to `board` from the board with that piece back on `from`.
#[inline]
pub(crate) fn for_each_unmove(board: &Board, mover: Color, f: &mut impl FnMut(Square, Square)) {
    let own = board.by_color(mover);
    let empty = !board.occupied();
    let swimmers = own & RIVER & !board.by_role(Role::Crocodile);
    let candidates = match swimmers.count() {
        0 => own,
        1 => swimmers,
        _ => return,
    };
    for role in Role::ALL {
        for to in board.by_role(role) & candidates {
            let mut sources = sources(role, to, mover, board, empty) & empty;
            if role != Role::Crocodile && RIVER.contains(to) {
                // Moving within the river drowns the piece: it came from outside.
                sources &= !RIVER;
            }
            for from in sources {
                f(from, to);
            }
        }
    }
}

/// The squares a piece of `role` standing on `to` may have come from with a quiet move (a
/// superset of the empty squares it came from; the caller keeps the empty ones).
#[inline]
fn sources(role: Role, to: Square, mover: Color, board: &Board, empty: Bitboard) -> Bitboard {
    let t = to.index();
    match role {
        Role::Lion => KING[t] & castle_of(mover),
        Role::Zebra => KNIGHT[t],
        Role::Elephant => ELEPHANT[t],
        Role::Giraffe => KING[t] | LEAP_TWO[t],
        Role::Monkey => KING[t],
        Role::Crocodile => {
            let occupied = board.occupied();
            let over_empty = |dir| ray_attacks(to, dir, occupied) & empty;
            let slides = if RIVER.contains(to) {
                over_empty(Direction::North)
                    | over_empty(Direction::South)
                    | over_empty(Direction::East)
                    | over_empty(Direction::West)
            } else if to.rank() < 3 {
                over_empty(Direction::South)
            } else {
                over_empty(Direction::North)
            };
            KING[t] | slides
        }
        Role::Pawn => {
            let behind = PAWN_FORWARD[(!mover).index()][t];
            // A retreat came from one or two squares ahead, across the river, not the far rank.
            let ahead = backward_directions(!mover)[0];
            let allowed = across_river(mover) & !Bitboard::rank(mover.far_rank());
            behind | (retreat_sources(to, &[ahead], empty) & allowed)
        }
        Role::Superpawn => {
            let behind = PAWN_FORWARD[(!mover).index()][t];
            behind | SIDEWAYS[t] | retreat_sources(to, &backward_directions(!mover), empty)
        }
    }
}

/// Squares one or two steps from `to` in each direction, the nearer one empty for the farther.
#[inline]
fn retreat_sources(to: Square, directions: &[Direction], empty: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for dir in directions {
        let table = &STEP[dir.index()];
        let Some(one) = Square::new(table[to.index()]) else { continue };
        out = out.with(one);
        if empty.contains(one) {
            if let Some(two) = Square::new(table[one.index()]) {
                out = out.with(two);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::position::{Position, Setup};
    use crate::rng::SplitMix64;

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
