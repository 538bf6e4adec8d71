//! The action encoding is one-to-one with the legal moves (docs/learning.md), over the whole perft
//! suite and thousands of positions from random games, in both directions:
//!
//! * every complete action sequence the masks allow plays a distinct legal move, and together they
//!   play every legal move (masks → moves);
//! * every legal move's action sequence is allowed by the masks step by step and plays exactly that
//!   move (moves → masks).
//!
//! And the left–right mirror commutes with move generation and execution.

use std::collections::HashSet;

use congo_core::learn::{
    flip_action, leg_of_action, mirror_action, mirror_files, Game, Perspective, NUM_ACTIONS, PLANE_SIZE, STOP,
};
use congo_core::{Move, Path, Position, Square};

fn suite_fens() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/suite.perft");
    let text = std::fs::read_to_string(path).expect("the perft suite");
    text.lines().filter_map(|l| l.strip_prefix("fen ")).map(str::to_owned).collect()
}

/// Positions along random games from each suite position (deterministic).
fn random_positions(starts: &[String], per_start: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = Vec::new();
    for fen in starts {
        let mut pos = Position::from_fen(fen).unwrap();
        for _ in 0..per_start {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::from_fen(fen).unwrap();
                continue;
            }
            pos = pos.play_unchecked(&moves[next(moves.len())]);
            out.push(pos);
        }
    }
    out
}

/// Every complete action sequence from `game`, with the move it plays.
fn enumerate(game: &Game, prefix: &mut Vec<usize>, found: &mut Vec<(Vec<usize>, Move, Position)>) {
    for action in game.legal_actions() {
        let mut next = game.clone();
        prefix.push(action);
        let done = next.apply(action).unwrap_or_else(|e| panic!("masked action {action} failed: {e}"));
        if done {
            let m = *next.moves_played().last().unwrap();
            found.push((prefix.clone(), m, *next.position()));
        } else {
            assert!(next.chain().is_some());
            enumerate(&next, prefix, found);
        }
        prefix.pop();
    }
}

fn check_one_to_one(pos: &Position, check_unmasked: bool) -> usize {
    let game = Game::new(*pos, 0);
    if game.is_over() {
        assert!(game.legal_actions().is_empty());
        return 0;
    }
    let legal = pos.legal_moves();
    let legal_paths: HashSet<Path> = legal.iter().map(|m| m.path).collect();
    assert_eq!(legal_paths.len(), legal.len(), "duplicate moves in {}", pos.fen());

    // Masks → moves.
    let mut found = Vec::new();
    enumerate(&game, &mut Vec::new(), &mut found);
    let found_paths: HashSet<Path> = found.iter().map(|(_, m, _)| m.path).collect();
    assert_eq!(found.len(), legal.len(), "{}: sequences and moves differ in number", pos.fen());
    assert_eq!(found_paths, legal_paths, "{}", pos.fen());
    for (_, m, after) in &found {
        assert_eq!(*after, pos.play_unchecked(m));
    }

    // Moves → masks.
    for m in &legal {
        let actions = game.actions_of(m).unwrap();
        let mut replay = game.clone();
        for (i, &a) in actions.iter().enumerate() {
            assert!(replay.legal_actions().contains(&a), "{}: {m} step {i}", pos.fen());
            let done = replay.apply(a).unwrap();
            assert_eq!(done, i + 1 == actions.len(), "{}: {m} step {i}", pos.fen());
        }
        assert_eq!(replay.moves_played(), &[*m]);
        assert!(found.iter().any(|(seq, fm, _)| fm == m && *seq == actions));
    }

    // Every action outside the mask is refused and changes nothing.
    if !check_unmasked {
        return legal.len();
    }
    let mask: HashSet<usize> = game.legal_actions().into_iter().collect();
    for a in (0..NUM_ACTIONS).filter(|a| !mask.contains(a)) {
        let mut g = game.clone();
        assert!(g.apply(a).is_err(), "{}: unmasked action {a} accepted", pos.fen());
        assert_eq!(g.plies(), 0);
        assert!(g.chain().is_none());
    }
    legal.len()
}

#[test]
fn actions_and_moves_correspond_over_the_perft_suite() {
    let fens = suite_fens();
    assert!(fens.len() >= 40);
    let mut moves = 0;
    for fen in &fens {
        moves += check_one_to_one(&Position::from_fen(fen).unwrap(), true);
    }
    assert!(moves > 500);
}

#[test]
fn actions_and_moves_correspond_over_random_positions() {
    let positions = random_positions(&suite_fens(), 150, 0x1234_5678_9abc_def1);
    assert!(positions.len() >= 5000, "{}", positions.len());
    let mut chains = 0;
    for (i, pos) in positions.iter().enumerate() {
        check_one_to_one(pos, i % 16 == 0);
        chains += pos.legal_moves().iter().filter(|m| m.path.is_chain()).count();
    }
    assert!(chains > 100, "too few monkey chains exercised: {chains}");
}

