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

use std::sync::LazyLock;

use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, MAX_PIECES_PER_COLOR};
use crate::square::{Square, NUM_SQUARES};

/// Units of the hidden layer (the trainer's `--hidden`; the network file must agree).
pub const HIDDEN: usize = 64;
/// Inputs of one perspective: own or the opponent's, 8 roles, 49 squares.
pub const INPUTS: usize = 2 * 8 * NUM_SQUARES;
/// The first layer's scale: an accumulator value of `QA` is 1.0, where the clipping saturates.
const QA: i16 = 64;
/// The most men on a board: every input a perspective can have at once.
const MAX_MEN: usize = 2 * MAX_PIECES_PER_COLOR as usize;
const MAGIC: &[u8; 8] = b"CONGONN1";

/// The network trained by `benches/tuning/nnue.py`, compiled in.
static NETWORK_FILE: &[u8] = include_bytes!("nnue.bin");
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(NETWORK_FILE)
        .unwrap_or_else(|error| unreachable!("the compiled-in network is valid (tested): {error}"))
});

/// The compiled-in network.
pub fn network() -> &'static Network {
    &NETWORK
}

/// The weights, as the trainer quantised them.
#[derive(Clone, Debug)]
pub struct Network {
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

impl Network {
    /// Reads a network file: the magic `CONGONN1`, the hidden units (u32), the scale (i32), then
    /// `w1` (`INPUTS × HIDDEN`, input-major), `b1`, `w2` (`2 × HIDDEN`) as i16 and `b2` as i32,
    /// all little-endian.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(8)? != MAGIC {
            return Err("not a network file (no CONGONN1 magic)".to_owned());
        }
        let hidden = u32::from_le_bytes(reader.array()?) as usize;
        if hidden != HIDDEN {
            return Err(format!("the network has {hidden} hidden units; this build evaluates {HIDDEN}"));
        }
        let scale_q16 = i64::from(i32::from_le_bytes(reader.array()?));
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut w1 {
            reader.i16s(row)?;
        }
        let mut b1 = [0; HIDDEN];
        reader.i16s(&mut b1)?;
        let mut w2 = [[0; HIDDEN]; 2];
        reader.i16s(&mut w2[0])?;
        reader.i16s(&mut w2[1])?;
        let b2 = i32::from_le_bytes(reader.array()?);
        if reader.at != bytes.len() {
            return Err(format!("{} bytes after the network", bytes.len() - reader.at));
        }
        // An accumulator is b1 plus at most MAX_MEN columns of w1: with the largest of them it must
        // still fit in i16, so that the incremental sums are exact.
        for unit in 0..HIDDEN {
            let mut column: Vec<i64> = w1.iter().map(|row| i64::from(row[unit]).abs()).collect();
            column.sort_unstable_by(|a, b| b.cmp(a));
            let bound = i64::from(b1[unit]).abs() + column.iter().take(MAX_MEN).sum::<i64>();
            if bound > i64::from(i16::MAX) {
                return Err(format!("hidden unit {unit} could reach {bound}, beyond an i16 accumulator"));
            }
        }
        Ok(Network { scale_q16, w1, b1, w2, b2 })
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
        self.apply(acc, &added, &removed);
    }

    /// Adds the inputs of `added` and subtracts those of `removed`, each perspective in one pass.
    /// Wrapping arithmetic: an intermediate sum may leave the `i16` range, the result cannot
    /// ([`Network::from_bytes`] checks the bound).
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
struct Changes {
    len: usize,
    /// `inputs[i][view]`: the input of the `i`-th piece seen from `view` ([`Color::index`]).
    inputs: [[u16; 2]; MAX_MEN],
}

impl Changes {
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

    fn of(&self, view: Color) -> impl Iterator<Item = usize> + '_ {
        self.inputs[..self.len].iter().map(move |inputs| usize::from(inputs[view.index()]))
    }
}

/// The input of `piece` on `sq` seen from `view`'s side.
#[inline]
fn input(view: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != view);
    let square =
        if view == Color::White { sq.index() } else { (6 - sq.rank() as usize) * 7 + sq.file() as usize };
    (theirs * 8 + piece.role.index()) * NUM_SQUARES + square
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
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

    fn i16s(&mut self, out: &mut [i16]) -> Result<(), String> {
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

    #[test]
    fn the_compiled_in_network_is_valid() {
        assert!(Network::from_bytes(NETWORK_FILE).is_ok());
    }

    #[test]
    fn damaged_network_files_are_errors() {
        assert!(Network::from_bytes(b"").unwrap_err().contains("ends early"));
        assert!(Network::from_bytes(b"CONGONN2xxxxxxxx").unwrap_err().contains("magic"));
        let mut short = NETWORK_FILE.to_vec();
        short.pop();
        assert!(Network::from_bytes(&short).unwrap_err().contains("ends early"));
        let mut long = NETWORK_FILE.to_vec();
        long.push(0);
        assert!(Network::from_bytes(&long).unwrap_err().contains("after the network"));
        let mut other = NETWORK_FILE.to_vec();
        other[8] = 32;
        assert!(Network::from_bytes(&other).unwrap_err().contains("32 hidden units"));
        // Two inputs of unit 0 at 30,000: a board with both pieces would overflow its accumulator.
        let mut overflowing = NETWORK_FILE.to_vec();
        for input in [0, 1] {
            let at = 16 + 2 * HIDDEN * input;
            overflowing[at..at + 2].copy_from_slice(&30_000i16.to_le_bytes());
        }
        assert!(Network::from_bytes(&overflowing).unwrap_err().contains("beyond an i16 accumulator"));
    }

    /// Along random games (captures, monkey chains, drownings, promotions), the accumulators
    /// updated move by move are the ones computed from scratch.
    #[test]
    fn updated_accumulators_equal_refreshed_ones() {
        let net = network();
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
