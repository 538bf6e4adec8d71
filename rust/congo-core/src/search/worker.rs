//! One search thread: iterative deepening over a principal variation search with a quiescence
//! search at the horizon. The main thread and every Lazy SMP helper run this same code; they
//! share only the transposition table, the stop flag and the node counter.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use smallvec::SmallVec;

use super::attacks::{can_capture_lion, lion_attacked, lion_capture};
use super::eval::Evaluator;
use super::limits::{Clock, Limits};
use super::nnue::{Layers, Network};
use super::ordering::{captured_value, is_promotion, move_key, Heuristics, MovePicker, Orderer, ScoredMove};
use super::params::{Params, SearchParams};
use super::score::{from_tt, is_decisive, lost_at, to_tt, win_in, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::tt::{Bound, Entry, TranspositionTable};
use crate::board::Board;
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::repetition;
use crate::zobrist;

/// How much work a thread does between looks at the clock and the shared node counter, in nodes:
/// a quarter of a millisecond in ordinary positions, about one on the slowest valid position
/// (`docs/worst-case.md`), against some 25 ns per look.
const CHECK_INTERVAL: u64 = 256;

/// Generated moves that count as one node of work towards [`CHECK_INTERVAL`]. A node of an ordinary
/// position generates a few dozen moves, but one of the worst valid positions (`docs/worst-case.md`)
/// generates tens of thousands of monkey chains: counted by nodes alone, the clock would be read
/// only every few hundred milliseconds there.
const MOVES_PER_NODE: u64 = 16;

/// How long a search runs before the main thread reports scores outside the aspiration window
/// (lower and upper bounds) as a sign of progress; shorter searches report completed iterations only.
const BOUND_REPORT_AFTER: Duration = Duration::from_secs(1);

/// Plies of quiescence search in which a threatened lion is answered with every move (beyond them
/// the static evaluation stands, which keeps endless lion chases from exploding the search).
const QS_EVASION_PLIES: usize = 6;

/// What all search threads share.
pub(crate) struct Shared<'a> {
    /// Endgame tables: exact scores for the positions they cover.
    pub tablebase: Option<&'a crate::tablebase::Tablebase>,
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    /// Set while a ponder search has not been hit (see [`super::StopHandle::ponderhit`]).
    pub pondering: &'a AtomicBool,
    /// Nodes visited by all threads (each adds its count every [`CHECK_INTERVAL`] nodes).
    pub nodes: AtomicU64,
    pub params: &'a Params,
    pub eval: &'a Evaluator,
    pub limits: Limits,
    pub clock: Clock,
    pub threads: usize,
    /// Principal variations to search, `1..=` the number of root moves.
    pub multipv: usize,
    /// Set when the main thread has completed its first iteration: from then on the helpers stop
    /// at the hard deadline too.
    pub first_done: AtomicBool,
}

/// A root move with what the last search of it found.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub m: Move,
    pub score: i32,
    /// The score of the previous iteration (the centre of the aspiration window).
    pub previous_score: i32,
    /// The principal variation, empty until the move has been searched (a root of tens of
    /// thousands of moves would otherwise allocate as many lists before its first node).
    pub pv: Vec<Move>,
}

impl RootMove {
    /// The principal variation, or the move alone if it has not been searched yet.
    pub fn line(&self) -> Vec<Move> {
        if self.pv.is_empty() {
            vec![self.m]
        } else {
            self.pv.clone()
        }
    }
}

/// Late move reductions, `LMR[depth][move number]`, both capped at 63: grows with the logarithm of
/// each, the usual form since Fruit and Stockfish; `divisor` is [`SearchParams::lmr_divisor`].
fn lmr_table(divisor: i32) -> Box<LmrTable> {
    let mut table = Box::new([[0u8; 64]; 64]);
    let divisor = f64::from(divisor.max(1)) / 100.0;
    for (depth, row) in (0u32..).zip(table.iter_mut()).skip(1) {
        for (index, r) in (0u32..).zip(row.iter_mut()).skip(1) {
            *r = (0.5 + f64::from(depth).ln() * f64::from(index).ln() / divisor) as u8;
        }
    }
    table
}

type LmrTable = [[u8; 64]; 64];

/// The reduction table of the default divisor, computed once (other divisors, set for tuning, get
/// a table of their own per search).
static LMR: OnceLock<Box<LmrTable>> = OnceLock::new();

