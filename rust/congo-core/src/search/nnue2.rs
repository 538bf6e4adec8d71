//! The second architecture of the learned evaluation (network file format version 2), trained by
//! `benches/tuning/nnue2.py` (`docs/engine.md`, "Network architectures").
//!
//! **Inputs**, per perspective: the 784 of version 1 (own or the opponent's piece, role, square,
//! Black's board turned around) once per square of the perspective's own lion in its 3×3 castle —
//! `9 × 784` — so that every piece's weight can depend on where the lion it attacks or defends
//! stands. A lion never leaves its castle, so there are only nine buckets, and a perspective's
//! bucket changes only when its own lion moves: its accumulator is then computed afresh, and
//! brought up by the changed pieces otherwise, as in version 1.
//!
//! **Layers**: the inputs into [`L1`] units per perspective (`i16` weights, the accumulator);
//! both accumulators clipped to `[0, QA]`, the side to move's first, into [`L2`] units (`i8`
//! weights scaled by `QB`, `i32` sums, shifted back to the activation scale and clipped again);
//! those into one output (`i16` weights, an `i32` sum), scaled to centipawns.
//!
//! **Arithmetic**: the inner loops run over fixed lanes of 16 (`LANES`), `i16` adds and `i16 × i16 →
//! i32` multiply-adds that LLVM turns into SIMD instructions on any target with them (SSE2's
//! `paddw`/`pmaddwd` on every x86-64, AVX2 with `-C target-cpu=native`, NEON on aarch64); without
//! them the same code is scalar. The crate forbids `unsafe`, which rules out `std::arch` with
//! run-time detection. [`NetworkV2::output_reference`] is the definition, element by element in
//! `i64`: the tests check that both agree exactly.

use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::square::Square;

use super::nnue::{fnv1a64, input, read_payload, Changes, Reader, HEADER_BYTES, INPUTS, MAGIC, MAX_MEN};

/// The architecture id of this layout in the header (the only one of format version 2 so far).
pub const ARCHITECTURE: u32 = 1;
/// Lion buckets: the squares of a castle.
pub const BUCKETS: usize = 9;
/// Inputs of one perspective: [`INPUTS`] per bucket.
pub const FEATURES: usize = BUCKETS * INPUTS;
/// Units of the first layer, per perspective.
pub const L1: usize = 256;
/// Units of the second layer.
pub const L2: usize = 32;
/// The activation scale: an accumulator or a hidden unit of `QA` is 1.0, where the clipping saturates.
const QA: i32 = 127;
/// The second layer's weight scale (a power of two: its sums are shifted back by `QB_SHIFT`).
const QB: i32 = 64;
const QB_SHIFT: u32 = 6;
/// The format version of this layout.
pub const FORMAT_VERSION: u32 = 2;
/// The payload's bytes: `w1`, `b1` (i16), `w2` (i8), `b2` (i32), `w3` (i16), `b3` (i32).
pub const PAYLOAD_BYTES: usize = 2 * (FEATURES * L1 + L1) + 2 * L1 * L2 + 4 * L2 + 2 * L2 + 4;
/// The lanes of the inner loops.
const LANES: usize = 16;

const _: () = assert!(L1 % LANES == 0 && L2 % LANES == 0 && QB == 1 << QB_SHIFT);

/// One perspective's accumulator: the first layer's sums.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Side([i16; L1]);

/// The accumulators of both perspectives, indexed by [`Color::index`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AccumulatorV2([Side; 2]);

/// The weights, as the trainer quantised them.
#[derive(Clone, Debug)]
pub struct NetworkV2 {
    /// Centipawns per unit of the output sum, times 2^16.
    scale_q16: i64,
    /// `w1[feature]`: the feature's column of the first layer.
    w1: Vec<Side>,
    b1: Side,
    /// `w2[unit]`: the unit's weights over the side to move's clipped accumulator, then the
    /// opponent's (`i8` in the file, widened for the multiply-adds).
    w2: Vec<[i16; 2 * L1]>,
    b2: [i32; L2],
    w3: [i16; L2],
    b3: i32,
}

