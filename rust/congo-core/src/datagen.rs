//! Training data at scale (`congo datagen`): self-play games with diversified openings, every kept
//! position scored by a fixed-node or fixed-depth search, labelled with the game's result (and, in
//! the endgame tables, the exact result), packed in 32 bytes.
//!
//! A game is a pure function of the configuration, the run's seed and the game's index
//! ([`play_game`]): the engine is single-threaded and cleared before every search, so a position's
//! score depends only on the position, the game's earlier positions (for repetitions) and the
//! search limit. Drivers on threads or a cluster hand out game indices and concatenate the games
//! in index order; the output never depends on scheduling.
//!
//! **A game.** `min_random_plies..=max_random_plies` uniformly random moves (the count drawn per
//! game; an opening that ends the game is drawn again); then the engine plays both sides. For the
//! first `diversify_plies` engine moves it searches `multipv` lines and plays one of those within
//! `margin` centipawns of the best, chosen uniformly; afterwards its best move. A game ends by the
//! rules, by a third repetition or at `max_plies` (a draw).
//!
//! **Kept positions** (the quiet filter): positions after the random opening whose best move
//! leaves the material as it is (no capture, no piece drowned, no promotion) and whose side to
//! move does not have its lion attacked: there the static evaluation is what the search trusts.
//!
//! **Labels.** `score`: the search's score for the side to move (see [`score_value`]). `result`:
//! the game's result for the side to move; with endgame tables, the game's result is the exact
//! value of its first position within the tables (the engine then plays on with them), and every
//! position within the tables gets its own exact value, flagged `exact`.
//!
//! **The record** ([`pack`], [`unpack`]; little-endian, 32 bytes):
//!
//! | bytes | field |
//! |---|---|
//! | 0–7 | occupancy, `u64`: bit `s` set when square `s` holds a piece (a1 = 0, b1 = 1, …, g7 = 48); bits 49–63 zero |
//! | 8–21 | the pieces of the occupied squares in ascending square order, 4 bits each, the first in the low half of byte 8: `role − 1 + 8·black` (role numbers: pawn 1 … lion 8); unused halves zero |
//! | 22–23 | score, `i16` |
//! | 24–25 | ply, `u16`: moves played in the game before this position |
//! | 26–27 | full-move number, `u16` |
//! | 28–30 | the game's index modulo 2²⁴, `u24` |
//! | 31 | flags: bits 0–1 the result for the side to move (0 loss, 1 draw, 2 win), bit 2 exact (from the tables), bit 3 White to move; bits 4–7 zero |

use core::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::learn::{Game, GameEnd};
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, PositionError, Setup};
use crate::rng::SplitMix64;
use crate::search::{lion_attacked, Engine, EngineError, Limits, Score, SearchOptions};
use crate::tablebase::{Tablebase, Wdl};

/// Bytes of one packed position.
pub const RECORD_SIZE: usize = 32;

/// Most pieces a record holds (both sides' most).
pub const MAX_RECORD_PIECES: usize = 28;

/// The score of a forced win in `n` own moves is `MATE_SCORE − n`; of a forced loss after the
/// opponent's `n`-th move `−(MATE_SCORE − n)`.
pub const MATE_SCORE: i16 = 30_000;

/// Evaluations are clamped to `±MAX_CP`; a score beyond it is a forced result.
pub const MAX_CP: i16 = 20_000;

/// The longest game accepted (`max_plies`): plies are stored in 16 bits.
pub const MAX_GAME_PLIES: u32 = u16::MAX as u32;

/// Square count of the board.
const SQUARES: usize = 49;
const OCCUPANCY_MASK: u64 = (1 << SQUARES) - 1;
const GAME_MASK: u64 = (1 << 24) - 1;
const FLAG_EXACT: u8 = 1 << 2;
const FLAG_WHITE: u8 = 1 << 3;

