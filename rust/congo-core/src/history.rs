//! A game's history: each move played and the position before it, as a board object keeps them
//! (`Board.move_stack` in Python), with what a history decides: repetitions, the outcome with a
//! claim or a ply limit, the positions the search must know, and a compact, checked text form.
//!
//! The text form holds no position but the first: every later one is where the moves lead, so a
//! board made from it can never hold a move stack that does not lead to its position.
//!
//! The text form is made for pickles, where it is written and read back thousands of times a
//! second: one character per square of each move (`'A'` + the square index, so `a1` is `A`, `g7`
//! is `q`; `-` for a null move), moves separated by spaces. The side to move and the move number may be set by hand
//! between moves (python-chess allows it); the text form records such an edit as a token
//! `@<w|b><number>`. The placement, though, always follows from the moves: a history whose moves are
//! not legal where they stand is refused.

use core::fmt::{self, Write as _};

use crate::fen::ParseFenError;
use crate::moves::{Move, Path};
use crate::outcome::Outcome;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::repetition;

/// The moves of a game with the position before each, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    entries: Vec<(Move, Position)>,
}

/// Why a history's text form is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryError {
    /// A position string of the history is bad.
    Fen(ParseFenError),
    /// A token is neither a move string nor an edit.
    Token { ply: usize, token: String },
    /// A move is not legal where it stands.
    Illegal { ply: usize, token: String },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::Fen(e) => write!(f, "bad position in a move history: {e}"),
            HistoryError::Token { ply, token } => {
                write!(f, "bad token {token:?} at ply {ply} of a move history")
            }
            HistoryError::Illegal { ply, token } => {
                write!(f, "move {token:?} at ply {ply} of a move history is not legal where it stands")
            }
        }
    }
}

impl std::error::Error for HistoryError {}

impl History {
    pub const fn new() -> History {
        History { entries: Vec::new() }
    }

    /// Records `m`, played from `before`.
    pub fn push(&mut self, m: Move, before: Position) {
        self.entries.push((m, before));
    }

    /// Forgets the last move; it and the position before it.
    pub fn pop(&mut self) -> Option<(Move, Position)> {
        self.entries.pop()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The last move and the position before it.
    pub fn last(&self) -> Option<&(Move, Position)> {
        self.entries.last()
    }

    /// The moves, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = &Move> + '_ {
        self.entries.iter().map(|(m, _)| m)
    }

    /// The position before the first move, or `current` for an empty history.
    pub fn root(&self, current: &Position) -> Position {
        self.entries.first().map_or(*current, |(_, p)| *p)
    }

    /// The last `keep` moves only.
    #[must_use]
    pub fn tail(&self, keep: usize) -> History {
        History { entries: self.entries[self.entries.len().saturating_sub(keep)..].to_vec() }
    }

