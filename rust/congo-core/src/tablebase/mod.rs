//! Endgame tablebases: every position with up to five men (both lions included), solved.
//!
//! * [`generate`] builds the tables, one file per material signature ([`Material`]), by a forward
//!   pass over the material-changing moves and retrograde analysis over the quiet ones;
//! * [`Tablebase`] opens a directory of tables and probes them: the distance to mate ([`Dtm`]),
//!   win/draw/loss ([`Wdl`]), the value of every move at the root;
//! * [`verify`] checks every position of every table against the move generator, and
//!   [`simple::generate`] is a second, deliberately simple generator whose tables must be
//!   byte-identical.
//!
//! The metric is the distance to mate in plies: to the capture of a lion, or to the position where
//! the side to move has no legal move (and loses). Only the two lions left is a draw unless the side
//! to move captures at once (docs/rules.md §8). The file format and the index layout are documented in
//! [`format`](mod@format) and [`layout`] and in `docs/tablebase.md`.
//!
//! ```no_run
//! use congo_core::tablebase::{Tablebase, Dtm};
//! use congo_core::Position;
//!
//! let tb = Tablebase::open("tables").unwrap();
//! let pos = Position::from_fen("3l3/7/7/7/2Z4/7/3L3 w 1").unwrap();
//! if let Some(Dtm::Win(plies)) = tb.probe_dtm(&pos) {
//!     println!("White wins in {plies} plies");
//! }
//! ```

pub mod format;
mod generate;
pub mod layout;
pub mod material;
mod probe;
mod schedule;
pub mod simple;
mod stats;
mod unmove;
mod verify;

pub use format::{Dtm, Entries, Header, TablebaseError, Wdl};
pub use generate::{generate, GenerateOptions, TableReport};
pub use material::{Material, MaterialError, MAX_MEN};
pub use probe::Tablebase;
pub use schedule::Progress;
pub use stats::{stats, SideStats, TableStats};
pub use verify::{verify, VerifyOptions, VerifyReport};

#[cfg(test)]
pub(crate) mod tests;
