//! Search scores: centipawns, or the distance to a won or lost game.
//!
//! Internally a score is an `i32` from the side to move's point of view. Capturing the enemy lion
//! (or leaving the opponent without a legal move) is Congo's checkmate: a position where the side to
//! move has already lost scores `-MATE`, and each ply between the root and that position brings the
//! score one step closer to zero, so a shorter win always scores higher than a longer one.

use core::fmt;

/// The score of a position whose side to move has lost (from the winner's view, one ply earlier,
/// `MATE - 1`).
pub const MATE: i32 = 30_000;

/// The deepest ply a search reaches; also bounds the distance encoded in a mate score.
pub const MAX_PLY: usize = 128;

/// The longest distance to a forced result a score carries: a search finds mates up to
/// [`MAX_PLY`] plies away, and a tablebase adds its distance to the ply where it is probed.
pub const MAX_MATE_DISTANCE: usize = 1024;

/// Scores at or beyond this magnitude are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - MAX_MATE_DISTANCE as i32;

/// Larger than any score: the initial window of a search.
pub const INFINITE: i32 = MATE + 1;

/// The side to move wins with its move at `ply` plies from the root (`ply` counts the winning move).
#[inline]
pub const fn win_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The side to move has lost, `ply` plies from the root.
#[inline]
pub const fn lost_at(ply: usize) -> i32 {
    -(MATE - ply as i32)
}

/// Whether a score announces a forced result rather than an evaluation.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Converts a score relative to the root into one relative to the node at `ply` (for storing in the
/// transposition table, where an entry may be found again at another ply).
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search score as shown to users: an evaluation in centipawns or a forced result.
///
/// Both are from the side to move's point of view.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Score {
    /// An evaluation in centipawns (a pawn is worth about 100).
    Cp(i32),
    /// A forced result: the side to move wins with its `n`-th own move for `n > 0`, or loses after
    /// the opponent's `-n`-th move for `n < 0`. `Mate(0)` is a game the side to move has already lost.
    Mate(i32),
}

impl Score {
    /// The user-facing form of an internal score.
    pub const fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            // Win at ply p (odd: the winning move is ours): our (p + 1) / 2-th move.
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            // Loss at ply p (even: the opponent's move wins): after their p / 2-th move.
            Score::Mate(-((MATE + score) / 2))
        } else {
            Score::Cp(score)
        }
    }

    /// The centipawn value, or `None` for a forced result.
    pub const fn cp(self) -> Option<i32> {
        match self {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    /// The number of own moves to a forced result (negative: lost), or `None` for an evaluation.
    pub const fn mate(self) -> Option<i32> {
        match self {
            Score::Cp(_) => None,
            Score::Mate(n) => Some(n),
        }
    }
}

impl fmt::Display for Score {
    /// `+35` / `-120` centipawns, or `#3` / `#-2` for forced results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{cp:+}"),
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_count_own_moves() {
        // Capturing the lion with the root move: the lost position is at ply 1.
        assert_eq!(Score::from_internal(-lost_at(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(win_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(win_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(win_in(5)), Score::Mate(3));
        // Our lion is captured by the opponent's first reply: lost at ply 2.
        assert_eq!(Score::from_internal(lost_at(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(lost_at(4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(lost_at(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(37), Score::Cp(37));
    }

    #[test]
    fn table_scores_are_relative_to_the_node() {
        let at_root = win_in(7);
        let stored = to_tt(at_root, 4);
        assert_eq!(stored, win_in(3));
        assert_eq!(from_tt(stored, 4), at_root);
        assert_eq!(from_tt(to_tt(-250, 9), 9), -250);
        assert_eq!(from_tt(to_tt(lost_at(10), 3), 3), lost_at(10));
    }

    #[test]
    fn display() {
        assert_eq!(Score::Cp(35).to_string(), "+35");
        assert_eq!(Score::Cp(-120).to_string(), "-120");
        assert_eq!(Score::Mate(3).to_string(), "#3");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
    }
}