fn mirror_square(sq: Square) -> Square {
    Square::from_coords(6 - sq.file(), sq.rank()).unwrap()
}

fn mirror_path(path: &Path) -> Path {
    let squares: Vec<Square> = path.squares().map(mirror_square).collect();
    Path::from_squares(&squares).unwrap()
}

#[test]
fn the_mirror_commutes_with_the_rules() {
    let mut positions: Vec<Position> = suite_fens().iter().map(|f| Position::from_fen(f).unwrap()).collect();
    positions.extend(random_positions(&suite_fens(), 30, 99));
    for pos in &positions {
        let mirrored = mirror_files(pos);
        let moves: HashSet<Path> = pos.legal_moves().iter().map(|m| mirror_path(&m.path)).collect();
        let expected: HashSet<Path> = mirrored.legal_moves().iter().map(|m| m.path).collect();
        assert_eq!(moves, expected, "{}", pos.fen());
        for m in pos.legal_moves() {
            let after = pos.play_unchecked(&m);
            assert_eq!(mirror_files(&after), mirrored.play(&mirror_path(&m.path)).unwrap());
        }
        // The mask of the mirror is the mirror of the mask.
        let mask: HashSet<usize> =
            Game::new(*pos, 0).legal_actions().into_iter().map(mirror_action).collect();
        let mirrored_mask: HashSet<usize> = Game::new(mirrored, 0).legal_actions().into_iter().collect();
        assert_eq!(mask, mirrored_mask, "{}", pos.fen());
    }
}

#[test]
fn planes_mid_chain_show_the_board_as_it_stands() {
    let pos = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
    let mut game = Game::new(pos, 0);
    let first = game.actions_of_uci("b1d3").unwrap()[0];
    assert_eq!(leg_of_action(first).unwrap(), (Square::B1, Square::D3));
    game.apply(first).unwrap();
    let mut planes = vec![0u8; PLANE_SIZE];
    game.encode(Perspective::White, &mut planes);
    let at = |plane: usize, sq: Square| planes[plane * 49 + sq.index()];
    assert_eq!(at(2, Square::D3), 1); // the white monkey on d3
    assert_eq!(at(2, Square::B1), 0);
    assert_eq!(at(8, Square::C2), 0); // the jumped black pawn is gone
    assert_eq!(at(21, Square::D3), 1);
    assert_eq!(at(22, Square::B1), 1);
    assert_eq!(at(16, Square::A1), 1); // still White to act
                                       // Stopping gives the planes of the position after b1d3.
    game.apply(STOP).unwrap();
    let mut after = vec![0u8; PLANE_SIZE];
    congo_core::learn::encode(&pos.play(&congo_core::parse_move("b1d3").unwrap()).unwrap(), 0, &mut after);
    game.encode(Perspective::White, &mut planes);
    assert_eq!(planes, after);
}

#[test]
fn the_side_to_move_perspective_is_the_colour_mirror() {
    // Black to move seen from its own side is White to move in the colour-mirrored position: the
    // same planes (but the side-to-move plane, which keeps the real colour) and the same mask, with
    // actions read through `flip_action`, mid-chain too.
    let mut positions: Vec<Position> = suite_fens().iter().map(|f| Position::from_fen(f).unwrap()).collect();
    positions.extend(random_positions(&suite_fens(), 20, 5));
    let mut chains = 0;
    for pos in positions.iter().filter(|p| p.turn() == congo_core::Color::Black) {
        let mut games = vec![(Game::new(*pos, 0), Game::new(pos.mirrored(), 0))];
        // Follow the first jump of a chain, if any, in both games.
        if let Some(a) = games[0].0.legal_actions().into_iter().find(|&a| {
            let mut g = games[0].0.clone();
            g.apply(a) == Ok(false)
        }) {
            let (mut black, mut white) = games[0].clone();
            black.apply(a).unwrap();
            white.apply(flip_action(a)).unwrap();
            games.push((black, white));
            chains += 1;
        }
        for (black, white) in &games {
            let (mut seen, mut expected) = (vec![0; PLANE_SIZE], vec![0; PLANE_SIZE]);
            black.encode(Perspective::SideToMove, &mut seen);
            white.encode(Perspective::White, &mut expected);
            expected[16 * 49..17 * 49].fill(0);
            assert_eq!(seen, expected, "{}", pos.fen());
            let (mut mask, mut white_mask) = (vec![0; NUM_ACTIONS], vec![0; NUM_ACTIONS]);
            black.action_mask_from(Perspective::SideToMove, &mut mask);
            white.action_mask(&mut white_mask);
            assert_eq!(mask, white_mask, "{}", pos.fen());
        }
    }
    assert!(chains > 0);
}
