//! The Store contract against PostgreSQL (feature `postgres`). Runs when
//! `TABULA_PG_URL` names a server (`host=127.0.0.1 user=... password=...
//! dbname=...`); each test works in a fresh schema it drops at the end.
#![cfg(feature = "postgres")]

mod common;

use std::sync::Arc;

use tabula_store::PgStore;

use common::contract;

/// A fresh schema on the server named by `TABULA_PG_URL`, or `None` (and a
/// note on stderr) when it is not set.
fn schema(name: &str) -> Option<(String, String)> {
    let Ok(url) = std::env::var("TABULA_PG_URL") else {
        eprintln!("TABULA_PG_URL is not set: skipping the PostgreSQL test {name}");
        return None;
    };
    let schema = format!("t_{name}_{}", std::process::id());
    PgStore::drop_schema(&url, &schema).expect("a clean schema");
    Some((url, schema))
}

fn drop_schema(url: &str, schema: &str) {
    let _ = PgStore::drop_schema(url, schema);
}

#[test]
fn pg_games_are_created_appended_loaded_listed_and_finished() {
    let Some((url, schema)) = schema("basic") else {
        return;
    };
    let store = PgStore::connect(&url, &schema).unwrap();
    contract::games_are_created_appended_loaded_listed_and_finished(&store);
    drop_schema(&url, &schema);
}

#[test]
fn pg_bad_requests_are_typed_errors() {
    let Some((url, schema)) = schema("bad") else {
        return;
    };
    let store = PgStore::connect(&url, &schema).unwrap();
    contract::bad_requests_are_typed_errors(&store);
    drop_schema(&url, &schema);
}

#[test]
fn pg_racing_writers_on_the_same_ply_one_wins_one_conflicts() {
    let Some((url, schema)) = schema("race") else {
        return;
    };
    let setup = PgStore::connect(&url, &schema).unwrap();
    contract::racing_writers_on_the_same_ply_one_wins_one_conflicts(
        &setup,
        Arc::new(PgStore::connect(&url, &schema).unwrap()),
        Arc::new(PgStore::connect(&url, &schema).unwrap()),
    );
    drop_schema(&url, &schema);
}

#[test]
fn pg_migrations_run_once() {
    let Some((url, schema)) = schema("migrate") else {
        return;
    };
    let store = PgStore::connect(&url, &schema).unwrap();
    use tabula_store::{NewGame, Store};
    store
        .create_game(&NewGame::of(tabula_core::GameId::Epoch))
        .unwrap();
    drop(store);
    let again = PgStore::connect(&url, &schema).unwrap();
    assert_eq!(again.list_games().unwrap().len(), 1);
    drop_schema(&url, &schema);
}

#[test]
fn pg_a_batch_checks_each_append() {
    let Some((url, schema)) = schema("batch") else {
        return;
    };
    contract::a_batch_checks_each_append(&PgStore::connect(&url, &schema).unwrap());
    drop_schema(&url, &schema);
}

#[test]
fn pg_take_back_is_versioned_and_refused_after_the_end() {
    let Some((url, schema)) = schema("takeback") else {
        return;
    };
    contract::take_back_is_versioned_and_refused_after_the_end(
        &PgStore::connect(&url, &schema).unwrap(),
    );
    drop_schema(&url, &schema);
}

#[test]
fn pg_an_import_is_all_or_nothing() {
    let Some((url, schema)) = schema("import") else {
        return;
    };
    contract::an_import_is_all_or_nothing(&PgStore::connect(&url, &schema).unwrap());
    drop_schema(&url, &schema);
}

#[test]
fn pg_table_metadata_is_kept_replaced_and_unfinished_games_listed() {
    let Some((url, schema)) = schema("meta") else {
        return;
    };
    contract::table_metadata_is_kept_replaced_and_unfinished_games_listed(
        &PgStore::connect(&url, &schema).unwrap(),
    );
    drop_schema(&url, &schema);
}

#[test]
fn pg_appends_record_when_they_were_made() {
    let Some((url, schema)) = schema("times") else {
        return;
    };
    contract::appends_record_when_they_were_made(&PgStore::connect(&url, &schema).unwrap());
    drop_schema(&url, &schema);
}

