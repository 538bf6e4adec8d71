//! One named test per rule of docs/rules.md, each on a small hand-made position whose answer was derived by
//! hand from the rules text. The section numbers are those of docs/rules.md.

use congo_core::{parse_move, perft, Color, ParseFenError, Position, PositionError, Square, Termination};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The sorted move strings of the piece on `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let from = Square::parse(from).unwrap();
    let mut out = Vec::new();
    pos(fen).for_each_move_from(from, &mut |m| out.push(m.uci()));
    out.sort();
    out
}

fn sorted(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}

fn play(fen: &str, mv: &str) -> String {
    pos(fen).play(&parse_move(mv).unwrap()).unwrap_or_else(|e| panic!("{fen} {mv}: {e}")).fen()
}

fn is_legal(fen: &str, mv: &str) -> bool {
    pos(fen).is_legal(&parse_move(mv).unwrap())
}

// §2 Start position and §10 anchors ------------------------------------------------------------------

#[test]
fn start_position_has_24_moves() {
    let mut moves: Vec<String> = Position::start().legal_moves().iter().map(congo_core::Move::uci).collect();
    moves.sort();
    let pawns =
        "a2a3 a2b3 b2a3 b2b3 b2c3 c2b3 c2c3 c2d3 d2c3 d2d3 d2e3 e2d3 e2e3 e2f3 f2e3 f2f3 f2g3 g2f3 g2g3";
    let expected = sorted(&format!("{pawns} a1a3 a1c3 c1c3 e1e3 g1f3"));
    assert_eq!(moves, expected);
}

#[test]
fn start_position_perft_anchors() {
    let start = Position::start();
    assert_eq!([1, 2, 3].map(|d| perft(&start, d)), [24, 576, 14_332]);
}

// §3 No check --------------------------------------------------------------------------------------

#[test]
fn lion_may_step_onto_an_attacked_square() {
    // The black zebra on b5 attacks c3; the white lion may still step there.
    assert!(is_legal("4l2/7/1z5/7/7/3L3/7 w 1", "d2c3"));
}

// §4 Lion -------------------------------------------------------------------------------------------

#[test]
fn lion_steps_only_inside_its_castle() {
    assert_eq!(moves_from("2l4/7/7/7/7/3L3/7 w 1", "d2"), sorted("d2c1 d2c2 d2c3 d2d1 d2d3 d2e1 d2e2 d2e3"));
    assert_eq!(moves_from("4l2/7/7/7/7/7/2L4 w 1", "c1"), sorted("c1c2 c1d1 c1d2"));
}

#[test]
fn lion_facing_capture_on_the_file() {
    assert_eq!(moves_from("3l3/7/7/7/7/7/3L3 w 1", "d1"), sorted("d1c1 d1c2 d1d2 d1e1 d1e2 d1d7"));
    assert!(is_legal("3l3/7/7/7/7/7/3L3 b 1", "d7d1"), "either side may capture when the lions face");
}

#[test]
fn lion_facing_capture_is_blocked_by_any_piece() {
    assert!(!is_legal("3l3/7/7/3p3/7/7/3L3 w 1", "d1d7"));
    assert!(!is_legal("3l3/7/7/3P3/7/7/3L3 w 1", "d1d7"));
}

#[test]
fn lion_facing_capture_on_the_c3_e5_diagonal() {
    assert!(is_legal("7/7/4l2/7/2L4/7/7 w 1", "c3e5"));
    assert!(is_legal("7/7/4l2/7/2L4/7/7 b 1", "e5c3"));
}

#[test]
fn lion_facing_capture_on_the_e3_c5_diagonal() {
    assert!(is_legal("7/7/2l4/7/4L2/7/7 w 1", "e3c5"));
    assert!(!is_legal("7/7/2l4/3p3/4L2/7/7 w 1", "e3c5"));
}

#[test]
fn lion_never_flies_to_an_empty_square() {
    let moves = moves_from("3l3/7/7/7/7/7/3L3 w 1", "d1");
    for far in ["d1d3", "d1d4", "d1d5", "d1d6"] {
        assert!(!moves.contains(&far.to_owned()));
    }
}

// §4 Zebra, elephant, giraffe ------------------------------------------------------------------------

#[test]
fn zebra_leaps_like_a_knight_over_pieces() {
    assert_eq!(moves_from("4l2/7/7/7/1P5/PZP4/4L2 w 1", "b2"), sorted("b2a4 b2c4 b2d1 b2d3"));
    assert_eq!(moves_from("4l2/7/7/7/3p3/1Z5/4L2 w 1", "b2"), sorted("b2a4 b2c4 b2d1 b2d3"));
}

#[test]
fn elephant_leaps_one_or_two_squares_orthogonally() {
    // a2 (own) blocks the one-step but not the leap to a3; c1 (enemy) is captured at distance two.
    assert_eq!(moves_from("4l2/7/7/7/7/P6/E1e1L2 w 1", "a1"), sorted("a1a3 a1b1 a1c1"));
}

#[test]
fn giraffe_step_cannot_capture_but_its_leap_can() {
    // d4 (enemy, adjacent) cannot be taken by a step; e5 (enemy, two away) is taken by the leap over d4.
    assert_eq!(
        moves_from("2l4/7/4p2/3p3/2G4/7/4L2 w 1", "c3"),
        sorted("c3b2 c3b3 c3b4 c3c2 c3c4 c3d2 c3d3 c3a1 c3c1 c3a3 c3e3 c3a5 c3c5 c3e5")
    );
}

// §4 Crocodile --------------------------------------------------------------------------------------

#[test]
fn crocodile_slides_toward_the_river_and_stops_on_it() {
    assert_eq!(moves_from("4l2/7/7/7/7/7/C3L2 w 1", "a1"), sorted("a1a2 a1a3 a1a4 a1b1 a1b2"));
}

#[test]
fn crocodile_slides_toward_the_river_from_the_far_side() {
    assert_eq!(moves_from("C3l2/7/7/7/7/7/4L2 w 1", "a7"), sorted("a7a4 a7a5 a7a6 a7b6 a7b7"));
}

#[test]
fn crocodile_slide_stops_at_the_first_piece() {
    assert_eq!(moves_from("4l2/7/7/7/p6/7/C3L2 w 1", "a1"), sorted("a1a2 a1a3 a1b1 a1b2"));
    assert_eq!(moves_from("4l2/7/7/7/P6/7/C3L2 w 1", "a1"), sorted("a1a2 a1b1 a1b2"));
}

#[test]
fn crocodile_captures_on_the_river_square() {
    assert_eq!(moves_from("4l2/7/7/p6/7/7/C3L2 w 1", "a1"), sorted("a1a2 a1a3 a1a4 a1b1 a1b2"));
    assert_eq!(moves_from("4l2/7/7/P6/7/7/C3L2 w 1", "a1"), sorted("a1a2 a1a3 a1b1 a1b2"));
}

#[test]
fn crocodile_never_slides_away_from_the_river() {
    // From d2 the slide goes north only; d1 is a king step, nothing lies beyond it southwards anyway.
    assert_eq!(
        moves_from("4l2/7/7/7/4L2/3C3/7 w 1", "d2"),
        sorted("d2c1 d2c2 d2c3 d2d1 d2d3 d2d4 d2e1 d2e2")
    );
    // From b6 on the far side, never north beyond the king step.
    assert_eq!(
        moves_from("4l2/1C5/7/7/7/7/4L2 w 1", "b6"),
        sorted("b6a5 b6a6 b6a7 b6b4 b6b5 b6b7 b6c5 b6c6 b6c7")
    );
}

#[test]
fn crocodile_in_the_river_slides_along_it_only() {
    assert_eq!(
        moves_from("3l3/7/7/1P1C1p1/7/7/3L3 w 1", "d4"),
        sorted("d4c3 d4c4 d4c5 d4d3 d4d5 d4e3 d4e4 d4e5 d4f4")
    );
}

#[test]
fn crocodile_never_drowns() {
    assert_eq!(play("3l3/7/7/3C3/7/7/3L3 w 1", "d4f4"), "3l3/7/7/5C1/7/7/3L3 b 1");
    assert_eq!(play("3l3/7/7/3C3/7/7/3L3 w 1", "d4d5"), "3l3/7/3C3/7/7/7/3L3 b 1");
}

// §4 Monkey steps --------------------------------------------------------------------------------------

#[test]
fn monkey_step_cannot_capture() {
    // b2 is an enemy: no step onto it, and no jump because c3 beyond it is occupied.
    assert_eq!(moves_from("4l2/7/7/7/2P4/1p5/M3L2 w 1", "a1"), sorted("a1a2 a1b1"));
}

// §4 Pawn ------------------------------------------------------------------------------------------------

#[test]
fn pawn_moves_and_captures_straight_and_diagonally_forward() {
    assert_eq!(moves_from("4l2/7/7/7/2ppP2/3P3/4L2 w 1", "d2"), sorted("d2c3 d2d3"));
}

#[test]
fn pawn_retreats_one_or_two_only_across_the_river() {
    assert_eq!(moves_from("4l2/7/2P4/7/7/7/4L2 w 1", "c5"), sorted("c5b6 c5c6 c5d6 c5c4 c5c3"));
    assert_eq!(moves_from("4l2/7/7/7/2p4/7/2L4 b 1", "c3"), sorted("c3b2 c3c2 c3d2 c3c4 c3c5"));
}

#[test]
fn pawn_never_retreats_from_the_river_or_its_own_side() {
    assert_eq!(moves_from("4l2/7/7/2P4/7/7/4L2 w 1", "c4"), sorted("c4b5 c4c5 c4d5"));
    assert_eq!(moves_from("4l2/7/7/7/2P4/7/4L2 w 1", "c3"), sorted("c3b4 c3c4 c3d4"));
}

#[test]
fn pawn_retreat_never_jumps_or_captures() {
    assert_eq!(moves_from("4l2/7/2P4/2p4/7/7/4L2 w 1", "c5"), sorted("c5b6 c5c6 c5d6"));
    assert_eq!(moves_from("4l2/7/2P4/7/2P4/7/4L2 w 1", "c5"), sorted("c5b6 c5c6 c5d6 c5c4"));
    assert_eq!(moves_from("4l2/7/2P4/7/2p4/7/4L2 w 1", "c5"), sorted("c5b6 c5c6 c5d6 c5c4"));
}

// §4 Superpawn ------------------------------------------------------------------------------------------

#[test]
fn superpawn_moves_sideways_and_retreats_anywhere() {
    assert_eq!(
        moves_from("4l2/7/7/2S4/7/7/4L2 w 1", "c4"),
        sorted("c4b5 c4c5 c4d5 c4b4 c4d4 c4b3 c4c3 c4d3 c4a2 c4c2 c4e2")
    );
}

#[test]
fn superpawn_captures_sideways_but_retreats_without_capturing_or_jumping() {
    assert_eq!(moves_from("4l2/7/7/2Sp3/1Pp4/7/4L2 w 1", "c4"), sorted("c4b5 c4c5 c4d5 c4b4 c4d4 c4d3 c4e2"));
}

#[test]
fn black_superpawn_retreats_northwards() {
    assert_eq!(
        moves_from("2l4/7/7/7/3s3/7/4L2 b 1", "d3"),
        sorted("d3c2 d3d2 d3e2 d3c3 d3e3 d3c4 d3d4 d3e4 d3b5 d3d5 d3f5")
    );
}

// §4 Promotion -------------------------------------------------------------------------------------------

#[test]
fn pawn_promotes_on_the_far_rank() {
    assert_eq!(play("4l2/1P5/7/7/7/7/4L2 w 1", "b6b7"), "1S2l2/7/7/7/7/7/4L2 b 1");
}

#[test]
fn pawn_promotes_by_capture() {
    assert_eq!(play("z3l2/1P5/7/7/7/7/4L2 w 1", "b6a7"), "S3l2/7/7/7/7/7/4L2 b 1");
}

#[test]
fn black_pawn_promotes_on_rank_1() {
    assert_eq!(play("4l2/7/7/7/7/1p5/4L2 b 5", "b2b1"), "4l2/7/7/7/7/7/1s2L2 w 6");
}

// §5 Monkey jump chains ----------------------------------------------------------------------------------

#[test]
fn monkey_anchor_chain_ends_by_jumping_the_lion() {
    assert_eq!(
        moves_from("7/4l2/7/4c2/7/2p4/1M1L3 w 1", "b1"),
        sorted("b1a1 b1a2 b1b2 b1c1 b1d3 b1d3f5 b1d3f5d7")
    );
}

#[test]
fn monkey_lion_jump_ends_the_chain() {
    // A black pawn on c6 could be jumped from d7 to b5, but the chain ended on the lion jump.
    let moves = moves_from("7/2p1l2/7/4c2/7/2p4/1M1L3 w 1", "b1");
    assert!(moves.contains(&"b1d3f5d7".to_owned()));
    assert!(!moves.iter().any(|m| m.starts_with("b1d3f5d7") && m.len() > 8));
}

#[test]
fn monkey_every_prefix_of_a_chain_is_a_move() {
    let moves = moves_from("7/4l2/7/4c2/7/2p4/1M1L3 w 1", "b1");
    for prefix in ["b1d3", "b1d3f5", "b1d3f5d7"] {
        assert!(moves.contains(&prefix.to_owned()));
    }
}

#[test]
fn monkey_chain_may_loop_back_to_its_start_square() {
    // Enemies on a2, b1 (a superpawn: a pawn may not stand there), b2 around the monkey on a1: two loops capture all three and end on a1.
    let fen = "7/4l2/7/7/7/pp2L2/Ms5 w 1";
    assert_eq!(moves_from(fen, "a1"), sorted("a1a3 a1a3c1 a1a3c1a1 a1c1 a1c1a3 a1c1a3a1 a1c3"));
    assert_eq!(play(fen, "a1c1a3a1"), "7/4l2/7/7/7/4L2/M6 b 1");
}

#[test]
fn monkey_two_paths_are_two_moves() {
    let fen = "7/4l2/7/7/7/pp2L2/Ms5 w 1";
    let a = parse_move("a1c1a3a1").unwrap();
    let b = parse_move("a1a3c1a1").unwrap();
    assert_ne!(a, b);
    let p = pos(fen);
    assert!(p.is_legal(&a) && p.is_legal(&b));
    assert_eq!(p.play(&a).unwrap(), p.play(&b).unwrap(), "same captures, same landing square");
}

#[test]
fn monkey_jumps_each_enemy_at_most_once() {
    // CSU ByteMechanics: b3-d5-b5 is legal, jumping c4 again for b5-d3-f3 is not.
    let fen = "g2l1cz/ppppppp/2m4/2e4/1M2e2/PPPPPPP/G1ELECZ w 1";
    assert!(is_legal(fen, "b3d5b5"));
    assert!(!is_legal(fen, "b3d5b5d3f3"));
}

#[test]
fn monkey_cannot_jump_friends_or_empty_squares() {
    // b1's neighbours: a1 empty, a2 empty, b2 empty, c1 empty, c2 a friendly pawn (no jump to d3).
    assert_eq!(moves_from("7/4l2/7/7/7/2P4/1M1L3 w 1", "b1"), sorted("b1a1 b1a2 b1b2 b1c1"));
}

#[test]
fn monkey_jumps_pieces_in_the_river_and_lands_in_it() {
    assert!(is_legal("4l2/7/7/7/2p4/1M5/4L2 w 1", "b2d4"));
    assert!(is_legal("4l2/7/7/2p4/1M5/7/4L2 w 1", "b3d5"));
}

#[test]
fn monkey_chain_changes_direction_freely() {
    // b1 -> d3 (north-east) -> d5 (north) over pawns c2 and d4.
    assert!(is_legal("4l2/7/7/3p3/7/2p4/1M2L2 w 1", "b1d3d5"));
}

#[test]
fn monkey_jumped_pieces_are_all_removed() {
    assert_eq!(play("4l2/7/7/3p3/7/2p4/1M2L2 w 1", "b1d3d5"), "4l2/7/3M3/7/7/7/4L2 b 1");
}

// §6 River and drowning ------------------------------------------------------------------------------------

#[test]
fn piece_entering_the_river_survives_its_first_turn() {
    assert_eq!(play("4l2/7/7/7/2P4/7/4L2 w 1", "c3c4"), "4l2/7/7/2P4/7/7/4L2 b 1");
}

#[test]
fn piece_still_in_the_river_after_its_next_move_drowns() {
    // The white pawn entered c4 last turn; White moves something else and the pawn drowns.
    assert_eq!(play("4l2/7/7/2P4/7/7/4L2 w 1", "e1e2"), "4l2/7/7/7/7/4L2/7 b 1");
}

#[test]
fn moving_within_the_river_drowns() {
    assert_eq!(play("4l2/7/7/2S4/7/7/4L2 w 1", "c4d4"), "4l2/7/7/7/7/7/4L2 b 1");
}

#[test]
fn wits_drowning_anchor_elephant_left_in_the_river() {
    let fen = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35";
    assert_eq!(play(fen, "f5f7"), "1z3e1/pPp1lP1/6p/4P2/4L1p/2p2pP/7 w 36");
}

#[test]
fn capture_by_a_piece_that_then_drowns_stands() {
    let fen = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35";
    assert_eq!(play(fen, "g4e4"), "1z5/pPp1lP1/5ep/7/4L1p/2p2pP/7 w 36");
}

#[test]
fn only_the_movers_pieces_drown() {
    // A white pawn and a black pawn both sit in the river; Black moves elsewhere: only Black's drowns.
    assert_eq!(play("4l2/7/7/P5p/7/7/4L2 b 1", "e7e6"), "7/4l2/7/P6/7/7/4L2 w 2");
}

#[test]
fn several_pieces_drown_on_one_move() {
    assert_eq!(play("4l2/7/7/p2z2e/7/7/4L2 b 1", "e7e6"), "7/4l2/7/7/7/7/4L2 w 2");
}

#[test]
fn monkey_out_and_back_drowns_a1() {
    assert_eq!(play("3l3/7/7/2M4/2pp3/7/4L2 w 10", "c4c2e4"), "3l3/7/7/7/7/7/4L2 b 10");
}

#[test]
fn monkey_leaving_the_river_by_a_jump_survives() {
    assert_eq!(play("3l3/7/7/2M4/2pp3/7/4L2 w 10", "c4c2"), "3l3/7/7/7/3p3/2M4/4L2 b 10");
}

#[test]
fn monkey_chain_within_the_river_drowns_csu() {
    let fen = "g1elecz/ppppppp/7/1mP1P2/7/PP1P1PP/GMELECZ b 1";
    assert_eq!(play(fen, "b4d4f4"), "g1elecz/ppppppp/7/7/7/PP1P1PP/GMELECZ w 2");
}

#[test]
fn drowning_applies_on_the_lion_capturing_move() {
    let after = pos("3l3/7/7/P6/7/7/3L3 w 1").play(&parse_move("d1d7").unwrap()).unwrap();
    assert_eq!(after.fen(), "3L3/7/7/7/7/7/7 b 1");
    let outcome = after.outcome().unwrap();
    assert_eq!((outcome.termination, outcome.winner), (Termination::LionCaptured, Some(Color::White)));
}

// §7 Executing a move ----------------------------------------------------------------------------------------

#[test]
fn fullmove_number_grows_after_blacks_move() {
    assert_eq!(play("4l2/7/7/7/7/7/4L2 w 7", "e1e2"), "4l2/7/7/7/7/4L2/7 b 7");
    assert_eq!(play("4l2/7/7/7/7/7/4L2 b 7", "e7e6"), "7/4l2/7/7/7/7/4L2 w 8");
}

// §8 End of game ------------------------------------------------------------------------------------------------

// "No legal move loses" (§8) needs a box of more pieces than §9 allows (decision A21); it is
// tested on an unchecked setup in `outcome.rs`.

#[test]
fn bare_lions_draw() {
    let outcome = pos("3l3/7/7/7/7/7/2L4 w 1").outcome().unwrap();
    assert_eq!((outcome.termination, outcome.winner), (Termination::BareLions, None));
}

#[test]
fn bare_lions_facing_is_not_a_draw() {
    assert_eq!(pos("3l3/7/7/7/7/7/3L3 w 1").outcome(), None);
}

#[test]
fn decided_position_has_no_moves() {
    let p = pos("3L3/7/7/7/7/7/7 b 1");
    assert_eq!(p.legal_moves().len(), 0);
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(perft(&p, 3), 0);
    let outcome = p.outcome().unwrap();
    assert_eq!((outcome.termination, outcome.winner), (Termination::LionCaptured, Some(Color::White)));
}

// §9 Notation ------------------------------------------------------------------------------------------------------

#[test]
fn fen_round_trips_with_three_fields() {
    for fen in ["gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1", "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35"] {
        assert_eq!(pos(fen).fen(), fen);
    }
}

#[test]
fn fen_accepts_missing_counter_upper_case_side_and_counter_zero() {
    assert_eq!(
        pos("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ").fen(),
        "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1"
    );
    assert_eq!(
        pos("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ B 0").fen(),
        "gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b 0"
    );
}

fn position_error(fen: &str) -> PositionError {
    match Position::from_fen(fen) {
        Err(ParseFenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn fen_rejects_two_lions_of_one_colour() {
    assert_eq!(
        position_error("2ll3/7/7/7/7/7/3L3 w 1"),
        PositionError::TooManyLions { color: Color::Black, count: 2 }
    );
}

#[test]
fn fen_rejects_a_board_without_lions() {
    assert_eq!(position_error("7/7/7/7/7/7/7 w 1"), PositionError::NoLions);
}

#[test]
fn fen_rejects_a_lion_outside_its_castle_while_both_are_on_the_board() {
    assert_eq!(
        position_error("3l3/7/7/7/7/7/L6 w 1"),
        PositionError::LionOutsideCastle { color: Color::White, square: Square::A1 }
    );
}

#[test]
fn fen_accepts_a_lone_lion_anywhere() {
    assert!(Position::from_fen("3L3/7/7/7/7/7/7 b 1").is_ok());
}

#[test]
fn fen_rejects_more_than_fourteen_pieces_of_a_colour() {
    // docs/rules.md §9, decision A21: at most 14 pieces of each colour, the lion included.
    assert_eq!(
        position_error("3l3/eeeeeee/1e1e1e1/eeeeeee/1e1e1e1/eeeeeee/Me1L1e1 w 1"),
        PositionError::TooManyPieces { color: Color::Black, count: 30 }
    );
    assert_eq!(
        position_error("gmelecz/ppppppp/7/7/P6/PPPPPPP/GMELECZ w 1"),
        PositionError::TooManyPieces { color: Color::White, count: 15 }
    );
    assert!(Position::from_fen("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1").is_ok());
    let message = Position::from_fen("gmelecz/ppppppp/p6/7/7/PPPPPPP/GMELECZ w 1").unwrap_err().to_string();
    assert_eq!(message, "black has 15 pieces (at most 14 of each colour, its lion included)");
}

#[test]
fn fen_rejects_a_pawn_on_its_far_rank() {
    assert_eq!(
        position_error("P2l3/7/7/7/7/7/3L3 w 1"),
        PositionError::PawnOnFarRank { color: Color::White, square: Square::A7 }
    );
    assert_eq!(
        position_error("3l3/7/7/7/7/7/p2L3 w 1"),
        PositionError::PawnOnFarRank { color: Color::Black, square: Square::A1 }
    );
}

#[test]
fn fen_syntax_errors_name_the_problem() {
    let message = |fen: &str| Position::from_fen(fen).unwrap_err().to_string();
    assert_eq!(message("gmelecz/ppppppp/7/7/7/PPPPPPP w 1"), "expected 7 ranks separated by '/', found 6");
    assert_eq!(
        message("gmelecz/pppppppp/7/7/7/PPPPPPP/GMELECZ w 1"),
        "rank 6 describes 8 squares, expected 7"
    );
    assert_eq!(
        message("gmelecz/ppppppp/6/7/7/PPPPPPP/GMELECZ w 1"),
        "rank 5 describes 6 squares, expected 7"
    );
    assert!(
        message("gmelecq/ppppppp/7/7/7/PPPPPPP/GMELECZ w 1").starts_with("invalid character 'q' in rank 7")
    );
    assert!(message("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ x 1").starts_with("invalid side to move \"x\""));
    assert!(message("gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w -1").starts_with("invalid move number \"-1\""));
    assert!(message("").starts_with("empty"));
}

#[test]
fn move_strings_accept_mindsports_and_comma_forms() {
    for text in ["b1d3f5", "b1-d3-f5", "b1xd3xf5", "b1-d3-f5x", "b1d3,d3f5"] {
        assert_eq!(parse_move(text).unwrap().uci(), "b1d3f5", "{text}");
    }
}

#[test]
fn captures_are_told_by_the_move_or_its_target() {
    let p = pos("7/4l2/7/4c2/7/2p4/1M1L3 w 1");
    assert!(p.is_capture(&parse_move("b1d3").unwrap()), "a monkey jump captures");
    assert!(!p.is_capture(&parse_move("b1b2").unwrap()));
    assert!(p.is_capture(&parse_move("d1c2").unwrap()), "the lion takes the pawn");
    assert!(
        p.is_capture(&parse_move("b1c2").unwrap()),
        "not legal (a monkey step), but an enemy stands on c2"
    );
}

#[test]
fn a_move_is_found_by_its_from_and_to_squares() {
    let p = pos("7/4l2/7/4c2/7/2p4/1M1L3 w 1");
    let found = |from: &str, to: &str| {
        p.find_move_between(Square::parse(from).unwrap(), Square::parse(to).unwrap()).map(|m| m.uci())
    };
    assert_eq!(found("b1", "b2").as_deref(), Some("b1b2"));
    assert_eq!(found("b1", "f5").as_deref(), Some("b1d3f5"));
    assert_eq!(found("b1", "d7").as_deref(), Some("b1d3f5d7"));
    assert_eq!(found("b1", "g7"), None);
    assert_eq!(found("c2", "c1"), None); // not the side to move's piece
}
