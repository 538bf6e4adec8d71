//! Threats to a lion: Congo's "check".
//!
//! There is no check rule in Congo, but a lion that can be captured is lost on the next move unless
//! its side does something about it, so the search treats an attacked lion as chess engines treat
//! check (no stand-pat, no null move, an extension), and a position where the side to move can
//! capture the enemy lion as already won.

use crate::board::Board;
use crate::moves::{Move, Path};
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::attacks;

/// Whether `attacker` can capture the other side's lion with one move (of any piece, by the facing
/// capture, or at the end of a monkey chain). Never in a decided game (a lion already captured).
#[inline]
pub fn can_capture_lion(board: &Board, attacker: Color) -> bool {
    attacks::can_capture_lion(board, attacker)
}

/// Whether the lion of `color` is attacked (the opponent could capture it if it were their move).
#[inline]
pub fn lion_attacked(board: &Board, color: Color) -> bool {
    can_capture_lion(board, !color)
}

/// A move of the side to move that captures the enemy lion (among `only`, if given), if there is
/// one: found among the captures, cheaply ruled out first by [`can_capture_lion`].
pub fn lion_capture(pos: &Position, only: Option<&[Path]>) -> Option<Move> {
    if !can_capture_lion(pos.board(), pos.turn()) {
        return None;
    }
    let lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
    let mut capture = None;
    pos.for_each_capture_or_promotion(&mut |m| {
        if capture.is_none() && (m.captured & lion).any() && only.is_none_or(|only| only.contains(&m.path)) {
            capture = Some(m);
        }
    });
    capture
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attacked(fen: &str) -> (bool, bool) {
        let pos = Position::from_fen(fen).unwrap();
        let board = pos.board();
        (can_capture_lion(board, Color::White), can_capture_lion(board, Color::Black))
    }

    /// The reference: generate every move and look for one that captures the lion.
    fn by_generation(pos: &Position) -> bool {
        let lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
        pos.legal_moves().iter().any(|m| (m.captured & lion).any())
    }

    #[test]
    fn each_piece_can_threaten_the_lion() {
        // The lions on c7 and e1 do not face each other.
        assert_eq!(attacked("2l4/7/2Z4/7/7/7/4L2 w 1"), (false, false));
        assert_eq!(attacked("2l4/7/3Z3/7/7/7/4L2 w 1"), (true, false)); // zebra d5 → c7
        assert_eq!(attacked("2l4/7/2E4/7/7/7/4L2 w 1"), (true, false)); // elephant c5 → c7
        assert_eq!(attacked("2l4/3P3/7/7/7/7/4L2 w 1"), (true, false)); // pawn d6 → c7
        assert_eq!(attacked("1Sl4/7/7/7/7/7/4L2 w 1"), (true, false)); // superpawn sideways
        assert_eq!(attacked("2l4/7/G6/7/7/7/4L2 w 1"), (true, false)); // giraffe a5 → c7
        assert_eq!(attacked("2l4/1G5/7/7/7/7/4L2 w 1"), (false, false)); // giraffe steps never capture
        assert_eq!(attacked("2l4/7/7/7/7/7/3cL2 w 1"), (false, true)); // crocodile step
        assert_eq!(attacked("2l4/7/7/7/7/7/3CL2 w 1"), (false, false));
        assert_eq!(attacked("3l3/7/7/7/7/7/3L3 w 1"), (true, true)); // facing lions
        assert_eq!(attacked("3l3/7/7/3C3/7/7/3L3 w 1"), (false, false)); // a blocker
        assert_eq!(attacked("7/4l2/7/4c2/7/2p4/1M1L3 w 1"), (true, true)); // chain b1d3f5d7; pawn c2 → d1
    }

    #[test]
    fn agrees_with_move_generation() {
        let fens = [
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
            "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
            "3l3/2p1p2/3M3/7/7/7/3L3 w 1",
            "3l3/2ppp2/2pMp2/7/7/7/3L3 w 1",
            "2elc2/3p3/2CM3/7/1c5/7/3L3 w 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(can_capture_lion(pos.board(), pos.turn()), by_generation(&pos), "{fen}");
            let mirrored = pos.mirrored();
            assert_eq!(
                can_capture_lion(mirrored.board(), mirrored.turn()),
                by_generation(&mirrored),
                "{fen} mirrored"
            );
        }
    }

    #[test]
    fn agrees_with_move_generation_along_random_games() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut pos = Position::start();
            for _ in 0..120 {
                assert_eq!(can_capture_lion(pos.board(), pos.turn()), by_generation(&pos), "{}", pos.fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos = pos.play_unchecked(&moves[(state % moves.len() as u64) as usize]);
            }
        }
    }
}
