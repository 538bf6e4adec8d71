//! Many games stepped at once: one call plays one action in each of N [`Game`]s and writes the
//! planes, legal-action masks, rewards, terminations and truncations into buffers the caller owns
//! (nothing is allocated per step once every game's buffers have grown to their size, except the
//! threads a step is split over, which are started for each step).
//!
//! Each game is exactly a [`Game`] (monkey chains one jump per action with the same player acting
//! again, drowning, the repetition rule, the ply limit): the vector adds only the batching, the
//! automatic restart of a game that ended, and a random generator per game so that results do not
//! depend on how the games are split over threads.
//!
//! A game that ends is restarted in the same step (Gymnasium's "same step" autoreset): its row of
//! the outputs then shows the new game, so every mask returned holds a legal action, and the ended
//! game's last planes and mask go to the `final_*` buffers.
//!
//! ```
//! use congo_core::learn::vector::{Outputs, Starts, VectorConfig, VectorGame};
//! use congo_core::learn::{NUM_ACTIONS, PLANE_SIZE};
//!
//! let n = 4;
//! let mut games = VectorGame::new(n, Starts::usual(), VectorConfig::default(), 7).unwrap();
//! let (mut planes, mut masks) = (vec![0; n * PLANE_SIZE], vec![0; n * NUM_ACTIONS]);
//! let (mut final_planes, mut final_masks) = (vec![0; n * PLANE_SIZE], vec![0; n * NUM_ACTIONS]);
//! let (mut rewards, mut terminations, mut truncations, mut illegal) =
//!     (vec![0.0; n], vec![0; n], vec![0; n], vec![0; n]);
//! games.reset(None, Some(&mut planes), &mut masks);
//! let mut actions = vec![0; n];
//! for _ in 0..100 {
//!     games.random_actions(&mut actions);
//!     let out = Outputs {
//!         planes: Some(&mut planes),
//!         masks: &mut masks,
//!         rewards: &mut rewards,
//!         terminations: &mut terminations,
//!         truncations: &mut truncations,
//!         illegal: &mut illegal,
//!         final_planes: &mut final_planes,
//!         final_masks: &mut final_masks,
//!     };
//!     games.step(&actions, out).unwrap();
//! }
//! assert!(masks.chunks(NUM_ACTIONS).all(|mask| mask.contains(&1)));
//! ```

use core::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Barrier;

use super::actions::{flip_action, NUM_ACTIONS};
use super::game::{Game, GameEnd, Step, StepError};
use super::planes::{Perspective, PLANE_SIZE};
use super::DEFAULT_MAX_PLIES;
use crate::piece::Color;
use crate::position::Position;

/// Where a game starts (at the first reset and after each end).
#[derive(Clone, Debug)]
pub enum Starts {
    /// One of these positions, chosen uniformly by the game's random generator (the first and only
    /// one when there is one).
    Positions(Vec<Position>),
    /// The caller gives each start with [`VectorGame::restart`]: a game that ends waits for it.
    External,
}

impl Starts {
    /// The usual start position.
    pub fn usual() -> Starts {
        Starts::Positions(vec![Position::start()])
    }
}

/// What an illegal action does.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum OnIllegal {
    /// [`VectorGame::step`] returns an error naming the game, and no game changes.
    #[default]
    Error,
    /// The game is lost by the player who acted (reward −1, terminated, `illegal` set), as in the
    /// Gymnasium environment, and restarted.
    Forfeit,
}

/// How the games are played.
#[derive(Copy, Clone, Debug)]
pub struct VectorConfig {
    /// Each game is drawn (truncated) after this many moves; 0: no limit.
    pub max_plies: u32,
    /// Whose side planes, masks and actions are seen from.
    pub perspective: Perspective,
    pub on_illegal: OnIllegal,
    /// Threads that share a step (0: every core). Below [`MIN_GAMES_PER_THREAD`] games a thread
    /// does not pay for itself and fewer are used.
    pub threads: usize,
}

impl Default for VectorConfig {
    fn default() -> VectorConfig {
        VectorConfig {
            max_plies: DEFAULT_MAX_PLIES,
            perspective: Perspective::White,
            on_illegal: OnIllegal::Error,
            threads: 1,
        }
    }
}

/// The fewest games a thread of a step is given: starting a thread costs about as much as stepping
/// a hundred games.
pub const MIN_GAMES_PER_THREAD: usize = 256;

