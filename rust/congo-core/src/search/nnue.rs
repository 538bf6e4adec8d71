//! The learned evaluation (`nnue=1`): a small network over the piece placement, evaluated
//! incrementally (NNUE-style), trained by `benches/tuning/nnue.py` (`docs/engine.md`, "The learned
//! evaluation").
//!
//! Inputs, per perspective (White's, Black's): one per (own or the opponent's piece, role, square),
//! `2 × 8 × 49`, with Black's board turned around (ranks flipped) so that both perspectives see their
//! own pieces coming up from rank 1. One shared layer of [`HIDDEN`] units turns a perspective's inputs
//! into its *accumulator*; the search keeps one pair per ply and, when a node is evaluated, brings
//! it up from the nearest evaluated ancestor's by the few pieces each move changed (moved, captured,
//! drowned, promoted), never from scratch (`NnueStack` in `worker.rs`). The
//! output is a weighted sum of both accumulators, clipped to `[0, QA]`, the side to move's first.
//! Everything is integer: weights and accumulators are `i16` (the file is checked to keep every
//! accumulator in range), the output's sums `i32`, as the trainer quantised them.

use std::sync::{Arc, LazyLock};

use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, MAX_PIECES_PER_COLOR};
use crate::square::{Square, NUM_SQUARES};

use super::nnue2::{self, AccumulatorV2, NetworkV2};

/// Units of the hidden layer (the trainer's `--hidden`; the network file must agree).
pub const HIDDEN: usize = 64;
/// Inputs of one perspective: own or the opponent's, 8 roles, 49 squares.
pub const INPUTS: usize = 2 * 8 * NUM_SQUARES;
/// The first layer's scale: an accumulator value of `QA` is 1.0, where the clipping saturates.
const QA: i16 = 64;
/// The most men on a board: every input a perspective can have at once.
pub(super) const MAX_MEN: usize = 2 * MAX_PIECES_PER_COLOR as usize;

/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"CONGONET";
/// The magic of the unversioned files of earlier builds, recognised to say so.
const OLD_MAGIC: &[u8; 8] = b"CONGONN1";
/// The version of the file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The bytes of the header: magic, version, header size, architecture, scales, payload size,
/// checksum (`docs/engine.md`, "Network files").
pub const HEADER_BYTES: usize = 64;
/// Layer sizes the header has room for (unused ones are 0).
const MAX_LAYERS: usize = 4;
/// The layers of the network this build evaluates: the first layer's units per perspective,
/// then the output.
const LAYERS: [u32; 2] = [HIDDEN as u32, 1];
/// The payload's bytes: `w1`, `b1`, `w2` as i16, `b2` as i32.
pub const PAYLOAD_BYTES: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
/// Where the checksum sits in the header (of every format version): it covers the bytes before it
/// and the payload.
pub(super) const CHECKSUM_AT: usize = HEADER_BYTES - 8;

/// The network trained by `benches/tuning/nnue.py`, compiled in; it is read and verified as any
/// network file is.
static NETWORK_FILE: &[u8] = include_bytes!("nnue.bin");
static NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::V1(Box::new(
        NetworkV1::from_bytes(NETWORK_FILE)
            .unwrap_or_else(|error| unreachable!("the compiled-in network is valid (tested): {error}")),
    )))
});

/// The compiled-in network.
pub fn network() -> Arc<Network> {
    Arc::clone(&NETWORK)
}

/// A network of either architecture, as a network file holds it (`EvalFile`): version 1, the
/// compiled-in 784×64×2 (this file), or version 2, lion-bucketed 9×784 → 2×256 → 32 → 1
/// (`nnue2.rs`). The search picks the architecture's code once, when it starts.
#[derive(Clone, Debug)]
pub enum Network {
    V1(Box<NetworkV1>),
    V2(Box<NetworkV2>),
}

