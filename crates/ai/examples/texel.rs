//! Texel tuning of the chess evaluation's weights: a dev tool, not a CI step.
//!
//! `texel gen OUT GAMES NODES [THREADS] [FIRST]` plays the engine against itself at
//! a fixed node budget a move from seeded random openings (other seeds than
//! `ab_match`'s, so the yardstick's openings are not the training ones) and
//! writes every quiet position of each game (not in check, the static
//! evaluation equal to the quiescence score) with the game's result, a line
//! each: `game;result;fen`, the result from White's view (1, 0.5, 0).
//! The games are numbered from FIRST (0 unless given), and the number
//! seeds the opening, so a second run from another FIRST adds new openings.
//!
//! `texel fit IN [PASSES]` fits the weights ([`Weights`]) to those results:
//! it minimises the mean squared difference between each result and
//! `1 / (1 + 10^(-K × eval / 400))`, the static evaluation from White's
//! view, first over K with the kept weights, then over the weights with K
//! fixed, by local search (each weight moved a step up or down while the
//! loss falls, the steps halving from 8 to 1). Every tenth game is held out
//! and its loss printed too, so overfitting shows. It prints the fitted
//! weights, one `name: value,` a line, for `crates/ai/src/alphabeta/chess.rs`.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_ai::alphabeta::chess::{WEIGHTS, Weights, evaluate_with};
use tabula_ai::alphabeta::{ChessNode, Engine, Limits, Node, chess_root};
use tabula_chess::{Chess, Color, Position, UciMove};
use tabula_core::{Game, GameRng, Seed, Team};

const OPENING_PLIES: usize = 10;
const OPENING_SLACK: i32 = 50;
const MAX_PLIES: usize = 300;
/// A game is adjudicated won once both sides' searches agree on this much.
const ADJUDICATE: i32 = 1_200;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.get(1).map(String::as_str) {
        Some("gen") => generate(
            args.get(2).expect("the output file"),
            number(3, 1000) as usize,
            number(4, 3000),
            number(5, 1) as usize,
            number(6, 0) as usize,
        ),
        Some("fit") => fit(
            args.get(2).expect("the positions file"),
            number(3, 6) as usize,
        ),
        _ => {
            eprintln!("usage: texel gen OUT GAMES NODES [THREADS] [FIRST] | texel fit IN [PASSES]")
        }
    }
}

/// Random plies, each among the moves a depth-1 search scores within
/// `OPENING_SLACK` of the best.
fn opening(index: usize, engine: &mut Engine<ChessNode>) -> Chess {
    let mut rng = GameRng::from_seed(Seed(index as u64 * 104_729 + 1_000_003));
    let mut game = Chess::new(&Default::default());
    for _ in 0..OPENING_PLIES {
        let mut scored = Vec::new();
        for m in game.position().legal_moves() {
            let mut next = game.clone();
            let a = next
                .parse_action(&UciMove::from(m).to_string())
                .expect("a legal move");
            next.apply(&a).expect("a legal move");
            if next.outcome().is_some() {
                continue;
            }
            engine.clear();
            let out = engine.search(&chess_root(&next), Limits::depth(1), |_| {});
            scored.push((-out.info.score, a));
        }
        let Some(best) = scored.iter().map(|e| e.0).max() else {
            break;
        };
        scored.retain(|e| e.0 >= best - OPENING_SLACK);
        let Some((_, a)) = rng.choose(&scored) else {
            break;
        };
        game.apply(a).expect("a legal move");
    }
    game
}

/// One self-play game: its quiet positions as FEN, and White's result.
fn self_play(index: usize, nodes: u64, engine: &mut Engine<ChessNode>) -> (Vec<String>, f64) {
    let mut game = opening(index, engine);
    engine.clear();
    let mut quiet = Vec::new();
    let mut last_score: Option<i32> = None;
    let mut adjudged = None;
    for _ in 0..MAX_PLIES {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let node = ChessNode(pos);
        if !node.in_check() && engine.quiescence(&node) == node.evaluate() {
            quiet.push(pos.fen());
        }
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let out = engine.search(&chess_root(&game), limits, |_| {});
        let Some(best) = out.best else { break };
        let score = out.info.score;
        // Both sides' searches agree the mover is winning by far.
        if score >= ADJUDICATE && last_score.is_some_and(|s| s <= -ADJUDICATE) {
            adjudged = Some(pos.turn());
            break;
        }
        last_score = Some(score);
        let a = game
            .parse_action(&UciMove::from(best).to_string())
            .expect("a legal move");
        game.apply(&a).expect("a legal move");
    }
    let white = match adjudged {
        Some(c) => c,
        None => match game.outcome().and_then(|o| o.winner) {
            Some(Team(0)) => Color::White,
            Some(_) => Color::Black,
            None => return (quiet, 0.5),
        },
    };
    (quiet, if white == Color::White { 1.0 } else { 0.0 })
}

