//! Learning: planes, the action space, a game played in actions, self-play games. Conversions and
//! GIL release only; the layouts live in `congo_core::learn`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use congo_core::learn::{self, Game, GameEnd, Perspective, NUM_ACTIONS, PLANE_SIZE};
use congo_core::{self as core, Color, Termination};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyTuple};

use crate::convert::{self, square};
use crate::errors::IllegalMoveError;
use crate::moves::{MoveObjects, PyMove};
use crate::position::PyPosition;

fn positions_of(items: &Bound<'_, PyAny>) -> PyResult<Vec<core::Position>> {
    let mut positions = Vec::with_capacity(items.len().unwrap_or(0));
    for item in items.try_iter()? {
        positions.push(item?.cast::<PyPosition>()?.get().inner);
    }
    Ok(positions)
}

/// Encodes positions as planes: `len(positions) * PLANE_SIZE` bytes, position-major, from White's
/// side or (`side_to_move=True`) the side to move's. GIL released; `threads` (0: every core) share a
/// large batch.
#[pyfunction]
#[pyo3(signature = (positions, repetitions = None, *, mirror = false, side_to_move = false, threads = None))]
pub fn encode_positions<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    repetitions: Option<&[u8]>,
    mirror: bool,
    side_to_move: bool,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let threads = threads
        .map(|t| convert::ranged_usize(t, "threads", 0, core::search::MAX_THREADS))
        .transpose()?
        .unwrap_or(0);
    let positions = positions_of(positions)?;
    let reps = repetitions.unwrap_or(&[]);
    if !reps.is_empty() && reps.len() != positions.len() {
        return Err(PyValueError::new_err(format!(
            "repetitions has {} entries for {} positions",
            reps.len(),
            positions.len()
        )));
    }
    let threads = if threads == 0 { cores() } else { threads };
    // Rust writes straight into the new bytearray (no second copy), with the GIL released: the object
    // is not visible to any other Python code until it is returned.
    PyByteArray::new_with(py, positions.len() * PLANE_SIZE, |out| {
        let perspective = perspective(side_to_move);
        py.detach(|| learn::encode_batch(&positions, reps, mirror, perspective, threads, out));
        Ok(())
    })
}

fn perspective(side_to_move: bool) -> Perspective {
    if side_to_move {
        Perspective::SideToMove
    } else {
        Perspective::White
    }
}

/// The number of cores, read once (the standard library reads cgroup files every time).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The position with its files mirrored (a↔g, b↔f, c↔e).
#[pyfunction]
pub fn mirror_files(position: &Bound<'_, PyPosition>) -> PyPosition {
    PyPosition { inner: learn::mirror_files(&position.get().inner) }
}

/// The action under the left–right mirror.
#[pyfunction]
pub fn mirror_action(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(learn::mirror_action(check_action(action)?))
}

/// The action seen from the other side of the board (ranks reversed): the frame of the side-to-move
/// perspective for Black.
#[pyfunction]
pub fn flip_action(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(learn::flip_action(check_action(action)?))
}

/// `(from_square, to_square)` of an action's leg, or `None` for STOP and legs that leave the board.
#[pyfunction]
pub fn action_leg(action: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
    Ok(learn::leg_of_action(check_action(action)?).ok().map(|(f, t)| (f.index(), t.index())))
}

