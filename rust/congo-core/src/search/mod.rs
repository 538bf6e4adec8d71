//! The search engine: iterative deepening, principal variation search, a shared lock-free
//! transposition table, quiescence search, and Lazy SMP over several threads.
//!
//! ```
//! use congo_core::search::{Engine, Limits};
//! use congo_core::Position;
//!
//! // The white monkey on b1 jumps c2, e4 and e6: the chain ends on the black lion's square d7.
//! let pos = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
//! let mut engine = Engine::new(1, 16).unwrap();
//! let result = engine.search(&pos, &[], &Limits::depth(4), &mut |_| {});
//! assert_eq!(result.best_move.unwrap().uci(), "b1d3f5d7");
//! assert_eq!(result.score.mate(), Some(1));
//! ```
//!
//! * [`Engine`] owns the transposition table and the per-thread move-ordering statistics; it is
//!   `Send`, so a binding can move it into a thread, and [`StopHandle`] stops a running search
//!   from any thread.
//! * [`Limits`] says when to stop: depth, nodes, time, a game clock (through the time manager,
//!   [`time_budget`]), a mate found, or never (until stopped).
//! * [`SearchOptions`]: several principal variations (`MultiPV`), a restricted set of root moves,
//!   pondering (no deadline until [`StopHandle::ponderhit`]).
//! * Results: a [`SearchInfo`] per line and completed iteration (to a callback), then a
//!   [`SearchResult`].
//!
//! Architecture and the measured worth of every feature: `docs/engine.md`.

mod attacks;
mod endgame;
pub mod eval;
mod limits;
mod nnue;
mod nnue2;
mod ordering;
pub mod params;
mod score;
mod smp;
pub mod tt;
pub mod wdl;
mod weights;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use attacks::{can_capture_lion, lion_attacked};
pub use limits::{
    time_budget, GameClock, LimitError, Limits, TimeBudget, DEFAULT_MOVES_TO_GO, MATE_DEPTH_SLACK, MAX_DEPTH,
    MAX_MATE, MAX_NODES, MAX_TIME_SECONDS,
};
/// The checksum of the network files, which the book files use too.
pub(crate) use nnue::fnv1a64;
pub use nnue::Network;
pub use params::{inert_message, EvalParams, ParamError, ParamInfo, Params, SearchParams, PARAMS};
pub use score::{Score, MATE, MAX_PLY};
pub use tt::Bound;

use crate::moves::{Move, Path};
use crate::outcome::Outcome;
use crate::position::Position;
use crate::tablebase::Tablebase;
use eval::Evaluator;
use ordering::Heuristics;
use tt::TranspositionTable;

/// The most search threads an engine accepts.
pub const MAX_THREADS: usize = 256;

/// The largest transposition table accepted, in mebibytes (1 TiB).
pub const MAX_HASH_MB: usize = 1 << 20;

/// The transposition table of an engine, in mebibytes, unless its user says otherwise: one engine
/// playing or analysing one game (`congo.Engine`, `congo analyse`, `congo uci`'s `Hash`).
pub const DEFAULT_HASH_MB: usize = 64;

/// The table of each engine where many games are played at once, each by engines of its own
/// (self-play, matches, the learning environments): short searches of a few thousand nodes fill
/// little of it, and a process holds one per game in parallel.
pub const GAME_POOL_HASH_MB: usize = 16;

/// The table of each engine analysing many positions in a batch (`congo.analysis.analyse_many`,
/// `congo annotate`): it is cleared before every position, which takes time in proportion to its
/// size, so a small one is faster at the usual short limits.
pub const BATCH_HASH_MB: usize = 4;

/// The most principal variations a search reports (`MultiPV`).
pub const MAX_MULTIPV: usize = 256;

/// The time set aside by default, per move, for what happens outside the search on a game clock:
/// passing the move through a protocol, a process boundary, a busy operating system.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The longest move overhead accepted.
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_secs(60);

/// What went wrong creating or configuring an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The thread count is outside `1..=MAX_THREADS` (as given; bindings saturate bigger numbers).
    Threads(i128),
    /// The table size is outside `1..=MAX_HASH_MB`.
    HashSize(i128),
    /// The table would take more than half of this machine's memory.
    HashExceedsMemory { mb: usize, memory_mb: u64 },
    /// The memory for the table could not be allocated.
    OutOfMemory(usize),
}

