//! Ctrl-C during long calls. The work runs with the GIL released; every [`POLL`] it takes the GIL
//! for a moment to let Python run its signal handlers (`PyErr_CheckSignals`). A handler that raises
//! (`KeyboardInterrupt` for Ctrl-C) stops the work, and the call raises that exception.

use std::time::{Duration, Instant};

use congo_core::{Interrupt, Interrupted};
use pyo3::prelude::*;

/// How often a long call looks for signals: well inside the 100 ms a user waits for Ctrl-C, and
/// rare enough to cost nothing (taking an uncontended GIL is a fraction of a microsecond).
pub const POLL: Duration = Duration::from_millis(10);

/// Takes the GIL for a moment and runs Python's pending signal handlers; the exception one raised.
#[allow(clippy::redundant_closure_for_method_calls)] // the method's lifetime is not general enough
pub fn run_handlers() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Asks Python for pending signals every [`POLL`]; keeps the exception a handler raised.
pub struct Signals {
    next: Instant,
    error: Option<PyErr>,
}

impl Signals {
    pub fn new() -> Signals {
        Signals { next: Instant::now() + POLL, error: None }
    }

    /// Runs the signal handlers now; whether one raised.
    pub fn check(&mut self) -> bool {
        if self.error.is_none() {
            self.next = Instant::now() + POLL;
            if let Err(error) = run_handlers() {
                self.error = Some(error);
            }
        }
        self.error.is_some()
    }

    /// Stops the work with an exception (from a callback), unless one is already kept.
    pub fn fail(&mut self, error: PyErr) {
        self.error.get_or_insert(error);
    }

    /// The work's result, or the exception that stopped it.
    pub fn finish<T>(self, result: Result<T, Interrupted>) -> PyResult<T> {
        match (result, self.error) {
            (_, Some(error)) => Err(error),
            (Ok(value), None) => Ok(value),
            (Err(Interrupted), None) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted")),
        }
    }
}

impl Interrupt for &mut Signals {
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.error.is_some() {
            return true;
        }
        Instant::now() >= self.next && self.check()
    }
}

/// Runs `work` with the GIL released, stopping it on Ctrl-C (or any exception a signal handler
/// raises) within about [`POLL`].
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&mut Signals) -> Result<T, Interrupted> + Send,
) -> PyResult<T> {
    py.detach(|| {
        let mut signals = Signals::new();
        let result = work(&mut signals);
        signals.finish(result)
    })
}
