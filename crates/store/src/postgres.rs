//! The PostgreSQL backend (cargo feature `postgres`): the same tables and
//! the same optimistic append as SQLite, for several server instances
//! sharing one database, and a [`Listener`] that hears every change those
//! instances make.
//!
//! Every append (one or a batch), take-back, result and metadata change
//! sends `pg_notify('tabula_games_<schema>', '<game id>:<plies>')` inside
//! its own transaction, `<plies>` being the number of actions the game has
//! after the change: PostgreSQL delivers it to every listener when, and
//! only if, the change commits. The channel names the schema so that
//! stores in different schemas of one database (tests, deployments) do
//! not hear each other.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls, Statement, Transaction};
use tabula_core::Outcome;

use crate::store::{
    Append, GameKey, GameRows, GameSummary, NewGame, Store, StoreError, StoredGame, check_meta,
    game_from, outcome_from, ply_column,
};

/// The schema, one migration per entry (entry `i` takes version `i` to
/// `i + 1`), recorded in `tabula_schema`.
const MIGRATIONS: &[&str] = &[
    // 1: games, seats, actions, results.
    "CREATE TABLE games (
        id         BIGSERIAL PRIMARY KEY,
        game       TEXT      NOT NULL,
        options    TEXT      NOT NULL DEFAULT '[]',
        seed       TEXT,
        start      TEXT,
        date       TEXT,
        tags       TEXT      NOT NULL DEFAULT '[]',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        next_ply   BIGINT    NOT NULL DEFAULT 0
     );
     CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat    INTEGER NOT NULL,
        name    TEXT    NOT NULL,
        PRIMARY KEY (game_id, seat)
     );
     CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games(id),
        ply     BIGINT NOT NULL,
        text    TEXT   NOT NULL,
        PRIMARY KEY (game_id, ply)
     );
     CREATE TABLE results (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        winner  INTEGER,
        reason  TEXT NOT NULL,
        set_at  TIMESTAMPTZ NOT NULL DEFAULT now()
     );",
    // 2: `tabula_append`, a whole batch of appends in one statement, so an
    // append or a batch costs one round trip (commit included) instead of
    // several per append. A loop and not one data-modifying CTE: a CTE sees
    // one snapshot and cannot update a row twice, so two appends to one game
    // in a batch would not act as sequential appends. Per element it returns
    // -1 (written), -2 (no such game), -3 (NULL text: checked, not written),
    // -4 (the ply is already in `actions`: not written) or the game's actual
    // next ply (a conflict). No EXCEPTION block: that would be a
    // subtransaction per append; failures are undone by hand instead, so one
    // bad append never fails the rest of its batch. `search_path FROM
    // CURRENT` pins the function to its own schema's tables.
    "CREATE FUNCTION tabula_append(game_ids BIGINT[], plies BIGINT[], texts TEXT[])
     RETURNS BIGINT[] LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     DECLARE
        n      INTEGER  := coalesce(array_length(game_ids, 1), 0);
        status BIGINT[] := array_fill(NULL::BIGINT, ARRAY[n]);
        actual BIGINT;
     BEGIN
        FOR i IN 1 .. n LOOP
            UPDATE games SET next_ply = next_ply + 1
             WHERE id = game_ids[i] AND next_ply = plies[i];
            IF NOT FOUND THEN
                SELECT next_ply INTO actual FROM games WHERE id = game_ids[i];
                status[i] := coalesce(actual, -2);
                CONTINUE;
            END IF;
            IF texts[i] IS NOT NULL THEN
                INSERT INTO actions (game_id, ply, text)
                VALUES (game_ids[i], plies[i], texts[i])
                ON CONFLICT (game_id, ply) DO NOTHING;
                IF FOUND THEN
                    status[i] := -1;
                    CONTINUE;
                END IF;
            END IF;
            UPDATE games SET next_ply = next_ply - 1 WHERE id = game_ids[i];
            status[i] := CASE WHEN texts[i] IS NULL THEN -3 ELSE -4 END;
        END LOOP;
        RETURN status;
     END
     $$;",
    // 3: the table metadata a server keeps per game (`Store::set_meta`),
    // NULL until set.
    "ALTER TABLE games ADD COLUMN meta TEXT;",
    // 4: when each action was appended (`StoredGame::times`), in
    // milliseconds since the Unix epoch (NULL for older rows and imports),
    // and `tabula_append` taking that time for its batch. It replaces the
    // three-argument function, so instances of an older build must stop
    // before this one migrates.
    "ALTER TABLE actions ADD COLUMN at_ms BIGINT;
     DROP FUNCTION tabula_append(BIGINT[], BIGINT[], TEXT[]);
     CREATE FUNCTION tabula_append(game_ids BIGINT[], plies BIGINT[], texts TEXT[],
                                   append_ms BIGINT)
     RETURNS BIGINT[] LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     DECLARE
        n      INTEGER  := coalesce(array_length(game_ids, 1), 0);
        status BIGINT[] := array_fill(NULL::BIGINT, ARRAY[n]);
        actual BIGINT;
     BEGIN
        FOR i IN 1 .. n LOOP
            UPDATE games SET next_ply = next_ply + 1
             WHERE id = game_ids[i] AND next_ply = plies[i];
            IF NOT FOUND THEN
                SELECT next_ply INTO actual FROM games WHERE id = game_ids[i];
                status[i] := coalesce(actual, -2);
                CONTINUE;
            END IF;
            IF texts[i] IS NOT NULL THEN
                INSERT INTO actions (game_id, ply, text, at_ms)
                VALUES (game_ids[i], plies[i], texts[i], append_ms)
                ON CONFLICT (game_id, ply) DO NOTHING;
                IF FOUND THEN
                    status[i] := -1;
                    CONTINUE;
                END IF;
            END IF;
            UPDATE games SET next_ply = next_ply - 1 WHERE id = game_ids[i];
            status[i] := CASE WHEN texts[i] IS NULL THEN -3 ELSE -4 END;
        END LOOP;
        RETURN status;
     END
     $$;",
    // 5: `tabula_append` tells listeners of each append it wrote
    // (`pg_notify`, delivered on commit; see the module doc).
    "CREATE OR REPLACE FUNCTION tabula_append(game_ids BIGINT[], plies BIGINT[], texts TEXT[],
                                             append_ms BIGINT)
     RETURNS BIGINT[] LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     DECLARE
        n      INTEGER  := coalesce(array_length(game_ids, 1), 0);
        status BIGINT[] := array_fill(NULL::BIGINT, ARRAY[n]);
        actual BIGINT;
     BEGIN
        FOR i IN 1 .. n LOOP
            UPDATE games SET next_ply = next_ply + 1
             WHERE id = game_ids[i] AND next_ply = plies[i];
            IF NOT FOUND THEN
                SELECT next_ply INTO actual FROM games WHERE id = game_ids[i];
                status[i] := coalesce(actual, -2);
                CONTINUE;
            END IF;
            IF texts[i] IS NOT NULL THEN
                INSERT INTO actions (game_id, ply, text, at_ms)
                VALUES (game_ids[i], plies[i], texts[i], append_ms)
                ON CONFLICT (game_id, ply) DO NOTHING;
                IF FOUND THEN
                    PERFORM pg_notify('tabula_games_' || current_schema(),
                                      game_ids[i] || ':' || (plies[i] + 1));
                    status[i] := -1;
                    CONTINUE;
                END IF;
            END IF;
            UPDATE games SET next_ply = next_ply - 1 WHERE id = game_ids[i];
            status[i] := CASE WHEN texts[i] IS NULL THEN -3 ELSE -4 END;
        END LOOP;
        RETURN status;
     END
     $$;",
];

