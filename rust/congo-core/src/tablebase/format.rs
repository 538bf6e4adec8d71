//! Values and the table file format.
//!
//! One file per canonical signature, named `<signature>.ctb` (e.g. `LZvLP.ctb`): a 64-byte header
//! followed by one entry per index of the signature's [`Layout`](super::layout), in index order.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "CONGOTB\0"
//!      8     2  format version, 1 (little-endian, like every number here)
//!     10     1  bytes per entry: 1, or 2 when some distance exceeds 253 plies
//!     11     1  sides to move stored: 2, or 1 for a colour-symmetric signature (White to move)
//!     12    16  signature name, ASCII, padded with NUL bytes
//!     28     4  reserved, 0
//!     32     8  number of entries
//!     40     2  longest distance to mate in the table, in plies
//!     42     6  reserved, 0
//!     48     8  FNV-1a 64-bit hash of the entry bytes
//!     56     8  reserved, 0
//!     64        entries
//! ```
//!
//! An entry is the distance to mate (DTM) of the position for the side to move, in plies: to the
//! capture of a lion or to the position where a side has no legal move. Entry 0 is a draw, entry
//! `d + 1` a distance of `d` plies (odd `d`: the side to move wins with its own move `d`; even `d`:
//! it loses, its opponent winning with move `d`; `d = 0`: it has no legal move and has lost), and
//! the largest entry (255, or 65535 in two-byte files) marks an index that is no position.

use core::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::layout::Layout;
use super::material::Material;

/// The value of a position for the side to move, with the distance to mate in plies.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Dtm {
    /// The side to move wins: its winning move is ply `n` from now (odd; 1 = it wins with this move).
    Win(u32),
    /// The side to move loses: the opponent's winning move is ply `n` from now (even; 0 = the side
    /// to move has no legal move and has lost already).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// Win, draw or loss for the side to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Wdl {
    Loss = -1,
    Draw = 0,
    Win = 1,
}

impl Dtm {
    /// The value of a decided position `plies` from the end: a win for odd distances, a loss for
    /// even ones.
    #[inline]
    pub const fn from_plies(plies: u32) -> Dtm {
        if plies % 2 == 1 {
            Dtm::Win(plies)
        } else {
            Dtm::Loss(plies)
        }
    }

    /// Plies to the end of a decided game, `None` for a draw.
    #[inline]
    pub const fn plies(self) -> Option<u32> {
        match self {
            Dtm::Win(n) | Dtm::Loss(n) => Some(n),
            Dtm::Draw => None,
        }
    }

    #[inline]
    pub const fn wdl(self) -> Wdl {
        match self {
            Dtm::Win(_) => Wdl::Win,
            Dtm::Loss(_) => Wdl::Loss,
            Dtm::Draw => Wdl::Draw,
        }
    }

    /// `+n` for a win in `n` plies, `-n` for a loss in `n`, 0 for a draw (and for a position
    /// already lost, which has no legal move: [`Dtm::wdl`] tells the two apart).
    #[inline]
    pub const fn signed(self) -> i32 {
        match self {
            Dtm::Win(n) => n as i32,
            Dtm::Loss(n) => -(n as i32),
            Dtm::Draw => 0,
        }
    }

    /// The value one ply earlier, for the side that made the move leading here.
    #[inline]
    #[must_use]
    pub const fn before_move(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n + 1),
            Dtm::Loss(n) => Dtm::Win(n + 1),
            Dtm::Draw => Dtm::Draw,
        }
    }

    /// Orders values from the mover's point of view: higher is better (a quick win is best, then
    /// slower wins, draws, slow losses, quick losses).
    #[inline]
    pub const fn preference(self) -> i64 {
        match self {
            Dtm::Win(n) => i64::MAX / 2 - n as i64,
            Dtm::Draw => 0,
            Dtm::Loss(n) => -(i64::MAX / 2) + n as i64,
        }
    }
}

impl fmt::Display for Dtm {
    /// `win in 7`, `loss in 4`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dtm::Win(n) => write!(f, "win in {n}"),
            Dtm::Loss(n) => write!(f, "loss in {n}"),
            Dtm::Draw => f.write_str("draw"),
        }
    }
}

