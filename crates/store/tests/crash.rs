//! Crash safety: a writer process killed with SIGKILL in the middle of a
//! stream of games loses no acknowledged action, and every game resumes.
//!
//! The writer is this test executable re-invoked with an environment
//! variable naming the database: `crash_child_writer` then plays seeded
//! random games of every kind, appending each action and printing
//! `ack GAME PLY ACTION` only after the append returned.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use tabula_core::GameId;
use tabula_store::{GameKey, NewGame, SqliteStore, Store};

use common::{RandomPlay, random_game, scratch_dir};

const DB_VAR: &str = "TABULA_STORE_CRASH_DB";
const PLIES_PER_GAME: usize = 40;

fn seed_of(game_no: u64) -> u64 {
    1000 + game_no
}

fn kind_of(game_no: u64) -> GameId {
    GameId::ALL[(game_no % 6) as usize]
}

/// The writer. Does nothing unless started by the test below.
#[test]
fn crash_child_writer() {
    let Ok(path) = std::env::var(DB_VAR) else {
        return;
    };
    let store = SqliteStore::open(&path).expect("the database opens");
    let mut out = std::io::stdout().lock();
    for game_no in 0u64.. {
        let (id, seed) = (kind_of(game_no), seed_of(game_no));
        let mut new = NewGame::of(id);
        new.seed = Some(seed);
        let key = store.create_game(&new).expect("create");
        writeln!(out, "game {key} {game_no}").expect("stdout");
        out.flush().expect("stdout");
        let mut play = RandomPlay::new(id, &[], seed);
        for ply in 0..PLIES_PER_GAME {
            let Some(action) = play.step() else { break };
            store
                .append_action(key, ply as u64, &action)
                .expect("append");
            writeln!(out, "ack {key} {ply} {action}").expect("stdout");
            out.flush().expect("stdout");
        }
    }
}

#[test]
fn acknowledged_actions_survive_sigkill_and_games_resume() {
    let dir = scratch_dir("crash");
    let path = dir.join("crash.db");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "crash_child_writer",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DB_VAR, &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the writer starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut games: BTreeMap<i64, u64> = BTreeMap::new();
    let mut acked: Vec<(i64, usize, String)> = Vec::new();
    let mut killed = false;
    let record = |line: &str, games: &mut BTreeMap<i64, u64>, acked: &mut Vec<_>| {
        let parts: Vec<&str> = line.splitn(4, ' ').collect();
        match parts.as_slice() {
            ["game", key, no] => {
                games.insert(key.parse().unwrap(), no.parse().unwrap());
            }
            ["ack", key, ply, action] => {
                acked.push((
                    key.parse().unwrap(),
                    ply.parse().unwrap(),
                    action.to_string(),
                ));
            }
            _ => {}
        }
    };
    for line in lines.by_ref() {
        let Ok(line) = line else { break };
        record(&line, &mut games, &mut acked);
        // Kill in the middle of the 8th game's stream.
        if !killed && games.len() >= 8 && acked.len() >= 7 * PLIES_PER_GAME / 2 {
            child.kill().expect("SIGKILL");
            killed = true;
        }
    }
    // Lines already in the pipe were acknowledged too: read to the end.
    let status = child.wait().unwrap();
    assert!(killed, "the writer ended on its own: {status:?}");
    assert!(!status.success());
    assert!(acked.len() >= 100, "only {} acks", acked.len());

    let store = SqliteStore::open(&path).expect("the database reopens");
    for (key, ply, action) in &acked {
        let game = store.load_game(GameKey(*key)).unwrap();
        assert_eq!(game.actions.get(*ply), Some(action), "game {key} ply {ply}");
    }
    // Every game replays (chance checked against its seed) and resumes
    // where it stopped, with the action it would have played next.
    let mut resumed = 0;
    for (key, no) in &games {
        let key = GameKey(*key);
        let (id, seed) = (kind_of(*no), seed_of(*no));
        let stored = store.load_game(key).unwrap();
        let n = stored.actions.len();
        let state = stored
            .record()
            .replay()
            .unwrap_or_else(|e| panic!("game {key}: {e}"));
        let (expected, expected_state) = random_game(id, &[], seed, n);
        assert_eq!(stored.actions, expected, "game {key}");
        assert_eq!(state.to_text(), expected_state.to_text());
        let (next, after) = random_game(id, &[], seed, n + 1);
        if state.outcome().is_none() {
            assert_eq!(next.len(), n + 1, "game {key} can go on");
            store.append_action(key, n as u64, &next[n]).unwrap();
            let state = store.load_game(key).unwrap().record().replay().unwrap();
            assert_eq!(state.to_text(), after.to_text(), "game {key}");
            resumed += 1;
        }
    }
    assert!(resumed >= 6, "{resumed} of {} games resumed", games.len());
    let _ = std::fs::remove_dir_all(dir);
}
