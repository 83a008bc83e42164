//! The grid of cells (Appendix "Grid Manipulation").
//!
//! The report's grid is a flat list of cells in row-major order that wraps
//! around both edges (pacman style). The report allows other grids; constree
//! also offers *bounded* grids, where every neighbour past an edge is a wall.

use super::{Direction, Item, Robot};
use serde::{Deserialize, Serialize};

/// A cell: a square, or `None` for a wall.
pub type Cell = Option<Square>;

/// `(x, y)`: column and row; `y` grows southwards.
pub type Position = (i64, i64);

/// A square: the robots in it and the items lying on it, in order (robots
/// and items are addressed by their index in these lists).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Square {
    /// The robots, in order.
    pub robots: Vec<Robot>,
    /// The items, in order.
    pub items: Vec<Item>,
}

/// The shape of a grid: its dimensions and whether its edges wrap.
///
/// Built only by [`Shape::new`], so both dimensions are positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    dims: (i64, i64),
    wrap: bool,
}

impl Shape {
    /// A grid of `x` columns and `y` rows; `wrap` chooses a wrapping grid
    /// (the report's) or a bounded one.
    pub fn new((x, y): (i64, i64), wrap: bool) -> Result<Shape, WorldError> {
        if x <= 0 || y <= 0 {
            return Err(WorldError::BadDimensions(x, y));
        }
        if (x as u128 * y as u128) > usize::MAX as u128 / 2 {
            return Err(WorldError::TooLarge(x, y));
        }
        Ok(Shape { dims: (x, y), wrap })
    }

    /// `(x, y)`: columns and rows.
    pub fn dims(&self) -> (i64, i64) {
        self.dims
    }

    /// Whether the edges wrap around (the report's grid) or are walls.
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// `x * y`.
    pub fn cell_count(&self) -> usize {
        (self.dims.0 * self.dims.1) as usize
    }

    /// The report's `locate`: the index of a position, wrapping both ways.
    pub fn locate(&self, (i, j): Position) -> usize {
        let (x, y) = self.dims;
        (j.rem_euclid(y) * x + i.rem_euclid(x)) as usize
    }

    /// The position of the cell at an index.
    pub fn position(&self, index: usize) -> Position {
        let x = self.dims.0;
        (index as i64 % x, index as i64 / x)
    }

    /// Whether a position lies on the grid without wrapping.
    pub fn contains(&self, (i, j): Position) -> bool {
        (0..self.dims.0).contains(&i) && (0..self.dims.1).contains(&j)
    }

    /// The index of the neighbour of a cell in a direction, or `None` when
    /// the grid is bounded and the neighbour lies past the edge (a wall).
    ///
    /// In a wrapping grid one cell wide (or tall), a cell is its own east and
    /// west (north and south) neighbour, as in the report.
    pub fn neighbour(&self, index: usize, d: Direction) -> Option<usize> {
        self.neighbours(index)[d.index()]
    }

    /// The indices of all eight neighbours of a cell, `N .. NW`.
    pub fn neighbours(&self, index: usize) -> [Option<usize>; 8] {
        let (x, y) = self.dims;
        let (i, j) = self.position(index);
        // One step never goes further than one lap around, so wrapping is a
        // single addition or subtraction.
        let wrap = |v: i64, size: i64| {
            if v < 0 {
                self.wrap.then_some(v + size)
            } else if v >= size {
                self.wrap.then_some(v - size)
            } else {
                Some(v)
            }
        };
        // The three columns and rows a neighbour can be in, each computed
        // once (`dx + 1` and `dy + 1` index them).
        let columns = [wrap(i - 1, x), Some(i), wrap(i + 1, x)];
        let rows = [wrap(j - 1, y), Some(j), wrap(j + 1, y)];
        let mut neighbours = [None; 8];
        for (neighbour, d) in neighbours.iter_mut().zip(Direction::ALL) {
            let (dx, dy) = d.offset();
            let row = rows[(dy + 1) as usize];
            let column = columns[(dx + 1) as usize];
            *neighbour = row
                .zip(column)
                .map(|(row, column)| (row * x + column) as usize);
        }
        neighbours
    }
}

/// A Botworld: a grid of cells, row by row.
///
/// Built only through [`World::new`] (or deserialisation, which calls it), so
/// the dimensions are positive and there are exactly `x * y` cells.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "WorldFields")]
pub struct World {
    shape: Shape,
    /// The cells, row-major: the cell at `(i, j)` is at `j * x + i`.
    pub cells: Vec<Cell>,
}

fn default_wrap() -> bool {
    true
}

/// A world as it appears in a file, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldFields {
    dims: (i64, i64),
    cells: Vec<Cell>,
    #[serde(default = "default_wrap")]
    wrap: bool,
}

impl TryFrom<WorldFields> for World {
    type Error = WorldError;
    fn try_from(f: WorldFields) -> Result<World, WorldError> {
        World::new(Shape::new(f.dims, f.wrap)?, f.cells)
    }
}

/// Keys in the interchange order: `dims`, `cells`, and `wrap` only for a
/// bounded grid (absent means wrapping, as in the report).
impl Serialize for World {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let bounded = !self.shape.wrap;
        let mut s = serializer.serialize_struct("World", 2 + bounded as usize)?;
        s.serialize_field("dims", &self.shape.dims)?;
        s.serialize_field("cells", &self.cells)?;
        if bounded {
            s.serialize_field("wrap", &false)?;
        }
        s.end()
    }
}

/// Why a world cannot exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// A dimension is zero or negative.
    #[error("world dimensions must be positive, found {0} x {1}")]
    BadDimensions(i64, i64),
    /// More cells than memory could hold.
    #[error("a {0} x {1} world is too large")]
    TooLarge(i64, i64),
    /// The number of cells is not `x * y`.
    #[error("a {x} x {y} world needs {expected} cells, found {found}")]
    WrongCellCount {
        /// Columns.
        x: i64,
        /// Rows.
        y: i64,
        /// `x * y`.
        expected: usize,
        /// The cells given.
        found: usize,
    },
}

/// A world of one wall: a placeholder while a world is being stepped.
impl Default for World {
    fn default() -> World {
        World {
            shape: Shape {
                dims: (1, 1),
                wrap: true,
            },
            cells: vec![None],
        }
    }
}

impl World {
    /// A world of the given shape; there must be one cell per position.
    pub fn new(shape: Shape, cells: Vec<Cell>) -> Result<World, WorldError> {
        if shape.cell_count() != cells.len() {
            let (x, y) = shape.dims;
            return Err(WorldError::WrongCellCount {
                x,
                y,
                expected: shape.cell_count(),
                found: cells.len(),
            });
        }
        Ok(World { shape, cells })
    }

    /// The world after a step: same shape, one new cell per old cell.
    pub(super) fn stepped(shape: Shape, cells: Vec<Cell>) -> World {
        debug_assert_eq!(shape.cell_count(), cells.len());
        World { shape, cells }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// `(x, y)`: columns and rows.
    pub fn dims(&self) -> (i64, i64) {
        self.shape.dims
    }

    /// The report's `at`: the cell at a position (wrapping).
    pub fn at(&self, p: Position) -> &Cell {
        &self.cells[self.shape.locate(p)]
    }

    /// Splits the world into its shape and its cells.
    pub fn into_parts(self) -> (Shape, Vec<Cell>) {
        (self.shape, self.cells)
    }
}