/// The value of an entry, `None` for "no position".
#[inline]
pub(crate) const fn decode(entry: u16, not_a_position: u16) -> Option<Dtm> {
    if entry == not_a_position {
        None
    } else if entry == 0 {
        Some(Dtm::Draw)
    } else {
        Some(Dtm::from_plies(entry as u32 - 1))
    }
}

/// The longest distance a one-byte entry holds.
pub const MAX_BYTE_DISTANCE: u32 = 253;

/// The longest distance a two-byte entry holds.
pub const MAX_DISTANCE: u32 = 65_533;

const MAGIC: &[u8; 8] = b"CONGOTB\0";
const VERSION: u16 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;
/// The file name extension of tables.
pub const EXTENSION: &str = "ctb";

/// A table's entries in memory.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Entries {
    Bytes(Box<[u8]>),
    Words(Box<[u16]>),
}

impl Entries {
    /// Packs values given as entries (`u16::MAX` = no position) into the narrowest width.
    pub(crate) fn pack(values: &[u16], longest: u32) -> Entries {
        if longest <= MAX_BYTE_DISTANCE {
            Entries::Bytes(values.iter().map(|&v| if v == u16::MAX { u8::MAX } else { v as u8 }).collect())
        } else {
            Entries::Words(values.into())
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Entries::Bytes(b) => b.len(),
            Entries::Words(w) => w.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at an index, `None` for no position (or an index out of range).
    #[inline]
    pub fn get(&self, index: u64) -> Option<Dtm> {
        match self {
            Entries::Bytes(b) => decode(u16::from(*b.get(index as usize)?), u16::from(u8::MAX)),
            Entries::Words(w) => decode(*w.get(index as usize)?, u16::MAX),
        }
    }

    /// Bytes per entry.
    pub fn width(&self) -> u8 {
        match self {
            Entries::Bytes(_) => 1,
            Entries::Words(_) => 2,
        }
    }

    /// The entries as little-endian bytes, as stored.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Entries::Bytes(b) => b.to_vec(),
            Entries::Words(w) => w.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }
}

/// What went wrong reading, writing or generating tables.
#[derive(Debug)]
pub enum TablebaseError {
    /// A file or directory could not be read or written.
    Io { path: PathBuf, error: std::io::Error },
    /// A table file is not what its name and header promise.
    Corrupt { path: PathBuf, reason: String },
    /// A table a generator or verifier needs is missing.
    Missing { material: Material },
    /// A directory holds no table files.
    NoTables { dir: PathBuf },
    /// The requested number of men is out of range.
    Men(usize),
    /// Generation or verification was stopped before it finished.
    Cancelled,
    /// A table failed verification.
    Verification { material: Material, errors: Vec<String> },
    /// The generator found its own bookkeeping inconsistent (a bug, reported rather than hidden).
    Internal(String),
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TablebaseError::Corrupt { path, reason } => {
                write!(f, "{}: not a valid table file: {reason}", path.display())
            }
            TablebaseError::Missing { material } => write!(f, "the table {material} is missing"),
            TablebaseError::NoTables { dir } => write!(
                f,
                "{} holds no tables (*.{EXTENSION} files); generate them with \
                 `congo tablebase generate --men 4 --dir {}`",
                dir.display(),
                dir.display()
            ),
            TablebaseError::Men(n) => {
                write!(f, "tables hold from 2 to {} men, got {n}", super::material::MAX_MEN)
            }
            TablebaseError::Cancelled => f.write_str("cancelled"),
            TablebaseError::Internal(reason) => write!(f, "internal error: {reason}"),
            TablebaseError::Verification { material, errors } => {
                write!(f, "the table {material} is wrong in {} positions", errors.len())?;
                if let Some(first) = errors.first() {
                    write!(f, ", e.g. {first}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for TablebaseError {}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TablebaseError + '_ {
    move |error| TablebaseError::Io { path: path.to_owned(), error }
}

/// FNV-1a, 64 bits: a checksum that needs no dependency.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Creates a directory (and its parents) for tables.
pub(crate) fn create_dir(dir: &Path) -> Result<(), TablebaseError> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))
}

/// The path of a signature's table in a directory.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{}.{EXTENSION}", material.name()))
}

