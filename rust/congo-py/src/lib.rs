//! Python bindings for `congo-core`: conversions, error mapping and GIL release only.
//!
//! No rule of Congo lives here. Every fallible core call returns a `Result` that is mapped to one of
//! the `ValueError` subclasses in `errors.rs`; nothing a Python caller passes can make this crate
//! panic.

mod bulk;
mod convert;
mod engine;
mod errors;
mod learn;
mod legal_moves;
mod moves;
mod pgn;
mod position;
mod san;
mod tablebase;
mod uci;

use congo_core as core;
use pyo3::prelude::*;

use crate::errors::{IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidPositionError};
use crate::moves::PyMove;
use crate::position::PyPosition;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyMove>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchInfo>()?;
    m.add_class::<legal_moves::LegalMoveGenerator>()?;
    m.add_class::<bulk::PlayoutStats>()?;
    m.add_class::<pgn::PyRecordScanner>()?;
    m.add_class::<pgn::PyRecord>()?;
    m.add_function(wrap_pyfunction!(bulk::perft, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::divide, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::random_playouts, m)?)?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidPositionError", py.get_type::<InvalidPositionError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add_function(wrap_pyfunction!(san::san, m)?)?;
    m.add_function(wrap_pyfunction!(san::parse_san, m)?)?;
    m.add_function(wrap_pyfunction!(san::san_line, m)?)?;
    m.add_function(wrap_pyfunction!(uci::run_uci, m)?)?;
    m.add_class::<tablebase::PyTablebase>()?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_generate, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_verify, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_stats, m)?)?;
    m.add("TablebaseError", py.get_type::<tablebase::TablebaseError>())?;
    m.add("AmbiguousMoveError", py.get_type::<san::AmbiguousMoveError>())?;
    m.add("STARTING_FEN", core::STARTING_FEN)?;
    m.add("STARTING_BOARD_FEN", core::STARTING_BOARD_FEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    learn::register(m)?;
    Ok(())
}
