//! Random playouts: whole games of uniformly random legal moves, for Monte Carlo bots and benchmarks.

use crate::interrupt::{Interrupt, Interrupted, Never, Ticker};
use crate::outcome::Termination;
use crate::piece::Color;
use crate::position::Position;
use crate::rng::SplitMix64;

/// What a batch of random games came to.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct PlayoutStats {
    pub games: u64,
    pub white_wins: u64,
    pub black_wins: u64,
    /// Bare lions, or the ply limit reached.
    pub draws: u64,
    /// Moves played over all games.
    pub plies: u64,
}

/// Plays `games` random games from `start`, each until the rules end it (a captured lion, no legal
/// move, bare lions) or `max_plies` moves have been played (a draw). Reproducible from `seed`.
pub fn random_playouts(start: &Position, games: u64, seed: u64, max_plies: u32) -> PlayoutStats {
    random_playouts_interruptible(start, games, seed, max_plies, Never).unwrap_or_default()
}

/// [`random_playouts`], stopped by `interrupt` (asked about every [`Interrupt::INTERVAL`] moves).
pub fn random_playouts_interruptible(
    start: &Position,
    games: u64,
    seed: u64,
    max_plies: u32,
    interrupt: impl Interrupt,
) -> Result<PlayoutStats, Interrupted> {
    let mut rng = SplitMix64::new(seed);
    let mut ticker = Ticker::new(interrupt);
    let mut stats = PlayoutStats { games, ..PlayoutStats::default() };
    for _ in 0..games {
        let (winner, plies) = play_random_game(start, &mut rng, max_plies, &mut ticker);
        if ticker.stopped() {
            return Err(Interrupted);
        }
        stats.plies += u64::from(plies);
        match winner {
            Some(Color::White) => stats.white_wins += 1,
            Some(Color::Black) => stats.black_wins += 1,
            None => stats.draws += 1,
        }
    }
    Ok(stats)
}

/// One random game: the winner (`None` for a draw) and the number of moves played.
pub fn random_game(start: &Position, rng: &mut SplitMix64, max_plies: u32) -> (Option<Color>, u32) {
    play_random_game(start, rng, max_plies, &mut Ticker::new(Never))
}

fn play_random_game<I: Interrupt>(
    start: &Position,
    rng: &mut SplitMix64,
    max_plies: u32,
    ticker: &mut Ticker<I>,
) -> (Option<Color>, u32) {
    let mut pos = *start;
    for ply in 0..max_plies {
        if ticker.tick(1) {
            return (None, ply);
        }
        // The cheap end-of-game tests first; "no legal move" falls out of generating the moves.
        if pos.is_decided() || pos.is_bare_lions() {
            return (pos.outcome().and_then(|o| o.winner), ply);
        }
        // Counting and then picking the chosen move alone is cheaper than generating them all.
        let count = pos.count_legal_moves();
        let Some(m) = (count > 0).then(|| pos.nth_legal_move(rng.below(count as usize) as u64)).flatten()
        else {
            return (Some(!pos.turn()), ply);
        };
        pos.play_in_place(&m);
    }
    let winner = pos.outcome().filter(|o| o.termination != Termination::BareLions).and_then(|o| o.winner);
    (winner, max_plies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_are_reproducible_and_add_up() {
        let start = Position::start();
        let a = random_playouts(&start, 50, 7, 300);
        assert_eq!(a, random_playouts(&start, 50, 7, 300));
        assert_eq!(a.white_wins + a.black_wins + a.draws, 50);
        assert!(a.plies > 50);
    }

    #[test]
    fn a_decided_position_ends_at_once() {
        let won = Position::from_fen("3L3/7/7/7/7/7/7 b 1").unwrap();
        let stats = random_playouts(&won, 3, 1, 100);
        assert_eq!((stats.white_wins, stats.plies), (3, 0));
    }

    #[test]
    fn the_ply_limit_draws() {
        let stats = random_playouts(&Position::start(), 10, 3, 0);
        assert_eq!((stats.draws, stats.plies), (10, 0));
    }

    #[test]
    fn a_set_flag_interrupts_the_playouts() {
        let stop = std::sync::atomic::AtomicBool::new(true);
        let start = Position::start();
        assert_eq!(random_playouts_interruptible(&start, u64::MAX, 1, u32::MAX, &stop), Err(Interrupted));
        let go = std::sync::atomic::AtomicBool::new(false);
        assert_eq!(
            random_playouts_interruptible(&start, 50, 7, 300, &go),
            Ok(random_playouts(&start, 50, 7, 300))
        );
    }
}