/// The buffers one step writes, each holding one row per game, game-major.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// The planes after the step ([`PLANE_SIZE`] bytes a game), or `None` to skip them (see
    /// [`VectorGame::encode`]).
    pub planes: Option<&'a mut [u8]>,
    /// The legal-action masks after the step ([`NUM_ACTIONS`] bytes a game, 1 = legal).
    pub masks: &'a mut [u8],
    /// +1 when the action won the game for the player who played it, −1 when it lost it, else 0.
    pub rewards: &'a mut [f32],
    /// 1 when the game ended by the rules, a threefold repetition or a forfeit.
    pub terminations: &'a mut [u8],
    /// 1 when the game reached its ply limit.
    pub truncations: &'a mut [u8],
    /// 1 when the action was illegal and forfeited the game ([`OnIllegal::Forfeit`]).
    pub illegal: &'a mut [u8],
    /// For the games that ended: their last planes (only those rows are written).
    pub final_planes: &'a mut [u8],
    /// For the games that ended: their last mask, what [`Game::action_mask`] gives there (all zeros
    /// when the game is over; the unchanged position's mask after a forfeit).
    pub final_masks: &'a mut [u8],
}

/// An action that cannot be played, and the game it was meant for.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct VectorError {
    pub game: usize,
    /// The action as given (in the perspective's frame).
    pub action: i64,
    pub error: StepError,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (game, action) = (self.game, self.action);
        match &self.error {
            StepError::GameOver => {
                write!(f, "game {game} has ended and waits for its next start (restart it first)")
            }
            StepError::Illegal { reason, .. } => {
                write!(f, "game {game}: action {action} is not legal: {reason}")
            }
            StepError::IllegalMove(text) => write!(f, "game {game}: {text}"),
        }
    }
}

impl std::error::Error for VectorError {}

/// A start position where the game is already over, or no start at all.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct StartError(pub String);

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

/// One game and what the vector keeps beside it.
#[derive(Clone, Debug)]
struct Slot {
    game: Game,
    /// The legal actions of the mask last written, in the perspective's frame.
    legal: Vec<u16>,
    rng: u64,
    /// Ended, waiting for [`VectorGame::restart`] ([`Starts::External`]).
    waiting: bool,
    /// The checked action of the step under way (`None`: forfeited).
    step: Option<Step>,
}

/// The next number of a `SplitMix64` generator.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number below `n` (> 0), uniform enough for choosing among a few thousand items.
fn below(state: &mut u64, n: usize) -> usize {
    ((u128::from(next_random(state)) * n as u128) >> 64) as usize
}

/// The rows of game `i`'s outputs.
struct Row<'a> {
    planes: Option<&'a mut [u8]>,
    mask: &'a mut [u8],
    reward: &'a mut f32,
    terminated: &'a mut u8,
    truncated: &'a mut u8,
    illegal: &'a mut u8,
    final_planes: &'a mut [u8],
    final_mask: &'a mut [u8],
}

/// N games played in actions, stepped together.
#[derive(Clone, Debug)]
pub struct VectorGame {
    slots: Vec<Slot>,
    starts: Starts,
    config: VectorConfig,
    /// The threads asked for, every core read once for 0 (the standard library reads cgroup files
    /// every time).
    threads: usize,
}