/// The result of a game for the side to move of a position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum GameResult {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl GameResult {
    /// The result for `turn` of a game that `winner` won (`None`: drawn).
    pub fn for_side(winner: Option<Color>, turn: Color) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(w) if w == turn => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    const fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// One position of the data, unpacked.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Record {
    pub position: Position,
    /// The search's score for the side to move ([`score_value`]).
    pub score: i16,
    pub result: GameResult,
    /// Whether `result` is the tables' exact value of this position (else the game's result).
    pub exact: bool,
    /// Moves played in the game before this position.
    pub ply: u16,
    /// The game's index (stored modulo 2²⁴).
    pub game: u64,
}

/// Why a record cannot be packed or unpacked.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum RecordError {
    /// Bits 49–63 of the occupancy are set.
    StrayOccupancy,
    /// More occupied squares than a record holds.
    TooManyPieces(u32),
    /// A half-byte after the last piece is not zero.
    StrayPieceBits,
    /// The flags byte has reserved bits set or result code 3.
    BadFlags(u8),
    /// The placement is not a valid position.
    Position(PositionError),
    /// The full-move number does not fit in 16 bits.
    Fullmove(u32),
    /// A record's bytes are not a whole number of records.
    Length(usize),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::StrayOccupancy => f.write_str("occupancy bits beyond the 49 squares are set"),
            RecordError::TooManyPieces(n) => {
                write!(f, "{n} pieces, more than a record holds ({MAX_RECORD_PIECES})")
            }
            RecordError::StrayPieceBits => f.write_str("piece bits after the last piece are set"),
            RecordError::BadFlags(flags) => write!(f, "invalid flags byte {flags:#04x}"),
            RecordError::Position(e) => write!(f, "not a valid position: {e}"),
            RecordError::Fullmove(n) => write!(f, "move number {n} does not fit in 16 bits"),
            RecordError::Length(n) => {
                write!(f, "{n} bytes are not a whole number of {RECORD_SIZE}-byte records")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// The stored form of a search score: centipawns clamped to `±MAX_CP`; a forced win in `n` own
/// moves `MATE_SCORE − n`, a forced loss after the opponent's `n`-th move `−(MATE_SCORE − n)`
/// (`n` at most 1000).
pub fn score_value(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(MAX_CP), i32::from(MAX_CP)) as i16,
        Score::Mate(n) if n > 0 => MATE_SCORE - n.min(1000) as i16,
        Score::Mate(n) => -(MATE_SCORE - (-n).min(1000) as i16),
    }
}

fn piece_code(piece: Piece) -> u8 {
    piece.role.index() as u8 + if piece.color.is_white() { 0 } else { 8 }
}

fn code_piece(code: u8) -> Piece {
    let role = Role::ALL[usize::from(code & 7)];
    Piece::new(role, Color::from_white(code < 8))
}

/// Packs a record.
pub fn pack(record: &Record) -> Result<[u8; RECORD_SIZE], RecordError> {
    let pos = &record.position;
    let fullmove = u16::try_from(pos.fullmove()).map_err(|_| RecordError::Fullmove(pos.fullmove()))?;
    let occupied = pos.board().occupied();
    if occupied.count() as usize > MAX_RECORD_PIECES {
        return Err(RecordError::TooManyPieces(occupied.count()));
    }
    let mut out = [0u8; RECORD_SIZE];
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (k, (_, piece)) in pos.board().pieces().enumerate() {
        out[8 + k / 2] |= piece_code(piece) << (4 * (k % 2));
    }
    out[22..24].copy_from_slice(&record.score.to_le_bytes());
    out[24..26].copy_from_slice(&record.ply.to_le_bytes());
    out[26..28].copy_from_slice(&fullmove.to_le_bytes());
    out[28..31].copy_from_slice(&(record.game & GAME_MASK).to_le_bytes()[..3]);
    let mut flags = record.result as u8;
    if record.exact {
        flags |= FLAG_EXACT;
    }
    if pos.turn().is_white() {
        flags |= FLAG_WHITE;
    }
    out[31] = flags;
    Ok(out)
}

