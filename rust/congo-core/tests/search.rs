//! The search engine, end to end: forced wins found and counted right, finished games, limits,
//! determinism, stopping from another thread, and several threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use congo_core::search::{Engine, Limits, Score, SearchInfo, SearchOptions};
use congo_core::{Position, Termination};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn search(fen: &str, limits: Limits) -> congo_core::search::SearchResult {
    let mut engine = Engine::new(1, 16).unwrap();
    engine.search(&position(fen), &[], &limits, &mut |_| {})
}

/// Whether the side to move can force a win with at most `moves` of its own moves, by brute force
/// over the rules alone: a win is a captured lion or an opponent without a legal move.
fn wins_within(pos: &Position, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|m| {
        let next = pos.play_unchecked(m);
        if next.is_decided() || !next.has_legal_moves() {
            return true;
        }
        moves > 1
            && next.legal_moves().iter().all(|reply| {
                let after = next.play_unchecked(reply);
                !after.is_decided() && wins_within(&after, moves - 1)
            })
    })
}

/// Hand-checked forced wins: (FEN, own moves to the win). The brute force above confirms each.
const FORCED_WINS: &[(&str, i32)] = &[
    ("7/4l2/7/4c2/7/2p4/1M1L3 w 1", 1), // the monkey chain b1d3f5d7 jumps the lion
    ("3l3/7/7/7/7/7/3L3 w 1", 1),       // facing lions: the side to move captures
    ("4l2/7/4P2/5S1/7/7/4LG1 w 1", 2),
    ("2l4/5C1/1P5/2G4/7/7/4L2 w 1", 2),
    ("7/2Z1l2/7/5M1/2L4/E6/7 w 1", 2),
    ("7/3l3/5P1/2S4/3Z3/2L4/7 w 1", 3),
    ("3Z3/2l4/7/1P5/7/3L3/7 w 1", 3),
];

#[test]
fn the_forced_wins_are_real_and_the_shortest() {
    for &(fen, moves) in FORCED_WINS {
        let pos = position(fen);
        let moves = moves as u32;
        assert!(wins_within(&pos, moves), "{fen}: no win in {moves}");
        assert!(!wins_within(&pos, moves - 1), "{fen}: a shorter win exists");
    }
}

#[test]
fn finds_forced_wins_and_counts_the_moves() {
    for &(fen, moves) in FORCED_WINS {
        let result = search(fen, Limits::depth(8));
        assert_eq!(result.score, Score::Mate(moves), "{fen}");
        let best = result.best_move.unwrap();
        assert_eq!(result.pv.first(), Some(&best));
        // The principal variation is legal and ends with the win.
        let mut pos = position(fen);
        for m in &result.pv {
            assert!(pos.is_legal(&m.path), "{fen}: pv move {m} is illegal");
            pos = pos.play(&m.path).unwrap();
        }
        assert_eq!(result.pv.len(), 2 * moves as usize - 1, "{fen}: {:?}", result.pv);
        assert!(pos.outcome().is_some_and(|o| o.winner == Some(position(fen).turn())), "{fen}");
    }
}

#[test]
fn sees_the_loss_coming() {
    // After e1d1, the first move of a win in 2, Black loses after White's next move whatever it
    // does (checked by brute force), and both evaluations see it.
    let pos = position("4l2/7/4P2/5S1/7/7/4LG1 w 1");
    let first = pos.legal_moves().iter().copied().find(|m| m.uci() == "e1d1").unwrap();
    let after = pos.play_unchecked(&first);
    for reply in &after.legal_moves() {
        assert!(wins_within(&after.play_unchecked(reply), 1), "{reply} escapes");
    }
    for nnue in [1, 0] {
        let mut engine = Engine::new(1, 16).unwrap();
        engine.set_param("nnue", nnue).unwrap();
        let result = engine.search(&after, &[], &Limits::depth(6), &mut |_| {});
        assert_eq!(result.score, Score::Mate(-1), "nnue={nnue}");
        assert!(result.best_move.is_some(), "a lost position still has a move to play");
    }
}

