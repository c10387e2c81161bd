//! The tabula game server: tables over HTTP and WebSocket, every change
//! stored through `tabula-store` before it is acknowledged (`docs/api.md`).
//!
//! [`App`] holds the live tables in memory in front of a [`Store`];
//! [`App::router`] is its axum router and [`serve`] runs it on a listener
//! until a shutdown signal.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabula_core::{GameId, Viewer};
use tabula_games::{ActionInput, AnyGame, Table, TableAction};
use tabula_store::{GameKey, NewGame, Store};
use thiserror::Error;
use tokio::net::TcpListener;
use tokio::sync::broadcast::error::RecvError;

mod assets;
mod table;
mod token;

pub use table::{LiveTable, Request, SeatKind, WireFault};
pub use token::Token;

/// The name computer seats are stored under (the same as `tabula play`'s).
pub const COMPUTER_NAME: &str = "tabula computer";

/// The largest WebSocket message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// How many messages a connection may send in a burst.
pub const BURST: f64 = 40.0;

/// How many messages a second a connection may send, sustained.
pub const PER_SECOND: f64 = 20.0;

/// A token bucket: [`BURST`] messages at once, refilled at [`PER_SECOND`].
struct Bucket {
    tokens: f64,
    last: tokio::time::Instant,
}

impl Bucket {
    fn new() -> Self {
        Bucket {
            tokens: BURST,
            last: tokio::time::Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * PER_SECOND;
        self.tokens = (self.tokens + refill).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Why the server could not run.
#[derive(Debug, Error)]
pub enum ServerError {
    /// Listening or serving failed.
    #[error("serving failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The live tables and the store behind them. Cheap to clone.
#[derive(Clone)]
pub struct App {
    store: Arc<dyn Store + Send + Sync>,
    tables: Arc<Mutex<HashMap<GameKey, Arc<LiveTable>>>>,
    /// Set once the server is shutting down: every connection says goodbye.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").finish_non_exhaustive()
    }
}

/// Why a table could not be created.
#[derive(Debug, Error)]
pub enum CreateError {
    /// No game has this id.
    #[error(transparent)]
    UnknownGame(#[from] tabula_core::UnknownGame),
    /// An option the game does not take, or a bad value.
    #[error("{0}")]
    Options(tabula_games::AnyError),
    /// The number of seats is not the game's.
    #[error("{game} with these options seats {wanted} players, not {given}")]
    Seats {
        /// The game's title.
        game: &'static str,
        /// How many it seats.
        wanted: usize,
        /// How many were asked for.
        given: usize,
    },
    /// The OS random source failed.
    #[error("no OS randomness: {0}")]
    Random(getrandom::Error),
    /// The store failed.
    #[error("the game store failed: {0}")]
    Store(String),
}

impl CreateError {
    /// The request field at fault; `None` when the server is.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            CreateError::UnknownGame(_) => Some("game"),
            CreateError::Options(_) => Some("options"),
            CreateError::Seats { .. } => Some("seats"),
            CreateError::Random(_) | CreateError::Store(_) => None,
        }
    }
}

/// `POST /api/tables`: what a table is created with.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The game id.
    pub game: String,
    /// Options that differ from the book's game.
    #[serde(default)]
    pub options: HashMap<String, String>,
    /// Who sits in each seat, in seat order.
    pub seats: Vec<SeatKind>,
    /// The seed of the chance stream (random when absent).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// One human seat's link secret in [`Created`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeatLink {
    /// The seat, from 0.
    pub seat: u8,
    /// The secret that acts for it.
    pub link_token: String,
}

/// The answer to `POST /api/tables`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Created {
    /// The table's id.
    pub table: i64,
    /// The human seats' secrets.
    pub seats: Vec<SeatLink>,
    /// The secret that watches.
    pub spectator_token: String,
}

/// A refused HTTP request: status and a JSON body naming what is wrong.
#[derive(Debug)]
struct HttpError {
    status: StatusCode,
    field: Option<&'static str>,
    message: String,
}

impl HttpError {
    fn bad(field: &'static str, message: impl Into<String>) -> Self {
        HttpError {
            status: StatusCode::BAD_REQUEST,
            field: Some(field),
            message: message.into(),
        }
    }