impl Network {
    /// Reads and verifies a network file (an `EvalFile`) of either format version: the error
    /// names the file and what is wrong with it.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Network, String> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot be read: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a network file of either format version (the one its header says), verified before
    /// anything of it is used (`NetworkV1::from_bytes` in `nnue.rs`, `NetworkV2::from_bytes` in
    /// `nnue2.rs`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() >= 8 && &bytes[..8] != MAGIC {
            return Err(not_a_network(&bytes[..8]));
        }
        match bytes.get(8..12).map(|v| u32::from_le_bytes([v[0], v[1], v[2], v[3]])) {
            Some(nnue2::FORMAT_VERSION) => Ok(Network::V2(Box::new(NetworkV2::from_bytes(bytes)?))),
            Some(version) if version != FORMAT_VERSION => Err(format!(
                "format version {version}; this build reads versions {FORMAT_VERSION} and {}",
                nnue2::FORMAT_VERSION
            )),
            _ => Ok(Network::V1(Box::new(NetworkV1::from_bytes(bytes)?))),
        }
    }

    /// The network as a file [`Network::from_bytes`] reads back.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Network::V1(net) => net.to_bytes(),
            Network::V2(net) => net.to_bytes(),
        }
    }

    /// The format version of the network's file: 1 or 2.
    pub fn format_version(&self) -> u32 {
        match self {
            Network::V1(_) => FORMAT_VERSION,
            Network::V2(_) => nnue2::FORMAT_VERSION,
        }
    }

    /// The evaluation of a position for the side to move, in centipawns, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Network::V1(net) => net.evaluate(pos),
            Network::V2(net) => net.evaluate(pos),
        }
    }

    /// [`Network::evaluate`] by the architecture's definition, element by element in `i64`
    /// (version 2's reference; version 1 has one code path): what the lane code is tested and
    /// benchmarked against (`examples/nnue_kernels.rs`).
    pub fn evaluate_reference(&self, pos: &Position) -> i32 {
        match self {
            Network::V1(net) => net.evaluate(pos),
            Network::V2(net) => net.output_reference(&net.refresh_reference(pos.board()), pos.turn()),
        }
    }
}

/// What the search needs of an architecture: accumulators computed afresh or brought up move by
/// move, and the output from them. The search's stack is generic over it, so that the
/// architecture is chosen once per search, not per node.
pub(crate) trait Layers {
    type Acc: Copy + PartialEq + std::fmt::Debug;
    fn refresh(&self, board: &Board) -> Self::Acc;
    fn update(&self, acc: &mut Self::Acc, parent: &Board, child: &Board);
    fn output(&self, acc: &Self::Acc, turn: Color) -> i32;
}

impl Layers for NetworkV1 {
    type Acc = Accumulator;
    #[inline]
    fn refresh(&self, board: &Board) -> Accumulator {
        NetworkV1::refresh(self, board)
    }
    #[inline]
    fn update(&self, acc: &mut Accumulator, parent: &Board, child: &Board) {
        NetworkV1::update(self, acc, parent, child);
    }
    #[inline]
    fn output(&self, acc: &Accumulator, turn: Color) -> i32 {
        NetworkV1::output(self, acc, turn)
    }
}

impl Layers for NetworkV2 {
    type Acc = AccumulatorV2;
    #[inline]
    fn refresh(&self, board: &Board) -> AccumulatorV2 {
        NetworkV2::refresh(self, board)
    }
    #[inline]
    fn update(&self, acc: &mut AccumulatorV2, parent: &Board, child: &Board) {
        NetworkV2::update(self, acc, parent, child);
    }
    #[inline]
    fn output(&self, acc: &AccumulatorV2, turn: Color) -> i32 {
        NetworkV2::output(self, acc, turn)
    }
}

/// FNV-1a, 64 bits, over `parts` in turn: the network file's checksum (any one changed byte
/// changes it, each step being a bijection of the state).
pub fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in *part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// The weights, as the trainer quantised them.
#[derive(Clone, Debug)]
pub struct NetworkV1 {
    /// Centipawns per unit of the output sum, times 2^16.
    scale_q16: i64,
    /// `w1[input]`: the input's column of the first layer (`INPUTS` of them).
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// The side to move's accumulator's weights, then the opponent's.
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
}

