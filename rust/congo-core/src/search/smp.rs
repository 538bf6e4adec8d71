//! Lazy SMP: every thread searches the same root with its own iterative deepening, and they share
//! the transposition table. What one thread stores steers the others, so together they reach
//! deeper than one would; the main thread decides when to stop and gives the answer.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::attacks::lion_capture;
use super::endgame;
use super::limits::{Clock, Limits, SoftLimits, MAX_DEPTH};
use super::ordering::{move_key, Heuristics, MovePicker, Orderer};
use super::score::{Score, INFINITE, MATE_BOUND};
use super::tt::Bound;
use super::worker::{RootMove, Shared, Worker};
use super::{Engine, Line, SearchInfo, SearchOptions, SearchResult, MAX_MULTIPV};
use crate::moves::{Move, Path};
use crate::outcome::{Outcome, Termination};
use crate::piece::{Piece, Role};
use crate::position::Position;

/// Runs a search on `engine.threads()` threads: the main worker on the calling thread, helpers on
/// scoped threads that end with the search.
pub(crate) fn run(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let limits = Limits {
        depth: limits.depth.map(|d| d.clamp(1, MAX_DEPTH)),
        nodes: limits.nodes.map(|n| n.max(1)),
        mate: limits.mate.map(|m| m.clamp(1, super::MAX_MATE)),
        ..*limits
    };

    // A finished game has no move to search; say why.
    if let Some(outcome) = pos.outcome() {
        return finished(Some(outcome), start);
    }
    engine.tt.new_search();
    let clock = Clock::new(
        start,
        &limits,
        engine.move_overhead,
        options.ponder,
        SoftLimits::of(&engine.params.search),
    );
    // Against the clock, a move that captures the lion is played at once: no search can find
    // better (the worst valid positions have thousands of them, and a search would spend its time
    // on their siblings). Found among the captures before the root moves are ordered, which stops
    // at the clock's deadline: on a starved machine the ordering may end before it reaches the
    // capture. Depth and node limits search as asked.
    let timed = limits.time.is_some() || limits.clock.is_some();
    if timed && options.multipv <= 1 && !options.ponder {
        if let Some(m) = lion_capture(pos, options.root_moves.as_deref()) {
            return immediate_win(m, start, on_info);
        }
    }
    let root_moves = ordered_root_moves(engine, pos, options.root_moves.as_deref(), clock.first);
    if root_moves.is_empty() {
        return finished(None, start);
    }

    // A root in the endgame tables needs no search (unless pondering, which waits for the opponent).
    let multipv = options.multipv.clamp(1, MAX_MULTIPV).min(root_moves.len());
    if let Some(tb) = engine.tablebase.as_deref().filter(|_| !options.ponder) {
        if let Some(result) = endgame::root(tb, pos, &root_moves, multipv, start, on_info) {
            return result;
        }
    }

    let shared = Shared {
        tablebase: engine.tablebase.as_deref(),
        tt: &engine.tt,
        stop: &engine.control.stop,
        pondering: &engine.control.pondering,
        nodes: AtomicU64::new(0),
        params: &engine.params,
        eval: &engine.evaluator,
        limits,
        clock,
        threads: engine.threads,
        multipv,
        first_done: std::sync::atomic::AtomicBool::new(false),
    };
    let (main_heuristics, helper_heuristics) = engine.heuristics.split_at_mut(1);
    let main_heuristics = &mut main_heuristics[0];
    main_heuristics.new_search();

    // The helpers join once the main thread has completed its first iteration: started at once,
    // hundreds of them (on a machine with a few cores) took the processor from the main thread,
    // which then found no move to depth 1 within a tenth of a second. Depth 1 takes microseconds
    // alone, and helpers add nothing to it. They are started by a thread of their own, so that
    // starting them does not delay the main thread either, and wait at a gate until it opens.
    let gate = Gate::default();
    let mut report = |worker: &Worker<'_>, line: usize, bound: Bound| {
        gate.open();
        on_info(&info(worker, &shared, line, bound));
    };
    let main = std::thread::scope(|scope| {
        start_helpers(scope, &shared, helper_heuristics, pos, history, &root_moves, &gate);
        let mut main = Worker::new(&shared, 0, main_heuristics, *pos, history, &root_moves);
        main.iterate(&mut report);
        // The main thread's limits are the search's: stop the helpers (and let those still at the
        // gate go, to end).
        shared.stop.store(true, Ordering::Relaxed);
        gate.open();
        MainResult { lines: main.final_lines(), depth: main.completed_depth, seldepth: main.seldepth as u32 }
    });

    let nodes = shared.nodes.load(Ordering::Relaxed);
    // A position that is not over has a legal move, so there is a root move; should that ever fail,
    // the honest answer is "no move" rather than a panic.
    let Some(best) = main.lines.first() else {
        let outcome = Outcome { termination: Termination::NoLegalMoves, winner: Some(!pos.turn()) };
        return finished(Some(outcome), start);
    };
    // A line stopped before its move was searched to the end (possible only when the search stops
    // within its first iteration) has the static evaluation for its score: nothing more is known.
    let unsearched_score = || shared.eval.evaluate(pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
    let lines: Vec<Line> = main
        .lines
        .iter()
        .map(|line| {
            let score = if line.score <= -INFINITE { unsearched_score() } else { line.score };
            Line { score: Score::from_internal(score), pv: line.line() }
        })
        .collect();
    SearchResult {
        best_move: Some(best.m),
        score: lines[0].score,
        pv: lines[0].pv.clone(),
        ponder: best.pv.get(1).copied().or_else(|| expected_reply(engine, pos, &best.m)),
        lines,
        depth: main.depth,
        seldepth: main.seldepth.max(main.depth),
        nodes,
        time: start.elapsed(),
        outcome: None,
    }
}

