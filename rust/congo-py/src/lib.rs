//! Python bindings for `congo-core`: conversions, error mapping and GIL release only.
//!
//! No rule of Congo lives here. Every fallible core call returns a `Result` that is mapped to one of
//! the four `ValueError` subclasses in [`errors`]; nothing a Python caller passes can make this crate
//! panic.

mod convert;
mod errors;
mod moves;
mod perft;
mod position;

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
    m.add_function(wrap_pyfunction!(perft::perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft::divide, m)?)?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidPositionError", py.get_type::<InvalidPositionError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("STARTING_FEN", core::STARTING_FEN)?;
    m.add("STARTING_BOARD_FEN", core::STARTING_BOARD_FEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