impl core::fmt::Display for EngineError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use crate::bounds::Shown;
        match *self {
            EngineError::Threads(n) => write!(f, "threads must be from 1 to {MAX_THREADS}, got {}", Shown(n)),
            EngineError::HashSize(mb) => {
                write!(f, "hash_mb must be from 1 to {MAX_HASH_MB}, got {}", Shown(mb))
            }
            EngineError::HashExceedsMemory { mb, memory_mb } => {
                write!(f, "hash_mb {mb} is more than half of this machine's memory ({memory_mb} MiB)")
            }
            EngineError::OutOfMemory(mb) => write!(f, "could not allocate a {mb} MiB transposition table"),
        }
    }
}

/// A thread count as a binding receives it, checked: `1..=MAX_THREADS`.
pub fn checked_threads(threads: i128) -> Result<usize, EngineError> {
    usize::try_from(threads)
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or(EngineError::Threads(threads))
}

/// A table size in MiB as a binding receives it, checked: `1..=MAX_HASH_MB`, and at most half of
/// the machine's memory where that is known (a bigger table would be allocated, then written, and
/// the process killed for it).
pub fn checked_hash_mb(mb: i128) -> Result<usize, EngineError> {
    let mb = usize::try_from(mb)
        .ok()
        .filter(|n| (1..=MAX_HASH_MB).contains(n))
        .ok_or(EngineError::HashSize(mb))?;
    if let Some(memory_mb) = physical_memory_mb() {
        if mb as u64 > memory_mb / 2 {
            return Err(EngineError::HashExceedsMemory { mb, memory_mb });
        }
    }
    Ok(mb)
}

/// The machine's physical memory in MiB, where the platform says (Linux: `/proc/meminfo`).
fn physical_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl std::error::Error for EngineError {}

/// What another thread may tell a running search.
#[derive(Debug, Default)]
struct Control {
    stop: AtomicBool,
    /// A ponder search that has not been hit yet.
    pondering: AtomicBool,
}

/// Stops a running search, or ends its pondering, from another thread. Cheap to clone; stopping when
/// no search runs does nothing (each [`Engine::search`] starts afresh).
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<Control>);

impl StopHandle {
    /// Ends the running search as soon as possible (within a few hundred microseconds); it returns
    /// the best move found so far.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }

    /// The move a ponder search assumed was played: from now on the search keeps to its limits (the
    /// hard time limit counts from now). Does nothing to a search that is not pondering.
    pub fn ponderhit(&self) {
        self.0.pondering.store(false, Ordering::Relaxed);
    }

    /// Prepares the next search started with [`Engine::search_prepared`]: clears an earlier stop and
    /// sets whether it ponders. A controller calls this *before* it hands the search to another
    /// thread, so that a `stop` or `ponderhit` sent right after is not lost.
    pub fn prepare(&self, ponder: bool) {
        self.0.pondering.store(ponder, Ordering::Relaxed);
        self.0.stop.store(false, Ordering::Relaxed);
    }

    /// Whether [`StopHandle::stop`] was called since the search was prepared.
    pub fn is_stopped(&self) -> bool {
        self.0.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering (prepared to ponder and not hit yet).
    pub fn is_pondering(&self) -> bool {
        self.0.pondering.load(Ordering::Relaxed)
    }
}

/// How to search, beyond when to stop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// The number of best lines to search and report, each with an exact score (`MultiPV`); 0 counts
    /// as 1, and there are never more lines than root moves.
    pub multipv: usize,
    /// Search only these moves at the root (a UCI `go searchmoves`); paths that are not legal moves
    /// are ignored. `None`: every legal move.
    pub root_moves: Option<Vec<Path>>,
    /// Ponder: search with no deadline until [`StopHandle::ponderhit`], then keep to the limits.
    pub ponder: bool,
}

/// The state of a search after a completed iteration, for one of its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Which line this is, from 1 (the best) to the number of lines searched (`MultiPV`).
    pub multipv: u32,
    /// `Exact` after a completed iteration; `Lower` or `Upper` when the score fell outside the
    /// aspiration window of an iteration still running (reported only in searches longer than a
    /// second, as a sign of progress).
    pub bound: Bound,
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence search and extensions included).
    pub seldepth: u32,
    pub score: Score,
    /// The principal variation: the best line found, starting with the best move.
    pub pv: Vec<Move>,
    /// Nodes visited so far, all threads together.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use by this search, per mille.
    pub hashfull: u32,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// One principal variation of a finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: Score,
    /// The line, starting with its root move.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, or `None` when the game is already over (see `outcome`) or no root move was
    /// left to search ([`SearchOptions::root_moves`] matched no legal move).
    pub best_move: Option<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    /// The move expected in reply (to ponder on): the principal variation's second move, or the
    /// transposition table's best reply when the variation ends early.
    pub ponder: Option<Move>,
    /// Every line searched, best first (one unless [`SearchOptions::multipv`] asked for more); the
    /// first is `score` and `pv`.
    pub lines: Vec<Line>,
    /// The deepest completed iteration (0 when the game is over).
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// Why there is no move: the position's outcome by the rules (a captured lion, no legal move,
    /// bare lions). `None` whenever there is a move.
    pub outcome: Option<Outcome>,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64
}

