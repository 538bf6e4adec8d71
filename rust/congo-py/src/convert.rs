//! Checked conversions of Python ints into core values.

use congo_core::{Role, Square};
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// A square given as a Python int, checked to be on the board.
pub fn square(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| PyValueError::new_err(format!("square {index} is off the board (squares are 0..48)")))
}

pub fn role(piece_type: i64) -> PyResult<Role> {
    u8::try_from(piece_type).ok().and_then(Role::from_number).ok_or_else(|| {
        PyValueError::new_err(format!("piece type {piece_type} is not one of PAWN (1) ... LION (8)"))
    })
}

pub fn depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth)
        .map_err(|_| PyValueError::new_err(format!("depth must be a non-negative integer, got {depth}")))
}
