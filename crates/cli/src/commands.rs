//! The non-interactive subcommands.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;
use tabula_core::{GameId, ToAct};
use tabula_games::{AnyGame, option_specs};

use crate::args::{Cli, Command, GameArgs, Notation};

/// Runs one subcommand, writing its data to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<()> {
    let command = cli.command.unwrap_or_else(|| Command::Serve {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], 8080)),
        store: crate::args::ServeStoreArgs {
            path: None,
            database_url: None,
        },
    });
    match command {
        Command::Games { json } => games(json, out),
        Command::Cards { search, json } => cards(search.as_deref(), json, out),
        Command::New { game, json } => {
            let g = load(&game, None)?;
            if json {
                writeln!(out, "{}", state_json(&g, &[]))?;
            } else {
                writeln!(out, "{}", g.to_text())?;
            }
            Ok(())
        }
        Command::Moves {
            game,
            position,
            notation,
            json,
        } => {
            let g = load(&game, position.as_deref())?;
            if g.to_act() == ToAct::Chance {
                return chance_moves(&g, notation, json, out);
            }
            let actions = g.legal_actions();
            if json {
                writeln!(out, "{}", serde_json::to_string(&actions)?)?;
            } else {
                for a in &actions {
                    let text = match notation {
                        Notation::Game => &a.notation,
                        Notation::Canonical => &a.canonical,
                    };
                    writeln!(out, "{text}")?;
                }
            }
            Ok(())
        }
        Command::Apply {
            game,
            position,
            moves,
            json,
        } => {
            let mut g = load(&game, position.as_deref())?;
            let mut played = Vec::new();
            for (i, text) in moves.iter().enumerate() {
                let shown = g
                    .apply(text)
                    .with_context(|| format!("action {} of {}", i + 1, moves.len()))?;
                played.push(shown);
            }
            if json {
                writeln!(out, "{}", state_json(&g, &played))?;
            } else {
                writeln!(out, "{}", g.to_text())?;
                if let Some(outcome) = g.outcome() {
                    writeln!(out, "{}", g.describe_outcome(&outcome))?;
                }
            }
            Ok(())
        }
        Command::View {
            game,
            position,
            viewer,
            seed,
            catalog,
            moves,
        } => view(
            &game,
            position.as_deref(),
            viewer.as_deref(),
            seed,
            catalog,
            &moves,
            out,
        ),
        Command::Perft {
            game,
            depth,
            position,
            divide,
            seed,
            json,
        } => {
            let mut g = load(&game, position.as_deref())?;
            if let Some(seed) = seed {
                // Deal the opening chance (a shuffle) from the seed first.
                let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(seed));
                while g.to_act() == ToAct::Chance {
                    let Some(drawn) = g.sample_chance(&mut rng) else {
                        break;
                    };
                    g.apply(&drawn.canonical)?;
                }
            }
            if depth > 0 && g.to_act() == ToAct::Chance && g.chance_outcomes().is_none() {
                anyhow::bail!(
                    "{} starts with chance drawing an outcome that is sampled, not listed \
                     (a shuffled deck), so perft has no tree to count here; give --seed N \
                     to draw it from a seed first",
                    g.id()
                );
            }
            let start = Instant::now();
            // Depth 0 is the position itself: one node, nothing below it.
            let (total, parts) = if divide && depth > 0 {
                let parts = g.divide(depth);
                (parts.iter().map(|(_, n)| n).sum(), parts)
            } else {
                (g.perft(depth), Vec::new())
            };
            let secs = start.elapsed().as_secs_f64();
            let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
            eprintln!(
                "perft {} depth {depth}: {total} nodes in {secs:.3} s ({:.1} M nodes/s)",
                g.id(),
                nps / 1e6
            );
            if json {
                let parts: Vec<_> = parts
                    .iter()
                    .map(|(a, n)| json!({ "action": a, "nodes": n }))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    json!({ "game": g.id(), "depth": depth, "nodes": total,
                            "seconds": secs, "nodes_per_second": nps, "divide": parts })
                )?;
            } else {
                for (action, n) in &parts {
                    writeln!(out, "{action}: {n}")?;
                }
                writeln!(out, "{total}")?;
            }
            Ok(())
        }
        Command::Play {
            game,
            position,
            computer,
            seed,
            delay,
            level,
            search_threads,
            db,
            no_save,
            resume,
        } => {
            use crate::play::{PlayOptions, Saving};
            let g = load(&game, position.as_deref())?;
            let saving = match (no_save, resume) {
                (true, _) => Saving::Off,
                (false, Some(id)) => Saving::Resume(db.path, tabula_store::GameKey(id)),
                (false, None) => Saving::New(db.path),
            };
            crate::play::run(
                g,
                PlayOptions {
                    computer,
                    seed,
                    delay,
                    level,
                    search_threads,
                    saving,
                    from_position: position.is_some(),
                },
            )
        }
        Command::Match {
            game,
            a,
            b,
            games,
            threads,
            seed,
            time_per_move,
            sprt,
            records,
            max_plies,
            random_opening,
            search_threads,
            json,
        } => {
            let g = load(&game, None)?;
            let sprt = match sprt {
                None => None,
                Some(text) => {
                    let parsed = text.split_once(',').and_then(|(x, y)| {
                        Some((x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?))
                    });
                    match parsed {
                        Some((e0, e1)) if e0 < e1 => Some((e0, e1)),
                        _ => anyhow::bail!(
                            "--sprt '{text}' is not ELO0,ELO1 with ELO0 below ELO1 (e.g. 0,50)"
                        ),
                    }
                }
            };
            let options = crate::arena::MatchOptions {
                a,
                b,
                games,
                threads,
                seed,
                time_per_move: time_per_move.map(std::time::Duration::from_millis),
                sprt,
                records,
                max_plies,
                random_opening,
                search_threads,
                json,
            };
            crate::arena::run(&g, &options, out)
        }
        Command::Bench {
            game,
            seconds,
            json,
        } => crate::bench::run(game, seconds, json, out),
        Command::Serve { addr, store } => crate::serve::run(addr, &store, out),
        Command::Loadtest(args) => crate::loadtest::run(args, out),
        Command::Uci { game } => crate::uci::run(game),
        Command::Record { command } => crate::record::run(command, out),
    }
}

