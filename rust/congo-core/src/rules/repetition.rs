//! Repetition (docs/rules.md §8): the same position, placement and side to move, occurring again.
//!
//! Pieces are only ever removed (captured or drowned) and pawns only ever promoted, never the other
//! way round. So the number of pieces and the number of pawns never grow in a game, and a move that
//! changes either makes every earlier position unreachable: an *irreversible* move. Only the
//! positions since the last irreversible move can repeat. The board ([`Position::repetitions`]) and
//! the search (its path from the root) both decide repetitions with this one rule.

use crate::board::Board;
use crate::piece::Role;
use crate::position::Position;

/// What only irreversible moves change: the number of pieces and the number of pawns.
#[inline]
fn material(board: &Board) -> (u32, u32) {
    (board.occupied().count(), board.by_role(Role::Pawn).count())
}

/// Whether the move from `before` to `after` was irreversible: it captured, drowned or promoted
/// something, so no position before it can occur again.
#[inline]
pub fn is_irreversible(before: &Board, after: &Board) -> bool {
    material(before) != material(after)
}

/// Whether two positions are the same for repetition: the same placement and side to move (the
/// move number does not count).
#[inline]
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.zobrist_hash() == b.zobrist_hash() && a.turn() == b.turn() && a.board() == b.board()
}

/// The earlier positions of a game that `current` could repeat: `earlier` holds the game's
/// positions before `current`, newest first, and the walk stops at the first one reached by an
/// irreversible move (every position before it differs in material).
pub fn reachable<'a, I>(current: &'a Position, earlier: I) -> impl Iterator<Item = &'a Position> + 'a
where
    I: IntoIterator<Item = &'a Position>,
    I::IntoIter: 'a,
{
    let now = material(current.board());
    earlier.into_iter().take_while(move |p| material(p.board()) == now)
}

/// The Zobrist hashes of the positions `current` could repeat, oldest first: what
/// [`crate::search::Engine::search`] takes as a game's history. `earlier` as in [`reachable`].
pub fn history_keys<'a>(
    current: &'a Position,
    earlier: impl IntoIterator<Item = &'a Position> + 'a,
) -> Vec<u64> {
    let mut keys: Vec<u64> = reachable(current, earlier).map(Position::zobrist_hash).collect();
    keys.reverse();
    keys
}

impl Position {
    /// How many times this position has occurred in a game, counting itself: `earlier` holds the
    /// game's positions before it, newest first (see [`reachable`]).
    pub fn repetitions<'a>(&'a self, earlier: impl IntoIterator<Item = &'a Position> + 'a) -> usize {
        1 + reachable(self, earlier).filter(|p| same_position(self, p)).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    fn play(pos: &Position, moves: &str) -> Vec<Position> {
        let mut line = vec![*pos];
        for m in moves.split_whitespace() {
            let next = line.last().unwrap().play(&parse_move(m).unwrap()).unwrap();
            line.push(next);
        }
        line
    }

    #[test]
    fn a_shuffle_repeats_and_a_capture_cuts_the_history() {
        let line = play(&Position::start(), "g1f3 g7f5 f3g1 f5g7 g1f3 g7f5 f3g1 f5g7");
        let (current, earlier) = line.split_last().unwrap();
        assert_eq!(current.repetitions(earlier.iter().rev()), 3);
        assert_eq!(line[4].repetitions(line[..4].iter().rev()), 2);
        assert_eq!(line[1].repetitions(line[..1].iter().rev()), 1);
        // The same placement with another side to move is another position.
        assert!(!same_position(&line[0], &line[1]));
    }

    #[test]
    fn irreversible_moves_are_captures_drownings_and_promotions() {
        let start = Position::start();
        let quiet = play(&start, "g1f3");
        assert!(!is_irreversible(quiet[0].board(), quiet[1].board()));
        // A promotion keeps the piece count but not the pawn count.
        let promotion = play(&Position::from_fen("3l3/P6/7/7/7/7/3L3 w 1").unwrap(), "a6a7");
        assert!(is_irreversible(promotion[0].board(), promotion[1].board()));
        // A capture.
        let capture = play(&Position::from_fen("3l3/7/7/7/1p5/3Z3/3L3 w 1").unwrap(), "d2b3");
        assert!(is_irreversible(capture[0].board(), capture[1].board()));
        // The search of a history stops at the last irreversible move.
        let line =
            play(&Position::from_fen("3l3/7/7/7/1p5/3Z3/3L3 w 1").unwrap(), "d1e1 d7e7 e1d1 e7d7 d2b3");
        let (current, earlier) = line.split_last().unwrap();
        assert_eq!(reachable(current, earlier.iter().rev()).count(), 0);
        assert_eq!(line[4].repetitions(line[..4].iter().rev()), 2);
    }
}