/// Unpacks a record, checking every field: stray bits, a valid position.
pub fn unpack(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
    let board = unpack_board(bytes)?;
    let flags = bytes[31];
    let result = GameResult::from_code(flags & 3).ok_or(RecordError::BadFlags(flags))?;
    if flags & 0xf0 != 0 {
        return Err(RecordError::BadFlags(flags));
    }
    let turn = Color::from_white(flags & FLAG_WHITE != 0);
    let fullmove = u16::from_le_bytes([bytes[26], bytes[27]]);
    let setup = Setup { board, turn, fullmove: u32::from(fullmove) };
    let position = Position::from_setup(setup).map_err(RecordError::Position)?;
    Ok(Record {
        position,
        score: i16::from_le_bytes([bytes[22], bytes[23]]),
        result,
        exact: flags & FLAG_EXACT != 0,
        ply: u16::from_le_bytes([bytes[24], bytes[25]]),
        game: u64::from(bytes[28]) | u64::from(bytes[29]) << 8 | u64::from(bytes[30]) << 16,
    })
}

/// The placement of a record (occupancy and pieces checked, the rest not).
fn unpack_board(bytes: &[u8; RECORD_SIZE]) -> Result<Board, RecordError> {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[0..8]);
    let occupancy = u64::from_le_bytes(word);
    if occupancy & !OCCUPANCY_MASK != 0 {
        return Err(RecordError::StrayOccupancy);
    }
    let count = occupancy.count_ones();
    if count as usize > MAX_RECORD_PIECES {
        return Err(RecordError::TooManyPieces(count));
    }
    let nibble = |k: usize| (bytes[8 + k / 2] >> (4 * (k % 2))) & 0xf;
    if (count as usize..MAX_RECORD_PIECES).any(|k| nibble(k) != 0) {
        return Err(RecordError::StrayPieceBits);
    }
    let mut board = Board::empty();
    for (k, sq) in Bitboard(occupancy).into_iter().enumerate() {
        board.set_piece_at(sq, Some(code_piece(nibble(k))));
    }
    Ok(board)
}

/// Records packed one after another, unpacked (`Length` if the bytes are not whole records; an
/// error carries the index of the first bad record).
pub fn unpack_all(bytes: &[u8]) -> Result<Vec<Record>, (usize, RecordError)> {
    chunks(bytes)?.enumerate().map(|(i, chunk)| unpack(chunk).map_err(|e| (i, e))).collect()
}

/// The boards of packed records, 49 signed bytes each (square order a1 … g7): `+role` for a white
/// piece, `−role` for a black one (pawn 1 … lion 8), 0 for an empty square. Every record is
/// checked as by [`unpack`].
pub fn boards(bytes: &[u8]) -> Result<Vec<i8>, (usize, RecordError)> {
    let mut out = vec![0i8; bytes.len() / RECORD_SIZE * SQUARES];
    for (i, chunk) in chunks(bytes)?.enumerate() {
        let record = unpack(chunk).map_err(|e| (i, e))?;
        for (sq, piece) in record.position.board().pieces() {
            let role = piece.role as i8;
            out[i * SQUARES + sq.index()] = if piece.color.is_white() { role } else { -role };
        }
    }
    Ok(out)
}

fn chunks(bytes: &[u8]) -> Result<impl Iterator<Item = &[u8; RECORD_SIZE]>, (usize, RecordError)> {
    if bytes.len() % RECORD_SIZE != 0 {
        return Err((bytes.len() / RECORD_SIZE, RecordError::Length(bytes.len())));
    }
    Ok(bytes
        .chunks_exact(RECORD_SIZE)
        .map(|c| <&[u8; RECORD_SIZE]>::try_from(c).unwrap_or_else(|_| unreachable!())))
}

/// How each position is searched.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Budget {
    Nodes(u64),
    Depth(u32),
}

