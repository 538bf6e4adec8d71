//! Learning: planes, the action space, a game played in actions, self-play games. Conversions and
//! GIL release only; the layouts live in `congo_core::learn`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use congo_core::learn::{self, Game, GameEnd, Perspective, NUM_ACTIONS, PLANE_SIZE};
use congo_core::{self as core, Color, Termination};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PySlice, PyTuple};

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
/// per jump and STOP), with the repetition rule and a ply limit. Python calls it
/// `congo.learning.GameState` (`OpenSpiel`'s word for a game under way), so that `congo.pgn.Game`,
/// the game record, is the one `Game`.
#[pyclass(module = "congo.learning", name = "GameState")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) inner: Game,
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

    /// Pickles as the class, the start and the ply limit, and every action applied, which
    /// `__setstate__` plays again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let game = slf.borrow();
        let args = (PyPosition { inner: *game.inner.start() }, game.inner.max_plies());
        (slf.get_type(), args, game.inner.actions().collect::<Vec<_>>()).into_pyobject(py)
    }

    /// Plays the actions of a pickle (see `__reduce__`). Raises `IllegalMoveError` for one that
    /// cannot be played where it stands (a tampered pickle), `ValueError` for one out of range.
    fn __setstate__(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        for action in actions.try_iter()? {
            self.inner.apply(check_action(&action?)?).map_err(|e| step_error(&e))?;
        }
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "<congo.learning.GameState at {:?}, {} plies{}>",
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

/// Converts a core start error.
fn start_error(e: &learn::vector::StartError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The output buffers of a vector of games, as Rust writes them (game-major rows).
struct Staging {
    planes: Vec<u8>,
    masks: Vec<u8>,
    rewards: Vec<f32>,
    terminations: Vec<u8>,
    truncations: Vec<u8>,
    illegal: Vec<u8>,
    final_planes: Vec<u8>,
    final_masks: Vec<u8>,
    /// `rewards` as bytes, for the copy.
    reward_bytes: Vec<u8>,
    /// Whether the final outputs changed since they were last copied.
    finals_stale: bool,
}

/// The Python bytearrays numpy views, and their buffers: Rust's rows are copied into them after a
/// step (the bindings hold no `unsafe` code, so a step cannot write them with the GIL released).
struct Published {
    arrays: [Py<PyByteArray>; 8],
    buffers: [PyBuffer<u8>; 8],
}

const PLANES: usize = 0;
const MASKS: usize = 1;
const REWARDS: usize = 2;
const TERMINATIONS: usize = 3;
const TRUNCATIONS: usize = 4;
const ILLEGAL: usize = 5;
const FINAL_PLANES: usize = 6;
const FINAL_MASKS: usize = 7;

/// N games stepped together by one call with the GIL released (`congo.learning.VectorGame` wraps
/// it with numpy views of `outputs()`).
#[pyclass(module = "congo._core", name = "VectorGameCore")]
pub struct PyVectorGame {
    inner: learn::vector::VectorGame,
    write_planes: bool,
    staging: Staging,
    published: Published,
    actions: Vec<i64>,
}

#[pymethods]
impl PyVectorGame {
    /// `starts`: the positions a game starts from (chosen at random), or `None` for starts given
    /// one by one with `restart`.
    #[new]
    #[pyo3(signature = (num_games, starts, *, seed, max_plies, side_to_move, forfeit, planes, threads))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_games: &Bound<'_, PyAny>,
        starts: Option<&Bound<'_, PyAny>>,
        seed: &Bound<'_, PyAny>,
        max_plies: &Bound<'_, PyAny>,
        side_to_move: bool,
        forfeit: bool,
        planes: bool,
        threads: &Bound<'_, PyAny>,
    ) -> PyResult<PyVectorGame> {
        let n = convert::ranged_usize(num_games, "num_games", 1, 1 << 24)?;
        let config = learn::vector::VectorConfig {
            max_plies: check_max_plies(max_plies)?,
            perspective: perspective(side_to_move),
            on_illegal: if forfeit {
                learn::vector::OnIllegal::Forfeit
            } else {
                learn::vector::OnIllegal::Error
            },
            threads: convert::ranged_usize(threads, "threads", 0, core::search::MAX_THREADS)?,
        };
        let starts = match starts {
            Some(items) => learn::vector::Starts::Positions(positions_of(items)?),
            None => learn::vector::Starts::External,
        };
        let seed = convert::ranged(seed, "seed", 0, u64::MAX)?;
        let inner = learn::vector::VectorGame::new(n, starts, config, seed).map_err(|e| start_error(&e))?;
        let staging = Staging {
            planes: vec![0; n * PLANE_SIZE],
            masks: vec![0; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            terminations: vec![0; n],
            truncations: vec![0; n],
            illegal: vec![0; n],
            final_planes: vec![0; n * PLANE_SIZE],
            final_masks: vec![0; n * NUM_ACTIONS],
            reward_bytes: vec![0; n * 4],
            finals_stale: false,
        };
        let sizes = [n * PLANE_SIZE, n * NUM_ACTIONS, n * 4, n, n, n, n * PLANE_SIZE, n * NUM_ACTIONS];
        let arrays = sizes.map(|size| PyByteArray::new_with(py, size, |_| Ok(())).map(Bound::unbind));
        let arrays = arrays.into_iter().collect::<PyResult<Vec<_>>>()?;
        let buffers =
            arrays.iter().map(|a| PyBuffer::get(a.bind(py).as_any())).collect::<PyResult<Vec<_>>>()?;
        let published = Published {
            arrays: arrays.try_into().unwrap_or_else(|_| unreachable!()),
            buffers: buffers.try_into().unwrap_or_else(|_| unreachable!()),
        };
        Ok(PyVectorGame { inner, write_planes: planes, staging, published, actions: vec![0; n] })
    }

    /// The bytearrays the outputs are copied into: planes, masks, rewards (float32), terminations,
    /// truncations, illegal, final planes, final masks.
    fn outputs<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        let arrays = self.published.arrays.iter().map(|a| a.bind(py).clone());
        PyTuple::new(py, arrays).unwrap_or_else(|_| PyTuple::empty(py))
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Restarts every game (reseeding first when `seed` is given); with external starts every
    /// game then waits for `restart`.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = seed.map(|s| convert::ranged(s, "seed", 0, u64::MAX)).transpose()?;
        let planes = self.write_planes.then_some(&mut self.staging.planes[..]);
        self.inner.reset(seed, planes, &mut self.staging.masks);
        self.publish(py, &[PLANES, MASKS])
    }

    /// Starts game `index` from `position`. `ValueError` when the game is already over there.
    fn restart(
        &mut self,
        py: Python<'_>,
        index: &Bound<'_, PyAny>,
        position: &Bound<'_, PyPosition>,
    ) -> PyResult<()> {
        let i = convert::ranged_usize(index, "index", 0, self.inner.len() - 1)?;
        let planes = self.write_planes.then_some(&mut self.staging.planes[..]);
        self.inner
            .restart(i, position.get().inner, planes, &mut self.staging.masks)
            .map_err(|e| start_error(&e))?;
        self.publish_row(py, i, PLANES, PLANE_SIZE)?;
        self.publish_row(py, i, MASKS, NUM_ACTIONS)
    }

    /// Plays one action in each game (`actions`: a buffer of `len(self)` int64), GIL released.
    /// Returns how many games ended. Raises `IllegalMoveError` naming the game, changing nothing.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<usize> {
        let buffer = PyBuffer::<i64>::get(actions)?;
        buffer.copy_to_slice(py, &mut self.actions)?;
        let staging = &mut self.staging;
        let out = learn::vector::Outputs {
            planes: self.write_planes.then_some(&mut staging.planes[..]),
            masks: &mut staging.masks,
            rewards: &mut staging.rewards,
            terminations: &mut staging.terminations,
            truncations: &mut staging.truncations,
            illegal: &mut staging.illegal,
            final_planes: &mut staging.final_planes,
            final_masks: &mut staging.final_masks,
        };
        let (inner, actions) = (&mut self.inner, &self.actions);
        let ended =
            py.detach(|| inner.step(actions, out)).map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        let mut which = vec![PLANES, MASKS, REWARDS, TERMINATIONS, TRUNCATIONS, ILLEGAL];
        if !self.write_planes {
            which.remove(0);
        }
        self.publish(py, &which)?;
        self.staging.finals_stale |= ended > 0;
        Ok(ended)
    }

    /// Copies the final planes and masks (rows of the games that ended at the last step) into their
    /// bytearrays: on demand, since most steps have no reader for them.
    fn publish_finals(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.staging.finals_stale {
            self.publish(py, &[FINAL_PLANES, FINAL_MASKS])?;
            self.staging.finals_stale = false;
        }
        Ok(())
    }

    /// The final planes and mask of game `index` (what the last step that ended it left) as bytes.
    fn final_row<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let i = convert::ranged_usize(index, "index", 0, self.inner.len() - 1)?;
        let planes = &self.staging.final_planes[i * PLANE_SIZE..(i + 1) * PLANE_SIZE];
        let mask = &self.staging.final_masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        Ok((PyBytes::new(py, planes), PyBytes::new(py, mask)))
    }

    /// Writes every game's planes as it stands into the planes output (after steps without them).
    fn encode(&mut self, py: Python<'_>) -> PyResult<()> {
        let (inner, planes) = (&self.inner, &mut self.staging.planes);
        py.detach(|| inner.encode(planes));
        self.publish(py, &[PLANES])
    }

    /// A uniformly random legal action of each game, in the perspective's frame (−1 for a game
    /// that waits for its start), into `out` (a buffer of `len(self)` int64).
    fn random_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.random_actions(&mut self.actions);
        PyBuffer::<i64>::get(out)?.copy_from_slice(py, &self.actions)
    }

    /// A copy of game `index` as a `congo.learning.GameState`.
    fn game(&self, index: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let i = convert::ranged_usize(index, "index", 0, self.inner.len() - 1)?;
        Ok(PyGame { inner: self.inner.game(i).clone() })
    }

    /// Whether game `index` ended and waits for `restart`.
    fn is_waiting(&self, index: &Bound<'_, PyAny>) -> PyResult<bool> {
        let i = convert::ranged_usize(index, "index", 0, self.inner.len() - 1)?;
        Ok(self.inner.is_waiting(i))
    }
}

