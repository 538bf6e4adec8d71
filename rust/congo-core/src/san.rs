//! Standard-algebraic-style notation ("SAN") for Congo, as specified in `docs/notation.md`.
//!
//! ```text
//! san      := piece? disambig? landing+ promotion? suffix?
//! piece    := "L" | "Z" | "E" | "G" | "C" | "M" | "S"      (no letter for a pawn; "P" accepted on input)
//! disambig := file | rank | square                       (the from-square, only as much as needed)
//! landing  := ("x" | "-")? square                        (one landing square; several for a monkey chain)
//! suffix   := "#"                                        (the move wins the game)
//! ```
//!
//! Output is canonical: the piece letter, the shortest disambiguation that singles the move out among
//! the legal moves of the same piece type with the same landing squares (file, else rank, else the
//! whole square; a pawn capture always names its file, and a pawn never gets the rank alone), `x` before the target of a capture and before
//! every landing square of a monkey jump, and `#` when the move wins (it captures the enemy lion or
//! leaves the opponent without a legal move). Examples: `Zf3`, `Exc3`, `cc3`, `dxe4`, `Mxd3xf5`,
//! `Lxd7#`.
//!
//! Input is lenient: `x` and `-` are optional, the suffixes `+ # ! ?` are ignored, `=S` may follow a
//! promoting pawn move, and a move string in this project's machine notation (`b1d3f5`, `d2-e3`, …,
//! see [`crate::notation`]) is accepted when it is not SAN for a legal move.

use core::fmt;

use smallvec::SmallVec;

use crate::moves::{Move, Path};
use crate::notation::parse_move;
use crate::piece::{Piece, Role};
use crate::position::{IllegalMoveError, Position};
use crate::rules::pawn;
use crate::square::Square;

/// Why a SAN string does not give a move in a position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SanError {
    /// The text is neither SAN nor a move string.
    Syntax { text: String, reason: String },
    /// The text is well formed, but no legal move matches it.
    Illegal { text: String },
    /// More than one legal move matches; `candidates` lists them.
    Ambiguous { text: String, candidates: Vec<Path> },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { text, reason } => write!(f, "invalid SAN {text:?}: {reason}"),
            SanError::Illegal { text } => write!(f, "illegal SAN {text:?}: no legal move matches it here"),
            SanError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous SAN {text:?}: it matches ")?;
                for (i, path) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{path}")?;
                }
                f.write_str(" (name the from-square)")
            }
        }
    }
}

impl std::error::Error for SanError {}

type Landings = SmallVec<[Square; 8]>;

fn landings(path: &Path) -> impl Iterator<Item = Square> + '_ {
    path.squares().skip(1)
}

fn same_landings(a: &Path, b: &Path) -> bool {
    a.legs() == b.legs() && landings(a).eq(landings(b))
}

/// What SAN and LAN write for the null move, as python-chess does.
pub const NULL_SAN: &str = "--";

/// The SAN of a legal move given by its path, or [`NULL_SAN`] for the null move. Fails if the move is
/// not legal here.
pub fn san(position: &Position, path: &Path) -> Result<String, IllegalMoveError> {
    if path.is_null() {
        return Ok(NULL_SAN.to_owned());
    }
    Ok(san_of(position, &position.find_move(path)?))
}

/// A move's text starts with its piece's letter (none for a pawn), in SAN and LAN alike.
fn with_piece_letter(m: &Move) -> String {
    let mut out = String::with_capacity(12);
    if m.role != Role::Pawn {
        out.push(m.role.upper_char());
    }
    out
}

/// A move that wins (it captures the enemy lion or leaves the opponent without a legal move) is
/// marked `#`, in SAN and LAN alike.
fn mark_win(out: &mut String, position: &Position, m: &Move) {
    if !position.play_unchecked(m).has_legal_moves() {
        out.push('#');
    }
}

