//! constree: a toolchain for Botworld robot programs.
//!
//! The engine is layered as in the report: [`tree`] (cons-trees) <-
//! [`encoding`] (the Encodable/Decodable classes) <- [`machine`] (the register
//! machine) <- [`world`] (robots, items, the step function, games, rendering).
//!
//! The command line, `cli`, is built with the `cli` feature (a default):
//! without it the library has none of the command line's crates.
//! `tests/layering.rs` checks both rules, and docs/architecture.md draws
//! the layers.

pub mod asm;
#[cfg(feature = "cli")]
pub mod cli;
pub mod conformance;
pub mod debugger;
pub mod diagnostic;
pub mod encoding;
pub mod files;
pub mod image;
pub mod limits;
pub mod machine;
pub mod scenario;
pub mod tree;
pub mod viewer;
pub mod words;
pub mod world;
