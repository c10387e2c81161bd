//! Texel tuning of an evaluation's weights, chess's or Epoch's (`epoch`
//! last): a dev tool, not a CI step.
//!
//! `texel gen OUT GAMES NODES [THREADS] [FIRST] [epoch]` plays the engine
//! against itself at a fixed node budget a move from seeded random openings
//! (other seeds than `ab_match`'s, so the yardstick's openings are not the
//! training ones) and writes every quiet position of each game (not in
//! check, the static evaluation equal to the quiescence score) with the
//! game's result, a line each: `game;result;position`, the result from
//! White's view (1, 0.5, 0), the position as FEN (chess) or Epoch's position
//! text without its repetition history. Epoch is played without the swap
//! (the seats are the colours). The games are numbered from FIRST (0 unless
//! given), and the number seeds the opening, so a second run from another
//! FIRST adds new openings.
//!
//! `texel fit IN [PASSES] [THREADS] [signs] [epoch]` (THREADS 2 unless
//! given) fits the weights to those results: it minimises the mean squared difference
//! between each result and
//! `1 / (1 + 10^(-K × eval / 400))`, the static evaluation from White's
//! view, first over K with the kept weights, then over the weights with K
//! fixed, by local search (each weight moved a step up or down while the
//! loss falls, the steps halving from 8 to 1). Every tenth game is held out
//! and its loss printed too, so overfitting shows. With `signs`, no weight
//! crosses zero (a small data set otherwise turns terms round). It prints the fitted
//! weights, one `name: value,` a line, for `crates/ai/src/alphabeta/chess.rs`
//! or `epoch.rs`. Last, the side-to-move offset: over the positions of all
//! the games with Black to move and the board still nearly full, the
//! constant B that best fits `1 / (1 + 10^(-K × (eval + B) / 400))`, with
//! the fitted weights, to Black's result, so Black's expected score is 50%
//! at an evaluation of −B: the swap margin (Epoch's `SWAP_MARGIN`) that
//! measure gives.
//!
//! `texel swap [NODES] [PLAY K]` prints Black's search score (NODES, 20,000
//! unless given) after each of White's first moves in Epoch, and whether
//! the engine swaps there with the kept `SWAP_MARGIN`; with PLAY, it also
//! plays a game from each (PLAY nodes a move, no swap) and fits, with the
//! fitted K, the offset B at which Black's expected score is 50% (−B), a
//! bootstrap interval over the first moves.

use std::fmt::Debug;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_ai::alphabeta::{
    ChessNode, Engine, EpochNode, Limits, Node, Root, SWAP_MARGIN, chess, chess_root, epoch,
    epoch_decision, epoch_root,
};
use tabula_chess::{Chess, UciMove};
use tabula_core::{Game, GameRng, Seed, Team};
use tabula_epoch::{Epoch, EpochOptions};

/// A game whose evaluation is tuned: how its self-play goes, how its
/// positions are written and read back, and its weights.
trait Tuned: Game<ActionError: Debug> + Clone {
    type N: Node;
    /// The position the evaluation reads.
    type P: Copy + Send + Sync;
    type W: Copy + Send + Sync;
    const KEPT: Self::W;
    const NAMES: &'static [&'static str];
    const OPENING_PLIES: usize;
    /// Opening moves within this of the best are drawn from.
    const OPENING_SLACK: i32;
    /// Longer games are draws.
    const MAX_PLIES: usize;
    /// A game is adjudicated won once both sides' searches agree on this much.
    const ADJUDICATE: i32;
    /// Positions with at least this many pieces count as the opening, for
    /// the side-to-move offset.
    const FULL: usize;
    fn start() -> Self;
    fn root(&self) -> Root<Self::N>;
    fn text(mv: <Self::N as Node>::Move) -> String;
    /// Every legal move's text, in the generator's order.
    fn move_texts(&self) -> Vec<String>;
    fn white_to_move(&self) -> bool;
    fn position_text(&self) -> String;
    fn read(text: &str) -> Option<Self::P>;
    /// The static evaluation from the side to move's view, and whether
    /// White is to move.
    fn evaluate(p: &Self::P, w: &Self::W) -> (i32, bool);
    fn pieces(p: &Self::P) -> usize;
    fn values_mut(w: &mut Self::W) -> Vec<&mut i32>;
}

