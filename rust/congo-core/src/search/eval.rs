//! The static evaluation: how good a quiet position is for the side to move, in centipawns. This
//! file is the hand-written evaluation (`nnue=0`); the default, the learned one, is `search/nnue.rs`,
//! which [`Evaluator`] hands positions to when it is on.
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
//! * **Threats**: the side to move's pieces that an enemy piece could capture now, by role, and
//!   those of them attacked by a less valuable piece.
//!
//! Everything is computed from White's point of view and turned to the side to move's at the end.

use std::sync::Arc;

use super::nnue::{self, Network};
use super::params::EvalParams;
use super::weights;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::{self, monkey, Sides};
use crate::square::{Square, NUM_SQUARES};
use crate::tables::{castle_of, forward_directions, JUMP, KING, LEAP_TWO, PAWN_FORWARD, RAY, RIVER, STEP};

/// How much a piece attacking the squares around the enemy lion counts, by role.
const ATTACK_WEIGHT: [i32; 8] = [2, 3, 5, 3, 4, 3, 4, 0];

/// The order of the roles' values for threats (an attack by a lower one is a threat even on a
/// defended piece): pawn < zebra < superpawn = monkey < giraffe < elephant < crocodile < lion, as
/// the material weights order them.
const THREAT_ORDER: [u8; 8] = [1, 3, 3, 4, 2, 5, 6, 9];

/// The most units of danger near a lion that count (400 cp at the first weight of 3 cp a unit).
const DANGER_CAP: i32 = 133;

/// The ranks a piece has travelled from its own back rank.
#[inline]
const fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 6 - sq.rank() as usize,
    }
}

/// The index of `sq` in a piece-square table of [`weights::PST`], from `color`'s side.
#[inline]
fn pst_index(color: Color, sq: Square) -> usize {
    let file = sq.file() as usize;
    4 * relative_rank(color, sq) + file.min(6 - file)
}

/// The evaluation's features: the evaluation of a position is exactly the dot product of
/// [`Evaluator::features`] with [`Evaluator::weights`] (the tuner's contract, tested below).
pub mod features {
    /// Material by role (8).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables, `[role][4 * rank + file]` (8 × 28).
    pub const PST: usize = MATERIAL + 8;
    /// Pawn advancement by rank (7).
    pub const PAWN_ADVANCE: usize = PST + 8 * 28;
    /// Mobility by role (8).
    pub const MOBILITY: usize = PAWN_ADVANCE + 7;
    /// Danger near the enemy lion (1).
    pub const LION_ATTACK: usize = MOBILITY + 8;
    /// Pieces the side to move loses to the river, by role (8).
    pub const DROWN_MOVER: usize = LION_ATTACK + 1;
    /// Pieces the other side stands to lose to the river, by role (8).
    pub const DROWN_OTHER: usize = DROWN_MOVER + 8;
    /// A lone piece between the lions (1).
    pub const LION_LINE: usize = DROWN_OTHER + 8;
    /// The side to move's pieces an enemy piece could capture, by role (8).
    pub const THREAT: usize = LION_LINE + 1;
    /// The side to move's pieces a less valuable enemy piece could capture, by role (8).
    pub const THREAT_LOWER: usize = THREAT + 8;
    /// The side to move (1).
    pub const TEMPO: usize = THREAT_LOWER + 8;
    /// The number of features.
    pub const COUNT: usize = TEMPO + 1;

    /// The name of every feature, in order (`material.pawn`, `pst.zebra.15`, `tempo`, …).
    pub fn names() -> Vec<String> {
        const ROLES: [&str; 8] =
            ["pawn", "superpawn", "monkey", "giraffe", "zebra", "elephant", "crocodile", "lion"];
        let mut names = Vec::with_capacity(COUNT);
        names.extend(ROLES.iter().map(|r| format!("material.{r}")));
        for r in ROLES {
            names.extend((0..28).map(|i| format!("pst.{r}.{i}")));
        }
        names.extend((0..7).map(|i| format!("pawn_advance.{i}")));
        names.extend(ROLES.iter().map(|r| format!("mobility.{r}")));
        names.push("lion_attack".to_owned());
        names.extend(ROLES.iter().map(|r| format!("drown_mover.{r}")));
        names.extend(ROLES.iter().map(|r| format!("drown_other.{r}")));
        names.push("lion_line".to_owned());
        names.extend(ROLES.iter().map(|r| format!("threat.{r}")));
        names.extend(ROLES.iter().map(|r| format!("threat_lower.{r}")));
        names.push("tempo".to_owned());
        names
    }
}

