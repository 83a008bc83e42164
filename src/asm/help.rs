//! What to do next, for every kind of diagnostic: the `help:` line a
//! diagnostic carries when the place that reports it has nothing more
//! specific to say.

/// Every diagnostic code with its general help line.
pub const HELP: &[(&str, &str)] = &[
    (
        "E0000",
        "check the path (relative to the current directory) and that the file can be read",
    ),
    (
        "E0001",
        "delete the character: comments start with `;`, strings are written in double quotes",
    ),
    (
        "E0002",
        "write a number from -2^63 to 2^63 - 1; bigger trees are built as lists or with bits(\"...\")",
    ),
    (
        "E0003",
        "build deep trees from constants, or write them with bits(\"...\")",
    ),
    (
        "E0004",
        "split a long computation into constants (`const part = ...`), each a piece of it",
    ),
    (
        "E0100",
        "compare the line with the grammar in docs/language.md: one statement per line, operands separated by commas",
    ),
    (
        "E0101",
        "compare the line with the grammar in docs/language.md",
    ),
    (
        "E0201",
        "an `if` has at most one `else`: put a second `if ... end` inside it",
    ),
    (
        "E0202",
        "add the `if CONDITION` this `else` belongs to, or delete the `else`",
    ),
    (
        "E0203",
        "delete this `end`, or add the `if`, `macro` or `block` it should close",
    ),
    (
        "E0204",
        "define the macro on its own, outside the other macro's body",
    ),
    ("E0205", "add `end` after the lines the `if` keeps or drops"),
    ("E0206", "add `end` after the block's last instruction"),
    (
        "E0207",
        "a macro that invokes itself needs an `if` that stops it: check the condition, and that each invocation brings it closer",
    ),
    ("E0208", "add `end` after the macro's body"),
    (
        "E0209",
        "rename one of the two macros, or delete one definition",
    ),
    (
        "E0210",
        "choose another name: instructions, reserved words and built-ins cannot name a macro",
    ),
    ("E0211", "give each parameter its own name"),
    (
        "E0212",
        "rename one of the two constants, or delete one definition",
    ),
    (
        "E0213",
        "pass one argument per parameter, separated by commas",
    ),
    (
        "E0214",
        "stop the recursion with `if`: a macro that invokes itself needs a condition that becomes false",
    ),
    (
        "E0215",
        "write a number (non-zero is true), a boolean or a comparison, e.g. `if SIZE > 2`",
    ),
    (
        "E0216",
        "check the path: `use \"file.cta\"` is relative to the file that names it, `use std/NAME` names a standard module",
    ),
    (
        "E0217",
        "include each file from one place only, or `use` it: a used module is read once however often it is named",
    ),
    (
        "E0218",
        "shorten the chain: `use` the modules from the main file instead of including files that include files",
    ),
    (
        "E0219",
        "put a label (`name:`) before the module's first instruction",
    ),
    (
        "E0220",
        "include a file once and use its macros, or `use` a module (read once) instead of including it again and again",
    ),
    ("E0401", "write a number from -2^63 to 2^63 - 1"),
    (
        "E0402",
        "-(-2^63) does not fit 64 bits: negate a smaller number",
    ),
    (
        "E0403",
        "`#` and `@` belong in front of an instruction operand (`load r, #5`, `mov r, @4`); here, write the value itself",
    ),
    (
        "E0404",
        "define one of the constants of the chain by a value that does not use the others",
    ),
    (
        "E0405",
        "to copy its contents use `mov`; write index(NAME) for its number, or code(NAME) for a label's code",
    ),
    (
        "E0406",
        "define it (`const NAME = ...`, `reg NAME`, a label `NAME:`) or fix the spelling; `use std/NAME` brings a module's names",
    ),
    (
        "E0407",
        "give a value of the kind the message names (docs/language.md lists every literal)",
    ),
    (
        "E0408",
        "keep assembly-time arithmetic within 64 bits, -2^63 to 2^63 - 1, and shift by 0 or more places",
    ),
    ("E0409", "divide by a number that is not zero"),
    (
        "E0410",
        "give as many arguments as the constructor or built-in takes (docs/language.md, \"Values and literals\")",
    ),
    (
        "E0411",
        "registers hold trees: numbers, booleans, lists, tuples, commands, items, code, memories",
    ),
    (
        "E0412",
        "write a direction N, NE, E, SE, S, SW, W, NW, or a number from 0 (N) to 7 (NW)",
    ),
    (
        "E0413",
        "write the tree in preorder: `1` for a Cons followed by its front and back, `0` for Nil, e.g. bits(\"100\")",
    ),
    (
        "E0414",
        "`if` conditions are decided while macros expand: use code(...) and image(...) in register values, constants and operands",
    ),
    (
        "E0415",
        "pass a register or label name, e.g. index(count) or code(main)",
    ),
    (
        "E0416",
        "only a name takes arguments: put the constructor first, as in `Lift (i + 1)`",
    ),
    (
        "E0417",
        "delete the arguments, or apply a constructor (Move, Lift, Cargo, ...) or built-in (cons, bits, size, ...)",
    ),
    (
        "E0420",
        "check the path: image(\"file.cta\") is relative to the file that names it",
    ),
    (
        "E0421",
        "a program cannot hold its own image: a robot copies itself by inspecting itself (std/memory)",
    ),
    (
        "E0422",
        "run `constree check` on the embedded program to see all its errors",
    ),
    (
        "E0423",
        "embed fewer levels: assemble a deep program on its own and load its image some other way",
    ),
    (
        "E0424",
        "nest the value less deeply, or build the deep part as a tree (cons(...), bits(\"...\"))",
    ),
    ("E0501", "rename one of the two, or delete one definition"),
    (
        "E0502",
        "`reg prog|in|out [LIMIT] [= VALUE]` configures a predeclared register, once, without `@INDEX`",
    ),
    (
        "E0503",
        "choose an index from 3 to 1000000 that no other register has, or leave `@INDEX` out",
    ),
    (
        "E0504",
        "write a number here (a limit or an index), or a constant that is one",
    ),
    ("E0505", "make `tail NAME` the last line of the block"),
    ("E0506", "move the statement out of the `block ... end`"),
    ("E0507", "name a register or another block after `tail`"),
    (
        "E0508",
        "the instructions are nilify, construct, deconstruct and copyifnil; `use std/control` for jmp, mov, call, ...",
    ),
    (
        "E0509",
        "nilify takes one operand; construct, deconstruct and copyifnil take three",
    ),
    (
        "E0510",
        "name the register, or write a register number the program has",
    ),
    (
        "E0511",
        "jump to a label that starts a block, or give the code a label of its own",
    ),
    (
        "E0512",
        "declare it (`reg NAME`) or define the label (`NAME:`), or fix the spelling; a module's names need its `use`",
    ),
    ("E0513", "name a label of the program, e.g. `entry main`"),
    (
        "E0514",
        "name two registers, e.g. `callstack stack, link` after `reg stack` and `reg link`",
    ),
    (
        "E0515",
        "declare the register first, or fix its name (a module's registers carry its prefix, e.g. list.a)",
    ),
    ("E0516", "keep one `resize` for each register"),
    ("E0601", "pass a label of this program, e.g. code(main)"),
    ("E0602", "end one of the blocks without `tail`"),
    (
        "E0603",
        "raise the limit, or write `auto` to size it to its contents",
    ),
    ("E0605", "use a register the program declares, by name"),
    (
        "E0606",
        "write to a register: declare one with `reg NAME` and use its name",
    ),
    (
        "E0607",
        "resize the stack (`resize stack N` after `use std/control`), or call less deeply",
    ),
    ("W0701", "jump to it, or delete it if nothing needs it"),
    (
        "W0702",
        "give it a value (`reg NAME = VALUE`) or write it before it is read; declare it `reg NAME 0` if it is meant to stay Nil",
    ),
    (
        "W0703",
        "keep the robot's own data in a register of its own: the engine writes `in` at every step",
    ),
    (
        "W0704",
        "give the register a value first, or test it with `jnil` before taking it apart",
    ),
    (
        "W0705",
        "raise prog's limit (`reg prog LIMIT`), or leave it out to size it automatically",
    ),
    (
        "W0706",
        "write `#N` for the number N, or `@N` (or the register's name) for register N",
    ),
];

/// The general help line of a diagnostic code.
pub fn help(code: &str) -> Option<&'static str> {
    HELP.iter().find(|(c, _)| *c == code).map(|(_, h)| *h)
}
