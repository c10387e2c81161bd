//! `tabula match`: two computer players play a series, seats alternated,
//! and the result is summed up as a score and an Elo difference.
//!
//! Every game `i` of a series with seed `S` draws its chance outcomes from
//! seed `S + i` and each player's choices from its own stream derived from
//! the same, so a series under iteration budgets replays exactly, whatever
//! the number of threads.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use tabula_ai::{Budget, Choice, Level};
use tabula_core::{GameRng, Seed, Team, ToAct};
use tabula_games::AnyGame;
use tabula_store::{Record, RecordResult, RecordedAction};

/// One side of a match: a level, optionally with its own iteration budget
/// (`medium:500`; for chess and Epoch at hard and expert, nodes) or, for
/// the alpha-beta levels, a fixed depth (`expert:d3`), and optionally the
/// tree search's way of picking its action replaced (`medium@1/0.08`: move
/// temperature 1, margin 0.08; `medium@0/0` plays the most searched).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// The level.
    pub level: Level,
    /// Iterations replacing the level's budget.
    pub iterations: Option<u32>,
    /// The alpha-beta engine's fixed depth.
    pub depth: Option<u32>,
    /// The tree search's choice replacing the level's.
    pub choice: Option<Choice>,
}

/// `T/M` of a spec's `@T/M`.
fn parse_choice(text: &str, spec: &str) -> Result<Choice> {
    let (t, m) = text
        .split_once('/')
        .with_context(|| format!("'{spec}': the choice is TEMPERATURE/MARGIN, as in @1/0.08"))?;
    let number = |x: &str, what: &str| -> Result<f64> {
        let v: f64 = x
            .trim()
            .parse()
            .with_context(|| format!("'{x}' in '{spec}' is not a {what}"))?;
        if !(0.0..=100.0).contains(&v) {
            bail!("'{spec}': the {what} must be 0 to 100");
        }
        Ok(v)
    };
    Ok(Choice {
        temperature: number(t, "temperature")?,
        margin: number(m, "margin")?,
    })
}

impl std::str::FromStr for Spec {
    type Err = anyhow::Error;
    fn from_str(spec: &str) -> Result<Self> {
        let (s, choice) = match spec.split_once('@') {
            Some((s, c)) => (s, Some(parse_choice(c, spec)?)),
            None => (spec, None),
        };
        let (name, iterations, depth) = match s.split_once(':') {
            Some((name, d)) if d.trim().starts_with('d') => {
                let d: u32 = d.trim()[1..]
                    .parse()
                    .with_context(|| format!("'{d}' in '{s}' is not a depth (d1, d2, ...)"))?;
                if !(1..=64).contains(&d) {
                    bail!("'{s}': the depth must be 1 to 64");
                }
                (name, None, Some(d))
            }
            Some((name, n)) => {
                let n: u32 = n
                    .trim()
                    .parse()
                    .with_context(|| format!("'{n}' in '{s}' is not an iteration count"))?;
                if n == 0 {
                    bail!("'{s}': the iteration count must be at least 1");
                }
                (name, Some(n), None)
            }
            None => (s, None, None),
        };
        let level: Level = name.parse()?;
        if iterations.is_some() && !Level::PLAYABLE.contains(&level) {
            bail!("'{s}': only easy, medium, hard and expert take an iteration count");
        }
        if depth.is_some() && level.nodes().is_none() {
            bail!("'{s}': only hard and expert (the alpha-beta engine) take a depth");
        }
        if choice.is_some() && !Level::PLAYABLE.contains(&level) {
            bail!("'{spec}': only easy, medium, hard and expert take a choice");
        }
        Ok(Spec {
            level,
            iterations,
            depth,
            choice,
        })
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.iterations, self.depth) {
            (_, Some(d)) => write!(f, "{}:d{d}", self.level)?,
            (Some(n), None) => write!(f, "{}:{n}", self.level)?,
            (None, None) => write!(f, "{}", self.level)?,
        }
        match self.choice {
            Some(c) => write!(f, "@{}/{}", c.temperature, c.margin),
            None => Ok(()),
        }
    }
}

