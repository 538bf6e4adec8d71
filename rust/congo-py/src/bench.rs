//! `congo._core.bench`: the core's fixed search suite (`congo_core::bench`), run on a thread of its
//! own with the GIL released. The calling thread waits without the GIL, hands each finished
//! position to the callback, and every [`POLL`](crate::signals::POLL) lets Python run its signal handlers (Ctrl-C stops
//! the run and raises `KeyboardInterrupt`), as `Engine.search` does.

use std::sync::mpsc;

use congo_core::bench::{self as suite, Bench, BenchConfig, BenchEntry, BenchError};
use congo_core::search::{self, EngineError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::convert;
use crate::moves::PyMove;
use crate::pytypes;
use crate::records::record;
use crate::signals::pump;

record! {
    /// One position of the bench, searched: `congo.bench.BenchEntry`.
    PyBenchEntry as "BenchEntry" in "congo._core" {
        /// The position's place in the suite, from 0.
        index: usize,
        name: String,
        fen: String,
        /// The deepest completed iteration.
        depth: u32,
        nodes: u64,
        /// Seconds the search took.
        time: f64,
        nps: u64,
        /// The best move found (`None` never happens in the suite, whose games are all running).
        r#move: Option<Py<PyMove>>,
        /// A `congo.Score`, for the side to move.
        score: Py<PyAny>,
    }
}

record! {
    /// What a bench came to: `congo.bench.BenchResult`. `nodes` is the signature of the search
    /// when `depth`, `hash_mb` and `threads` are the defaults.
    PyBenchResult as "BenchResult" in "congo._core" {
        /// One entry per position, in the suite's order.
        entries: Vec<Py<PyBenchEntry>>,
        /// The nodes of all positions.
        nodes: u64,
        /// Seconds of search, all positions together.
        time: f64,
        /// Nodes per second over the searches.
        nps: u64,
        depth: u32,
        hash_mb: usize,
        threads: usize,
    }
}

fn entry_to_python(py: Python<'_>, entry: &BenchEntry) -> PyResult<PyBenchEntry> {
    let secs = entry.time.as_secs_f64();
    Ok(PyBenchEntry {
        index: entry.index,
        name: entry.name.to_owned(),
        fen: entry.fen.to_owned(),
        depth: entry.depth,
        nodes: entry.nodes,
        time: secs,
        nps: entry.nps(),
        r#move: entry.best_move.map(|m| PyMove::object(py, m.path)).transpose()?,
        score: pytypes::score(py, entry.score)?,
    })
}

fn bench_error(error: &BenchError) -> PyErr {
    match error {
        BenchError::Engine(EngineError::OutOfMemory(_)) => PyMemoryError::new_err(error.to_string()),
        _ => PyValueError::new_err(error.to_string()),
    }
}

/// Searches the bench suite (`bench_positions()`) to `depth` with `threads` threads and a `hash_mb`
/// MiB table, each position from a fresh engine state, with the GIL released. `callback(entry)` runs
/// on this thread after each position; if it raises, the run stops and the exception propagates.
/// Ctrl-C stops the run and raises `KeyboardInterrupt`. Raises `ValueError` for a depth outside
/// `1..=MAX_DEPTH` or bad threads or table size. With the defaults (`BENCH_DEPTH`,
/// `BENCH_HASH_MB`, one thread) the node count is the same on every machine and every run.
#[pyfunction]
#[pyo3(name = "bench", signature = (depth = None, *, hash_mb = None, threads = None, callback = None))]
pub fn run_bench(
    py: Python<'_>,
    depth: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    callback: Option<Py<PyAny>>,
) -> PyResult<PyBenchResult> {
    let depth = match depth {
        Some(d) => suite::checked_depth(convert::int(d, "depth")?).map_err(|e| bench_error(&e))?,
        None => suite::DEFAULT_DEPTH,
    };
    // The core's range checks, with the number as given in the message.
    let threads = match threads {
        Some(t) => {
            search::checked_threads(convert::int(t, "threads")?).map_err(|e| bench_error(&e.into()))?
        }
        None => suite::DEFAULT_THREADS,
    };
    let hash_mb = match hash_mb {
        Some(h) => {
            search::checked_hash_mb(convert::int(h, "hash_mb")?).map_err(|e| bench_error(&e.into()))?
        }
        None => suite::DEFAULT_HASH_MB,
    };
    let config = BenchConfig { depth, hash_mb, threads };
    let runner = Bench::new(config).map_err(|e| bench_error(&e))?;
    let stop = runner.stop_handle();
    let (report, error) = py.detach(move || {
        let (sender, receiver) = mpsc::channel::<BenchEntry>();
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("congo-bench".to_owned())
                .spawn_scoped(scope, move || runner.run(&mut |entry| drop(sender.send(entry.clone()))));
            let worker = match worker {
                Ok(handle) => handle,
                Err(e) => {
                    return (None, Some(PyRuntimeError::new_err(format!("cannot start a bench thread: {e}"))))
                }
            };
            let object =
                |py: Python<'_>, entry: &BenchEntry| Ok(Py::new(py, entry_to_python(py, entry)?)?.into_any());
            let error = pump(&receiver, callback.as_ref(), object, || stop.stop());
            (worker.join().ok(), error)
        })
    });
    if let Some(error) = error {
        return Err(error);
    }
    let report = report.ok_or_else(|| PyRuntimeError::new_err("the bench thread failed"))?;
    if !report.complete {
        return Err(PyKeyboardInterrupt::new_err("interrupted"));
    }
    let entries = report
        .entries
        .iter()
        .map(|entry| Py::new(py, entry_to_python(py, entry)?))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyBenchResult {
        entries,
        nodes: report.nodes,
        time: report.time.as_secs_f64(),
        nps: report.nps(),
        depth: config.depth,
        hash_mb: config.hash_mb,
        threads: config.threads,
    })
}

/// The positions of the bench, in order, as `(name, fen)` pairs.
#[pyfunction]
pub fn bench_positions() -> Vec<(&'static str, &'static str)> {
    suite::positions().into_iter().map(|p| (p.name, p.fen)).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBenchEntry>()?;
    m.add_class::<PyBenchResult>()?;
    m.add_function(wrap_pyfunction!(run_bench, m)?)?;
    m.add_function(wrap_pyfunction!(bench_positions, m)?)?;
    m.add("BENCH_DEPTH", suite::DEFAULT_DEPTH)?;
    m.add("BENCH_HASH_MB", suite::DEFAULT_HASH_MB)?;
    m.add("BENCH_THREADS", suite::DEFAULT_THREADS)?;
    Ok(())
}