fn generate(out: &str, games: usize, nodes: u64, threads: usize, first: usize) {
    let file = Mutex::new(BufWriter::new(File::create(out).expect("the output file")));
    let next = AtomicUsize::new(0);
    let totals = Mutex::new((0usize, 0.0f64, 0usize));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::<ChessNode>::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let i = i + first;
                    let (quiet, result) = self_play(i, nodes, &mut engine);
                    let mut f = file.lock().expect("output");
                    for fen in &quiet {
                        writeln!(f, "{i};{result};{fen}").expect("output");
                    }
                    let mut t = totals.lock().expect("totals");
                    t.0 += 1;
                    t.1 += result;
                    t.2 += quiet.len();
                    if t.0.is_multiple_of(50) {
                        eprintln!(
                            "{} games, {} positions, White {:.1}%",
                            t.0,
                            t.2,
                            100.0 * t.1 / t.0 as f64
                        );
                    }
                }
            });
        }
    });
    let t = totals.into_inner().expect("totals");
    println!(
        "{} games at {nodes} nodes a move, {} quiet positions, White scored {:.1}%",
        t.0,
        t.2,
        100.0 * t.1 / t.0.max(1) as f64
    );
}

/// The mean squared error of the predicted results over `data`.
fn loss(data: &[(Position, f64)], w: &Weights, k: f64) -> f64 {
    let chunk = data.len().div_ceil(2).max(1);
    let sum: f64 = std::thread::scope(|s| {
        let parts: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(pos, result)| {
                            let e = evaluate_with(pos, w);
                            let white = if pos.turn() == Color::White { e } else { -e };
                            let p = 1.0 / (1.0 + 10f64.powf(-k * f64::from(white) / 400.0));
                            (result - p).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().expect("a loss thread"))
            .sum()
    });
    sum / data.len().max(1) as f64
}

fn fit(input: &str, passes: usize) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for line in BufReader::new(File::open(input).expect("the positions file")).lines() {
        let line = line.expect("input");
        let mut parts = line.splitn(3, ';');
        let (Some(game), Some(result), Some(fen)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(game), Ok(result), Ok(pos)) = (
            game.parse::<usize>(),
            result.parse::<f64>(),
            Position::from_fen(fen),
        ) else {
            continue;
        };
        if game % 10 == 9 {
            held.push((pos, result));
        } else {
            train.push((pos, result));
        }
    }
    println!(
        "{} training positions, {} held out",
        train.len(),
        held.len()
    );
    let mut w = WEIGHTS;
    // K: golden-section search over [0.1, 4].
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(&train, &w, a) < loss(&train, &w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    let before = loss(&train, &w, k);
    println!(
        "K = {k:.3}; loss with the kept weights: training {before:.6}, held out {:.6}",
        loss(&held, &w, k)
    );
    let mut best = before;
    for step in [8, 4, 2, 1] {
        for pass in 0..passes {
            let mut improved = false;
            for i in 0..Weights::NAMES.len() {
                for delta in [step, -step] {
                    let mut trial = w;
                    *trial.values_mut()[i] += delta;
                    let l = loss(&train, &trial, k);
                    if l < best {
                        best = l;
                        w = trial;
                        improved = true;
                        break;
                    }
                }
            }
            eprintln!(
                "step {step}, pass {}: training {best:.6}, held out {:.6}",
                pass + 1,
                loss(&held, &w, k)
            );
            if !improved {
                break;
            }
        }
    }
    println!(
        "fitted: training {best:.6}, held out {:.6}",
        loss(&held, &w, k)
    );
    let mut kept = WEIGHTS;
    let kept = kept.values_mut();
    for ((name, v), old) in Weights::NAMES.iter().zip(w.values_mut()).zip(kept) {
        println!("    {name}: {v}, // was {old}");
    }
}