impl VectorGame {
    /// `num_games` games (at least one) starting from `starts`, with random generators seeded from
    /// `seed`. Returns an error when a start position is already over or none is given.
    pub fn new(
        num_games: usize,
        starts: Starts,
        config: VectorConfig,
        seed: u64,
    ) -> Result<VectorGame, StartError> {
        if num_games == 0 {
            return Err(StartError("a vector of games needs at least one game".to_owned()));
        }
        if let Starts::Positions(positions) = &starts {
            if positions.is_empty() {
                return Err(StartError("no start position given".to_owned()));
            }
            for pos in positions {
                check_start(pos, config.max_plies)?;
            }
        }
        let first = match &starts {
            Starts::Positions(positions) => positions[0],
            Starts::External => Position::start(),
        };
        let slot = Slot {
            game: Game::new(first, config.max_plies),
            legal: Vec::new(),
            rng: 0,
            waiting: matches!(starts, Starts::External),
            step: None,
        };
        let threads = if config.threads == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            config.threads
        };
        let mut games = VectorGame { slots: vec![slot; num_games], starts, config, threads };
        games.seed(seed);
        Ok(games)
    }

    fn seed(&mut self, seed: u64) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            // Each game its own stream: the same results on any number of threads.
            let mut mix = seed ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
            slot.rng = next_random(&mut mix);
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub fn config(&self) -> &VectorConfig {
        &self.config
    }

    /// Game `i` as it stands.
    pub fn game(&self, i: usize) -> &Game {
        &self.slots[i].game
    }

    /// Whether game `i` ended and waits for [`VectorGame::restart`].
    pub fn is_waiting(&self, i: usize) -> bool {
        self.slots[i].waiting
    }

    /// Restarts every game (reseeding the generators first when `seed` is given) and writes the
    /// planes (when given) and masks. With [`Starts::External`] every game then waits for
    /// [`VectorGame::restart`] and its rows are not written.
    pub fn reset(&mut self, seed: Option<u64>, mut planes: Option<&mut [u8]>, masks: &mut [u8]) {
        if let Some(seed) = seed {
            self.seed(seed);
        }
        let (config, starts) = (self.config, &self.starts);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            match starts {
                Starts::Positions(positions) => {
                    start_next(slot, positions, config.max_plies);
                    let planes = planes.as_deref_mut().map(|p| &mut p[i * PLANE_SIZE..(i + 1) * PLANE_SIZE]);
                    write_row(slot, config.perspective, planes, &mut masks[i * NUM_ACTIONS..]);
                }
                Starts::External => slot.waiting = true,
            }
        }
    }

    /// Starts game `i` from `position` and writes its rows of `planes` (when given) and `masks`.
    /// An error (and no change) when the game is over there.
    pub fn restart(
        &mut self,
        i: usize,
        position: Position,
        planes: Option<&mut [u8]>,
        masks: &mut [u8],
    ) -> Result<(), StartError> {
        check_start(&position, self.config.max_plies)?;
        let slot = &mut self.slots[i];
        slot.game.restart(position, self.config.max_plies);
        slot.waiting = false;
        let planes = planes.map(|p| &mut p[i * PLANE_SIZE..(i + 1) * PLANE_SIZE]);
        write_row(slot, self.config.perspective, planes, &mut masks[i * NUM_ACTIONS..]);
        Ok(())
    }

    /// Writes the planes of every game as it stands (for steps that skipped them).
    pub fn encode(&self, planes: &mut [u8]) {
        for (slot, out) in self.slots.iter().zip(planes.chunks_exact_mut(PLANE_SIZE)) {
            slot.game.encode(self.config.perspective, out);
        }
    }

    /// A uniformly random legal action of each game (in the perspective's frame), from the game's
    /// own generator; −1 for a game that waits for its start.
    pub fn random_actions(&mut self, actions: &mut [i64]) {
        for (slot, action) in self.slots.iter_mut().zip(actions.iter_mut()) {
            *action = if slot.waiting || slot.legal.is_empty() {
                -1
            } else {
                i64::from(slot.legal[below(&mut slot.rng, slot.legal.len())])
            };
        }
    }

    /// The threads a step uses.
    fn threads(&self) -> usize {
        self.threads.min(self.slots.len() / MIN_GAMES_PER_THREAD).max(1)
    }

    /// Plays `actions[i]` in game `i` for every game. With [`OnIllegal::Error`], an action that is
    /// not legal (or a game that waits for its start) is an error naming the lowest such game, and
    /// then no game and no output has changed. Returns how many games ended.
    ///
    /// # Panics
    /// If `actions` or an output is shorter than the games need (the callers size them).
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<usize, VectorError> {
        let n = self.slots.len();
        assert!(actions.len() >= n, "one action per game");
        assert!(out.masks.len() >= n * NUM_ACTIONS && out.final_masks.len() >= n * NUM_ACTIONS);
        assert!(out.final_planes.len() >= n * PLANE_SIZE);
        assert!(out.planes.as_ref().is_none_or(|p| p.len() >= n * PLANE_SIZE));
        assert!(out.rewards.len() >= n && out.terminations.len() >= n);
        assert!(out.truncations.len() >= n && out.illegal.len() >= n);
        let threads = self.threads();
        let (config, starts) = (self.config, &self.starts);
        let first_error = AtomicUsize::new(usize::MAX);
        let ended = AtomicUsize::new(0);
        let barrier = Barrier::new(threads);
        let per_thread = n.div_ceil(threads);
        let run = |base: usize, slots: &mut [Slot], actions: &[i64], mut out: Outputs<'_>| {
            for (k, (slot, &action)) in slots.iter_mut().zip(actions).enumerate() {
                if let Err(e) = resolve(slot, action, config) {
                    if config.on_illegal == OnIllegal::Error || matches!(e, StepError::GameOver) {
                        first_error.fetch_min(base + k, Ordering::Relaxed);
                    }
                }
            }
            barrier.wait();
            if first_error.load(Ordering::Relaxed) != usize::MAX {
                return;
            }
            let mut count = 0;
            for (k, slot) in slots.iter_mut().enumerate() {
                count += usize::from(commit(slot, config, starts, &mut out.row(k)));
            }
            ended.fetch_add(count, Ordering::Relaxed);
        };
        if threads == 1 {
            run(0, &mut self.slots, actions, out);
        } else {
            std::thread::scope(|scope| {
                let mut rest = out;
                let chunks = self.slots.chunks_mut(per_thread).zip(actions.chunks(per_thread));
                for (t, (slots, actions)) in chunks.enumerate() {
                    let (mine, others) = rest.split_at(slots.len());
                    rest = others;
                    let run = &run;
                    scope.spawn(move || run(t * per_thread, slots, actions, mine));
                }
            });
        }
        let bad = first_error.into_inner();
        if bad != usize::MAX {
            let slot = &mut self.slots[bad];
            let error = resolve(slot, actions[bad], config).err().unwrap_or(StepError::GameOver);
            return Err(VectorError { game: bad, action: actions[bad], error });
        }
        Ok(ended.into_inner())
    }
}

