//! `congo._core.Engine`: the search engine handle, and the records of its findings: `SearchInfo`
//! (one completed iteration) and `SearchResult` (one search), used by Python as they are. The Python-facing API (`congo.Engine`, `Limit`, `SearchResult`,
//! `Score`) is built on these in `congo/engine.py`.
//!
//! The search runs on a thread of its own with the GIL released. The calling thread waits for it
//! without the GIL, wakes every few milliseconds to let Python run its signal handlers (Ctrl-C
//! stops the search and raises `KeyboardInterrupt`), and calls the progress callback, on the
//! caller's thread, after each completed iteration. `stop()` only sets an atomic flag, so it works
//! from any thread while another one searches.
//!
//! Who may use the engine is a *claim*, taken before anything else a search does: `stop()` ends
//! the search holding the claim, whether it runs already or is still starting (its stop flag was
//! cleared when the claim was taken, never later), and does nothing while no one holds it. A call
//! that finds the claim held by a search that was stopped (or by a short call) waits for it to
//! be given back, instead of failing: only a search that goes on is "already searching".

use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;
use std::time::Duration;

use congo_core::search::{self, Bound as ScoreBound, Engine, Limits, SearchInfo, SearchOptions, StopHandle};
use congo_core::Move;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::convert;
use crate::history::PyHistory;
use crate::moves::PyMove;
use crate::position::PyPosition;
use crate::pytypes;
use crate::records::record;
use crate::signals::{pump, POLL};

/// A search engine: transposition table, threads, parameters. Searches release the GIL.
#[pyclass(frozen, module = "congo._core", name = "Engine")]
pub struct PyEngine {
    /// Locked only by the holder of the claim, so never contended.
    engine: Mutex<Engine>,
    stop: StopHandle,
    claim: Mutex<ClaimState>,
    /// Signalled when the claim is given back.
    freed: Condvar,
    threads: usize,
    hash_mb: usize,
}

/// The claim on an engine: held by one search (starting or running) or one short call at a time.
#[derive(Default)]
struct ClaimState {
    holder: Option<Holder>,
    /// The ticket of the next claim (tickets are never reused, so a late release is harmless).
    next: u64,
}

struct Holder {
    ticket: u64,
    /// The thread that took the claim: it cannot wait for itself.
    thread: ThreadId,
    search: bool,
}

const ALREADY_SEARCHING: &str =
    "this engine is already searching; wait for the search to end, or use one engine per thread";

record! {
    /// The state of a search after a completed iteration (one per line with `multipv`), as passed to
    /// a progress callback: `congo.SearchInfo`.
    PySearchInfo as "SearchInfo" in "congo._core" {
        /// The iteration's depth in plies.
        depth: u32,
        /// The deepest ply reached, captures and extensions included.
        seldepth: u32,
        /// A `congo.Score`, for the side to move.
        score: Py<PyAny>,
        /// The principal variation: the best line found, best move first.
        pv: Vec<Py<PyMove>>,
        /// Nodes searched so far, all threads together.
        nodes: u64,
        /// Seconds since the search started.
        time: f64,
        /// Nodes per second.
        nps: u64,
        /// Transposition table use by this search, per mille.
        hashfull: u32,
        /// The line's rank, from 1 (the best).
        multipv: u32 = 1,
        /// `"exact"`; `"lower"` or `"upper"` when the score fell outside the aspiration window of
        /// an iteration still running.
        bound: String = "exact".to_owned(),
    }
    methods {
        /// The best move so far (the first move of the principal variation).
        #[getter]
        fn r#move(&self, py: Python<'_>) -> Option<Py<PyMove>> {
            self.pv.first().map(|m| m.clone_ref(py))
        }
    }
}

