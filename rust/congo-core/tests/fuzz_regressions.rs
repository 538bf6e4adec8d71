//! Inputs the fuzz targets (`fuzz/`, docs/worst-case.md) found to break the core, each with the
//! fix's expected behaviour. Every test here failed before its fix.

use congo_core::fen::{parse_board, FenError};
use congo_core::{ParseFenError, Position};

/// The `fen` target, after 190,881 runs: a rank of more than 255 squares wrapped its file counter
/// (`file as u8`) back onto a square it had already filled, and placing a piece there panicked in
/// a debug build (and flipped bits of the board in a release one, before the rank's length was
/// found wrong). Now nothing past the seventh square is placed and the rank is an error.
#[test]
fn a_rank_longer_than_255_squares_is_an_error_not_a_wrap_around() {
    // A monkey on a1, then 255 empty squares, then a pawn on "square 256" = file 0 again.
    let rank_one = format!("M{}3p", "7".repeat(36));
    let placement = format!("3l3/7/7/7/7/7/{rank_one}");
    assert_eq!(parse_board(&placement), Err(FenError::WrongRankLength { rank: 1, squares: 257 }));
    assert!(matches!(
        Position::from_fen(&format!("{placement} w 1")),
        Err(ParseFenError::Syntax(FenError::WrongRankLength { rank: 1, squares: 257 }))
    ));
    // The input as the fuzzer found it.
    let found = format!(
        "3G3/1C1l1GC/1z1s3/ssmmmGM/cm1{}M{}\0\u{8}1E1/smgeSMM/1S1L3 ",
        "4".repeat(120),
        "p".repeat(55)
    );
    assert!(Position::from_fen(&found).is_err());
}
