//! Attacks: which pieces could capture on a square. Each piece's captures are its own rule file's;
//! this file asks each of them in reverse (`capturers`), cheapest first.
//!
//! The search uses it for Congo's "check" (a lion that can be captured), the Python API for
//! `attackers`, `is_attacked_by` and `attacks`.

use super::{crocodile, elephant, giraffe, lion, monkey, pawn, superpawn, zebra, Sides};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::square::Square;

/// What `attacker`'s pieces see when a piece of the other colour stands on `target` (whatever
/// stands there now).
fn sides_with_target(board: &Board, attacker: Color, target: Square) -> Sides {
    let mut sides = Sides::new(board, attacker);
    let t = Bitboard::from_square(target);
    sides.own &= !t;
    sides.enemy |= t;
    sides.occupied |= t;
    sides.empty &= !t;
    sides
}

/// The squares of `attacker`'s pieces that could capture a piece of the other colour on `target`
/// with one move (any piece, the facing capture, a monkey's chain at any jump), if one stood there.
/// `first_only`: stop at the first attacker kind found (for a yes-or-no question).
fn scan(board: &Board, attacker: Color, target: Square, first_only: bool) -> Bitboard {
    let sides = sides_with_target(board, attacker, target);
    let own = |role| board.by_piece(Piece::new(role, attacker));
    let mut found = Bitboard::EMPTY;
    // Cheapest first: table lookups, then the pieces that need a look along lines or chains.
    let kinds: [&dyn Fn() -> Bitboard; 8] = [
        &|| zebra::capturers(target, own(Role::Zebra)),
        &|| elephant::capturers(target, own(Role::Elephant)),
        &|| giraffe::capturers(target, own(Role::Giraffe)),
        &|| pawn::capturers(attacker, target, own(Role::Pawn)),
        &|| superpawn::capturers(attacker, target, own(Role::Superpawn)),
        &|| crocodile::capturers(target, own(Role::Crocodile), &sides),
        &|| lion::capturers(target, own(Role::Lion), &sides),
        &|| monkey::capturers(target, own(Role::Monkey), &sides),
    ];
    for kind in kinds {
        found |= kind();
        if first_only && found.any() {
            break;
        }
    }
    found
}

/// The squares of `attacker`'s pieces that could capture a piece of the other colour on `target`
/// with one move, if one stood there (whatever stands there now; a lion only ever captures the
/// enemy lion from afar, so the facing capture counts only where it stands).
pub fn attackers(board: &Board, attacker: Color, target: Square) -> Bitboard {
    scan(board, attacker, target, false)
}

/// Whether any piece of `attacker` could capture on `target` (see [`attackers`]).
pub fn is_attacked(board: &Board, attacker: Color, target: Square) -> bool {
    scan(board, attacker, target, true).any()
}

/// Whether `attacker` can capture the other side's lion with one move. Never in a decided game (a
/// lion already captured).
pub fn can_capture_lion(board: &Board, attacker: Color) -> bool {
    if board.by_role(Role::Lion).count() < 2 {
        return false;
    }
    board
        .by_piece(Piece::new(Role::Lion, !attacker))
        .first()
        .is_some_and(|lion| is_attacked(board, attacker, lion))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The reference: generate every move of `attacker` with an enemy piece put on `target`.
    fn by_generation(pos: &Position, attacker: Color, target: Square) -> Bitboard {
        let mut board = *pos.board();
        if board.color_at(target) != Some(!attacker) {
            board.set_piece_at(target, Some(Piece::new(Role::Pawn, !attacker)));
        }
        let setup = crate::position::Setup { board, turn: attacker, fullmove: 1 };
        let probe = Position::from_setup_unchecked(setup);
        probe
            .legal_moves()
            .iter()
            .filter(|m| m.captured.contains(target))
            .map(crate::moves::Move::from)
            .collect()
    }

    #[test]
    fn attackers_agree_with_move_generation_on_every_square() {
        for fen in [
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
            "3l3/2ppp2/2pMp2/7/7/7/3L3 w 1",
            "2elc2/3p3/2CM3/7/1c5/7/3L3 w 1",
            "2Ml2M/Mpp1e1M/2p1pM1/MMpeeeM/4p2/Mpp1eMM/2ML1M1 w 1",
            "3l3/1S1s3/7/C1c2S1/7/1s5/3L3 b 4",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for attacker in Color::ALL {
                for target in Square::all() {
                    // Where the lion stands the rules differ only for the facing capture: skip the
                    // attacker's own lion (it cannot be replaced by an enemy piece and stay a lion).
                    if pos.board().piece_at(target) == Some(Piece::new(Role::Lion, attacker)) {
                        continue;
                    }
                    assert_eq!(
                        attackers(pos.board(), attacker, target),
                        by_generation(&pos, attacker, target),
                        "{fen} {attacker:?} {target}"
                    );
                }
            }
        }
    }
}