/// Two instances on one database: what one commits, a listener hears
/// (within a few seconds; delivery is not timed here), naming the game and
/// its plies after the change, in commit order; what fails sends nothing.
#[test]
fn pg_a_listener_hears_every_committed_change_of_its_schema() {
    use std::time::Duration;
    use tabula_core::{EndReason, GameId, Outcome, Team};
    use tabula_store::postgres::Listener;
    use tabula_store::{NewGame, Store, StoreError};

    let Some((url, schema)) = schema("listen") else {
        return;
    };
    let other_schema = format!("{schema}_other");
    drop_schema(&url, &other_schema);
    let a = PgStore::connect(&url, &schema).unwrap();
    let b = PgStore::connect(&url, &schema).unwrap();
    let other = PgStore::connect(&url, &other_schema).unwrap();
    let mut listener = Listener::connect(&url, &schema).unwrap();
    let mut other_listener = Listener::connect(&url, &other_schema).unwrap();
    let mut next = || {
        listener
            .recv(Duration::from_secs(5))
            .unwrap()
            .expect("a notification within 5 s")
    };

    let g = a.create_game(&NewGame::of(GameId::Chess)).unwrap();
    let h = a.create_game(&NewGame::of(GameId::Chess)).unwrap();
    // The other schema's games have the same ids: its changes must not
    // reach this listener.
    let og = other.create_game(&NewGame::of(GameId::Chess)).unwrap();
    assert_eq!(og, g);
    other.append_action(og, 0, "d2d4").unwrap();

    b.append_action(g, 0, "e2e4").unwrap();
    assert_eq!(next(), (g, 1));
    // A refused append (a stale ply) sends nothing: the next one heard is
    // the append after it.
    assert!(matches!(
        a.append_action(g, 0, "d2d4"),
        Err(StoreError::Conflict { .. })
    ));
    a.append_action(g, 1, "e7e5").unwrap();
    assert_eq!(next(), (g, 2));
    let results = b
        .append_batch(&[(h, 0, "c2c4"), (g, 2, "g1f3"), (g, 9, "x"), (g, 3, "b8c6")])
        .unwrap();
    assert!(results[2].is_err());
    let mut batch = vec![next(), next(), next()];
    batch.sort();
    assert_eq!(batch, [(g, 3), (g, 4), (h, 1)]);

    assert!(b.take_back(g, 3, 1).is_err()); // stale
    a.take_back(g, 4, 2).unwrap();
    assert_eq!(next(), (g, 2));
    b.set_meta(h, r#"{"claims":{}}"#).unwrap();
    assert_eq!(next(), (h, 1));
    a.set_result(g, &Outcome::win(Team(1), EndReason::Resignation))
        .unwrap();
    assert_eq!(next(), (g, 2));

    // The other schema's listener heard its one append, and only that.
    other.append_action(og, 1, "d7d5").unwrap();
    let heard = |l: &mut Listener| l.recv(Duration::from_secs(5)).unwrap();
    assert_eq!(heard(&mut other_listener), Some((og, 1)));
    assert_eq!(heard(&mut other_listener), Some((og, 2)));
    drop((a, b, other, listener, other_listener));
    drop_schema(&url, &schema);
    drop_schema(&url, &other_schema);
}

#[test]
fn pg_a_listener_refuses_a_bad_schema_and_reports_a_foreign_notification() {
    use std::time::Duration;
    use tabula_store::StoreError;
    use tabula_store::postgres::Listener;

    let Some((url, schema)) = schema("listen_bad") else {
        return;
    };
    for bad in ["", "a;b", &"s".repeat(51)] {
        assert!(matches!(
            Listener::connect(&url, bad),
            Err(StoreError::Invalid(_))
        ));
        assert!(matches!(
            PgStore::connect(&url, bad),
            Err(StoreError::Invalid(_))
        ));
    }
    let mut listener = Listener::connect(&url, &schema).unwrap();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .execute(
            "SELECT pg_notify($1, 'hello'), pg_notify($1, '7:3')",
            &[&format!("tabula_games_{schema}")],
        )
        .unwrap();
    assert!(matches!(
        listener.recv(Duration::from_secs(5)),
        Err(StoreError::Corrupt(m)) if m.contains("'hello'")
    ));
    // Still usable after it.
    assert_eq!(
        listener.recv(Duration::from_secs(5)).unwrap(),
        Some((tabula_store::GameKey(7), 3))
    );
    drop_schema(&url, &schema);
}
