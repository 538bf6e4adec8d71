//! `cargo bench --bench core`: the core's speed on the start position and a middlegame suite.
//!
//! A plain harness (no dependency) that prints one JSON object per figure, each the median of several
//! timed repetitions; `benches/run.py` runs it and prints the figures beside the Python ones.
//! Pass `--quick` for fewer repetitions.

// Benchmark figures are ratios of counts and seconds: f64 precision is ample.
#![allow(clippy::cast_precision_loss)]

use std::hint::black_box;
use std::time::Instant;

use congo_core::{perft, perft_full, random_playouts, Move, Position};

fn load_positions() -> Vec<(String, Position)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/positions.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, fen) = line.split_once(' ').unwrap_or_else(|| panic!("bad line {line:?}"));
            (name.to_owned(), Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}")))
        })
        .collect()
}

/// Median seconds per call of `f` over `reps` repetitions.
fn median_seconds(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn report(figure: &str, suite: &str, value: f64, unit: &str) {
    println!(r#"{{"figure": "{figure}", "suite": "{suite}", "value": {value:.3}, "unit": "{unit}"}}"#);
}

type PerftFn = fn(&Position, u32) -> u64;

fn per_item(secs: f64, items: usize) -> f64 {
    secs / items as f64 * 1e9
}

fn bench_suite(suite: &str, list: &[Position], reps: usize) {
    // Move generation: the whole list of legal moves, per position, into a reused list (as every
    // hot loop does it) and into a new list each time.
    let rounds = 200_000 / list.len();
    let mut buffer = congo_core::MoveList::new();
    let secs = median_seconds(reps, || {
        for _ in 0..rounds {
            for pos in list {
                buffer.clear();
                black_box(pos).for_each_move(&mut |m| buffer.push(m));
                black_box(&buffer);
            }
        }
    });
    report("movegen", suite, per_item(secs, rounds * list.len()), "ns/position");
    let secs = median_seconds(reps, || {
        for _ in 0..rounds {
            for pos in list {
                black_box(black_box(pos).legal_moves());
            }
        }
    });
    report("legal_moves", suite, per_item(secs, rounds * list.len()), "ns/position");
    let moves: usize = list.iter().map(|p| p.legal_moves().len()).sum();
    report("moves", suite, moves as f64 / list.len() as f64, "moves/position");

    // Counting without building moves.
    let secs = median_seconds(reps, || {
        for _ in 0..rounds {
            for pos in list {
                black_box(black_box(pos).count_legal_moves());
            }
        }
    });
    report("count", suite, per_item(secs, rounds * list.len()), "ns/position");

    // Making a move (copy-make), averaged over every legal move.
    let all: Vec<(Position, Move)> =
        list.iter().flat_map(|p| p.legal_moves().into_iter().map(move |m| (*p, m))).collect();
    let rounds = 2_000_000 / all.len();
    let secs = median_seconds(reps, || {
        for _ in 0..rounds {
            for (pos, m) in &all {
                black_box(black_box(pos).play_unchecked(m));
            }
        }
    });
    report("make", suite, per_item(secs, rounds * all.len()), "ns/move");

    // Perft, bulk-counting the last ply and making every leaf.
    let depth = if suite == "start" { 5 } else { 4 };
    let perfts: [(&str, PerftFn); 2] = [("perft-bulk", perft), ("perft-full", perft_full)];
    for (figure, f) in perfts {
        let nodes: u64 = list.iter().map(|p| f(p, depth)).sum();
        let secs = median_seconds(reps.min(7), || {
            for pos in list {
                black_box(f(black_box(pos), depth));
            }
        });
        report(figure, suite, nodes as f64 / secs / 1e6, "M leaves/s");
    }

    // Random playouts to the end of the game (at most 300 plies).
    let games = 2_000 / list.len() as u64;
    let secs = median_seconds(reps.min(7), || {
        for (i, pos) in list.iter().enumerate() {
            black_box(random_playouts(pos, games, i as u64, 300));
        }
    });
    report("playouts", suite, (games * list.len() as u64) as f64 / secs, "games/s");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let reps = if quick { 5 } else { 15 };
    let positions: Vec<Position> = load_positions().into_iter().map(|(_, p)| p).collect();
    bench_suite("start", &positions[..1], reps);
    bench_suite("middlegame", &positions[1..], reps);
}
