//! One table on the server: the [`Table`] in memory, its chance stream,
//! its seat secrets and claims, its clock, and the channel that tells every
//! connection it changed. Every change is appended to the store before it
//! is made in memory and announced.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use tabula_core::{GameId, GameRng, Outcome, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionInput, AnyGame, Fault, Table, TableAction, TableView};
use tabula_store::{GameKey, Store, StoreError};
use tokio::sync::{Mutex, broadcast};

use crate::clock::{Clock, ClockSettings, ClockView, now_ms};
use crate::token::Token;

/// The computer's own stream is the table seed mixed with this and the
/// ply, so the record's seed promises its chance outcomes and nothing else,
/// and a restarted server thinks what it would have thought.
const COMPUTER_STREAM: u64 = 0x5eed_c0ff_ee00_0001;

pub use tabula_ai::Level;

/// Who sits in a seat: on the wire `"human"`, `"computer"` (the medium
/// level) or `"computer:LEVEL"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeatKind {
    /// A person, who connects with the seat's link token.
    Human,
    /// The computer, at a level.
    Computer(Level),
}

impl SeatKind {
    /// The wire name.
    pub fn name(self) -> String {
        match self {
            SeatKind::Human => "human".to_owned(),
            SeatKind::Computer(level) => format!("computer:{}", level.as_str()),
        }
    }
}

impl std::str::FromStr for SeatKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.split_once(':') {
            None if text == "human" => Ok(SeatKind::Human),
            None if text == "computer" => Ok(SeatKind::Computer(Level::Medium)),
            Some(("computer", level)) => {
                level.parse::<Level>().map(SeatKind::Computer).map_err(|_| {
                    format!(
                        "no computer level '{level}' (easy, medium, hard, expert; random, greedy)"
                    )
                })
            }
            _ => Err(format!(
                "a seat is \"human\", \"computer\" or \"computer:LEVEL\", not '{text}'"
            )),
        }
    }
}

impl Serialize for SeatKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for SeatKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A refusal as it goes on the wire: the table protocol's fault kinds
/// (`unreadable`, `illegal`, `ambiguous`, `not-your-turn`, `game-over`)
/// and the server's own `unavailable` (the store failed; nothing changed),
/// `too-fast` and `stale`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WireFault {
    /// Why, for programs.
    pub kind: String,
    /// Why, for people.
    pub message: String,
}

impl WireFault {
    pub(crate) fn new(kind: &str, message: impl Into<String>) -> Self {
        WireFault {
            kind: kind.to_owned(),
            message: message.into(),
        }
    }

    pub(crate) fn store(error: &StoreError) -> Self {
        tracing::error!(%error, "store refused a table change");
        WireFault::new("unavailable", format!("the game store failed: {error}"))
    }
}

impl From<Fault> for WireFault {
    fn from(fault: Fault) -> Self {
        let kind = serde_json::to_value(fault.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| "illegal".to_owned());
        WireFault {
            kind,
            message: fault.message,
        }
    }
}

/// What a connection asks of the table.
#[derive(Debug, Clone)]
pub enum Request {
    /// A game action, as text or JSON.
    Action(ActionInput),
    /// A table action.
    Table(TableAction),
}

/// What a table is made of besides its game: stored with it as its
/// metadata (`Store::set_meta`) so a restarted server seats it again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Setup {
    /// The game.
    pub game: GameId,
    /// Its options, as stored.
    pub options: Vec<(String, String)>,
    /// The chance stream's seed.
    pub seed: u64,
    /// Who sits where.
    pub seats: Vec<SeatKind>,
    /// Each human seat's secret.
    pub tokens: Vec<Option<Token>>,
    /// The spectators' secret.
    pub spectator: Token,
    /// The player each seat was claimed by.
    pub claims: Vec<Option<Token>>,
    /// The player who created the table.
    pub creator: Option<Token>,
    /// The clock, if any.
    pub clock: Option<ClockSettings>,
    /// When the table was created (ms since the Unix epoch).
    pub created_ms: i64,
    /// The rematch table, once asked for.
    #[serde(default)]
    pub rematch: Option<i64>,
    /// The draw offer last made or declined: the team, and the number of
    /// actions when it was made (it still stands if nobody of the other
    /// team has acted since).
    #[serde(default)]
    pub draw_offer: Option<StoredOffer>,
}