/// One perspective's accumulator per colour, indexed by [`Color::index`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Accumulator([[i16; HIDDEN]; 2]);

impl NetworkV1 {
    /// Reads a network file and verifies it before anything of it is used: the header (magic,
    /// version, header size), the architecture (inputs and layer sizes must be this build's), the
    /// exact size, the checksum, and value ranges that keep every accumulator within `i16` and the
    /// output within `i32`. The layout is in `docs/engine.md` ("Network files"); all little-endian.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkV1, String> {
        if bytes.len() < HEADER_BYTES {
            if bytes.len() >= 8 && &bytes[..8] != MAGIC {
                return Err(not_a_network(&bytes[..8]));
            }
            return Err(format!(
                "the network file ends early, at byte {} of a {HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        let mut header = Reader { bytes: &bytes[..HEADER_BYTES], at: 0 };
        let magic = header.take(8)?;
        if magic != MAGIC {
            return Err(not_a_network(magic));
        }
        let version = header.u32()?;
        if version != FORMAT_VERSION {
            return Err(format!("format version {version}; this build reads version {FORMAT_VERSION}"));
        }
        let header_bytes = header.u32()? as usize;
        if header_bytes != HEADER_BYTES {
            return Err(format!(
                "a {header_bytes}-byte header; format version {FORMAT_VERSION} has {HEADER_BYTES}"
            ));
        }
        let inputs = header.u32()?;
        let layer_count = header.u32()? as usize;
        let mut layers = [0u32; MAX_LAYERS];
        for size in &mut layers {
            *size = header.u32()?;
        }
        let described = || {
            let sizes: Vec<String> =
                layers[..layer_count.min(MAX_LAYERS)].iter().map(u32::to_string).collect();
            format!("{inputs} inputs, layers {}", sizes.join("x"))
        };
        let expected = format!("{INPUTS} inputs, layers {}", LAYERS.map(|n| n.to_string()).join("x"));
        if inputs as usize != INPUTS
            || layer_count != LAYERS.len()
            || layers[..LAYERS.len()] != LAYERS
            || layers[LAYERS.len()..].iter().any(|&n| n != 0)
        {
            return Err(format!(
                "the network's architecture is {}; this build evaluates {expected}",
                described()
            ));
        }
        let qa = header.i32()?;
        if qa != i32::from(QA) {
            return Err(format!("an activation scale of {qa}; this build evaluates {QA}"));
        }
        let (scale_q16, payload) = read_payload(&mut header, bytes, PAYLOAD_BYTES)?;

        let mut reader = Reader { bytes: payload, at: 0 };
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut w1 {
            reader.i16s(row)?;
        }
        let mut b1 = [0; HIDDEN];
        reader.i16s(&mut b1)?;
        let mut w2 = [[0; HIDDEN]; 2];
        reader.i16s(&mut w2[0])?;
        reader.i16s(&mut w2[1])?;
        let b2 = reader.i32()?;
        let network = NetworkV1 { scale_q16: i64::from(scale_q16), w1, b1, w2, b2 };
        network.check_ranges()?;
        Ok(network)
    }

    /// Refuses values that could overflow: every accumulator must stay within `i16` whatever the
    /// board, and the scaled output within `i32`.
    fn check_ranges(&self) -> Result<(), String> {
        // An accumulator is b1 plus at most MAX_MEN columns of w1: with the largest of them it must
        // still fit in i16, so that the incremental sums are exact.
        for unit in 0..HIDDEN {
            let mut column: Vec<i64> = self.w1.iter().map(|row| i64::from(row[unit]).abs()).collect();
            column.sort_unstable_by(|a, b| b.cmp(a));
            let bound = i64::from(self.b1[unit]).abs() + column.iter().take(MAX_MEN).sum::<i64>();
            if bound > i64::from(i16::MAX) {
                return Err(format!("hidden unit {unit} could reach {bound}, beyond an i16 accumulator"));
            }
        }
        // The output sum is b2 plus both perspectives' clipped accumulators times w2; scaled, it
        // must fit in i32 (it is clamped to the scores' range afterwards).
        let sum_bound = i64::from(self.b2).abs()
            + self.w2.iter().flatten().map(|&w| i64::from(QA) * i64::from(w).abs()).sum::<i64>();
        let output_bound = sum_bound.checked_mul(self.scale_q16).map(|v| v >> 16);
        if output_bound.is_none_or(|v| v > i64::from(i32::MAX)) {
            return Err(format!(
                "the output could reach {sum_bound} x {} / 2^16, beyond an i32 evaluation",
                self.scale_q16
            ));
        }
        Ok(())
    }

    /// The network as a file [`NetworkV1::from_bytes`] reads back (the format the trainer writes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + PAYLOAD_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(HEADER_BYTES as u32).to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(LAYERS.len() as u32).to_le_bytes());
        for i in 0..MAX_LAYERS {
            out.extend_from_slice(&LAYERS.get(i).copied().unwrap_or(0).to_le_bytes());
        }
        out.extend_from_slice(&i32::from(QA).to_le_bytes());
        out.extend_from_slice(&(self.scale_q16 as i32).to_le_bytes());
        out.extend_from_slice(&(PAYLOAD_BYTES as u64).to_le_bytes());
        let mut payload = Vec::with_capacity(PAYLOAD_BYTES);
        for value in self.w1.iter().flatten().chain(&self.b1).chain(self.w2.iter().flatten()) {
            payload.extend_from_slice(&value.to_le_bytes());
        }
        payload.extend_from_slice(&self.b2.to_le_bytes());
        let checksum = fnv1a64(&[&out, &payload]);
        out.extend_from_slice(&checksum.to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// The accumulators of a board, computed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator([self.b1; 2]);
        let mut added = Changes::default();
        for (sq, piece) in board.pieces() {
            added.push(piece, sq);
        }
        self.apply(&mut acc, &added, &Changes::default());
        acc
    }

    /// Brings `acc`, the accumulators of `parent`, to those of `child`: only the pieces that differ
    /// (a move changes a few, a monkey's chain or a drowning a few more), in one pass over each
    /// perspective's accumulator.
    pub fn update(&self, acc: &mut Accumulator, parent: &Board, child: &Board) {
        if parent == child {
            return; // a null move
        }
        let (mut added, mut removed) = (Changes::default(), Changes::default());
        Changes::between(parent, child, &mut added, &mut removed);
        self.apply(acc, &added, &removed);
    }

    /// Adds the inputs of `added` and subtracts those of `removed`, each perspective in one pass.
    /// Wrapping arithmetic: an intermediate sum may leave the `i16` range, the result cannot
    /// ([`NetworkV1::from_bytes`] checks the bound).
    fn apply(&self, acc: &mut Accumulator, added: &Changes, removed: &Changes) {
        for view in Color::ALL {
            let side = &mut acc.0[view.index()];
            for i in added.of(view) {
                let column = &self.w1[i];
                for (a, &w) in side.iter_mut().zip(column) {
                    *a = a.wrapping_add(w);
                }
            }
            for i in removed.of(view) {
                let column = &self.w1[i];
                for (a, &w) in side.iter_mut().zip(column) {
                    *a = a.wrapping_sub(w);
                }
            }
        }
    }

    /// The evaluation for the side to move, in centipawns, from its accumulators.
    pub fn output(&self, acc: &Accumulator, turn: Color) -> i32 {
        let mut sum = i64::from(self.b2);
        for (side, weights) in [turn, !turn].into_iter().zip(&self.w2) {
            // At most 64 · 64 · 32767 per perspective: no overflow in i32.
            let dot: i32 = acc.0[side.index()]
                .iter()
                .zip(weights)
                .map(|(&a, &w)| i32::from(a.clamp(0, QA)) * i32::from(w))
                .sum();
            sum += i64::from(dot);
        }
        ((sum * self.scale_q16) >> 16) as i32
    }

    /// The evaluation of a position for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos.board()), pos.turn())
    }
}

/// The inputs a move added or removed, of each perspective (at most every man on the board).
#[derive(Default)]
pub(super) struct Changes {
    len: usize,
    /// `inputs[i][view]`: the input of the `i`-th piece seen from `view` ([`Color::index`]).
    inputs: [[u16; 2]; MAX_MEN],
}

impl Changes {
    /// The pieces on `child` and not on `parent` into `added`, the others into `removed`.
    pub(super) fn between(parent: &Board, child: &Board, added: &mut Changes, removed: &mut Changes) {
        for color in Color::ALL {
            if parent.by_color(color) == child.by_color(color) {
                continue;
            }
            for role in Role::ALL {
                let piece = Piece::new(role, color);
                let (old, new) = (parent.by_piece(piece), child.by_piece(piece));
                if old == new {
                    continue;
                }
                for sq in old & !new {
                    removed.push(piece, sq);
                }
                for sq in new & !old {
                    added.push(piece, sq);
                }
            }
        }
    }