/// The SAN of a move generated for this position.
pub fn san_of(position: &Position, m: &Move) -> String {
    let mut out = with_piece_letter(m);

    // The other legal moves this text could otherwise stand for: same piece type, same landing squares.
    let mut shares_file = false;
    let mut shares_rank = false;
    let mut others = false;
    for from in position.board().by_piece(Piece::new(m.role, position.turn())) {
        if from == m.from() {
            continue;
        }
        position.for_each_move_from(from, &mut |other| {
            if same_landings(&other.path, &m.path) {
                others = true;
                shares_file |= from.file() == m.from().file();
                shares_rank |= from.rank() == m.from().rank();
            }
        });
    }
    let [file, rank] = m.from().name_bytes();
    let pawn_capture = m.role == Role::Pawn && m.is_capture();
    if pawn_capture || others {
        if pawn_capture || !shares_file {
            out.push(file as char);
            if shares_file {
                out.push(rank as char);
            }
        } else if !shares_rank && m.role != Role::Pawn {
            // A pawn never gets the rank alone: its SAN then always starts with a letter, so a record
            // can never confuse it with a move number.
            out.push(rank as char);
        } else {
            out.push(file as char);
            out.push(rank as char);
        }
    }

    let chain = m.role == Role::Monkey && m.is_capture();
    for (i, sq) in landings(&m.path).enumerate() {
        if chain || (i == 0 && m.is_capture()) {
            out.push('x');
        }
        let [f, r] = sq.name_bytes();
        out.push(f as char);
        out.push(r as char);
    }
    mark_win(&mut out, position, m);
    out
}

/// The long algebraic form of a legal move given by its path: the piece letter (none for a pawn),
/// the from-square, then each landing square after `-` for a move or `x` for a capture, and `#`
/// for a winning move: `Zg1-f3`, `d3xe4`, `Mb1xd3xf5`. Fails if the move is not legal here.
pub fn lan(position: &Position, path: &Path) -> Result<String, IllegalMoveError> {
    if path.is_null() {
        return Ok(NULL_SAN.to_owned());
    }
    Ok(lan_of(position, &position.find_move(path)?))
}

/// The long algebraic form of a move generated for this position (see [`lan`]).
pub fn lan_of(position: &Position, m: &Move) -> String {
    let mut out = with_piece_letter(m);
    let separator = if m.is_capture() { 'x' } else { '-' };
    for (i, sq) in m.path.squares().enumerate() {
        if i > 0 {
            out.push(separator);
        }
        let [f, r] = sq.name_bytes();
        out.push(f as char);
        out.push(r as char);
    }
    mark_win(&mut out, position, m);
    out
}

/// One way of reading a SAN string.
#[derive(Clone, Debug)]
struct Pattern {
    role: Role,
    file: Option<u8>,
    rank: Option<u8>,
    landings: Landings,
    promotion: bool,
}

impl Pattern {
    fn may_start_on(&self, from: Square) -> bool {
        self.file.is_none_or(|f| from.file() == f) && self.rank.is_none_or(|r| from.rank() == r)
    }

    fn matches(&self, position: &Position, m: &Move) -> bool {
        m.role == self.role
            && self.file.is_none_or(|f| m.from().file() == f)
            && self.rank.is_none_or(|r| m.from().rank() == r)
            && m.path.legs() == self.landings.len()
            && landings(&m.path).eq(self.landings.iter().copied())
            && (!self.promotion || (m.role == Role::Pawn && pawn::promotes(position.turn(), m.to())))
    }
}

/// A piece of the text after the piece letter.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Atom {
    File(u8),
    Rank(u8),
    Square(Square),
    Separator,
}

fn syntax(text: &str, reason: impl Into<String>) -> SanError {
    SanError::Syntax { text: text.to_owned(), reason: reason.into() }
}

/// Splits the text after the piece letter into squares, lone files and ranks, and separators.
fn atoms(text: &str, rest: &[u8]) -> Result<SmallVec<[Atom; 16]>, SanError> {
    let mut atoms: SmallVec<[Atom; 16]> = SmallVec::new();
    let mut i = 0;
    while i < rest.len() {
        let c = rest[i];
        match c {
            b'a'..=b'g' => match rest.get(i + 1) {
                Some(&r @ b'1'..=b'7') => {
                    atoms.push(Atom::Square(Square::from_coords(c - b'a', r - b'1').unwrap_or(Square::A1)));
                    i += 2;
                    continue;
                }
                _ => atoms.push(Atom::File(c - b'a')),
            },
            b'1'..=b'7' => atoms.push(Atom::Rank(c - b'1')),
            b'x' | b'-' => atoms.push(Atom::Separator),
            b'h'..=b'w' | b'y' | b'z' => {
                return Err(syntax(text, format!("file {:?} is off the board (files a-g)", c as char)))
            }
            b'0' | b'8' | b'9' => {
                return Err(syntax(text, format!("rank {:?} is off the board (ranks 1-7)", c as char)))
            }
            _ => return Err(syntax(text, format!("unexpected character {:?}", c as char))),
        }
        i += 1;
    }
    Ok(atoms)
}

