//! The tabula game server: tables over HTTP and WebSocket, every change
//! stored through `tabula-store` before it is acknowledged (`docs/api.md`).
//!
//! [`App`] holds the live tables in memory in front of a [`Store`];
//! [`App::router`] is its axum router and [`serve`] runs it on a listener
//! until a shutdown signal.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tabula_core::{GameId, Player};
use tabula_games::{AnyGame, Table};
use tabula_store::{GameKey, NewGame, Store};
use thiserror::Error;
use tokio::net::TcpListener;

mod assets;
mod clock;
pub mod http;
mod meta;
pub mod player;
mod table;
mod token;
mod ws;

pub use clock::{ClockSettings, ClockView};
pub use http::ApiDoc;
pub use meta::ResumeError;
pub use table::{Level, LiveTable, Request, SeatInfo, SeatKind, WireFault};
pub use token::Token;

use table::Setup;

/// The name computer seats are stored under (the same as `tabula play`'s).
pub const COMPUTER_NAME: &str = "tabula computer";

/// The largest WebSocket message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The largest HTTP request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The limits a server enforces besides message size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How many unfinished tables one client address may have created.
    pub open_tables_per_address: usize,
    /// How many messages a connection may send in a burst.
    pub message_burst: u32,
    /// How many messages a second a connection may send, sustained.
    pub messages_per_second: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            open_tables_per_address: 100,
            message_burst: 40,
            messages_per_second: 20,
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
    limits: Limits,
    /// Set once the server is shutting down: every connection says goodbye.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
    /// Set once the store's change notifications are followed
    /// ([`App::hear_changes`]): tables then note the notifications their
    /// own writes will echo, so as not to reload on them.
    hearing: Arc<std::sync::atomic::AtomicBool>,
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
    /// The clock's settings are out of bounds.
    #[error("{0}")]
    Clock(String),
    /// This address has too many unfinished tables.
    #[error("this address already has {0} unfinished tables: finish or resign some first")]
    TooMany(usize),
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
            CreateError::Clock(_) => Some("clock"),
            CreateError::TooMany(_) | CreateError::Random(_) | CreateError::Store(_) => None,
        }
    }
}

/// `POST /api/tables`: what a table is created with.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The game id.
    pub game: String,
    /// Options that differ from the book's game.
    #[serde(default)]
    pub options: HashMap<String, String>,
    /// Who sits in each seat, in seat order: `human`, `computer` or
    /// `computer:LEVEL`.
    #[schema(value_type = Vec<String>)]
    pub seats: Vec<SeatKind>,
    /// The seed of the chance stream (random when absent).
    #[serde(default)]
    pub seed: Option<u64>,
    /// A clock, if the table is timed.
    #[serde(default)]
    pub clock: Option<ClockSettings>,
}

/// One human seat's link secret in [`Created`].
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatLink {
    /// The seat, from 0.
    pub seat: u8,
    /// The secret that acts for it.
    pub link_token: String,
}

/// The answer to `POST /api/tables`.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Created {
    /// The table's id.
    pub table: i64,
    /// The human seats' secrets.
    pub seats: Vec<SeatLink>,
    /// The secret that watches.
    pub spectator_token: String,
}

/// Who asks for a table and from where.
#[derive(Debug, Clone, Default)]
pub(crate) struct Asker {
    pub player: Option<Token>,
    pub address: Option<IpAddr>,
}

impl App {
    /// An app with no live tables, storing in `store`, with the default
    /// limits.
    pub fn new(store: Arc<dyn Store + Send + Sync>) -> Self {
        App::with_limits(store, Limits::default())
    }

    /// An app with these limits.
    pub fn with_limits(store: Arc<dyn Store + Send + Sync>, limits: Limits) -> Self {
        App {
            store,
            tables: Arc::new(Mutex::new(HashMap::new())),
            limits,
            closing: Arc::new(tokio::sync::watch::channel(false).0),
            hearing: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        }
    }

