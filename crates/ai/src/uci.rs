//! The rules side of `tabula uci`: a session of the Universal Chess
//! Interface for chess, and the same protocol for Chess 13: Epoch in a
//! dialect of its own (docs/ai.md): `position startpos` or `position text
//! <Epoch position text>`, moves in Epoch's notation (`g3g7`, `d12xd12`,
//! `swap`).
//!
//! [`UciSession`] takes one line at a time and answers with lines to print
//! and, for `go`, a [`UciSearch`] to run; input, output and threads are the
//! caller's, so `stop`, `isready` and `quit` can be answered while a search
//! runs. A bad line is a [`UciError`] and changes nothing.

use std::num::ParseIntError;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tabula_chess::{Position, START_FEN, UciMove};
use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions};
use thiserror::Error;

use crate::alphabeta::{ChessNode, Engine, EpochNode, Info, Limits, Root, epoch_decision};

/// The game a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciGame {
    /// Standard chess, standard UCI.
    Chess,
    /// Chess 13: Epoch, the dialect of docs/ai.md.
    Epoch,
}

/// The transposition table's size when no `setoption name Hash` is given.
pub const DEFAULT_HASH: usize = 64;

/// Why a line was refused; the session is as it was.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciError {
    /// `setoption` without `name`.
    #[error("setoption needs 'name'")]
    OptionName,
    /// `setoption name Hash` without a value.
    #[error("Hash needs a value")]
    HashValue,
    /// A Hash value that is not a number.
    #[error("Hash is a number of megabytes: {0}")]
    HashNumber(ParseIntError),
    /// A Hash value out of range.
    #[error("Hash must be 1 to 4096 megabytes, not {0}")]
    HashRange(usize),
    /// An option the engine does not have.
    #[error("no option '{0}' (options: Hash)")]
    UnknownOption(String),
    /// `position` with neither a start position nor a position text.
    #[error("position needs 'startpos' or '{0}'")]
    PositionSetup(&'static str),
    /// A FEN or Epoch position text that does not read.
    #[error("bad {what}: {message}")]
    Position {
        /// "FEN" or "position text".
        what: &'static str,
        /// Why.
        message: String,
    },
    /// A move that does not read or is not legal.
    #[error("move '{text}': {message}")]
    Move {
        /// The move as given.
        text: String,
        /// Why.
        message: String,
    },
    /// A `go` parameter without its number.
    #[error("'{0}' needs a number")]
    Number(String),
}

/// What the caller does after a line.
#[derive(Debug)]
pub enum UciReply {
    /// Print these lines (possibly none).
    Lines(Vec<String>),
    /// Run this search (on its own thread, so the session stays responsive).
    Go(UciSearch),
    /// Stop and wait for the running search (its `bestmove` comes out).
    Stop,
    /// End the session (after the running search ends).
    Quit,
}

/// The current position of a session.
#[derive(Clone)]
enum Current {
    Chess(Root<ChessNode>),
    Epoch(Box<Epoch>),
}

impl std::fmt::Debug for Current {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Current::Chess(root) => write!(f, "Chess({})", root.node.0.fen()),
            Current::Epoch(game) => write!(f, "Epoch({})", game.to_text()),
        }
    }
}

/// One UCI session: the current position and the two engines, whose tables
/// live as long as the session (or until `ucinewgame`).
pub struct UciSession {
    game: UciGame,
    current: Current,
    chess: Arc<Mutex<Engine<ChessNode>>>,
    epoch: Arc<Mutex<Engine<EpochNode>>>,
}

/// A search `go` asked for, to run where the caller likes; it prints
/// through the caller's `say`: `info` lines, then one `bestmove` line.
pub struct UciSearch {
    current: Current,
    limits: Limits,
    chess: Arc<Mutex<Engine<ChessNode>>>,
    epoch: Arc<Mutex<Engine<EpochNode>>>,
}

impl std::fmt::Debug for UciSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UciSearch")
            .field("current", &self.current)
            .finish_non_exhaustive()
    }
}

