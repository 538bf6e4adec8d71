//! Perft: counting the leaves of the move tree, the standard correctness check of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of leaf positions `depth` moves deep. The last ply is counted in bulk, without making
/// the moves. A position where a lion was captured has no moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut lists = vec![MoveList::new(); depth.saturating_sub(1) as usize];
    perft_with(pos, depth, &mut lists)
}

/// [`perft`] with one reusable move list per interior ply, so that the tree walk allocates nothing.
fn perft_with(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let Some((moves, deeper)) = lists.split_first_mut() else { return 0 };
            moves.clear();
            pos.generate_moves(moves);
            let mut nodes = 0;
            for m in moves.iter() {
                let mut next = *pos;
                next.play_in_place(m);
                nodes += perft_with(&next, depth - 1, deeper);
            }
            nodes
        }
    }
}

/// Like [`perft`] but makes every leaf move: the figure to compare with engines that do not bulk-count.
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    pos.for_each_move(&mut |m| {
        let mut next = *pos;
        next.play_in_place(&m);
        nodes += if depth == 1 { 1 } else { perft_full(&next, depth - 1) };
        core::hint::black_box(&next);
    });
    nodes
}

/// Perft split by the first move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().into_iter().map(|m| (m, perft(&pos.play_unchecked(&m), depth - 1))).collect()
}
