//! The hardest valid positions (`tests/data/worst.suite`) from Rust: their counts and the search's
//! limits on them (a time limit, a stop from another thread, node limits inside the first
//! iteration). Eight threads playing and searching on them without growing: `heap_growth.rs`.
//!
//! Timing bounds here are generous (a debug build on a shared machine): they tell a search that
//! checks its clock from one that does not, which overruns by seconds on these positions. The tight
//! bounds of docs/worst-case.md are checked on the release build through Python (`tests/test_worst_positions.py`).

use std::thread;
use std::time::{Duration, Instant};

use congo_core::search::{Engine, Limits, SearchOptions};
use congo_core::{perft, Position};

mod worst;

use worst::{suite, Case};

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
