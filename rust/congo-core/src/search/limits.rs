//! When a search stops: a depth, a node count, a time, or nothing (until [`super::StopHandle::stop`]).

use core::fmt;
use std::time::{Duration, Instant};

use super::score::MAX_PLY;
use crate::bounds::Shown;

/// The deepest iteration a search runs (the rest of [`MAX_PLY`] is room for quiescence and extensions).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 28;

/// The longest time limit accepted, in seconds (about 31 years: "unlimited" in practice, and far from
/// the range where `Duration` arithmetic could overflow).
pub const MAX_TIME_SECONDS: f64 = 1e9;

/// The largest node limit accepted.
pub const MAX_NODES: u64 = u64::MAX;

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
}

/// Why a limit is not acceptable (the value as given: a binding passes bigger integers saturated).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LimitError {
    Depth(i128),
    Nodes(i128),
    Time(f64),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LimitError::Depth(d) => write!(f, "depth must be from 1 to {MAX_DEPTH}, got {}", Shown(d)),
            LimitError::Nodes(n) => write!(f, "nodes must be from 1 to {MAX_NODES}, got {}", Shown(n)),
            LimitError::Time(t) => {
                write!(f, "time must be a positive, finite number of seconds (at most {MAX_TIME_SECONDS:e}), got {t}")
            }
        }
    }
}

impl std::error::Error for LimitError {}

impl Limits {
    /// No limit: search until stopped (or until [`MAX_DEPTH`]).
    pub const fn infinite() -> Limits {
        Limits { depth: None, nodes: None, time: None }
    }

    /// Stop after the iteration of this depth.
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), nodes: None, time: None }
    }

    /// Stop after visiting this many nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits { depth: None, nodes: Some(nodes), time: None }
    }

    /// Stop after this much time.
    pub const fn time(time: Duration) -> Limits {
        Limits { depth: None, nodes: None, time: Some(time) }
    }

    /// Checked limits from loosely typed values (as a binding receives them): depth `1..=MAX_DEPTH`,
    /// nodes `1..=MAX_NODES`, time a finite number of seconds in `(0, MAX_TIME_SECONDS]`. The one
    /// place these ranges are checked.
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
        Ok(Limits { depth, nodes, time })
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
        Ok(())
    }

    /// The deepest iteration to run.
    pub(crate) fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH)
    }
}

/// The clock of one search: when it started, when it must end, and when starting another iteration
/// is no longer worth it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Clock {
    pub start: Instant,
    /// Past this instant the search is aborted wherever it is.
    pub hard: Option<Instant>,
    /// Past this instant no new iteration starts: the next one would very likely not finish, and an
    /// unfinished iteration wastes the time it took.
    pub soft: Option<Instant>,
}

/// Part of the time limit kept back for unwinding the search, joining helper threads and building
/// the result, so that the limit is not overrun.
const SAFETY_MARGIN: Duration = Duration::from_micros(1500);

/// The fraction of the time limit after which no new iteration starts (an iteration usually takes
/// two to three times as long as the previous one).
const SOFT_FRACTION: f64 = 0.45;

impl Clock {
    pub fn new(start: Instant, limits: &Limits) -> Clock {
        // `checked_add`: a limit too far in the future to represent is no limit at all.
        let hard = limits.time.and_then(|t| start.checked_add(t.saturating_sub(SAFETY_MARGIN).max(t / 2)));
        let soft = limits.time.and_then(|t| start.checked_add(t.mul_f64(SOFT_FRACTION)));
        Clock { start, hard, soft }
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
        assert_eq!(
            LimitError::Nodes(i128::MAX).to_string(),
            format!("nodes must be from 1 to {MAX_NODES}, got 2**127 or more")
        );
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
        let clock = Clock::new(Instant::now(), &Limits::time(Duration::MAX));
        assert!(clock.hard.is_none());
        let clock = Clock::new(Instant::now(), &Limits::time(Duration::from_millis(100)));
        assert!(clock.hard.is_some() && clock.soft < clock.hard);
    }

    #[test]
    fn messages_name_the_limit() {
        assert!(LimitError::Depth(0).to_string().starts_with("depth must be"));
        assert!(LimitError::Nodes(-1).to_string().starts_with("nodes must be"));
        assert!(LimitError::Time(0.0).to_string().starts_with("time must be"));
    }
}
