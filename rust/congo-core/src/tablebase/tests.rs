//! The tables up to three men, generated both ways, verified and probed.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::*;
use crate::position::Position;
use crate::rng::SplitMix64;

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("congo-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The tables up to three men, generated once for all tests.
fn three_men() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("three");
        let options = GenerateOptions { men: 3, threads: 2, force: false, tables: Vec::new() };
        let reports = generate(&dir, &options, &mut |_| true).unwrap();
        assert_eq!(reports.len(), 8);
        dir
    })
}

fn probe(fen: &str) -> Option<Dtm> {
    let tb = Tablebase::open(three_men()).unwrap();
    tb.probe_dtm(&Position::from_fen(fen).unwrap())
}

#[test]
fn the_simple_generator_writes_the_same_bytes() {
    let simple_dir = temp_dir("simple");
    let options = GenerateOptions { men: 3, threads: 2, force: false, tables: Vec::new() };
    simple::generate(&simple_dir, &options, &mut |_| true).unwrap();
    for material in Material::all_canonical(3) {
        let fast = std::fs::read(format::table_path(three_men(), material)).unwrap();
        let slow = std::fs::read(format::table_path(&simple_dir, material)).unwrap();
        assert!(fast == slow, "{material} differs");
    }
    std::fs::remove_dir_all(&simple_dir).unwrap();
}

