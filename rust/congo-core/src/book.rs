//! Opening books: moves with weights, keyed by the position's Zobrist hash ([`crate::zobrist`]).
//!
//! A book file is a header and a sorted array of fixed-size entries, every number little-endian
//! (the layout is specified in `docs/book.md`):
//!
//! ```text
//! header (32 bytes)   magic "CONGOBK\0" · version u32 (1) · entry size u32 (32) · count u64 ·
//!                     checksum u64 (FNV-1a over the header's first 24 bytes, then every entry)
//! entry (32 bytes)    key u64 · move u128 · weight u32 · learn u32
//! ```
//!
//! The key is [`Position::zobrist_hash`]: placement and side to move. A move is coded in 117 bits:
//! the from-square (bits 0–5), the final landing square (6–11), the number of legs (12–17, 1 for
//! every single-leg move) and, for a monkey chain of two or more jumps, the direction of each jump
//! (3 bits each from bit 18, [`crate::tables::Direction`]'s order), so every legal move, up to the
//! longest possible chain of [`MAX_JUMPS`] jumps, has a code; every other bit is zero. Entries are
//! sorted by key, then by weight (highest first), then by move code, and a key holds a move at most
//! once. [`Book::from_bytes`] checks all of that (and the length and checksum) before it answers
//! anything: a damaged, truncated or foreign file is a [`BookError`], never a panic or a wrong move.
//!
//! ```
//! use congo_core::book::{encode, Book, BookEntry};
//! use congo_core::{parse_move, Position};
//!
//! let start = Position::start();
//! let entries = vec![
//!     BookEntry { key: start.zobrist_hash(), path: parse_move("c2c3").unwrap(), weight: 3, learn: 0 },
//!     BookEntry { key: start.zobrist_hash(), path: parse_move("d2d3").unwrap(), weight: 5, learn: 0 },
//! ];
//! let book = Book::from_bytes(&encode(entries).unwrap()).unwrap();
//! let found = book.entries(start.zobrist_hash());
//! assert_eq!(found[0].path.uci(), "d2d3"); // the heaviest first
//! assert_eq!(found.len(), 2);
//! ```

use core::fmt;
use std::path::{Path as FsPath, PathBuf};

use crate::moves::{Move, Path, MAX_JUMPS};
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::fnv1a64;
use crate::square::Square;
use crate::tables::Direction;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"CONGOBK\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// The header's size in bytes.
pub const HEADER_LEN: usize = 32;
/// One entry's size in bytes.
pub const ENTRY_LEN: usize = 32;
/// The most entries a book may hold (a file of 1 GiB): a header claiming more is refused before
/// anything is allocated.
pub const MAX_ENTRIES: u64 = (1 << 30) / ENTRY_LEN as u64;

/// One move of a position in the book.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// The position's [`Position::zobrist_hash`].
    pub key: u64,
    /// The move.
    pub path: Path,
    /// How good the move is thought to be; a weighted choice picks it in proportion.
    pub weight: u32,
    /// Free for learning programs; the makers of this crate write 0.
    pub learn: u32,
}

/// Why a book could not be read or written.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read or written.
    Io { path: PathBuf, error: std::io::Error },
    /// Shorter than a header, or without the magic bytes: not a book of this format.
    NotABook,
    /// A book of a version this code does not read.
    Version(u32),
    /// A header whose entry size is not [`ENTRY_LEN`].
    EntrySize(u32),
    /// A header claiming more than [`MAX_ENTRIES`] entries.
    TooLarge(u64),
    /// The file's length disagrees with the header's entry count.
    Length { count: u64, expected: u64, actual: u64 },
    /// The checksum disagrees: the file is damaged.
    Checksum { stored: u64, computed: u64 },
    /// An entry whose move code is not a move (index from 0).
    BadMove { index: usize },
    /// An entry out of the order described in the module docs.
    Unsorted { index: usize },
    /// An entry repeating the key and move of the one before it.
    Duplicate { index: usize },
    /// A move without a code: the null move.
    NullMove,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            BookError::NotABook => {
                f.write_str("not a congo opening book (it does not begin with the bytes CONGOBK)")
            }
            BookError::Version(v) => {
                write!(f, "book format version {v} is not supported (this congo reads version {VERSION})")
            }
            BookError::EntrySize(size) => {
                write!(f, "damaged book: entries of {size} bytes (version {VERSION} has {ENTRY_LEN})")
            }
            BookError::TooLarge(count) => {
                write!(f, "damaged book: the header claims {count} entries (at most {MAX_ENTRIES})")
            }
            BookError::Length { count, expected, actual } => write!(
                f,
                "truncated or damaged book: {count} entries need {expected} bytes, the file has {actual}"
            ),
            BookError::Checksum { stored, computed } => write!(
                f,
                "damaged book: checksum {computed:016x} computed, {stored:016x} stored in the header"
            ),
            BookError::BadMove { index } => write!(f, "damaged book: entry {index} holds no valid move"),
            BookError::Unsorted { index } => write!(f, "damaged book: entry {index} is out of order"),
            BookError::Duplicate { index } => {
                write!(f, "damaged book: entry {index} repeats the position and move of the one before")
            }
            BookError::NullMove => f.write_str("the null move cannot be a book move"),
        }
    }
}

