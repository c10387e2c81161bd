//! `tabula uci`: the alpha-beta engine behind the Universal Chess Interface,
//! for chess GUIs and match tools, and the same protocol for Epoch in a
//! dialect of its own (docs/ai.md). The protocol is `tabula_ai::uci`'s; this
//! module reads stdin, prints, and runs each search on its own thread, so
//! `stop`, `isready` and `quit` are answered while it thinks; bad input is
//! answered with an `info string` line and changes nothing.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use anyhow::{Context, Result};
use tabula_ai::uci::{UciReply, UciSession};

/// The game `tabula uci` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UciGame {
    /// Standard chess, standard UCI.
    Chess,
    /// Chess 13: Epoch, the dialect of docs/ai.md.
    Epoch,
}

/// Prints one line and flushes it at once (GUIs read line by line).
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The running search: its thread and its stop flag.
type Running = Option<(JoinHandle<()>, Arc<AtomicBool>)>;

/// Stops (when `stop`) and waits for the running search: its `bestmove`
/// is printed before this returns.
fn finish(running: &mut Running, stop: bool) {
    if let Some((handle, flag)) = running.take() {
        if stop {
            flag.store(true, Ordering::Relaxed);
        }
        let _ = handle.join();
    }
}

/// Runs a session on stdin and stdout until `quit` or the end of input.
pub fn run(game: UciGame) -> Result<()> {
    let mut session = UciSession::new(match game {
        UciGame::Chess => tabula_ai::uci::UciGame::Chess,
        UciGame::Epoch => tabula_ai::uci::UciGame::Epoch,
    });
    let mut running: Running = None;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.context("cannot read the UCI input")?;
        let line = line.trim();
        if UciSession::interrupts(line) {
            finish(&mut running, true);
        }
        match session.handle(line) {
            Ok(UciReply::Lines(lines)) => lines.iter().for_each(|l| say(l)),
            Ok(UciReply::Go(search)) => {
                let stop = Arc::new(AtomicBool::new(false));
                let flag = stop.clone();
                let handle = std::thread::spawn(move || search.run(flag, |l| say(&l)));
                running = Some((handle, stop));
            }
            Ok(UciReply::Stop) => finish(&mut running, true),
            Ok(UciReply::Quit) => break,
            Err(e) => say(&format!("info string error: {e}")),
        }
    }
    finish(&mut running, true);
    Ok(())
}
