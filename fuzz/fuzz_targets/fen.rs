//! The FEN parser on any text (see `congo_fuzz::check_fen`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    congo_fuzz::check_fen(&String::from_utf8_lossy(data));
});