/// `tabula moves` where chance acts: said on stderr, and the outcomes with
/// their exact probabilities on stdout when the game lists them.
fn chance_moves(g: &AnyGame, notation: Notation, json: bool, out: &mut impl Write) -> Result<()> {
    let outcomes = g.chance_outcomes();
    match &outcomes {
        Some(list) => eprintln!(
            "chance acts here, not a player: {} outcome(s), each with its probability",
            list.len()
        ),
        None => eprintln!(
            "chance acts here, not a player: its outcome is sampled (a shuffle), \
             so there is no list of outcomes"
        ),
    }
    let outcomes = outcomes.unwrap_or_default();
    if json {
        let list: Vec<_> = outcomes
            .iter()
            .map(|(a, p)| {
                json!({ "notation": a.notation, "canonical": a.canonical,
                        "probability": p.to_string() })
            })
            .collect();
        writeln!(out, "{}", json!({ "chance": true, "outcomes": list }))?;
    } else {
        for (a, p) in &outcomes {
            let text = match notation {
                Notation::Game => &a.notation,
                Notation::Canonical => &a.canonical,
            };
            writeln!(out, "{text} {p}")?;
        }
    }
    Ok(())
}

/// `tabula view`: the table view (or the catalog) as pretty JSON.
fn view(
    game: &GameArgs,
    position: Option<&str>,
    viewer: Option<&str>,
    seed: Option<u64>,
    catalog: bool,
    moves: &[String],
    out: &mut impl Write,
) -> Result<()> {
    use tabula_core::{GameRng, Player, Seed, Viewer};
    use tabula_games::{ActionInput, Table};
    let g = load(game, position)?;
    if catalog {
        writeln!(out, "{}", serde_json::to_string_pretty(&g.catalog())?)?;
        return Ok(());
    }
    let seats = g.seating().len();
    let chosen = match viewer {
        None => None,
        Some(v) if v.eq_ignore_ascii_case("spectator") || v.eq_ignore_ascii_case("public") => {
            Some(Viewer::Public)
        }
        Some(v) => {
            let n: usize = v
                .parse()
                .ok()
                .filter(|n| (1..=seats).contains(n))
                .with_context(|| {
                    format!("bad viewer '{v}': a seat from 1 to {seats}, or 'spectator'")
                })?;
            Some(Viewer::Player(Player((n - 1) as u8)))
        }
    };
    let mut table = Table::new(g);
    let mut rng = seed.map(|s| GameRng::from_seed(Seed(s)));
    let mut settle = |table: &mut Table| {
        if let Some(rng) = rng.as_mut() {
            while table.play_chance(rng).is_some() {}
        }
    };
    settle(&mut table);
    for (i, text) in moves.iter().enumerate() {
        table
            .replay(&ActionInput::Text(text.clone()))
            .with_context(|| format!("action {} of {}", i + 1, moves.len()))?;
        settle(&mut table);
    }
    let viewer = chosen.unwrap_or_else(|| match table.to_act() {
        ToAct::Player { player } => Viewer::Player(player),
        _ => Viewer::Public,
    });
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&table.view(viewer))?
    )?;
    Ok(())
}

