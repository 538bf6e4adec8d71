//! The static evaluation: how good a quiet position is for the side to move, in centipawns.
//!
//! Terms (each documented with its measured worth in `docs/engine.md`):
//!
//! * **Material** and **piece-square tables**, folded into one table per piece.
//! * **Mobility**: the squares each piece can move to, weighted by piece type.
//! * **Drowning danger**: non-crocodile pieces in the river must leave on their side's next move or
//!   drown, and a side can move only one piece a turn.
//! * **Lion safety**: enemy pieces that could capture on the squares around a lion; a lone piece
//!   between the two lions on a file or diagonal, pinned because moving it lets the lions face.
//! * **Pawn advancement and promotion**.
//!
//! Everything is computed from White's point of view and turned to the side to move's at the end.

use super::params::EvalParams;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::{self, monkey, Sides};
use crate::square::{Square, NUM_SQUARES};
use crate::tables::{castle_of, forward_directions, JUMP, KING, LEAP_TWO, PAWN_FORWARD, RAY, RIVER, STEP};

/// Mobility weight per reachable square, by role (centipawns at 100 %).
const MOBILITY: [i32; 8] = [0, 3, 3, 3, 4, 3, 3, 0];

/// How much a piece attacking the squares around the enemy lion counts, by role.
const ATTACK_WEIGHT: [i32; 8] = [2, 3, 5, 3, 4, 3, 4, 0];

/// Advancement bonus of a pawn by ranks travelled from its own back rank (centipawns at 100 %).
/// The river rank (3) is low: a pawn there must move on or drown.
const PAWN_ADVANCE: [i32; 7] = [0, 0, 6, 4, 22, 38, 0];

/// The ranks a piece has travelled from its own back rank.
#[inline]
const fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 6 - sq.rank() as usize,
    }
}

/// Centralisation: 3 on d4, 0 on the edge.
const fn centrality(sq: Square) -> i32 {
    let df = (sq.file() as i32 - 3).abs();
    let dr = (sq.rank() as i32 - 3).abs();
    3 - if df > dr { df } else { dr }
}

/// Positional value (before scaling) of a piece of White on `sq`; Black's is the mirror image.
fn positional(role: Role, sq: Square) -> i32 {
    let c = centrality(sq);
    let in_river = RIVER.contains(sq);
    match role {
        // Pawns: files toward the centre are worth a little more; advancement is its own term.
        Role::Pawn => 2 * (3 - (sq.file() as i32 - 3).abs()),
        Role::Superpawn => 4 * c,
        Role::Monkey => 6 * c,
        Role::Giraffe | Role::Elephant => 5 * c,
        Role::Zebra => 8 * c,
        // The crocodile is strongest in the river, where it slides and never drowns.
        Role::Crocodile => 3 * c + if in_river { 15 } else { 0 },
        // The lion is safest on the back ranks of its castle, away from the river.
        Role::Lion => [10, 4, -10, 0, 0, 0, 0][sq.rank() as usize],
    }
}

/// A ready-to-use evaluation: the parameters with material and piece-square values folded into
/// one table.
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: EvalParams,
    /// `table[color][role][square]`: material plus scaled positional value, from the piece owner's view.
    table: Box<[[[i32; NUM_SQUARES]; 8]; 2]>,
    mobility: [i32; 8],
}