#[test]
fn a_side_left_with_its_lion_is_not_pruned_on_its_static_evaluation() {
    // Black has only its lion: after e1d1 each of its moves walks into a capture, which no static
    // evaluation sees. Reverse futility pruning trusted Black's evaluation there and hid this win in
    // 2 until depth 6 (hand-written evaluation) or 8 (network); three plies show it.
    for nnue in [1, 0] {
        let mut engine = Engine::new(1, 16).unwrap();
        engine.set_param("nnue", nnue).unwrap();
        let result =
            engine.search(&position("4l2/7/4P2/5S1/7/7/4LG1 w 1"), &[], &Limits::depth(3), &mut |_| {});
        assert_eq!(result.score, Score::Mate(2), "nnue={nnue}");
        assert_eq!(result.best_move.unwrap().uci(), "e1d1", "nnue={nnue}");
    }
}

#[test]
fn a_finished_game_has_no_move_and_says_why() {
    let decided = search("7/7/7/7/7/7/3L3 b 1", Limits::depth(3));
    assert_eq!(decided.best_move, None);
    assert_eq!(decided.outcome.map(|o| o.termination), Some(Termination::LionCaptured));
    assert_eq!(decided.score, Score::Mate(0));
    let bare = search("2l4/7/7/7/7/7/4L2 w 1", Limits::depth(3));
    assert_eq!(bare.best_move, None);
    assert_eq!(bare.outcome.map(|o| o.termination), Some(Termination::BareLions));
    assert_eq!(bare.score, Score::Cp(0));
}

#[test]
fn depth_and_node_limits_are_deterministic_with_one_thread() {
    let fen = "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1";
    for limits in [Limits::depth(6), Limits::nodes(30_000)] {
        let a = search(fen, limits);
        let b = search(fen, limits);
        assert_eq!(
            (a.best_move, a.score, &a.pv, a.nodes, a.depth),
            (b.best_move, b.score, &b.pv, b.nodes, b.depth)
        );
        // A cleared engine is a fresh engine.
        let mut engine = Engine::new(1, 16).unwrap();
        let pos = position(fen);
        engine.search(&pos, &[], &Limits::depth(3), &mut |_| {});
        engine.clear();
        let c = engine.search(&pos, &[], &limits, &mut |_| {});
        assert_eq!((a.best_move, a.nodes), (c.best_move, c.nodes));
    }
    let limited = search(fen, Limits::nodes(30_000));
    assert!(limited.nodes <= 30_000, "{}", limited.nodes);
}

#[test]
fn reports_every_completed_iteration() {
    let mut engine = Engine::new(1, 16).unwrap();
    let mut seen: Vec<SearchInfo> = Vec::new();
    let result =
        engine.search(&Position::start(), &[], &Limits::depth(5), &mut |info| seen.push(info.clone()));
    assert_eq!(seen.iter().map(|i| i.depth).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    let last = seen.last().unwrap();
    assert_eq!((last.score, &last.pv), (result.score, &result.pv));
}

#[test]
fn stop_ends_an_unlimited_search_promptly() {
    let mut engine = Engine::new(1, 16).unwrap();
    let handle = engine.stop_handle();
    handle.prepare(false);
    let stopped_at = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped_at);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        flag.store(true, Ordering::SeqCst);
        let at = Instant::now();
        handle.stop();
        at
    });
    // `search_prepared` after `prepare`: a stop sent before the search starts (the main thread
    // may wait for the processor longer than the stopper sleeps) is not cleared by it.
    let result = engine.search_prepared(
        &Position::start(),
        &[],
        &Limits::infinite(),
        &SearchOptions::default(),
        &mut |_| {},
    );
    let returned = Instant::now();
    let asked = stopper.join().unwrap();
    assert!(stopped_at.load(Ordering::SeqCst));
    assert!(result.best_move.is_some());
    // Generous: the bound is about the search noticing, not about a busy machine's scheduler.
    assert!(returned.duration_since(asked) < Duration::from_millis(500));
}

