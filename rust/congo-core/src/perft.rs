//! Perft: counting the leaves of the move tree, the standard correctness check of a move generator.
//!
//! Every count has an interruptible form (`*_interruptible`) that stops when an [`Interrupt`]
//! says so: it looks at it about every [`Interrupt::INTERVAL`] nodes.

use crate::interrupt::{Interrupt, Interrupted, Never, Ticker};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The number of leaf positions `depth` moves deep. The last ply is counted in bulk, without making
/// the moves. A position where a lion was captured has no moves.
///
/// The walk is depth first: its recursion and its move lists grow with the depth reached, so callers
/// taking a depth from outside check it against [`crate::MAX_PERFT_DEPTH`] first.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_interruptible(pos, depth, Never).unwrap_or(0)
}

/// [`perft`], stopped by `interrupt`.
pub fn perft_interruptible(
    pos: &Position,
    depth: u32,
    interrupt: impl Interrupt,
) -> Result<u64, Interrupted> {
    let mut walk = Walk { lists: Vec::new(), ticker: Ticker::new(interrupt) };
    let nodes = walk.count(pos, depth, 0);
    walk.ticker.result(nodes)
}

/// One perft walk: a reusable move list per interior ply (so that the walk allocates nothing once
/// the first line has been walked), grown as the walk gets deeper.
struct Walk<I: Interrupt> {
    lists: Vec<MoveList>,
    ticker: Ticker<I>,
}

impl<I: Interrupt> Walk<I> {
    fn count(&mut self, pos: &Position, depth: u32, ply: usize) -> u64 {
        match depth {
            0 => 1,
            1 => pos.count_legal_moves(),
            _ => {
                if self.lists.len() == ply {
                    self.lists.push(MoveList::new());
                }
                let mut moves = core::mem::take(&mut self.lists[ply]);
                moves.clear();
                pos.generate_moves(&mut moves);
                let mut nodes = 0;
                for m in &moves {
                    let mut next = *pos;
                    next.play_in_place(m);
                    let below = self.count(&next, depth - 1, ply + 1);
                    nodes += below;
                    // Work is counted in leaves (a bulk-counted leaf costs a few nanoseconds).
                    if self.ticker.tick(below.max(1)) {
                        break;
                    }
                }
                self.lists[ply] = moves;
                nodes
            }
        }
    }
}

/// Like [`perft`] but makes every leaf move: the figure to compare with engines that do not bulk-count.
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    perft_full_interruptible(pos, depth, Never).unwrap_or(0)
}

/// [`perft_full`], stopped by `interrupt`.
pub fn perft_full_interruptible(
    pos: &Position,
    depth: u32,
    interrupt: impl Interrupt,
) -> Result<u64, Interrupted> {
    let mut ticker = Ticker::new(interrupt);
    let nodes = full(pos, depth, &mut ticker);
    ticker.result(nodes)
}

fn full<I: Interrupt>(pos: &Position, depth: u32, ticker: &mut Ticker<I>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        // The leaves: made one by one, then counted to the interrupt at once (a counter kept in
        // memory and touched per leaf would cost a store per move).
        pos.for_each_move(&mut |m| {
            let mut next = *pos;
            next.play_in_place(&m);
            nodes += 1;
            core::hint::black_box(&next);
        });
        ticker.tick(nodes);
        return nodes;
    }
    pos.for_each_move(&mut |m| {
        if ticker.stopped() {
            return;
        }
        let mut next = *pos;
        next.play_in_place(&m);
        nodes += full(&next, depth - 1, ticker);
    });
    nodes
}

/// Perft split by the first move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_interruptible(pos, depth, Never).unwrap_or_default()
}

/// [`divide`], stopped by `interrupt`.
pub fn divide_interruptible(
    pos: &Position,
    depth: u32,
    interrupt: impl Interrupt,
) -> Result<Vec<(Move, u64)>, Interrupted> {
    divide_each(pos, depth, true, interrupt, &mut |_, _| {})
}

/// Perft split by the first move, with `on_move(move, leaves)` called as each first move's count
/// is done (for progress), in generation order. `bulk`: count the last ply without making its moves
/// (as [`perft`]), else make every leaf (as [`perft_full`]).
pub fn divide_each(
    pos: &Position,
    depth: u32,
    bulk: bool,
    interrupt: impl Interrupt,
    on_move: &mut dyn FnMut(&Move, u64),
) -> Result<Vec<(Move, u64)>, Interrupted> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut walk = Walk { lists: Vec::new(), ticker: Ticker::new(interrupt) };
    let mut split = Vec::new();
    for m in pos.legal_moves() {
        let child = pos.play_unchecked(&m);
        let nodes =
            if bulk { walk.count(&child, depth - 1, 0) } else { full(&child, depth - 1, &mut walk.ticker) };
        if walk.ticker.tick(nodes.max(1)) {
            return Err(Interrupted);
        }
        on_move(&m, nodes);
        split.push((m, nodes));
    }
    Ok(split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_set_flag_interrupts_every_count() {
        let start = Position::start();
        let stop = AtomicBool::new(true);
        assert_eq!(perft_interruptible(&start, 6, &stop), Err(Interrupted));
        assert_eq!(perft_full_interruptible(&start, 6, &stop), Err(Interrupted));
        assert_eq!(divide_interruptible(&start, 6, &stop), Err(Interrupted));
        let go = AtomicBool::new(false);
        assert_eq!(perft_interruptible(&start, 3, &go), Ok(14_332));
        assert_eq!(perft_full_interruptible(&start, 3, &go), Ok(14_332));
        assert_eq!(
            divide_interruptible(&start, 3, &go).map(|s| s.iter().map(|(_, n)| n).sum()),
            Ok(14_332u64)
        );
        let mut seen = 0;
        let full = divide_each(&start, 3, false, &go, &mut |_, _| seen += 1).unwrap();
        assert_eq!((seen, full.iter().map(|(_, n)| n).sum::<u64>()), (24, 14_332));
    }

    #[test]
    fn a_deep_perft_allocates_only_what_it_walks() {
        // A decided position has no moves: any depth is answered at once, without a move list per
        // requested ply.
        let decided = Position::from_fen("3L3/7/7/7/7/7/7 b 1").unwrap();
        assert_eq!(perft(&decided, crate::MAX_PERFT_DEPTH), 0);
        assert_eq!(perft(&decided, u32::MAX), 0);
    }
}
