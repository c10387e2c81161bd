//! An A/B match between two builds of the alpha-beta engine, chess or
//! Epoch, at a fixed node budget a move: deterministic, so machine load
//! does not change the games, only how long they take.
//!
//! Keep a copy of this example's binary before a change (the base), make
//! the change, then play the new build against the copy:
//!
//! `cargo run --release -p tabula-ai --example ab_match -- match BASE GAMES NODES [THREADS] [epoch]`
//!
//! Each opening (random plies from a seeded `GameRng`, each among the
//! moves a shallow search finds nearly best: chess eight plies at depth 2,
//! Epoch four at depth 1) is played twice, colours swapped, so an
//! unbalanced opening favours neither side. Epoch is played without the
//! swap (the seats are the colours), so the openings decide the colours.
//! The score is the new build's. `ab_match engine [epoch]` is the side each
//! process plays: `ucinewgame`, `position startpos moves ...`, `go nodes N`,
//! `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_ai::alphabeta::{
    ChessNode, Engine, EpochNode, Limits, Node, Root, chess_root, epoch_root,
};
use tabula_chess::{Chess, UciMove};
use tabula_core::{Game, GameRng, Seed, Team};
use tabula_epoch::{Epoch, EpochOptions};

/// A game the match plays: how it starts, its search root and its moves'
/// text, and how its openings are drawn.
trait Played: Game<ActionError: std::fmt::Debug> + Clone {
    type N: Node;
    /// Random opening plies.
    const OPENING_PLIES: usize;
    /// The depth of the search that scores each opening move.
    const OPENING_DEPTH: u32;
    /// Opening moves within this of the best are drawn from.
    const OPENING_SLACK: i32;
    /// Longer games are draws.
    const MAX_PLIES: usize;
    fn start() -> Self;
    fn root(&self) -> Root<Self::N>;
    fn text(mv: <Self::N as Node>::Move) -> String;
    /// Every legal move's text, in the generator's order.
    fn move_texts(&self) -> Vec<String>;
    /// The seat to move (0 plays White: no swap).
    fn mover(&self) -> Team;
}

impl Played for Chess {
    type N = ChessNode;
    const OPENING_PLIES: usize = 8;
    const OPENING_DEPTH: u32 = 2;
    const OPENING_SLACK: i32 = 40;
    const MAX_PLIES: usize = 300;
    fn start() -> Chess {
        Chess::new(&Default::default())
    }
    fn root(&self) -> Root<ChessNode> {
        chess_root(self)
    }
    fn text(mv: tabula_chess::Move) -> String {
        UciMove::from(mv).to_string()
    }
    fn move_texts(&self) -> Vec<String> {
        self.position()
            .legal_moves()
            .into_iter()
            .map(Self::text)
            .collect()
    }
    fn mover(&self) -> Team {
        Team(self.position().turn().index() as u8)
    }
}

impl Played for Epoch {
    type N = EpochNode;
    const OPENING_PLIES: usize = 4;
    const OPENING_DEPTH: u32 = 1;
    const OPENING_SLACK: i32 = 40;
    const MAX_PLIES: usize = 600;
    fn start() -> Epoch {
        Epoch::new(&EpochOptions { swap: false })
    }
    fn root(&self) -> Root<EpochNode> {
        epoch_root(self)
    }
    fn text(mv: tabula_epoch::Move) -> String {
        mv.to_string()
    }
    fn move_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.legal_actions(&mut moves);
        moves.into_iter().map(Self::text).collect()
    }
    fn mover(&self) -> Team {
        Team(self.to_act().player().map_or(0, |p| p.0))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let epoch = |i: usize| args.get(i).map(String::as_str) == Some("epoch");
    match args.get(1).map(String::as_str) {
        Some("engine") if epoch(2) => engine::<Epoch>(),
        Some("engine") => engine::<Chess>(),
        Some("match") => {
            let base = args.get(2).expect("the base binary");
            let number = |i: usize, default: u64| {
                args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
            };
            let (games, nodes, threads) = (
                number(3, 100) as usize,
                number(4, 20_000),
                number(5, 1) as usize,
            );
            if epoch(6) {
                run_match::<Epoch>(base, games, nodes, threads);
            } else {
                run_match::<Chess>(base, games, nodes, threads);
            }
        }
        _ => eprintln!(
            "usage: ab_match engine [epoch] | ab_match match BASE GAMES NODES [THREADS] [epoch]"
        ),
    }
}

/// The engine side: a few UCI commands, enough for the match.
fn engine<G: Played>() {
    let mut engine = Engine::<G::N>::new(16);
    let mut game = G::start();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.expect("input");
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ucinewgame"] => engine.clear(),
            ["position", "startpos", rest @ ..] => {
                game = G::start();
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
                let out = engine.search(&game.root(), limits, |_| {});
                let best = out.best.map_or("0000".to_owned(), G::text);
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
    fn start(program: &str, epoch: bool) -> Side {
        let mut command = Command::new(program);
        command.arg("engine");
        if epoch {
            command.arg("epoch");
        }
        let mut child = command
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

/// Random plies, the same for both games of a pair: each a move drawn
/// among those a shallow search scores within the slack of the best, so
/// the openings differ without giving a game away.
fn opening<G: Played>(pair: usize) -> (G, Vec<String>) {
    let mut rng = GameRng::from_seed(Seed(pair as u64 * 7919 + 17));
    let mut engine = Engine::<G::N>::new(1);
    let mut game = G::start();
    let mut moves = Vec::new();
    for _ in 0..G::OPENING_PLIES {
        let mut scored = Vec::new();
        for text in game.move_texts() {
            let mut next = game.clone();
            let a = next.parse_action(&text).expect("a legal move");
            next.apply(&a).expect("a legal move");
            if next.to_act().outcome().is_some() {
                continue;
            }
            engine.clear();
            let out = engine.search(&next.root(), Limits::depth(G::OPENING_DEPTH), |_| {});
            scored.push((-out.info.score, text));
        }
        let Some(best) = scored.iter().map(|e| e.0).max() else {
            break;
        };
        scored.retain(|e| e.0 >= best - G::OPENING_SLACK);
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
fn play<G: Played>(new: &mut Side, base: &mut Side, index: usize, nodes: u64) -> f64 {
    let (mut game, mut moves) = opening::<G>(index / 2);
    let new_team = Team((index % 2) as u8);
    new.send("ucinewgame");
    base.send("ucinewgame");
    while game.to_act().outcome().is_none() && moves.len() < G::MAX_PLIES {
        let side = if game.mover() == new_team {
            &mut *new
        } else {
            &mut *base
        };
        let text = side.best(&moves, nodes);
        let a = game.parse_action(&text).expect("a legal move");
        game.apply(&a).expect("a legal move");
        moves.push(text);
    }
    let outcome = game.to_act().outcome();
    if std::env::var_os("AB_VERBOSE").is_some() {
        eprintln!("{} {:?}", moves.join(" "), outcome);
    }
    match outcome.and_then(|o| o.winner) {
        Some(t) if t == new_team => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn run_match<G: Played>(base: &str, games: usize, nodes: u64, threads: usize) {
    let me = std::env::current_exe().expect("this binary");
    let me = me.to_str().expect("a path");
    let epoch = std::any::type_name::<G>().contains("Epoch");
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut new = Side::start(me, epoch);
                let mut old = Side::start(base, epoch);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let r = play::<G>(&mut new, &mut old, i, nodes);
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