    /// The positions before `current`, newest first.
    pub fn earlier(&self) -> impl Iterator<Item = &Position> + '_ {
        self.entries.iter().rev().map(|(_, p)| p)
    }

    /// How many times `current` has occurred, counting itself (see [`repetition`]).
    pub fn repetitions(&self, current: &Position) -> usize {
        current.repetitions(self.earlier())
    }

    /// The outcome with this history (see [`Position::game_outcome`]).
    pub fn outcome(&self, current: &Position, claim_draw: bool, max_plies: Option<u64>) -> Option<Outcome> {
        current.game_outcome(self.earlier(), self.len() as u64, claim_draw, max_plies)
    }

    /// The hashes of the positions `current` could repeat, oldest first: the search's history.
    pub fn search_keys(&self, current: &Position) -> Vec<u64> {
        repetition::history_keys(current, self.earlier())
    }

    /// The text form: the root position's FEN and the tokens (a token per move, and
    /// `@<w|b><number>` where the side to move or move number was set by hand).
    ///
    /// The placement always follows from the moves (a history only grows by [`History::push`] of a
    /// move played from the position it leads to; changing the placement starts a new history), so
    /// only the side to move and the move number are compared here; [`History::decode`] checks
    /// everything.
    pub fn encode(&self, current: &Position) -> (String, String) {
        let mut tokens = String::with_capacity(self.entries.len() * 3 + 8);
        let mut previous: Option<&Position> = None;
        for (m, before) in &self.entries {
            if let Some(previous) = previous {
                note_edit(&mut tokens, previous, before);
            }
            if m.is_null() {
                tokens.push(NULL_TOKEN);
            } else if m.path.is_chain() {
                tokens.extend(m.path.squares().map(square_char));
            } else {
                tokens.push(square_char(m.from()));
                tokens.push(square_char(m.to()));
            }
            tokens.push(' ');
            previous = Some(before);
        }
        if let Some(previous) = previous {
            note_edit(&mut tokens, previous, current);
        }
        tokens.truncate(tokens.trim_end().len());
        (self.root(current).fen(), tokens)
    }

    /// Replays a text form from [`History::encode`]: the history and the position it leads to.
    /// Every move must be legal where it stands.
    pub fn decode(root: &str, tokens: &str) -> Result<(History, Position), HistoryError> {
        let mut position = Position::from_fen(root).map_err(HistoryError::Fen)?;
        let mut history = History { entries: Vec::with_capacity(tokens.len() / 3 + 1) };
        for (ply, token) in tokens.split_ascii_whitespace().enumerate() {
            if let Some(edit) = token.strip_prefix('@') {
                position = apply_edit(&position, edit)
                    .ok_or_else(|| HistoryError::Token { ply, token: token.to_owned() })?;
                continue;
            }
            if token.len() == 1 && token.starts_with(NULL_TOKEN) {
                history.push(Move::NULL, position);
                position = position.play_null();
                continue;
            }
            let path =
                token_path(token).ok_or_else(|| HistoryError::Token { ply, token: token.to_owned() })?;
            let m = position
                .find_move(&path)
                .map_err(|_| HistoryError::Illegal { ply, token: token.to_owned() })?;
            history.push(m, position);
            position = position.play_unchecked(&m);
        }
        Ok((history, position))
    }
}

/// The text form's token for a null move (never a square character).
const NULL_TOKEN: char = '-';

/// The character of square 0 in the text form.
const SQUARE_CHAR_BASE: u8 = b'A';

/// The path a move token stands for.
fn token_path(token: &str) -> Option<Path> {
    let mut squares = [crate::square::Square::A1; crate::moves::MAX_JUMPS + 1];
    let bytes = token.as_bytes();
    if bytes.len() > squares.len() {
        return None;
    }
    for (slot, &b) in squares.iter_mut().zip(bytes) {
        *slot = crate::square::Square::new(b.checked_sub(SQUARE_CHAR_BASE)?)?;
    }
    Path::from_squares(&squares[..bytes.len()]).ok()
}

fn square_char(sq: crate::square::Square) -> char {
    char::from(SQUARE_CHAR_BASE + sq.index() as u8)
}

/// Writes an edit token if the side to move or the move number of `actual`, the position after the
/// move played from `before`, is not what that move gives.
fn note_edit(tokens: &mut String, before: &Position, actual: &Position) {
    let turn = !before.turn();
    let fullmove =
        if before.turn() == Color::Black { before.fullmove().saturating_add(1) } else { before.fullmove() };
    if (actual.turn(), actual.fullmove()) != (turn, fullmove) {
        let _ = write!(tokens, "@{}{} ", actual.turn().char(), actual.fullmove());
    }
}

