//! `congo._core.History`: a board's moves with the position before each, kept in Rust (a board's
//! `BoardState` holds one as its move stack). Copies are a `Vec` clone; pickles are the compact, checked text
//! form of `congo_core::History`, replayed in Rust in one call.

use congo_core::{self as core, HistoryError};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert;
use crate::errors::{illegal_move_error, parse_fen_error, IllegalMoveError};
use crate::moves::{move_arg, MoveObjects, PyMove};
use crate::position::PyPosition;
use crate::pytypes;

/// A game's moves, each with the position before it. Mutable; owned by one `Board`.
#[pyclass(module = "congo._core", name = "History")]
#[derive(Clone, Default)]
pub struct PyHistory {
    pub(crate) inner: core::History,
}

fn history_error(e: &HistoryError) -> PyErr {
    match e {
        HistoryError::Fen(e) => parse_fen_error(e),
        HistoryError::Illegal { .. } => IllegalMoveError::new_err(format!("pickled board: {e}")),
        HistoryError::Token { .. } => PyValueError::new_err(e.to_string()),
    }
}

/// The core move for a `Move` argument and the position after it: a legal move, or the null move,
/// which passes (`Position::play_null`). `IllegalMoveError`, or `TypeError` for a non-Move.
pub(crate) fn play(before: &core::Position, mv: &Bound<'_, PyAny>) -> PyResult<(core::Move, core::Position)> {
    let path = move_arg(mv)?.path;
    if path.is_null() {
        return Ok((core::Move::NULL, before.play_null()));
    }
    let m = before.find_move(&path).map_err(|e| illegal_move_error(&e))?;
    Ok((m, before.play_unchecked(&m)))
}

/// A number of last moves to keep, checked (`None`: all of them). Any count beyond the history
/// keeps all of it, as a slice would.
pub(crate) fn keep_count(keep: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(keep) = keep else { return Ok(None) };
    let keep = convert::int(keep, "stack")?;
    if keep < 0 {
        return Err(PyValueError::new_err(format!("stack must be non-negative, got {keep}")));
    }
    Ok(Some(usize::try_from(keep).unwrap_or(usize::MAX)))
}

impl PyHistory {
    /// A copy: the whole history, or its last `keep` moves.
    pub(crate) fn tail(&self, keep: Option<usize>) -> PyHistory {
        match keep {
            None => self.clone(),
            Some(keep) => PyHistory { inner: self.inner.tail(keep) },
        }
    }
}

#[pymethods]
impl PyHistory {
    #[new]
    fn new() -> PyHistory {
        PyHistory::default()
    }

    /// Plays a legal move (or the null move, a pass) from `position`, records it and returns the position after it. Raises
    /// `IllegalMoveError` (nothing is recorded) and `TypeError` for a non-Move.
    fn push(&mut self, position: &Bound<'_, PyPosition>, mv: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let before = position.get().inner;
        let (m, after) = play(&before, mv)?;
        self.inner.push(m, before);
        Ok(PyPosition { inner: after })
    }

    /// Takes back the last move: `(move, position before it)`. `IndexError` when empty.
    fn pop(&mut self, py: Python<'_>) -> PyResult<(Py<PyMove>, PyPosition)> {
        let (m, before) =
            self.inner.pop().ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        Ok((PyMove::object(py, m.path)?, PyPosition { inner: before }))
    }

    /// The last move. `IndexError` when empty.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let (m, _) = self.inner.last().ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))?;
        PyMove::object(py, m.path)
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The moves, oldest first.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let objects = MoveObjects::get(py)?;
        let moves = self.inner.moves().map(|m| objects.object(py, m.path)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, moves)
    }

    /// The position before the first move (`current` when there is none).
    fn root(&self, current: &Bound<'_, PyPosition>) -> PyPosition {
        PyPosition { inner: self.inner.root(&current.get().inner) }
    }

    /// A copy: the whole history, or its last `keep` moves.
    #[pyo3(signature = (keep = None))]
    fn copy(&self, keep: Option<&Bound<'_, PyAny>>) -> PyResult<PyHistory> {
        Ok(self.tail(keep_count(keep)?))
    }

    /// A copy of the last moves only, those whose positions `current` could repeat (since the last
    /// capture, drowning or promotion): all that a search of `current` needs, taken in time
    /// proportional to it rather than to the whole game.
    fn repeatable(&self, current: &Bound<'_, PyPosition>) -> PyHistory {
        let current = current.get().inner;
        let keep = congo_core::rules::repetition::reachable(&current, self.inner.earlier()).count();
        PyHistory { inner: self.inner.tail(keep) }
    }

    fn clear(&mut self) {
        self.inner.clear();
    }

    /// How many times `current` has occurred in this game, counting itself; only positions since
    /// the last capture, drowning or promotion can repeat.
    fn repetitions(&self, current: &Bound<'_, PyPosition>) -> usize {
        self.inner.repetitions(&current.get().inner)
    }

    /// The `Outcome` of the game at `current`: by the rules; a draw once `max_plies` moves have
    /// been played; with `claim_draw`, a draw by threefold repetition. `TypeError` for a
    /// `max_plies` that is not an int, `ValueError` for a negative one.
    #[pyo3(signature = (current, *, claim_draw = false, max_plies = None))]
    fn outcome(
        &self,
        py: Python<'_>,
        current: &Bound<'_, PyPosition>,
        claim_draw: bool,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let max_plies = max_plies.map(|n| convert::ranged(n, "max_plies", 0, u64::MAX)).transpose()?;
        let outcome = self.inner.outcome(&current.get().inner, claim_draw, max_plies);
        outcome.map(|o| pytypes::outcome(py, o)).transpose()
    }

    /// The compact text form `(root FEN, tokens)` of this history ending at `current`.
    fn encode(&self, current: &Bound<'_, PyPosition>) -> (String, String) {
        self.inner.encode(&current.get().inner)
    }

    /// Replays a text form: the history and the position it leads to. Raises `IllegalMoveError`
    /// for a move that is not legal where it stands, `ValueError` for a malformed token, and the
    /// FEN errors for a bad root position.
    #[staticmethod]
    fn decode(root: &Bound<'_, PyAny>, tokens: &Bound<'_, PyAny>) -> PyResult<(PyHistory, PyPosition)> {
        let text = |value| convert::text(value, "a pickled board's state", PyValueError::new_err);
        let (root, tokens) = (text(root)?, text(tokens)?);
        let (inner, position) = core::History::decode(&root, &tokens).map_err(|e| history_error(&e))?;
        Ok((PyHistory { inner }, PyPosition { inner: position }))
    }
}
