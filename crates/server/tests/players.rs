//! Players, seats and what a table offers besides moves, as a client sees
//! them over real HTTP and WebSocket on loopback: the game list, the player
//! cookie and seat claims, a player's tables, takebacks, rematches, records,
//! past views, clocks, stale actions and the open-tables limit.

mod common;

use serde_json::{Value, json};
use tabula_core::EndReason;
use tabula_server::Limits;
use tabula_store::Store;

use common::*;

async fn get(server: &Server, path: &str, player: Option<&str>) -> Reply {
    let cookie = player.map(|p| format!("Cookie: tabula_player={p}"));
    let extra: Vec<&str> = cookie.iter().map(String::as_str).collect();
    http(server.addr, "GET", path, &extra, "").await
}

async fn create_as(server: &Server, player: &str, request: Value) -> Value {
    let cookie = format!("Cookie: tabula_player={player}");
    let reply = http(
        server.addr,
        "POST",
        "/api/tables",
        &[&cookie],
        &request.to_string(),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.json()
}

/// A fresh player token, as the server hands one to a first visit.
async fn new_player(server: &Server) -> String {
    let reply = get(server, "/api/games", None).await;
    let cookie = reply
        .header("set-cookie")
        .expect("a first visit gets a cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    let value = cookie
        .strip_prefix("tabula_player=")
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    assert_eq!(value.len(), 32);
    value.to_owned()
}

/// The next message of a type, skipping the others.
async fn next_of(client: &mut Client, kind: &str) -> Value {
    loop {
        let message = client.recv().await;
        if message["type"] == kind {
            return message;
        }
        assert_ne!(message["type"], "fault", "{message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_and_their_seats_are_listed() {
    let server = start().await;
    let games = get(&server, "/api/games", None).await.json();
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "chess", "epoch", "skirmish", "warrior", "covenant", "lytharia"
        ]
    );
    let epoch = &games[1];
    assert_eq!(epoch["title"], "Chess 13: Epoch");
    assert_eq!(epoch["options"][0]["key"], "swap");
    assert_eq!(epoch["levels"], json!(["easy", "medium", "hard", "expert"]));

    let four = get(&server, "/api/games/warrior/seats?players=4", None).await;
    assert_eq!(four.status, 200);
    assert_eq!(four.json()["seats"].as_array().unwrap().len(), 4);
    assert_eq!(four.json()["seats"][1]["team"], 1);
    let two = get(&server, "/api/games/chess/seats", None).await.json();
    assert_eq!(two["seats"][0]["name"], "White");
    let bad = get(&server, "/api/games/warrior/seats?players=9", None).await;
    assert_eq!(
        (bad.status, bad.json()["field"].as_str()),
        (400, Some("options"))
    );
    let unknown = get(&server, "/api/games/draughts/seats", None).await;
    assert_eq!(
        (unknown.status, unknown.json()["field"].as_str()),
        (400, Some("game"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_cookie_ties_tables_and_claims_seats() {
    let server = start().await;
    let me = new_player(&server).await;
    let friend = new_player(&server).await;
    let stranger = new_player(&server).await;
    assert_ne!(me, friend);
    let created = create_as(
        &server,
        &me,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let table = created["table"].clone();

    // Before anyone sits, the creator's list holds both invite links.
    let mine = get(&server, "/api/me/tables", Some(&me)).await.json();
    assert_eq!(mine.as_array().unwrap().len(), 1);
    assert_eq!(mine[0]["table"], table);
    assert_eq!(mine[0]["seats"][1]["token"], token(&created, 1).as_str());
    assert_eq!(mine[0]["finished"], false);
    assert_eq!(
        get(&server, "/api/me/tables", Some(&friend)).await.json(),
        json!([])
    );

    let mut white = Client::connect_as(&server, &table, &token(&created, 0), Some(&me))
        .await
        .unwrap();
    white.view().await;
    let mut black = Client::connect_as(&server, &table, &token(&created, 1), Some(&friend))
        .await
        .unwrap();
    black.view().await;

    // Each player's list shows their own seat with its secret, and the
    // other's seat as taken, without its secret.
    let mine = get(&server, "/api/me/tables", Some(&me)).await.json();
    assert_eq!(mine[0]["seats"][0]["mine"], true);
    assert_eq!(mine[0]["seats"][0]["token"], token(&created, 0).as_str());
    assert_eq!(mine[0]["seats"][1]["claimed"], true);
    assert_eq!(mine[0]["seats"][1]["token"], Value::Null);
    assert_eq!(mine[0]["to_act"], true);
    let theirs = get(&server, "/api/me/tables", Some(&friend)).await.json();
    assert_eq!(theirs[0]["seats"][1]["token"], token(&created, 1).as_str());
    assert_eq!(theirs[0]["to_act"], false);
    assert_eq!(theirs[0]["spectator_token"], Value::Null);

    // The link of a taken seat opens it for nobody else.
    let refused = Client::connect_as(&server, &table, &token(&created, 1), Some(&stranger)).await;
    assert_eq!(refused.err(), Some(403));
    let refused = Client::connect_as(&server, &table, &token(&created, 1), None).await;
    assert_eq!(refused.err(), Some(403));
    // Watching is open to anyone with the spectator link.
    let watching = Client::connect_as(&server, &table, &spectator(&created), Some(&stranger)).await;
    assert!(watching.is_ok());
    assert_eq!(
        get(&server, "/api/me/tables", Some(&stranger)).await.json(),
        json!([])
    );

    // The seat's own player opens it again (another tab).
    let again = Client::connect_as(&server, &table, &token(&created, 1), Some(&friend)).await;
    assert!(again.is_ok());
    white.act("e2e4").await;
    assert_eq!(black.view_at(1).await["ply"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_against_the_computer_undoes_its_reply_too() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "computer:easy"], "seed": 3}),
    )
    .await;
    let mut me = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    assert!(
        !me.view().await["table_actions"]
            .as_array()
            .unwrap()
            .contains(&json!("takeback")),
        "nothing to take back before a move"
    );
    me.act("e2e4").await;
    let answered = me.view_at(2).await;
    assert!(
        answered["table_actions"]
            .as_array()
            .unwrap()
            .contains(&json!("takeback"))
    );
    let reply = answered["moves"][1]["notation"].clone();
    me.send(json!({"type": "table", "action": "takeback"}))
        .await;
    let back = loop {
        let view = me.view().await;
        if view["ply"] == 0 {
            break view;
        }
    };
    assert_eq!(back["to_act"]["player"], 0);
    assert_eq!(
        server.store.load_game(key(&created)).unwrap().actions.len(),
        0
    );
    // The same move draws the same reply: the computer's choice depends
    // on the seed and the position, not on how often it was asked.
    me.act("e2e4").await;
    assert_eq!(me.view_at(2).await["moves"][1]["notation"], reply);

    // Between two people there is no takeback.
    let people = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let mut white = Client::connect(&server, &people["table"], &token(&people, 0)).await;
    white.view().await;
    white.act("e2e4").await;
    white.view_at(1).await;
    white
        .send(json!({"type": "table", "action": "takeback"}))
        .await;
    assert_eq!(white.fault().await["kind"], "illegal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_seats() {
    let server = start().await;
    let me = new_player(&server).await;
    let friend = new_player(&server).await;
    let created = create_as(
        &server,
        &me,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let table = created["table"].clone();
    let mut white = Client::connect_as(&server, &table, &token(&created, 0), Some(&me))
        .await
        .unwrap();
    white.view().await;
    let mut black = Client::connect_as(&server, &table, &token(&created, 1), Some(&friend))
        .await
        .unwrap();
    black.view().await;
    white
        .send(json!({"type": "table", "action": "rematch"}))
        .await;
    assert_eq!(white.fault().await["kind"], "illegal", "not before the end");
    white
        .send(json!({"type": "table", "action": "resign"}))
        .await;
    let over = white.view().await;
    assert!(
        over["table_actions"]
            .as_array()
            .unwrap()
            .contains(&json!("rematch"))
    );

    white
        .send(json!({"type": "table", "action": "rematch"}))
        .await;
    let mine = next_of(&mut white, "rematch").await;
    let theirs = next_of(&mut black, "rematch").await;
    assert_eq!(mine["table"], theirs["table"]);
    assert_ne!(mine["table"], table);
    let new_table = mine["table"].clone();
    let mut now_black = Client::connect_as(
        &server,
        &new_table,
        mine["token"].as_str().unwrap(),
        Some(&me),
    )
    .await
    .unwrap();
    let seen = next_of(&mut now_black, "view").await;
    assert_eq!(seen["info"]["you"], 1, "the first game's White plays Black");
    let mut now_white = Client::connect_as(
        &server,
        &new_table,
        theirs["token"].as_str().unwrap(),
        Some(&friend),
    )
    .await
    .unwrap();
    assert_eq!(next_of(&mut now_white, "view").await["info"]["you"], 0);
    // Asked again, the same rematch.
    black
        .send(json!({"type": "table", "action": "rematch"}))
        .await;
    assert_eq!(next_of(&mut black, "rematch").await["table"], new_table);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_and_past_views_are_served() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let id = created["table"].as_i64().unwrap();
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    white.view().await;
    let mut black = Client::connect(&server, &created["table"], &token(&created, 1)).await;
    black.view().await;
    white.act("e2e4").await;
    black.view_at(1).await;
    black.act("e7e5").await;
    let now = white.view_at(2).await;

    let spectator = spectator(&created);
    let record = get(
        &server,
        &format!("/api/tables/{id}/record?token={spectator}"),
        None,
    )
    .await;
    assert_eq!(record.status, 200);
    assert!(
        record
            .header("content-type")
            .unwrap()
            .starts_with("text/plain")
    );
    assert!(record.body.contains("1. e4 e5"), "{}", record.body);
    let replayed = tabula_store::Record::parse(&record.body)
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed.to_text(), now["position"].as_str().unwrap());

    let past = get(
        &server,
        &format!("/api/tables/{id}/views?token={spectator}&ply=1"),
        None,
    )
    .await;
    assert_eq!(past.status, 200, "{}", past.body);
    let past = past.json()["view"].clone();
    assert_eq!(past["ply"], 1);
    assert!(
        past["position"].as_str().unwrap().contains(" b "),
        "Black to move"
    );
    let white_past = get(
        &server,
        &format!("/api/tables/{id}/views?token={}&ply=0", token(&created, 0)),
        None,
    )
    .await
    .json();
    assert_eq!(
        white_past["view"]["legal"],
        json!([]),
        "past views are read-only"
    );
    let beyond = get(
        &server,
        &format!("/api/tables/{id}/views?token={spectator}&ply=3"),
        None,
    )
    .await;
    assert_eq!(beyond.status, 400);
    let nobody = get(
        &server,
        &format!("/api/tables/{id}/record?token={}", "0".repeat(32)),
        None,
    )
    .await;
    assert_eq!(nobody.status, 403);

    // A hidden-information game's record goes to its seats only, each its own.
    let lytharia = create(
        &server,
        json!({"game": "lytharia", "seats": ["human", "human"], "seed": 5}),
    )
    .await;
    let lid = lytharia["table"].as_i64().unwrap();
    let watched = get(
        &server,
        &format!("/api/tables/{lid}/record?token={}", spectator_of(&lytharia)),
        None,
    )
    .await;
    assert_eq!(watched.status, 403);
    let own = get(
        &server,
        &format!("/api/tables/{lid}/record?token={}", token(&lytharia, 0)),
        None,
    )
    .await;
    assert_eq!(own.status, 200, "{}", own.body);
}

fn spectator_of(created: &Value) -> String {
    spectator(created)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_ends_the_game() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"],
               "clock": {"initial_seconds": 1, "increment_seconds": 0}}),
    )
    .await;
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    let first = next_of(&mut white, "view").await;
    assert_eq!(first["clock"]["remaining_ms"], json!([1000, 1000]));
    assert_eq!(
        first["clock"]["running"],
        Value::Null,
        "the first move is untimed"
    );
    let mut black = Client::connect(&server, &created["table"], &token(&created, 1)).await;
    black.view().await;
    white.act("e2e4").await;
    black.view_at(1).await;
    black.act("e7e5").await;
    // White's clock now runs: a second later its flag falls, and both
    // seats are told without anyone sending anything.
    let over = loop {
        let message = next_of(&mut black, "view").await;
        if message["view"]["outcome"].is_object() {
            break message;
        }
    };
    assert_eq!(over["view"]["outcome"]["reason"], "timeout");
    assert_eq!(over["view"]["outcome"]["winner"], 1);
    assert_eq!(over["clock"]["running"], Value::Null);
    assert_eq!(over["clock"]["remaining_ms"][0], 0);
    let stored = server.store.load_game(key(&created)).unwrap();
    assert_eq!(stored.result.unwrap().reason, EndReason::Timeout);
    white.act("g1f3").await;
    assert_eq!(
        next_of(&mut white, "fault").await["fault"]["kind"],
        "game-over"
    );

    let bad = post(
        server.addr,
        "/api/tables",
        &json!({"game": "chess", "seats": ["human", "human"], "clock": {"initial_seconds": 0}})
            .to_string(),
    )
    .await;
    assert_eq!((bad.0, bad.1["field"].as_str()), (400, Some("clock")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_chosen_on_an_old_view_is_stale() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    white.view().await;
    let mut black = Client::connect(&server, &created["table"], &token(&created, 1)).await;
    black.view().await;
    white
        .send(json!({"type": "action", "action": "e2e4", "ply": 0}))
        .await;
    black.view_at(1).await;
    black
        .send(json!({"type": "action", "action": "e7e5", "ply": 0}))
        .await;
    assert_eq!(black.fault().await["kind"], "stale");
    black
        .send(json!({"type": "action", "action": "e7e5", "ply": 1}))
        .await;
    assert_eq!(black.view_at(2).await["ply"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_may_keep_only_so_many_tables_open() {
    let server = start_with(Limits {
        open_tables_per_address: 2,
        ..Limits::default()
    })
    .await;
    let request = json!({"game": "chess", "seats": ["human", "human"]});
    let first = create(&server, request.clone()).await;
    create(&server, request.clone()).await;
    let (status, body) = post(server.addr, "/api/tables", &request.to_string()).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unfinished tables")
    );
    // Finishing one makes room.
    let mut white = Client::connect(&server, &first["table"], &token(&first, 0)).await;
    white.view().await;
    white
        .send(json!({"type": "table", "action": "resign"}))
        .await;
    white.view().await;
    create(&server, request).await;
}