impl<'a> Outputs<'a> {
    /// The rows of the first `games` games and those of the rest.
    fn split_at(self, games: usize) -> (Outputs<'a>, Outputs<'a>) {
        let (planes, planes_rest) = match self.planes {
            Some(p) => {
                let (a, b) = p.split_at_mut(games * PLANE_SIZE);
                (Some(a), Some(b))
            }
            None => (None, None),
        };
        let (masks, masks_rest) = self.masks.split_at_mut(games * NUM_ACTIONS);
        let (rewards, rewards_rest) = self.rewards.split_at_mut(games);
        let (terminations, terminations_rest) = self.terminations.split_at_mut(games);
        let (truncations, truncations_rest) = self.truncations.split_at_mut(games);
        let (illegal, illegal_rest) = self.illegal.split_at_mut(games);
        let (final_planes, final_planes_rest) = self.final_planes.split_at_mut(games * PLANE_SIZE);
        let (final_masks, final_masks_rest) = self.final_masks.split_at_mut(games * NUM_ACTIONS);
        (
            Outputs { planes, masks, rewards, terminations, truncations, illegal, final_planes, final_masks },
            Outputs {
                planes: planes_rest,
                masks: masks_rest,
                rewards: rewards_rest,
                terminations: terminations_rest,
                truncations: truncations_rest,
                illegal: illegal_rest,
                final_planes: final_planes_rest,
                final_masks: final_masks_rest,
            },
        )
    }

    /// The row of game `k` (counted from the first of these outputs).
    fn row(&mut self, k: usize) -> Row<'_> {
        Row {
            planes: self.planes.as_deref_mut().map(|p| &mut p[k * PLANE_SIZE..(k + 1) * PLANE_SIZE]),
            mask: &mut self.masks[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS],
            reward: &mut self.rewards[k],
            terminated: &mut self.terminations[k],
            truncated: &mut self.truncations[k],
            illegal: &mut self.illegal[k],
            final_planes: &mut self.final_planes[k * PLANE_SIZE..(k + 1) * PLANE_SIZE],
            final_mask: &mut self.final_masks[k * NUM_ACTIONS..(k + 1) * NUM_ACTIONS],
        }
    }
}

fn check_start(pos: &Position, max_plies: u32) -> Result<(), StartError> {
    let game = Game::new(*pos, max_plies);
    match game.end() {
        None => Ok(()),
        Some(end) => Err(StartError(format!(
            "the game is already over in the start position {} ({})",
            pos.fen(),
            end_name(end)
        ))),
    }
}

