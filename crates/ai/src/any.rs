//! The entry points over [`AnyGame`] for the server and the command line.

use std::time::{Duration, Instant};

use tabula_core::{Game, GameRng, Player, Team, ToAct};
use tabula_games::{ActionText, AnyGame};

use std::sync::Mutex;

use crate::alphabeta::{ChessNode, Engine, EpochNode, Limits, Node, chess_root, epoch_decision};
use crate::baseline::{greedy, random};
use crate::eval::{Evaluate, score};
use crate::level::{Budget, Choice, Level};
use crate::mcts::{Search, SearchConfig};

/// What one decision cost.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// Search iterations (0 for the baselines).
    pub iterations: u32,
    /// Evaluation calls.
    pub evaluations: u64,
    /// The searcher's estimate of its team's expected score after the
    /// chosen action (0.5 when it does not estimate).
    pub value: f64,
}

/// The choice of the computer player at `level` for seat `me`, or `None`
/// when `me` is not to act. It reads only what `me` may see: searches run
/// on worlds drawn with [`AnyGame::determinize`]. `rng` should be the
/// computer's own stream, never the table's chance stream; with the same
/// seed the choice is the same.
pub fn choose(game: &AnyGame, me: Player, level: Level, rng: &mut GameRng) -> Option<ActionText> {
    choose_with(game, me, level, None, rng).map(|(a, _)| a)
}

/// [`choose`] with the level's budget replaced by `budget` (searching
/// levels only), and what the decision cost.
pub fn choose_with(
    game: &AnyGame,
    me: Player,
    level: Level,
    budget: Option<Budget>,
    rng: &mut GameRng,
) -> Option<(ActionText, Stats)> {
    choose_on_threads(game, me, level, budget, None, 1, rng)
}

/// [`choose_with`] with the tree search split over `threads` independent
/// trees searched at once (root parallelism: the budget's iterations are
/// shared between them and their root statistics summed). The choice
/// depends only on the seed, `threads` and the budget. The baselines and
/// the alpha-beta engine ignore `threads`. `choice`, when given, replaces
/// the level's way of picking the searched action ([`Level::choice`]) in
/// the tree search (the baselines and the alpha-beta engine ignore it).
pub fn choose_on_threads(
    game: &AnyGame,
    me: Player,
    level: Level,
    budget: Option<Budget>,
    choice: Option<Choice>,
    threads: u32,
    rng: &mut GameRng,
) -> Option<(ActionText, Stats)> {
    match game {
        AnyGame::Chess(g) if level.nodes().is_some() => {
            if g.to_act().player() != Some(me) {
                return None;
            }
            let mut engine = CHESS_ENGINES.take(hash_for(level));
            let out = engine.search(&chess_root(g), limits_for(level, budget), |_| {});
            CHESS_ENGINES.give(hash_for(level), engine);
            let best = out.best.map(tabula_chess::ChessAction::from_move);
            finish(g, best, out.info.depth, out.info.nodes, out.info.score)
        }
        AnyGame::Epoch(g) if level.nodes().is_some() => {
            if g.to_act().player() != Some(me) {
                return None;
            }
            let mut engine = EPOCH_ENGINES.take(hash_for(level));
            let out = epoch_decision(&mut engine, g, limits_for(level, budget), |_| {});
            EPOCH_ENGINES.give(hash_for(level), engine);
            finish(g, out.best, out.info.depth, out.info.nodes, out.info.score)
        }
        AnyGame::Chess(g) => decide(g, me, level, budget, choice, threads, rng),
        AnyGame::Epoch(g) => decide(g, me, level, budget, choice, threads, rng),
        AnyGame::Warrior(g) => decide(g, me, level, budget, choice, threads, rng),
        AnyGame::Covenant(g) => decide(g, me, level, budget, choice, threads, rng),
        AnyGame::Skirmish(g) => decide(g, me, level, budget, choice, threads, rng),
        AnyGame::Lytharia(g) => decide(g, me, level, budget, choice, threads, rng),
    }
}

/// Engines kept between decisions, so a decision does not allocate and
/// zero a table: one is taken (or made) per search running at once and
/// cleared before use, so every decision starts from nothing, as a new
/// engine would.
struct Pool<N: Node> {
    idle: Mutex<Vec<(usize, Engine<N>)>>,
}

impl<N: Node> Pool<N> {
    const fn new() -> Pool<N> {
        Pool {
            idle: Mutex::new(Vec::new()),
        }
    }

    fn take(&self, hash: usize) -> Engine<N> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        match idle.iter().position(|(h, _)| *h == hash) {
            Some(i) => {
                let (_, mut engine) = idle.swap_remove(i);
                engine.clear();
                engine
            }
            None => Engine::new(hash),
        }
    }

    fn give(&self, hash: usize, engine: Engine<N>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        // A few idle engines are plenty; more would only hold memory.
        if idle.len() < 4 {
            idle.push((hash, engine));
        }
    }
}

static CHESS_ENGINES: Pool<ChessNode> = Pool::new();
static EPOCH_ENGINES: Pool<EpochNode> = Pool::new();

/// The transposition table of the alpha-beta levels, megabytes.
fn hash_for(level: Level) -> usize {
    if level == Level::Expert { 64 } else { 16 }
}

