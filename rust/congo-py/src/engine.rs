//! `congo._core.Engine`: the search engine handle, and `SearchInfo`, the record of one search or
//! one completed iteration. The Python-facing API (`congo.Engine`, `Limit`, `SearchResult`,
//! `Score`) is built on these in `congo/engine.py`.
//!
//! The GIL is released for the whole search; a progress callback re-acquires it only once per
//! completed iteration. `stop()` only sets an atomic flag, so it works from any thread while
//! another one searches.

use std::sync::{Mutex, MutexGuard, TryLockError};

use congo_core::search::{self, Engine, Limits, SearchInfo, StopHandle};
use congo_core::{self as core, Move, Outcome, Termination};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::moves::PyMove;
use crate::position::PyPosition;

/// A search engine: transposition table, threads, parameters. Searches release the GIL.
#[pyclass(frozen, module = "congo._core", name = "Engine")]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: StopHandle,
    threads: usize,
    hash_mb: usize,
}

/// One search's or one iteration's findings, as plain values.
#[pyclass(frozen, get_all, module = "congo._core", name = "SearchInfo")]
pub struct PySearchInfo {
    /// The best move (`None` when the game is over).
    r#move: Option<Py<PyMove>>,
    /// Centipawns for the side to move, or `None` for a forced result.
    cp: Option<i32>,
    /// Own moves to a forced win (negative: a forced loss; 0: already lost), or `None`.
    mate: Option<i32>,
    pv: Vec<Py<PyMove>>,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    /// Seconds since the search started.
    time: f64,
    nps: u64,
    hashfull: u32,
    /// Why there is no move: `(termination, winner)` as in `Position.outcome()`, else `None`.
    outcome: Option<(u8, Option<bool>)>,
}

fn moves_to_python(py: Python<'_>, moves: &[Move]) -> PyResult<Vec<Py<PyMove>>> {
    moves.iter().map(|m| PyMove::object(py, m.path)).collect()
}

fn outcome_code(outcome: Outcome) -> (u8, Option<bool>) {
    let code = match outcome.termination {
        Termination::LionCaptured => 1,
        Termination::NoLegalMoves => 2,
        Termination::BareLions => 3,
    };
    (code, outcome.winner.map(core::Color::is_white))
}

impl PySearchInfo {
    fn from_info(py: Python<'_>, info: &SearchInfo) -> PyResult<PySearchInfo> {
        let pv = moves_to_python(py, &info.pv)?;
        Ok(PySearchInfo {
            r#move: pv.first().map(|m| m.clone_ref(py)),
            cp: info.score.cp(),
            mate: info.score.mate(),
            pv,
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            time: info.time.as_secs_f64(),
            nps: info.nps(),
            hashfull: info.hashfull,
            outcome: None,
        })
    }

    fn from_result(py: Python<'_>, result: &search::SearchResult) -> PyResult<PySearchInfo> {
        Ok(PySearchInfo {
            r#move: result.best_move.map(|m| PyMove::object(py, m.path)).transpose()?,
            cp: result.score.cp(),
            mate: result.score.mate(),
            pv: moves_to_python(py, &result.pv)?,
            depth: result.depth,
            seldepth: result.seldepth,
            nodes: result.nodes,
            time: result.time.as_secs_f64(),
            nps: result.nps(),
            hashfull: 0,
            outcome: result.outcome.map(outcome_code),
        })
    }
}

#[pymethods]
impl PySearchInfo {
    fn __repr__(&self) -> String {
        let best = self.r#move.as_ref().map_or_else(|| "None".to_owned(), |m| m.get().path.uci());
        format!(
            "SearchInfo(move={best}, cp={:?}, mate={:?}, depth={}, nodes={})",
            self.cp, self.mate, self.depth, self.nodes
        )
    }
}

impl PyEngine {
    /// The engine, unless another search holds it.
    fn lock(&self) -> PyResult<MutexGuard<'_, Engine>> {
        match self.engine.try_lock() {
            Ok(guard) => Ok(guard),
            // A panic cannot leave the engine half-updated in a way that matters: recover it.
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this engine is already searching; wait for the search to end, or use one engine per thread",
            )),
        }
    }
}

