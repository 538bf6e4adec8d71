//! The bulk calls: perft, divide and random playouts, each one crossing into Rust with the GIL
//! released and answering Ctrl-C (see `signals.rs`).

use std::cell::RefCell;

use congo_core::{self as core, Interrupt, MAX_PERFT_DEPTH};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::convert;
use crate::position::PyPosition;
use crate::signals::{interruptible, Signals};

fn perft_depth(depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    convert::ranged(depth, "depth", 0, MAX_PERFT_DEPTH)
}

/// Leaf count `depth` plies deep, computed in Rust with the GIL released. With `bulk=True` (the
/// default) the last ply is counted without making its moves. Raises `ValueError` for a depth
/// outside `0..=MAX_PERFT_DEPTH` and `KeyboardInterrupt` on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (position, depth, *, bulk = true))]
pub fn perft(
    py: Python<'_>,
    position: &Bound<'_, PyPosition>,
    depth: &Bound<'_, PyAny>,
    bulk: bool,
) -> PyResult<u64> {
    let (pos, depth) = (position.get().inner, perft_depth(depth)?);
    interruptible(py, |signals| {
        if bulk {
            core::perft_interruptible(&pos, depth, signals)
        } else {
            core::perft_full_interruptible(&pos, depth, signals)
        }
    })
}

/// Perft split by first move: `{move string: leaf count}`, sorted by move string; GIL released.
/// `callback(move string, leaf count)` runs as each first move is done, in generation order; if it
/// raises, the count stops and the exception propagates.
#[pyfunction]
#[pyo3(signature = (position, depth, *, bulk = true, callback = None))]
pub fn divide<'py>(
    py: Python<'py>,
    position: &Bound<'_, PyPosition>,
    depth: &Bound<'_, PyAny>,
    bulk: bool,
    callback: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let callback = callback.map(|c| c.clone().unbind());
    let (pos, depth) = (position.get().inner, perft_depth(depth)?);
    let split = interruptible(py, |signals| {
        // A callback's exception stops the count as a signal's does.
        let failure: RefCell<Option<PyErr>> = RefCell::new(None);
        let mut on_move = |m: &core::Move, nodes: u64| {
            let Some(callback) = callback.as_ref() else { return };
            if failure.borrow().is_none() {
                if let Err(error) = Python::attach(|py| callback.call1(py, (m.uci(), nodes)).map(drop)) {
                    *failure.borrow_mut() = Some(error);
                }
            }
        };
        let interrupt = StopOnFailure { signals: &mut *signals, failure: &failure };
        let result = core::divide_each(&pos, depth, bulk, interrupt, &mut on_move);
        if let Some(error) = failure.into_inner() {
            signals.fail(error);
        }
        result
    })?;
    let mut split: Vec<(String, u64)> = split.into_iter().map(|(m, n)| (m.uci(), n)).collect();
    split.sort_unstable();
    let dict = PyDict::new(py);
    for (uci, n) in split {
        dict.set_item(uci, n)?;
    }
    Ok(dict)
}

/// Stops a count when a signal handler or a callback has raised.
struct StopOnFailure<'a> {
    signals: &'a mut Signals,
    failure: &'a RefCell<Option<PyErr>>,
}

impl Interrupt for StopOnFailure<'_> {
    fn should_stop(&mut self) -> bool {
        self.failure.borrow().is_some() || (&mut *self.signals).should_stop()
    }
}

/// What a batch of random playouts came to: frozen, hashable, picklable; two tallies add up.
#[pyclass(frozen, eq, hash, module = "congo", name = "PlayoutStats", get_all)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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
    /// A tally (normally made by `random_playouts`). Raises `ValueError` unless the wins and draws
    /// add up to the games.
    #[new]
    #[pyo3(signature = (games = None, white_wins = None, black_wins = None, draws = None, plies = None))]
    fn new(
        games: Option<&Bound<'_, PyAny>>,
        white_wins: Option<&Bound<'_, PyAny>>,
        black_wins: Option<&Bound<'_, PyAny>>,
        draws: Option<&Bound<'_, PyAny>>,
        plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PlayoutStats> {
        let count = |value: Option<&Bound<'_, PyAny>>, name| {
            value.map_or(Ok(0), |v| convert::ranged(v, name, 0, u64::MAX))
        };
        let (games, white_wins) = (count(games, "games")?, count(white_wins, "white_wins")?);
        let (black_wins, draws, plies) =
            (count(black_wins, "black_wins")?, count(draws, "draws")?, count(plies, "plies")?);
        let decided = u128::from(white_wins) + u128::from(black_wins) + u128::from(draws);
        if decided != u128::from(games) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "white_wins + black_wins + draws must equal games ({games}), got {decided}"
            )));
        }
        Ok(PlayoutStats { games, white_wins, black_wins, draws, plies })
    }

    /// Two tallies together (e.g. from several processes); `0 + stats` is `stats`, so that `sum()`
    /// works. Raises `OverflowError` past 2**64 - 1.
    fn __add__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PlayoutStats>() else {
            if other.is_instance_of::<pyo3::types::PyInt>() && other.eq(0)? {
                return Ok(slf.clone().into_any().unbind());
            }
            return Ok(py.NotImplemented());
        };
        let this = slf.get();
        let other = other.get();
        let sum = |a: u64, b: u64| {
            a.checked_add(b).ok_or_else(|| {
                pyo3::exceptions::PyOverflowError::new_err("PlayoutStats counts past 2**64 - 1")
            })
        };
        let total = PlayoutStats {
            games: sum(this.games, other.games)?,
            white_wins: sum(this.white_wins, other.white_wins)?,
            black_wins: sum(this.black_wins, other.black_wins)?,
            draws: sum(this.draws, other.draws)?,
            plies: sum(this.plies, other.plies)?,
        };
        Ok(Py::new(py, total)?.into_any())
    }

    /// `other + self`: the same sum (so that `sum()` starting from 0 works).
    fn __radd__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        PlayoutStats::__add__(slf, other)
    }

    fn __repr__(&self) -> String {
        format!(
            "PlayoutStats(games={}, white_wins={}, black_wins={}, draws={}, plies={})",
            self.games, self.white_wins, self.black_wins, self.draws, self.plies
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u64, u64, u64, u64, u64)) {
        let s = slf.get();
        (slf.get_type(), (s.games, s.white_wins, s.black_wins, s.draws, s.plies))
    }
}

/// Plays `games` games of uniformly random legal moves from `position`, each until the rules end
/// it or `max_plies` moves have been played (a draw); reproducible from `seed`. GIL released;
/// `KeyboardInterrupt` on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (position, games, *, seed = None, max_plies = None))]
pub fn random_playouts(
    py: Python<'_>,
    position: &Bound<'_, PyPosition>,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    max_plies: Option<&Bound<'_, PyAny>>,
) -> PyResult<PlayoutStats> {
    let pos = position.get().inner;
    let games = convert::ranged(games, "games", 0, u64::MAX)?;
    let max_plies =
        max_plies.map(|n| convert::ranged(n, "max_plies", 0, u32::MAX)).transpose()?.unwrap_or(300);
    let seed = seed.map(|n| convert::ranged(n, "seed", 0, u64::MAX)).transpose()?.unwrap_or(0);
    let s = interruptible(py, |signals| {
        core::random_playouts_interruptible(&pos, games, seed, max_plies, signals)
    })?;
    Ok(PlayoutStats {
        games: s.games,
        white_wins: s.white_wins,
        black_wins: s.black_wins,
        draws: s.draws,
        plies: s.plies,
    })
}
