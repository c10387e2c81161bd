//! The SQLite backend: bundled SQLite through rusqlite, WAL journal,
//! `synchronous=FULL`, schema migrations by `PRAGMA user_version`.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use tabula_core::Outcome;

use crate::store::{
    Append, GameKey, GameRows, GameSummary, NewGame, Store, StoreError, StoredGame, check_meta,
    game_from, outcome_from, ply_column,
};

/// The schema, one migration per entry: entry `i` takes the database from
/// `user_version` `i` to `i + 1`. Never edit a released entry; append one.
const MIGRATIONS: &[&str] = &[
    // 1: games, seats, actions, results.
    "CREATE TABLE games (
        id         INTEGER PRIMARY KEY,
        game       TEXT    NOT NULL,
        options    TEXT    NOT NULL DEFAULT '[]',
        seed       TEXT,
        start      TEXT,
        date       TEXT,
        tags       TEXT    NOT NULL DEFAULT '[]',
        created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        next_ply   INTEGER NOT NULL DEFAULT 0
     );
     CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat    INTEGER NOT NULL,
        name    TEXT    NOT NULL,
        PRIMARY KEY (game_id, seat)
     ) WITHOUT ROWID;
     CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply     INTEGER NOT NULL,
        text    TEXT    NOT NULL,
        PRIMARY KEY (game_id, ply)
     ) WITHOUT ROWID;
     CREATE TABLE results (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        winner  INTEGER,
        reason  TEXT    NOT NULL,
        set_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
     );",
    // 2: the table metadata a server keeps per game (`Store::set_meta`),
    // NULL until set.
    "ALTER TABLE games ADD COLUMN meta TEXT;",
    // 3: when each action was appended (`StoredGame::times`), in
    // milliseconds since the Unix epoch; NULL for older rows and imports.
    "ALTER TABLE actions ADD COLUMN at_ms INTEGER;",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// A [`Store`] in one SQLite file (or in memory, for tests).
///
/// Durability: the journal is WAL with `synchronous=FULL`, so a commit is
/// fsynced to the WAL before the call returns: an acknowledged append
/// survives a killed process and a power cut. (`NORMAL` would survive a
/// killed process but could lose the last commits on power loss.)
///
/// Several `SqliteStore`s (threads, processes) may open the same file;
/// writers take SQLite's write lock in turn (`BEGIN IMMEDIATE`, waiting up to
/// 10 s when busy).
#[derive(Debug)]
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and brings its
    /// schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let conn = Connection::open(path)
            .map_err(|e| StoreError::Database(format!("{}: {e}", path.display())))?;
        Self::setup(conn, true)
    }

    /// A private database in memory (tests).
    pub fn open_in_memory() -> Result<Self, StoreError> {
        Self::setup(Connection::open_in_memory().map_err(db)?, false)
    }

    fn setup(mut conn: Connection, wal: bool) -> Result<Self, StoreError> {
        conn.busy_timeout(Duration::from_secs(10)).map_err(db)?;
        if wal {
            let mode: String = conn
                .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
                .map_err(db)?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(StoreError::Database(format!(
                    "could not switch to WAL journal (got '{mode}')"
                )));
            }
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        migrate(&mut conn)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half
        // done (rusqlite rolls back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let v: i64 = self
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(db)?;
        Ok(usize::try_from(v).unwrap_or(0))
    }
}

/// Brings the schema to [`SCHEMA_VERSION`] in one transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(db)?;
    let version: i64 = tx
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db)?;
    let version = usize::try_from(version).unwrap_or(usize::MAX);
    if version > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {version}, newer than this program's {}",
            MIGRATIONS.len()
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        tx.execute_batch(sql)
            .map_err(|e| StoreError::Database(format!("migration {}: {e}", i + 1)))?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(db)?;
    }
    tx.commit().map_err(db)
}