record! {
    /// What a search found: `congo.SearchResult`. `move` is `None` only when the game is already
    /// over; `outcome` then says how it ended.
    PySearchResult as "SearchResult" in "congo._core" {
        r#move: Option<Py<PyMove>>,
        /// A `congo.Score`, for the side to move.
        score: Py<PyAny>,
        /// The principal variation, starting with `move`.
        pv: Vec<Py<PyMove>>,
        /// The deepest completed iteration, in plies (0 when the game is over).
        depth: u32,
        nodes: u64,
        /// Seconds the search took.
        time: f64,
        nps: u64,
        seldepth: u32 = 0,
        /// Why there is no move: the finished game's `congo.Outcome`, else `None`.
        outcome: Option<Py<PyAny>> = None,
        /// The reply the engine expects (the principal variation's second move, or the table's).
        ponder: Option<Py<PyMove>> = None,
        /// Every line found, best first, each a `SearchInfo` (its `multipv` the rank); empty when
        /// the game is over.
        lines: Vec<Py<PySearchInfo>> = Vec::new(),
    }
}

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

impl PySearchInfo {
    fn from_info(py: Python<'_>, info: &SearchInfo) -> PyResult<PySearchInfo> {
        Ok(PySearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            score: pytypes::score(py, info.score)?,
            pv: moves_to_python(py, &info.pv)?,
            nodes: info.nodes,
            time: info.time.as_secs_f64(),
            nps: info.nps(),
            hashfull: info.hashfull,
            multipv: info.multipv,
            bound: bound_name(info.bound).to_owned(),
        })
    }
}

