//! Running `constree` on hostile inputs: each run is a child process under a
//! memory cap and a CPU-time cap (set with `setrlimit` before `exec`), with a
//! wall-clock guard for inputs that block, and a record of the files around
//! it so a test can show that nothing on disk changed.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The memory a hostile run may use: address space, in bytes.
pub const MEMORY_CAP: u64 = 1 << 30;
/// The CPU time a hostile run may use, in seconds.
pub const CPU_CAP: u64 = 10;
/// How long a run may take on the wall clock before it is killed: inputs that
/// block (a FIFO nobody writes) use no CPU time, so the CPU cap alone would
/// never end them. Generous, because the machine may be loaded; a run killed
/// by it fails the test.
pub const WALL_GUARD: Duration = Duration::from_secs(120);

/// How a capped run ended.
#[derive(Debug)]
pub struct Capped {
    /// The exit code, when the process exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did (a crash, or a cap reached).
    pub signal: Option<i32>,
    /// Whether the wall-clock guard killed it.
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Capped {
    /// Panics unless the run ended with exit code 1 and an error message on
    /// standard error that contains `needle`.
    pub fn assert_error(&self, needle: &str) {
        assert_eq!(self.code, Some(1), "expected a clean error, got {self:#?}");
        assert!(
            self.stderr.contains(needle),
            "the error should mention {needle:?}: {self:#?}"
        );
    }

    /// Panics unless the run exited 0 within the caps.
    pub fn assert_success(&self) {
        assert_eq!(self.code, Some(0), "expected success, got {self:#?}");
    }

    /// Panics unless the run ended by itself, with exit code 0 or 1, within
    /// the caps (no crash, no signal, no guard).
    pub fn assert_bounded(&self) {
        assert!(
            matches!(self.code, Some(0) | Some(1)) && !self.timed_out,
            "expected a bounded answer, got {self:#?}"
        );
    }
}

/// Runs `constree ARGS` in `dir` with `stdin` as its input, under
/// [`MEMORY_CAP`] and [`CPU_CAP`].
pub fn run_capped(dir: &Path, args: &[&str], stdin: &[u8]) -> Capped {
    run_capped_with(dir, args, stdin, &[])
}

/// [`run_capped`] with extra environment variables.
pub fn run_capped_with(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Capped {
    let mut command = Command::new(env!("CARGO_BIN_EXE_constree"));
    command
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls setrlimit, which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            limit(libc::RLIMIT_AS, MEMORY_CAP)?;
            limit(libc::RLIMIT_CPU, CPU_CAP)
        });
    }
    let mut child = command.spawn().expect("constree starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The child may exit without reading its input.
        let _ = input.write_all(&stdin);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.read_to_end(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > WALL_GUARD {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = feeder.join();
    Capped {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout: String::from_utf8_lossy(&reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    }
}

fn limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let bound = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: a plain system call on a valid struct.
    if unsafe { libc::setrlimit(resource, &bound) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// What one entry of a folder is: enough to tell that nothing changed.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    File(Vec<u8>),
    Symlink(PathBuf),
    Fifo,
    Device,
    Directory,
}

/// Every entry under `dir` (recursively, without following symlinks), keyed
/// by its path relative to `dir`. Take one before a run and one after, and
/// compare them.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut entries = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for item in std::fs::read_dir(&folder).unwrap() {
            let path = item.unwrap().path();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            let entry = if kind.is_symlink() {
                Entry::Symlink(std::fs::read_link(&path).unwrap())
            } else if kind.is_dir() {
                pending.push(path.clone());
                Entry::Directory
            } else if kind.is_fifo() {
                Entry::Fifo
            } else if kind.is_char_device() || kind.is_block_device() {
                Entry::Device
            } else {
                Entry::File(std::fs::read(&path).unwrap())
            };
            entries.insert(path.strip_prefix(dir).unwrap().to_path_buf(), entry);
        }
    }
    entries
}

/// A fresh scratch folder for one case, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "constree-hostile-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `contents` to `name` inside the folder and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