/// Starts a helper per entry of `heuristics` (ids from 1), from a thread of its own; each waits at
/// the `gate`. Starting stops once the search is stopped; a helper (or the thread that starts them)
/// that cannot be started is left out, and the search goes on with fewer.
fn start_helpers<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    shared: &'scope Shared<'scope>,
    heuristics: &'scope mut [Heuristics],
    pos: &'scope Position,
    history: &'scope [u64],
    root_moves: &'scope [Move],
    gate: &'scope Gate,
) {
    if heuristics.is_empty() {
        return;
    }
    let _ = std::thread::Builder::new().spawn_scoped(scope, move || {
        for (i, heuristics) in heuristics.iter_mut().enumerate() {
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
            let _ = std::thread::Builder::new().spawn_scoped(scope, move || {
                gate.wait();
                if shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                heuristics.new_search();
                let mut helper = Worker::new(shared, i + 1, heuristics, *pos, history, root_moves);
                helper.iterate(&mut |_, _, _| {});
            });
        }
    });
}

/// Where the helpers wait until the main thread has completed its first iteration (or ended).
#[derive(Default)]
struct Gate {
    open: std::sync::Mutex<bool>,
    signal: std::sync::Condvar,
}

impl Gate {
    fn wait(&self) {
        let mut open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        while !*open {
            open = self.signal.wait(open).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    fn open(&self) {
        let mut open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !*open {
            *open = true;
            self.signal.notify_all();
        }
    }
}

struct MainResult {
    /// The lines of the last completed iteration (the best one possibly from the iteration that was
    /// cut short, when it found a better move), best first.
    lines: Vec<RootMove>,
    depth: u32,
    seldepth: u32,
}

/// The reply to `m` that the transposition table holds, if it is a legal move (to ponder on when the
/// principal variation ends after one move, e.g. cut short by a table hit).
fn expected_reply(engine: &Engine, pos: &Position, m: &Move) -> Option<Move> {
    let child = pos.play_unchecked(m);
    if child.outcome().is_some() {
        return None;
    }
    let key = engine.tt.probe(child.zobrist_hash())?.move_key;
    child.legal_moves().into_iter().find(|reply| move_key(reply) == key)
}

/// How many root moves are scored between looks at the stop flag and the clock.
const ROOT_POLL_INTERVAL: usize = 1024;

/// The root moves (those in `only`, if given) in the order of the move picker, the transposition
/// table's move first.
///
/// Stopped, or past the `deadline`, while it scores them (tens of thousands on the worst valid
/// positions, a few milliseconds' work), it keeps only the first move: the search then answers
/// with it at once.
fn ordered_root_moves(
    engine: &Engine,
    pos: &Position,
    only: Option<&[Path]>,
    deadline: Option<Instant>,
) -> Vec<Move> {
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
    // Scored as generated, into a list of the right size: the root of the worst valid positions has
    // tens of thousands of moves, and every megabyte copied or allocated fresh costs milliseconds
    // before the first node (a search must keep its time limit all the same).
    let mut scored = Vec::with_capacity(usize::try_from(pos.count_legal_moves()).unwrap_or(0));
    let mut interrupted = false;
    let lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
    let mut lion_capture = None;
    pos.for_each_move(&mut |m| {
        if interrupted || only.is_some_and(|only| !only.contains(&m.path)) {
            return;
        }
        if lion_capture.is_none() && (m.captured & lion).any() {
            lion_capture = Some(m);
        }
        if scored.len() % ROOT_POLL_INTERVAL == ROOT_POLL_INTERVAL - 1
            && (engine.control.stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d))
        {
            interrupted = true;
            return;
        }
        scored.push(orderer.score(m));
    });
    if interrupted {
        // Keep one move: a capture of the lion if one was seen, else the first.
        scored.truncate(1);
        if let Some(m) = lion_capture {
            return vec![m];
        }
    }
    let mut picker = MovePicker::new(scored);
    let mut moves = Vec::with_capacity(picker.len());
    while let Some(sm) = picker.next_move() {
        moves.push(sm.m);
    }
    moves
}

/// The info of one line: after a completed iteration (`Bound::Exact`: the iteration's depth), or of
/// the iteration still running when the score fell outside the aspiration window.
fn info(worker: &Worker<'_>, shared: &Shared<'_>, line: usize, bound: Bound) -> SearchInfo {
    let root = &worker.root_moves[line];
    let depth = if bound == Bound::Exact { worker.completed_depth } else { worker.running_depth() };
    SearchInfo {
        multipv: line as u32 + 1,
        bound,
        depth,
        seldepth: (worker.seldepth as u32).max(depth),
        score: Score::from_internal(root.score.clamp(-INFINITE + 1, INFINITE - 1)),
        pv: root.line(),
        nodes: shared.nodes.load(Ordering::Relaxed) + worker.nodes_unflushed(),
        time: shared.clock.elapsed(),
        hashfull: shared.tt.hashfull(),
    }
}

/// The answer for a root move that captures the lion: a win with this move, depth 1.
fn immediate_win(m: Move, start: Instant, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
    let time = start.elapsed();
    on_info(&SearchInfo {
        multipv: 1,
        bound: Bound::Exact,
        depth: 1,
        seldepth: 1,
        score: Score::Mate(1),
        pv: vec![m],
        nodes: 1,
        time,
        hashfull: 0,
    });
    SearchResult {
        best_move: Some(m),
        score: Score::Mate(1),
        pv: vec![m],
        ponder: None,
        lines: vec![Line { score: Score::Mate(1), pv: vec![m] }],
        depth: 1,
        seldepth: 1,
        nodes: 1,
        time,
        outcome: None,
    }
}

/// The result for a game that is already over (or for a search left with no root move).
fn finished(outcome: Option<Outcome>, start: Instant) -> SearchResult {
    let score = match outcome.map(|o| o.winner) {
        // The side to move has lost (its lion is gone, or it has no legal move).
        Some(Some(_)) => Score::Mate(0),
        _ => Score::Cp(0),
    };
    SearchResult {
        best_move: None,
        score,
        pv: Vec::new(),
        ponder: None,
        lines: Vec::new(),
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: start.elapsed(),
        outcome,
    }
}