/// What one side's pieces do, before weighting: the raw quantities of the mobility and lion-safety
/// terms.
struct Activity {
    /// Squares each role's pieces can move to, summed (pawns and the lion are not counted).
    mobility: [i32; 8],
    /// Units of danger near the enemy lion, capped at [`DANGER_CAP`].
    danger: i32,
    /// The squares where each role's pieces could capture an enemy piece.
    reach: [Bitboard; 8],
}

impl Activity {
    /// `victims`' pieces (the other side's) that these pieces could capture, by role: all of them,
    /// and those a less valuable piece could capture.
    fn threats(&self, board: &Board, victims: Color) -> ([i32; 8], [i32; 8]) {
        let (mut any, mut lower) = ([0; 8], [0; 8]);
        let attacked = self.reach.iter().fold(Bitboard::EMPTY, |all, &r| all | r);
        let attacked = attacked & board.by_color(victims);
        if attacked.is_empty() {
            return (any, lower);
        }
        for role in Role::ALL {
            if role == Role::Lion {
                continue;
            }
            let pieces = attacked & board.by_piece(Piece::new(role, victims));
            if pieces.is_empty() {
                continue;
            }
            let r = role.index();
            let by_lower = Role::ALL
                .iter()
                .filter(|a| THREAT_ORDER[a.index()] < THREAT_ORDER[r])
                .fold(Bitboard::EMPTY, |all, a| all | self.reach[a.index()]);
            any[r] = pieces.count() as i32;
            lower[r] = (pieces & by_lower).count() as i32;
        }
        (any, lower)
    }
}

/// A ready-to-use evaluation: the weights of `search/weights.rs` scaled by the parameters, with material
/// and piece-square values folded into one table, or the network when `nnue` is on.
#[derive(Clone, Debug)]
pub struct Evaluator {
    params: EvalParams,
    /// `table[color][role][square]`: material plus scaled positional value, from the piece owner's view.
    table: Box<[[[i32; NUM_SQUARES]; 8]; 2]>,
    /// The weight vector ([`features`]) as the evaluation uses it (percent scales applied).
    weights: Vec<i32>,
    /// The learned evaluation, when `nnue` is on: it replaces [`Evaluator::evaluate`]'s terms.
    network: Option<Arc<Network>>,
}

impl Evaluator {
    pub fn new(params: &EvalParams) -> Evaluator {
        Evaluator::with_network(params, None)
    }