fn append_in(
    tx: &Connection,
    game: GameKey,
    ply: u64,
    text: &str,
    at_ms: i64,
) -> Result<(), StoreError> {
    let expected = ply_column(ply)?;
    // Compare-and-set on the game's next ply: the optimistic version check.
    let changed = tx
        .execute(
            "UPDATE games SET next_ply = next_ply + 1 WHERE id = ?1 AND next_ply = ?2",
            params![game.0, expected],
        )
        .map_err(db)?;
    if changed == 0 {
        let actual: Option<i64> = tx
            .query_row(
                "SELECT next_ply FROM games WHERE id = ?1",
                params![game.0],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        return Err(match actual {
            None => StoreError::NotFound(game),
            Some(actual) => StoreError::Conflict {
                game,
                expected: ply,
                actual: u64::try_from(actual).unwrap_or(0),
            },
        });
    }
    tx.execute(
        "INSERT INTO actions (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)",
        params![game.0, expected, text, at_ms],
    )
    .map_err(db)?;
    Ok(())
}

impl Store for SqliteStore {
    fn create_game(&self, new: &NewGame) -> Result<GameKey, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let key = create_in(&tx, new)?;
        tx.commit().map_err(db)?;
        Ok(key)
    }

    fn append_action(
        &self,
        game: GameKey,
        expected_ply: u64,
        action: &str,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        append_in(&tx, game, expected_ply, action, crate::now_ms())?;
        tx.commit().map_err(db)
    }

    fn load_game(&self, game: GameKey) -> Result<StoredGame, StoreError> {
        let mut conn = self.conn();
        // One read transaction: a consistent snapshot of header and actions.
        let tx = conn.transaction().map_err(db)?;
        let rows = tx
            .query_row(
                "SELECT game, options, seed, start, date, tags, next_ply, meta
                 FROM games WHERE id = ?1",
                params![game.0],
                |r| {
                    Ok(GameRows {
                        game: r.get(0)?,
                        options: r.get(1)?,
                        seed: r.get(2)?,
                        start: r.get(3)?,
                        date: r.get(4)?,
                        tags: r.get(5)?,
                        next_ply: r.get(6)?,
                        meta: r.get(7)?,
                        seats: Vec::new(),
                        actions: Vec::new(),
                        result: None,
                    })
                },
            )
            .optional()
            .map_err(db)?;
        let Some(mut rows) = rows else {
            return Err(StoreError::NotFound(game));
        };
        {
            let mut stmt = tx
                .prepare("SELECT seat, name FROM seats WHERE game_id = ?1 ORDER BY seat")
                .map_err(db)?;
            let seats = stmt
                .query_map(params![game.0], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(db)?;
            rows.seats = seats.collect::<Result<_, _>>().map_err(db)?;
            let mut stmt = tx
                .prepare("SELECT ply, text, at_ms FROM actions WHERE game_id = ?1 ORDER BY ply")
                .map_err(db)?;
            let actions = stmt
                .query_map(params![game.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .map_err(db)?;
            rows.actions = actions.collect::<Result<_, _>>().map_err(db)?;
        }
        rows.result = tx
            .query_row(
                "SELECT winner, reason FROM results WHERE game_id = ?1",
                params![game.0],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)?;
        tx.finish().map_err(db)?;
        rows.into_game(game)
    }

    fn list_games(&self) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT g.id, g.game, g.next_ply, r.winner, r.reason
                 FROM games g LEFT JOIN results r ON r.game_id = g.id ORDER BY g.id",
            )
            .map_err(db)?;
        type Row = (i64, String, i64, Option<i64>, Option<String>);
        let rows = stmt
            .query_map([], |r| -> rusqlite::Result<Row> {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(db)?;
        let mut out = Vec::new();
        for row in rows {
            let (id, game, plies, winner, reason) = row.map_err(db)?;
            out.push(GameSummary {
                key: GameKey(id),
                game: game_from(&game)?,
                plies: u64::try_from(plies).unwrap_or(0),
                result: match reason {
                    None => None,
                    Some(reason) => Some(outcome_from(winner, &reason)?),
                },
            });
        }
        Ok(out)
    }

    fn set_result(&self, game: GameKey, outcome: &Outcome) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        set_result_in(&tx, game, outcome)?;
        tx.commit().map_err(db)
    }

    fn append_batch(
        &self,
        batch: &[Append<'_>],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut conn = self.conn();
        let mut tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let mut results = Vec::with_capacity(batch.len());
        // One commit, one moment for the whole batch.
        let at_ms = crate::now_ms();
        for &(game, ply, text) in batch {
            // A savepoint per append: a failed one leaves no trace.
            let sp = tx.savepoint().map_err(db)?;
            let result = append_in(&sp, game, ply, text, at_ms);
            if result.is_ok() {
                sp.commit().map_err(db)?;
            }
            results.push(result);
        }
        tx.commit().map_err(db)?;
        Ok(results)
    }

    fn take_back(&self, game: GameKey, expected_ply: u64, keep: u64) -> Result<(), StoreError> {
        let (expected, kept) = (ply_column(expected_ply)?, ply_column(keep)?);
        if keep > expected_ply {
            return Err(StoreError::Invalid(format!(
                "cannot take back to ply {keep}: game {game} is expected to have {expected_ply} actions"
            )));
        }
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let row: Option<(i64, bool)> = tx
            .query_row(
                "SELECT next_ply, EXISTS (SELECT 1 FROM results WHERE game_id = ?1)
                 FROM games WHERE id = ?1",
                params![game.0],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((actual, finished)) = row else {
            return Err(StoreError::NotFound(game));
        };
        if actual != expected {
            return Err(StoreError::Conflict {
                game,
                expected: expected_ply,
                actual: u64::try_from(actual).unwrap_or(0),
            });
        }
        if finished {
            return Err(StoreError::Invalid(format!(
                "game {game} is finished: its actions cannot be taken back"
            )));
        }
        tx.execute(
            "DELETE FROM actions WHERE game_id = ?1 AND ply >= ?2",
            params![game.0, kept],
        )
        .map_err(db)?;
        tx.execute(
            "UPDATE games SET next_ply = ?2 WHERE id = ?1",
            params![game.0, kept],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }

    fn set_meta(&self, game: GameKey, meta: &str) -> Result<(), StoreError> {
        check_meta(game, meta)?;
        // One statement: its own transaction.
        let changed = self
            .conn()
            .execute(
                "UPDATE games SET meta = ?2 WHERE id = ?1",
                params![game.0, meta],
            )
            .map_err(db)?;
        if changed == 0 {
            return Err(StoreError::NotFound(game));
        }
        Ok(())
    }

    fn meta(&self, game: GameKey) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row(
                "SELECT meta FROM games WHERE id = ?1",
                params![game.0],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?
            .ok_or(StoreError::NotFound(game))
    }

    fn unfinished_games(&self) -> Result<Vec<GameKey>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT id FROM games g
                 WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY id",
            )
            .map_err(db)?;
        // Collected before `stmt` is dropped: the rows borrow it.
        let keys: rusqlite::Result<Vec<GameKey>> = stmt
            .query_map([], |r| r.get(0).map(GameKey))
            .map_err(db)?
            .collect();
        keys.map_err(db)
    }

    fn import_game(
        &self,
        new: &NewGame,
        actions: &[String],
        result: Option<&Outcome>,
    ) -> Result<GameKey, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let key = create_in(&tx, new)?;
        {
            let mut insert = tx
                .prepare("INSERT INTO actions (game_id, ply, text) VALUES (?1, ?2, ?3)")
                .map_err(db)?;
            for (ply, text) in actions.iter().enumerate() {
                insert
                    .execute(params![key.0, ply_column(ply as u64)?, text])
                    .map_err(db)?;
            }
        }
        tx.execute(
            "UPDATE games SET next_ply = ?2 WHERE id = ?1",
            params![key.0, ply_column(actions.len() as u64)?],
        )
        .map_err(db)?;
        if let Some(outcome) = result {
            set_result_in(&tx, key, outcome)?;
        }
        tx.commit().map_err(db)?;
        Ok(key)
    }
}

fn create_in(tx: &Connection, new: &NewGame) -> Result<GameKey, StoreError> {
    let (game, options, tags) = new.columns()?;
    tx.execute(
        "INSERT INTO games (game, options, seed, start, date, tags)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            game.as_str(),
            options,
            new.seed.map(|s| s.to_string()),
            new.start,
            new.date,
            tags
        ],
    )
    .map_err(db)?;
    let key = GameKey(tx.last_insert_rowid());
    for (seat, name) in new.players.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (game_id, seat, name) VALUES (?1, ?2, ?3)",
            params![key.0, seat as i64, name],
        )
        .map_err(db)?;
    }
    Ok(key)
}

