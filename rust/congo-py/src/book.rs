//! `congo.book`'s reader and entries over `congo_core::book`: the book is checked and loaded once,
//! then every probe is a binary search in Rust that builds only the entries it returns.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use congo_core::book::{self as core_book, Book, BookEntry, BookError as CoreError};
use congo_core::{Path, Position};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyIterator, PyList, PyTuple};

use crate::board::PyBoardState;
use crate::convert;
use crate::moves::{move_arg, PyMove};
use crate::position::PyPosition;

create_exception!(
    congo.book,
    BookError,
    PyValueError,
    "An opening book file that is damaged, truncated, of another version or not a book at all; or entries that cannot be written (a null move, a position's move given twice)."
);

/// The Python exception for a core book error (I/O errors become the matching `OSError`).
fn book_error(error: CoreError) -> PyErr {
    match error {
        CoreError::Io { path, error } => {
            PyErr::from(std::io::Error::new(error.kind(), format!("{}: {error}", path.display())))
        }
        other => BookError::new_err(other.to_string()),
    }
}

/// One move of a book position: frozen, hashable, equal when all four fields are.
#[pyclass(frozen, eq, hash, module = "congo.book", name = "Entry")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBookEntry {
    inner: BookEntry,
}

#[pymethods]
impl PyBookEntry {
    /// An entry: the position's Zobrist hash (`Board.zobrist_hash()`), a move, its weight and the
    /// learn value (both 0 … 2³² − 1). `ValueError` naming the argument for a number out of its
    /// range, `TypeError` for a non-int, `BookError` for the null move.
    #[new]
    #[pyo3(signature = (key, r#move, weight, learn = None), text_signature = "(key, move, weight, learn=0)")]
    fn new(
        key: &Bound<'_, PyAny>,
        r#move: &Bound<'_, PyAny>,
        weight: &Bound<'_, PyAny>,
        learn: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBookEntry> {
        let key = convert::ranged(key, "key", 0, u64::MAX)?;
        let path = move_arg(r#move)?.path;
        let weight = convert::ranged(weight, "weight", 0, u32::MAX)?;
        let learn = learn.map_or(Ok(0), |n| convert::ranged(n, "learn", 0, u32::MAX))?;
        if path.is_null() {
            return Err(BookError::new_err("the null move cannot be a book move"));
        }
        Ok(PyBookEntry { inner: BookEntry { key, path, weight, learn } })
    }

    /// The position's Zobrist hash.
    #[getter]
    fn key(&self) -> u64 {
        self.inner.key
    }

    /// The move.
    #[getter]
    fn r#move(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        PyMove::object(py, self.inner.path)
    }

    /// The move as the file codes it (an int of at most 117 bits; `docs/book.md`).
    #[getter]
    fn raw_move(&self) -> u128 {
        core_book::move_code(&self.inner.path).unwrap_or_default()
    }

    /// The weight: how often, relative to its siblings, a weighted choice picks the move.
    #[getter]
    fn weight(&self) -> u32 {
        self.inner.weight
    }

    /// The learn value (0 in books made by congo).
    #[getter]
    fn learn(&self) -> u32 {
        self.inner.learn
    }

    fn __repr__(&self) -> String {
        format!(
            "Entry(key=0x{:016x}, move=Move.from_uci('{}'), weight={}, learn={})",
            self.inner.key,
            self.inner.path.uci(),
            self.inner.weight,
            self.inner.learn
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let entry = slf.get().inner;
        let args = (entry.key, PyMove::object(py, entry.path)?, entry.weight, entry.learn);
        (slf.get_type(), args).into_pyobject(py)
    }
}

/// What a probe names: a key alone, or a position (whose book moves are then checked for
/// legality, as a key collision could bring another position's moves).
enum Probe {
    Key(u64),
    Position(Position),
}

impl Probe {
    fn key(&self) -> u64 {
        match self {
            Probe::Key(key) => *key,
            Probe::Position(position) => position.zobrist_hash(),
        }
    }
}

fn probe(board: &Bound<'_, PyAny>) -> PyResult<Probe> {
    if let Ok(position) = board.cast::<PyPosition>() {
        return Ok(Probe::Position(position.get().inner));
    }
    if board.is_instance_of::<PyInt>() {
        return Ok(Probe::Key(board.extract::<u64>().map_err(|_| {
            PyValueError::new_err("a book key is a Zobrist hash: an int from 0 to 2**64 - 1")
        })?));
    }
    if let Ok(board) = board.cast::<PyBoardState>() {
        return Ok(Probe::Position(board.try_borrow()?.position(board.py()).get().inner));
    }
    let name = board.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "a book is probed with a congo.Board, a congo.Position or a Zobrist hash (int), got {name}"
    )))
}

