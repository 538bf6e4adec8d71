//! `bench`: a fixed suite of positions searched to a fixed depth, as Stockfish's `bench`. The total
//! node count is the signature of the search's behaviour: one thread, a depth limit and a fresh
//! engine state per position make it independent of the machine and its load, so any change to
//! the search or the evaluation that changes what is searched changes the count (and a change that
//! leaves the count alone almost certainly searches the same tree). Nodes per second measure speed.
//!
//! ```
//! use congo_core::bench::{Bench, BenchConfig};
//!
//! let config = BenchConfig { depth: 2, ..BenchConfig::default() };
//! let first = Bench::new(config).unwrap().run(&mut |_| {});
//! let again = Bench::new(config).unwrap().run(&mut |_| {});
//! assert!(first.complete);
//! assert_eq!(first.entries.len(), congo_core::bench::positions().len());
//! assert_eq!(first.nodes, again.nodes); // the signature at depth 2
//! ```
//!
//! The suite is `bench_suite.txt` next to this file, compiled in so that it cannot drift from the
//! committed signature (`benches/bench-signature.txt`, checked by `tests/test_bench.py`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::position::Position;
use crate::search::{
    checked_hash_mb, checked_threads, Engine, EngineError, Limits, Score, SearchOptions, StopHandle,
    MAX_DEPTH,
};

/// The suite's text: one `name fen` per line, `#` comments.
pub const SUITE: &str = include_str!("bench_suite.txt");

/// The depth of the default bench, whose node count is the committed signature: a few seconds in
/// a release build.
pub const DEFAULT_DEPTH: u32 = 11;

/// The transposition table of the default bench, in MiB (the table's size changes what it keeps,
/// so it is part of the signature).
pub const DEFAULT_HASH_MB: usize = 16;

/// The threads of the default bench: one, since with more the count depends on their timing.
pub const DEFAULT_THREADS: usize = 1;

/// One position of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    pub name: &'static str,
    pub fen: &'static str,
}

/// The positions of the suite, in order.
pub fn positions() -> Vec<BenchPosition> {
    SUITE
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, fen) = line.split_once(' ').unwrap_or(("", line));
            BenchPosition { name, fen: fen.trim() }
        })
        .collect()
}

/// How to run the bench. The default is the one whose node count is the signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// The depth each position is searched to, `1..=MAX_DEPTH`.
    pub depth: u32,
    /// The transposition table, in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP); with more than one the count varies from run to run.
    pub threads: usize,
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig { depth: DEFAULT_DEPTH, hash_mb: DEFAULT_HASH_MB, threads: DEFAULT_THREADS }
    }
}

/// What is wrong with a [`BenchConfig`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The depth is outside `1..=MAX_DEPTH`.
    Depth(i128),
    /// The threads or the table size ([`EngineError`]).
    Engine(EngineError),
}

impl core::fmt::Display for BenchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BenchError::Depth(depth) => {
                write!(f, "depth must be from 1 to {MAX_DEPTH}, got {}", crate::bounds::Shown(*depth))
            }
            BenchError::Engine(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for BenchError {}

impl From<EngineError> for BenchError {
    fn from(error: EngineError) -> BenchError {
        BenchError::Engine(error)
    }
}

/// A depth as a binding receives it, checked: `1..=MAX_DEPTH`.
pub fn checked_depth(depth: i128) -> Result<u32, BenchError> {
    u32::try_from(depth).ok().filter(|d| (1..=MAX_DEPTH).contains(d)).ok_or(BenchError::Depth(depth))
}

/// The search of one position of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchEntry {
    /// The position's place in the suite, from 0.
    pub index: usize,
    pub name: &'static str,
    pub fen: &'static str,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub best_move: Option<Move>,
    pub score: Score,
}

impl BenchEntry {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64
}

/// What a bench came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// One entry per position searched to the end, in the suite's order.
    pub entries: Vec<BenchEntry>,
    /// The nodes of all entries: the signature, for the default configuration of a complete run.
    pub nodes: u64,
    /// The time of all entries' searches (setting up each position's fresh state not counted).
    pub time: Duration,
    /// Whether every position was searched (false when the bench was stopped).
    pub complete: bool,
}

impl BenchReport {
    /// Nodes per second over the searches.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// A bench ready to run: the engine it searches with, allocated up front so that a bad
/// configuration is an error before any work.
pub struct Bench {
    engine: Engine,
    config: BenchConfig,
    cancelled: Arc<AtomicBool>,
}

/// Stops a running [`Bench`] from another thread (cheap to clone).
#[derive(Clone, Debug)]
pub struct BenchStop {
    cancelled: Arc<AtomicBool>,
    search: StopHandle,
}

impl BenchStop {
    /// Ends the run: the position being searched is abandoned (not reported, not counted), no
    /// other is started, and [`BenchReport::complete`] is false.
    pub fn stop(&self) {
        // The flag first: a search prepared after this sees it (see `Bench::run`).
        self.cancelled.store(true, Ordering::SeqCst);
        self.search.stop();
    }
}

impl Bench {
    pub fn new(config: BenchConfig) -> Result<Bench, BenchError> {
        checked_depth(i128::from(config.depth))?;
        let threads = checked_threads(config.threads as i128)?;
        let hash_mb = checked_hash_mb(config.hash_mb as i128)?;
        let engine = Engine::new(threads, hash_mb)?;
        Ok(Bench { engine, config, cancelled: Arc::new(AtomicBool::new(false)) })
    }

    pub fn config(&self) -> BenchConfig {
        self.config
    }

