//! `congo._core.Tablebase` and the bulk tablebase calls (generate, verify, stats), each crossing into
//! Rust once with the GIL released. Progress callbacks re-acquire the GIL about ten times a second;
//! if one raises (Ctrl-C included), the work stops and the exception propagates.

use std::path::PathBuf;
use std::sync::Arc;

use congo_core::tablebase::{self as tb, Dtm, Material, Progress, Tablebase, TablebaseError as CoreError};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::moves::{MoveObjects, PyMove};
use crate::position::PyPosition;

create_exception!(
    congo,
    TablebaseError,
    PyValueError,
    "A tablebase file that is damaged or not a table, a table missing where one is needed, or tables that fail verification."
);

/// The Python exception for a core tablebase error (I/O errors become the matching `OSError`).
pub fn tablebase_error(error: CoreError) -> PyErr {
    match error {
        CoreError::Io { path, error } => {
            PyErr::from(std::io::Error::new(error.kind(), format!("{}: {error}", path.display())))
        }
        CoreError::Men(_) => PyValueError::new_err(error.to_string()),
        CoreError::Internal(_) => PyRuntimeError::new_err(error.to_string()),
        CoreError::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"),
        _ => TablebaseError::new_err(error.to_string()),
    }
}

/// `(win/draw/loss, signed distance)` of a value: `(1, n)` a win in n plies, `(-1, -n)` a loss,
/// `(0, 0)` a draw.
fn value(v: Dtm) -> (i8, i32) {
    (v.wdl() as i8, v.signed())
}

/// A root move with `(wdl, dtm)` from the mover's point of view.
type RootMoveRow = (Py<PyMove>, i8, i32);

/// A directory of endgame tables, loaded table by table on first use.
#[pyclass(frozen, module = "congo._core", name = "Tablebase")]
pub struct PyTablebase {
    pub(crate) inner: Arc<Tablebase>,
}

#[pymethods]
impl PyTablebase {
    /// Opens a directory of tables; every file's header is checked now. Raises `OSError` if the
    /// directory cannot be read and `TablebaseError` for a damaged table file.
    #[new]
    fn new(py: Python<'_>, directory: PathBuf) -> PyResult<PyTablebase> {
        let inner = py.detach(move || Tablebase::open(directory)).map_err(tablebase_error)?;
        Ok(PyTablebase { inner: Arc::new(inner) })
    }

    #[getter]
    fn directory(&self) -> Option<PathBuf> {
        self.inner.directory().map(PathBuf::from)
    }

    /// The most men of any table present (0 for an empty directory).
    #[getter]
    fn max_men(&self) -> usize {
        self.inner.max_men()
    }

    /// The names of the tables present, fewest men first.
    fn materials(&self) -> Vec<String> {
        self.inner.materials().iter().map(Material::name).collect()
    }

    /// `(wdl, dtm)` for the side to move (see `value`), or `None` outside the tables.
    /// Raises `TablebaseError` if the position's table failed its check.
    fn probe(&self, py: Python<'_>, position: &Bound<'_, PyPosition>) -> PyResult<Option<(i8, i32)>> {
        let pos = position.get().inner;
        Ok(py.detach(|| self.inner.try_probe_dtm(&pos)).map_err(tablebase_error)?.map(value))
    }

    /// Every legal move with `(wdl, dtm)` of the position it leads to, from the mover's point of
    /// view, best first; `None` outside the tables.
    fn root_moves(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
    ) -> PyResult<Option<Vec<RootMoveRow>>> {
        let pos = position.get().inner;
        let Some(moves) = py.detach(|| self.inner.try_root_moves(&pos)).map_err(tablebase_error)? else {
            return Ok(None);
        };
        let objects = MoveObjects::get(py)?;
        moves
            .into_iter()
            .map(|(m, v)| {
                let (wdl, dtm) = value(v);
                Ok((objects.object(py, m.path)?, wdl, dtm))
            })
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }

    /// The tables' best line from a position: the quickest win, the slowest loss, up to
    /// `max_plies` moves (for a draw).
    fn best_line(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
        max_plies: usize,
    ) -> PyResult<Vec<Py<PyMove>>> {
        let pos = position.get().inner;
        let line = py.detach(|| self.inner.try_best_line(&pos, max_plies)).map_err(tablebase_error)?;
        let objects = MoveObjects::get(py)?;
        line.iter().map(|m| objects.object(py, m.path)).collect()
    }

    /// The name of the table that covers a position and whether it is present, or `None` for a
    /// position with more men than any table holds.
    fn table_of(&self, position: &Bound<'_, PyPosition>) -> Option<(String, bool)> {
        self.inner.table_of(&position.get().inner).map(|(m, present)| (m.name(), present))
    }

    /// Reads every table now and checks its checksum.
    fn load_all(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.inner.load_all()).map_err(tablebase_error)
    }

    fn __repr__(&self) -> String {
        let directory = self.inner.directory().unwrap_or(std::path::Path::new(""));
        format!("<Tablebase {}: {} tables>", directory.display(), self.inner.materials().len())
    }
}

/// Parses table names.
fn materials(names: Vec<String>) -> PyResult<Vec<Material>> {
    names.into_iter().map(|n| Material::parse(&n).map_err(|e| PyValueError::new_err(e.to_string()))).collect()
}

