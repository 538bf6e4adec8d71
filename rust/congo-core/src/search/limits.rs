//! When a search stops: a depth, a node count, a time, a game clock, a mate found, or nothing (until
//! [`super::StopHandle::stop`]); and the time manager that turns a game clock into deadlines.

use core::fmt;
use std::time::{Duration, Instant};

use super::params::SearchParams;
use super::score::MAX_PLY;
use crate::bounds::Shown;

/// The deepest iteration a search runs (the rest of [`MAX_PLY`] is room for quiescence and extensions).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 28;

/// The longest time limit accepted, in seconds (about 31 years: "unlimited" in practice, and far from
/// the range where `Duration` arithmetic could overflow).
pub const MAX_TIME_SECONDS: f64 = 1e9;

/// The largest node limit accepted.
pub const MAX_NODES: u64 = u64::MAX;

/// The longest mate a `mate` limit may ask for, in own moves.
pub const MAX_MATE: u32 = MAX_DEPTH / 2;

/// What ends a search. Several limits may be combined: the first one reached ends it. With none, the
/// search runs until it is stopped or reaches [`MAX_DEPTH`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest completed iteration, `1..=MAX_DEPTH`.
    pub depth: Option<u32>,
    /// Nodes to visit (summed over all threads), at least 1.
    pub nodes: Option<u64>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Stop as soon as a win in at most this many own moves is found, `1..=MAX_MATE`. As the only
    /// limit, the search also ends after `2 * mate + MATE_DEPTH_SLACK` plies.
    pub mate: Option<u32>,
    /// The side to move's game clock: the time manager decides how much of it to spend.
    pub clock: Option<GameClock>,
}

/// Plies beyond `2 * mate` that a search limited only by `mate` goes before it gives up: the lion
/// extensions and the quiescence search usually find a mate well within `2 * mate - 1` plies, but
/// pruning can hide one for a few iterations.
pub const MATE_DEPTH_SLACK: u32 = 10;

/// A game clock as the side to move sees it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameClock {
    /// Time left on the clock (0 when already out of time: the engine then moves at once).
    pub remaining: Duration,
    /// Time added after each of its moves.
    pub increment: Duration,
    /// Moves (its own) until the clock is topped up by the next time control; `None`: the rest of the
    /// game is played on this clock (sudden death, with increments).
    pub moves_to_go: Option<u32>,
}

/// Why a limit is not acceptable (the value as given: a binding passes bigger integers saturated).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LimitError {
    Depth(i128),
    Nodes(i128),
    Time(f64),
    Mate(i128),
    /// A clock's remaining time or increment (negative, not finite or beyond [`MAX_TIME_SECONDS`]).
    Clock(f64),
    MovesToGo(i128),
    /// An increment or a number of moves to go without the time left on the clock.
    NoClock,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LimitError::Depth(d) => write!(f, "depth must be from 1 to {MAX_DEPTH}, got {}", Shown(d)),
            LimitError::Nodes(n) => write!(f, "nodes must be from 1 to {MAX_NODES}, got {}", Shown(n)),
            LimitError::Time(t) => {
                write!(f, "time must be a positive, finite number of seconds (at most {MAX_TIME_SECONDS:e}), got {t}")
            }
            LimitError::Mate(m) => write!(f, "mate must be from 1 to {MAX_MATE}, got {}", Shown(m)),
            LimitError::Clock(t) => write!(
                f,
                "clock times and increments must be finite numbers of seconds from 0 to {MAX_TIME_SECONDS:e}, got {t}"
            ),
            LimitError::MovesToGo(n) => {
                write!(f, "remaining_moves (moves to go) must be a positive integer, got {}", Shown(n))
            }
            LimitError::NoClock => {
                f.write_str("an increment or a number of remaining moves needs the time left on the clock")
            }
        }
    }
}

impl std::error::Error for LimitError {}

impl Limits {
    /// No limit: search until stopped (or until [`MAX_DEPTH`]).
    pub const fn infinite() -> Limits {
        Limits { depth: None, nodes: None, time: None, mate: None, clock: None }
    }

