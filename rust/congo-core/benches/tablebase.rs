//! `cargo bench --bench tablebase`: the speed of probing the endgame tables.
//!
//! Generates the tables up to four men into a temporary directory (or uses `--dir DIR`, completing
//! it up to four men), reads every table of the directory, then times `probe_dtm` on random
//! positions of 3 men up to the most the directory holds (five with `--dir` of a full set), a
//! position outside the tables, and the root move list of a position. Prints one JSON object per figure
//! like `benches/core.rs`; `benches/tablebase.py` runs it beside the Python figures.

// Benchmark figures are ratios of counts and seconds: f64 precision is ample.
#![allow(clippy::cast_precision_loss)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use congo_core::rng::SplitMix64;
use congo_core::tablebase::{generate, GenerateOptions, Tablebase};
use congo_core::{Board, Color, Piece, Position, Role, Setup, Square};

fn report(figure: &str, value: f64, unit: &str) {
    println!(r#"{{"figure": "{figure}", "suite": "tablebase", "value": {value:.3}, "unit": "{unit}"}}"#);
}

/// Random valid positions with the lions and `pieces` other pieces.
fn positions(rng: &mut SplitMix64, pieces: usize, count: usize) -> Vec<Position> {
    let roles = &Role::ALL[..7]; // every role but the lion
    let castle = |color: Color| -> Vec<Square> {
        Square::all().filter(|sq| congo_core::tables::castle_of(color).contains(*sq)).collect()
    };
    let (white, black) = (castle(Color::White), castle(Color::Black));
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = Board::empty();
        board.set_piece_at(white[rng.below(9)], Some(Piece::new(Role::Lion, Color::White)));
        board.set_piece_at(black[rng.below(9)], Some(Piece::new(Role::Lion, Color::Black)));
        let mut placed = 0;
        while placed < pieces {
            let sq = Square::new(rng.below(49) as u8).unwrap_or(Square::A1);
            if board.piece_at(sq).is_none() {
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                board.set_piece_at(sq, Some(Piece::new(roles[rng.below(7)], color)));
                placed += 1;
            }
        }
        let turn = if rng.below(2) == 0 { Color::White } else { Color::Black };
        if let Ok(pos) = Position::from_setup(Setup { board, turn, fullmove: 1 }) {
            out.push(pos);
        }
    }
    out
}

/// This thread's CPU time in seconds (user + system), from `/proc/thread-self/stat` (Linux; `None`
/// elsewhere). On a machine shared with other jobs the wall clock counts the time the thread waited
/// for a core; the CPU time does not.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (in parentheses, which may hold spaces): utime and stime
    // are the 12th and 13th of them, in clock ticks of 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Nanoseconds per item of `f` over `items` items: the median wall time of `reps` runs, and the CPU
/// time of as many runs as fill at least two seconds of it (the clock ticks are 10 ms), or `None`.
fn per_item_ns(reps: usize, items: usize, mut f: impl FnMut()) -> (f64, Option<f64>) {
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let wall = times[times.len() / 2] / items as f64 * 1e9;
    let cpu = thread_cpu_seconds().and_then(|start| {
        let mut runs = 0u32;
        loop {
            f();
            runs += 1;
            let spent = thread_cpu_seconds()? - start;
            if spent >= 2.0 {
                return Some(spent / f64::from(runs) / items as f64 * 1e9);
            }
        }
    });
    (wall, cpu)
}

/// Reports a per-item figure: its wall time, and its CPU time when the platform tells it.
fn report_per_item(figure: &str, (wall, cpu): (f64, Option<f64>), scale: f64, unit: &str) {
    report(figure, wall / scale, unit);
    if let Some(cpu) = cpu {
        report(&format!("{figure} (CPU time)"), cpu / scale, unit);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let reps = if quick { 3 } else { 9 };
    let given = args.iter().position(|a| a == "--dir").and_then(|i| args.get(i + 1)).map(PathBuf::from);
    let dir = given
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("congo-tb-bench-{}", std::process::id())));
    let start = Instant::now();
    let options = GenerateOptions { men: 4, threads: 2, force: false, tables: Vec::new() };
    generate(&dir, &options, &mut |_| true).expect("the tables up to four men");
    report("generate up to 4 men (2 threads, or reuse)", start.elapsed().as_secs_f64(), "s");

    let tb = Tablebase::open(&dir).expect("the tables");
    let start = Instant::now();
    tb.load_all().expect("readable tables");
    let men = tb.max_men();
    report(
        &format!("read and checksum every table (up to {men} men)"),
        start.elapsed().as_secs_f64() * 1e3,
        "ms",
    );

    let mut rng = SplitMix64::new(1);
    // Every table is in memory now: the figures are the probes alone.
    for pieces in 1..=men - 2 {
        let list = positions(&mut rng, pieces, 100_000);
        assert!(list.iter().all(|p| tb.probe_dtm(p).is_some()), "every position is in the tables");
        let ns = per_item_ns(reps, list.len(), || {
            for pos in &list {
                black_box(tb.probe_dtm(black_box(pos)));
            }
        });
        report_per_item(&format!("probe_dtm, {} men", pieces + 2), ns, 1.0, "ns");
    }
    let outside = positions(&mut rng, 4, 10_000);
    let ns = per_item_ns(reps, outside.len(), || {
        for pos in &outside {
            black_box(tb.probe_dtm(black_box(pos)));
        }
    });
    report_per_item("probe_dtm, 6 men (not in the tables: the early exit)", ns, 1.0, "ns");
    let list = positions(&mut rng, 2, 10_000);
    let ns = per_item_ns(reps, list.len(), || {
        for pos in &list {
            black_box(tb.root_moves(black_box(pos)));
        }
    });
    report_per_item("root_moves (every move probed, ranked), 4 men", ns, 1e3, "us");
    if given.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
