//! The bulk calls: perft, divide and random playouts, each one crossing into Rust with the GIL released.

use congo_core as core;
use pyo3::exceptions::PyValueError;
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

/// What a batch of random playouts came to.
#[pyclass(frozen, eq, module = "congo", name = "PlayoutStats", get_all)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Games played.
    games: u64,
    white_wins: u64,
    black_wins: u64,
    /// Bare lions or the ply limit.
    draws: u64,
    /// Moves played over all games.
    plies: u64,
}

#[pymethods]
impl PlayoutStats {
    fn __repr__(&self) -> String {
        format!(
            "PlayoutStats(games={}, white_wins={}, black_wins={}, draws={}, plies={})",
            self.games, self.white_wins, self.black_wins, self.draws, self.plies
        )
    }
}

/// Plays `games` games of uniformly random legal moves from `position`, each until the rules end
/// it or `max_plies` moves have been played (a draw); reproducible from `seed`. GIL released.
#[pyfunction]
#[pyo3(signature = (position, games, *, seed = 0, max_plies = 300))]
pub fn random_playouts(
    py: Python<'_>,
    position: &Bound<'_, PyPosition>,
    games: i64,
    seed: u64,
    max_plies: i64,
) -> PyResult<PlayoutStats> {
    let pos = position.get().inner;
    let games = u64::try_from(games)
        .map_err(|_| PyValueError::new_err(format!("games must be a non-negative integer, got {games}")))?;
    let max_plies = u32::try_from(max_plies).map_err(|_| {
        PyValueError::new_err(format!("max_plies must be a non-negative 32-bit integer, got {max_plies}"))
    })?;
    let s = py.detach(|| core::random_playouts(&pos, games, seed, max_plies));
    Ok(PlayoutStats {
        games: s.games,
        white_wins: s.white_wins,
        black_wins: s.black_wins,
        draws: s.draws,
        plies: s.plies,
    })
}
