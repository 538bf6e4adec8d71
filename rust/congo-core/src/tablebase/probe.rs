//! Probing: a directory of tables, loaded table by table on first use.
//!
//! [`Tablebase::open`] reads every table's header (so a damaged or foreign file is reported at once)
//! and loads a table's entries the first time a position of it is probed, checking them then
//! against the header's checksum and longest distance. A table that fails the check is unusable
//! for the tablebase's whole life: [`Tablebase::try_probe_dtm`] reports it as an error naming the
//! file, [`Tablebase::probe_dtm`] (the search's) treats it as absent and counts the hit
//! ([`Tablebase::failures`]). A probe finds the
//! table from the position's material, turns the position into the table's orientation and reads
//! one entry: no allocation, no system call once the table is in memory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::format::{read_header, read_table, table_path, Dtm, Entries, TablebaseError, Wdl, EXTENSION};
use super::layout::{Layout, Placement};
use super::material::{Kind, Material, KINDS, MAX_MEN, MAX_PIECES};
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;

/// The dense key of a set of at most [`MAX_PIECES`] piece kinds: the sorted kinds as base-15
/// digits, 14 for "none".
const KEY_SPACE: usize = 15 * 15 * 15;

#[inline]
fn key_of_kinds(kinds: impl Iterator<Item = Kind>) -> usize {
    let mut digits = [KINDS as Kind; MAX_PIECES];
    for (i, k) in kinds.take(MAX_PIECES).enumerate() {
        digits[i] = k;
    }
    digits.iter().fold(0, |key, &d| key * 15 + usize::from(d))
}

/// One signature's table: where it comes from and, once loaded, its entries.
struct Slot {
    layout: Layout,
    path: Option<PathBuf>,
    /// The entries once loaded and checked, or why they could not be.
    entries: OnceLock<Result<Entries, String>>,
}

/// A set of tables: a directory's, or the ones a generator has made so far.
pub struct Tablebase {
    dir: Option<PathBuf>,
    slots: Vec<Slot>,
    /// `lookup[key]`: the slot of a material key and whether its colours are swapped (bit 15).
    lookup: Box<[u16]>,
    /// The most men of any table present.
    max_men: AtomicUsize,
    /// How many probes met a table that failed its check.
    failures: AtomicUsize,
}

const SWAP: u16 = 0x8000;
const NONE: u16 = u16::MAX;

impl Tablebase {
    fn with_slots(dir: Option<PathBuf>, mut path_of: impl FnMut(Material) -> Option<PathBuf>) -> Tablebase {
        let materials = Material::all_canonical(MAX_MEN);
        let mut lookup = vec![NONE; KEY_SPACE].into_boxed_slice();
        let mut slots = Vec::with_capacity(materials.len());
        for (i, &material) in materials.iter().enumerate() {
            lookup[key_of_kinds(material.kinds())] = i as u16;
            let swapped = material.swapped();
            if swapped != material {
                lookup[key_of_kinds(swapped.kinds())] = i as u16 | SWAP;
            }
            let path = path_of(material);
            slots.push(Slot { layout: Layout::new(material), path, entries: OnceLock::new() });
        }
        let max_men =
            slots.iter().filter(|s| s.path.is_some()).map(|s| s.layout.material().men()).max().unwrap_or(0);
        Tablebase { dir, slots, lookup, max_men: AtomicUsize::new(max_men), failures: AtomicUsize::new(0) }
    }