impl std::error::Error for BookError {}

const LEGS_SHIFT: u32 = 12;
const DIRS_SHIFT: u32 = 18;

/// A move's code (see the module docs); `None` for the null move.
pub fn move_code(path: &Path) -> Option<u128> {
    if path.is_null() {
        return None;
    }
    let mut code =
        path.from().index() as u128 | (path.to().index() as u128) << 6 | (path.legs() as u128) << LEGS_SHIFT;
    if path.is_chain() {
        let squares: Vec<Square> = path.squares().collect();
        for (i, pair) in squares.windows(2).enumerate() {
            let direction = Direction::between(pair[0], pair[1])?;
            code |= (direction.index() as u128) << (DIRS_SHIFT as usize + 3 * i);
        }
    }
    Some(code)
}

/// The move of a code, or `None` if the code is not one [`move_code`] gives.
pub fn decode_move(code: u128) -> Option<Path> {
    let from = Square::new((code & 63) as u8)?;
    let to = Square::new(((code >> 6) & 63) as u8)?;
    let legs = ((code >> LEGS_SHIFT) & 63) as usize;
    let dirs = code >> DIRS_SHIFT;
    let path = match legs {
        1 if dirs == 0 && from != to => Path::single(from, to),
        2..=MAX_JUMPS if dirs >> (3 * legs) == 0 => {
            let mut directions = [Direction::North; MAX_JUMPS];
            for (i, direction) in directions.iter_mut().enumerate().take(legs) {
                *direction = Direction::from_index(((dirs >> (3 * i)) & 7) as usize);
            }
            Path::from_jumps(from, &directions[..legs]).filter(|p| p.to() == to)?
        }
        _ => return None,
    };
    // The code of the path decoded is the code read: one move, one code.
    (move_code(&path) == Some(code)).then_some(path)
}

/// The order of entries in a file: key, then weight (highest first), then move code.
fn order(entry: &BookEntry, code: u128) -> (u64, core::cmp::Reverse<u32>, u128) {
    (entry.key, core::cmp::Reverse(entry.weight), code)
}

/// A book file's bytes for `entries`, in any order; each position and move at most once (a
/// repeated one is [`BookError::Duplicate`]: sum the weights first, as [`merge`] does).
pub fn encode(entries: Vec<BookEntry>) -> Result<Vec<u8>, BookError> {
    let mut coded = Vec::with_capacity(entries.len());
    for entry in entries {
        let code = move_code(&entry.path).ok_or(BookError::NullMove)?;
        coded.push((entry, code));
    }
    coded.sort_unstable_by_key(|(entry, code)| order(entry, *code));
    let mut seen: Vec<(u64, u128)> = coded.iter().map(|(e, code)| (e.key, *code)).collect();
    seen.sort_unstable();
    if let Some(index) = seen.windows(2).position(|pair| pair[0] == pair[1]) {
        return Err(BookError::Duplicate { index: index + 1 });
    }
    let mut body = Vec::with_capacity(coded.len() * ENTRY_LEN);
    for (entry, code) in &coded {
        body.extend_from_slice(&entry.key.to_le_bytes());
        body.extend_from_slice(&code.to_le_bytes());
        body.extend_from_slice(&entry.weight.to_le_bytes());
        body.extend_from_slice(&entry.learn.to_le_bytes());
    }
    let mut header = Vec::with_capacity(HEADER_LEN + body.len());
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&(ENTRY_LEN as u32).to_le_bytes());
    header.extend_from_slice(&(coded.len() as u64).to_le_bytes());
    let checksum = fnv1a64(&[&header, &body]);
    header.extend_from_slice(&checksum.to_le_bytes());
    header.extend_from_slice(&body);
    Ok(header)
}

