//! Perft over the whole tree in Rust, with the GIL released.

use congo_core as core;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::position::PyPosition;

/// Leaf count `depth` plies deep, computed in Rust with the GIL released. With `bulk=True` (the
/// default) the last ply is counted without making its moves.
#[pyfunction]
#[pyo3(signature = (position, depth, *, bulk = true))]
pub fn perft(py: Python<'_>, position: &Bound<'_, PyPosition>, depth: i64, bulk: bool) -> PyResult<u64> {
    let (pos, depth) = (position.get().inner, crate::convert::depth(depth)?);
    Ok(py.detach(|| if bulk { core::perft(&pos, depth) } else { core::perft_full(&pos, depth) }))
}

/// Perft split by first move: `{move string: leaf count}`, sorted by move string; GIL released.
#[pyfunction]
pub fn divide<'py>(
    py: Python<'py>,
    position: &Bound<'_, PyPosition>,
    depth: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let (pos, depth) = (position.get().inner, crate::convert::depth(depth)?);
    let mut split: Vec<(String, u64)> =
        py.detach(|| core::divide(&pos, depth).into_iter().map(|(m, n)| (m.uci(), n)).collect());
    split.sort_unstable();
    let dict = PyDict::new(py);
    for (uci, n) in split {
        dict.set_item(uci, n)?;
    }
    Ok(dict)
}
