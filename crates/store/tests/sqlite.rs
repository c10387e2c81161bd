//! The SQLite store: the Store contract, migrations, the append race.

mod common;

use std::sync::Arc;

use tabula_core::GameId;
use tabula_store::{GameKey, NewGame, SCHEMA_VERSION, SqliteStore, Store, StoreError};

use common::{contract, random_game, scratch_dir};

#[test]
fn games_are_created_appended_loaded_listed_and_finished() {
    contract::games_are_created_appended_loaded_listed_and_finished(
        &SqliteStore::open_in_memory().unwrap(),
    );
}

#[test]
fn bad_requests_are_typed_errors() {
    contract::bad_requests_are_typed_errors(&SqliteStore::open_in_memory().unwrap());
}

#[test]
fn racing_writers_on_the_same_ply_one_wins_one_conflicts() {
    let dir = scratch_dir("race");
    let path = dir.join("race.db");
    contract::racing_writers_on_the_same_ply_one_wins_one_conflicts(
        &SqliteStore::open(&path).unwrap(),
        Arc::new(SqliteStore::open(&path).unwrap()),
        Arc::new(SqliteStore::open(&path).unwrap()),
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn migrations_run_once_and_a_newer_schema_is_refused() {
    let dir = scratch_dir("migrate");
    let path = dir.join("t.db");
    {
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        store.create_game(&NewGame::of(GameId::Epoch)).unwrap();
    }
    {
        // Reopening keeps the data and does not migrate again.
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(store.list_games().unwrap().len(), 1);
    }
    mark_as_written_by_a_newer_build(&path);
    match SqliteStore::open(&path) {
        Err(StoreError::Corrupt(m)) => assert!(m.contains("newer than this program"), "{m}"),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Marks the database as written by a future version, through the store's
/// own SQLite (the test has no second SQLite binding).
fn mark_as_written_by_a_newer_build(path: &std::path::Path) {
    let store = SqliteStore::open(path).unwrap();
    store
        .set_user_version_for_tests((SCHEMA_VERSION + 1) as i64)
        .unwrap();
}

#[test]
fn a_batch_checks_each_append() {
    contract::a_batch_checks_each_append(&SqliteStore::open_in_memory().unwrap());
}

#[test]
fn take_back_is_versioned_and_refused_after_the_end() {
    contract::take_back_is_versioned_and_refused_after_the_end(
        &SqliteStore::open_in_memory().unwrap(),
    );
}

#[test]
fn an_import_is_all_or_nothing() {
    contract::an_import_is_all_or_nothing(&SqliteStore::open_in_memory().unwrap());
}

#[test]
fn table_metadata_is_kept_replaced_and_unfinished_games_listed() {
    contract::table_metadata_is_kept_replaced_and_unfinished_games_listed(
        &SqliteStore::open_in_memory().unwrap(),
    );
}

#[test]
fn appends_record_when_they_were_made() {
    contract::appends_record_when_they_were_made(&SqliteStore::open_in_memory().unwrap());
}

#[test]
fn appends_through_group_commit_record_when_they_were_made() {
    let dir = scratch_dir("group-times");
    let store =
        tabula_store::GroupCommitter::start(SqliteStore::open(dir.join("t.db")).unwrap(), 8)
            .unwrap();
    contract::appends_record_when_they_were_made(&store);
    drop(store);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn group_commit_keeps_every_append_and_still_detects_conflicts() {
    use tabula_store::GroupCommitter;
    let dir = scratch_dir("group");
    let path = dir.join("group.db");
    let store = Arc::new(GroupCommitter::start(SqliteStore::open(&path).unwrap(), 64).unwrap());
    let keys: Vec<GameKey> = (0..16)
        .map(|_| store.create_game(&NewGame::of(GameId::Chess)).unwrap())
        .collect();
    let (moves, _) = random_game(GameId::Chess, &[], 3, 30);
    let handles: Vec<_> = keys
        .iter()
        .flat_map(|key| {
            // Two writers per game race for every ply.
            (0..2).map(|_| {
                let (store, key, moves) = (store.clone(), *key, moves.clone());
                std::thread::spawn(move || {
                    let (mut wins, mut conflicts) = (0, 0);
                    let mut ply = 0u64;
                    while (ply as usize) < moves.len() {
                        match store.append_action(key, ply, &moves[ply as usize]) {
                            Ok(()) => {
                                wins += 1;
                                ply += 1;
                            }
                            Err(StoreError::Conflict { actual, .. }) => {
                                conflicts += 1;
                                ply = actual;
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                    (wins, conflicts)
                })
            })
        })
        .collect();
    let mut wins = 0;
    for h in handles {
        wins += h.join().unwrap().0;
    }
    // Every ply of every game written exactly once, in order.
    assert_eq!(wins, keys.len() * moves.len());
    for key in &keys {
        assert_eq!(store.load_game(*key).unwrap().actions, moves);
    }
    drop(store);
    // Durable: a fresh connection sees it all.
    let reopened = SqliteStore::open(&path).unwrap();
    assert_eq!(reopened.list_games().unwrap().len(), keys.len());
    assert!(
        reopened
            .list_games()
            .unwrap()
            .iter()
            .all(|g| g.plies == moves.len() as u64)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `append_batch` through the committer: each caller's batch (a move and
/// the chance actions after it, as the server writes them) is checked
/// append by append and answered as a whole, while many callers share
/// commits; the committer works over a boxed store, as `open` gives it.
#[test]
fn group_commit_takes_whole_batches_from_many_writers() {
    use tabula_store::GroupCommitter;
    let dir = scratch_dir("group-batches");
    let boxed: Box<dyn Store + Send + Sync> =
        tabula_store::open(Some(&dir.join("b.db")), None).unwrap();
    // Batches of 3 with room for 4 appends per transaction: the committer
    // must hold a batch back rather than split it.
    let store = Arc::new(GroupCommitter::start(boxed, 4).unwrap());
    let keys: Vec<GameKey> = (0..12)
        .map(|_| store.create_game(&NewGame::of(GameId::Chess)).unwrap())
        .collect();
    let (moves, _) = random_game(GameId::Chess, &[], 11, 30);
    let handles: Vec<_> = keys
        .iter()
        .map(|&key| {
            let (store, moves) = (store.clone(), moves.clone());
            std::thread::spawn(move || {
                for (i, chunk) in moves.chunks(3).enumerate() {
                    let from = (i * 3) as u64;
                    let mut batch: Vec<_> = chunk
                        .iter()
                        .enumerate()
                        .map(|(j, m)| (key, from + j as u64, m.as_str()))
                        .collect();
                    // A stale append in the middle fails alone.
                    batch.insert(1, (key, from, "a2a3"));
                    let results = store.append_batch(&batch).unwrap();
                    assert_eq!(results.len(), batch.len());
                    assert!(
                        matches!(results[1], Err(StoreError::Conflict { .. })),
                        "{results:?}"
                    );
                    assert!(results.iter().enumerate().all(|(j, r)| j == 1 || r.is_ok()));
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    for key in &keys {
        let game = store.load_game(*key).unwrap();
        assert_eq!(game.actions, moves);
        assert!(game.times.iter().all(Option::is_some));
    }
    assert!(store.append_batch(&[]).unwrap().is_empty());
    drop(store);
    let _ = std::fs::remove_dir_all(dir);
}
