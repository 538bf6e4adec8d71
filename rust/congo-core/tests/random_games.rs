//! Invariants checked along many random games: the incremental Zobrist hash equals a from-scratch hash,
//! FEN and move strings round-trip, counting agrees with generating, and every move is found again by
//! its path.

use congo_core::{parse_move, zobrist, Position};

/// xorshift64*: a tiny deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn random_games(start: &str, games: usize, seed: u64, mut check: impl FnMut(&Position)) -> usize {
    let mut rng = Rng(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::from_fen(start).unwrap();
        for _ in 0..200 {
            check(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
    positions
}

const STARTS: [&str; 3] = [
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
    "1melec1/ppppp1p/2g2zp/5C1/2G2ZP/PPPPP1P/1MELE2 b 1",
    "2m1l2/1p1p1p1/p1p1p1p/7/P1P1P1P/1P1P1P1/2M1L2 w 1",
];

#[test]
fn incremental_zobrist_equals_hash_from_scratch() {
    for (i, start) in STARTS.iter().enumerate() {
        let n = random_games(start, 60, 0x9e37_79b9 + i as u64, |pos| {
            assert_eq!(pos.zobrist_hash(), zobrist::hash(pos.board(), pos.turn()), "{}", pos.fen());
        });
        assert!(n > 1000);
    }
}

#[test]
fn fen_round_trips_along_random_games() {
    for (i, start) in STARTS.iter().enumerate() {
        random_games(start, 30, 7 + i as u64, |pos| {
            let again = Position::from_fen(&pos.fen()).unwrap();
            assert_eq!(&again, pos);
        });
    }
}

#[test]
fn every_move_is_found_again_by_its_string() {
    for (i, start) in STARTS.iter().enumerate() {
        random_games(start, 20, 99 + i as u64, |pos| {
            let moves = pos.legal_moves();
            assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{}", pos.fen());
            assert_eq!(!moves.is_empty(), pos.has_legal_moves(), "{}", pos.fen());
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(pos.nth_legal_move(i as u64), Some(*m), "{} #{i}", pos.fen());
                let path = parse_move(&m.uci()).unwrap();
                assert_eq!(pos.find_move(&path).unwrap(), *m, "{} {m}", pos.fen());
            }
            assert_eq!(pos.nth_legal_move(moves.len() as u64), None);
            let mut strings: Vec<String> = moves.iter().map(congo_core::Move::uci).collect();
            strings.sort();
            strings.dedup();
            assert_eq!(strings.len(), moves.len(), "duplicate move in {}", pos.fen());
        });
    }
}
