//! A match of the alpha-beta engine against an external UCI engine (Debian's
//! `stockfish`) at a fixed time a move and a `Skill Level`, colours
//! alternating, the rules and results read by `tabula_chess`.
//!
//! `cargo run --release -p tabula-ai --example stockfish_match -- GAMES MS SKILL [ENGINE]`
//! prints one line a game and the total from tabula's side.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use tabula_ai::alphabeta::{ChessNode, Engine, Limits, chess_root};
use tabula_chess::{Chess, ChessAction, UciMove};
use tabula_core::{Game, Team};

/// A few opening moves so the games differ from the first move on.
const OPENINGS: [&str; 8] = [
    "e2e4 e7e5",
    "d2d4 d7d5",
    "e2e4 c7c5",
    "d2d4 g8f6",
    "c2c4 e7e5",
    "g1f3 d7d5",
    "e2e4 e7e6",
    "e2e4 c7c6",
];

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
    for g in 0..games {
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
        while game.outcome().is_none() && moves.len() < 400 {
            let mover = Team(game.position().turn().index() as u8);
            let text = if mover == ours {
                let out = engine.search(
                    &chess_root(&game),
                    Limits::move_time(Duration::from_millis(ms)),
                    |_| {},
                );
                UciMove::from(out.best.expect("a legal move")).to_string()
            } else {
                other.send(&format!("position startpos moves {}", moves.join(" ")));
                other.send(&format!("go movetime {ms}"));
                let line = other.until("bestmove");
                line.split_whitespace().nth(1).expect("bestmove").to_owned()
            };
            let action: ChessAction = game.parse_action(&text).expect("a legal move");
            game.apply(&action).expect("a legal move");
            moves.push(text);
        }
        let result = match game.outcome().and_then(|o| o.winner) {
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
            "game {}: tabula {} {result} in {} plies",
            g + 1,
            if ours == Team(0) { "white" } else { "black" },
            moves.len()
        );
    }
    other.send("quit");
    let _ = child.wait();
    let score = (wins as f64 + draws as f64 / 2.0) / games.max(1) as f64;
    println!(
        "skill {skill}, {ms} ms a move: tabula +{wins} ={draws} -{losses}, score {:.1}%",
        score * 100.0
    );
}
