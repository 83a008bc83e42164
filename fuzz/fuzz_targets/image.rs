//! The image loader on arbitrary bytes: an image or a clear error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(image) = constree::image::format::from_json(text)
    {
        // What loads can be listed, disassembled and written back.
        let _ = constree::asm::listing::listing(&image);
        let _ = constree::asm::disasm::disassemble(&image);
        let _ = constree::image::format::to_json(&image);
    }
});