/// A [`Store`] in a PostgreSQL schema.
///
/// Durability: PostgreSQL's default `synchronous_commit = on` flushes the
/// WAL before a commit returns, so an acknowledged append is durable.
/// Concurrency: the append is a compare-and-set `UPDATE ... WHERE next_ply
/// = expected` in `READ COMMITTED`; a racing writer's update waits for the
/// winner's commit, then matches no row and reports the conflict.
///
/// Appends, one or a batch, are one call of the `tabula_append` function
/// (migration 2) in autocommit: one round trip, commit included.
pub struct PgStore {
    conn: Mutex<Conn>,
}

/// A connection and its statements prepared once: a prepared statement is
/// one round trip, a text query two (Parse/Describe, then Bind/Execute).
struct Conn {
    client: Client,
    append: Statement,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").finish_non_exhaustive()
    }
}

fn db(e: postgres::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

impl PgStore {
    /// Connects (`host=... user=... password=... dbname=...` or a
    /// `postgresql://` URL), works in `schema` (created if missing; letters,
    /// digits and `_` only) and brings the schema up to date.
    pub fn connect(url: &str, schema: &str) -> Result<Self, StoreError> {
        check_schema(schema)?;
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        client
            .batch_execute(&format!(
                "CREATE SCHEMA IF NOT EXISTS {schema}; SET search_path TO {schema}"
            ))
            .map_err(db)?;
        migrate(&mut client)?;
        let append = client
            .prepare("SELECT tabula_append($1, $2, $3, $4)")
            .map_err(db)?;
        Ok(PgStore {
            conn: Mutex::new(Conn { client, append }),
        })
    }

    /// Drops `schema` and everything in it (tests, tear-down).
    pub fn drop_schema(url: &str, schema: &str) -> Result<(), StoreError> {
        check_schema(schema)?;
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .map_err(db)
    }

    /// The database and hosts a connection string names, for a log line
    /// (never its user or password).
    pub fn describe_url(url: &str) -> String {
        let Ok(config) = url.parse::<postgres::Config>() else {
            return "PostgreSQL (an unreadable URL)".to_owned();
        };
        // One port serves every host; none means the default.
        let ports = config.get_ports();
        let port = |i: usize| match ports {
            [one] => *one,
            _ => ports.get(i).copied().unwrap_or(5432),
        };
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .enumerate()
            .map(|(i, host)| match host {
                postgres::config::Host::Tcp(name) => format!("{name}:{}", port(i)),
                #[cfg(unix)]
                postgres::config::Host::Unix(dir) => dir.display().to_string(),
            })
            .collect();
        let mut text = format!(
            "PostgreSQL database {}",
            config.get_dbname().unwrap_or("(the user's)")
        );
        if !hosts.is_empty() {
            text.push_str(&format!(" on {}", hosts.join(",")));
        }
        text
    }

    fn conn(&self) -> MutexGuard<'_, Conn> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction().map_err(db)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS tabula_schema (version INTEGER NOT NULL);
         LOCK TABLE tabula_schema IN EXCLUSIVE MODE;",
    )
    .map_err(db)?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM tabula_schema", &[])
        .map_err(db)?
        .map(|r| r.get(0));
    if version.is_none() {
        tx.execute("INSERT INTO tabula_schema (version) VALUES (0)", &[])
            .map_err(db)?;
    }
    let version = usize::try_from(version.unwrap_or(0)).unwrap_or(usize::MAX);
    if version > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {version}, newer than this program's {}",
            MIGRATIONS.len()
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        tx.batch_execute(sql)
            .map_err(|e| StoreError::Database(format!("migration {}: {e}", i + 1)))?;
        tx.execute(
            "UPDATE tabula_schema SET version = $1",
            &[&((i + 1) as i32)],
        )
        .map_err(db)?;
    }
    tx.commit().map_err(db)
}

