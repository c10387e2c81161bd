//! One table on the server: the [`Table`] in memory, its chance and
//! computer streams, its seat secrets, and the channel that tells every
//! connection it changed. Every change is appended to the store before it
//! is made in memory and announced.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabula_core::{GameRng, Outcome, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionInput, Fault, Table, TableAction, TableView, builtin};
use tabula_store::{GameKey, Store, StoreError};
use tokio::sync::{Mutex, broadcast};

use crate::token::Token;

/// The computer's own stream is the table seed mixed with this, so the
/// record's seed promises its chance outcomes and nothing else (as in
/// `tabula play`).
const COMPUTER_STREAM: u64 = 0x5eed_c0ff_ee00_0001;

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatKind {
    /// A person, who connects with the seat's link token.
    Human,
    /// The built-in computer player.
    Computer,
}

/// A refusal as it goes on the wire: the table protocol's fault kinds
/// (`unreadable`, `illegal`, `ambiguous`, `not-your-turn`, `game-over`)
/// and the server's own `unavailable` (the store failed; nothing changed).
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

    fn store(error: &StoreError) -> Self {
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

struct State {
    table: Table,
    chance: GameRng,
    computer: GameRng,
}

/// One live table.
pub struct LiveTable {
    key: GameKey,
    seats: Vec<(SeatKind, Option<Token>)>,
    spectator: Token,
    state: Mutex<State>,
    changed: broadcast::Sender<()>,
    store: Arc<dyn Store + Send + Sync>,
}

impl std::fmt::Debug for LiveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveTable").field("key", &self.key).finish()
    }
}

impl LiveTable {
    pub(crate) fn new(
        key: GameKey,
        table: Table,
        seed: u64,
        seats: Vec<(SeatKind, Option<Token>)>,
        spectator: Token,
        store: Arc<dyn Store + Send + Sync>,
    ) -> Self {
        LiveTable {
            key,
            seats,
            spectator,
            state: Mutex::new(State {
                table,
                chance: GameRng::from_seed(Seed(seed)),
                computer: GameRng::from_seed(Seed(seed ^ COMPUTER_STREAM)),
            }),
            changed: broadcast::channel(16).0,
            store,
        }
    }

    /// The table's id (its stored game's id).
    pub fn key(&self) -> GameKey {
        self.key
    }

    /// The viewer a token stands for, checking every seat's token in
    /// constant time.
    pub fn viewer_for(&self, token: &str) -> Option<Viewer> {
        let mut found = None;
        for (i, (_, seat)) in self.seats.iter().enumerate() {
            if seat.as_ref().is_some_and(|t| t.matches(token)) {
                found = Some(Viewer::Player(Player(i as u8)));
            }
        }
        if self.spectator.matches(token) {
            found = Some(Viewer::Public);
        }
        found
    }

    /// Told after every change.
    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.changed.subscribe()
    }

    /// What `viewer` may know of the table now.
    pub async fn view(&self, viewer: Viewer) -> TableView {
        self.state.lock().await.table.view(viewer)
    }

    /// The catalog of the table's game.
    pub async fn catalog(&self) -> tabula_core::protocol::Catalog {
        self.state.lock().await.table.game().catalog()
    }

    fn is_computer(&self, seat: Player) -> bool {
        self.seats
            .get(seat.index())
            .is_some_and(|(kind, _)| *kind == SeatKind::Computer)
    }

    /// Plays `request` for `viewer`: validated by the table, then (with any
    /// chance outcomes it leads to) appended to the store, and only then
    /// made and announced. A refusal changes nothing.
    pub async fn submit(
        self: &Arc<Self>,
        viewer: Viewer,
        request: Request,
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
        self.change(seat, request).await?;
        self.wake_computer();
        Ok(())
    }

    async fn change(&self, seat: Player, request: Request) -> Result<(), WireFault> {
        let mut state = self.state.lock().await;
        self.change_locked(&mut state, seat, request).await
    }

    async fn change_locked(
        &self,
        state: &mut State,
        seat: Player,
        request: Request,
    ) -> Result<(), WireFault> {
        let mut next = state.table.clone();
        let chance = state.chance.clone();
        match &request {
            Request::Action(input) => {
                next.act(seat, input)?;
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
        }
        self.commit(state, next, chance).await
    }

    /// Draws the chance outcomes a new table starts with (a shuffled deck),
    /// stores them and announces the change.
    pub(crate) async fn start(&self) -> Result<(), WireFault> {
        let mut state = self.state.lock().await;
        let next = state.table.clone();
        let chance = state.chance.clone();
        self.commit(&mut state, next, chance).await
    }

    /// Plays the chance outcomes `next` waits for, stores what `next` added
    /// to the table, then makes it the table and announces the change.
    async fn commit(
        &self,
        state: &mut State,
        mut next: Table,
        mut chance: GameRng,
    ) -> Result<(), WireFault> {
        while next.to_act() == ToAct::Chance {
            if next.play_chance(&mut chance).is_none() {
                break;
            }
        }
        let done = state.table.ply();
        let actions: Vec<String> = next.actions().skip(done).map(str::to_owned).collect();
        let outcome = next.outcome().filter(|_| state.table.outcome().is_none());
        self.persist(done as u64, actions, outcome).await?;
        state.table = next;
        state.chance = chance;
        // Nobody listening is fine: views are built when asked.
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
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(WireFault::store(&e)),
            Err(e) => Err(WireFault::new(
                "unavailable",
                format!("the store's worker failed: {e}"),
            )),
        }
    }

    /// Lets the computer play while one of its seats is to act, thinking
    /// on the blocking pool so the server never waits for it.
    pub fn wake_computer(self: &Arc<Self>) {
        let table = Arc::clone(self);
        tokio::spawn(async move { table.computer_turns().await });
    }

    async fn computer_turns(self: Arc<Self>) {
        loop {
            let (game, seat, ply, mut rng) = {
                let state = self.state.lock().await;
                let ToAct::Player { player } = state.table.to_act() else {
                    return;
                };
                if !self.is_computer(player) {
                    return;
                }
                (
                    state.table.game().clone(),
                    player,
                    state.table.ply(),
                    state.computer.clone(),
                )
            };
            let thought = tokio::task::spawn_blocking(move || {
                let choice = builtin::choose(&game, seat, &mut rng);
                (choice, rng)
            })
            .await;
            let Ok((Some(choice), rng)) = thought else {
                tracing::error!(table = %self.key, "the computer found no action");
                return;
            };
            let mut state = self.state.lock().await;
            // Another wake-up may have played this turn meanwhile.
            if state.table.ply() != ply || state.table.to_act() != (ToAct::Player { player: seat })
            {
                continue;
            }
            let input = ActionInput::Text(choice.canonical);
            let played = self
                .change_locked(&mut state, seat, Request::Action(input))
                .await;
            if played.is_ok() {
                state.computer = rng;
            }
            drop(state);
            if let Err(fault) = played {
                tracing::error!(table = %self.key, kind = %fault.kind, "the computer's action was refused");
                return;
            }
        }
    }
}
