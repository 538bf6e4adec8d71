//! The win/draw/loss model: what a score means as chances of winning, drawing and losing.
//!
//! Stockfish's shape: from the side to move's view, with `x` the score in centipawns,
//!
//! ```text
//! win  = 1 / (1 + exp((a - x) / b))
//! loss = 1 / (1 + exp((a + x) / b))
//! draw = 1 - win - loss
//! ```
//!
//! where `a` (the score of an even chance to win) and `b` (how fast the chances change) are
//! quadratic in the game's phase, `m = min(ply, PLY_CAP) / 100`, `ply` the moves played since the
//! start (python-chess's `wdl(ply=...)`). The model is symmetric by construction (a score and its
//! negation swap wins and losses), and `a > 0` over the whole range keeps the draw share positive.
//! The constants are fitted by maximum likelihood on the engine's self-play outcomes by
//! `benches/tuning/wdl.py`; its calibration table is in docs/engine.md. Forced results are certain:
//! a win is 1000/0/0, a loss 0/0/1000.

use core::cmp::Ordering;

use super::Score;

/// `a`'s coefficients in `m` (constant, linear, quadratic): fitted by `benches/tuning/wdl.py`.
const A: [f64; 3] = [241.977, -183.152, 144.591];
/// `b`'s coefficients in `m`.
const B: [f64; 3] = [568.045, -390.87, 157.262];
/// Later plies count as this one: the fit saw few games longer.
pub const PLY_CAP: u32 = 240;
/// Scores beyond this magnitude count as this one (the fit's range).
const CP_CAP: i32 = 4000;

/// The ply assumed when none is known: about the middle of a game (python-chess's default too).
pub const DEFAULT_PLY: u32 = 30;

/// Chances per mille from the side to move's view: `wins + draws + losses == 1000`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    /// The same chances from the other side's view.
    #[must_use]
    pub const fn flipped(self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }
}

fn phase(ply: u32) -> (f64, f64) {
    let m = f64::from(ply.min(PLY_CAP)) / 100.0;
    let a = A[0] + A[1] * m + A[2] * m * m;
    let b = B[0] + B[1] * m + B[2] * m * m;
    (a, b)
}

/// The chance (per mille, rounded) that the side to move wins, for an evaluation of `cp`.
fn win_per_mille(cp: i32, ply: u32) -> u32 {
    let (a, b) = phase(ply);
    let x = f64::from(cp.clamp(-CP_CAP, CP_CAP));
    let win = 1.0 / (1.0 + ((a - x) / b).exp());
    // In [0, 1000] by construction; the cast only drops the fraction `round` already removed.
    (win * 1000.0).round() as u32
}

/// The chances of an evaluation of `cp` centipawns at `ply`, from the side to move's view.
#[must_use]
pub fn wdl_cp(cp: i32, ply: u32) -> Wdl {
    let mut wins = win_per_mille(cp, ply);
    // The loss is the win of the negated score: the symmetry holds exactly, rounding included.
    let mut losses = win_per_mille(cp.saturating_neg(), ply);
    // `a > 0` keeps the true sum below one, but rounding may push it a unit over: the smaller
    // share gives way (both alike when equal), which keeps the symmetry.
    let excess = (wins + losses).saturating_sub(1000);
    match wins.cmp(&losses) {
        Ordering::Greater => losses -= excess.min(losses),
        Ordering::Less => wins -= excess.min(wins),
        Ordering::Equal => {
            wins -= excess / 2;
            losses -= excess / 2;
        }
    }
    Wdl { wins, draws: 1000 - wins - losses, losses }
}

/// The chances of a search score at `ply`: a forced win is 1000/0/0, a forced loss 0/0/1000.
#[must_use]
pub fn wdl(score: Score, ply: u32) -> Wdl {
    match score {
        Score::Cp(cp) => wdl_cp(cp, ply),
        Score::Mate(n) if n > 0 => Wdl { wins: 1000, draws: 0, losses: 0 },
        Score::Mate(_) => Wdl { wins: 0, draws: 0, losses: 1000 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_to_a_thousand_and_mirror_under_negation() {
        for ply in [0, 1, 30, 80, 150, PLY_CAP, PLY_CAP + 100, u32::MAX] {
            for cp in (-5000..=5000).step_by(7).chain([i32::MIN + 1, i32::MAX, i32::MIN]) {
                let w = wdl_cp(cp, ply);
                assert_eq!(w.wins + w.draws + w.losses, 1000, "{cp} at {ply}: {w:?}");
                assert_eq!(wdl_cp(cp.saturating_neg(), ply), w.flipped(), "{cp} at {ply}");
            }
        }
    }

    #[test]
    fn wins_grow_and_losses_shrink_with_the_score() {
        for ply in [0, 30, 120, PLY_CAP] {
            let mut last = wdl_cp(-5000, ply);
            for cp in -4999..=5000 {
                let w = wdl_cp(cp, ply);
                assert!(w.wins >= last.wins && w.losses <= last.losses, "{cp} at {ply}: {last:?} then {w:?}");
                last = w;
            }
            let even = wdl_cp(0, ply);
            assert_eq!(even.wins, even.losses);
            assert!(even.draws > 0, "{even:?}");
            assert!(wdl_cp(3000, ply).wins > 950, "{ply}");
        }
    }

    #[test]
    fn the_phase_is_positive_where_the_model_is_used() {
        for ply in 0..=PLY_CAP {
            let (a, b) = phase(ply);
            assert!(a > 0.0 && b > 0.0, "ply {ply}: a {a}, b {b}");
        }
    }

    #[test]
    fn forced_results_are_certain() {
        let win = Wdl { wins: 1000, draws: 0, losses: 0 };
        assert_eq!(wdl(Score::Mate(1), 10), win);
        assert_eq!(wdl(Score::Mate(-3), 10), win.flipped());
        // Mate(0): the side to move has already lost.
        assert_eq!(wdl(Score::Mate(0), 10), win.flipped());
        assert_eq!(wdl(Score::Cp(57), 10), wdl_cp(57, 10));
    }
}