/// What `tabula match` was asked.
pub struct MatchOptions {
    /// The first player.
    pub a: Spec,
    /// The second player.
    pub b: Spec,
    /// Games to play (fewer if the SPRT stops early).
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// The series seed.
    pub seed: u64,
    /// A time limit a decision for the searching levels.
    pub time_per_move: Option<Duration>,
    /// Stop early by a sequential probability ratio test between these Elo
    /// differences.
    pub sprt: Option<(f64, f64)>,
    /// Save every game's record here.
    pub records: Option<PathBuf>,
    /// A game still going after this many actions is a draw.
    pub max_plies: usize,
    /// The first this many player decisions are uniformly random, drawn
    /// from the game's own stream, so two searches do not replay one game.
    pub random_opening: usize,
    /// Threads for each decision of the tree search (root parallel).
    pub search_threads: u32,
    /// Print JSON.
    pub json: bool,
}

/// One finished game of a series.
#[derive(Debug, Clone, Serialize)]
struct GameResult {
    index: usize,
    /// The team `a` played.
    a_team: u8,
    /// `a`'s score: 1, ½ or 0.
    score: f64,
    plies: usize,
    ended: String,
    a_decisions: u64,
    a_time: f64,
    b_decisions: u64,
    b_time: f64,
}

/// Runs a series of `options.games` games of `start` and prints its summary.
pub fn run(start: &AnyGame, options: &MatchOptions, out: &mut impl Write) -> Result<()> {
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    if start.seating().team_count() != 2 {
        bail!(
            "tabula match plays two sides; this game seats {} teams",
            start.seating().team_count()
        );
    }
    if let Some(dir) = &options.records {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create --records directory {}", dir.display()))?;
    }
    let bar = if options.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(options.games as u64), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= options.games {
                        break;
                    }
                    match play_one(start, options, i) {
                        Ok(result) => {
                            let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                            all.push(result);
                            let summary = Summary::of(&all);
                            bar.set_message(format!(
                                "{} +{} ={} -{} ({:.1}%)",
                                options.a,
                                summary.wins,
                                summary.draws,
                                summary.losses,
                                100.0 * summary.score
                            ));
                            bar.inc(1);
                            if let Some((e0, e1)) = options.sprt
                                && sprt_decision(&summary, e0, e1).is_some()
                            {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut all = results.into_inner().unwrap_or_else(|p| p.into_inner());
    all.sort_by_key(|r| r.index);
    report(start, options, &all, out)
}

fn stream(seed: u64, game: usize, salt: u64) -> GameRng {
    // SplitMix-style mixing so neighbouring games get unrelated streams.
    let mut z = seed
        .wrapping_add((game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(salt.wrapping_mul(0xbf58_476d_1ce4_e5b9));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    GameRng::from_seed(Seed(z ^ (z >> 31)))
}

fn play_one(start: &AnyGame, options: &MatchOptions, index: usize) -> Result<GameResult> {
    let mut game = start.clone();
    // `a` plays team 0 in even games and team 1 in odd ones: with four
    // seats a team is two seats, so this is every rotation of the sides.
    let a_team = (index % 2) as u8;
    let chance_seed = options.seed.wrapping_add(index as u64);
    let mut chance = GameRng::from_seed(Seed(chance_seed));
    let seating = game.seating();
    let mut rngs: Vec<GameRng> = seating
        .players()
        .map(|p| stream(options.seed, index, 1 + u64::from(p.0)))
        .collect();
    let mut record = Record::new(game.id(), game.option_pairs());
    record.seed = Some(Seed(chance_seed));
    record.players = seating
        .players()
        .map(|p| {
            let spec = if seating.team(p) == Some(Team(a_team)) {
                options.a
            } else {
                options.b
            };
            format!("tabula {spec}")
        })
        .collect();
    let mut plies = 0;
    let mut decisions = 0;
    let mut opening = stream(options.seed, index, 0);
    let (mut a_decisions, mut b_decisions) = (0u64, 0u64);
    let (mut a_time, mut b_time) = (Duration::ZERO, Duration::ZERO);
    let outcome = loop {
        if plies >= options.max_plies {
            break None;
        }
        let text = match game.to_act() {
            ToAct::Over { outcome } => break Some(outcome),
            ToAct::Chance => game
                .sample_chance(&mut chance)
                .context("chance decides but offers no outcome")?,
            ToAct::Player { player } if decisions < options.random_opening => {
                decisions += 1;
                tabula_ai::choose(&game, player, Level::Random, &mut opening)
                    .context("a player is to act but has no legal action")?
            }
            ToAct::Player { player } => {
                decisions += 1;
                let is_a = seating.team(player) == Some(Team(a_team));
                let spec = if is_a { options.a } else { options.b };
                let budget = budget_for(spec, options.time_per_move);
                let began = Instant::now();
                let rng = &mut rngs[player.index()];
                let (action, _) = tabula_ai::choose_on_threads(
                    &game,
                    player,
                    spec.level,
                    budget,
                    spec.choice,
                    options.search_threads,
                    rng,
                )
                .with_context(|| {
                    format!("game {}: {spec} found no action for {player}", index + 1)
                })?;
                let spent = began.elapsed();
                if is_a {
                    a_decisions += 1;
                    a_time += spent;
                } else {
                    b_decisions += 1;
                    b_time += spent;
                }
                action
            }
        };
        let played = game
            .apply(&text.canonical)
            .with_context(|| format!("game {}: the computer's action was refused", index + 1))?;
        record.actions.push(RecordedAction::new(played.notation));
        plies += 1;
    };
    let (score, ended) = match outcome {
        Some(o) => {
            record.result = Some(RecordResult::from(o));
            (
                o.result_for_team(Team(a_team)).score(),
                o.reason.to_string(),
            )
        }
        None => (
            0.5,
            format!("unfinished after {} actions (a draw)", options.max_plies),
        ),
    };
    if let Some(dir) = &options.records {
        save(dir, index, &record)?;
    }
    Ok(GameResult {
        index,
        a_team,
        score,
        plies,
        ended,
        a_decisions,
        a_time: a_time.as_secs_f64(),
        b_decisions,
        b_time: b_time.as_secs_f64(),
    })
}

fn save(dir: &Path, index: usize, record: &Record) -> Result<()> {
    let text = record.write().context("cannot write a game record")?;
    let path = dir.join(format!("game-{:04}.pgn", index + 1));
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn budget_for(spec: Spec, time: Option<Duration>) -> Option<Budget> {
    match (spec.iterations, time) {
        (_, Some(t)) => Some(Budget {
            iterations: spec.iterations.unwrap_or(u32::MAX),
            time: Some(t),
            depth: spec.depth,
        }),
        (Some(n), None) => Some(Budget {
            iterations: n,
            time: None,
            depth: spec.depth,
        }),
        (None, None) => spec.depth.map(|d| Budget {
            iterations: u32::MAX,
            time: None,
            depth: Some(d),
        }),
    }
}

/// The running totals, from `a`'s side.
#[derive(Debug, Clone, Copy, Serialize)]
struct Summary {
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    /// Mean score per game.
    score: f64,
    /// The standard deviation of one game's score.
    deviation: f64,
}

impl Summary {
    fn of(results: &[GameResult]) -> Summary {
        let n = results.len();
        let wins = results.iter().filter(|r| r.score > 0.75).count();
        let losses = results.iter().filter(|r| r.score < 0.25).count();
        let draws = n - wins - losses;
        let mean = if n == 0 {
            0.5
        } else {
            results.iter().map(|r| r.score).sum::<f64>() / n as f64
        };
        let var = if n == 0 {
            0.0
        } else {
            results
                .iter()
                .map(|r| (r.score - mean).powi(2))
                .sum::<f64>()
                / n as f64
        };
        Summary {
            games: n,
            wins,
            draws,
            losses,
            score: mean,
            deviation: var.sqrt(),
        }
    }

    /// The Elo difference with a 95% interval: a Wilson interval on the
    /// mean score with the games' own variance, so a clean sweep still has
    /// a finite lower bound.
    fn elo(&self) -> (f64, f64, f64) {
        let n = self.games.max(1) as f64;
        let z2 = 1.96f64 * 1.96;
        let centre = (self.score + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (self.deviation.powi(2) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        (
            elo_of(self.score),
            elo_of(centre - half),
            elo_of(centre + half),
        )
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The sequential test's decision between `elo0` (H0) and `elo1` (H1) at
/// 5% error rates each way: the normal approximation of the generalized
/// SPRT fishtest uses. `None` while undecided.
fn sprt_decision(summary: &Summary, elo0: f64, elo1: f64) -> Option<&'static str> {
    let llr = sprt_llr(summary, elo0, elo1);
    let (alpha, beta) = (0.05f64, 0.05f64);
    let lower = (beta / (1.0 - alpha)).ln();
    let upper = ((1.0 - beta) / alpha).ln();
    if llr >= upper {
        Some("H1 accepted")
    } else if llr <= lower {
        Some("H0 accepted")
    } else {
        None
    }
}

fn sprt_llr(summary: &Summary, elo0: f64, elo1: f64) -> f64 {
    let var = summary.deviation.powi(2);
    if summary.games < 2 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_of(elo0), score_of(elo1));
    summary.games as f64 * (s1 - s0) * (2.0 * summary.score - s0 - s1) / (2.0 * var)
}

fn report(
    start: &AnyGame,
    options: &MatchOptions,
    results: &[GameResult],
    out: &mut impl Write,
) -> Result<()> {
    let summary = Summary::of(results);
    let (elo, low, high) = summary.elo();
    let a_decisions: u64 = results.iter().map(|r| r.a_decisions).sum();
    let b_decisions: u64 = results.iter().map(|r| r.b_decisions).sum();
    let a_ms = 1000.0 * results.iter().map(|r| r.a_time).sum::<f64>() / a_decisions.max(1) as f64;
    let b_ms = 1000.0 * results.iter().map(|r| r.b_time).sum::<f64>() / b_decisions.max(1) as f64;
    let plies = results.iter().map(|r| r.plies).sum::<usize>() as f64 / results.len().max(1) as f64;
    let mut ended: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        *ended.entry(r.ended.as_str()).or_default() += 1;
    }
    let sprt = options
        .sprt
        .map(|(e0, e1)| (sprt_llr(&summary, e0, e1), sprt_decision(&summary, e0, e1)));
    if options.json {
        let value = serde_json::json!({
            "game": start.id().as_str(),
            "options": start.option_pairs(),
            "a": options.a.to_string(),
            "b": options.b.to_string(),
            "seed": options.seed,
            "time_per_move_ms": options.time_per_move.map(|t| t.as_millis() as u64),
            "search_threads": options.search_threads,
            "games": summary.games,
            "wins": summary.wins,
            "draws": summary.draws,
            "losses": summary.losses,
            "score": summary.score,
            "elo": elo,
            "elo_low": low,
            "elo_high": high,
            "a_ms_per_decision": a_ms,
            "b_ms_per_decision": b_ms,
            "plies_per_game": plies,
            "ended": ended,
            "sprt": sprt.map(|(llr, d)| serde_json::json!({"llr": llr, "decision": d})),
            "results": results,
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} vs {}, {} games, seed {}",
        start.id(),
        options.a,
        options.b,
        summary.games,
        options.seed
    )?;
    writeln!(
        out,
        "  {:<22} {}",
        "wins/draws/losses",
        format_args!("{}/{}/{}", summary.wins, summary.draws, summary.losses)
    )?;
    writeln!(out, "  {:<22} {:.1}%", "score", 100.0 * summary.score)?;
    writeln!(
        out,
        "  {:<22} {elo:+.0} [{low:+.0}, {high:+.0}] (95%)",
        "elo difference"
    )?;
    writeln!(
        out,
        "  {:<22} {a_ms:.1} ms ({}), {b_ms:.1} ms ({})",
        "time per decision", options.a, options.b
    )?;
    writeln!(out, "  {:<22} {plies:.1} actions", "game length")?;
    for (how, n) in &ended {
        writeln!(out, "  {:<22} {n}", format!("ended by {how}"))?;
    }
    if let Some((llr, decision)) = sprt {
        writeln!(
            out,
            "  {:<22} llr {llr:.2}, {}",
            "sprt",
            decision.unwrap_or("undecided")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(wins: usize, draws: usize, losses: usize) -> Summary {
        let mut results = Vec::new();
        for (n, s) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
            for _ in 0..n {
                results.push(GameResult {
                    index: results.len(),
                    a_team: 0,
                    score: s,
                    plies: 1,
                    ended: String::new(),
                    a_decisions: 0,
                    a_time: 0.0,
                    b_decisions: 0,
                    b_time: 0.0,
                });
            }
        }
        Summary::of(&results)
    }

    #[test]
    fn elo_is_zero_at_an_even_score_and_its_interval_narrows_with_games() {
        let few = summary(6, 0, 4);
        let many = summary(600, 0, 400);
        let (e, lo, hi) = many.elo();
        assert!((e - 70.4).abs() < 0.5, "{e}");
        assert!(lo < e && e < hi);
        let (_, flo, fhi) = few.elo();
        assert!(fhi - flo > 3.0 * (hi - lo));
        assert!(summary(5, 10, 5).elo().0.abs() < 1e-9);
        // A sweep is clearly better, but not infinitely so.
        let (_, sweep_low, _) = summary(40, 0, 0).elo();
        assert!(sweep_low > 300.0 && sweep_low < 700.0, "{sweep_low}");
    }

    #[test]
    fn sprt_accepts_a_clear_winner_and_waits_on_an_even_match() {
        assert_eq!(
            sprt_decision(&summary(90, 0, 10), 0.0, 50.0),
            Some("H1 accepted")
        );
        assert_eq!(
            sprt_decision(&summary(10, 0, 90), 0.0, 50.0),
            Some("H0 accepted")
        );
        assert_eq!(sprt_decision(&summary(6, 0, 5), 0.0, 50.0), None);
    }

    #[test]
    fn specs_read_levels_and_budgets_and_refuse_nonsense() {
        let s: Spec = "medium:500".parse().unwrap();
        assert_eq!((s.level, s.iterations), (Level::Medium, Some(500)));
        assert!("greedy:5".parse::<Spec>().is_err());
        assert!("medium:x".parse::<Spec>().is_err());
        assert!("medium:0".parse::<Spec>().is_err());
        assert!("wizard".parse::<Spec>().is_err());
        let d: Spec = "expert:d3".parse().unwrap();
        assert_eq!((d.level, d.depth), (Level::Expert, Some(3)));
        assert_eq!(d.to_string(), "expert:d3");
        assert!("medium:d3".parse::<Spec>().is_err());
        assert!("hard:d0".parse::<Spec>().is_err());
        let c: Spec = "medium:500@0.5/0.1".parse().unwrap();
        assert_eq!(
            (c.iterations, c.choice),
            (
                Some(500),
                Some(Choice {
                    temperature: 0.5,
                    margin: 0.1
                })
            )
        );
        assert_eq!(c.to_string(), "medium:500@0.5/0.1");
        assert_eq!("easy".parse::<Spec>().unwrap().choice, None);
        for bad in ["medium@1", "medium@x/0.1", "medium@1/-2", "greedy@1/0.1"] {
            let err = bad.parse::<Spec>().unwrap_err();
            assert!(err.to_string().contains(bad), "{bad}: {err}");
        }
    }
}
