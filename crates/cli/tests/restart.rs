//! `tabula serve` killed with SIGKILL in the middle of games, then started
//! again on the same game store: every table resumes from its last
//! acknowledged action, with its seat links, claims, clock and computer.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use common::{Client, http, token};

struct Serving {
    child: Child,
    addr: SocketAddr,
    lines: Option<std::io::Lines<BufReader<std::process::ChildStdout>>>,
}

/// Starts `tabula serve` on a free port and reads the URL it prints.
fn serve(db: &std::path::Path) -> Serving {
    serve_with(&["--db".as_ref(), db.as_os_str()])
}

/// `tabula serve --addr 127.0.0.1:0` with these store arguments.
fn serve_with(store: &[&std::ffi::OsStr]) -> Serving {
    let mut args = vec!["serve".as_ref(), "--addr".as_ref(), "127.0.0.1:0".as_ref()];
    args.extend_from_slice(store);
    run_tabula(&args, &[])
}

/// Runs `tabula ARGS` with extra environment variables and reads the URL
/// the server prints.
fn run_tabula(args: &[&std::ffi::OsStr], env: &[(&str, &std::ffi::OsStr)]) -> Serving {
    let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .envs(env.iter().copied())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut serving = Serving {
        child,
        addr: "0.0.0.0:0".parse().unwrap(),
        lines: None,
    };
    let mut lines = BufReader::new(serving.child.stdout.take().unwrap()).lines();
    loop {
        let line = lines.next().expect("the server prints its URL").unwrap();
        if let Some(rest) = line.split("http://").nth(1) {
            serving.addr = rest.split('/').next().unwrap().parse().unwrap();
            serving.lines = Some(lines);
            return serving;
        }
    }
}

impl Serving {
    fn next_line(&mut self) -> String {
        self.lines.as_mut().unwrap().next().unwrap().unwrap()
    }

