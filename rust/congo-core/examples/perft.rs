//! `cargo run --release --example perft -- [DEPTH] [FEN]`: leaf counts and speed from the command line.

// Leaves per second is a ratio for humans: f64 precision is ample.
#![allow(clippy::cast_precision_loss)]

use std::time::Instant;

use congo_core::{perft, perft_full, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args.next().unwrap_or_else(|| congo_core::STARTING_FEN.to_owned());
    let pos = match Position::from_fen(&fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("invalid position: {e}");
            std::process::exit(2);
        }
    };
    for (name, f) in [("bulk", perft as fn(&Position, u32) -> u64), ("every leaf", perft_full)] {
        let start = Instant::now();
        let nodes = f(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:>10}: depth {depth} nodes {nodes} in {secs:.3} s = {:.1} M leaves/s",
            nodes as f64 / secs / 1e6
        );
    }
}