fn cards(search: Option<&str>, json: bool, out: &mut impl Write) -> Result<()> {
    // The card set is the Lytharian catalog's, as the page reads it.
    let catalog = AnyGame::catalog_for(GameId::Lytharia, &[])?;
    let found = crate::render::card_lines(&catalog, search.unwrap_or(""));
    if json {
        let list: Vec<_> = found
            .iter()
            .map(|(card, summary)| {
                json!({ "id": card["id"], "name": card["name"], "type": card["kind"], "summary": summary })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string(&list)?)?;
    } else {
        for (_, summary) in &found {
            writeln!(out, "{summary}")?;
        }
    }
    Ok(())
}

fn games(json: bool, out: &mut impl Write) -> Result<()> {
    if json {
        let list: Vec<_> = GameId::ALL
            .iter()
            .map(|id| json!({ "id": id, "title": id.title(), "options": option_specs(*id) }))
            .collect();
        writeln!(out, "{}", serde_json::to_string(&list)?)?;
    } else {
        for id in GameId::ALL {
            let options: Vec<&str> = option_specs(id).iter().map(|o| o.key).collect();
            writeln!(
                out,
                "{:<9} {:<16} options: {}",
                id.as_str(),
                id.title(),
                if options.is_empty() {
                    "none".to_owned()
                } else {
                    options.join(", ")
                }
            )?;
        }
    }
    Ok(())
}

/// The game named on the command line, at its start or at `position`.
pub fn load(args: &GameArgs, position: Option<&str>) -> Result<AnyGame> {
    let options = args.option_pairs()?;
    Ok(match position {
        Some(text) => AnyGame::from_text(args.game, text, &options)?,
        None => AnyGame::new(args.game, &options)?,
    })
}

fn state_json(g: &AnyGame, played: &[tabula_games::ActionText]) -> serde_json::Value {
    let outcome = g.outcome().map(|o| {
        json!({ "winner": o.winner, "reason": o.reason, "description": g.describe_outcome(&o) })
    });
    let to_act = match g.to_act() {
        ToAct::Player { player } => {
            json!({ "kind": "player", "player": player, "name": g.player_name(player) })
        }
        ToAct::Chance => json!({ "kind": "chance" }),
        ToAct::Over { .. } => json!({ "kind": "over" }),
    };
    json!({
        "game": g.id(),
        "position": g.to_text(),
        "options": g.option_pairs().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
        "to_act": to_act,
        "outcome": outcome,
        "played": played,
    })
}
