//! A match of the alpha-beta engine against an external UCI engine (Debian's
//! `stockfish`) at a fixed time a move and a `Skill Level`, colours
//! alternating, the rules and results read by `tabula_chess`.
//!
//! `cargo run --release -p tabula-ai --example stockfish_match -- GAMES MS SKILL [ENGINE] [FIRST]`
//! plays games FIRST.. FIRST+GAMES-1 (so one series can be split between
//! processes: game g's opening and colours depend on g alone) and prints one
//! line a game and the total from tabula's side.
//!
//! A game is adjudicated, as match tools do (cutechess-cli's `-resign`), once
//! both engines have agreed for four moves each that one side is ahead by
//! `RESIGN_CP` or more: a won game then ends in minutes of a core fewer,
//! which is what makes a series at 1 s a move fit on two cores.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use tabula_ai::alphabeta::{ChessNode, Engine, Limits, chess_root};
use tabula_chess::{Chess, ChessAction, UciMove};
use tabula_core::{Game, Team};

/// A few opening moves so the games differ from the first move on (the
/// first eight were the whole list before adjudication came in).
const OPENINGS: [&str; 16] = [
    "e2e4 e7e5",
    "d2d4 d7d5",
    "e2e4 c7c5",
    "d2d4 g8f6",
    "c2c4 e7e5",
    "g1f3 d7d5",
    "e2e4 e7e6",
    "e2e4 c7c6",
    "d2d4 e7e6",
    "c2c4 c7c5",
    "g1f3 g8f6",
    "e2e4 d7d6",
    "d2d4 d7d6",
    "e2e4 g8f6",
    "c2c4 g8f6",
    "g2g3 d7d5",
];

/// The advantage both engines must see for a game to be adjudicated.
const RESIGN_CP: i32 = 1_000;
/// Consecutive plies (both engines' moves) that must agree on it.
const RESIGN_PLIES: i32 = 8;
/// A mate score, as far as adjudication is concerned.
const MATE_CP: i32 = 30_000;

struct Uci {
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Uci {
    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine input");
        self.input.flush().expect("engine input");
    }

    fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).expect("engine output") == 0 {
                panic!("the engine ended before '{prefix}'");
            }
            if line.starts_with(prefix) {
                return line.trim().to_owned();
            }
        }
    }

    /// The engine's move and its score for the side to move (centipawns;
    /// a mate as `MATE_CP`), from its last principal line: with a Skill
    /// Level stockfish searches four lines and reports each, and the first
    /// is its own judgement of the position whatever move it then picks.
    fn think(&mut self) -> (String, Option<i32>) {
        let mut score = None;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).expect("engine output") == 0 {
                panic!("the engine ended before 'bestmove'");
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"bestmove") => {
                    let best = words.get(1).expect("bestmove").to_string();
                    return (best, score);
                }
                Some(&"info") => {
                    let first_line = words
                        .iter()
                        .position(|w| *w == "multipv")
                        .is_none_or(|i| words.get(i + 1) == Some(&"1"));
                    if let Some(i) = words.iter().position(|w| *w == "score")
                        && first_line
                    {
                        let value = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                        score = match (words.get(i + 1), value) {
                            (Some(&"cp"), Some(v)) => Some(v),
                            (Some(&"mate"), Some(v)) => {
                                Some(if v > 0 { MATE_CP } else { -MATE_CP })
                            }
                            _ => score,
                        };
                    }
                }
                _ => {}
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let games = number(1, 10) as usize;
    let ms = number(2, 1000);
    let skill = number(3, 0);
    let program = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "stockfish".to_owned());
    let first = number(5, 0) as usize;

    let mut child = Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let mut other = Uci {
        input: child.stdin.take().expect("stdin"),
        output: BufReader::new(child.stdout.take().expect("stdout")),
    };
    other.send("uci");
    other.until("uciok");
    other.send(&format!("setoption name Skill Level value {skill}"));
    other.send("setoption name Threads value 1");
    other.send("setoption name Hash value 16");
    other.send("isready");
    other.until("readyok");

    let mut engine = Engine::<ChessNode>::new(32);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut our_time, mut our_moves) = (Duration::ZERO, 0u32);
    for g in first..first + games {
        let ours = Team((g % 2) as u8);
        let mut game = Chess::new(&Default::default());
        let mut moves: Vec<String> = Vec::new();
        for m in OPENINGS[(g / 2) % OPENINGS.len()].split_whitespace() {
            let a = game.parse_action(m).expect("opening move");
            game.apply(&a).expect("opening move");
            moves.push(m.to_owned());
        }
        engine.clear();
        other.send("ucinewgame");
        // Plies in a row whose mover saw tabula ahead (positive) or behind
        // (negative) by RESIGN_CP or more.
        let mut streak = 0i32;
        let mut adjudicated = None;
        while game.outcome().is_none() && moves.len() < 400 {
            let mover = Team(game.position().turn().index() as u8);
            let (text, score) = if mover == ours {
                let start = Instant::now();
                let out = engine.search(
                    &chess_root(&game),
                    Limits::move_time(Duration::from_millis(ms)),
                    |_| {},
                );
                our_time += start.elapsed();
                our_moves += 1;
                let best = UciMove::from(out.best.expect("a legal move")).to_string();
                (best, Some(out.info.score))
            } else {
                other.send(&format!("position startpos moves {}", moves.join(" ")));
                other.send(&format!("go movetime {ms}"));
                let (best, score) = other.think();
                (best, score.map(|s| -s))
            };
            let action: ChessAction = game.parse_action(&text).expect("a legal move");
            game.apply(&action).expect("a legal move");
            moves.push(text);
            streak = match score {
                Some(s) if s >= RESIGN_CP => streak.max(0) + 1,
                Some(s) if s <= -RESIGN_CP => streak.min(0) - 1,
                _ => 0,
            };
            if streak.abs() >= RESIGN_PLIES {
                adjudicated = Some(if streak > 0 { ours } else { Team(1 - ours.0) });
                break;
            }
        }
        let how = match (game.outcome(), adjudicated) {
            (Some(o), _) => format!("{:?}", o.reason),
            (None, Some(_)) => "adjudicated".to_owned(),
            (None, None) => "400 plies".to_owned(),
        };
        let winner = game.outcome().map_or(adjudicated, |o| o.winner);
        let result = match winner {
            Some(t) if t == ours => {
                wins += 1;
                "win"
            }
            Some(_) => {
                losses += 1;
                "loss"
            }
            None => {
                draws += 1;
                "draw"
            }
        };
        println!(
            "game {}: tabula {} {result} in {} plies ({how}), opening {}",
            g + 1,
            if ours == Team(0) { "white" } else { "black" },
            moves.len(),
            OPENINGS[(g / 2) % OPENINGS.len()]
        );
    }
    other.send("quit");
    let _ = child.wait();
    let score = (wins as f64 + draws as f64 / 2.0) / games.max(1) as f64;
    println!(
        "skill {skill}, {ms} ms a move: tabula +{wins} ={draws} -{losses}, score {:.1}%, tabula {:.0} ms a move",
        score * 100.0,
        our_time.as_secs_f64() * 1000.0 / f64::from(our_moves.max(1))
    );
}
