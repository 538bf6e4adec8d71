//! Move ordering: the move from the transposition table first, then captures by the value they win
//! (a monkey chain by everything it jumps), then the two killer moves of the ply, then quiet moves
//! by their history score.

use super::eval::Evaluator;
use super::params::SearchParams;
use crate::board::Board;
use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::rules::pawn;
use crate::square::NUM_SQUARES;

/// A compact identity of a move for the transposition table and the killer slots: from and to
/// squares, plus for a chain its length and a digest of its squares. Two different moves of one
/// position could share a key only if they were chains with the same ends, length and digest; a key
/// only ever selects among generated moves, so a clash could at worst misorder them. Never 0.
#[inline]
pub fn move_key(m: &Move) -> u32 {
    let (from, to) = (m.from().index() as u32, m.to().index() as u32);
    let mut key = 1 << 31 | from | to << 6;
    if m.path.is_chain() {
        let mut digest = 0u32;
        for sq in m.path.squares() {
            digest = digest.wrapping_mul(0x9e37_79b1).wrapping_add(sq.index() as u32 + 1);
        }
        key |= (m.path.legs() as u32 & 0x3f) << 12 | (digest >> 19) << 18;
    }
    key
}

/// Ordering scores. Higher is searched first.
const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
/// History scores stay within `±HISTORY_MAX`, below the killers.
pub const HISTORY_MAX: i32 = 1 << 14;

/// What capturing a lion counts for in move ordering: more than anything else.
const LION_VALUE: i32 = 20_000;

#[inline]
fn victim_value(board: &Board, sq: crate::square::Square, eval: &Evaluator) -> i32 {
    match board.role_at(sq) {
        Some(Role::Lion) => LION_VALUE,
        Some(role) => eval.value(role),
        None => 0,
    }
}

/// The total value of what a move captures (a lion counts as more than all other pieces together).
#[inline]
pub fn captured_value(board: &Board, m: &Move, eval: &Evaluator) -> i32 {
    m.captured.into_iter().map(|sq| victim_value(board, sq, eval)).sum()
}

/// Whether a move promotes a pawn (counted with the captures: it wins material too).
#[inline]
pub fn is_promotion(m: &Move, us: Color) -> bool {
    m.role == Role::Pawn && pawn::promotes(us, m.to())
}

/// Quiet-move statistics of one search thread: killers per ply and history per move.
pub struct Heuristics {
    killers: Vec<[u32; 2]>,
    /// `history[color][from * 49 + to]`.
    history: Vec<[i32; NUM_SQUARES * NUM_SQUARES]>,
}

impl Heuristics {
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics { killers: vec![[0; 2]; max_ply + 2], history: vec![[0; NUM_SQUARES * NUM_SQUARES]; 2] }
    }

    /// Forgets the killers; ages the history so that a new search trusts it less.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        for h in self.history.iter_mut().flatten() {
            *h /= 4;
        }
    }

    #[inline]
    fn history_index(m: &Move) -> usize {
        m.from().index() * NUM_SQUARES + m.to().index()
    }

    #[inline]
    pub fn history(&self, color: Color, m: &Move) -> i32 {
        self.history[color.index()][Self::history_index(m)]
    }

    /// Moves a history score toward `±HISTORY_MAX` by `bonus`, slowing down as it gets there.
    #[inline]
    fn update(entry: &mut i32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move refuted the opponent's move at `ply`: remember it as a killer, raise its history
    /// and lower the history of the quiet moves tried before it.
    pub fn reward(&mut self, color: Color, ply: usize, best: &Move, tried: &[Move], depth: i32) {
        let key = move_key(best);
        let killers = &mut self.killers[ply];
        if killers[0] != key {
            killers[1] = killers[0];
            killers[0] = key;
        }
        let bonus = (depth * depth).min(400) * 16;
        let table = &mut self.history[color.index()];
        Self::update(&mut table[Self::history_index(best)], bonus);
        for m in tried {
            Self::update(&mut table[Self::history_index(m)], -bonus);
        }
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [u32; 2] {
        self.killers[ply]
    }
}

/// A move with its ordering score.
#[derive(Copy, Clone)]
pub struct ScoredMove {
    pub m: Move,
    pub score: i32,
    /// Captures and promotions: never reduced or pruned as quiet moves are.
    pub tactical: bool,
}

/// Scores the moves of one node for ordering.
pub struct Orderer<'a> {
    pub board: &'a Board,
    pub us: Color,
    pub tt_key: u32,
    killers: [u32; 2],
    heuristics: &'a Heuristics,
    eval: &'a Evaluator,
    params: &'a SearchParams,
}