/// The readings of a SAN string (one, or two when a bare first square may be either the from-square
/// or a monkey's first landing square).
fn patterns(text: &str) -> Result<SmallVec<[Pattern; 2]>, SanError> {
    let mut body = text.trim();
    if body.is_empty() {
        return Err(syntax(text, "empty move"));
    }
    if !body.is_ascii() {
        return Err(syntax(text, "unexpected non-ASCII character"));
    }
    body = body.trim_end_matches(['+', '#', '!', '?']);
    let promotion = if let Some(rest) = body.strip_suffix("=S") {
        body = rest;
        true
    } else {
        false
    };
    let bytes = body.as_bytes();
    let (role, rest) = match bytes.first() {
        Some(&c) if c.is_ascii_uppercase() => match Role::from_char(c as char) {
            Some(role) => (role, &bytes[1..]),
            None => {
                return Err(syntax(text, format!("{:?} is not a piece letter (L Z E G C M S P)", c as char)))
            }
        },
        Some(&c @ (b'l' | b'z' | b'm' | b's' | b'p')) => {
            let upper = c.to_ascii_uppercase() as char;
            return Err(syntax(
                text,
                format!("piece letters are upper case ({upper:?}, not {:?})", c as char),
            ));
        }
        Some(_) => (Role::Pawn, bytes),
        None => return Err(syntax(text, "no target square")),
    };
    if promotion && role != Role::Pawn {
        return Err(syntax(text, "only a pawn promotes (=S)"));
    }

    let atoms = atoms(text, rest)?;

    // Split off the disambiguation: a leading file, rank, or square not preceded by a separator.
    let (file, rank, mut from_square, start) = match atoms.first() {
        Some(Atom::File(f)) => (Some(*f), None, None, 1),
        Some(Atom::Rank(r)) => (None, Some(*r), None, 1),
        Some(Atom::Square(sq)) if atoms[1..].iter().any(|a| matches!(a, Atom::Square(_))) => {
            (None, None, Some(*sq), 1)
        }
        _ => (None, None, None, 0),
    };
    let mut squares = Landings::new();
    let mut after_separator = false;
    for atom in &atoms[start..] {
        match atom {
            Atom::Separator if !after_separator => after_separator = true,
            Atom::Square(sq) => {
                squares.push(*sq);
                after_separator = false;
            }
            Atom::Separator => return Err(syntax(text, "two separators in a row")),
            Atom::File(_) | Atom::Rank(_) => {
                return Err(syntax(text, "a file or rank where a square was expected"))
            }
        }
    }
    if squares.is_empty() {
        return Err(syntax(text, "no target square"));
    }
    if after_separator {
        return Err(syntax(text, "a separator without a square after it"));
    }
    if squares.len() > 1 && role != Role::Monkey {
        return Err(syntax(text, "only a monkey's jump chain has several landing squares"));
    }

    let mut readings = SmallVec::new();
    if let Some(from) = from_square.take() {
        // `Mb1d3`: the bare first square is either the from-square or, for a monkey, the first landing.
        if role == Role::Monkey {
            let mut all = Landings::new();
            all.push(from);
            all.extend_from_slice(&squares);
            readings.push(Pattern { role, file: None, rank: None, landings: all, promotion });
        }
        readings.push(Pattern {
            role,
            file: Some(from.file()),
            rank: Some(from.rank()),
            landings: squares,
            promotion,
        });
    } else {
        readings.push(Pattern { role, file, rank, landings: squares, promotion });
    }
    Ok(readings)
}

