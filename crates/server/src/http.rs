//! The HTTP routes: games, seats, creating tables, a player's tables, a
//! table's record and its past views. Every refusal is a status with a
//! JSON body `{"error", "field"?}` naming what is wrong.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tabula_core::{GameId, Viewer};
use tabula_store::GameKey;
use utoipa::ToSchema;

use crate::player::Presented;
use crate::table::{Level, WireFault};
use crate::{App, Asker, CreateTable};

/// A refused HTTP request: status and a JSON body naming what is wrong.
#[derive(Debug)]
pub(crate) struct HttpError {
    status: StatusCode,
    field: Option<&'static str>,
    message: String,
}

impl HttpError {
    pub(crate) fn bad(field: &'static str, message: impl Into<String>) -> Self {
        HttpError {
            status: StatusCode::BAD_REQUEST,
            field: Some(field),
            message: message.into(),
        }
    }

    pub(crate) fn status(status: StatusCode, message: impl Into<String>) -> Self {
        HttpError {
            status,
            field: None,
            message: message.into(),
        }
    }

    fn fault(fault: WireFault) -> Self {
        let status = match fault.kind.as_str() {
            "unavailable" => StatusCode::SERVICE_UNAVAILABLE,
            "not-your-turn" => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        };
        HttpError::status(status, fault.message)
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            field: self.field.map(str::to_owned),
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// The body of every refused request.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What is wrong, in words.
    pub error: String,
    /// The request field at fault, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// A game option as `tabula games` lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOption {
    /// Its key (`mode`).
    pub key: String,
    /// The values it takes, for people (`basic|advanced`, `integer`).
    pub values: String,
    /// The book's value.
    pub default: String,
    /// What it changes.
    pub help: String,
}

/// One game in `GET /api/games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameEntry {
    /// The game id.
    pub id: String,
    /// Its full name.
    pub title: String,
    /// Its options.
    pub options: Vec<GameOption>,
    /// The computer levels a seat may have.
    pub levels: Vec<String>,
}

/// One seat in `GET /api/games/{id}/seats`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatEntry {
    /// The seat, from 0.
    pub seat: u8,
    /// Its name ("White").
    pub name: String,
    /// Its team.
    pub team: u8,
}

/// The answer of `GET /api/games/{id}/seats`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Seats {
    /// The seats in order.
    pub seats: Vec<SeatEntry>,
}

/// A seat in `GET /api/me/tables`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MySeat {
    /// The seat.
    pub seat: u8,
    /// Its name.
    pub name: String,
    /// `human`, or `computer:LEVEL`.
    #[schema(value_type = String)]
    pub kind: crate::SeatKind,
    /// Whether a player holds it.
    pub claimed: bool,
    /// Whether the asking player does.
    pub mine: bool,
    /// Its secret: for the player's own seats, and for the creator the
    /// seats nobody has claimed (invite links).
    pub token: Option<String>,
}

/// A table in `GET /api/me/tables`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyTable {
    /// The table's id.
    pub table: i64,
    /// The game id.
    pub game: String,
    /// The game's name.
    pub title: String,
    /// Its seats.
    pub seats: Vec<MySeat>,
    /// The spectators' secret, for the creator.
    pub spectator_token: Option<String>,
    /// Whether the game is over.
    pub finished: bool,
    /// The result in words, once over.
    pub result: Option<String>,
    /// Whether one of the player's seats is to decide.
    pub to_act: bool,
}

/// The answer of `GET /api/tables/{id}/views`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PastView {
    /// The `TableView` (docs/protocol.md section 2), read-only.
    #[schema(value_type = Object)]
    pub view: tabula_games::TableView,
}

