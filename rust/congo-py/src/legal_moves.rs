//! `congo.LegalMoveGenerator`: the live view behind `Board.legal_moves`.
//!
//! It lives here rather than in Python so that `len()`, `iter()`, `in` and `bool()` are C slots: a
//! `list(board.legal_moves)` then costs one count and one generation in Rust and no Python frame.
//! The view keeps the board (its Rust base, `BoardState`), not a position, and reads the board's
//! current position on every use, so it follows moves pushed after it was made (as python-chess's
//! view does). Made from a `Position`, it shows that position's moves.

use congo_core::{MoveList, Path};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::board::PyBoardState;
use crate::moves::PyMove;
use crate::position::PyPosition;

/// Above this many legal moves, iterating hands the moves out one at a time instead of building
/// them all first: the first move of the valid position with the most moves (25,786 monkey chains,
/// `docs/worst-case.md`) then costs a millisecond of generation in Rust rather than 40 ms of Python
/// objects, and an early `break` never pays for the rest. Below it a list iterator is faster.
const LAZY_ABOVE: u64 = 256;

/// The legal moves of a board, as a live view: iterate, `len`, `in`, `bool`, `count()`.
#[pyclass(frozen, module = "congo", name = "LegalMoveGenerator")]
pub struct LegalMoveGenerator {
    source: Source,
}

/// What the view shows the moves of.
enum Source {
    /// A board: its position at each use.
    Board(Py<PyBoardState>),
    Position(Py<PyPosition>),
}

impl LegalMoveGenerator {
    fn position<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyPosition>> {
        Ok(match &self.source {
            Source::Board(board) => board.bind(py).try_borrow()?.position(py),
            Source::Position(position) => position.bind(py).clone(),
        })
    }
}

#[pymethods]
impl LegalMoveGenerator {
    /// A view of the legal moves of a `congo.Board` (any subclass of `BoardState`) or of a
    /// `Position`. `TypeError` for anything else.
    #[new]
    fn new(board: &Bound<'_, PyAny>) -> PyResult<LegalMoveGenerator> {
        let source = if let Ok(board) = board.cast::<PyBoardState>() {
            Source::Board(board.clone().unbind())
        } else if let Ok(position) = board.cast::<PyPosition>() {
            Source::Position(position.clone().unbind())
        } else {
            let name = board.get_type().name()?;
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "LegalMoveGenerator takes a congo.Board or a congo.Position, got {name}"
            )));
        };
        Ok(LegalMoveGenerator { source })
    }

    /// The number of legal moves, counted without building them.
    fn count(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.position(py)?.get().inner.count_legal_moves())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.position(py)?.get().inner.count_legal_moves() as usize)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let position = self.position(py)?;
        let inner = &position.get().inner;
        if inner.count_legal_moves() <= LAZY_ABOVE {
            let list = position.get().legal_moves(py, None, None)?;
            return Ok(list.as_any().try_iter()?.into_any());
        }
        let mut moves = MoveList::new();
        inner.generate_moves(&mut moves);
        let paths = moves.iter().map(|m| m.path).collect();
        Ok(Bound::new(py, LegalMoveIterator { paths, next: 0 })?.into_any())
    }

    fn __contains__(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
        match mv.cast::<PyMove>() {
            Ok(mv) => Ok(self.position(py)?.get().inner.is_legal(&mv.get().path)),
            Err(_) => Ok(false),
        }
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.position(py)?.get().inner.has_legal_moves())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let list: Bound<'_, PyList> = self.position(py)?.get().legal_moves(py, None, None)?;
        let moves: Vec<String> =
            list.iter().map(|m| m.cast_into::<PyMove>().map(|m| m.get().uci())).collect::<Result<_, _>>()?;
        Ok(format!("<LegalMoveGenerator ({})>", moves.join(", ")))
    }
}

/// The iterator over a long list of legal moves (see [`LAZY_ABOVE`]): the moves of the position
/// when it was made, turned into `Move` objects one at a time.
#[pyclass(module = "congo._core", name = "LegalMoveIterator")]
pub struct LegalMoveIterator {
    paths: Vec<Path>,
    next: usize,
}

#[pymethods]
impl LegalMoveIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyMove>>> {
        let Some(&path) = slf.paths.get(slf.next) else { return Ok(None) };
        slf.next += 1;
        PyMove::object(py, path).map(Some)
    }

    fn __length_hint__(&self) -> usize {
        self.paths.len() - self.next
    }
}