#[test]
fn time_limits_are_kept() {
    let limits = Limits::time(Duration::from_millis(100));
    let start = Instant::now();
    let result = search("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", limits);
    assert!(result.best_move.is_some());
    // Ended by its time, where nothing else would end it (how far past it is a benchmark figure,
    // benches/worst_case.py; a bound this loose only tells ended from never, on any machine).
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
}

#[test]
fn several_threads_agree_on_forced_wins() {
    for &(fen, moves) in FORCED_WINS {
        let mut engine = Engine::new(2, 16).unwrap();
        let result = engine.search(&position(fen), &[], &Limits::depth(8), &mut |_| {});
        assert_eq!(result.score, Score::Mate(moves), "{fen}");
    }
}

/// No capture is possible here (White is a giraffe up: the score is not 0 without a history), so
/// every move is reversible.
const REVERSIBLE: &str = "2l4/7/1z3z1/7/1Z3Z1/7/G3L2 w 1";

/// A game history in which the position after each root move of `pos` appeared before (four plies
/// back from it, or further): every root move then repeats a position.
fn history_repeating_every_move(pos: &Position) -> Vec<u64> {
    let children: Vec<u64> = pos.legal_moves().iter().map(|m| pos.play_unchecked(m).zobrist_hash()).collect();
    // history[len - 3 - 2k] = child k: the child at ply 1 looks 4, 6, ... plies back.
    let len = 2 * children.len() + 3;
    let mut history = vec![0xdead_beef_u64; len];
    for (k, &child) in children.iter().enumerate() {
        history[len - 3 - 2 * k] = child;
    }
    history
}

#[test]
fn repetitions_are_draws() {
    // With every move repeating, the search sees only draws.
    let pos = position(REVERSIBLE);
    let free = search(REVERSIBLE, Limits::depth(4));
    assert_ne!(free.score, Score::Cp(0));
    let history = history_repeating_every_move(&pos);
    let mut engine = Engine::new(1, 16).unwrap();
    let result = engine.search(&pos, &history, &Limits::depth(4), &mut |_| {});
    assert_eq!(result.score, Score::Cp(0));
    assert!(result.best_move.is_some());
}

#[test]
fn contempt_makes_a_draw_cost_the_side_the_engine_plays() {
    // The position of `repetitions_are_draws`, where every root move repeats: the draw now scores
    // minus the contempt for the side to move.
    let pos = position(REVERSIBLE);
    let history = history_repeating_every_move(&pos);
    let mut engine = Engine::new(1, 16).unwrap();
    engine.set_param("contempt", 30).unwrap();
    let result = engine.search(&pos, &history, &Limits::depth(4), &mut |_| {});
    assert_eq!(result.score, Score::Cp(-30));
}

#[test]
fn every_number_of_the_search_changes_the_search() {
    // Each tunable number of `SearchParams` is wired into the search: moved away from its default,
    // a fixed-depth search (deterministic with one thread) visits a different number of nodes.
    let pos = position("1mel1cz/g1p1p1p/1p1p1p1/7/2P1PP1/PP1P2P/GMELECZ w 5");
    let nodes = |name: Option<(&str, i32)>| {
        let mut engine = Engine::new(1, 16).unwrap();
        if let Some((name, value)) = name {
            engine.set_param(name, value).unwrap();
        }
        engine.search(&pos, &[], &Limits::depth(8), &mut |_| {}).nodes
    };
    let default = nodes(None);
    for change in [
        ("futility_margin", 150),
        ("lmr_divisor", 150),
        ("null_reduction", 1),
        ("aspiration_window", 6),
        ("lmr_history", 300),
        ("iir", 0),
        ("futility_quiet", 60),
    ] {
        assert_ne!(nodes(Some(change)), default, "{change:?} made no difference");
    }
}

