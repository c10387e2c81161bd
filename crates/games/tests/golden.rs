//! Golden JSON of the table protocol: one table view (and the catalog) per
//! game, after a few seeded plies, compared byte for byte with the files in
//! `tests/golden/`. A change to what the page receives shows up here as a
//! diff to review; `UPDATE_GOLDEN=1 cargo test -p tabula-games --test
//! golden` rewrites the files after a deliberate change.

use std::path::PathBuf;

use tabula_core::{GameId, GameRng, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionInput, AnyGame, Table};

/// A table after `plies` seeded plies (chance drawn from the same seed).
fn table(id: GameId, options: &[(&str, &str)], plies: usize, seed: u64) -> Table {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let mut table = Table::new(AnyGame::new(id, &options).unwrap());
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut played = 0;
    while played < plies {
        match table.to_act() {
            ToAct::Over { .. } => break,
            ToAct::Chance => {
                table.play_chance(&mut rng).unwrap();
            }
            ToAct::Player { player } => {
                let legal = table.game().legal_entries();
                let pick = &legal[rng.below(legal.len() as u64) as usize];
                table
                    .act(player, &ActionInput::Json(pick.action.clone()))
                    .unwrap();
                played += 1;
            }
        }
    }
    // Leave chance's turn to chance, so the view shows a seat deciding.
    while table.to_act() == ToAct::Chance {
        table.play_chance(&mut rng).unwrap();
    }
    table
}

fn check(name: &str, json: &serde_json::Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.json"));
    let text = serde_json::to_string_pretty(json).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if golden != text {
        let line = golden
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| golden.lines().count().min(text.lines().count()));
        panic!(
            "{name}: the protocol's JSON changed from {} at line {}:\n  golden: {}\n  now:    {}\n\
             (UPDATE_GOLDEN=1 rewrites the file after a deliberate change)",
            path.display(),
            line + 1,
            golden.lines().nth(line).unwrap_or("<end>"),
            text.lines().nth(line).unwrap_or("<end>")
        );
    }
}

fn acting(table: &Table) -> Viewer {
    table
        .to_act()
        .player()
        .map_or(Viewer::Public, Viewer::Player)
}

/// A golden file's name, the game, its options, and the plies played first.
type Case = (
    &'static str,
    GameId,
    &'static [(&'static str, &'static str)],
    usize,
);

/// Each game: the view of the seat to act (legal actions with gestures)
/// after a few plies, and the catalog.
#[test]
fn every_game_view_and_catalog_match_their_golden_json() {
    let cases: [Case; 8] = [
        ("chess", GameId::Chess, &[], 3),
        ("epoch", GameId::Epoch, &[], 3),
        ("skirmish", GameId::Skirmish, &[("mode", "advanced")], 5),
        ("warrior", GameId::Warrior, &[], 4),
        ("warrior-doubles", GameId::Warrior, &[("players", "4")], 4),
        (
            "covenant",
            GameId::Covenant,
            &[("scenario", "crossroads")],
            6,
        ),
        ("lytharia", GameId::Lytharia, &[], 12),
        ("lytharia-duel", GameId::Lytharia, &[("mode", "duel")], 9),
    ];
    for (name, id, options, plies) in cases {
        let t = table(id, options, plies, 2026);
        let view = serde_json::to_value(t.view(acting(&t))).unwrap();
        check(&format!("view-{name}"), &view);
        // The duel's catalog is the full game's (the same card set).
        if name != "lytharia-duel" {
            check(
                &format!("catalog-{name}"),
                &serde_json::to_value(t.game().catalog()).unwrap(),
            );
        }
    }
}

/// Lytharia's hidden information as each viewer gets it: the seat to act,
/// the other seat, and a spectator.
#[test]
fn lytharia_views_for_each_viewer_match_their_golden_json() {
    let t = table(GameId::Lytharia, &[], 12, 2026);
    let me = t.to_act().player().unwrap();
    let other = Player(1 - me.0);
    check(
        "view-lytharia-other-seat",
        &serde_json::to_value(t.view(Viewer::Player(other))).unwrap(),
    );
    check(
        "view-lytharia-spectator",
        &serde_json::to_value(t.view(Viewer::Public)).unwrap(),
    );
}
