//! What the server tests share: a server on a free loopback port, a bare
//! HTTP client and a WebSocket client.
#![allow(dead_code)]
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula_server::{App, Limits};
use tabula_store::{GameKey, SqliteStore, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const WAIT: Duration = Duration::from_secs(20);

pub struct Server {
    pub addr: SocketAddr,
    pub store: Arc<SqliteStore>,
    pub stop: tokio::sync::oneshot::Sender<()>,
    pub done: tokio::task::JoinHandle<()>,
}

pub async fn start() -> Server {
    start_with(Limits::default()).await
}

/// A server whose message rate limit never bites: for tests that play
/// whole games as fast as they can.
pub async fn start_unlimited() -> Server {
    start_with(Limits {
        messages_per_second: 100_000,
        message_burst: 100_000,
        ..Limits::default()
    })
    .await
}

pub async fn start_with(limits: Limits) -> Server {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = App::with_limits(store.clone(), limits);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(async move {
        tabula_server::serve(listener, app, async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Server {
        addr,
        store,
        stop,
        done,
    }
}

/// An HTTP answer: status, headers (names in lower case), body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A plain HTTP/1.1 request with extra header lines (`"Cookie: a=b"`).
pub async fn http(addr: SocketAddr, method: &str, path: &str, extra: &[&str], body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for line in extra {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// A plain HTTP/1.1 POST: the status and the JSON body.
pub async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let status: u16 = response[9..12].parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

pub async fn create(server: &Server, request: Value) -> Value {
    let (status, body) = post(server.addr, "/api/tables", &request.to_string()).await;
    assert_eq!(status, 201, "{body}");
    body
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(server: &Server, table: &Value, token: &str) -> Client {
        Client::connect_as(server, table, token, None)
            .await
            .unwrap()
    }

    /// Connects presenting a player token (as the cookie a browser sends);
    /// `Err` with the HTTP status when refused.
    pub async fn connect_as(
        server: &Server,
        table: &Value,
        token: &str,
        player: Option<&str>,
    ) -> Result<Client, u16> {
        Client::connect_to(server.addr, table, token, player).await
    }

    /// [`Client::connect_as`] a server at `addr`.
    pub async fn connect_to(
        addr: SocketAddr,
        table: &Value,
        token: &str,
        player: Option<&str>,
    ) -> Result<Client, u16> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = format!("ws://{addr}/api/tables/{table}/ws?token={token}");
        let mut request = url.into_client_request().unwrap();
        if let Some(player) = player {
            request
                .headers_mut()
                .insert("cookie", format!("tabula_player={player}").parse().unwrap());
        }
        let ws = match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => ws,
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                return Err(response.status().as_u16());
            }
            Err(e) => panic!("connecting failed: {e}"),
        };
        let mut client = Client { ws };
        let catalog = client.recv().await;
        assert_eq!(catalog["type"], "catalog");
        assert!(catalog["catalog"].is_object());
        Ok(client)
    }

    pub async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the connection open")
                .unwrap();
            if let Message::Text(text) = message {
                return serde_json::from_str(text.as_str()).unwrap();
            }
        }
    }

    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn view(&mut self) -> Value {
        let message = self.recv().await;
        assert_eq!(message["type"], "view", "{message}");
        message["view"].clone()
    }

    /// Views until one at `ply` (or later).
    pub async fn view_at(&mut self, ply: u64) -> Value {
        loop {
            let view = self.view().await;
            if view["ply"].as_u64().unwrap() >= ply {
                return view;
            }
        }
    }

    /// The next fault; views before it are skipped. A view is built when
    /// it is sent, so the view announced for one action can already show
    /// the next, and the next's own view then repeats it after `view_at`
    /// has returned (seen in CI on a loaded machine: a second view at the
    /// checkmate before the "game-over" fault). Any other message fails.
    pub async fn fault(&mut self) -> Value {
        loop {
            let message = self.recv().await;
            if message["type"] == "view" {
                continue;
            }
            assert_eq!(message["type"], "fault", "{message}");
            return message["fault"].clone();
        }
    }

    pub async fn act(&mut self, action: &str) {
        self.send(json!({"type": "action", "action": action})).await;
    }
}

pub fn token(created: &Value, seat: u64) -> String {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == seat)
        .unwrap()["link_token"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub fn spectator(created: &Value) -> String {
    created["spectator_token"].as_str().unwrap().to_owned()
}

pub fn key(created: &Value) -> GameKey {
    GameKey(created["table"].as_i64().unwrap())
}

/// The stored game replays to the position the server shows.
pub fn assert_replays(store: &SqliteStore, key: GameKey, position: &Value) {
    let stored = store.load_game(key).unwrap();
    let game = stored.record().replay().unwrap();
    assert_eq!(game.to_text(), position.as_str().unwrap());
}
