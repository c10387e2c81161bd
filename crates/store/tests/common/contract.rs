//! The Store contract, run against every backend.
#![allow(dead_code)]

use std::sync::{Arc, Barrier};

use tabula_core::{EndReason, GameId, Outcome, Team};
use tabula_store::{GameKey, NewGame, Store, StoreError, now_ms};

use super::random_game;

pub fn games_are_created_appended_loaded_listed_and_finished(store: &dyn Store) {
    let mut new = NewGame::of(GameId::Skirmish);
    new.options = vec![("mode".into(), "advanced".into())];
    new.seed = Some(u64::MAX);
    new.players = vec!["Ada".into(), "Bo".into()];
    new.date = Some("2026.11.30".into());
    let key = store.create_game(&new).unwrap();
    let (actions, game) = random_game(GameId::Skirmish, &new.options, u64::MAX, 2000);
    for (ply, a) in actions.iter().enumerate() {
        store.append_action(key, ply as u64, a).unwrap();
    }
    if let Some(outcome) = game.outcome() {
        store.set_result(key, &outcome).unwrap();
    }
    let other = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    assert_ne!(key, other);

    let loaded = store.load_game(key).unwrap();
    assert_eq!(loaded.header, new);
    assert_eq!(loaded.actions, actions);
    assert_eq!(loaded.result, game.outcome());
    // The stored game is a record that replays to the same state.
    let record = loaded.record();
    let text = record.write().unwrap();
    let (_, replayed) = tabula_store::Record::read(&text).unwrap();
    assert_eq!(replayed.to_text(), game.to_text());

    let list = store.list_games().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!((list[0].key, list[0].plies), (key, actions.len() as u64));
    assert_eq!(
        (list[1].game, list[1].plies, list[1].result),
        (GameId::Chess, 0, None)
    );

    // A result set from outside the rules (resignation), then replaced.
    let resign = Outcome::win(Team(1), EndReason::Resignation);
    store.set_result(other, &resign).unwrap();
    assert_eq!(store.load_game(other).unwrap().result, Some(resign));
    let draw = Outcome::draw(EndReason::Agreement);
    store.set_result(other, &draw).unwrap();
    assert_eq!(store.list_games().unwrap()[1].result, Some(draw));
}

pub fn bad_requests_are_typed_errors(store: &dyn Store) {
    let missing = GameKey(42);
    assert!(matches!(
        store.load_game(missing),
        Err(StoreError::NotFound(GameKey(42)))
    ));
    assert!(matches!(
        store.append_action(missing, 0, "e4"),
        Err(StoreError::NotFound(_))
    ));
    let draw = Outcome::draw(EndReason::Agreement);
    assert!(matches!(
        store.set_result(missing, &draw),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.create_game(&NewGame::default()),
        Err(StoreError::Invalid(_))
    ));
    let key = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    store.append_action(key, 0, "e2e4").unwrap();
    // A stale writer (expects ply 0) and one from the future (ply 5).
    for ply in [0, 5] {
        match store.append_action(key, ply, "d2d4") {
            Err(StoreError::Conflict {
                expected,
                actual: 1,
                ..
            }) => assert_eq!(expected, ply),
            other => panic!("{other:?}"),
        }
    }
    let e = store.append_action(key, 0, "d2d4").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("conflict on game {key}: expected to append ply 0, but the game has 1 actions")
    );
    assert_eq!(store.load_game(key).unwrap().actions, ["e2e4"]);
}