/// A search engine: a transposition table, search threads and their parameters.
pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    threads: usize,
    params: Params,
    evaluator: Evaluator,
    heuristics: Vec<Heuristics>,
    control: Arc<Control>,
    move_overhead: Duration,
    /// Endgame tables to consult (see [`Engine::set_tablebase`]).
    tablebase: Option<Arc<Tablebase>>,
    /// A network loaded from a file (see [`Engine::set_network`]); `None`: the compiled-in one.
    network: Option<Arc<Network>>,
}

impl Engine {
    /// An engine searching with `threads` threads (Lazy SMP) and a `hash_mb` MiB transposition table.
    pub fn new(threads: usize, hash_mb: usize) -> Result<Engine, EngineError> {
        Engine::with_params(threads, hash_mb, Params::default())
    }

    /// An engine with non-default parameters (see [`PARAMS`]).
    pub fn with_params(threads: usize, hash_mb: usize, params: Params) -> Result<Engine, EngineError> {
        let threads = checked_threads(threads as i128)?;
        let hash_mb = checked_hash_mb(hash_mb as i128)?;
        let tt = TranspositionTable::new(hash_mb).map_err(|_| EngineError::OutOfMemory(hash_mb))?;
        Ok(Engine {
            tt,
            hash_mb,
            threads,
            params,
            evaluator: Evaluator::new(&params.eval),
            heuristics: (0..threads).map(|_| Heuristics::new(MAX_PLY)).collect(),
            control: Arc::new(Control::default()),
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            tablebase: None,
            network: None,
        })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Sets a parameter by name (see [`PARAMS`]).
    pub fn set_param(&mut self, name: &str, value: impl Into<i128>) -> Result<(), ParamError> {
        self.params.set(name, value)?;
        self.evaluator = Evaluator::with_network(&self.params.eval, self.network.clone());
        Ok(())
    }

    /// A handle that stops this engine's running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.control))
    }

