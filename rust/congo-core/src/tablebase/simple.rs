//! A second generator, deliberately simple, to check the first one: forward sweeps until nothing
//! changes.
//!
//! No un-moves, no move counters, no symmetry weights: sweep `d` looks at every position not yet
//! settled, plays all its moves and settles it if its value, computed from what is known so far,
//! is a win or a loss in exactly `d` plies. Before sweep `d` every position decided in fewer plies
//! is known, so a position settled in sweep `d` is decided in exactly `d`; when a sweep settles
//! nothing and no position is decided further out, the rest are draws. Each index is computed on
//! its own, mirror images included (the fast generator copies those from their twins).
//!
//! Its tables must be byte-identical to [`super::generate`]'s; it is much slower (a sweep per
//! distance), so it is meant for the small tables.

use std::path::Path;

use super::format::{check_partial, create_dir, partial_path, write_table, Dtm, Entries, TablebaseError};
use super::generate::{position_of, TableReport};
use super::layout::{Layout, Placement, LION_PAIR_COUNT};
use super::material::Material;
use super::probe::Tablebase;
use super::schedule::{self, Progress, Ticker};
use crate::piece::{Piece, Role};
use crate::position::Position;

/// Not a position.
const NONE: u16 = u16::MAX;
/// Not settled yet.
const OPEN: u16 = u16::MAX - 1;

/// The value of a position from its moves, where its own table's positions have the values in
/// `values` (`OPEN` unknown): `Some` when it is decided by what is known, `None` when not yet.
fn evaluate(
    pos: &Position,
    layout: &Layout,
    values: &[u16],
    tb: &Tablebase,
) -> Result<Option<Dtm>, Material> {
    let material = layout.material();
    let their_lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
    let bare = material.pieces() == 0;
    let mut best_loss: Option<u32> = None; // shortest known loss among the children
    let mut longest_win = 0; // longest win among the children
    let mut all_won = true;
    let mut any = false;
    let mut missing = None;
    let mut capture = false;
    pos.for_each_move(&mut |m| {
        any = true;
        if (m.captured & their_lion).any() {
            capture = true;
            return;
        }
        let child = pos.play_unchecked(&m);
        let value = if Material::of_board(child.board()) == material {
            let Some(p) = Placement::of_board(child.board(), child.turn()) else { return };
            match values[layout.file_index(&p, false) as usize] {
                OPEN => None,
                entry => Some(Dtm::from_plies(u32::from(entry))),
            }
        } else {
            let value = tb.probe_dtm(&child);
            if value.is_none() {
                missing = Some(Material::of_board(child.board()).canonical().0);
            }
            value
        };
        match value {
            Some(Dtm::Loss(d)) => best_loss = Some(best_loss.map_or(d, |b| b.min(d))),
            Some(Dtm::Win(d)) => longest_win = longest_win.max(d),
            Some(Dtm::Draw) | None => all_won = false,
        }
    });
    if let Some(m) = missing {
        return Err(m);
    }
    Ok(if capture {
        Some(Dtm::Win(1))
    } else if bare {
        // Bare lions without an immediate capture: a draw (docs/rules.md §8), known at once.
        Some(Dtm::Draw)
    } else if !any {
        Some(Dtm::Loss(0))
    } else if let Some(d) = best_loss {
        Some(Dtm::Win(d + 1))
    } else if all_won {
        Some(Dtm::Loss(longest_win + 1))
    } else {
        None
    })
}

/// Solves one table by sweeps. Returns its entries in the file's encoding.
pub(crate) fn solve(
    layout: &Layout,
    tb: &Tablebase,
    ticker: &Ticker<'_>,
) -> Result<Vec<u16>, TablebaseError> {
    let n = layout.len() as usize;
    // Every position of the table (mirror images included), with its index.
    let mut positions: Vec<(usize, Position)> = Vec::new();
    for side in 0..layout.sides() {
        for pair in 0..LION_PAIR_COUNT {
            layout.for_each_in_pair(side, pair, &mut |index, p| {
                positions.push((index as usize, position_of(p)));
            });
        }
    }
    let mut values = vec![NONE; n];
    for &(index, _) in &positions {
        values[index] = OPEN;
    }
    let mut draws = vec![false; n];
    let mut distance = 0u32;
    loop {
        let mut settled = Vec::new();
        let mut further = false;
        for &(index, pos) in &positions {
            if values[index] != OPEN || draws[index] {
                continue;
            }
            match evaluate(&pos, layout, &values, tb)
                .map_err(|material| TablebaseError::Missing { material })?
            {
                Some(Dtm::Draw) => draws[index] = true,
                Some(value) => match value.plies() {
                    Some(d) if d == distance => settled.push(index),
                    Some(d) if d > distance => further = true,
                    _ => {}
                },
                None => {}
            }
        }
        ticker.tick(0)?;
        if settled.is_empty() && !further && distance > 0 {
            break;
        }
        for index in settled {
            values[index] = distance as u16;
        }
        distance += 1;
        if distance >= u32::from(OPEN) {
            return Err(TablebaseError::Internal("distance too long".into()));
        }
    }
    ticker.tick(2 * layout.len())?;
    Ok(values
        .iter()
        .map(|&v| match v {
            NONE => u16::MAX,
            OPEN => 0,
            d => d + 1,
        })
        .collect())
}

/// Generates tables like [`super::generate`] (same options), by sweeps.
pub fn generate(
    dir: &Path,
    options: &super::GenerateOptions,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<TableReport>, TablebaseError> {
    let materials = schedule::select(options.men, &options.tables, true)?;
    create_dir(dir)?;
    let tb = Tablebase::empty();
    for &material in &materials {
        check_partial(&partial_path(&super::format::table_path(dir, material)))?;
    }
    let jobs = schedule::ordered_jobs(&materials);
    let work = |i: usize, ticker: &Ticker<'_>| -> Result<TableReport, TablebaseError> {
        let start = std::time::Instant::now();
        let layout = Layout::new(materials[i]);
        let values = solve(&layout, &tb, ticker)?;
        let longest = values.iter().filter(|&&v| v != u16::MAX && v != 0).map(|&v| u32::from(v) - 1).max();
        let entries = Entries::pack(&values, longest.unwrap_or(0));
        write_table(dir, &layout, &entries, longest.unwrap_or(0))?;
        let mut report = super::generate::summarize(&layout, &entries);
        report.seconds = start.elapsed().as_secs_f64();
        tb.install(materials[i], entries);
        Ok(report)
    };
    schedule::run(&jobs, options.threads, &work, progress)
}