/// The bucket of `view`'s perspective: the square of its own lion in its castle, seen from its
/// side (a board without that lion, which a search never evaluates, uses the nearest square).
#[inline]
fn bucket(view: Color, board: &Board) -> usize {
    let Some(sq) = board.by_piece(Piece::new(Role::Lion, view)).first() else {
        return 0;
    };
    let rank = if view == Color::White { sq.rank() } else { 6 - sq.rank() };
    usize::from(rank.min(2)) * 3 + usize::from(sq.file().clamp(2, 4) - 2)
}

#[inline]
fn feature(view: Color, bucket: usize, piece: Piece, sq: Square) -> usize {
    bucket * INPUTS + input(view, piece, sq)
}

impl NetworkV2 {
    /// Reads a version-2 network file and verifies it before anything of it is used: the header
    /// (magic, version, size, architecture id, layer sizes, scales), the exact size, the checksum,
    /// and value ranges that keep every accumulator within `i16` and every sum within `i32`.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkV2, String> {
        if bytes.len() < HEADER_BYTES {
            return Err(format!(
                "the network file ends early, at byte {} of a {HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        let mut header = Reader { bytes: &bytes[..HEADER_BYTES], at: 0 };
        if header.take(8)? != MAGIC {
            return Err(format!("not a network file (no {} magic)", String::from_utf8_lossy(MAGIC)));
        }
        let version = header.u32()?;
        if version != FORMAT_VERSION {
            return Err(format!("format version {version}, not {FORMAT_VERSION}"));
        }
        let header_bytes = header.u32()? as usize;
        if header_bytes != HEADER_BYTES {
            return Err(format!(
                "a {header_bytes}-byte header; format version {FORMAT_VERSION} has {HEADER_BYTES}"
            ));
        }
        let architecture = header.u32()?;
        if architecture != ARCHITECTURE {
            return Err(format!(
                "architecture {architecture} of format version 2; this build evaluates architecture {ARCHITECTURE}"
            ));
        }
        let sizes = [header.u32()?, header.u32()?, header.u32()?, header.u32()?];
        let expected = [BUCKETS as u32, INPUTS as u32, L1 as u32, L2 as u32];
        if sizes != expected {
            let show =
                |s: [u32; 4]| format!("{} buckets x {} inputs, layers {}x{}x1", s[0], s[1], s[2], s[3]);
            return Err(format!(
                "the network's architecture is {}; this build evaluates {}",
                show(sizes),
                show(expected)
            ));
        }
        let (qa, qb) = (header.i32()?, header.i32()?);
        if (qa, qb) != (QA, QB) {
            return Err(format!(
                "activation and weight scales {qa} and {qb}; this build evaluates {QA} and {QB}"
            ));
        }
        let (scale_q16, payload) = read_payload(&mut header, bytes, PAYLOAD_BYTES)?;

        let mut reader = Reader { bytes: payload, at: 0 };
        let mut w1 = vec![Side([0; L1]); FEATURES];
        for row in &mut w1 {
            reader.i16s(&mut row.0)?;
        }
        let mut b1 = Side([0; L1]);
        reader.i16s(&mut b1.0)?;
        let mut w2 = vec![[0i16; 2 * L1]; L2];
        for row in &mut w2 {
            for w in row.iter_mut() {
                *w = i16::from(reader.take(1)?[0] as i8);
            }
        }
        let mut b2 = [0; L2];
        for b in &mut b2 {
            *b = reader.i32()?;
        }
        let mut w3 = [0; L2];
        reader.i16s(&mut w3)?;
        let b3 = reader.i32()?;
        let network = NetworkV2 { scale_q16: i64::from(scale_q16), w1, b1, w2, b2, w3, b3 };
        network.check_ranges()?;
        Ok(network)
    }

    /// Refuses values that could overflow: every accumulator must stay within `i16` whatever the
    /// board (in each bucket, the bias plus the largest columns of as many pieces as a board
    /// holds), the second layer's sums and the output within `i32`.
    fn check_ranges(&self) -> Result<(), String> {
        let mut column = vec![0i64; INPUTS];
        for b in 0..BUCKETS {
            for unit in 0..L1 {
                for (i, value) in column.iter_mut().enumerate() {
                    *value = -i64::from(self.w1[b * INPUTS + i].0[unit]).abs();
                }
                column.select_nth_unstable(MAX_MEN - 1);
                let bound = i64::from(self.b1.0[unit]).abs() - column[..MAX_MEN].iter().sum::<i64>();
                if bound > i64::from(i16::MAX) {
                    return Err(format!(
                        "first-layer unit {unit} could reach {bound} in lion bucket {b}, beyond an i16 accumulator"
                    ));
                }
            }
        }
        let qa = i64::from(QA);
        for (unit, (row, &bias)) in self.w2.iter().zip(&self.b2).enumerate() {
            let bound = i64::from(bias).abs() + row.iter().map(|&w| qa * i64::from(w).abs()).sum::<i64>();
            if bound > i64::from(i32::MAX) {
                return Err(format!("second-layer unit {unit} could reach {bound}, beyond an i32 sum"));
            }
        }
        let sum_bound =
            i64::from(self.b3).abs() + self.w3.iter().map(|&w| qa * i64::from(w).abs()).sum::<i64>();
        let output_bound = sum_bound.checked_mul(self.scale_q16).map(|v| v >> 16);
        if sum_bound > i64::from(i32::MAX) || output_bound.is_none_or(|v| v > i64::from(i32::MAX)) {
            return Err(format!(
                "the output could reach {sum_bound} x {} / 2^16, beyond an i32 evaluation",
                self.scale_q16
            ));
        }
        Ok(())
    }

    /// The network as a file [`NetworkV2::from_bytes`] reads back (the format the trainer writes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + PAYLOAD_BYTES);
        out.extend_from_slice(MAGIC);
        for value in [FORMAT_VERSION, HEADER_BYTES as u32, ARCHITECTURE] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        for size in [BUCKETS, INPUTS, L1, L2] {
            out.extend_from_slice(&(size as u32).to_le_bytes());
        }
        for scale in [QA, QB, self.scale_q16 as i32] {
            out.extend_from_slice(&scale.to_le_bytes());
        }
        out.extend_from_slice(&(PAYLOAD_BYTES as u64).to_le_bytes());
        let mut payload = Vec::with_capacity(PAYLOAD_BYTES);
        for value in self.w1.iter().chain([&self.b1]).flat_map(|side| side.0) {
            payload.extend_from_slice(&value.to_le_bytes());
        }
        for &w in self.w2.iter().flatten() {
            payload.push(w as i8 as u8);
        }
        for b in self.b2 {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        for w in self.w3 {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.b3.to_le_bytes());
        let checksum = fnv1a64(&[&out, &payload]);
        out.extend_from_slice(&checksum.to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// `view`'s accumulator of a board, computed from scratch.
    fn refresh_side(&self, side: &mut Side, view: Color, board: &Board) {
        *side = self.b1;
        let b = bucket(view, board);
        for (sq, piece) in board.pieces() {
            add(side, &self.w1[feature(view, b, piece, sq)]);
        }
    }

    /// The accumulators of a board, computed from scratch.
    pub fn refresh(&self, board: &Board) -> AccumulatorV2 {
        let mut acc = AccumulatorV2([self.b1; 2]);
        for view in Color::ALL {
            self.refresh_side(&mut acc.0[view.index()], view, board);
        }
        acc
    }

    /// Brings `acc`, the accumulators of `parent`, to those of `child`: by the pieces that differ,
    /// except for a perspective whose lion moved (another bucket), which is computed afresh.
    pub fn update(&self, acc: &mut AccumulatorV2, parent: &Board, child: &Board) {
        if parent == child {
            return; // a null move
        }
        let (mut added, mut removed) = (Changes::default(), Changes::default());
        Changes::between(parent, child, &mut added, &mut removed);
        for view in Color::ALL {
            let side = &mut acc.0[view.index()];
            let b = bucket(view, child);
            if b != bucket(view, parent) {
                self.refresh_side(side, view, child);
                continue;
            }
            for i in added.of(view) {
                add(side, &self.w1[b * INPUTS + i]);
            }
            for i in removed.of(view) {
                sub(side, &self.w1[b * INPUTS + i]);
            }
        }
    }

    /// The evaluation for the side to move, in centipawns, from its accumulators (the lane code).
    pub fn output(&self, acc: &AccumulatorV2, turn: Color) -> i32 {
        let mut x = [0i16; 2 * L1];
        let (ours, theirs) = x.split_at_mut(L1);
        clip(ours, &acc.0[turn.index()]);
        clip(theirs, &acc.0[(!turn).index()]);
        let mut hidden = [0i16; L2];
        for ((h, row), &bias) in hidden.iter_mut().zip(&self.w2).zip(&self.b2) {
            *h = ((bias + dot(&x, row)) >> QB_SHIFT).clamp(0, QA) as i16;
        }
        let sum = self.b3 + dot(&hidden, &self.w3);
        ((i64::from(sum) * self.scale_q16) >> 16) as i32
    }

    /// [`NetworkV2::output`] by its definition, element by element in `i64` (the reference the
    /// lane code is tested against, and what a target without SIMD computes in effect).
    pub fn output_reference(&self, acc: &AccumulatorV2, turn: Color) -> i32 {
        let qa = i64::from(QA);
        let x: Vec<i64> = [turn, !turn]
            .iter()
            .flat_map(|side| acc.0[side.index()].0.iter().map(|&a| i64::from(a).clamp(0, qa)))
            .collect();
        let mut sum = i64::from(self.b3);
        for unit in 0..L2 {
            let mut s = i64::from(self.b2[unit]);
            for (k, &xk) in x.iter().enumerate() {
                s += xk * i64::from(self.w2[unit][k]);
            }
            let h = (s >> QB_SHIFT).clamp(0, qa);
            sum += h * i64::from(self.w3[unit]);
        }
        ((sum * self.scale_q16) >> 16) as i32
    }

    /// The accumulators of a board by their definition, element by element (the reference of
    /// [`NetworkV2::refresh`] and [`NetworkV2::update`]).
    pub fn refresh_reference(&self, board: &Board) -> AccumulatorV2 {
        let mut acc = AccumulatorV2([self.b1; 2]);
        for view in Color::ALL {
            let b = bucket(view, board);
            let side = &mut acc.0[view.index()].0;
            for (unit, value) in side.iter_mut().enumerate() {
                let mut s = i64::from(self.b1.0[unit]);
                for (sq, piece) in board.pieces() {
                    s += i64::from(self.w1[feature(view, b, piece, sq)].0[unit]);
                }
                *value = i16::try_from(s).unwrap_or_else(|_| unreachable!("checked at load"));
            }
        }
        acc
    }

    /// The evaluation of a position for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos.board()), pos.turn())
    }
}

/// `side += column` in lanes; wrapping: an intermediate sum may leave `i16`, the result cannot.
#[inline]
fn add(side: &mut Side, column: &Side) {
    for (a, w) in side.0.chunks_exact_mut(LANES).zip(column.0.chunks_exact(LANES)) {
        for i in 0..LANES {
            a[i] = a[i].wrapping_add(w[i]);
        }
    }
}

#[inline]
fn sub(side: &mut Side, column: &Side) {
    for (a, w) in side.0.chunks_exact_mut(LANES).zip(column.0.chunks_exact(LANES)) {
        for i in 0..LANES {
            a[i] = a[i].wrapping_sub(w[i]);
        }
    }
}

#[inline]
fn clip(out: &mut [i16], side: &Side) {
    for (o, a) in out.chunks_exact_mut(LANES).zip(side.0.chunks_exact(LANES)) {
        for i in 0..LANES {
            o[i] = a[i].clamp(0, QA as i16);
        }
    }
}

/// `Σ x·w` with `i32` lanes: `|x| ≤ QA` and the checked weight ranges keep every lane in range.
#[inline]
fn dot(x: &[i16], w: &[i16]) -> i32 {
    let mut lanes = [0i32; LANES];
    for (xs, ws) in x.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for i in 0..LANES {
            lanes[i] = lanes[i].wrapping_add(i32::from(xs[i]) * i32::from(ws[i]));
        }
    }
    lanes.iter().fold(0i32, |s, &l| s.wrapping_add(l))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::search::nnue::CHECKSUM_AT;

    /// A network of random weights within the ranges a file may have (the trainer's are smaller),
    /// written and read back through the format.
    pub(crate) fn random_network(seed: u64) -> NetworkV2 {
        let mut rng = SplitMix64::new(seed);
        let mut small = |limit: u64| (rng.below(2 * limit as usize + 1) as i64 - limit as i64) as i16;
        let w1 = (0..FEATURES).map(|_| Side(std::array::from_fn(|_| small(600)))).collect();
        let b1 = Side(std::array::from_fn(|_| small(2000)));
        let w2 = (0..L2).map(|_| std::array::from_fn(|_| small(127))).collect();
        let b2 = std::array::from_fn(|_| i32::from(small(20_000)));
        let w3 = std::array::from_fn(|_| small(3000));
        let b3 = i32::from(small(30_000));
        let net = NetworkV2 { scale_q16: 40_000, w1, b1, w2, b2, w3, b3 };
        NetworkV2::from_bytes(&net.to_bytes()).unwrap()
    }

    fn error(bytes: &[u8]) -> String {
        NetworkV2::from_bytes(bytes).unwrap_err()
    }

    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let checksum = fnv1a64(&[&bytes[..CHECKSUM_AT], &bytes[HEADER_BYTES..]]);
        bytes[CHECKSUM_AT..HEADER_BYTES].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    fn random_games(seed: u64, games: usize, mut visit: impl FnMut(usize, &Position, &Position)) {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..games {
            let mut pos = Position::start();
            for ply in 0..150 {
                let mut moves = Vec::new();
                pos.for_each_move(&mut |m| moves.push(m));
                if moves.is_empty() || pos.is_decided() {
                    break;
                }
                let child = pos.play_unchecked(&moves[rng.below(moves.len())]);
                visit(ply, &pos, &child);
                pos = child;
            }
        }
    }

    #[test]
    fn a_network_written_reads_back_byte_for_byte() {
        let net = random_network(1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + PAYLOAD_BYTES);
        assert_eq!(NetworkV2::from_bytes(&bytes).unwrap().to_bytes(), bytes);
    }

    /// Along random games (captures, monkey chains, drownings, promotions, lion moves that change
    /// a bucket), the accumulators updated move by move are the ones computed from scratch, and by
    /// the definition.
    #[test]
    fn updated_accumulators_equal_refreshed_ones() {
        let net = random_network(2);
        let mut acc = net.refresh(Position::start().board());
        let (mut lion_moves, mut chains) = (0, 0);
        random_games(3, 40, |ply, parent, child| {
            if ply == 0 {
                acc = net.refresh(parent.board());
            }
            net.update(&mut acc, parent.board(), child.board());
            assert_eq!(acc, net.refresh(child.board()), "{child:?}");
            if ply % 8 == 0 {
                assert_eq!(acc, net.refresh_reference(child.board()), "{child:?}");
            }
            for view in Color::ALL {
                lion_moves += usize::from(bucket(view, parent.board()) != bucket(view, child.board()));
            }
            let changed = (parent.board().occupied() ^ child.board().occupied()).count();
            // Three squares or more: a monkey's jumps, a drowning.
            chains += usize::from(changed >= 3);
        });
        assert!(
            lion_moves > 50 && chains > 20,
            "lions moved {lion_moves} times, {chains} moves changed 3+ squares"
        );
    }

    /// The lane code and the definition give the same evaluation, on many positions of random
    /// games and several random networks.
    #[test]
    fn the_lane_code_agrees_with_the_definition() {
        for seed in 0..2 {
            let net = random_network(10 + seed);
            let mut seen = 0;
            random_games(20 + seed, 12, |_, _, child| {
                let acc = net.refresh(child.board());
                for turn in Color::ALL {
                    assert_eq!(net.output(&acc, turn), net.output_reference(&acc, turn), "{child:?}");
                }
                seen += 1;
            });
            assert!(seen > 400, "{seen} positions");
        }
    }

    /// The search's accumulator stack with this architecture: in a debug build it checks at every
    /// evaluated node that the accumulators brought up move by move are the ones of a refresh.
    #[test]
    fn a_search_with_a_version_2_network_keeps_its_accumulators_exact() {
        use crate::search::{Engine, Limits, Network};
        let mut engine = Engine::new(1, 4).unwrap();
        engine.set_network(Some(std::sync::Arc::new(Network::V2(Box::new(random_network(6))))));
        let mut rng = SplitMix64::new(8);
        let mut pos = Position::start();
        for _ in 0..6 {
            let result = engine.search(&pos, &[], &Limits::depth(4), &mut |_| {});
            assert!(result.nodes > 100, "{} nodes", result.nodes);
            let best = result.best_move.expect("a move");
            assert!(pos.legal_moves().contains(&best));
            let mut moves = Vec::new();
            pos.for_each_move(&mut |m| moves.push(m));
            pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }

    #[test]
    fn every_castle_square_is_its_own_bucket() {
        let mut seen = [false; BUCKETS];
        for file in 2..5 {
            for rank in 0..3 {
                let mut board = Board::empty();
                board.put(Square::from_coords(file, rank).unwrap(), Piece::new(Role::Lion, Color::White));
                board.put(Square::from_coords(file, 6 - rank).unwrap(), Piece::new(Role::Lion, Color::Black));
                let b = bucket(Color::White, &board);
                assert_eq!(b, bucket(Color::Black, &board), "mirrored lions share a bucket");
                assert!(!seen[b]);
                seen[b] = true;
            }
        }
    }

    #[test]
    fn damaged_and_foreign_files_are_errors() {
        let bytes = random_network(4).to_bytes();
        assert!(error(&bytes[..HEADER_BYTES - 1]).contains("ends early"));
        assert!(error(&bytes[..bytes.len() - 1]).contains("ends early"));
        let mut long = bytes.clone();
        long.push(0);
        assert!(error(&long).contains("1 bytes after the network"));
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 12_345] ^= 4;
        assert!(error(&flipped).contains("checksum mismatch"));
        let patched = |at: usize, value: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&value.to_le_bytes());
            error(&b)
        };
        assert!(patched(16, 7).contains("architecture 7 of format version 2"));
        assert!(patched(20, 8)
            .contains("8 buckets x 784 inputs, layers 256x32x1; this build evaluates 9 buckets"));
        assert!(patched(28, 512).contains("layers 512x32x1"));
        assert!(patched(32, 16).contains("layers 256x16x1"));
        assert!(patched(36, 255).contains("scales 255 and 64"));
        assert!(patched(44, 0).contains("output scale of 0"));
        assert!(patched(48, 9).contains("a payload of 9 bytes"));
    }

    #[test]
    fn values_that_could_overflow_are_errors() {
        let bytes = random_network(5).to_bytes();
        // Two inputs of one bucket at 30,000 in unit 0: a board with both would overflow.
        let mut overflowing = bytes.clone();
        for feature in [3 * INPUTS, 3 * INPUTS + 1] {
            let at = HEADER_BYTES + 2 * L1 * feature;
            overflowing[at..at + 2].copy_from_slice(&30_000i16.to_le_bytes());
        }
        let message = error(&resealed(overflowing));
        assert!(message.contains("unit 0 could reach") && message.contains("lion bucket 3"), "{message}");
        let mut bias = bytes.clone();
        let at = HEADER_BYTES + 2 * (FEATURES * L1 + L1) + 2 * L1 * L2;
        bias[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(error(&resealed(bias)).contains("second-layer unit 0 could reach"));
        let mut scale = bytes;
        scale[44..48].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(error(&resealed(scale)).contains("beyond an i32 evaluation"));
    }
}
