//! Running the `tabula` binary as a user does, and what every refusal of
//! bad input must look like; shared by the command-line tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The game store `tabula play` saves to in these tests: one per test
/// binary and process, never a `tabula.db` in the source tree.
pub fn scratch_db() -> PathBuf {
    std::env::temp_dir().join(format!(
        "tabula-{}-play-{}.db",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ))
}

pub fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .env("TABULA_DB", scratch_db())
        .output()
        .expect("the tabula binary runs")
}

pub fn tabula_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .env("TABULA_DB", scratch_db())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

pub fn tabula_with_input(args: &[&str], input: &str) -> Output {
    tabula_with_bytes(args, input.as_bytes())
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Bad input: exit code 2, exactly one line on stderr naming the fault,
/// no panic.
pub fn assert_refused(o: &Output, fragment: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "stderr was: {err}");
    assert!(err.starts_with("tabula: "), "{err}");
    assert!(err.contains(fragment), "expected '{fragment}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// [`assert_refused`], and nothing on stdout.
pub fn assert_bad_input(o: &Output, fragment: &str) {
    assert_refused(o, fragment);
    assert!(stdout(o).is_empty(), "stdout: {}", stdout(o));
}