/// Every game with its options and the computer levels.
#[utoipa::path(get, path = "/api/games", responses((status = 200, body = Vec<GameEntry>)))]
pub(crate) async fn games() -> Response {
    let levels: Vec<String> = Level::PLAYABLE.iter().map(|l| l.to_string()).collect();
    let games: Vec<GameEntry> = GameId::ALL
        .iter()
        .map(|id| GameEntry {
            id: id.to_string(),
            title: id.title().to_owned(),
            options: tabula_games::option_specs(*id)
                .iter()
                .map(|o| GameOption {
                    key: o.key.to_owned(),
                    values: o.values.to_owned(),
                    default: o.default.to_owned(),
                    help: o.help.to_owned(),
                })
                .collect(),
            levels: levels.clone(),
        })
        .collect();
    axum::Json(games).into_response()
}

fn game_id(text: &str) -> Result<GameId, HttpError> {
    text.parse()
        .map_err(|e: tabula_core::UnknownGame| HttpError::bad("game", e.to_string()))
}

/// The seats a game has with these options (`?OPTION=VALUE...`).
#[utoipa::path(get, path = "/api/games/{id}/seats",
    params(("id" = String, Path, description = "A game id")),
    responses((status = 200, body = Seats), (status = 400, body = ErrorBody)))]
pub(crate) async fn seats(
    Path(id): Path<String>,
    Query(options): Query<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    let id = game_id(&id)?;
    let mut options: Vec<(String, String)> = options.into_iter().collect();
    options.sort();
    let seats =
        App::seat_names(id, &options).map_err(|e| HttpError::bad("options", e.to_string()))?;
    let seats = seats
        .into_iter()
        .map(|(p, name, team)| SeatEntry {
            seat: p.index() as u8,
            name,
            team,
        })
        .collect();
    Ok(axum::Json(Seats { seats }).into_response())
}

