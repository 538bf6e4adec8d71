//! The hardest valid positions (`tests/data/worst.suite`) from Rust: their counts, the search's limits
//! on them (a time limit, a stop from another thread, node limits inside the first iteration), and
//! eight threads playing and searching at once without the process growing.
//!
//! Timing bounds here are generous (a debug build on a shared machine): they tell a search that
//! checks its clock from one that does not, which overruns by seconds on these positions. The tight
//! bounds of docs/worst-case.md are checked on the release build through Python (`tests/test_worst_positions.py`).

use std::thread;
use std::time::{Duration, Instant};

use congo_core::rng::SplitMix64;
use congo_core::search::{Engine, Limits, SearchOptions};
use congo_core::{perft, Position};

const SUITE: &str = include_str!("../../../tests/data/worst.suite");

/// One block of the suite: its id, position and perft counts `(depth, nodes)`.
struct Case {
    id: String,
    pos: Position,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Case> {
    let mut cases = Vec::new();
    for block in SUITE.split("\n\n") {
        let (mut id, mut fen, mut counts) = (None, None, Vec::new());
        for line in block.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (key, value) = line.split_once(' ').expect("key and value");
            match key {
                "id" => id = Some(value.to_owned()),
                "fen" => fen = Some(Position::from_fen(value).expect("valid FEN")),
                "perft" => {
                    let (depth, nodes) = value.split_once(' ').expect("depth and nodes");
                    counts.push((depth.parse().expect("depth"), nodes.parse().expect("nodes")));
                }
                _ => panic!("unknown key {key}"),
            }
        }
        if let (Some(id), Some(pos)) = (id, fen) {
            cases.push(Case { id, pos, counts });
        }
    }
    cases
}

fn case(id: &str) -> Position {
    suite().into_iter().find(|case| case.id == id).expect("case in the suite").pos
}

#[test]
fn counts_and_perft() {
    let cases = suite();
    assert!(cases.len() >= 5);
    for Case { id, pos, counts } in &cases {
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{id}");
        // Up to a few million leaves (a debug build is slow; the release build checks every count
        // through Python in tests/test_worst_positions.py).
        for &(depth, nodes) in counts.iter().filter(|(_, nodes)| *nodes <= 2_000_000) {
            assert_eq!(perft(pos, depth), nodes, "{id} perft {depth}");
        }
        // The last move of the list (the longest chains come last) is found by its path.
        let last = moves.last().expect("moves");
        assert_eq!(pos.find_move(&last.path).as_ref(), Ok(last), "{id}");
    }
}

#[test]
fn a_time_limit_holds_inside_the_first_iteration() {
    // Depth 1 alone takes seconds here (6 million nodes).
    let pos = case("slowest-search");
    for threads in [1, 2] {
        let mut engine = Engine::new(threads, 16).unwrap();
        let start = Instant::now();
        let result = engine.search(&pos, &[], &Limits::time(Duration::from_millis(50)), &mut |_| {});
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_millis(500), "{threads} threads: {elapsed:?}");
        let best = result.best_move.expect("a move");
        assert!(pos.is_legal(&best.path));
        assert_eq!(result.depth, 0);
        assert!(result.score.cp().is_some(), "{:?}", result.score);
    }
}

#[test]
fn stop_ends_the_first_iteration_promptly() {
    for id in ["slowest-search", "most-moves", "most-replies"] {
        let pos = case(id);
        let mut engine = Engine::new(1, 16).unwrap();
        let handle = engine.stop_handle();
        handle.prepare(false);
        let stopper = thread::spawn(move || {
            thread::sleep(Duration::from_millis(30));
            handle.stop();
            Instant::now()
        });
        // `search_prepared` after `prepare`: a stop sent before the search starts (the main thread
        // may wait for the processor longer than the stopper sleeps) is not cleared by it.
        let result =
            engine.search_prepared(&pos, &[], &Limits::infinite(), &SearchOptions::default(), &mut |_| {});
        let returned = Instant::now();
        let asked = stopper.join().unwrap();
        assert!(result.best_move.is_some_and(|m| pos.is_legal(&m.path)), "{id}");
        let latency = returned.saturating_duration_since(asked);
        assert!(latency < Duration::from_millis(500), "{id}: {latency:?} (depth {})", result.depth);
    }
}

#[test]
fn node_limits_hold_inside_the_first_iteration_and_stay_deterministic() {
    let pos = case("slowest-search");
    let run = || Engine::new(1, 16).unwrap().search(&pos, &[], &Limits::nodes(3000), &mut |_| {});
    let (a, b) = (run(), run());
    assert!(a.nodes <= 3000, "{}", a.nodes);
    assert_eq!((a.best_move, a.score, a.nodes, a.depth), (b.best_move, b.score, b.nodes, b.depth));
    assert_eq!(a.depth, 0);
}

/// The resident set size (Linux), or `None`.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// One thread's round: a game from the start or a worst position, each move searched (a small node
/// budget) or random, every position checked.
fn play(seed: u64, engine: &mut Engine, starts: &[Position]) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = starts[rng.below(starts.len())];
    for _ in 0..12 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let result = engine.search(&pos, &[], &Limits::nodes(300), &mut |_| {});
        let best = result.best_move.expect("a position with moves has a best move");
        assert!(moves.contains(&best), "{best} in {}", pos.fen());
        let m = if rng.below(2) == 0 { best } else { moves[rng.below(moves.len())] };
        pos = pos.play_unchecked(&m);
        assert_eq!(Position::from_fen(&pos.fen()), Ok(pos));
    }
}

#[test]
fn eight_threads_play_and_search_without_growing() {
    let mut starts = vec![Position::start()];
    starts.extend(suite().into_iter().map(|case| case.pos));
    let mut engines: Vec<Engine> = (0..8).map(|i| Engine::new(1 + i % 2, 1).unwrap()).collect();
    let mut sizes = Vec::new();
    for round in 0..6u64 {
        thread::scope(|scope| {
            for (i, engine) in engines.iter_mut().enumerate() {
                let starts = &starts;
                scope.spawn(move || play(round * 100 + i as u64, engine, starts));
            }
        });
        sizes.push(rss_bytes());
    }
    // Round 0 warms the allocator up; then no steady growth (the noise is thread stacks and arenas).
    let sizes: Option<Vec<u64>> = sizes.into_iter().skip(1).collect();
    if let Some(sizes) = sizes {
        let growth = sizes[3..].iter().min().unwrap().saturating_sub(*sizes[..2].iter().max().unwrap());
        assert!(growth < 16 << 20, "grew by {growth} bytes: {sizes:?}");
    }
}
