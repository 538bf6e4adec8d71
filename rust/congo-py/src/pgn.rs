//! Game records: thin wrappers over `congo_core::pgn` (`congo.pgn` builds the Python API on them).
//!
//! Events cross into Python as one list of plain objects: a `Move`, an `int` ≥ 0 (a glyph), a `str`
//! (a comment), `-1` (a variation begins) or `-2` (it ends). Errors are `RecordError` records.

use congo_core::pgn::{Event, Record, RecordError, Scanner};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::moves::PyMove;
use crate::records::record;

/// Where one game ends and the next begins, fed a line at a time (the per-handle state of
/// `congo.pgn`'s readers).
#[pyclass(module = "congo._core", name = "RecordScanner")]
pub struct PyRecordScanner {
    inner: Scanner,
}

/// The lines of one game, as found by a `RecordScanner`.
#[pyclass(frozen, module = "congo._core", name = "Record")]
pub struct PyRecord {
    inner: Record,
}

record! {
    /// A problem found in a game record: `congo.pgn` makes a `PgnError` of it.
    PyRecordError as "RecordError" in "congo._core" {
        /// The number of events before the problem, so that a reader can report it in order.
        at: usize,
        /// The line of the input where the problem is (counted from 1 in the whole input).
        line: usize,
        /// What is wrong.
        message: String,
    }
}

fn error_records(errors: Vec<RecordError>) -> Vec<PyRecordError> {
    errors.into_iter().map(|e| PyRecordError { at: e.at, line: e.line, message: e.message }).collect()
}

#[pymethods]
impl PyRecordScanner {
    #[new]
    fn new() -> PyRecordScanner {
        PyRecordScanner { inner: Scanner::new() }
    }

    /// Feeds the next line; `True` when a game is complete (take it before feeding more). Text that
    /// is not valid Unicode (lone surrogates) is read with replacement characters.
    fn feed(&mut self, line: &Bound<'_, PyString>) -> bool {
        match line.to_str() {
            Ok(text) => self.inner.feed(text),
            Err(_) => self.inner.feed(&line.to_string_lossy()),
        }
    }

    /// Reads lines from `handle.readline()` until a game is complete (or the input ends) and
    /// returns it, or `None` at the end of the input. Raises `TypeError` for a handle whose lines
    /// are not `str`; lets the handle's own errors through.
    fn read(&mut self, handle: &Bound<'_, PyAny>) -> PyResult<Option<PyRecord>> {
        let readline = handle.getattr(intern!(handle.py(), "readline"))?;
        loop {
            let line = readline.call0()?;
            let Ok(text) = line.cast::<PyString>() else {
                let kind = line.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
                return Err(PyTypeError::new_err(format!(
                    "read_game needs a text handle (opened without 'b'), got {kind} lines"
                )));
            };
            let done = match text.to_str() {
                Ok("") => return Ok(self.finish()),
                Ok(text) => self.inner.feed(text),
                Err(_) => self.inner.feed(&text.to_string_lossy()),
            };
            if done {
                return Ok(Some(self.take()));
            }
        }
    }

    /// The game fed so far, leaving the scanner ready for the next one.
    fn take(&mut self) -> PyRecord {
        PyRecord { inner: self.inner.take() }
    }

    /// At the end of the input: the last game, if one was started.
    fn finish(&mut self) -> Option<PyRecord> {
        self.inner.finish().map(|inner| PyRecord { inner })
    }

    /// The number of lines fed so far.
    #[getter]
    fn line(&self) -> usize {
        self.inner.line()
    }

    /// Whether a game has started and not been taken.
    #[getter]
    fn has_game(&self) -> bool {
        self.inner.has_game()
    }
}

#[pymethods]
impl PyRecord {
    /// The line where the game starts.
    #[getter]
    fn first_line(&self) -> usize {
        self.inner.first_line()
    }

    /// `(tags, errors)`: the tags alone, as `(name, value)` pairs.
    fn tags(&self) -> (Vec<(String, String)>, Vec<PyRecordError>) {
        let (tags, errors) = self.inner.tags();
        (tags, error_records(errors))
    }

    /// `(tags, events, result, errors, readable)`: the whole game. `readable` is `False` when no
    /// move could be read (a bad `FEN` tag, another variant).
    #[allow(clippy::type_complexity)]
    fn parse<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Vec<(String, String)>, Bound<'py, PyList>, Option<&'static str>, Vec<PyRecordError>, bool)>
    {
        let game = self.inner.parse();
        let events = PyList::empty(py);
        for event in &game.events {
            match event {
                Event::Move(m) => events.append(PyMove::object(py, m.path)?)?,
                Event::Nag(nag) => events.append(*nag)?,
                Event::Comment(text) => events.append(text)?,
                Event::BeginVariation => events.append(-1)?,
                Event::EndVariation => events.append(-2)?,
            }
        }
        Ok((game.tags, events, game.result, error_records(game.errors), game.start.is_some()))
    }
}

/// Whether `name` is a PGN tag name (the core's rule: a letter, digit or `_`, then letters, digits
/// and `_ + # = : -`).
#[pyfunction]
pub fn is_tag_name(name: &str) -> bool {
    congo_core::pgn::is_tag_name(name)
}
