//! Searches for the valid positions that are hardest on the library: the most legal moves, and the
//! slowest to search. Simulated annealing over placements, reproducible from a seed.
//!
//! ```text
//! cargo run --release -p congo-core --example worst_positions -- moves  [SEED] [RESTARTS] [STEPS]
//! cargo run --release -p congo-core --example worst_positions -- perft2 [SEED] [RESTARTS] [STEPS]
//! cargo run --release -p congo-core --example worst_positions -- search [SEED] [RESTARTS] [STEPS]
//! cargo run --release -p congo-core --example worst_positions -- search SEED RESTARTS STEPS FEN
//! cargo run --release -p congo-core --example worst_positions -- probe FEN...
//! ```
//!
//! Given a FEN, the annealing starts from it with a colder schedule (to improve a known position);
//! `probe` times the search on the given positions.
//!
//! Every candidate passes the core's own validation (`Position::from_setup`: docs/rules.md §9, with at most
//! 14 pieces of each colour by decision A21), has both lions on the board (so in their castles) and
//! White to move (the mirror image of a position is exactly as hard, so one side is enough).
//!
//! * `moves`: maximises the number of legal moves (`Position::count_legal_moves`).
//! * `perft2`: maximises perft 2, the moves of every reply to every move (estimated from a sample:
//!   see [`perft2_estimate`]), which is what `perft(fen, 2)` and any two-ply look-ahead pay for.
//! * `search`: maximises the nodes a one-thread search visits to complete depth 1 (capped at
//!   [`FIRST_ITERATION_CAP`]): the first iteration, which the time and stop checks inside it must be
//!   able to cut short. Nodes, not time, so that a run reproduces exactly from its seed (node
//!   counts of a one-thread search are deterministic); the time per node varies little between
//!   such positions, and the candidates' times are measured by `benches/worst_case.py`.
//!
//! The best positions found are printed as FENs with their scores, best first.

// Counts and times become f64 scores on a log scale: precision beyond 2^52 is meaningless there.
#![allow(clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use congo_core::rng::SplitMix64;
use congo_core::search::{Engine, Limits};
use congo_core::{Board, Color, Piece, Position, Role, Setup, Square};

/// The roles a mutation may place (lions are placed once and only moved inside their castle).
const PLACEABLE: [Role; 7] =
    [Role::Pawn, Role::Superpawn, Role::Monkey, Role::Giraffe, Role::Zebra, Role::Elephant, Role::Crocodile];

#[derive(Copy, Clone, PartialEq, Eq)]
struct Candidate {
    squares: [Option<Piece>; 49],
}

impl Candidate {
    fn position(&self) -> Option<Position> {
        let mut board = Board::empty();
        for (i, piece) in self.squares.iter().enumerate() {
            if let Some(piece) = piece {
                board.set_piece_at(Square::new(i as u8)?, Some(*piece));
            }
        }
        let pos = Position::from_setup(Setup { board, turn: Color::White, fullmove: 1 }).ok()?;
        (pos.lion(Color::White).is_some() && pos.lion(Color::Black).is_some()).then_some(pos)
    }

    fn from_position(pos: &Position) -> Candidate {
        let mut c = Candidate { squares: [None; 49] };
        for (sq, piece) in pos.board().pieces() {
            c.squares[sq.index()] = Some(piece);
        }
        c
    }

    /// A random valid start: both lions in their castles and a few pieces of each side.
    fn random(rng: &mut SplitMix64) -> Candidate {
        loop {
            let mut c = Candidate { squares: [None; 49] };
            let castle = |rng: &mut SplitMix64, color: Color| {
                let (file, rank) = (2 + rng.below(3), rng.below(3));
                let rank = if color.is_white() { rank } else { 6 - rank };
                rank * 7 + file
            };
            c.squares[castle(rng, Color::White)] = Some(Piece::new(Role::Lion, Color::White));
            c.squares[castle(rng, Color::Black)] = Some(Piece::new(Role::Lion, Color::Black));
            for _ in 0..rng.below(20) {
                let sq = rng.below(49);
                if c.squares[sq].is_none() {
                    c.squares[sq] = Some(random_piece(rng));
                }
            }
            if c.position().is_some() {
                return c;
            }
        }
    }

    /// A random change: a square set or cleared, two squares swapped, or a lion moved in its castle.
    fn mutate(&self, rng: &mut SplitMix64) -> Candidate {
        let mut next = *self;
        let changes = 1 + rng.below(3);
        for _ in 0..changes {
            match rng.below(10) {
                0..=4 => {
                    let sq = rng.below(49);
                    if next.squares[sq].is_some_and(|p| p.role == Role::Lion) {
                        continue;
                    }
                    next.squares[sq] = if rng.below(4) == 0 { None } else { Some(random_piece(rng)) };
                }
                5..=8 => {
                    let (a, b) = (rng.below(49), rng.below(49));
                    next.squares.swap(a, b);
                }
                _ => {
                    let sq = rng.below(49);
                    if let Some(p) = next.squares[sq] {
                        next.squares[sq] = Some(Piece::new(p.role, !p.color));
                    }
                }
            }
        }
        next
    }
}