/// A draw offer as the setup stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredOffer {
    pub team: tabula_core::Team,
    pub ply: usize,
}

/// A seat as `GET /api/me/tables` and the `info` of a view name it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatInfo {
    /// The seat.
    pub seat: u8,
    /// Its name in the game ("White").
    pub name: String,
    /// Who sits there.
    pub kind: SeatKind,
    /// Whether a player has claimed it.
    pub claimed: bool,
}

struct State {
    table: Table,
    chance: GameRng,
    clock: Option<Clock>,
    /// Counts changes, so a flag timer knows whether it is still current.
    generation: u64,
    setup: Setup,
    /// Views already encoded at this generation, one per viewer: every
    /// connection of a viewer shares one encoding per change.
    views: ViewCache,
}

#[derive(Default)]
struct ViewCache {
    generation: u64,
    texts: Vec<(Viewer, Arc<str>)>,
}

/// What a connection sends after a change, read under one lock: the
/// viewer's view as JSON text (shared), the seats and the clock.
pub(crate) struct ViewParts {
    pub view: Arc<str>,
    pub seats: Vec<SeatInfo>,
    pub clock: Option<ClockView>,
}

/// One live table.
pub struct LiveTable {
    key: GameKey,
    me: Weak<LiveTable>,
    /// Who created it, from where (for the open-tables limit; never stored).
    pub(crate) address: Option<IpAddr>,
    state: Mutex<State>,
    changed: broadcast::Sender<()>,
    store: Arc<dyn Store + Send + Sync>,
    /// A copy of the fixed parts of the setup, readable without the lock.
    fixed: Setup,
    /// Held while a rematch is made, so two askers get one table.
    rematching: Mutex<()>,
    /// The catalog message, once encoded (the game and its options are fixed).
    catalog_text: std::sync::OnceLock<Arc<str>>,
    /// Whether the store's notifications are followed (the app's flag).
    hearing: Arc<AtomicBool>,
    /// The action counts the notifications of this server's own writes
    /// will carry, oldest first, while they are followed.
    echoes: std::sync::Mutex<VecDeque<u64>>,
}

/// At most this many echoes are awaited per table: more means some were
/// lost (they are cleared on every reload anyway).
const MAX_ECHOES: usize = 256;

impl std::fmt::Debug for LiveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveTable").field("key", &self.key).finish()
    }
}

/// A new table from its setup: the game at its start, the chance stream at
/// its seed.
pub(crate) fn fresh_game(setup: &Setup) -> Result<AnyGame, tabula_games::AnyError> {
    AnyGame::new(setup.game, &setup.options)
}

/// Replays stored actions from the start, drawing the chance stream as the
/// live table did (one draw per chance outcome), so the stream continues
/// where it stood; with the actions' times, the clock as it stood at the
/// last of them.
pub(crate) fn replay(
    setup: &Setup,
    actions: &[String],
    times: Option<&[Option<i64>]>,
) -> Result<(Table, GameRng, Option<Clock>), WireFault> {
    let game = fresh_game(setup).map_err(|e| WireFault::new("unavailable", e.to_string()))?;
    let mut table = Table::new(game);
    let mut chance = GameRng::from_seed(Seed(setup.seed));
    let mut clock = setup
        .clock
        .filter(|_| times.is_some())
        .map(|c| Clock::new(c, setup.seats.len()));
    let mut at = setup.created_ms;
    if let Some(clock) = &mut clock {
        clock.advance(None, player_to_act(&table), at);
    }
    for (ply, action) in actions.iter().enumerate() {
        let decider = match table.to_act() {
            ToAct::Chance => {
                let drawn = table.game().sample_chance(&mut chance);
                if drawn.as_ref().map(|d| d.canonical.as_str()) != Some(action.as_str()) {
                    tracing::warn!(ply, "a stored chance outcome is not the seed's");
                }
                None
            }
            ToAct::Player { player } => Some(player),
            ToAct::Over { .. } => None,
        };
        table
            .replay(&ActionInput::Text(action.clone()))
            .map_err(|f| {
                WireFault::new(
                    "unavailable",
                    format!("stored ply {ply} does not replay: {}", f.message),
                )
            })?;
        if let Some(clock) = &mut clock {
            if let Some(t) = times.and_then(|t| t.get(ply).copied().flatten()) {
                at = at.max(t);
            }
            clock.advance(decider, player_to_act(&table), at);
        }
    }
    if let Some(offer) = setup.draw_offer {
        table.restore_draw_offer(offer.team, offer.ply);
    }
    Ok((table, chance, clock))
}