#[pymethods]
impl PyEngine {
    /// An engine with `threads` search threads and a `hash_mb` MiB transposition table; `options` are
    /// `(name, value)` pairs from `Engine.option_info()`.
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 64, options = Vec::new()))]
    fn new(threads: i64, hash_mb: i64, options: Vec<(String, i64)>) -> PyResult<PyEngine> {
        // Out-of-range values (negative ones included) become 0, which the core rejects; the
        // messages quote what the caller passed.
        let thread_count = usize::try_from(threads).unwrap_or(0);
        let hash = usize::try_from(hash_mb).unwrap_or(0);
        let mut params = search::Params::default();
        for (name, value) in options {
            params.set(&name, value).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        let engine = Engine::with_params(thread_count, hash, params).map_err(|e| match e {
            search::EngineError::Threads(_) => PyValueError::new_err(format!(
                "threads must be from 1 to {}, got {threads}",
                search::MAX_THREADS
            )),
            search::EngineError::HashSize(_) => PyValueError::new_err(format!(
                "hash_mb must be from 1 to {}, got {hash_mb}",
                search::MAX_HASH_MB
            )),
            search::EngineError::OutOfMemory(_) => pyo3::exceptions::PyMemoryError::new_err(e.to_string()),
        })?;
        let stop = engine.stop_handle();
        Ok(PyEngine { engine: Mutex::new(engine), stop, threads: thread_count, hash_mb: hash })
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches `position` with the GIL released. `history`: Zobrist hashes of the game's earlier
    /// positions (for repetitions). `callback(info)` runs after each completed iteration; if it
    /// raises, the search stops and the exception propagates. Raises `ValueError` for bad limits
    /// and `RuntimeError` if this engine is already searching.
    #[pyo3(signature = (position, history, depth = None, nodes = None, time = None, callback = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
        history: Vec<u64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        time: Option<f64>,
        callback: Option<Py<PyAny>>,
    ) -> PyResult<PySearchInfo> {
        let limits = Limits::checked(depth, nodes, time).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let pos = position.get().inner;
        let mut guard = self.lock()?;
        let engine: &mut Engine = &mut guard;
        let stop = &self.stop;
        let (result, error) = py.detach(move || {
            let mut error: Option<PyErr> = None;
            let mut on_iteration = |info: &SearchInfo| {
                let Some(callback) = callback.as_ref() else { return };
                if error.is_some() {
                    return;
                }
                let outcome = Python::attach(|py| -> PyResult<()> {
                    let info = Py::new(py, PySearchInfo::from_info(py, info)?)?;
                    callback.call1(py, (info,))?;
                    Ok(())
                });
                if let Err(e) = outcome {
                    error = Some(e);
                    stop.stop();
                }
            };
            let result = engine.search(&pos, &history, &limits, &mut on_iteration);
            (result, error)
        });
        drop(guard);
        if let Some(error) = error {
            return Err(error);
        }
        PySearchInfo::from_result(py, &result)
    }

    /// Ends the running search (from any thread) within about a millisecond; the search returns
    /// the best move found so far. Does nothing when no search is running.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets the transposition table and move-ordering statistics (as for a new game). Raises
    /// `RuntimeError` while a search runs.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        let mut guard = self.lock()?;
        let engine: &mut Engine = &mut guard;
        py.detach(move || engine.clear());
        Ok(())
    }

    /// The static evaluation of a position, in centipawns for the side to move.
    fn evaluate(&self, position: &Bound<'_, PyPosition>) -> PyResult<i32> {
        Ok(self.lock()?.evaluate(&position.get().inner))
    }

    /// The current value of an option.
    fn get_option(&self, name: &str) -> PyResult<i64> {
        self.lock()?
            .params()
            .get(name)
            .ok_or_else(|| PyValueError::new_err(search::ParamError::Unknown(name.to_owned()).to_string()))
    }

    /// Every option: `(name, default, min, max, help)`.
    #[staticmethod]
    fn option_info() -> Vec<(&'static str, i64, i32, i32, &'static str)> {
        let defaults = search::Params::default();
        search::PARAMS
            .iter()
            .map(|p| (p.name, defaults.get(p.name).unwrap_or_default(), p.min, p.max, p.help))
            .collect()
    }
}
