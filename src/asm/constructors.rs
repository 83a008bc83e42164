//! The constructors of literals, in one table: applying a name to
//! arguments, the usage shown in messages, "did you mean", the list in
//! E0417's note and the table in `docs/language.md` all read
//! [`CONSTRUCTORS`], so adding an entry here adds it everywhere.

use super::eval::{Args, EvalResult, Value};
use crate::diagnostic::{Code, Diagnostic};
use crate::machine::{Instruction, Register};
use crate::tree::Tree;
use crate::world::{Action, Command, Frame, Item, Processor, Robot};
use std::rc::Rc;

/// How the arguments (already counted) become the value.
type Build = fn(&Args<'_, '_>) -> EvalResult;

/// A constructor of the report's types, or a built-in, applied to
/// arguments.
pub struct Constructor {
    /// Its name.
    pub name: &'static str,
    /// How many arguments it takes.
    pub arity: usize,
    /// How it is written, each argument a word in capitals (`Move
    /// DIRECTION`); `[X, ...]` is a list of them.
    pub usage: &'static str,
    /// Whether it is a built-in, written as a call (`cons(a, b)`), rather
    /// than a constructor of the report's types.
    pub builtin: bool,
    build: Build,
}

impl Constructor {
    /// Its value from arguments of the right number.
    pub(super) fn build(&self, args: &Args<'_, '_>) -> EvalResult {
        (self.build)(args)
    }
}

const fn constructor(
    name: &'static str,
    arity: usize,
    usage: &'static str,
    build: Build,
) -> Constructor {
    Constructor {
        name,
        arity,
        usage,
        builtin: false,
        build,
    }
}

const fn builtin(
    name: &'static str,
    arity: usize,
    usage: &'static str,
    build: Build,
) -> Constructor {
    Constructor {
        name,
        arity,
        usage,
        builtin: true,
        build,
    }
}

fn command(c: Command) -> EvalResult {
    Ok(Value::Command(c))
}

fn action(x: Action) -> EvalResult {
    Ok(Value::Action(x))
}

fn instruction(i: Instruction) -> EvalResult {
    Ok(Value::Instruction(i))
}