/// What a table's header says.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Header {
    pub material: Material,
    pub width: u8,
    pub sides: u8,
    pub entries: u64,
    pub longest: u16,
    pub checksum: u64,
}

impl Header {
    fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10] = self.width;
        h[11] = self.sides;
        let name = self.material.name();
        h[12..12 + name.len()].copy_from_slice(name.as_bytes());
        h[32..40].copy_from_slice(&self.entries.to_le_bytes());
        h[40..42].copy_from_slice(&self.longest.to_le_bytes());
        h[48..56].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    /// Parses and checks a header against the layout of the signature it names.
    fn parse(bytes: &[u8; HEADER_LEN], path: &Path) -> Result<(Header, Layout), TablebaseError> {
        let corrupt = |reason: String| TablebaseError::Corrupt { path: path.to_owned(), reason };
        if &bytes[0..8] != MAGIC {
            return Err(corrupt("wrong magic bytes".into()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(corrupt(format!("format version {version}, this library reads {VERSION}")));
        }
        let name_bytes: Vec<u8> = bytes[12..28].iter().copied().take_while(|&b| b != 0).collect();
        let name =
            String::from_utf8(name_bytes).map_err(|_| corrupt("signature name is not ASCII".into()))?;
        let material = Material::parse(&name).map_err(|e| corrupt(e.to_string()))?;
        if !material.is_canonical() {
            return Err(corrupt(format!("{name} is not the stored orientation of its signature")));
        }
        let layout = Layout::new(material);
        let word = |range: core::ops::Range<usize>| {
            let mut b = [0u8; 8];
            b[..range.len()].copy_from_slice(&bytes[range]);
            u64::from_le_bytes(b)
        };
        let header = Header {
            material,
            width: bytes[10],
            sides: bytes[11],
            entries: word(32..40),
            longest: word(40..42) as u16,
            checksum: word(48..56),
        };
        if header.width != 1 && header.width != 2 {
            return Err(corrupt(format!("{} bytes per entry", header.width)));
        }
        if usize::from(header.sides) != layout.sides() || header.entries != layout.len() {
            return Err(corrupt(format!(
                "{} entries for {} sides to move, the layout of {name} has {} for {}",
                header.entries,
                header.sides,
                layout.len(),
                layout.sides()
            )));
        }
        Ok((header, layout))
    }
}

/// Writes a table (to a temporary file first, renamed into place when complete).
pub(crate) fn write_table(
    dir: &Path,
    layout: &Layout,
    entries: &Entries,
    longest: u32,
) -> Result<PathBuf, TablebaseError> {
    let path = table_path(dir, layout.material());
    let bytes = entries.to_bytes();
    let header = Header {
        material: layout.material(),
        width: entries.width(),
        sides: layout.sides() as u8,
        entries: entries.len() as u64,
        longest: longest.min(u32::from(u16::MAX)) as u16,
        checksum: fnv1a(&bytes),
    };
    let partial = partial_path(&path);
    let mut file = create_partial(&partial)?;
    file.write_all(&header.to_bytes()).map_err(io_error(&partial))?;
    file.write_all(&bytes).map_err(io_error(&partial))?;
    file.sync_all().map_err(io_error(&partial))?;
    drop(file);
    std::fs::rename(&partial, &path).map_err(io_error(&path))?;
    Ok(path)
}

/// The temporary file a table is written to before it is renamed into place: `X.ctb.partial`.
pub(crate) fn partial_path(table: &Path) -> PathBuf {
    table.with_extension(format!("{EXTENSION}.partial"))
}

/// Checks that `X.ctb.partial` can be made: nothing is there, or a regular file (not a link) that
/// an interrupted run left, half a table and worthless, which [`create_partial`] removes. A
/// symbolic link, a directory or a FIFO there is not the generator's to remove or write through:
/// refused. Called for every table before any work, and again just before each is written.
pub(crate) fn check_partial(partial: &Path) -> Result<(), TablebaseError> {
    match std::fs::symlink_metadata(partial) {
        Ok(metadata) if metadata.file_type().is_file() => Ok(()),
        Ok(metadata) => {
            let kind =
                if metadata.file_type().is_symlink() { "a symbolic link" } else { "not a regular file" };
            Err(TablebaseError::Io {
                path: partial.to_owned(),
                error: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!("{kind} where the generator writes a table before renaming it; remove it"),
                ),
            })
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(TablebaseError::Io { path: partial.to_owned(), error }),
    }
}

/// Creates `X.ctb.partial` exclusively (`O_EXCL`: a symbolic link there, even one to nothing,
/// makes it fail rather than be followed), after removing a regular file an interrupted run left.
fn create_partial(partial: &Path) -> Result<std::fs::File, TablebaseError> {
    check_partial(partial)?;
    match std::fs::remove_file(partial) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(TablebaseError::Io { path: partial.to_owned(), error }),
    }
    std::fs::OpenOptions::new().write(true).create_new(true).open(partial).map_err(io_error(partial))
}

