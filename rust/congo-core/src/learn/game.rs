//! A game played one action at a time: single-leg moves are one action, a monkey chain one action
//! per jump with the same player to move until it plays [`STOP`] (or no jump is left).

use core::fmt;

use super::actions::{action_of_leg, flip_action, leg_of_action, ActionError, NUM_ACTIONS, STOP};
use super::planes::{encode_board, ChainView, Perspective, PLANE_SIZE};
use crate::moves::{Move, MoveList, Path, MAX_JUMPS};
use crate::notation::parse_move;
use crate::outcome::Termination;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::repetition;
use crate::square::Square;

/// How a [`Game`] ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum GameEnd {
    /// By the rules: a captured lion, no legal move, or bare lions.
    Rules(Termination),
    /// The position occurred for the third time (a draw, claimed at once).
    Repetition,
    /// The game reached its ply limit (a draw).
    PlyLimit,
}

/// Why an action cannot be played.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum StepError {
    /// The game is over.
    GameOver,
    /// The action is not in the action space or not legal now.
    Illegal { action: usize, reason: String },
    /// The move is not legal here.
    IllegalMove(String),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::GameOver => f.write_str("the game is over"),
            StepError::Illegal { action, reason } => write!(f, "action {action} is not legal: {reason}"),
            StepError::IllegalMove(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for StepError {}

impl From<ActionError> for StepError {
    fn from(e: ActionError) -> StepError {
        let action = match e {
            ActionError::OutOfRange(a) | ActionError::OffBoard(a) => a,
            ActionError::NoSuchLeg(..) => NUM_ACTIONS,
        };
        StepError::Illegal { action, reason: e.to_string() }
    }
}

/// A monkey chain under way: the squares visited so far (start and at least one landing).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
struct Chain {
    squares: [Square; MAX_JUMPS + 1],
    len: usize,
}

impl Chain {
    fn squares(&self) -> &[Square] {
        &self.squares[..self.len]
    }

    fn at(&self) -> Square {
        self.squares[self.len - 1]
    }
}

/// An action checked by [`Game::resolve`], ready for [`Game::commit`].
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Step(StepKind, u16);

#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum StepKind {
    /// A jump after which the chain can go on.
    Continue(Chain),
    /// The move is complete.
    Finish(Move),
}

/// Whether the path `path` begins with the squares `prefix`.
fn starts_with(path: &Path, prefix: &[Square]) -> bool {
    path.legs() + 1 >= prefix.len() && path.squares().zip(prefix).all(|(a, b)| a == *b)
}

/// A Congo game played in actions, with its history for the repetition rule, for environments.
///
/// Cloning is cheap enough for tree search (the position, the legal moves and the history since the
/// last capture).
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The legal moves of `position` (empty once the game is over).
    moves: MoveList,
    chain: Option<Chain>,
    /// Zobrist hashes of the positions since the last capture, oldest first, the current one last.
    history: Vec<u64>,
    plies: u32,
    max_plies: u32,
    end: Option<GameEnd>,
    /// Moves played, oldest first.
    played: Vec<Move>,
    start: Position,
    /// Every action applied, oldest first.
    actions: Vec<u16>,
}