    /// Stop after the iteration of this depth.
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::infinite() }
    }

    /// Stop after visiting this many nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::infinite() }
    }

    /// Stop after this much time.
    pub const fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::infinite() }
    }

    /// Stop once a win in at most `moves` own moves is found.
    pub const fn mate(moves: u32) -> Limits {
        Limits { mate: Some(moves), ..Limits::infinite() }
    }

    /// Play on a game clock: the time manager decides how much of it this move gets.
    pub const fn clock(clock: GameClock) -> Limits {
        Limits { clock: Some(clock), ..Limits::infinite() }
    }

    /// Checked `mate` and clock limits added to these (as a binding receives them): `mate`
    /// `1..=MAX_MATE`; clock times and increments in seconds, finite, `0..=MAX_TIME_SECONDS` (a
    /// negative remaining time, as some programs send once a flag has fallen, counts as 0);
    /// `moves_to_go` ≥ 1. An increment or `moves_to_go` without `remaining` is an error.
    pub fn with_checked(
        self,
        mate: Option<i128>,
        remaining: Option<f64>,
        increment: Option<f64>,
        moves_to_go: Option<i128>,
    ) -> Result<Limits, LimitError> {
        let mate = mate
            .map(|m| u32::try_from(m).ok().filter(|m| (1..=MAX_MATE).contains(m)).ok_or(LimitError::Mate(m)))
            .transpose()?;
        let seconds = |t: f64, negative_ok: bool| {
            if t.is_finite() && t <= MAX_TIME_SECONDS && (t >= 0.0 || (negative_ok && t > -MAX_TIME_SECONDS))
            {
                Ok(Duration::from_secs_f64(t.max(0.0)))
            } else {
                Err(LimitError::Clock(t))
            }
        };
        let moves_to_go = moves_to_go
            .map(|n| u32::try_from(n).ok().filter(|&n| n >= 1).ok_or(LimitError::MovesToGo(n)))
            .transpose()?;
        let increment = increment.map(|t| seconds(t, false)).transpose()?;
        let clock = match remaining {
            Some(t) => Some(GameClock {
                remaining: seconds(t, true)?,
                increment: increment.unwrap_or_default(),
                moves_to_go,
            }),
            None if increment.is_some() || moves_to_go.is_some() => return Err(LimitError::NoClock),
            None => None,
        };
        Ok(Limits { mate, clock, ..self })
    }

    /// Checked limits from loosely typed values (as a binding receives them): depth `1..=MAX_DEPTH`,
    /// nodes `1..=MAX_NODES`, time a finite number of seconds in `(0, MAX_TIME_SECONDS]`. With
    /// [`Limits::with_checked`], the one place these ranges are checked.
    pub fn checked(
        depth: Option<i128>,
        nodes: Option<i128>,
        seconds: Option<f64>,
    ) -> Result<Limits, LimitError> {
        let depth = depth
            .map(|d| {
                u32::try_from(d).ok().filter(|d| (1..=MAX_DEPTH).contains(d)).ok_or(LimitError::Depth(d))
            })
            .transpose()?;
        let nodes = nodes
            .map(|n| u64::try_from(n).ok().filter(|&n| n >= 1).ok_or(LimitError::Nodes(n)))
            .transpose()?;
        let time = seconds
            .map(|t| {
                if t.is_finite() && t > 0.0 && t <= MAX_TIME_SECONDS {
                    Ok(Duration::from_secs_f64(t))
                } else {
                    Err(LimitError::Time(t))
                }
            })
            .transpose()?;
        Ok(Limits { depth, nodes, time, ..Limits::infinite() })
    }

    /// Whether the limits are within range (what [`Limits::checked`] guarantees).
    pub fn validate(&self) -> Result<(), LimitError> {
        if let Some(d) = self.depth {
            if !(1..=MAX_DEPTH).contains(&d) {
                return Err(LimitError::Depth(i128::from(d)));
            }
        }
        if self.nodes == Some(0) {
            return Err(LimitError::Nodes(0));
        }
        if let Some(t) = self.time {
            if t.is_zero() || t.as_secs_f64() > MAX_TIME_SECONDS {
                return Err(LimitError::Time(t.as_secs_f64()));
            }
        }
        if let Some(m) = self.mate {
            if !(1..=MAX_MATE).contains(&m) {
                return Err(LimitError::Mate(i128::from(m)));
            }
        }
        if let Some(clock) = self.clock {
            for t in [clock.remaining, clock.increment] {
                if t.as_secs_f64() > MAX_TIME_SECONDS {
                    return Err(LimitError::Clock(t.as_secs_f64()));
                }
            }
            if clock.moves_to_go == Some(0) {
                return Err(LimitError::MovesToGo(0));
            }
        }
        Ok(())
    }

    /// The deepest iteration to run.
    pub(crate) fn max_depth(&self) -> u32 {
        let only_mate = self.nodes.is_none() && self.time.is_none() && self.clock.is_none();
        let mate_depth = match self.mate {
            Some(m) if only_mate => 2 * m + MATE_DEPTH_SLACK,
            _ => MAX_DEPTH,
        };
        self.depth.unwrap_or(MAX_DEPTH).min(mate_depth).min(MAX_DEPTH)
    }
}

