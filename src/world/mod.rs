//! Botworld: robots, items, commands, actions, the step function, the grid,
//! games and rendering, exactly as the report defines them.
//!
//! * [`item`]: items, frames, processors, `construct` and `shatter`;
//! * [`robot`]: robots and `initialize`, `takeOutput`, `setInput`;
//! * [`command`] and [`action`]: what robots ask and what they get;
//! * [`observed`]: what robots see (their input), and the words for actions;
//! * [`decode`](mod@decode): reading the engine's values back, with typed errors;
//! * [`step`]: the step function of one square, phase by phase;
//! * [`update`](mod@update): the whole grid, one step;
//! * [`game`]: game configurations, `points`, `score`;
//! * [`render`]: the report's `visualize` and `scoreboard`;
//! * [`json`](mod@json): writing a world's JSON fast;
//! * [`canonical`]: reading it fast when it is in the form written.

pub mod action;
pub mod canonical;
pub mod command;
pub mod decode;
pub mod direction;
pub mod document;
pub mod game;
pub mod grid;
pub mod item;
pub mod json;
pub mod observed;
pub mod render;
pub mod robot;
#[cfg(test)]
mod samples;
pub mod step;
pub mod update;

pub use action::{Action, Indices};
pub use canonical::read_canonical;
pub use command::Command;
pub use direction::Direction;
pub use document::WorldDocument;
pub use game::GameConfig;
pub use grid::{Cell, Position, Shape, Square, World, WorldError};
pub use item::{Color, Frame, Item, Processor};
pub use observed::{Input, ObservedAction, ObservedRobot};
pub use robot::Robot;
pub use update::{STEP_BYTES_PER_CELL, StepReport, update, update_reported, update_with};

#[cfg(test)]
mod tests;
