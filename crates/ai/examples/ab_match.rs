//! An A/B match between two builds of the chess alpha-beta engine at a
//! fixed node budget a move: deterministic, so machine load does not change
//! the games, only how long they take.
//!
//! Keep a copy of this example's binary before a change (the base), make
//! the change, then play the new build against the copy:
//!
//! `cargo run --release -p tabula-ai --example ab_match -- match BASE GAMES NODES [THREADS]`
//!
//! Each opening (eight random plies from a seeded `GameRng`, each among the
//! moves a shallow search finds nearly best) is played
//! twice, colours swapped, so an unbalanced opening favours neither side.
//! The score is the new build's. `ab_match engine` is the side each process
//! plays: `ucinewgame`, `position startpos moves ...`, `go nodes N`, `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_ai::alphabeta::{ChessNode, Engine, Limits, chess_root};
use tabula_chess::{Chess, UciMove};
use tabula_core::{Game, GameRng, Seed, Team};

const OPENING_PLIES: usize = 8;
const OPENING_SLACK: i32 = 40;
const MAX_PLIES: usize = 300;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("engine") => engine(),
        Some("match") => {
            let base = args.get(2).expect("the base binary");
            let number = |i: usize, default: u64| {
                args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
            };
            run_match(
                base,
                number(3, 100) as usize,
                number(4, 20_000),
                number(5, 1) as usize,
            );
        }
        _ => eprintln!("usage: ab_match engine | ab_match match BASE GAMES NODES [THREADS]"),
    }
}

/// The engine side: a few UCI commands, enough for the match.
fn engine() {
    let mut engine = Engine::<ChessNode>::new(16);
    let mut game = Chess::new(&Default::default());
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.expect("input");
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ucinewgame"] => engine.clear(),
            ["position", "startpos", rest @ ..] => {
                game = Chess::new(&Default::default());
                for m in rest.iter().skip(1) {
                    let a = game.parse_action(m).expect("a legal move");
                    game.apply(&a).expect("a legal move");
                }
            }
            ["go", "nodes", n] => {
                let limits = Limits {
                    nodes: Some(n.parse().expect("a node count")),
                    ..Limits::default()
                };
                let out = engine.search(&chess_root(&game), limits, |_| {});
                let best = out
                    .best
                    .map_or("0000".to_owned(), |m| UciMove::from(m).to_string());
                println!("bestmove {best}");
            }
            ["quit"] => break,
            _ => {}
        }
    }
}

struct Side {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Side {
    fn start(program: &str) -> Side {
        let mut child = Command::new(program)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Side {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine input");
        self.input.flush().expect("engine input");
    }

    fn best(&mut self, moves: &[String], nodes: u64) -> String {
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        self.send(&format!("go nodes {nodes}"));
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).expect("engine output") == 0 {
                panic!("an engine ended mid-game");
            }
            if let Some(m) = line.strip_prefix("bestmove ") {
                return m.trim().to_owned();
            }
        }
    }
}

/// Eight random plies, the same for both games of a pair: each a move
/// drawn among those a shallow search scores within `OPENING_SLACK` of the
/// best, so the openings differ without giving a game away.
fn opening(pair: usize) -> (Chess, Vec<String>) {
    let mut rng = GameRng::from_seed(Seed(pair as u64 * 7919 + 17));
    let mut engine = Engine::<ChessNode>::new(1);
    let mut game = Chess::new(&Default::default());
    let mut moves = Vec::new();
    for _ in 0..OPENING_PLIES {
        let mut scored = Vec::new();
        for m in game.position().legal_moves() {
            let text = UciMove::from(m).to_string();
            let mut next = game.clone();
            let a = next.parse_action(&text).expect("a legal move");
            next.apply(&a).expect("a legal move");
            if next.outcome().is_some() {
                continue;
            }
            engine.clear();
            let out = engine.search(&chess_root(&next), Limits::depth(2), |_| {});
            scored.push((-out.info.score, text));
        }
        let Some(best) = scored.iter().map(|e| e.0).max() else {
            break;
        };
        scored.retain(|e| e.0 >= best - OPENING_SLACK);
        let Some((_, text)) = rng.choose(&scored) else {
            break;
        };
        let a = game.parse_action(text).expect("a legal move");
        game.apply(&a).expect("a legal move");
        moves.push(text.clone());
    }
    (game, moves)
}

/// One game: 1 if the new build won, 0.5 a draw, 0 a loss.
fn play(new: &mut Side, base: &mut Side, index: usize, nodes: u64) -> f64 {
    let (mut game, mut moves) = opening(index / 2);
    let new_team = Team((index % 2) as u8);
    new.send("ucinewgame");
    base.send("ucinewgame");
    while game.outcome().is_none() && moves.len() < MAX_PLIES {
        let mover = Team(game.position().turn().index() as u8);
        let side = if mover == new_team {
            &mut *new
        } else {
            &mut *base
        };
        let text = side.best(&moves, nodes);
        let a = game.parse_action(&text).expect("a legal move");
        game.apply(&a).expect("a legal move");
        moves.push(text);
    }
    if std::env::var_os("AB_VERBOSE").is_some() {
        eprintln!("{} {:?}", moves.join(" "), game.outcome());
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(t) if t == new_team => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn run_match(base: &str, games: usize, nodes: u64, threads: usize) {
    let me = std::env::current_exe().expect("this binary");
    let me = me.to_str().expect("a path");
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut new = Side::start(me);
                let mut old = Side::start(base);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let r = play(&mut new, &mut old, i, nodes);
                    println!("game {}: {r}", i + 1);
                    results.lock().expect("results").push(r);
                }
                for side in [&mut new, &mut old] {
                    side.send("quit");
                    let _ = side.child.wait();
                }
            });
        }
    });
    let results = results.into_inner().expect("results");
    let n = results.len() as f64;
    let wins = results.iter().filter(|&&r| r == 1.0).count();
    let draws = results.iter().filter(|&&r| r == 0.5).count();
    let losses = results.len() - wins - draws;
    let score = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|r| (r - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
    println!(
        "new vs base, {nodes} nodes a move: +{wins} ={draws} -{losses} of {}, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]",
        results.len(),
        score * 100.0,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}