impl PySearchResult {
    fn from_result(py: Python<'_>, result: &search::SearchResult) -> PyResult<PySearchResult> {
        let lines = result
            .lines
            .iter()
            .zip(1..)
            .map(|(line, rank)| {
                Py::new(
                    py,
                    PySearchInfo {
                        depth: result.depth,
                        seldepth: result.seldepth,
                        score: pytypes::score(py, line.score)?,
                        pv: moves_to_python(py, &line.pv)?,
                        nodes: result.nodes,
                        time: result.time.as_secs_f64(),
                        nps: result.nps(),
                        hashfull: 0,
                        multipv: rank,
                        bound: bound_name(ScoreBound::Exact).to_owned(),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(PySearchResult {
            r#move: result.best_move.map(|m| PyMove::object(py, m.path)).transpose()?,
            score: pytypes::score(py, result.score)?,
            pv: moves_to_python(py, &result.pv)?,
            depth: result.depth,
            nodes: result.nodes,
            time: result.time.as_secs_f64(),
            nps: result.nps(),
            seldepth: result.seldepth,
            outcome: result.outcome.map(|o| pytypes::outcome(py, o)).transpose()?,
            ponder: result.ponder.map(|m| PyMove::object(py, m.path)).transpose()?,
            lines,
        })
    }
}

/// Gives the claim back when dropped (also when the work panics or returns early).
struct Claimed<'a> {
    owner: &'a PyEngine,
    ticket: u64,
}

impl Drop for Claimed<'_> {
    fn drop(&mut self) {
        self.owner.release_ticket(self.ticket);
    }
}

impl Claimed<'_> {
    /// The engine itself: the claim makes the lock uncontended. A panic cannot leave the engine
    /// half-updated in a way that matters: recover it.
    fn engine(&self) -> MutexGuard<'_, Engine> {
        self.owner.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

enum Attempt {
    Got(u64),
    Busy,
    Wait,
}

impl PyEngine {
    fn claim_state(&self) -> MutexGuard<'_, ClaimState> {
        self.claim.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the claim for a search (which clears the stop flag and sets pondering, so that a stop
    /// from now on ends this search) or for a short call. Waits, with the GIL released and Ctrl-C
    /// honoured, while a stopped search or a short call holds it; `RuntimeError` while a search
    /// that was not stopped holds it, or when this thread holds it.
    fn acquire(&self, py: Python<'_>, search: bool, ponder: bool) -> PyResult<u64> {
        let me = std::thread::current().id();
        let attempt = |state: &mut ClaimState| match &state.holder {
            None => {
                let ticket = state.next;
                state.next += 1;
                state.holder = Some(Holder { ticket, thread: me, search });
                if search {
                    self.stop.prepare(ponder);
                }
                Attempt::Got(ticket)
            }
            Some(holder) if holder.thread == me => Attempt::Busy,
            Some(holder) if holder.search && !self.stop.is_stopped() => Attempt::Busy,
            Some(_) => Attempt::Wait,
        };
        // The common case, an idle engine, without releasing the GIL.
        let mut outcome = attempt(&mut self.claim_state());
        loop {
            match outcome {
                Attempt::Got(ticket) => return Ok(ticket),
                Attempt::Busy => return Err(PyRuntimeError::new_err(ALREADY_SEARCHING)),
                Attempt::Wait => {}
            }
            outcome = py.detach(|| {
                let state = self.claim_state();
                let (mut state, _) =
                    self.freed.wait_timeout(state, POLL).unwrap_or_else(PoisonError::into_inner);
                attempt(&mut state)
            });
            if matches!(outcome, Attempt::Wait) {
                py.check_signals()?;
            }
        }
    }

    /// The claim for a short call, given back when the result is dropped.
    fn claimed(&self, py: Python<'_>) -> PyResult<Claimed<'_>> {
        Ok(Claimed { owner: self, ticket: self.acquire(py, false, false)? })
    }

    /// Adopts a search claim taken with `claim()`: it is given back when the result is dropped.
    fn adopt(&self, ticket: u64) -> PyResult<Claimed<'_>> {
        let state = self.claim_state();
        match &state.holder {
            Some(holder) if holder.ticket == ticket && holder.search => Ok(Claimed { owner: self, ticket }),
            _ => Err(PyRuntimeError::new_err(format!(
                "search claim {ticket} is not held (given back already, or never taken)"
            ))),
        }
    }

    fn release_ticket(&self, ticket: u64) {
        let mut state = self.claim_state();
        if state.holder.as_ref().is_some_and(|holder| holder.ticket == ticket) {
            state.holder = None;
            drop(state);
            self.freed.notify_all();
        }
    }
}

/// A `congo.Limit` (the dataclass of `congo/engine.py`), read by its public fields: what crosses
/// the boundary is the one value, checked here by the core's rules (`Limits::checked`,
/// `Limits::with_checked`, the one place their ranges live).
#[derive(FromPyObject)]
pub struct LimitFields<'py> {
    depth: Option<Bound<'py, PyAny>>,
    nodes: Option<Bound<'py, PyAny>>,
    time: Option<Bound<'py, PyAny>>,
    mate: Option<Bound<'py, PyAny>>,
    white_clock: Option<Bound<'py, PyAny>>,
    black_clock: Option<Bound<'py, PyAny>>,
    white_inc: Option<Bound<'py, PyAny>>,
    black_inc: Option<Bound<'py, PyAny>>,
    remaining_moves: Option<Bound<'py, PyAny>>,
}

/// Search limits from loosely typed values: `TypeError` for a value of the wrong type, `ValueError`
/// out of range.
fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    time: Option<&Bound<'_, PyAny>>,
    mate: Option<&Bound<'_, PyAny>>,
    clock: [Option<&Bound<'_, PyAny>>; 3],
) -> PyResult<Limits> {
    let [remaining, increment, moves_to_go] = clock;
    let int = |value: Option<&Bound<'_, PyAny>>, name| value.map(|v| convert::int(v, name)).transpose();
    let seconds =
        |value: Option<&Bound<'_, PyAny>>, name| value.map(|v| convert::seconds(v, name)).transpose();
    let (mate, moves_to_go) = (int(mate, "mate")?, int(moves_to_go, "remaining_moves")?);
    let (remaining, increment) = (seconds(remaining, "a clock")?, seconds(increment, "an increment")?);
    Limits::checked(int(depth, "depth")?, int(nodes, "nodes")?, seconds(time, "time")?)
        .and_then(|limits| limits.with_checked(mate, remaining, increment, moves_to_go))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

impl LimitFields<'_> {
    /// The limits of a search with `white` to move (only the side to move's clock counts), after
    /// checking all of them: the limits without a clock first, then each side's clock as a search
    /// on it would take it; moves to go need a clock.
    fn checked(self, white: bool) -> PyResult<Limits> {
        let common = limits(
            self.depth.as_ref(),
            self.nodes.as_ref(),
            self.time.as_ref(),
            self.mate.as_ref(),
            [None; 3],
        )?;
        let mut searched = common;
        for (side, clock, increment) in
            [(true, &self.white_clock, &self.white_inc), (false, &self.black_clock, &self.black_inc)]
        {
            if clock.is_none() && increment.is_none() {
                continue;
            }
            let moves = if clock.is_some() { self.remaining_moves.as_ref() } else { None };
            let with_clock = limits(None, None, None, None, [clock.as_ref(), increment.as_ref(), moves])?;
            if side == white {
                searched = Limits { clock: with_clock.clock, ..common };
            }
        }
        if self.remaining_moves.is_some() && self.white_clock.is_none() && self.black_clock.is_none() {
            limits(None, None, None, None, [None, None, self.remaining_moves.as_ref()])?;
        }
        Ok(searched)
    }
}

/// Checks a `congo.Limit` (its `__post_init__`): `TypeError` for a value of the wrong type,
/// `ValueError` for one out of range or an increment or moves to go without a clock.
#[pyfunction]
pub fn check_limit(limit: LimitFields<'_>) -> PyResult<()> {
    limit.checked(true).map(drop)
}

/// A number of lines, checked: `1..=MAX_MULTIPV`.
fn multipv_count(multipv: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(convert::ranged(multipv, "multipv", 1, search::MAX_MULTIPV as u64)? as usize)
}

/// Checks a number of lines: `TypeError` for a non-int, `ValueError` outside `1..=MAX_MULTIPV`.
#[pyfunction]
pub fn check_multipv(multipv: &Bound<'_, PyAny>) -> PyResult<()> {
    multipv_count(multipv).map(|_| ())
}

#[pymethods]
impl PyEngine {
    /// An engine with `threads` search threads and a `hash_mb` MiB transposition table; `options` are
    /// `(name, value)` pairs from `Engine.option_info()`. The ranges are the core's
    /// (`MAX_THREADS`, `MAX_HASH_MB`, at most half the machine's memory, each option's own).
    #[new]
    #[pyo3(signature = (threads = None, hash_mb = None, options = None))]
    fn new(
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEngine> {
        let engine_error = |e: search::EngineError| match e {
            search::EngineError::OutOfMemory(_) => PyMemoryError::new_err(e.to_string()),
            _ => PyValueError::new_err(e.to_string()),
        };
        let threads = threads.map(|t| convert::int(t, "threads")).transpose()?.unwrap_or(1);
        let hash_mb = hash_mb
            .map(|h| convert::int(h, "hash_mb"))
            .transpose()?
            .unwrap_or(search::DEFAULT_HASH_MB as i128);
        let thread_count = search::checked_threads(threads).map_err(engine_error)?;
        let hash = search::checked_hash_mb(hash_mb).map_err(engine_error)?;
        let mut params = search::Params::default();
        if let Some(options) = options {
            for pair in options.try_iter()? {
                let pair = pair?;
                let (name, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "options are (name, value) pairs, got {}",
                        pair.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
                    ))
                })?;
                let name = convert::text(&name, "an option name", PyValueError::new_err)?;
                let value = convert::int(&value, &format!("option {name:?}"))?;
                params.set(&name, value).map_err(|e| PyValueError::new_err(e.to_string()))?;
            }
        }
        let engine = Engine::with_params(thread_count, hash, params).map_err(engine_error)?;
        let stop = engine.stop_handle();
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop,
            claim: Mutex::new(ClaimState::default()),
            freed: Condvar::new(),
            threads: thread_count,
            hash_mb: hash,
        })
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches `position` on a thread of its own, with the GIL released. `history`: the moves of the
    /// game that led to it (a board's `History`), for repetitions. `callback(info)` runs on this
    /// thread for each line after each completed iteration; if it raises, the search stops and the
    /// exception propagates. Ctrl-C stops the search and raises `KeyboardInterrupt`. `remaining`,
    /// `increment` and `moves_to_go`: the side to move's game clock (seconds). `root_moves`: search
    /// only these. `ponder`: no deadline until `ponderhit()`. `claim`: the ticket of a claim
    /// taken with `claim()` (a `stop()` since then is kept), given back when the search ends;
    /// without one the search takes its own. Raises `ValueError` for bad limits and
    /// `RuntimeError` if this engine is already searching.
    #[pyo3(signature = (
        position, history = None, limit = None, callback = None, *, multipv = None, root_moves = None,
        ponder = false, claim = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
        history: Option<&Bound<'_, PyHistory>>,
        limit: Option<LimitFields<'_>>,
        callback: Option<Py<PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
        root_moves: Option<Vec<PyRef<'_, PyMove>>>,
        ponder: bool,
        claim: Option<u64>,
    ) -> PyResult<PySearchResult> {
        // First the claim, so that it is given back whatever fails below.
        let claimed = match claim {
            Some(ticket) => self.adopt(ticket)?,
            None => Claimed { owner: self, ticket: self.acquire(py, true, ponder)? },
        };
        let pos = position.get().inner;
        let limits = limit
            .map_or(Ok(Limits::infinite()), |limit| limit.checked(pos.turn() == congo_core::Color::White))?;
        let multipv = multipv.map(multipv_count).transpose()?.unwrap_or(1);
        let options = SearchOptions {
            multipv,
            root_moves: root_moves.map(|moves| moves.iter().map(|m| m.path).collect()),
            ponder,
        };
        let history = history.map(|h| h.borrow().inner.search_keys(&pos)).unwrap_or_default();
        let mut guard = claimed.engine();
        // A table that fails its check during the search is not used, and the search raises.
        let tables = guard.tablebase().cloned();
        let failures_before = tables.as_ref().map_or(0, |t| t.failures());
        let engine: &mut Engine = &mut guard;
        let stop = &self.stop;
        let (result, error) = py.detach(move || {
            let (sender, receiver) = mpsc::channel::<SearchInfo>();
            std::thread::scope(|scope| {
                let searcher = std::thread::Builder::new().name("congo-search".to_owned()).spawn_scoped(
                    scope,
                    move || {
                        let mut on_iteration = |info: &SearchInfo| {
                            let _ = sender.send(info.clone());
                        };
                        // Prepared when the claim was taken: a stop since then holds.
                        engine.search_prepared(&pos, &history, &limits, &options, &mut on_iteration)
                    },
                );
                let searcher = match searcher {
                    Ok(handle) => handle,
                    Err(e) => {
                        return (
                            None,
                            Some(PyRuntimeError::new_err(format!("cannot start a search thread: {e}"))),
                        )
                    }
                };
                let object = |py: Python<'_>, info: &SearchInfo| {
                    Ok(Py::new(py, PySearchInfo::from_info(py, info)?)?.into_any())
                };
                let error = pump(&receiver, callback.as_ref(), object, || stop.stop());
                (searcher.join().ok(), error)
            })
        });
        drop(guard);
        drop(claimed);
        if let Some(error) = error {
            return Err(error);
        }
        let result = result.ok_or_else(|| PyRuntimeError::new_err("the search thread failed"))?;
        if let Some(tables) = tables.filter(|t| t.failures() != failures_before) {
            if let Some(failure) = tables.failure() {
                return Err(crate::tablebase::tablebase_error(failure));
            }
        }
        PySearchResult::from_result(py, &result)
    }

    /// Ends the running search (from any thread) within about a millisecond; the search returns
    /// the best move found so far. Does nothing when no search is running.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Takes the claim for a search to be run by `search(..., claim=ticket)`, here or on another
    /// thread, and returns its ticket: from now on `stop()` ends that search (it clears an earlier
    /// stop and sets whether the search ponders). Waits while a stopped search ends; raises
    /// `RuntimeError` if a search that goes on holds the claim. `release(ticket)` gives it back
    /// if the search is not run after all.
    #[pyo3(signature = (ponder = false))]
    fn claim(&self, py: Python<'_>, ponder: bool) -> PyResult<u64> {
        self.acquire(py, true, ponder)
    }

    /// Gives back the claim of `ticket`; does nothing if it was given back already (the search
    /// gives it back when it ends).
    fn release(&self, ticket: u64) {
        self.release_ticket(ticket);
    }

    /// Tells a pondering search that its move was played: its deadlines start now.
    fn ponderhit(&self) {
        self.stop.ponderhit();
    }

    /// Seconds set aside per move on a game clock for latency outside the search.
    #[getter]
    fn move_overhead(&self, py: Python<'_>) -> PyResult<f64> {
        Ok(self.claimed(py)?.engine().move_overhead().as_secs_f64())
    }

    #[setter]
    fn set_move_overhead(&self, py: Python<'_>, seconds: &Bound<'_, PyAny>) -> PyResult<()> {
        let seconds = convert::seconds(seconds, "move_overhead")?;
        let limit = search::MAX_MOVE_OVERHEAD.as_secs_f64();
        if !(0.0..=limit).contains(&seconds) {
            return Err(PyValueError::new_err(format!(
                "move_overhead must be from 0 to {limit} seconds, got {seconds}"
            )));
        }
        self.claimed(py)?.engine().set_move_overhead(Duration::from_secs_f64(seconds));
        Ok(())
    }

    /// Uses endgame tables in the searches (`None`: none): exact scores wherever they reach, and
    /// the distance-best move at a root they cover. Raises `RuntimeError` while a search runs.
    #[pyo3(signature = (tablebase))]
    fn set_tablebase(
        &self,
        py: Python<'_>,
        tablebase: Option<&Bound<'_, crate::tablebase::PyTablebase>>,
    ) -> PyResult<()> {
        self.claimed(py)?.engine().set_tablebase(tablebase.map(|t| std::sync::Arc::clone(&t.get().inner)));
        Ok(())
    }

    /// Reads, verifies and uses the network of a file for the learned evaluation (`None`: the
    /// compiled-in one); the transposition table is cleared. Raises `ValueError` naming the file and
    /// what is wrong with it (the engine then keeps its network), `RuntimeError` while a search runs.
    #[pyo3(signature = (path))]
    fn set_eval_file(&self, py: Python<'_>, path: Option<std::path::PathBuf>) -> PyResult<()> {
        let network = match path {
            None => None,
            Some(path) => Some(std::sync::Arc::new(
                search::Network::load(&path).map_err(|e| PyValueError::new_err(format!("EvalFile: {e}")))?,
            )),
        };
        self.claimed(py)?.engine().set_network(network);
        Ok(())
    }

    /// Forgets the transposition table and move-ordering statistics (as for a new game). Raises
    /// `RuntimeError` while a search runs.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        let claimed = self.claimed(py)?;
        let mut guard = claimed.engine();
        let engine: &mut Engine = &mut guard;
        py.detach(move || engine.clear());
        Ok(())
    }

    /// The static evaluation of a position, in centipawns for the side to move.
    fn evaluate(&self, py: Python<'_>, position: &Bound<'_, PyPosition>) -> PyResult<i32> {
        Ok(self.claimed(py)?.engine().evaluate(&position.get().inner))
    }

    /// The current value of an option.
    fn get_option(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<i64> {
        let name = convert::text(name, "an option name", PyValueError::new_err)?;
        let name: &str = &name;
        self.claimed(py)?
            .engine()
            .params()
            .get(name)
            .ok_or_else(|| PyValueError::new_err(search::ParamError::Unknown(name.to_owned()).to_string()))
    }

    /// What to warn about options set away from their defaults that change nothing (the
    /// hand-written evaluation's weights, while the learned evaluation is on), or `None`.
    fn inert_options_warning(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let inert = self.claimed(py)?.engine().params().inert();
        Ok((!inert.is_empty()).then(|| search::inert_message(&inert)))
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
