//! `congo.Move`: a frozen, hashable, picklable move value.

use congo_core::{self as core, Path, Square};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

use crate::convert;
use crate::errors::{move_syntax_error, InvalidMoveError};

/// A move: the path of squares it visits. Frozen, hashable and picklable; simple moves are shared objects.
#[pyclass(frozen, eq, hash, module = "congo", name = "Move")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) path: Path,
}

/// Every single-leg move object, created once: `legal_moves()` then costs a reference count per move.
static SIMPLE_MOVES: PyOnceLock<Vec<Py<PyMove>>> = PyOnceLock::new();

/// Builds `Move` objects for core moves: shared objects for single-leg moves, new ones for chains.
pub(crate) struct MoveObjects<'a> {
    simple: &'a [Py<PyMove>],
}

impl MoveObjects<'_> {
    pub(crate) fn get(py: Python<'_>) -> PyResult<MoveObjects<'_>> {
        let simple = SIMPLE_MOVES.get_or_try_init(py, || {
            let mut table = Vec::with_capacity(49 * 49);
            for from in Square::all() {
                for to in Square::all() {
                    table.push(Py::new(py, PyMove { path: Path::single(from, to) })?);
                }
            }
            Ok::<_, PyErr>(table)
        })?;
        Ok(MoveObjects { simple })
    }

    #[inline]
    pub(crate) fn object(&self, py: Python<'_>, path: Path) -> PyResult<Py<PyMove>> {
        if path.is_chain() || path.is_null() {
            Py::new(py, PyMove { path })
        } else {
            Ok(self.simple[path.from().index() * 49 + path.to().index()].clone_ref(py))
        }
    }
}

impl PyMove {
    pub(crate) fn object(py: Python<'_>, path: Path) -> PyResult<Py<PyMove>> {
        MoveObjects::get(py)?.object(py, path)
    }
}

/// A `Move` argument; `TypeError` for anything else (a move string included: parse it first).
pub(crate) fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    if let Ok(mv) = value.cast::<PyMove>() {
        return Ok(*mv.get());
    }
    let name = value.get_type().name()?;
    let hint =
        if value.is_instance_of::<PyString>() { " (parse a move string with Move.from_uci)" } else { "" };
    Err(PyTypeError::new_err(format!("expected a congo.Move, got {name}{hint}")))
}

#[pymethods]
impl PyMove {
    /// A single-leg move `from_square → to_square`. Use `Move.from_path` or `Move.from_uci` for chains.
    #[new]
    fn new(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let path = Path::from_squares(&[convert::square(from_square)?, convert::square(to_square)?])
            .map_err(|e| InvalidMoveError::new_err(e.to_string()))?;
        Ok(PyMove { path })
    }

    /// Parses a move string: `e3e4`, `b1d3f5`, or the MindSports / comma forms; `0000` is the null move.
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, py: Python<'_>, uci: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = convert::text(uci, "a move string", InvalidMoveError::new_err)?;
        if text.trim() == "0000" {
            return PyMove::object(py, Path::NULL);
        }
        let path = core::parse_move(&text).map_err(|e| move_syntax_error(&e))?;
        PyMove::object(py, path)
    }

    /// The null move, `0000`: falsy, never legal; `Board.push` plays it as a pass (the mover's
    /// non-crocodile pieces in the river drown, as after any move that does not bring them in).
    #[classmethod]
    fn null(_cls: &Bound<'_, PyType>, py: Python<'_>) -> PyResult<Py<PyMove>> {
        PyMove::object(py, Path::NULL)
    }

    /// False for the null move only.
    fn __bool__(&self) -> bool {
        !self.path.is_null()
    }

    /// A move from the squares it visits, `(from, …, to)`: any iterable of square ints.
    #[classmethod]
    fn from_path(_cls: &Bound<'_, PyType>, squares: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let py = squares.py();
        if squares.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "Move.from_path takes square ints such as (1, 17, 33); use Move.from_uci for a move string",
            ));
        }
        let squares = squares
            .try_iter()?
            .map(|sq| sq.and_then(|sq| convert::square(&sq)))
            .collect::<PyResult<Vec<_>>>()?;
        let path = Path::from_squares(&squares).map_err(|e| InvalidMoveError::new_err(e.to_string()))?;
        PyMove::object(py, path)
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)] // the python-chess name
    fn from_square(&self) -> u8 {
        self.path.from().index() as u8
    }

    /// The final landing square.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // the python-chess name
    fn to_square(&self) -> u8 {
        self.path.to().index() as u8
    }

    /// Every square visited, `(from, …, to)`.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.path.squares().map(|sq| sq.index() as u8))
    }

    pub(crate) fn uci(&self) -> String {
        self.path.uci()
    }

    fn __str__(&self) -> String {
        self.path.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.path.uci())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_uci = slf.get_type().getattr("from_uci")?;
        Ok((from_uci, (slf.get().path.uci(),)))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}