/// `tabula_append`'s answers besides a conflict's actual next ply
/// (migrations 2, 4 and 5).
const WRITTEN: i64 = -1;
const NO_GAME: i64 = -2;
const NUL_TEXT: i64 = -3;
const PLY_TAKEN: i64 = -4;

impl Conn {
    /// Appends `batch` in one `tabula_append` statement: outside a
    /// transaction it is its own, committed (and, with `synchronous_commit`,
    /// flushed) before the server's ReadyForQuery, which `query_one` waits
    /// for. `Err` means the statement failed and nothing was written.
    fn append(&mut self, batch: &[Append<'_>]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut results = Vec::with_capacity(batch.len());
        let mut sent = Vec::with_capacity(batch.len());
        for (i, &(_, ply, _)) in batch.iter().enumerate() {
            results.push(ply_column(ply).map(drop));
            if results[i].is_ok() {
                sent.push(i);
            }
        }
        if sent.is_empty() {
            return Ok(results);
        }
        // By game (a stable sort keeps one game's appends in order): batches
        // running at once then lock their games in one order, never in a
        // cycle, so they cannot deadlock.
        sent.sort_by_key(|&i| batch[i].0);
        let games: Vec<i64> = sent.iter().map(|&i| batch[i].0.0).collect();
        let plies: Vec<i64> = sent.iter().map(|&i| batch[i].1 as i64).collect();
        // PostgreSQL text cannot hold NUL: such an append goes as NULL, to
        // be checked and refused alone rather than fail the whole batch.
        let texts: Vec<Option<&str>> = sent
            .iter()
            .map(|&i| Some(batch[i].2).filter(|t| !t.contains('\0')))
            .collect();
        // One commit, one moment for the whole batch.
        let at_ms = crate::now_ms();
        let row = self
            .client
            .query_one(&self.append, &[&games, &plies, &texts, &at_ms])
            .map_err(db)?;
        let status: Vec<Option<i64>> = row.try_get(0).map_err(db)?;
        if status.len() != sent.len() {
            return Err(StoreError::Database(format!(
                "tabula_append answered {} of {} appends",
                status.len(),
                sent.len()
            )));
        }
        for (i, status) in sent.into_iter().zip(status) {
            let (game, ply, _) = batch[i];
            results[i] = match status {
                Some(WRITTEN) => Ok(()),
                Some(NO_GAME) => Err(StoreError::NotFound(game)),
                Some(NUL_TEXT) => Err(StoreError::Database(format!(
                    "game {game} ply {ply}: PostgreSQL text cannot contain a NUL character"
                ))),
                Some(PLY_TAKEN) => Err(StoreError::Corrupt(format!(
                    "game {game}: its next ply is {ply} but an action is already stored there"
                ))),
                Some(actual) if actual >= 0 => Err(StoreError::Conflict {
                    game,
                    expected: ply,
                    actual: actual as u64,
                }),
                other => Err(StoreError::Database(format!(
                    "tabula_append answered {other:?} for game {game}"
                ))),
            };
        }
        Ok(results)
    }
}

impl Store for PgStore {
    fn create_game(&self, new: &NewGame) -> Result<GameKey, StoreError> {
        let mut conn = self.conn();
        let mut tx = conn.client.transaction().map_err(db)?;
        let key = create_in(&mut tx, new)?;
        tx.commit().map_err(db)?;
        Ok(key)
    }

