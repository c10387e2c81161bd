//! The server as a client sees it: real HTTP and WebSocket on a free
//! loopback port.

mod common;

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tabula_core::{GameId, GameRng, Player, Seed};
use tabula_games::{ActionInput, AnyGame, Table};
use tabula_store::Store;
use tokio_tungstenite::tungstenite::Message;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fools_mate_between_two_people_and_a_spectator() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"], "seed": 1}),
    )
    .await;
    let table = &created["table"];
    let white_token = token(&created, 0);
    let black_token = token(&created, 1);
    assert_eq!(white_token.len(), 32);
    assert_ne!(white_token, black_token);
    let mut white = Client::connect(&server, table, &white_token).await;
    let mut black = Client::connect(&server, table, &black_token).await;
    let mut watcher = Client::connect(&server, table, &spectator(&created)).await;

    let first = white.view().await;
    assert_eq!(first["viewer"], json!({"player": 0}));
    assert_eq!(first["legal"].as_array().unwrap().len(), 20);
    assert_eq!(black.view().await["legal"], json!([]));
    let seen = watcher.view().await;
    assert_eq!(seen["viewer"], "public");
    assert_eq!(seen["legal"], json!([]));
    assert_eq!(seen["table_actions"], json!([]));

    // Text in any notation, and the JSON form copied from `legal`.
    white.act("f3").await;
    black.view_at(1).await;
    white.view_at(1).await;
    black.act("e7e5").await;
    let view = white.view_at(2).await;
    let g4 = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["canonical"] == "g2g4")
        .unwrap()["action"]
        .clone();
    white.send(json!({"type": "action", "action": g4})).await;
    black.view_at(3).await;
    black.act("Qh4").await;

    for client in [&mut white, &mut black, &mut watcher] {
        let view = client.view_at(4).await;
        assert_eq!(view["to_act"]["kind"], "over");
        assert_eq!(view["outcome"]["reason"], "checkmate");
        assert_eq!(view["outcome"]["winner"], 1);
        assert_eq!(view["outcome"]["results"], json!(["loss", "win"]));
        assert_eq!(view["legal"], json!([]));
        assert_eq!(view["last"]["notation"], "Qh4#");
    }
    let stored = server.store.load_game(key(&created)).unwrap();
    assert_eq!(stored.actions, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(stored.result.unwrap().winner, Some(tabula_core::Team(1)));
    let position = white_position(&server, &created).await;
    assert_replays(&server.store, key(&created), &position);

    // After the end: a fault, nothing stored.
    white.act("e2e4").await;
    assert_eq!(white.fault().await["kind"], "game-over");
    assert_eq!(
        server.store.load_game(key(&created)).unwrap().actions.len(),
        4
    );
}

