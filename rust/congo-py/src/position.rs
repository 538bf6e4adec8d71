//! `congo.Position`: a frozen, hashable, picklable game state.

use congo_core::{self as core, Piece, Setup};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use crate::convert::{role, square};
use crate::errors::{illegal_move_error, move_syntax_error, parse_fen_error, position_error};
use crate::moves::{MoveObjects, PyMove};

/// A validated game state: placement, side to move, move number. Frozen, hashable, picklable.
#[pyclass(frozen, eq, module = "congo", name = "Position")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyPosition {
    pub(crate) inner: core::Position,
}

impl PyPosition {
    fn find(&self, mv: &PyMove) -> PyResult<core::Move> {
        self.inner.find_move(&mv.path).map_err(|e| illegal_move_error(&e))
    }
}

fn piece_tuple(piece: Piece) -> (u8, bool) {
    (piece.role as u8, piece.color.is_white())
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = core::STARTING_FEN))]
    fn new(fen: &str) -> PyResult<PyPosition> {
        core::Position::from_fen(fen).map(|inner| PyPosition { inner }).map_err(|e| parse_fen_error(&e))
    }

    /// A position from `{square: (piece_type, color)}`, a side to move and a move number.
    #[staticmethod]
    #[pyo3(signature = (pieces, turn = true, fullmove_number = 1))]
    fn from_piece_map(pieces: &Bound<'_, PyDict>, turn: bool, fullmove_number: i64) -> PyResult<PyPosition> {
        let mut board = core::Board::empty();
        for (key, value) in pieces.iter() {
            let sq = square(key.extract()?)?;
            let (piece_type, color): (i64, bool) = value.extract()?;
            board.set_piece_at(sq, Some(Piece::new(role(piece_type)?, core::Color::from_white(color))));
        }
        let fullmove = u32::try_from(fullmove_number).map_err(|_| {
            PyValueError::new_err(format!(
                "fullmove_number must be a non-negative 32-bit integer, got {fullmove_number}"
            ))
        })?;
        let setup = Setup { board, turn: core::Color::from_white(turn), fullmove };
        core::Position::from_setup(setup).map(|inner| PyPosition { inner }).map_err(position_error)
    }

    fn fen(&self) -> String {
        self.inner.fen()
    }

    fn board_fen(&self) -> String {
        self.inner.board_fen()
    }

    /// `True` when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.inner.turn().is_white()
    }

    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.inner.fullmove()
    }

    /// The Zobrist hash of the placement and side to move (fixed keys: stable across runs).
    fn zobrist_hash(&self) -> u64 {
        self.inner.zobrist_hash()
    }

    fn __hash__(&self) -> u64 {
        self.inner.zobrist_hash() ^ u64::from(self.inner.fullmove())
    }

    /// `(piece_type, color)` on a square, or `None`.
    fn piece_at(&self, square_index: i64) -> PyResult<Option<(u8, bool)>> {
        Ok(self.inner.board().piece_at(square(square_index)?).map(piece_tuple))
    }

    /// `{square: (piece_type, color)}` for every piece.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (sq, piece) in self.inner.board().pieces() {
            dict.set_item(sq.index(), piece_tuple(piece))?;
        }
        Ok(dict)
    }

    /// The squares of the pieces of one type and colour, as a 49-bit mask.
    fn pieces_mask(&self, piece_type: i64, color: bool) -> PyResult<u64> {
        let piece = Piece::new(role(piece_type)?, core::Color::from_white(color));
        Ok(self.inner.board().by_piece(piece).0)
    }

    /// The squares of one colour's pieces (or of all pieces, for `None`), as a 49-bit mask.
    #[pyo3(signature = (color = None))]
    fn occupied_mask(&self, color: Option<bool>) -> u64 {
        let board = self.inner.board();
        color.map_or(board.occupied(), |c| board.by_color(core::Color::from_white(c))).0
    }

    /// Every legal move, in one call.
    pub(crate) fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut moves = core::MoveList::new();
        self.inner.generate_moves(&mut moves);
        let objects = MoveObjects::get(py)?;
        let mut list = Vec::with_capacity(moves.len());
        for m in &moves {
            list.push(objects.object(py, m.path)?);
        }
        PyList::new(py, list)
    }

    /// The number of legal moves, counted without building them.
    fn legal_move_count(&self) -> u64 {
        self.inner.count_legal_moves()
    }

    fn has_legal_moves(&self) -> bool {
        self.inner.has_legal_moves()
    }

    fn is_legal(&self, mv: &Bound<'_, PyMove>) -> bool {
        self.inner.is_legal(&mv.get().path)
    }

    /// The position after a legal move. Raises `IllegalMoveError`.
    fn push(&self, mv: &Bound<'_, PyMove>) -> PyResult<PyPosition> {
        let m = self.find(mv.get())?;
        Ok(PyPosition { inner: self.inner.play_unchecked(&m) })
    }

    /// Parses a move string and checks it is legal here. Raises `InvalidMoveError` or `IllegalMoveError`.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> PyResult<Py<PyMove>> {
        let path = core::parse_move(uci).map_err(|e| move_syntax_error(&e))?;
        self.inner.find_move(&path).map_err(|e| illegal_move_error(&e))?;
        PyMove::object(py, path)
    }

    /// The squares of the enemy pieces a legal move captures, as a 49-bit mask. Raises `IllegalMoveError`.
    fn captured_mask(&self, mv: &Bound<'_, PyMove>) -> PyResult<u64> {
        Ok(self.find(mv.get())?.captured.0)
    }

    /// The piece type that makes a legal move. Raises `IllegalMoveError`.
    fn moving_piece_type(&self, mv: &Bound<'_, PyMove>) -> PyResult<u8> {
        Ok(self.find(mv.get())?.role as u8)
    }

    /// Whether a move captures: exact for a legal move; otherwise whether an enemy stands on its target.
    fn is_capture(&self, mv: &Bound<'_, PyMove>) -> bool {
        self.inner.is_capture(&mv.get().path)
    }

    /// `(termination, winner)` when the rules alone end the game, else `None`. Terminations:
    /// 1 = lion captured, 2 = no legal moves, 3 = bare lions.
    fn outcome(&self) -> Option<(u8, Option<bool>)> {
        self.inner.outcome().map(|o| {
            let code = match o.termination {
                core::Termination::LionCaptured => 1,
                core::Termination::NoLegalMoves => 2,
                core::Termination::BareLions => 3,
            };
            (code, o.winner.map(core::Color::is_white))
        })
    }

    /// The position with colours swapped and the board turned around; the other side moves.
    fn mirror(&self) -> PyPosition {
        PyPosition { inner: self.inner.mirrored() }
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.inner.fen())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.fen(),))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}
