//! The evaluation as features and weights, for the tuner (`benches/tuning/texel.py`): the engine's
//! evaluation of a position is exactly the dot product of the two (tested in the core).

use congo_core::search::eval::{features, Evaluator};
use congo_core::search::{lion_attacked, EvalParams};
use congo_core::Position;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors;

/// The name of each feature of the evaluation, in order.
#[pyfunction]
pub fn eval_feature_names() -> Vec<String> {
    features::names()
}

/// The hand-written evaluation's weights, one per feature (centipawns).
#[pyfunction]
pub fn eval_weights() -> Vec<i32> {
    Evaluator::new(&EvalParams::hand_written()).weights().to_vec()
}

/// The features of each position (FEN strings) under the hand-written evaluation, with the GIL released:
/// a dict with `features` (bytes: little-endian int16, one row of `len(eval_feature_names())` per
/// position), `eval` (the static evaluation, side to move's view, equal to the row's dot product with
/// `eval_weights()`) and `quiet` (the side to move's lion is not attacked, it has no capture or
/// promotion, and the game is not over). Raises `InvalidFenError` for a bad FEN.
#[pyfunction]
#[allow(clippy::needless_pass_by_value)] // pyo3 extracts the list into an owned Vec
pub fn eval_features(py: Python<'_>, fens: Vec<String>) -> PyResult<Bound<'_, PyDict>> {
    let positions = fens
        .iter()
        .map(|fen| Position::from_fen(fen).map_err(|e| errors::parse_fen_error(&e)))
        .collect::<PyResult<Vec<_>>>()?;
    let (bytes, evals, quiet) = py.detach(|| {
        let evaluator = Evaluator::new(&EvalParams::hand_written());
        let mut bytes = Vec::with_capacity(positions.len() * features::COUNT * 2);
        let mut evals = Vec::with_capacity(positions.len());
        let mut quiet = Vec::with_capacity(positions.len());
        for pos in &positions {
            for value in evaluator.features(pos) {
                let value = i16::try_from(value).unwrap_or(if value < 0 { i16::MIN } else { i16::MAX });
                bytes.extend_from_slice(&value.to_le_bytes());
            }
            evals.push(evaluator.evaluate(pos));
            let mut tactical = false;
            pos.for_each_capture_or_promotion(&mut |_| tactical = true);
            quiet.push(!tactical && !pos.is_decided() && !lion_attacked(pos.board(), pos.turn()));
        }
        (bytes, evals, quiet)
    });
    let out = PyDict::new(py);
    out.set_item("features", PyBytes::new(py, &bytes))?;
    out.set_item("eval", evals)?;
    out.set_item("quiet", quiet)?;
    Ok(out)
}

/// Adds the functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(eval_feature_names, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights, m)?)?;
    m.add_function(wrap_pyfunction!(eval_features, m)?)?;
    Ok(())
}
