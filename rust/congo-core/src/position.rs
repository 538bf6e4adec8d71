//! Game states: an unvalidated [`Setup`] and a validated [`Position`], and move execution (docs/rules.md §7).

use core::fmt;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, Path};
use crate::piece::{Color, Piece, Role};
use crate::rules::{pawn, river};
use crate::square::Square;
use crate::tables::castle_of;
use crate::zobrist;

/// A placement, side to move and move number, exactly as written; nothing is checked.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// The full-move number: starts at 1 (0 is accepted) and grows after Black's move.
    pub fullmove: u32,
}

impl Setup {
    /// The start position.
    pub fn start() -> Setup {
        Setup { board: Board::start(), turn: Color::White, fullmove: 1 }
    }
}

impl Setup {
    /// Every reason this setup is not a valid position (docs/rules.md §9), not just the first that
    /// [`Position::from_setup`] reports (which is always the first of these): empty exactly when
    /// the setup is valid. For status reports (`Board.status()` in Python).
    pub fn problems(&self) -> Vec<PositionError> {
        let board = &self.board;
        let mut found = Vec::new();
        for color in Color::ALL {
            let count = board.by_color(color).count();
            if count > MAX_PIECES_PER_COLOR {
                found.push(PositionError::TooManyPieces { color, count });
            }
        }
        let lions = board.by_role(Role::Lion);
        if lions.is_empty() {
            found.push(PositionError::NoLions);
        }
        for color in Color::ALL {
            let own = lions & board.by_color(color);
            if own.count() > 1 {
                found.push(PositionError::TooManyLions { color, count: own.count() });
            }
        }
        if lions.count() == 2 {
            for color in Color::ALL {
                let lion = lions & board.by_color(color);
                if let Some(square) = (lion & !castle_of(color)).first() {
                    found.push(PositionError::LionOutsideCastle { color, square });
                }
            }
        }
        for color in Color::ALL {
            let pawns = board.by_piece(Piece::new(Role::Pawn, color));
            if let Some(square) = (pawns & Bitboard::rank(color.far_rank())).first() {
                found.push(PositionError::PawnOnFarRank { color, square });
            }
        }
        found
    }

    /// Why a placement [`Setup::problems`] accepts is still one no game reaches, for
    /// python-chess-style status flags: more pawns and superpawns, or more of another piece, than a
    /// side starts with (no rule adds a piece; a pawn only becomes a superpawn), or more than one
    /// piece other than a crocodile of the side that just moved in the river (all but the one that
    /// entered it with that move have drowned, docs/rules.md §6).
    pub fn unreachable(&self) -> Vec<Unreachable> {
        let board = &self.board;
        let start = Board::start();
        let count = |board: &Board, role, color| board.by_piece(Piece::new(role, color)).count();
        let mut found = Vec::new();
        for color in Color::ALL {
            let pawns = count(board, Role::Pawn, color) + count(board, Role::Superpawn, color);
            if pawns > count(&start, Role::Pawn, color) {
                found.push(Unreachable::TooManyPawns { color });
            }
            let others = [Role::Monkey, Role::Giraffe, Role::Zebra, Role::Elephant, Role::Crocodile];
            if others.into_iter().any(|role| count(board, role, color) > count(&start, role, color)) {
                found.push(Unreachable::ImpossibleMaterial { color });
            }
        }
        let moved = !self.turn;
        let swimmers = board.by_color(moved) & crate::tables::RIVER & !board.by_role(Role::Crocodile);
        if swimmers.count() > 1 {
            found.push(Unreachable::ImpossibleRiver);
        }
        found
    }
}

/// Why a valid placement is one no game from the start position reaches ([`Setup::unreachable`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Unreachable {
    /// More pawns and superpawns than the start position's pawns.
    TooManyPawns { color: Color },
    /// More of some other piece (a monkey, giraffe, zebra, elephant or crocodile) than at the start.
    ImpossibleMaterial { color: Color },
    /// More than one swimmer (not a crocodile) of the side that just moved.
    ImpossibleRiver,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// The most pieces one colour may have, its lion included (docs/rules.md §9, decision A21): the starting
/// count. No rule ever adds a piece, and the bound keeps the number of monkey chains, which grows
/// exponentially with the pieces a monkey can jump, small enough to enumerate.
pub const MAX_PIECES_PER_COLOR: u32 = 14;

