//! SAN-like notation (`docs/notation.md`): thin wrappers over `congo_core::san`.

use congo_core::{self as core, SanError};
use pyo3::create_exception;
use pyo3::prelude::*;

use crate::errors::{illegal_move_error, IllegalMoveError, InvalidMoveError};
use crate::moves::PyMove;
use crate::position::PyPosition;

create_exception!(
    congo,
    AmbiguousMoveError,
    IllegalMoveError,
    "A SAN string that matches more than one legal move: name the from-square (file, rank or both)."
);

fn san_error(e: &SanError) -> PyErr {
    match e {
        SanError::Syntax { .. } => InvalidMoveError::new_err(e.to_string()),
        SanError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(e.to_string()),
    }
}

/// The SAN of a legal move, e.g. `Zf3`, `Mxd3xf5`. Raises `IllegalMoveError`.
#[pyfunction]
pub fn san(position: &Bound<'_, PyPosition>, mv: &Bound<'_, PyMove>) -> PyResult<String> {
    core::san(&position.get().inner, &mv.get().path).map_err(|e| illegal_move_error(&e))
}

/// The legal move a SAN string (or a move string) stands for. Raises `InvalidMoveError` for text that
/// is neither, `IllegalMoveError` when no legal move matches and `AmbiguousMoveError` when several do.
#[pyfunction]
pub fn parse_san(py: Python<'_>, position: &Bound<'_, PyPosition>, san: &str) -> PyResult<Py<PyMove>> {
    let m = core::parse_san(&position.get().inner, san).map_err(|e| san_error(&e))?;
    PyMove::object(py, m.path)
}

/// The SAN of each move of a line played from `position`. Raises `IllegalMoveError` naming the first
/// move that is not legal where it is played.
#[pyfunction]
pub fn san_line(position: &Bound<'_, PyPosition>, moves: Vec<Bound<'_, PyMove>>) -> PyResult<Vec<String>> {
    let paths: Vec<core::Path> = moves.into_iter().map(|m| m.get().path).collect();
    core::san_line(&position.get().inner, &paths).map_err(|(i, e)| {
        IllegalMoveError::new_err(format!("move {} of the line ({}): {e}", i + 1, paths[i]))
    })
}
