//! Python bindings for `congo-core`: conversions, error mapping and GIL release only.
//!
//! No rule of Congo lives here. Every fallible core call returns a `Result` that is mapped to one of
//! the four `ValueError` subclasses below; nothing a Python caller passes can make this crate panic.

use congo_core::{
    self as core, FenError, IllegalMoveError as CoreIllegalMove, MoveSyntaxError, ParseFenError, Path, Piece,
    PositionError, Role, Setup, Square,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};

create_exception!(
    congo,
    InvalidFenError,
    PyValueError,
    "A position string (FEN) that is malformed: wrong number of ranks or fields, a rank that does not describe seven squares, an unknown character, a bad side to move or move number."
);
create_exception!(
    congo,
    InvalidPositionError,
    PyValueError,
    "A placement that is not a valid Congo position: no lion, two lions of one colour, a lion outside its castle, a pawn on its far rank."
);
create_exception!(congo, InvalidMoveError, PyValueError, "A move string or square list that is malformed.");
create_exception!(congo, IllegalMoveError, PyValueError, "A well-formed move that is not legal in the position.");

fn fen_error(e: &FenError) -> PyErr {
    InvalidFenError::new_err(e.to_string())
}

fn position_error(e: &PositionError) -> PyErr {
    InvalidPositionError::new_err(e.to_string())
}

fn parse_fen_error(e: &ParseFenError) -> PyErr {
    match e {
        ParseFenError::Syntax(e) => fen_error(e),
        ParseFenError::Position(e) => position_error(e),
    }
}

fn move_syntax_error(e: &MoveSyntaxError) -> PyErr {
    InvalidMoveError::new_err(e.to_string())
}

fn illegal_move_error(e: &CoreIllegalMove) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// A square given as a Python int, checked to be on the board.
fn square(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| PyValueError::new_err(format!("square {index} is off the board (squares are 0..48)")))
}

fn role(piece_type: i64) -> PyResult<Role> {
    u8::try_from(piece_type).ok().and_then(Role::from_number).ok_or_else(|| {
        PyValueError::new_err(format!("piece type {piece_type} is not one of PAWN (1) ... LION (8)"))
    })
}

fn depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth).map_err(|_| PyValueError::new_err(format!("depth must be a non-negative integer, got {depth}")))
}

/// A move: the path of squares it visits. Frozen, hashable and picklable; simple moves are shared objects.
#[pyclass(frozen, eq, hash, module = "congo", name = "Move")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    path: Path,
}

/// Every single-leg move object, created once: `legal_moves()` then costs a reference count per move.
static SIMPLE_MOVES: PyOnceLock<Vec<Py<PyMove>>> = PyOnceLock::new();

impl PyMove {
    fn object(py: Python<'_>, path: Path) -> PyResult<Py<PyMove>> {
        if path.is_chain() {
            return Py::new(py, PyMove { path });
        }
        let table = SIMPLE_MOVES.get_or_try_init(py, || {
            let mut table = Vec::with_capacity(49 * 49);
            for from in Square::all() {
                for to in Square::all() {
                    table.push(Py::new(py, PyMove { path: Path::single(from, to) })?);
                }
            }
            Ok::<_, PyErr>(table)
        })?;
        Ok(table[path.from().index() * 49 + path.to().index()].clone_ref(py))
    }
}

#[pymethods]
impl PyMove {
    /// A single-leg move `from_square → to_square`. Use `Move.from_path` or `Move.from_uci` for chains.
    #[new]
    fn new(from_square: i64, to_square: i64) -> PyResult<PyMove> {
        let path = Path::from_squares(&[square(from_square)?, square(to_square)?])
            .map_err(|e| InvalidMoveError::new_err(e.to_string()))?;
        Ok(PyMove { path })
    }

