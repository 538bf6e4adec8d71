//! `cargo run --release --example playouts -- [GAMES]`: random playouts per second from the start.

// Games per second is a ratio for humans: f64 precision is ample.
#![allow(clippy::cast_precision_loss)]

use std::time::Instant;

use congo_core::{random_playouts, Position};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|g| g.parse().ok()).unwrap_or(20_000);
    let start = Instant::now();
    let stats = random_playouts(&Position::start(), games, 1, 300);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} plies/game: {:.0} games/s, {:.1} M plies/s ({stats:?})",
        stats.plies as f64 / games as f64,
        games as f64 / secs,
        stats.plies as f64 / secs / 1e6
    );
}