/// The entries of several books as one: the weights (and learn values) of a position's equal
/// moves summed, saturating at `u32::MAX`.
pub fn merge(books: &[&Book]) -> Vec<BookEntry> {
    let mut all: Vec<BookEntry> = books.iter().flat_map(|b| b.all().iter().copied()).collect();
    all.sort_unstable_by_key(|e| (e.key, move_code(&e.path)));
    let mut merged: Vec<BookEntry> = Vec::with_capacity(all.len());
    for entry in all {
        match merged.last_mut() {
            Some(last) if last.key == entry.key && last.path == entry.path => {
                last.weight = last.weight.saturating_add(entry.weight);
                last.learn = last.learn.saturating_add(entry.learn);
            }
            _ => merged.push(entry),
        }
    }
    merged
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// A book in memory, checked whole when read: its keys apart from the rest in one dense array,
/// and a directory of where each range of keys (by their top bits) begins in it, so that a probe
/// reads two directory slots and then a handful of keys (the keys are hashes: evenly spread).
#[derive(Clone, Debug, Default)]
pub struct Book {
    keys: Vec<u64>,
    entries: Vec<BookEntry>,
    /// `directory[b]`: the first index whose key's top `bits` bits are at least `b`; one slot more
    /// than there are buckets, so that bucket `b` is `directory[b]..directory[b + 1]`.
    directory: Vec<u32>,
    bits: u32,
}

/// The most bits of the directory: 4 Mi slots (16 MiB) for the largest books.
const MAX_DIRECTORY_BITS: u32 = 22;

impl Book {
    /// Reads and checks a book file.
    pub fn open(path: impl AsRef<FsPath>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|error| BookError::Io { path: path.to_owned(), error })?;
        Book::from_bytes(&bytes)
    }

    /// Checks a book file's bytes (header, length, checksum, every move, the order) and reads them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let entry_len = u32_at(bytes, 12);
        if entry_len as usize != ENTRY_LEN {
            return Err(BookError::EntrySize(entry_len));
        }
        let count = u64_at(bytes, 16);
        if count > MAX_ENTRIES {
            return Err(BookError::TooLarge(count));
        }
        let expected = HEADER_LEN as u64 + count * ENTRY_LEN as u64;
        if bytes.len() as u64 != expected {
            return Err(BookError::Length { count, expected, actual: bytes.len() as u64 });
        }
        let stored = u64_at(bytes, 24);
        let body = &bytes[HEADER_LEN..];
        let computed = fnv1a64(&[&bytes[..24], body]);
        if stored != computed {
            return Err(BookError::Checksum { stored, computed });
        }
        let count = count as usize;
        let mut keys = Vec::with_capacity(count);
        let mut entries = Vec::with_capacity(count);
        let mut previous: Option<(BookEntry, u128)> = None;
        for (index, raw) in body.chunks_exact(ENTRY_LEN).enumerate() {
            let mut code = [0; 16];
            code.copy_from_slice(&raw[8..24]);
            let code = u128::from_le_bytes(code);
            let path = decode_move(code).ok_or(BookError::BadMove { index })?;
            let entry =
                BookEntry { key: u64_at(raw, 0), path, weight: u32_at(raw, 24), learn: u32_at(raw, 28) };
            if let Some((last, last_code)) = previous {
                if order(&entry, code) <= order(&last, last_code) {
                    return Err(BookError::Unsorted { index });
                }
            }
            // A repeated move of a key hides behind another weight: look back over the key's run.
            let run = keys.partition_point(|&k| k < entry.key);
            if entries[run..].iter().any(|e: &BookEntry| e.path == path) {
                return Err(BookError::Duplicate { index });
            }
            previous = Some((entry, code));
            keys.push(entry.key);
            entries.push(entry);
        }
        Ok(Book::indexed(keys, entries))
    }

    /// The book of sorted keys and their entries, with its directory.
    fn indexed(keys: Vec<u64>, entries: Vec<BookEntry>) -> Book {
        // About one key a bucket: the bits of the count, rounded up.
        let bits = (usize::BITS - keys.len().leading_zeros()).min(MAX_DIRECTORY_BITS);
        let buckets = 1usize << bits;
        let mut directory = Vec::with_capacity(buckets + 1);
        let mut index = 0usize;
        for bucket in 0..buckets {
            while index < keys.len() && Book::bucket_of(keys[index], bits) < bucket {
                index += 1;
            }
            directory.push(index as u32);
        }
        directory.push(keys.len() as u32);
        Book { keys, entries, directory, bits }
    }

    #[inline]
    fn bucket_of(key: u64, bits: u32) -> usize {
        if bits == 0 {
            0
        } else {
            (key >> (64 - bits)) as usize
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in the file's order.
    pub fn all(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The entries of a key, heaviest first (a binary search).
    pub fn entries(&self, key: u64) -> &[BookEntry] {
        let bucket = Book::bucket_of(key, self.bits);
        let (Some(&low), Some(&high)) = (self.directory.get(bucket), self.directory.get(bucket + 1)) else {
            return &[];
        };
        let (low, high) = (low as usize, high as usize);
        let keys = &self.keys[low..high];
        let start = keys.partition_point(|&k| k < key);
        let end = start + keys[start..].iter().take_while(|&&k| k == key).count();
        &self.entries[low + start..low + end]
    }

    /// The number of positions (distinct keys).
    pub fn positions(&self) -> usize {
        self.keys.windows(2).filter(|pair| pair[0] != pair[1]).count() + usize::from(!self.keys.is_empty())
    }

    /// A move for `position`, chosen among its legal book moves of weight at least 1 (and, when
    /// `allowed` is given, among those only) in proportion to their weights; `None` when there is
    /// none. The chosen entry comes with the move.
    pub fn choose(
        &self,
        position: &Position,
        allowed: Option<&[Path]>,
        rng: &mut SplitMix64,
    ) -> Option<(Move, BookEntry)> {
        let candidates: Vec<(Move, BookEntry)> = self
            .entries(position.zobrist_hash())
            .iter()
            .filter(|e| e.weight > 0 && allowed.is_none_or(|paths| paths.contains(&e.path)))
            .filter_map(|e| position.find_move(&e.path).ok().map(|m| (m, *e)))
            .collect();
        let total: u64 = candidates.iter().map(|(_, e)| u64::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = ((u128::from(rng.next_u64()) * u128::from(total)) >> 64) as u64;
        for (m, entry) in candidates {
            let weight = u64::from(entry.weight);
            if pick < weight {
                return Some((m, entry));
            }
            pick -= weight;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    fn entry(position: &Position, text: &str, weight: u32) -> BookEntry {
        BookEntry { key: position.zobrist_hash(), path: parse_move(text).unwrap(), weight, learn: 0 }
    }

    fn sample() -> Vec<u8> {
        let start = Position::start();
        let next = start.play(&parse_move("c2c3").unwrap()).unwrap();
        encode(vec![entry(&start, "c2c3", 2), entry(&start, "d2d3", 7), entry(&next, "d6d5", 1)]).unwrap()
    }

    #[test]
    fn every_move_code_round_trips_and_others_are_refused() {
        let mut position = Position::start();
        let mut rng = SplitMix64::new(7);
        let mut chains = 0;
        for _ in 0..2000 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                position = Position::start();
                continue;
            }
            for m in &moves {
                let code = move_code(&m.path).unwrap();
                assert_eq!(decode_move(code), Some(m.path));
                chains += usize::from(m.path.is_chain());
            }
            position = position.play_unchecked(&moves[rng.below(moves.len())]);
        }
        assert!(chains > 0, "the random games played no monkey chain");
        assert_eq!(move_code(&Path::NULL), None);
        let c2c3 = move_code(&parse_move("c2c3").unwrap()).unwrap();
        assert_eq!(decode_move(c2c3 | 1 << 100), None);
        assert_eq!(decode_move(0), None); // no legs
        assert_eq!(decode_move(0x31 | 1 << LEGS_SHIFT), None); // not a square
        assert_eq!(decode_move(1 << LEGS_SHIFT), None); // from = to
    }

    #[test]
    fn a_book_reads_back_sorted() {
        let book = Book::from_bytes(&sample()).unwrap();
        assert_eq!(book.len(), 3);
        assert_eq!(book.positions(), 2);
        let start = book.entries(Position::start().zobrist_hash());
        assert_eq!(start.iter().map(|e| e.path.uci()).collect::<Vec<_>>(), ["d2d3", "c2c3"]);
        assert!(book.entries(12345).is_empty());
    }

    #[test]
    fn the_directory_finds_what_a_binary_search_finds() {
        let mut rng = SplitMix64::new(3);
        let c2c3 = parse_move("c2c3").unwrap();
        let d2d3 = parse_move("d2d3").unwrap();
        for count in [0usize, 1, 2, 3, 100, 5000] {
            // Some keys twice (two moves), some small and some large, to reach the end buckets.
            let mut keys: Vec<u64> = (0..count).map(|_| rng.next_u64()).collect();
            keys.extend([0, u64::MAX].iter().take(count.min(2)));
            let mut entries = Vec::new();
            for (i, &key) in keys.iter().enumerate() {
                entries.push(BookEntry { key, path: c2c3, weight: 1, learn: 0 });
                if i % 3 == 0 {
                    entries.push(BookEntry { key, path: d2d3, weight: 2, learn: 0 });
                }
            }
            let book = Book::from_bytes(&encode(entries).unwrap()).unwrap();
            for &key in &keys {
                let expected = book.all().iter().filter(|e| e.key == key).count();
                assert_eq!(book.entries(key).len(), expected, "{count} {key}");
                assert!(book.entries(key).iter().all(|e| e.key == key));
            }
            for _ in 0..200 {
                let key = rng.next_u64();
                assert_eq!(book.entries(key).len(), book.all().iter().filter(|e| e.key == key).count());
            }
        }
    }

    #[test]
    fn damaged_truncated_and_foreign_files_are_refused() {
        let good = sample();
        assert!(matches!(Book::from_bytes(b"hello"), Err(BookError::NotABook)));
        assert!(matches!(Book::from_bytes(&good[..good.len() - 1]), Err(BookError::Length { .. })));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(Book::from_bytes(&longer), Err(BookError::Length { .. })));
        for at in [HEADER_LEN, HEADER_LEN + 9, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            assert!(matches!(Book::from_bytes(&bad), Err(BookError::Checksum { .. })), "byte {at}");
        }
        let mut version = good.clone();
        version[8] = 2;
        assert!(matches!(Book::from_bytes(&version), Err(BookError::Version(2))));
        let mut huge = good.clone();
        huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(Book::from_bytes(&huge), Err(BookError::TooLarge(_))));
    }

    #[test]
    fn duplicates_are_refused_and_merge_sums_them() {
        let start = Position::start();
        assert!(matches!(
            encode(vec![entry(&start, "c2c3", 1), entry(&start, "c2c3", 2)]),
            Err(BookError::Duplicate { .. })
        ));
        let a = Book::from_bytes(&sample()).unwrap();
        let b = Book::from_bytes(&encode(vec![entry(&start, "c2c3", 4)]).unwrap()).unwrap();
        let merged = Book::from_bytes(&encode(merge(&[&a, &b])).unwrap()).unwrap();
        let found = merged.entries(start.zobrist_hash());
        assert_eq!(
            found.iter().map(|e| (e.path.uci(), e.weight)).collect::<Vec<_>>(),
            [("d2d3".to_owned(), 7), ("c2c3".to_owned(), 6)]
        );
    }

    #[test]
    fn choices_follow_the_weights_and_skip_illegal_moves() {
        let start = Position::start();
        // d6d5 is Black's move: not legal at the start, so never chosen there.
        let bytes =
            encode(vec![entry(&start, "c2c3", 1), entry(&start, "d2d3", 3), entry(&start, "d6d5", 50)])
                .unwrap();
        let book = Book::from_bytes(&bytes).unwrap();
        let mut rng = SplitMix64::new(1);
        let mut d2d3 = 0;
        for _ in 0..4000 {
            let (m, _) = book.choose(&start, None, &mut rng).unwrap();
            assert_ne!(m.uci(), "d6d5");
            d2d3 += usize::from(m.uci() == "d2d3");
        }
        assert!((2800..3200).contains(&d2d3), "{d2d3}");
        let only = [parse_move("c2c3").unwrap()];
        assert_eq!(book.choose(&start, Some(&only), &mut rng).unwrap().0.uci(), "c2c3");
        let next = start.play(&parse_move("a2a3").unwrap()).unwrap();
        assert!(book.choose(&next, None, &mut rng).is_none());
    }
}
