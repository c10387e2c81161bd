//! The WebSocket of one viewer at one table: the catalog, then a fresh view
//! (with the table's info and clock) after every change; client messages
//! are actions and table actions, each refused with a typed fault or
//! applied and stored.

use std::sync::Arc;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabula_core::Viewer;
use tabula_games::{ActionInput, TableAction};
use tabula_store::GameKey;
use tokio::sync::broadcast::error::RecvError;

use crate::http::HttpError;
use crate::player::Presented;
use crate::table::{LiveTable, Request, WireFault};
use crate::{App, MAX_MESSAGE};

/// A token bucket: a burst of messages at once, refilled at a rate
/// ([`crate::Limits`]).
struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: tokio::time::Instant,
}

impl Bucket {
    fn new(limits: &crate::Limits) -> Self {
        Bucket {
            tokens: f64::from(limits.message_burst),
            burst: f64::from(limits.message_burst),
            rate: f64::from(limits.messages_per_second),
            last: tokio::time::Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What a client sends over the WebSocket.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
enum ClientMessage {
    Action {
        action: ActionInput,
        /// The ply the client saw when it chose (optional): an action
        /// chosen on an older view is refused as stale.
        #[serde(default)]
        ply: Option<usize>,
    },
    Table {
        action: TableAction,
    },
}

#[derive(Debug, Deserialize)]
pub(crate) struct TokenQuery {
    token: Option<String>,
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

/// `GET /api/tables/{id}/ws?token=T`.
pub(crate) async fn connect(
    State(app): State<App>,
    Path(id): Path<i64>,
    Query(query): Query<TokenQuery>,
    Extension(presented): Extension<Presented>,
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
        .load_table(GameKey(id))
        .await
        .ok_or_else(|| HttpError::status(StatusCode::NOT_FOUND, format!("no table {id}")))?;
    let token = query
        .token
        .ok_or_else(|| HttpError::status(StatusCode::UNAUTHORIZED, "a token is needed"))?;
    let viewer = table
        .viewer_for(&token)
        .ok_or_else(|| HttpError::status(StatusCode::FORBIDDEN, "this token opens no seat here"))?;
    // A browser's player claims the seat it opens; a claimed seat opens
    // only for its player.
    if let (Viewer::Player(seat), Some(player)) = (viewer, presented.known()) {
        table
            .claim(seat, player)
            .await
            .map_err(|f| HttpError::status(StatusCode::FORBIDDEN, f.message))?;
    } else if let Viewer::Player(seat) = viewer
        && table.claims().await[seat.index()].is_some()
    {
        return Err(HttpError::status(
            StatusCode::FORBIDDEN,
            "another player has taken this seat",
        ));
    }
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        // Clients send small messages; the default 128 KiB read buffer is
        // zeroed on every read and held by every connection.
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| play(socket, app, table, viewer))
        .into_response())
}

/// The WebSocket read buffer: a client's messages are actions of a few
/// hundred bytes (longer ones take several reads, up to [`MAX_MESSAGE`]).
const READ_BUFFER: usize = 4 * 1024;

fn message(value: Value) -> Message {
    Message::Text(value.to_string().into())
}

fn fault_message(fault: &WireFault) -> Message {
    message(json!({"type": "fault", "fault": fault}))
}

/// The view message, written straight to text around the viewer's
/// already encoded view (shared by its connections).
async fn view_message(table: &LiveTable, viewer: Viewer) -> Message {
    #[derive(Serialize)]
    struct Info<'a> {
        table: i64,
        you: Option<usize>,
        seats: &'a [crate::table::SeatInfo],
    }
    let parts = match table.view_parts(viewer).await {
        Ok(parts) => parts,
        Err(fault) => return fault_message(&fault),
    };
    let info = Info {
        table: table.key().0,
        you: match viewer {
            Viewer::Player(p) => Some(p.index()),
            _ => None,
        },
        seats: &parts.seats,
    };
    let mut text = String::with_capacity(parts.view.len() + 512);
    text.push_str(r#"{"type":"view","view":"#);
    text.push_str(&parts.view);
    text.push_str(r#","info":"#);
    // Plain structs of numbers and strings: encoding cannot fail.
    text.push_str(&serde_json::to_string(&info).unwrap_or_else(|_| "null".to_owned()));
    if let Some(clock) = &parts.clock {
        text.push_str(r#","clock":"#);
        text.push_str(&serde_json::to_string(clock).unwrap_or_else(|_| "null".to_owned()));
    }
    text.push('}');
    Message::Text(text.into())
}

async fn rematch_message(
    app: &App,
    table: &Arc<LiveTable>,
    viewer: Viewer,
) -> Result<Message, WireFault> {
    let (id, tokens, spectator) = app.rematch(table).await?;
    let token = match viewer {
        Viewer::Player(seat) => tokens.get(seat.index()).cloned().flatten(),
        _ => Some(spectator),
    };
    Ok(message(
        json!({"type": "rematch", "table": id, "token": token}),
    ))
}

/// One connection: the catalog, the first view, then client requests and a
/// fresh view after every change of the table.
async fn play(mut socket: WebSocket, app: App, table: Arc<LiveTable>, viewer: Viewer) {
    let mut closing = app.closing.subscribe();
    let mut changes = table.subscribe();
    let mut bucket = Bucket::new(&app.limits);
    let mut told_rematch = table.rematch().await.is_some();
    tracing::info!(table = %table.key(), ?viewer, "connected");
    let catalog = match table.catalog_message().await {
        Ok(text) => Message::Text(text.to_string().into()),
        Err(fault) => fault_message(&fault),
    };
    if socket.send(catalog).await.is_err() {
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
                    Ok(ClientMessage::Action { action, ply }) => {
                        table.submit_seen(viewer, Request::Action(action), ply).await
                    }
                    Ok(ClientMessage::Table { action: TableAction::Rematch }) => {
                        match rematch_message(&app, &table, viewer).await {
                            Ok(reply) => {
                                told_rematch = true;
                                if socket.send(reply).await.is_err() {
                                    break;
                                }
                                Ok(())
                            }
                            Err(fault) => Err(fault),
                        }
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
                        if !told_rematch && table.rematch().await.is_some() {
                            told_rematch = true;
                            match rematch_message(&app, &table, viewer).await {
                                Ok(reply) => {
                                    if socket.send(reply).await.is_err() {
                                        break;
                                    }
                                }
                                Err(fault) => tracing::error!(kind = %fault.kind, "rematch not told"),
                            }
                        }
                    }
                    Err(RecvError::Closed) => break,
                }
            }
        }
    }
    tracing::info!(table = %table.key(), ?viewer, "disconnected");
}
