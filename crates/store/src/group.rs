//! Group commit: many writers' appends in one transaction, one fsync.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tabula_core::Outcome;

use crate::sqlite::SqliteStore;
use crate::store::{Append, GameKey, GameSummary, NewGame, Store, StoreError, StoredGame};

type Reply = mpsc::Sender<Result<(), StoreError>>;

struct Request {
    game: GameKey,
    ply: u64,
    action: String,
    reply: Reply,
}

/// A [`Store`] over another (a [`SqliteStore`] by default, or `PgStore`)
/// whose appends are group-committed: a
/// committer thread takes every append queued while the previous commit
/// was being fsynced (up to `max_batch`) and writes them in one
/// transaction, then answers each caller. An append still returns only
/// once it is durable, and each one is still checked on its own (a
/// conflict fails that append alone), but one fsync serves the whole
/// batch: with many games in play, throughput grows with the number of
/// waiting writers instead of being one fsync per action.
///
/// Reads and the other calls go straight to the store.
pub struct GroupCommitter<S = SqliteStore> {
    store: Arc<S>,
    queue: Mutex<Option<mpsc::Sender<Request>>>,
    committer: Option<JoinHandle<()>>,
}

impl<S> std::fmt::Debug for GroupCommitter<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommitter").finish_non_exhaustive()
    }
}

impl<S: Store + Send + Sync + 'static> GroupCommitter<S> {
    /// Starts the committer thread over `store`; at most `max_batch`
    /// appends go into one transaction (at least 1).
    pub fn start(store: S, max_batch: usize) -> Result<Self, StoreError> {
        let store = Arc::new(store);
        let (tx, rx) = mpsc::channel::<Request>();
        let worker = store.clone();
        let max_batch = max_batch.max(1);
        let committer = std::thread::Builder::new()
            .name("tabula-store-commit".to_owned())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < max_batch {
                        match rx.try_recv() {
                            Ok(r) => batch.push(r),
                            Err(_) => break,
                        }
                    }
                    let rows: Vec<Append<'_>> = batch
                        .iter()
                        .map(|r| (r.game, r.ply, r.action.as_str()))
                        .collect();
                    match worker.append_batch(&rows) {
                        Ok(results) => {
                            for (r, result) in batch.into_iter().zip(results) {
                                let _ = r.reply.send(result);
                            }
                        }
                        Err(e) => {
                            // The whole transaction failed: nothing was written.
                            let message = e.to_string();
                            for r in batch {
                                let _ = r.reply.send(Err(StoreError::Database(message.clone())));
                            }
                        }
                    }
                }
            })
            .map_err(|e| StoreError::Database(format!("cannot start the committer: {e}")))?;
        Ok(GroupCommitter {
            store,
            queue: Mutex::new(Some(tx)),
            committer: Some(committer),
        })
    }

    /// The store underneath, for reads.
    pub fn store(&self) -> &S {
        &self.store
    }
}

impl<S> Drop for GroupCommitter<S> {
    fn drop(&mut self) {
        // Closing the queue ends the committer after the last batch.
        if let Ok(mut q) = self.queue.lock() {
            q.take();
        }
        if let Some(handle) = self.committer.take() {
            let _ = handle.join();
        }
    }
}

impl<S: Store + Send + Sync + 'static> Store for GroupCommitter<S> {
    fn create_game(&self, new: &NewGame) -> Result<GameKey, StoreError> {
        self.store.create_game(new)
    }

    fn append_action(
        &self,
        game: GameKey,
        expected_ply: u64,
        action: &str,
    ) -> Result<(), StoreError> {
        let (reply, answer) = mpsc::channel();
        let sender = self
            .queue
            .lock()
            .map_err(|_| StoreError::Database("the commit queue is poisoned".to_owned()))?
            .clone()
            .ok_or_else(|| StoreError::Database("the committer has stopped".to_owned()))?;
        sender
            .send(Request {
                game,
                ply: expected_ply,
                action: action.to_owned(),
                reply,
            })
            .map_err(|_| StoreError::Database("the committer has stopped".to_owned()))?;
        answer.recv().map_err(|_| {
            StoreError::Database("the committer stopped before answering".to_owned())
        })?
    }

    fn load_game(&self, game: GameKey) -> Result<StoredGame, StoreError> {
        self.store.load_game(game)
    }

    fn list_games(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.store.list_games()
    }

    fn set_result(&self, game: GameKey, outcome: &Outcome) -> Result<(), StoreError> {
        self.store.set_result(game, outcome)
    }

    fn append_batch(
        &self,
        batch: &[Append<'_>],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        self.store.append_batch(batch)
    }

    fn take_back(&self, game: GameKey, expected_ply: u64, keep: u64) -> Result<(), StoreError> {
        self.store.take_back(game, expected_ply, keep)
    }

    fn set_meta(&self, game: GameKey, meta: &str) -> Result<(), StoreError> {
        self.store.set_meta(game, meta)
    }

    fn meta(&self, game: GameKey) -> Result<Option<String>, StoreError> {
        self.store.meta(game)
    }

    fn unfinished_games(&self) -> Result<Vec<GameKey>, StoreError> {
        self.store.unfinished_games()
    }

    fn import_game(
        &self,
        new: &NewGame,
        actions: &[String],
        result: Option<&Outcome>,
    ) -> Result<GameKey, StoreError> {
        self.store.import_game(new, actions, result)
    }
}
