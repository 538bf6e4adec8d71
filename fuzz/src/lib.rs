//! What the fuzz targets check, in plain functions: the targets (`fuzz_targets/`) only feed them
//! bytes, and the unit tests below replay the committed corpus through them without libFuzzer.
//!
//! Every function panics on a broken invariant; libFuzzer reports the panic with the input that
//! caused it. Bad input must never panic: the parsers return errors.

use std::collections::HashSet;

use congo_core::{
    parse_move, parse_san, san_of, zobrist, Board, Color, Move, Piece, Position, Role, Setup, Square,
};

/// The most pieces of one colour in a valid position (docs/rules.md §9, decision A21).
pub const MAX_PIECES: u32 = congo_core::MAX_PIECES_PER_COLOR;

/// Moves checked one by one per position (spread evenly over the list): a position can have tens of
/// thousands, and checking each would slow the fuzzer to a crawl. Each check regenerates moves (to
/// look the move up, to disambiguate its SAN), so a position with more than [`MANY_MOVES`] gets
/// only [`SAMPLED_MOVES_OF_MANY`].
const SAMPLED_MOVES: usize = 24;
const MANY_MOVES: usize = 1000;
const SAMPLED_MOVES_OF_MANY: usize = 4;

/// The piece kinds a byte may place (lions are placed by the first two bytes).
const PLACEABLE: [Role; 7] =
    [Role::Pawn, Role::Superpawn, Role::Monkey, Role::Giraffe, Role::Zebra, Role::Elephant, Role::Crocodile];

/// Bytes a [`position_from_bytes`] position consumes.
pub const POSITION_BYTES: usize = 3 + 49;

/// A valid position from the first [`POSITION_BYTES`] bytes (fewer bytes leave the rest of the board
/// empty), and the bytes left over.
///
/// Byte 0 and 1 put the white and the black lion on one of their castle's nine squares; byte 2 says
/// who moves; then one byte per square, a1 to g7: below 128 the square stays empty, otherwise it
/// gets one of the 14 other pieces. Pieces beyond 14 of a colour are left out and a pawn on its far
/// rank becomes a superpawn, so every input makes a valid position: the core must accept it.
pub fn position_from_bytes(data: &[u8]) -> (Position, &[u8]) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let castle = |b: u8, color: Color| {
        let (file, rank) = (2 + b % 3, (b / 3) % 3);
        let rank = if color.is_white() { rank } else { 6 - rank };
        Square::from_coords(file, rank).expect("on the board")
    };
    let mut board = Board::empty();
    let lions = [castle(byte(0), Color::White), castle(byte(1), Color::Black)];
    board.set_piece_at(lions[0], Some(Piece::new(Role::Lion, Color::White)));
    board.set_piece_at(lions[1], Some(Piece::new(Role::Lion, Color::Black)));
    let turn = Color::from_white(byte(2) & 1 == 0);
    let mut counts = [1u32; 2];
    for sq in Square::all() {
        let b = byte(3 + sq.index());
        if b < 128 || lions.contains(&sq) {
            continue;
        }
        let kind = usize::from(b - 128) % 14;
        let color = Color::from_white(kind % 2 == 0);
        let mut role = PLACEABLE[kind / 2];
        if role == Role::Pawn && sq.rank() == color.far_rank() {
            role = Role::Superpawn;
        }
        if counts[color.index()] < MAX_PIECES {
            counts[color.index()] += 1;
            board.set_piece_at(sq, Some(Piece::new(role, color)));
        }
    }
    let setup = Setup { board, turn, fullmove: 1 };
    let pos = Position::from_setup(setup).unwrap_or_else(|e| panic!("valid by construction, refused: {e}"));
    (pos, data.get(POSITION_BYTES..).unwrap_or(&[]))
}

/// Whether a colour has more pieces than a valid position allows (the parsers must refuse it).
fn over_the_piece_limit(board: &Board) -> bool {
    Color::ALL.into_iter().any(|c| board.by_color(c).count() > MAX_PIECES)
}

/// The checks on one position: move counts agree with the generated list, the list has no
/// duplicates, the hash and the FEN round trip, and for a sample of the moves: each is found
/// legal, its path and SAN parse back to it, and playing it keeps the incremental hash equal to
/// the one computed from scratch, removes exactly the captured pieces and gives a valid position.
pub fn check_position(pos: &Position) {
    check_position_sampling(pos, SAMPLED_MOVES);
}