fn random_piece(rng: &mut SplitMix64) -> Piece {
    // Monkeys and the pieces they jump matter most: weight them up.
    let role = if rng.below(3) == 0 { Role::Monkey } else { PLACEABLE[rng.below(PLACEABLE.len())] };
    let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
    Piece::new(role, color)
}

/// The most nodes of a first iteration the `search` objective counts (some 5 s of search).
const FIRST_ITERATION_CAP: u64 = 20_000_000;

/// Perft 2 estimated from a sample of the moves: their number times the mean number of replies to
/// 16 of them, evenly spaced in the list (exact perft 2 costs up to seconds per position).
fn perft2_estimate(pos: &Position) -> f64 {
    const SAMPLE: usize = 16;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return 0.0;
    }
    let step = moves.len().div_ceil(SAMPLE);
    let replies: Vec<u64> =
        moves.iter().step_by(step).map(|m| pos.play_unchecked(m).count_legal_moves()).collect();
    moves.len() as f64 * replies.iter().sum::<u64>() as f64 / replies.len() as f64
}

/// What is maximised, on a log scale (so that the annealing temperature is a ratio).
struct Objective {
    kind: String,
    engine: Engine,
}

impl Objective {
    fn new(kind: &str) -> Objective {
        Objective { kind: kind.to_owned(), engine: Engine::new(1, 1).expect("engine") }
    }

    fn score(&mut self, pos: &Position) -> f64 {
        let value = if self.kind == "moves" {
            pos.count_legal_moves() as f64
        } else if self.kind == "perft2" {
            perft2_estimate(pos)
        } else {
            // The nodes of a search to depth 1 on a fresh engine.
            self.engine.clear();
            let limits = Limits { depth: Some(1), nodes: Some(FIRST_ITERATION_CAP), ..Limits::default() };
            self.engine.search(pos, &[], &limits, &mut |_| {}).nodes as f64
        };
        (value + 1.0).ln()
    }
}

fn anneal(
    objective: &mut Objective,
    rng: &mut SplitMix64,
    steps: u64,
    start: Option<&Position>,
) -> (f64, Candidate) {
    // From a given position: a colder schedule, to polish it rather than wander away.
    let (mut current, (t0, t1)) = match start {
        Some(pos) => (Candidate::from_position(pos), (0.1f64, 0.002f64)),
        None => (Candidate::random(rng), (1.0f64, 0.005f64)),
    };
    let mut current_score = objective.score(&current.position().expect("valid start"));
    let (mut best, mut best_score) = (current, current_score);
    for step in 0..steps {
        let t = t0 * (t1 / t0).powf(step as f64 / steps as f64);
        let next = current.mutate(rng);
        let Some(pos) = next.position() else { continue };
        let score = objective.score(&pos);
        let accept = score >= current_score || {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            u < ((score - current_score) / t).exp()
        };
        if accept {
            current = next;
            current_score = score;
            if score > best_score {
                best = next;
                best_score = score;
                eprintln!("  step {step}: {:.0} {}", score.exp() - 1.0, pos.fen());
            }
        }
    }
    (best_score, best)
}

/// Times the search on each FEN: a 0.1 s limit (overrun), a stop from another thread (latency),
/// and the first iteration run to the end (depth 1).
fn probe(fens: &[String]) {
    for fen in fens {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut engine = Engine::new(1, 64).expect("engine");
        let start = Instant::now();
        let r = engine.search(&pos, &[], &Limits::time(Duration::from_millis(100)), &mut |_| {});
        let timed = start.elapsed();
        let handle = engine.stop_handle();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            handle.stop();
            Instant::now()
        });
        let unlimited = engine.search(&pos, &[], &Limits::infinite(), &mut |_| {});
        let latency = Instant::now().duration_since(stopper.join().expect("stopper"));
        let start = Instant::now();
        let d1 = engine.search(&pos, &[], &Limits::depth(1), &mut |_| {});
        let depth1 = start.elapsed();
        println!(
            "{fen}\n  moves {}  0.1 s search: {:.1} ms (depth {}, {} nodes)  stop latency {:.2} ms (depth {})  depth 1: {:.1} ms, {} nodes",
            pos.count_legal_moves(),
            timed.as_secs_f64() * 1e3,
            r.depth,
            r.nodes,
            latency.as_secs_f64() * 1e3,
            unlimited.depth,
            depth1.as_secs_f64() * 1e3,
            d1.nodes
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "moves".to_owned());
    if kind == "probe" {
        probe(&args.collect::<Vec<_>>());
        return;
    }
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(13);
    let restarts: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let steps: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let start = args.next().map(|fen| Position::from_fen(&fen).expect("valid start FEN"));
    let mut rng = SplitMix64::new(seed);
    let mut objective = Objective::new(&kind);
    let mut found = Vec::new();
    for restart in 0..restarts {
        let started = Instant::now();
        let (score, best) = anneal(&mut objective, &mut rng, steps, start.as_ref());
        let pos = best.position().expect("valid");
        println!(
            "restart {restart}: {:.0} {} ({:.1} s)",
            score.exp() - 1.0,
            pos.fen(),
            started.elapsed().as_secs_f64()
        );
        found.push((score, pos.fen()));
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (score, fen) in found {
        println!("{:.0}\t{fen}", score.exp() - 1.0);
    }
}
