//! Encoding rate of `learn::encode_batch` in Rust alone: positions from random games, encoded as a
//! batch on one thread and on every core.
//!
//! `cargo run --release --example encode_bench -p congo-core [-- POSITIONS]`

use std::time::Instant;

use congo_core::learn::{encode_batch, Perspective, PLANE_SIZE};
use congo_core::rng::SplitMix64;
use congo_core::Position;

#[allow(clippy::cast_precision_loss)]
fn main() {
    let count: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let mut rng = SplitMix64::new(1);
    let mut positions = Vec::with_capacity(count);
    let mut pos = Position::start();
    while positions.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::start();
            continue;
        }
        pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
        positions.push(pos);
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut out = vec![0u8; count * PLANE_SIZE];
    for threads in [1, cores] {
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            encode_batch(&positions, &[], false, Perspective::White, threads, &mut out);
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!("encode_batch, {threads} thread(s): {:.2} M positions/s", count as f64 / best / 1e6);
    }
}