/// How much of a game clock one move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// What the move should take on average; no new iteration starts after 60 % of it.
    pub optimum: Duration,
    /// What it may take at most: past this the search is aborted wherever it is.
    pub maximum: Duration,
}

/// The moves a game is assumed to last beyond this one when the clock does not say (sudden death).
/// Congo games between engines last about 40 moves a side; the estimate is kept a little lower so
/// that more time goes to the opening and middlegame, where it matters, while the increments carry
/// the endgame.
pub const DEFAULT_MOVES_TO_GO: u32 = 25;

/// The largest share of the time left that one move may take, unless it is the last move before
/// the time control (`moves_to_go == 1`), which may take [`LAST_MOVE_SHARE`].
const MAX_SHARE: f64 = 0.4;
const LAST_MOVE_SHARE: f64 = 0.8;

/// How far a move may run over its optimum when the search needs it (the hard limit).
const MAX_OVER_OPTIMUM: u32 = 4;

/// The time manager: the budget of one move from the side to move's clock, after setting aside
/// `overhead` for what happens outside the search (the protocol, the process, the operating system)
/// on this move *and on every move to come*.
///
/// The time left plus the increments of the moves to come, minus the overhead of each of them, is
/// shared evenly over them (`moves_to_go`, or [`DEFAULT_MOVES_TO_GO`] in sudden death); a move may
/// run up to four times over its share, never beyond a fixed fraction of the time
/// left after this move's overhead. Counting the overhead of the moves to come keeps a reserve that
/// grows with the overhead: in a fast game with a small increment the clock settles well above the
/// latency spikes of a busy machine instead of draining to the last few milliseconds, and the
/// engine never plans to use more than the time left minus the overhead.
pub fn time_budget(clock: &GameClock, overhead: Duration) -> TimeBudget {
    let left = clock.remaining.saturating_sub(overhead);
    let moves = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| m.min(DEFAULT_MOVES_TO_GO)).max(1);
    let pool = clock
        .remaining
        .saturating_add(clock.increment.saturating_mul(moves - 1))
        .saturating_sub(overhead.saturating_mul(moves + 1));
    let share = if clock.moves_to_go == Some(1) { LAST_MOVE_SHARE } else { MAX_SHARE };
    let cap = left.mul_f64(share);
    let optimum = (pool / moves).min(cap);
    let maximum = optimum.saturating_mul(MAX_OVER_OPTIMUM).min(cap);
    TimeBudget { optimum, maximum }
}

/// The most a move may take from a game clock when its budget is spent before the first iteration
/// is complete: the share of the time left (after the overhead) that one move may never exceed. A
/// search with time left answers after a complete iteration, not with an unsearched move.
pub fn first_iteration_limit(clock: &GameClock, overhead: Duration) -> Duration {
    let left = clock.remaining.saturating_sub(overhead);
    left.mul_f64(if clock.moves_to_go == Some(1) { LAST_MOVE_SHARE } else { MAX_SHARE })
}

