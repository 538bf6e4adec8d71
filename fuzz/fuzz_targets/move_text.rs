//! The move parser, and move strings and SAN read in a few positions (see `congo_fuzz::check_move_text`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    congo_fuzz::check_move_text(&String::from_utf8_lossy(data));
});
