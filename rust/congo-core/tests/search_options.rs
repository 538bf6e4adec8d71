//! Search options beyond the limits: several lines (`MultiPV`), a restricted root, a mate limit, game
//! clocks and pondering.

use std::time::{Duration, Instant};

use congo_core::search::{Bound, Engine, GameClock, Limits, Score, SearchOptions, MATE_DEPTH_SLACK};
use congo_core::{parse_move, Position};

const MONKEY_MATE: &str = "7/4l2/7/4c2/7/2p4/1M1L3 w 1";

fn search(fen: &str, limits: &Limits, options: &SearchOptions) -> congo_core::search::SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(1, 16).unwrap();
    engine.search_with(&pos, &[], limits, options, &mut |_| {})
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let options = SearchOptions { multipv: 4, ..SearchOptions::default() };
    let mut reported = Vec::new();
    let pos = Position::start();
    let mut engine = Engine::new(1, 16).unwrap();
    let result = engine.search_with(&pos, &[], &Limits::depth(6), &options, &mut |info| {
        // Bound reports (a line outside its aspiration window) come only after a second: whether
        // there are any depends on the machine's speed, so they are left out.
        if info.bound == Bound::Exact {
            reported.push((info.depth, info.multipv));
        }
    });
    assert_eq!(result.lines.len(), 4);
    let firsts: Vec<_> = result.lines.iter().map(|line| line.pv[0].path).collect();
    for (i, a) in firsts.iter().enumerate() {
        assert!(!firsts[i + 1..].contains(a), "the same root move twice: {firsts:?}");
    }
    let scores: Vec<i32> = result.lines.iter().map(|line| line.score.cp().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "not best first: {scores:?}");
    assert_eq!(result.best_move.unwrap().path, firsts[0]);
    assert_eq!(result.score, result.lines[0].score);
    // Each completed depth reports lines 1 to 4, in order.
    for depth in 1..=6 {
        let lines: Vec<u32> = reported.iter().filter(|(d, _)| *d == depth).map(|&(_, k)| k).collect();
        assert_eq!(lines, [1, 2, 3, 4], "depth {depth}");
    }
}

#[test]
fn multipv_lines_are_exact_scores_of_their_moves() {
    // Each line's score is what a search restricted to that move alone finds.
    let result =
        search(MONKEY_MATE, &Limits::depth(4), &SearchOptions { multipv: 3, ..SearchOptions::default() });
    assert_eq!(result.lines[0].score, Score::Mate(1));
    for line in &result.lines {
        let only = SearchOptions { root_moves: Some(vec![line.pv[0].path]), ..SearchOptions::default() };
        let alone = search(MONKEY_MATE, &Limits::depth(4), &only);
        assert_eq!(alone.score, line.score, "{}", line.pv[0].uci());
    }
}

#[test]
fn more_lines_than_moves_gives_every_move() {
    let fen = "3l3/7/7/7/7/7/3L3 w 1";
    let count = Position::from_fen(fen).unwrap().legal_moves().len();
    let result = search(fen, &Limits::depth(3), &SearchOptions { multipv: 100, ..SearchOptions::default() });
    assert_eq!(result.lines.len(), count);
}

#[test]
fn root_moves_restrict_the_search() {
    let only = vec![parse_move("a2a3").unwrap(), parse_move("g2g3").unwrap()];
    let options = SearchOptions { root_moves: Some(only.clone()), ..SearchOptions::default() };
    let result = search(congo_core::STARTING_FEN, &Limits::depth(5), &options);
    assert!(only.contains(&result.best_move.unwrap().path));
    // The mate is not found when its move is not allowed.
    let options =
        SearchOptions { root_moves: Some(vec![parse_move("d1c2").unwrap()]), ..SearchOptions::default() };
    let result = search(MONKEY_MATE, &Limits::depth(4), &options);
    assert_eq!(result.best_move.unwrap().uci(), "d1c2");
    assert_ne!(result.score, Score::Mate(1));
    // Nothing legal to search: no move, and no outcome either (the game is not over).
    let options =
        SearchOptions { root_moves: Some(vec![parse_move("a7a6").unwrap()]), ..SearchOptions::default() };
    let result = search(congo_core::STARTING_FEN, &Limits::depth(3), &options);
    assert!(result.best_move.is_none() && result.outcome.is_none());
}

#[test]
fn a_mate_limit_stops_once_the_mate_is_found() {
    let result = search(MONKEY_MATE, &Limits::mate(1), &SearchOptions::default());
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(result.depth, 1);
    // With no mate to find, the search gives up at 2 * mate + MATE_DEPTH_SLACK plies.
    let result = search("3l3/7/7/7/7/7/3L3 w 1", &Limits::mate(1), &SearchOptions::default());
    assert!(result.depth <= 2 + MATE_DEPTH_SLACK, "{}", result.depth);
}

#[test]
fn a_clock_search_keeps_within_its_budget() {
    let clock =
        GameClock { remaining: Duration::from_secs(10), increment: Duration::ZERO, moves_to_go: None };
    let budget = congo_core::search::time_budget(&clock, Duration::from_millis(30));
    let start = Instant::now();
    let result = search(congo_core::STARTING_FEN, &Limits::clock(clock), &SearchOptions::default());
    let took = start.elapsed();
    assert!(result.best_move.is_some());
    // A generous margin for a loaded machine running a debug build (the budget is 1.5 s of 10 s);
    // the real usage is measured in docs/performance.md.
    assert!(took <= budget.maximum + Duration::from_millis(500), "{took:?} > {budget:?}");
}

#[test]
fn a_ponder_search_keeps_going_until_the_hit_and_then_keeps_to_its_limits() {
    let pos = Position::start();
    let mut engine = Engine::new(1, 16).unwrap();
    let handle = engine.stop_handle();
    handle.prepare(true);
    let options = SearchOptions { ponder: true, ..SearchOptions::default() };
    let searcher = std::thread::spawn(move || {
        let result = engine.search_prepared(
            &pos,
            &[],
            &Limits::time(Duration::from_millis(30)),
            &options,
            &mut |_| {},
        );
        (result, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(200));
    assert!(!searcher.is_finished(), "a ponder search stopped on its own time limit");
    let hit = Instant::now();
    handle.ponderhit();
    let (result, ended) = searcher.join().unwrap();
    assert!(result.best_move.is_some());
    // Its time was already spent pondering: it moves at once on the hit.
    assert!(ended - hit < Duration::from_secs(1), "{:?}", ended - hit);
}

#[test]
fn a_stop_before_a_prepared_search_starts_is_not_lost() {
    let pos = Position::start();
    let mut engine = Engine::new(1, 16).unwrap();
    let handle = engine.stop_handle();
    handle.prepare(false);
    handle.stop();
    let start = Instant::now();
    let result =
        engine.search_prepared(&pos, &[], &Limits::infinite(), &SearchOptions::default(), &mut |_| {});
    assert!(result.best_move.is_some());
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn the_ponder_move_is_the_expected_reply() {
    let result = search(congo_core::STARTING_FEN, &Limits::depth(5), &SearchOptions::default());
    let ponder = result.ponder.unwrap();
    let after = Position::start().play(&result.best_move.unwrap().path).unwrap();
    assert!(after.is_legal(&ponder.path));
}
