//! Positions as planes: `NUM_PLANES` planes of 7×7 bytes, plane-major, each plane in square order
//! (`a1 b1 … g1 a2 … g7`), so that a plane read as a 7×7 array has the rank as its row (row 0 is
//! rank 1, White's side) and the file as its column.
//!
//! | plane | meaning (1 on the squares where it holds, else 0)                          |
//! |-------|-----------------------------------------------------------------------------|
//! | 0–7   | White pawn, superpawn, monkey, giraffe, zebra, elephant, crocodile, lion    |
//! | 8–15  | Black, same order                                                           |
//! | 16    | White to move (every square)                                                |
//! | 17    | the river (rank 4; constant)                                                |
//! | 18    | the castles (c1–e3 and c5–e7; constant)                                     |
//! | 19    | the position occurred before (once or more)                                 |
//! | 20    | the position occurred twice before (a third occurrence is a draw)          |
//! | 21    | a monkey chain is under way: the square the monkey stands on now            |
//! | 22    | a monkey chain is under way: the square the chain started from              |
//!
//! During a chain the piece planes show the board as it stands mid-move: the monkey on its current
//! square and the pieces it jumped removed (docs/rules.md §5.6: removing them at once changes nothing).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::square::{Square, NUM_SQUARES};
use crate::tables::RIVER;
use crate::zobrist;

/// The number of planes.
pub const NUM_PLANES: usize = 23;

/// Bytes per encoded position.
pub const PLANE_SIZE: usize = NUM_PLANES * NUM_SQUARES;

/// A short name for each plane, in order.
pub const PLANE_NAMES: [&str; NUM_PLANES] = [
    "white_pawn",
    "white_superpawn",
    "white_monkey",
    "white_giraffe",
    "white_zebra",
    "white_elephant",
    "white_crocodile",
    "white_lion",
    "black_pawn",
    "black_superpawn",
    "black_monkey",
    "black_giraffe",
    "black_zebra",
    "black_elephant",
    "black_crocodile",
    "black_lion",
    "white_to_move",
    "river",
    "castles",
    "repeated_once",
    "repeated_twice",
    "chain_monkey",
    "chain_origin",
];

const SIDE_TO_MOVE: usize = 16;
const RIVER_PLANE: usize = 17;
const CASTLES_PLANE: usize = 18;
const REPEATED: usize = 19;
const CHAIN_MONKEY: usize = 21;
const CHAIN_ORIGIN: usize = 22;

const CASTLES: Bitboard =
    Bitboard(crate::tables::castle_of(Color::White).0 | crate::tables::castle_of(Color::Black).0);

/// A chain under way, as the planes show it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct ChainView {
    /// Where the monkey started.
    pub origin: Square,
    /// Where the monkey stands now.
    pub at: Square,
}

/// The planes that depend only on the side to move (the side-to-move plane, the river, the castles),
/// for White to move (`[1]`) and Black to move (`[0]`): each encoding starts as a copy of one.
static TEMPLATES: [[u8; PLANE_SIZE]; 2] = build_templates();

const fn build_templates() -> [[u8; PLANE_SIZE]; 2] {
    let mut templates = [[0u8; PLANE_SIZE]; 2];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let bit = 1u64 << sq;
        let mut t = 0;
        while t < 2 {
            if t == 1 {
                templates[t][SIDE_TO_MOVE * NUM_SQUARES + sq] = 1;
            }
            if RIVER.0 & bit != 0 {
                templates[t][RIVER_PLANE * NUM_SQUARES + sq] = 1;
            }
            if CASTLES.0 & bit != 0 {
                templates[t][CASTLES_PLANE * NUM_SQUARES + sq] = 1;
            }
            t += 1;
        }
        sq += 1;
    }
    templates
}