    fn append_action(
        &self,
        game: GameKey,
        expected_ply: u64,
        action: &str,
    ) -> Result<(), StoreError> {
        self.conn()
            .append(&[(game, expected_ply, action)])?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Database("no answer to the append".to_owned())))
    }

    fn load_game(&self, game: GameKey) -> Result<StoredGame, StoreError> {
        let mut conn = self.conn();
        // One snapshot for header, seats, actions and result.
        let mut tx = conn
            .client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(db)?;
        let Some(row) = tx
            .query_opt(
                "SELECT game, options, seed, start, date, tags, next_ply, meta
                 FROM games WHERE id = $1",
                &[&game.0],
            )
            .map_err(db)?
        else {
            return Err(StoreError::NotFound(game));
        };
        let seats = tx
            .query(
                "SELECT seat, name FROM seats WHERE game_id = $1 ORDER BY seat",
                &[&game.0],
            )
            .map_err(db)?
            .iter()
            .map(|r| (i64::from(r.get::<_, i32>(0)), r.get(1)))
            .collect();
        let actions = tx
            .query(
                "SELECT ply, text, at_ms FROM actions WHERE game_id = $1 ORDER BY ply",
                &[&game.0],
            )
            .map_err(db)?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
        let result = tx
            .query_opt(
                "SELECT winner, reason FROM results WHERE game_id = $1",
                &[&game.0],
            )
            .map_err(db)?
            .map(|r| (r.get::<_, Option<i32>>(0).map(i64::from), r.get(1)));
        tx.commit().map_err(db)?;
        GameRows {
            game: row.get(0),
            options: row.get(1),
            seed: row.get(2),
            start: row.get(3),
            date: row.get(4),
            tags: row.get(5),
            next_ply: row.get(6),
            meta: row.get(7),
            seats,
            actions,
            result,
        }
        .into_game(game)
    }

    fn list_games(&self) -> Result<Vec<GameSummary>, StoreError> {
        let mut conn = self.conn();
        let rows = conn
            .client
            .query(
                "SELECT g.id, g.game, g.next_ply, r.winner, r.reason
                 FROM games g LEFT JOIN results r ON r.game_id = g.id ORDER BY g.id",
                &[],
            )
            .map_err(db)?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let game: String = row.get(1);
            let plies: i64 = row.get(2);
            let reason: Option<String> = row.get(4);
            out.push(GameSummary {
                key: GameKey(row.get(0)),
                game: game_from(&game)?,
                plies: u64::try_from(plies).unwrap_or(0),
                result: match reason {
                    None => None,
                    Some(reason) => Some(outcome_from(
                        row.get::<_, Option<i32>>(3).map(i64::from),
                        &reason,
                    )?),
                },
            });
        }
        Ok(out)
    }

    fn set_result(&self, game: GameKey, outcome: &Outcome) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let mut tx = conn.client.transaction().map_err(db)?;
        let plies = set_result_in(&mut tx, game, outcome)?;
        notify(&mut tx, game, plies)?;
        tx.commit().map_err(db)
    }

    fn append_batch(
        &self,
        batch: &[Append<'_>],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        self.conn().append(batch)
    }

    fn take_back(&self, game: GameKey, expected_ply: u64, keep: u64) -> Result<(), StoreError> {
        let (expected, kept) = (ply_column(expected_ply)?, ply_column(keep)?);
        if keep > expected_ply {
            return Err(StoreError::Invalid(format!(
                "cannot take back to ply {keep}: game {game} is expected to have {expected_ply} actions"
            )));
        }
        let mut conn = self.conn();
        let mut tx = conn.client.transaction().map_err(db)?;
        // FOR UPDATE: a racing append waits for this transaction.
        let Some(row) = tx
            .query_opt(
                "SELECT next_ply, EXISTS (SELECT 1 FROM results WHERE game_id = $1)
                 FROM games WHERE id = $1 FOR UPDATE",
                &[&game.0],
            )
            .map_err(db)?
        else {
            return Err(StoreError::NotFound(game));
        };
        let (actual, finished): (i64, bool) = (row.get(0), row.get(1));
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
            "DELETE FROM actions WHERE game_id = $1 AND ply >= $2",
            &[&game.0, &kept],
        )
        .map_err(db)?;
        tx.execute(
            "UPDATE games SET next_ply = $2 WHERE id = $1",
            &[&game.0, &kept],
        )
        .map_err(db)?;
        notify(&mut tx, game, kept)?;
        tx.commit().map_err(db)
    }

    fn set_meta(&self, game: GameKey, meta: &str) -> Result<(), StoreError> {
        check_meta(game, meta)?;
        // One statement in autocommit, its own transaction, notification
        // included.
        let changed = self
            .conn()
            .client
            .execute(
                "WITH changed AS (
                    UPDATE games SET meta = $2 WHERE id = $1 RETURNING id, next_ply
                 )
                 SELECT pg_notify('tabula_games_' || current_schema(), id || ':' || next_ply)
                 FROM changed",
                &[&game.0, &meta],
            )
            .map_err(db)?;
        if changed == 0 {
            return Err(StoreError::NotFound(game));
        }
        Ok(())
    }

    fn meta(&self, game: GameKey) -> Result<Option<String>, StoreError> {
        self.conn()
            .client
            .query_opt("SELECT meta FROM games WHERE id = $1", &[&game.0])
            .map_err(db)?
            .map(|r| r.get(0))
            .ok_or(StoreError::NotFound(game))
    }

    fn unfinished_games(&self) -> Result<Vec<GameKey>, StoreError> {
        Ok(self
            .conn()
            .client
            .query(
                "SELECT id FROM games g
                 WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY id",
                &[],
            )
            .map_err(db)?
            .iter()
            .map(|r| GameKey(r.get(0)))
            .collect())
    }

    fn import_game(
        &self,
        new: &NewGame,
        actions: &[String],
        result: Option<&Outcome>,
    ) -> Result<GameKey, StoreError> {
        let mut conn = self.conn();
        let mut tx = conn.client.transaction().map_err(db)?;
        let key = create_in(&mut tx, new)?;
        let plies: Vec<i64> = (0..actions.len() as i64).collect();
        // One statement for all the actions.
        tx.execute(
            "INSERT INTO actions (game_id, ply, text)
             SELECT $1, p, t FROM unnest($2::BIGINT[], $3::TEXT[]) AS a(p, t)",
            &[&key.0, &plies, &actions],
        )
        .map_err(db)?;
        tx.execute(
            "UPDATE games SET next_ply = $2 WHERE id = $1",
            &[&key.0, &(actions.len() as i64)],
        )
        .map_err(db)?;
        if let Some(outcome) = result {
            set_result_in(&mut tx, key, outcome)?;
        }
        tx.commit().map_err(db)?;
        Ok(key)
    }
}