    /// A handle that stops the run from another thread, even before it starts.
    pub fn stop_handle(&self) -> BenchStop {
        BenchStop { cancelled: Arc::clone(&self.cancelled), search: self.engine.stop_handle() }
    }

    /// Searches every position of the suite in order, each from a cleared engine (an empty table
    /// and move-ordering history), calling `on_position` after each.
    ///
    /// # Panics
    ///
    /// Never: every FEN of the suite is valid (this module's tests parse them all).
    pub fn run(mut self, on_position: &mut dyn FnMut(&BenchEntry)) -> BenchReport {
        let search = self.engine.stop_handle();
        let cancelled = |report: &mut BenchReport| {
            let stopped = self.cancelled.load(Ordering::SeqCst);
            report.complete &= !stopped;
            stopped
        };
        let limits = Limits::depth(self.config.depth);
        let mut report = BenchReport { entries: Vec::new(), nodes: 0, time: Duration::ZERO, complete: true };
        for (index, position) in positions().into_iter().enumerate() {
            let pos = Position::from_fen(position.fen).expect("the bench suite's FENs are valid");
            self.engine.clear();
            // Prepared, then the flag looked at: a stop before the preparation is seen here, one
            // after it stops the search.
            search.prepare(false);
            if cancelled(&mut report) {
                break;
            }
            let start = Instant::now();
            let result =
                self.engine.search_prepared(&pos, &[], &limits, &SearchOptions::default(), &mut |_| {});
            let time = start.elapsed();
            if cancelled(&mut report) {
                break;
            }
            let entry = BenchEntry {
                index,
                name: position.name,
                fen: position.fen,
                depth: result.depth,
                nodes: result.nodes,
                time,
                best_move: result.best_move,
                score: result.score,
            };
            report.nodes += entry.nodes;
            report.time += entry.time;
            on_position(&entry);
            report.entries.push(entry);
        }
        report
    }
}

/// Runs the bench with `config` (see [`Bench::run`]).
pub fn bench(
    config: BenchConfig,
    on_position: &mut dyn FnMut(&BenchEntry),
) -> Result<BenchReport, BenchError> {
    Ok(Bench::new(config)?.run(on_position))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_valid_named_once_and_has_a_move() {
        let suite = positions();
        assert!((30..=50).contains(&suite.len()), "{}", suite.len());
        let mut names: Vec<&str> = suite.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), suite.len(), "a name is used twice");
        for position in &suite {
            assert!(!position.name.is_empty(), "{position:?}");
            let pos = Position::from_fen(position.fen).unwrap_or_else(|e| panic!("{position:?}: {e}"));
            assert!(pos.outcome().is_none(), "{position:?}: the game is over");
            assert!(!pos.legal_moves().is_empty(), "{position:?}");
        }
    }

    #[test]
    fn the_count_is_the_same_every_time_and_adds_up() {
        let config = BenchConfig { depth: 3, ..BenchConfig::default() };
        let mut seen = Vec::new();
        let first = bench(config, &mut |entry| seen.push(entry.index)).unwrap();
        let again = bench(config, &mut |_| {}).unwrap();
        assert!(first.complete);
        assert_eq!(seen, (0..positions().len()).collect::<Vec<_>>());
        assert_eq!(first.nodes, first.entries.iter().map(|e| e.nodes).sum::<u64>());
        assert_eq!(
            first.entries.iter().map(|e| e.nodes).collect::<Vec<_>>(),
            again.entries.iter().map(|e| e.nodes).collect::<Vec<_>>()
        );
        for entry in &first.entries {
            assert_eq!(entry.depth, 3, "{}", entry.name);
            assert!(entry.nodes > 0 && entry.best_move.is_some(), "{}", entry.name);
        }
        // Each position is searched from a fresh state: its count is that of a new engine's search,
        // whatever was searched before it.
        for entry in first.entries.iter().rev().take(5) {
            let mut engine = Engine::new(config.threads, config.hash_mb).unwrap();
            let pos = Position::from_fen(entry.fen).unwrap();
            let alone = engine.search(&pos, &[], &Limits::depth(config.depth), &mut |_| {});
            assert_eq!(alone.nodes, entry.nodes, "{}", entry.name);
        }
    }

    #[test]
    fn a_stopped_bench_ends_incomplete() {
        let bench = Bench::new(BenchConfig { depth: 3, ..BenchConfig::default() }).unwrap();
        let stop = bench.stop_handle();
        let mut calls = 0;
        let report = bench.run(&mut |_| {
            calls += 1;
            if calls == 2 {
                stop.stop();
            }
        });
        assert!(!report.complete);
        assert_eq!(report.entries.len(), 2);
        assert_eq!(report.nodes, report.entries.iter().map(|e| e.nodes).sum::<u64>());
    }

    #[test]
    fn bad_configurations_are_errors() {
        let bad = |config: BenchConfig| Bench::new(config).err();
        let default = BenchConfig::default();
        assert_eq!(bad(BenchConfig { depth: 0, ..default }), Some(BenchError::Depth(0)));
        assert_eq!(
            bad(BenchConfig { depth: MAX_DEPTH + 1, ..default }),
            Some(BenchError::Depth(i128::from(MAX_DEPTH) + 1))
        );
        assert_eq!(
            bad(BenchConfig { threads: 0, ..default }),
            Some(BenchError::Engine(EngineError::Threads(0)))
        );
        assert_eq!(
            bad(BenchConfig { hash_mb: 0, ..default }),
            Some(BenchError::Engine(EngineError::HashSize(0)))
        );
        assert_eq!(BenchError::Depth(0).to_string(), format!("depth must be from 1 to {MAX_DEPTH}, got 0"));
    }
}
