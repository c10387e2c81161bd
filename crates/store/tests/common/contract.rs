//! The Store contract, run against every backend.
#![allow(dead_code)]

use std::sync::{Arc, Barrier};

use tabula_core::{EndReason, GameId, Outcome, Team};
use tabula_store::{GameKey, NewGame, Store, StoreError};

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
