//! `tabula uci`: the alpha-beta engine behind the Universal Chess Interface,
//! for chess GUIs and match tools, and the same protocol for Epoch in a
//! dialect of its own (docs/ai.md): `position startpos` or `position text
//! <Epoch position text>`, moves in Epoch's notation (`g3g7`, `d12xd12`,
//! `swap`).
//!
//! The search runs on its own thread, so `stop`, `isready` and `quit` are
//! answered while it thinks; bad input is answered with an `info string`
//! line and changes nothing.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use tabula_ai::alphabeta::{ChessNode, Engine, EpochNode, Info, Limits, Root, epoch_decision};
use tabula_chess::{Position, START_FEN, UciMove};
use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions};

/// The game `tabula uci` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UciGame {
    /// Standard chess, standard UCI.
    Chess,
    /// Chess 13: Epoch, the dialect of docs/ai.md.
    Epoch,
}

const DEFAULT_HASH: usize = 64;

/// The current position of a session.
#[derive(Clone)]
enum Current {
    Chess(Root<ChessNode>),
    Epoch(Box<Epoch>),
}

struct Session {
    game: UciGame,
    current: Current,
    chess: Arc<Mutex<Engine<ChessNode>>>,
    epoch: Arc<Mutex<Engine<EpochNode>>>,
    search: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

/// Prints one line and flushes it at once (GUIs read line by line).
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Runs a session on stdin and stdout until `quit` or the end of input.
pub fn run(game: UciGame) -> Result<()> {
    let mut session = Session {
        game,
        current: start(game),
        chess: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
        epoch: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
        search: None,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.context("cannot read the UCI input")?;
        match session.handle(line.trim()) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => say(&format!("info string error: {e:#}")),
        }
    }
    session.finish_search(true);
    Ok(())
}

fn start(game: UciGame) -> Current {
    match game {
        UciGame::Chess => Current::Chess(Root::new(ChessNode(Position::start()))),
        UciGame::Epoch => Current::Epoch(Box::new(Epoch::new(&EpochOptions::default()))),
    }
}

