//! `congo._core.BoardState`: the base class of `congo.Board`, owning a board's current position
//! and its move history in one Rust object.
//!
//! The bindings recognise a board by this type (`LegalMoveGenerator`, the engine through
//! `Board._history`), never by looking up an attribute on a Python object, and every mutation
//! (a move played or taken back, a position set up) changes the position and the history together
//! while no Python code runs, so that threads sharing a board never see the two out of step.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

use crate::history::{self, PyHistory};
use crate::moves::PyMove;
use crate::position::PyPosition;

/// A board's current position and the moves that led to it: the base of `congo.Board`, which
/// adds the python-chess surface in Python.
#[pyclass(subclass, module = "congo._core", name = "BoardState")]
pub struct PyBoardState {
    /// Shared with Python as it is (`Board.position` is the same object each time: positions are
    /// immutable).
    position: Py<PyPosition>,
    history: Py<PyHistory>,
    /// Counts the changes. A move is checked and its Python objects made before the state is
    /// borrowed (making an object may collect garbage, which may run Python code and let another
    /// thread in); the change is made only if no other one came in between, else it is redone.
    version: u64,
}

impl PyBoardState {
    /// The position of a board, for the views that follow it (`LegalMoveGenerator`).
    pub(crate) fn position<'py>(&self, py: Python<'py>) -> Bound<'py, PyPosition> {
        self.position.bind(py).clone()
    }
}

#[pymethods]
impl PyBoardState {
    /// The start position with no moves; a subclass's `__init__` sets up its own (the arguments
    /// are its own, and are left to it).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        py: Python<'_>,
        _args: &Bound<'_, pyo3::types::PyTuple>,
        _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<PyBoardState> {
        Ok(PyBoardState {
            position: Py::new(py, PyPosition { inner: congo_core::Position::start() })?,
            history: Py::new(py, PyHistory::default())?,
            version: 0,
        })
    }

    /// The current position.
    #[getter(_position)]
    fn get_position(&self, py: Python<'_>) -> Py<PyPosition> {
        self.position.clone_ref(py)
    }

    /// Replaces the current position and keeps the moves (a side to move or a move number set by
    /// hand; `pop()` still goes back to the position before the last move).
    #[setter(_position)]
    fn set_position(&mut self, position: Py<PyPosition>) {
        self.position = position;
        self.version += 1;
    }

    /// The moves, each with the position before it (shared: the search and the snapshots read it).
    #[getter(_history)]
    fn get_history(&self, py: Python<'_>) -> Py<PyHistory> {
        self.history.clone_ref(py)
    }

    /// Sets the position and the moves that led to it, in one step (a copy, a pickle loaded, a
    /// snapshot searched elsewhere).
    fn _restore(&mut self, position: Py<PyPosition>, history: Py<PyHistory>) {
        self.position = position;
        self.history = history;
        self.version += 1;
    }

    /// `Board.push`: plays a legal move (or the null move, a pass), records it and makes the
    /// position after it the current one. `IllegalMoveError` (nothing changes), `TypeError` for a
    /// non-Move.
    fn _push(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        loop {
            let (version, before) = {
                let state = slf.borrow();
                (state.version, state.position.get().inner)
            };
            let (m, after) = history::play(&before, mv)?;
            let after = Py::new(py, PyPosition { inner: after })?;
            let mut state = slf.borrow_mut();
            if state.version == version {
                state.history.bind(py).borrow_mut().inner.push(m, before);
                state.position = after;
                state.version += 1;
                return Ok(());
            }
        }
    }

    /// `Board.pop`: takes back the last move, makes the position before it the current one and
    /// returns the move. `IndexError` when there is none.
    fn _pop(slf: &Bound<'_, Self>) -> PyResult<Py<PyMove>> {
        let py = slf.py();
        loop {
            let (version, m, before) = {
                let state = slf.borrow();
                let history = state.history.bind(py).borrow();
                let Some(&(m, before)) = history.inner.last() else {
                    return Err(PyIndexError::new_err("pop from an empty move stack"));
                };
                (state.version, m, before)
            };
            let object = PyMove::object(py, m.path)?;
            let before = Py::new(py, PyPosition { inner: before })?;
            let mut state = slf.borrow_mut();
            if state.version == version {
                state.history.bind(py).borrow_mut().inner.pop();
                state.position = before;
                state.version += 1;
                return Ok(object);
            }
        }
    }

    /// Makes `position` the current one and forgets the moves.
    fn _reset(&mut self, py: Python<'_>, position: Py<PyPosition>) {
        self.history.bind(py).borrow_mut().inner.clear();
        self.position = position;
        self.version += 1;
    }

    /// `(the position, a copy of the whole history or of its last `keep` moves)`, read together
    /// (`keep` as in `History.copy`).
    #[pyo3(signature = (keep = None))]
    fn _snapshot(
        slf: &Bound<'_, Self>,
        keep: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Py<PyPosition>, PyHistory)> {
        let py = slf.py();
        let keep = history::keep_count(keep)?;
        let state = slf.borrow();
        let copy = state.history.bind(py).borrow().tail(keep);
        Ok((state.position.clone_ref(py), copy))
    }
}
