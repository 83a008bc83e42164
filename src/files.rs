//! Reading inputs and writing outputs: the one way constree touches files.
//!
//! **Reading.** A file named on the command line ([`read_input`]) may be a
//! regular file, a pipe, a terminal or `-` (standard input); a file named
//! inside another file ([`read_named`]: `include`, `image(...)`, a
//! scenario's programs) must be a regular file. Either is read up to
//! [`MAX_INPUT`](crate::limits::MAX_INPUT) bytes; more is an error. Once
//! [`guard_inputs`] has been called (the command line calls it first thing),
//! every file read is remembered for the rest of the process.
//!
//! **Writing** ([`write_output`]). A file remembered as read is never
//! written (an error saying so), nor is a directory. A regular file (or a
//! new one) is written to a temporary file in the same folder, created
//! exclusively under an unpredictable name without following symlinks, and
//! renamed over the target: on any error the old file is as it was and the
//! temporary file is gone. A device, FIFO or socket is written directly and
//! stays what it is (`-o /dev/null` works). A symlink is written through:
//! the file it points to is replaced as above and the link stays a link.
//! `-` is standard output.
//!
//! **Rewriting** ([`rewrite`]): the one exception to "never write a file
//! being read". `constree fmt` writes a source back over itself, the same
//! way as above (a temporary file renamed over it; a symlink written
//! through), once it has read it whole.

use std::collections::HashSet;
use std::fs::{File, Metadata, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The files read so far, as `(device, inode)`; `None` until
/// [`guard_inputs`].
static READ: Mutex<Option<HashSet<(u64, u64)>>> = Mutex::new(None);

/// From now on, remembers every file read and refuses to write onto any of
/// them: for a process that runs one command, like the command line.
pub fn guard_inputs() {
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    read.get_or_insert_with(HashSet::new);
}

fn identity(meta: &Metadata) -> (u64, u64) {
    (meta.dev(), meta.ino())
}

fn remember(meta: &Metadata) {
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(read) = read.as_mut() {
        read.insert(identity(meta));
    }
}

fn was_read(meta: &Metadata) -> bool {
    let read = READ.lock().unwrap_or_else(|e| e.into_inner());
    read.as_ref().is_some_and(|r| r.contains(&identity(meta)))
}

/// How a file is named, for the two readers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Named {
    /// On the command line: regular files, pipes, terminals, `-`.
    OnCommandLine,
    /// Inside another file: regular files only.
    InAFile,
}

/// Why an input cannot be read: each message starts with the file's name.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system refused to open or read it.
    #[error("{name}: {source}")]
    Io {
        /// The file, as shown.
        name: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file named inside another that is not a regular file, found
    /// before opening it.
    #[error("{name}: not a regular file ({kind}); a file named inside another must be one")]
    NamedNotRegular {
        /// The file, as shown.
        name: String,
        /// What it is instead, in words.
        kind: &'static str,
    },
    /// A file named inside another that turned out not to be a regular file
    /// once opened.
    #[error("{name}: not a regular file ({kind})")]
    NotRegular {
        /// The file, as shown.
        name: String,
        /// What it is instead, in words.
        kind: &'static str,
    },
    /// A directory.
    #[error("{name}: is a directory, not a file")]
    Directory {
        /// The directory, as shown.
        name: String,
    },
    /// More bytes than [`MAX_INPUT`](crate::limits::MAX_INPUT).
    #[error(
        "{name}: larger than {cap} bytes, the most an input may be \
         (CONSTREE_MAX_INPUT=BYTES raises the limit)"
    )]
    TooLarge {
        /// The file, as shown.
        name: String,
        /// The limit.
        cap: u64,
    },
    /// Text that is not UTF-8.
    #[error("{name}: not UTF-8 text (byte {at} is not)")]
    NotUtf8 {
        /// The file, as shown.
        name: String,
        /// The first byte that is not.
        at: usize,
    },
}

/// The bytes of a file named on the command line, or of standard input for
/// `-`, up to [`MAX_INPUT`](crate::limits::MAX_INPUT). Errors name the file
/// (`<stdin>` for `-`).
pub fn read_input(path: &Path) -> Result<Vec<u8>, ReadError> {
    if path == Path::new("-") {
        return read_capped(std::io::stdin().lock(), "<stdin>", 0);
    }
    read_file(path, Named::OnCommandLine)
}

