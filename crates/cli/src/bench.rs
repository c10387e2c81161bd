//! `tabula bench`: how fast each game plays out, searches and evaluates.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use serde_json::json;
use tabula_core::GameId;
use tabula_games::AnyGame;

/// A measured configuration: its name, the game and its options.
pub type Configuration = (String, GameId, Vec<(String, String)>);

/// The games and options `tabula bench` measures: every game, Skirmish's
/// two modes, Warrior with two and four players, each Lytharian mode.
pub fn configurations() -> Vec<Configuration> {
    let o = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    vec![
        ("chess".into(), GameId::Chess, vec![]),
        ("epoch".into(), GameId::Epoch, vec![]),
        ("skirmish".into(), GameId::Skirmish, vec![]),
        (
            "skirmish advanced".into(),
            GameId::Skirmish,
            o("mode", "advanced"),
        ),
        ("warrior".into(), GameId::Warrior, vec![]),
        (
            "warrior 4 players".into(),
            GameId::Warrior,
            o("players", "4"),
        ),
        (
            "covenant arena".into(),
            GameId::Covenant,
            o("scenario", "arena"),
        ),
        (
            "covenant crossroads".into(),
            GameId::Covenant,
            o("scenario", "crossroads"),
        ),
        ("covenant pilgrimage".into(), GameId::Covenant, vec![]),
        ("lytharia".into(), GameId::Lytharia, vec![]),
        ("lytharia duel".into(), GameId::Lytharia, o("mode", "duel")),
        (
            "lytharia pawn-wars".into(),
            GameId::Lytharia,
            o("mode", "pawn-wars"),
        ),
        (
            "lytharia chess".into(),
            GameId::Lytharia,
            o("mode", "chess"),
        ),
    ]
}

/// Plays past the opening chance nodes (roll-offs, shuffles) so searches
/// start at a player's decision.
pub fn to_first_decision(mut game: AnyGame, seed: u64) -> Result<AnyGame> {
    let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(seed));
    while game.to_act() == tabula_core::ToAct::Chance {
        let Some(a) = game.sample_chance(&mut rng) else {
            break;
        };
        game.apply(&a.canonical)?;
    }
    Ok(game)
}

/// Measures every configuration (or only `only`) for about `seconds` each.
pub fn run(only: Option<GameId>, seconds: f64, json: bool, out: &mut impl Write) -> Result<()> {
    let time = Duration::from_secs_f64(seconds.max(0.05));
    if !json {
        writeln!(
            out,
            "{:<20} {:>14} {:>14} {:>14}",
            "game", "playouts/s", "mcts iter/s", "evals/s"
        )?;
    }
    for (name, id, options) in configurations() {
        if only.is_some_and(|g| g != id) {
            continue;
        }
        let game = to_first_decision(AnyGame::new(id, &options)?, 1)?;
        // Playouts capped at 1000 actions: random Covenant games rarely end.
        let playouts = tabula_ai::playouts_per_second(&game, 1000, time, 7);
        let mut iterations = 200u32;
        let mut rate = 0.0;
        // Grow the search until it runs for about the time asked.
        loop {
            let started = std::time::Instant::now();
            rate = tabula_ai::iterations_per_second(&game, iterations, 7).unwrap_or(rate);
            if started.elapsed() >= time || iterations >= 1 << 22 {
                break;
            }
            iterations = iterations.saturating_mul(2);
        }
        let evals = tabula_ai::evaluations_per_second(&game, time);
        if json {
            writeln!(
                out,
                "{}",
                json!({"game": name, "playouts_per_second": playouts,
                       "iterations_per_second": rate, "evaluations_per_second": evals})
            )?;
        } else {
            writeln!(
                out,
                "{name:<20} {playouts:>14.0} {rate:>14.0} {evals:>14.0}"
            )?;
        }
    }
    Ok(())
}