/// The reduction table for `params`: the shared default one, or one of its own.
fn lmr_for(params: &SearchParams) -> std::borrow::Cow<'static, LmrTable> {
    let default = SearchParams::default().lmr_divisor;
    if params.lmr_divisor == default {
        std::borrow::Cow::Borrowed(&**LMR.get_or_init(|| lmr_table(default)))
    } else {
        std::borrow::Cow::Owned(*lmr_table(params.lmr_divisor))
    }
}

/// Quiet moves searched at depth 1, 2, 3 before late move pruning skips the rest.
const LMP_MOVES: [usize; 4] = [0, 8, 14, 22];

pub(crate) struct Worker<'a> {
    shared: &'a Shared<'a>,
    /// 0 for the main thread.
    id: usize,
    params: SearchParams,
    pub nodes: u64,
    unflushed: u64,
    /// The exact node budget of a single-threaded search (deterministic).
    node_limit: Option<u64>,
    /// Work (nodes, and generated moves by [`MOVES_PER_NODE`]) since the last look at the clock.
    work: u64,
    pub stopped: bool,
    pub seldepth: usize,
    heuristics: &'a mut Heuristics,
    lmr: std::borrow::Cow<'static, LmrTable>,
    /// Hashes of the game's positions before the root, then of the current search path:
    /// `keys[base + ply]` is the node at `ply`.
    keys: Vec<u64>,
    /// `reversible[i]`: how many moves back from position `i` no irreversible move
    /// ([`repetition::is_irreversible`]) happened. A repetition cannot reach further back.
    reversible: Vec<u16>,
    base: usize,
    /// A move list per ply, reused from node to node.
    buffers: Vec<Vec<ScoredMove>>,
    /// Triangular principal variation table: `pv[ply]` is the best line found from `ply`.
    pv: Vec<Vec<Move>>,
    root: Position,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    /// The depth of the current iteration (bounds the lion-threat extensions).
    root_depth: i32,
    /// The main thread's deadlines (helpers stop when it does).
    clock: Clock,
    /// While pondering, the limits said stop: do so at the ponder hit.
    stop_on_ponderhit: bool,
    /// The lines of the last completed iteration, best first (main thread).
    completed: Vec<RootMove>,
    /// With the learned evaluation on, its accumulators along the search path.
    nnue: Option<Nnue<'a>>,
}

/// The accumulator stack of the network's architecture, chosen once when the search starts: each
/// variant's code is compiled for its architecture, and a node pays one predictable branch.
enum Nnue<'a> {
    V1(NnueStack<'a, super::nnue::NetworkV1>),
    V2(NnueStack<'a, super::nnue2::NetworkV2>),
}

impl<'a> Nnue<'a> {
    fn new(network: &'a Network, root: &Board) -> Nnue<'a> {
        match network {
            Network::V1(net) => Nnue::V1(NnueStack::new(net, root)),
            Network::V2(net) => Nnue::V2(NnueStack::new(net, root)),
        }
    }

    /// Records `board` as the node at `ply`; its accumulators are not computed yet.
    #[inline]
    fn enter(&mut self, ply: usize, board: &Board) {
        match self {
            Nnue::V1(stack) => stack.enter(ply, board),
            Nnue::V2(stack) => stack.enter(ply, board),
        }
    }

    /// The network's evaluation of the node at `ply` (recorded by [`Nnue::enter`]).
    #[inline]
    fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        match self {
            Nnue::V1(stack) => stack.evaluate(ply, pos),
            Nnue::V2(stack) => stack.evaluate(ply, pos),
        }
    }
}

/// The learned evaluation's accumulators of the nodes on the search path: `boards[ply]` is the
/// node at `ply`, and `acc[ply]` its accumulators once `fresh[ply]`. Entering a node only records its
/// board; the accumulators are brought up from the nearest fresh ancestor when the node is
/// evaluated, so nodes cut off before their evaluation (table hits, repetitions) cost no update.
/// Copy-make: leaving a node is free.
struct NnueStack<'a, N: Layers> {
    network: &'a N,
    acc: Vec<N::Acc>,
    boards: Vec<Board>,
    fresh: Vec<bool>,
}

