//! Move generation and execution along games from positions built from bytes: counts, legality,
//! incremental hashing, FEN round trips (see `congo_fuzz::check_play`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    congo_fuzz::check_play(data);
});