/// The `O_NONBLOCK` flag: opening a FIFO or a device named like a table must never block.
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(all(unix, not(target_os = "linux")))]
const O_NONBLOCK: i32 = 0x0004;

/// Opens a table file for reading: only a regular file is a table (a FIFO, a device or a directory
/// named `X.ctb` is refused before it is opened, and opened without blocking in case it changed).
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), TablebaseError> {
    let not_regular =
        || TablebaseError::Corrupt { path: path.to_owned(), reason: "not a regular file".into() };
    let metadata = std::fs::metadata(path).map_err(io_error(path))?;
    if !metadata.is_file() {
        return Err(not_regular());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_error(path))?;
    let metadata = file.metadata().map_err(io_error(path))?;
    if !metadata.is_file() {
        return Err(not_regular());
    }
    Ok((file, metadata.len()))
}

/// Reads and checks a header from an open table file of `len` bytes.
fn header_of(file: &mut std::fs::File, len: u64, path: &Path) -> Result<(Header, Layout), TablebaseError> {
    let mut bytes = [0u8; HEADER_LEN];
    file.read_exact(&mut bytes).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            TablebaseError::Corrupt { path: path.to_owned(), reason: "shorter than its header".into() }
        } else {
            TablebaseError::Io { path: path.to_owned(), error: e }
        }
    })?;
    let (header, layout) = Header::parse(&bytes, path)?;
    let expected = HEADER_LEN as u64 + header.entries * u64::from(header.width);
    if len != expected {
        return Err(TablebaseError::Corrupt {
            path: path.to_owned(),
            reason: format!("{len} bytes, the header promises {expected}"),
        });
    }
    Ok((header, layout))
}

/// Reads and checks a table file's header (and that the file has the length it promises).
pub fn read_header(path: &Path) -> Result<(Header, Layout), TablebaseError> {
    let (mut file, len) = open_regular(path)?;
    header_of(&mut file, len, path)
}

/// Checks entries against their header: the checksum, and every entry a draw, a distance no longer
/// than the header's longest, or the "no position" mark.
pub(crate) fn check_entries(header: &Header, data: &[u8], path: &Path) -> Result<(), TablebaseError> {
    let corrupt = |reason: String| TablebaseError::Corrupt { path: path.to_owned(), reason };
    if fnv1a(data) != header.checksum {
        return Err(corrupt("checksum mismatch (the file is damaged: generate it again)".into()));
    }
    let longest = u32::from(header.longest);
    if header.width == 1 && longest > MAX_BYTE_DISTANCE {
        return Err(corrupt(format!("one-byte entries with a longest distance of {longest}")));
    }
    let top = longest + 1;
    let bad = if header.width == 1 {
        data.iter().position(|&b| b != u8::MAX && u32::from(b) > top)
    } else {
        data.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .position(|w| w != u16::MAX && u32::from(w) > top)
    };
    if let Some(index) = bad {
        return Err(corrupt(format!(
            "entry {index} is beyond the longest distance of the header ({longest} plies)"
        )));
    }
    Ok(())
}