fn excluded(moves: &Bound<'_, PyAny>) -> PyResult<Vec<Path>> {
    PyIterator::from_object(moves)
        .map_err(|_| PyTypeError::new_err("exclude_moves must be an iterable of congo.Move"))?
        .map(|item| Ok(move_arg(&item?)?.path))
        .collect()
}

/// An opening book read from a file (`congo.book.open_reader`).
#[pyclass(frozen, module = "congo.book", name = "Reader")]
pub struct PyBookReader {
    book: Book,
    path: PathBuf,
    closed: AtomicBool,
}

impl PyBookReader {
    fn book(&self) -> PyResult<&Book> {
        if self.closed.load(Ordering::Relaxed) {
            return Err(PyValueError::new_err("the book is closed"));
        }
        Ok(&self.book)
    }

    /// The entries of a probe that pass the filters, heaviest first: at most `most` of them (so
    /// that `find` builds no others).
    fn matching(
        &self,
        board: &Bound<'_, PyAny>,
        minimum_weight: u32,
        exclude_moves: Option<&Bound<'_, PyAny>>,
        most: usize,
    ) -> PyResult<Vec<BookEntry>> {
        let probe = probe(board)?;
        let exclude = exclude_moves.map_or(Ok(Vec::new()), excluded)?;
        Ok(self
            .book()?
            .entries(probe.key())
            .iter()
            .filter(|e| e.weight >= minimum_weight && !exclude.contains(&e.path))
            .filter(|e| match &probe {
                Probe::Key(_) => true,
                Probe::Position(position) => position.is_legal(&e.path),
            })
            .take(most)
            .copied()
            .collect())
    }
}

/// `random.randint(0, total - 1)` of the given generator, or of the `random` module's.
fn randint(py: Python<'_>, random: Option<&Bound<'_, PyAny>>, total: u64) -> PyResult<u64> {
    let module;
    let generator = match random {
        Some(generator) if !generator.is_none() => generator,
        _ => {
            module = py.import(intern!(py, "random"))?.into_any();
            &module
        }
    };
    let pick: u64 = generator.call_method1(intern!(py, "randint"), (0u64, total - 1))?.extract()?;
    if pick >= total {
        return Err(PyValueError::new_err(format!("random.randint(0, {}) gave {pick}", total - 1)));
    }
    Ok(pick)
}

/// A probe's `minimum_weight` (1 when not given), checked as every bounded int is: `ValueError`
/// beyond 0 … 2³² − 1, `TypeError` for a non-int (never `OverflowError`).
fn minimum(value: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    value.map_or(Ok(1), |n| convert::ranged(n, "minimum_weight", 0, u32::MAX))
}

fn new_entry(py: Python<'_>, entry: BookEntry) -> PyResult<Py<PyBookEntry>> {
    Py::new(py, PyBookEntry { inner: entry })
}

