//! Group commit: many writers' appends in one transaction, one fsync.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tabula_core::Outcome;

use crate::sqlite::SqliteStore;
use crate::store::{Append, GameKey, GameSummary, NewGame, Store, StoreError, StoredGame};

type Answer = Result<Vec<Result<(), StoreError>>, StoreError>;

/// One caller's appends (one for `append_action`, its whole batch for
/// `append_batch`): never split between two transactions.
struct Request {
    appends: Vec<(GameKey, u64, String)>,
    reply: mpsc::Sender<Answer>,
}

/// A [`Store`] over another (a [`SqliteStore`] by default, or `PgStore`)
/// whose appends are group-committed: a committer thread takes every
/// append queued while the previous commit was being fsynced (whole
/// callers' batches, up to `max_batch` appends unless one caller's batch
/// is larger) and writes them in one transaction, then answers each
/// caller. An append still returns only once it is durable, and each one
/// is still checked on its own (a conflict fails that append alone), but
/// one fsync serves the whole batch: with many games in play, throughput
/// grows with the number of waiting writers instead of being one fsync per
/// action. Both [`Store::append_action`] and [`Store::append_batch`] go
/// through the committer; a caller's batch stays in one transaction.
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
    /// appends go into one transaction (at least 1), unless one caller's
    /// batch alone is larger.
    pub fn start(store: S, max_batch: usize) -> Result<Self, StoreError> {
        let store = Arc::new(store);
        let (tx, rx) = mpsc::channel::<Request>();
        let worker = store.clone();
        let max_batch = max_batch.max(1);
        let committer = std::thread::Builder::new()
            .name("tabula-store-commit".to_owned())
            .spawn(move || {
                // A request that would overflow a transaction starts the next.
                let mut held: Option<Request> = None;
                loop {
                    let first = match held.take() {
                        Some(r) => r,
                        None => match rx.recv() {
                            Ok(r) => r,
                            Err(_) => break,
                        },
                    };
                    let mut size = first.appends.len();
                    let mut requests = vec![first];
                    while size < max_batch {
                        match rx.try_recv() {
                            Ok(r) if size + r.appends.len() > max_batch => {
                                held = Some(r);
                                break;
                            }
                            Ok(r) => {
                                size += r.appends.len();
                                requests.push(r);
                            }
                            Err(_) => break,
                        }
                    }
                    commit(&*worker, requests);
                }
            })
            .map_err(|e| StoreError::Database(format!("cannot start the committer: {e}")))?;
        Ok(GroupCommitter {
            store,
            queue: Mutex::new(Some(tx)),
            committer: Some(committer),
        })
    }

    /// Queues `appends` for the committer and waits for their answers.
    fn submit(&self, appends: Vec<(GameKey, u64, String)>) -> Answer {
        let (reply, answer) = mpsc::channel();
        let sender = self
            .queue
            .lock()
            .map_err(|_| StoreError::Database("the commit queue is poisoned".to_owned()))?
            .clone()
            .ok_or_else(|| StoreError::Database("the committer has stopped".to_owned()))?;
        sender
            .send(Request { appends, reply })
            .map_err(|_| StoreError::Database("the committer has stopped".to_owned()))?;
        answer.recv().map_err(|_| {
            StoreError::Database("the committer stopped before answering".to_owned())
        })?
    }

    /// The store underneath, for reads.
    pub fn store(&self) -> &S {
        &self.store
    }
}

/// Writes the requests' appends in one transaction and answers each
/// request with its own appends' results.
fn commit<S: Store + ?Sized>(store: &S, requests: Vec<Request>) {
    let rows: Vec<Append<'_>> = requests
        .iter()
        .flat_map(|r| r.appends.iter().map(|(g, p, a)| (*g, *p, a.as_str())))
        .collect();
    match store.append_batch(&rows) {
        Ok(results) => {
            let mut results = results.into_iter();
            for r in &requests {
                let mine: Vec<_> = results.by_ref().take(r.appends.len()).collect();
                let answer = if mine.len() == r.appends.len() {
                    Ok(mine)
                } else {
                    Err(StoreError::Database(
                        "the store answered fewer appends than it was given".to_owned(),
                    ))
                };
                let _ = r.reply.send(answer);
            }
        }
        Err(e) => {
            // The whole transaction failed: nothing was written.
            let message = e.to_string();
            for r in &requests {
                let _ = r.reply.send(Err(StoreError::Database(message.clone())));
            }
        }
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
        self.submit(vec![(game, expected_ply, action.to_owned())])?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Database("no answer to the append".to_owned())))
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
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        self.submit(
            batch
                .iter()
                .map(|&(g, p, a)| (g, p, a.to_owned()))
                .collect(),
        )
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