/// How a game ended, in the words of the Python API.
pub fn end_name(end: GameEnd) -> &'static str {
    use crate::outcome::Termination;
    match end {
        GameEnd::Rules(Termination::LionCaptured) => "lion_captured",
        GameEnd::Rules(Termination::NoLegalMoves) => "no_legal_moves",
        GameEnd::Rules(Termination::BareLions) => "bare_lions",
        GameEnd::Repetition | GameEnd::Rules(Termination::ThreefoldRepetition) => "threefold_repetition",
        GameEnd::PlyLimit | GameEnd::Rules(Termination::MoveLimit) => "move_limit",
    }
}

/// The game's action for an action given in the perspective's frame.
fn game_action(action: i64, turn: Color, perspective: Perspective) -> Result<usize, StepError> {
    let a = usize::try_from(action).ok().filter(|&a| a < NUM_ACTIONS).ok_or_else(|| StepError::Illegal {
        action: 0,
        reason: format!("it is out of range (actions are 0..{NUM_ACTIONS})"),
    })?;
    Ok(if perspective.flips(turn) { flip_action(a) } else { a })
}

/// Checks the slot's action, keeping it for [`commit`] (`None` when it is illegal).
fn resolve(slot: &mut Slot, action: i64, config: VectorConfig) -> Result<(), StepError> {
    slot.step = None;
    if slot.waiting {
        return Err(StepError::GameOver);
    }
    let game = &slot.game;
    let result = game_action(action, game.turn(), config.perspective).and_then(|a| game.resolve(a));
    slot.step = Some(result?);
    Ok(())
}

/// Restarts a slot's game from the next start of `positions`.
fn start_next(slot: &mut Slot, positions: &[Position], max_plies: u32) {
    let pos =
        if positions.len() == 1 { positions[0] } else { positions[below(&mut slot.rng, positions.len())] };
    slot.game.restart(pos, max_plies);
    slot.waiting = false;
}

/// Writes a slot's planes (when asked) and mask.
fn write_row(slot: &mut Slot, perspective: Perspective, planes: Option<&mut [u8]>, mask: &mut [u8]) {
    if let Some(planes) = planes {
        slot.game.encode(perspective, planes);
    }
    slot.game.action_mask_listed(perspective, mask, &mut slot.legal);
}

/// Plays a slot's checked action (or forfeits) and writes its row. Returns whether the game ended.
fn commit(slot: &mut Slot, config: VectorConfig, starts: &Starts, row: &mut Row<'_>) -> bool {
    let perspective = config.perspective;
    let actor = slot.game.turn();
    *row.illegal = 0;
    *row.truncated = 0;
    let Some(step) = slot.step.take() else {
        // Forfeited: the unchanged game is the last the player saw.
        slot.game.encode(perspective, row.final_planes);
        slot.game.action_mask_from(perspective, row.final_mask);
        *row.illegal = 1;
        *row.reward = -1.0;
        *row.terminated = 1;
        next_game(slot, config, starts, row);
        return true;
    };
    slot.game.commit(step);
    let Some(end) = slot.game.end() else {
        *row.reward = 0.0;
        *row.terminated = 0;
        write_row(slot, perspective, row.planes.as_deref_mut(), row.mask);
        return false;
    };
    *row.reward = match slot.game.winner() {
        Some(winner) if winner == actor => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    };
    let truncated = end == GameEnd::PlyLimit;
    *row.terminated = u8::from(!truncated);
    *row.truncated = u8::from(truncated);
    slot.game.encode(perspective, row.final_planes);
    slot.game.action_mask_from(perspective, row.final_mask);
    next_game(slot, config, starts, row);
    true
}