/// The bytes of a file named inside another file, which must be a regular
/// file, up to [`MAX_INPUT`](crate::limits::MAX_INPUT).
pub fn read_named(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_file(path, Named::InAFile)
}

/// [`read_input`] as UTF-8 text.
pub fn read_input_text(path: &Path) -> Result<String, ReadError> {
    text(read_input(path)?, path)
}

/// [`read_named`] as UTF-8 text.
pub fn read_named_text(path: &Path) -> Result<String, ReadError> {
    text(read_named(path)?, path)
}

/// The name a path is shown as: `<stdin>` for `-`.
pub fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

fn text(bytes: Vec<u8>, path: &Path) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        name: display(path),
        at: e.utf8_error().valid_up_to(),
    })
}

fn read_file(path: &Path, named: Named) -> Result<Vec<u8>, ReadError> {
    let name = || path.display().to_string();
    let io = |source| ReadError::Io {
        name: name(),
        source,
    };
    // Opening a FIFO blocks until a writer comes: one named inside a file
    // is refused before it is opened.
    if named == Named::InAFile {
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(ReadError::NamedNotRegular {
                name: name(),
                kind: kind(&meta),
            });
        }
    }
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(ReadError::Directory { name: name() });
    }
    if named == Named::InAFile && !meta.is_file() {
        return Err(ReadError::NotRegular {
            name: name(),
            kind: kind(&meta),
        });
    }
    remember(&meta);
    // Read into room for the whole file at once, not grown by doubling
    // (which copies it each time and leaves the copies to the allocator).
    read_capped(file, &name(), meta.len())
}

/// The bytes of `source`, up to [`MAX_INPUT`](crate::limits::MAX_INPUT);
/// `expected` is how many it is thought to have (room is made for them
/// first, up to the cap).
fn read_capped(source: impl Read, name: &str, expected: u64) -> Result<Vec<u8>, ReadError> {
    let cap = crate::limits::MAX_INPUT.get();
    let mut bytes = Vec::new();
    let room = usize::try_from(expected.min(cap)).unwrap_or(0);
    bytes.try_reserve_exact(room).ok();
    source
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            name: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            name: name.to_string(),
            cap,
        });
    }
    Ok(bytes)
}

/// What a file is, in words.
pub fn kind(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_symlink() {
        "a symlink"
    } else {
        "a file"
    }
}

/// Where an output goes once symlinks are followed, and what is there now.
struct Target {
    path: PathBuf,
    existing: Option<Metadata>,
}

/// Checks that `path` may be written: not a directory, not a file this
/// process has read, not a symlink to nothing. Call it before the work
/// whose result is to be written, to fail early; [`write_output`] checks
/// again.
pub fn check_output(path: &Path) -> std::io::Result<()> {
    target(path, false).map(drop)
}

fn refuse(message: String) -> std::io::Error {
    std::io::Error::other(message)
}

/// Where `path` leads, and whether it may be written; a file this process
/// has read may only when `rewriting`.
fn target(path: &Path, rewriting: bool) -> std::io::Result<Target> {
    let link = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Target {
                path: path.to_path_buf(),
                existing: None,
            });
        }
        Err(e) => return Err(e),
    };
    let (path, meta) = if link.file_type().is_symlink() {
        let resolved = std::fs::canonicalize(path).map_err(|_| {
            refuse("it is a symlink to a file that does not exist; name a file instead".into())
        })?;
        let meta = std::fs::metadata(&resolved)?;
        (resolved, meta)
    } else {
        (path.to_path_buf(), link)
    };
    if meta.is_dir() {
        return Err(refuse("it is a directory; name a file to write".into()));
    }
    if !rewriting && was_read(&meta) {
        return Err(refuse(
            "this command reads that file; it will not overwrite it: name another output file"
                .into(),
        ));
    }
    Ok(Target {
        path,
        existing: Some(meta),
    })
}

/// Writes `contents` to `path` as the module's doc says.
pub fn write_output(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_output_with(path, |f| f.write_all(contents))
}

/// Writes `contents` over a file this process has read (and may have read
/// whole only): as [`write_output`] writes, without refusing a file read.
pub fn rewrite(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_to(path, true, |f| f.write_all(contents))
}

