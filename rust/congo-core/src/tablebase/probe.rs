//! Probing: a directory of tables, loaded table by table on first use.
//!
//! [`Tablebase::open`] reads every table's header (so a damaged or foreign file is reported at once)
//! and loads a table's entries the first time a position of it is probed. A probe finds the
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
    entries: OnceLock<Option<Entries>>,
}

/// A set of tables: a directory's, or the ones a generator has made so far.
pub struct Tablebase {
    dir: Option<PathBuf>,
    slots: Vec<Slot>,
    /// `lookup[key]`: the slot of a material key and whether its colours are swapped (bit 15).
    lookup: Box<[u16]>,
    /// The most men of any table present.
    max_men: AtomicUsize,
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
        Tablebase { dir, slots, lookup, max_men: AtomicUsize::new(max_men) }
    }

    /// Opens a directory of tables (`*.ctb` files). Every file's header is checked now; entries
    /// are read when first needed. Files of other names are ignored.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TablebaseError> {
        let dir = dir.as_ref();
        let listing =
            std::fs::read_dir(dir).map_err(|error| TablebaseError::Io { path: dir.to_owned(), error })?;
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
            let _ = slot.entries.set(Some(entries));
            self.max_men.fetch_max(material.men(), Ordering::Relaxed);
        }
    }

    /// The entries of a signature's table, loading them on first use. `None` if the table is
    /// absent or its file can no longer be read.
    pub(crate) fn entries(&self, material: Material) -> Option<(&Layout, &Entries)> {
        let slot = self.slot(material)?;
        slot.get().map(|e| (&slot.layout, e))
    }

    /// Loads every table now; returns the first error (a missing or damaged file).
    pub fn load_all(&self) -> Result<(), TablebaseError> {
        for slot in &self.slots {
            if let Some(path) = &slot.path {
                if slot.entries.get().is_none() {
                    let (_, entries) = read_table(path, true)?;
                    let _ = slot.entries.set(Some(entries));
                }
            }
        }
        Ok(())
    }

    /// The value of a placement, and the placement's table layout.
    #[inline]
    pub(crate) fn probe_placement(&self, placement: &Placement) -> Option<Dtm> {
        let entry = self.lookup[key_of_kinds(placement.pieces().iter().map(|p| p.0))];
        if entry == NONE {
            return None;
        }
        let slot = &self.slots[usize::from(entry & !SWAP)];
        let entries = slot.get()?;
        entries.get(slot.layout.file_index(placement, entry & SWAP != 0))
    }

    /// The distance to mate of a position for the side to move, or `None` if it is not in the
    /// tables (too many men, a table missing, or a lion already captured).
    #[inline]
    pub fn probe_dtm(&self, pos: &Position) -> Option<Dtm> {
        let board = pos.board();
        if board.occupied().count() as usize > self.max_men() {
            return None;
        }
        self.probe_placement(&Placement::of_board(board, pos.turn())?)
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
        self.probe_dtm(pos)?;
        let lion = pos.board().by_piece(Piece::new(Role::Lion, !pos.turn()));
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            let value = if (m.captured & lion).any() {
                Dtm::Win(1)
            } else {
                self.probe_dtm(&pos.play_unchecked(&m))?.before_move()
            };
            moves.push((m, value));
        }
        moves.sort_by_key(|&(_, value)| core::cmp::Reverse(value.preference()));
        Some(moves)
    }

    /// The best line from a position in the tables: the distance-best move for each side in turn
    /// (the quickest win, the slowest loss) until the game ends, or `max_plies` moves for a draw.
    pub fn best_line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < max_plies {
            let Some(moves) = self.root_moves(&current) else { break };
            let Some(&(best, value)) = moves.first() else { break };
            line.push(best);
            if value == Dtm::Win(1) {
                break;
            }
            current = current.play_unchecked(&best);
        }
        line
    }
}

impl Slot {
    fn loaded(&self) -> bool {
        self.entries.get().is_some_and(Option::is_some)
    }

    /// The entries: installed ones, or the file's, read on first use (a slot without a file is
    /// left open for a generator to install its table later).
    #[inline]
    fn get(&self) -> Option<&Entries> {
        match &self.path {
            None => self.entries.get()?.as_ref(),
            Some(path) => self.entries.get_or_init(|| read_table(path, false).ok().map(|(_, e)| e)).as_ref(),
        }
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
