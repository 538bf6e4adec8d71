//! Training data (`congo.datagen`): a worker playing the core's data games with the GIL released,
//! and the packed record's conversions. The file around the records is Python's
//! (`python/congo/datagen.py`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use congo_core::datagen::{self, Budget, DatagenConfig, GameResult, Record, RECORD_SIZE};
use congo_core::search::{self, Engine};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert;
use crate::position::PyPosition;
use crate::tablebase::PyTablebase;

/// The most random opening plies accepted.
const MAX_RANDOM_PLIES: u32 = 200;
/// The widest margin accepted, in centipawns.
const MAX_MARGIN: i32 = 10_000;

/// Plays data games on one engine, one at a time; `stop` from another thread abandons the game
/// being played.
#[pyclass(frozen, module = "congo._core", name = "DatagenWorker")]
pub struct DatagenWorker {
    config: DatagenConfig,
    engine: Mutex<Engine>,
    stop: Arc<AtomicBool>,
}

#[pymethods]
impl DatagenWorker {
    /// A worker with its engine (and the tables that label the positions within them). Raises
    /// `ValueError` for an out-of-range setting, `TypeError` for a non-int.
    #[new]
    #[pyo3(signature = (
        *, nodes = None, depth = None, min_random_plies, max_random_plies, multipv, margin,
        diversify_plies, max_plies, hash_mb, tablebase = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        nodes: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        min_random_plies: &Bound<'_, PyAny>,
        max_random_plies: &Bound<'_, PyAny>,
        multipv: &Bound<'_, PyAny>,
        margin: &Bound<'_, PyAny>,
        diversify_plies: &Bound<'_, PyAny>,
        max_plies: &Bound<'_, PyAny>,
        hash_mb: &Bound<'_, PyAny>,
        tablebase: Option<&Bound<'_, PyTablebase>>,
    ) -> PyResult<DatagenWorker> {
        // The one place the settings' ranges are checked.
        let budget = match (nodes, depth) {
            (Some(n), None) => Budget::Nodes(convert::ranged(n, "nodes", 1, search::MAX_NODES)?),
            (None, Some(d)) => Budget::Depth(convert::ranged(d, "depth", 1, search::MAX_DEPTH)?),
            _ => return Err(PyValueError::new_err("give exactly one of nodes and depth")),
        };
        let min_random_plies = convert::ranged(min_random_plies, "min_random_plies", 0, MAX_RANDOM_PLIES)?;
        let max_random_plies = convert::ranged(max_random_plies, "max_random_plies", 0, MAX_RANDOM_PLIES)?;
        if min_random_plies > max_random_plies {
            return Err(PyValueError::new_err(format!(
                "min_random_plies ({min_random_plies}) is more than max_random_plies ({max_random_plies})"
            )));
        }
        let max_plies = convert::ranged(max_plies, "max_plies", 1, datagen::MAX_GAME_PLIES)?;
        if max_random_plies >= max_plies {
            return Err(PyValueError::new_err(format!(
                "max_random_plies ({max_random_plies}) must be less than max_plies ({max_plies})"
            )));
        }
        let config = DatagenConfig {
            budget,
            min_random_plies,
            max_random_plies,
            multipv: convert::ranged_usize(multipv, "multipv", 1, search::MAX_MULTIPV)?,
            margin: convert::ranged(margin, "margin", 0, MAX_MARGIN)?,
            diversify_plies: convert::ranged(diversify_plies, "diversify_plies", 0, datagen::MAX_GAME_PLIES)?,
            max_plies,
            hash_mb: convert::ranged_usize(hash_mb, "hash_mb", 1, search::MAX_HASH_MB)?,
        };
        let tables = tablebase.map(|t| Arc::clone(&t.get().inner));
        let engine = datagen::engine(&config, tables).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(DatagenWorker { config, engine: Mutex::new(engine), stop: Arc::new(AtomicBool::new(false)) })
    }

    /// Plays games `first … first + count − 1` of a run seeded with `seed` (GIL released) and
    /// returns `(records, counts, searched, winners)`: their kept positions packed in game order,
    /// how many each game kept, the positions searched in all, and each game's winner (`True`
    /// White, `False` Black, `None` a draw). `None` if `stop` was called meanwhile.
    #[allow(clippy::type_complexity)]
    fn play<'py>(
        &self,
        py: Python<'py>,
        seed: &Bound<'_, PyAny>,
        first: &Bound<'_, PyAny>,
        count: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(Bound<'py, PyBytes>, Vec<usize>, u64, Vec<Option<bool>>)>> {
        let seed = convert::ranged(seed, "seed", 0, u64::MAX)?;
        let first = convert::ranged(first, "first", 0, u64::MAX)?;
        let count = convert::ranged(count, "count", 0, u64::MAX - first)?;
        self.stop.store(false, Ordering::Relaxed);
        let played = py.detach(|| {
            let mut engine = self.engine.lock().map_err(|_| "a data game panicked on this worker")?;
            let mut bytes = Vec::new();
            let (mut counts, mut winners, mut searched) = (Vec::new(), Vec::new(), 0u64);
            for index in first..first + count {
                let Some(game) = datagen::play_game(&mut engine, &self.config, seed, index, &self.stop)
                else {
                    return Ok(None);
                };
                for record in &game.records {
                    bytes.extend_from_slice(&datagen::pack(record).map_err(|_| "a record does not pack")?);
                }
                counts.push(game.records.len());
                winners.push(game.winner.map(congo_core::Color::is_white));
                searched += u64::from(game.searched);
            }
            Ok::<_, &str>(Some((bytes, counts, searched, winners)))
        });
        match played.map_err(PyRuntimeError::new_err)? {
            None => Ok(None),
            Some((bytes, counts, searched, winners)) => {
                Ok(Some((PyBytes::new(py, &bytes), counts, searched, winners)))
            }
        }
    }

    /// The moves of game `index` of a run seeded with `seed` (the random opening first), as
    /// UCI strings: the game the records of that index come from, replayed (GIL released).
    /// `None` if `stop` was called meanwhile.
    fn moves(
        &self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Vec<String>>> {
        let seed = convert::ranged(seed, "seed", 0, u64::MAX)?;
        let index = convert::ranged(index, "index", 0, u64::MAX)?;
        self.stop.store(false, Ordering::Relaxed);
        let played = py.detach(|| {
            let mut engine = self.engine.lock().map_err(|_| "a data game panicked on this worker")?;
            let game = datagen::play_game(&mut engine, &self.config, seed, index, &self.stop);
            Ok::<_, &str>(game.map(|g| g.moves.iter().map(congo_core::Move::uci).collect()))
        });
        played.map_err(PyRuntimeError::new_err)
    }

    /// Abandons the game being played (within one search); the next `play` plays again.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn record_error(index: usize, error: &datagen::RecordError) -> PyErr {
    PyValueError::new_err(format!("record {index}: {error}"))
}