/// The position after an edit token's text (`w12`: White to move, move 12).
fn apply_edit(position: &Position, edit: &str) -> Option<Position> {
    let mut chars = edit.chars();
    let turn = match chars.next()? {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return None,
    };
    let number: u32 = chars.as_str().parse().ok()?;
    Some(position.with_turn(turn).with_fullmove(number))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    fn game(moves: &str) -> (History, Position) {
        let mut history = History::new();
        let mut position = Position::start();
        for token in moves.split_whitespace() {
            let m = position.find_move(&parse_move(token).unwrap()).unwrap();
            history.push(m, position);
            position = position.play_unchecked(&m);
        }
        (history, position)
    }

    /// A move's token in the text form.
    fn token(uci: &str) -> String {
        let path = crate::notation::parse_move(uci).unwrap();
        path.squares().map(|sq| char::from(SQUARE_CHAR_BASE + sq.index() as u8)).collect()
    }

    #[test]
    fn the_text_form_round_trips() {
        let (history, current) = game("g1f3 g7f5 f3g1 f5g7 c2c3");
        let (root, tokens) = history.encode(&current);
        let expected: Vec<String> = ["g1f3", "g7f5", "f3g1", "f5g7", "c2c3"].map(token).to_vec();
        assert_eq!((root.as_str(), tokens.as_str()), (crate::STARTING_FEN, expected.join(" ").as_str()));
        assert_eq!(token("b1d3f5"), "BRb");
        assert_eq!(History::decode(&root, &tokens).unwrap(), (history, current));
    }

    #[test]
    fn edits_of_the_side_to_move_and_move_number_are_kept() {
        let (history, current) = game("g1f3");
        let edited = current.with_turn(Color::White).with_fullmove(9);
        let (root, tokens) = history.encode(&edited);
        assert_eq!(tokens, format!("{} @w9", token("g1f3")));
        assert_eq!(History::decode(&root, &tokens).unwrap(), (history, edited));
    }

    #[test]
    fn a_tampered_history_is_refused() {
        let start = crate::STARTING_FEN;
        let line = |moves: &[&str]| moves.iter().map(|m| token(m)).collect::<Vec<_>>().join(" ");
        assert!(matches!(
            History::decode(start, &line(&["g1f3", "g7f5", "f3f4"])),
            Err(HistoryError::Illegal { ply: 2, .. })
        ));
        let bad_edit = format!("{} @x1", line(&["g1f3"]));
        assert!(matches!(History::decode(start, &bad_edit), Err(HistoryError::Token { ply: 1, .. })));
        assert!(matches!(History::decode(start, "g1f3"), Err(HistoryError::Token { ply: 0, .. })));
        assert!(matches!(History::decode("junk", ""), Err(HistoryError::Fen(_))));
    }

    #[test]
    fn null_moves_round_trip_and_drown_the_passers_swimmers() {
        // White's elephant entered the river on e4 with White's last move; Black passes, White
        // passes: the elephant drowns, as it would after any other White move. Black's pawn on b4
        // drowns at Black's pass.
        let before = Position::from_fen("3l3/7/7/1p2E2/7/7/3L3 b 5").unwrap();
        let after_black = before.play_null();
        assert_eq!(after_black.fen(), "3l3/7/7/4E2/7/7/3L3 w 6");
        let after_white = after_black.play_null();
        assert_eq!(after_white.fen(), "3l3/7/7/7/7/7/3L3 b 6");
        assert_eq!(after_white.zobrist_hash(), crate::zobrist::hash(after_white.board(), Color::Black));
        let mut history = History::new();
        history.push(Move::NULL, before);
        history.push(Move::NULL, after_black);
        let (root, tokens) = history.encode(&after_white);
        assert_eq!(tokens, "- -");
        assert_eq!(History::decode(&root, &tokens).unwrap(), (history, after_white));
        // A crocodile never drowns, and a pass is never a legal move.
        let croc = Position::from_fen("3l3/7/7/4C2/7/7/3L3 w 1").unwrap();
        assert_eq!(croc.play_null().fen(), "3l3/7/7/4C2/7/7/3L3 b 1");
        assert!(!croc.is_legal(&Path::NULL));
        assert!(!croc.is_capture(&Path::NULL));
        assert_eq!(croc.find_move(&Path::NULL).unwrap_err().reason, crate::position::IllegalReason::NullMove);
    }

    #[test]
    fn repetitions_and_outcome_read_the_history() {
        let (history, current) = game("g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7");
        assert_eq!(history.repetitions(&current), 3);
        let outcome = history.outcome(&current, true, None).unwrap();
        assert_eq!(outcome.termination, crate::Termination::ThreefoldRepetition);
        assert_eq!(history.outcome(&current, false, None), None);
        assert_eq!(
            history.outcome(&current, false, Some(8)).unwrap().termination,
            crate::Termination::MoveLimit
        );
        assert_eq!(history.search_keys(&current).len(), 8);
        assert_eq!(history.tail(3).len(), 3);
        assert_eq!(history.root(&current), Position::start());
    }
}