fn create_in(tx: &mut Transaction<'_>, new: &NewGame) -> Result<GameKey, StoreError> {
    let (game, options, tags) = new.columns()?;
    let row = tx
        .query_one(
            "INSERT INTO games (game, options, seed, start, date, tags)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            &[
                &game.as_str(),
                &options,
                &new.seed.map(|s| s.to_string()),
                &new.start,
                &new.date,
                &tags,
            ],
        )
        .map_err(db)?;
    let key = GameKey(row.get(0));
    for (seat, name) in new.players.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (game_id, seat, name) VALUES ($1, $2, $3)",
            &[&key.0, &(seat as i32), name],
        )
        .map_err(db)?;
    }
    Ok(key)
}

/// Stores the result; answers the game's number of actions.
fn set_result_in(
    tx: &mut Transaction<'_>,
    game: GameKey,
    outcome: &Outcome,
) -> Result<i64, StoreError> {
    // FOR UPDATE: the ply the notification names is the one at commit.
    let Some(row) = tx
        .query_opt(
            "SELECT next_ply FROM games WHERE id = $1 FOR UPDATE",
            &[&game.0],
        )
        .map_err(db)?
    else {
        return Err(StoreError::NotFound(game));
    };
    tx.execute(
        "INSERT INTO results (game_id, winner, reason) VALUES ($1, $2, $3)
         ON CONFLICT (game_id) DO UPDATE SET winner = excluded.winner,
            reason = excluded.reason, set_at = excluded.set_at",
        &[
            &game.0,
            &outcome.winner.map(|t| i32::from(t.0)),
            &outcome.reason.id(),
        ],
    )
    .map_err(db)?;
    Ok(row.get(0))
}

