//! The command line's rough edges (issue 17), each seen through the binary.

mod binary;

use std::process::{Command, Stdio};

use binary::*;

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tabula-faults-{name}-{}", std::process::id()))
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    let o = tabula_with_bytes(
        &["play", "chess", "--computer", "none", "--no-save"],
        b"e4\n\xff\xfe\ne5\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("not UTF-8"), "{text}");
    assert!(text.contains("Black's Pawn from e7 to e5"), "{text}");
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // The reader is gone before tabula writes its first line.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["moves", "epoch"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(stderr(&o), "");
    assert!(o.status.success());
}

#[test]
fn perft_at_depth_zero_is_one_node_with_or_without_divide() {
    assert_eq!(stdout(&tabula(&["perft", "chess", "0"])), "1\n");
    assert_eq!(stdout(&tabula(&["perft", "chess", "0", "--divide"])), "1\n");
}

#[test]
fn moves_at_a_chance_node_says_so_and_lists_the_odds() {
    // Lytharia opens with a shuffle: sampled, so nothing to list.
    let o = tabula(&["moves", "lytharia"]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("chance acts here"), "{}", stderr(&o));
    assert!(stderr(&o).contains("sampled"), "{}", stderr(&o));
    // A Skirmish capture waits for two dice: 36 outcomes of 1/36 each.
    let applied = stdout(&tabula(&["apply", "skirmish", "e4", "d5", "exd5"]));
    let pending = applied.lines().next().unwrap();
    let o = tabula(&["moves", "skirmish", "--position", pending]);
    assert!(stderr(&o).contains("36 outcome"), "{}", stderr(&o));
    let listed = stdout(&o);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 36);
    assert_eq!(lines[0], "roll:1-1 1/36");
    let o = tabula(&["moves", "skirmish", "--position", pending, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["chance"], true);
    assert_eq!(v["outcomes"][35]["probability"], "1/36");
}

