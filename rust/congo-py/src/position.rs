//! `congo.Position`: a frozen, hashable, picklable game state.

use congo_core::{self as core, Bitboard, Color, Setup, MAX_FULLMOVE};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyType};

use crate::convert;
use crate::errors::{
    illegal_move_error, move_syntax_error, parse_fen_error, position_error, IllegalMoveError,
    InvalidFenError, InvalidMoveError,
};
use crate::moves::{MoveObjects, PyMove};
use crate::pytypes;

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

    /// Parses and validates a FEN given as any Python object.
    pub(crate) fn parse(fen: &Bound<'_, PyAny>) -> PyResult<core::Position> {
        let text = convert::text(fen, "a FEN", InvalidFenError::new_err)?;
        core::Position::from_fen(&text).map_err(|e| parse_fen_error(&e))
    }

    /// Builds `Move` objects for a list of core moves.
    pub(crate) fn move_list<'py>(py: Python<'py>, moves: &[core::Move]) -> PyResult<Bound<'py, PyList>> {
        let objects = MoveObjects::get(py)?;
        let mut list = Vec::with_capacity(moves.len());
        for m in moves {
            list.push(objects.object(py, m.path)?);
        }
        PyList::new(py, list)
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&Bound<'_, PyAny>>) -> PyResult<PyPosition> {
        match fen {
            None => Ok(PyPosition { inner: core::Position::start() }),
            Some(fen) => Ok(PyPosition { inner: PyPosition::parse(fen)? }),
        }
    }

    /// A position from `{square: Piece}`, a side to move and a move number. Raises
    /// `InvalidPositionError` for an invalid position.
    #[staticmethod]
    #[pyo3(signature = (pieces, turn = None, fullmove_number = None))]
    fn from_piece_map(
        pieces: &Bound<'_, PyDict>,
        turn: Option<&Bound<'_, PyAny>>,
        fullmove_number: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let mut board = core::Board::empty();
        for (key, value) in pieces.iter() {
            let sq = convert::square(&key)?;
            board.set_piece_at(sq, Some(pytypes::piece_from(&value)?));
        }
        let turn = turn.map(convert::color).transpose()?.unwrap_or(Color::White);
        let fullmove = fullmove_number
            .map(|n| convert::ranged(n, "fullmove_number", 0, MAX_FULLMOVE))
            .transpose()?
            .unwrap_or(1);
        core::Position::from_setup(Setup { board, turn, fullmove })
            .map(|inner| PyPosition { inner })
            .map_err(position_error)
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

    /// A key equal for two positions exactly when they are the same for repetition: placement and
    /// side to move, whatever the move number. Hashable (bytes).
    fn transposition_key<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.transposition_key())
    }

    fn __hash__(&self) -> u64 {
        self.inner.zobrist_hash() ^ u64::from(self.inner.fullmove())
    }

    /// The `Piece` on a square, or `None`.
    fn piece_at(&self, py: Python<'_>, square: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        self.inner.board().piece_at(convert::square(square)?).map(|p| pytypes::piece(py, p)).transpose()
    }

    /// `{square: Piece}` for every piece, in square order.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (sq, piece) in self.inner.board().pieces() {
            dict.set_item(sq.index(), pytypes::piece(py, piece)?)?;
        }
        Ok(dict)
    }

    /// The position with a square set to a `Piece` or cleared (`None`). Raises
    /// `InvalidPositionError` if the result is not a valid position.
    fn with_piece_at(
        &self,
        square: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let sq = convert::square(square)?;
        let piece = piece.map(pytypes::piece_from).transpose()?;
        self.inner.with_piece_at(sq, piece).map(|inner| PyPosition { inner }).map_err(position_error)
    }

    /// The position with another side to move.
    fn with_turn(&self, turn: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        Ok(PyPosition { inner: self.inner.with_turn(convert::color(turn)?) })
    }

    /// The position with another move number (`0 … 2**32 - 1`).
    fn with_fullmove_number(&self, number: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let fullmove = convert::ranged(number, "fullmove_number", 0, MAX_FULLMOVE)?;
        Ok(PyPosition { inner: self.inner.with_fullmove(fullmove) })
    }

    /// The squares of the pieces of one type and colour, as a 49-bit mask.
    fn pieces_mask(&self, piece_type: &Bound<'_, PyAny>, color: &Bound<'_, PyAny>) -> PyResult<u64> {
        let piece = core::Piece::new(convert::role(piece_type)?, convert::color(color)?);
        Ok(self.inner.board().by_piece(piece).0)
    }

    /// The squares of one colour's pieces (or of all pieces, for `None`), as a 49-bit mask.
    #[pyo3(signature = (color = None))]
    fn occupied_mask(&self, color: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let board = self.inner.board();
        Ok(match color {
            None => board.occupied().0,
            Some(c) => board.by_color(convert::color(c)?).0,
        })
    }

    /// The legal moves, in one call: all of them, or those from a square of `from_mask` whose final
    /// landing square is in `to_mask`.
    #[pyo3(signature = (from_mask = None, to_mask = None))]
    pub(crate) fn legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut moves = core::MoveList::new();
        self.inner.generate_moves(&mut moves);
        filtered(py, moves, from_mask, to_mask)
    }

    /// The legal captures (every monkey chain among them), optionally filtered like `legal_moves`.
    #[pyo3(signature = (from_mask = None, to_mask = None))]
    fn legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: Option<&Bound<'_, PyAny>>,
        to_mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut moves = core::MoveList::new();
        self.inner.for_each_capture(&mut |m| moves.push(m));
        filtered(py, moves, from_mask, to_mask)
    }

    /// The number of legal moves, counted without building them.
    fn legal_move_count(&self) -> u64 {
        self.inner.count_legal_moves()
    }

    fn has_legal_moves(&self) -> bool {
        self.inner.has_legal_moves()
    }

    /// Whether a move is legal here. `TypeError` for anything but a `Move`.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_legal(&crate::moves::move_arg(mv)?.path))
    }

    /// The legal move from one square to another: the single-leg move if there is one, else the
    /// shortest monkey chain (the first generated among equally short ones). Raises
    /// `IllegalMoveError` when there is none.
    fn find_move(
        &self,
        py: Python<'_>,
        from_square: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyMove>> {
        let (from, to) = (convert::square(from_square)?, convert::square(to_square)?);
        match self.inner.find_move_between(from, to) {
            Some(m) => PyMove::object(py, m.path),
            None => Err(IllegalMoveError::new_err(format!(
                "no legal move from {from} to {to} in {}",
                self.inner.fen()
            ))),
        }
    }

    /// The position after a legal move. Raises `IllegalMoveError`.
    fn push(&self, mv: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let m = self.find(&crate::moves::move_arg(mv)?)?;
        Ok(PyPosition { inner: self.inner.play_unchecked(&m) })
    }

    /// Parses a move string and checks it is legal here. Raises `InvalidMoveError` or `IllegalMoveError`.
    fn parse_uci(&self, py: Python<'_>, uci: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = convert::text(uci, "a move string", InvalidMoveError::new_err)?;
        let path = core::parse_move(&text).map_err(|e| move_syntax_error(&e))?;
        self.inner.find_move(&path).map_err(|e| illegal_move_error(&e))?;
        PyMove::object(py, path)
    }

    /// The squares of the enemy pieces a legal move captures, as a 49-bit mask. Raises `IllegalMoveError`.
    fn captured_mask(&self, mv: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.find(&crate::moves::move_arg(mv)?)?.captured.0)
    }

    /// The piece type that makes a legal move. Raises `IllegalMoveError`.
    fn moving_piece_type(&self, mv: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.find(&crate::moves::move_arg(mv)?)?.role as u8)
    }

    /// Whether a move captures: exact for a legal move; otherwise whether an enemy stands on its target.
    fn is_capture(&self, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_capture(&crate::moves::move_arg(mv)?.path))
    }

    /// The long algebraic form of a legal move (`Zg1-f3`, `Mb1xd3xf5`). Raises `IllegalMoveError`.
    fn lan(&self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        core::lan(&self.inner, &crate::moves::move_arg(mv)?.path).map_err(|e| illegal_move_error(&e))
    }

    /// The squares of `color`'s pieces that could capture a piece of the other colour on `square`
    /// with one move, as a 49-bit mask.
    fn attackers_mask(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        let (color, sq) = (convert::color(color)?, convert::square(square)?);
        Ok(core::rules::attacks::attackers(self.inner.board(), color, sq).0)
    }

    /// The squares on which the piece on `square` could capture a piece of the other colour with one
    /// move, as a 49-bit mask (0 for an empty square).
    fn attacks_mask(&self, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        let sq = convert::square(square)?;
        let board = self.inner.board();
        let Some(color) = board.color_at(sq) else { return Ok(0) };
        let attacked: Bitboard = core::Square::all()
            .filter(|&target| core::rules::attacks::attackers(board, color, target).contains(sq))
            .collect();
        Ok(attacked.0)
    }

    /// The `Outcome` when the rules alone end the game (a lion captured, no legal move, bare lions),
    /// else `None`.
    fn outcome(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.inner.outcome().map(|o| pytypes::outcome(py, o)).transpose()
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

/// The moves from a square of `from_mask` whose final landing square is in `to_mask`, as `Move`s.
fn filtered<'py>(
    py: Python<'py>,
    mut moves: core::MoveList,
    from_mask: Option<&Bound<'_, PyAny>>,
    to_mask: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let from = from_mask.map(|m| convert::mask(m, "from_mask")).transpose()?.unwrap_or(Bitboard::FULL);
    let to = to_mask.map(|m| convert::mask(m, "to_mask")).transpose()?.unwrap_or(Bitboard::FULL);
    if from != Bitboard::FULL || to != Bitboard::FULL {
        moves.retain(|m| from.contains(m.from()) && to.contains(m.to()));
    }
    PyPosition::move_list(py, &moves)
}

