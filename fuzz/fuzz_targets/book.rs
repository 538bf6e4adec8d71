//! Opening book files from any bytes (see `congo_fuzz::check_book`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    congo_fuzz::check_book(data);
});