/// Writes the planes of a board (as it stands, possibly mid-chain) into `out`, which must hold
/// [`PLANE_SIZE`] bytes; every byte is written.
pub(crate) fn encode_board(
    board: &Board,
    turn: Color,
    repetitions: u8,
    chain: Option<ChainView>,
    out: &mut [u8],
) {
    let out: &mut [u8; PLANE_SIZE] = (&mut out[..PLANE_SIZE]).try_into().unwrap_or_else(|_| unreachable!());
    out.copy_from_slice(&TEMPLATES[usize::from(turn == Color::White)]);
    for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let own = board.by_color(color);
        for role in Role::ALL {
            let base = (side * 8 + role.index()) * NUM_SQUARES;
            for sq in board.by_role(role) & own {
                out[base + sq.index()] = 1;
            }
        }
    }
    if repetitions >= 1 {
        out[REPEATED * NUM_SQUARES..(REPEATED + 1) * NUM_SQUARES].fill(1);
    }
    if repetitions >= 2 {
        out[(REPEATED + 1) * NUM_SQUARES..(REPEATED + 2) * NUM_SQUARES].fill(1);
    }
    if let Some(chain) = chain {
        out[CHAIN_MONKEY * NUM_SQUARES + chain.at.index()] = 1;
        out[CHAIN_ORIGIN * NUM_SQUARES + chain.origin.index()] = 1;
    }
}

/// Whose point of view the planes take.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Perspective {
    /// Always White's: rank 1 in row 0, White's pieces in planes 0–7.
    #[default]
    White,
    /// The side to move's: for Black to move the board is turned around and the colours swapped
    /// ([`Position::mirrored`]), so the side to move always has its pieces in planes 0–7 and its
    /// home rank in row 0. Plane 16 still tells the real colour to move. Actions are then read in
    /// the same frame: see [`super::flip_action`].
    SideToMove,
}

impl Perspective {
    /// Whether a position with `turn` to move is shown turned around.
    #[inline]
    pub const fn flips(self, turn: Color) -> bool {
        matches!((self, turn), (Perspective::SideToMove, Color::Black))
    }
}

/// Writes the planes of a position into `out` ([`PLANE_SIZE`] bytes). `repetitions` is how often the
/// position occurred before in its game (0, 1, 2; more counts as 2).
pub fn encode(pos: &Position, repetitions: u8, out: &mut [u8]) {
    encode_board(pos.board(), pos.turn(), repetitions, None, out);
}

/// [`encode`] from a perspective.
pub fn encode_from(pos: &Position, perspective: Perspective, repetitions: u8, out: &mut [u8]) {
    if perspective.flips(pos.turn()) {
        encode_board(&pos.board().mirrored(), pos.turn(), repetitions, None, out);
    } else {
        encode(pos, repetitions, out);
    }
}

/// Encodes a batch: position `i` (with `repetitions[i]`, or 0 when `repetitions` is empty) into
/// `out[i * PLANE_SIZE..]`, from `perspective`; `mirror` encodes the left–right mirror of each
/// position instead. Splits the work over `threads` threads (at least one).
///
/// # Panics
/// If `out` is shorter than `positions.len() * PLANE_SIZE` or `repetitions` is neither empty nor as
/// long as `positions` (callers size them; the bindings check).
pub fn encode_batch(
    positions: &[Position],
    repetitions: &[u8],
    mirror: bool,
    perspective: Perspective,
    threads: usize,
    out: &mut [u8],
) {
    assert!(out.len() >= positions.len() * PLANE_SIZE, "output buffer too small");
    assert!(
        repetitions.is_empty() || repetitions.len() == positions.len(),
        "one repetition count per position"
    );
    let encode_range = |start: usize, positions: &[Position], out: &mut [u8]| {
        for (i, (pos, chunk)) in positions.iter().zip(out.chunks_exact_mut(PLANE_SIZE)).enumerate() {
            let reps = repetitions.get(start + i).copied().unwrap_or(0);
            if mirror {
                encode_from(&mirror_files(pos), perspective, reps, chunk);
            } else {
                encode_from(pos, perspective, reps, chunk);
            }
        }
    };
    let threads = threads.max(1);
    // Below a few thousand positions a thread costs more than it saves.
    if threads == 1 || positions.len() < 4096 {
        encode_range(0, positions, out);
        return;
    }
    let per_thread = positions.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut rest = &mut out[..positions.len() * PLANE_SIZE];
        for (t, chunk) in positions.chunks(per_thread).enumerate() {
            let (mine, others) = rest.split_at_mut(chunk.len() * PLANE_SIZE);
            rest = others;
            let encode_range = &encode_range;
            scope.spawn(move || encode_range(t * per_thread, chunk, mine));
        }
    });
}