    /// Opens a directory of tables (`*.ctb` files). Every file's header is checked now; entries
    /// are read (and checked) when first needed. Files of other names are ignored; a directory
    /// without any table is an error ([`TablebaseError::NoTables`]), and so is a file named like a
    /// table that is not a regular file.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TablebaseError> {
        let dir = dir.as_ref();
        let tb = Tablebase::open_possibly_empty(dir)?;
        if tb.slots.iter().all(|s| s.path.is_none()) {
            return Err(TablebaseError::NoTables { dir: dir.to_owned() });
        }
        Ok(tb)
    }

    /// [`Tablebase::open`], accepting a directory without tables (a generator's).
    pub(crate) fn open_possibly_empty(dir: &Path) -> Result<Tablebase, TablebaseError> {
        let listing = std::fs::read_dir(dir).map_err(|error| {
            let error = if error.kind() == std::io::ErrorKind::NotFound {
                std::io::Error::new(
                    error.kind(),
                    format!(
                        "no such directory; generate tables into it with \
                         `congo tablebase generate --men 4 --dir {}`",
                        dir.display()
                    ),
                )
            } else {
                error
            };
            TablebaseError::Io { path: dir.to_owned(), error }
        })?;
        let mut found = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|error| TablebaseError::Io { path: dir.to_owned(), error })?;
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                continue;
            }
            let (header, _) = read_header(&path)?;
            if path != table_path(dir, header.material) {
                return Err(TablebaseError::Corrupt {
                    path,
                    reason: format!("the header says {}", header.material),
                });
            }
            found.push(header.material);
        }
        Ok(Tablebase::with_slots(Some(dir.to_owned()), |m| found.contains(&m).then(|| table_path(dir, m))))
    }

    /// A tablebase with no tables yet (a generator installs them as it goes).
    pub fn empty() -> Tablebase {
        Tablebase::with_slots(None, |_| None)
    }

    /// The directory the tables were opened from.
    pub fn directory(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The most men of any table present (0 when there is none).
    pub fn max_men(&self) -> usize {
        self.max_men.load(Ordering::Relaxed)
    }

    /// The signatures whose tables are present.
    pub fn materials(&self) -> Vec<Material> {
        self.slots.iter().filter(|s| s.path.is_some() || s.loaded()).map(|s| s.layout.material()).collect()
    }

    /// Whether the table of a (canonical) signature is present.
    pub fn has(&self, material: Material) -> bool {
        self.slot(material).is_some_and(|s| s.path.is_some() || s.loaded())
    }

    fn slot(&self, material: Material) -> Option<&Slot> {
        if material.pieces() > MAX_PIECES {
            return None;
        }
        let entry = self.lookup[key_of_kinds(material.kinds())];
        (entry != NONE).then(|| &self.slots[usize::from(entry & !SWAP)])
    }

    /// Puts a generated table in place (it replaces nothing already loaded).
    pub(crate) fn install(&self, material: Material, entries: Entries) {
        if let Some(slot) = self.slot(material) {
            let _ = slot.entries.set(Ok(entries));
            self.max_men.fetch_max(material.men(), Ordering::Relaxed);
        }
    }

    /// The entries of a signature's table, loading and checking them on first use. `Ok(None)` if
    /// the table is absent, an error if its file failed the check (now or before).
    pub(crate) fn entries(&self, material: Material) -> Result<Option<(&Layout, &Entries)>, TablebaseError> {
        let Some(slot) = self.slot(material) else { return Ok(None) };
        match slot.load() {
            None => Ok(None),
            Some(Ok(entries)) => Ok(Some((&slot.layout, entries))),
            Some(Err(reason)) => Err(slot.error(reason)),
        }
    }

    /// Loads and checks every table now; returns the first error (a missing or damaged file).
    /// A table that fails stays unusable: probes of its positions fail too.
    pub fn load_all(&self) -> Result<(), TablebaseError> {
        let mut first = None;
        for slot in &self.slots {
            if let Some(Err(reason)) = slot.load() {
                first.get_or_insert_with(|| slot.error(reason));
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The error for a table a generator or verifier needed and did not find: its check's failure
    /// if its file failed it, else [`TablebaseError::Missing`].
    pub(crate) fn missing_error(&self, material: Material) -> TablebaseError {
        match self.entries(material) {
            Err(e) => e,
            Ok(_) => TablebaseError::Missing { material },
        }
    }

    /// How many probes so far met a table that failed its check (and answered "not in the
    /// tables"): a caller compares the figure before and after a search.
    pub fn failures(&self) -> usize {
        self.failures.load(Ordering::Relaxed)
    }

    /// The first table (in signature order) that failed its check, if any did.
    pub fn failure(&self) -> Option<TablebaseError> {
        self.slots.iter().find_map(|s| match s.entries.get() {
            Some(Err(reason)) => Some(s.error(reason)),
            _ => None,
        })
    }

    /// The canonical signature of the table that covers a position, and whether it is present;
    /// `None` for a position with more men than any table holds or a lion missing.
    pub fn table_of(&self, pos: &Position) -> Option<(Material, bool)> {
        let board = pos.board();
        if board.occupied().count() as usize > MAX_MEN {
            return None;
        }
        Placement::of_board(board, pos.turn())?;
        let (material, _) = Material::of_board(board).canonical();
        Some((material, self.has(material)))
    }

    /// The value of a placement; `Err(slot)` if its table failed its check.
    #[inline]
    fn lookup_placement(&self, placement: &Placement) -> Result<Option<Dtm>, usize> {
        let entry = self.lookup[key_of_kinds(placement.pieces().iter().map(|p| p.0))];
        if entry == NONE {
            return Ok(None);
        }
        let index = usize::from(entry & !SWAP);
        let slot = &self.slots[index];
        match slot.load() {
            None => Ok(None),
            Some(Ok(entries)) => Ok(entries.get(slot.layout.file_index(placement, entry & SWAP != 0))),
            Some(Err(_)) => Err(index),
        }
    }

    /// The value of a placement (`None` outside the tables or in a table that failed its check).
    #[inline]
    pub(crate) fn probe_placement(&self, placement: &Placement) -> Option<Dtm> {
        self.lookup_placement(placement).unwrap_or_else(|_| {
            self.failures.fetch_add(1, Ordering::Relaxed);
            None
        })
    }

    /// The distance to mate of a position for the side to move, or `None` if it is not in the
    /// tables (too many men, a table missing or failing its check, or a lion already captured).
    #[inline]
    pub fn probe_dtm(&self, pos: &Position) -> Option<Dtm> {
        let board = pos.board();
        if board.occupied().count() as usize > self.max_men() {
            return None;
        }
        self.probe_placement(&Placement::of_board(board, pos.turn())?)
    }

    /// [`Tablebase::probe_dtm`], with an error naming the file for a position whose table failed
    /// its check.
    #[inline]
    pub fn try_probe_dtm(&self, pos: &Position) -> Result<Option<Dtm>, TablebaseError> {
        let board = pos.board();
        if board.occupied().count() as usize > self.max_men() {
            return Ok(None);
        }
        let Some(placement) = Placement::of_board(board, pos.turn()) else { return Ok(None) };
        self.lookup_placement(&placement).map_err(|index| {
            let slot = &self.slots[index];
            match slot.entries.get() {
                Some(Err(reason)) => slot.error(reason),
                _ => TablebaseError::Internal("a failed table without its reason".into()),
            }
        })
    }

    /// Win, draw or loss for the side to move, or `None` outside the tables.
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.probe_dtm(pos).map(Dtm::wdl)
    }

    /// Every legal move of a position in the tables with the value it leads to for the side to
    /// move, best first (the quickest win, …, the slowest loss); ties keep the move generator's
    /// order. `None` if the position or one of the positions its moves reach is not in the tables.
    pub fn root_moves(&self, pos: &Position) -> Option<Vec<(Move, Dtm)>> {
        Self::root_moves_with(pos, &|p| Ok(self.probe_dtm(p))).unwrap_or(None)
    }

    /// [`Tablebase::root_moves`], with an error for a table that failed its check.
    pub fn try_root_moves(&self, pos: &Position) -> Result<Option<Vec<(Move, Dtm)>>, TablebaseError> {
        Self::root_moves_with(pos, &|p| self.try_probe_dtm(p))
    }

    fn root_moves_with(
        pos: &Position,
        probe: &dyn Fn(&Position) -> Result<Option<Dtm>, TablebaseError>,
    ) -> Result<Option<Vec<(Move, Dtm)>>, TablebaseError> {
        if probe(pos)?.is_none() {
            return Ok(None);
        }
        let lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            let value = if (m.captured & lion).any() {
                Dtm::Win(1)
            } else {
                let Some(value) = probe(&pos.play_unchecked(&m))? else { return Ok(None) };
                value.before_move()
            };
            moves.push((m, value));
        }
        moves.sort_by_key(|&(_, value)| core::cmp::Reverse(value.preference()));
        Ok(Some(moves))
    }

    /// The best line from a position in the tables: the distance-best move for each side in turn
    /// (the quickest win, the slowest loss) until the game ends, or `max_plies` moves for a draw.
    pub fn best_line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        Self::best_line_with(pos, max_plies, &|p| Ok(self.root_moves(p))).unwrap_or_default()
    }

    /// [`Tablebase::best_line`], with an error for a table that failed its check.
    pub fn try_best_line(&self, pos: &Position, max_plies: usize) -> Result<Vec<Move>, TablebaseError> {
        Self::best_line_with(pos, max_plies, &|p| self.try_root_moves(p))
    }

    #[allow(clippy::type_complexity)]
    fn best_line_with(
        pos: &Position,
        max_plies: usize,
        root_moves: &dyn Fn(&Position) -> Result<Option<Vec<(Move, Dtm)>>, TablebaseError>,
    ) -> Result<Vec<Move>, TablebaseError> {
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < max_plies {
            let Some(moves) = root_moves(&current)? else { break };
            let Some(&(best, value)) = moves.first() else { break };
            line.push(best);
            if value == Dtm::Win(1) {
                break;
            }
            current = current.play_unchecked(&best);
        }
        Ok(line)
    }
}

impl Slot {
    fn loaded(&self) -> bool {
        self.entries.get().is_some_and(Result::is_ok)
    }

    /// The entries: installed ones, or the file's, read and checked on first use (a slot without
    /// a file is left open for a generator to install its table later). `None` for no table.
    #[inline]
    fn load(&self) -> Option<&Result<Entries, String>> {
        match &self.path {
            None => self.entries.get(),
            Some(path) => Some(self.entries.get_or_init(|| match read_table(path, true) {
                Ok((_, entries)) => Ok(entries),
                Err(TablebaseError::Corrupt { reason, .. }) => Err(reason),
                Err(e) => Err(format!("cannot be read: {e}")),
            })),
        }
    }

    /// The error of a table that failed its check.
    fn error(&self, reason: &str) -> TablebaseError {
        let path = self.path.clone().unwrap_or_else(|| PathBuf::from(self.layout.material().name()));
        TablebaseError::Corrupt { path, reason: reason.to_owned() }
    }
}

impl core::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("tables", &self.materials().len())
            .field("max_men", &self.max_men())
            .finish_non_exhaustive()
    }
}