    /// SIGKILL: no shutdown of any kind.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn create(addr: SocketAddr, player: &str, request: Value) -> Value {
    let cookie = format!("Cookie: tabula_player={player}");
    let reply = http(
        addr,
        "POST",
        "/api/tables",
        &[&cookie],
        &request.to_string(),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.json()
}

async fn next_view(client: &mut Client) -> Value {
    loop {
        let message = client.recv().await;
        if message["type"] == "view" {
            return message;
        }
    }
}

async fn view_at(client: &mut Client, ply: u64) -> Value {
    loop {
        let message = next_view(client).await;
        if message["view"]["ply"].as_u64().unwrap() >= ply {
            return message;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_table() {
    let dir = std::env::temp_dir().join(format!("tabula-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let _ = std::fs::remove_file(&db);
    let (me, friend, stranger) = ("1".repeat(32), "2".repeat(32), "3".repeat(32));

    let mut first = serve(&db);
    // Against the computer, timed.
    let computer = create(
        first.addr,
        &me,
        json!({"game": "chess", "seats": ["human", "computer:easy"], "seed": 11,
               "clock": {"initial_seconds": 600, "increment_seconds": 5}}),
    )
    .await;
    let mut white = Client::connect_to(
        first.addr,
        &computer["table"],
        &token(&computer, 0),
        Some(&me),
    )
    .await
    .unwrap();
    next_view(&mut white).await;
    white.act("e2e4").await;
    view_at(&mut white, 2).await;
    white.act("d2d4").await;
    let before = view_at(&mut white, 4).await;
    // Between two people, Skirmish: the dice come from the server's stream.
    let people = create(
        first.addr,
        &me,
        json!({"game": "skirmish", "seats": ["human", "human"], "seed": 5}),
    )
    .await;
    let mut a = Client::connect_to(first.addr, &people["table"], &token(&people, 0), Some(&me))
        .await
        .unwrap();
    next_view(&mut a).await;
    let mut b = Client::connect_to(
        first.addr,
        &people["table"],
        &token(&people, 1),
        Some(&friend),
    )
    .await
    .unwrap();
    next_view(&mut b).await;
    a.act("e2e4").await;
    let skirmish_before = view_at(&mut b, 1).await;

    first.kill();

    let mut second = serve(&db);
    let resumed = second.next_line();
    assert_eq!(resumed, "2 tables resumed");

    // The same link opens the same game at the same ply, clock included.
    let mut white = Client::connect_to(
        second.addr,
        &computer["table"],
        &token(&computer, 0),
        Some(&me),
    )
    .await
    .unwrap();
    let after = next_view(&mut white).await;
    assert_eq!(after["view"]["position"], before["view"]["position"]);
    assert_eq!(after["view"]["moves"], before["view"]["moves"]);
    let left = after["clock"]["remaining_ms"][0].as_i64().unwrap();
    assert!(left > 590_000 && left <= 605_000, "White's time: {left}");
    // The computer plays on.
    white.act("g1f3").await;
    let on = view_at(&mut white, 6).await;
    assert_eq!(on["view"]["to_act"]["player"], 0);

    // Claims survive: the friend's seat opens for the friend only.
    let refused = Client::connect_to(
        second.addr,
        &people["table"],
        &token(&people, 1),
        Some(&stranger),
    )
    .await;
    assert_eq!(refused.err(), Some(403));
    let mut b = Client::connect_to(
        second.addr,
        &people["table"],
        &token(&people, 1),
        Some(&friend),
    )
    .await
    .unwrap();
    let seen = next_view(&mut b).await;
    assert_eq!(
        seen["view"]["position"],
        skirmish_before["view"]["position"]
    );
    let mine = http(
        second.addr,
        "GET",
        "/api/me/tables",
        &[&format!("Cookie: tabula_player={me}")],
        "",
    )
    .await
    .json();
    assert_eq!(mine.as_array().unwrap().len(), 2);

    // The record of the resumed game replays to what the page shows.
    let record = http(
        second.addr,
        "GET",
        &format!(
            "/api/tables/{}/record?token={}",
            computer["table"],
            token(&computer, 0)
        ),
        &[],
        "",
    )
    .await;
    let game = tabula_store::Record::parse(&record.body)
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(game.to_text(), on["view"]["position"].as_str().unwrap());

    second.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cargo run --release` from the repository root runs `tabula` with no
/// command: that starts the server on its default address.
#[test]
fn tabula_alone_serves() {
    let dir = std::env::temp_dir().join(format!("tabula-bare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let mut serving = run_tabula(&[], &[("TABULA_DB", db.as_os_str())]);
    serving.kill();
    assert_eq!(
        serving.addr.to_string(),
        "127.0.0.1:8080",
        "the default address (is port 8080 taken?)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two `tabula serve` instances on one PostgreSQL database (CI's, named by
/// `TABULA_PG_URL`; the test is skipped without it): a game created on one
/// and played across both, each move reaching the other instance's player
/// through the database's notifications, without anyone asking.
#[cfg(feature = "postgres")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgresql_database_play_one_game() {
    let Ok(url) = std::env::var("TABULA_PG_URL") else {
        eprintln!("skipped: TABULA_PG_URL is not set");
        return;
    };
    let args = ["--database-url".as_ref(), std::ffi::OsStr::new(&url)];
    let a = serve_with(&args);
    let b = serve_with(&args);
    let player = "4".repeat(32);
    let created = create(
        a.addr,
        &player,
        json!({"game": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let table = &created["table"];
    let mut white = Client::connect_to(a.addr, table, &token(&created, 0), None)
        .await
        .unwrap();
    next_view(&mut white).await;
    // Instance B never saw the table created: it reads it from the database.
    let mut black = Client::connect_to(b.addr, table, &token(&created, 1), None)
        .await
        .unwrap();
    next_view(&mut black).await;
    for (ply, (mover, text)) in [(0, "e2e4"), (1, "e7e5"), (0, "g1f3"), (1, "b8c6")]
        .into_iter()
        .enumerate()
    {
        let (me, other) = if mover == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        me.act(text).await;
        view_at(me, ply as u64 + 1).await;
        let seen = view_at(other, ply as u64 + 1).await;
        assert_eq!(
            seen["view"]["ply"],
            ply + 1,
            "{text} reached the other server"
        );
    }
    let record = http(
        b.addr,
        "GET",
        &format!("/api/tables/{table}/record?token={}", token(&created, 1)),
        &[],
        "",
    )
    .await;
    assert!(record.body.contains("2. Nf3 Nc6"), "{}", record.body);
}