/// [`check_position`] with `sampled` moves checked one by one (fewer for a position with more
/// than [`MANY_MOVES`]).
fn check_position_sampling(pos: &Position, sampled: usize) {
    assert_eq!(pos.zobrist_hash(), zobrist::hash(pos.board(), pos.turn()), "hash of {}", pos.fen());
    let fen = pos.fen();
    assert_eq!(Position::from_fen(&fen).as_ref(), Ok(pos), "FEN round trip of {fen}");

    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64, "count of {fen}");
    assert_eq!(pos.has_legal_moves(), !moves.is_empty(), "has_legal_moves of {fen}");
    assert_eq!(pos.nth_legal_move(moves.len() as u64), None, "nth past the end of {fen}");
    let unique: HashSet<_> = moves.iter().map(|m| m.path).collect();
    assert_eq!(unique.len(), moves.len(), "duplicate moves in {fen}");

    let sampled = if moves.len() > MANY_MOVES { sampled.min(SAMPLED_MOVES_OF_MANY) } else { sampled };
    let step = moves.len().div_ceil(sampled.max(1)).max(1);
    for (index, m) in moves.iter().enumerate().step_by(step) {
        check_move(pos, index, m);
    }
}

fn check_move(pos: &Position, index: usize, m: &Move) {
    let fen = pos.fen();
    let us = pos.turn();
    let board = pos.board();
    assert_eq!(board.color_at(m.from()), Some(us), "{m} in {fen}: not a piece of the side to move");
    assert_eq!(board.role_at(m.from()), Some(m.role), "{m} in {fen}: wrong role");
    assert_eq!(m.captured & board.by_color(!us), m.captured, "{m} in {fen}: captures a non-enemy square");
    assert_eq!(pos.nth_legal_move(index as u64).as_ref(), Some(m), "nth {index} in {fen}");
    assert_eq!(pos.find_move(&m.path).as_ref(), Ok(m), "{m} generated but not legal in {fen}");
    assert_eq!(parse_move(&m.uci()), Ok(m.path), "{m} does not parse back");
    let san = san_of(pos, m);
    assert_eq!(parse_san(pos, &san).as_ref(), Ok(m), "SAN {san} of {m} in {fen}");

    let child = pos.play_unchecked(m);
    assert_eq!(child.turn(), !us);
    assert_eq!(child.zobrist_hash(), zobrist::hash(child.board(), child.turn()), "hash after {m} in {fen}");
    let enemies = |p: &Position| p.board().by_color(!us).count();
    assert_eq!(enemies(&child), enemies(pos) - m.captured.count(), "{m} in {fen}: captures");
    assert!(
        child.board().by_color(us).count() <= board.by_color(us).count(),
        "{m} in {fen}: a piece appeared"
    );
    let child_fen = child.fen();
    assert_eq!(
        Position::from_fen(&child_fen),
        Ok(child),
        "{m} in {fen} gives {child_fen}, which does not round trip"
    );
}

/// The FEN parser on any text: no panic; what it accepts is within the rules, prints canonically
/// and parses back to the same position, which passes [`check_position`].
pub fn check_fen(text: &str) {
    let Ok(pos) = Position::from_fen(text) else { return };
    assert!(
        !over_the_piece_limit(pos.board()),
        "{text:?} accepted with more than {MAX_PIECES} pieces of a colour"
    );
    let fen = pos.fen();
    let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} -> {fen} does not parse: {e}"));
    assert_eq!(again, pos, "{text:?} -> {fen}");
    assert_eq!(again.fen(), fen);
    check_position(&pos);
}

/// Positions a move string is tried in: the start, and positions with monkey chains, drowning and
/// promotion in play.
const MOVE_TEXT_POSITIONS: [&str; 4] = [
    "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
    "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
    "3l3/2ppp2/2pMp2/2ppp2/7/7/3L3 w 1",
];

/// The move parser on any text: no panic; an accepted path prints and parses back to itself; in a
/// few positions, a legal reading (machine notation or SAN) is a generated move.
pub fn check_move_text(text: &str) {
    if let Ok(path) = parse_move(text) {
        assert_eq!(parse_move(&path.uci()), Ok(path), "{text:?} -> {path}");
        assert!(path.legs() >= 1);
    }
    for fen in MOVE_TEXT_POSITIONS {
        let pos = Position::from_fen(fen).expect("valid");
        check_san_text(&pos, text);
    }
}

