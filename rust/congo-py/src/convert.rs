//! Checked conversions of Python values into core values.
//!
//! Type checks happen here (`TypeError`); ranges are checked by the core, which knows them
//! (`congo_core::bounds`, `search::Limits::checked`, …). Python ints are unbounded: they arrive as
//! `i128`, saturated beyond it, so a huge number is rejected by the same range check as any other.

use std::borrow::Cow;

use congo_core::{self as core, Color, OutOfRange, Role, Square};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

/// The error for a number out of its range.
pub fn out_of_range(e: &OutOfRange) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A Python int (not a bool) of any size, as an `i128` (saturated beyond it). `TypeError` otherwise.
pub fn int(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int, got {}", type_name(value))));
    }
    match value.extract::<i128>() {
        Ok(n) => Ok(n),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Ok(if value.lt(0)? { i128::MIN } else { i128::MAX })
        }
        Err(e) => Err(e),
    }
}

/// An int checked against `min..=max` by the core's one range check: the one conversion for every
/// bounded integer argument. `TypeError` for anything but an int (a bool or a float included),
/// `ValueError` naming the bounds for an int outside them (of any size: never `OverflowError`).
/// Bindings take such arguments as `&Bound<PyAny>` and convert them here, never as a raw `u32`,
/// `usize` or `i64`, whose extraction raises `OverflowError`.
pub fn ranged<T>(value: &Bound<'_, PyAny>, name: &'static str, min: T, max: T) -> PyResult<T>
where
    T: Copy + Into<i128> + TryFrom<i128>,
{
    core::bounds::checked(name, int(value, name)?, min, max).map_err(|e| out_of_range(&e))
}

/// [`ranged`] for a count held in a `usize` (threads, men, plies), whose bounds are `usize` values.
pub fn ranged_usize(value: &Bound<'_, PyAny>, name: &'static str, min: usize, max: usize) -> PyResult<usize> {
    let (min, max) = (min as u64, max as u64);
    ranged(value, name, min, max).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A number of seconds (an int or a float, not a bool), as an `f64`: an int too big for a float
/// becomes infinite, which the range checks reject. `TypeError` otherwise.
pub fn seconds(value: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if value.is_instance_of::<PyFloat>() {
        return value.extract();
    }
    let n = int(value, name).map_err(|_| {
        PyTypeError::new_err(format!("{name} must be a number of seconds, got {}", type_name(value)))
    })?;
    Ok(value.extract::<f64>().unwrap_or(if n < 0 { f64::NEG_INFINITY } else { f64::INFINITY }))
}

/// A small int argument (not a bool): `TypeError` for anything else, then `valid` or `ValueError`
/// with `out_of_range`'s message.
fn small_int<T>(
    value: &Bound<'_, PyAny>,
    what: &str,
    valid: impl FnOnce(u8) -> Option<T>,
    out_of_range: impl FnOnce(i128) -> String,
) -> PyResult<T> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("{what}, got {}", type_name(value))));
    }
    let n = int(value, what)?;
    u8::try_from(n).ok().and_then(valid).ok_or_else(|| PyValueError::new_err(out_of_range(n)))
}

/// A square given as a Python int, checked to be on the board.
pub fn square(value: &Bound<'_, PyAny>) -> PyResult<Square> {
    small_int(value, "a square is an int in 0..48", Square::new, |n| {
        format!("square {n} is off the board (squares are 0..48)")
    })
}

/// A piece type, `PAWN` (1) … `LION` (8).
pub fn role(value: &Bound<'_, PyAny>) -> PyResult<Role> {
    small_int(value, "a piece type is an int", Role::from_number, |n| {
        format!("piece type {n} is not one of PAWN (1) ... LION (8)")
    })
}

/// A colour: `WHITE` (`True`) or `BLACK` (`False`); the ints 1 and 0 too, as python-chess code
/// writes them.
pub fn color(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(white) = value.cast::<PyBool>() {
        return Ok(Color::from_white(white.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(1) => return Ok(Color::White),
            Ok(0) => return Ok(Color::Black),
            _ => {}
        }
    }
    Err(PyTypeError::new_err(format!("a colour is WHITE (True) or BLACK (False), got {}", value.repr()?)))
}

/// A 49-bit square mask (an int or anything with `__int__`, such as a `SquareSet`).
pub fn mask(value: &Bound<'_, PyAny>, name: &str) -> PyResult<core::Bitboard> {
    let n = if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        int(value, name)?
    } else {
        let as_int = value.call_method0("__int__").map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} must be a square mask (an int or a SquareSet), got {}",
                type_name(value)
            ))
        })?;
        int(&as_int, name)?
    };
    u64::try_from(n)
        .ok()
        .filter(|m| m & !core::Bitboard::FULL.0 == 0)
        .map(core::Bitboard)
        .ok_or_else(|| PyValueError::new_err(format!("{name} has bits outside the 49 squares")))
}

/// The text of a `str` argument. A string that is not valid Unicode text (a lone surrogate) is
/// refused with `error`, the caller's documented error type; anything but a `str` is a `TypeError`.
pub fn text<'a>(
    value: &'a Bound<'_, PyAny>,
    what: &str,
    error: impl FnOnce(String) -> PyErr,
) -> PyResult<Cow<'a, str>> {
    let Ok(string) = value.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!("{what} is a str, got {}", type_name(value))));
    };
    match string.to_cow() {
        Ok(text) => Ok(text),
        Err(_) => Err(error(format!(
            "{what} {} is not valid text (it holds a lone surrogate)",
            string.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))),
    }
}