impl Session {
    /// Handles one command; `false` on `quit`.
    fn handle(&mut self, line: &str) -> Result<bool> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                let game = match self.game {
                    UciGame::Chess => "chess",
                    UciGame::Epoch => "epoch",
                };
                say(&format!(
                    "id name tabula {} ({game})",
                    env!("CARGO_PKG_VERSION")
                ));
                say("id author the tabula project");
                say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH} min 1 max 4096"
                ));
                say("uciok");
            }
            "isready" => say("readyok"),
            "ucinewgame" => {
                self.finish_search(true);
                lock(&self.chess).clear();
                lock(&self.epoch).clear();
                self.current = start(self.game);
            }
            "setoption" => self.set_option(&rest)?,
            "position" => {
                self.finish_search(true);
                self.current = self.position(&rest)?;
            }
            "go" => {
                self.finish_search(true);
                self.go(&rest)?;
            }
            "stop" => self.finish_search(true),
            "quit" => return Ok(false),
            // Anything else is ignored, as the protocol asks.
            _ => {}
        }
        Ok(true)
    }

    /// Stops (when `stop`) and waits for the running search: its
    /// `bestmove` is printed before this returns.
    fn finish_search(&mut self, stop: bool) {
        if let Some((handle, flag)) = self.search.take() {
            if stop {
                flag.store(true, Ordering::Relaxed);
            }
            let _ = handle.join();
        }
    }

    fn set_option(&mut self, words: &[&str]) -> Result<()> {
        // setoption name <id...> [value <x...>]
        let text = words.join(" ");
        let body = text
            .strip_prefix("name ")
            .ok_or_else(|| anyhow!("setoption needs 'name'"))?;
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (body.trim(), None),
        };
        if name.eq_ignore_ascii_case("hash") {
            let mb: usize = value
                .ok_or_else(|| anyhow!("Hash needs a value"))?
                .parse()
                .context("Hash is a number of megabytes")?;
            if !(1..=4096).contains(&mb) {
                bail!("Hash must be 1 to 4096 megabytes, not {mb}");
            }
            self.finish_search(true);
            lock(&self.chess).set_hash(mb);
            lock(&self.epoch).set_hash(mb);
            Ok(())
        } else {
            bail!("no option '{name}' (options: Hash)")
        }
    }

    fn position(&self, words: &[&str]) -> Result<Current> {
        let (setup, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        match self.game {
            UciGame::Chess => {
                let fen = match setup {
                    ["startpos"] => START_FEN.to_owned(),
                    ["fen", fields @ ..] if !fields.is_empty() => fields.join(" "),
                    _ => bail!("position needs 'startpos' or 'fen <FEN>'"),
                };
                let mut pos = Position::from_fen(&fen).map_err(|e| anyhow!("bad FEN: {e}"))?;
                let mut history = vec![pos.hash()];
                for text in moves {
                    let uci: UciMove = text
                        .parse()
                        .map_err(|e| anyhow!("cannot read move '{text}': {e}"))?;
                    let mv = uci
                        .to_move(&pos)
                        .map_err(|e| anyhow!("move '{text}': {e}"))?;
                    pos.play_unchecked(mv);
                    if pos.halfmove_clock() == 0 {
                        history.clear();
                    }
                    history.push(pos.hash());
                }
                Ok(Current::Chess(Root {
                    node: ChessNode(pos),
                    history,
                }))
            }
            UciGame::Epoch => {
                let options = EpochOptions::default();
                let mut game = match setup {
                    ["startpos"] => Epoch::new(&options),
                    ["text" | "fen", fields @ ..] if !fields.is_empty() => {
                        Epoch::from_text(&fields.join(" "), &options)
                            .map_err(|e| anyhow!("bad position text: {e}"))?
                    }
                    _ => bail!("position needs 'startpos' or 'text <position text>'"),
                };
                for text in moves {
                    let mv = game
                        .parse_action(text)
                        .map_err(|e| anyhow!("move '{text}': {e}"))?;
                    game.apply(&mv).map_err(|e| anyhow!("move '{text}': {e}"))?;
                }
                Ok(Current::Epoch(Box::new(game)))
            }
        }
    }

    fn go(&mut self, words: &[&str]) -> Result<()> {
        let mut limits = Limits::default();
        let mut clock = [None::<u64>; 2];
        let mut inc = [0u64; 2];
        let mut moves_to_go = None;
        let mut it = words.iter();
        let number = |w: Option<&&str>, name: &str| -> Result<u64> {
            w.ok_or_else(|| anyhow!("'{name}' needs a number"))?
                .parse::<i64>()
                .map(|n| n.max(0) as u64)
                .with_context(|| format!("'{name}' needs a number"))
        };
        while let Some(&w) = it.next() {
            match w {
                "depth" => limits.depth = Some(number(it.next(), w)?.clamp(1, 100) as u32),
                "nodes" => limits.nodes = Some(number(it.next(), w)?.max(1)),
                "movetime" => {
                    let t = Duration::from_millis(number(it.next(), w)?);
                    let m = Limits::move_time(t);
                    limits.hard_time = m.hard_time;
                    limits.soft_time = m.soft_time;
                }
                "wtime" => clock[0] = Some(number(it.next(), w)?),
                "btime" => clock[1] = Some(number(it.next(), w)?),
                "winc" => inc[0] = number(it.next(), w)?,
                "binc" => inc[1] = number(it.next(), w)?,
                "movestogo" => moves_to_go = Some(number(it.next(), w)?.min(1000) as u32),
                "infinite" | "ponder" => {}
                _ => {}
            }
        }
        let mover = match &self.current {
            Current::Chess(root) => root.node.0.turn().index(),
            Current::Epoch(game) => game.position().side_to_move().index(),
        };
        if let Some(ms) = clock[mover] {
            let c = Limits::clock(
                Duration::from_millis(ms),
                Duration::from_millis(inc[mover]),
                moves_to_go,
            );
            limits.hard_time = c.hard_time;
            limits.soft_time = c.soft_time;
        }
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let handle = match self.current.clone() {
            Current::Chess(root) => {
                let engine = self.chess.clone();
                std::thread::spawn(move || {
                    let out = lock(&engine).search(&root, limits, |i| {
                        say(&info_line(i, |m| UciMove::from(*m).to_string()))
                    });
                    match out.best {
                        Some(m) => say(&format!("bestmove {}", UciMove::from(m))),
                        None => say("bestmove 0000"),
                    }
                })
            }
            Current::Epoch(game) => {
                let engine = self.epoch.clone();
                std::thread::spawn(move || {
                    if game.outcome().is_some() {
                        say("bestmove 0000");
                        return;
                    }
                    let out = epoch_decision(&mut lock(&engine), &game, limits, |i| {
                        say(&info_line(i, |m| m.to_string()))
                    });
                    match out.best {
                        Some(m) => say(&format!("bestmove {m}")),
                        None => say("bestmove 0000"),
                    }
                })
            }
        };
        self.search = Some((handle, stop));
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A search thread that panicked leaves its engine usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn info_line<M>(info: &Info<M>, show: impl Fn(&M) -> String) -> String {
    let score = match info.mate_in_plies() {
        Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Some(p) => format!("mate {}", -((-p + 1) / 2)),
        None => format!("cp {}", info.score),
    };
    let pv: Vec<String> = info.pv.iter().map(show).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        pv.join(" ")
    )
}