impl Tuned for Chess {
    type N = ChessNode;
    type P = tabula_chess::Position;
    type W = chess::Weights;
    const KEPT: chess::Weights = chess::WEIGHTS;
    const NAMES: &'static [&'static str] = chess::Weights::NAMES;
    const OPENING_PLIES: usize = 10;
    const OPENING_SLACK: i32 = 50;
    const MAX_PLIES: usize = 300;
    const ADJUDICATE: i32 = 1_200;
    const FULL: usize = 28;
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
    fn white_to_move(&self) -> bool {
        self.position().turn() == tabula_chess::Color::White
    }
    fn position_text(&self) -> String {
        self.position().fen()
    }
    fn read(text: &str) -> Option<Self::P> {
        tabula_chess::Position::from_fen(text).ok()
    }
    fn evaluate(p: &Self::P, w: &Self::W) -> (i32, bool) {
        (
            chess::evaluate_with(p, w),
            p.turn() == tabula_chess::Color::White,
        )
    }
    fn pieces(p: &Self::P) -> usize {
        p.board().occupied().count() as usize
    }
    fn values_mut(w: &mut Self::W) -> Vec<&mut i32> {
        w.values_mut()
    }
}

const NO_SWAP: EpochOptions = EpochOptions { swap: false };

impl Tuned for Epoch {
    type N = EpochNode;
    type P = tabula_epoch::Position;
    type W = epoch::Weights;
    const KEPT: epoch::Weights = epoch::WEIGHTS;
    const NAMES: &'static [&'static str] = epoch::Weights::NAMES;
    const OPENING_PLIES: usize = 6;
    // Epoch's values are about twice chess's (a Legionary 200).
    const OPENING_SLACK: i32 = 80;
    const MAX_PLIES: usize = 600;
    const ADJUDICATE: i32 = 2_400;
    const FULL: usize = 48;
    fn start() -> Epoch {
        Epoch::new(&NO_SWAP)
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
    fn white_to_move(&self) -> bool {
        self.position().side_to_move() == tabula_epoch::Color::White
    }
    fn position_text(&self) -> String {
        // The ten fields without the repetition history: the evaluation
        // does not read it, and it would make the lines long.
        self.to_text()
            .split(' ')
            .take(10)
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn read(text: &str) -> Option<Self::P> {
        Epoch::from_text(text, &NO_SWAP).ok().map(|g| *g.position())
    }
    fn evaluate(p: &Self::P, w: &Self::W) -> (i32, bool) {
        (
            epoch::evaluate_with(p, w),
            p.side_to_move() == tabula_epoch::Color::White,
        )
    }
    fn pieces(p: &Self::P) -> usize {
        p.piece_count()
    }
    fn values_mut(w: &mut Self::W) -> Vec<&mut i32> {
        w.values_mut()
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let mut flag = |name: &str| {
        let found = args.iter().any(|a| a == name);
        args.retain(|a| a != name);
        found
    };
    let (epoch, signs) = (flag("epoch"), flag("signs"));
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.get(1).map(String::as_str) {
        Some("gen") => {
            let out = args.get(2).expect("the output file");
            let (games, nodes, threads, first) = (
                number(3, 1000) as usize,
                number(4, 3000),
                number(5, 1) as usize,
                number(6, 0) as usize,
            );
            if epoch {
                generate::<Epoch>(out, games, nodes, threads, first);
            } else {
                generate::<Chess>(out, games, nodes, threads, first);
            }
        }
        Some("fit") => {
            let input = args.get(2).expect("the positions file");
            let (passes, threads) = (number(3, 6) as usize, number(4, 2) as usize);
            if epoch {
                fit::<Epoch>(input, passes, threads, signs);
            } else {
                fit::<Chess>(input, passes, threads, signs);
            }
        }
        Some("swap") => {
            let k = args.get(4).and_then(|a| a.parse().ok());
            first_moves(number(2, 20_000), number(3, 0), k.unwrap_or(0.2));
        }
        _ => eprintln!(
            "usage: texel gen OUT GAMES NODES [THREADS] [FIRST] [epoch] | texel fit IN [PASSES] [THREADS] [epoch] | texel swap [NODES] [PLAY K]"
        ),
    }
}

/// Random plies, each among the moves a depth-1 search scores within
/// `OPENING_SLACK` of the best.
fn opening<G: Tuned>(index: usize, engine: &mut Engine<G::N>) -> G {
    let mut rng = GameRng::from_seed(Seed(index as u64 * 104_729 + 1_000_003));
    let mut game = G::start();
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
            let out = engine.search(&next.root(), Limits::depth(1), |_| {});
            scored.push((-out.info.score, a));
        }
        let Some(best) = scored.iter().map(|e| e.0).max() else {
            break;
        };
        scored.retain(|e| e.0 >= best - G::OPENING_SLACK);
        let Some((_, a)) = rng.choose(&scored) else {
            break;
        };
        game.apply(a).expect("a legal move");
    }
    game
}