/// Why a placement is not a position this project plays from (docs/rules.md §9).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum PositionError {
    /// A colour has more than [`MAX_PIECES_PER_COLOR`] pieces.
    TooManyPieces { color: Color, count: u32 },
    /// Neither lion is on the board.
    NoLions,
    /// A side has more than one lion.
    TooManyLions { color: Color, count: u32 },
    /// With both lions on the board, a lion stands outside its own castle.
    LionOutsideCastle { color: Color, square: Square },
    /// A pawn stands on the rank where it would have promoted.
    PawnOnFarRank { color: Color, square: Square },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::NoLions => f.write_str("neither lion is on the board (at least one is required)"),
            PositionError::TooManyPieces { color, count } => write!(
                f,
                "{} has {count} pieces (at most {MAX_PIECES_PER_COLOR} of each colour, its lion included)",
                color.name()
            ),
            PositionError::TooManyLions { color, count } => {
                write!(f, "{} has {count} lions (at most one is allowed)", color.name())
            }
            PositionError::LionOutsideCastle { color, square } => write!(
                f,
                "the {} lion on {square} stands outside its castle ({})",
                color.name(),
                if color.is_white() { "c1-e3" } else { "c5-e7" }
            ),
            PositionError::PawnOnFarRank { color, square } => write!(
                f,
                "the {} pawn on {square} stands on its far rank, where it would have promoted",
                color.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move that is well formed but not legal in the position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct IllegalMoveError {
    pub path: Path,
    pub reason: IllegalReason,
}

/// Why a move is not legal.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum IllegalReason {
    /// The game is over: a lion has been captured.
    GameDecided,
    /// No piece of the side to move stands on the from-square.
    NoPieceOfSideToMove,
    /// The piece there cannot make this move.
    NotAMoveOfThePiece(Piece),
    /// The null move is never a legal move (a board plays it as a pass: [`Position::play_null`]).
    NullMove,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path;
        match self.reason {
            IllegalReason::GameDecided => {
                write!(f, "illegal move {path}: a lion has been captured, the game is over")
            }
            IllegalReason::NoPieceOfSideToMove => {
                write!(f, "illegal move {path}: no piece of the side to move on {}", path.from())
            }
            IllegalReason::NotAMoveOfThePiece(piece) => write!(
                f,
                "illegal move {path}: the {} {} on {} cannot move like that",
                piece.color.name(),
                piece.role.name(),
                path.from()
            ),
            IllegalReason::NullMove => {
                f.write_str("the null move 0000 is not a legal move (a board pushes it as a pass)")
            }
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// A validated game state. Every move generated for it is legal (there is no check in Congo).
///
/// Small and `Copy`: making a move copies the position (copy-make).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) hash: u64,
    pub(crate) fullmove: u32,
    pub(crate) turn: Color,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_setup(Setup::start()).unwrap_or_else(|_| unreachable!("the start position is valid"))
    }

    /// Validates a setup (docs/rules.md §9): at most [`MAX_PIECES_PER_COLOR`] pieces of each colour; at most
    /// one lion per side and at least one on the board; while both lions are on the board each
    /// stands in its own castle; no pawn on its far rank.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = &setup.board;
        // First: every other check, and everything done with a position afterwards, may then rely
        // on a bounded number of pieces.
        for color in Color::ALL {
            let count = board.by_color(color).count();
            if count > MAX_PIECES_PER_COLOR {
                return Err(PositionError::TooManyPieces { color, count });
            }
        }
        let lions = board.by_role(Role::Lion);
        if lions.is_empty() {
            return Err(PositionError::NoLions);
        }
        for color in Color::ALL {
            let own = lions & board.by_color(color);
            if own.count() > 1 {
                return Err(PositionError::TooManyLions { color, count: own.count() });
            }
        }
        if lions.count() == 2 {
            for color in Color::ALL {
                let lion = lions & board.by_color(color);
                if let Some(square) = (lion & !castle_of(color)).first() {
                    return Err(PositionError::LionOutsideCastle { color, square });
                }
            }
        }
        for color in Color::ALL {
            let pawns = board.by_piece(Piece::new(Role::Pawn, color));
            if let Some(square) = (pawns & Bitboard::rank(color.far_rank())).first() {
                return Err(PositionError::PawnOnFarRank { color, square });
            }
        }
        Ok(Position::from_setup_unchecked(setup))
    }

    /// A position from a setup that is known to be valid (or, in tests, deliberately is not).
    pub(crate) fn from_setup_unchecked(setup: Setup) -> Position {
        Position {
            board: setup.board,
            hash: zobrist::hash(&setup.board, setup.turn),
            fullmove: setup.fullmove,
            turn: setup.turn,
        }
    }

    /// The setup this position was made from.
    pub fn to_setup(&self) -> Setup {
        Setup { board: self.board, turn: self.turn, fullmove: self.fullmove }
    }

    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub const fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash of the placement and side to move.
    #[inline]
    pub const fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The lion of `color`, if it is still on the board.
    #[inline]
    pub fn lion(&self, color: Color) -> Option<Square> {
        self.board.by_piece(Piece::new(Role::Lion, color)).first()
    }

    /// Whether a lion has been captured (the game is decided).
    #[inline]
    pub fn is_decided(&self) -> bool {
        self.board.by_role(Role::Lion).count() < 2
    }

    /// The legal move with this path, or why there is none.
    pub fn find_move(&self, path: &Path) -> Result<Move, IllegalMoveError> {
        let illegal = |reason| IllegalMoveError { path: *path, reason };
        if path.is_null() {
            return Err(illegal(IllegalReason::NullMove));
        }
        if self.is_decided() {
            return Err(illegal(IllegalReason::GameDecided));
        }
        let piece = match self.board.piece_at(path.from()) {
            Some(piece) if piece.color == self.turn => piece,
            _ => return Err(illegal(IllegalReason::NoPieceOfSideToMove)),
        };
        self.find_move_of(piece.role, path).ok_or(illegal(IllegalReason::NotAMoveOfThePiece(piece)))
    }

    /// The legal move from `from` to `to`: the single-leg move if there is one, else the monkey
    /// chain from `from` ending on `to` with the fewest jumps (the first generated among equally
    /// short ones), else `None`.
    pub fn find_move_between(&self, from: Square, to: Square) -> Option<Move> {
        let mut found: Option<Move> = None;
        self.for_each_move_from(from, &mut |m| {
            if m.to() == to && found.is_none_or(|best| m.path.legs() < best.path.legs()) {
                found = Some(m);
            }
        });
        found
    }

    /// Whether a path is a legal move here.
    pub fn is_legal(&self, path: &Path) -> bool {
        self.find_move(path).is_ok()
    }

    /// Whether a move captures: exact for a legal move (every monkey chain captures); for any other
    /// path, whether an enemy piece stands on its target square (as python-chess answers for
    /// pseudo-legal moves).
    pub fn is_capture(&self, path: &Path) -> bool {
        match self.find_move(path) {
            Ok(m) => m.is_capture(),
            Err(_) => !path.is_null() && self.board.color_at(path.to()) == Some(!self.turn),
        }
    }

    /// The position after the null move (python-chess's `Move.null()`): the turn passes and the
    /// move number advances as after any move, and drowning (docs/rules.md §6) applies to the mover as
    /// after any move: no piece entered the river on this move, so every non-crocodile piece of the
    /// mover standing in the river drowns. A null move uses up the one turn a piece may spend in
    /// the river, as python-chess's null move uses up an en passant right; a pass that kept them
    /// would let a piece stay in the river longer than any sequence of real moves can, and the
    /// position would break the rule that every swimmer of the side to move entered the river on
    /// its previous move.
    ///
    /// Not a legal move: move generation, perft and [`Position::find_move`] never yield or accept
    /// it. Allowed in any position, a decided one included (as python-chess allows it anywhere).
    #[must_use]
    pub fn play_null(&self) -> Position {
        let us = self.turn;
        let mut next = *self;
        let mut hash = self.hash ^ zobrist::WHITE_TO_MOVE;
        let drowned = river::swimmers(&self.board, us);
        if drowned.any() {
            next.board.remove_pieces(us, drowned, |role, sq| hash ^= zobrist::piece_key(us, role, sq));
        }
        if us == Color::Black {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.turn = !us;
        next.hash = hash;
        next
    }

    /// Plays the legal move with this path.
    pub fn play(&self, path: &Path) -> Result<Position, IllegalMoveError> {
        Ok(self.play_unchecked(&self.find_move(path)?))
    }

    /// Plays a move generated for this position (docs/rules.md §7): captures, promotion, drowning, counters.
    ///
    /// The move must come from this position's move generator; anything else gives an unspecified
    /// (but memory-safe) position.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, m: &Move) -> Position {
        let mut next = *self;
        next.play_in_place(m);
        next
    }

    /// [`Position::play_unchecked`] in place. Faster where the caller already holds a copy to
    /// change: the fields are updated where they live instead of being assembled and copied out.
    ///
    /// Always inlined: the caller has usually just built the move in registers, and passing it
    /// through memory to an out-of-line call costs a store-forwarding stall per move (measured: half
    /// of the time of perft making every leaf).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn play_in_place(&mut self, m: &Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        // The mover's pieces in the river before the move, read before anything is written: only
        // they can drown (a piece entering the river survives its first turn), so most moves skip
        // step 3 entirely.
        let swimmers_before = river::swimmers(&self.board, us);
        let mut hash = self.hash ^ zobrist::WHITE_TO_MOVE;

        // 1. Remove the captured pieces (the target, or every jumped piece of a chain).
        if m.captured.any() {
            self.board.remove_pieces(them, m.captured, |role, sq| hash ^= zobrist::piece_key(them, role, sq));
        }

        // 2. Move the piece, promoting a pawn on its far rank.
        let role = if m.role == Role::Pawn && pawn::promotes(us, to) { Role::Superpawn } else { m.role };
        self.board.relocate(us, from_bb, to_bb, m.role, role);
        hash ^= zobrist::piece_key(us, m.role, from) ^ zobrist::piece_key(us, role, to);

        // 3. Drowning, for the mover only.
        if swimmers_before.any() {
            let mover_swims = if m.role == Role::Crocodile { Bitboard::EMPTY } else { to_bb };
            let swimmers_after = (swimmers_before & !from_bb) | mover_swims;
            let drowned = river::drowned(swimmers_after, from, to);
            self.board.remove_pieces(us, drowned, |role, sq| hash ^= zobrist::piece_key(us, role, sq));
        }

        // 4.–5. Switch sides; a full move ends after Black's move.
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.hash = hash;
    }

    /// The position with a square set or cleared (`None`), validated like any other.
    pub fn with_piece_at(&self, sq: Square, piece: Option<Piece>) -> Result<Position, PositionError> {
        let mut setup = self.to_setup();
        setup.board.set_piece_at(sq, piece);
        Position::from_setup(setup)
    }

    /// The position with another side to move (same placement and move number).
    #[must_use]
    pub fn with_turn(&self, turn: Color) -> Position {
        if turn == self.turn {
            return *self;
        }
        let mut next = *self;
        next.turn = turn;
        next.hash ^= zobrist::WHITE_TO_MOVE;
        next
    }

    /// The position with another move number.
    #[must_use]
    pub fn with_fullmove(&self, fullmove: u32) -> Position {
        Position { fullmove, ..*self }
    }

    /// A key equal for two positions exactly when they are the same for repetition: placement and
    /// side to move (not the move number). One byte per square (0 empty, else the piece's code),
    /// then the side to move.
    pub fn transposition_key(&self) -> [u8; 50] {
        let mut key = [0u8; 50];
        for (sq, piece) in self.board.pieces() {
            key[sq.index()] = 1 + piece.role.index() as u8 + if piece.color.is_white() { 0 } else { 8 };
        }
        key[49] = u8::from(self.turn.is_white());
        key
    }

    /// The position with colours swapped and the board turned around.
    #[must_use]
    pub fn mirrored(&self) -> Position {
        let board = self.board.mirrored();
        let turn = !self.turn;
        Position { board, hash: zobrist::hash(&board, turn), fullmove: self.fullmove, turn }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_setup;

    #[test]
    fn problems_list_every_reason_and_start_with_the_one_from_setup_reports() {
        for (fen, count) in [
            ("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", 0),
            ("3l3/7/7/7/7/7/7 w 1", 0),
            ("7/7/7/7/7/7/7 w 1", 1),
            ("P2l3/7/7/7/7/7/L2L3 w 1", 2),
            ("P5l/7/7/7/7/7/L6 w 1", 3),
            ("3lp2/7/7/7/7/7/3L3 b 1", 0),
            ("3l3/7/7/7/7/7/3Lp2 b 1", 1),
            ("ppppppp/ppppppp/p6/7/7/7/3L3 w 1", 1),
            ("ppppppp/ppppppp/p6/7/7/7/7 w 1", 2),
        ] {
            let setup = parse_setup(fen).unwrap();
            let problems = setup.problems();
            assert_eq!(problems.len(), count, "{fen}: {problems:?}");
            assert_eq!(problems.first().copied(), Position::from_setup(setup).err(), "{fen}");
        }
    }

    #[test]
    fn unreachable_placements_are_named() {
        use Unreachable as U;
        let white = Color::White;
        for (fen, expected) in [
            ("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", vec![]),
            ("3l3/7/7/7/7/PPPPPPP/SL5 w 1", vec![U::TooManyPawns { color: white }]),
            ("3l3/7/7/7/7/7/ZZL4 w 1", vec![U::ImpossibleMaterial { color: white }]),
            // Black just moved: two of its swimmers cannot both still be in the river.
            ("3l3/7/7/pp5/7/7/3L3 w 1", vec![U::ImpossibleRiver]),
            ("3l3/7/7/pc5/7/7/3L3 w 1", vec![]), // a crocodile never drowns
            ("3l3/7/7/PP5/7/7/3L3 w 1", vec![]), // the side to move's swimmers are not judged
        ] {
            assert_eq!(parse_setup(fen).unwrap().unreachable(), expected, "{fen}");
        }
    }
}