fn set_result_in(tx: &Connection, game: GameKey, outcome: &Outcome) -> Result<(), StoreError> {
    let exists: Option<i64> = tx
        .query_row("SELECT id FROM games WHERE id = ?1", params![game.0], |r| {
            r.get(0)
        })
        .optional()
        .map_err(db)?;
    if exists.is_none() {
        return Err(StoreError::NotFound(game));
    }
    tx.execute(
        "INSERT INTO results (game_id, winner, reason) VALUES (?1, ?2, ?3)
         ON CONFLICT (game_id) DO UPDATE SET winner = excluded.winner,
            reason = excluded.reason, set_at = excluded.set_at",
        params![
            game.0,
            outcome.winner.map(|t| i64::from(t.0)),
            outcome.reason.id()
        ],
    )
    .map_err(db)?;
    Ok(())
}

impl SqliteStore {
    /// Sets `PRAGMA user_version` directly, so tests can simulate a database
    /// written by a newer build. Not for production use.
    #[doc(hidden)]
    pub fn set_user_version_for_tests(&self, version: i64) -> Result<(), StoreError> {
        self.conn()
            .pragma_update(None, "user_version", version)
            .map_err(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::GameId;

    /// A database written by the first release (schema 1) opens with its
    /// games intact and takes the new columns.
    #[test]
    fn a_version_1_database_is_brought_up_to_date_keeping_its_games() {
        let path = std::env::temp_dir().join(format!(
            "tabula-store-v1-{}-{:?}.db",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&path);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute_batch(
                "PRAGMA user_version = 1;
                 INSERT INTO games (id, game, seed, next_ply) VALUES (7, 'chess', '9', 2);
                 INSERT INTO seats VALUES (7, 0, 'Ada'), (7, 1, 'Bo');
                 INSERT INTO actions VALUES (7, 0, 'e2e4'), (7, 1, 'e7e5');",
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let g = store.load_game(GameKey(7)).unwrap();
        assert_eq!(g.header.game, Some(GameId::Chess));
        assert_eq!(g.header.players, ["Ada", "Bo"]);
        assert_eq!((g.actions.len(), g.meta), (2, None));
        assert_eq!(g.times, [None, None]);
        store.append_action(GameKey(7), 2, "g1f3").unwrap();
        let g = store.load_game(GameKey(7)).unwrap();
        assert!(g.times[2].is_some(), "{:?}", g.times);
        store.set_meta(GameKey(7), "{}").unwrap();
        assert_eq!(store.unfinished_games().unwrap(), [GameKey(7)]);
        drop(store);
        let again = SqliteStore::open(&path).unwrap();
        assert_eq!(again.meta(GameKey(7)).unwrap().as_deref(), Some("{}"));
        drop(again);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
