//! The generator: a forward pass, then retrograde analysis by increasing distance.
//!
//! Every move that changes the material (a capture, a monkey chain, a drowning, a promotion) leads
//! into a table generated earlier, so one pass over the table's positions settles what those moves
//! are worth: a capture of the enemy lion wins at once (distance 1); a move into a lost position
//! of a smaller table is a win one ply longer; a move into a drawn one means the position cannot be
//! lost. The pass also counts each position's quiet moves (the moves that stay in the table).
//!
//! Then retrograde analysis settles the quiet moves, distance by distance. When the positions lost
//! in `d` plies are known, every position with a quiet move into one of them is won in `d + 1`
//! (unless it is already won faster). When the positions won in `d` are known, each position with
//! a quiet move into one of them has one quiet move fewer left that does not lose; when none is
//! left, and none of its other moves could draw or win, it is lost, in `d + 1` plies or in the
//! distance its slowest material-changing move forces, whichever is longer. Positions never settled
//! are draws. Processing distances in increasing order makes every distance the shortest win and
//! the longest loss: exactly the distance to mate.
//!
//! Symmetry: positions are stored up to the file mirror and, for colour-symmetric signatures, up to
//! the colour swap (see [`super::layout`]). A position equal to its own mirror image stands for one
//! position where the others stand for two, so a quiet move into such a position counts twice in
//! the forward pass, and an un-move from such a position counts twice backward: with that weight
//! the counts forward and backward agree however the symmetric positions are met.

use std::path::Path as FsPath;

use super::format::{
    check_partial, create_dir, partial_path, table_path, write_table, Dtm, Entries, TablebaseError,
};
use super::layout::{Layout, Placement, FIRST_SYMMETRIC_PAIR, LION_PAIR_COUNT};
use super::material::Material;
use super::probe::Tablebase;
use super::schedule::{self, Progress, Ticker};
use super::unmove::for_each_unmove;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, Path};
use crate::piece::{Color, Role};
use crate::position::Position;
use crate::rules::{self, monkey, pawn, river, Sides};
use crate::square::Square;
use crate::zobrist;

/// A position's working state: a settled distance below [`SKIP`], [`SKIP`] for an index that is
/// no position (or a mirror image stored elsewhere), or [`UNSETTLED`] plus the number of quiet moves
/// not yet known to lose. Two bytes, so that a lion pair's block of a five-man table (about 100,000
/// positions) stays in the processor's second-level cache.
type Cell = u16;
const UNSETTLED: Cell = 0x8000;
const SKIP: Cell = 0x7FFF;
/// Added to the quiet-move count of a position that cannot be lost: the count never reaches 0.
const CANNOT_LOSE: u32 = 128;

/// How a table came to be.
#[derive(Clone, Debug)]
pub struct TableReport {
    pub material: Material,
    /// Positions stored (one per position up to symmetry), wins, draws and losses for the side to
    /// move among them.
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest distance to mate, in plies.
    pub longest: u32,
    /// Seconds the table took (0 for a table found in the directory).
    pub seconds: f64,
    /// Whether the table was already in the directory and kept.
    pub reused: bool,
}

/// A position of a table from its placement (always valid: lions in their castles, no pawn on its
/// far rank).
#[inline]
pub(crate) fn position_of(p: &Placement) -> Position {
    let board = p.board();
    Position { board, hash: zobrist::hash(&board, p.turn), fullmove: 1, turn: p.turn }
}

/// Whether a board is its own mirror image a↔g.
#[inline]
pub(crate) fn is_mirror_symmetric(board: &Board, turn: Color) -> bool {
    let lions = board.by_role(Role::Lion);
    // Cheap test first: both lions on file d.
    if (lions & Bitboard::file(3)).count() != 2 {
        return false;
    }
    Placement::of_board(board, turn).is_some_and(|p| p.mirrored() == p)
}