impl Game {
    /// A game from `position` that is drawn after `max_plies` moves (0: no limit).
    pub fn new(position: Position, max_plies: u32) -> Game {
        let mut game = Game {
            position,
            moves: MoveList::new(),
            chain: None,
            history: vec![position.zobrist_hash()],
            plies: 0,
            max_plies,
            end: None,
            played: Vec::new(),
            start: position,
            actions: Vec::new(),
        };
        game.settle();
        game
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Every action applied so far, oldest first (replaying them from [`Game::start`] gives this game).
    pub fn actions(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.actions.iter().map(|&a| usize::from(a))
    }

    /// The position before the move under way.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The player to act (during a chain, the player whose monkey is jumping).
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// Moves played so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// The moves played, oldest first.
    pub fn moves_played(&self) -> &[Move] {
        &self.played
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The winner once the game is over (`None` for a draw or while it goes on).
    pub fn winner(&self) -> Option<Color> {
        match self.end {
            Some(GameEnd::Rules(_)) => self.position.outcome().and_then(|o| o.winner),
            _ => None,
        }
    }

    /// The squares of the chain under way (start first), or `None` between moves.
    pub fn chain(&self) -> Option<&[Square]> {
        self.chain.as_ref().map(Chain::squares)
    }

    /// How often the current position occurred before (since the last capture).
    pub fn repetitions(&self) -> u8 {
        let now = self.position.zobrist_hash();
        let earlier = self.history[..self.history.len() - 1].iter().filter(|&&h| h == now).count();
        earlier.min(u8::MAX as usize) as u8
    }

    /// The Zobrist hashes of the earlier positions since the last capture, oldest first (what
    /// [`crate::search::Engine::search`] takes as its history).
    pub fn history_before(&self) -> &[u64] {
        &self.history[..self.history.len() - 1]
    }

    /// The legal moves of the current position (empty once the game is over).
    pub fn legal_moves(&self) -> &[Move] {
        &self.moves
    }

    /// Calls `emit` with each legal action once (in no particular order; duplicates are skipped by
    /// the callers through a mask).
    fn for_each_action(&self, mut emit: impl FnMut(usize)) {
        match &self.chain {
            None => {
                for m in &self.moves {
                    let mut squares = m.path.squares();
                    if let (Some(from), Some(to)) = (squares.next(), squares.next()) {
                        if let Ok(a) = action_of_leg(from, to) {
                            emit(a);
                        }
                    }
                }
            }
            Some(chain) => {
                emit(STOP);
                let prefix = chain.squares();
                for m in &self.moves {
                    if m.path.legs() + 1 > prefix.len() && starts_with(&m.path, prefix) {
                        if let Some(next) = m.path.squares().nth(prefix.len()) {
                            if let Ok(a) = action_of_leg(chain.at(), next) {
                                emit(a);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Writes the legal-action mask (1 = legal) into `mask`, which holds [`NUM_ACTIONS`] bytes.
    pub fn action_mask(&self, mask: &mut [u8]) {
        let mask = &mut mask[..NUM_ACTIONS];
        mask.fill(0);
        if self.end.is_none() {
            self.for_each_action(|a| mask[a] = 1);
        }
    }

    /// The legal actions, ascending.
    pub fn legal_actions(&self) -> Vec<usize> {
        let mut mask = vec![0u8; NUM_ACTIONS];
        self.action_mask(&mut mask);
        mask.iter().enumerate().filter(|(_, &b)| b == 1).map(|(a, _)| a).collect()
    }

    /// Whether some legal move continues the path `prefix` with at least one more jump.
    fn extends(&self, prefix: &[Square]) -> bool {
        self.moves.iter().any(|m| m.path.legs() + 1 > prefix.len() && starts_with(&m.path, prefix))
    }

    /// The legal move whose path is exactly `squares`.
    fn move_with_squares(&self, squares: &[Square]) -> Option<Move> {
        self.moves
            .iter()
            .copied()
            .find(|m| m.path.legs() + 1 == squares.len() && starts_with(&m.path, squares))
    }

    /// Plays one action. Returns `true` when it completed a move (the turn passed or the game ended),
    /// `false` when a chain goes on with the same player.
    pub fn apply(&mut self, action: usize) -> Result<bool, StepError> {
        let step = self.resolve(action)?;
        Ok(self.commit(step))
    }

    /// What `action` would do, without doing it: the checks of [`Game::apply`] alone, so that a
    /// batch of games can check every action before any game changes.
    pub fn resolve(&self, action: usize) -> Result<Step, StepError> {
        if self.end.is_some() {
            return Err(StepError::GameOver);
        }
        if action >= NUM_ACTIONS {
            return Err(ActionError::OutOfRange(action).into());
        }
        let illegal = |reason: &str| StepError::Illegal { action, reason: reason.to_owned() };
        let mut squares = [Square::A1; MAX_JUMPS + 1];
        let len = match &self.chain {
            None => {
                if action == STOP {
                    return Err(illegal("stop ends a monkey chain, and no chain is under way"));
                }
                let (from, to) = leg_of_action(action)?;
                squares[0] = from;
                squares[1] = to;
                2
            }
            Some(chain) => {
                if action == STOP {
                    let m =
                        self.move_with_squares(chain.squares()).ok_or_else(|| illegal("no such chain"))?;
                    return Ok(Step(StepKind::Finish(m), STOP as u16));
                }
                let (from, to) = leg_of_action(action)?;
                if from != chain.at() {
                    return Err(illegal(&format!(
                        "the monkey jumping stands on {}, not on {from}",
                        chain.at()
                    )));
                }
                squares[..chain.len].copy_from_slice(chain.squares());
                if chain.len > MAX_JUMPS {
                    return Err(illegal("the chain is as long as a chain can be"));
                }
                squares[chain.len] = to;
                chain.len + 1
            }
        };
        let prefix = &squares[..len];
        if self.extends(prefix) {
            return Ok(Step(StepKind::Continue(Chain { squares, len }), action as u16));
        }
        let m = self.move_with_squares(prefix).ok_or_else(|| {
            let what = if len == 2 { "no legal move makes this leg" } else { "the monkey cannot jump there" };
            illegal(what)
        })?;
        Ok(Step(StepKind::Finish(m), action as u16))
    }

    /// Does what [`Game::resolve`] found, on the game it was resolved on and unchanged since.
    /// Returns `true` when it completed a move.
    pub fn commit(&mut self, step: Step) -> bool {
        self.actions.push(step.1);
        match step.0 {
            StepKind::Continue(chain) => {
                self.chain = Some(chain);
                false
            }
            StepKind::Finish(m) => {
                self.finish(m);
                true
            }
        }
    }

    /// Starts this game again from `position` (what [`Game::new`] makes, keeping the buffers).
    pub fn restart(&mut self, position: Position, max_plies: u32) {
        self.position = position;
        self.chain = None;
        self.history.clear();
        self.history.push(position.zobrist_hash());
        self.plies = 0;
        self.max_plies = max_plies;
        self.end = None;
        self.played.clear();
        self.start = position;
        self.actions.clear();
        self.settle();
    }

    /// Forgets the record of what was played (the moves, the actions, the start), keeping all that
    /// decides what comes next (the position, a chain under way, the history for the repetition
    /// rule, the ply count): a tree search clones its root game once per simulation, and the
    /// record would make each clone as long as the game.
    pub(crate) fn forget_record(&mut self) {
        self.played.clear();
        self.actions.clear();
        self.start = self.position;
    }

    /// Makes this game a copy of `other`, reusing this one's buffers: a tree search restores its
    /// scratch game from the root once per simulation.
    pub(crate) fn copy_from(&mut self, other: &Game) {
        // Every field named, so that a new one cannot be forgotten here.
        let Game { position, moves, chain, history, plies, max_plies, end, played, start, actions } = other;
        self.position = *position;
        self.moves.clone_from(moves);
        self.chain = *chain;
        self.history.clone_from(history);
        self.plies = *plies;
        self.max_plies = *max_plies;
        self.end = *end;
        self.played.clone_from(played);
        self.start = *start;
        self.actions.clone_from(actions);
    }

    /// Plays a whole legal move (its actions one after another).
    pub fn play(&mut self, m: &Move) -> Result<(), StepError> {
        for action in self.actions_of(m)? {
            self.apply(action)?;
        }
        Ok(())
    }

    /// The actions that play the legal move `m` from the current position (no chain under way):
    /// one per leg, then [`STOP`] when the chain could go on.
    pub fn actions_of(&self, m: &Move) -> Result<Vec<usize>, StepError> {
        if self.end.is_some() {
            return Err(StepError::GameOver);
        }
        if self.chain.is_some() || !self.moves.contains(m) {
            return Err(StepError::IllegalMove(format!("{m} is not a legal move here")));
        }
        let squares: Vec<Square> = m.path.squares().collect();
        let mut actions = Vec::with_capacity(squares.len());
        for leg in squares.windows(2) {
            actions.push(action_of_leg(leg[0], leg[1])?);
        }
        let may_go_on = m.path.is_chain() || (m.role == Role::Monkey && m.is_capture());
        if may_go_on && self.extends(&squares) {
            actions.push(STOP);
        }
        Ok(actions)
    }

    /// [`Game::actions_of`] for a move string.
    pub fn actions_of_uci(&self, uci: &str) -> Result<Vec<usize>, StepError> {
        let path = parse_move(uci).map_err(|e| StepError::IllegalMove(e.to_string()))?;
        let m = self.position.find_move(&path).map_err(|e| StepError::IllegalMove(e.to_string()))?;
        self.actions_of(&m)
    }

    fn finish(&mut self, m: Move) {
        self.chain = None;
        let before = *self.position.board();
        self.position.play_in_place(&m);
        self.played.push(m);
        self.plies += 1;
        if repetition::is_irreversible(&before, self.position.board()) {
            // No earlier position can occur again (docs/rules.md §8, `rules::repetition`).
            self.history.clear();
        }
        self.history.push(self.position.zobrist_hash());
        self.settle();
    }

    /// Generates the moves of the new position and decides whether the game is over.
    fn settle(&mut self) {
        self.moves.clear();
        if let Some(outcome) = self.position.outcome() {
            self.end = Some(GameEnd::Rules(outcome.termination));
        } else if self.repetitions() >= 2 {
            self.end = Some(GameEnd::Repetition);
        } else if self.max_plies > 0 && self.plies >= self.max_plies {
            self.end = Some(GameEnd::PlyLimit);
        } else {
            self.position.generate_moves(&mut self.moves);
        }
    }

    /// Writes the observation planes (see [`super::planes`]) into `out` ([`PLANE_SIZE`] bytes): the
    /// board as it stands, mid-chain included, from `perspective`.
    pub fn encode(&self, perspective: Perspective, out: &mut [u8]) {
        let out = &mut out[..PLANE_SIZE];
        let reps = self.repetitions().min(2);
        let us = self.position.turn();
        let flip = perspective.flips(us);
        let Some(chain) = &self.chain else {
            let board = self.position.board();
            let board = if flip { board.mirrored() } else { *board };
            encode_board(&board, us, reps, None, out);
            return;
        };
        let mut board = *self.position.board();
        let (origin, at) = (chain.squares[0], chain.at());
        board.remove_piece_at(origin);
        for leg in chain.squares().windows(2) {
            let over = Square::from_coords(
                u8::midpoint(leg[0].file(), leg[1].file()),
                u8::midpoint(leg[0].rank(), leg[1].rank()),
            );
            if let Some(over) = over {
                board.remove_piece_at(over);
            }
        }
        board.set_piece_at(at, Some(Piece::new(Role::Monkey, us)));
        let view = if flip {
            board = board.mirrored();
            let turn = |sq: Square| Square::from_coords(sq.file(), 6 - sq.rank()).unwrap_or(sq);
            ChainView { origin: turn(origin), at: turn(at) }
        } else {
            ChainView { origin, at }
        };
        encode_board(&board, us, reps, Some(view), out);
    }

    /// [`Game::action_mask_from`] that also lists each legal action once, in the same frame, into
    /// `legal` (cleared first): for vectorised games, which sample from the list.
    pub fn action_mask_listed(&self, perspective: Perspective, mask: &mut [u8], legal: &mut Vec<u16>) {
        let mask = &mut mask[..NUM_ACTIONS];
        mask.fill(0);
        legal.clear();
        if self.end.is_some() {
            return;
        }
        let flip = perspective.flips(self.turn());
        self.for_each_action(|a| {
            let a = if flip { flip_action(a) } else { a };
            if mask[a] == 0 {
                mask[a] = 1;
                legal.push(a as u16);
            }
        });
    }

    /// [`Game::action_mask`] in the frame of `perspective`: for Black to move from the side to
    /// move's perspective, legal action `a` sets `mask[flip_action(a)]`.
    pub fn action_mask_from(&self, perspective: Perspective, mask: &mut [u8]) {
        if !perspective.flips(self.turn()) {
            self.action_mask(mask);
            return;
        }
        let mask = &mut mask[..NUM_ACTIONS];
        mask.fill(0);
        if self.end.is_none() {
            self.for_each_action(|a| mask[flip_action(a)] = 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::actions::leg_of_action;

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).unwrap(), 300)
    }

    #[test]
    fn the_start_position_has_one_action_per_move() {
        let g = game(crate::STARTING_FEN);
        assert_eq!(g.legal_actions().len(), 24);
        assert!(!g.legal_actions().contains(&STOP));
    }

    #[test]
    fn the_monkey_anchor_plays_jump_by_jump() {
        let mut g = game("7/4l2/7/4c2/7/2p4/1M1L3 w 1");
        // b1d3 can go on: its actions end with STOP.
        let short = g.actions_of_uci("b1d3").unwrap();
        assert_eq!(short.last(), Some(&STOP));
        assert_eq!(g.apply(short[0]), Ok(false));
        assert_eq!(g.turn(), Color::White);
        let actions = g.legal_actions();
        assert!(actions.contains(&STOP));
        let legs: Vec<_> =
            actions.iter().filter(|&&a| a != STOP).map(|&a| leg_of_action(a).unwrap()).collect();
        assert_eq!(legs, vec![(Square::parse("d3").unwrap(), Square::parse("f5").unwrap())]);
        assert_eq!(g.apply(STOP), Ok(true));
        assert_eq!(g.position().fen(), "7/4l2/7/4c2/3M3/7/3L3 b 1");
    }

    #[test]
    fn illegal_actions_are_errors_and_change_nothing() {
        let mut g = game(crate::STARTING_FEN);
        assert!(matches!(g.apply(STOP), Err(StepError::Illegal { .. })));
        assert!(matches!(g.apply(NUM_ACTIONS), Err(StepError::Illegal { .. })));
        assert!(matches!(g.apply(0), Err(StepError::Illegal { .. }))); // a1 north: the pawn on a2
        assert_eq!(g.plies(), 0);
        assert_eq!(g.legal_actions().len(), 24);
    }

    #[test]
    fn threefold_repetition_ends_the_game() {
        let mut g = game(crate::STARTING_FEN);
        for _ in 0..2 {
            for uci in ["g1f3", "g7f5", "f3g1", "f5g7"] {
                for a in g.actions_of_uci(uci).unwrap() {
                    g.apply(a).unwrap();
                }
            }
        }
        assert_eq!(g.end(), Some(GameEnd::Repetition));
        assert_eq!(g.repetitions(), 2);
    }
}
