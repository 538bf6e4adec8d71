//! Zobrist hashing with fixed keys, so hashes are the same in every build and every process.
//!
//! The hash covers the placement and the side to move: exactly what makes two positions the same for
//! repetition. It is updated incrementally by [`crate::Position::play_unchecked`].

use crate::board::Board;
use crate::piece::{Color, Role};
use crate::square::{Square, NUM_SQUARES, TABLE_LEN};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn piece_keys() -> [[[u64; TABLE_LEN]; 8]; 2] {
    let mut keys = [[[0; TABLE_LEN]; 8]; 2];
    // Seed: the digits of Congo's publication year and Freeling's initials, nothing more.
    let mut state = 0x1982_c0f6_0000_0001;
    let mut color = 0;
    while color < 2 {
        let mut role = 0;
        while role < 8 {
            let mut sq = 0;
            while sq < NUM_SQUARES {
                let (next, key) = splitmix64(state);
                state = next;
                keys[color][role][sq] = key;
                sq += 1;
            }
            role += 1;
        }
        color += 1;
    }
    keys
}

static PIECE_KEYS: [[[u64; TABLE_LEN]; 8]; 2] = piece_keys();

/// Toggled when White is to move.
pub const WHITE_TO_MOVE: u64 = splitmix64(0x05ee_d0fc_0460).1;

/// The key of a piece on a square.
#[inline]
pub fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index()]
}

/// The hash of a placement with a side to move, computed from scratch.
pub fn hash(board: &Board, turn: Color) -> u64 {
    let pieces = board.pieces().fold(0, |h, (sq, piece)| h ^ piece_key(piece.color, piece.role, sq));
    if turn.is_white() {
        pieces ^ WHITE_TO_MOVE
    } else {
        pieces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> =
            PIECE_KEYS.iter().flatten().flat_map(|keys| keys[..NUM_SQUARES].iter()).copied().collect();
        all.push(WHITE_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
