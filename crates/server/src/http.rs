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
use serde::Deserialize;
use serde_json::{Value, json};
use tabula_core::{GameId, Viewer};
use tabula_store::GameKey;

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
        let body = match self.field {
            Some(field) => json!({"error": self.message, "field": field}),
            None => json!({"error": self.message}),
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// `GET /api/games`: every game with its options and the computer levels.
pub(crate) async fn games() -> Response {
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    let games: Vec<Value> = GameId::ALL
        .iter()
        .map(|id| {
            let options: Vec<Value> = tabula_games::option_specs(*id)
                .iter()
                .map(|o| {
                    json!({"key": o.key, "values": o.values, "default": o.default, "help": o.help})
                })
                .collect();
            json!({"id": id.to_string(), "title": id.title(), "options": options, "levels": levels})
        })
        .collect();
    axum::Json(games).into_response()
}

fn game_id(text: &str) -> Result<GameId, HttpError> {
    text.parse()
        .map_err(|e: tabula_core::UnknownGame| HttpError::bad("game", e.to_string()))
}

/// `GET /api/games/{id}/seats?OPTION=VALUE...`: the seats these options give.
pub(crate) async fn seats(
    Path(id): Path<String>,
    Query(options): Query<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    let id = game_id(&id)?;
    let mut options: Vec<(String, String)> = options.into_iter().collect();
    options.sort();
    let seats =
        App::seat_names(id, &options).map_err(|e| HttpError::bad("options", e.to_string()))?;
    let seats: Vec<Value> = seats
        .into_iter()
        .map(|(p, name, team)| json!({"seat": p.index(), "name": name, "team": team}))
        .collect();
    Ok(axum::Json(json!({"seats": seats})).into_response())
}

/// `POST /api/tables`.
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

/// `GET /api/me/tables`: the tables the asking player created or sits at,
/// newest first, with the secrets of the seats that are theirs (and, for
/// the tables they created, of the seats nobody has claimed yet: the
/// invite links).
pub(crate) async fn my_tables(
    State(app): State<App>,
    Extension(presented): Extension<Presented>,
) -> Response {
    let Some(me) = presented.known() else {
        return axum::Json(Vec::<Value>::new()).into_response();
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
        let seats: Vec<Value> = infos
            .iter()
            .map(|info| {
                let index = info.seat as usize;
                let own = mine.iter().any(|p| p.index() == index);
                let token = fixed.tokens[index]
                    .as_ref()
                    .filter(|_| own || (created && !info.claimed))
                    .map(|t| t.reveal());
                json!({
                    "seat": info.seat, "name": info.name, "kind": info.kind,
                    "claimed": info.claimed, "mine": own, "token": token,
                })
            })
            .collect();
        let result = table.result().await;
        out.push(json!({
            "table": table.key().0,
            "game": table.game_id().to_string(),
            "title": table.game_id().title(),
            "seats": seats,
            "spectator_token": created.then(|| fixed.spectator.reveal()),
            "finished": result.is_some(),
            "result": result,
            "to_act": to_act.is_some_and(|p| mine.contains(&p)),
        }));
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

/// `GET /api/tables/{id}/record?token=T`: the game's record as text.
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

/// `GET /api/tables/{id}/views?token=T&ply=N`: the view `ply` actions in.
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
    Ok(axum::Json(json!({"view": view})).into_response())
}
