//! Lazy SMP: every thread searches the same root with its own iterative deepening, and they share
//! the transposition table. What one thread stores steers the others, so together they reach
//! deeper than one would; the main thread decides when to stop and gives the answer.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::limits::{Clock, Limits, MAX_DEPTH};
use super::ordering::{MovePicker, Orderer};
use super::score::{Score, INFINITE, MATE_BOUND};
use super::worker::{Shared, Worker};
use super::{Engine, SearchInfo, SearchResult};
use crate::moves::Move;
use crate::outcome::{Outcome, Termination};
use crate::position::Position;

/// Runs a search on `engine.threads()` threads: the main worker on the calling thread, helpers on
/// scoped threads that end with the search.
pub(crate) fn run(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    on_iteration: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let limits = Limits {
        depth: limits.depth.map(|d| d.clamp(1, MAX_DEPTH)),
        nodes: limits.nodes.map(|n| n.max(1)),
        time: limits.time,
    };

    // A finished game has no move to search; say why.
    if let Some(outcome) = pos.outcome() {
        return finished(outcome, start);
    }
    engine.tt.new_search();
    let root_moves = ordered_root_moves(engine, pos);

    let shared = Shared {
        tt: &engine.tt,
        stop: &engine.stop,
        nodes: AtomicU64::new(0),
        params: &engine.params,
        eval: &engine.evaluator,
        limits,
        clock: Clock::new(start, &limits),
        threads: engine.threads,
    };
    let (main_heuristics, helper_heuristics) = engine.heuristics.split_at_mut(1);
    let main_heuristics = &mut main_heuristics[0];
    main_heuristics.new_search();

    let mut report = |worker: &Worker<'_>| on_iteration(&info(worker, &shared));
    let main = std::thread::scope(|scope| {
        for (i, heuristics) in helper_heuristics.iter_mut().enumerate() {
            let shared = &shared;
            let root_moves = &root_moves;
            scope.spawn(move || {
                heuristics.new_search();
                let mut helper = Worker::new(shared, i + 1, heuristics, *pos, history, root_moves);
                helper.iterate(&mut |_| {});
            });
        }
        let mut main = Worker::new(&shared, 0, main_heuristics, *pos, history, &root_moves);
        main.iterate(&mut report);
        // The main thread's limits are the search's: stop the helpers.
        shared.stop.store(true, Ordering::Relaxed);
        MainResult {
            root: main.root_moves.first().cloned(),
            depth: main.completed_depth,
            seldepth: main.seldepth as u32,
        }
    });

    let nodes = shared.nodes.load(Ordering::Relaxed);
    // A position that is not over has a legal move, so there is a root move; should that ever fail,
    // the honest answer is "no move" rather than a panic.
    let Some(best) = main.root else {
        let outcome = Outcome { termination: Termination::NoLegalMoves, winner: Some(!pos.turn()) };
        return finished(outcome, start);
    };
    // Stopped before the first root move was searched to the end: the move is the first by move
    // ordering, and the static evaluation is all that is known of the score.
    let score = if best.score <= -INFINITE {
        shared.eval.evaluate(pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    } else {
        best.score
    };
    SearchResult {
        best_move: Some(best.m),
        score: Score::from_internal(score),
        pv: best.pv,
        depth: main.depth,
        seldepth: main.seldepth.max(main.depth),
        nodes,
        time: start.elapsed(),
        outcome: None,
    }
}

struct MainResult {
    root: Option<super::worker::RootMove>,
    depth: u32,
    seldepth: u32,
}

/// The root moves in the order of the move picker, the transposition table's move first.
fn ordered_root_moves(engine: &Engine, pos: &Position) -> Vec<Move> {
    let tt_key = engine.tt.probe(pos.zobrist_hash()).map_or(0, |e| e.move_key);
    let orderer = Orderer::new(
        pos.board(),
        pos.turn(),
        tt_key,
        0,
        &engine.heuristics[0],
        &engine.evaluator,
        &engine.params.search,
    );
    let mut picker = MovePicker::new(pos.legal_moves().into_iter().map(|m| orderer.score(m)).collect());
    let mut moves = Vec::with_capacity(picker.len());
    while let Some(sm) = picker.next_move() {
        moves.push(sm.m);
    }
    moves
}

fn info(worker: &Worker<'_>, shared: &Shared<'_>) -> SearchInfo {
    let best = &worker.root_moves[0];
    SearchInfo {
        depth: worker.completed_depth,
        seldepth: (worker.seldepth as u32).max(worker.completed_depth),
        score: Score::from_internal(best.score),
        pv: best.pv.clone(),
        nodes: shared.nodes.load(Ordering::Relaxed) + worker.nodes_unflushed(),
        time: shared.clock.elapsed(),
        hashfull: shared.tt.hashfull(),
    }
}

/// The result for a game that is already over.
fn finished(outcome: Outcome, start: Instant) -> SearchResult {
    let score = match outcome.winner {
        // The side to move has lost (its lion is gone, or it has no legal move).
        Some(_) => Score::Mate(0),
        None => Score::Cp(0),
    };
    SearchResult {
        best_move: None,
        score,
        pv: Vec::new(),
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: start.elapsed(),
        outcome: Some(outcome),
    }
}
