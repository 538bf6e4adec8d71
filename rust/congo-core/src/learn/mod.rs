//! What learning agents need from the rules: positions as planes of numbers ([`planes`]), a fixed
//! action space with legal-action masks in which a monkey chain is played one jump at a time
//! ([`actions`], [`Game`]), the left–right mirror for data augmentation, and self-play games with
//! the search's evaluations ([`selfplay`]).
//!
//! The layouts are documented, with their reasons, in `docs/learning.md`.
//!
//! ```
//! use congo_core::learn::{Game, NUM_ACTIONS, STOP};
//! use congo_core::Position;
//!
//! let pos = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
//! let mut game = Game::new(pos, 300);
//! let chain = game.actions_of_uci("b1d3f5d7").unwrap();
//! assert_eq!(chain.len(), 3); // three jumps; the lion jump ends the move, no STOP
//! for action in chain {
//!     assert!(game.legal_actions().contains(&action));
//!     game.apply(action).unwrap();
//! }
//! assert!(game.is_over());
//! assert!(STOP < NUM_ACTIONS);
//! ```

pub mod actions;
mod game;
pub mod mcts;
pub mod planes;
pub mod selfplay;
pub mod vector;

pub use actions::{
    action_of_leg, flip_action, leg_of_action, mirror_action, ActionError, NUM_ACTIONS, NUM_MOVE_KINDS, STOP,
};
pub use game::{Game, GameEnd, Step, StepError};

/// The ply limit of a game played in actions (and of a self-play game) unless its user says
/// otherwise: the game is drawn after this many moves.
pub const DEFAULT_MAX_PLIES: u32 = 300;
pub use planes::{
    encode, encode_batch, encode_from, mirror_files, Perspective, NUM_PLANES, PLANE_NAMES, PLANE_SIZE,
};