impl<'a, N: Layers> NnueStack<'a, N> {
    fn new(network: &'a N, root: &Board) -> NnueStack<'a, N> {
        let mut fresh = vec![false; MAX_PLY + 2];
        fresh[0] = true;
        NnueStack {
            network,
            acc: vec![network.refresh(root); MAX_PLY + 2],
            boards: vec![*root; MAX_PLY + 2],
            fresh,
        }
    }

    /// The accumulators of the node at `ply`, updated along the path from the nearest fresh node.
    #[inline]
    fn enter(&mut self, ply: usize, board: &Board) {
        self.boards[ply] = *board;
        self.fresh[ply] = false;
    }

    #[inline]
    fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        debug_assert!(self.boards[ply] == *pos.board(), "the accumulators are of another node");
        let network = self.network;
        network.output(self.accumulators(ply), pos.turn())
    }

    fn accumulators(&mut self, ply: usize) -> &N::Acc {
        let mut from = ply;
        while !self.fresh[from] {
            from -= 1; // the root (ply 0) is always fresh
        }
        for p in from + 1..=ply {
            let (parents, rest) = self.acc.split_at_mut(p);
            rest[0] = parents[p - 1];
            self.network.update(&mut rest[0], &self.boards[p - 1], &self.boards[p]);
            self.fresh[p] = true;
        }
        debug_assert!(self.acc[ply] == self.network.refresh(&self.boards[ply]), "updated != refreshed");
        &self.acc[ply]
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        shared: &'a Shared<'a>,
        id: usize,
        heuristics: &'a mut Heuristics,
        root: Position,
        history: &[u64],
        root_moves: &[Move],
    ) -> Worker<'a> {
        let base = history.len();
        let mut keys = Vec::with_capacity(base + MAX_PLY + 2);
        keys.extend_from_slice(history);
        keys.push(root.zobrist_hash());
        keys.resize(base + MAX_PLY + 2, 0);
        // The caller passes only positions that a repetition can reach (see `Engine::search`).
        let mut reversible: Vec<u16> = (0..=base).map(|i| u16::try_from(i).unwrap_or(u16::MAX)).collect();
        reversible.resize(base + MAX_PLY + 2, 0);
        let node_limit = if shared.threads == 1 { shared.limits.nodes } else { None };
        Worker {
            shared,
            id,
            params: shared.params.search,
            nodes: 0,
            unflushed: 0,
            node_limit,
            work: 0,
            stopped: false,
            seldepth: 0,
            heuristics,
            lmr: lmr_for(&shared.params.search),
            keys,
            reversible,
            base,
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            root,
            root_moves: root_moves
                .iter()
                .map(|&m| RootMove { m, score: -INFINITE, previous_score: -INFINITE, pv: Vec::new() })
                .collect(),
            completed_depth: 0,
            root_depth: 1,
            clock: shared.clock,
            stop_on_ponderhit: false,
            completed: Vec::new(),
            nnue: shared.eval.network().map(|network| Nnue::new(network, root.board())),
        }
    }

    /// The depth of the iteration running now.
    pub fn running_depth(&self) -> u32 {
        self.root_depth as u32
    }

    /// The answer of the search: the lines of the last completed iteration, except that the best
    /// move of an iteration cut short goes first if it beat the previous best (it was searched in
    /// full and found better).
    pub fn final_lines(&self) -> Vec<RootMove> {
        let Some(best) = self.root_moves.first() else { return Vec::new() };
        let mut lines = Vec::with_capacity(self.completed.len().max(1));
        lines.push(best.clone());
        lines.extend(self.completed.iter().filter(|line| line.m != best.m).cloned());
        lines.truncate(self.completed.len().max(1));
        lines
    }

    /// Notices a ponder hit: the deadlines start, and a search that its limits already ended stops.
    fn poll_ponder(&mut self) {
        if self.clock.is_pondering() && !self.shared.pondering.load(Ordering::Relaxed) {
            self.clock.ponderhit(Instant::now());
            if self.stop_on_ponderhit {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
    }

    /// Counts a node and decides whether the search must stop now. Every limit holds from the first
    /// node on: stopped before its first iteration is complete, a search answers with the best root
    /// move searched so far, or the first by move ordering.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        self.work += 1;
        if self.work >= CHECK_INTERVAL {
            self.check_limits();
        }
        if self.node_limit.is_some_and(|limit| self.nodes >= limit)
            || self.shared.stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Adds this thread's nodes to the shared count; the main thread also checks the clock and,
    /// with several threads, the node budget.
    fn check_limits(&mut self) {
        let total = self.shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
        self.unflushed = 0;
        self.work = 0;
        if self.id != 0 {
            // Every helper looks at the clock too: with more threads than cores the main thread may
            // wait for the processor long after its deadline, and the first thread to run then
            // stops them all.
            if self.out_of_time() {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
            return;
        }
        self.poll_ponder();
        let out_of_nodes = self.shared.limits.nodes.is_some_and(|n| total >= n);
        if out_of_nodes || self.out_of_time() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    /// Whether the search has reached its hard time limit (before the main thread's first
    /// iteration is complete, the later deadline of [`Clock::first`](super::limits::Clock); a
    /// helper, which does not know, always uses that one). A helper's clock is the shared one:
    /// after a ponder hit only the main thread's has deadlines, and helpers leave them to it.
    #[inline]
    fn out_of_time(&self) -> bool {
        let first_done = if self.id == 0 {
            self.completed_depth > 0
        } else {
            self.shared.first_done.load(Ordering::Relaxed)
        };
        let deadline = if first_done { self.clock.hard } else { self.clock.first };
        deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// Counts the moves generated at a node as work (see [`MOVES_PER_NODE`]).
    #[inline]
    fn charge_moves(&mut self, moves: usize) {
        self.work += moves as u64 / MOVES_PER_NODE;
    }

    /// The look at the stop flag and the clock before each root move: with tens of thousands of
    /// root moves, an iteration must be able to end between any two of them.
    #[inline]
    fn root_poll(&mut self) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.out_of_time() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
        self.stopped
    }

    /// Nodes not yet added to the shared count.
    pub fn nodes_unflushed(&self) -> u64 {
        self.unflushed
    }

    /// Adds the remaining nodes to the shared count (at the end of the search).
    pub fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Records the position reached at `ply` for repetition detection.
    #[inline]
    fn enter(&mut self, ply: usize, child: &Position, irreversible: bool) {
        let i = self.base + ply;
        self.keys[i] = child.zobrist_hash();
        self.reversible[i] = if irreversible { 0 } else { self.reversible[i - 1].saturating_add(1) };
    }

    /// Whether the node at `ply` repeats an earlier position of the game or of the search path.
    #[inline]
    fn is_repetition(&self, ply: usize) -> bool {
        let i = self.base + ply;
        let key = self.keys[i];
        let reach = usize::from(self.reversible[i]).min(i);
        (4..=reach).step_by(2).any(|back| self.keys[i - back] == key)
    }

    /// The score of a draw (repetition, bare lions) for the side to move at `ply`: below zero for the
    /// root's side by the contempt, above zero for its opponent.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply % 2 == 0 {
            -self.params.contempt
        } else {
            self.params.contempt
        }
    }

    /// The static evaluation of `pos`, the node at `ply`.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let score = match &mut self.nnue {
            Some(nnue) => nnue.evaluate(ply, pos),
            None => self.shared.eval.evaluate(pos),
        };
        score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Records `pos` as the node at `ply` > 0 for the learned evaluation (nothing to do with the
    /// hand-written one); its accumulators are computed if it is evaluated.
    #[inline]
    fn enter_accumulators(&mut self, pos: &Position, ply: usize) {
        if let Some(nnue) = &mut self.nnue {
            nnue.enter(ply, pos.board());
        }
    }

    /// Iterative deepening. Returns when the limits are reached or the search is stopped; the main
    /// thread calls `report(worker, line, bound)` for each line after each completed iteration (and
    /// for a score outside the aspiration window in long searches).
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Worker<'_>, usize, Bound)) {
        let max_depth = self.shared.limits.max_depth();
        let lines = self.shared.multipv.clamp(1, self.root_moves.len().max(1));
        let mut depth = 1;
        while depth <= max_depth {
            // Lazy SMP: half the helpers run one ply ahead of the others, so that the threads
            // spread over more of the tree instead of all searching the same nodes.
            let search_depth = if self.id % 2 == 1 { (depth + 1).min(max_depth) } else { depth };
            self.seldepth = 0;
            self.root_depth = search_depth as i32;
            for root in &mut self.root_moves {
                root.previous_score = root.score;
            }
            // MultiPV: the best line among all root moves, then the best among the rest, and so on.
            for line in 0..lines {
                self.aspiration(search_depth as i32, line, report);
                if self.stopped {
                    break;
                }
                if lines > 1 {
                    // The moves left for the next line, best first (a stable sort keeps the order
                    // of the moves this iteration could not score).
                    self.root_moves[line + 1..].sort_by_key(|root| core::cmp::Reverse(root.score));
                }
            }
            if self.stopped {
                break;
            }
            // Lines found later can score higher than earlier ones when the search is unstable.
            self.root_moves[..lines].sort_by_key(|root| core::cmp::Reverse(root.score));
            self.completed_depth = search_depth;
            if self.id == 0 {
                self.shared.first_done.store(true, Ordering::Relaxed);
                self.completed.clear();
                self.completed.extend_from_slice(&self.root_moves[..lines]);
                for line in 0..lines {
                    report(self, line, Bound::Exact);
                }
                if self.should_finish(self.root_moves[0].score) {
                    break;
                }
            }
            depth += 1;
        }
        self.flush();
    }

    /// Whether the main thread ends the search after a completed iteration.
    fn should_finish(&mut self, score: i32) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        let limits = &self.shared.limits;
        if limits.depth.is_some_and(|d| self.completed_depth >= d) {
            return true;
        }
        if limits.nodes.is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) + self.unflushed >= n) {
            return true;
        }
        // A win in at most `mate` own moves (a win at ply p is the ((p + 1) / 2)-th own move).
        if limits.mate.is_some_and(|m| score >= MATE_BOUND && (MATE - score + 1) / 2 <= m as i32) {
            return true;
        }
        self.poll_ponder();
        let soft = self.clock.soft_deadline();
        if soft.is_none() && self.clock.hard.is_none() {
            // No clock (an infinite search, or pondering): only a stop or a limit above ends it.
            return false;
        }
        // A forced result already seen in full: deeper iterations cannot change it.
        let plies = (MATE - score.abs()) as u32;
        let seen_in_full = is_decisive(score) && self.completed_depth >= plies + 2;
        // Without a soft limit the search runs until the hard one.
        if soft.is_none_or(|soft| Instant::now() < soft) && !seen_in_full {
            return false;
        }
        if self.clock.is_pondering() {
            // Keep searching (the time is the opponent's), and move at once on the ponder hit.
            self.stop_on_ponderhit = true;
            return false;
        }
        true
    }

    /// The search of root line `line` (from 1 in `MultiPV`) in a window around its previous score,
    /// widened until the score falls inside.
    fn aspiration(
        &mut self,
        depth: i32,
        line: usize,
        report: &mut dyn FnMut(&Worker<'_>, usize, Bound),
    ) -> i32 {
        let previous = self.root_moves[line].previous_score;
        if !self.params.aspiration || depth < 4 || is_decisive(previous) {
            return self.root_search(depth, -INFINITE, INFINITE, line);
        }
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.root_search(depth, alpha, beta, line);
            if self.stopped {
                return score;
            }
            if score > alpha && score < beta {
                return score;
            }
            if self.id == 0 && self.clock.elapsed() >= BOUND_REPORT_AFTER {
                report(self, line, if score <= alpha { Bound::Upper } else { Bound::Lower });
            }
            if delta > 600 || is_decisive(score) {
                // Far off, or a forced result: search with the full window.
                (alpha, beta) = (-INFINITE, INFINITE);
            } else if score <= alpha {
                // Fail low: keep some of the window above, reopen below.
                beta = (alpha + beta) / 2;
                alpha = score - delta;
            } else {
                beta = score + delta;
            }
            delta += delta / 2;
        }
    }

    /// Searches the root moves from index `first` on (the earlier ones are the better lines of
    /// `MultiPV`, already searched); the best of them ends up at `first`.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, first: usize) -> i32 {
        let root = self.root;
        let mut best = -INFINITE;
        for i in first..self.root_moves.len() {
            if self.root_poll() {
                break;
            }
            let m = self.root_moves[i].m;
            let child = root.play_unchecked(&m);
            self.enter(1, &child, repetition::is_irreversible(root.board(), child.board()));
            let score = if i == first {
                -self.search(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if !self.stopped && s > alpha && s < beta {
                    s = -self.search(&child, depth - 1, -beta, -alpha, 1, true);
                }
                s
            };
            if self.stopped {
                break;
            }
            best = best.max(score);
            if i == first || score > alpha {
                let line = &mut self.root_moves[i];
                line.score = score;
                line.pv.clear();
                line.pv.push(m);
                line.pv.extend_from_slice(&self.pv[1]);
            } else {
                self.root_moves[i].score = -INFINITE;
            }
            if score > alpha {
                // The best move so far goes first: it is the answer if time runs out now, and the
                // first move searched in the next iteration.
                self.root_moves[first..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
                alpha = score;
            }
        }
        best
    }

    /// The stored score if the table entry settles this node: deep enough, with a bound on the
    /// right side of the window.
    fn tt_cutoff(&self, entry: Option<Entry>, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        let e = entry.filter(|e| self.params.tt_cutoffs && e.depth >= depth)?;
        let score = from_tt(e.score, ply);
        match e.bound {
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        }
    }

    /// Null-move pruning: passes, and returns a score at least `beta` if a reduced search still
    /// cannot bring the opponent below it.
    fn null_move(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        static_eval: i32,
    ) -> Option<i32> {
        let reduction = self.params.null_reduction + depth / 4 + ((static_eval - beta) / 200).min(2);
        let null = pass(pos);
        self.enter(ply + 1, &null, true);
        let score = -self.search(&null, depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
        if self.stopped || score < beta {
            return None;
        }
        let score = if is_decisive(score) { beta } else { score };
        // Deep down, verify with a reduced search of our own moves (a zugzwang guard that costs
        // little where it matters).
        if depth < 10 {
            return Some(score);
        }
        let verified = self.search(pos, depth - 1 - reduction, beta - 1, beta, ply, false);
        (!self.stopped && verified >= beta).then_some(score)
    }

    /// The score of a node decided by the rules alone: a lion already captured (lost), the enemy
    /// lion capturable now (won: searching on cannot change that), or bare lions (a draw).
    #[inline]
    fn settled(&mut self, pos: &Position, ply: usize, pv_node: bool) -> Option<i32> {
        // The opponent's move captured our lion.
        if pos.is_decided() {
            return Some(lost_at(ply));
        }
        let board = pos.board();
        if can_capture_lion(board, pos.turn()) {
            if pv_node {
                self.pv[ply].extend(lion_capture(pos, None));
            }
            return Some(win_in(ply + 1));
        }
        // Only the lions are left, and neither can take the other now.
        if board.occupied().count() == 2 {
            return Some(self.draw_score(ply));
        }
        self.tablebase_score(pos, ply, pv_node)
    }

    /// The exact score of a position in the endgame tables (with the tables' line at a PV node).
    #[inline]
    fn tablebase_score(&mut self, pos: &Position, ply: usize, pv_node: bool) -> Option<i32> {
        let tb = self.shared.tablebase?;
        let value = tb.probe_dtm(pos)?;
        if pv_node && value != crate::tablebase::Dtm::Draw {
            self.pv[ply].extend(tb.best_line(pos, MAX_PLY.saturating_sub(ply)));
        }
        Some(super::endgame::score(value, ply))
    }

    /// Principal variation search of a node at `ply` > 0 with `depth` plies left.
    #[allow(clippy::too_many_lines)] // one node of the search, best read top to bottom
    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        self.enter_accumulators(pos, ply);
        if self.tick() {
            return 0;
        }
        if let Some(score) = self.settled(pos, ply, pv_node) {
            return score;
        }
        if self.is_repetition(ply) {
            return self.draw_score(ply);
        }
        let board = pos.board();
        let us = pos.turn();
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Mate distance pruning: no line from here can do better than winning at once.
        alpha = alpha.max(lost_at(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let lion_in_danger = lion_attacked(board, us);
        // A threatened lion must be answered: look one ply further (up to twice the iteration's depth,
        // so that a long chase cannot run away with the search).
        let extend = lion_in_danger && self.params.lion_extension && (ply as i32) < 2 * self.root_depth;
        let depth = if extend { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence_node(pos, alpha, beta, ply, lion_in_danger, 0);
        }
        self.seldepth = self.seldepth.max(ply);

        let hash = pos.zobrist_hash();
        let entry = self.shared.tt.probe(hash);
        let tt_key = entry.map_or(0, |e| e.move_key);
        if !pv_node {
            if let Some(score) = self.tt_cutoff(entry, depth, alpha, beta, ply) {
                return score;
            }
        }

        // Internal iterative reduction: without a table move the ordering here is a guess, and a
        // shallower search first costs less and fills the table for the next iteration.
        let depth = if self.params.iir && depth >= 4 && tt_key == 0 { depth - 1 } else { depth };

        let static_eval = if lion_in_danger { -INFINITE } else { self.evaluate(pos, ply) };

        // Reverse futility: far above beta near the horizon, a quiet position will not fall below it.
        // Not for a side left with its lion and pawns: it may have to walk into a capture (every
        // move losing), which no static evaluation sees (a lone lion's mate in 2 waited for depth 8).
        if self.params.futility
            && !pv_node
            && !lion_in_danger
            && depth <= 6
            && !is_decisive(beta)
            && static_eval - self.params.futility_margin * depth >= beta
            && has_pieces(board, us)
        {
            return static_eval;
        }

        // Null move: if passing still keeps the score above beta, a real move will too. Not when the
        // lion is attacked (passing loses it), nor where passing is unfairly good (see
        // `null_move_is_fair`: zugzwang and drowning).
        if self.params.null_move
            && allow_null
            && !pv_node
            && !lion_in_danger
            && depth >= 3
            && static_eval >= beta
            && !is_decisive(beta)
            && null_move_is_fair(pos, us)
        {
            if let Some(score) = self.null_move(pos, depth, beta, ply, static_eval) {
                return score;
            }
            if self.stopped {
                return 0;
            }
        }

        let mut buffer = core::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        {
            let orderer =
                Orderer::new(board, us, tt_key, ply, self.heuristics, self.shared.eval, &self.params);
            pos.for_each_move(&mut |m| buffer.push(orderer.score(m)));
        }
        self.charge_moves(buffer.len());
        if buffer.is_empty() {
            // No legal move: the side to move loses.
            self.buffers[ply] = buffer;
            return lost_at(ply);
        }
        let mut picker = MovePicker::new(buffer);
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut bound = Bound::Upper;
        let mut quiets: SmallVec<[Move; 32]> = SmallVec::new();
        let mut index = 0;
        // Futility: far below alpha near the horizon, a quiet move will not bring the score up.
        let futile = self.params.futility_quiet > 0
            && !pv_node
            && !lion_in_danger
            && depth <= 3
            && !is_decisive(alpha)
            && static_eval + self.params.futility_quiet * depth <= alpha;
        while let Some(sm) = picker.next_move() {
            let m = sm.m;
            index += 1;
            let quiet = !sm.tactical;
            if self.params.lmp
                && !pv_node
                && !lion_in_danger
                && quiet
                && depth <= 3
                && best > -MATE_BOUND
                && index > LMP_MOVES[depth as usize]
            {
                continue;
            }
            if futile && quiet && index > 1 && best > -MATE_BOUND {
                continue;
            }
            let child = pos.play_unchecked(&m);
            self.enter(ply + 1, &child, repetition::is_irreversible(pos.board(), child.board()));
            let new_depth = depth - 1;
            let score = if index == 1 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let mut reduction = 0;
                // Late quiet moves are searched less deeply, unless they attack the enemy lion (the
                // reply is forced: like a check in chess, such a move is never "quiet").
                if self.params.lmr
                    && depth >= 3
                    && quiet
                    && !lion_in_danger
                    && index > if pv_node { 5 } else { 3 }
                    && !can_capture_lion(child.board(), us)
                {
                    reduction = i32::from(self.lmr[(depth as usize).min(63)][index.min(63)]);
                    if pv_node {
                        reduction -= 1;
                    }
                    if self.params.lmr_history > 0 {
                        reduction -= self.heuristics.history(us, &m) / self.params.lmr_history;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1, true);
                if !self.stopped && s > alpha && reduction > 0 {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if !self.stopped && s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                self.buffers[ply] = picker.into_buffer();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(m);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        bound = Bound::Lower;
                        if quiet {
                            self.heuristics.reward(us, ply, &m, &quiets, depth);
                        }
                        break;
                    }
                    bound = Bound::Exact;
                    alpha = score;
                }
            }
            if quiet && quiets.len() < quiets.inline_size() {
                quiets.push(m);
            }
        }
        self.buffers[ply] = picker.into_buffer();
        self.shared.tt.store(
            hash,
            Entry { move_key: best_move.as_ref().map_or(0, move_key), score: to_tt(best, ply), depth, bound },
        );
        best
    }

    /// Quiescence search: captures (monkey chains included) and promotions until the position is
    /// quiet; every move while the lion is attacked.
    fn quiescence(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.pv[ply].clear();
        self.enter_accumulators(pos, ply);
        if self.tick() {
            return 0;
        }
        if let Some(score) = self.settled(pos, ply, false) {
            return score;
        }
        let lion_in_danger = lion_attacked(pos.board(), pos.turn());
        self.quiescence_node(pos, alpha, beta, ply, lion_in_danger, qply)
    }

    fn quiescence_node(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        lion_in_danger: bool,
        qply: usize,
    ) -> i32 {
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 || !self.params.quiescence {
            return self.evaluate(pos, ply);
        }
        // No transposition table here: quiescence nodes are many, short-lived and rarely met twice,
        // and measured without the table the search reaches the same depth a little sooner.
        let evasions = lion_in_danger && qply < QS_EVASION_PLIES;
        let (mut best, stand_pat) = if evasions {
            (lost_at(ply), -INFINITE)
        } else {
            let stand_pat = self.evaluate(pos, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            (stand_pat, stand_pat)
        };
        let board = pos.board();
        let us = pos.turn();
        let mut buffer = core::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        {
            let orderer = Orderer::new(board, us, 0, ply, self.heuristics, self.shared.eval, &self.params);
            if evasions {
                pos.for_each_move(&mut |m| buffer.push(orderer.score(m)));
            } else {
                pos.for_each_capture_or_promotion(&mut |m| buffer.push(orderer.score(m)));
            }
        }
        self.charge_moves(buffer.len());
        if evasions && buffer.is_empty() {
            self.buffers[ply] = buffer;
            return lost_at(ply);
        }
        let mut picker = MovePicker::new(buffer);
        while let Some(sm) = picker.next_move() {
            let m = sm.m;
            // Delta pruning: even winning the captured material would not lift the score to alpha.
            if !evasions
                && !is_promotion(&m, us)
                && stand_pat + captured_value(board, &m, self.shared.eval) + 150 <= alpha
            {
                continue;
            }
            let child = pos.play_unchecked(&m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                self.buffers[ply] = picker.into_buffer();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.buffers[ply] = picker.into_buffer();
        best
    }
}

/// Whether passing is a fair test for `color` (the null-move guard): it has a piece besides its lion
/// and its pawns (with less, running out of moves, which loses in Congo, is a real danger), and no
/// piece that must leave the river (a pass would keep it from drowning, which no real move does).
#[inline]
fn null_move_is_fair(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    has_pieces(board, color) && crate::rules::river::swimmers(board, color).is_empty()
}

/// Whether `color` has a piece besides its lion and its pawns: with less, running out of safe moves
/// (zugzwang, which loses in Congo) is a real danger, and pruning that trusts a pass or a static
/// evaluation is not.
#[inline]
fn has_pieces(board: &Board, color: Color) -> bool {
    let minor = board.by_piece(Piece::new(Role::Lion, color)) | board.by_piece(Piece::new(Role::Pawn, color));
    (board.by_color(color) & !minor).any()
}

/// The position with the other side to move and nothing else changed (the null move).
#[inline]
fn pass(pos: &Position) -> Position {
    let mut next = *pos;
    next.turn = !pos.turn;
    next.hash ^= zobrist::WHITE_TO_MOVE;
    if pos.turn == Color::Black {
        next.fullmove = pos.fullmove.saturating_add(1);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactical_moves_are_the_captures_and_promotions_among_legal_moves() {
        for fen in [
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
            "2l4/P6/7/3c3/7/2p4/1M1L3 w 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut tactical = Vec::new();
            pos.for_each_capture_or_promotion(&mut |m| tactical.push(m.uci()));
            let mut expected: Vec<String> = pos
                .legal_moves()
                .iter()
                .filter(|m| m.is_capture() || is_promotion(m, pos.turn()))
                .map(Move::uci)
                .collect();
            tactical.sort();
            expected.sort();
            assert_eq!(tactical, expected, "{fen}");
        }
    }

    #[test]
    fn a_pass_changes_only_the_side_to_move() {
        let pos = Position::start();
        let passed = pass(&pos);
        assert_eq!(passed.turn(), Color::Black);
        assert_eq!(passed.board(), pos.board());
        assert_eq!(passed.zobrist_hash(), zobrist::hash(passed.board(), Color::Black));
    }
}
