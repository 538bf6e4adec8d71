//! `congo-uci`: the engine over the UCI dialect of `docs/protocol.md`, as a standalone program (the
//! same as `congo uci` from the Python package, without Python).
//!
//! ```text
//! cargo run --release -p congo-core --bin congo-uci
//! ```

fn main() -> std::process::ExitCode {
    match congo_core::uci::run(std::io::stdin(), std::io::stdout()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("congo-uci: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
