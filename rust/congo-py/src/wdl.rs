//! `congo._core.wdl`: the core's win/draw/loss model (`congo_core::search::wdl`), the one
//! definition `Score.wdl()` uses.

use congo_core::search::wdl as model;
use pyo3::prelude::*;

/// `(wins, draws, losses)` per mille for an evaluation of `cp` centipawns at `ply` (moves played
/// since the start; later than the model's range counts as its end), from the side to move's view.
#[pyfunction]
#[pyo3(signature = (cp, ply = 30))] // a literal, so that Python's signature shows it (stubtest)
pub fn wdl(cp: i64, ply: u64) -> (u32, u32, u32) {
    let cp = i32::try_from(cp).unwrap_or(if cp < 0 { i32::MIN } else { i32::MAX });
    let ply = u32::try_from(ply).unwrap_or(u32::MAX);
    let w = model::wdl_cp(cp, ply);
    (w.wins, w.draws, w.losses)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(wdl, m)?)?;
    m.add("WDL_DEFAULT_PLY", model::DEFAULT_PLY)?;
    Ok(())
}

// The default of `wdl`'s `ply` above is the model's.
const _: () = assert!(model::DEFAULT_PLY == 30);
