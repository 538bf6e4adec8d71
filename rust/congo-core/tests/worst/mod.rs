//! The suite of the hardest valid positions (`tests/data/worst.suite`), shared by the test binaries
//! that use it. Each binary uses part of it.
#![allow(dead_code)]

use congo_core::rng::SplitMix64;
use congo_core::search::{Engine, Limits};
use congo_core::Position;

const SUITE: &str = include_str!("../../../../tests/data/worst.suite");

/// One block of the suite: its id, position and perft counts `(depth, nodes)`.
pub struct Case {
    pub id: String,
    pub pos: Position,
    pub counts: Vec<(u32, u64)>,
}

pub fn suite() -> Vec<Case> {
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

/// One thread's round: a game from the start or a worst position, each move searched (a small node
/// budget) or random, every position checked.
pub fn play(seed: u64, engine: &mut Engine, starts: &[Position]) {
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
