//! The learned evaluation's lane code against its element-by-element definition, on one network file.
//!
//! ```text
//! cargo run --release -p congo-core --example nnue_kernels -- FILE [POSITIONS]
//! ```
//!
//! Evaluates the positions of random games from scratch (the first layer's sums and the layers
//! above) with [`Network::evaluate`] (16-wide lanes of `i16`/`i32`, which LLVM compiles to SIMD) and
//! with [`Network::evaluate_reference`] (scalar `i64`), checks that every evaluation agrees, and
//! prints the nanoseconds per evaluation of each, the median of 7 timed repetitions.

// Benchmark figures are ratios of counts and seconds: f64 precision is ample.
#![allow(clippy::cast_precision_loss)]

use std::hint::black_box;
use std::time::Instant;

use congo_core::rng::SplitMix64;
use congo_core::search::Network;
use congo_core::Position;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a network file");
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let network = Network::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = SplitMix64::new(1);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut pos = Position::start();
        for _ in 0..120 {
            let mut moves = Vec::new();
            pos.for_each_move(&mut |m| moves.push(m));
            if moves.is_empty() || pos.is_decided() || positions.len() == count {
                break;
            }
            pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
            positions.push(pos);
        }
    }
    for pos in &positions {
        assert_eq!(network.evaluate(pos), network.evaluate_reference(pos), "{}", pos.fen());
    }
    let time = |f: &dyn Fn(&Position) -> i32| {
        let mut times: Vec<f64> = (0..7)
            .map(|_| {
                let start = Instant::now();
                for pos in &positions {
                    black_box(f(black_box(pos)));
                }
                start.elapsed().as_secs_f64() / positions.len() as f64 * 1e9
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[3]
    };
    let lanes = time(&|pos| network.evaluate(pos));
    let reference = time(&|pos| network.evaluate_reference(pos));
    println!(
        "format version {}, {} positions, all evaluations equal",
        network.format_version(),
        positions.len()
    );
    println!("lanes      {lanes:>10.0} ns an evaluation from scratch");
    println!("reference  {reference:>10.0} ns an evaluation from scratch ({:.1}x)", reference / lanes);
}