/// The action of the leg `from_square → to_square`.
#[pyfunction]
pub fn leg_action(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<usize> {
    learn::action_of_leg(square(from_square)?, square(to_square)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An action given as a Python int, checked to be in the action space.
fn check_action(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    convert::ranged_usize(action, "action", 0, NUM_ACTIONS - 1).map_err(|e| {
        if e.is_instance_of::<PyValueError>(action.py()) {
            PyValueError::new_err(format!("action out of range: {}", e.value(action.py())))
        } else {
            e
        }
    })
}

/// A ply limit given as a Python int.
fn check_max_plies(max_plies: &Bound<'_, PyAny>) -> PyResult<u32> {
    convert::ranged(max_plies, "max_plies", 0, u32::MAX)
}

fn end_name(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Rules(Termination::LionCaptured) => "lion_captured",
        GameEnd::Rules(Termination::NoLegalMoves) => "no_legal_moves",
        GameEnd::Rules(Termination::BareLions) => "bare_lions",
        GameEnd::Repetition | GameEnd::Rules(Termination::ThreefoldRepetition) => "threefold_repetition",
        GameEnd::PlyLimit | GameEnd::Rules(Termination::MoveLimit) => "move_limit",
    }
}

fn step_error(e: &learn::StepError) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// A game played one action at a time (single-leg moves are one action, a monkey chain one action
/// per jump and STOP), with the repetition rule and a ply limit.
#[pyclass(module = "congo.learning", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    inner: Game,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (position = None, max_plies = None))]
    fn new(
        position: Option<&Bound<'_, PyPosition>>,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        let start = position.map_or_else(core::Position::start, |p| p.get().inner);
        let max_plies = max_plies.map(check_max_plies).transpose()?.unwrap_or(learn::DEFAULT_MAX_PLIES);
        Ok(PyGame { inner: Game::new(start, max_plies) })
    }

    /// The position before the move under way.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition { inner: *self.inner.position() }
    }

    /// The position the game started from.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition { inner: *self.inner.start() }
    }

    /// The player to act: `True` for White.
    #[getter]
    fn turn(&self) -> bool {
        self.inner.turn().is_white()
    }

    #[getter]
    fn plies(&self) -> u32 {
        self.inner.plies()
    }

    #[getter]
    fn max_plies(&self) -> u32 {
        self.inner.max_plies()
    }

    /// The squares of the monkey chain under way (start first), or `None`.
    #[getter]
    fn chain(&self) -> Option<Vec<usize>> {
        self.inner.chain().map(|squares| squares.iter().map(|s| s.index()).collect())
    }

    /// How often the current position occurred before.
    #[getter]
    fn repetitions(&self) -> u8 {
        self.inner.repetitions()
    }

    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// How the game ended (`"lion_captured"`, `"no_legal_moves"`, `"bare_lions"`,
    /// `"threefold_repetition"`, `"move_limit"`), or `None`.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.inner.end().map(end_name)
    }

    /// The winner once the game is over (`None` for a draw or while it goes on).
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.inner.winner().map(Color::is_white)
    }

    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }

    /// The legal-action mask: `NUM_ACTIONS` bytes, 1 where legal; with `side_to_move=True` in the
    /// side to move's frame (for Black, legal action `a` sets byte `flip_action(a)`).
    #[pyo3(signature = (*, side_to_move = false))]
    fn action_mask<'py>(&self, py: Python<'py>, side_to_move: bool) -> Bound<'py, PyByteArray> {
        let mut mask = [0u8; NUM_ACTIONS];
        self.inner.action_mask_from(perspective(side_to_move), &mut mask);
        PyByteArray::new(py, &mask)
    }

    /// The observation planes of the board as it stands: `PLANE_SIZE` bytes, from White's side or
    /// the side to move's.
    #[pyo3(signature = (*, side_to_move = false))]
    fn observation<'py>(&self, py: Python<'py>, side_to_move: bool) -> Bound<'py, PyByteArray> {
        let mut planes = [0u8; PLANE_SIZE];
        self.inner.encode(perspective(side_to_move), &mut planes);
        PyByteArray::new(py, &planes)
    }

    /// Plays one action; `True` when it completed a move. Raises `IllegalMoveError`.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner.apply(check_action(action)?).map_err(|e| step_error(&e))
    }

    /// The actions that play a legal move (no chain under way). Raises `IllegalMoveError`.
    fn actions_of(&self, mv: &Bound<'_, PyMove>) -> PyResult<Vec<usize>> {
        let m = self.find(mv)?;
        self.inner.actions_of(&m).map_err(|e| step_error(&e))
    }

    /// Plays a whole legal move. Raises `IllegalMoveError` (the game is then unchanged).
    fn push(&mut self, mv: &Bound<'_, PyMove>) -> PyResult<()> {
        let m = self.find(mv)?;
        self.inner.play(&m).map_err(|e| step_error(&e))
    }

    /// The legal moves of the current position.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        move_list(py, self.inner.legal_moves())
    }

    /// The moves played, oldest first.
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        move_list(py, self.inner.moves_played())
    }

    /// Every action applied, oldest first.
    fn actions(&self) -> Vec<usize> {
        self.inner.actions().collect()
    }

    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let game = slf.borrow();
        let restore = py.import("congo.learning")?.getattr("_restore_game")?;
        let args =
            (game.inner.start().fen(), game.inner.max_plies(), game.inner.actions().collect::<Vec<_>>());
        Ok((restore, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<congo.learning.Game at {:?}, {} plies{}>",
            self.inner.position().fen(),
            self.inner.plies(),
            self.inner.end().map_or(String::new(), |e| format!(", over: {}", end_name(e)))
        )
    }
}