/// Two stores, two connections, two threads: the shape of two server
/// instances sharing one database.
pub fn racing_writers_on_the_same_ply_one_wins_one_conflicts(
    setup: &dyn Store,
    a: Arc<dyn Store + Send + Sync>,
    b: Arc<dyn Store + Send + Sync>,
) {
    let key = setup.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let (moves, _) = random_game(GameId::Chess, &[], 9, 20);
    for (ply, mv) in moves.iter().enumerate() {
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = [a.clone(), b.clone()]
            .into_iter()
            .map(|store| {
                let barrier = barrier.clone();
                let mv = mv.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    store.append_action(key, ply as u64, &mv)
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let wins = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(wins, 1, "ply {ply}: {results:?}");
        let conflict = results.iter().find(|r| r.is_err()).unwrap();
        match conflict {
            Err(StoreError::Conflict {
                expected, actual, ..
            }) => {
                assert_eq!((*expected, *actual), (ply as u64, ply as u64 + 1));
            }
            other => panic!("ply {ply}: {other:?}"),
        }
    }
    assert_eq!(setup.load_game(key).unwrap().actions, moves);
}

/// A batch is checked append by append: the failed ones leave no trace,
/// the others are stored.
pub fn a_batch_checks_each_append(store: &dyn Store) {
    let g1 = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let g2 = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let results = store
        .append_batch(&[
            (g1, 0, "e2e4"),
            (g2, 0, "d2d4"),
            (g1, 0, "c2c4"),
            (g1, 1, "e7e5"),
            (GameKey(g2.0 + 100), 0, "e2e4"),
        ])
        .unwrap();
    assert!(results[0].is_ok() && results[1].is_ok() && results[3].is_ok());
    assert!(matches!(
        results[2],
        Err(StoreError::Conflict {
            expected: 0,
            actual: 1,
            ..
        })
    ));
    assert!(matches!(results[4], Err(StoreError::NotFound(_))));
    assert_eq!(store.load_game(g1).unwrap().actions, ["e2e4", "e7e5"]);
    assert_eq!(store.load_game(g2).unwrap().actions, ["d2d4"]);
    assert_eq!(store.append_batch(&[]).unwrap().len(), 0);
}

/// Undo at the table: versioned like an append, refused once the game is
/// finished, and the game goes on from the kept plies.
pub fn take_back_is_versioned_and_refused_after_the_end(store: &dyn Store) {
    let key = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    for (ply, mv) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        store.append_action(key, ply as u64, mv).unwrap();
    }
    // A writer that has not seen the last move cannot take back.
    assert!(matches!(
        store.take_back(key, 3, 1),
        Err(StoreError::Conflict {
            expected: 3,
            actual: 4,
            ..
        })
    ));
    assert!(matches!(
        store.take_back(key, 4, 5),
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store.take_back(GameKey(key.0 + 100), 0, 0),
        Err(StoreError::NotFound(_))
    ));
    store.take_back(key, 4, 2).unwrap();
    assert_eq!(store.load_game(key).unwrap().actions, ["e2e4", "e7e5"]);
    assert_eq!(store.list_games().unwrap()[0].plies, 2);
    // The old ply 2 is free again; appending at ply 4 is now a conflict.
    assert!(matches!(
        store.append_action(key, 4, "f1c4"),
        Err(StoreError::Conflict { actual: 2, .. })
    ));
    store.append_action(key, 2, "f1c4").unwrap();
    store.take_back(key, 3, 3).unwrap(); // taking back nothing is allowed
    store
        .set_result(key, &Outcome::win(Team(0), EndReason::Resignation))
        .unwrap();
    assert!(matches!(
        store.take_back(key, 3, 2),
        Err(StoreError::Invalid(m)) if m.contains("finished")
    ));
    assert_eq!(store.load_game(key).unwrap().actions.len(), 3);
}

/// An import stores header, actions and result together; a bad one
/// stores nothing.
pub fn an_import_is_all_or_nothing(store: &dyn Store) {
    let (actions, game) = random_game(GameId::Epoch, &[], 5, 400);
    let mut new = NewGame::of(GameId::Epoch);
    new.players = vec!["A".into(), "B".into()];
    let outcome = game
        .outcome()
        .unwrap_or(Outcome::draw(EndReason::Agreement));
    let key = store.import_game(&new, &actions, Some(&outcome)).unwrap();
    let loaded = store.load_game(key).unwrap();
    assert_eq!(
        (loaded.header, loaded.actions, loaded.result),
        (new, actions.clone(), Some(outcome))
    );
    // No game id: refused, and nothing was stored.
    assert!(matches!(
        store.import_game(&NewGame::default(), &actions, None),
        Err(StoreError::Invalid(_))
    ));
    // An import with no result is an unfinished game that can go on.
    let open = store
        .import_game(&NewGame::of(GameId::Chess), &["e2e4".to_owned()], None)
        .unwrap();
    store.append_action(open, 1, "e7e5").unwrap();
    let list = store.list_games().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!((list[1].plies, list[1].result), (2, None));
}

/// The server's table metadata: kept beside the record, replaced whole,
/// refused for a missing game; the unfinished games are the ones a
/// restarted server resumes.
pub fn table_metadata_is_kept_replaced_and_unfinished_games_listed(store: &dyn Store) {
    let g1 = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let g2 = store.create_game(&NewGame::of(GameId::Epoch)).unwrap();
    let g3 = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    assert_eq!(store.meta(g1).unwrap(), None);
    assert_eq!(store.load_game(g1).unwrap().meta, None);

    let seats = r#"{"seats":["human","computer:2"],"clock":{"base_ms":300000}}"#;
    store.set_meta(g1, seats).unwrap();
    assert_eq!(store.meta(g1).unwrap().as_deref(), Some(seats));
    store.append_action(g1, 0, "e2e4").unwrap();
    let loaded = store.load_game(g1).unwrap();
    assert_eq!(
        (loaded.meta.as_deref(), loaded.actions.len()),
        (Some(seats), 1)
    );
    // Replaced whole, and only for that game.
    let claimed = r#"{"seats":["human","computer:2"],"claims":{"0":"player-1"}}"#;
    store.set_meta(g1, claimed).unwrap();
    assert_eq!(store.meta(g1).unwrap().as_deref(), Some(claimed));
    assert_eq!(store.meta(g3).unwrap(), None);
    store.take_back(g1, 1, 0).unwrap();
    assert_eq!(store.load_game(g1).unwrap().meta.as_deref(), Some(claimed));

    // Bad requests change nothing.
    let missing = GameKey(g3.0 + 100);
    assert!(matches!(
        store.set_meta(missing, "{}"),
        Err(StoreError::NotFound(k)) if k == missing
    ));
    assert!(matches!(store.meta(missing), Err(StoreError::NotFound(_))));
    assert!(matches!(
        store.set_meta(g1, "{\"a\":\"\0\"}"),
        Err(StoreError::Invalid(m)) if m.contains("NUL")
    ));
    assert_eq!(store.meta(g1).unwrap().as_deref(), Some(claimed));

    // Unfinished: no result yet, oldest first.
    assert_eq!(store.unfinished_games().unwrap(), [g1, g2, g3]);
    store
        .set_result(g2, &Outcome::win(Team(0), EndReason::Resignation))
        .unwrap();
    assert_eq!(store.unfinished_games().unwrap(), [g1, g3]);
    let done = store
        .import_game(
            &NewGame::of(GameId::Chess),
            &["e2e4".to_owned()],
            Some(&Outcome::draw(EndReason::Agreement)),
        )
        .unwrap();
    let open = store
        .import_game(&NewGame::of(GameId::Chess), &["e2e4".to_owned()], None)
        .unwrap();
    assert_eq!(store.unfinished_games().unwrap(), [g1, g3, open]);
    assert_eq!(store.load_game(done).unwrap().meta, None);
}

/// Every append records when it was made (the server derives clocks from
/// it); a take-back removes the times with the actions; an import has none.
pub fn appends_record_when_they_were_made(store: &dyn Store) {
    let key = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let before = now_ms();
    store.append_action(key, 0, "e2e4").unwrap();
    store.append_action(key, 1, "e7e5").unwrap();
    store
        .append_batch(&[(key, 2, "g1f3"), (key, 5, "a2a3"), (key, 3, "b8c6")])
        .unwrap();
    let after = now_ms();
    let loaded = store.load_game(key).unwrap();
    assert_eq!(loaded.actions.len(), 4);
    let times: Vec<i64> = loaded.times.iter().map(|t| t.expect("a time")).collect();
    assert!(
        times.iter().all(|&t| before <= t && t <= after),
        "{times:?}"
    );
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");

    store.take_back(key, 4, 1).unwrap();
    let loaded = store.load_game(key).unwrap();
    assert_eq!(loaded.times, [Some(times[0])]);
    store.append_action(key, 1, "c7c5").unwrap();
    let again = store.load_game(key).unwrap().times;
    assert_eq!(again.len(), 2);
    assert!(again[1].unwrap() >= times[0]);

    // An import carries no times; what is appended after it does.
    let moves = ["d2d4".to_owned(), "d7d5".to_owned()];
    let imported = store
        .import_game(&NewGame::of(GameId::Chess), &moves, None)
        .unwrap();
    assert_eq!(store.load_game(imported).unwrap().times, [None, None]);
    store.append_action(imported, 2, "c2c4").unwrap();
    let times = store.load_game(imported).unwrap().times;
    assert!(times[..2] == [None, None] && times[2].unwrap() >= before);
}
