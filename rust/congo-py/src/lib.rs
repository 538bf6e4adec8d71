//! Python bindings for `congo-core`: conversions, error mapping and GIL release only.
//!
//! No rule of Congo lives here. Every fallible core call returns a `Result` that is mapped to one of
//! the `ValueError` subclasses in `errors.rs` (or a `TypeError` from `convert.rs`); nothing a Python
//! caller passes can make this crate panic. Every limit is the core's, exported as a constant.
//!
//! Classes say where users import them from: `module = "congo"` for the public ones (re-exported
//! by `congo`), `module = "congo._core"` for the handles wrapped in Python (`Engine`,
//! `SearchInfo`, a board's `History`).

mod bench;
mod board;
mod book;
mod bulk;
mod convert;
mod datagen;
mod engine;
mod errors;
mod history;
mod learn;
mod legal_moves;
mod mcts;
mod moves;
mod pgn;
mod position;
mod pytypes;
mod records;
mod san;
mod signals;
mod tablebase;
mod tuning;
mod uci;
mod wdl;

use congo_core::{self as core, search};
use pyo3::prelude::*;

use crate::errors::{
    AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidPositionError,
};
use crate::moves::PyMove;
use crate::position::PyPosition;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyMove>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchInfo>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<legal_moves::LegalMoveGenerator>()?;
    m.add_class::<bulk::PlayoutStats>()?;
    m.add_class::<history::PyHistory>()?;
    m.add_class::<board::PyBoardState>()?;
    m.add_class::<pgn::PyRecordScanner>()?;
    m.add_class::<pgn::PyRecord>()?;
    m.add_class::<pgn::PyRecordError>()?;
    m.add_function(wrap_pyfunction!(bulk::perft, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::divide, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(engine::check_limit, m)?)?;
    m.add_function(wrap_pyfunction!(engine::check_multipv, m)?)?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidPositionError", py.get_type::<InvalidPositionError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    m.add_function(wrap_pyfunction!(position::fen_problems, m)?)?;
    m.add_function(wrap_pyfunction!(san::san, m)?)?;
    m.add_function(wrap_pyfunction!(san::parse_san, m)?)?;
    m.add_function(wrap_pyfunction!(san::san_line, m)?)?;
    m.add_function(wrap_pyfunction!(uci::run_uci, m)?)?;
    m.add_class::<tablebase::PyTablebase>()?;
    m.add_class::<tablebase::RootMove>()?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_generate, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_verify, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_stats, m)?)?;
    m.add_class::<tablebase::TableReport>()?;
    m.add_class::<tablebase::VerifyReport>()?;
    m.add_class::<tablebase::SideStats>()?;
    m.add_class::<tablebase::TableStats>()?;
    m.add("TablebaseError", py.get_type::<tablebase::TablebaseError>())?;
    m.add("STARTING_FEN", core::STARTING_FEN)?;
    m.add("STARTING_BOARD_FEN", core::STARTING_BOARD_FEN)?;
    // The core's limits, the one definition of each.
    m.add("MAX_PIECES_PER_COLOR", core::MAX_PIECES_PER_COLOR)?;
    m.add("MAX_FULLMOVE", core::MAX_FULLMOVE)?;
    m.add("MAX_PERFT_DEPTH", core::MAX_PERFT_DEPTH)?;
    m.add("MAX_DEPTH", search::MAX_DEPTH)?;
    m.add("MAX_NODES", search::MAX_NODES)?;
    m.add("MAX_TIME", search::MAX_TIME_SECONDS)?;
    m.add("MAX_THREADS", search::MAX_THREADS)?;
    m.add("MAX_HASH_MB", search::MAX_HASH_MB)?;
    m.add("DEFAULT_HASH_MB", search::DEFAULT_HASH_MB)?;
    m.add("GAME_POOL_HASH_MB", search::GAME_POOL_HASH_MB)?;
    m.add("BATCH_HASH_MB", search::BATCH_HASH_MB)?;
    m.add("MAX_MATE", search::MAX_MATE)?;
    m.add("MAX_MULTIPV", search::MAX_MULTIPV)?;
    m.add("MAX_TABLEBASE_MEN", core::tablebase::MAX_MEN)?;
    // The board's fixed regions, as 49-bit square masks.
    m.add("BB_RIVER", core::tables::RIVER.0)?;
    // Indexed by colour as Python indexes: `BB_CASTLES[WHITE]` (`True`, 1) is White's.
    m.add(
        "BB_CASTLES",
        (core::tables::castle_of(core::Color::Black).0, core::tables::castle_of(core::Color::White).0),
    )?;
    m.add_function(wrap_pyfunction!(pgn::is_tag_name, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    learn::register(m)?;
    datagen::register(m)?;
    mcts::register(m)?;
    tuning::register(m)?;
    bench::register(m)?;
    book::register(m)?;
    wdl::register(m)?;
    Ok(())
}