/// How the games are played (see the module documentation).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct DatagenConfig {
    pub budget: Budget,
    pub min_random_plies: u32,
    pub max_random_plies: u32,
    /// Lines searched for a diversified move (1: no diversification).
    pub multipv: usize,
    /// Centipawns below the best within which a line may be chosen.
    pub margin: i32,
    /// Engine moves chosen among the best lines, after the random opening.
    pub diversify_plies: u32,
    /// The game is drawn after this many moves (`1..=MAX_GAME_PLIES`).
    pub max_plies: u32,
    /// The engine's transposition table, cleared before every search.
    pub hash_mb: usize,
}

impl Default for DatagenConfig {
    fn default() -> DatagenConfig {
        DatagenConfig {
            budget: Budget::Nodes(5000),
            min_random_plies: 4,
            max_random_plies: 8,
            multipv: 3,
            margin: 50,
            diversify_plies: 16,
            max_plies: 300,
            hash_mb: 2,
        }
    }
}

/// The seed of game `index` of a run seeded with `seed`.
pub const fn game_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(1)
}

/// One finished game's data.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GameData {
    /// The kept positions, in the order played.
    pub records: Vec<Record>,
    /// Positions searched (kept or not).
    pub searched: u32,
    /// Every move played, the random opening first.
    pub moves: Vec<Move>,
    /// The game's result (adjudicated by the tables when it entered them).
    pub winner: Option<Color>,
    pub end: GameEnd,
}

/// Whether the position `pos` with best move `best` is kept (the quiet filter of the module
/// documentation).
pub fn is_quiet(pos: &Position, best: &Move) -> bool {
    let after = pos.play_unchecked(best);
    let promotes = best.role == Role::Pawn && best.to().rank() == pos.turn().far_rank();
    after.board().occupied().count() == pos.board().occupied().count()
        && !promotes
        && !lion_attacked(pos.board(), pos.turn())
}

/// Scores ordered as the search orders them, for the margin.
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// An engine for [`play_game`].
pub fn engine(
    config: &DatagenConfig,
    tablebase: Option<std::sync::Arc<Tablebase>>,
) -> Result<Engine, EngineError> {
    let mut engine = Engine::new(1, config.hash_mb)?;
    engine.set_tablebase(tablebase);
    Ok(engine)
}