/// Creates a table (docs/api.md); the request's player is its creator.
#[utoipa::path(post, path = "/api/tables", request_body = crate::CreateTable,
    responses((status = 201, body = crate::Created), (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub(crate) async fn create_table(
    State(app): State<App>,
    Extension(presented): Extension<Presented>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Result<Response, HttpError> {
    let request: CreateTable = serde_json::from_slice(&body)
        .map_err(|e| HttpError::bad("body", format!("unreadable request: {e}")))?;
    let asker = Asker {
        player: presented.token.clone(),
        address: Some(peer.ip()),
    };
    match app.create_for(request, asker).await {
        Ok(created) => Ok((StatusCode::CREATED, axum::Json(created)).into_response()),
        Err(e) => match e.field() {
            Some(field) => Err(HttpError::bad(field, e.to_string())),
            None if matches!(e, crate::CreateError::TooMany(_)) => Err(HttpError::status(
                StatusCode::TOO_MANY_REQUESTS,
                e.to_string(),
            )),
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

/// The tables the asking player created or sits at, newest first, with the
/// secrets of the seats that are theirs (and, for the tables they created,
/// of the seats nobody has claimed yet: the invite links).
#[utoipa::path(get, path = "/api/me/tables", responses((status = 200, body = Vec<MyTable>)))]
pub(crate) async fn my_tables(
    State(app): State<App>,
    Extension(presented): Extension<Presented>,
) -> Response {
    let Some(me) = presented.known() else {
        return axum::Json(Vec::<MyTable>::new()).into_response();
    };
    let mut out = Vec::new();
    for table in app.all_tables() {
        let (created, mine) = table.seats_of(me).await;
        if !created && mine.is_empty() {
            continue;
        }
        let fixed = table.fixed();
        let infos = table.seat_infos().await;
        let to_act = table.to_act().await;
        let seats = infos
            .iter()
            .map(|info| {
                let index = info.seat as usize;
                let own = mine.iter().any(|p| p.index() == index);
                MySeat {
                    seat: info.seat,
                    name: info.name.clone(),
                    kind: info.kind,
                    claimed: info.claimed,
                    mine: own,
                    token: fixed.tokens[index]
                        .as_ref()
                        .filter(|_| own || (created && !info.claimed))
                        .map(|t| t.reveal()),
                }
            })
            .collect();
        let result = table.result().await;
        out.push(MyTable {
            table: table.key().0,
            game: table.game_id().to_string(),
            title: table.game_id().title().to_owned(),
            seats,
            spectator_token: created.then(|| fixed.spectator.reveal()),
            finished: result.is_some(),
            result,
            to_act: to_act.is_some_and(|p| mine.contains(&p)),
        });
    }
    axum::Json(out).into_response()
}

#[derive(Debug, Deserialize)]
pub(crate) struct ViewerQuery {
    token: Option<String>,
    ply: Option<usize>,
}

async fn viewer(
    app: &App,
    id: i64,
    token: Option<&str>,
) -> Result<(std::sync::Arc<crate::LiveTable>, Viewer), HttpError> {
    let table = app
        .load_table(GameKey(id))
        .await
        .ok_or_else(|| HttpError::status(StatusCode::NOT_FOUND, format!("no table {id}")))?;
    let token =
        token.ok_or_else(|| HttpError::status(StatusCode::UNAUTHORIZED, "a token is needed"))?;
    let viewer = table
        .viewer_for(token)
        .ok_or_else(|| HttpError::status(StatusCode::FORBIDDEN, "this token opens no seat here"))?;
    Ok((table, viewer))
}

/// The game's record as text (a seat's own for hidden-information games).
#[utoipa::path(get, path = "/api/tables/{id}/record",
    params(("id" = i64, Path, description = "The table"), ("token" = String, Query, description = "A seat's or the spectators' secret")),
    responses((status = 200, content_type = "text/plain", body = String),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn record(
    State(app): State<App>,
    Path(id): Path<i64>,
    Query(query): Query<ViewerQuery>,
) -> Result<Response, HttpError> {
    let (table, viewer) = viewer(&app, id, query.token.as_deref()).await?;
    let text = table.record(viewer).await.map_err(HttpError::fault)?;
    let name = format!(
        "attachment; filename=\"tabula-{}-{id}.txt\"",
        table.game_id()
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, name),
        ],
        text,
    )
        .into_response())
}

/// The table as the token's viewer knew it `ply` actions in, read-only.
#[utoipa::path(get, path = "/api/tables/{id}/views",
    params(("id" = i64, Path, description = "The table"), ("token" = String, Query, description = "A seat's or the spectators' secret"),
        ("ply" = usize, Query, description = "How many actions in (0 = the start)")),
    responses((status = 200, body = PastView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn view_at(
    State(app): State<App>,
    Path(id): Path<i64>,
    Query(query): Query<ViewerQuery>,
) -> Result<Response, HttpError> {
    let (table, viewer) = viewer(&app, id, query.token.as_deref()).await?;
    let ply = query
        .ply
        .ok_or_else(|| HttpError::bad("ply", "which ply: ?ply=N"))?;
    let view = table.view_at(viewer, ply).await.map_err(HttpError::fault)?;
    Ok(axum::Json(PastView { view }).into_response())
}

/// The OpenAPI description of the HTTP API, generated from the handlers.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "tabula",
        description = "The tabula game server's HTTP API. The WebSocket at /api/tables/{id}/ws?token=T and its messages are described in docs/api.md with a JSON Schema per message (docs/schemas)."
    ),
    paths(games, seats, create_table, my_tables, record, view_at),
    components(schemas(
        ErrorBody,
        GameEntry,
        GameOption,
        Seats,
        SeatEntry,
        MyTable,
        MySeat,
        PastView,
        crate::CreateTable,
        crate::Created,
        crate::SeatLink,
        crate::ClockSettings
    ))
)]
pub struct ApiDoc;

/// The OpenAPI description as JSON.
pub(crate) async fn openapi() -> Response {
    axum::Json(<ApiDoc as utoipa::OpenApi>::openapi()).into_response()
}
