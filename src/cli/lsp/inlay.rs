//! Inlay hints (`textDocument/inlayHint`): a register's number after each
//! place it is named (`@3`), and at the end of a line with a label or a
//! macro call, what running it costs: a label's block from the label to
//! its end, a call's (first) expansion (`3 ticks`; none for nothing).
//!
//! They come from the document's last check when it is of the text the
//! editor has (else there are none until the next one).

use super::text::{Cursor, Lines};
use super::{RequestError, Server};
use crate::asm::index::Detail;
use crate::asm::resolve::Opcode;
use lsp_types::{InlayHint, InlayHintKind, InlayHintLabel, InlayHintParams, Position};

impl Server {
    pub(super) fn inlay_hints(
        &self,
        params: InlayHintParams,
    ) -> Result<Option<Vec<InlayHint>>, RequestError> {
        let uri = &params.text_document.uri;
        let text = &self.document(uri)?.text;
        let Some((analysis, file)) = self.checked(uri) else {
            return Ok(Some(Vec::new()));
        };
        let lines = Lines::new(text);
        let from = lines.offset(params.range.start) as u32;
        let to = lines.offset(params.range.end) as u32;
        let index = &analysis.index;
        let occurrences = index.occurrences();
        let first = occurrences.partition_point(|o| (o.span.file, o.span.start) < (file, from));
        let mut hints = Vec::new();
        // Costs wait for the end of their line, in order.
        let mut costs: Vec<(usize, u64)> = Vec::new();
        for o in occurrences[first..]
            .iter()
            .take_while(|o| o.span.file == file && o.span.start <= to)
        {
            let end = o.span.end as usize;
            let line_end = text
                .get(end..)
                .and_then(|t| t.find('\n'))
                .map_or(text.len(), |i| end + i);
            match &index.symbols[o.symbol].detail {
                Detail::Register { number, .. } => {
                    hints.push((end, hint(format!("@{number}"), true)));
                }
                Detail::Label { instructions, .. } if o.definition => {
                    costs.push((line_end, *instructions as u64 * Opcode::TICKS));
                }
                Detail::Macro { .. } if !o.definition => {
                    if let Some(expanded) = index.expansion(o.span) {
                        costs.push((line_end, expanded.instructions as u64 * Opcode::TICKS));
                    }
                }
                _ => {}
            }
        }
        for (at, ticks) in costs.into_iter().filter(|(_, ticks)| *ticks > 0) {
            let s = if ticks == 1 { "" } else { "s" };
            hints.push((at, hint(format!("{ticks} tick{s}"), false)));
        }
        // Positions in order of their offsets, so that the cursor walks the
        // text once.
        hints.sort_by_key(|(at, _)| *at);
        let mut cursor = Cursor::new(text);
        Ok(Some(
            hints
                .into_iter()
                .map(|(at, mut hint)| {
                    hint.position = cursor.position(at);
                    hint
                })
                .collect(),
        ))
    }
}

/// A hint (placed later): a register's number (a type, as the protocol
/// names it) or a cost, after a space.
fn hint(label: String, register: bool) -> InlayHint {
    InlayHint {
        position: Position::default(),
        label: InlayHintLabel::String(label),
        kind: register.then_some(InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}
