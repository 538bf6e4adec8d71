//! The end of the game (docs/rules.md §8): by the rules alone ([`Position::outcome`]: a captured lion, no
//! legal move, bare lions), and with a game's history ([`Position::game_outcome`]: a claimed
//! threefold repetition, a caller's ply limit).

use core::fmt;

use crate::bitboard::Bitboard;
use crate::piece::{Color, Role};
use crate::position::Position;
use crate::rules::{lion, Sides};

/// How a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Termination {
    /// A lion was captured; the capturer wins.
    LionCaptured,
    /// The side to move has no legal move and loses (there is no stalemate in Congo).
    NoLegalMoves,
    /// Only the two lions are left and the side to move cannot capture the other: a draw.
    BareLions,
    /// The same position occurred for the third time and a draw was claimed.
    ThreefoldRepetition,
    /// The caller's ply limit was reached: a draw.
    MoveLimit,
}

impl Termination {
    /// Every termination, in the order of the Python enum's values (1 …).
    pub const ALL: [Termination; 5] = [
        Termination::LionCaptured,
        Termination::NoLegalMoves,
        Termination::BareLions,
        Termination::ThreefoldRepetition,
        Termination::MoveLimit,
    ];
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Outcome {
    pub termination: Termination,
    /// `None` for a draw.
    pub winner: Option<Color>,
}

impl Outcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.result())
    }
}

impl Position {
    /// The outcome if the game is over by the rules alone, else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        let lions = self.board().by_role(Role::Lion);
        if lions.count() < 2 {
            let winner = Color::ALL.into_iter().find(|&c| (lions & self.board().by_color(c)).any());
            return Some(Outcome { termination: Termination::LionCaptured, winner });
        }
        if self.is_bare_lions() {
            return Some(Outcome { termination: Termination::BareLions, winner: None });
        }
        if !self.has_legal_moves() {
            return Some(Outcome { termination: Termination::NoLegalMoves, winner: Some(!self.turn()) });
        }
        None
    }

    /// The outcome of a game that reached this position: by the rules ([`Position::outcome`]); else
    /// a draw once `plies` moves have been played and `max_plies` is reached; else, with
    /// `claim_draw`, a draw by threefold repetition. `earlier` holds the game's positions before
    /// this one, newest first.
    pub fn game_outcome<'a>(
        &'a self,
        earlier: impl IntoIterator<Item = &'a Position> + 'a,
        plies: u64,
        claim_draw: bool,
        max_plies: Option<u64>,
    ) -> Option<Outcome> {
        if let Some(outcome) = self.outcome() {
            return Some(outcome);
        }
        if max_plies.is_some_and(|limit| plies >= limit) {
            return Some(Outcome { termination: Termination::MoveLimit, winner: None });
        }
        if claim_draw && self.repetitions(earlier) >= 3 {
            return Some(Outcome { termination: Termination::ThreefoldRepetition, winner: None });
        }
        None
    }

    /// Only the two lions are left and the side to move cannot capture the other lion at once.
    pub fn is_bare_lions(&self) -> bool {
        let board = self.board();
        let lions = board.by_role(Role::Lion);
        if board.occupied() != lions || lions.count() != 2 {
            return false;
        }
        let sides = Sides::new(board, self.turn());
        let facing = self.lion(self.turn()).map(|sq| lion::facing_capture(sq, &sides));
        facing.is_none_or(Bitboard::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_setup;

    #[test]
    fn no_legal_moves_loses() {
        // The smallest box we found for a lion and its pieces needs 15 enemy pieces, more than
        // docs/rules.md §9 allows (decision A21): no valid position has a side without a move. The
        // rule is still implemented, and tested on an unchecked setup.
        let setup = parse_setup("3l3/7/7/pppppp1/1ppppp1/ppMMpp1/1sLMss1 w 1").unwrap();
        assert!(Position::from_setup(setup).is_err());
        let p = Position::from_setup_unchecked(setup);
        assert_eq!(p.legal_moves().len(), 0);
        let outcome = p.outcome().unwrap();
        assert_eq!((outcome.termination, outcome.winner), (Termination::NoLegalMoves, Some(Color::Black)));
    }
}
