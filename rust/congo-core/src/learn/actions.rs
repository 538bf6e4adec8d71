//! The fixed action space: 40 kinds of leg from each of the 49 squares, plus "stop".
//!
//! A leg is a from-square and a displacement `(files, ranks)`. Every single-leg move of every piece
//! and every monkey jump is one of 40 displacements:
//!
//! | kinds   | displacement                                   | used by                                      |
//! |---------|------------------------------------------------|----------------------------------------------|
//! | 0–23    | N, E, S, W (in that order) × distance 1–6      | steps, elephant and pawn leaps, crocodile slides, facing lions, monkey jumps |
//! | 24–31   | NE, SE, SW, NW × distance 1–2                  | steps, giraffe and superpawn leaps, the c3–e5 facing capture, monkey jumps |
//! | 32–39   | the knight's eight leaps (see [`MOVE_KINDS`])  | zebra                                        |
//!
//! Action `kind * 49 + from` (so a policy is 40 planes of 7×7, like the observation), and
//! [`STOP`] `= 1960` ends a monkey chain. [`NUM_ACTIONS`] `= 1961`.

use core::fmt;

use crate::square::{Square, NUM_SQUARES};

/// Kinds of leg (displacements).
pub const NUM_MOVE_KINDS: usize = 40;

/// The action that ends a monkey chain after a jump.
pub const STOP: usize = NUM_MOVE_KINDS * NUM_SQUARES;

/// The size of the action space: every leg kind from every square, and [`STOP`].
pub const NUM_ACTIONS: usize = STOP + 1;

/// The displacement `(files, ranks)` of each kind of leg, in kind order.
pub const MOVE_KINDS: [(i8, i8); NUM_MOVE_KINDS] = build_kinds();

const fn build_kinds() -> [(i8, i8); NUM_MOVE_KINDS] {
    let mut kinds = [(0i8, 0i8); NUM_MOVE_KINDS];
    let orthogonal: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let diagonal: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let knight: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let mut d = 0;
    while d < 4 {
        let mut dist = 1;
        while dist <= 6 {
            kinds[d * 6 + dist - 1] = (orthogonal[d].0 * dist as i8, orthogonal[d].1 * dist as i8);
            dist += 1;
        }
        kinds[24 + d * 2] = diagonal[d];
        kinds[24 + d * 2 + 1] = (diagonal[d].0 * 2, diagonal[d].1 * 2);
        d += 1;
    }
    let mut k = 0;
    while k < 8 {
        kinds[32 + k] = knight[k];
        k += 1;
    }
    kinds
}

/// The kind of each displacement, indexed by `(files + 6) * 13 + (ranks + 6)`; `NO_KIND` where none.
const KIND_OF_DELTA: [u8; 169] = build_kind_of_delta();
const NO_KIND: u8 = u8::MAX;

const fn build_kind_of_delta() -> [u8; 169] {
    let mut table = [NO_KIND; 169];
    let mut k = 0;
    while k < NUM_MOVE_KINDS {
        let (df, dr) = MOVE_KINDS[k];
        table[(df + 6) as usize * 13 + (dr + 6) as usize] = k as u8;
        k += 1;
    }
    table
}

/// The kind that each kind becomes when its displacement's files are multiplied by `files` and
/// its ranks by `ranks` (each 1 or -1).
const fn transformed_kinds(files: i8, ranks: i8) -> [u8; NUM_MOVE_KINDS] {
    let mut table = [0u8; NUM_MOVE_KINDS];
    let mut k = 0;
    while k < NUM_MOVE_KINDS {
        let (df, dr) = MOVE_KINDS[k];
        table[k] = KIND_OF_DELTA[(df * files + 6) as usize * 13 + (dr * ranks + 6) as usize];
        k += 1;
    }
    table
}

/// The kind that each kind becomes under the left–right mirror (files reversed).
const MIRRORED_KIND: [u8; NUM_MOVE_KINDS] = transformed_kinds(-1, 1);

/// The kind that each kind becomes when the board is turned around (ranks reversed).
const FLIPPED_KIND: [u8; NUM_MOVE_KINDS] = transformed_kinds(1, -1);