/// [`write_output`] with a writer function (which may fail midway).
pub fn write_output_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_to(path, false, write)
}

/// Writes through `write`, as the module's doc says.
fn write_to(
    path: &Path,
    rewriting: bool,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if path == Path::new("-") {
        // `-o -`: standard output, after what was printed before.
        use std::os::fd::AsFd;
        std::io::stdout().flush()?;
        let mut file = File::from(std::io::stdout().as_fd().try_clone_to_owned()?);
        write(&mut file)?;
        return file.flush();
    }
    let target = target(path, rewriting)?;
    match &target.existing {
        Some(meta) if !meta.is_file() => {
            // A device, FIFO or socket: written as it is, never replaced.
            let mut file = OpenOptions::new().write(true).open(&target.path)?;
            write(&mut file)?;
            file.flush()
        }
        _ => replace(&target, write),
    }
}

/// A name no other process can guess: `.NAME.HEX.tmp`.
fn temporary_name(name: &str) -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    format!(".{name}.{:016x}.tmp", hasher.finish())
}

/// Writes a regular file through a temporary file renamed over it.
fn replace(
    target: &Target,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = target
        .path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mode = target
        .existing
        .as_ref()
        .map_or(0o666, |m| m.permissions().mode() & 0o7777);
    let (temp, mut file) = create_exclusive(dir, &name, mode)?;
    let result = (|| {
        write(&mut file)?;
        file.sync_all()?;
        if let Some(meta) = &target.existing {
            // The mode asked at creation is narrowed by the umask.
            file.set_permissions(std::fs::Permissions::from_mode(
                meta.permissions().mode() & 0o7777,
            ))?;
        }
        std::fs::rename(&temp, &target.path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Creates a new file in `dir` under an unpredictable name, exclusively and
/// without following a symlink there.
fn create_exclusive(dir: &Path, name: &str, mode: u32) -> std::io::Result<(PathBuf, File)> {
    let mut last = None;
    for _ in 0..16 {
        let temp = dir.join(temporary_name(name));
        // `create_new` opens with O_CREAT | O_EXCL, which never follows a
        // symlink at the name (POSIX: it fails with EEXIST), and std opens
        // every file close-on-exec.
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| refuse("no free temporary name".into())))
}

/// Makes the folder `dir` whole: `fill` writes its files into a new
/// temporary folder beside it, which then takes its place. A folder that
/// exists and holds anything is refused unless `replace`, and then replaced
/// whole (its old files are removed only once the new folder is complete);
/// a symlink or a file there is refused. On any error `dir` is as it was.
pub fn write_folder(
    dir: &Path,
    replace: bool,
    fill: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let existing = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Some(std::fs::read_dir(dir)?.next().is_some()),
        Ok(meta) => {
            return Err(refuse(format!(
                "it is {}, not a folder; name a folder to write into",
                kind(&meta)
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if existing == Some(true) && !replace {
        return Err(refuse(
            "the folder is not empty; --replace replaces it and everything in it".into(),
        ));
    }
    let parent = dir
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .map_or_else(|| "folder".into(), |n| n.to_string_lossy().into_owned());
    let fresh = parent.join(temporary_name(&name));
    std::fs::create_dir(&fresh)?;
    if let Err(e) = fill(&fresh) {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    let old = parent.join(temporary_name(&name));
    if existing.is_some()
        && let Err(e) = std::fs::rename(dir, &old)
    {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    if let Err(e) = std::fs::rename(&fresh, dir) {
        if existing.is_some() {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    if existing.is_some() {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(())
}

/// The bytes free for this user on the file system that holds `path` (or
/// its nearest existing ancestor).
pub fn free_space(path: &Path) -> std::io::Result<u64> {
    let mut at = path;
    while !at.exists() {
        at = match at.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
    }
    let stat = rustix::fs::statvfs(at)?;
    Ok(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// Text from a file as it may reach a terminal: control characters
/// (escape sequences, carriage returns, bells; all but tab and newline)
/// written as Rust escapes (`\u{1b}`), the rest as it is.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let control = |c: char| c.is_control() && c != '\t' && c != '\n';
    if !text.chars().any(control) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if control(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}
