//! Ctrl-C during long calls. The work runs with the GIL released; every [`POLL`] it takes the GIL
//! for a moment to let Python run its signal handlers (`PyErr_CheckSignals`). A handler that raises
//! (`KeyboardInterrupt` for Ctrl-C) stops the work, and the call raises that exception.

use std::sync::mpsc;
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

/// Waits, without the GIL, for work running on a thread of its own that sends what it finds on
/// `receiver` (a search's iterations, a bench's positions) and ends by dropping the sender: hands
/// each finding to `callback` as the Python object `object` makes of it, and every [`POLL`] lets
/// Python run its signal handlers. The first exception (from the callback or a handler) calls
/// `stop` and is returned once the work has ended; later findings are not handed on.
pub fn pump<T>(
    receiver: &mpsc::Receiver<T>,
    callback: Option<&Py<PyAny>>,
    object: impl Fn(Python<'_>, &T) -> PyResult<Py<PyAny>>,
    stop: impl Fn(),
) -> Option<PyErr> {
    let mut error: Option<PyErr> = None;
    loop {
        match receiver.recv_timeout(POLL) {
            Ok(found) => {
                let (Some(callback), None) = (callback, &error) else { continue };
                let outcome = Python::attach(|py| callback.call1(py, (object(py, &found)?,)).map(drop));
                if let Err(e) = outcome {
                    error = Some(e);
                    stop();
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if error.is_none() {
                    if let Err(e) = run_handlers() {
                        error = Some(e);
                        stop();
                    }
                }
            }
            // The work has returned (its sender is gone).
            Err(mpsc::RecvTimeoutError::Disconnected) => return error,
        }
    }
}