/// One self-play game: its quiet positions' text, and White's result.
fn self_play<G: Tuned>(index: usize, nodes: u64, engine: &mut Engine<G::N>) -> (Vec<String>, f64) {
    let game = opening::<G>(index, engine);
    play_out(game, nodes, engine)
}

/// Self-play from `game` on: its quiet positions' text, and White's result.
fn play_out<G: Tuned>(mut game: G, nodes: u64, engine: &mut Engine<G::N>) -> (Vec<String>, f64) {
    engine.clear();
    let mut quiet = Vec::new();
    let mut last_score: Option<i32> = None;
    let mut adjudged = None;
    for _ in 0..G::MAX_PLIES {
        if game.to_act().outcome().is_some() {
            break;
        }
        let root = game.root();
        let node = &root.node;
        if !node.in_check() && engine.quiescence(node) == node.evaluate() {
            quiet.push(game.position_text());
        }
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let out = engine.search(&root, limits, |_| {});
        let Some(best) = out.best else { break };
        let score = out.info.score;
        // Both sides' searches agree the mover is winning by far.
        if score >= G::ADJUDICATE && last_score.is_some_and(|s| s <= -G::ADJUDICATE) {
            adjudged = Some(game.white_to_move());
            break;
        }
        last_score = Some(score);
        let a = game.parse_action(&G::text(best)).expect("a legal move");
        game.apply(&a).expect("a legal move");
    }
    // Without the swap, seat 0 is White.
    let white = match adjudged {
        Some(white) => white,
        None => match game.to_act().outcome().and_then(|o| o.winner) {
            Some(t) => t == Team(0),
            None => return (quiet, 0.5),
        },
    };
    (quiet, if white { 1.0 } else { 0.0 })
}