/// `Move` objects for core moves, as a list.
fn move_list<'py>(py: Python<'py>, moves: &[core::Move]) -> PyResult<Bound<'py, PyList>> {
    let objects = MoveObjects::get(py)?;
    let moves = moves.iter().map(|m| objects.object(py, m.path)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, moves)
}

impl PyGame {
    fn find(&self, mv: &Bound<'_, PyMove>) -> PyResult<core::Move> {
        let path = mv.get().path;
        self.inner
            .legal_moves()
            .iter()
            .find(|m| m.path == path)
            .copied()
            .ok_or_else(|| IllegalMoveError::new_err(format!("{path} is not a legal move here")))
    }
}

/// A flag that abandons running self-play games when set (from any thread).
#[pyclass(frozen, module = "congo.selfplay", name = "StopFlag")]
#[derive(Default)]
pub struct StopFlag(Arc<AtomicBool>);

#[pymethods]
impl StopFlag {
    #[new]
    fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Abandons every game playing with this flag, within one search.
    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Lets games play again with this flag (a worker that is reused after a stop).
    fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// A self-play configuration from Python values, checked: the one place its ranges live.
fn selfplay_config(
    nodes: &Bound<'_, PyAny>,
    opening_plies: &Bound<'_, PyAny>,
    max_plies: &Bound<'_, PyAny>,
    hash_mb: Option<&Bound<'_, PyAny>>,
) -> PyResult<learn::selfplay::SelfPlayConfig> {
    Ok(learn::selfplay::SelfPlayConfig {
        nodes: convert::ranged(nodes, "nodes", 1, core::search::MAX_NODES)?,
        opening_plies: convert::ranged(opening_plies, "opening_plies", 0, u32::MAX)?,
        max_plies: convert::ranged(max_plies, "max_plies", 1, u32::MAX)?,
        hash_mb: hash_mb
            .map(|h| convert::ranged_usize(h, "hash_mb", 1, core::search::MAX_HASH_MB))
            .transpose()?
            .unwrap_or(core::search::GAME_POOL_HASH_MB),
    })
}

/// Checks a self-play configuration: `TypeError` for a non-int, `ValueError` out of range.
#[pyfunction]
#[pyo3(signature = (*, nodes, opening_plies, max_plies, hash_mb))]
pub fn check_selfplay_config(
    nodes: &Bound<'_, PyAny>,
    opening_plies: &Bound<'_, PyAny>,
    max_plies: &Bound<'_, PyAny>,
    hash_mb: &Bound<'_, PyAny>,
) -> PyResult<()> {
    selfplay_config(nodes, opening_plies, max_plies, Some(hash_mb)).map(|_| ())
}

/// Plays one self-play game (GIL released) and returns its rows as columns plus the game's result,
/// or `None` when `stop` was set before it finished.
#[pyfunction]
#[pyo3(signature = (position, seed, *, nodes, opening_plies, max_plies, hash_mb = None, stop = None))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay_game<'py>(
    py: Python<'py>,
    position: &Bound<'_, PyPosition>,
    seed: &Bound<'_, PyAny>,
    nodes: &Bound<'_, PyAny>,
    opening_plies: &Bound<'_, PyAny>,
    max_plies: &Bound<'_, PyAny>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    stop: Option<&Bound<'_, StopFlag>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let start = position.get().inner;
    let config = selfplay_config(nodes, opening_plies, max_plies, hash_mb)?;
    let seed = convert::ranged(seed, "seed", 0, u64::MAX)?;
    let stop = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| Arc::clone(&s.get().0));
    let played = py
        .detach(|| {
            let Some(game) = learn::selfplay::play_game_until(&start, &config, seed, &stop)? else {
                return Ok(None);
            };
            let positions: Vec<_> = game.rows.iter().map(|r| r.position).collect();
            let reps: Vec<_> = game.rows.iter().map(|r| r.repetitions.min(2)).collect();
            let mut planes = vec![0u8; positions.len() * PLANE_SIZE];
            learn::encode_batch(&positions, &reps, false, Perspective::White, 1, &mut planes);
            Ok::<_, learn::selfplay::EngineError>(Some((game, planes)))
        })
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let Some((game, planes)) = played else { return Ok(None) };
    let out = PyDict::new(py);
    let rows = &game.rows;
    out.set_item("fen", rows.iter().map(|r| r.position.fen()).collect::<Vec<_>>())?;
    out.set_item("planes", PyBytes::new(py, &planes))?;
    out.set_item("ply", rows.iter().map(|r| r.ply).collect::<Vec<_>>())?;
    out.set_item("turn", rows.iter().map(|r| r.position.turn().is_white()).collect::<Vec<_>>())?;
    out.set_item("score_cp", rows.iter().map(|r| r.score.cp()).collect::<Vec<_>>())?;
    out.set_item("score_mate", rows.iter().map(|r| r.score.mate()).collect::<Vec<_>>())?;
    out.set_item("best_move", rows.iter().map(|r| r.best_move.uci()).collect::<Vec<_>>())?;
    out.set_item("best_actions", rows.iter().map(|r| r.best_actions.clone()).collect::<Vec<_>>())?;
    out.set_item("value", rows.iter().map(|r| game.value_for(r)).collect::<Vec<_>>())?;
    out.set_item("opening", game.opening.iter().map(core::Move::uci).collect::<Vec<_>>())?;
    out.set_item("end", end_name(game.end))?;
    out.set_item("winner", game.winner.map(Color::is_white))?;
    out.set_item("plies", game.plies)?;
    Ok(Some(out))
}

/// The module's constants and functions, added to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<StopFlag>()?;
    m.add_function(wrap_pyfunction!(encode_positions, m)?)?;
    m.add_function(wrap_pyfunction!(mirror_files, m)?)?;
    m.add_function(wrap_pyfunction!(mirror_action, m)?)?;
    m.add_function(wrap_pyfunction!(flip_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_leg, m)?)?;
    m.add_function(wrap_pyfunction!(leg_action, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay_game, m)?)?;
    m.add_function(wrap_pyfunction!(check_selfplay_config, m)?)?;
    m.add("NUM_PLANES", learn::NUM_PLANES)?;
    m.add("PLANE_SIZE", PLANE_SIZE)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("NUM_MOVE_KINDS", learn::NUM_MOVE_KINDS)?;
    m.add("DEFAULT_MAX_PLIES", learn::DEFAULT_MAX_PLIES)?;
    m.add("STOP_ACTION", learn::STOP)?;
    m.add("PLANE_NAMES", PyTuple::new(m.py(), learn::PLANE_NAMES)?)?;
    Ok(())
}