#[test]
fn both_evaluations_find_the_forced_wins_and_the_learned_one_is_the_default() {
    // With `nnue=1`, the default, every static evaluation comes from accumulators updated move by
    // move along the search path (a debug build asserts they are of the node evaluated). The forced
    // wins do not depend on the evaluation, so the hand-written one (`nnue=0`) must find them too.
    for nnue in [1, 0] {
        for &(fen, moves) in FORCED_WINS {
            let mut engine = Engine::new(1, 16).unwrap();
            engine.set_param("nnue", nnue).unwrap();
            let result = engine.search(&position(fen), &[], &Limits::depth(8), &mut |_| {});
            assert_eq!(result.score, Score::Mate(moves), "nnue={nnue} {fen}");
        }
    }
    let start = Position::start();
    let mut default = Engine::new(1, 16).unwrap();
    let mut learned = Engine::new(1, 16).unwrap();
    learned.set_param("nnue", 1).unwrap();
    let mut hand = Engine::new(1, 16).unwrap();
    hand.set_param("nnue", 0).unwrap();
    let nodes = |engine: &mut Engine| engine.search(&start, &[], &Limits::depth(7), &mut |_| {}).nodes;
    let (default_nodes, learned_nodes, hand_nodes) =
        (nodes(&mut default), nodes(&mut learned), nodes(&mut hand));
    assert_eq!(default_nodes, learned_nodes, "the default is not the learned evaluation");
    assert_ne!(learned_nodes, hand_nodes, "the search with the network is the hand-written evaluation's");
    let middlegame = position("1mel1cz/g1p1p1p/1p1p1p1/7/2P1PP1/PP1P2P/GMELECZ w 5");
    assert_eq!(default.evaluate(&middlegame), learned.evaluate(&middlegame));
    assert_ne!(learned.evaluate(&middlegame), hand.evaluate(&middlegame));
    assert_eq!(learned.evaluate(&middlegame), learned.evaluate(&middlegame.mirrored()));
}

#[test]
fn the_weights_the_network_ignores_are_exactly_the_hand_written_evaluations() {
    use congo_core::search::{Params, PARAMS};
    let positions = [
        position("1mel1cz/g1p1p1p/1p1p1p1/7/2P1PP1/PP1P2P/GMELECZ w 5"),
        position("3l3/7/2p4/pMgEz1c/2P4/7/3L3 b 9"),
        position("1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35"),
    ];
    // Another value than the default, inside the parameter's range.
    let moved = |name: &str| {
        let info = PARAMS.iter().find(|p| p.name == name).unwrap();
        let default = Params::default().get(name).unwrap();
        if default == i64::from(info.min) {
            default + 1.max(i64::from(info.max) / 4)
        } else {
            i64::from(info.min)
        }
    };
    let fingerprint = |settings: &[(&str, i64)]| {
        let mut engine = Engine::new(1, 16).unwrap();
        for &(name, value) in settings {
            engine.set_param(name, value).unwrap();
        }
        positions
            .iter()
            .map(|pos| {
                engine.clear();
                (engine.evaluate(pos), engine.search(pos, &[], &Limits::depth(5), &mut |_| {}).nodes)
            })
            .collect::<Vec<_>>()
    };
    let network = fingerprint(&[]);
    let hand = fingerprint(&[("nnue", 0)]);
    for name in PARAMS.iter().filter(|p| p.hand_written).map(|p| p.name) {
        let value = moved(name);
        // Nothing changes with the network; the hand-written evaluation changes.
        assert_eq!(fingerprint(&[(name, value)]), network, "{name}={value} changed the network's search");
        assert_ne!(fingerprint(&[("nnue", 0), (name, value)]), hand, "{name}={value} changed nothing");
    }
    // The material values are not among them: the search reads them whichever evaluation is on.
    assert_ne!(fingerprint(&[("pawn", moved("pawn"))]), network);
}