/// Every reason a position string's placement is not a valid position (docs/rules.md §9), as
/// `(kind, color, message)`: `kind` one of `too_many_pieces`, `no_lions`, `too_many_lions`,
/// `lion_outside_castle`, `pawn_on_far_rank`, and for placements accepted but unreachable
/// (`Setup::unreachable`) `too_many_pawns`, `impossible_material`, `impossible_river`; `color` the
/// colour concerned (`None` for `no_lions` and `impossible_river`). Empty for a position a game
/// can reach. Raises `InvalidFenError` for a malformed string.
#[pyfunction]
pub fn fen_problems(fen: &Bound<'_, PyAny>) -> PyResult<Vec<(&'static str, Option<bool>, String)>> {
    use core::PositionError as E;
    use core::Unreachable as U;
    let text = convert::text(fen, "a FEN", crate::errors::InvalidFenError::new_err)?;
    let setup = core::fen::parse_setup(&text).map_err(|e| crate::errors::fen_error(&e))?;
    Ok(setup
        .problems()
        .into_iter()
        .map(|problem| {
            let (kind, color) = match problem {
                E::TooManyPieces { color, .. } => ("too_many_pieces", Some(color)),
                E::NoLions => ("no_lions", None),
                E::TooManyLions { color, .. } => ("too_many_lions", Some(color)),
                E::LionOutsideCastle { color, .. } => ("lion_outside_castle", Some(color)),
                E::PawnOnFarRank { color, .. } => ("pawn_on_far_rank", Some(color)),
            };
            (kind, color.map(Color::is_white), problem.to_string())
        })
        .chain(setup.unreachable().into_iter().map(|problem| {
            let (kind, color, message) = match problem {
                U::TooManyPawns { color } => {
                    ("too_many_pawns", Some(color), "more pawns than a side starts with")
                }
                U::ImpossibleMaterial { color } => {
                    ("impossible_material", Some(color), "more of a piece than a side starts with")
                }
                U::ImpossibleRiver => {
                    ("impossible_river", None, "more than one swimmer of the side that just moved")
                }
            };
            (kind, color.map(Color::is_white), message.to_owned())
        }))
        .collect())
}
