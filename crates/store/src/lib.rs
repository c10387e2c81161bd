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
//!   feature `postgres`, `PgStore` implements the same trait on PostgreSQL
//!   and `postgres::Listener` hears the changes other instances commit
//!   (LISTEN/NOTIFY).
//! - [`import_record`]: validate a record and store it as a new game.
//! - [`open`]: the store a command line names, an SQLite file (by default
//!   [`default_db_path`], created on first use) or a PostgreSQL URL.

mod group;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod record;
mod sqlite;
mod store;

pub use group::GroupCommitter;
#[cfg(feature = "postgres")]
pub use postgres::PgStore;
pub use record::{Record, RecordError, RecordResult, RecordedAction};
pub use sqlite::{SCHEMA_VERSION, SqliteStore};
pub use store::{Append, GameKey, GameSummary, NewGame, Store, StoreError, StoredGame, now_ms};

use std::path::{Path, PathBuf};

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

/// The PostgreSQL schema [`open`] works in.
pub const PG_SCHEMA: &str = "tabula";

/// Where the game store lives when no path is given: `tabula/tabula.db` in
/// the per-user data directory (`$XDG_DATA_HOME`, else
/// `~/.local/share` on Linux; `~/Library/Application Support` on macOS;
/// the roaming AppData folder on Windows).
pub fn default_db_path() -> Result<PathBuf, StoreError> {
    dirs::data_dir()
        .map(|dir| dir.join("tabula").join("tabula.db"))
        .ok_or_else(|| {
            StoreError::Invalid(
                "no per-user data directory (HOME is not set): name the database file".to_owned(),
            )
        })
}

/// Opens the store a command line names: the PostgreSQL database at
/// `database_url` (schema [`PG_SCHEMA`]; only in a build with the cargo
/// feature `postgres`), else the SQLite file `db`, else the SQLite file at
/// [`default_db_path`], creating its directory on first use. Either way the
/// schema is brought up to date. Naming both is refused.
pub fn open(
    db: Option<&Path>,
    database_url: Option<&str>,
) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
    match (db, database_url) {
        (Some(_), Some(_)) => Err(StoreError::Invalid(
            "name either an SQLite file or a PostgreSQL URL, not both".to_owned(),
        )),
        (None, Some(url)) => open_postgres(url),
        (Some(path), None) => Ok(Box::new(SqliteStore::open(path)?)),
        (None, None) => {
            let path = default_db_path()?;
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Database(format!("cannot create {}: {e}", dir.display()))
                })?;
            }
            Ok(Box::new(SqliteStore::open(&path)?))
        }
    }
}

#[cfg(feature = "postgres")]
fn open_postgres(url: &str) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
    if url.trim().is_empty() {
        return Err(StoreError::Invalid(
            "the PostgreSQL URL is empty".to_owned(),
        ));
    }
    Ok(Box::new(PgStore::connect(url, PG_SCHEMA)?))
}

#[cfg(not(feature = "postgres"))]
fn open_postgres(_url: &str) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
    Err(StoreError::Invalid(
        "this build of tabula has no PostgreSQL support: build it with `--features postgres`"
            .to_owned(),
    ))
}

/// What [`open`] opens, in words fit for a log line: the SQLite file's
/// path, or the PostgreSQL database and host without the user or password.
pub fn describe(db: Option<&Path>, database_url: Option<&str>) -> String {
    match (db, database_url) {
        (_, Some(url)) => describe_postgres(url),
        (Some(path), None) => path.display().to_string(),
        (None, None) => match default_db_path() {
            Ok(path) => path.display().to_string(),
            Err(_) => "no default database".to_owned(),
        },
    }
}

#[cfg(feature = "postgres")]
fn describe_postgres(url: &str) -> String {
    PgStore::describe_url(url)
}

#[cfg(not(feature = "postgres"))]
fn describe_postgres(_url: &str) -> String {
    "PostgreSQL".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::GameId;

    #[test]
    fn open_refuses_two_databases_and_opens_a_named_file() {
        let dir = std::env::temp_dir().join(format!("tabula-store-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("named.db");
        assert!(matches!(
            open(Some(&path), Some("host=localhost")),
            Err(StoreError::Invalid(m)) if m.contains("not both")
        ));
        assert!(!path.exists(), "a refused open creates nothing");
        let key = open(Some(&path), None)
            .unwrap()
            .create_game(&NewGame::of(GameId::Chess))
            .unwrap();
        let again = open(Some(&path), None).unwrap();
        assert_eq!(again.list_games().unwrap()[0].key, key);
        assert_eq!(describe(Some(&path), None), path.display().to_string());
        drop(again);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[cfg(not(feature = "postgres"))]
    #[test]
    fn a_postgres_url_without_the_feature_says_how_to_build() {
        match open(None, Some("postgres://localhost/tabula")) {
            Err(StoreError::Invalid(m)) => assert!(m.contains("--features postgres"), "{m}"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("opened PostgreSQL without the feature"),
        }
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn a_postgres_url_is_described_without_its_credentials() {
        let url = "postgres://ada:s3cret@db.example:5433/games";
        assert_eq!(
            describe(None, Some(url)),
            "PostgreSQL database games on db.example:5433"
        );
        let kv = "host=127.0.0.1 user=ada password=s3cret dbname=games";
        assert_eq!(
            describe(None, Some(kv)),
            "PostgreSQL database games on 127.0.0.1:5432"
        );
        assert!(!describe(None, Some("postgres://ada:s3cret@%zz")).contains("s3cret"));
        assert!(matches!(open(None, Some(" ")), Err(StoreError::Invalid(_))));
        // Nothing listens on port 1: a database error, not a panic.
        assert!(matches!(
            open(None, Some("host=127.0.0.1 port=1 connect_timeout=2")),
            Err(StoreError::Database(_))
        ));
    }

    /// With no path, the store is created in the per-user data directory:
    /// checked in a child process (this test binary again) whose
    /// `XDG_DATA_HOME` points at a scratch directory.
    #[cfg(target_os = "linux")]
    #[test]
    fn with_nothing_named_the_default_database_is_created_in_the_data_dir() {
        const CHILD: &str = "TABULA_STORE_OPEN_DEFAULT_CHILD";
        if std::env::var_os(CHILD).is_some() {
            let store = open(None, None).unwrap();
            store.create_game(&NewGame::of(GameId::Epoch)).unwrap();
            return;
        }
        let data = std::env::temp_dir().join(format!("tabula-store-xdg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&data).unwrap();
        let run = || {
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "tests::with_nothing_named_the_default_database_is_created_in_the_data_dir",
                ])
                .env(CHILD, "1")
                .env("XDG_DATA_HOME", &data)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
        };
        run();
        run(); // a second run opens the same file
        let path = data.join("tabula").join("tabula.db");
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.list_games().unwrap().len(), 2);
        drop(store);
        let _ = std::fs::remove_dir_all(data);
    }
}
