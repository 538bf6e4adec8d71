//! Move notation (docs/rules.md §9): squares concatenated in lower case (`e3e4`, `b1d3f5`).
//!
//! On input the MindSports forms `d2-e3`, `d2xe3`, `a2-c4-c6x` and the comma form `b1d3,d3f5` are
//! accepted too, in either case.

use core::fmt;

use crate::moves::{Path, PathError};
use crate::square::Square;

/// What is wrong with a move string.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum MoveSyntaxError {
    Empty,
    /// Text that is not a square where a square was expected.
    InvalidSquare {
        text: String,
    },
    /// Concatenated squares must come in pairs of two characters.
    OddLength {
        length: usize,
    },
    /// In the comma form, a leg must start where the previous one ended.
    DisconnectedLegs {
        previous_end: Square,
        next_start: Square,
    },
    /// The squares do not form a move path.
    Path(PathError),
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveSyntaxError::Empty => f.write_str("empty move string"),
            MoveSyntaxError::InvalidSquare { text } => {
                write!(f, "{text:?} is not a square (files a-g, ranks 1-7)")
            }
            MoveSyntaxError::OddLength { length } => write!(
                f,
                "a move is an even number of characters (two per square), this one has {length}"
            ),
            MoveSyntaxError::DisconnectedLegs { previous_end, next_start } => write!(
                f,
                "in the comma form each leg must start where the previous one ended ({previous_end}), not on {next_start}"
            ),
            MoveSyntaxError::Path(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveSyntaxError {}

impl From<PathError> for MoveSyntaxError {
    fn from(e: PathError) -> Self {
        MoveSyntaxError::Path(e)
    }
}

/// Parses a move string in any accepted form.
pub fn parse_move(text: &str) -> Result<Path, MoveSyntaxError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveSyntaxError::Empty);
    }
    let mut squares: Vec<Square> = Vec::with_capacity(4);
    for (i, leg) in text.split(',').enumerate() {
        let leg_squares = parse_squares(leg.trim())?;
        if i > 0 {
            // The comma form repeats each joint square: `b1d3,d3f5`.
            let (previous_end, next_start) = (squares[squares.len() - 1], leg_squares[0]);
            if previous_end != next_start {
                return Err(MoveSyntaxError::DisconnectedLegs { previous_end, next_start });
            }
            squares.extend_from_slice(&leg_squares[1..]);
        } else {
            squares.extend_from_slice(&leg_squares);
        }
    }
    Ok(Path::from_squares(&squares)?)
}

/// The squares of one comma-free part: concatenated pairs, or squares separated by `-` or `x`
/// (with an optional trailing `x`).
fn parse_squares(text: &str) -> Result<Vec<Square>, MoveSyntaxError> {
    let body = text.strip_suffix(['x', 'X']).unwrap_or(text);
    if body.is_empty() {
        return Err(MoveSyntaxError::Empty);
    }
    let has_separators = body.len() > 2 && body.contains(['-', 'x', 'X']);
    if has_separators {
        body.split(['-', 'x', 'X']).map(parse_square).collect()
    } else {
        if body.len() % 2 != 0 || !body.is_ascii() {
            return if body.is_ascii() {
                Err(MoveSyntaxError::OddLength { length: body.len() })
            } else {
                Err(MoveSyntaxError::InvalidSquare { text: body.to_owned() })
            };
        }
        body.as_bytes()
            .chunks(2)
            .map(|pair| {
                Square::from_name_bytes(pair[0], pair[1]).ok_or_else(|| MoveSyntaxError::InvalidSquare {
                    text: String::from_utf8_lossy(pair).into_owned(),
                })
            })
            .collect()
    }
}

fn parse_square(text: &str) -> Result<Square, MoveSyntaxError> {
    Square::parse(text.trim()).ok_or_else(|| MoveSyntaxError::InvalidSquare { text: text.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(text: &str) -> String {
        parse_move(text).map_or_else(|e| format!("error: {e}"), |p| p.uci())
    }

    #[test]
    fn all_input_forms() {
        assert_eq!(uci("e3e4"), "e3e4");
        assert_eq!(uci("d2-e3"), "d2e3");
        assert_eq!(uci("d2xe3"), "d2e3");
        assert_eq!(uci("a2-c4-c6x"), "a2c4c6");
        assert_eq!(uci("b1d3,d3f5"), "b1d3f5");
        assert_eq!(uci("B1D3F5"), "b1d3f5");
        assert_eq!(uci(" b5b3d3f5 "), "b5b3d3f5");
    }

    #[test]
    fn malformed_moves_are_rejected() {
        assert_eq!(parse_move(""), Err(MoveSyntaxError::Empty));
        assert!(matches!(parse_move("e3e"), Err(MoveSyntaxError::OddLength { length: 3 })));
        assert!(matches!(parse_move("e3h4"), Err(MoveSyntaxError::InvalidSquare { .. })));
        assert!(matches!(parse_move("e3e3"), Err(MoveSyntaxError::Path(PathError::NullLeg { .. }))));
        assert!(matches!(parse_move("b1d3,c3e5"), Err(MoveSyntaxError::DisconnectedLegs { .. })));
        assert!(matches!(parse_move("b1d3e4"), Err(MoveSyntaxError::Path(PathError::NotAJump { .. }))));
        assert!(matches!(parse_move("é3e4"), Err(MoveSyntaxError::InvalidSquare { .. })));
        assert!(matches!(parse_move("e3-"), Err(MoveSyntaxError::InvalidSquare { .. })));
    }
}
