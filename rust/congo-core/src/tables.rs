//! Attack and geometry tables, all computed at compile time.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::{Square, NUM_SQUARES, TABLE_LEN};

/// The eight directions as `(file delta, rank delta)`, in the order of [`Direction`].
pub const DIRECTION_DELTAS: [(i8, i8); 8] =
    [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// A direction on the board. Its index (0..8) is what a monkey chain stores per jump.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
#[repr(u8)]
pub enum Direction {
    North = 0,
    NorthEast = 1,
    East = 2,
    SouthEast = 3,
    South = 4,
    SouthWest = 5,
    West = 6,
    NorthWest = 7,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 7]
    }

    pub const fn delta(self) -> (i8, i8) {
        DIRECTION_DELTAS[self as usize]
    }

    /// The direction from `a` towards `b` when they share a file, rank or diagonal.
    pub const fn between(a: Square, b: Square) -> Option<Direction> {
        let df = b.file() as i8 - a.file() as i8;
        let dr = b.rank() as i8 - a.rank() as i8;
        if df == 0 && dr == 0 {
            return None;
        }
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return None;
        }
        let target = (df.signum(), dr.signum());
        let mut i = 0;
        while i < 8 {
            if DIRECTION_DELTAS[i].0 == target.0 && DIRECTION_DELTAS[i].1 == target.1 {
                return Some(Direction::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// Whether square indices grow along this direction (so the nearest square of a ray is its lowest bit).
    #[inline]
    pub const fn is_increasing(self) -> bool {
        matches!(self, Direction::North | Direction::NorthEast | Direction::East | Direction::NorthWest)
    }
}

/// Marks "no square" in the `u8` square tables.
pub const NO_SQUARE: u8 = u8::MAX;

const fn square_at(sq: usize, df: i8, dr: i8) -> u8 {
    match Square::from_index(sq as u32).offset(df, dr) {
        Some(s) => s.index() as u8,
        None => NO_SQUARE,
    }
}

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; TABLE_LEN] {
    let mut table = [Bitboard::EMPTY; TABLE_LEN];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let to = square_at(sq, deltas[i].0, deltas[i].1);
            if to != NO_SQUARE {
                bits |= 1 << to;
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// One step in any of the eight directions.
pub static KING: [Bitboard; TABLE_LEN] = leaper_table(&DIRECTION_DELTAS);

/// The knight leap (zebra).
pub static KNIGHT: [Bitboard; TABLE_LEN] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);

/// One or two squares orthogonally (elephant).
pub static ELEPHANT: [Bitboard; TABLE_LEN] =
    leaper_table(&[(0, 1), (0, 2), (1, 0), (2, 0), (0, -1), (0, -2), (-1, 0), (-2, 0)]);

/// Exactly two squares in any of the eight directions (giraffe leap).
pub static LEAP_TWO: [Bitboard; TABLE_LEN] =
    leaper_table(&[(0, 2), (2, 2), (2, 0), (2, -2), (0, -2), (-2, -2), (-2, 0), (-2, 2)]);

/// One square sideways (superpawn).
pub static SIDEWAYS: [Bitboard; TABLE_LEN] = leaper_table(&[(1, 0), (-1, 0)]);

/// The three forward squares of a pawn, indexed by [`Color::index`].
pub static PAWN_FORWARD: [[Bitboard; TABLE_LEN]; 2] =
    [leaper_table(&[(0, -1), (1, -1), (-1, -1)]), leaper_table(&[(0, 1), (1, 1), (-1, 1)])];

/// `table[d][sq]`: the square `distance` steps from `sq` in direction `d`, or [`NO_SQUARE`].
const fn offset_table(distance: i8) -> [[u8; TABLE_LEN]; 8] {
    let mut table = [[NO_SQUARE; TABLE_LEN]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            table[d][sq] = square_at(sq, distance * DIRECTION_DELTAS[d].0, distance * DIRECTION_DELTAS[d].1);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `STEP[d][sq]`: the neighbour of `sq` in direction `d`, or [`NO_SQUARE`].
pub static STEP: [[u8; TABLE_LEN]; 8] = offset_table(1);

/// `JUMP[d][sq]`: the square two steps from `sq` in direction `d` (a monkey's landing square), or [`NO_SQUARE`].
pub static JUMP: [[u8; TABLE_LEN]; 8] = offset_table(2);

const fn ray_table() -> [[Bitboard; TABLE_LEN]; 8] {
    let mut table = [[Bitboard::EMPTY; TABLE_LEN]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let mut bits = 0u64;
            let mut cur = square_at(sq, DIRECTION_DELTAS[d].0, DIRECTION_DELTAS[d].1);
            while cur != NO_SQUARE {
                bits |= 1 << cur;
                cur = square_at(cur as usize, DIRECTION_DELTAS[d].0, DIRECTION_DELTAS[d].1);
            }
            table[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `RAY[d][sq]`: every square from `sq` (exclusive) to the edge in direction `d`.
pub static RAY: [[Bitboard; TABLE_LEN]; 8] = ray_table();

/// The squares a slider on `sq` reaches in direction `dir` before and including the first piece of `occupied`.
#[inline]
pub fn ray_attacks(sq: Square, dir: Direction, occupied: Bitboard) -> Bitboard {
    let ray = RAY[dir.index()][sq.index()];
    match first_on_ray(ray & occupied, dir) {
        Some(blocker) => ray ^ RAY[dir.index()][blocker.index()],
        None => ray,
    }
}

/// The nearest square of `on_ray` (a subset of one ray) as seen from the ray's origin.
#[inline]
pub fn first_on_ray(on_ray: Bitboard, dir: Direction) -> Option<Square> {
    if dir.is_increasing() {
        on_ray.first()
    } else {
        on_ray.last()
    }
}

/// The river, rank 4.
pub const RIVER: Bitboard = Bitboard::rank(3);

const fn castle(ranks: [u8; 3]) -> Bitboard {
    let mut bits = 0u64;
    let mut r = 0;
    while r < 3 {
        let mut f = 2;
        while f <= 4 {
            bits |= 1 << (ranks[r] * 7 + f);
            f += 1;
        }
        r += 1;
    }
    Bitboard(bits)
}

/// The castles (c–e × 1–3 for White, c–e × 5–7 for Black), indexed by [`Color::index`].
pub const CASTLE: [Bitboard; 2] = [castle([4, 5, 6]), castle([0, 1, 2])];

/// The castle of a colour.
#[inline]
pub const fn castle_of(color: Color) -> Bitboard {
    CASTLE[color.index()]
}

/// The squares on a colour's side of the river (White ranks 1–3, Black ranks 5–7).
pub const fn home_side(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard((1 << 21) - 1),
        Color::Black => Bitboard(Bitboard::FULL.0 ^ ((1 << 28) - 1)),
    }
}

/// The squares across the river for a colour (White ranks 5–7, Black ranks 1–3).
#[inline]
pub const fn across_river(color: Color) -> Bitboard {
    home_side(match color {
        Color::White => Color::Black,
        Color::Black => Color::White,
    })
}

/// Forward direction of a colour.
#[inline]
pub const fn forward(color: Color) -> Direction {
    match color {
        Color::White => Direction::North,
        Color::Black => Direction::South,
    }
}

/// The three forward rays of a lion (for the facing capture): straight and both diagonals.
#[inline]
pub const fn forward_directions(color: Color) -> [Direction; 3] {
    match color {
        Color::White => [Direction::North, Direction::NorthEast, Direction::NorthWest],
        Color::Black => [Direction::South, Direction::SouthEast, Direction::SouthWest],
    }
}

/// The three backward directions of a colour (straight first).
#[inline]
pub const fn backward_directions(color: Color) -> [Direction; 3] {
    match color {
        Color::White => [Direction::South, Direction::SouthEast, Direction::SouthWest],
        Color::Black => [Direction::North, Direction::NorthEast, Direction::NorthWest],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaper_counts() {
        assert_eq!(KING[Square::D4.index()].count(), 8);
        assert_eq!(KING[Square::A1.index()].count(), 3);
        assert_eq!(KNIGHT[Square::D4.index()].count(), 8);
        assert_eq!(KNIGHT[Square::A1.index()].count(), 2);
        assert_eq!(ELEPHANT[Square::D4.index()].count(), 8);
        assert_eq!(ELEPHANT[Square::A1.index()].count(), 4);
        assert_eq!(LEAP_TWO[Square::D4.index()].count(), 8);
        assert_eq!(LEAP_TWO[Square::B2.index()].count(), 3);
    }

    #[test]
    fn castles_and_sides() {
        assert_eq!(CASTLE[Color::White.index()].count(), 9);
        assert!(CASTLE[Color::White.index()].contains(Square::C1));
        assert!(CASTLE[Color::White.index()].contains(Square::E3));
        assert!(CASTLE[Color::Black.index()].contains(Square::C5));
        assert!(CASTLE[Color::Black.index()].contains(Square::E7));
        assert_eq!(home_side(Color::White).count(), 21);
        assert_eq!(home_side(Color::Black).count(), 21);
        assert!(home_side(Color::Black).contains(Square::A5));
        assert!(across_river(Color::White).contains(Square::G7));
        assert!((home_side(Color::White) & RIVER).is_empty());
    }

    #[test]
    fn rays_stop_at_the_first_piece() {
        let occ = Bitboard::from_square(Square::D6);
        let north = ray_attacks(Square::D2, Direction::North, occ);
        assert_eq!(north, [Square::D3, Square::D4, Square::D5, Square::D6].into_iter().collect());
        let south = ray_attacks(Square::D7, Direction::South, occ);
        assert_eq!(south, Bitboard::from_square(Square::D6));
    }
}
