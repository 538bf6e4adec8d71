//! Perft anchors from docs/rules.md §10 (an independent Python implementation published 24 / 576 / 14,332).

use congo_core::{divide, perft, perft_full, Position};

#[test]
fn perft_from_the_start_position() {
    let start = Position::start();
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 24);
    assert_eq!(perft(&start, 2), 576);
    assert_eq!(perft(&start, 3), 14_332);
}

#[test]
fn bulk_counting_agrees_with_making_every_leaf() {
    let start = Position::start();
    assert_eq!(perft_full(&start, 3), perft(&start, 3));
    let monkey = Position::from_fen("7/4l2/7/4c2/7/2p4/1M1L3 w 1").unwrap();
    for depth in 1..=3 {
        assert_eq!(perft_full(&monkey, depth), perft(&monkey, depth));
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = Position::start();
    let split = divide(&start, 3);
    assert_eq!(split.len(), 24);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 14_332);
}