    /// Parses a move string: `e3e4`, `b1d3f5`, or the MindSports / comma forms.
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, py: Python<'_>, uci: &str) -> PyResult<Py<PyMove>> {
        let path = core::parse_move(uci).map_err(|e| move_syntax_error(&e))?;
        PyMove::object(py, path)
    }

    /// A move from the list of squares it visits, `(from, …, to)`.
    #[classmethod]
    fn from_path(_cls: &Bound<'_, PyType>, py: Python<'_>, squares: Vec<i64>) -> PyResult<Py<PyMove>> {
        let squares = squares.into_iter().map(square).collect::<PyResult<Vec<_>>>()?;
        let path = Path::from_squares(&squares).map_err(|e| InvalidMoveError::new_err(e.to_string()))?;
        PyMove::object(py, path)
    }

    #[getter]
    fn from_square(&self) -> u8 {
        self.path.from().index() as u8
    }

    /// The final landing square.
    #[getter]
    fn to_square(&self) -> u8 {
        self.path.to().index() as u8
    }

    /// Every square visited, `(from, …, to)`.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.path.squares().map(|sq| sq.index() as u8))
    }

    fn uci(&self) -> String {
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

/// A validated game state: placement, side to move, move number. Frozen, hashable, picklable.
#[pyclass(frozen, eq, module = "congo", name = "Position")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyPosition {
    inner: core::Position,
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
            PyValueError::new_err(format!("fullmove_number must be a non-negative 32-bit integer, got {fullmove_number}"))
        })?;
        let setup = Setup { board, turn: core::Color::from_white(turn), fullmove };
        core::Position::from_setup(setup).map(|inner| PyPosition { inner }).map_err(|e| position_error(&e))
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
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.inner.legal_moves();
        let objects = moves.iter().map(|m| PyMove::object(py, m.path)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, objects)
    }

    /// The number of legal moves, counted without building them.
    fn legal_move_count(&self) -> u64 {
        self.inner.count_legal_moves()
    }

    fn has_legal_moves(&self) -> bool {
        self.inner.has_legal_moves()
    }

    fn is_legal(&self, mv: PyRef<'_, PyMove>) -> bool {
        self.inner.is_legal(&mv.path)
    }

    /// The position after a legal move. Raises `IllegalMoveError`.
    fn push(&self, mv: PyRef<'_, PyMove>) -> PyResult<PyPosition> {
        let m = self.find(&mv)?;
        Ok(PyPosition { inner: self.inner.play_unchecked(&m) })
    }

    /// Parses a move string and checks it is legal here. Raises `InvalidMoveError` or `IllegalMoveError`.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> PyResult<Py<PyMove>> {
        let path = core::parse_move(uci).map_err(|e| move_syntax_error(&e))?;
        self.inner.find_move(&path).map_err(|e| illegal_move_error(&e))?;
        PyMove::object(py, path)
    }

    /// The squares of the enemy pieces a legal move captures, as a 49-bit mask. Raises `IllegalMoveError`.
    fn captured_mask(&self, mv: PyRef<'_, PyMove>) -> PyResult<u64> {
        Ok(self.find(&mv)?.captured.0)
    }

    /// The piece type that makes a legal move. Raises `IllegalMoveError`.
    fn moving_piece_type(&self, mv: PyRef<'_, PyMove>) -> PyResult<u8> {
        Ok(self.find(&mv)?.role as u8)
    }

    /// Whether a move captures: exact for a legal move; otherwise whether an enemy stands on its target.
    fn is_capture(&self, mv: PyRef<'_, PyMove>) -> bool {
        match self.inner.find_move(&mv.path) {
            Ok(m) => m.is_capture(),
            Err(_) => self.inner.board().color_at(mv.path.to()) == Some(!self.inner.turn()),
        }
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

/// Leaf count `depth` plies deep, computed in Rust with the GIL released. With `bulk=True` (the
/// default) the last ply is counted without making its moves.
#[pyfunction]
#[pyo3(signature = (position, depth, *, bulk = true))]
fn perft(py: Python<'_>, position: PyRef<'_, PyPosition>, depth: i64, bulk: bool) -> PyResult<u64> {
    let (pos, depth) = (position.inner, self::depth(depth)?);
    Ok(py.detach(|| if bulk { core::perft(&pos, depth) } else { core::perft_full(&pos, depth) }))
}

/// Perft split by first move: `{move string: leaf count}`, sorted by move string; GIL released.
#[pyfunction]
fn divide<'py>(py: Python<'py>, position: PyRef<'_, PyPosition>, depth: i64) -> PyResult<Bound<'py, PyDict>> {
    let (pos, depth) = (position.inner, self::depth(depth)?);
    let mut split: Vec<(String, u64)> =
        py.detach(|| core::divide(&pos, depth).into_iter().map(|(m, n)| (m.uci(), n)).collect());
    split.sort_unstable();
    let dict = PyDict::new(py);
    for (uci, n) in split {
        dict.set_item(uci, n)?;
    }
    Ok(dict)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyMove>()?;
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(divide, m)?)?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidPositionError", py.get_type::<InvalidPositionError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("STARTING_FEN", core::STARTING_FEN)?;
    m.add("STARTING_BOARD_FEN", core::STARTING_BOARD_FEN)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
