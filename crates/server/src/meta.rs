//! A table's setup kept with its game in the store (`Store::set_meta`), so
//! a restarted server seats every table again with its secrets, claims and
//! clock: [`App::resume`].

use std::sync::Arc;

use tabula_store::{GameKey, Store, StoreError, StoredGame};

use crate::App;
use crate::table::{LiveTable, Setup, WireFault, replay};

/// Stores `setup` as the metadata of game `key`.
pub(crate) async fn save(
    store: &Arc<dyn Store + Send + Sync>,
    key: GameKey,
    setup: &Setup,
) -> Result<(), WireFault> {
    let text = serde_json::to_string(setup)
        .map_err(|e| WireFault::new("unavailable", format!("the setup: {e}")))?;
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || store.set_meta(key, &text))
        .await
        .map_err(|e| WireFault::new("unavailable", format!("the store's worker failed: {e}")))?
        .map_err(|e| WireFault::store(&e))
}

/// Why the stored tables could not be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The store failed.
    #[error("the game store failed: {0}")]
    Store(#[from] StoreError),
    /// The blocking pool failed.
    #[error("the store's worker failed: {0}")]
    Worker(String),
}

impl App {
    /// Seats again every table stored with a server setup: each from its
    /// last acknowledged action, its chance stream where it stood, its
    /// clock with the time each seat had at its last action (the time the
    /// server was down is charged to nobody), and its computer seats
    /// thinking again. Games without a setup (played with `tabula play`,
    /// imported) are not tables. A game that no longer replays is left
    /// out with an error in the log. Answers how many tables were seated.
    pub async fn resume(&self) -> Result<usize, ResumeError> {
        let store = Arc::clone(&self.store);
        let games = tokio::task::spawn_blocking(move || -> Result<_, StoreError> {
            let mut games = Vec::new();
            for summary in store.list_games()? {
                let game = store.load_game(summary.key)?;
                if game.meta.is_some() {
                    games.push(game);
                }
            }
            Ok(games)
        })
        .await
        .map_err(|e| ResumeError::Worker(e.to_string()))??;
        let mut seated = 0;
        for game in games {
            if self.seat_stored(game).await.is_some() {
                seated += 1;
            }
        }
        tracing::info!(tables = seated, "tables resumed");
        Ok(seated)
    }

    /// Seats a stored game with a server setup as a live table (kept if
    /// another call seated it meanwhile) and lets its computer think.
    async fn seat_stored(&self, game: StoredGame) -> Option<Arc<LiveTable>> {
        let key = game.key;
        let Some(setup) = game
            .meta
            .as_deref()
            .and_then(|m| serde_json::from_str::<Setup>(m).ok())
        else {
            tracing::error!(table = %key, "its stored setup is missing or unreadable");
            return None;
        };
        let (mut table, chance, clock) = match replay(&setup, &game.actions, Some(&game.times)) {
            Ok(replayed) => replayed,
            Err(fault) => {
                tracing::error!(table = %key, error = %fault.message, "not resumed");
                return None;
            }
        };
        if let Some(outcome) = game.result {
            table.restore_ending(outcome);
        }
        let live = LiveTable::new(
            key,
            table,
            chance,
            setup,
            clock,
            None,
            Arc::clone(&self.store),
            Arc::clone(&self.hearing),
        );
        live.resume_clock().await;
        let live = {
            let mut tables = self.tables.lock().ok()?;
            Arc::clone(tables.entry(key).or_insert(live))
        };
        live.wake_computer();
        Some(live)
    }

    /// A table by id: in memory, or read from the store (a table another
    /// server instance created, or one not resumed yet).
    pub async fn load_table(&self, key: GameKey) -> Option<Arc<LiveTable>> {
        if let Some(table) = self.table(key) {
            return Some(table);
        }
        let store = Arc::clone(&self.store);
        let game = tokio::task::spawn_blocking(move || store.load_game(key))
            .await
            .ok()?
            .ok()?;
        game.meta.as_ref()?;
        self.seat_stored(game).await
    }

    /// Another server instance changed game `key` (a PostgreSQL
    /// notification, `tabula_store::postgres::Listener`): the live table
    /// reads it back and tells its connections; a table not live here is
    /// seated.
    pub async fn changed_elsewhere(&self, key: GameKey) {
        match self.table(key) {
            Some(table) => table.changed_elsewhere().await,
            None => {
                self.load_table(key).await;
            }
        }
    }

    /// The store told that game `key` changed and now has `plies` actions
    /// (`tabula_store::postgres::Listener`): the echo of one of this
    /// server's own writes is passed over, anything else is
    /// [`App::changed_elsewhere`].
    pub async fn heard(&self, key: GameKey, plies: u64) {
        if let Some(table) = self.table(key)
            && table.own_echo(plies)
        {
            return;
        }
        self.changed_elsewhere(key).await;
    }

    /// From now on the store's notifications are followed ([`App::heard`]):
    /// every table notes the echoes its own writes will make.
    pub fn hear_changes(&self) {
        self.hearing
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Reads every live table back from the store (after notifications may
    /// have been missed).
    pub async fn reload_all(&self) {
        for table in self.all_tables() {
            table.forget_echoes();
            table.changed_elsewhere().await;
        }
    }
}
