//! The command-line contract, exercised on the real binary.

mod binary;

use std::io::Write;
use std::process::{Command, Stdio};

use binary::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn games_lists_every_game_and_its_options() {
    let o = tabula(&["games"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 6);
    assert!(text.lines().next().unwrap().starts_with("chess"));
    assert!(
        text.lines().next().unwrap().contains("options: draw-rules"),
        "{text}"
    );
    assert!(
        text.contains("warrior") && text.contains("players"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&tabula(&["games", "--json"]).stdout).unwrap();
    assert_eq!(json[0]["id"], "chess");
    assert_eq!(json[5]["id"], "lytharia");
    assert_eq!(json[0]["options"][0]["default"], "automatic");
}

#[test]
fn new_prints_the_start_position() {
    let o = tabula(&["new", "chess"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim_end(), START);
    let json: serde_json::Value =
        serde_json::from_slice(&tabula(&["new", "chess", "--json"]).stdout).unwrap();
    assert_eq!(json["position"], START);
    assert_eq!(json["to_act"]["name"], "White");
}

#[test]
fn moves_prints_one_legal_move_per_line() {
    let o = tabula(&["moves", "chess"]);
    assert!(o.status.success());
    let san: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(san.len(), 20);
    assert!(san.contains(&"Nf3".to_owned()) && san.contains(&"e4".to_owned()));
    let uci = stdout(&tabula(&["moves", "chess", "--notation", "canonical"]));
    assert!(uci.lines().any(|l| l == "g1f3"));
    // Checkmated: no moves at all.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let o = tabula(&["moves", "chess", "--position", mated]);
    assert!(o.status.success());
    assert!(stdout(&o).is_empty());
}

#[test]
fn apply_plays_moves_in_either_notation_and_reports_the_end() {
    let o = tabula(&["apply", "chess", "e2e4", "e5", "Nf3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim_end(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    let o = tabula(&["apply", "chess", "f3", "e5", "g4", "Qh4#"]);
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1], "Black wins by checkmate");
    let json: serde_json::Value = serde_json::from_slice(
        &tabula(&["apply", "chess", "f3", "e5", "g4", "Qh4", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(json["outcome"]["reason"], "checkmate");
    assert_eq!(json["played"][3]["notation"], "Qh4#");
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let o = tabula(&["perft", "chess", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("8902"));
    assert!(stderr(&o).contains("nodes/s"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = tabula(&["perft", "chess", "2", "--position", kiwipete, "--divide"]);
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("2039"));
    assert_eq!(text.lines().count(), 48 + 1);
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    assert_bad_input(&tabula(&["new", "go"]), "unknown game 'go'");
    assert_bad_input(
        &tabula(&[
            "moves",
            "chess",
            "--position",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        ]),
        "side to move",
    );
    assert_bad_input(&tabula(&["apply", "chess", "e4", "e4"]), "bad move 'e4'");
    assert_bad_input(&tabula(&["apply", "chess", "Zz9"]), "bad move 'Zz9'");
    assert_bad_input(
        &tabula(&["new", "chess", "--mode", "fast"]),
        "chess has no option 'mode'",
    );
    assert_bad_input(
        &tabula(&["new", "chess", "--draw-rules", "never"]),
        "draw-rules",
    );
    assert_bad_input(&tabula(&["perft", "chess", "deep"]), "invalid value 'deep'");
    assert_bad_input(&tabula(&["moves"]), "GAME");
}

#[test]
fn play_takes_moves_and_commands_from_the_terminal() {
    let o = tabula_with_input(
        &["play", "chess", "--computer", "none"],
        "e4\nmoves\nNf9\nundo\nd4\nposition\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("♔"), "{text}");
    assert!(text.contains("Black to move"));
    assert!(text.contains("bad move 'Nf9'"), "{text}");
    assert!(
        text.contains("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"),
        "{text}"
    );
}

#[test]
fn the_computer_plays_a_whole_game_to_a_result() {
    let args = [
        "play",
        "chess",
        "--computer",
        "1,2",
        "--seed",
        "3",
        "--no-save",
    ];
    let o = tabula_with_input(&args, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Game over: "), "{text}");
    assert!(!text.contains("Saved as game"), "{text}");
    // Same seed, same game.
    let again = tabula_with_input(&args, "");
    assert_eq!(stdout(&again), text);
}

/// `tabula play --search-threads T` splits the computer's tree search
/// over T trees: a seeded game still replays exactly, the split changes
/// which game it is, and a count outside 1..=64 is refused.
#[test]
fn play_splits_the_computers_search_over_threads_reproducibly() {
    let game = |threads: &str| {
        let o = tabula_with_input(
            &[
                "play",
                "skirmish",
                "--computer",
                "1,2",
                "--level",
                "easy",
                "--search-threads",
                threads,
                "--seed",
                "4",
                "--no-save",
            ],
            "",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let two = game("2");
    assert!(two.contains("Game over: "), "{two}");
    assert_eq!(game("2"), two);
    assert_ne!(game("1"), two);
    assert_bad_input(
        &tabula(&["play", "chess", "--search-threads", "0"]),
        "search-threads",
    );
}

#[test]
fn play_ends_quietly_when_input_ends() {
    let o = tabula_with_input(&["play", "chess"], "");
    assert!(o.status.success());
}

#[test]
fn epoch_works_through_the_same_commands() {
    let start = stdout(&tabula(&["new", "epoch"]));
    assert!(
        start.starts_with("sthgaepmaghts/13/lllllllllllll/"),
        "{start}"
    );
    let moves = stdout(&tabula(&["moves", "epoch"]));
    assert_eq!(moves.lines().count(), 81);
    assert!(moves.lines().any(|l| l == "Sa1-a2"), "{moves}");
    assert_eq!(
        stdout(&tabula(&["perft", "epoch", "2"])).lines().last(),
        Some("6629")
    );
    assert_eq!(
        stdout(&tabula(&["perft", "epoch", "2", "--option", "swap=off"]))
            .lines()
            .last(),
        Some("6548")
    );
    let o = tabula(&["apply", "epoch", "g3g7", "f11f8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_bad_input(&tabula(&["apply", "epoch", "Sa1-a9"]), "bad move 'Sa1-a9'");
    assert_bad_input(
        &tabula(&["moves", "epoch", "--position", "13/13 w"]),
        "bad position",
    );
    let o = tabula_with_input(&["play", "epoch", "--computer", "none"], "moves\nquit\n");
    assert!(stdout(&o).contains("+ enhanced"));
}

#[test]
fn warrior_works_through_the_same_commands_for_two_and_four_players() {
    let start = stdout(&tabula(&["new", "warrior"]));
    assert!(start.starts_with("3BK4/8/8/8/8/8/8/4RK3 R move"), "{start}");
    assert_eq!(stdout(&tabula(&["moves", "warrior"])).lines().count(), 67);
    assert_eq!(
        stdout(&tabula(&["perft", "warrior", "2"])).lines().last(),
        Some("4427")
    );
    let doubles = stdout(&tabula(&["new", "warrior", "--players", "4"]));
    assert_ne!(doubles, start);
    let o = tabula(&["apply", "warrior", "W@e4", "W@d5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_bad_input(&tabula(&["new", "warrior", "--players", "3"]), "players");
    assert_bad_input(&tabula(&["apply", "warrior", "e4-e5"]), "bad move 'e4-e5'");
    let o = tabula_with_input(
        &["play", "warrior", "--players", "4", "--computer", "none"],
        "W@e4\nquit\n",
    );
    let text = stdout(&o);
    assert!(
        text.contains("Bank Red") && text.contains("Yellow"),
        "{text}"
    );
}

#[test]
fn covenant_works_through_the_same_commands() {
    let start = stdout(&tabula(&["new", "covenant", "--scenario", "crossroads"]));
    assert!(start.starts_with("crossroads g 1 0"), "{start}");
    assert_eq!(
        stdout(&tabula(&[
            "perft",
            "covenant",
            "2",
            "--scenario",
            "crossroads"
        ]))
        .lines()
        .last(),
        Some("687")
    );
    let moves = stdout(&tabula(&["moves", "covenant", "--scenario", "crossroads"]));
    assert_eq!(moves.lines().count(), 36);
    let first = moves.lines().next().unwrap().to_owned();
    let o = tabula(&["apply", "covenant", "--scenario", "crossroads", &first]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_bad_input(
        &tabula(&["new", "covenant", "--scenario", "atlantis"]),
        "atlantis",
    );
    assert_bad_input(
        &tabula(&["apply", "covenant", "act@z99"]),
        "bad move 'act@z99'",
    );
    let o = tabula_with_input(
        &[
            "play",
            "covenant",
            "--scenario",
            "crossroads",
            "--computer",
            "none",
        ],
        &format!("{first}\nquit\n"),
    );
    let text = stdout(&o);
    assert!(text.contains("Reachable (MP)"), "{text}");
}

#[test]
fn skirmish_shows_odds_and_rolls_and_takes_its_options() {
    let start = stdout(&tabula(&["new", "skirmish"]));
    assert!(
        start.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{start}"
    );
    assert_eq!(
        stdout(&tabula(&["perft", "skirmish", "3"])).lines().last(),
        Some("8902")
    );
    let capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    // Pawn (1) + bonus 1 + d6 against pawn (1) + d6, ties to the defender:
    // the attacker wins when its die is at least the defender's: 21/36 = 7/12.
    let o = tabula_with_input(
        &[
            "play",
            "skirmish",
            "--position",
            capture,
            "--computer",
            "none",
            "--seed",
            "1",
        ],
        "exd5\nquit\n",
    );
    let text = stdout(&o);
    assert!(text.contains("e4xd5 58% (7/12)"), "{text}");
    assert!(text.contains("Chance: roll:"), "{text}");
    // A larger bonus makes the same skirmish a given.
    let o = tabula_with_input(
        &[
            "play",
            "skirmish",
            "--position",
            capture,
            "--attack-bonus",
            "6",
            "--computer",
            "none",
        ],
        "quit\n",
    );
    assert!(stdout(&o).contains("e4xd5 certainly"), "{}", stdout(&o));
    let o = tabula(&[
        "new",
        "skirmish",
        "--mode",
        "advanced",
        "--king-value",
        "9",
        "--attack-bonus",
        "-2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_bad_input(
        &tabula(&["new", "skirmish", "--king-value", "10"]),
        "king-value",
    );
}

#[test]
fn lytharia_plays_without_showing_hidden_cards_and_lists_its_cards() {
    let start = stdout(&tabula(&["new", "lytharia"]));
    assert!(start.starts_with("lytharia "), "{start}");
    // The game starts by shuffling both decks: chance, so no player action.
    assert!(stdout(&tabula(&["moves", "lytharia"])).is_empty());
    let o = tabula_with_input(
        &["play", "lytharia", "--computer", "none", "--seed", "2"],
        "moves\nquit\n",
    );
    let text = stdout(&o);
    assert!(text.contains("Chance: shuffle (outcome hidden)"), "{text}");
    // A deck order would show as a dotted permutation of card positions.
    assert!(!text.contains(".17.") && !text.contains("5.1"), "{text}");
    assert!(text.contains("hand 0 (hidden)"), "{text}");
    let all = stdout(&tabula(&["cards"]));
    assert!(all.lines().count() >= 132, "{}", all.lines().count());
    let found = stdout(&tabula(&["cards", "fireball"]));
    assert!(
        found.lines().all(|l| l.to_lowercase().contains("fireball")),
        "{found}"
    );
    assert!(!found.is_empty());
    let json: serde_json::Value =
        serde_json::from_slice(&tabula(&["cards", "--json"]).stdout).unwrap();
    assert!(json.as_array().is_some_and(|a| a.len() >= 132));
    assert_bad_input(&tabula(&["new", "lytharia", "--mode", "poker"]), "mode");
    // The computer places its Pawns face down: the person is not told which.
    let o = tabula_with_input(
        &["play", "lytharia", "--computer", "2", "--seed", "2"],
        "quit\n",
    );
    let text = stdout(&o);
    assert!(text.contains("Player 2 plays place a Pawn"), "{text}");
    assert!(!text.contains("plays place deepdark"), "{text}");
}

/// A scratch directory for record files and databases.
fn record_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FOOLS_MATE: &str = "[Event \"Paris\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn record_replay_prints_the_position_at_any_ply() {
    let dir = record_dir("replay");
    let file = dir.join("mate.pgn");
    std::fs::write(&file, FOOLS_MATE).unwrap();
    let f = file.to_str().unwrap();
    let o = tabula(&["record", "replay", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\nBlack wins by checkmate\n"
    );
    let o = tabula(&["record", "replay", f, "--ply", "0"]);
    assert_eq!(stdout(&o), format!("{START}\n"));
    let o = tabula(&["record", "replay", f, "--ply", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["ply"], 1);
    assert_eq!(v["plies"], 4);
    assert!(v["outcome"].is_null());
    let o = tabula_with_input(&["record", "replay", "-"], FOOLS_MATE);
    assert!(stdout(&o).ends_with("Black wins by checkmate\n"));
    assert_bad_input(
        &tabula(&["record", "replay", f, "--ply", "5"]),
        "past the end",
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn record_import_export_and_list_through_a_database() {
    let dir = record_dir("import");
    let file = dir.join("mate.pgn");
    std::fs::write(&file, FOOLS_MATE).unwrap();
    let db = dir.join("t.db");
    let (f, d) = (file.to_str().unwrap(), db.to_str().unwrap());
    let o = tabula(&["record", "import", f, "--db", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1\n");
    let o = tabula(&["record", "list", "--db", d]);
    assert_eq!(stdout(&o), "1 chess 4 Black wins by checkmate\n");
    let o = tabula(&["record", "export", "1", "--db", d]);
    let text = stdout(&o);
    assert!(
        text.starts_with("[Event \"Paris\"]\n[Site \"tabula\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Reason \"checkmate\"]"), "{text}");
    assert!(text.ends_with("\n1. f3 e5 2. g4 Qh4# 0-1\n"), "{text}");
    // The export imports again, as game 2.
    let o = tabula_with_input(&["record", "import", "-", "--db", d], &text);
    assert_eq!(stdout(&o), "2\n", "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn record_errors_are_one_line_naming_line_and_ply() {
    let dir = record_dir("errors");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Result \"*\"]\n\n1. e4 e5\n2. Ke3 *\n").unwrap();
    let db = dir.join("t.db");
    let (b, d) = (bad.to_str().unwrap(), db.to_str().unwrap());
    assert_bad_input(
        &tabula(&["record", "replay", b]),
        "line 4: ply 3: illegal action 'Ke3'",
    );
    assert_bad_input(&tabula(&["record", "import", b, "--db", d]), "ply 3");
    let trunc = dir.join("trunc.pgn");
    std::fs::write(&trunc, "[Game \"epoch\"]\n[Site \"x").unwrap();
    assert_bad_input(
        &tabula(&["record", "replay", trunc.to_str().unwrap()]),
        "truncated",
    );
    let unknown = dir.join("go.pgn");
    std::fs::write(&unknown, "[Game \"go\"]\n*\n").unwrap();
    assert_bad_input(
        &tabula(&["record", "replay", unknown.to_str().unwrap()]),
        "unknown game 'go'",
    );
    assert_bad_input(&tabula(&["record", "export", "7", "--db", d]), "no game 7");
    let nowhere = dir.join("none.db");
    assert_bad_input(
        &tabula(&["record", "export", "1", "--db", nowhere.to_str().unwrap()]),
        "no database at",
    );
    assert_bad_input(
        &tabula(&["record", "replay", "/no/such/file.pgn"]),
        "cannot read",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The game id `tabula play` printed when it started saving.
fn saved_game_id(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("Saved as game "))
        .unwrap_or_else(|| panic!("no 'Saved as game' line in: {text}"));
    line["Saved as game ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn play_saves_every_move_takes_back_and_resumes() {
    let dir = record_dir("play-save");
    let db = dir.join("games.db");
    let d = db.to_str().unwrap();
    let o = tabula_with_input(
        &["play", "chess", "--computer", "none", "--db", d],
        "e4\ne5\nNf3\nundo\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let id = saved_game_id(&text);
    assert!(
        text.contains(&format!("Game {id} is saved unfinished; 'tabula play chess --resume {id} --db {d}' continues it.")),
        "{text}"
    );
    // Two moves stored: the taken-back Nf3 is gone.
    let o = tabula(&["record", "list", "--db", d]);
    assert_eq!(stdout(&o), format!("{id} chess 2 *\n"));
    // Resumed where it stopped (White to move), then Black resigns.
    let o = tabula_with_input(
        &["play", "chess", "--resume", &id, "--db", d],
        "position\nNc3\nresign\nyes\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
        "{text}"
    );
    assert!(
        text.contains("Game over: White wins by resignation."),
        "{text}"
    );
    let o = tabula(&["record", "export", &id, "--db", d]);
    let record = stdout(&o);
    assert!(record.contains("[White \"Player 1\"]"), "{record}");
    assert!(record.contains("[Reason \"resignation\"]"), "{record}");
    assert!(record.ends_with("\n1. e4 e5 2. Nc3 1-0\n"), "{record}");
    // A finished game cannot be resumed; nor can a game of another kind.
    assert_bad_input(
        &tabula(&["play", "chess", "--resume", &id, "--db", d]),
        "is over",
    );
    assert_bad_input(
        &tabula(&["play", "epoch", "--resume", &id, "--db", d]),
        "is chess, not epoch",
    );
    assert_bad_input(
        &tabula(&["play", "chess", "--resume", "99", "--db", d]),
        "no game 99",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Dice drawn in two sittings still come from the record's seed: the
/// saved game replays with every roll checked against it.
#[test]
fn a_resumed_dice_game_keeps_its_chance_stream() {
    let dir = record_dir("play-resume-dice");
    let db = dir.join("games.db");
    let d = db.to_str().unwrap();
    let o = tabula_with_input(
        &["play", "skirmish", "--seed", "11", "--db", d],
        "e4\nd4\nNc3\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let id = saved_game_id(&stdout(&o));
    // The computer takes both seats and plays to the end.
    let o = tabula_with_input(
        &[
            "play",
            "skirmish",
            "--resume",
            &id,
            "--computer",
            "1,2",
            "--db",
            d,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Game over: "), "{text}");
    let record = stdout(&tabula(&["record", "export", &id, "--db", d]));
    assert!(record.contains("[Seed \"11\"]"), "{record}");
    assert!(record.contains("roll:"), "no dice in: {record}");
    let o = tabula_with_input(&["record", "replay", "-"], &record);
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

/// Every game with chance or hidden cards saves and resumes the same way:
/// one sitting of people, then the computer finishes; the stored record
/// replays with its seed (shuffles and rolls included).
#[test]
fn games_of_every_kind_resume_from_the_store_and_replay() {
    let dir = record_dir("play-resume-all");
    let db = dir.join("games.db");
    let d = db.to_str().unwrap();
    for (game, extra, computers) in [
        ("lytharia", None, "1,2"),
        ("lytharia", Some("--mode=duel"), "1,2"),
        ("warrior", Some("--players=4"), "1,2,3,4"),
        ("covenant", None, "1,2"),
    ] {
        let mut args = vec!["play", game, "--computer", "none", "--seed", "7", "--db", d];
        args.extend(extra);
        let o = tabula_with_input(&args, "quit\n");
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let id = saved_game_id(&stdout(&o));
        let o = tabula_with_input(
            &[
                "play",
                game,
                "--resume",
                &id,
                "--computer",
                computers,
                "--db",
                d,
            ],
            "",
        );
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert!(stdout(&o).contains("Game over: "), "{game}");
        let record = stdout(&tabula(&["record", "export", &id, "--db", d]));
        assert!(record.contains("[Seed \"7\"]"), "{record}");
        let o = tabula_with_input(&["record", "replay", "-"], &record);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `tabula view` prints the table protocol's view: the seat to act gets its
/// legal actions with their JSON and gestures, anyone else none; the
/// opponent's hand in Lytharia is a count; bad viewers are bad input.
#[test]
fn view_prints_the_table_protocol_for_each_viewer() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = tabula(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let v = json(&["view", "chess", "e4", "e5"]);
    assert_eq!(v["ply"], 2);
    assert_eq!(v["to_act"]["player"], 0);
    assert_eq!(v["last"]["notation"], "e5");
    assert_eq!(v["moves"][0]["notation"], "e4");
    let legal = v["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 29);
    let nf3 = legal.iter().find(|a| a["notation"] == "Nf3").unwrap();
    assert_eq!(
        nf3["action"],
        serde_json::json!({"kind": "move", "from": "g1", "to": "f3"})
    );
    assert_eq!(nf3["gesture"]["from"]["cell"], "g1");
    assert_eq!(nf3["gesture"]["to"], "f3");
    assert!(
        v["position"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppp1ppp")
    );
    assert!(
        v["table_actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "offer-draw")
    );

    let black = json(&["view", "chess", "--viewer", "2", "e4"]);
    assert_eq!(black["legal"].as_array().unwrap().len(), 20);
    let spectator = json(&["view", "chess", "--viewer", "spectator", "e4"]);
    assert!(spectator["legal"].as_array().unwrap().is_empty());
    assert!(spectator["table_actions"].as_array().unwrap().is_empty());

    // Lytharia: after the shuffles, the other seat's hand is only a count.
    let seat2 = json(&["view", "lytharia", "--seed", "4", "--viewer", "2"]);
    let hands: Vec<&serde_json::Value> = seat2["zones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|z| z["zone"] == "hand")
        .collect();
    assert_eq!(hands.len(), 2);
    let theirs = hands.iter().find(|z| z["owner"] == 0).unwrap();
    assert!(theirs["items"].as_array().unwrap().is_empty(), "{theirs}");
    assert!(
        seat2.get("position").is_none(),
        "a hidden game's text leaks it all"
    );

    let catalog = json(&["view", "epoch", "--catalog"]);
    assert_eq!(catalog["board"]["files"].as_array().unwrap().len(), 13);

    assert_bad_input(
        &tabula(&["view", "chess", "--viewer", "3"]),
        "bad viewer '3'",
    );
    assert_bad_input(&tabula(&["view", "chess", "e5"]), "bad move 'e5'");
}

#[test]
fn serve_prints_its_url_serves_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader, Read};

    let db = std::env::temp_dir().join(format!("tabula-cli-serve-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .strip_prefix("tabula serves on http://")
        .unwrap_or_else(|| panic!("{first}"));
    let addr = url.split('/').next().unwrap().to_owned();

    let body = r#"{"game":"chess","seats":["human","computer"],"seed":5}"#;
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "POST /api/tables HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 201"), "{response}");
    assert!(response.contains("\"spectator_token\""), "{response}");

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(lines.next().unwrap().unwrap(), "stopped");

    let list = tabula(&["record", "list", "--db", db.to_str().unwrap()]);
    assert!(stdout(&list).contains("chess"), "{}", stdout(&list));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

#[test]
fn serve_without_a_database_creates_one_in_the_users_data_directory() {
    use std::io::{BufRead, BufReader};

    let data = std::env::temp_dir().join(format!("tabula-cli-xdg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("XDG_DATA_HOME", &data)
        .env_remove("TABULA_DB")
        .env_remove("TABULA_DATABASE_URL")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(child.wait().unwrap().success());
    assert_eq!(lines.next().unwrap().unwrap(), "stopped");
    let db = data.join("tabula").join("tabula.db");
    assert!(
        first.ends_with(&format!("(game store {})", db.display())),
        "{first}"
    );
    assert!(db.exists(), "{} was not created", db.display());
    let list = tabula(&["record", "list", "--db", db.to_str().unwrap()]);
    assert!(list.status.success(), "{}", stderr(&list));
    let _ = std::fs::remove_dir_all(data);
}

#[test]
fn serve_takes_one_database_and_never_prints_its_password() {
    let o = tabula(&["serve", "--db", "a.db", "--database-url", "postgres://x/y"]);
    assert_bad_input(&o, "cannot be used with");
    // `TABULA_DB` is set (by `tabula`): the flag wins over the variable.
    // Nothing listens on port 1, so with the `postgres` feature the
    // connection fails; without it the error says how to build.
    let url = "host=127.0.0.1 port=1 user=ada password=s3cret dbname=games connect_timeout=2";
    let o = tabula(&["serve", "--addr", "127.0.0.1:0", "--database-url", url]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(!err.contains("s3cret"), "{err}");
    if cfg!(feature = "postgres") {
        assert!(
            err.contains("PostgreSQL database games on 127.0.0.1:1"),
            "{err}"
        );
    } else {
        assert!(err.contains("--features postgres"), "{err}");
    }
}

#[test]
fn serve_refuses_a_bad_address() {
    let o = tabula(&["serve", "--addr", "nowhere"]);
    assert_bad_input(&o, "--addr");
}

fn match_json(args: &[&str]) -> serde_json::Value {
    let out = tabula(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("tabula match --json prints JSON")
}

#[test]
fn match_plays_a_reproducible_series_and_saves_its_records() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().unwrap();
    for game in [&["skirmish"][..], &["lytharia", "--mode", "duel"][..]] {
        let mut args: Vec<&str> = vec!["match"];
        args.extend_from_slice(game);
        args.extend_from_slice(&[
            "--a",
            "easy:40",
            "--b",
            "random",
            "--games",
            "4",
            "--threads",
            "2",
            "--seed",
            "3",
            "--json",
        ]);
        let first = match_json(&args);
        let again = match_json(&args);
        assert_eq!(first["games"], 4);
        let sum = |v: &serde_json::Value| {
            v["wins"].as_u64().unwrap()
                + v["draws"].as_u64().unwrap()
                + v["losses"].as_u64().unwrap()
        };
        assert_eq!(sum(&first), 4);
        // The same seed replays the same games (timings aside).
        for key in ["wins", "draws", "losses", "plies_per_game", "ended"] {
            assert_eq!(first[key], again[key], "{game:?} {key}");
        }
        let mut with_records = args.clone();
        with_records.extend_from_slice(&["--records", dir_text]);
        match_json(&with_records);
        let record = dir.join("game-0001.pgn");
        let replay = tabula(&["record", "replay", record.to_str().unwrap()]);
        assert!(
            replay.status.success(),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--search-threads` splits each decision's tree search over independent
/// trees: a series on two of them replays exactly, is said in the JSON,
/// and zero threads is refused.
#[test]
fn match_searches_on_several_threads_reproducibly() {
    let args = [
        "match",
        "warrior",
        "--a",
        "easy:60",
        "--b",
        "greedy",
        "--games",
        "2",
        "--seed",
        "5",
        "--search-threads",
        "2",
        "--json",
    ];
    let first = match_json(&args);
    let again = match_json(&args);
    assert_eq!(first["search_threads"], 2);
    for key in ["wins", "draws", "losses", "plies_per_game", "ended"] {
        assert_eq!(first[key], again[key], "{key}");
    }
    let out = tabula(&[
        "match",
        "chess",
        "--a",
        "easy",
        "--b",
        "random",
        "--search-threads",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("search-threads"));
}

#[test]
fn match_refuses_a_bad_spec_in_one_line() {
    let out = tabula(&[
        "match", "chess", "--a", "wizard", "--b", "random", "--games", "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("wizard") && err.lines().count() == 1, "{err}");
}

/// The terminal draws from the table protocol as the page does: no rules
/// crate among its dependencies, and no reaching through `AnyGame`'s
/// variants to a game's own types.
#[test]
fn the_cli_knows_no_rules_crate() {
    const RULES: [&str; 6] = [
        "chess", "epoch", "skirmish", "warrior", "covenant", "lytharia",
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    for line in manifest.lines() {
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        assert!(
            !RULES.iter().any(|r| name == format!("tabula-{r}")),
            "crates/cli depends on a rules crate: {line}"
        );
    }
    let mut files = Vec::new();
    for sub in ["src", "tests", "tests/binary"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 10, "{files:?}");
    let variants = [
        "Chess", "Epoch", "Skirmish", "Warrior", "Covenant", "Lytharia",
    ];
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        for v in variants {
            // Splitting the needle keeps this file from matching itself.
            let needle = format!("AnyGame::{v}{}", "(");
            assert!(
                !source.contains(&needle),
                "{} opens a game's own state: {needle}",
                path.display()
            );
        }
    }
}
