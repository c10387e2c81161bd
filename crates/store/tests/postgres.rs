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