/// SAN (and move strings) parsed in a position: what parses is a legal move, and its own SAN
/// parses back to it.
pub fn check_san_text(pos: &Position, text: &str) {
    if let Ok(path) = parse_move(text) {
        if let Ok(m) = pos.find_move(&path) {
            assert_eq!(m.path, path);
            assert_eq!(parse_san(pos, &m.uci()).map(|m| m.path), Ok(path), "{text:?} in {}", pos.fen());
        }
    }
    if let Ok(m) = parse_san(pos, text) {
        assert_eq!(pos.find_move(&m.path).as_ref(), Ok(&m), "{text:?} in {} gave an illegal move", pos.fen());
        let san = san_of(pos, &m);
        assert_eq!(parse_san(pos, &san).as_ref(), Ok(&m), "{text:?} -> {san} in {}", pos.fen());
    }
}

/// A game from a byte-built position (see [`position_from_bytes`]): each further pair of bytes
/// picks the next move. The first and last positions pass [`check_position`]; those between get
/// its list-wide checks and two moves checked one by one (the move played is always checked:
/// it was one of the sampled moves of the position before, or is the next position's hash and
/// FEN round trip).
pub fn check_play(data: &[u8]) {
    let (mut pos, choices) = position_from_bytes(data);
    check_position(&pos);
    for pair in choices.chunks(2).take(32) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let choice = usize::from(pair[0]) | usize::from(pair.get(1).copied().unwrap_or(0)) << 8;
        let index = choice % moves.len();
        check_move(&pos, index, &moves[index]);
        pos = pos.play_unchecked(&moves[index]);
        check_position_sampling(&pos, 2);
    }
    check_position(&pos);
}

/// SAN in a byte-built position: the bytes after the position are the text.
pub fn check_san(data: &[u8]) {
    let (pos, rest) = position_from_bytes(data);
    check_san_text(&pos, &String::from_utf8_lossy(rest));
}

/// Any bytes read as an opening book: refused with an error, or a book whose every entry decodes
/// to a real move, is found again by its key, and writes back to exactly the bytes read (the
/// format is canonical: one order, one code per move).
pub fn check_book(data: &[u8]) {
    use congo_core::book::{decode_move, encode, move_code, Book};

    let Ok(book) = Book::from_bytes(data) else { return };
    for entry in book.all() {
        let code = move_code(&entry.path).expect("a book move has a code");
        assert_eq!(decode_move(code), Some(entry.path), "{entry:?}");
        assert!(book.entries(entry.key).contains(entry), "{entry:?} not found by its key");
        assert!(book.entries(entry.key).iter().all(|e| e.key == entry.key));
    }
    assert_eq!(encode(book.all().to_vec()).expect("a book read re-encodes"), data);
    // Probing any key, and choosing in the start position, never panics.
    let key = data.iter().fold(0u64, |k, &b| k.rotate_left(8) ^ u64::from(b));
    assert!(book.entries(key).iter().all(|e| e.key == key));
    let mut rng = congo_core::rng::SplitMix64::new(key);
    if let Some((chosen, entry)) = book.choose(&Position::start(), None, &mut rng) {
        assert_eq!(chosen.path, entry.path);
        assert!(entry.weight > 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every committed seed input through its target's checks (what a fuzz run starts from).
    fn replay(target: &str, check: fn(&[u8])) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds").join(target);
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("corpus entry").path();
            check(&std::fs::read(&path).expect("corpus file"));
            seen += 1;
        }
        assert!(seen > 0, "no corpus for {target}");
    }

    #[test]
    fn corpora_pass() {
        replay("fen", |d| check_fen(&String::from_utf8_lossy(d)));
        replay("move_text", |d| check_move_text(&String::from_utf8_lossy(d)));
        replay("san", check_san);
        replay("play", check_play);
        replay("book", check_book);
    }

    #[test]
    fn any_bytes_make_a_valid_position() {
        for data in [&[][..], &[255; 60][..], &[128; 52][..], &[7, 200, 1, 129, 130, 131][..]] {
            let (pos, _) = position_from_bytes(data);
            assert!(pos.lion(Color::White).is_some() && pos.lion(Color::Black).is_some());
            assert!(!over_the_piece_limit(pos.board()));
        }
    }
}
