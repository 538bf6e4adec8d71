//! SAN parsing and formatting in positions built from bytes (see `congo_fuzz::check_san`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    congo_fuzz::check_san(data);
});