/// What the forward pass finds for one position.
struct Forward {
    /// Weighted number of quiet moves.
    quiet: u32,
    /// The shortest win through a material-changing move.
    win: Option<u32>,
    /// The longest loss through the material-changing moves, all of which lose (0 if none).
    floor: u32,
    /// A material-changing move draws: the position cannot be lost.
    cannot_lose: bool,
}

impl Forward {
    /// Takes in the value of the position a material-changing move leads to.
    #[inline]
    fn child(&mut self, value: Dtm) {
        match value {
            Dtm::Loss(d) => self.win = Some(self.win.map_or(d + 1, |w| w.min(d + 1))),
            Dtm::Win(d) => self.floor = self.floor.max(d + 1),
            Dtm::Draw => self.cannot_lose = true,
        }
    }
}

/// The forward pass at one position: every material-changing move is played and looked up in its
/// table; the quiet moves are only counted (with the weight of their mirror symmetry), from the
/// pieces' target squares.
fn forward(pos: &Position, tb: &Tablebase) -> Result<Forward, TablebaseError> {
    let board = pos.board();
    let us = pos.turn();
    let sides = Sides::new(board, us);
    let mut f = Forward { quiet: 0, win: None, floor: 0, cannot_lose: false };
    if sides.enemy_lion.is_empty() {
        return Err(TablebaseError::Internal("a table position without a lion".into()));
    }
    let swimmers = river::swimmers(board, us);
    let lions = board.by_role(Role::Lion);
    let lions_on_d = (lions & Bitboard::file(3)).count() == 2;
    let mut missing = None;
    let mut probe = |child: &Position, f: &mut Forward| match tb.probe_dtm(child) {
        Some(value) => f.child(value),
        None => missing = Some(Material::of_board(child.board()).canonical().0),
    };
    for role in Role::ALL {
        for from in board.by_role(role) & sides.own {
            let targets = rules::targets(role, from, &sides);
            if (targets & sides.enemy_lion).any() {
                return Ok(Forward { quiet: 0, win: Some(1), floor: 0, cannot_lose: false });
            }
            // A move is quiet unless it captures, promotes or drowns a piece.
            let mut quiet = targets & sides.empty & !river::drowning_destinations(role, from, swimmers);
            if role == Role::Pawn {
                quiet &= !pawn::promotion_squares(us);
            }
            if role == Role::Lion {
                let other = lions & !Bitboard::from_square(from);
                let other_on_d = (other & Bitboard::file(3)).any();
                for to in quiet {
                    let symmetric = other_on_d && to.file() == 3 && {
                        let child = pos.play_unchecked(&Move {
                            path: Path::single(from, to),
                            captured: Bitboard::EMPTY,
                            role,
                        });
                        is_mirror_symmetric(child.board(), !us)
                    };
                    f.quiet += 1 + u32::from(symmetric);
                }
            } else if lions_on_d {
                for to in quiet {
                    let child = pos.play_unchecked(&Move {
                        path: Path::single(from, to),
                        captured: Bitboard::EMPTY,
                        role,
                    });
                    f.quiet += 1 + u32::from(is_mirror_symmetric(child.board(), !us));
                }
            } else {
                f.quiet += quiet.count();
            }
            for to in targets & !quiet {
                let m = Move {
                    path: Path::single(from, to),
                    captured: Bitboard::from_square(to) & sides.enemy,
                    role,
                };
                probe(&pos.play_unchecked(&m), &mut f);
            }
            if role == Role::Monkey {
                let mut lion_taken = false;
                monkey::for_each_chain(from, &sides, &mut |m| {
                    if lion_taken {
                        return;
                    }
                    if (m.captured & sides.enemy_lion).any() {
                        lion_taken = true;
                    } else {
                        probe(&pos.play_unchecked(&m), &mut f);
                    }
                });
                if lion_taken {
                    return Ok(Forward { quiet: 0, win: Some(1), floor: 0, cannot_lose: false });
                }
            }
        }
    }
    if let Some(material) = missing {
        return Err(tb.missing_error(material));
    }
    Ok(f)
}

