//! The ranges of the numbers callers pass in (depths, counts, sizes, move numbers), and the one
//! error that says a number is outside its range.
//!
//! Bindings receive numbers of any size (a Python int is unbounded); they convert them to `i128`,
//! saturating beyond it, and the core checks the range here, before anything is allocated or
//! started in proportion to the number.

use core::fmt;

/// The deepest perft accepted. Perft walks the tree depth first, so its recursion (and the move
/// lists it keeps) grows with the depth; a count this deep would take longer than anyone waits
/// anyway (depth 10 from the start is already about 10¹³ leaves).
pub const MAX_PERFT_DEPTH: u32 = 255;

/// The largest move number a position holds (a 32-bit count; it stays there after further moves).
pub const MAX_FULLMOVE: u32 = u32::MAX;

/// A number outside the range its argument accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// The argument's name, as the caller knows it (`depth`, `games`, …).
    pub name: &'static str,
    pub value: i128,
    pub min: i128,
    pub max: i128,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} must be from {} to {}, got {}", self.name, self.min, self.max, Shown(self.value))
    }
}

impl std::error::Error for OutOfRange {}

/// An argument's value as a message shows it: a saturated value (a bigger number was given) is
/// shown as a bound, not as the number it was clamped to.
pub(crate) struct Shown(pub i128);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            i128::MAX => f.write_str("2**127 or more"),
            i128::MIN => f.write_str("-2**127 or less"),
            n => write!(f, "{n}"),
        }
    }
}

/// `value` as a `T` if it lies in `min..=max`, else the error naming `name`.
pub fn checked<T>(name: &'static str, value: i128, min: T, max: T) -> Result<T, OutOfRange>
where
    T: Copy + Into<i128> + TryFrom<i128>,
{
    let (lo, hi) = (min.into(), max.into());
    if (lo..=hi).contains(&value) {
        if let Ok(v) = T::try_from(value) {
            return Ok(v);
        }
    }
    Err(OutOfRange { name, value, min: lo, max: hi })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_against_their_range() {
        assert_eq!(checked("depth", 5, 0u32, MAX_PERFT_DEPTH), Ok(5));
        let e = checked("depth", -1, 0u32, MAX_PERFT_DEPTH).unwrap_err();
        assert_eq!(e.to_string(), "depth must be from 0 to 255, got -1");
        let e = checked("games", i128::MAX, 0u64, u64::MAX).unwrap_err();
        assert_eq!(e.to_string(), "games must be from 0 to 18446744073709551615, got 2**127 or more");
        assert_eq!(checked("games", i128::from(u64::MAX), 0u64, u64::MAX), Ok(u64::MAX));
    }
}