/// Packs one record: `result` 0 loss, 1 draw, 2 win for the side to move; `game` is stored modulo
/// 2**24. `ValueError` for a value out of range.
#[pyfunction]
#[pyo3(signature = (position, *, score, result, exact, ply, game))]
pub fn datagen_pack<'py>(
    py: Python<'py>,
    position: &Bound<'_, PyPosition>,
    score: &Bound<'_, PyAny>,
    result: &Bound<'_, PyAny>,
    exact: bool,
    ply: &Bound<'_, PyAny>,
    game: &Bound<'_, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let result = match convert::ranged(result, "result", 0u8, 2)? {
        0 => GameResult::Loss,
        1 => GameResult::Draw,
        _ => GameResult::Win,
    };
    let record = Record {
        position: position.get().inner,
        score: convert::ranged(score, "score", i16::MIN, i16::MAX)?,
        result,
        exact,
        ply: convert::ranged(ply, "ply", 0, u16::MAX)?,
        game: convert::ranged(game, "game", 0, u64::MAX)?,
    };
    let bytes = datagen::pack(&record).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Unpacks records: a list of `(fen, score, result, exact, ply, game)` (`result` 0 loss, 1 draw,
/// 2 win; `game` modulo 2**24). `ValueError` naming the first bad record.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn datagen_unpack(py: Python<'_>, data: &[u8]) -> PyResult<Vec<(String, i16, u8, bool, u16, u64)>> {
    let records = py.detach(|| datagen::unpack_all(data)).map_err(|(i, e)| record_error(i, &e))?;
    Ok(records.iter().map(|r| (r.position.fen(), r.score, r.result as u8, r.exact, r.ply, r.game)).collect())
}

/// The boards of packed records, 49 signed bytes each (`+role` White, `−role` Black, 0 empty;
/// squares a1 … g7), every record checked. `ValueError` naming the first bad record.
#[pyfunction]
pub fn datagen_boards<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let boards = py.detach(|| datagen::boards(data)).map_err(|(i, e)| record_error(i, &e))?;
    let bytes: Vec<u8> = boards.into_iter().map(|b| b as u8).collect();
    Ok(PyBytes::new(py, &bytes))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DatagenWorker>()?;
    m.add_function(wrap_pyfunction!(datagen_pack, m)?)?;
    m.add_function(wrap_pyfunction!(datagen_unpack, m)?)?;
    m.add_function(wrap_pyfunction!(datagen_boards, m)?)?;
    m.add("DATAGEN_RECORD_SIZE", RECORD_SIZE)?;
    m.add("DATAGEN_MATE_SCORE", datagen::MATE_SCORE)?;
    m.add("DATAGEN_MAX_CP", datagen::MAX_CP)?;
    m.add("DATAGEN_MAX_GAME_PLIES", datagen::MAX_GAME_PLIES)?;
    m.add("DATAGEN_MAX_RANDOM_PLIES", MAX_RANDOM_PLIES)?;
    m.add("DATAGEN_MAX_MARGIN", MAX_MARGIN)?;
    Ok(())
}
