//! The rules of the chess variant Congo: bitboards, move generation, move execution with drowning,
//! notation, Zobrist hashing, perft and search.
//!
//! Pure Rust, no Python. The rules are in [`rules`], one file per piece and one for the river; the
//! rest of the crate is machinery around them.
//!
//! ```
//! use congo_core::{Position, perft};
//!
//! let start = Position::start();
//! assert_eq!(start.legal_moves().len(), 24);
//! assert_eq!(perft(&start, 2), 576);
//! let next = start.play(&congo_core::parse_move("c1c3").unwrap()).unwrap();
//! assert_eq!(next.fen(), "gmelecz/ppppppp/7/7/2E4/PPPPPPP/GM1LECZ b 1");
//! ```

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod bounds;
pub mod datagen;
pub mod fen;
pub mod history;
pub mod interrupt;
pub mod learn;
mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod piece;
pub mod playout;
pub mod position;
pub mod rng;
pub mod rules;
pub mod san;
pub mod search;
pub mod square;
pub mod tablebase;
pub mod tables;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use bounds::{OutOfRange, MAX_FULLMOVE, MAX_PERFT_DEPTH};
pub use fen::{FenError, ParseFenError, STARTING_BOARD_FEN, STARTING_FEN};
pub use history::{History, HistoryError};
pub use interrupt::{Interrupt, Interrupted, Never};
pub use moves::{Move, MoveList, Path, PathError};
pub use notation::{parse_move, MoveSyntaxError};
pub use outcome::{Outcome, Termination};
pub use perft::{
    divide, divide_each, divide_interruptible, perft, perft_full, perft_full_interruptible,
    perft_interruptible,
};
pub use piece::{Color, Piece, Role};
pub use playout::{random_playouts, random_playouts_interruptible, PlayoutStats};
pub use position::{
    IllegalMoveError, IllegalReason, Position, PositionError, Setup, Unreachable, MAX_PIECES_PER_COLOR,
};
pub use san::{lan, lan_of, parse_san, san, san_line, san_of, SanError};
pub use square::Square;
