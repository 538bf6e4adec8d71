//! `congo._core.run_uci()`: the protocol server of `congo_core::uci` on the process's standard
//! input and output, with the GIL released. Ctrl-C (SIGINT) is noticed within 50 ms: the running
//! search is stopped and `KeyboardInterrupt` raised.

use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use congo_core::uci::{spawn_reader, Flow, Input, Server};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

/// How often the loop looks for a pending signal while no input arrives.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs the engine protocol on stdin/stdout until `quit` or the end of the input.
#[pyfunction]
#[allow(clippy::redundant_closure_for_method_calls)] // the closure is generic over the GIL lifetime
pub fn run_uci(py: Python<'_>) -> PyResult<()> {
    let mut server = Server::new(std::io::stdout()).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    let lines = spawn_reader(std::io::stdin());
    let serving = &mut server;
    let interrupted = py.detach(move || loop {
        let item = match lines.recv_timeout(SIGNAL_POLL) {
            Ok(item) => item,
            Err(RecvTimeoutError::Disconnected) => Input::Eof,
            Err(RecvTimeoutError::Timeout) => match Python::attach(|py| py.check_signals()) {
                Ok(()) => continue,
                Err(signal) => break Some(signal),
            },
        };
        let eof = item == Input::Eof;
        if serving.handle_input(item) == Flow::Quit {
            if eof {
                serving.end_of_input();
            }
            break None;
        }
    });
    py.detach(|| server.shutdown());
    interrupted.map_or(Ok(()), Err)
}
