//! `congo._core.Tablebase` and the bulk tablebase calls (generate, verify, stats), each crossing into
//! Rust once with the GIL released. Progress callbacks re-acquire the GIL about ten times a second;
//! if one raises (Ctrl-C included), the work stops and the exception propagates.

use std::path::PathBuf;
use std::sync::Arc;

use congo_core::tablebase::{self as tb, Dtm, Material, Progress, Tablebase, TablebaseError as CoreError};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::convert;
use crate::moves::{MoveObjects, PyMove};
use crate::position::PyPosition;
use crate::records::record;

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

record! {
    /// A legal move and the value of the position it leads to, from the mover's point of view (see
    /// `value`): `Tablebase.root_moves` of `congo.tablebase` reads them.
    RootMove in "congo._core" {
        r#move: Py<PyMove>,
        wdl: i8,
        dtm: i32,
    }
}

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
    ) -> PyResult<Option<Vec<RootMove>>> {
        let pos = position.get().inner;
        let Some(moves) = py.detach(|| self.inner.try_root_moves(&pos)).map_err(tablebase_error)? else {
            return Ok(None);
        };
        let objects = MoveObjects::get(py)?;
        moves
            .into_iter()
            .map(|(m, v)| {
                let (wdl, dtm) = value(v);
                Ok(RootMove { r#move: objects.object(py, m.path)?, wdl, dtm })
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
        max_plies: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyMove>>> {
        let max_plies = convert::ranged_usize(max_plies, "max_plies", 0, u32::MAX as usize)?;
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

/// A thread count (default: every core), checked: `1..=MAX_THREADS`.
fn threads(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match threads {
        Some(t) => convert::ranged_usize(t, "threads", 1, congo_core::search::MAX_THREADS),
        None => Ok(std::thread::available_parallelism().map_or(1, std::num::NonZero::get)),
    }
}

/// A number of men, checked: `2..=MAX_MEN`.
fn men(men: &Bound<'_, PyAny>) -> PyResult<usize> {
    convert::ranged_usize(men, "men", 2, tb::MAX_MEN)
}

record! {
    /// One generated table: its positions (each once, up to symmetry) and the results for the side
    /// to move among them, the longest distance to mate (of a win or a loss for the side to move),
    /// and the seconds it took.
    TableReport in "congo.tablebase" {
        material: String,
        positions: u64,
        wins: u64,
        draws: u64,
        losses: u64,
        longest: u32,
        seconds: f64,
        /// The table was in the directory already and was kept.
        reused: bool,
    }
}

/// Generates the tables with up to `men` men (or `tables` and what they need) into `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, force = false, tables = Vec::new(), simple = false, callback = None))]
#[allow(clippy::too_many_arguments)]
pub fn tablebase_generate(
    py: Python<'_>,
    directory: PathBuf,
    men: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    force: bool,
    tables: Vec<String>,
    simple: bool,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<TableReport>> {
    let options = tb::GenerateOptions {
        men: self::men(men)?,
        threads: self::threads(threads)?,
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
        .map(|r| TableReport {
            material: r.material.name(),
            positions: r.positions,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            longest: r.longest,
            seconds: r.seconds,
            reused: r.reused,
        })
        .collect())
}

record! {
    /// One verified table: entries checked, how many were wrong, the first few described.
    VerifyReport in "congo.tablebase" {
        material: String,
        entries: u64,
        wrong: u64,
        errors: Vec<String>,
        seconds: f64,
    }
    methods {
        /// No entry is wrong.
        #[getter]
        fn ok(&self) -> bool {
            self.wrong == 0
        }
    }
}

/// Verifies the tables with up to `men` men (or `tables`) in `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, tables = Vec::new(), callback = None))]
pub fn tablebase_verify(
    py: Python<'_>,
    directory: PathBuf,
    men: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    tables: Vec<String>,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<VerifyReport>> {
    let options = tb::VerifyOptions {
        men: self::men(men)?,
        threads: self::threads(threads)?,
        tables: materials(tables)?,
    };
    let reports = run(py, callback, move |progress| tb::verify(&directory, &options, progress))?;
    Ok(reports
        .into_iter()
        .map(|r| VerifyReport {
            material: r.material.name(),
            entries: r.entries,
            wrong: r.wrong,
            errors: r.errors,
            seconds: r.seconds,
        })
        .collect())
}

record! {
    /// A table's positions with one side to move: how many, won, drawn, lost by the side to move,
    /// and its longest win and loss (plies, FEN; 0 and `None` when there is none).
    SideStats in "congo.tablebase" {
        positions: u64,
        wins: u64,
        draws: u64,
        losses: u64,
        longest_win: u32,
        longest_win_fen: Option<String>,
        longest_loss: u32,
        longest_loss_fen: Option<String>,
    }
}

impl SideStats {
    fn of(s: &tb::SideStats) -> SideStats {
        let (longest_win, longest_win_fen) =
            s.longest_win.as_ref().map_or((0, None), |(n, p)| (*n, Some(p.fen())));
        let (longest_loss, longest_loss_fen) =
            s.longest_loss.as_ref().map_or((0, None), |(n, p)| (*n, Some(p.fen())));
        SideStats {
            positions: s.positions,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            longest_win,
            longest_win_fen,
            longest_loss,
            longest_loss_fen,
        }
    }
}

record! {
    /// What one table says, counting every position once (a position and its mirror image twice).
    ///
    /// A mutual zugzwang is a placement where the side to move, whichever it is, would do better if
    /// the other side were to move: `full_zugzwangs` where whoever moves loses, `half_zugzwangs`
    /// where one side to move draws and the other loses.
    TableStats in "congo.tablebase" {
        material: String,
        white_to_move: Py<SideStats>,
        black_to_move: Py<SideStats>,
        full_zugzwangs: u64,
        half_zugzwangs: u64,
        zugzwang_example: Option<String>,
    }
}

/// Counts the positions of the tables with up to `men` men (or `tables`) in `directory`.
#[pyfunction]
#[pyo3(signature = (directory, men, *, threads = None, tables = Vec::new(), callback = None))]
pub fn tablebase_stats(
    py: Python<'_>,
    directory: PathBuf,
    men: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    tables: Vec<String>,
    callback: Option<Py<PyAny>>,
) -> PyResult<Vec<TableStats>> {
    let men = self::men(men)?;
    let tables = materials(tables)?;
    let threads = self::threads(threads)?;
    let stats = run(py, callback, move |progress| tb::stats(&directory, men, &tables, threads, progress))?;
    stats
        .iter()
        .map(|s| {
            Ok(TableStats {
                material: s.material.name(),
                white_to_move: Py::new(py, SideStats::of(&s.white_to_move))?,
                black_to_move: Py::new(py, SideStats::of(&s.black_to_move))?,
                full_zugzwangs: s.full_zugzwangs,
                half_zugzwangs: s.half_zugzwangs,
                zugzwang_example: s.zugzwang_example.as_ref().map(congo_core::Position::fen),
            })
        })
        .collect()
}
