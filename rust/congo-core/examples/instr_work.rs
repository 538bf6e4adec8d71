//! A fixed workload for instruction counting (`valgrind --tool=cachegrind`), which stays repeatable
//! on a busy machine where timings do not: `cargo run --release --example instr_work -- movegen|perft|playouts`.

use std::hint::black_box;

use congo_core::{perft_full, random_playouts, MoveList, Position};

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "movegen".to_owned());
    let text = include_str!("../../../benches/positions.txt");
    let positions: Vec<Position> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' ').and_then(|(_, fen)| Position::from_fen(fen).ok()))
        .collect();
    match what.as_str() {
        "movegen" => {
            let mut moves = MoveList::new();
            for _ in 0..10_000 {
                for pos in &positions {
                    moves.clear();
                    black_box(pos).generate_moves(&mut moves);
                    black_box(&moves);
                }
            }
        }
        "perft" => {
            for pos in &positions {
                black_box(perft_full(black_box(pos), 3));
            }
        }
        "playouts" => {
            black_box(random_playouts(&positions[0], 500, 1, 300));
        }
        other => eprintln!("unknown workload {other}"),
    }
}