/// Every constructor and built-in.
pub static CONSTRUCTORS: &[Constructor] = &[
    constructor("Move", 1, "Move DIRECTION", |a| {
        command(Command::Move(a.direction(0)?))
    }),
    constructor("Lift", 1, "Lift INDEX", |a| {
        command(Command::Lift(a.int(0)?))
    }),
    constructor("Drop", 1, "Drop INDEX", |a| {
        command(Command::Drop(a.int(0)?))
    }),
    constructor("Inspect", 1, "Inspect INDEX", |a| {
        command(Command::Inspect(a.int(0)?))
    }),
    constructor("Destroy", 1, "Destroy INDEX", |a| {
        command(Command::Destroy(a.int(0)?))
    }),
    constructor("Build", 2, "Build [INDEX, ...] MEMORY", |a| {
        command(Command::Build(a.ints(0)?, a.memory(1)?))
    }),
    constructor("Cargo", 2, "Cargo TYPE WEIGHT", |a| {
        Ok(Value::Item(Item::Cargo(a.int(0)?, a.int(1)?)))
    }),
    constructor("Frame", 2, "Frame COLOUR STRENGTH", |a| {
        Ok(Value::Frame(Frame {
            color: a.color(0)?,
            strength: a.int(1)?,
        }))
    }),
    constructor("Processor", 1, "Processor SPEED", |a| {
        Ok(Value::Processor(Processor { speed: a.int(0)? }))
    }),
    constructor("Register", 2, "Register LIMIT CONTENTS", |a| {
        Ok(Value::Register(Register::new(a.int(0)?, a.tree(1)?)))
    }),
    constructor("FramePart", 1, "FramePart FRAME", |a| {
        Ok(Value::Item(Item::FramePart(a.frame(0)?)))
    }),
    constructor("ProcessorPart", 1, "ProcessorPart PROCESSOR", |a| {
        Ok(Value::Item(Item::ProcessorPart(a.processor(0)?)))
    }),
    constructor("RegisterPart", 1, "RegisterPart REGISTER", |a| {
        Ok(Value::Item(Item::RegisterPart(a.register(0)?)))
    }),
    constructor("Nilify", 1, "Nilify R", |a| {
        instruction(Instruction::Nilify(a.register_index(0)?))
    }),
    constructor("Construct", 3, "Construct A B C", |a| {
        let (x, y, z) = a.register_indices()?;
        instruction(Instruction::Construct(x, y, z))
    }),
    constructor("Deconstruct", 3, "Deconstruct A B C", |a| {
        let (x, y, z) = a.register_indices()?;
        instruction(Instruction::Deconstruct(x, y, z))
    }),
    constructor("CopyIfNil", 3, "CopyIfNil A B C", |a| {
        let (x, y, z) = a.register_indices()?;
        instruction(Instruction::CopyIfNil(x, y, z))
    }),
    constructor("MoveBlocked", 1, "MoveBlocked DIRECTION", |a| {
        action(Action::MoveBlocked(a.direction(0)?))
    }),
    constructor("MovedOut", 1, "MovedOut DIRECTION", |a| {
        action(Action::MovedOut(a.direction(0)?))
    }),
    constructor("MovedIn", 1, "MovedIn DIRECTION", |a| {
        action(Action::MovedIn(a.direction(0)?))
    }),
    constructor("CannotFit", 1, "CannotFit INDEX", |a| {
        action(Action::CannotFit(a.int(0)?))
    }),
    constructor("GrappledOver", 1, "GrappledOver INDEX", |a| {
        action(Action::GrappledOver(a.int(0)?))
    }),
    constructor("Lifted", 1, "Lifted INDEX", |a| {
        action(Action::Lifted(a.int(0)?))
    }),
    constructor("Dropped", 1, "Dropped ITEM", |a| {
        action(Action::Dropped(a.item(0)?))
    }),
    constructor("InspectTargetFled", 1, "InspectTargetFled INDEX", |a| {
        action(Action::InspectTargetFled(a.int(0)?))
    }),
    constructor("InspectBlocked", 1, "InspectBlocked INDEX", |a| {
        action(Action::InspectBlocked(a.int(0)?))
    }),
    constructor("Inspected", 2, "Inspected INDEX ROBOT", |a| {
        action(Action::Inspected(a.int(0)?, a.robot(1)?))
    }),
    constructor("DestroyTargetFled", 1, "DestroyTargetFled INDEX", |a| {
        action(Action::DestroyTargetFled(a.int(0)?))
    }),
    constructor("DestroyBlocked", 1, "DestroyBlocked INDEX", |a| {
        action(Action::DestroyBlocked(a.int(0)?))
    }),
    constructor("Destroyed", 1, "Destroyed INDEX", |a| {
        action(Action::Destroyed(a.int(0)?))
    }),
    constructor(
        "BuildInterrupted",
        1,
        "BuildInterrupted [INDEX, ...]",
        |a| action(Action::BuildInterrupted(a.ints(0)?)),
    ),
    constructor("Built", 2, "Built [INDEX, ...] ROBOT", |a| {
        action(Action::Built(a.ints(0)?, a.robot(1)?))
    }),
    constructor("Robot", 2, "Robot FRAME [ITEM, ...]", |a| {
        Ok(Value::Robot(Robot {
            frame: a.frame(0)?,
            inventory: a.items(1)?,
            processor: Processor { speed: 0 },
            memory: Vec::new(),
        }))
    }),
    constructor("some", 1, "some VALUE", |a| {
        Ok(Value::Maybe(Some(Rc::new(a.value(0)?))))
    }),
    builtin("cons", 2, "cons(FRONT, BACK)", |a| {
        Ok(Value::Tree(Tree::cons(a.tree(0)?, a.tree(1)?)))
    }),
    builtin("bits", 1, "bits(\"1100100\")", |a| {
        let text = a.string(0)?;
        Tree::from_bits(&text).map(Value::Tree).map_err(|e| {
            Diagnostic::error(
                Code::E0413,
                a.span(0),
                format!("not a preorder bit string: {}", e.message),
            )
            .label(format!("at character {}", e.offset))
            .note("`1` is Cons, followed by its front and back; `0` is Nil")
        })
    }),
    builtin("image", 1, "image(\"program.cta\")", |a| {
        let file = a.string(0)?;
        let compile = a.env.image.ok_or_else(|| {
            Diagnostic::error(Code::E0414, a.span, "image(...) cannot be used here")
                .label("not while expanding")
        })?;
        compile(&file, a.span(0)).map(Value::Memory)
    }),
    builtin("code", 1, "code(LABEL)", |a| {
        let Some(label) = a.args[0].as_name() else {
            return Err(
                Diagnostic::error(Code::E0415, a.span(0), "code(...) takes a label")
                    .label("not a label name"),
            );
        };
        let code = a.env.code.ok_or_else(|| {
            Diagnostic::error(Code::E0414, a.span, "code(...) cannot be used here")
                .label("not while expanding")
        })?;
        code(&super::ast::Ident::new(label.clone(), a.span(0))).map(Value::Tree)
    }),
    builtin("size", 1, "size(VALUE)", |a| {
        Ok(Value::Int(a.tree(0)?.size().min(i64::MAX as u64) as i64))
    }),
    builtin("index", 1, "index(NAME)", |a| {
        let known = a.args[0]
            .as_name()
            .and_then(|n| a.env.registers.and_then(|r| r(n)));
        known.map(Value::Int).ok_or_else(|| {
            Diagnostic::error(
                Code::E0415,
                a.span(0),
                "index(...) takes a register or label name",
            )
            .label("not a register here")
        })
    }),
];

/// The constructor or built-in of this name.
pub fn find(name: &str) -> Option<&'static Constructor> {
    CONSTRUCTORS.iter().find(|c| c.name == name)
}

/// How a constructor or built-in is written, for messages.
pub fn usage(name: &str) -> Option<String> {
    find(name).map(|c| format!("write it `{}`", c.usage))
}

/// E0417's note: every constructor, then every built-in.
pub fn note() -> String {
    let names = |builtin: bool| {
        CONSTRUCTORS
            .iter()
            .filter(|c| c.builtin == builtin)
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!("constructors: {}; built-ins: {}", names(false), names(true))
}

/// The table of `docs/language.md`: each constructor, how it is written
/// and how many arguments it takes.
pub fn markdown_table() -> String {
    let mut table = String::from("| name | written | arguments |\n|---|---|---|\n");
    for c in CONSTRUCTORS {
        table.push_str(&format!("| `{}` | `{}` | {} |\n", c.name, c.usage, c.arity));
    }
    table
}
