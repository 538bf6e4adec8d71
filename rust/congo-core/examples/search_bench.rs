//! Search speed: nodes per second at a fixed depth over a set of positions.
//!
//! ```text
//! cargo run --release -p congo-core --example search_bench -- [DEPTH] [THREADS]
//! ```

use congo_core::search::{Engine, Limits};
use congo_core::Position;

/// Opening, middlegame and endgame positions (the same set as `benches/search.py`).
const POSITIONS: &[&str] = &[
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
    "gmelecz/pp1pppp/2p4/7/3P3/PPP1PPP/GMELECZ w 2",
    "g1elecz/pmpp1pp/4p2/1p5/2P1P2/PP1P1PP/GMEL1CZ b 5",
    "1me1e1z/p1pl1pp/2c1p2/1p1p3/2P1PZ1/PP1P1P1/GMELEC1 w 9",
    "2e1l2/1p1p1pz/p1m1p2/2c4/1PP1P2/P2ZE2/G1ML3 b 17",
    "3l3/2p1p2/3m3/7/2P1P2/3M3/3L3 w 30",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
    "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new(threads, 64).expect("engine");
    let (mut nodes, mut searching) = (0, std::time::Duration::ZERO);
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        engine.clear();
        let result = engine.search(&pos, &[], &Limits::depth(depth), &mut |_| {});
        nodes += result.nodes;
        searching += result.time;
        let best = result.best_move.map_or_else(|| "-".to_owned(), |m| m.uci());
        println!(
            "{fen:55} {best:10} {:>7} {:>10} nodes {:>9} nps",
            result.score.to_string(),
            result.nodes,
            result.nps()
        );
    }
    let seconds = searching.as_secs_f64();
    let nps = u128::from(nodes) * 1_000_000 / searching.as_micros().max(1);
    println!("depth {depth} threads {threads}: {nodes} nodes in {seconds:.2} s = {nps} nodes/s");
}
