//! Two server instances in front of one game store, as several `tabula
//! serve` processes share one PostgreSQL database: a table created on one
//! is served by the other, a change on one reaches the other's players when
//! it is told (`App::changed_elsewhere`, what a PostgreSQL notification
//! triggers), and two instances racing for one ply resolve through the
//! store's versioning.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::json;
use tabula_server::App;
use tabula_store::{GameKey, SqliteStore, Store};
use tokio::net::TcpListener;

use common::*;

async fn instance(store: Arc<SqliteStore>) -> (App, SocketAddr) {
    let app = App::new(store);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = app.clone();
    tokio::spawn(async move {
        tabula_server::serve(listener, serving, std::future::pending())
            .await
            .unwrap();
    });
    (app, addr)
}

/// A chess table between two people, created through the instance at
/// `addr`: the creation's answer, the table id as JSON, and its key.
async fn chess_table(addr: SocketAddr) -> (serde_json::Value, serde_json::Value, GameKey) {
    let (status, created) = post(
        addr,
        "/api/tables",
        &json!({"game": "chess", "seats": ["human", "human"]}).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let table = created["table"].clone();
    let key = GameKey(table.as_i64().unwrap());
    (created, table, key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_serve_one_table() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let (_a, a_addr) = instance(store.clone()).await;
    let (b, b_addr) = instance(store.clone()).await;
    let (created, table, key) = chess_table(a_addr).await;

    // White plays through A, Black watches through B, which never saw the
    // table created: it reads it from the store.
    let mut white = Client::connect_to(a_addr, &table, &token(&created, 0), None)
        .await
        .unwrap();
    white.view().await;
    let mut black = Client::connect_to(b_addr, &table, &token(&created, 1), None)
        .await
        .unwrap();
    assert_eq!(black.view().await["ply"], 0);
    white.act("e2e4").await;
    white.view_at(1).await;
    b.changed_elsewhere(key).await;
    let seen = black.view_at(1).await;
    assert_eq!(seen["moves"][0]["notation"], "e4");

    // Black answers through B, and at once, before A is told, through a
    // second tab on A: both instances think ply 1 is free. The store takes
    // the first; A's append conflicts, A reads the game back, and its tab
    // is told its move was stale and gets the fresh view.
    let mut black_on_a = Client::connect_to(a_addr, &table, &token(&created, 1), None)
        .await
        .unwrap();
    black_on_a.view().await;
    black.act("e7e5").await;
    black.view_at(2).await;
    black_on_a.act("c7c5").await;
    assert_eq!(black_on_a.fault().await["kind"], "stale");
    let fresh = black_on_a.view_at(2).await;
    assert_eq!(fresh["moves"][1]["notation"], "e5");
    assert_eq!(white.view_at(2).await["moves"][1]["notation"], "e5");
    let stored = store.load_game(key).unwrap();
    assert_eq!(
        stored.actions,
        ["e2e4", "e7e5"],
        "exactly one of the two writes won"
    );
    // Play goes on through A on the fresh state, and reaches B when told.
    white.act("d2d4").await;
    assert_eq!(white.view_at(3).await["moves"][2]["notation"], "d4");
    b.changed_elsewhere(key).await;
    assert_eq!(black.view_at(3).await["moves"][2]["notation"], "d4");
}

/// An instance following the store's notifications (`App::hear_changes`)
/// passes over the echoes of its own writes, and still reads back every
/// change another instance made, whichever of the two notifications comes
/// first when both carry the same action count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn own_echoes_pass_and_every_other_change_arrives() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let (a, a_addr) = instance(store.clone()).await;
    let (b, b_addr) = instance(store.clone()).await;
    a.hear_changes();
    let (created, table, key) = chess_table(a_addr).await;
    let mut white = Client::connect_to(a_addr, &table, &token(&created, 0), None)
        .await
        .unwrap();
    assert_eq!(white.view().await["ply"], 0);
    let mut black = Client::connect_to(b_addr, &table, &token(&created, 1), None)
        .await
        .unwrap();
    black.view().await;

    // White's move through A: its notification (1 action) is A's own
    // echo, so A's players get no second view of it.
    white.act("e2e4").await;
    assert_eq!(white.view().await["ply"], 1);
    a.heard(key, 1).await;
    b.changed_elsewhere(key).await;
    black.view_at(1).await;
    black.act("e7e5").await;
    black.view_at(2).await;
    // B's move is no echo of A's: White sees it, as the very next view.
    a.heard(key, 2).await;
    let next = white.view().await;
    assert_eq!(
        next["ply"], 2,
        "the next view is Black's move, not a reload"
    );
    assert_eq!(next["moves"][1]["notation"], "e5");

    // A writes (White's seat claimed by a browser: metadata, 2 actions)
    // while Black resigns through B (a result, 2 actions too). B's
    // notification comes first and is taken for A's echo; A's own then
    // matches nothing, so A reads the game back: the resignation arrives.
    let claimed = Client::connect_to(a_addr, &table, &token(&created, 0), Some("p1"))
        .await
        .unwrap();
    black
        .send(json!({"type": "table", "action": "resign"}))
        .await;
    let over = black.view_at(2).await;
    assert_eq!(over["to_act"]["kind"], "over", "{over}");
    a.heard(key, 2).await;
    a.heard(key, 2).await;
    let seen = loop {
        let view = white.view().await;
        if view["to_act"]["kind"] == "over" {
            break view;
        }
    };
    assert_eq!(seen["outcome"]["reason"], "resignation", "{seen}");
    drop(claimed);
}

/// A standing draw offer survives a restart (a new instance reading the
/// table from the store), and one that was answered does not come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standing_draw_offer_is_read_back_and_an_answered_one_is_not() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let (_a, a_addr) = instance(store.clone()).await;
    let (created, table, _) = chess_table(a_addr).await;
    let mut white = Client::connect_to(a_addr, &table, &token(&created, 0), None)
        .await
        .unwrap();
    white.view().await;
    white.act("e2e4").await;
    white.view_at(1).await;
    white
        .send(json!({"type": "table", "action": "offer-draw"}))
        .await;
    assert_eq!(white.view().await["draw_offer"], 0);

    // A second instance (a restarted server) reads the table: Black is
    // offered the draw there.
    let (_b, b_addr) = instance(store.clone()).await;
    let mut black = Client::connect_to(b_addr, &table, &token(&created, 1), None)
        .await
        .unwrap();
    let seen = black.view().await;
    assert_eq!(seen["draw_offer"], 0, "{seen}");
    assert!(
        seen["table_actions"]
            .as_array()
            .unwrap()
            .contains(&json!("accept-draw")),
        "{seen}"
    );

    // Black plays on through A instead: the offer lapses, and a third
    // instance does not bring it back.
    let mut black_on_a = Client::connect_to(a_addr, &table, &token(&created, 1), None)
        .await
        .unwrap();
    black_on_a.view().await;
    black_on_a.act("e7e5").await;
    assert!(black_on_a.view_at(2).await.get("draw_offer").is_none());
    let (_c, c_addr) = instance(store.clone()).await;
    let mut watcher = Client::connect_to(c_addr, &table, &spectator(&created), None)
        .await
        .unwrap();
    let later = watcher.view().await;
    assert_eq!(later["ply"], 2);
    assert!(later.get("draw_offer").is_none(), "{later}");

    // A declined offer does not come back either.
    white.view_at(2).await;
    white
        .send(json!({"type": "table", "action": "offer-draw"}))
        .await;
    assert_eq!(white.view().await["draw_offer"], 0);
    assert_eq!(black_on_a.view().await["draw_offer"], 0);
    black_on_a
        .send(json!({"type": "table", "action": "decline-draw"}))
        .await;
    assert!(black_on_a.view().await.get("draw_offer").is_none());
    let (_d, d_addr) = instance(store.clone()).await;
    let mut watcher = Client::connect_to(d_addr, &table, &spectator(&created), None)
        .await
        .unwrap();
    assert!(watcher.view().await.get("draw_offer").is_none());
}
