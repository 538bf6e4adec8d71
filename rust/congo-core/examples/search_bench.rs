//! Search speed: nodes per second at a fixed depth over a set of positions.
//!
//! ```text
//! cargo run --release -p congo-core --example search_bench -- [DEPTH] [THREADS] [NAME=VALUE ...]
//! ```
//!
//! `NAME=VALUE`: engine parameters (`congo options`), e.g. `iir=0 lmr_divisor=225` to search the
//! tree of other settings with this build's code; `EvalFile=PATH`: a network file instead of the
//! compiled-in network (`benches/nnue2_speed.py` compares the two architectures).

use congo_core::search::{Engine, Limits};
use congo_core::Position;

/// Opening, middlegame and endgame positions, shared with `benches/search.py`.
const POSITIONS: &str = include_str!("../../../benches/search_positions.txt");

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new(threads, 64).expect("engine");
    for setting in args {
        let (name, value) = setting.split_once('=').expect("NAME=VALUE");
        if name == "EvalFile" {
            let network = congo_core::search::Network::load(value).unwrap_or_else(|e| panic!("{e}"));
            engine.set_network(Some(std::sync::Arc::new(network)));
            continue;
        }
        engine.set_param(name, value.parse::<i64>().expect("an integer value")).expect("a parameter");
    }
    let (mut nodes, mut searching) = (0, std::time::Duration::ZERO);
    let fens = POSITIONS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    for fen in fens {
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