fn seat_infos(state: &State) -> Vec<SeatInfo> {
    let game = state.table.game();
    state
        .setup
        .seats
        .iter()
        .enumerate()
        .map(|(i, kind)| SeatInfo {
            seat: i as u8,
            name: game.player_name(Player(i as u8)),
            kind: *kind,
            claimed: state.setup.claims[i].is_some(),
        })
        .collect()
}

fn player_to_act(table: &Table) -> Option<Player> {
    match table.to_act() {
        ToAct::Player { player } => Some(player),
        _ => None,
    }
}

impl LiveTable {
    // The table's parts, each from its own source (new or resumed).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        key: GameKey,
        table: Table,
        chance: GameRng,
        setup: Setup,
        clock: Option<Clock>,
        address: Option<IpAddr>,
        store: Arc<dyn Store + Send + Sync>,
        hearing: Arc<AtomicBool>,
    ) -> Arc<Self> {
        Arc::new_cyclic(|me| LiveTable {
            key,
            me: me.clone(),
            address,
            fixed: setup.clone(),
            state: Mutex::new(State {
                table,
                chance,
                clock,
                generation: 0,
                setup,
                views: ViewCache::default(),
            }),
            changed: broadcast::channel(16).0,
            store,
            rematching: Mutex::new(()),
            catalog_text: std::sync::OnceLock::new(),
            hearing,
            echoes: std::sync::Mutex::new(VecDeque::new()),
        })
    }

    /// The table's id (its stored game's id).
    pub fn key(&self) -> GameKey {
        self.key
    }

    /// The game.
    pub fn game_id(&self) -> GameId {
        self.fixed.game
    }

    pub(crate) fn fixed(&self) -> &Setup {
        &self.fixed
    }

    /// The viewer a token stands for, checking every seat's token in
    /// constant time.
    pub fn viewer_for(&self, token: &str) -> Option<Viewer> {
        let mut found = None;
        for (i, seat) in self.fixed.tokens.iter().enumerate() {
            if seat.as_ref().is_some_and(|t| t.matches(token)) {
                found = Some(Viewer::Player(Player(i as u8)));
            }
        }
        if self.fixed.spectator.matches(token) {
            found = Some(Viewer::Public);
        }
        found
    }

    /// Claims `seat` for `player` when nobody has; `Err` when another
    /// player holds it. Stores the claim before answering.
    pub(crate) async fn claim(&self, seat: Player, player: &Token) -> Result<(), WireFault> {
        let mut state = self.state.lock().await;
        let Some(claim) = state.setup.claims.get(seat.index()).cloned() else {
            return Err(WireFault::new("not-your-turn", "no such seat"));
        };
        match claim {
            Some(holder) if holder == *player => Ok(()),
            Some(_) => Err(WireFault::new(
                "not-your-turn",
                "another player has taken this seat",
            )),
            None => {
                let mut setup = state.setup.clone();
                setup.claims[seat.index()] = Some(player.clone());
                self.save_setup(&setup, state.table.ply()).await?;
                state.setup = setup;
                Ok(())
            }
        }
    }

    /// Whether `player` created the table or holds one of its seats, and
    /// which seats.
    pub(crate) async fn seats_of(&self, player: &Token) -> (bool, Vec<Player>) {
        let state = self.state.lock().await;
        let mine = state
            .setup
            .claims
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_ref() == Some(player))
            .map(|(i, _)| Player(i as u8))
            .collect();
        (state.setup.creator.as_ref() == Some(player), mine)
    }

    /// The seats as a listing shows them.
    pub(crate) async fn seat_infos(&self) -> Vec<SeatInfo> {
        let state = self.state.lock().await;
        seat_infos(&state)
    }

    /// Whether the game is over, and its result in words.
    pub(crate) async fn result(&self) -> Option<String> {
        let state = self.state.lock().await;
        state
            .table
            .outcome()
            .map(|o| state.table.game().describe_outcome(&o))
    }

    /// Who is to act now, if a player.
    pub(crate) async fn to_act(&self) -> Option<Player> {
        match self.state.lock().await.table.to_act() {
            ToAct::Player { player } => Some(player),
            _ => None,
        }
    }

    pub(crate) async fn rematch_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.rematching.lock().await
    }

    /// Who claimed each seat.
    pub(crate) async fn claims(&self) -> Vec<Option<Token>> {
        self.state.lock().await.setup.claims.clone()
    }

    /// The rematch table, once there is one.
    pub(crate) async fn rematch(&self) -> Option<i64> {
        self.state.lock().await.setup.rematch
    }

    pub(crate) async fn set_rematch(&self, table: i64) -> Result<(), WireFault> {
        let mut state = self.state.lock().await;
        let mut setup = state.setup.clone();
        setup.rematch = Some(table);
        self.save_setup(&setup, state.table.ply()).await?;
        state.setup = setup;
        drop(state);
        let _ = self.changed.send(());
        Ok(())
    }

    /// Told after every change.
    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.changed.subscribe()
    }

    /// What `viewer` may know of the table now, with the table actions the
    /// server adds (takeback against the computer, rematch once over).
    pub async fn view(&self, viewer: Viewer) -> TableView {
        let state = self.state.lock().await;
        let mut view = state.table.view(viewer);
        view.table_actions
            .extend(self.server_actions(&state, viewer));
        view
    }

    /// The table actions the server adds for `viewer`.
    fn server_actions(&self, state: &State, viewer: Viewer) -> Vec<TableAction> {
        let mut actions = Vec::new();
        if let Viewer::Player(seat) = viewer
            && self.is_human(seat)
        {
            if self.can_take_back(state, seat).is_ok() {
                actions.push(TableAction::Takeback);
            }
            if state.table.outcome().is_some() {
                actions.push(TableAction::Rematch);
            }
        }
        actions
    }

    /// `viewer`'s view as JSON text, the seats and the clock, under one
    /// lock. The view is encoded once per change and viewer, whatever the
    /// number of connections.
    pub(crate) async fn view_parts(&self, viewer: Viewer) -> Result<ViewParts, WireFault> {
        let mut state = self.state.lock().await;
        if state.views.generation != state.generation {
            state.views = ViewCache {
                generation: state.generation,
                texts: Vec::new(),
            };
        }
        let cached = state
            .views
            .texts
            .iter()
            .find(|(v, _)| *v == viewer)
            .map(|(_, text)| Arc::clone(text));
        let view = match cached {
            Some(text) => text,
            None => {
                let mut view = state.table.typed_view(viewer);
                view.table_actions
                    .extend(self.server_actions(&state, viewer));
                let text: Arc<str> = serde_json::to_string(&view)
                    .map_err(|e| {
                        WireFault::new("unavailable", format!("cannot encode the view: {e}"))
                    })?
                    .into();
                state.views.texts.push((viewer, Arc::clone(&text)));
                text
            }
        };
        Ok(ViewParts {
            view,
            seats: seat_infos(&state),
            clock: state.clock.as_ref().map(|c| c.view(now_ms())),
        })
    }

    /// The clock as it stands, if the table has one.
    pub async fn clock(&self) -> Option<ClockView> {
        let state = self.state.lock().await;
        state.clock.as_ref().map(|c| c.view(now_ms()))
    }

    /// `viewer`'s view `ply` actions into the game, read-only (no legal
    /// actions): the history a page steps through.
    pub async fn view_at(&self, viewer: Viewer, ply: usize) -> Result<TableView, WireFault> {
        let (setup, actions, ending) = {
            let state = self.state.lock().await;
            if ply > state.table.ply() {
                return Err(WireFault::new(
                    "illegal",
                    format!("the game has {} actions, not {ply}", state.table.ply()),
                ));
            }
            let actions: Vec<String> = state.table.actions().map(str::to_owned).collect();
            let ending = (ply == state.table.ply())
                .then(|| state.table.outcome())
                .flatten();
            (state.setup.clone(), actions, ending)
        };
        let (mut table, _, _) = replay(&setup, &actions[..ply], None)?;
        if let Some(outcome) = ending {
            table.restore_ending(outcome);
        }
        let mut view = table.view(viewer);
        view.legal.clear();
        view.table_actions.clear();
        Ok(view)
    }

    /// The catalog of the table's game.
    pub async fn catalog(&self) -> tabula_core::protocol::Catalog {
        self.state.lock().await.table.game().catalog()
    }

    /// The catalog message as text, encoded once per table (Lytharia's is
    /// about 150 KB, and every connection starts with it).
    pub(crate) async fn catalog_message(&self) -> Result<Arc<str>, WireFault> {
        if let Some(text) = self.catalog_text.get() {
            return Ok(Arc::clone(text));
        }
        #[derive(Serialize)]
        struct CatalogMessage<'a> {
            r#type: &'static str,
            catalog: &'a tabula_core::protocol::Catalog,
        }
        let catalog = self.catalog().await;
        let text: Arc<str> = serde_json::to_string(&CatalogMessage {
            r#type: "catalog",
            catalog: &catalog,
        })
        .map_err(|e| WireFault::new("unavailable", format!("cannot encode the catalog: {e}")))?
        .into();
        Ok(Arc::clone(self.catalog_text.get_or_init(|| text)))
    }

    /// The game's record: every action for a perfect-information game, as
    /// `viewer` knows it otherwise (a seat's own record).
    pub async fn record(&self, viewer: Viewer) -> Result<String, WireFault> {
        let store = Arc::clone(&self.store);
        let key = self.key;
        let hidden = self.state.lock().await.table.game().hidden_information();
        let stored = tokio::task::spawn_blocking(move || store.load_game(key))
            .await
            .map_err(|e| WireFault::new("unavailable", format!("the store's worker failed: {e}")))?
            .map_err(|e| WireFault::store(&e))?;
        let record = stored.record();
        let written = match viewer {
            _ if !hidden => record.write(),
            Viewer::Player(seat) => record.write_for(seat),
            _ => {
                return Err(WireFault::new(
                    "not-your-turn",
                    "a hidden-information game's record goes only to its seats",
                ));
            }
        };
        written.map_err(|e| WireFault::new("unavailable", e.to_string()))
    }

    fn is_computer(&self, seat: Player) -> bool {
        matches!(
            self.fixed.seats.get(seat.index()),
            Some(SeatKind::Computer(_))
        )
    }

    fn is_human(&self, seat: Player) -> bool {
        self.fixed.seats.get(seat.index()) == Some(&SeatKind::Human)
    }

    /// Plays `request` for `viewer`: validated by the table, then (with any
    /// chance outcomes it leads to) appended to the store, and only then
    /// made and announced. A refusal changes nothing.
    pub async fn submit(&self, viewer: Viewer, request: Request) -> Result<(), WireFault> {
        self.submit_seen(viewer, request, None).await
    }

    /// [`LiveTable::submit`], refused as `stale` when the table is no longer
    /// at `seen`, the ply of the view the client chose on.
    pub async fn submit_seen(
        &self,
        viewer: Viewer,
        request: Request,
        seen: Option<usize>,
    ) -> Result<(), WireFault> {
        let Viewer::Player(seat) = viewer else {
            return Err(WireFault::new(
                "not-your-turn",
                "a spectator acts for nobody",
            ));
        };
        if self.is_computer(seat) {
            return Err(WireFault::new(
                "not-your-turn",
                "the computer plays this seat",
            ));
        }
        {
            let mut state = self.state.lock().await;
            if self.flag_if_fallen(&mut state).await? {
                return Err(WireFault::new(
                    "game-over",
                    "the game is over: time ran out",
                ));
            }
            if let Some(seen) = seen
                && seen != state.table.ply()
            {
                return Err(WireFault::new(
                    "stale",
                    format!(
                        "the table is at ply {}, not {seen}: choose again on the fresh view",
                        state.table.ply()
                    ),
                ));
            }
            match request {
                Request::Table(TableAction::Takeback) => self.take_back(&mut state, seat).await?,
                Request::Table(TableAction::Rematch) => {
                    return Err(WireFault::new(
                        "illegal",
                        "a rematch is asked for through the connection",
                    ));
                }
                request => self.change_locked(&mut state, seat, request).await?,
            }
        }
        self.wake_computer();
        Ok(())
    }

    async fn change_locked(
        &self,
        state: &mut State,
        seat: Player,
        request: Request,
    ) -> Result<(), WireFault> {
        let mut next = state.table.clone();
        let chance = state.chance.clone();
        let mut decided = None;
        match &request {
            Request::Action(input) => {
                next.act(seat, input)?;
                decided = Some(seat);
            }
            Request::Table(TableAction::Resign) => {
                next.resign(seat)?;
            }
            Request::Table(TableAction::OfferDraw) => {
                next.offer_draw(seat)?;
            }
            Request::Table(TableAction::AcceptDraw) => {
                next.accept_draw(seat)?;
            }
            Request::Table(TableAction::DeclineDraw) => {
                next.decline_draw(seat)?;
            }
            Request::Table(TableAction::Takeback | TableAction::Rematch) => {
                return Err(WireFault::new("illegal", "not a change of the game"));
            }
        }
        if next.draw_offer() != state.table.draw_offer() && next.outcome().is_none() {
            // Offers and refusals are no actions of the record: the setup
            // keeps the standing one, stored before anyone is told.
            let mut setup = state.setup.clone();
            setup.draw_offer = next.draw_offer().map(|team| StoredOffer {
                team,
                ply: next.ply(),
            });
            if setup.draw_offer.is_some() || matches!(request, Request::Table(_)) {
                self.save_setup(&setup, state.table.ply()).await?;
                state.setup = setup;
            }
        }
        self.commit(state, next, chance, decided).await
    }

    /// Draws the chance outcomes a new table starts with (a shuffled deck),
    /// stores them and announces the change.
    pub(crate) async fn start(&self) -> Result<(), WireFault> {
        let mut state = self.state.lock().await;
        let next = state.table.clone();
        let chance = state.chance.clone();
        self.commit(&mut state, next, chance, None).await
    }

    /// Plays the chance outcomes `next` waits for, stores what `next` added
    /// to the table, then makes it the table, moves the clock and announces
    /// the change.
    async fn commit(
        &self,
        state: &mut State,
        mut next: Table,
        mut chance: GameRng,
        decided: Option<Player>,
    ) -> Result<(), WireFault> {
        while next.to_act() == ToAct::Chance {
            if next.play_chance(&mut chance).is_none() {
                break;
            }
        }
        let done = state.table.ply();
        let actions: Vec<String> = next.actions().skip(done).map(str::to_owned).collect();
        let outcome = next.outcome().filter(|_| state.table.outcome().is_none());
        if let Err(fault) = self.persist(done as u64, actions, outcome).await {
            if fault.kind == "stale" {
                // The store is ahead (another instance): catch up, tell everyone.
                if let Err(e) = self.reload_locked(state).await {
                    tracing::error!(table = %self.key, error = %e.message, "reloading failed");
                }
            }
            return Err(fault);
        }
        state.table = next;
        state.chance = chance;
        let to_act = player_to_act(&state.table);
        if let Some(clock) = &mut state.clock {
            clock.advance(decided, to_act, now_ms());
        }
        state.generation += 1;
        self.arm_clock(state);
        // Nobody listening is fine: views are built when asked.
        let _ = self.changed.send(());
        Ok(())
    }

    /// Sets a timer for the moment the running clock falls.
    fn arm_clock(&self, state: &State) {
        let Some(clock) = &state.clock else { return };
        let Some(left) = clock.running_left(now_ms()) else {
            return;
        };
        let generation = state.generation;
        let me = self.me.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(left.max(0) as u64 + 1)).await;
            let Some(table) = me.upgrade() else { return };
            let mut state = table.state.lock().await;
            if state.generation == generation
                && let Err(fault) = table.flag_if_fallen(&mut state).await
            {
                tracing::error!(table = %table.key, kind = %fault.kind, "a flag could not be stored");
            }
        });
    }

    /// Ends the game if the running clock has fallen; `Ok(true)` if it did.
    async fn flag_if_fallen(&self, state: &mut State) -> Result<bool, WireFault> {
        let Some(seat) = state.clock.as_ref().and_then(|c| c.fallen(now_ms())) else {
            return Ok(false);
        };
        if state.table.outcome().is_some() {
            return Ok(false);
        }
        let mut next = state.table.clone();
        next.time_out(seat)?;
        let chance = state.chance.clone();
        self.commit(state, next, chance, None).await?;
        tracing::info!(table = %self.key, seat = seat.index(), "flag fell");
        Ok(true)
    }

    /// Where `seat` may take back to: just before its last decision, in a
    /// game against the computer that is not over.
    fn can_take_back(&self, state: &State, seat: Player) -> Result<usize, WireFault> {
        if !self
            .fixed
            .seats
            .iter()
            .any(|k| matches!(k, SeatKind::Computer(_)))
        {
            return Err(WireFault::new(
                "illegal",
                "takebacks are for games against the computer",
            ));
        }
        if state.table.outcome().is_some() {
            return Err(WireFault::new("game-over", "the game is over"));
        }
        state
            .table
            .deciders()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|d| *d == Some(seat))
            .ok_or_else(|| WireFault::new("illegal", "you have no decision to take back"))
    }

    /// Takes back to just before `seat`'s last decision: the store first
    /// (versioned on the current ply), then the table, replayed with the
    /// chance stream rewound so the same dice fall again.
    async fn take_back(&self, state: &mut State, seat: Player) -> Result<(), WireFault> {
        let keep = self.can_take_back(state, seat)?;
        let actions: Vec<String> = state.table.actions().map(str::to_owned).collect();
        let (table, chance, _) = replay(&state.setup, &actions[..keep], None)?;
        let store = Arc::clone(&self.store);
        let key = self.key;
        let ply = actions.len() as u64;
        tokio::task::spawn_blocking(move || store.take_back(key, ply, keep as u64))
            .await
            .map_err(|e| WireFault::new("unavailable", format!("the store's worker failed: {e}")))?
            .map_err(|e| WireFault::store(&e))?;
        self.expect_echoes([keep as u64]);
        if state.setup.draw_offer.is_some_and(|o| o.ply > keep) {
            // The offer was made after the position taken back to.
            let mut setup = state.setup.clone();
            setup.draw_offer = None;
            self.save_setup(&setup, keep).await?;
            state.setup = setup;
        }
        state.table = table;
        state.chance = chance;
        if let Some(clock) = &mut state.clock {
            clock.advance(None, Some(seat), now_ms());
        }
        state.generation += 1;
        self.arm_clock(state);
        let _ = self.changed.send(());
        Ok(())
    }

    async fn persist(
        &self,
        from: u64,
        actions: Vec<String>,
        outcome: Option<Outcome>,
    ) -> Result<(), WireFault> {
        if actions.is_empty() && outcome.is_none() {
            return Ok(());
        }
        let store = Arc::clone(&self.store);
        let key = self.key;
        let (count, has_outcome) = (actions.len() as u64, outcome.is_some());
        let written = tokio::task::spawn_blocking(move || -> Result<(), StoreError> {
            if !actions.is_empty() {
                let batch: Vec<_> = actions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (key, from + i as u64, a.as_str()))
                    .collect();
                for result in store.append_batch(&batch)? {
                    result?;
                }
            }
            if let Some(outcome) = outcome {
                store.set_result(key, &outcome)?;
            }
            Ok(())
        })
        .await;
        match written {
            Ok(Ok(())) => {
                // One notification per action, then one for the result.
                let end = from + count;
                self.expect_echoes((from + 1..=end).chain(has_outcome.then_some(end)));
                Ok(())
            }
            Ok(Err(StoreError::Conflict { .. })) => Err(WireFault::new(
                "stale",
                "another server played at this table first: choose again on the fresh view",
            )),
            Ok(Err(e)) => Err(WireFault::store(&e)),
            Err(e) => Err(WireFault::new(
                "unavailable",
                format!("the store's worker failed: {e}"),
            )),
        }
    }

    /// Reads the table back from the store (its actions, result and setup)
    /// and announces the change: another server instance moved it.
    async fn reload_locked(&self, state: &mut State) -> Result<(), WireFault> {
        let store = Arc::clone(&self.store);
        let key = self.key;
        let stored = tokio::task::spawn_blocking(move || store.load_game(key))
            .await
            .map_err(|e| WireFault::new("unavailable", format!("the store's worker failed: {e}")))?
            .map_err(|e| WireFault::store(&e))?;
        let setup = match stored.meta.as_deref().map(serde_json::from_str::<Setup>) {
            Some(Ok(setup)) => setup,
            _ => state.setup.clone(),
        };
        let (mut table, chance, clock) = replay(&setup, &stored.actions, Some(&stored.times))?;
        if let Some(outcome) = stored.result {
            table.restore_ending(outcome);
        }
        state.table = table;
        state.chance = chance;
        state.clock = clock;
        state.setup = setup;
        state.generation += 1;
        self.arm_clock(state);
        let _ = self.changed.send(());
        Ok(())
    }

    /// Notes that a write of this server will be echoed by notifications
    /// carrying these action counts (when notifications are followed).
    fn expect_echoes(&self, plies: impl IntoIterator<Item = u64>) {
        if !self.hearing.load(Ordering::SeqCst) {
            return;
        }
        let mut echoes = self.echoes.lock().unwrap_or_else(|e| e.into_inner());
        echoes.extend(plies);
        while echoes.len() > MAX_ECHOES {
            echoes.pop_front();
        }
    }

    /// Awaits no echo any more (notifications were missed: every table is
    /// read back).
    pub(crate) fn forget_echoes(&self) {
        self.echoes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Whether a notification carrying `plies` is the next echo of this
    /// server's own writes (then it is used up). A notification of another
    /// server's write never matches where this server wrote nothing, and
    /// where both did, the later of the two matches nothing and reloads:
    /// every change of another server is read back.
    pub(crate) fn own_echo(&self, plies: u64) -> bool {
        let mut echoes = self.echoes.lock().unwrap_or_else(|e| e.into_inner());
        if echoes.front() == Some(&plies) {
            echoes.pop_front();
            true
        } else {
            false
        }
    }

    /// Another server instance changed the game (a PostgreSQL
    /// notification): read it back, whatever changed (actions, result,
    /// claims), and let a computer seat to act think.
    pub async fn changed_elsewhere(&self) {
        let mut state = self.state.lock().await;
        if let Err(e) = self.reload_locked(&mut state).await {
            tracing::error!(table = %self.key, error = %e.message, "reloading failed");
        }
        drop(state);
        self.wake_computer();
    }

    /// Stores the table's setup (claims, rematch) with its game.
    async fn save_setup(&self, setup: &Setup, ply: usize) -> Result<(), WireFault> {
        crate::meta::save(&self.store, self.key, setup).await?;
        self.expect_echoes([ply as u64]);
        Ok(())
    }

    /// After a restart: the running clock goes on from now with the time
    /// it had, or the flag falls if it had none left; the flag timer is set.
    pub(crate) async fn resume_clock(&self) {
        let mut state = self.state.lock().await;
        if state.table.outcome().is_some() {
            if let Some(clock) = &mut state.clock {
                clock.advance(None, None, now_ms());
            }
            return;
        }
        let to_act = player_to_act(&state.table);
        if let Some(clock) = &mut state.clock {
            clock.restart(to_act, now_ms());
        }
        match self.flag_if_fallen(&mut state).await {
            Ok(true) => {}
            Ok(false) => self.arm_clock(&state),
            Err(fault) => {
                tracing::error!(table = %self.key, kind = %fault.kind, "a flag could not be stored")
            }
        }
    }

    /// Lets the computer play while one of its seats is to act, thinking
    /// on the blocking pool so the server never waits for it.
    pub fn wake_computer(&self) {
        let Some(table) = self.me.upgrade() else {
            return;
        };
        tokio::spawn(async move { table.computer_turns().await });
    }

    async fn computer_turns(self: Arc<Self>) {
        loop {
            let (game, seat, ply, level) = {
                let state = self.state.lock().await;
                let ToAct::Player { player } = state.table.to_act() else {
                    return;
                };
                let Some(SeatKind::Computer(level)) = self.fixed.seats.get(player.index()).copied()
                else {
                    return;
                };
                (state.table.game().clone(), player, state.table.ply(), level)
            };
            let seed = self.fixed.seed
                ^ COMPUTER_STREAM
                ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let thought = tokio::task::spawn_blocking(move || {
                let mut rng = GameRng::from_seed(Seed(seed));
                tabula_ai::choose(&game, seat, level, &mut rng)
            })
            .await;
            let Ok(Some(choice)) = thought else {
                tracing::error!(table = %self.key, "the computer found no action");
                return;
            };
            let mut state = self.state.lock().await;
            // Another wake-up may have played this turn meanwhile.
            if state.table.ply() != ply || state.table.to_act() != (ToAct::Player { player: seat })
            {
                continue;
            }
            let played = match self.flag_if_fallen(&mut state).await {
                Ok(true) => return,
                Ok(false) => {
                    let input = ActionInput::Text(choice.canonical);
                    self.change_locked(&mut state, seat, Request::Action(input))
                        .await
                }
                Err(fault) => Err(fault),
            };
            drop(state);
            if let Err(fault) = played {
                tracing::error!(table = %self.key, kind = %fault.kind, "the computer's action was refused");
                return;
            }
        }
    }
}
