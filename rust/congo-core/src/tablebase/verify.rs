//! The verifier: every entry of every table recomputed from the move generator and the tables.
//!
//! For each position the value must follow from the values its moves lead to, one ply later:
//! a capture of the enemy lion is a win in 1; otherwise a win in `d` has a move into a loss in
//! `d − 1` and none into a shorter loss; a loss in `d` has only moves into wins, the longest in
//! `d − 1` (a loss in 0 has no move at all); a draw has no move into a loss and one into a draw;
//! bare lions are a draw unless the side to move captures at once. Indices that are no position
//! must say so, and mirror images (both lions on file d) are checked like any other position.
//!
//! Checked everywhere, these rules prove a table right given the tables its moves lead into: a
//! value claimed for a position is justified by a chain of strictly shorter claims down to a lion
//! capture or a position without moves, so no drawn position can pass as won or lost, and no won
//! or lost one as drawn or at a wrong distance. The verifier shares only the index layout, the file
//! reader and the move generator with the generator.

use std::path::Path;

use super::format::{read_table, table_path, Dtm, TablebaseError};
use super::generate::position_of;
use super::layout::LION_PAIR_COUNT;
use super::material::Material;
use super::probe::Tablebase;
use super::schedule::{self, Progress, Ticker};
use crate::piece::{Piece, Role};
use crate::position::Position;

/// How many wrong positions a report lists (it counts them all).
const MAX_LISTED: usize = 10;

/// What the verifier found in one table.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub material: Material,
    /// Indices checked (positions, mirror images and indices that are no position).
    pub entries: u64,
    /// Wrong entries found.
    pub wrong: u64,
    /// The first few wrong entries, described.
    pub errors: Vec<String>,
    pub seconds: f64,
}

/// The value a position must have, from its moves and the tables.
pub(crate) fn expected_value(pos: &Position, tb: &Tablebase) -> Result<Dtm, Material> {
    let their_lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
    let bare = pos.board().occupied().count() == 2;
    let mut best: Option<Dtm> = None;
    let mut missing = None;
    pos.for_each_move(&mut |m| {
        if best == Some(Dtm::Win(1)) || missing.is_some() {
            return;
        }
        let value = if (m.captured & their_lion).any() {
            Dtm::Win(1)
        } else if bare {
            // Bare lions: only an immediate capture decides (docs/rules.md §8).
            Dtm::Draw
        } else {
            let child = pos.play_unchecked(&m);
            let Some(value) = tb.probe_dtm(&child) else {
                missing = Some(Material::of_board(child.board()).canonical().0);
                return;
            };
            value.before_move()
        };
        if best.is_none_or(|b| value.preference() > b.preference()) {
            best = Some(value);
        }
    });
    if let Some(material) = missing {
        return Err(material);
    }
    Ok(best.unwrap_or(Dtm::Loss(0)))
}

/// Verifies one table (whose file must be in `tb`), checking its checksum too.
pub(crate) fn verify_table(
    dir: &Path,
    material: Material,
    tb: &Tablebase,
    ticker: &Ticker<'_>,
) -> Result<VerifyReport, TablebaseError> {
    let start = std::time::Instant::now();
    // Reading with the check compares the entries with the header's checksum.
    read_table(&table_path(dir, material), true)?;
    let (layout, entries) = tb.entries(material)?.ok_or(TablebaseError::Missing { material })?;
    let mut report =
        VerifyReport { material, entries: layout.len(), wrong: 0, errors: Vec::new(), seconds: 0.0 };
    let complain = |report: &mut VerifyReport, text: String| {
        report.wrong += 1;
        if report.errors.len() < MAX_LISTED {
            report.errors.push(text);
        }
    };
    let mut missing = None;
    for side in 0..layout.sides() {
        for pair in 0..LION_PAIR_COUNT {
            let (start, end) = layout.pair_range(side, pair);
            let mut next = start;
            layout.for_each_in_pair(side, pair, &mut |index, p| {
                // The indices skipped since the last position are no position.
                for broken in next..index {
                    if entries.get(broken).is_some() {
                        complain(&mut report, format!("index {broken} is no position but has a value"));
                    }
                }
                next = index + 1;
                let pos = position_of(p);
                let stored = entries.get(index);
                match expected_value(&pos, tb) {
                    Ok(expected) if stored == Some(expected) => {}
                    Ok(expected) => complain(
                        &mut report,
                        format!("{}: stored {}, expected {expected}", pos.fen(), show(stored)),
                    ),
                    Err(m) => missing = Some(m),
                }
            });
            for broken in next..end {
                if entries.get(broken).is_some() {
                    complain(&mut report, format!("index {broken} is no position but has a value"));
                }
            }
            if let Some(material) = missing {
                return Err(tb.missing_error(material));
            }
            ticker.tick(2 * (end - start))?;
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

fn show(value: Option<Dtm>) -> String {
    value.map_or_else(|| "no position".to_owned(), |v| v.to_string())
}

/// Options of [`verify`].
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Verify every table with up to this many men.
    pub men: usize,
    /// Verify only these tables; empty for all up to `men`.
    pub tables: Vec<Material>,
    pub threads: usize,
}

/// Verifies the tables of a directory on `threads` threads. Every table checked needs the tables
/// its moves lead into. Returns a report per table; a table with wrong entries is reported, not
/// an error (see [`VerifyReport::wrong`]).
pub fn verify(
    dir: &Path,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<VerifyReport>, TablebaseError> {
    let materials = schedule::select(options.men, &options.tables, false)?;
    let tb = Tablebase::open(dir)?;
    schedule::require(&tb, &schedule::with_successors(&materials))?;
    let jobs = schedule::unordered_jobs(&materials);
    let work = |i: usize, ticker: &Ticker<'_>| verify_table(dir, materials[i], &tb, ticker);
    schedule::run(&jobs, options.threads, &work, progress)
}