/// Why an action cannot be taken or a leg has no action.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ActionError {
    /// The action is outside `0..NUM_ACTIONS`.
    OutOfRange(usize),
    /// The action's leg leaves the board.
    OffBoard(usize),
    /// No kind of leg goes from `from` to `to`.
    NoSuchLeg(Square, Square),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ActionError::OutOfRange(a) => {
                write!(f, "action {a} is out of range (actions are 0..{NUM_ACTIONS})")
            }
            ActionError::OffBoard(a) => write!(f, "action {a} leaves the board"),
            ActionError::NoSuchLeg(from, to) => write!(f, "no action goes from {from} to {to}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// The action of the leg `from → to`.
pub fn action_of_leg(from: Square, to: Square) -> Result<usize, ActionError> {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let kind = KIND_OF_DELTA[(df + 6) as usize * 13 + (dr + 6) as usize];
    if kind == NO_KIND {
        return Err(ActionError::NoSuchLeg(from, to));
    }
    Ok(kind as usize * NUM_SQUARES + from.index())
}

/// The leg `(from, to)` of an action other than [`STOP`].
pub fn leg_of_action(action: usize) -> Result<(Square, Square), ActionError> {
    if action >= STOP {
        return Err(ActionError::OutOfRange(action));
    }
    let (kind, from) = (action / NUM_SQUARES, action % NUM_SQUARES);
    let from = Square::new(from as u8).ok_or(ActionError::OutOfRange(action))?;
    let (df, dr) = MOVE_KINDS[kind];
    let to = from.offset(df, dr).ok_or(ActionError::OffBoard(action))?;
    Ok((from, to))
}

/// An action with its kind mapped through `kinds` and its from-square reflected across the files
/// (`mirror_files`) or the ranks; [`STOP`] and out-of-range actions map to themselves.
const fn transform(action: usize, kinds: &[u8; NUM_MOVE_KINDS], mirror_files: bool) -> usize {
    if action >= STOP {
        return action;
    }
    let (kind, from) = (action / NUM_SQUARES, action % NUM_SQUARES);
    let (file, rank) = (from % 7, from / 7);
    let from = if mirror_files { rank * 7 + (6 - file) } else { (6 - rank) * 7 + file };
    kinds[kind] as usize * NUM_SQUARES + from
}

/// The action under the left–right mirror (files a↔g, b↔f, c↔e), under which the rules are
/// symmetric. [`STOP`] and out-of-range actions map to themselves.
pub const fn mirror_action(action: usize) -> usize {
    transform(action, &MIRRORED_KIND, true)
}

/// The action seen from the other side of the board (ranks reversed: rank 1 ↔ rank 7), the frame
/// of the side-to-move perspective: Black's moves as if Black were White. [`STOP`] and out-of-range
/// actions map to themselves.
pub const fn flip_action(action: usize) -> usize {
    transform(action, &FLIPPED_KIND, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_distinct_and_invert() {
        for (k, &(df, dr)) in MOVE_KINDS.iter().enumerate() {
            assert_ne!((df, dr), (0, 0));
            assert_eq!(KIND_OF_DELTA[(df + 6) as usize * 13 + (dr + 6) as usize] as usize, k);
        }
        assert_eq!(MOVE_KINDS[0], (0, 1));
        assert_eq!(MOVE_KINDS[23], (-6, 0));
        assert_eq!(MOVE_KINDS[25], (2, 2));
    }

    #[test]
    fn legs_and_actions_round_trip() {
        let mut on_board = 0;
        for action in 0..STOP {
            if let Ok((from, to)) = leg_of_action(action) {
                on_board += 1;
                assert_eq!(action_of_leg(from, to), Ok(action));
            }
        }
        assert!(on_board > 1000);
        assert_eq!(leg_of_action(STOP), Err(ActionError::OutOfRange(STOP)));
    }

    #[test]
    fn the_flip_is_an_involution_that_flips_legs() {
        for action in 0..NUM_ACTIONS {
            let f = flip_action(action);
            assert_eq!(flip_action(f), action);
            if let Ok((from, to)) = leg_of_action(action) {
                let flip = |sq: Square| Square::from_coords(sq.file(), 6 - sq.rank()).unwrap();
                assert_eq!(leg_of_action(f), Ok((flip(from), flip(to))));
            }
        }
    }

    #[test]
    fn the_mirror_is_an_involution_that_mirrors_legs() {
        for action in 0..NUM_ACTIONS {
            let m = mirror_action(action);
            assert_eq!(mirror_action(m), action);
            if let Ok((from, to)) = leg_of_action(action) {
                let mirror = |sq: Square| Square::from_coords(6 - sq.file(), sq.rank()).unwrap();
                assert_eq!(leg_of_action(m), Ok((mirror(from), mirror(to))));
            }
        }
    }
}