/// The alpha-beta engine's limits at `level`, or as `budget` replaces them:
/// its iterations are nodes (unbounded at `u32::MAX`), its time a move time.
fn limits_for(level: Level, budget: Option<Budget>) -> Limits {
    let mut limits = Limits::default();
    match budget {
        Some(b) => {
            if b.iterations != u32::MAX {
                limits.nodes = Some(u64::from(b.iterations));
            }
            if let Some(t) = b.time {
                limits = Limits {
                    nodes: limits.nodes,
                    ..Limits::move_time(t)
                };
            }
            limits.depth = b.depth;
            if limits.nodes.is_none() && limits.depth.is_none() && limits.hard_time.is_none() {
                limits.nodes = level.nodes();
            }
        }
        None => limits.nodes = level.nodes(),
    }
    limits
}

fn finish<G: Game>(
    game: &G,
    best: Option<G::Action>,
    depth: u32,
    nodes: u64,
    score: i32,
) -> Option<(ActionText, Stats)> {
    let action = best?;
    let stats = Stats {
        iterations: depth,
        evaluations: nodes,
        value: 1.0 / (1.0 + (-f64::from(score) / 250.0).exp()),
    };
    let text = ActionText {
        notation: game.action_notation(&action),
        canonical: action.to_string(),
    };
    Some((text, stats))
}

fn decide<G: Evaluate>(
    game: &G,
    me: Player,
    level: Level,
    budget: Option<Budget>,
    choice: Option<Choice>,
    threads: u32,
    rng: &mut GameRng,
) -> Option<(ActionText, Stats)> {
    let (action, stats) = match level.budget(G::ITERATIONS) {
        None => {
            let action = match level {
                Level::Greedy => greedy(game, me, rng)?,
                _ => random(game, me, rng)?,
            };
            (action, Stats::default())
        }
        Some(own) => {
            let config = SearchConfig {
                threads: threads.max(1),
                choice: choice.unwrap_or(level.choice()),
                ..SearchConfig::for_game(game, budget.unwrap_or(own))
            };
            let (action, report) = Search::new(config).choose(game, me, rng)?;
            (
                action,
                Stats {
                    iterations: report.iterations,
                    evaluations: report.evaluations,
                    value: report.value,
                },
            )
        }
    };
    let text = ActionText {
        notation: game.action_notation(&action),
        canonical: action.to_string(),
    };
    Some((text, stats))
}

/// Uniformly random playouts from `game` to the end (or `cap` plies) per
/// second, over about `time`.
pub fn playouts_per_second(game: &AnyGame, cap: u32, time: Duration, seed: u64) -> f64 {
    match game {
        AnyGame::Chess(g) => playouts(g, cap, time, seed),
        AnyGame::Epoch(g) => playouts(g, cap, time, seed),
        AnyGame::Warrior(g) => playouts(g, cap, time, seed),
        AnyGame::Covenant(g) => playouts(g, cap, time, seed),
        AnyGame::Skirmish(g) => playouts(g, cap, time, seed),
        AnyGame::Lytharia(g) => playouts(g, cap, time, seed),
    }
}

fn playouts<G: Game>(game: &G, cap: u32, time: Duration, seed: u64) -> f64 {
    let mut rng = GameRng::from_seed(tabula_core::Seed(seed));
    let mut actions = Vec::new();
    let start = Instant::now();
    let mut count = 0u64;
    while count == 0 || start.elapsed() < time {
        let mut g = game.clone();
        for _ in 0..cap {
            match g.to_act() {
                ToAct::Over { .. } => break,
                ToAct::Chance => match g.sample_chance(&mut rng) {
                    Some(a) => g.apply_unchecked(&a),
                    None => break,
                },
                ToAct::Player { .. } => {
                    g.legal_actions(&mut actions);
                    match rng.choose(&actions) {
                        Some(a) => {
                            let a = a.clone();
                            g.apply_unchecked(&a);
                        }
                        None => break,
                    }
                }
            }
        }
        count += 1;
    }
    count as f64 / start.elapsed().as_secs_f64()
}

/// MCTS iterations per second from `game` at the medium settings, over one
/// decision of `iterations`; `None` when no player is to act.
pub fn iterations_per_second(game: &AnyGame, iterations: u32, seed: u64) -> Option<f64> {
    let budget = Budget {
        iterations,
        time: None,
        depth: None,
    };
    let me = game.to_act().player()?;
    let mut rng = GameRng::from_seed(tabula_core::Seed(seed));
    let start = Instant::now();
    let (_, stats) = choose_with(game, me, Level::Medium, Some(budget), &mut rng)?;
    Some(f64::from(stats.iterations) / start.elapsed().as_secs_f64())
}

/// Evaluation calls per second on `game`'s state, over about `time`.
pub fn evaluations_per_second(game: &AnyGame, time: Duration) -> f64 {
    match game {
        AnyGame::Chess(g) => evaluations(g, time),
        AnyGame::Epoch(g) => evaluations(g, time),
        AnyGame::Warrior(g) => evaluations(g, time),
        AnyGame::Covenant(g) => evaluations(g, time),
        AnyGame::Skirmish(g) => evaluations(g, time),
        AnyGame::Lytharia(g) => evaluations(g, time),
    }
}

fn evaluations<G: Evaluate>(game: &G, time: Duration) -> f64 {
    let start = Instant::now();
    let mut count = 0u64;
    let mut sink = 0.0;
    while count == 0 || start.elapsed() < time {
        for _ in 0..256 {
            sink += score(std::hint::black_box(game), Team(0));
        }
        count += 256;
    }
    std::hint::black_box(sink);
    count as f64 / start.elapsed().as_secs_f64()
}
