//! Eight threads playing and searching at once, from the start and from the hardest valid
//! positions, do not grow the heap.
//!
//! A test binary of its own, so that no other test allocates while it counts. What it counts is the
//! live bytes of a counting global allocator (`stats_alloc`), not the process's resident size, which
//! thread stacks and the allocator's arenas move by megabytes on a busy machine (it failed so under
//! load, with no leak).

use std::alloc::System;
use std::thread;

use congo_core::search::Engine;
use congo_core::Position;
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};

mod worst;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes allocated and not yet freed, in the whole process (`stats_alloc` adds what a `realloc`
/// grows to `bytes_allocated` and what it shrinks to `bytes_deallocated`).
fn live_bytes() -> i128 {
    let stats = GLOBAL.stats();
    stats.bytes_allocated as i128 - stats.bytes_deallocated as i128
}

#[test]
fn eight_threads_play_and_search_without_growing() {
    let mut starts = vec![Position::start()];
    starts.extend(worst::suite().into_iter().map(|case| case.pos));
    let mut engines: Vec<Engine> = (0..8).map(|i| Engine::new(1 + i % 2, 1).unwrap()).collect();
    let mut live = Vec::new();
    for round in 0..6u64 {
        thread::scope(|scope| {
            for (i, engine) in engines.iter_mut().enumerate() {
                let starts = &starts;
                scope.spawn(move || worst::play(round * 100 + i as u64, engine, starts));
            }
        });
        live.push(live_bytes());
    }
    // Every round's threads have ended: what is still allocated is the engines (their tables were
    // allocated before the first round) and anything leaked. A leak of one position per search
    // would add tens of kilobytes a round.
    let growth = live[5] - live[0];
    assert!(growth < 64 << 10, "the heap grew by {growth} bytes over five rounds: {live:?}");
}