impl<'a> Orderer<'a> {
    pub fn new(
        board: &'a Board,
        us: Color,
        tt_key: u32,
        ply: usize,
        heuristics: &'a Heuristics,
        eval: &'a Evaluator,
        params: &'a SearchParams,
    ) -> Orderer<'a> {
        let killers = if params.killers { heuristics.killers(ply) } else { [0; 2] };
        Orderer { board, us, tt_key, killers, heuristics, eval, params }
    }

    /// A move with its ordering score.
    #[inline]
    pub fn score(&self, m: Move) -> ScoredMove {
        let key = move_key(&m);
        let promotion = is_promotion(&m, self.us);
        let tactical = m.is_capture() || promotion;
        let score = if key == self.tt_key {
            TT_MOVE
        } else if tactical {
            let gain = captured_value(self.board, &m, self.eval)
                + if promotion { self.eval.value(Role::Superpawn) - self.eval.value(Role::Pawn) } else { 0 };
            // Most valuable victims first; among equal victims the cheaper attacker first.
            if self.params.mvv_lva {
                GOOD_CAPTURE + gain * 32 - self.eval.value(m.role) / 8
            } else {
                GOOD_CAPTURE
            }
        } else if key == self.killers[0] {
            KILLER + 1
        } else if key == self.killers[1] {
            KILLER
        } else if self.params.history {
            self.heuristics.history(self.us, &m)
        } else {
            0
        };
        ScoredMove { m, score, tactical }
    }
}

/// Above this many moves the picker sorts its list once instead of selecting the best move at each
/// step: selection costs a pass over the rest of the list per move, which a node with thousands of
/// monkey chains cannot afford (tens of thousands of chains searched one by one would take seconds
/// of selecting alone), while ordinary positions, with a few dozen moves, never reach it.
const SORT_ABOVE: usize = 128;

/// The scored moves of a node, handed out best-first by selection (most nodes cut off after a move
/// or two, so sorting everything would be wasted), or from a list sorted once when it is long (see
/// [`SORT_ABOVE`]). The buffer is reused from node to node: the search keeps one per ply, so that
/// no move list is allocated or copied per node.
pub struct MovePicker {
    moves: Vec<ScoredMove>,
    next: usize,
    sorted: bool,
}

impl MovePicker {
    pub fn new(mut moves: Vec<ScoredMove>) -> MovePicker {
        let sorted = moves.len() > SORT_ABOVE;
        if sorted {
            // In place: a merge sort's buffer of up to a megabyte, allocated in a node, costs page
            // faults that can take longer than the sort. Deterministic all the same.
            moves.sort_unstable_by_key(|sm| core::cmp::Reverse(sm.score));
        }
        MovePicker { moves, next: 0, sorted }
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The best move not handed out yet.
    #[inline]
    pub fn next_move(&mut self) -> Option<ScoredMove> {
        if self.sorted {
            let sm = self.moves.get(self.next).copied();
            self.next += 1;
            return sm;
        }
        let rest = self.moves.get_mut(self.next..)?;
        let mut best = 0;
        for (i, sm) in rest.iter().enumerate().skip(1) {
            if sm.score > rest[best].score {
                best = i;
            }
        }
        if rest.is_empty() {
            return None;
        }
        rest.swap(0, best);
        self.next += 1;
        Some(rest[0])
    }

    /// The buffer, for reuse.
    pub fn into_buffer(self) -> Vec<ScoredMove> {
        self.moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn move_keys_tell_the_moves_of_a_position_apart() {
        for fen in [
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
            "3l3/2ppp2/2pMp2/2ppp2/7/7/3L3 w 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut keys: Vec<u32> = pos.legal_moves().iter().map(move_key).collect();
            assert!(keys.iter().all(|&k| k != 0));
            let n = keys.len();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), n, "{fen}");
        }
    }

    #[test]
    fn picker_puts_the_tt_move_then_the_biggest_capture_first() {
        let pos = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
        let eval = Evaluator::new(&super::super::params::EvalParams::default());
        let heuristics = Heuristics::new(8);
        let params = SearchParams::default();
        let moves = pos.legal_moves();
        let quiet = moves.iter().find(|m| !m.is_capture()).copied().unwrap();
        let orderer = Orderer::new(pos.board(), pos.turn(), move_key(&quiet), 0, &heuristics, &eval, &params);
        let mut picker = MovePicker::new(moves.iter().map(|&m| orderer.score(m)).collect());
        assert_eq!(picker.len(), moves.len());
        assert_eq!(picker.next_move().unwrap().m, quiet);
        // The chain that jumps the pawn, the crocodile and the lion wins the most.
        assert_eq!(picker.next_move().unwrap().m.uci(), "b1d3f5d7");
        let mut seen = 2;
        while picker.next_move().is_some() {
            seen += 1;
        }
        assert_eq!(seen, moves.len());
    }

    #[test]
    fn history_saturates() {
        let mut entry = 0;
        for _ in 0..1000 {
            Heuristics::update(&mut entry, 6400);
        }
        assert!(entry <= HISTORY_MAX && entry > HISTORY_MAX / 2);
    }
}
