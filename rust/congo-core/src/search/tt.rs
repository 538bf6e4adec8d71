//! The transposition table: a fixed-size hash table of search results keyed by the Zobrist hash,
//! shared by every search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR-ed with the data. A reader
//! accepts an entry only if `key_xor ^ data` gives back the position's hash, so an entry torn by two
//! threads writing at once reads as a miss instead of as wrong data (the "lockless hashing" idea
//! of Hyatt and Mann). Entries come in buckets of four that share a 64-byte cache line.
//!
//! Replacement: an entry for the same position is overwritten unless it holds a deeper result of
//! the current search with an exact bound; otherwise the entry of the bucket worth least is replaced,
//! where worth is depth minus a penalty for coming from an earlier search (its generation).

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move reached beta).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One entry as the search sees it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    /// The best or refuting move's key (a compact digest of its path), 0 for none.
    pub move_key: u32,
    /// Score relative to the node: a mate score counts its distance from this node, not the root.
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Layout of the data word: move key (32 bits) | score (16) | depth (8) | bound (2) | generation (6).
fn pack(entry: &Entry, generation: u8) -> u64 {
    let score = (entry.score as i16) as u16;
    let depth = entry.depth.clamp(0, 255) as u8;
    u64::from(entry.move_key)
        | u64::from(score) << 32
        | u64::from(depth) << 48
        | (entry.bound as u64) << 56
        | u64::from(generation & GENERATION_MASK) << 58
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None, // an empty slot
    };
    Some(Entry {
        move_key: data as u32,
        score: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

const GENERATION_MASK: u8 = 63;
const BUCKET_SIZE: usize = 4;

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET_SIZE]);

/// A lock-free transposition table, safe to share between threads (`&TranspositionTable` is all a
/// search thread needs).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// The number of bytes in a mebibyte, the unit of table sizes.
const MIB: usize = 1 << 20;

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one bucket). Fails instead of aborting when the memory
    /// cannot be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, TryReserveError> {
        let count = (mb.saturating_mul(MIB) / core::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets, generation: AtomicU8::new(0) })
    }

    /// The size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * core::mem::size_of::<Bucket>()
    }

    /// Empties the table (between unrelated games, or for reproducible results).
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: entries of earlier searches become cheaper to replace.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        // Multiply-shift maps the hash onto 0..len without a division.
        let index = ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// The entry for a position, if present.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        for slot in &self.bucket(hash).0 {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == hash {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result. Keeps an earlier move when the new result has none.
    #[inline]
    pub fn store(&self, hash: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.bucket(hash).0;
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let key = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if key == hash {
                if let Some(old) = unpack(data) {
                    let same_search = generation_of(data) == generation;
                    // A deeper exact result of this search is worth more than a shallower new one.
                    if same_search
                        && old.bound == Bound::Exact
                        && entry.bound != Bound::Exact
                        && old.depth > entry.depth + 2
                    {
                        return;
                    }
                    if entry.move_key == 0 {
                        entry.move_key = old.move_key;
                    }
                }
                victim = slot;
                break;
            }
            let worth = match unpack(data) {
                None => i32::MIN,
                Some(old) => {
                    let age = i32::from(generation.wrapping_sub(generation_of(data)) & GENERATION_MASK);
                    old.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(&entry, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.key_xor_data.store(hash ^ data, Ordering::Relaxed);
    }

    /// Per-mille of the first thousand buckets' entries written by the current search (UCI's "hashfull").
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(1000);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.0 {
                let data = slot.data.load(Ordering::Relaxed);
                if unpack(data).is_some() && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET_SIZE)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(move_key: u32, score: i32, depth: i32, bound: Bound) -> Entry {
        Entry { move_key, score, depth, bound }
    }

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.size_bytes(), 1 << 20);
        assert_eq!(tt.probe(0x1234_5678), None);
        let e = entry(77, -29_950, 12, Bound::Lower);
        tt.store(0x1234_5678, e);
        assert_eq!(tt.probe(0x1234_5678), Some(e));
        assert_eq!(tt.probe(0x1234_5679), None);
    }

    #[test]
    fn packing_round_trips_extremes() {
        for e in [
            entry(u32::MAX, 30_000, 255, Bound::Exact),
            entry(0, -30_000, 0, Bound::Upper),
            entry(123_456, 0, 40, Bound::Lower),
        ] {
            assert_eq!(unpack(pack(&e, 63)), Some(e));
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn a_new_result_without_a_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(42, entry(9, 10, 3, Bound::Lower));
        tt.store(42, entry(0, 20, 4, Bound::Upper));
        assert_eq!(tt.probe(42), Some(entry(9, 20, 4, Bound::Upper)));
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let tt = TranspositionTable::new(0).unwrap(); // a single bucket: every key collides
        for (i, depth) in [(1u64, 9), (2, 1), (3, 7), (4, 5)] {
            tt.store(i, entry(1, 0, depth, Bound::Exact));
        }
        tt.store(5, entry(1, 0, 6, Bound::Exact));
        assert_eq!(tt.probe(2), None, "the shallowest entry is replaced");
        assert!(tt.probe(1).is_some() && tt.probe(5).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(6, entry(1, 0, 2, Bound::Exact));
        assert_eq!(tt.probe(4), None, "among old entries the shallowest goes");
        assert!(tt.probe(1).is_some());
    }

    #[test]
    fn concurrent_writers_never_produce_foreign_entries() {
        let tt = TranspositionTable::new(0).unwrap();
        std::thread::scope(|s| {
            for t in 0..4u32 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = i % 16 + 1;
                        tt.store(
                            key,
                            entry(key as u32, i32::try_from(key).unwrap(), (t + 1) as i32, Bound::Exact),
                        );
                        if let Some(e) = tt.probe(key) {
                            assert_eq!(e.move_key, key as u32, "an entry read back belongs to its key");
                        }
                    }
                });
            }
        });
        let mut tt = tt;
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
