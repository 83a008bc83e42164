//! The replay viewer: one self-contained HTML page that plays a recorded
//! game in a browser (docs/viewer.md).
//!
//! The page's code and style are assets of this module, included in the
//! binary; the replay's data ([`data`]) is embedded as JSON, its values
//! already read the way the debugger reads them ([`readings`]). Nothing is
//! fetched when the page is viewed: its content security policy allows no
//! request at all.

pub mod data;
pub mod readings;
pub mod standings;

pub use data::ViewError;

use crate::scenario::replay::Replay;

/// The page's skeleton: `{{TITLE}}`, `{{STYLE}}`, `{{DATA}}` and
/// `{{SCRIPT}}`, in this order, are filled in.
const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Text for inside an HTML element: `&`, `<` and `>` escaped.
pub fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The viewer page of a replay; `file` is the replay's path as the user
/// gave it (the page's "debug here" command names it).
pub fn page(replay: &Replay, file: &str) -> Result<String, ViewError> {
    let data = data::build(replay, file)?;
    // In JSON a `<` can only be inside a string, where `\u003c` means the
    // same: the script element cannot be closed early.
    let data = data.replace('<', "\\u003c");
    let title = html_text(&replay.name);
    let parts = [
        ("{{TITLE}}", title.as_str()),
        ("{{STYLE}}", STYLE),
        ("{{DATA}}", data.as_str()),
        ("{{SCRIPT}}", SCRIPT),
    ];
    // Each marker is looked for after the one before, so a value that
    // happens to hold a marker's text is never filled in itself.
    let mut out = String::with_capacity(TEMPLATE.len() + data.len() + SCRIPT.len());
    let mut rest = TEMPLATE;
    for (marker, value) in parts {
        let (before, after) = rest.split_once(marker).ok_or(ViewError::Template(marker))?;
        out.push_str(before);
        out.push_str(value);
        rest = after;
    }
    out.push_str(rest);
    Ok(out)
}
