//! `tabula record`: replay, import, export and list game records.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::json;
use tabula_core::{GameId, Outcome, Player};
use tabula_games::AnyGame;
use tabula_store::{GameKey, Record, SqliteStore, Store, import_record};

use crate::args::RecordCommand;

/// Runs one `record` subcommand.
pub fn run(command: RecordCommand, out: &mut impl Write) -> Result<()> {
    match command {
        RecordCommand::Replay {
            file,
            ply,
            game,
            json,
        } => {
            let mut records =
                Record::parse_all(&read(&file)?).with_context(|| file.display().to_string())?;
            let count = records.len();
            let record = match game {
                None if count == 1 => records.remove(0),
                None => bail!(
                    "{} holds {count} games: choose one with --game N (1 to {count})",
                    file.display()
                ),
                Some(n) if (1..=count).contains(&n) => records.remove(n - 1),
                Some(n) => bail!(
                    "{} has no game {n}: it holds {count} game(s), --game 1 to {count}",
                    file.display()
                ),
            };
            let plies = record.actions.len();
            let game = match ply {
                None => record.replay(),
                Some(ply) => record.replay_to(ply),
            }
            .with_context(|| file.display().to_string())?;
            let ply = ply.unwrap_or(plies);
            if json {
                let outcome = game.outcome().map(|o| {
                    json!({ "winner": o.winner, "reason": o.reason,
                            "description": game.describe_outcome(&o) })
                });
                writeln!(
                    out,
                    "{}",
                    json!({ "game": game.id(), "ply": ply, "plies": plies,
                            "position": game.to_text(), "outcome": outcome })
                )?;
            } else {
                writeln!(out, "{}", game.to_text())?;
                if let Some(outcome) = game.outcome() {
                    writeln!(out, "{}", game.describe_outcome(&outcome))?;
                }
            }
            Ok(())
        }
        RecordCommand::Import { file, db } => {
            let records =
                Record::parse_all(&read(&file)?).with_context(|| file.display().to_string())?;
            let store = open(&db.path, true)?;
            if let [record] = records.as_slice() {
                let key =
                    import_record(&store, record).with_context(|| file.display().to_string())?;
                writeln!(out, "{key}")?;
                return Ok(());
            }
            // Several games: each in its own transaction, one line each, so
            // one bad game does not lose the others.
            let mut refused = 0;
            for (i, record) in records.iter().enumerate() {
                let n = i + 1;
                let line = record.first_line();
                match import_record(&store, record) {
                    Ok(key) => writeln!(out, "game {n} (line {line}): imported as {key}")?,
                    Err(e) => {
                        refused += 1;
                        writeln!(out, "game {n} (line {line}): refused: {e}")?;
                    }
                }
            }
            if refused > 0 {
                bail!(
                    "{}: {refused} of {} games refused (see above)",
                    file.display(),
                    records.len()
                );
            }
            Ok(())
        }
        RecordCommand::Export { id, db, viewer } => {
            let store = open(&db.path, false)?;
            let game = store.load_game(GameKey(id))?;
            let record = game.record();
            let text = match viewer {
                None => record.write()?,
                Some(0) => bail!("seats count from 1"),
                Some(seat) => record.write_for(Player(seat - 1))?,
            };
            write!(out, "{text}")?;
            Ok(())
        }
        RecordCommand::List { db, json } => {
            // No database yet is no games yet, not an error.
            let games = if db.path.exists() {
                let store = open(&db.path, false)?;
                let mut games = Vec::new();
                for g in store.list_games()? {
                    let result = g.result.map(|o| describe(&store, g.key, g.game, &o));
                    games.push((g, result));
                }
                games
            } else {
                Vec::new()
            };
            if json {
                let list: Vec<_> = games
                    .iter()
                    .map(|(g, text)| {
                        let result = g.result.map(|o| {
                            json!({ "winner": o.winner, "reason": o.reason, "description": text })
                        });
                        json!({ "id": g.key.0, "game": g.game, "plies": g.plies, "result": result })
                    })
                    .collect();
                writeln!(out, "{}", serde_json::to_string(&list)?)?;
            } else {
                for (g, text) in &games {
                    let result = text.as_deref().unwrap_or("*");
                    writeln!(out, "{} {} {} {}", g.key, g.game, g.plies, result)?;
                }
            }
            Ok(())
        }
    }
}

/// An outcome in the game's own words ("Black wins by resignation"), with
/// the stored game's options (a four-player table names its teams so).
fn describe(store: &SqliteStore, key: GameKey, id: GameId, outcome: &Outcome) -> String {
    store
        .load_game(key)
        .ok()
        .and_then(|stored| AnyGame::new(id, &stored.header.options).ok())
        .map_or_else(|| outcome.to_string(), |g| g.describe_outcome(outcome))
}

fn read(file: &Path) -> Result<String> {
    if file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        return Ok(text);
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", file.display()))
}

/// Opens the game store at `db`; unless `create`, it must exist already.
pub fn open(db: &Path, create: bool) -> Result<SqliteStore> {
    if !create && !db.exists() {
        bail!("no database at {}", db.display());
    }
    SqliteStore::open(db).with_context(|| format!("opening the game store {}", db.display()))
}