/// After an end: the next game from the starts, or (external starts) the ended game's rows and a
/// wait for [`VectorGame::restart`].
fn next_game(slot: &mut Slot, config: VectorConfig, starts: &Starts, row: &mut Row<'_>) {
    match starts {
        Starts::Positions(positions) => start_next(slot, positions, config.max_plies),
        Starts::External => slot.waiting = true,
    }
    write_row(slot, config.perspective, row.planes.as_deref_mut(), row.mask);
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Buffers {
        planes: Vec<u8>,
        masks: Vec<u8>,
        rewards: Vec<f32>,
        terminations: Vec<u8>,
        truncations: Vec<u8>,
        illegal: Vec<u8>,
        final_planes: Vec<u8>,
        final_masks: Vec<u8>,
    }

    impl Buffers {
        fn new(n: usize) -> Buffers {
            Buffers {
                planes: vec![0; n * PLANE_SIZE],
                masks: vec![0; n * NUM_ACTIONS],
                rewards: vec![0.0; n],
                terminations: vec![0; n],
                truncations: vec![0; n],
                illegal: vec![0; n],
                final_planes: vec![0; n * PLANE_SIZE],
                final_masks: vec![0; n * NUM_ACTIONS],
            }
        }

        fn outputs(&mut self) -> Outputs<'_> {
            Outputs {
                planes: Some(&mut self.planes),
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                terminations: &mut self.terminations,
                truncations: &mut self.truncations,
                illegal: &mut self.illegal,
                final_planes: &mut self.final_planes,
                final_masks: &mut self.final_masks,
            }
        }
    }

    /// Steps `n` games on `threads` threads against `n` plain games, comparing every output.
    fn agrees_with_plain_games(n: usize, threads: usize, perspective: Perspective) {
        let config = VectorConfig { max_plies: 40, perspective, on_illegal: OnIllegal::Error, threads };
        let mut vector = VectorGame::new(n, Starts::usual(), config, 3).unwrap();
        let mut plain: Vec<Game> = (0..n).map(|_| Game::new(Position::start(), 40)).collect();
        let mut b = Buffers::new(n);
        vector.reset(None, Some(&mut b.planes), &mut b.masks);
        let (mut actions, mut ends) = (vec![0; n], 0);
        let (mut planes, mut mask) = (vec![0; PLANE_SIZE], vec![0; NUM_ACTIONS]);
        for _ in 0..300 {
            vector.random_actions(&mut actions);
            ends += vector.step(&actions, b.outputs()).unwrap();
            for (i, game) in plain.iter_mut().enumerate() {
                let actor = game.turn();
                let a = actions[i] as usize;
                let a = if perspective.flips(actor) { flip_action(a) } else { a };
                game.apply(a).unwrap();
                if game.is_over() {
                    game.encode(perspective, &mut planes);
                    assert_eq!(&b.final_planes[i * PLANE_SIZE..(i + 1) * PLANE_SIZE], &planes[..]);
                    assert!(b.final_masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS].iter().all(|&m| m == 0));
                    assert_eq!(b.truncations[i] == 1, game.end() == Some(GameEnd::PlyLimit));
                    assert_eq!(b.terminations[i] == 1, game.end() != Some(GameEnd::PlyLimit));
                    let expected: f32 = game.winner().map_or(0.0, |w| if w == actor { 1.0 } else { -1.0 });
                    assert_eq!(b.rewards[i].to_bits(), expected.to_bits());
                    *game = Game::new(Position::start(), 40);
                } else {
                    assert_eq!((b.terminations[i], b.truncations[i], b.rewards[i].to_bits()), (0, 0, 0));
                }
                game.encode(perspective, &mut planes);
                game.action_mask_from(perspective, &mut mask);
                assert_eq!(&b.planes[i * PLANE_SIZE..(i + 1) * PLANE_SIZE], &planes[..]);
                assert_eq!(&b.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS], &mask[..]);
            }
        }
        assert!(ends > n, "some games ended and restarted");
    }

    #[test]
    fn a_vector_steps_as_plain_games_do() {
        agrees_with_plain_games(5, 1, Perspective::White);
        agrees_with_plain_games(5, 1, Perspective::SideToMove);
    }

    #[test]
    fn threads_change_nothing() {
        agrees_with_plain_games(2 * MIN_GAMES_PER_THREAD + 3, 2, Perspective::SideToMove);
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let config = VectorConfig { threads: 2, ..VectorConfig::default() };
        let n = 2 * MIN_GAMES_PER_THREAD;
        let mut vector = VectorGame::new(n, Starts::usual(), config, 1).unwrap();
        let mut b = Buffers::new(n);
        vector.reset(None, Some(&mut b.planes), &mut b.masks);
        let mut actions = vec![0; n];
        vector.random_actions(&mut actions);
        actions[n - 3] = 0; // a1 north: the pawn on a2
        actions[n - 1] = NUM_ACTIONS as i64;
        let (planes, masks) = (b.planes.clone(), b.masks.clone());
        let e = vector.step(&actions, b.outputs()).unwrap_err();
        assert_eq!(e.game, n - 3);
        assert_eq!(
            e.to_string(),
            format!("game {}: action 0 is not legal: no legal move makes this leg", n - 3)
        );
        assert_eq!((b.planes, b.masks), (planes, masks));
        assert!((0..n).all(|i| vector.game(i).plies() == 0));
    }
}