/// The working state of one table.
struct Solver {
    cells: Vec<Cell>,
    /// The longest loss the material-changing moves of a position force (all of them losing),
    /// read when its last quiet move turns out to lose too.
    floor: Vec<u8>,
    /// `buckets[d]`: indices settled at distance `d` (some stale: settled faster later).
    buckets: Vec<Vec<u32>>,
}

impl Solver {
    #[inline]
    fn settle(&mut self, index: usize, distance: u32) -> Result<(), TablebaseError> {
        if distance >= u32::from(SKIP) {
            return Err(TablebaseError::Internal(format!("distance {distance} is too long to store")));
        }
        self.cells[index] = distance as Cell;
        let d = distance as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(index as u32);
        Ok(())
    }
}

/// Solves one table, given the tables its moves lead into. Returns its entries (see
/// [`super::format`]; `u16::MAX` for no position).
pub(crate) fn solve(
    layout: &Layout,
    tb: &Tablebase,
    ticker: &Ticker<'_>,
) -> Result<(Vec<u16>, TableReport), TablebaseError> {
    let n = usize::try_from(layout.len())
        .ok()
        .filter(|&n| u32::try_from(n).is_ok())
        .ok_or_else(|| TablebaseError::Internal(format!("{} is too large", layout.material())))?;
    let bare = layout.material().pieces() == 0;
    // Indices that are no position, or a mirror image stored elsewhere, stay SKIP.
    let mut s = Solver { cells: vec![SKIP; n], floor: vec![0; n], buckets: Vec::new() };

    // Forward pass: the material-changing moves and the number of quiet ones.
    let mut failure = None;
    for side in 0..layout.sides() {
        for pair in 0..LION_PAIR_COUNT {
            let (start, end) = layout.pair_range(side, pair);
            layout.for_each_in_pair(side, pair, &mut |index, p| {
                if failure.is_some() || layout.mirror_twin(p, pair, index).is_some() {
                    return;
                }
                if let Err(e) = first_look(&mut s, index as usize, p, tb, bare) {
                    failure = Some(e);
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
            ticker.tick(end - start)?;
        }
    }

    // Retrograde analysis, distance by distance (not for bare lions, drawn by rule).
    if bare {
        s.buckets.clear();
    }
    let mut distance = 0;
    while distance < s.buckets.len() {
        // In index order: a position's predecessors lie near it (the same lion pair, one piece
        // moved), so consecutive positions touch the same few thousand cells.
        let mut bucket = core::mem::take(&mut s.buckets[distance]);
        bucket.sort_unstable();
        bucket.dedup();
        for (k, &index) in bucket.iter().enumerate() {
            if k % (1 << 14) == (1 << 14) - 1 {
                ticker.tick(0)?;
            }
            if usize::from(s.cells[index as usize]) != distance {
                continue;
            }
            retro_step(&mut s, layout, u64::from(index), distance as u32)?;
        }
        distance += 1;
    }

    // Encode: unsettled positions are draws; mirror images take their canonical twin's value.
    let mut summary = TableReport::new(layout.material());
    for &cell in &s.cells {
        match cell {
            SKIP => {}
            c if c >= UNSETTLED => summary.add(Dtm::Draw),
            d => summary.add(Dtm::from_plies(u32::from(d))),
        }
    }
    let mut entries: Vec<u16> = s
        .cells
        .iter()
        .map(|&c| match c {
            SKIP => u16::MAX,
            c if c >= UNSETTLED => 0,
            d => d + 1,
        })
        .collect();
    fill_mirror_images(layout, &mut entries);
    Ok((entries, summary))
}

/// Walks back from a position settled at `distance` through its quiet un-moves.
#[inline]
fn retro_step(s: &mut Solver, layout: &Layout, index: u64, distance: u32) -> Result<(), TablebaseError> {
    let (p, pair) = layout
        .placement_and_pair(index)
        .ok_or_else(|| TablebaseError::Internal(format!("index {index} settled but no position")))?;
    let board = p.board();
    let quick = layout.unmove_indexer(&p, pair, index);
    let mut failure = None;
    for_each_unmove(&board, !p.turn, &mut |from, to| {
        if failure.is_some() {
            return;
        }
        // A piece other than a lion: the index changes by a difference of digits.
        let slot = p.pieces().iter().position(|&(_, sq)| sq == to);
        let (q, symmetric) = match (slot, &quick) {
            (Some(slot), Some(quick)) => (quick.index(&p, slot, from), false),
            _ => layout.index(&unmoved(&p, from, to), false),
        };
        if let Err(e) = step_back(s, q as usize, symmetric, distance) {
            failure = Some(e);
        }
    });
    failure.map_or(Ok(()), Err)
}

/// The forward pass at one position.
#[inline]
fn first_look(
    s: &mut Solver,
    index: usize,
    p: &Placement,
    tb: &Tablebase,
    bare: bool,
) -> Result<(), TablebaseError> {
    s.cells[index] = UNSETTLED;
    let f = forward(&position_of(p), tb)?;
    if let Some(win) = f.win {
        return s.settle(index, win);
    }
    if bare {
        // Bare lions that cannot capture at once: a draw by rule (docs/rules.md §8).
        return Ok(());
    }
    if !f.cannot_lose && f.quiet == 0 {
        // No move, or only material-changing moves, all losing.
        return s.settle(index, f.floor);
    }
    if f.quiet >= CANNOT_LOSE {
        return Err(TablebaseError::Internal(format!("{} quiet moves", f.quiet)));
    }
    s.floor[index] = u8::try_from(f.floor)
        .map_err(|_| TablebaseError::Internal(format!("a forced loss of {} plies", f.floor)))?;
    let count = if f.cannot_lose { CANNOT_LOSE } else { f.quiet };
    s.cells[index] = UNSETTLED | count as Cell;
    Ok(())
}

/// The placement before the quiet move `from → to` that led to `p`.
#[inline]
fn unmoved(p: &Placement, from: Square, to: Square) -> Placement {
    let mut q = *p;
    q.turn = !p.turn;
    if q.white_lion == to {
        q.white_lion = from;
    } else if q.black_lion == to {
        q.black_lion = from;
    } else {
        for piece in &mut q.pieces[..q.len] {
            if piece.1 == to {
                piece.1 = from;
            }
        }
        q.sort();
    }
    q
}

/// Handles one quiet predecessor `q` (its own mirror image if `symmetric`) of a position settled
/// at `distance`.
#[inline]
fn step_back(s: &mut Solver, q: usize, symmetric: bool, distance: u32) -> Result<(), TablebaseError> {
    let cell = s.cells[q];
    if cell == SKIP {
        return Err(TablebaseError::Internal(format!("a predecessor at index {q} is no position")));
    }
    if distance % 2 == 0 {
        // A move into a lost position: won one ply later, unless already won faster.
        let win = distance + 1;
        if cell >= UNSETTLED || (cell % 2 == 1 && u32::from(cell) > win) {
            s.settle(q, win)?;
        }
    } else if cell >= UNSETTLED {
        // A move into a won position: one fewer way out.
        let weight = 1 + Cell::from(symmetric);
        let count = cell & !UNSETTLED;
        let left = count
            .checked_sub(weight)
            .ok_or_else(|| TablebaseError::Internal(format!("quiet move count underflow at index {q}")))?;
        s.cells[q] = UNSETTLED | left;
        if left == 0 {
            let loss = (distance + 1).max(u32::from(s.floor[q]));
            s.settle(q, loss)?;
        }
    }
    Ok(())
}

/// Gives every mirror image (both lions on file d) its canonical twin's entry.
pub(crate) fn fill_mirror_images(layout: &Layout, entries: &mut [u16]) {
    for side in 0..layout.sides() {
        for pair in FIRST_SYMMETRIC_PAIR..LION_PAIR_COUNT {
            layout.for_each_in_pair(side, pair, &mut |index, p| {
                if let Some(twin) = layout.mirror_twin(p, pair, index) {
                    entries[index as usize] = entries[twin as usize];
                }
            });
        }
    }
}

/// Calls `f(index)` for every canonical index of a table.
pub(crate) fn for_each_canonical(layout: &Layout, f: &mut impl FnMut(u64, &Placement)) {
    for side in 0..layout.sides() {
        for pair in 0..LION_PAIR_COUNT {
            layout.for_each_in_pair(side, pair, &mut |index, p| {
                if layout.mirror_twin(p, pair, index).is_none() {
                    f(index, p);
                }
            });
        }
    }
}

impl TableReport {
    fn new(material: Material) -> TableReport {
        TableReport {
            material,
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            longest: 0,
            seconds: 0.0,
            reused: false,
        }
    }

    fn add(&mut self, value: Dtm) {
        self.positions += 1;
        match value {
            Dtm::Win(n) => {
                self.wins += 1;
                self.longest = self.longest.max(n);
            }
            Dtm::Loss(n) => {
                self.losses += 1;
                self.longest = self.longest.max(n);
            }
            Dtm::Draw => self.draws += 1,
        }
    }
}

/// Summary counts of a table's entries (its canonical positions).
pub(crate) fn summarize(layout: &Layout, entries: &Entries) -> TableReport {
    let mut r = TableReport::new(layout.material());
    for_each_canonical(layout, &mut |index, _| {
        if let Some(value) = entries.get(index) {
            r.add(value);
        }
    });
    r
}

/// Options of [`generate`].
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Generate every table with up to this many men (2 to [`MAX_MEN`](super::MAX_MEN)).
    pub men: usize,
    /// Generate only these tables (and the tables they need) instead of all; empty for all.
    pub tables: Vec<Material>,
    /// Threads (each works on one table at a time).
    pub threads: usize,
    /// Regenerate tables already in the directory (otherwise they are checked and kept).
    pub force: bool,
}

/// Generates every table with up to `options.men` men into `dir` (created if needed), on
/// `options.threads` threads, calling `progress` about ten times a second (return `false` to
/// stop: the tables finished so far stay on disk, complete). Returns a report per table.
pub fn generate(
    dir: &FsPath,
    options: &GenerateOptions,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Vec<TableReport>, TablebaseError> {
    let materials = schedule::select(options.men, &options.tables, true)?;
    create_dir(dir)?;
    let tb = if options.force { Tablebase::empty() } else { Tablebase::open_possibly_empty(dir)? };
    // Every table kept or built on is checked (checksum, header, distances) before any work: a
    // damaged one is refused, never trusted.
    for &material in &materials {
        if !options.force && tb.has(material) {
            tb.entries(material).map_err(|e| match e {
                TablebaseError::Corrupt { path, reason } => TablebaseError::Corrupt {
                    path,
                    reason: format!("{reason}; delete it, or regenerate every table with --force"),
                },
                other => other,
            })?;
        }
    }
    // A link (or anything but a file) where a table will be written first is refused before the
    // hours of work, not after.
    for &material in &materials {
        if options.force || !tb.has(material) {
            check_partial(&partial_path(&table_path(dir, material)))?;
        }
    }
    let jobs = schedule::ordered_jobs(&materials);
    let work = |i: usize, ticker: &Ticker<'_>| -> Result<TableReport, TablebaseError> {
        let material = materials[i];
        let layout = Layout::new(material);
        if !options.force && tb.has(material) {
            let (_, entries) = tb.entries(material)?.ok_or(TablebaseError::Missing { material })?;
            let mut report = summarize(&layout, entries);
            report.reused = true;
            ticker.tick(2 * layout.len())?;
            return Ok(report);
        }
        let start = std::time::Instant::now();
        let (values, mut report) = solve(&layout, &tb, ticker)?;
        let entries = Entries::pack(&values, report.longest);
        write_table(dir, &layout, &entries, report.longest)?;
        report.seconds = start.elapsed().as_secs_f64();
        tb.install(material, entries);
        ticker.tick(layout.len())?;
        debug_assert!(table_path(dir, material).exists());
        Ok(report)
    };
    schedule::run(&jobs, options.threads, &work, progress)
}