impl UciSession {
    /// A session at the start position, with [`DEFAULT_HASH`] megabytes.
    pub fn new(game: UciGame) -> Self {
        UciSession {
            game,
            current: start(game),
            chess: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
            epoch: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH))),
        }
    }

    /// Whether `line` must wait for a running search to stop first (it
    /// changes the position or the engines); `uci`, `isready` and unknown
    /// lines are answered while the search goes on.
    pub fn interrupts(line: &str) -> bool {
        matches!(
            line.split_whitespace().next(),
            Some("ucinewgame" | "setoption" | "position" | "go" | "stop")
        )
    }

    /// Handles one line of input. Call it for an interrupting line
    /// ([`UciSession::interrupts`]) only once no search runs.
    pub fn handle(&mut self, line: &str) -> Result<UciReply, UciError> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(UciReply::Lines(Vec::new()));
        };
        let rest: Vec<&str> = words.collect();
        let lines = match command {
            "uci" => {
                let game = match self.game {
                    UciGame::Chess => "chess",
                    UciGame::Epoch => "epoch",
                };
                vec![
                    format!("id name tabula {} ({game})", env!("CARGO_PKG_VERSION")),
                    "id author the tabula project".to_owned(),
                    format!("option name Hash type spin default {DEFAULT_HASH} min 1 max 4096"),
                    "uciok".to_owned(),
                ]
            }
            "isready" => vec!["readyok".to_owned()],
            "ucinewgame" => {
                lock(&self.chess).clear();
                lock(&self.epoch).clear();
                self.current = start(self.game);
                Vec::new()
            }
            "setoption" => {
                self.set_option(&rest)?;
                Vec::new()
            }
            "position" => {
                self.current = self.position(&rest)?;
                Vec::new()
            }
            "go" => return Ok(UciReply::Go(self.go(&rest)?)),
            "stop" => return Ok(UciReply::Stop),
            "quit" => return Ok(UciReply::Quit),
            // Anything else is ignored, as the protocol asks.
            _ => Vec::new(),
        };
        Ok(UciReply::Lines(lines))
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), UciError> {
        // setoption name <id...> [value <x...>]
        let text = words.join(" ");
        let body = text.strip_prefix("name ").ok_or(UciError::OptionName)?;
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (body.trim(), None),
        };
        if !name.eq_ignore_ascii_case("hash") {
            return Err(UciError::UnknownOption(name.to_owned()));
        }
        let mb: usize = value
            .ok_or(UciError::HashValue)?
            .parse()
            .map_err(UciError::HashNumber)?;
        if !(1..=4096).contains(&mb) {
            return Err(UciError::HashRange(mb));
        }
        lock(&self.chess).set_hash(mb);
        lock(&self.epoch).set_hash(mb);
        Ok(())
    }

    fn position(&self, words: &[&str]) -> Result<Current, UciError> {
        let (setup, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let bad_move = |text: &str, message: String| UciError::Move {
            text: text.to_owned(),
            message,
        };
        match self.game {
            UciGame::Chess => {
                let fen = match setup {
                    ["startpos"] => START_FEN.to_owned(),
                    ["fen", fields @ ..] if !fields.is_empty() => fields.join(" "),
                    _ => return Err(UciError::PositionSetup("fen <FEN>")),
                };
                let mut pos = Position::from_fen(&fen).map_err(|e| UciError::Position {
                    what: "FEN",
                    message: e.to_string(),
                })?;
                let mut history = vec![pos.hash()];
                for text in moves {
                    let uci: UciMove = text
                        .parse()
                        .map_err(|e| bad_move(text, format!("cannot read it: {e}")))?;
                    let mv = uci
                        .to_move(&pos)
                        .map_err(|e| bad_move(text, e.to_string()))?;
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
                        Epoch::from_text(&fields.join(" "), &options).map_err(|e| {
                            UciError::Position {
                                what: "position text",
                                message: e.to_string(),
                            }
                        })?
                    }
                    _ => return Err(UciError::PositionSetup("text <position text>")),
                };
                for text in moves {
                    let mv = game
                        .parse_action(text)
                        .map_err(|e| bad_move(text, e.to_string()))?;
                    game.apply(&mv).map_err(|e| bad_move(text, e.to_string()))?;
                }
                Ok(Current::Epoch(Box::new(game)))
            }
        }
    }

    fn go(&self, words: &[&str]) -> Result<UciSearch, UciError> {
        let mut limits = Limits::default();
        let mut clock = [None::<u64>; 2];
        let mut inc = [0u64; 2];
        let mut moves_to_go = None;
        let mut it = words.iter();
        let number = |w: Option<&&str>, name: &str| -> Result<u64, UciError> {
            w.and_then(|w| w.parse::<i64>().ok())
                .map(|n| n.max(0) as u64)
                .ok_or_else(|| UciError::Number(name.to_owned()))
        };
        while let Some(&w) = it.next() {
            match w {
                "depth" => limits.depth = Some(number(it.next(), w)?.clamp(1, 100) as u32),
                "nodes" => limits.nodes = Some(number(it.next(), w)?.max(1)),
                "movetime" => {
                    let m = Limits::move_time(Duration::from_millis(number(it.next(), w)?));
                    limits.hard_time = m.hard_time;
                    limits.soft_time = m.soft_time;
                }
                "wtime" => clock[0] = Some(number(it.next(), w)?),
                "btime" => clock[1] = Some(number(it.next(), w)?),
                "winc" => inc[0] = number(it.next(), w)?,
                "binc" => inc[1] = number(it.next(), w)?,
                "movestogo" => moves_to_go = Some(number(it.next(), w)?.min(1000) as u32),
                // `infinite`, `ponder` and the rest: search until stopped.
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
        Ok(UciSearch {
            current: self.current.clone(),
            limits,
            chess: self.chess.clone(),
            epoch: self.epoch.clone(),
        })
    }
}

impl UciSearch {
    /// Searches until its limits or `stop` is set, saying each `info` line
    /// and last the `bestmove` line (`bestmove 0000` when there is no move).
    pub fn run(self, stop: Arc<AtomicBool>, mut say: impl FnMut(String)) {
        let mut limits = self.limits;
        limits.stop = Some(stop);
        let best = match self.current {
            Current::Chess(root) => {
                let out = lock(&self.chess).search(&root, limits, |i| {
                    say(info_line(i, |m| UciMove::from(*m).to_string()))
                });
                out.best.map(|m| UciMove::from(m).to_string())
            }
            Current::Epoch(game) => {
                if game.outcome().is_some() {
                    None
                } else {
                    let out = epoch_decision(&mut lock(&self.epoch), &game, limits, |i| {
                        say(info_line(i, |m| m.to_string()))
                    });
                    out.best.map(|m| m.to_string())
                }
            }
        };
        say(format!(
            "bestmove {}",
            best.unwrap_or_else(|| "0000".to_owned())
        ));
    }
}

fn start(game: UciGame) -> Current {
    match game {
        UciGame::Chess => Current::Chess(Root::new(ChessNode(Position::start()))),
        UciGame::Epoch => Current::Epoch(Box::new(Epoch::new(&EpochOptions::default()))),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(reply: UciReply) -> Vec<String> {
        match reply {
            UciReply::Lines(lines) => lines,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_refused_position_keeps_the_last_one() {
        let mut s = UciSession::new(UciGame::Chess);
        lines(s.handle("position startpos moves e2e4").unwrap());
        let err = s.handle("position startpos moves e2e5").unwrap_err();
        assert!(err.to_string().starts_with("move 'e2e5'"), "{err}");
        assert_eq!(
            s.handle("setoption name Hash value 0").unwrap_err(),
            UciError::HashRange(0)
        );
        let UciReply::Go(search) = s.handle("go depth 1").unwrap() else {
            panic!("go gives a search");
        };
        let mut said = Vec::new();
        search.run(Arc::new(AtomicBool::new(false)), |l| said.push(l));
        // Black answers after e2e4: a Black move.
        let best = said.last().unwrap();
        let to_rank = best.chars().nth(12).unwrap();
        assert!(
            best.starts_with("bestmove ") && "65".contains(to_rank),
            "{best}"
        );
    }

    #[test]
    fn isready_is_answered_and_unknown_lines_ignored() {
        let mut s = UciSession::new(UciGame::Epoch);
        assert_eq!(lines(s.handle("isready").unwrap()), ["readyok"]);
        assert!(lines(s.handle("debug on").unwrap()).is_empty());
        assert!(UciSession::interrupts("position startpos"));
        assert!(!UciSession::interrupts("isready"));
    }
}