/// Plays game `index` of a run seeded with `seed` with `engine` (made by [`engine`]; its tables,
/// if any, label the positions within them). `None` if `stop` was set (checked before every
/// search).
pub fn play_game(
    engine: &mut Engine,
    config: &DatagenConfig,
    seed: u64,
    index: u64,
    stop: &AtomicBool,
) -> Option<GameData> {
    let tablebase = engine.tablebase().cloned();
    let mut rng = SplitMix64::new(game_seed(seed, index));
    let spread = config.max_random_plies.saturating_sub(config.min_random_plies);
    let random_plies = config.min_random_plies + rng.below(spread as usize + 1) as u32;
    let max_plies = config.max_plies.clamp(1, MAX_GAME_PLIES);
    let mut game = Game::new(Position::start(), max_plies);
    for _attempt in 0..100 {
        game = Game::new(Position::start(), max_plies);
        while game.plies() < random_plies && !game.is_over() {
            let moves = game.legal_moves();
            let m = moves[rng.below(moves.len())];
            play(&mut game, &m);
        }
        if !game.is_over() {
            break;
        }
    }
    let limits = match config.budget {
        Budget::Nodes(n) => Limits::nodes(n.max(1)),
        Budget::Depth(d) => Limits::depth(d.max(1)),
    };
    let diversified = SearchOptions { multipv: config.multipv.max(1), ..SearchOptions::default() };
    // Records whose result is the game's, waiting for it; the exact ones are final.
    let mut records: Vec<Record> = Vec::new();
    let mut table_winner: Option<Option<Color>> = None;
    let mut searched = 0;
    while !game.is_over() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let pos = *game.position();
        let diversify = config.multipv > 1 && game.plies() < random_plies + config.diversify_plies;
        engine.clear();
        let found = engine.search(&pos, game.history_before(), &limits, &mut |_| {});
        searched += 1;
        let Some(best) = found.best_move else { break };
        let chosen = if diversify {
            // A search of its own, so that every kept score is the one-line search's.
            engine.clear();
            let lines = engine.search_with(&pos, game.history_before(), &limits, &diversified, &mut |_| {});
            let floor = rank(lines.score) - i64::from(config.margin);
            let candidates: Vec<&Move> =
                lines.lines.iter().filter(|l| rank(l.score) >= floor).filter_map(|l| l.pv.first()).collect();
            if candidates.is_empty() {
                best
            } else {
                *candidates[rng.below(candidates.len())]
            }
        } else {
            best
        };
        let exact = tablebase.as_ref().and_then(|t| t.probe_wdl(&pos));
        if let Some(wdl) = exact {
            if table_winner.is_none() {
                table_winner = Some(match wdl {
                    Wdl::Win => Some(pos.turn()),
                    Wdl::Loss => Some(!pos.turn()),
                    Wdl::Draw => None,
                });
            }
        }
        if game.plies() >= random_plies && is_quiet(&pos, &best) {
            let label = match exact {
                Some(Wdl::Win) => GameResult::Win,
                Some(Wdl::Loss) => GameResult::Loss,
                // A draw, or a placeholder for the game's result, set once the game is over.
                _ => GameResult::Draw,
            };
            records.push(Record {
                position: pos,
                score: score_value(found.score),
                result: label,
                exact: exact.is_some(),
                ply: game.plies() as u16,
                game: index & GAME_MASK,
            });
        }
        play(&mut game, &chosen);
    }
    let winner = table_winner.unwrap_or_else(|| game.winner());
    for record in &mut records {
        if !record.exact {
            record.result = GameResult::for_side(winner, record.position.turn());
        }
    }
    let end = game.end().unwrap_or(GameEnd::PlyLimit);
    Some(GameData { records, searched, moves: game.moves_played().to_vec(), winner, end })
}