fn mirror_square(sq: Square) -> Square {
    Square::from_coords(6 - sq.file(), sq.rank()).unwrap_or(sq)
}

/// Mirrors a board's files (a↔g, b↔f, c↔e).
pub(crate) fn mirror_board(board: &Board) -> Board {
    let mut mirrored = Board::empty();
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in board.by_role(role) & board.by_color(color) {
                mirrored.put(mirror_square(sq), Piece::new(role, color));
            }
        }
    }
    mirrored
}

/// The position with its files mirrored (a↔g, b↔f, c↔e); the side to move and move number are kept.
/// The rules are symmetric under this mirror (the castles are the c–e files, the river a whole
/// rank), so a mirrored game is a legal game: for data augmentation.
#[must_use]
pub fn mirror_files(pos: &Position) -> Position {
    let board = mirror_board(pos.board());
    Position { board, hash: zobrist::hash(&board, pos.turn()), fullmove: pos.fullmove(), turn: pos.turn() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_its_pieces_where_they_stand() {
        let mut out = vec![0xAA; PLANE_SIZE];
        encode(&Position::start(), 0, &mut out);
        let plane = |p: usize| &out[p * NUM_SQUARES..(p + 1) * NUM_SQUARES];
        assert_eq!(plane(0).iter().map(|&b| usize::from(b)).sum::<usize>(), 7); // white pawns
        assert_eq!(plane(0)[7..14], [1; 7]); // on rank 2
        assert_eq!(plane(15)[Square::parse("d7").unwrap().index()], 1); // black lion
        assert!(plane(16).iter().all(|&b| b == 1));
        assert_eq!(plane(17).iter().map(|&b| usize::from(b)).sum::<usize>(), 7);
        assert_eq!(plane(18).iter().map(|&b| usize::from(b)).sum::<usize>(), 18);
        assert!(out[REPEATED * NUM_SQUARES..].iter().all(|&b| b == 0));
        assert!(out.iter().all(|&b| b <= 1));
    }

    #[test]
    fn a_batch_on_threads_equals_one_by_one() {
        let mut positions = Vec::new();
        let mut pos = Position::start();
        for i in 0..5000 {
            positions.push(pos);
            let moves = pos.legal_moves();
            pos = if moves.is_empty() {
                Position::start()
            } else {
                pos.play_unchecked(&moves[i % moves.len()])
            };
        }
        let reps: Vec<u8> = (0..positions.len()).map(|i| (i % 3) as u8).collect();
        let mut threaded = vec![0; positions.len() * PLANE_SIZE];
        encode_batch(&positions, &reps, true, Perspective::White, 3, &mut threaded);
        let mut one = vec![0; PLANE_SIZE];
        for (i, pos) in positions.iter().enumerate() {
            encode(&mirror_files(pos), reps[i], &mut one);
            assert_eq!(&threaded[i * PLANE_SIZE..(i + 1) * PLANE_SIZE], &one[..]);
        }
    }

    #[test]
    fn the_side_to_move_perspective_turns_black_positions_around() {
        let black = Position::from_fen("gmelecz/ppppppp/7/7/2E4/PPPPPPP/GM1LECZ b 1").unwrap();
        let (mut seen, mut expected) = (vec![0; PLANE_SIZE], vec![0; PLANE_SIZE]);
        encode_from(&black, Perspective::SideToMove, 0, &mut seen);
        encode(&black.mirrored(), 0, &mut expected);
        // The same planes but the side-to-move plane, which keeps the real colour.
        expected[SIDE_TO_MOVE * NUM_SQUARES..(SIDE_TO_MOVE + 1) * NUM_SQUARES].fill(0);
        assert_eq!(seen, expected);
        let white = Position::start();
        encode_from(&white, Perspective::SideToMove, 0, &mut seen);
        encode(&white, 0, &mut expected);
        assert_eq!(seen, expected);
    }

    #[test]
    fn mirroring_twice_is_the_identity() {
        let pos = Position::from_fen("1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35").unwrap();
        assert_eq!(mirror_files(&mirror_files(&pos)), pos);
        assert_eq!(mirror_files(&pos).fen(), "5z1/1Pl1pPp/pe5/e1P4/p1L4/Pp2p2/7 b 35");
    }
}