async fn white_position(server: &Server, created: &Value) -> Value {
    let mut client = Client::connect(server, &created["table"], &spectator(created)).await;
    client.view().await["position"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_change_nothing() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let table = &created["table"];
    let mut white = Client::connect(&server, table, &token(&created, 0)).await;
    let mut black = Client::connect(&server, table, &token(&created, 1)).await;
    let mut watcher = Client::connect(&server, table, &spectator(&created)).await;
    white.view().await;
    black.view().await;
    watcher.view().await;

    black.act("e7e5").await;
    assert_eq!(black.fault().await["kind"], "not-your-turn");
    white.act("e2e5").await;
    assert_eq!(white.fault().await["kind"], "illegal");
    white.act("Zz9").await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white.send_raw("{not json").await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white.send(json!({"type": "dance"})).await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white.send(json!({"type": "action"})).await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white.send(json!({"type": "action", "action": 5})).await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white
        .send(json!({"type": "action", "action": {"kind": "move", "from": "e2", "to": "z9"}}))
        .await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white
        .send(json!({"type": "table", "action": "flip-board"}))
        .await;
    assert_eq!(white.fault().await["kind"], "unreadable");
    white
        .send(json!({"type": "table", "action": "accept-draw"}))
        .await;
    assert_eq!(white.fault().await["kind"], "illegal");
    watcher.act("e2e4").await;
    assert_eq!(watcher.fault().await["kind"], "not-your-turn");
    watcher
        .send(json!({"type": "table", "action": "resign"}))
        .await;
    assert_eq!(watcher.fault().await["kind"], "not-your-turn");
    assert!(
        server
            .store
            .load_game(key(&created))
            .unwrap()
            .actions
            .is_empty()
    );

    // Nothing was pushed for the refusals: the next view is the next move.
    white.act("e4").await;
    assert_eq!(white.view().await["ply"], 1);
    assert_eq!(black.view().await["ply"], 1);
    assert_eq!(watcher.view().await["ply"], 1);

    // A draw offered and accepted, then resigning is too late.
    black
        .send(json!({"type": "table", "action": "offer-draw"}))
        .await;
    let view = white.view().await;
    assert_eq!(view["draw_offer"], 1);
    assert!(
        view["table_actions"]
            .as_array()
            .unwrap()
            .contains(&json!("accept-draw"))
    );
    white
        .send(json!({"type": "table", "action": "accept-draw"}))
        .await;
    let view = white.view().await;
    assert_eq!(view["outcome"]["reason"], "agreement");
    let stored = server.store.load_game(key(&created)).unwrap();
    assert_eq!(stored.result.unwrap().winner, None);
    black
        .send(json!({"type": "table", "action": "resign"}))
        .await;
    loop {
        let message = black.recv().await;
        if message["type"] == "fault" {
            assert_eq!(message["fault"]["kind"], "game-over");
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_replies_by_itself() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "computer"], "seed": 7}),
    )
    .await;
    assert_eq!(created["seats"].as_array().unwrap().len(), 1);
    let mut me = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    let mut view = me.view().await;
    let mut ply = 0;
    while ply < 8 && view["to_act"]["kind"] != "over" {
        // Our move: the first legal action; then wait for the computer's reply.
        let action = view["legal"][0]["action"].clone();
        me.send(json!({"type": "action", "action": action})).await;
        ply += 2;
        view = me.view_at(ply).await;
        if view["to_act"]["kind"] == "over" {
            break;
        }
        assert_eq!(view["to_act"], json!({"kind": "player", "player": 0}));
    }
    let moves = view["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["player"] == 1), "{view}");
    assert_replays(&server.store, key(&created), &view["position"]);
    if view["to_act"]["kind"] != "over" {
        me.send(json!({"type": "table", "action": "resign"})).await;
        let view = me.view().await;
        assert_eq!(view["outcome"]["reason"], "resignation");
        assert_eq!(view["outcome"]["results"], json!(["loss", "win"]));
        let stored = server.store.load_game(key(&created)).unwrap();
        assert_eq!(stored.result.unwrap().winner, Some(tabula_core::Team(1)));
    }
    let stored = server.store.load_game(key(&created)).unwrap();
    assert_eq!(stored.header.players[1], tabula_server::COMPUTER_NAME);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_with_the_first_move_plays_it() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["computer", "human"], "seed": 3}),
    )
    .await;
    let mut me = Client::connect(&server, &created["table"], &token(&created, 1)).await;
    let view = me.view_at(1).await;
    assert_eq!(view["ply"], 1);
    assert_eq!(view["to_act"], json!({"kind": "player", "player": 1}));
    // The computer's seat has no link.
    assert_eq!(
        created["seats"],
        json!([{"seat": 1, "link_token": token(&created, 1)}])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skirmish_dice_come_from_the_server() {
    let server = start().await;
    let seed = 11;
    let created = create(
        &server,
        json!({"game": "skirmish", "seats": ["human", "human"], "seed": seed}),
    )
    .await;
    let table = &created["table"];
    let mut white = Client::connect(&server, table, &token(&created, 0)).await;
    let mut black = Client::connect(&server, table, &token(&created, 1)).await;
    white.view().await;
    black.view().await;
    white.act("e4").await;
    black.view_at(1).await;
    black.act("d5").await;
    white.view_at(2).await;
    white.act("exd5").await;
    // The capture is decided by dice the server rolls: the roll is ply 4.
    let view = black.view_at(4).await;
    let roll = &view["moves"][3];
    assert!(roll.get("player").is_none(), "{view}");
    assert!(roll["notation"].as_str().unwrap().starts_with("roll"));
    assert!(
        view["last"]["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "dice")
    );

    // The dice are the table's seeded stream: the same seed rolls the same.
    let mut expected = Table::new(AnyGame::new(GameId::Skirmish, &[]).unwrap());
    for action in ["e2e4", "d7d5", "e4d5"] {
        expected
            .act(
                expected.game().to_act().player().unwrap_or(Player(0)),
                &ActionInput::Text(action.into()),
            )
            .unwrap();
    }
    expected
        .play_chance(&mut GameRng::from_seed(Seed(seed)))
        .unwrap();
    let stored = server.store.load_game(key(&created)).unwrap();
    let expected: Vec<&str> = expected.actions().collect();
    assert_eq!(stored.actions, expected);
    assert_eq!(stored.header.seed, Some(seed));
    assert_replays(&server.store, key(&created), &view["position"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused() {
    let server = start().await;
    let cases = [
        (r#"{"game":"checkers","seats":["human","human"]}"#, "game"),
        (
            r#"{"game":"skirmish","options":{"mode":"expert"},"seats":["human","human"]}"#,
            "options",
        ),
        (
            r#"{"game":"chess","options":{"colour":"red"},"seats":["human","human"]}"#,
            "options",
        ),
        (r#"{"game":"chess","seats":["human"]}"#, "seats"),
        (
            r#"{"game":"warrior","options":{"players":"4"},"seats":["human","human"]}"#,
            "seats",
        ),
        (r#"{"game":"chess","seats":["human","robot"]}"#, "body"),
        (r#"{"game":"chess""#, "body"),
        (r#"[]"#, "body"),
        (
            r#"{"game":"chess","seats":["human","human"],"seed":-1}"#,
            "body",
        ),
    ];
    for (body, field) in cases {
        let (status, answer) = post(server.addr, "/api/tables", body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["field"], field, "{body}: {answer}");
        assert!(!answer["error"].as_str().unwrap().is_empty());
    }
    assert!(server.store.list_games().unwrap().is_empty());

    // A WebSocket needs a table that exists and a token that opens it.
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let table = &created["table"];
    for (path, status) in [
        (
            format!("/api/tables/{table}/ws?token={}", "0".repeat(32)),
            403,
        ),
        (format!("/api/tables/{table}/ws"), 401),
        (
            format!("/api/tables/999/ws?token={}", spectator(&created)),
            404,
        ),
    ] {
        let url = format!("ws://{}{path}", server.addr);
        match tokio_tungstenite::connect_async(url).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), status, "{path}");
            }
            other => panic!("{path}: expected HTTP {status}, got {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_says_goodbye_and_keeps_what_was_played() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    white.view().await;
    white.act("d4").await;
    white.view_at(1).await;
    server.stop.send(()).unwrap();
    let close = tokio::time::timeout(WAIT, white.ws.next())
        .await
        .expect("a close in time");
    match close {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), 1001);
        }
        other => panic!("expected a close frame, got {other:?}"),
    }
    tokio::time::timeout(WAIT, server.done)
        .await
        .expect("the server stops")
        .unwrap();
    assert_eq!(
        server.store.load_game(key(&created)).unwrap().actions,
        ["d2d4"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_seat_two_connections_racing_apply_one_action() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let white_token = token(&created, 0);
    let mut first = Client::connect(&server, &created["table"], &white_token).await;
    let mut second = Client::connect(&server, &created["table"], &white_token).await;
    first.view().await;
    second.view().await;
    let ((), ()) = tokio::join!(first.act("e4"), second.act("d4"));
    // Exactly one is played; the other is refused as out of turn (its fault
    // may come before or after the view of the winner's move).
    let mut faults = 0;
    let mut views = Vec::new();
    for client in [&mut first, &mut second] {
        loop {
            let message = client.recv().await;
            if message["type"] == "fault" {
                assert_eq!(message["fault"]["kind"], "not-your-turn", "{message}");
                faults += 1;
            } else if message["view"]["ply"] == 1 {
                views.push(message["view"].clone());
                break;
            }
        }
        while let Ok(Some(Ok(Message::Text(text)))) =
            tokio::time::timeout(Duration::from_millis(300), client.ws.next()).await
        {
            let message: Value = serde_json::from_str(text.as_str()).unwrap();
            assert_eq!(message["type"], "fault", "{message}");
            faults += 1;
        }
    }
    assert_eq!(faults, 1);
    assert_eq!(views[0], views[1]);
    assert_eq!(
        server.store.load_game(key(&created)).unwrap().actions.len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_closes_the_connection() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    white.view().await;
    let huge = "x".repeat(tabula_server::MAX_MESSAGE + 1);
    white.act(&huge).await;
    let end = tokio::time::timeout(WAIT, white.ws.next())
        .await
        .expect("an end in time");
    assert!(
        !matches!(end, Some(Ok(Message::Text(_)))),
        "expected the connection to end, got {end:?}"
    );
    assert!(
        server
            .store
            .load_game(key(&created))
            .unwrap()
            .actions
            .is_empty()
    );
}

/// Every game id (and four-player Warrior) through the WebSocket: the seat
/// to act plays one of its legal actions, every seat and the spectator see
/// each change, only the seat to act is offered actions, and the store
/// holds every action and chance outcome.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_through_the_websocket() {
    // Whole games as fast as the test sends: no rate limit.
    let server = start_unlimited().await;
    let games = [
        ("chess", json!({})),
        ("epoch", json!({})),
        ("skirmish", json!({"mode": "advanced"})),
        ("warrior", json!({"players": "4"})),
        ("covenant", json!({})),
        ("lytharia", json!({})),
    ];
    for (game, options) in games {
        let fresh = AnyGame::new(
            game.parse().unwrap(),
            &options
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let seats = fresh.seating().len();
        let starts_with_chance = fresh.to_act() == tabula_core::ToAct::Chance;
        let created = create(
            &server,
            json!({"game": game, "options": options, "seats": vec!["human"; seats], "seed": 5}),
        )
        .await;
        let table = &created["table"];
        let mut clients = Vec::new();
        for seat in 0..seats as u64 {
            clients.push(Client::connect(&server, table, &token(&created, seat)).await);
        }
        clients.push(Client::connect(&server, table, &spectator(&created)).await);
        let mut views = Vec::new();
        for client in &mut clients {
            views.push(client.view().await);
        }
        if starts_with_chance {
            // The server drew the opening chance (a shuffle) when it seated the table.
            assert!(views[0]["moves"][0].get("player").is_none(), "{game}");
            assert_eq!(views[0]["to_act"]["kind"], "player", "{game}");
        }
        // To the end: by the rules within 300 decisions, else (Covenant's
        // random games hardly end) the seat to act resigns.
        for turn in 0..=300 {
            let ply = views[0]["ply"].as_u64().unwrap();
            if views[0]["to_act"]["kind"] == "over" {
                break;
            }
            if turn == 300 {
                let acting = views[0]["to_act"]["player"].as_u64().unwrap() as usize;
                clients[acting]
                    .send(json!({"type": "table", "action": "resign"}))
                    .await;
                for (i, client) in clients.iter_mut().enumerate() {
                    views[i] = client.view().await;
                }
                break;
            }
            let acting = views[0]["to_act"]["player"].as_u64().unwrap() as usize;
            for (i, view) in views.iter().enumerate() {
                let offered = !view["legal"].as_array().unwrap().is_empty();
                assert_eq!(offered, i == acting, "{game} ply {ply} viewer {i}");
            }
            let legal = views[acting]["legal"].as_array().unwrap();
            let action = legal[(turn * 7) % legal.len()]["action"].clone();
            clients[acting]
                .send(json!({"type": "action", "action": action}))
                .await;
            for (i, client) in clients.iter_mut().enumerate() {
                views[i] = client.view_at(ply + 1).await;
            }
            let seen = views[0]["ply"].clone();
            assert!(views.iter().all(|v| v["ply"] == seen), "{game}");
        }
        assert_eq!(views[0]["to_act"]["kind"], "over", "{game}");
        let stored = server.store.load_game(key(&created)).unwrap();
        assert!(stored.result.is_some(), "{game}: the result is stored");
        let ply = views[0]["ply"].as_u64().unwrap();
        assert!(ply >= 10, "{game} stopped at ply {ply}");
        assert_eq!(stored.actions.len() as u64, ply, "{game}");
        let replayed = stored.record().replay().unwrap();
        let spectator_view = views.last().unwrap();
        match spectator_view.get("position") {
            Some(position) => assert_eq!(replayed.to_text(), position.as_str().unwrap(), "{game}"),
            None => assert_eq!(game, "lytharia"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_from_another_site_cannot_connect() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let url = format!(
        "ws://{}/api/tables/{}/ws?token={}",
        server.addr,
        created["table"],
        token(&created, 0)
    );
    let with_origin = |origin: String| {
        let mut request = url.clone().into_client_request().unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        request
    };
    match tokio_tungstenite::connect_async(with_origin("http://evil.example".into())).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 403);
        }
        other => panic!("expected 403, got {other:?}"),
    }
    let (mut ws, _) =
        tokio_tungstenite::connect_async(with_origin(format!("http://{}", server.addr)))
            .await
            .unwrap();
    let first = ws.next().await.unwrap().unwrap();
    assert!(first.to_text().unwrap().contains("\"catalog\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_slowed_down() {
    let server = start().await;
    let created = create(
        &server,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let mut white = Client::connect(&server, &created["table"], &token(&created, 0)).await;
    white.view().await;
    let flood = 100;
    for _ in 0..flood {
        white.send_raw("{}").await;
    }
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..flood {
        let fault = white.fault().await;
        *kinds
            .entry(fault["kind"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    assert!(
        kinds.get("too-fast").copied().unwrap_or(0) >= 40,
        "{kinds:?}"
    );
    assert!(
        kinds.get("unreadable").copied().unwrap_or(0) >= 40,
        "{kinds:?}"
    );
    // The connection stays usable once the client slows down.
    tokio::time::sleep(Duration::from_millis(200)).await;
    white.act("e4").await;
    assert_eq!(white.view().await["ply"], 1);
}

/// Hidden information: in a Lytharian game every view a seat or the
/// spectator receives is exactly the table's view for that viewer (which
/// the games crate's hidden-information test holds to what it may know):
/// the server adds nothing of the other seat's hand or deck.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lytharia_views_are_the_tables_views_for_each_viewer() {
    // A whole game as fast as the test can send: no rate limit.
    let server = start_unlimited().await;
    let created = create(
        &server,
        json!({"game": "lytharia", "seats": ["human", "human"], "seed": 21}),
    )
    .await;
    let table = &created["table"];
    let mut clients = [
        Client::connect(&server, table, &token(&created, 0)).await,
        Client::connect(&server, table, &token(&created, 1)).await,
        Client::connect(&server, table, &spectator(&created)).await,
    ];
    let viewers = [
        tabula_core::Viewer::Player(Player(0)),
        tabula_core::Viewer::Player(Player(1)),
        tabula_core::Viewer::Public,
    ];
    let mut received: Vec<Vec<Value>> = vec![Vec::new(); 3];
    for (i, client) in clients.iter_mut().enumerate() {
        received[i].push(client.view().await);
    }
    for turn in 0..2000 {
        let latest = received[2].last().unwrap().clone();
        if latest["to_act"]["kind"] == "over" {
            break;
        }
        let ply = latest["ply"].as_u64().unwrap();
        let acting = latest["to_act"]["player"].as_u64().unwrap() as usize;
        let legal = received[acting].last().unwrap()["legal"]
            .as_array()
            .unwrap();
        let action = legal[(turn * 5) % legal.len()]["action"].clone();
        clients[acting]
            .send(json!({"type": "action", "action": action}))
            .await;
        for (i, client) in clients.iter_mut().enumerate() {
            received[i].push(client.view_at(ply + 1).await);
        }
    }

    // Replay the stored game on a table of our own, view by view.
    let stored = server.store.load_game(key(&created)).unwrap();
    let mut local = Table::new(AnyGame::new(GameId::Lytharia, &[]).unwrap());
    let mut expected: Vec<std::collections::HashMap<u64, Value>> =
        vec![std::collections::HashMap::new(); 3];
    let mut record = |local: &Table| {
        for (i, viewer) in viewers.iter().enumerate() {
            let view = serde_json::to_value(local.view(*viewer)).unwrap();
            expected[i].insert(local.ply() as u64, view);
        }
    };
    record(&local);
    for action in &stored.actions {
        local.replay(&ActionInput::Text(action.clone())).unwrap();
        record(&local);
    }
    for (i, views) in received.iter().enumerate() {
        assert!(views.len() > 10);
        for view in views {
            let ply = view["ply"].as_u64().unwrap();
            // The server adds its own table actions (a rematch once over).
            let mut view = view.clone();
            let server_actions = view["table_actions"].take();
            let mut want = expected[i][&ply].clone();
            let table_actions = want["table_actions"].take();
            assert_eq!(view, want, "viewer {i} at ply {ply}");
            if view["outcome"].is_null() {
                assert_eq!(server_actions, table_actions, "viewer {i} at ply {ply}");
            }
        }
    }
    // And seats never see each other's legal actions.
    assert!(received[2].iter().all(|v| v["legal"] == json!([])));
    assert_eq!(
        received[2].last().unwrap()["to_act"]["kind"],
        "over",
        "a whole game"
    );

    // Read directly: no message to Player 1 or the spectator names a card of
    // Player 2's hand or deck (only how many), while Player 2's own messages
    // do name its hand; and the other way round.
    let named = |view: &Value, owner: u64, zone: &str| -> usize {
        view["zones"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|z| z["owner"] == owner && z["zone"] == zone)
            .map(|z| z["items"].as_array().unwrap().len())
            .sum()
    };
    for (i, views) in received.iter().enumerate() {
        for view in views {
            for other in [0u64, 1] {
                if i as u64 == other {
                    continue;
                }
                assert_eq!(
                    named(view, other, "hand"),
                    0,
                    "viewer {i} sees seat {other}'s hand"
                );
                assert_eq!(
                    named(view, other, "deck"),
                    0,
                    "viewer {i} sees seat {other}'s deck"
                );
            }
            assert_eq!(
                named(view, i as u64, "deck"),
                0,
                "nobody sees a deck's order"
            );
        }
    }
    for (seat, views) in received.iter().take(2).enumerate() {
        assert!(
            views.iter().any(|v| named(v, seat as u64, "hand") > 0),
            "seat {seat} sees its own hand"
        );
    }
}
