//! Every diagnostic code of the crate, one variant each, with its title
//! (the row of the code table in `docs/`) and its general help line as
//! exhaustive `match`es: a new code does not compile until it has both.

use std::fmt;

/// Declares [`Code`] with its list of every variant and their names, from
/// one list.
macro_rules! codes {
    ($($code:ident)*) => {
        /// A short stable diagnostic code, e.g. `E0101`: what each means is
        /// its [`Code::title`]. `E00..`-`E06..` and `W07..` are the
        /// assembler's (`docs/language.md`), `E08..` scenario files'
        /// (`docs/formats.md`), `E09..` the debugger's commands'
        /// (`docs/debugger.md`), `E10..` images' and `E11..` replays' and
        /// tournaments' (`docs/formats.md`), `E12..` the command line's
        /// (`docs/cli.md`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $(
                #[doc = concat!("`", stringify!($code), "`: see [`Code::title`].")]
                $code,
            )*
        }

        impl Code {
            /// Every code, in order.
            pub const ALL: &[Code] = &[$(Code::$code),*];

            /// The code as written in messages and docs, e.g. `E0101`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }
        }
    };
}

codes! {
    E0000 E0001 E0002 E0003 E0004 E0100 E0101 E0201 E0202 E0203 E0204 E0205
    E0206 E0207 E0208 E0209 E0210 E0211 E0212 E0213 E0214 E0215 E0216 E0217
    E0218 E0219 E0220 E0401 E0402 E0403 E0404 E0405 E0406 E0407 E0408 E0409
    E0410 E0411 E0412 E0413 E0414 E0415 E0416 E0417 E0420 E0421 E0422 E0423
    E0424 E0501 E0502 E0503 E0504 E0505 E0506 E0507 E0508 E0509 E0510 E0511
    E0512 E0513 E0514 E0515 E0516 E0601 E0602 E0603 E0605 E0606 E0607 E0800
    E0801 E0802 E0803 E0804 E0805 E0806 E0807 E0808 E0809 E0810 E0811 E0900
    E0901 E0902 E0903 E0904 E0905 E1000 E1001 E1002 E1003 E1004 E1100 E1101
    E1102 E1103 E1104 E1105 E1110 E1111 E1112 E1113 E1114 E1200 E1201 E1202 E1203
    E1204 E1205 E1206 E1207 E1208 E1209 E1210 E1211 W0701
    W0702 W0703 W0704 W0705 W0706
}

