//! Perft: counting the leaves of the move tree, the standard correctness check of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of leaf positions `depth` moves deep. The last ply is counted in bulk, without making
/// the moves. A position where a lion was captured has no moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            for m in &moves {
                let mut next = *pos;
                next.play_in_place(m);
                nodes += perft(&next, depth - 1);
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
