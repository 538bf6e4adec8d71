//! The endgame tablebases in the search: exact scores at every node the tables cover, and the
//! distance-best move at a root they cover.
//!
//! A node whose position is in the tables is not searched: its score is the table's distance to
//! mate counted from the root (a win in `n` plies at ply `p` scores like a lion captured at ply
//! `p + n`), or a draw. A root in the tables is answered without a search: every root move's value
//! is looked up, the quickest win (or the slowest loss) is played, and each line shown is the
//! tables' best line to the end of the game.

use std::time::Instant;

use super::score::{lost_at, win_in, Score, MAX_MATE_DISTANCE};
use super::tt::Bound;
use super::{Line, SearchInfo, SearchResult};
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::tablebase::{Dtm, Tablebase};

/// The longest line shown after a tablebase root move (the whole game, up to this).
const MAX_LINE: usize = 256;

/// The search score of a tablebase value at `ply` plies from the root.
#[inline]
pub(crate) fn score(value: Dtm, ply: usize) -> i32 {
    // Distances beyond the mate range (two-byte tables, deep in a search) are shortened to stay
    // decisive; no table up to five men comes near.
    let within = |n: u32| (ply + n as usize).min(MAX_MATE_DISTANCE - 1);
    match value {
        Dtm::Win(n) => win_in(within(n)),
        Dtm::Loss(n) => lost_at(within(n)),
        Dtm::Draw => 0,
    }
}

/// The value of a root move from the mover's point of view, or `None` if the position it leads to
/// is not in the tables.
fn move_value(tb: &Tablebase, pos: &Position, m: &Move) -> Option<Dtm> {
    let their_lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
    if (m.captured & their_lion).any() {
        return Some(Dtm::Win(1));
    }
    tb.probe_dtm(&pos.play_unchecked(m)).map(Dtm::before_move)
}

/// The answer for a root in the tables (`None` when it or a position its moves reach is not):
/// `root_moves` ranked by their values, the first `multipv` of them reported as lines.
pub(crate) fn root(
    tb: &Tablebase,
    pos: &Position,
    root_moves: &[Move],
    multipv: usize,
    start: Instant,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    tb.probe_dtm(pos)?;
    let mut ranked = root_moves
        .iter()
        .map(|m| Some((*m, move_value(tb, pos, m)?)))
        .collect::<Option<Vec<(Move, Dtm)>>>()?;
    // Stable: equal values keep the move ordering's preference.
    ranked.sort_by_key(|&(_, value)| core::cmp::Reverse(value.preference()));
    let mut nodes = ranked.len() as u64 + 1;
    let mut lines = Vec::new();
    for (i, &(m, value)) in ranked.iter().take(multipv.max(1)).enumerate() {
        let mut pv = vec![m];
        if value != Dtm::Draw && value != Dtm::Win(1) {
            let rest = tb.best_line(&pos.play_unchecked(&m), MAX_LINE);
            nodes += rest.len() as u64;
            pv.extend(rest);
        }
        let line = Line { score: Score::from_internal(score(value, 0)), pv };
        on_info(&SearchInfo {
            multipv: i as u32 + 1,
            bound: Bound::Exact,
            depth: 1,
            seldepth: line.pv.len() as u32,
            score: line.score,
            pv: line.pv.clone(),
            nodes,
            time: start.elapsed(),
            hashfull: 0,
        });
        lines.push(line);
    }
    let best = lines.first()?.clone();
    Some(SearchResult {
        best_move: best.pv.first().copied(),
        score: best.score,
        ponder: best.pv.get(1).copied(),
        pv: best.pv,
        depth: 1,
        seldepth: lines.iter().map(|l| l.pv.len() as u32).max().unwrap_or(1),
        lines,
        nodes,
        time: start.elapsed(),
        outcome: None,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::rng::SplitMix64;
    use crate::search::{Engine, Limits, SearchOptions};
    use crate::tablebase::{generate, GenerateOptions};

    fn tables() -> Arc<Tablebase> {
        static TABLES: std::sync::OnceLock<Arc<Tablebase>> = std::sync::OnceLock::new();
        Arc::clone(TABLES.get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("congo-tb-search-{}", std::process::id()));
            let options = GenerateOptions { men: 3, threads: 2, force: true, tables: Vec::new() };
            generate(&dir, &options, &mut |_| true).unwrap();
            Arc::new(Tablebase::open(&dir).unwrap())
        }))
    }

    /// Won positions of the three-man tables, found by probing random placements.
    fn won_positions(tb: &Tablebase, count: usize) -> Vec<(Position, u32)> {
        let mut rng = SplitMix64::new(17);
        let mut found = Vec::new();
        while found.len() < count {
            let name = ["LZvL", "LPvL", "LvLM"][rng.below(3)];
            let pos = crate::tablebase::tests::random_position(&mut rng, name);
            if let Some(Dtm::Win(n)) = tb.probe_dtm(&pos) {
                if n >= 3 {
                    found.push((pos, n));
                }
            }
        }
        found
    }

    #[test]
    fn a_root_in_the_tables_gets_the_distance_best_move_and_the_whole_line() {
        let tb = tables();
        let mut engine = Engine::new(1, 4).unwrap();
        engine.set_tablebase(Some(Arc::clone(&tb)));
        for (pos, n) in won_positions(&tb, 20) {
            let result = engine.search(&pos, &[], &Limits::depth(10), &mut |_| {});
            assert_eq!(result.score, Score::from_internal(win_in(n as usize)), "{}", pos.fen());
            assert_eq!(result.pv.len() as u32, n, "{}", pos.fen());
            let best = tb.root_moves(&pos).unwrap()[0].1;
            assert_eq!(move_value(&tb, &pos, &result.best_move.unwrap()), Some(best));
        }
    }

    #[test]
    fn searched_nodes_in_the_tables_score_exactly() {
        // Pondering skips the answer at the root: the search runs, and every child of the root is
        // scored from the tables.
        let tb = tables();
        let mut engine = Engine::new(1, 4).unwrap();
        engine.set_tablebase(Some(Arc::clone(&tb)));
        let options = SearchOptions { ponder: true, ..SearchOptions::default() };
        for (pos, n) in won_positions(&tb, 20) {
            let result = engine.search_with(&pos, &[], &Limits::depth(2), &options, &mut |_| {});
            assert_eq!(result.score, Score::from_internal(win_in(n as usize)), "{}", pos.fen());
            let best = tb.root_moves(&pos).unwrap()[0].1;
            assert_eq!(move_value(&tb, &pos, &result.best_move.unwrap()), Some(best), "{}", pos.fen());
        }
    }
}