    fn status(status: StatusCode, message: impl Into<String>) -> Self {
        HttpError {
            status,
            field: None,
            message: message.into(),
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = match self.field {
            Some(field) => json!({"error": self.message, "field": field}),
            None => json!({"error": self.message}),
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// What a client sends over the WebSocket.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
enum ClientMessage {
    Action { action: ActionInput },
    Table { action: TableAction },
}

#[derive(Debug, Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

impl App {
    /// An app with no live tables, storing in `store`.
    pub fn new(store: Arc<dyn Store + Send + Sync>) -> Self {
        App {
            store,
            tables: Arc::new(Mutex::new(HashMap::new())),
            closing: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }

    /// The HTTP and WebSocket routes (`docs/api.md`).
    pub fn router(&self) -> Router {
        Router::new()
            .route("/api/tables", post(create_table))
            .route("/api/tables/{id}/ws", get(connect))
            .with_state(self.clone())
            .merge(assets::router())
    }

    /// Tells every open connection that the server is going away (a
    /// WebSocket close with code 1001) and closes it. Every action already
    /// acknowledged is in the store.
    pub fn close_connections(&self) {
        self.closing.send_replace(true);
    }

    /// A live table by id.
    pub fn table(&self, key: GameKey) -> Option<Arc<LiveTable>> {
        self.tables
            .lock()
            .ok()
            .and_then(|tables| tables.get(&key).cloned())
    }

    /// Creates a table: checks the request, stores the new game, seats it
    /// in memory and lets a computer seat that moves first play.
    pub async fn create(&self, request: CreateTable) -> Result<Created, CreateError> {
        let id: GameId = request.game.parse()?;
        let mut options: Vec<(String, String)> = request.options.into_iter().collect();
        options.sort();
        let game = AnyGame::new(id, &options).map_err(CreateError::Options)?;
        let wanted = game.seating().len();
        if request.seats.len() != wanted {
            return Err(CreateError::Seats {
                game: id.title(),
                wanted,
                given: request.seats.len(),
            });
        }
        let seed = match request.seed {
            Some(seed) => seed,
            None => token::random_u64().map_err(CreateError::Random)?,
        };
        let mut new = NewGame::of(id);
        new.options = game.option_pairs();
        new.seed = Some(seed);
        new.players = request
            .seats
            .iter()
            .enumerate()
            .map(|(i, kind)| match kind {
                SeatKind::Computer => COMPUTER_NAME.to_owned(),
                SeatKind::Human => format!("Player {}", i + 1),
            })
            .collect();
        let mut seats = Vec::new();
        for kind in &request.seats {
            let token = match kind {
                SeatKind::Human => Some(fresh_token()?),
                SeatKind::Computer => None,
            };
            seats.push((*kind, token));
        }
        let spectator = fresh_token()?;
        let store = Arc::clone(&self.store);
        let key = tokio::task::spawn_blocking(move || store.create_game(&new))
            .await
            .map_err(|e| CreateError::Store(format!("its worker failed: {e}")))?
            .map_err(|e| CreateError::Store(e.to_string()))?;
        let created = Created {
            table: key.0,
            seats: seats
                .iter()
                .enumerate()
                .filter_map(|(i, (_, t))| {
                    t.as_ref().map(|t| SeatLink {
                        seat: i as u8,
                        link_token: t.reveal(),
                    })
                })
                .collect(),
            spectator_token: spectator.reveal(),
        };
        let live = Arc::new(LiveTable::new(
            key,
            Table::new(game),
            seed,
            seats,
            spectator,
            Arc::clone(&self.store),
        ));
        live.start()
            .await
            .map_err(|fault| CreateError::Store(fault.message))?;
        if let Ok(mut tables) = self.tables.lock() {
            tables.insert(key, Arc::clone(&live));
        }
        tracing::info!(table = %key, game = %id, "table created");
        live.wake_computer();
        Ok(created)
    }
}

fn fresh_token() -> Result<Token, CreateError> {
    Token::generate().map_err(CreateError::Random)
}

async fn create_table(State(app): State<App>, body: Bytes) -> Result<Response, HttpError> {
    let request: CreateTable = serde_json::from_slice(&body)
        .map_err(|e| HttpError::bad("body", format!("unreadable request: {e}")))?;
    match app.create(request).await {
        Ok(created) => Ok((StatusCode::CREATED, axum::Json(created)).into_response()),
        Err(e) => match e.field() {
            Some(field) => Err(HttpError::bad(field, e.to_string())),
            None => {
                tracing::error!(error = %e, "creating a table failed");
                Err(HttpError::status(
                    StatusCode::SERVICE_UNAVAILABLE,
                    e.to_string(),
                ))
            }
        },
    }
}

/// Whether a WebSocket request's `Origin` (sent by every browser) is the
/// server's own `Host`: a page elsewhere may not open a connection with a
/// token it got hold of. Clients without an `Origin` (scripts) are let in.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.to_str().ok().and_then(|o| {
        o.strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
            .map(|rest| rest.trim_end_matches('/'))
    });
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn connect(
    State(app): State<App>,
    Path(id): Path<i64>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, HttpError> {
    if !same_origin(&headers) {
        return Err(HttpError::status(
            StatusCode::FORBIDDEN,
            "connections from another site's pages are refused",
        ));
    }
    let table = app
        .table(GameKey(id))
        .ok_or_else(|| HttpError::status(StatusCode::NOT_FOUND, format!("no table {id}")))?;
    let token = query
        .token
        .ok_or_else(|| HttpError::status(StatusCode::UNAUTHORIZED, "a token is needed"))?;
    let viewer = table
        .viewer_for(&token)
        .ok_or_else(|| HttpError::status(StatusCode::FORBIDDEN, "this token opens no seat here"))?;
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| play(socket, table, viewer, app.closing.subscribe()))
        .into_response())
}

fn message(value: Value) -> Message {
    Message::Text(value.to_string().into())
}

fn fault_message(fault: &WireFault) -> Message {
    message(json!({"type": "fault", "fault": fault}))
}

async fn view_message(table: &LiveTable, viewer: Viewer) -> Message {
    let view = table.view(viewer).await;
    message(json!({"type": "view", "view": view}))
}

/// One connection: the catalog, the first view, then client requests and a
/// fresh view after every change of the table.
async fn play(
    mut socket: WebSocket,
    table: Arc<LiveTable>,
    viewer: Viewer,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let mut changes = table.subscribe();
    let mut bucket = Bucket::new();
    tracing::info!(table = %table.key(), ?viewer, "connected");
    let catalog = table.catalog().await;
    if socket
        .send(message(json!({"type": "catalog", "catalog": catalog})))
        .await
        .is_err()
    {
        return;
    }
    if socket
        .send(view_message(&table, viewer).await)
        .await
        .is_err()
    {
        return;
    }
    loop {
        if *closing.borrow_and_update() {
            let goodbye = CloseFrame {
                code: close_code::AWAY,
                reason: "the server is shutting down".into(),
            };
            let _ = socket.send(Message::Close(Some(goodbye))).await;
            break;
        }
        tokio::select! {
            _ = closing.changed() => continue,
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let fault = WireFault::new("unreadable", "messages are JSON text");
                        if socket.send(fault_message(&fault)).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    let fault = WireFault::new("too-fast", "too many messages: wait a moment");
                    if socket.send(fault_message(&fault)).await.is_err() {
                        break;
                    }
                    continue;
                }
                let outcome = match serde_json::from_str::<ClientMessage>(text.as_str()) {
                    Ok(ClientMessage::Action { action }) => {
                        table.submit(viewer, Request::Action(action)).await
                    }
                    Ok(ClientMessage::Table { action }) => {
                        table.submit(viewer, Request::Table(action)).await
                    }
                    Err(e) => Err(WireFault::new("unreadable", format!("unreadable message: {e}"))),
                };
                if let Err(fault) = outcome
                    && socket.send(fault_message(&fault)).await.is_err()
                {
                    break;
                }
            }
            change = changes.recv() => {
                match change {
                    Ok(()) | Err(RecvError::Lagged(_)) => {
                        // Several changes may have been announced; one fresh view covers them.
                        while changes.try_recv().is_ok() {}
                        if socket.send(view_message(&table, viewer).await).await.is_err() {
                            break;
                        }
                    }
                    Err(RecvError::Closed) => break,
                }
            }
        }
    }
    tracing::info!(table = %table.key(), ?viewer, "disconnected");
}

/// Serves `app` on `listener` until `shutdown` completes: then it stops
/// accepting, tells every WebSocket the server is going away
/// ([`App::close_connections`]) and finishes the requests in flight.
pub async fn serve(
    listener: TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let closing = app.clone();
    axum::serve(listener, app.router())
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down");
            closing.close_connections();
        })
        .await?;
    Ok(())
}