    /// Endgame tables for the search to use, or `None`: every node the tables cover gets its exact
    /// score (a win or loss with its distance, or a draw) without being searched, and a root they
    /// cover is answered at once with the distance-best move and the tables' line to the end.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The endgame tables the search uses.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The network of the learned evaluation (`nnue`): one read from a file ([`Network::load`],
    /// the `EvalFile` option), or `None` for the compiled-in one. The transposition table is
    /// cleared: its entries hold the other network's evaluations.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
        self.evaluator = Evaluator::with_network(&self.params.eval, self.network.clone());
        self.tt.clear();
    }

    /// The network loaded from a file, if one is ([`Engine::set_network`]).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The time set aside per move for latency outside the search when playing on a game clock.
    pub fn move_overhead(&self) -> Duration {
        self.move_overhead
    }

    /// Sets the move overhead (clamped to [`MAX_MOVE_OVERHEAD`]).
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead.min(MAX_MOVE_OVERHEAD);
    }

    /// Forgets everything learnt in earlier searches (transposition table, move-ordering history),
    /// as for a new game. A fresh or cleared engine searching with one thread and a depth or node
    /// limit gives the same result every time.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics = (0..self.threads).map(|_| Heuristics::new(MAX_PLY)).collect();
    }

    /// The static evaluation of a position for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluator.evaluate(pos)
    }

    /// Searches `pos` within `limits`, calling `on_iteration` on this thread after each completed
    /// iteration.
    ///
    /// `history` holds the Zobrist hashes of the game's earlier positions, oldest first, so that the
    /// search scores repetitions as draws; positions before the last capture cannot repeat and may
    /// be left out. Limits are expected to be valid ([`Limits::validate`]); out-of-range values are
    /// clamped rather than trusted.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_with(pos, history, limits, &SearchOptions::default(), on_iteration)
    }

    /// [`Engine::search`] with options: several lines (`on_info` is called once per line and
    /// iteration), a restricted root, pondering.
    pub fn search_with(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.stop_handle().prepare(options.ponder);
        self.search_prepared(pos, history, limits, options, on_info)
    }

    /// [`Engine::search_with`] for a search prepared beforehand with [`StopHandle::prepare`]: a stop
    /// or ponder hit that arrived since then takes effect at once instead of being forgotten.
    pub fn search_prepared(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        smp::run(self, pos, history, limits, options, on_info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_is_send() {
        fn assert_send<T: Send>() {}
        assert_send::<Engine>();
        assert_send::<StopHandle>();
    }

    /// The worst valid positions (tests/data/worst.suite): thousands of moves capture the lion.
    const LION_CAPTURES: [&str; 5] = [
        "1C1G3/1M1lMMM/3g1m1/GMmmmem/G2cMm1/2Scmzm/S2L1S1 w 1",
        "3G3/1C1l1GC/1z1s3/ssmmmGM/1mMc1E1/smgeSMM/1S1L3 w 1",
        "SM4G/1Z1lEG1/SS1m1e1/2mzmmm/1G1sMc1/SM1csmc/3L1C1 w 1",
        "3l3/1s1G1P1/1g1MZMM/mgmCmC1/Mg1LGMG/zsmm1C1/1m1g3 w 1",
        "1M1M1S1/PPlMMCM/2m1mP1/1eesmCC/1Mm1m2/1cmcg2/2m1L2 w 1",
    ];

    fn low_clock() -> Limits {
        Limits::clock(GameClock { remaining: Duration::from_millis(500), ..GameClock::default() })
    }

    #[test]
    fn a_search_with_time_left_takes_a_lion_capture() {
        let mut engine = Engine::new(1, 16).unwrap();
        for fen in LION_CAPTURES {
            let pos = Position::from_fen(fen).unwrap();
            let result = engine.search(&pos, &[], &low_clock(), &mut |_| {});
            let best = result.best_move.expect("a move");
            let lion = pos.board().by_piece(crate::piece::Piece::new(crate::piece::Role::Lion, !pos.turn()));
            assert!((best.captured & lion).any(), "{fen}: {}", best.uci());
            assert_eq!(result.score, Score::Mate(1), "{fen}");
            assert!(result.depth >= 1, "{fen}");
        }
    }

    #[test]
    fn a_search_out_of_time_still_takes_a_lion_capture() {
        // No time at all: the root moves' ordering stops at its first look at the clock (as on a
        // machine too busy to give the search its time), and the lion capture is still played.
        let mut engine = Engine::new(1, 16).unwrap();
        let no_time =
            Limits::clock(GameClock { remaining: Duration::from_millis(1), ..GameClock::default() });
        for fen in LION_CAPTURES {
            let pos = Position::from_fen(fen).unwrap();
            let best = engine.search(&pos, &[], &no_time, &mut |_| {}).best_move.expect("a move");
            let lion = pos.board().by_piece(crate::piece::Piece::new(crate::piece::Role::Lion, !pos.turn()));
            assert!((best.captured & lion).any(), "{fen}: {}", best.uci());
        }
    }

    #[test]
    fn a_search_with_time_left_completes_depth_one() {
        // A low clock whose budget (after the reserve for the moves to come) is nothing: the first
        // iteration is completed all the same.
        let mut engine = Engine::new(1, 16).unwrap();
        for fen in ["gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", "7/7/2l4/7/Z6/3L3/7 w 1"] {
            let pos = Position::from_fen(fen).unwrap();
            let result = engine.search(&pos, &[], &low_clock(), &mut |_| {});
            assert!(result.depth >= 1, "{fen}: {result:?}");
            assert!(result.nodes > 0, "{fen}");
            assert!(pos.find_move(&result.best_move.unwrap().path).is_ok());
        }
        // Out of time altogether: an answer at once, still a legal move.
        let out = Limits::clock(GameClock { remaining: Duration::from_millis(5), ..GameClock::default() });
        let pos = Position::start();
        let result = engine.search(&pos, &[], &out, &mut |_| {});
        assert!(pos.find_move(&result.best_move.unwrap().path).is_ok());
    }

    #[test]
    fn bad_configurations_are_errors() {
        assert_eq!(Engine::new(0, 16).err(), Some(EngineError::Threads(0)));
        assert_eq!(
            Engine::new(MAX_THREADS + 1, 16).err(),
            Some(EngineError::Threads(MAX_THREADS as i128 + 1))
        );
        assert_eq!(checked_threads(-1), Err(EngineError::Threads(-1)));
        assert_eq!(checked_hash_mb(i128::MAX), Err(EngineError::HashSize(i128::MAX)));
        if let Some(memory_mb) = physical_memory_mb() {
            let too_big = (memory_mb / 2 + 1) as usize;
            if too_big <= MAX_HASH_MB {
                assert_eq!(
                    Engine::new(1, too_big).err(),
                    Some(EngineError::HashExceedsMemory { mb: too_big, memory_mb })
                );
            }
        }
        assert_eq!(Engine::new(1, 0).err(), Some(EngineError::HashSize(0)));
        assert!(Engine::new(1, 1).is_ok());
    }
}