#[pymethods]
impl PyBookReader {
    /// Reads and checks a book file whole; `BookError` for a damaged, truncated or foreign file,
    /// `OSError` for one that cannot be read.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyBookReader> {
        let book = py.detach(|| Book::open(&path)).map_err(book_error)?;
        Ok(PyBookReader { book, path, closed: AtomicBool::new(false) })
    }

    /// The file read.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The number of distinct positions.
    #[getter]
    fn positions(&self) -> PyResult<usize> {
        Ok(self.book()?.positions())
    }

    /// The main entry of a position (a `Board`, a `Position` or a Zobrist hash): the heaviest of
    /// weight at least `minimum_weight` whose move is not in `exclude_moves` (and, given a board
    /// or position, is legal there). `IndexError` when there is none; `ValueError` for a
    /// `minimum_weight` outside 0 … 2³² − 1 or a closed reader, `TypeError` for something that is
    /// not a board, a position or a key.
    #[pyo3(
        signature = (board, *, minimum_weight = None, exclude_moves = None),
        text_signature = "(self, board, *, minimum_weight=1, exclude_moves=None)"
    )]
    fn find(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        minimum_weight: Option<&Bound<'_, PyAny>>,
        exclude_moves: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyBookEntry>> {
        match self.matching(board, minimum(minimum_weight)?, exclude_moves, 1)?.first() {
            Some(&entry) => new_entry(py, entry),
            None => Err(PyIndexError::new_err("no book entry for this position")),
        }
    }

    /// `find`, or `default` when the book has no entry for the position.
    #[pyo3(
        signature = (board, default = None, *, minimum_weight = None, exclude_moves = None),
        text_signature = "(self, board, default=None, *, minimum_weight=1, exclude_moves=None)"
    )]
    fn get(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        default: Option<Py<PyAny>>,
        minimum_weight: Option<&Bound<'_, PyAny>>,
        exclude_moves: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        match self.matching(board, minimum(minimum_weight)?, exclude_moves, 1)?.first() {
            Some(&entry) => Ok(new_entry(py, entry)?.into_any()),
            None => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// Every entry of a position that passes the filters of `find`, heaviest first.
    #[pyo3(
        signature = (board, *, minimum_weight = None, exclude_moves = None),
        text_signature = "(self, board, *, minimum_weight=1, exclude_moves=None)"
    )]
    fn find_all<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'_, PyAny>,
        minimum_weight: Option<&Bound<'_, PyAny>>,
        exclude_moves: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let found = self.matching(board, minimum(minimum_weight)?, exclude_moves, usize::MAX)?;
        let entries = found.into_iter().map(|e| new_entry(py, e)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, entries)
    }

    /// An entry picked uniformly among those of `find_all`, with `random.choice` of `random` (a
    /// `random.Random`; the `random` module's generator by default). `IndexError` when there is none.
    #[pyo3(
        signature = (board, *, minimum_weight = None, exclude_moves = None, random = None),
        text_signature = "(self, board, *, minimum_weight=1, exclude_moves=None, random=None)"
    )]
    fn choice(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        minimum_weight: Option<&Bound<'_, PyAny>>,
        exclude_moves: Option<&Bound<'_, PyAny>>,
        random: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyBookEntry>> {
        let found = self.matching(board, minimum(minimum_weight)?, exclude_moves, usize::MAX)?;
        if found.is_empty() {
            return Err(PyIndexError::new_err("no book entry for this position"));
        }
        let pick = randint(py, random, found.len() as u64)?;
        new_entry(py, found[pick as usize])
    }

    /// An entry picked in proportion to the weights, as python-chess picks: `random.randint(0,
    /// total - 1)` of `random` (the `random` module's generator by default) walks the entries
    /// heaviest first. Entries of weight 0 are never picked. `IndexError` when the position has no
    /// entry of positive weight.
    #[pyo3(signature = (board, *, exclude_moves = None, random = None))]
    fn weighted_choice(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        exclude_moves: Option<&Bound<'_, PyAny>>,
        random: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyBookEntry>> {
        let found = self.matching(board, 1, exclude_moves, usize::MAX)?;
        let total: u64 = found.iter().map(|e| u64::from(e.weight)).sum();
        if total == 0 {
            return Err(PyIndexError::new_err("no book entry for this position"));
        }
        let mut pick = randint(py, random, total)?;
        for entry in found {
            let weight = u64::from(entry.weight);
            if pick < weight {
                return new_entry(py, entry);
            }
            pick -= weight;
        }
        Err(PyIndexError::new_err("no book entry for this position"))
    }

    /// Every entry of the book, in the file's order (by key, then heaviest first).
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let entries = self.book()?.all().iter().map(|e| new_entry(py, *e)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, entries)
    }

    /// Iterates over every entry of the book, in the file's order.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyIterator::from_object(self.entries(py)?.as_any())
    }

    /// Whether the book has an entry (of any weight) for a position or key.
    fn __contains__(&self, board: &Bound<'_, PyAny>) -> PyResult<bool> {
        let probe = probe(board)?;
        Ok(!self.book()?.entries(probe.key()).is_empty())
    }

    /// The number of entries.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.book()?.len())
    }

    /// Ends the use of the reader: every later probe raises `ValueError`.
    fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, PyTuple>) {
        self.close();
    }

    fn __repr__(&self) -> String {
        format!("<congo.book.Reader {:?}: {} entries>", self.path.display().to_string(), self.book.len())
    }
}

/// The bytes of a book file holding `entries` (any iterable of `Entry`), sorted as the format
/// requires. `BookError` if a position's move appears twice.
#[pyfunction]
pub fn book_encode<'py>(py: Python<'py>, entries: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let mut all = Vec::new();
    for item in entries.try_iter()? {
        let item = item?;
        let entry = item.cast::<PyBookEntry>().map_err(|_| {
            PyTypeError::new_err(format!("book entries must be congo.book.Entry, got {}", item.get_type()))
        })?;
        all.push(entry.get().inner);
    }
    let bytes = py.detach(|| core_book::encode(all)).map_err(book_error)?;
    Ok(PyBytes::new(py, &bytes))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("BookEntry", py.get_type::<PyBookEntry>())?;
    m.add("BookReader", py.get_type::<PyBookReader>())?;
    m.add("BookError", py.get_type::<BookError>())?;
    m.add_function(wrap_pyfunction!(book_encode, m)?)?;
    Ok(())
}
