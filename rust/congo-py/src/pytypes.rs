//! The Python-side value types the bindings hand out: `congo.Piece`, `congo.Outcome` and its
//! `congo.Termination`, `congo.Score`. They are defined in Python (python-chess's shapes: an immutable piece, an
//! `enum.Enum`, a dataclass) and looked up once, on first use, after `congo` has been imported.
//!
//! This file is the one mapping between the core's values and those Python objects.

use congo_core::search::Score;
use congo_core::{Color, Outcome, Piece, Role, Termination};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;

/// The `Piece` objects the bindings hand out, one per piece type and colour (indexed by
/// `role.index() * 2 + white`), made once with the public constructor, and the `Piece` class.
static PIECES: PyOnceLock<(Vec<Py<PyAny>>, Py<PyAny>)> = PyOnceLock::new();

fn pieces(py: Python<'_>) -> PyResult<&(Vec<Py<PyAny>>, Py<PyAny>)> {
    PIECES.get_or_try_init(py, || {
        let class = PyModule::import(py, "congo.pieces")?.getattr("Piece")?;
        let mut table = Vec::with_capacity(16);
        for role in Role::ALL {
            for white in [false, true] {
                table.push(class.call1((role as u8, white))?.unbind());
            }
        }
        Ok((table, class.unbind()))
    })
}

/// The shared `congo.Piece` object for a core piece.
pub fn piece(py: Python<'_>, piece: Piece) -> PyResult<Py<PyAny>> {
    let (table, _) = pieces(py)?;
    Ok(table[piece.role.index() * 2 + usize::from(piece.color.is_white())].clone_ref(py))
}

/// The core piece of a `congo.Piece`; `TypeError` for anything else.
pub fn piece_from(value: &Bound<'_, PyAny>) -> PyResult<Piece> {
    let (_, class) = pieces(value.py())?;
    if !value.is_instance(class.bind(value.py()))? {
        let name = value.get_type().name()?;
        return Err(PyTypeError::new_err(format!("expected a congo.Piece, got {name}")));
    }
    let role: u8 = value.getattr("piece_type")?.extract()?;
    let white: bool = value.getattr("color")?.extract()?;
    let role =
        Role::from_number(role).ok_or_else(|| PyTypeError::new_err("a Piece with an unknown piece type"))?;
    Ok(Piece::new(role, Color::from_white(white)))
}

/// `congo.Outcome` and each `congo.Termination` member, in the order of [`Termination::ALL`].
static OUTCOMES: PyOnceLock<(Py<PyAny>, Vec<Py<PyAny>>)> = PyOnceLock::new();

/// The Python name of each termination: the one place core and Python terminations meet.
const fn termination_name(termination: Termination) -> &'static str {
    match termination {
        Termination::LionCaptured => "LION_CAPTURED",
        Termination::NoLegalMoves => "NO_LEGAL_MOVES",
        Termination::BareLions => "BARE_LIONS",
        Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
        Termination::MoveLimit => "MOVE_LIMIT",
    }
}

/// A `congo.Outcome` for a core outcome.
pub fn outcome(py: Python<'_>, outcome: Outcome) -> PyResult<Py<PyAny>> {
    let (class, members) = OUTCOMES.get_or_try_init(py, || {
        let module = PyModule::import(py, "congo.outcome")?;
        let termination = module.getattr("Termination")?;
        let members = Termination::ALL
            .into_iter()
            .map(|t| termination.getattr(termination_name(t)).map(Bound::unbind))
            .collect::<PyResult<Vec<_>>>()?;
        Ok::<_, PyErr>((module.getattr("Outcome")?.unbind(), members))
    })?;
    let index = Termination::ALL.iter().position(|&t| t == outcome.termination).unwrap_or(0);
    let winner = outcome.winner.map(Color::is_white);
    Ok(class.bind(py).call1((members[index].clone_ref(py), winner))?.unbind())
}

/// `congo.Score`.
static SCORE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A `congo.Score` for a core score (centipawns, or a forced result in moves).
pub fn score(py: Python<'_>, score: Score) -> PyResult<Py<PyAny>> {
    let class = SCORE.get_or_try_init(py, || {
        Ok::<_, PyErr>(PyModule::import(py, "congo._results")?.getattr("Score")?.unbind())
    })?;
    Ok(class.bind(py).call1((score.cp(), score.mate()))?.unbind())
}