/// Tells every [`Listener`] on this schema, once `tx` commits, that `game`
/// changed and now has `plies` actions.
fn notify(tx: &mut Transaction<'_>, game: GameKey, plies: i64) -> Result<(), StoreError> {
    tx.execute(
        "SELECT pg_notify('tabula_games_' || current_schema(), $1)",
        &[&format!("{game}:{plies}")],
    )
    .map_err(db)?;
    Ok(())
}

/// The longest schema name: the notification channel
/// `tabula_games_<schema>` must fit PostgreSQL's 63-byte identifiers.
const MAX_SCHEMA_LEN: usize = 63 - CHANNEL_PREFIX.len();
const CHANNEL_PREFIX: &str = "tabula_games_";

/// A schema name `connect` can put unquoted in SQL: letters, digits and
/// `_`, short enough for its notification channel.
fn check_schema(schema: &str) -> Result<(), StoreError> {
    if schema.is_empty()
        || schema.len() > MAX_SCHEMA_LEN
        || !schema
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(StoreError::Invalid(format!(
            "bad schema name '{schema}': 1 to {MAX_SCHEMA_LEN} letters, digits or '_'"
        )));
    }
    Ok(())
}

/// Hears the changes every [`PgStore`] on one schema makes (any instance,
/// any process): one `(game, plies)` per committed append, take-back,
/// result or metadata change, `plies` being the game's number of actions
/// after it, in commit order.
///
/// It holds its own connection. If that connection is lost, [`recv`]
/// fails and notifications sent meanwhile are gone: connect a new
/// listener, then reload the games you hold (their plies may have moved).
///
/// [`recv`]: Listener::recv
pub struct Listener {
    client: Client,
    channel: String,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

impl Listener {
    /// Connects with `url` (as [`PgStore::connect`]) and listens to the
    /// changes made in `schema`. Changes committed before this returns are
    /// not heard.
    pub fn connect(url: &str, schema: &str) -> Result<Self, StoreError> {
        check_schema(schema)?;
        // Unquoted names fold to lower case: the channel the stores'
        // `current_schema()` names.
        let channel = format!("{CHANNEL_PREFIX}{}", schema.to_ascii_lowercase());
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        client
            .batch_execute(&format!("LISTEN \"{channel}\""))
            .map_err(db)?;
        Ok(Listener { client, channel })
    }