impl Evaluator {
    pub fn new(params: &EvalParams) -> Evaluator {
        let mut table = Box::new([[[0; NUM_SQUARES]; 8]; 2]);
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::all() {
                    // Black's view of a square is White's view of its mirror image.
                    let white_sq = match color {
                        Color::White => sq,
                        Color::Black => Square::from_coords(sq.file(), 6 - sq.rank()).unwrap_or(sq),
                    };
                    let mut value =
                        params.material[role.index()] + positional(role, white_sq) * params.pst / 100;
                    if role == Role::Pawn {
                        let rank = relative_rank(color, sq);
                        value += PAWN_ADVANCE[rank] * params.pawn_advance / 100;
                        if rank == 5 {
                            value += params.promotion;
                        }
                    }
                    table[color.index()][role.index()][sq.index()] = value;
                }
            }
        }
        let mobility = MOBILITY.map(|w| w * params.mobility / 100);
        Evaluator { params: *params, table, mobility }
    }

    /// The material value of a role (0 for the lion).
    #[inline]
    pub fn value(&self, role: Role) -> i32 {
        self.params.material[role.index()]
    }

    /// Material plus piece-square values only: the cheap part, for quick decisions.
    pub fn material_and_placement(&self, board: &Board, color: Color) -> i32 {
        let mut total = 0;
        for role in Role::ALL {
            let table = &self.table[color.index()][role.index()];
            for sq in board.by_piece(Piece::new(role, color)) {
                total += table[sq.index()];
            }
        }
        total
    }

    /// The evaluation of a position for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let board = pos.board();
        let us = pos.turn();
        let mut score = 0;
        for color in Color::ALL {
            let side = self.material_and_placement(board, color) + self.activity(board, color)
                - self.drowning_danger(board, color, color == us);
            score += if color == us { side } else { -side };
        }
        score += self.lion_line(board, us);
        score + self.params.tempo
    }

    /// Mobility of `color`'s pieces and their attacks on the squares around the enemy lion.
    fn activity(&self, board: &Board, color: Color) -> i32 {
        let sides = Sides::new(board, color);
        let enemy_lion = board.by_piece(Piece::new(Role::Lion, !color)).first();
        let zone = enemy_lion.map_or(Bitboard::EMPTY, |l| (KING[l.index()] & castle_of(!color)).with(l));
        let mut mobility = 0;
        let (mut attackers, mut units) = (0, 0);
        for role in Role::ALL {
            if role == Role::Lion {
                continue;
            }
            for from in board.by_piece(Piece::new(role, color)) {
                // The squares where the piece could capture (for the threats near the enemy lion),
                // and its mobility. A pawn's mobility is not counted, so its moves are not generated.
                let reach = match role {
                    Role::Pawn => PAWN_FORWARD[color.index()][from.index()] & !sides.own,
                    Role::Monkey => {
                        let jumps = monkey_reach(from, &sides);
                        let steps = rules::targets(role, from, &sides);
                        mobility += self.mobility[role.index()] * (steps.count() + jumps.count()) as i32;
                        jumps
                    }
                    _ => {
                        let targets = rules::targets(role, from, &sides);
                        mobility += self.mobility[role.index()] * targets.count() as i32;
                        // The giraffe's king steps never capture.
                        if role == Role::Giraffe {
                            targets & LEAP_TWO[from.index()]
                        } else {
                            targets
                        }
                    }
                };
                let hits = (reach & zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    units += ATTACK_WEIGHT[role.index()] * hits;
                }
            }
        }
        // One attacker is rarely dangerous; several together are.
        let danger = (units * attackers * 3).min(400);
        mobility + danger * self.params.lion_safety / 100
    }

    /// What `color` stands to lose to drowning: every non-crocodile piece in the river must leave it on
    /// its side's next move, and only one piece can move. For the side to move the loss is certain;
    /// the other side's is counted at half weight (the position may change before its turn).
    fn drowning_danger(&self, board: &Board, color: Color, to_move: bool) -> i32 {
        let swimmers = board.by_color(color) & RIVER & !board.by_role(Role::Crocodile);
        if swimmers.is_empty() || self.params.drowning == 0 {
            return 0;
        }
        let sides = Sides::new(board, color);
        let (mut stuck, mut movable, mut best_movable) = (0, 0, 0);
        for sq in swimmers {
            let Some(role) = board.role_at(sq) else { continue };
            let value = self.value(role);
            let mut exits = rules::targets(role, sq, &sides) & !RIVER;
            if role == Role::Monkey && monkey::has_jump(sq, &sides) {
                exits |= Bitboard::FULL;
            }
            if exits.any() {
                movable += value;
                best_movable = best_movable.max(value);
            } else {
                stuck += value;
            }
        }
        let loss = stuck + movable - best_movable;
        let scale = if to_move { self.params.drowning } else { self.params.drowning / 2 };
        loss * scale / 100
    }

    /// A lone piece between the lions on a file or diagonal is pinned: if it moves, the side to move
    /// next captures a lion. Its owner pays `lion_line`.
    fn lion_line(&self, board: &Board, us: Color) -> i32 {
        let (Some(white), Some(black)) = (
            board.by_piece(Piece::new(Role::Lion, Color::White)).first(),
            board.by_piece(Piece::new(Role::Lion, Color::Black)).first(),
        ) else {
            return 0;
        };
        for dir in forward_directions(Color::White) {
            let ray = RAY[dir.index()][white.index()];
            if ray.contains(black) {
                let between = ray & !RAY[dir.index()][black.index()] & !Bitboard::from_square(black);
                let blockers = between & board.occupied();
                if blockers.is_single() {
                    let owner_is_us = (blockers & board.by_color(us)).any();
                    return if owner_is_us { -self.params.lion_line } else { self.params.lion_line };
                }
                return 0;
            }
        }
        0
    }
}

/// The enemy pieces a monkey could jump right now (first jumps of its chains).
fn monkey_reach(from: Square, sides: &Sides) -> Bitboard {
    let landing = sides.empty.with(from);
    let mut reach = Bitboard::EMPTY;
    for d in 0..8 {
        let (Some(over), Some(land)) =
            (Square::new(STEP[d][from.index()]), Square::new(JUMP[d][from.index()]))
        else {
            continue;
        };
        if sides.enemy.contains(over) && landing.contains(land) {
            reach = reach.with(over);
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Evaluator::new(&EvalParams::default()).evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        assert_eq!(eval("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"), EvalParams::default().tempo);
        assert_eq!(eval("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1"), EvalParams::default().tempo);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let fens = [
            "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "gme1ecz/ppp1ppp/3l3/3pP2/7/PPP1PPP/GMELECZ w 5",
        ];
        let evaluator = Evaluator::new(&EvalParams::default());
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluator.evaluate(&pos), evaluator.evaluate(&pos.mirrored()), "{fen}");
        }
    }

    #[test]
    fn more_material_is_better() {
        assert!(eval("3l3/7/7/7/7/3Z3/3L3 w 1") > 200);
        assert!(eval("3l3/7/7/7/7/3Z3/3L3 b 1") < -200);
    }

    #[test]
    fn two_pieces_in_the_river_cost_the_side_to_move_one() {
        let calm = eval("3l3/7/2Z1Z2/7/7/7/3L3 w 1");
        let wet = eval("3l3/7/7/2Z1Z2/7/7/3L3 w 1");
        assert!(calm - wet > 200, "{calm} vs {wet}");
    }

    #[test]
    fn a_pinned_piece_between_the_lions_costs_its_owner() {
        let mut params = EvalParams::default();
        let pinned = Position::from_fen("3l3/7/7/3E3/7/7/3L3 w 1").unwrap();
        let free = Position::from_fen("3l3/7/7/2E4/7/7/3L3 w 1").unwrap();
        let with = Evaluator::new(&params);
        params.lion_line = 0;
        let without = Evaluator::new(&params);
        assert_eq!(with.evaluate(&pinned) - without.evaluate(&pinned), -EvalParams::default().lion_line);
        assert_eq!(with.evaluate(&free), without.evaluate(&free));
    }
}