#[test]
fn perft_behind_a_shuffle_is_refused_unless_dealt_from_a_seed() {
    assert_refused(&tabula(&["perft", "lytharia", "2"]), "--seed");
    let o = tabula(&["perft", "lytharia", "2", "--seed", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n: u64 = stdout(&o).trim().parse().unwrap();
    assert!(n > 1, "{n}");
}

#[test]
fn conflicting_and_out_of_range_options_are_errors() {
    assert_refused(
        &tabula(&["new", "skirmish", "--mode", "advanced", "-o", "mode=basic"]),
        "given twice",
    );
    assert_refused(
        &tabula(&["new", "skirmish", "--attack-bonus", "-2147483648"]),
        "-999 to 999",
    );
    assert!(
        tabula(&["new", "skirmish", "--attack-bonus", "-3"])
            .status
            .success()
    );
}

#[test]
fn record_list_without_a_database_is_an_empty_list_and_takes_json() {
    let db = scratch("none.db");
    let _ = std::fs::remove_file(&db);
    let d = db.to_str().unwrap();
    let o = tabula(&["record", "list", "--db", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = tabula(&["record", "list", "--db", d, "--json"]);
    assert_eq!(stdout(&o), "[]\n");
    assert!(!db.exists(), "listing must not create a database");
}

#[test]
fn record_list_names_the_winner_in_the_games_words() {
    let dir = scratch("list");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("t.db");
    let d = db.to_str().unwrap();
    let o = tabula_with_bytes(
        &["play", "chess", "--computer", "none", "--db", d],
        b"e4\nresign\nyes\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tabula(&["record", "list", "--db", d]);
    assert_eq!(stdout(&o), "1 chess 1 White wins by resignation\n");
    let o = tabula(&["record", "list", "--db", d, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["id"], 1);
    assert_eq!(v[0]["result"]["description"], "White wins by resignation");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_side_to_move_is_said_once_with_check_in_the_prompt() {
    let o = tabula_with_bytes(
        &["play", "skirmish", "--computer", "none", "--no-save"],
        b"quit\n",
    );
    let text = stdout(&o);
    assert!(!text.contains("Waiting for: White to move"), "{text}");
    assert_eq!(text.matches("White to move").count(), 1, "{text}");
    let o = tabula_with_bytes(
        &["play", "chess", "--computer", "none", "--no-save"],
        b"e4\nf6\nQh5+\nquit\n",
    );
    assert!(
        stdout(&o).contains("Black to move, in check> "),
        "{}",
        stdout(&o)
    );
}

const MATE: &str = "[Event \"one\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
const SCHOLAR: &str =
    "[Event \"two\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
const NULL_MOVE: &str = "[Event \"three\"]\n\n1. e4 -- 2. d4 *\n";

#[test]
fn a_file_of_several_games_replays_one_and_imports_each() {
    let dir = scratch("multi");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(&file, format!("{MATE}\n{SCHOLAR}\n{NULL_MOVE}")).unwrap();
    let (f, db) = (file.to_str().unwrap(), dir.join("t.db"));
    let d = db.to_str().unwrap();
    assert_refused(&tabula(&["record", "replay", f]), "--game N (1 to 3)");
    let o = tabula(&["record", "replay", f, "--game", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("White wins by checkmate\n"),
        "{}",
        stdout(&o)
    );
    assert_refused(
        &tabula(&["record", "replay", f, "--game", "4"]),
        "no game 4",
    );
    assert_refused(
        &tabula(&["record", "replay", f, "--game", "3"]),
        "ply 2: illegal action '--': a null move",
    );
    // Each game in its own transaction: the good ones are kept.
    let o = tabula(&["record", "import", f, "--db", d]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stdout(&o).lines().take(2).collect::<Vec<_>>(),
        [
            "game 1 (line 1): imported as 1",
            "game 2 (line 6): imported as 2"
        ]
    );
    let third = stdout(&o).lines().nth(2).unwrap().to_owned();
    assert!(
        third.starts_with("game 3 (line 11): refused: line 13: ply 2"),
        "{third}"
    );
    assert!(
        stderr(&o).contains("1 of 3 games refused"),
        "{}",
        stderr(&o)
    );
    let listed = stdout(&tabula(&["record", "list", "--db", d]));
    assert_eq!(listed.lines().count(), 2, "{listed}");
    // Every game id's records read several to a file too.
    let epoch = dir.join("epoch.txt");
    std::fs::write(
        &epoch,
        "[Game \"epoch\"]\n\n1. Pg1-f2 *\n\n[Game \"epoch\"]\n\n1. Pg1-g2 *\n",
    )
    .unwrap();
    let o = tabula(&["record", "import", epoch.to_str().unwrap(), "--db", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("game 2 (line 5): imported as 4"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_illegal_canonical_epoch_move_is_called_illegal() {
    assert_refused(
        &tabula(&["apply", "epoch", "e1xe5e6"]),
        "'e1xe5e6' is not a legal move here",
    );
    assert_refused(&tabula(&["apply", "epoch", "e1xe5e6zz"]), "cannot read");
}

#[test]
fn a_long_bad_input_is_echoed_once() {
    let long = "Q".repeat(300);
    let o = tabula(&["apply", "chess", &long]);
    assert_refused(&o, "bad move");
    assert_eq!(stderr(&o).matches(&long).count(), 1, "{}", stderr(&o));
}

#[test]
fn games_help_promises_what_games_prints() {
    let help = stdout(&tabula(&["--help"]));
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("games"))
        .unwrap();
    assert!(!line.contains("can be played"), "{line}");
    assert!(line.contains("options"), "{line}");
}

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--no-save");
    let o = tabula_with_bytes(&all, input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn moves_in_play_are_one_a_line_and_help_is_the_games_own() {
    let text = play(&["chess", "--computer", "none"], "moves\nquit\n");
    assert!(text.contains("\n  Na3\n  Nc3\n"), "{text}");
    let chess = play(&["chess", "--computer", "none"], "help\nquit\n");
    let epoch = play(&["epoch", "--computer", "none"], "help\nquit\n");
    assert!(chess.contains("SAN (e4, Nf3"), "{chess}");
    assert!(!epoch.contains("SAN (e4, Nf3"), "{epoch}");
    assert!(epoch.contains("Legal now, for example: Pg1-f2"), "{epoch}");
}

#[test]
fn resign_asks_first() {
    let text = play(
        &["chess", "--computer", "none"],
        "resign\nno\nresign\nyes\n",
    );
    assert!(text.contains("Not resigned; play on."), "{text}");
    assert_eq!(text.matches("Game over").count(), 1, "{text}");
    assert!(
        text.contains("Game over: Black wins by resignation."),
        "{text}"
    );
}

#[test]
fn the_computer_takes_the_other_teams_seats_and_says_so() {
    let text = play(&["warrior", "--players", "4"], "quit\n");
    assert!(
        text.contains("The computer plays seat 2 (Blue), seat 4 (Yellow)."),
        "{text}"
    );
    let text = play(&["chess"], "quit\n");
    assert!(
        text.contains("The computer plays seat 2 (Black)."),
        "{text}"
    );
    let text = play(
        &[
            "chess",
            "--computer",
            "1,2",
            "--level",
            "random",
            "--delay",
            "1",
        ],
        "",
    );
    assert!(text.contains("Game over"), "{text}");
}

#[test]
fn hotseat_with_hidden_hands_hands_over_the_keyboard() {
    let text = play(
        &["lytharia", "--computer", "none", "--seed", "3"],
        "\nquit\n",
    );
    let (before, after) = text.split_once("Pass the keyboard to Player 2").unwrap();
    // Player 2's troops are named only after the handover.
    assert!(!before.contains("Troops you can see"), "{before}");
    assert!(after.contains("Troops you can see"), "{after}");
}

#[test]
fn every_symbol_is_explained_where_it_is_shown() {
    let epoch = play(&["epoch", "--computer", "none"], "quit\n");
    assert!(
        epoch.contains("P\n     Pope") || epoch.contains("P Pope"),
        "{epoch}"
    );
    assert!(epoch.contains("M Marshal"), "{epoch}");
    let warrior = play(
        &["warrior", "--players", "4", "--computer", "none"],
        "quit\n",
    );
    assert!(warrior.contains("B Blue"), "{warrior}");
    assert!(
        warrior.contains("K King") && warrior.contains("b Bishop"),
        "{warrior}"
    );
    let covenant = play(&["covenant", "--computer", "none"], "quit\n");
    assert!(covenant.contains("Ra Ranger 15"), "{covenant}");
}

#[test]
fn covenant_with_an_active_piece_fits_80_by_24() {
    let text = play(&["covenant", "--computer", "none"], "act@c1\nquit\n");
    let screen = text.rsplit_once("Gold to move> ").unwrap().0;
    // From the action's echo to the next prompt: one screen.
    let after = screen.rsplit_once("Gold to move> ").unwrap().1;
    let lines: Vec<&str> = after.lines().collect();
    assert!(lines.len() < 24, "{} lines:\n{after}", lines.len());
    assert!(lines.iter().all(|l| l.chars().count() < 80), "{after}");
    assert!(after.contains("Active: c1"), "{after}");
}

/// The rank labels of the last board drawn before `marker`, top first.
fn last_ranks(text: &str, marker: &str) -> Vec<String> {
    let before = text.split(marker).next().unwrap();
    let board: Vec<&str> = before
        .lines()
        .rev()
        .skip_while(|l| !l.starts_with("1 ") && !l.starts_with("8 "))
        .take(8)
        .collect();
    board
        .iter()
        .rev()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_board_is_drawn_from_the_viewers_side_and_flips() {
    let text = play(
        &[
            "chess",
            "--computer",
            "1",
            "--level",
            "random",
            "--seed",
            "1",
        ],
        "flip\nquit\n",
    );
    let (first, flipped) = text.split_once("to move> ").unwrap();
    assert_eq!(last_ranks(first, "\u{0}")[0], "1", "{first}");
    assert!(flipped.trim_start().starts_with("8 "), "{flipped}");
    // Lytharia's full game: the person's army (seat 1, on rank 8) at the bottom.
    let text = play(&["lytharia", "--seed", "3"], "quit\n");
    let ranks = last_ranks(&text, "to move> ");
    assert_eq!(ranks.first().map(String::as_str), Some("1"), "{text}");
}

#[test]
fn info_and_cards_work_inside_play() {
    let text = play(&["epoch", "--computer", "none"], "info P\nquit\n");
    assert!(text.contains("Pope (P): "), "{text}");
    let text = play(
        &["lytharia", "--seed", "3"],
        "cards bog\ninfo Bog Ghoul\nquit\n",
    );
    assert!(text.contains("bog-ghoul [P] Bog Ghoul"), "{text}");
    assert!(text.contains("Bog Ghoul (P): alignment: evil"), "{text}");
}

#[test]
fn a_battle_duel_shows_round_score_and_picks() {
    let text = play(&["lytharia", "--mode", "duel", "--seed", "3"], "quit\n");
    assert!(
        text.contains(
            "Battle Duel: round 1; score Player 1 0, Player 2 0; each side picks 7 troops"
        ),
        "{text}"
    );
    assert!(text.contains("Player 1 0 of 7"), "{text}");
}
