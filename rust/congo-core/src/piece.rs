//! Colours, piece types ("roles") and pieces.

use core::fmt;
use core::ops::Not;

/// A side. The discriminants match Python's `congo.WHITE = True`, `congo.BLACK = False`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_white(is_white: bool) -> Color {
        if is_white {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// `'w'` or `'b'`, as in a FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The rank index a pawn of this colour promotes on.
    #[inline]
    pub const fn far_rank(self) -> u8 {
        match self {
            Color::White => 6,
            Color::Black => 0,
        }
    }

    /// "white" or "black".
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece type. The discriminants match Python's `congo.PAWN = 1` … `congo.LION = 8`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub enum Role {
    Pawn = 1,
    Superpawn = 2,
    Monkey = 3,
    Giraffe = 4,
    Zebra = 5,
    Elephant = 6,
    Crocodile = 7,
    Lion = 8,
}

impl Role {
    pub const ALL: [Role; 8] = [
        Role::Pawn,
        Role::Superpawn,
        Role::Monkey,
        Role::Giraffe,
        Role::Zebra,
        Role::Elephant,
        Role::Crocodile,
        Role::Lion,
    ];

    /// Index `0..8` into per-role arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The role with Python's number `1..=8`.
    pub const fn from_number(n: u8) -> Option<Role> {
        if n >= 1 && n <= 8 {
            Some(Role::ALL[n as usize - 1])
        } else {
            None
        }
    }

    /// Upper-case letter: `P S M G Z E C L`.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Superpawn => 'S',
            Role::Monkey => 'M',
            Role::Giraffe => 'G',
            Role::Zebra => 'Z',
            Role::Elephant => 'E',
            Role::Crocodile => 'C',
            Role::Lion => 'L',
        }
    }

    /// The role for a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'S' => Some(Role::Superpawn),
            'M' => Some(Role::Monkey),
            'G' => Some(Role::Giraffe),
            'Z' => Some(Role::Zebra),
            'E' => Some(Role::Elephant),
            'C' => Some(Role::Crocodile),
            'L' => Some(Role::Lion),
            _ => None,
        }
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Superpawn => "superpawn",
            Role::Monkey => "monkey",
            Role::Giraffe => "giraffe",
            Role::Zebra => "zebra",
            Role::Elephant => "elephant",
            Role::Crocodile => "crocodile",
            Role::Lion => "lion",
        }
    }
}

/// A piece: a role and a colour.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    pub role: Role,
    pub color: Color,
}

impl Piece {
    pub const fn new(role: Role, color: Color) -> Piece {
        Piece { role, color }
    }

    /// FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece::new(role, Color::from_white(c.is_ascii_uppercase()))),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