    #[inline]
    fn push(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.len < MAX_MEN, "more changed pieces than men on a board");
        if let Some(slot) = self.inputs.get_mut(self.len) {
            for view in Color::ALL {
                slot[view.index()] = input(view, piece, sq) as u16;
            }
            self.len += 1;
        }
    }

    pub(super) fn of(&self, view: Color) -> impl Iterator<Item = usize> + '_ {
        self.inputs[..self.len].iter().map(move |inputs| usize::from(inputs[view.index()]))
    }
}

/// The input of `piece` on `sq` seen from `view`'s side.
#[inline]
pub(super) fn input(view: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != view);
    let square =
        if view == Color::White { sq.index() } else { (6 - sq.rank() as usize) * 7 + sq.file() as usize };
    (theirs * 8 + piece.role.index()) * NUM_SQUARES + square
}

/// What a file that is not a network of this format is.
fn not_a_network(magic: &[u8]) -> String {
    if magic == OLD_MAGIC {
        "an unversioned network file of an earlier build (magic CONGONN1): write it again with \
         benches/tuning/nnue.py"
            .to_owned()
    } else {
        format!("not a network file (no {} magic)", String::from_utf8_lossy(MAGIC))
    }
}

/// The header's last fields, shared by every format version, and the payload they describe: the
/// output scale (positive), the payload's size (this architecture's, exactly: neither cut short nor
/// followed by more bytes) and its checksum (FNV-1a over the header before it and the payload).
pub(super) fn read_payload<'a>(
    header: &mut Reader<'_>,
    bytes: &'a [u8],
    payload_len: usize,
) -> Result<(i32, &'a [u8]), String> {
    let scale_q16 = header.i32()?;
    if scale_q16 <= 0 {
        return Err(format!("an output scale of {scale_q16}; it must be positive"));
    }
    let payload_bytes = header.u64()?;
    if payload_bytes != payload_len as u64 {
        return Err(format!("a payload of {payload_bytes} bytes; this architecture has {payload_len}"));
    }
    let checksum = header.u64()?;
    let payload = &bytes[HEADER_BYTES..];
    if payload.len() < payload_len {
        return Err(format!(
            "the network file ends early: {} bytes, the header says {}",
            bytes.len(),
            HEADER_BYTES + payload_len
        ));
    }
    if payload.len() > payload_len {
        return Err(format!("{} bytes after the network", payload.len() - payload_len));
    }
    let computed = fnv1a64(&[&bytes[..CHECKSUM_AT], payload]);
    if computed != checksum {
        return Err(format!(
            "checksum mismatch (the file says {checksum:016x}, its bytes give {computed:016x}): the file is damaged"
        ));
    }
    Ok((scale_q16, payload))
}

pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the network file ends early, at byte {}", self.bytes.len()))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub(super) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(super) fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    pub(super) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    pub(super) fn i16s(&mut self, out: &mut [i16]) -> Result<(), String> {
        for value in out {
            *value = i16::from_le_bytes(self.array()?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The compiled-in network goes through the checks of any file, and writes back byte for byte.
    #[test]
    fn the_compiled_in_network_is_valid() {
        let net = Network::from_bytes(NETWORK_FILE).unwrap();
        assert_eq!(net.to_bytes(), NETWORK_FILE);
        assert_eq!(NETWORK_FILE.len(), HEADER_BYTES + PAYLOAD_BYTES);
    }

    /// `bytes` with its checksum made right again: a damage the checksum cannot see.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let checksum = fnv1a64(&[&bytes[..CHECKSUM_AT], &bytes[HEADER_BYTES..]]);
        bytes[CHECKSUM_AT..HEADER_BYTES].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    fn error(bytes: &[u8]) -> String {
        Network::from_bytes(bytes).unwrap_err()
    }

    #[test]
    fn a_network_written_reads_back_the_same() {
        let mut net = NetworkV1::from_bytes(NETWORK_FILE).unwrap();
        net.w1[3][5] = -17;
        net.b2 = 12_345;
        let again = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(again.to_bytes(), net.to_bytes());
        let pos = Position::start().play_unchecked(&{
            let mut first = None;
            Position::start().for_each_move(&mut |m| {
                first.get_or_insert(m);
            });
            first.unwrap()
        });
        assert_eq!(again.evaluate(&pos), net.evaluate(&pos));
    }

    #[test]
    fn truncated_and_padded_files_are_errors() {
        assert!(error(b"").contains("ends early, at byte 0"));
        assert!(error(&NETWORK_FILE[..HEADER_BYTES - 1]).contains("ends early"));
        assert!(error(&NETWORK_FILE[..NETWORK_FILE.len() - 1]).contains("ends early"));
        let mut long = NETWORK_FILE.to_vec();
        long.push(0);
        assert!(error(&long).contains("1 bytes after the network"));
    }

    #[test]
    fn a_flipped_byte_is_a_checksum_error() {
        // Anywhere in the payload or in the header's scales.
        for at in [HEADER_BYTES, HEADER_BYTES + 1000, NETWORK_FILE.len() - 1, 44] {
            let mut flipped = NETWORK_FILE.to_vec();
            flipped[at] ^= 0x10;
            assert!(error(&flipped).contains("checksum mismatch"), "byte {at}: {}", error(&flipped));
        }
        let mut wrong_sum = NETWORK_FILE.to_vec();
        wrong_sum[CHECKSUM_AT] ^= 1;
        assert!(error(&wrong_sum).contains("checksum mismatch"));
    }

    #[test]
    fn foreign_files_are_errors() {
        let mut magic = NETWORK_FILE.to_vec();
        magic[..8].copy_from_slice(b"NOTANET!");
        assert!(error(&magic).contains("not a network file (no CONGONET magic)"));
        assert!(error(b"PK\x03\x04 a zip archive").contains("no CONGONET magic"));
        let mut old = b"CONGONN1".to_vec();
        old.extend_from_slice(&NETWORK_FILE[HEADER_BYTES..]);
        assert!(error(&old).contains("earlier build"));
        let mut version = NETWORK_FILE.to_vec();
        version[8] = 3;
        assert!(error(&version).contains("format version 3; this build reads versions 1 and 2"));
        // A version-1 file that says it is of version 2 is read as one, and refused.
        version[8] = 2;
        assert!(error(&version).contains("architecture 784 of format version 2"), "{}", error(&version));
    }

    #[test]
    fn another_architecture_is_an_error() {
        let expected = format!("this build evaluates {INPUTS} inputs, layers {HIDDEN}x1");
        let mut inputs = NETWORK_FILE.to_vec();
        inputs[16..20].copy_from_slice(&(9 * INPUTS as u32).to_le_bytes());
        assert!(error(&inputs).contains(&format!("{} inputs, layers {HIDDEN}x1; {expected}", 9 * INPUTS)));
        let mut wider = NETWORK_FILE.to_vec();
        wider[24..28].copy_from_slice(&256u32.to_le_bytes());
        assert!(error(&wider).contains(&format!("layers 256x1; {expected}")));
        let mut deeper = NETWORK_FILE.to_vec();
        deeper[20..24].copy_from_slice(&3u32.to_le_bytes());
        deeper[28..32].copy_from_slice(&32u32.to_le_bytes());
        deeper[32..36].copy_from_slice(&1u32.to_le_bytes());
        assert!(error(&deeper).contains(&format!("layers {HIDDEN}x32x1; {expected}")));
        let mut qa = NETWORK_FILE.to_vec();
        qa[40..44].copy_from_slice(&127i32.to_le_bytes());
        assert!(error(&qa).contains("activation scale of 127"));
        let mut payload = NETWORK_FILE.to_vec();
        payload[48..56].copy_from_slice(&1u64.to_le_bytes());
        assert!(error(&payload).contains("a payload of 1 bytes"));
    }

    #[test]
    fn values_that_could_overflow_are_errors() {
        // Two inputs of unit 0 at 30,000: a board with both pieces would overflow its accumulator.
        let mut overflowing = NETWORK_FILE.to_vec();
        for input in [0, 1] {
            let at = HEADER_BYTES + 2 * HIDDEN * input;
            overflowing[at..at + 2].copy_from_slice(&30_000i16.to_le_bytes());
        }
        let overflowing = resealed(overflowing);
        assert!(error(&overflowing).contains("hidden unit 0 could reach"), "{}", error(&overflowing));
        assert!(error(&overflowing).contains("beyond an i16 accumulator"));
        // An output scale that takes the largest output sum past i32.
        let mut scale = NETWORK_FILE.to_vec();
        scale[44..48].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(error(&resealed(scale)).contains("beyond an i32 evaluation"));
        let mut negative = NETWORK_FILE.to_vec();
        negative[44..48].copy_from_slice(&(-5i32).to_le_bytes());
        assert!(error(&resealed(negative)).contains("output scale of -5; it must be positive"));
    }

    #[test]
    fn loading_names_the_file() {
        let dir = std::env::temp_dir().join(format!("congo-nnue-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        std::fs::write(&good, NETWORK_FILE).unwrap();
        assert_eq!(Network::load(&good).unwrap().to_bytes(), NETWORK_FILE);
        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, &NETWORK_FILE[..100]).unwrap();
        let message = Network::load(&bad).unwrap_err();
        assert!(
            message.starts_with(&format!("{}: ", bad.display())) && message.contains("ends early"),
            "{message}"
        );
        let missing = dir.join("missing.nnue");
        assert!(Network::load(&missing).unwrap_err().contains("missing.nnue: cannot be read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Along random games (captures, monkey chains, drownings, promotions), the accumulators
    /// updated move by move are the ones computed from scratch.
    #[test]
    fn updated_accumulators_equal_refreshed_ones() {
        let net = NetworkV1::from_bytes(NETWORK_FILE).unwrap();
        let mut rng = SplitMix64::new(7);
        for _ in 0..40 {
            let mut pos = Position::start();
            let mut acc = net.refresh(pos.board());
            for _ in 0..120 {
                let mut moves = Vec::new();
                pos.for_each_move(&mut |m| moves.push(m));
                if moves.is_empty() || pos.is_decided() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let child = pos.play_unchecked(&m);
                net.update(&mut acc, pos.board(), child.board());
                assert_eq!(acc, net.refresh(child.board()), "after {} in {:?}", m.uci(), pos);
                pos = child;
            }
        }
    }

    /// The two perspectives share their weights, so a position and its mirror (colours swapped,
    /// ranks flipped) evaluate the same for their sides to move.
    #[test]
    fn a_position_and_its_mirror_evaluate_the_same() {
        let net = network();
        let mut rng = SplitMix64::new(11);
        let mut pos = Position::start();
        for _ in 0..60 {
            assert_eq!(net.evaluate(&pos), net.evaluate(&pos.mirrored()), "{pos:?}");
            let mut moves = Vec::new();
            pos.for_each_move(&mut |m| moves.push(m));
            if moves.is_empty() || pos.is_decided() {
                break;
            }
            pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
}