#[test]
fn the_verifier_passes_good_tables_and_catches_a_wrong_entry() {
    let options = VerifyOptions { men: 3, tables: Vec::new(), threads: 2 };
    let reports = verify(three_men(), &options, &mut |_| true).unwrap();
    assert_eq!(reports.len(), 8);
    assert!(reports.iter().all(|r| r.wrong == 0), "{reports:?}");

    // Change one entry of a copy (and fix its checksum): the verifier names the position.
    let dir = temp_dir("broken");
    for material in Material::all_canonical(3) {
        std::fs::copy(format::table_path(three_men(), material), format::table_path(&dir, material)).unwrap();
    }
    let material = Material::parse("LZvL").unwrap();
    let path = format::table_path(&dir, material);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = format::HEADER_LEN + 1000;
    assert_ne!(bytes[at], u8::MAX, "index 1000 is a position");
    bytes[at] = if bytes[at] == 0 { 2 } else { 0 };
    let checksum = format::fnv1a(&bytes[format::HEADER_LEN..]);
    bytes[48..56].copy_from_slice(&checksum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let options = VerifyOptions { men: 3, tables: vec![material], threads: 1 };
    let reports = verify(&dir, &options, &mut |_| true).unwrap();
    // The changed position is wrong, and so may be positions whose value relied on it.
    let (changed, _) = layout::Layout::new(material).placement_and_pair(1000).unwrap();
    let fen = super::generate::position_of(&changed).fen();
    assert!(reports[0].wrong >= 1, "{reports:?}");
    assert!(reports[0].errors.iter().any(|e| e.starts_with(&fen)), "{fen} not in {reports:?}");
    // A flipped byte without a new checksum is a corrupt file.
    bytes[at + 1] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(verify(&dir, &options, &mut |_| true), Err(TablebaseError::Corrupt { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bare_lions_are_drawn_unless_the_side_to_move_captures() {
    // Facing on the open d-file: the side to move captures.
    assert_eq!(probe("3l3/7/7/7/7/7/3L3 w 1"), Some(Dtm::Win(1)));
    assert_eq!(probe("3l3/7/7/7/7/7/3L3 b 1"), Some(Dtm::Win(1)));
    // Not facing: a draw by rule, whoever moves.
    assert_eq!(probe("2l4/7/7/7/7/7/3L3 w 1"), Some(Dtm::Draw));
    // The diagonal c3-e5.
    assert_eq!(probe("7/7/4l2/7/2L4/7/7 w 1"), Some(Dtm::Win(1)));
}

#[test]
fn short_wins_and_losses() {
    // The zebra on c3 takes the lion on d5.
    assert_eq!(probe("7/7/3l3/7/2Z4/7/4L2 w 1"), Some(Dtm::Win(1)));
    // Black to move: the lion cannot escape every zebra square? It loses or draws, never wins.
    let value = probe("7/7/3l3/7/2Z4/7/4L2 b 1").unwrap();
    assert!(matches!(value, Dtm::Loss(_) | Dtm::Draw), "{value}");
    // The lion alone against lion and zebra never wins (it cannot capture the lion with a piece).
    let tb = Tablebase::open(three_men()).unwrap();
    let mut rng = SplitMix64::new(3);
    for _ in 0..2000 {
        let pos = random_position(&mut rng, "LZvL");
        if let Some(Dtm::Win(n)) = tb.probe_dtm(&pos) {
            if pos.turn() == crate::piece::Color::Black {
                assert_eq!(n, 1, "{}", pos.fen());
            }
        }
    }
}

/// A random position of a signature (in its written colours).
pub(crate) fn random_position(rng: &mut SplitMix64, name: &str) -> Position {
    use crate::board::Board;
    use crate::piece::{Color, Piece, Role};
    use crate::position::Setup;
    use crate::square::Square;
    use crate::tables::castle_of;
    let material = Material::parse(name).unwrap();
    loop {
        let mut board = Board::empty();
        let white: Vec<Square> = castle_of(Color::White).into_iter().collect();
        let black: Vec<Square> = castle_of(Color::Black).into_iter().collect();
        board.put(white[rng.below(9)], Piece::new(Role::Lion, Color::White));
        board.put(black[rng.below(9)], Piece::new(Role::Lion, Color::Black));
        for k in material.kinds() {
            loop {
                let sq = Square::new(rng.below(49) as u8).unwrap();
                if !board.occupied().contains(sq) {
                    board.put(sq, Piece::new(material::kind_role(k), material::kind_color(k)));
                    break;
                }
            }
        }
        let turn = if rng.below(2) == 0 { Color::White } else { Color::Black };
        if let Ok(pos) = Position::from_setup(Setup { board, turn, fullmove: 1 }) {
            return pos;
        }
    }
}

#[test]
fn values_are_the_same_under_both_symmetries() {
    let tb = Tablebase::open(three_men()).unwrap();
    let mut rng = SplitMix64::new(11);
    for name in ["LZvL", "LvLP", "LPvL", "LCvL", "LvLM", "LGvL"] {
        for _ in 0..500 {
            let pos = random_position(&mut rng, name);
            let value = tb.probe_dtm(&pos);
            assert!(value.is_some(), "{}", pos.fen());
            let mirrored = mirror_files(&pos);
            assert_eq!(tb.probe_dtm(&mirrored), value, "{} vs {}", pos.fen(), mirrored.fen());
            let swapped = pos.mirrored();
            assert_eq!(tb.probe_dtm(&swapped), value, "{} vs {}", pos.fen(), swapped.fen());
        }
    }
}

/// The position with files a↔g mirrored.
pub(crate) fn mirror_files(pos: &Position) -> Position {
    use crate::board::Board;
    use crate::position::Setup;
    let mut board = Board::empty();
    for (sq, piece) in pos.board().pieces() {
        board.put(layout::mirror_square(sq), piece);
    }
    Position::from_setup(Setup { board, turn: pos.turn(), fullmove: pos.fullmove() }).unwrap()
}

#[test]
fn the_best_line_wins_in_exactly_the_stored_distance() {
    let tb = Tablebase::open(three_men()).unwrap();
    let mut rng = SplitMix64::new(5);
    let mut checked = 0;
    while checked < 200 {
        let pos = random_position(&mut rng, "LPvL");
        let Some(Dtm::Win(n)) = tb.probe_dtm(&pos) else { continue };
        let line = tb.best_line(&pos, 1000);
        assert_eq!(line.len() as u32, n, "{}", pos.fen());
        let mut current = pos;
        for m in &line {
            current = current.play_unchecked(m);
        }
        let outcome = current.outcome().expect("the game is over");
        assert_eq!(outcome.winner, Some(pos.turn()), "{}", pos.fen());
        checked += 1;
    }
}

#[test]
fn materials_and_directories_are_checked() {
    assert!(matches!(
        generate(
            &temp_dir("men"),
            &GenerateOptions { men: 6, threads: 1, force: false, tables: vec![] },
            &mut |_| true
        ),
        Err(TablebaseError::Men(6))
    ));
    let dir = temp_dir("foreign");
    std::fs::write(dir.join("LZvL.ctb"), b"not a table").unwrap();
    assert!(matches!(Tablebase::open(&dir), Err(TablebaseError::Corrupt { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(Tablebase::open("/nonexistent/congo/tables").is_err());
}

/// A copy of the three-man tables with `LZvL.ctb` damaged: `0x04` xored into every 7th entry, the
/// header left intact.
fn damaged_copy(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    for material in Material::all_canonical(3) {
        std::fs::copy(format::table_path(three_men(), material), format::table_path(&dir, material)).unwrap();
    }
    let path = dir.join("LZvL.ctb");
    let mut bytes = std::fs::read(&path).unwrap();
    for at in (format::HEADER_LEN..bytes.len()).step_by(7) {
        bytes[at] ^= 0x04;
    }
    std::fs::write(&path, &bytes).unwrap();
    dir
}

#[test]
fn a_damaged_table_is_never_used() {
    let dir = damaged_copy("damaged");
    let tb = Tablebase::open(&dir).unwrap();
    let pos = Position::from_fen("7/7/3l3/7/2Z4/7/4L2 w 1").unwrap();
    let error = tb.try_probe_dtm(&pos).unwrap_err();
    assert!(error.to_string().contains("LZvL.ctb"), "{error}");
    assert!(error.to_string().contains("checksum"), "{error}");
    // The search's probe treats it as absent and counts the hit; the failure stays.
    assert_eq!(tb.probe_dtm(&pos), None);
    assert_eq!(tb.failures(), 1);
    assert!(tb.try_root_moves(&pos).is_err());
    assert!(tb.try_best_line(&pos, 10).is_err());
    assert!(tb.failure().is_some());
    // After load_all fails, the object serves no data of that table.
    let tb = Tablebase::open(&dir).unwrap();
    assert!(matches!(tb.load_all(), Err(TablebaseError::Corrupt { .. })));
    assert!(tb.try_probe_dtm(&pos).is_err());
    assert!(tb.load_all().is_err());
    // Other tables still answer.
    let two = Position::from_fen("7/7/3l3/7/7/7/4L2 w 1").unwrap();
    assert_eq!(tb.try_probe_dtm(&two).unwrap(), Some(Dtm::Draw));
    // Generation does not build on it.
    let options = GenerateOptions { men: 3, threads: 1, force: false, tables: Vec::new() };
    let error = generate(&dir, &options, &mut |_| true).unwrap_err();
    assert!(error.to_string().contains("LZvL.ctb"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn entries_beyond_the_longest_distance_are_refused() {
    let dir = damaged_copy("beyond");
    let path = dir.join("LZvL.ctb");
    std::fs::copy(format::table_path(three_men(), Material::parse("LZvL").unwrap()), &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let longest = u16::from_le_bytes([bytes[40], bytes[41]]);
    let at = (format::HEADER_LEN..bytes.len()).find(|&i| bytes[i] != u8::MAX).unwrap();
    bytes[at] = (longest + 2) as u8;
    let checksum = format::fnv1a(&bytes[format::HEADER_LEN..]);
    bytes[48..56].copy_from_slice(&checksum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let error = Tablebase::open(&dir).unwrap().load_all().unwrap_err();
    assert!(error.to_string().contains("beyond the longest distance"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_regular_files_in_a_directory_with_tables_are_tables() {
    let empty = temp_dir("empty");
    let error = Tablebase::open(&empty).unwrap_err();
    assert!(matches!(error, TablebaseError::NoTables { .. }), "{error}");
    assert!(error.to_string().contains("congo tablebase generate --men 4 --dir"), "{error}");
    let missing = empty.join("nowhere");
    let error = Tablebase::open(&missing).unwrap_err();
    assert!(error.to_string().contains("congo tablebase generate --men 4 --dir"), "{error}");
    #[cfg(unix)]
    {
        // A FIFO named like a table: refused at once, never opened for a blocking read.
        let status = std::process::Command::new("mkfifo").arg(empty.join("LZvL.ctb")).status().unwrap();
        assert!(status.success());
        let error = Tablebase::open(&empty).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
        assert!(format::read_table(&empty.join("LZvL.ctb"), true).is_err());
    }
    std::fs::remove_dir_all(&empty).unwrap();
}