    /// The evaluation of `params` with a network loaded from a file ([`Network::load`]) in place of
    /// the compiled-in one (`None`: the compiled-in one); the network is used when `nnue` is on.
    pub fn with_network(params: &EvalParams, network: Option<Arc<Network>>) -> Evaluator {
        use features as f;
        let pct = |w: i32, percent: i32| w * percent / 100;
        let mut w = vec![0; f::COUNT];
        w[f::MATERIAL..f::MATERIAL + 7].copy_from_slice(&params.material[..7]);
        for role in 0..8 {
            for i in 0..28 {
                w[f::PST + 28 * role + i] = pct(weights::PST[role][i], params.pst);
            }
            w[f::MOBILITY + role] = pct(weights::MOBILITY[role], params.mobility);
            w[f::DROWN_MOVER + role] = pct(weights::DROWN_MOVER[role], params.drowning);
            w[f::DROWN_OTHER + role] = pct(weights::DROWN_OTHER[role], params.drowning);
        }
        for rank in 0..7 {
            w[f::PAWN_ADVANCE + rank] = pct(weights::PAWN_ADVANCE[rank], params.pawn_advance);
        }
        w[f::PAWN_ADVANCE + 5] += params.promotion;
        w[f::LION_ATTACK] = pct(weights::LION_ATTACK, params.lion_safety);
        w[f::LION_LINE] = params.lion_line;
        for role in 0..8 {
            w[f::THREAT + role] = pct(weights::THREAT[role], params.threats);
            w[f::THREAT_LOWER + role] = pct(weights::THREAT_LOWER[role], params.threats);
        }
        w[f::TEMPO] = params.tempo;

        let mut table = Box::new([[[0; NUM_SQUARES]; 8]; 2]);
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::all() {
                    let r = role.index();
                    let mut value = w[f::MATERIAL + r] + w[f::PST + 28 * r + pst_index(color, sq)];
                    if role == Role::Pawn {
                        value += w[f::PAWN_ADVANCE + relative_rank(color, sq)];
                    }
                    table[color.index()][r][sq.index()] = value;
                }
            }
        }
        let network = params.nnue.then(|| network.unwrap_or_else(nnue::network));
        Evaluator { params: *params, table, weights: w, network }
    }

    /// The material value of a role (0 for the lion).
    #[inline]
    pub fn value(&self, role: Role) -> i32 {
        self.params.material[role.index()]
    }

    /// The hand-written evaluation's weight vector: with `nnue` off, [`Evaluator::evaluate`] is its dot
    /// product with [`Evaluator::features`].
    pub fn weights(&self) -> &[i32] {
        &self.weights
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

    /// The learned evaluation, if it is the one in use (the search then updates its accumulators
    /// move by move rather than calling [`Evaluator::evaluate`]).
    pub(crate) fn network(&self) -> Option<&Network> {
        self.network.as_deref()
    }

    /// The evaluation of a position for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        use features as f;
        if let Some(network) = &self.network {
            return network.evaluate(pos);
        }
        let board = pos.board();
        let us = pos.turn();
        let w = &self.weights;
        let mut score = 0;
        // Indexed by `Color::index`, computed once: the threats read the other side's reach.
        let activities = [Self::activity(board, Color::Black), Self::activity(board, Color::White)];
        debug_assert!(Color::Black.index() == 0 && Color::White.index() == 1);
        for color in Color::ALL {
            let activity = &activities[color.index()];
            let mut side = self.material_and_placement(board, color) + activity.danger * w[f::LION_ATTACK];
            for (count, weight) in activity.mobility.iter().zip(&w[f::MOBILITY..f::MOBILITY + 8]) {
                side += count * weight;
            }
            if let Some(lost) = self.drowning(board, color) {
                let at = if color == us { f::DROWN_MOVER } else { f::DROWN_OTHER };
                for (count, weight) in lost.iter().zip(&w[at..at + 8]) {
                    side -= count * weight;
                }
            }
            score += if color == us { side } else { -side };
        }
        score += Self::lion_line(board, us) * w[f::LION_LINE];
        if self.params.threats != 0 {
            // Off by default (a match found no gain): its weights are then all 0, and so is this.
            let (any, lower) = activities[(!us).index()].threats(board, us);
            for r in 0..8 {
                score += any[r] * w[f::THREAT + r] + lower[r] * w[f::THREAT_LOWER + r];
            }
        }
        score + w[f::TEMPO]
    }

    /// The features of a position, from the side to move's view: [`Evaluator::evaluate`] is their
    /// dot product with [`Evaluator::weights`].
    pub fn features(&self, pos: &Position) -> Vec<i32> {
        use features as f;
        let board = pos.board();
        let us = pos.turn();
        let mut x = vec![0; f::COUNT];
        for color in Color::ALL {
            let sign = if color == us { 1 } else { -1 };
            for role in Role::ALL {
                let r = role.index();
                for sq in board.by_piece(Piece::new(role, color)) {
                    x[f::MATERIAL + r] += sign;
                    x[f::PST + 28 * r + pst_index(color, sq)] += sign;
                    if role == Role::Pawn {
                        x[f::PAWN_ADVANCE + relative_rank(color, sq)] += sign;
                    }
                }
            }
            let activity = Self::activity(board, color);
            x[f::LION_ATTACK] += sign * activity.danger;
            for (r, count) in activity.mobility.iter().enumerate() {
                x[f::MOBILITY + r] += sign * count;
            }
            if let Some(lost) = self.drowning(board, color) {
                let at = if color == us { f::DROWN_MOVER } else { f::DROWN_OTHER };
                for (r, count) in lost.iter().enumerate() {
                    x[at + r] -= sign * count;
                }
            }
        }
        x[f::LION_LINE] = Self::lion_line(board, us);
        let (any, lower) = Self::activity(board, !us).threats(board, us);
        x[f::THREAT..f::THREAT + 8].copy_from_slice(&any);
        x[f::THREAT_LOWER..f::THREAT_LOWER + 8].copy_from_slice(&lower);
        x[f::TEMPO] = 1;
        x
    }

    /// Mobility of `color`'s pieces and their attacks on the squares around the enemy lion.
    fn activity(board: &Board, color: Color) -> Activity {
        let sides = Sides::new(board, color);
        let enemy_lion = board.by_piece(Piece::new(Role::Lion, !color)).first();
        let zone = enemy_lion.map_or(Bitboard::EMPTY, |l| (KING[l.index()] & castle_of(!color)).with(l));
        let mut mobility = [0; 8];
        let mut reach_by_role = [Bitboard::EMPTY; 8];
        let (mut attackers, mut units) = (0, 0);
        for role in Role::ALL {
            if role == Role::Lion {
                // The lion captures on the squares around it inside its castle.
                for from in board.by_piece(Piece::new(role, color)) {
                    reach_by_role[role.index()] |= KING[from.index()] & castle_of(color) & sides.enemy;
                }
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
                        mobility[role.index()] += (steps.count() + jumps.count()) as i32;
                        jumps
                    }
                    _ => {
                        let targets = rules::targets(role, from, &sides);
                        mobility[role.index()] += targets.count() as i32;
                        // The giraffe's king steps never capture.
                        if role == Role::Giraffe {
                            targets & LEAP_TWO[from.index()]
                        } else {
                            targets
                        }
                    }
                };
                reach_by_role[role.index()] |= reach & sides.enemy;
                let hits = (reach & zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    units += ATTACK_WEIGHT[role.index()] * hits;
                }
            }
        }
        // One attacker is rarely dangerous; several together are.
        Activity { mobility, danger: (units * attackers).min(DANGER_CAP), reach: reach_by_role }
    }

    /// What `color` stands to lose to drowning, by role (`None`: nothing): every non-crocodile
    /// piece in the river must leave it on its side's next move, and only one piece can move, so
    /// all but the most valuable movable swimmer are lost, and every one that cannot leave. For the
    /// side to move the loss is certain; the other side's is weighted less (the position may change
    /// before its turn).
    fn drowning(&self, board: &Board, color: Color) -> Option<[i32; 8]> {
        let swimmers = board.by_color(color) & RIVER & !board.by_role(Role::Crocodile);
        if swimmers.is_empty() || self.params.drowning == 0 {
            return None;
        }
        let sides = Sides::new(board, color);
        let mut lost = [0; 8];
        let mut saved: Option<Role> = None;
        for sq in swimmers {
            let Some(role) = board.role_at(sq) else { continue };
            lost[role.index()] += 1;
            let mut exits = rules::targets(role, sq, &sides) & !RIVER;
            if role == Role::Monkey && monkey::has_jump(sq, &sides) {
                exits |= Bitboard::FULL;
            }
            if exits.any() && saved.is_none_or(|best| self.value(role) > self.value(best)) {
                saved = Some(role);
            }
        }
        if let Some(role) = saved {
            lost[role.index()] -= 1;
        }
        Some(lost)
    }

    /// A lone piece between the lions on a file or diagonal is pinned: if it moves, the side to move
    /// next captures a lion. −1 if it is the side to move's, +1 if the other side's, else 0.
    fn lion_line(board: &Board, us: Color) -> i32 {
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
                    return if owner_is_us { -1 } else { 1 };
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

    // These tests are about the hand-written evaluation; the learned one has its own (search/nnue.rs).
    fn eval(fen: &str) -> i32 {
        Evaluator::new(&EvalParams::hand_written()).evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        assert_eq!(eval("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"), EvalParams::hand_written().tempo);
        assert_eq!(eval("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 1"), EvalParams::hand_written().tempo);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let fens = [
            "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "gme1ecz/ppp1ppp/3l3/3pP2/7/PPP1PPP/GMELECZ w 5",
        ];
        let evaluator = Evaluator::new(&EvalParams::hand_written());
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
    fn threats_count_the_side_to_moves_attacked_pieces_and_those_attacked_by_less() {
        let evaluator = Evaluator::new(&EvalParams::hand_written());
        let threats = |fen: &str, role: Role| {
            let x = evaluator.features(&Position::from_fen(fen).unwrap());
            (x[features::THREAT + role.index()], x[features::THREAT_LOWER + role.index()])
        };
        // A white pawn on c3 attacks the black elephant on d4: a threat, and by a lesser piece.
        assert_eq!(threats("3l3/7/7/3e3/2P4/7/3L3 b 1", Role::Elephant), (1, 1));
        // A white crocodile attacks the black pawn: a threat, not by a lesser piece.
        assert_eq!(threats("3l3/7/7/3p3/3C3/7/3L3 b 1", Role::Pawn), (1, 0));
        // Only the side to move's pieces count: with White to move, the crocodile the black pawn
        // attacks (straight forward), not the pawn.
        assert_eq!(threats("3l3/7/7/3p3/3C3/7/3L3 w 1", Role::Crocodile), (1, 1));
        assert_eq!(threats("3l3/7/7/3p3/3C3/7/3L3 w 1", Role::Pawn), (0, 0));
    }

    /// Positions of random games from the start (captures, promotions, rivers, lone lions…).
    fn random_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let mut pos = Position::start();
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_decided() {
                    break;
                }
                pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
                out.push(pos);
            }
        }
        out.truncate(count);
        out
    }

    fn dot(features: &[i32], weights: &[i32]) -> i32 {
        features.iter().zip(weights).map(|(f, w)| f * w).sum()
    }

    #[test]
    fn the_evaluation_is_the_dot_product_of_features_and_weights() {
        let mut scaled = EvalParams::hand_written();
        (scaled.pst, scaled.mobility, scaled.drowning, scaled.lion_safety) = (150, 50, 70, 200);
        (scaled.pawn_advance, scaled.promotion, scaled.material[2]) = (130, 25, 310);
        scaled.threats = 300; // on (the default is off), and larger than fitted
        for params in [EvalParams::hand_written(), scaled] {
            let evaluator = Evaluator::new(&params);
            assert_eq!(evaluator.weights().len(), features::COUNT);
            assert_eq!(features::names().len(), features::COUNT);
            let (mut in_river, mut threatened) = (0, 0);
            let mut positions = random_positions(20_000, 7);
            for fen in [
                "3l3/7/7/2Z1Z2/7/7/3L3 w 1",
                "3l3/7/7/2Z1Z2/7/7/3L3 b 1",
                "3l3/7/2p4/pMgEz1c/2P4/7/3L3 w 9",
                "3l3/7/2p4/pMgEz1c/2P4/7/3L3 b 9",
            ] {
                positions.push(Position::from_fen(fen).unwrap());
            }
            for pos in positions {
                let x = evaluator.features(&pos);
                in_river +=
                    usize::from(x[features::DROWN_MOVER..features::LION_LINE].iter().any(|&v| v != 0));
                threatened += usize::from(x[features::THREAT..features::TEMPO].iter().any(|&v| v != 0));
                assert_eq!(evaluator.evaluate(&pos), dot(&x, evaluator.weights()), "{}", pos.fen());
            }
            // The drowning and threat features were exercised too.
            assert!(in_river >= 4, "{in_river}");
            assert!(threatened >= 1000, "{threatened}");
        }
    }

    #[test]
    fn the_weights_are_those_of_the_weights_file() {
        let evaluator = Evaluator::new(&EvalParams::hand_written());
        let w = evaluator.weights();
        assert_eq!(w[features::MATERIAL..features::MATERIAL + 8], weights::MATERIAL);
        assert_eq!(w[features::PST + 28 * 4..features::PST + 28 * 5], weights::PST[4]);
        assert_eq!(w[features::TEMPO], weights::TEMPO);
        assert_eq!(w[features::LION_ATTACK], weights::LION_ATTACK);
    }

    #[test]
    fn a_pinned_piece_between_the_lions_costs_its_owner() {
        let mut params = EvalParams::hand_written();
        let pinned = Position::from_fen("3l3/7/7/3E3/7/7/3L3 w 1").unwrap();
        let free = Position::from_fen("3l3/7/7/2E4/7/7/3L3 w 1").unwrap();
        let with = Evaluator::new(&params);
        params.lion_line = 0;
        let without = Evaluator::new(&params);
        assert_eq!(with.evaluate(&pinned) - without.evaluate(&pinned), -EvalParams::hand_written().lion_line);
        assert_eq!(with.evaluate(&free), without.evaluate(&free));
    }
}
