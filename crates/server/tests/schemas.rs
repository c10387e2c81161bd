//! The API's descriptions hold for real traffic: every WebSocket message a
//! server sends in games of every game id (views, catalogs, faults,
//! rematches, with clocks and computer seats) and every message the test
//! sends is valid against its JSON Schema in docs/schemas; the OpenAPI
//! document at /api/openapi.json describes every HTTP route.

mod common;

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use common::*;

fn schemas() -> HashMap<String, jsonschema::Validator> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
    let mut out = HashMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        out.insert(name, jsonschema::validator_for(&schema).unwrap());
    }
    out
}

fn check(schemas: &HashMap<String, jsonschema::Validator>, side: &str, message: &Value) -> String {
    let kind = message["type"].as_str().unwrap_or("?");
    let name = format!("{side}-{kind}");
    let validator = schemas
        .get(&name)
        .unwrap_or_else(|| panic!("no schema {name} for {message}"));
    let errors: Vec<String> = validator
        .iter_errors(message)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{message}");
    name
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_matches_its_schema() {
    let schemas = schemas();
    let server = start_unlimited().await;
    let mut seen = HashSet::new();
    for (game, options, seats) in [
        ("chess", json!({}), json!(["human", "computer:easy"])),
        ("epoch", json!({}), json!(["human", "human"])),
        (
            "skirmish",
            json!({"mode": "advanced"}),
            json!(["human", "human"]),
        ),
        (
            "warrior",
            json!({"players": "4"}),
            json!(["human", "human", "human", "human"]),
        ),
        ("covenant", json!({}), json!(["human", "human"])),
        ("lytharia", json!({}), json!(["human", "human"])),
    ] {
        let created = create(
            &server,
            json!({"game": game, "options": options, "seats": seats, "seed": 4,
                   "clock": {"initial_seconds": 600, "increment_seconds": 1}}),
        )
        .await;
        let table = &created["table"];
        let humans: Vec<u64> = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["seat"].as_u64().unwrap())
            .collect();
        let mut clients = Vec::new();
        for seat in &humans {
            let url = format!(
                "ws://{}/api/tables/{table}/ws?token={}",
                server.addr,
                token(&created, *seat)
            );
            let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
            clients.push(Client { ws });
        }
        let mut views: Vec<Value> = Vec::new();
        for client in clients.iter_mut() {
            seen.insert(check(&schemas, "server", &client.recv().await));
            let view = client.recv().await;
            seen.insert(check(&schemas, "server", &view));
            views.push(view["view"].clone());
        }
        for turn in 0..40 {
            let Some(acting) = views
                .iter()
                .position(|v| !v["legal"].as_array().unwrap().is_empty())
            else {
                break;
            };
            let entry = &views[acting]["legal"]
                [(turn * 3) % views[acting]["legal"].as_array().unwrap().len()];
            let ply = views[acting]["ply"].clone();
            let message = if turn % 2 == 0 {
                json!({"type": "action", "action": entry["action"], "ply": ply})
            } else {
                json!({"type": "action", "action": entry["notation"]})
            };
            seen.insert(check(&schemas, "client", &message));
            clients[acting].send(message).await;
            let next = ply.as_u64().unwrap() + 1;
            for (i, client) in clients.iter_mut().enumerate() {
                loop {
                    let message = client.recv().await;
                    seen.insert(check(&schemas, "server", &message));
                    if message["type"] == "view" && message["view"]["ply"].as_u64().unwrap() >= next
                    {
                        views[i] = message["view"].clone();
                        break;
                    }
                }
            }
        }
        // A refusal, a resignation and a rematch.
        let garbage = json!({"type": "table", "action": "shrug"});
        clients[0].send(garbage).await;
        seen.insert(check(&schemas, "server", &clients[0].recv().await));
        let resign = json!({"type": "table", "action": "resign"});
        seen.insert(check(&schemas, "client", &resign));
        clients[0].send(resign).await;
        seen.insert(check(&schemas, "server", &clients[0].recv().await));
        let rematch = json!({"type": "table", "action": "rematch"});
        seen.insert(check(&schemas, "client", &rematch));
        clients[0].send(rematch).await;
        let rematch = loop {
            let message = clients[0].recv().await;
            seen.insert(check(&schemas, "server", &message));
            if message["type"] == "rematch" {
                break message;
            }
        };
        assert_ne!(
            &rematch["table"], table,
            "{game}: the rematch is a new table"
        );
    }
    let expected: HashSet<String> = schemas.keys().cloned().collect();
    assert_eq!(seen, expected, "every schema met by real messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_names_every_http_route() {
    let server = start().await;
    let reply = http(server.addr, "GET", "/api/openapi.json", &[], "").await;
    assert_eq!(reply.status, 200);
    let doc = reply.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths: HashSet<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let routes = [
        "/api/games",
        "/api/games/{id}/seats",
        "/api/tables",
        "/api/me/tables",
        "/api/tables/{id}/record",
        "/api/tables/{id}/views",
    ];
    assert_eq!(paths, routes.into_iter().collect());
    assert!(doc["paths"]["/api/tables"]["post"]["requestBody"].is_object());
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "CreateTable",
        "Created",
        "ClockSettings",
        "ErrorBody",
        "MyTable",
    ] {
        assert!(schemas.contains_key(name), "{name}");
    }
    // What the document says of the games list holds for the real answer.
    let games = http(server.addr, "GET", "/api/games", &[], "").await.json();
    let entry = &schemas["GameEntry"]["required"];
    for field in entry.as_array().unwrap() {
        assert!(games[0].get(field.as_str().unwrap()).is_some(), "{field}");
    }
}