/// The legal move a SAN string (or, failing that, a move string) stands for.
pub fn parse_san(position: &Position, text: &str) -> Result<Move, SanError> {
    let san_error = match patterns(text) {
        Ok(readings) => {
            // Only the pieces of the named type can match: generate their moves alone.
            let mut found: SmallVec<[Move; 2]> = SmallVec::new();
            let role = readings[0].role;
            for from in position.board().by_piece(Piece::new(role, position.turn())) {
                if !readings.iter().any(|p| p.may_start_on(from)) {
                    continue;
                }
                position.for_each_move_from(from, &mut |m| {
                    if readings.iter().any(|p| p.matches(position, &m)) {
                        found.push(m);
                    }
                });
            }
            match found.len() {
                1 => return Ok(found[0]),
                0 => SanError::Illegal { text: text.to_owned() },
                _ => {
                    return Err(SanError::Ambiguous {
                        text: text.to_owned(),
                        candidates: found.iter().map(|m| m.path).collect(),
                    })
                }
            }
        }
        Err(e) => e,
    };
    // Not SAN for a legal move: maybe a move string in the machine notation.
    match parse_move(text) {
        Ok(path) => position.find_move(&path).map_err(|_| match san_error {
            SanError::Syntax { .. } => SanError::Illegal { text: text.to_owned() },
            other => other,
        }),
        Err(_) => Err(san_error),
    }
}