    /// The HTTP and WebSocket routes (`docs/api.md`).
    pub fn router(&self) -> Router {
        Router::new()
            .route("/api/openapi.json", get(http::openapi))
            .route("/api/games", get(http::games))
            .route("/api/games/{id}/seats", get(http::seats))
            .route("/api/tables", post(http::create_table))
            .route("/api/me/tables", get(http::my_tables))
            .route("/api/tables/{id}/record", get(http::record))
            .route("/api/tables/{id}/views", get(http::view_at))
            .route("/api/tables/{id}/ws", get(ws::connect))
            .merge(assets::router())
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .layer(axum::middleware::from_fn(player::identify))
            .with_state(self.clone())
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

    pub(crate) fn all_tables(&self) -> Vec<Arc<LiveTable>> {
        let mut all: Vec<_> = self
            .tables
            .lock()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default();
        all.sort_by_key(|t| std::cmp::Reverse(t.key()));
        all
    }

    /// Creates a table: checks the request, stores the new game, seats it
    /// in memory and lets a computer seat that moves first play.
    pub async fn create(&self, request: CreateTable) -> Result<Created, CreateError> {
        self.create_for(request, Asker::default()).await
    }

    pub(crate) async fn create_for(
        &self,
        request: CreateTable,
        asker: Asker,
    ) -> Result<Created, CreateError> {
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
        if let Some(clock) = &request.clock {
            clock.check().map_err(CreateError::Clock)?;
        }
        if let Some(address) = asker.address {
            let mut open = 0;
            for table in self.all_tables() {
                if table.address == Some(address) && table.result().await.is_none() {
                    open += 1;
                }
            }
            if open >= self.limits.open_tables_per_address {
                return Err(CreateError::TooMany(open));
            }
        }
        let seed = match request.seed {
            Some(seed) => seed,
            None => token::random_u64().map_err(CreateError::Random)?,
        };
        let mut tokens = Vec::new();
        for kind in &request.seats {
            tokens.push(match kind {
                SeatKind::Human => Some(fresh_token()?),
                SeatKind::Computer(_) => None,
            });
        }
        let setup = Setup {
            game: id,
            options: game.option_pairs(),
            seed,
            claims: vec![None; request.seats.len()],
            seats: request.seats,
            tokens,
            spectator: fresh_token()?,
            creator: asker.player,
            clock: request.clock,
            created_ms: clock::now_ms(),
            rematch: None,
            draw_offer: None,
        };
        self.open(setup, asker.address).await
    }

    /// Stores a new game for `setup`, seats it and starts it.
    async fn open(&self, setup: Setup, address: Option<IpAddr>) -> Result<Created, CreateError> {
        let game = table::fresh_game(&setup).map_err(CreateError::Options)?;
        let mut new = NewGame::of(setup.game);
        new.options = setup.options.clone();
        new.seed = Some(setup.seed);
        new.players = setup
            .seats
            .iter()
            .enumerate()
            .map(|(i, kind)| match kind {
                SeatKind::Computer(_) => COMPUTER_NAME.to_owned(),
                SeatKind::Human => format!("Player {}", i + 1),
            })
            .collect();
        let store = Arc::clone(&self.store);
        let key = tokio::task::spawn_blocking(move || store.create_game(&new))
            .await
            .map_err(|e| CreateError::Store(format!("its worker failed: {e}")))?
            .map_err(|e| CreateError::Store(e.to_string()))?;
        meta::save(&self.store, key, &setup)
            .await
            .map_err(|f| CreateError::Store(f.message))?;
        let created = Created {
            table: key.0,
            seats: setup
                .tokens
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    t.as_ref().map(|t| SeatLink {
                        seat: i as u8,
                        link_token: t.reveal(),
                    })
                })
                .collect(),
            spectator_token: setup.spectator.reveal(),
        };
        let seats = setup.seats.len();
        let clock = setup.clock.map(|c| clock::Clock::new(c, seats));
        let chance = tabula_core::GameRng::from_seed(tabula_core::Seed(setup.seed));
        let live = LiveTable::new(
            key,
            Table::new(game),
            chance,
            setup,
            clock,
            address,
            Arc::clone(&self.store),
            Arc::clone(&self.hearing),
        );
        live.start()
            .await
            .map_err(|fault| CreateError::Store(fault.message))?;
        if let Ok(mut tables) = self.tables.lock() {
            tables.insert(key, Arc::clone(&live));
        }
        tracing::info!(table = %key, game = %live.game_id(), "table created");
        live.wake_computer();
        Ok(created)
    }

    /// The rematch of a finished table: same game and options, seats
    /// turned one place (two seats swap; in a four-seat game the teams
    /// swap), each seat's claim going with its player. Asked twice, the
    /// same table. Answers the new table's id and, per old seat, the
    /// token of the seat its player now holds.
    pub(crate) async fn rematch(
        &self,
        old: &Arc<LiveTable>,
    ) -> Result<(i64, Vec<Option<String>>, String), WireFault> {
        if old.result().await.is_none() {
            return Err(WireFault::new(
                "illegal",
                "a rematch is for a finished game",
            ));
        }
        let _guard = old.rematch_lock().await;
        let new_key = match old.rematch().await {
            Some(id) => id,
            None => {
                let setup = old.fixed().clone();
                let claims = old.claims().await;
                let n = setup.seats.len();
                // New seat j is held by the player of old seat j + 1.
                let from = |j: usize| (j + 1) % n;
                let mut tokens = Vec::new();
                for j in 0..n {
                    tokens.push(match setup.seats[from(j)] {
                        SeatKind::Human => Some(
                            fresh_token()
                                .map_err(|e| WireFault::new("unavailable", e.to_string()))?,
                        ),
                        SeatKind::Computer(_) => None,
                    });
                }
                let next = Setup {
                    seats: (0..n).map(|j| setup.seats[from(j)]).collect(),
                    claims: (0..n).map(|j| claims[from(j)].clone()).collect(),
                    tokens,
                    spectator: fresh_token()
                        .map_err(|e| WireFault::new("unavailable", e.to_string()))?,
                    seed: token::random_u64()
                        .map_err(|e| WireFault::new("unavailable", e.to_string()))?,
                    created_ms: clock::now_ms(),
                    rematch: None,
                    draw_offer: None,
                    ..setup
                };
                let created = self
                    .open(next, old.address)
                    .await
                    .map_err(|e| WireFault::new("unavailable", e.to_string()))?;
                old.set_rematch(created.table).await?;
                created.table
            }
        };
        let new = self
            .table(GameKey(new_key))
            .ok_or_else(|| WireFault::new("unavailable", "the rematch table is gone"))?;
        let n = new.fixed().seats.len();
        let tokens = (0..n)
            .map(|i| {
                let j = (i + n - 1) % n;
                new.fixed().tokens[j].as_ref().map(Token::reveal)
            })
            .collect();
        Ok((new_key, tokens, new.fixed().spectator.reveal()))
    }

    /// The seat names a game seats with these options.
    pub fn seat_names(
        id: GameId,
        options: &[(String, String)],
    ) -> Result<Vec<(Player, String, u8)>, tabula_games::AnyError> {
        let game = AnyGame::new(id, options)?;
        let seating = game.seating();
        Ok(seating
            .players()
            .map(|p| {
                let team = seating.team(p).map(|t| t.0).unwrap_or(0);
                (p, game.player_name(p), team)
            })
            .collect())
    }
}

fn fresh_token() -> Result<Token, CreateError> {
    Token::generate().map_err(CreateError::Random)
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
    axum::serve(
        listener,
        app.router()
            .into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        tracing::info!("shutting down");
        closing.close_connections();
    })
    .await?;
    Ok(())
}