/// Reads a whole table; with `check`, also compares the entries with the header's checksum and
/// longest distance.
pub fn read_table(path: &Path, check: bool) -> Result<(Header, Entries), TablebaseError> {
    let (mut file, len) = open_regular(path)?;
    let (header, _) = header_of(&mut file, len, path)?;
    let size = usize::try_from(len - HEADER_LEN as u64).map_err(|_| TablebaseError::Corrupt {
        path: path.to_owned(),
        reason: "too large for this machine".into(),
    })?;
    let mut data = Vec::with_capacity(size);
    (&mut file).take(size as u64).read_to_end(&mut data).map_err(io_error(path))?;
    if data.len() != size {
        return Err(TablebaseError::Corrupt {
            path: path.to_owned(),
            reason: "shorter than its header says".into(),
        });
    }
    if check {
        check_entries(&header, &data, path)?;
    }
    let entries = if header.width == 1 {
        Entries::Bytes(data.into())
    } else {
        Entries::Words(data.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())
    };
    Ok((header, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_encode_and_decode() {
        for value in [Dtm::Draw, Dtm::Loss(0), Dtm::Win(1), Dtm::Loss(2), Dtm::Win(253)] {
            let entry = value.plies().map_or(0, |n| n as u16 + 1);
            assert_eq!(decode(entry, 255), Some(value));
        }
        assert_eq!(decode(255, 255), None);
        assert_eq!(Dtm::Loss(4).before_move(), Dtm::Win(5));
        assert_eq!(Dtm::Win(1).before_move(), Dtm::Loss(2));
        assert!(Dtm::Win(1).preference() > Dtm::Win(3).preference());
        assert!(Dtm::Win(99).preference() > Dtm::Draw.preference());
        assert!(Dtm::Draw.preference() > Dtm::Loss(40).preference());
        assert!(Dtm::Loss(40).preference() > Dtm::Loss(2).preference());
        assert_eq!(Dtm::Loss(6).signed(), -6);
    }

    #[test]
    fn tables_round_trip_through_files() {
        let dir = std::env::temp_dir().join(format!("congo-tb-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let layout = Layout::new(Material::parse("LZvL").unwrap());
        let values: Vec<u16> = (0..layout.len()).map(|i| (i % 7) as u16).collect();
        let entries = Entries::pack(&values, 5);
        let path = write_table(&dir, &layout, &entries, 5).unwrap();
        let (header, read) = read_table(&path, true).unwrap();
        assert_eq!(read, entries);
        assert_eq!(header.longest, 5);
        // A flipped byte is caught by the checksum.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 10] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(read_table(&path, true), Err(TablebaseError::Corrupt { .. })));
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(read_header(&path), Err(TablebaseError::Corrupt { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_partial_name_is_never_written_through() {
        let dir = std::env::temp_dir().join(format!("congo-tb-partial-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let layout = Layout::new(Material::parse("LZvL").unwrap());
        let entries = Entries::pack(&vec![1u16; layout.len() as usize], 5);
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, b"keep me").unwrap();
        let partial = partial_path(&table_path(&dir, layout.material()));
        std::os::unix::fs::symlink(&victim, &partial).unwrap();
        let error = write_table(&dir, &layout, &entries, 5).unwrap_err();
        assert!(error.to_string().contains("symbolic link"), "{error}");
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        assert!(std::fs::symlink_metadata(&partial).unwrap().file_type().is_symlink());
        assert!(!table_path(&dir, layout.material()).exists());
        // A dangling link is refused too (O_EXCL would also refuse to create through it).
        std::fs::remove_file(&partial).unwrap();
        std::os::unix::fs::symlink(dir.join("nowhere"), &partial).unwrap();
        assert!(write_table(&dir, &layout, &entries, 5).is_err());
        assert!(!dir.join("nowhere").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_partial_file_left_by_a_killed_run_is_replaced() {
        let dir = std::env::temp_dir().join(format!("congo-tb-partial-left-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let layout = Layout::new(Material::parse("LZvL").unwrap());
        let entries = Entries::pack(&vec![1u16; layout.len() as usize], 5);
        let partial = partial_path(&table_path(&dir, layout.material()));
        std::fs::write(&partial, b"half a table").unwrap();
        let path = write_table(&dir, &layout, &entries, 5).unwrap();
        assert_eq!(read_table(&path, true).unwrap().1, entries);
        assert!(!partial.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