fn generate<G: Tuned>(out: &str, games: usize, nodes: u64, threads: usize, first: usize) {
    let file = Mutex::new(BufWriter::new(File::create(out).expect("the output file")));
    let next = AtomicUsize::new(0);
    let totals = Mutex::new((0usize, 0.0f64, 0usize));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::<G::N>::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let i = i + first;
                    let (quiet, result) = self_play::<G>(i, nodes, &mut engine);
                    let mut f = file.lock().expect("output");
                    for text in &quiet {
                        writeln!(f, "{i};{result};{text}").expect("output");
                    }
                    // Flushed a game at a time, so a stopped run keeps whole games.
                    f.flush().expect("output");
                    let mut t = totals.lock().expect("totals");
                    t.0 += 1;
                    t.1 += result;
                    t.2 += quiet.len();
                    if t.0.is_multiple_of(10) {
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

/// The predicted result from White's view, the side to move's evaluation
/// shifted by `offset`.
fn predicted<G: Tuned>(pos: &G::P, w: &G::W, k: f64, offset: f64) -> f64 {
    let (e, white_to_move) = G::evaluate(pos, w);
    let stm = f64::from(e) + offset;
    let white = if white_to_move { stm } else { -stm };
    1.0 / (1.0 + 10f64.powf(-k * white / 400.0))
}

/// The mean squared error of the predicted results over `data`.
fn loss<G: Tuned>(data: &Data<G>, w: &G::W, k: f64, offset: f64) -> f64 {
    let chunk = data.0.len().div_ceil(data.1).max(1);
    let sum: f64 = std::thread::scope(|s| {
        let parts: Vec<_> = data
            .0
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(pos, result)| (result - predicted::<G>(pos, w, k, offset)).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().expect("a loss thread"))
            .sum()
    });
    sum / data.0.len().max(1) as f64
}

/// Positions with White's result, and the threads that share the loss.
type Data<G> = (Vec<(<G as Tuned>::P, f64)>, usize);

/// The minimum of `f` over `[lo, hi]` by golden-section search.
fn golden(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn fit<G: Tuned>(input: &str, passes: usize, threads: usize, signs: bool) {
    let (mut train, mut held, mut early) = (Vec::new(), Vec::new(), Vec::new());
    for line in BufReader::new(File::open(input).expect("the positions file")).lines() {
        let line = line.expect("input");
        let mut parts = line.splitn(3, ';');
        let (Some(game), Some(result), Some(text)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(game), Ok(result), Some(pos)) =
            (game.parse::<usize>(), result.parse::<f64>(), G::read(text))
        else {
            continue;
        };
        if !G::evaluate(&pos, &G::KEPT).1 && G::pieces(&pos) >= G::FULL {
            early.push((game, text.to_owned(), result));
        }
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
    let threads = threads.max(1);
    let (train, held): (Data<G>, Data<G>) = ((train, threads), (held, threads));
    let mut w = G::KEPT;
    let k = golden(0.1, 4.0, |k| loss::<G>(&train, &w, k, 0.0));
    let before = loss::<G>(&train, &w, k, 0.0);
    println!(
        "K = {k:.3}; loss with the kept weights: training {before:.6}, held out {:.6}",
        loss::<G>(&held, &w, k, 0.0)
    );
    let mut best = before;
    let mut hand = G::KEPT;
    let kept: Vec<i32> = G::values_mut(&mut hand).into_iter().map(|v| *v).collect();
    for step in [8, 4, 2, 1] {
        for pass in 0..passes {
            let mut improved = false;
            for i in 0..G::NAMES.len() {
                for delta in [step, -step] {
                    let mut trial = w;
                    let v = {
                        let mut values = G::values_mut(&mut trial);
                        *values[i] += delta;
                        *values[i]
                    };
                    // With `signs`, no weight crosses zero: a term keeps
                    // the direction the book gives it.
                    if signs && v.signum() * kept[i].signum() < 0 {
                        continue;
                    }
                    let l = loss::<G>(&train, &trial, k, 0.0);
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
                loss::<G>(&held, &w, k, 0.0)
            );
            if !improved {
                break;
            }
        }
    }
    println!(
        "fitted: training {best:.6}, held out {:.6}",
        loss::<G>(&held, &w, k, 0.0)
    );
    let mut kept = G::KEPT;
    let kept = G::values_mut(&mut kept);
    for ((name, v), old) in G::NAMES.iter().zip(G::values_mut(&mut w)).zip(kept) {
        println!("    {name}: {v}, // was {old}");
    }
    offset::<G>(&early, &w, k, threads);
}

/// The side-to-move offset B where the board is still nearly full (all the
/// games, Black to move): Black's expected score is 50% at an evaluation
/// of −B. Its interval is a bootstrap over the games (200 resamples), as
/// the positions of one game share its result.
fn offset<G: Tuned>(early: &[(usize, String, f64)], w: &G::W, k: f64, threads: usize) {
    let mut games: Vec<Vec<(G::P, f64)>> = Vec::new();
    let mut last = None;
    for (game, text, result) in early {
        if last != Some(*game) {
            games.push(Vec::new());
            last = Some(*game);
        }
        if let (Some(g), Some(pos)) = (games.last_mut(), G::read(text)) {
            g.push((pos, *result));
        }
    }
    let solve = |picks: &[usize]| {
        let data: Data<G> = (
            picks
                .iter()
                .flat_map(|&i| games[i].iter().map(|(p, r)| (*p, *r)))
                .collect(),
            threads,
        );
        golden(-400.0, 400.0, |b| loss::<G>(&data, w, k, b))
    };
    let all: Vec<usize> = (0..games.len()).collect();
    let b = solve(&all);
    let mut rng = GameRng::from_seed(Seed(1));
    let mut resampled: Vec<f64> = (0..200)
        .map(|_| {
            let picks: Vec<usize> = all
                .iter()
                .map(|_| rng.below(games.len() as u64) as usize)
                .collect();
            solve(&picks)
        })
        .collect();
    resampled.sort_by(f64::total_cmp);
    println!(
        "side-to-move offset, Black to move with {}+ pieces ({} positions, {} games), fitted weights: B = {b:.1}, 95% [{:.1}, {:.1}]",
        G::FULL,
        early.len(),
        games.len(),
        resampled[5],
        resampled[194]
    );
}

/// Black's search score after each of White's first moves, what the swap
/// decision reads; with `play` nodes, also a self-play game from each
/// (without the swap) and the offset B, K given, that best fits Black's
/// results from its scores: Black's expected score is 50% at −B.
fn first_moves(nodes: u64, play: u64, k: f64) {
    let start = Epoch::new(&EpochOptions { swap: true });
    let mut engine = Engine::<EpochNode>::new(16);
    let mut scores = Vec::new();
    let mut pairs = Vec::new();
    for text in Epoch::move_texts(&start) {
        let mut game = start.clone();
        let a = game.parse_action(&text).expect("a legal move");
        game.apply(&a).expect("a legal move");
        engine.clear();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let out = epoch_decision(&mut engine, &game, limits, |_| {});
        let swapped = out.best == Some(tabula_epoch::Move::Swap);
        // The score is the mover's: after a swap, White's side's.
        let black = if swapped {
            -out.info.score
        } else {
            out.info.score
        };
        let mut line = format!(
            "{text}: Black {black:+}{}",
            if swapped { ", swaps" } else { "" }
        );
        if play > 0 {
            let mut game = <Epoch as Tuned>::start();
            game.apply(&a).expect("a legal move");
            let (_, white) = play_out(game, play, &mut engine);
            line += &format!(", Black scores {}", 1.0 - white);
            pairs.push((black, 1.0 - white));
        }
        println!("{line}");
        scores.push(black);
    }
    scores.sort_unstable();
    println!(
        "{} first moves, Black's score from {:+} to {:+}, median {:+}; the engine swaps after {} (SWAP_MARGIN {SWAP_MARGIN})",
        scores.len(),
        scores[0],
        scores[scores.len() - 1],
        scores[scores.len() / 2],
        scores.iter().filter(|&&s| s < -SWAP_MARGIN).count()
    );
    if pairs.is_empty() {
        return;
    }
    let solve = |picks: &[usize]| {
        golden(-400.0, 400.0, |b| {
            picks
                .iter()
                .map(|&i| {
                    let (s, r) = pairs[i];
                    (r - 1.0 / (1.0 + 10f64.powf(-k * (f64::from(s) + b) / 400.0))).powi(2)
                })
                .sum()
        })
    };
    let all: Vec<usize> = (0..pairs.len()).collect();
    let mut rng = GameRng::from_seed(Seed(1));
    let mut resampled: Vec<f64> = (0..200)
        .map(|_| {
            let picks: Vec<usize> = all
                .iter()
                .map(|_| rng.below(pairs.len() as u64) as usize)
                .collect();
            solve(&picks)
        })
        .collect();
    resampled.sort_by(f64::total_cmp);
    let mean = pairs.iter().map(|p| p.1).sum::<f64>() / pairs.len() as f64;
    println!(
        "self-play at {play} nodes a move: Black scored {:.1}%; at K = {k}, B = {:.1}, 95% [{:.1}, {:.1}]",
        100.0 * mean,
        solve(&all),
        resampled[5],
        resampled[194]
    );
}