/// The clock of one search: when it started, when it must end, and when starting another iteration
/// is no longer worth it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Clock {
    pub start: Instant,
    /// Past this instant the search is aborted wherever it is (once an iteration is complete).
    pub hard: Option<Instant>,
    /// Past this instant the search is aborted even before its first iteration is complete (at or
    /// after `hard`: the budget of a low clock may be spent before depth 1 is).
    pub first: Option<Instant>,
    /// Past this instant no new iteration starts: the next one would very likely not finish, and an
    /// unfinished iteration wastes the time it took.
    pub soft: Option<Instant>,
    /// While pondering there is no deadline: the hard limit, this long, counts from the ponder hit
    /// (the engine's own clock starts then). The soft limit keeps counting from the start, so that
    /// the time spent pondering on the right move is time saved.
    hard_after_ponderhit: Option<Duration>,
    /// The soft limit, kept aside while pondering.
    pondered_soft: Option<Instant>,
    /// `first - hard`, kept aside while pondering.
    first_extra: Duration,
}

/// Part of the time limit kept back for unwinding the search, joining helper threads and building
/// the result, so that the limit is not overrun.
const SAFETY_MARGIN: Duration = Duration::from_micros(1500);

/// The soft limits (no new iteration after them) as fractions: of a fixed time a move, and of a clock
/// move's optimum ([`SearchParams::movetime_soft`] and [`SearchParams::clock_soft`], percent).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct SoftLimits {
    pub movetime: f64,
    pub clock: f64,
}

impl SoftLimits {
    pub fn of(params: &SearchParams) -> SoftLimits {
        SoftLimits {
            movetime: f64::from(params.movetime_soft) / 100.0,
            clock: f64::from(params.clock_soft) / 100.0,
        }
    }
}

impl Default for SoftLimits {
    fn default() -> SoftLimits {
        SoftLimits::of(&SearchParams::default())
    }
}

/// `duration × fraction`, or `None` when that is too long to represent (no limit, then).
/// (`Duration::mul_f64` panics there: a fraction of 1 or more of a huge limit overflows it.)
fn scaled(duration: Duration, fraction: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(duration.as_secs_f64() * fraction).ok()
}

impl Clock {
    /// The deadlines of a search started at `start`; `pondering`: none until [`Clock::ponderhit`].
    pub fn new(
        start: Instant,
        limits: &Limits,
        overhead: Duration,
        pondering: bool,
        soft_limits: SoftLimits,
    ) -> Clock {
        // The hard limit as a duration from the start (or from the ponder hit), the soft one as one
        // from the start; the tighter of a fixed time and a clock budget wins.
        let mut hard = limits.time.map(|t| t.saturating_sub(SAFETY_MARGIN).max(t / 2));
        let mut first = hard;
        // A soft limit at or past the hard one is none: the search runs until the hard limit.
        let mut soft = limits.time.and_then(|t| scaled(t, soft_limits.movetime)).filter(|&s| Some(s) < hard);
        if let Some(clock) = &limits.clock {
            let budget = time_budget(clock, overhead);
            hard = Some(hard.map_or(budget.maximum, |h| h.min(budget.maximum)));
            let last_resort = first_iteration_limit(clock, overhead).max(budget.maximum);
            first = Some(first.map_or(last_resort, |f| f.min(last_resort)));
            if let Some(clock_soft) = scaled(budget.optimum, soft_limits.clock) {
                soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
            }
        }
        let first_extra = match (hard, first) {
            (Some(h), Some(f)) => f.saturating_sub(h),
            _ => Duration::ZERO,
        };
        // `checked_add`: a limit too far in the future to represent is no limit at all.
        let soft = soft.and_then(|s| start.checked_add(s));
        if pondering {
            return Clock {
                start,
                hard: None,
                first: None,
                soft: None,
                hard_after_ponderhit: Some(hard.unwrap_or(Duration::MAX)),
                pondered_soft: soft,
                first_extra,
            };
        }
        let hard = hard.and_then(|h| start.checked_add(h));
        let first = first.and_then(|f| start.checked_add(f));
        Clock { start, hard, first, soft, hard_after_ponderhit: None, pondered_soft: None, first_extra }
    }