    /// The next change: waits up to `timeout`, answers `Ok(None)` if none
    /// came. A notification on the channel that is not `GAME:PLIES` (sent by
    /// something else) is a [`StoreError::Corrupt`]; the listener stays
    /// usable. A lost connection is a [`StoreError::Database`].
    pub fn recv(&mut self, timeout: Duration) -> Result<Option<(GameKey, u64)>, StoreError> {
        let next = self
            .client
            .notifications()
            .timeout_iter(timeout)
            .next()
            .map_err(db)?;
        let Some(note) = next else {
            // The iterator also ends when the connection closes.
            if self.client.is_closed() {
                return Err(StoreError::Database(
                    "the listener's connection to PostgreSQL closed".to_owned(),
                ));
            }
            return Ok(None);
        };
        parse_change(note.payload()).map(Some).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "notification '{}' on {} is not GAME:PLIES",
                note.payload(),
                self.channel
            ))
        })
    }
}

/// `GAME:PLIES`, as the stores send it.
fn parse_change(payload: &str) -> Option<(GameKey, u64)> {
    let (game, plies) = payload.split_once(':')?;
    Some((GameKey(game.parse().ok()?), plies.parse().ok()?))
}

/// The append paths the shared contract does not reach. Like
/// tests/postgres.rs, these run when `TABULA_PG_URL` names a server.
#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::GameId;

    fn store(name: &str) -> Option<(PgStore, String, String)> {
        let Ok(url) = std::env::var("TABULA_PG_URL") else {
            eprintln!("TABULA_PG_URL is not set: skipping the PostgreSQL test {name}");
            return None;
        };
        let schema = format!("u_{name}_{}", std::process::id());
        PgStore::drop_schema(&url, &schema).unwrap();
        Some((PgStore::connect(&url, &schema).unwrap(), url, schema))
    }

    #[test]
    fn a_bad_append_fails_alone_in_its_batch() {
        let Some((store, url, schema)) = store("bad_alone") else {
            return;
        };
        let g = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
        let h = store.create_game(&NewGame::of(GameId::Chess)).unwrap();
        let r = store
            .append_batch(&[
                (g, 0, "e2\0e4"),
                (g, u64::MAX, "e2e4"),
                (g, 0, "e2e4"),
                (g, 5, "d\0"),
                (g, 1, "e7e5"),
            ])
            .unwrap();
        assert!(matches!(r[0], Err(StoreError::Database(_))), "{r:?}");
        assert!(matches!(r[1], Err(StoreError::Invalid(_))), "{r:?}");
        assert!(r[2].is_ok() && r[4].is_ok(), "{r:?}");
        // A conflict is reported as such even with an unstorable text.
        assert!(matches!(r[3], Err(StoreError::Conflict { actual: 1, .. })));
        // A row already at the next ply (a corrupt store) fails that append
        // only, and leaves the game's next ply as it was.
        store
            .conn()
            .client
            .execute(
                "INSERT INTO actions (game_id, ply, text) VALUES ($1, 2, 'x')",
                &[&g.0],
            )
            .unwrap();
        let r = store
            .append_batch(&[(g, 2, "g1f3"), (h, 0, "d2d4")])
            .unwrap();
        assert!(matches!(r[0], Err(StoreError::Corrupt(_))), "{r:?}");
        assert!(r[1].is_ok());
        let list = store.list_games().unwrap();
        assert_eq!((list[0].plies, list[1].plies), (2, 1));
        drop(store);
        PgStore::drop_schema(&url, &schema).unwrap();
    }

    /// Two committers whose batches name the same games in opposite orders
    /// (each sorted before it is sent, so they cannot deadlock).
    #[test]
    fn crossing_batches_do_not_deadlock() {
        let Some((setup, url, schema)) = store("crossing") else {
            return;
        };
        let games = [
            setup.create_game(&NewGame::of(GameId::Chess)).unwrap(),
            setup.create_game(&NewGame::of(GameId::Chess)).unwrap(),
        ];
        let writers: Vec<_> = [false, true]
            .into_iter()
            .map(|reversed| {
                let store = PgStore::connect(&url, &schema).unwrap();
                std::thread::spawn(move || {
                    let mut next = [0u64; 2];
                    for _ in 0..200 {
                        let mut batch = vec![(games[0], next[0], "a"), (games[1], next[1], "b")];
                        if reversed {
                            batch.reverse();
                        }
                        let results = store.append_batch(&batch).unwrap();
                        for (&(game, ply, _), result) in batch.iter().zip(results) {
                            let i = usize::from(game != games[0]);
                            next[i] = match result {
                                Ok(()) => ply + 1,
                                Err(StoreError::Conflict { actual, .. }) => actual,
                                Err(e) => panic!("{e}"),
                            };
                        }
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        for game in games {
            assert!(setup.load_game(game).unwrap().actions.len() >= 200);
        }
        drop(setup);
        PgStore::drop_schema(&url, &schema).unwrap();
    }

    #[test]
    fn a_schema_at_version_1_is_brought_up_to_date() {
        let Some((store, url, schema)) = store("upgrade") else {
            return;
        };
        drop(store);
        PgStore::drop_schema(&url, &schema).unwrap();
        let mut client = Client::connect(&url, NoTls).unwrap();
        client
            .batch_execute(&format!(
                "CREATE SCHEMA {schema}; SET search_path TO {schema};
                 CREATE TABLE tabula_schema (version INTEGER NOT NULL);
                 INSERT INTO tabula_schema VALUES (1); {}
                 INSERT INTO games (game, next_ply) VALUES ('chess', 0);",
                MIGRATIONS[0]
            ))
            .unwrap();
        let store = PgStore::connect(&url, &schema).unwrap();
        let g = store.list_games().unwrap()[0].key;
        store.append_action(g, 0, "e2e4").unwrap();
        let loaded = store.load_game(g).unwrap();
        assert_eq!(
            (loaded.actions, loaded.meta),
            (vec!["e2e4".to_owned()], None)
        );
        store.set_meta(g, "{}").unwrap();
        assert_eq!(store.meta(g).unwrap().as_deref(), Some("{}"));
        let version: i32 = client
            .query_one("SELECT version FROM tabula_schema", &[])
            .unwrap()
            .get(0);
        assert_eq!(version as usize, MIGRATIONS.len());
        drop((store, client));
        PgStore::drop_schema(&url, &schema).unwrap();
    }
}
