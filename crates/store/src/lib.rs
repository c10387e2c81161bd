//! Game records and storage for tabula.
//!
//! - [`record`]: the record format, PGN-like text for every game and plain
//!   PGN for chess (`docs/records.md`), with a parser whose errors name the
//!   line and, for an illegal action, the ply and the reason.
//! - [`Store`]: the storage trait (create a game, append actions with
//!   optimistic versioning by ply, load, list, set the result), and
//!   [`SqliteStore`], its SQLite implementation (bundled, WAL,
//!   `synchronous=FULL`). [`GroupCommitter`] puts many writers' appends into
//!   one transaction for throughput (docs/performance.md). With the cargo
//!   feature `postgres`, `PgStore` implements the same trait on PostgreSQL.
//! - [`import_record`]: validate a record and store it as a new game.

mod group;
#[cfg(feature = "postgres")]
mod postgres;
pub mod record;
mod sqlite;
mod store;

pub use group::GroupCommitter;
#[cfg(feature = "postgres")]
pub use postgres::PgStore;
pub use record::{Record, RecordError, RecordResult, RecordedAction};
pub use sqlite::{SCHEMA_VERSION, SqliteStore};
pub use store::{Append, GameKey, GameSummary, NewGame, Store, StoreError, StoredGame, now_ms};

use tabula_core::{EndReason, Outcome};

/// Why [`import_record`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The record is malformed or does not replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The store refused.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Validates a record (every action replayed, chance checked against the
/// seed) and stores it as a new game: its header, its actions in canonical
/// form, and its result. The result is the rules' outcome when the game
/// ended on the board; otherwise the record's, where a result without a
/// `Reason` tag is taken as a resignation (a win) or an agreed draw, the
/// usual meaning of a bare PGN result.
///
/// The game is stored in one transaction ([`Store::import_game`]): a crash
/// or an error part-way stores nothing.
pub fn import_record<S: Store + ?Sized>(
    store: &S,
    record: &Record,
) -> Result<GameKey, ImportError> {
    let actions = record.canonical_actions()?;
    let final_state = record.replay()?;
    let outcome = final_state.outcome().or_else(|| {
        record.result.map(|r| Outcome {
            winner: r.winner,
            reason: r.reason.unwrap_or(if r.winner.is_some() {
                EndReason::Resignation
            } else {
                EndReason::Agreement
            }),
        })
    });
    Ok(store.import_game(&NewGame::from_record(record), &actions, outcome.as_ref())?)
}