    /// When no new iteration should start, pondering or not (a ponder search that passes it keeps
    /// going, and stops at the ponder hit).
    pub fn soft_deadline(&self) -> Option<Instant> {
        self.soft.or(self.pondered_soft)
    }

    /// Whether the search is pondering (no deadline counts yet).
    pub fn is_pondering(&self) -> bool {
        self.hard_after_ponderhit.is_some()
    }

    /// The ponder move was played: the deadlines start to count.
    pub fn ponderhit(&mut self, now: Instant) {
        if let Some(hard) = self.hard_after_ponderhit.take() {
            self.hard = now.checked_add(hard);
            self.first = self.hard.and_then(|h| h.checked_add(self.first_extra));
            self.soft = self.pondered_soft.take();
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_limits_reject_out_of_range_values() {
        assert_eq!(Limits::checked(Some(5), None, None), Ok(Limits::depth(5)));
        assert_eq!(Limits::checked(Some(0), None, None), Err(LimitError::Depth(0)));
        assert_eq!(Limits::checked(Some(-3), None, None), Err(LimitError::Depth(-3)));
        assert!(Limits::checked(Some(i128::from(MAX_DEPTH) + 1), None, None).is_err());
        assert_eq!(Limits::checked(None, Some(i128::MAX), None), Err(LimitError::Nodes(i128::MAX)));
        assert_eq!(Limits::checked(None, Some(0), None), Err(LimitError::Nodes(0)));
        assert_eq!(Limits::checked(None, Some(1000), None), Ok(Limits::nodes(1000)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300] {
            assert!(Limits::checked(None, None, Some(bad)).is_err(), "{bad}");
        }
        let t = Limits::checked(None, None, Some(0.25)).unwrap();
        assert_eq!(t.time, Some(Duration::from_millis(250)));
        assert!(Limits::infinite().validate().is_ok());
        assert!(Limits::depth(0).validate().is_err());
        assert!(Limits::time(Duration::ZERO).validate().is_err());
    }

    #[test]
    fn a_huge_time_limit_is_no_deadline() {
        // No panic on overflow, and no deadline that could ever be reached.
        let clock = Clock::new(
            Instant::now(),
            &Limits::time(Duration::MAX),
            Duration::ZERO,
            false,
            SoftLimits::default(),
        );
        assert!(clock.hard.is_none());
        let clock = Clock::new(
            Instant::now(),
            &Limits::time(Duration::from_millis(100)),
            Duration::ZERO,
            false,
            SoftLimits::default(),
        );
        assert!(clock.hard.is_some() && clock.soft < clock.hard);
        // The soft limits at their largest, of the largest limit and clock: still no panic.
        let most = SoftLimits { movetime: 1.0, clock: 4.0 };
        let clock = Clock::new(Instant::now(), &Limits::time(Duration::MAX), Duration::ZERO, false, most);
        assert!(clock.hard.is_none());
        assert!(clock.soft.is_none());
        let huge = GameClock { remaining: Duration::MAX, increment: Duration::MAX, moves_to_go: None };
        for limits in [Limits::clock(huge), Limits { time: Some(Duration::MAX), ..Limits::clock(huge) }] {
            let _ = Clock::new(Instant::now(), &limits, Duration::ZERO, false, most);
        }
    }

    fn clock(remaining_ms: u64, increment_ms: u64, moves_to_go: Option<u32>) -> GameClock {
        GameClock {
            remaining: Duration::from_millis(remaining_ms),
            increment: Duration::from_millis(increment_ms),
            moves_to_go,
        }
    }

    #[test]
    fn a_budget_never_reaches_past_the_time_left_minus_the_overhead() {
        let overhead = Duration::from_millis(30);
        for remaining in [0, 1, 10, 29, 30, 31, 50, 100, 1000, 10_000, 600_000] {
            for increment in [0, 20, 100, 1000, 30_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40), Some(1000)] {
                    let c = clock(remaining, increment, moves_to_go);
                    let budget = time_budget(&c, overhead);
                    let left = c.remaining.saturating_sub(overhead);
                    assert!(budget.optimum <= budget.maximum, "{c:?}");
                    assert!(budget.maximum <= left, "{c:?} {budget:?}");
                }
            }
        }
    }

    #[test]
    fn a_budget_shares_the_clock_over_the_moves_to_come() {
        let none = Duration::ZERO;
        // Sudden death, 60 s: about a 25th of it, at most four times that.
        let b = time_budget(&clock(60_000, 0, None), none);
        assert_eq!(b.optimum, Duration::from_millis(2400));
        assert_eq!(b.maximum, Duration::from_millis(9600));
        // Increments count for the moves to come, and so does the overhead of each.
        let b = time_budget(&clock(1000, 20, None), none);
        assert_eq!(b.optimum, Duration::from_micros((1000 + 24 * 20) * 1000 / 25));
        let b = time_budget(&clock(1000, 20, None), Duration::from_millis(10));
        assert_eq!(b.optimum, Duration::from_micros((1000 + 24 * 20 - 26 * 10) * 1000 / 25));
        // The last move before the time control may take most of what is left.
        let b = time_budget(&clock(1000, 0, Some(1)), none);
        assert_eq!(b.maximum, Duration::from_millis(800));
        // Out of time: move at once.
        let b = time_budget(&clock(20, 0, None), Duration::from_millis(30));
        assert_eq!(b.maximum, Duration::ZERO);
        // Low on time with a small increment: the reserve for the overheads to come is kept.
        let b = time_budget(&clock(300, 20, None), Duration::from_millis(30));
        assert_eq!(b.optimum, Duration::ZERO);
    }

    #[test]
    fn a_clock_and_a_fixed_time_give_the_tighter_deadline() {
        let start = Instant::now();
        let limits =
            Limits { time: Some(Duration::from_millis(50)), ..Limits::clock(clock(60_000, 0, None)) };
        let c = Clock::new(start, &limits, Duration::ZERO, false, SoftLimits::default());
        assert_eq!(c.hard, Some(start + Duration::from_micros(48_500)));
        let limits = Limits { time: Some(Duration::from_secs(50)), ..Limits::clock(clock(60_000, 0, None)) };
        let c = Clock::new(start, &limits, Duration::ZERO, false, SoftLimits::default());
        assert_eq!(c.hard, Some(start + Duration::from_millis(9600)));
    }

    #[test]
    fn a_low_clock_still_allows_a_first_iteration() {
        // 0.5 s left with 30 ms of overhead: the budget keeps the reserve for the moves to come
        // (nothing to spend), but the first iteration may take up to 40 % of what is left.
        let start = Instant::now();
        let limits = Limits::clock(clock(500, 0, None));
        let c = Clock::new(start, &limits, Duration::from_millis(30), false, SoftLimits::default());
        assert_eq!(c.hard, Some(start));
        assert_eq!(c.first, Some(start + Duration::from_millis(470).mul_f64(0.4)));
        // Out of time: nothing at all.
        let c = Clock::new(
            start,
            &Limits::clock(clock(20, 0, None)),
            Duration::from_millis(30),
            false,
            SoftLimits::default(),
        );
        assert_eq!(c.first, Some(start));
        // A fixed time: the same deadline for every iteration.
        let c = Clock::new(
            start,
            &Limits::time(Duration::from_millis(100)),
            Duration::ZERO,
            false,
            SoftLimits::default(),
        );
        assert_eq!(c.first, c.hard);
    }

    #[test]
    fn pondering_has_no_deadline_until_the_ponder_hit() {
        let start = Instant::now();
        let limits = Limits::clock(clock(10_000, 0, None));
        let mut c = Clock::new(start, &limits, Duration::ZERO, true, SoftLimits::default());
        assert!(c.is_pondering() && c.hard.is_none() && c.soft.is_none());
        let hit = start + Duration::from_secs(5);
        c.ponderhit(hit);
        assert!(!c.is_pondering());
        // The hard limit counts from the hit, the soft one from the start.
        assert_eq!(c.hard, Some(hit + Duration::from_millis(1600)));
        assert_eq!(c.soft, Some(start + Duration::from_millis(400).mul_f64(SoftLimits::default().clock)));
        // Pondering with no time limit at all: still no deadline after the hit.
        let mut c = Clock::new(start, &Limits::infinite(), Duration::ZERO, true, SoftLimits::default());
        c.ponderhit(hit);
        assert!(c.hard.is_none() && !c.is_pondering());
    }

    #[test]
    fn clock_and_mate_limits_are_checked() {
        let base = Limits::infinite();
        assert_eq!(base.with_checked(Some(3), None, None, None), Ok(Limits::mate(3)));
        assert_eq!(base.with_checked(Some(0), None, None, None), Err(LimitError::Mate(0)));
        assert!(base.with_checked(Some(i128::from(MAX_MATE) + 1), None, None, None).is_err());
        let limits = base.with_checked(None, Some(1.5), Some(0.02), Some(40)).unwrap();
        assert_eq!(limits.clock, Some(clock(1500, 20, Some(40))));
        // A fallen flag counts as no time left.
        assert_eq!(base.with_checked(None, Some(-0.2), None, None).unwrap().clock, Some(clock(0, 0, None)));
        for bad in [f64::NAN, f64::INFINITY, 1e300] {
            assert!(base.with_checked(None, Some(bad), None, None).is_err(), "{bad}");
            assert!(base.with_checked(None, Some(1.0), Some(bad), None).is_err(), "{bad}");
        }
        assert!(base.with_checked(None, Some(1.0), Some(-1.0), None).is_err());
        assert!(base.with_checked(None, Some(1.0), None, Some(0)).is_err());
        assert_eq!(base.with_checked(None, None, Some(1.0), None), Err(LimitError::NoClock));
        assert_eq!(base.with_checked(None, None, None, Some(3)), Err(LimitError::NoClock));
    }

    #[test]
    fn a_mate_limit_alone_bounds_the_depth() {
        assert_eq!(Limits::mate(3).max_depth(), 6 + MATE_DEPTH_SLACK);
        assert_eq!(Limits { nodes: Some(10), ..Limits::mate(3) }.max_depth(), MAX_DEPTH);
        assert_eq!(Limits { depth: Some(4), ..Limits::mate(3) }.max_depth(), 4);
    }

    #[test]
    fn messages_name_the_limit() {
        assert!(LimitError::Depth(0).to_string().starts_with("depth must be"));
        assert!(LimitError::Nodes(-1).to_string().starts_with("nodes must be"));
        assert!(LimitError::Time(0.0).to_string().starts_with("time must be"));
    }

    #[test]
    fn the_soft_limit_of_a_fixed_time_is_a_parameter() {
        let start = Instant::now();
        let limits = Limits::time(Duration::from_millis(100));
        let mut params = SearchParams { movetime_soft: 40, ..SearchParams::default() };
        let c = Clock::new(start, &limits, Duration::ZERO, false, SoftLimits::of(&params));
        let soft = c.soft.expect("a soft limit").duration_since(start);
        assert!(soft.abs_diff(Duration::from_millis(40)) < Duration::from_micros(1), "{soft:?}");
        // At 100 % no soft limit is left: the search runs to the hard limit.
        params.movetime_soft = 100;
        let c = Clock::new(start, &limits, Duration::ZERO, false, SoftLimits::of(&params));
        assert_eq!(c.soft, None);
        assert_eq!(c.hard, start.checked_add(Duration::from_micros(100_000 - 1_500)));
        assert_eq!(SAFETY_MARGIN, Duration::from_micros(1_500));
        // A clock's soft limit is its own parameter.
        params.clock_soft = 50;
        let clock = Limits::clock(GameClock {
            remaining: Duration::from_secs(10),
            increment: Duration::ZERO,
            moves_to_go: Some(10),
        });
        let c = Clock::new(start, &clock, Duration::ZERO, false, SoftLimits::of(&params));
        let optimum = time_budget(
            &GameClock {
                remaining: Duration::from_secs(10),
                increment: Duration::ZERO,
                moves_to_go: Some(10),
            },
            Duration::ZERO,
        )
        .optimum;
        let soft = c.soft.expect("a soft limit").duration_since(start);
        assert!(soft.abs_diff(optimum / 2) < Duration::from_micros(1), "{soft:?}");
    }
}