impl PyVectorGame {
    /// Copies whole outputs from Rust's buffers into the published bytearrays.
    fn publish(&mut self, py: Python<'_>, which: &[usize]) -> PyResult<()> {
        for &k in which {
            let (b, staging) = (&self.published.buffers[k], &mut self.staging);
            match k {
                PLANES => b.copy_from_slice(py, &staging.planes)?,
                MASKS => b.copy_from_slice(py, &staging.masks)?,
                REWARDS => {
                    let bytes = staging.rewards.iter().flat_map(|r| r.to_ne_bytes());
                    for (out, byte) in staging.reward_bytes.iter_mut().zip(bytes) {
                        *out = byte;
                    }
                    b.copy_from_slice(py, &staging.reward_bytes)?;
                }
                TERMINATIONS => b.copy_from_slice(py, &staging.terminations)?,
                TRUNCATIONS => b.copy_from_slice(py, &staging.truncations)?,
                ILLEGAL => b.copy_from_slice(py, &staging.illegal)?,
                FINAL_PLANES => b.copy_from_slice(py, &staging.final_planes)?,
                _ => b.copy_from_slice(py, &staging.final_masks)?,
            }
        }
        Ok(())
    }

    /// Copies row `i` (of `size` bytes) of the planes or masks into its bytearray, through a
    /// memoryview of that row.
    fn publish_row(&self, py: Python<'_>, i: usize, which: usize, size: usize) -> PyResult<()> {
        if which == PLANES && !self.write_planes {
            return Ok(());
        }
        let source = if which == PLANES { &self.staging.planes } else { &self.staging.masks };
        let view = PyMemoryView::from(self.published.arrays[which].bind(py).as_any())?;
        let row = view.get_item(PySlice::new(py, (i * size) as isize, ((i + 1) * size) as isize, 1))?;
        PyBuffer::<u8>::get(&row)?.copy_from_slice(py, &source[i * size..(i + 1) * size])
    }
}

/// The module's constants and functions, added to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<StopFlag>()?;
    m.add_class::<PyVectorGame>()?;
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