/// A progress reporter: calls `callback(tables_done, tables_total, work_done, work_total, running,
/// seconds)` and checks for Ctrl-C, with the GIL, about ten times a second. Returns `false` (stop)
/// once either raised; the error is kept for the caller.
fn reporter<'a>(
    callback: Option<&'a Py<PyAny>>,
    error: &'a mut Option<PyErr>,
) -> impl FnMut(&Progress) -> bool + 'a {
    move |p: &Progress| {
        if error.is_some() {
            return false;
        }
        let outcome = Python::attach(|py| -> PyResult<()> {
            py.check_signals()?;
            if let Some(callback) = callback {
                let running: Vec<String> = p.running.iter().map(Material::name).collect();
                callback.call1(
                    py,
                    (
                        p.tables_done,
                        p.tables_total,
                        p.work_done,
                        p.work_total,
                        running,
                        p.elapsed.as_secs_f64(),
                    ),
                )?;
            }
            Ok(())
        });
        match outcome {
            Ok(()) => true,
            Err(e) => {
                *error = Some(e);
                false
            }
        }
    }
}

/// Runs a tablebase job with the GIL released and a progress reporter; a callback's exception wins
/// over the `Cancelled` it causes.
fn run<T: Send>(
    py: Python<'_>,
    callback: Option<Py<PyAny>>,
    job: impl FnOnce(&mut dyn FnMut(&Progress) -> bool) -> Result<T, CoreError> + Send,
) -> PyResult<T> {
    let (result, error) = py.detach(move || {
        let mut error = None;
        let result = job(&mut reporter(callback.as_ref(), &mut error));
        (result, error)
    });
    match (result, error) {
        (Ok(value), _) => Ok(value),
        (Err(_), Some(error)) => Err(error),
        (Err(e), None) => Err(tablebase_error(e)),
    }
}

fn threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get)).max(1)
}

/// One generated table: `(name, positions, wins, draws, losses, longest, seconds, reused)`.
type GenerateRow = (String, u64, u64, u64, u64, u32, f64, bool);

/// Generates the tables with up to `men` men (or `tables` and what they need) into `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, force = false, tables = Vec::new(), simple = false, callback = None))]
#[allow(clippy::too_many_arguments)]
pub fn tablebase_generate(
    py: Python<'_>,
    directory: PathBuf,
    men: usize,
    threads: Option<usize>,
    force: bool,
    tables: Vec<String>,
    simple: bool,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<GenerateRow>> {
    let options = tb::GenerateOptions {
        men,
        threads: self::threads(threads),
        force: force || simple,
        tables: materials(tables)?,
    };
    let reports = run(py, callback, move |progress| {
        if simple {
            tb::simple::generate(&directory, &options, progress)
        } else {
            tb::generate(&directory, &options, progress)
        }
    })?;
    Ok(reports
        .into_iter()
        .map(|r| (r.material.name(), r.positions, r.wins, r.draws, r.losses, r.longest, r.seconds, r.reused))
        .collect())
}

/// One verified table: `(name, entries, wrong, errors, seconds)`.
type VerifyRow = (String, u64, u64, Vec<String>, f64);

/// Verifies the tables with up to `men` men (or `tables`) in `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, tables = Vec::new(), callback = None))]
pub fn tablebase_verify(
    py: Python<'_>,
    directory: PathBuf,
    men: usize,
    threads: Option<usize>,
    tables: Vec<String>,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<VerifyRow>> {
    let options = tb::VerifyOptions { men, threads: self::threads(threads), tables: materials(tables)? };
    let reports = run(py, callback, move |progress| tb::verify(&directory, &options, progress))?;
    Ok(reports.into_iter().map(|r| (r.material.name(), r.entries, r.wrong, r.errors, r.seconds)).collect())
}

/// Counts for one side to move: `(positions, wins, draws, losses, longest win, its FEN, longest
/// loss, its FEN)` (0 and `None` when there is none).
type SideRow = (u64, u64, u64, u64, u32, Option<String>, u32, Option<String>);

fn side_row(s: &tb::SideStats) -> SideRow {
    let (win, win_fen) = s.longest_win.as_ref().map_or((0, None), |(n, p)| (*n, Some(p.fen())));
    let (loss, loss_fen) = s.longest_loss.as_ref().map_or((0, None), |(n, p)| (*n, Some(p.fen())));
    (s.positions, s.wins, s.draws, s.losses, win, win_fen, loss, loss_fen)
}

/// One table's counts: `(name, white to move, black to move, full zugzwangs, half zugzwangs, an
/// example FEN)`.
type StatsRow = (String, SideRow, SideRow, u64, u64, Option<String>);

/// Counts the positions of the tables with up to `men` men (or `tables`) in `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, tables = Vec::new(), callback = None))]
pub fn tablebase_stats(
    py: Python<'_>,
    directory: PathBuf,
    men: usize,
    threads: Option<usize>,
    tables: Vec<String>,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<StatsRow>> {
    let tables = materials(tables)?;
    let threads = self::threads(threads);
    let stats = run(py, callback, move |progress| tb::stats(&directory, men, &tables, threads, progress))?;
    Ok(stats
        .iter()
        .map(|s| {
            (
                s.material.name(),
                side_row(&s.white_to_move),
                side_row(&s.black_to_move),
                s.full_zugzwangs,
                s.half_zugzwangs,
                s.zugzwang_example.as_ref().map(congo_core::Position::fen),
            )
        })
        .collect())
}
