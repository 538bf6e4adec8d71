//! Stopping long computations early: perft, divide and random playouts look at an [`Interrupt`]
//! now and then and stop when it says so (a binding answers Ctrl-C this way; the search has its
//! own [`crate::search::StopHandle`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// Something a long computation asks, every so often, whether it should stop.
///
/// Asked about every [`Interrupt::INTERVAL`] units of work (nodes, games), so an implementation may
/// look at a clock or take a lock; once it has said `true` it should keep saying so.
pub trait Interrupt {
    /// Units of work (perft nodes, playout moves) between two questions.
    const INTERVAL: u64 = 4096;

    /// Whether the computation should stop now.
    fn should_stop(&mut self) -> bool;
}

/// Never stops: the plain, uninterruptible computation.
#[derive(Copy, Clone, Debug, Default)]
pub struct Never;

impl Interrupt for Never {
    const INTERVAL: u64 = u64::MAX;

    #[inline]
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// A flag another thread sets.
impl Interrupt for &AtomicBool {
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// A computation that was stopped before it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Interrupted;

impl core::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// Counts units of work and asks the interrupt every [`Interrupt::INTERVAL`] of them.
pub(crate) struct Ticker<I: Interrupt> {
    interrupt: I,
    left: u64,
    stopped: bool,
}

impl<I: Interrupt> Ticker<I> {
    pub(crate) fn new(interrupt: I) -> Ticker<I> {
        Ticker { interrupt, left: I::INTERVAL, stopped: false }
    }

    /// Counts `work` units; whether to stop.
    #[inline]
    pub(crate) fn tick(&mut self, work: u64) -> bool {
        if work >= self.left {
            self.left = I::INTERVAL;
            self.stopped = self.stopped || self.interrupt.should_stop();
        } else {
            self.left -= work;
        }
        self.stopped
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// `value`, unless the work was stopped before it was complete.
    pub(crate) fn result<T>(&self, value: T) -> Result<T, Interrupted> {
        if self.stopped {
            Err(Interrupted)
        } else {
            Ok(value)
        }
    }
}
