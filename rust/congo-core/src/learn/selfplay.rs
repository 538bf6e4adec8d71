//! Self-play games for training data: a few random opening moves, then the engine plays both sides
//! at a node budget, and every position it searched becomes a row with the search's evaluation, its
//! best move and, once the game is over, the result.
//!
//! One game is a pure function of its configuration and seed ([`play_game`]): a fresh single-thread
//! engine with a node limit searches the same way every time. Parallel and distributed drivers
//! (threads, processes, a Ray cluster) therefore only hand out game indices and seeds.

use std::sync::atomic::{AtomicBool, Ordering};

use super::game::{Game, GameEnd};
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::rng::SplitMix64;
pub use crate::search::EngineError;
use crate::search::{Engine, Limits, Score};

/// How self-play games are played.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct SelfPlayConfig {
    /// Nodes the engine searches per move (at least 1).
    pub nodes: u64,
    /// Uniformly random moves played before the engine takes over, for variety.
    pub opening_plies: u32,
    /// The game is drawn after this many moves (opening included; 0: no limit).
    pub max_plies: u32,
    /// The engine's transposition table, in MiB.
    pub hash_mb: usize,
}

impl Default for SelfPlayConfig {
    fn default() -> SelfPlayConfig {
        SelfPlayConfig {
            nodes: 2000,
            opening_plies: 6,
            max_plies: super::DEFAULT_MAX_PLIES,
            hash_mb: crate::search::GAME_POOL_HASH_MB,
        }
    }
}

/// One searched position of a self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayRow {
    pub position: Position,
    /// How often the position occurred before in the game (for the planes).
    pub repetitions: u8,
    /// Moves played before this position (opening included).
    pub ply: u32,
    /// The search's score, side to move's view.
    pub score: Score,
    pub best_move: Move,
    /// The actions that play the best move (see [`super::actions`]).
    pub best_actions: Vec<usize>,
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    pub rows: Vec<SelfPlayRow>,
    /// The random opening moves.
    pub opening: Vec<Move>,
    pub end: GameEnd,
    pub winner: Option<Color>,
    /// Moves played in all.
    pub plies: u32,
}

impl SelfPlayGame {
    /// The result for the side to move in `row`: 1 win, -1 loss, 0 draw.
    pub fn value_for(&self, row: &SelfPlayRow) -> i8 {
        match self.winner {
            None => 0,
            Some(w) if w == row.position.turn() => 1,
            Some(_) => -1,
        }
    }
}

/// Plays one self-play game from `start` with `seed`.
pub fn play_game(start: &Position, config: &SelfPlayConfig, seed: u64) -> Result<SelfPlayGame, EngineError> {
    let never = AtomicBool::new(false);
    Ok(play_game_until(start, config, seed, &never)?.unwrap_or_else(|| unreachable!("never stopped")))
}

/// [`play_game`], abandoned (`Ok(None)`) as soon as `stop` is set: it is checked before every
/// search, so a game stops within one search of the node budget.
pub fn play_game_until(
    start: &Position,
    config: &SelfPlayConfig,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Option<SelfPlayGame>, EngineError> {
    let mut engine = Engine::new(1, config.hash_mb)?;
    let mut rng = SplitMix64::new(seed);
    let limits = Limits::nodes(config.nodes.max(1));
    // The random opening; an opening that ends the game (a lion taken at random) is drawn again.
    let mut game = Game::new(*start, config.max_plies);
    let mut opening = Vec::new();
    for _attempt in 0..100 {
        game = Game::new(*start, config.max_plies);
        opening.clear();
        while game.plies() < config.opening_plies && !game.is_over() {
            let moves = game.legal_moves();
            let m = moves[rng.below(moves.len())];
            opening.push(m);
            play(&mut game, &m);
        }
        if !game.is_over() {
            break;
        }
    }
    let mut rows = Vec::new();
    while !game.is_over() {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let pos = *game.position();
        let result = engine.search(&pos, game.history_before(), &limits, &mut |_| {});
        let Some(best) = result.best_move else { break };
        let best_actions = game.actions_of(&best).unwrap_or_default();
        rows.push(SelfPlayRow {
            position: pos,
            repetitions: game.repetitions(),
            ply: game.plies(),
            score: result.score,
            best_move: best,
            best_actions,
        });
        play(&mut game, &best);
    }
    let end = game.end().unwrap_or(GameEnd::PlyLimit);
    Ok(Some(SelfPlayGame { rows, opening, end, winner: game.winner(), plies: game.plies() }))
}

/// Plays a move generated for the game's position.
fn play(game: &mut Game, m: &Move) {
    let played = game.play(m);
    debug_assert!(played.is_ok(), "{played:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_reproducible_and_consistent() {
        let config = SelfPlayConfig { nodes: 200, opening_plies: 4, max_plies: 60, hash_mb: 1 };
        let a = play_game(&Position::start(), &config, 7).unwrap();
        let b = play_game(&Position::start(), &config, 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.opening.len(), 4);
        assert_eq!(a.rows.len() as u32 + 4, a.plies);
        for row in &a.rows {
            assert!(row.position.legal_moves().contains(&row.best_move));
            assert!(!row.best_actions.is_empty());
        }
        assert!(a.plies <= 60);
    }

    #[test]
    fn a_set_stop_flag_abandons_the_game() {
        let stop = AtomicBool::new(true);
        let config = SelfPlayConfig { nodes: 100, opening_plies: 2, max_plies: 40, hash_mb: 1 };
        assert_eq!(play_game_until(&Position::start(), &config, 1, &stop), Ok(None));
    }
}
