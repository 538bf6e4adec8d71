//! Move generation: puts the per-piece rules of [`crate::rules`] together for a whole position.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList, Path};
use crate::piece::Role;
use crate::position::Position;
use crate::rules::{self, monkey, pawn, Sides};
use crate::square::Square;

impl Position {
    /// What the side to move's pieces need to know, or `None` once a lion has been captured (a decided
    /// game has no moves).
    #[inline]
    fn sides(&self) -> Option<Sides> {
        if self.is_decided() {
            None
        } else {
            Some(Sides::new(&self.board, self.turn))
        }
    }

    /// All legal moves. There is no check in Congo: every generated move is legal.
    ///
    /// Returning the list moves its inline storage; loops that generate at every node should keep
    /// a list of their own and call [`Position::generate_moves`] instead.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Appends every legal move to `moves`.
    #[inline]
    pub fn generate_moves(&self, moves: &mut MoveList) {
        self.for_each_move(&mut |m| moves.push(m));
    }

    /// Calls `emit` for every legal move, piece type by piece type.
    #[inline]
    pub fn for_each_move(&self, emit: &mut impl FnMut(Move)) {
        self.for_each_move_onto(|_, _| Bitboard::FULL, emit);
    }

    /// Calls `emit` for every capture (every monkey chain among them), in generation order.
    pub fn for_each_capture(&self, emit: &mut impl FnMut(Move)) {
        self.for_each_move_onto(|_, sides| sides.enemy, emit);
    }

    /// Calls `emit` for every move that changes the material: the captures (every monkey chain among
    /// them) and the promotions. What the search's quiescence looks at.
    pub fn for_each_capture_or_promotion(&self, emit: &mut impl FnMut(Move)) {
        let promotion = pawn::promotion_squares(self.turn);
        self.for_each_move_onto(
            |role, sides| if role == Role::Pawn { sides.enemy | promotion } else { sides.enemy },
            emit,
        );
    }

    /// Calls `emit` for every monkey chain and every single-leg move onto `onto(role, sides)`.
    #[inline]
    fn for_each_move_onto(&self, onto: impl Fn(Role, &Sides) -> Bitboard, emit: &mut impl FnMut(Move)) {
        let Some(sides) = self.sides() else { return };
        for role in Role::ALL {
            let onto = onto(role, &sides);
            for from in self.board.by_role(role) & sides.own {
                piece_moves(role, from, &sides, onto, emit);
            }
        }
    }

    /// Calls `emit` for every legal move of the piece on `from` (nothing if it is not the mover's).
    pub fn for_each_move_from(&self, from: Square, emit: &mut impl FnMut(Move)) {
        let Some(sides) = self.sides() else { return };
        if !sides.own.contains(from) {
            return;
        }
        if let Some(role) = self.board.role_at(from) {
            piece_moves(role, from, &sides, Bitboard::FULL, emit);
        }
    }

    /// The legal move with this path of the side to move's piece of `role` standing on its
    /// from-square, if there is one. A single leg is checked against the piece's targets; only a
    /// monkey's jumps need its chains.
    pub(crate) fn find_move_of(&self, role: Role, path: &Path) -> Option<Move> {
        let sides = self.sides()?;
        let (from, to) = (path.from(), path.to());
        if !path.is_chain() && rules::targets(role, from, &sides).contains(to) {
            let captured = Bitboard::from_square(to) & sides.enemy;
            return Some(Move { path: *path, captured, role });
        }
        if role != Role::Monkey {
            return None;
        }
        let mut found = None;
        monkey::for_each_chain(from, &sides, &mut |m| {
            if m.path == *path {
                found = Some(m);
            }
        });
        found
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        let Some(sides) = self.sides() else { return 0 };
        let mut n = 0;
        for role in Role::ALL {
            for from in self.board.by_role(role) & sides.own {
                n += u64::from(rules::targets(role, from, &sides).count());
                if role == Role::Monkey {
                    n += monkey::count_chains(from, &sides);
                }
            }
        }
        n
    }

    /// The legal move at `index` in generation order (`legal_moves()[index]`) without generating
    /// the others: pieces whose moves all come before it are skipped by counting. `None` past the end.
    pub fn nth_legal_move(&self, index: u64) -> Option<Move> {
        let sides = self.sides()?;
        let mut rest = index;
        for role in Role::ALL {
            for from in self.board.by_role(role) & sides.own {
                let targets = rules::targets(role, from, &sides);
                let n = u64::from(targets.count());
                if rest < n {
                    let to = targets.into_iter().nth(rest as usize)?;
                    let captured = Bitboard::from_square(to) & sides.enemy;
                    return Some(Move { path: Path::single(from, to), captured, role });
                }
                rest -= n;
                if role == Role::Monkey {
                    let mut found = None;
                    let mut seen = 0;
                    monkey::for_each_chain(from, &sides, &mut |m| {
                        if seen == rest {
                            found = Some(m);
                        }
                        seen += 1;
                    });
                    if found.is_some() {
                        return found;
                    }
                    rest -= seen;
                }
            }
        }
        None
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        let Some(sides) = self.sides() else {
            return false;
        };
        for role in Role::ALL {
            for from in self.board.by_role(role) & sides.own {
                if rules::targets(role, from, &sides).any() {
                    return true;
                }
                if role == Role::Monkey && monkey::has_jump(from, &sides) {
                    return true;
                }
            }
        }
        false
    }
}

/// The moves of the piece of `role` on `from`: its single-leg moves onto `onto`, and a monkey's jump
/// chains.
#[inline]
fn piece_moves(role: Role, from: Square, sides: &Sides, onto: Bitboard, emit: &mut impl FnMut(Move)) {
    for to in rules::targets(role, from, sides) & onto {
        let captured = Bitboard::from_square(to) & sides.enemy;
        emit(Move { path: Path::single(from, to), captured, role });
    }
    if role == Role::Monkey {
        monkey::for_each_chain(from, sides, emit);
    }
}
