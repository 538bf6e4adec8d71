//! SAN-like notation (`docs/notation.md`): thin wrappers over `congo_core::san`.

use congo_core as core;
use pyo3::prelude::*;

use crate::convert;
use crate::errors::{illegal_move_error, san_error, IllegalMoveError, InvalidMoveError};
use crate::moves::{move_arg, PyMove};
use crate::position::PyPosition;

/// The SAN of a legal move, e.g. `Zf3`, `Mxd3xf5`. Raises `IllegalMoveError`.
#[pyfunction]
pub fn san(position: &Bound<'_, PyPosition>, mv: &Bound<'_, PyAny>) -> PyResult<String> {
    core::san(&position.get().inner, &move_arg(mv)?.path).map_err(|e| illegal_move_error(&e))
}

/// The legal move a SAN string (or a move string) stands for. Raises `InvalidMoveError` for text that
/// is neither, `IllegalMoveError` when no legal move matches and `AmbiguousMoveError` when several do.
#[pyfunction]
pub fn parse_san(
    py: Python<'_>,
    position: &Bound<'_, PyPosition>,
    san: &Bound<'_, PyAny>,
) -> PyResult<Py<PyMove>> {
    let text = convert::text(san, "a SAN move", InvalidMoveError::new_err)?;
    // python-chess reads `--` (and `0000`) as the null move; the core's SAN reader, which records
    // also use, knows only real moves.
    if matches!(text.trim(), core::san::NULL_SAN | "0000") {
        return PyMove::object(py, core::Path::NULL);
    }
    let m = core::parse_san(&position.get().inner, &text).map_err(|e| san_error(&e))?;
    PyMove::object(py, m.path)
}

/// The SAN of each move of a line played from `position`. Raises `IllegalMoveError` naming the first
/// move that is not legal where it is played.
#[pyfunction]
pub fn san_line(position: &Bound<'_, PyPosition>, moves: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let paths: Vec<core::Path> =
        moves.try_iter()?.map(|m| m.and_then(|m| move_arg(&m)).map(|m| m.path)).collect::<PyResult<_>>()?;
    core::san_line(&position.get().inner, &paths).map_err(|(i, e)| {
        IllegalMoveError::new_err(format!("move {} of the line ({}): {e}", i + 1, paths[i]))
    })
}