/// Plays a move generated for the game's position.
fn play(game: &mut Game, m: &Move) {
    let played = game.play(m);
    debug_assert!(played.is_ok(), "{played:?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    /// Positions of every kind: random games (captures, promotions, drowning), a full board, the
    /// monkey's chains, a lone lion, both colours to move and a big move number.
    fn positions() -> Vec<Position> {
        let mut out: Vec<Position> = [
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1",
            "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 65535",
            "7/4l2/7/4c2/7/2p4/1M1L3 w 1",
            "1C1G3/1M1lMMM/3g1m1/GMmmmem/G2cMm1/2Scmzm/S2L1S1 w 1",
            "SM4G/1Z1lEG1/SS1m1e1/2mzmmm/1G1sMc1/SM1csmc/3L1C1 b 9",
            "7/7/2l4/7/Z6/3L3/7 w 1",
            "3l3/7/7/MMMMMMM/7/7/3L3 b 40",
            "3l3/7/7/7/7/7/7 w 3",
        ]
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
        let mut rng = SplitMix64::new(5);
        for _ in 0..40 {
            let mut pos = Position::start();
            for _ in 0..rng.below(120) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_decided() {
                    break;
                }
                pos = pos.play_unchecked(&moves[rng.below(moves.len())]);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn every_field_survives_packing() {
        let results = [GameResult::Loss, GameResult::Draw, GameResult::Win];
        for (i, position) in positions().into_iter().enumerate() {
            let record = Record {
                position,
                score: (i as i16).wrapping_mul(977),
                result: results[i % 3],
                exact: i % 2 == 0,
                ply: (i * 7) as u16,
                game: (i as u64 * 104_729) & GAME_MASK,
            };
            let bytes = pack(&record).unwrap();
            assert_eq!(unpack(&bytes), Ok(record), "{}", position.fen());
            assert_eq!(unpack(&bytes).unwrap().position.fen(), position.fen());
            let board = boards(&bytes).unwrap();
            for sq in Square::all() {
                let expected = position.board().piece_at(sq).map_or(0, |p| {
                    if p.color.is_white() {
                        p.role as i8
                    } else {
                        -(p.role as i8)
                    }
                });
                assert_eq!(board[sq.index()], expected);
            }
        }
    }

    #[test]
    fn the_layout_is_as_documented() {
        let position = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 b 300").unwrap();
        let record =
            Record { position, score: -2, result: GameResult::Win, exact: true, ply: 599, game: 0x0102_0304 };
        let bytes = pack(&record).unwrap();
        // b1 (1), d1 (3), c2 (9), e4 (25), e6 (39).
        let occupancy = (1u64 << 1) | (1 << 3) | (1 << 9) | (1 << 25) | (1 << 39);
        assert_eq!(bytes[0..8], occupancy.to_le_bytes());
        // White monkey 2, white lion 7; black pawn 8, black crocodile 14; black lion 15.
        assert_eq!(bytes[8..12], [0x72, 0xe8, 0x0f, 0]);
        assert!(bytes[12..22].iter().all(|&b| b == 0));
        assert_eq!(bytes[22..24], (-2i16).to_le_bytes());
        assert_eq!(bytes[24..26], 599u16.to_le_bytes());
        assert_eq!(bytes[26..28], 300u16.to_le_bytes());
        assert_eq!(bytes[28..31], [0x04, 0x03, 0x02]);
        assert_eq!(bytes[31], 2 | FLAG_EXACT);
        assert_eq!(unpack(&bytes).unwrap().game, 0x02_0304);
    }

    #[test]
    fn damaged_records_are_refused() {
        let record = Record {
            position: Position::start(),
            score: 0,
            result: GameResult::Draw,
            exact: false,
            ply: 0,
            game: 0,
        };
        let good = pack(&record).unwrap();
        let sparse =
            pack(&Record { position: Position::from_fen("3l3/7/7/7/7/7/3L3 w 1").unwrap(), ..record })
                .unwrap();
        let mut stray = sparse;
        stray[9] = 0x10;
        assert_eq!(unpack(&stray), Err(RecordError::StrayPieceBits));
        let damaged = |at: usize, value: u8| {
            let mut bytes = good;
            bytes[at] = value;
            unpack(&bytes)
        };
        assert_eq!(damaged(7, 0x80), Err(RecordError::StrayOccupancy));
        assert_eq!(damaged(31, 3), Err(RecordError::BadFlags(3)));
        assert_eq!(damaged(31, 0x21), Err(RecordError::BadFlags(0x21)));
        // The white lion (code 7) turned into a second black lion (15).
        assert!(matches!(damaged(9, (good[9] & 0x0f) | 0xf0), Err(RecordError::Position(_))));
        let mut too_many = good;
        too_many[0..8].copy_from_slice(&OCCUPANCY_MASK.to_le_bytes());
        assert_eq!(unpack(&too_many), Err(RecordError::TooManyPieces(49)));
        assert_eq!(unpack_all(&good[..31]), Err((0, RecordError::Length(31))));
        let far = Record { position: Position::start().with_fullmove(70_000), ..record };
        assert_eq!(pack(&far), Err(RecordError::Fullmove(70_000)));
    }

    #[test]
    fn mate_scores_are_stored_beyond_every_evaluation() {
        assert_eq!(score_value(Score::Cp(35)), 35);
        assert_eq!(score_value(Score::Cp(-1_000_000)), -MAX_CP);
        assert_eq!(score_value(Score::Mate(1)), 29_999);
        assert_eq!(score_value(Score::Mate(-2)), -29_998);
        assert_eq!(score_value(Score::Mate(0)), -30_000);
    }

    fn small() -> DatagenConfig {
        DatagenConfig { budget: Budget::Nodes(300), max_plies: 80, ..DatagenConfig::default() }
    }

    #[test]
    fn a_game_is_a_function_of_its_seed_and_index() {
        let never = AtomicBool::new(false);
        let config = small();
        let mut a = engine(&config, None).unwrap();
        let mut b = engine(&config, None).unwrap();
        // Another game first: the engine's earlier work does not leak into the next game.
        play_game(&mut b, &config, 1, 9, &never).unwrap();
        let first = play_game(&mut a, &config, 1, 3, &never).unwrap();
        assert_eq!(play_game(&mut b, &config, 1, 3, &never), Some(first.clone()));
        assert_ne!(play_game(&mut b, &config, 1, 4, &never), Some(first.clone()));
        assert!(!first.records.is_empty());
        assert!(first.moves.len() <= 80);
        for record in &first.records {
            assert!(u32::from(record.ply) >= config.min_random_plies);
            assert_eq!(record.game, 3);
            assert_eq!(record.result, GameResult::for_side(first.winner, record.position.turn()));
            assert!(!record.exact);
        }
    }

    #[test]
    fn kept_positions_are_quiet_and_scored_by_a_fresh_search() {
        let never = AtomicBool::new(false);
        let config = small();
        let mut engine = engine(&config, None).unwrap();
        let mut fresh = Engine::new(1, config.hash_mb).unwrap();
        for index in 0..3 {
            let data = play_game(&mut engine, &config, 2, index, &never).unwrap();
            assert!(data.searched as usize > data.records.len());
            // The game replayed: each kept position's score is a cleared engine's search of it,
            // with the game's earlier positions as its history.
            let mut replay = Game::new(Position::start(), config.max_plies);
            let mut kept = data.records.iter().peekable();
            for m in &data.moves {
                if let Some(record) = kept.next_if(|r| u32::from(r.ply) == replay.plies()) {
                    let pos = *replay.position();
                    assert_eq!(record.position, pos);
                    fresh.clear();
                    let found = fresh.search(&pos, replay.history_before(), &Limits::nodes(300), &mut |_| {});
                    assert_eq!(score_value(found.score), record.score, "{}", pos.fen());
                    assert!(is_quiet(&pos, &found.best_move.unwrap()), "{}", pos.fen());
                    assert!(!lion_attacked(pos.board(), pos.turn()));
                }
                play(&mut replay, m);
            }
            assert!(kept.next().is_none());
        }
    }

    #[test]
    fn the_filter_refuses_captures_promotions_and_an_attacked_lion() {
        let find = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let m = pos.legal_moves().into_iter().find(|m| m.uci() == uci).unwrap();
            is_quiet(&pos, &m)
        };
        // The monkey's chain takes the lion.
        assert!(!find("7/4l2/7/4c2/7/2p4/1M1L3 w 1", "b1d3f5d7"));
        // A pawn promotes on the far rank.
        assert!(!find("2l4/P6/7/7/7/7/3L3 w 1", "a6a7"));
        // A quiet move, but the white lion stands attacked: by the zebra, by the facing lion.
        assert!(!find("2l4/7/7/7/7/1z5/P2L3 w 1", "d1e1"));
        assert!(!find("3l3/7/7/7/7/7/P2L3 w 1", "d1e1"));
        assert!(find("2l4/7/7/7/7/7/P2L3 w 1", "d1e1"));
        // The zebra left standing in the river drowns: the material changes.
        assert!(!find("2l4/7/7/Z6/7/7/P2L3 w 1", "d1e1"));
        assert!(find("2l4/7/7/Z6/7/7/P2L3 w 1", "a4b6"));
    }

    #[test]
    fn a_set_stop_flag_abandons_the_game() {
        let stop = AtomicBool::new(true);
        let config = small();
        let mut engine = engine(&config, None).unwrap();
        assert_eq!(play_game(&mut engine, &config, 1, 0, &stop), None);
    }
}