/// The SAN of each move of a line played from `position` (a null move, [`NULL_SAN`], passes as
/// [`Position::play_null`] does); fails at the first illegal move with its index in the line.
pub fn san_line(position: &Position, paths: &[Path]) -> Result<Vec<String>, (usize, IllegalMoveError)> {
    let mut current = *position;
    let mut out = Vec::with_capacity(paths.len());
    for (i, path) in paths.iter().enumerate() {
        if path.is_null() {
            out.push(NULL_SAN.to_owned());
            current = current.play_null();
            continue;
        }
        let m = current.find_move(path).map_err(|e| (i, e))?;
        out.push(san_of(&current, &m));
        current = current.play_unchecked(&m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn san_str(position: &Position, uci: &str) -> String {
        san(position, &parse_move(uci).unwrap()).unwrap()
    }

    fn parsed(position: &Position, text: &str) -> String {
        parse_san(position, text).map_or_else(|e| format!("error: {e}"), |m| m.uci())
    }

    #[test]
    fn the_null_move_is_written_two_dashes_and_passes_in_a_line() {
        let start = Position::start();
        assert_eq!(san(&start, &Path::NULL).unwrap(), NULL_SAN);
        assert_eq!(lan(&start, &Path::NULL).unwrap(), NULL_SAN);
        let line = [Path::NULL, parse_move("g7f5").unwrap()];
        assert_eq!(san_line(&start, &line).unwrap(), ["--", "Zf5"]);
        assert!(parse_san(&start, "--").is_err(), "records know real moves only");
    }

    #[test]
    fn start_position() {
        let start = Position::start();
        assert_eq!(san_str(&start, "g1f3"), "Zf3");
        assert_eq!(san_str(&start, "c1c3"), "Ec3");
        assert_eq!(san_str(&start, "e1e3"), "Ee3");
        assert_eq!(san_str(&start, "a1a3"), "Ga3");
        assert_eq!(san_str(&start, "a1c3"), "Gc3");
        // Three pawns can reach c3: the from-file singles each out.
        assert_eq!(san_str(&start, "c2c3"), "cc3");
        assert_eq!(san_str(&start, "b2c3"), "bc3");
        assert_eq!(san_str(&start, "d2c3"), "dc3");
        // Every legal move round-trips, and every SAN is distinct.
        let mut seen = std::collections::HashSet::new();
        for m in start.legal_moves() {
            let text = san_of(&start, &m);
            assert_eq!(parse_san(&start, &text).unwrap(), m, "{text}");
            assert!(seen.insert(text));
        }
    }

    #[test]
    fn elephants_disambiguate_by_file() {
        let p = pos("3l3/7/7/7/7/3L3/2E1E2 w 1");
        assert_eq!(san_str(&p, "c1d1"), "Ecd1");
        assert_eq!(san_str(&p, "e1d1"), "Eed1");
        assert_eq!(
            parsed(&p, "Ed1"),
            "error: ambiguous SAN \"Ed1\": it matches c1d1, e1d1 (name the from-square)"
        );
        assert_eq!(parsed(&p, "Ecd1"), "c1d1");
        assert_eq!(parsed(&p, "Ec1d1"), "c1d1");
        assert_eq!(parsed(&p, "Ec1-d1"), "c1d1");
    }

    #[test]
    fn disambiguation_by_rank_and_square() {
        // Zebras on b1 and b5 both reach c3 and a3 (same file: rank); zebra d1 also reaches c3.
        let p = pos("3l3/7/1Z5/7/7/7/1Z1L3 w 1");
        assert_eq!(san_str(&p, "b1c3"), "Z1c3");
        assert_eq!(san_str(&p, "b5c3"), "Z5c3");
        let p = pos("3l3/7/1Z1Z3/7/7/7/1Z1L3 w 1");
        // b5, d5 and b1 all reach c3: b5 shares a file with b1 and a rank with d5.
        assert_eq!(san_str(&p, "b5c3"), "Zb5c3");
        assert_eq!(san_str(&p, "b1c3"), "Z1c3");
        assert_eq!(san_str(&p, "d5c3"), "Zdc3");
        for m in p.legal_moves() {
            assert_eq!(parse_san(&p, &san_of(&p, &m)).unwrap(), m);
        }
    }

    #[test]
    fn long_algebraic() {
        let start = Position::start();
        assert_eq!(lan(&start, &parse_move("g1f3").unwrap()).unwrap(), "Zg1-f3");
        assert_eq!(lan(&start, &parse_move("d2d3").unwrap()).unwrap(), "d2-d3");
        let monkey = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
        assert_eq!(lan(&monkey, &parse_move("b1d3f5").unwrap()).unwrap(), "Mb1xd3xf5");
        assert_eq!(lan(&monkey, &parse_move("b1d3f5d7").unwrap()).unwrap(), "Mb1xd3xf5xd7#");
        assert!(lan(&start, &parse_move("a1a2").unwrap()).is_err());
    }

    #[test]
    fn monkey_chains() {
        let p = pos("7/4l2/7/4c2/7/2p4/1M1L3 w 1");
        assert_eq!(san_str(&p, "b1a1"), "Ma1");
        assert_eq!(san_str(&p, "b1d3"), "Mxd3");
        assert_eq!(san_str(&p, "b1d3f5"), "Mxd3xf5");
        assert_eq!(san_str(&p, "b1d3f5d7"), "Mxd3xf5xd7#");
        assert_eq!(parsed(&p, "Mxd3xf5"), "b1d3f5");
        assert_eq!(parsed(&p, "Md3f5"), "b1d3f5");
        assert_eq!(parsed(&p, "Mb1xd3xf5"), "b1d3f5");
        assert_eq!(parsed(&p, "Mb1d3f5"), "b1d3f5");
        assert_eq!(parsed(&p, "Mbxd3"), "b1d3");
        assert_eq!(parsed(&p, "Mxd3xf5xd7#"), "b1d3f5d7");
        assert_eq!(parsed(&p, "b1d3f5d7"), "b1d3f5d7");
        assert_eq!(parsed(&p, "Mxd3xf6"), "error: illegal SAN \"Mxd3xf6\": no legal move matches it here");
        assert_eq!(
            parsed(&p, "Zxd3xf5"),
            "error: invalid SAN \"Zxd3xf5\": only a monkey's jump chain has several landing squares"
        );
    }

    #[test]
    fn pawns() {
        // White pawn d3 can capture e4 (diagonal) and d4 (straight); pawn on e3 can capture e4 too.
        let p = pos("3l3/7/7/3pp2/3PP2/7/3L3 w 1");
        assert_eq!(san_str(&p, "d3e4"), "dxe4");
        assert_eq!(san_str(&p, "d3d4"), "dxd4");
        assert_eq!(san_str(&p, "e3e4"), "exe4");
        assert_eq!(parsed(&p, "dxe4"), "d3e4");
        assert_eq!(parsed(&p, "de4"), "d3e4");
        assert_eq!(parsed(&p, "Pdxe4"), "d3e4");
        assert_eq!(
            parsed(&p, "xe4"),
            "error: ambiguous SAN \"xe4\": it matches d3e4, e3e4 (name the from-square)"
        );
        // Promotion: no suffix on output, `=S` accepted on input.
        let p = pos("3l3/1P5/7/7/7/7/3L3 w 1");
        assert_eq!(san_str(&p, "b6b7"), "b7");
        assert_eq!(parsed(&p, "b7=S"), "b6b7");
        assert_eq!(parsed(&p, "Zb7=S"), "error: invalid SAN \"Zb7=S\": only a pawn promotes (=S)");
        assert_eq!(parsed(&p, "b6=S"), "error: illegal SAN \"b6=S\": no legal move matches it here");
        // Pawns on f3, e3 (forward) and f5 (a retreat across the river) all reach f4: the f-pawns
        // share a file, and a pawn is never told apart by its rank alone.
        let p = pos("3l3/7/5P1/7/4PP1/7/3L3 w 1");
        assert_eq!(san_str(&p, "f5f4"), "f5f4");
        assert_eq!(san_str(&p, "f3f4"), "f3f4");
        assert_eq!(san_str(&p, "e3f4"), "ef4");
        assert_eq!(parsed(&p, "5f4"), "f5f4");
    }

    #[test]
    fn winning_moves_are_marked() {
        // Facing capture of the lion.
        let p = pos("3l3/7/7/7/7/7/3L3 w 1");
        assert_eq!(san_str(&p, "d1d7"), "Lxd7#");
        assert_eq!(parsed(&p, "Lxd7"), "d1d7");
        assert_eq!(parsed(&p, "Ld7"), "d1d7");
    }

    #[test]
    fn machine_notation_is_accepted() {
        let start = Position::start();
        assert_eq!(parsed(&start, "c1c3"), "c1c3");
        assert_eq!(parsed(&start, "g1-f3"), "g1f3");
        assert_eq!(parsed(&start, "d2d3"), "d2d3");
        assert_eq!(parsed(&start, "c1c4"), "error: illegal SAN \"c1c4\": no legal move matches it here");
    }

    #[test]
    fn malformed_san() {
        let start = Position::start();
        for (text, reason) in [
            ("", "empty move"),
            ("Qd4", "'Q' is not a piece letter (L Z E G C M S P)"),
            ("Zh3", "file 'h' is off the board (files a-g)"),
            ("Zf9", "rank '9' is off the board (ranks 1-7)"),
            ("Z*f3", "unexpected character '*'"),
            ("zf3", "piece letters are upper case ('Z', not 'z')"),
            ("Zf", "no target square"),
            ("Zxxf3", "two separators in a row"),
            ("Zf3x", "a separator without a square after it"),
            ("Zf3g", "a file or rank where a square was expected"),
            ("é4", "unexpected non-ASCII character"),
            ("O-O", "'O' is not a piece letter (L Z E G C M S P)"),
        ] {
            assert_eq!(parse_san(&start, text), Err(syntax(text, reason)), "{text}");
        }
    }

    #[test]
    fn every_move_of_random_games_round_trips() {
        // A small linear congruential generator keeps the games reproducible without dependencies.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        for _ in 0..40 {
            let mut p = Position::start();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashSet::new();
                for m in &moves {
                    let text = san_of(&p, m);
                    assert_eq!(parse_san(&p, &text).as_ref(), Ok(m), "{text} in {}", p.fen());
                    assert!(seen.insert(text));
                }
                p = p.play_unchecked(&moves[next(moves.len())]);
            }
        }
    }

    #[test]
    fn lines() {
        let start = Position::start();
        let paths: Vec<Path> = ["g1f3", "c7c5", "c2c3"].iter().map(|s| parse_move(s).unwrap()).collect();
        assert_eq!(san_line(&start, &paths).unwrap(), ["Zf3", "Ec5", "cc3"]);
        let bad: Vec<Path> = ["g1f3", "g1f3"].iter().map(|s| parse_move(s).unwrap()).collect();
        assert_eq!(san_line(&start, &bad).unwrap_err().0, 1);
    }
}
