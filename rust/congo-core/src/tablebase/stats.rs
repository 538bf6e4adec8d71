//! What the tables say: for each signature, how many positions each side wins, the longest wins
//! and the mutual zugzwangs.
//!
//! Every count is over real positions (placement and side to move), each once: the tables store a
//! position and its mirror image once, which counts twice here. A *mutual zugzwang* is a placement
//! where the side to move, whichever it is, does worse than if the other side were to move (Congo
//! has no passing): whoever moves loses (a full-point zugzwang), or one side to move draws where
//! the other would lose (a half-point one).

use std::path::Path;

use super::format::{Dtm, TablebaseError, Wdl};
use super::generate::position_of;
use super::layout::{Layout, Placement, FIRST_SYMMETRIC_PAIR, LION_PAIR_COUNT};
use super::material::Material;
use super::probe::Tablebase;
use super::schedule::{self, Progress, Ticker};
use crate::piece::Color;
use crate::position::Position;

/// The counts for one side to move.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    pub positions: u64,
    /// Positions the side to move wins, draws, loses.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win of the side to move, in plies, with a position (the first found in index
    /// order); likewise the longest loss.
    pub longest_win: Option<(u32, Position)>,
    pub longest_loss: Option<(u32, Position)>,
}

impl SideStats {
    fn add(&mut self, value: Dtm, weight: u64, p: &Placement) {
        self.positions += weight;
        match value {
            Dtm::Win(n) => {
                self.wins += weight;
                if self.longest_win.as_ref().is_none_or(|(m, _)| n > *m) {
                    self.longest_win = Some((n, position_of(p)));
                }
            }
            Dtm::Loss(n) => {
                self.losses += weight;
                if self.longest_loss.as_ref().is_none_or(|(m, _)| n > *m) {
                    self.longest_loss = Some((n, position_of(p)));
                }
            }
            Dtm::Draw => self.draws += weight,
        }
    }
}

/// What one table says.
#[derive(Clone, Debug)]
pub struct TableStats {
    pub material: Material,
    pub white_to_move: SideStats,
    pub black_to_move: SideStats,
    /// Mutual zugzwangs where whoever moves loses.
    pub full_zugzwangs: u64,
    /// Mutual zugzwangs where one side to move draws and the other loses.
    pub half_zugzwangs: u64,
    /// A full-point mutual zugzwang (White to move), else a half-point one, if there is any.
    pub zugzwang_example: Option<Position>,
}

/// Counts one table's positions.
pub(crate) fn table_stats(
    material: Material,
    tb: &Tablebase,
    ticker: &Ticker<'_>,
) -> Result<TableStats, TablebaseError> {
    let (layout, entries) = tb.entries(material)?.ok_or(TablebaseError::Missing { material })?;
    let mut stats = TableStats {
        material,
        white_to_move: SideStats::default(),
        black_to_move: SideStats::default(),
        full_zugzwangs: 0,
        half_zugzwangs: 0,
        zugzwang_example: None,
    };
    let mut half_example = None;
    let mut missing = false;
    // Every placement with White to move (side 0 of the layout), mirror images included: a
    // placement whose lions are not both on file d stands for itself and its mirror image.
    for pair in 0..LION_PAIR_COUNT {
        let weight = if pair < FIRST_SYMMETRIC_PAIR { 2 } else { 1 };
        layout.for_each_in_pair(0, pair, &mut |index, p| {
            let mut black = *p;
            black.turn = Color::Black;
            let (Some(white_value), Some(black_value)) = (entries.get(index), probe(layout, entries, &black))
            else {
                missing = true;
                return;
            };
            stats.white_to_move.add(white_value, weight, p);
            stats.black_to_move.add(black_value, weight, &black);
            // White's result with White to move, and with Black to move.
            let white_moving = white_value.wdl() as i8;
            let black_moving = -(black_value.wdl() as i8);
            if white_moving < black_moving {
                if white_moving == Wdl::Loss as i8 && black_moving == Wdl::Win as i8 {
                    stats.full_zugzwangs += weight;
                    if stats.zugzwang_example.is_none() {
                        stats.zugzwang_example = Some(position_of(p));
                    }
                } else {
                    stats.half_zugzwangs += weight;
                    if half_example.is_none() {
                        half_example = Some(position_of(p));
                    }
                }
            }
        });
        let (start, end) = layout.pair_range(0, pair);
        ticker.tick(2 * (end - start) * layout.sides() as u64)?;
    }
    if missing {
        return Err(TablebaseError::Internal(format!("{material}: a position without a value")));
    }
    if stats.zugzwang_example.is_none() {
        stats.zugzwang_example = half_example;
    }
    Ok(stats)
}

fn probe(layout: &Layout, entries: &super::format::Entries, p: &Placement) -> Option<Dtm> {
    entries.get(layout.file_index(p, false))
}

/// Counts the tables with up to `men` men (or only `tables`) in a directory.
pub fn stats(
    dir: &Path,
    men: usize,
    tables: &[Material],
    threads: usize,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<TableStats>, TablebaseError> {
    let materials = schedule::select(men, tables, false)?;
    let tb = Tablebase::open(dir)?;
    schedule::require(&tb, &materials)?;
    let jobs = schedule::unordered_jobs(&materials);
    let work = |i: usize, ticker: &Ticker<'_>| table_stats(materials[i], &tb, ticker);
    schedule::run(&jobs, threads, &work, progress)
}
