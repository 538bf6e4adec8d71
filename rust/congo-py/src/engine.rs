//! `congo._core.Engine`: the search engine handle, and `SearchInfo`, the record of one search or
//! one completed iteration. The Python-facing API (`congo.Engine`, `Limit`, `SearchResult`,
//! `Score`) is built on these in `congo/engine.py`.
//!
//! The GIL is released for the whole search; a progress callback re-acquires it only once per
//! completed iteration. `stop()` only sets an atomic flag, so it works from any thread while
//! another one searches.

use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use congo_core::search::{self, Bound as ScoreBound, Engine, Limits, SearchInfo, SearchOptions, StopHandle};
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
    /// The line's number, from 1 (`MultiPV`).
    multipv: u32,
    /// `"exact"`, or `"lower"` / `"upper"` for a score outside an aspiration window.
    bound: &'static str,
    /// The expected reply to ponder on (results only).
    ponder: Option<Py<PyMove>>,
    /// Every line of a result, best first, as `(cp, mate, pv)` (results only).
    lines: Vec<PyLine>,
}

/// One line of a result: centipawns or mate, and the moves.
type PyLine = (Option<i32>, Option<i32>, Vec<Py<PyMove>>);

fn bound_name(bound: ScoreBound) -> &'static str {
    match bound {
        ScoreBound::Exact => "exact",
        ScoreBound::Lower => "lower",
        ScoreBound::Upper => "upper",
    }
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
            multipv: info.multipv,
            bound: bound_name(info.bound),
            ponder: None,
            lines: Vec::new(),
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
            multipv: 1,
            bound: bound_name(ScoreBound::Exact),
            ponder: result.ponder.map(|m| PyMove::object(py, m.path)).transpose()?,
            lines: result
                .lines
                .iter()
                .map(|line| Ok((line.score.cp(), line.score.mate(), moves_to_python(py, &line.pv)?)))
                .collect::<PyResult<_>>()?,
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
    /// positions (for repetitions). `callback(info)` runs for each line after each completed
    /// iteration; if it raises, the search stops and the exception propagates. `remaining`,
    /// `increment` and `moves_to_go`: the side to move's game clock (seconds). `root_moves`: search
    /// only these. `ponder`: no deadline until `ponderhit()`. `prepared`: the search was
    /// prepared with `prepare()` (a `stop()` since then is kept). Raises `ValueError` for bad
    /// limits and `RuntimeError` if this engine is already searching.
    #[pyo3(signature = (
        position, history, depth = None, nodes = None, time = None, callback = None, *,
        mate = None, remaining = None, increment = None, moves_to_go = None, multipv = 1,
        root_moves = None, ponder = false, prepared = false
    ))]
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
        mate: Option<i64>,
        remaining: Option<f64>,
        increment: Option<f64>,
        moves_to_go: Option<i64>,
        multipv: i64,
        root_moves: Option<Vec<PyRef<'_, PyMove>>>,
        ponder: bool,
        prepared: bool,
    ) -> PyResult<PySearchInfo> {
        let limits = Limits::checked(depth, nodes, time)
            .and_then(|limits| limits.with_checked(mate, remaining, increment, moves_to_go))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let multipv = usize::try_from(multipv)
            .ok()
            .filter(|n| (1..=search::MAX_MULTIPV).contains(n))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "multipv must be from 1 to {}, got {multipv}",
                    search::MAX_MULTIPV
                ))
            })?;
        let options = SearchOptions {
            multipv,
            root_moves: root_moves.map(|moves| moves.iter().map(|m| m.path).collect()),
            ponder,
        };
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
            let result = if prepared {
                engine.search_prepared(&pos, &history, &limits, &options, &mut on_iteration)
            } else {
                engine.search_with(&pos, &history, &limits, &options, &mut on_iteration)
            };
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

    /// Prepares the next `search(..., prepared=True)`: clears an earlier stop and sets whether it
    /// ponders, so that a `stop()` sent before that search starts (from another thread) holds.
    #[pyo3(signature = (ponder = false))]
    fn prepare(&self, ponder: bool) {
        self.stop.prepare(ponder);
    }

    /// Tells a pondering search that its move was played: its deadlines start now.
    fn ponderhit(&self) {
        self.stop.ponderhit();
    }

    /// Seconds set aside per move on a game clock for latency outside the search.
    #[getter]
    fn move_overhead(&self) -> PyResult<f64> {
        Ok(self.lock()?.move_overhead().as_secs_f64())
    }

    #[setter]
    fn set_move_overhead(&self, seconds: f64) -> PyResult<()> {
        let limit = search::MAX_MOVE_OVERHEAD.as_secs_f64();
        if !(0.0..=limit).contains(&seconds) {
            return Err(PyValueError::new_err(format!(
                "move_overhead must be from 0 to {limit} seconds, got {seconds}"
            )));
        }
        self.lock()?.set_move_overhead(Duration::from_secs_f64(seconds));
        Ok(())
    }

    /// Uses endgame tables in the searches (`None`: none): exact scores wherever they reach, and
    /// the distance-best move at a root they cover. Raises `RuntimeError` while a search runs.
    #[pyo3(signature = (tablebase))]
    fn set_tablebase(&self, tablebase: Option<&Bound<'_, crate::tablebase::PyTablebase>>) -> PyResult<()> {
        self.lock()?.set_tablebase(tablebase.map(|t| std::sync::Arc::clone(&t.get().inner)));
        Ok(())
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
