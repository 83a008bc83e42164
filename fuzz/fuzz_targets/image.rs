//! The image loader on arbitrary bytes, in either form (JSON or binary):
//! an image or a clear error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((image, _)) = constree::image::format::from_bytes(data.to_vec()) {
        // What loads can be listed, disassembled and written back.
        let _ = constree::asm::listing::listing(&image);
        let _ = constree::asm::disasm::disassemble(&image);
        let _ = constree::image::format::to_json(&image);
        let _ = constree::image::binary::to_binary(&image);
    }
});
