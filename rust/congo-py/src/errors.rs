//! The five `ValueError` subclasses of the public API and the mapping from core errors to them.

use congo_core::{
    FenError, IllegalMoveError as CoreIllegalMove, MoveSyntaxError, ParseFenError, PositionError, SanError,
};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    congo,
    InvalidFenError,
    PyValueError,
    "A position string (FEN) that is malformed: wrong number of ranks or fields, a rank that does not describe seven squares, an unknown character, a bad side to move or move number, text that is not valid Unicode."
);
create_exception!(
    congo,
    InvalidPositionError,
    PyValueError,
    "A placement that is not a valid Congo position: more than 14 pieces of a colour, no lion, two lions of one colour, a lion outside its castle, a pawn on its far rank."
);
create_exception!(
    congo,
    InvalidMoveError,
    PyValueError,
    "A move string, SAN or square list that is malformed."
);
create_exception!(
    congo,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position."
);
create_exception!(
    congo,
    AmbiguousMoveError,
    IllegalMoveError,
    "A SAN string that matches more than one legal move: name the from-square (file, rank or both)."
);

pub fn fen_error(e: &FenError) -> PyErr {
    InvalidFenError::new_err(e.to_string())
}

pub fn position_error(e: PositionError) -> PyErr {
    InvalidPositionError::new_err(e.to_string())
}

pub fn parse_fen_error(e: &ParseFenError) -> PyErr {
    match e {
        ParseFenError::Syntax(e) => fen_error(e),
        ParseFenError::Position(e) => position_error(*e),
    }
}

pub fn move_syntax_error(e: &MoveSyntaxError) -> PyErr {
    InvalidMoveError::new_err(e.to_string())
}

pub fn illegal_move_error(e: &CoreIllegalMove) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

pub fn san_error(e: &SanError) -> PyErr {
    match e {
        SanError::Syntax { .. } => InvalidMoveError::new_err(e.to_string()),
        SanError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(e.to_string()),
    }
}