impl Code {
    /// What the code means: its row in the code table of `docs/`.
    pub fn title(self) -> &'static str {
        match self {
            Code::E0000 => "the main file cannot be read",
            Code::E0001 => "an unknown character (or an unterminated string)",
            Code::E0002 => "a number too large for 64 bits",
            Code::E0003 => "brackets nested deeper than 200",
            Code::E0004 => {
                "an expression deeper than 500 (operators, values and brackets on one path)"
            }
            Code::E0100 => "a syntax error: the line does not follow the grammar",
            Code::E0101 => "a syntax error the grammar describes itself (no rule raises one today)",
            Code::E0201 => "a second `else` for one `if`",
            Code::E0202 => "`else` without `if`",
            Code::E0203 => "`end` without an open `if`, `macro` or `block`",
            Code::E0204 => "a macro defined inside a macro",
            Code::E0205 => "`if` without `end`",
            Code::E0206 => "`block` without `end`",
            Code::E0207 => {
                "the program expands to more than 4,000,000 statements and expression terms, or more than 1,000,000 macro invocations"
            }
            Code::E0208 => "`macro` without `end`",
            Code::E0209 => "a macro defined twice",
            Code::E0210 => "a macro named by an instruction, a reserved word or a built-in",
            Code::E0211 => "a macro parameter listed twice",
            Code::E0212 => "a constant defined twice",
            Code::E0213 => "a macro invoked with the wrong number of arguments",
            Code::E0214 => "macros expanding more than 64 levels deep",
            Code::E0215 => "an `if` condition that is not a number or a boolean",
            Code::E0216 => "a module that cannot be loaded",
            Code::E0217 => "a file that includes itself",
            Code::E0218 => "files including files more than 32 levels deep",
            Code::E0219 => "code in a `use`d module before its first label",
            Code::E0220 => {
                "the program includes more than 10,000 files or 67,108,864 bytes (each time counted)"
            }
            Code::E0401 => "a number that does not fit 64 bits",
            Code::E0402 => "a negation that overflows (`-(-2^63)`)",
            Code::E0403 => "`#` or `@` where a value is expected (they make operands, not values)",
            Code::E0404 => "a constant defined in terms of itself",
            Code::E0405 => "a register or label used as a value",
            Code::E0406 => "an unknown name in a value",
            Code::E0407 => "the wrong kind of value (a number expected, a direction, ...)",
            Code::E0408 => "arithmetic that overflows 64 bits, or a shift by a negative amount",
            Code::E0409 => "division (or `%`) by zero",
            Code::E0410 => "a constructor or built-in with the wrong number of arguments",
            Code::E0411 => "a value that cannot be put in a register (a string)",
            Code::E0412 => "a number that is not a direction (0 to 7)",
            Code::E0413 => "a bad preorder bit string in `bits(\"...\")`",
            Code::E0414 => {
                "`code(...)` or `image(...)` where only constants are known (an `if` condition, a limit, an index)"
            }
            Code::E0415 => "`code(...)` or `index(...)` given something other than a name",
            Code::E0416 => "applying something that is not a name to arguments",
            Code::E0417 => "applying a name that is not a constructor or built-in",
            Code::E0420 => "`image(...)` of a program that cannot be loaded",
            Code::E0421 => "`image(...)` of a program that embeds itself",
            Code::E0422 => "`image(...)` of a program that does not assemble",
            Code::E0423 => {
                "`image(...)` inside `image(...)` more than 32 levels deep, or more than 1000 programs embedded"
            }
            Code::E0424 => {
                "a constant whose value nests lists, tuples and `some`s more than 1000 levels deep"
            }
            Code::E0501 => "a name defined twice",
            Code::E0502 => {
                "`prog`, `in` or `out` configured twice, moved with `@`, or made a `block` other than `block prog`"
            }
            Code::E0503 => "a register index that is taken, or outside 3 to 1,000,000",
            Code::E0504 => "a limit or an index that is not a number",
            Code::E0505 => "a line after `tail` in a block",
            Code::E0506 => {
                "a statement other than a label, an instruction or `tail` inside a `block`"
            }
            Code::E0507 => "`tail` naming something that is not a register",
            Code::E0508 => {
                "an unknown instruction or macro (a macro is known from its definition on)"
            }
            Code::E0509 => "an instruction with the wrong number of operands",
            Code::E0510 => "a register number too large for 64 bits",
            Code::E0511 => {
                "a jump to a label that does not start a block of its own (inside a hand-laid block)"
            }
            Code::E0512 => "an unknown register or label",
            Code::E0513 => "a bad `entry`: no such label, given twice, or with `block prog`",
            Code::E0514 => "`callstack` naming something that is not a register",
            Code::E0515 => "`resize` naming something that is not a register",
            Code::E0516 => "a register resized twice",
            Code::E0601 => "`code(...)` of a name that is not a label",
            Code::E0602 => "hand-laid blocks whose tails lead back to themselves",
            Code::E0603 => "a register too small for its initial value or code",
            Code::E0605 => "an operand naming a register the program does not have",
            Code::E0606 => "a write to a value (a constant register)",
            Code::E0607 => "a call stack too small for the deepest chain of calls",
            Code::E0800 => "a scenario file that cannot be read",
            Code::E0801 => {
                "a scenario that is not TOML of the scenario's form (a syntax error, an unknown field, a value of the wrong type)"
            }
            Code::E0802 => {
                "a bad grid: no `size` or `map`, a ragged map, a repeated mark, a `size` that disagrees with the map, too many cells"
            }
            Code::E0803 => {
                "a bad position: off the grid, on a wall, an unknown mark, or `random` where it cannot be"
            }
            Code::E0804 => "a colour that is not one of the report's eight",
            Code::E0805 => {
                "a bad item: none or several kinds in one entry, register contents that are not a value, too many, or an `at` missing or where it has none"
            }
            Code::E0806 => {
                "a robot's program that cannot be loaded: no such file, an image that cannot be read, a source that does not assemble"
            }
            Code::E0807 => {
                "register limits that do not hold the program: too few limits, or contents that do not fit"
            }
            Code::E0808 => {
                "a game over a cap: a speed or register limit above `[limits]`, or a world too large for memory"
            }
            Code::E0809 => {
                "a bad scoring rule or player: an unknown rule, or a player without the colour `survivors` counts by"
            }
            Code::E0810 => "a bad value table: a cargo type that is not a number",
            Code::E0811 => {
                "a bad expectation: an unknown player, robot or register, a step past the test's last, a value that is not one, or nothing to check"
            }
            Code::E0900 => {
                "a debugger command line that cannot run: an unknown command, a bad count or argument, `goto`, `restart`, `source`, a block or user command"
            }
            Code::E0901 => {
                "a robot or register the debugger cannot select: none in focus, none by that name or at that square, destroyed, no source map"
            }
            Code::E0902 => {
                "a breakpoint, watchpoint, catchpoint or condition that cannot be set: a bad location, test or number, no such point"
            }
            Code::E0903 => {
                "`print`, `display`, `info`, `list` or `set` that cannot be done: a bad argument, line, literal or display"
            }
            Code::E0904 => {
                "a run or a way back that cannot be made: no output register, no call stack, before the history, nothing to profile"
            }
            Code::E0905 => {
                "a path, format, type or value the debugger cannot show: a bad path, an unknown format or type, a value not of the type"
            }
            Code::E1000 => "an image that cannot be written",
            Code::E1001 => "an image file that cannot be read",
            Code::E1002 => {
                "a file that is not an image: not JSON (nor the binary form), or JSON without an image's fields"
            }
            Code::E1003 => {
                "a file of another format, or an image of a version this constree does not read"
            }
            Code::E1004 => {
                "a corrupt image: its nodes, registers, labels, source map or sources do not hold together"
            }
            Code::E1100 => "a replay that cannot be written",
            Code::E1101 => "a replay file that cannot be read",
            Code::E1102 => {
                "a file that is not a replay: not JSON, or JSON without a replay's fields"
            }
            Code::E1103 => {
                "a file of another format, or a replay of a version this constree does not read"
            }
            Code::E1104 => {
                "a corrupt replay: its nodes, worlds, steps or images do not hold together"
            }
            Code::E1105 => {
                "a replay the viewer cannot show: no world, a scenario that does not load, a step the world does not follow"
            }
            Code::E1110 => {
                "a tournament that cannot be set up: no slots, no players, more players than slots, rounds out of range, two slots of one colour"
            }
            Code::E1111 => {
                "a player whose program does not fit the slots: too many registers, over a cap, no `seed` register large enough"
            }
            Code::E1112 => {
                "a tournament's threads: a count out of range, or threads that cannot start"
            }
            Code::E1113 => "a round the tournament does not have",
            Code::E1114 => {
                "shard results that do not merge: not a shard's, of different tournaments, twice, missing, or with rounds not their own"
            }
            Code::E1200 => "a file of a kind the command does not take (by its extension)",
            Code::E1201 => {
                "an input file or folder that cannot be read, or JSON in it that cannot be"
            }
            Code::E1202 => "an output file or folder that cannot be written",
            Code::E1203 => {
                "an option's value, or options together, that cannot be used; a missing option"
            }
            Code::E1204 => {
                "a name or number the input does not have: a robot, register, step or program file"
            }
            Code::E1205 => {
                "nothing to do: no scenario in the folder, no expectation to check or none the filter picks"
            }
            Code::E1206 => "an environment variable with a value that cannot be used",
            Code::E1207 => {
                "a program that does not assemble, or warns under `--deny warnings`, or does not parse, where the command needs it to"
            }
            Code::E1208 => {
                "standard input or output, or the terminal, that fails; a result too large to print"
            }
            Code::E1209 => "a bare machine without a speed, or that grows past the node cap",
            Code::E1210 => {
                "a conformance vector file or folder that cannot be read or written, or a vector that cannot be read"
            }
            Code::E1211 => "an editor that breaks the Language Server Protocol",
            Code::W0701 => "a block never reached (left out of the image)",
            Code::W0702 => "a register read but never written (always Nil)",
            Code::W0703 => "a write to `in` (the engine overwrites it)",
            Code::W0704 => "`deconstruct` of a register that is always Nil (wipes the machine)",
            Code::W0705 => {
                "a jump to code bigger than `prog`'s limit (wipes the machine: OutOfMemory on register 0)"
            }
            Code::W0706 => {
                "a number alone read as an operand: it is a register, not the number (`#4` is the number, `@4` the register)"
            }
        }
    }

    /// What to do next: the `help:` line a diagnostic carries when the
    /// place that reports it has nothing more specific to say.
    pub fn help(self) -> &'static str {
        match self {
            Code::E0000 => {
                "check the path (relative to the current directory) and that the file can be read"
            }
            Code::E0001 => {
                "delete the character: comments start with `;`, strings are written in double quotes"
            }
            Code::E0002 => {
                "write a number from -2^63 to 2^63 - 1; bigger trees are built as lists or with bits(\"...\")"
            }
            Code::E0003 => "build deep trees from constants, or write them with bits(\"...\")",
            Code::E0004 => {
                "split a long computation into constants (`const part = ...`), each a piece of it"
            }
            Code::E0100 => {
                "compare the line with the grammar in docs/language.md: one statement per line, operands separated by commas"
            }
            Code::E0101 => "compare the line with the grammar in docs/language.md",
            Code::E0201 => "an `if` has at most one `else`: put a second `if ... end` inside it",
            Code::E0202 => "add the `if CONDITION` this `else` belongs to, or delete the `else`",
            Code::E0203 => "delete this `end`, or add the `if`, `macro` or `block` it should close",
            Code::E0204 => "define the macro on its own, outside the other macro's body",
            Code::E0205 => "add `end` after the lines the `if` keeps or drops",
            Code::E0206 => "add `end` after the block's last instruction",
            Code::E0207 => {
                "a macro that invokes itself needs an `if` that stops it: check the condition, and that each invocation brings it closer"
            }
            Code::E0208 => "add `end` after the macro's body",
            Code::E0209 => "rename one of the two macros, or delete one definition",
            Code::E0210 => {
                "choose another name: instructions, reserved words and built-ins cannot name a macro"
            }
            Code::E0211 => "give each parameter its own name",
            Code::E0212 => "rename one of the two constants, or delete one definition",
            Code::E0213 => "pass one argument per parameter, separated by commas",
            Code::E0214 => {
                "stop the recursion with `if`: a macro that invokes itself needs a condition that becomes false"
            }
            Code::E0215 => {
                "write a number (non-zero is true), a boolean or a comparison, e.g. `if SIZE > 2`"
            }
            Code::E0216 => {
                "check the path: `use \"file.cta\"` is relative to the file that names it, `use std/NAME` names a standard module"
            }
            Code::E0217 => {
                "include each file from one place only, or `use` it: a used module is read once however often it is named"
            }
            Code::E0218 => {
                "shorten the chain: `use` the modules from the main file instead of including files that include files"
            }
            Code::E0219 => "put a label (`name:`) before the module's first instruction",
            Code::E0220 => {
                "include a file once and use its macros, or `use` a module (read once) instead of including it again and again"
            }
            Code::E0401 => "write a number from -2^63 to 2^63 - 1",
            Code::E0402 => "-(-2^63) does not fit 64 bits: negate a smaller number",
            Code::E0403 => {
                "`#` and `@` belong in front of an instruction operand (`mov r, #5`, `mov r, @4`); here, write the value itself"
            }
            Code::E0404 => {
                "define one of the constants of the chain by a value that does not use the others"
            }
            Code::E0405 => {
                "to copy its contents use `mov`; write index(NAME) for its number, or code(NAME) for a label's code"
            }
            Code::E0406 => {
                "define it (`const NAME = ...`, `reg NAME`, a label `NAME:`) or fix the spelling; `use std/NAME` brings a module's names"
            }
            Code::E0407 => {
                "give a value of the kind the message names (docs/language.md lists every literal)"
            }
            Code::E0408 => {
                "keep assembly-time arithmetic within 64 bits, -2^63 to 2^63 - 1, and shift by 0 or more places"
            }
            Code::E0409 => "divide by a number that is not zero",
            Code::E0410 => {
                "give as many arguments as the constructor or built-in takes (docs/language.md, \"Values and literals\")"
            }
            Code::E0411 => {
                "registers hold trees: numbers, booleans, lists, tuples, commands, items, code, memories"
            }
            Code::E0412 => {
                "write a direction N, NE, E, SE, S, SW, W, NW, or a number from 0 (N) to 7 (NW)"
            }
            Code::E0413 => {
                "write the tree in preorder: `1` for a Cons followed by its front and back, `0` for Nil, e.g. bits(\"100\")"
            }
            Code::E0414 => {
                "`if` conditions are decided while macros expand: use code(...) and image(...) in register values, constants and operands"
            }
            Code::E0415 => "pass a register or label name, e.g. index(count) or code(main)",
            Code::E0416 => {
                "only a name takes arguments: put the constructor first, as in `Lift (i + 1)`"
            }
            Code::E0417 => {
                "delete the arguments, or apply a constructor (Move, Lift, Cargo, ...) or built-in (cons, bits, size, ...)"
            }
            Code::E0420 => {
                "check the path: image(\"file.cta\") is relative to the file that names it"
            }
            Code::E0421 => {
                "a program cannot hold its own image: a robot copies itself by inspecting itself (std/memory)"
            }
            Code::E0422 => "run `constree check` on the embedded program to see all its errors",
            Code::E0423 => "embed fewer programs, or fewer levels of programs that embed programs",
            Code::E0424 => {
                "nest the value less deeply, or build the deep part as a tree (cons(...), bits(\"...\"))"
            }
            Code::E0501 => "rename one of the two, or delete one definition",
            Code::E0502 => {
                "`reg prog|in|out [LIMIT] [= VALUE]` configures a predeclared register, once, without `@INDEX`"
            }
            Code::E0503 => {
                "choose an index from 3 to 1000000 that no other register has, or leave `@INDEX` out"
            }
            Code::E0504 => "write a number here (a limit or an index), or a constant that is one",
            Code::E0505 => "make `tail NAME` the last line of the block",
            Code::E0506 => "move the statement out of the `block ... end`",
            Code::E0507 => "name a register or another block after `tail`",
            Code::E0508 => {
                "the instructions are nilify, construct, deconstruct and copyifnil; `use std/control` for jmp, mov, call, ..."
            }
            Code::E0509 => {
                "nilify takes one operand; construct, deconstruct and copyifnil take three"
            }
            Code::E0510 => "name the register, or write a register number the program has",
            Code::E0511 => {
                "jump to a label that starts a block, or give the code a label of its own"
            }
            Code::E0512 => {
                "declare it (`reg NAME`) or define the label (`NAME:`), or fix the spelling; a module's names need its `use`"
            }
            Code::E0513 => "name a label of the program, e.g. `entry main`",
            Code::E0514 => {
                "name two registers, e.g. `callstack stack, link` after `reg stack` and `reg link`"
            }
            Code::E0515 => {
                "declare the register first, or fix its name (a module's registers carry its prefix, e.g. list.a)"
            }
            Code::E0516 => "keep one `resize` for each register",
            Code::E0601 => "pass a label of this program, e.g. code(main)",
            Code::E0602 => "end one of the blocks without `tail`",
            Code::E0603 => "raise the limit, or write `auto` to size it to its contents",
            Code::E0605 => "use a register the program declares, by name",
            Code::E0606 => "write to a register: declare one with `reg NAME` and use its name",
            Code::E0607 => {
                "resize the stack (`resize stack N` after `use std/control`), or call less deeply"
            }
            Code::E0800 => {
                "check the path (relative to the current directory) and that the file can be read"
            }
            Code::E0801 => {
                "compare the file with the scenario format in docs/formats.md: the message names the field"
            }
            Code::E0802 => {
                "give `size` = [columns, rows], or a `map` of rows of equal length ('#' a wall, '.' a square, a letter or digit a marked square)"
            }
            Code::E0803 => {
                "write [x, y] inside the grid and not on a wall, a mark of the map, or \"random\" where a random square is allowed"
            }
            Code::E0804 => "write Red, Orange, Yellow, Green, Blue, Violet, Black or White",
            Code::E0805 => {
                "give an item exactly one of cargo = [type, weight], shield = true, frame = { color, strength }, processor = SPEED, register = LIMIT"
            }
            Code::E0806 => {
                "fix the program (`constree check FILE` shows all its errors), or the path, which is relative to the scenario"
            }
            Code::E0807 => {
                "list a limit for every register of the program, each at least the size of what the register holds"
            }
            Code::E0808 => {
                "lower the speed or limit, or raise the cap (`[limits] speed = N`, `[limits] register = N`, CONSTREE_MAX_WORLD_MEMORY)"
            }
            Code::E0809 => {
                "write scoring = \"home\" or \"survivors\", and give every player a `color` under \"survivors\""
            }
            Code::E0810 => {
                "write the cargo types of `[values] cargo` as numbers, e.g. cargo = { 5 = 10 }"
            }
            Code::E0811 => {
                "name a player, robot or register of the scenario, and an `after` within `expect.steps`"
            }
            Code::E0900 => "`help` lists the commands, `help COMMAND` tells how one is used",
            Code::E0901 => {
                "`focus NAME` or `focus X,Y[#I]` picks a robot; `info registers` lists its registers"
            }
            Code::E0902 => {
                "`info breakpoints` lists the points; docs/debugger.md gives the locations and conditions"
            }
            Code::E0903 => "`help COMMAND` tells what the command takes",
            Code::E0904 => {
                "`info frame` and `backtrace` show the calls; `gstep` runs a whole game step"
            }
            Code::E0905 => {
                "docs/debugger.md lists the paths, formats (`/list`, `/instr`, ...) and types (`: [int]`)"
            }
            Code::E1000 => {
                "check that the folder exists and can be written, and that there is room on the disk"
            }
            Code::E1001 => {
                "check the path (relative to the current directory) and that the file can be read"
            }
            Code::E1002 => {
                "give a `.ctm` file that `constree asm` wrote, or assemble the program again"
            }
            Code::E1003 => {
                "assemble the program again with this constree (`constree asm FILE.cta`)"
            }
            Code::E1004 => {
                "assemble the program again (`constree asm FILE.cta`); an image is not edited by hand"
            }
            Code::E1100 => {
                "check that the folder exists and can be written, and that there is room on the disk"
            }
            Code::E1101 => {
                "check the path (relative to the current directory) and that the file can be read"
            }
            Code::E1102 => "give a replay that `constree run --record` wrote",
            Code::E1103 => {
                "record the game again with this constree (`constree run --record FILE`)"
            }
            Code::E1104 => "record the game again (`constree run --record FILE`)",
            Code::E1105 => "record the game again (`constree run --record FILE`)",
            Code::E1110 => {
                "give the scenario a [[slot]] of its own colour for each player, and 1 to 1,000,000 rounds"
            }
            Code::E1111 => {
                "check the player with `constree check`, and that it fits a slot's register limits (docs/formats.md)"
            }
            Code::E1112 => "give --jobs from 1 to 256, or leave it out for one thread per core",
            Code::E1113 => "name a round from 1 to the number of rounds",
            Code::E1114 => {
                "merge the outputs of `tournament --shard K/N --format json` of one tournament, each shard once"
            }
            Code::E1200 => {
                "the message says which command takes the file; `constree help` lists them"
            }
            Code::E1201 => {
                "check the path (relative to the current directory) and that it can be read"
            }
            Code::E1202 => {
                "check that the folder exists and can be written, and that there is room on the disk"
            }
            Code::E1203 => "`constree help COMMAND` lists the command's options and their values",
            Code::E1204 => "the message lists the names there are",
            Code::E1205 => {
                "`constree new NAME` makes a project with a scenario and its expectations"
            }
            Code::E1206 => "docs/limits.md lists the variables and their ranges",
            Code::E1207 => "`constree check FILE` shows all the program's errors and warnings",
            Code::E1208 => {
                "check that the output can be written; CONSTREE_MAX_TEXT=BYTES raises the limit on a result"
            }
            Code::E1209 => {
                "give --speed, or raise the cap with CONSTREE_MAX_NODES=NODES (docs/limits.md)"
            }
            Code::E1210 => {
                "check the folder; `constree conformance DIR --generate` writes a set of vectors"
            }
            Code::E1211 => "start the server from an editor (docs/editors.md), not by hand",
            Code::W0701 => "jump to it, or delete it if nothing needs it",
            Code::W0702 => {
                "give it a value (`reg NAME = VALUE`) or write it before it is read; declare it `reg NAME 0` if it is meant to stay Nil"
            }
            Code::W0703 => {
                "keep the robot's own data in a register of its own: the engine writes `in` at every step"
            }
            Code::W0704 => {
                "give the register a value first, or test it with `jnil` before taking it apart"
            }
            Code::W0705 => {
                "raise prog's limit (`reg prog LIMIT`), or leave it out to size it automatically"
            }
            Code::W0706 => {
                "write `#N` for the number N, or `@N` (or the register's name) for register N"
            }
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
