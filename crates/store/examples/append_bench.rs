//! Durable appends per second, many games at once, on SQLite and (feature
//! `postgres`) PostgreSQL.
//!
//! `cargo run --release -p tabula-store [--features postgres] --example append_bench -- [GAMES] [SECONDS] [BACKENDS]`
//!
//! BACKENDS is `sqlite`, `postgres` or `both` (the default); PostgreSQL runs
//! when the feature is on and `TABULA_PG_URL` names a server (it works in a
//! schema `append_bench`, dropped before and after).
//!
//! Two ways of writing per backend, each for SECONDS:
//! - `single`: each append its own transaction (`Store::append_action`),
//!   from several writer threads with their own connections (SQLite: 4;
//!   PostgreSQL: one per game, up to 64), each going round its games;
//! - `group`: GAMES client threads, one per game, append through a
//!   `GroupCommitter` (whatever is queued, up to 512, goes into one
//!   transaction: one durable commit per batch); a client waits for its
//!   acknowledgement before sending the game's next action, as a server must.
//!
//! SQLite uses a fresh database file under `target/append-bench/` (WAL,
//! `synchronous=FULL`: every acknowledged append has been fsynced);
//! PostgreSQL its defaults (`synchronous_commit=on`). After each run the
//! games are reloaded to check every acknowledged action is stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tabula_core::GameId;
use tabula_store::{GameKey, GroupCommitter, NewGame, SqliteStore, Store, StoreError};

const MOVES: [&str; 8] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
];

type BoxError = Box<dyn std::error::Error>;

fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let backends = args.get(3).map_or("both", String::as_str);
    if !matches!(backends, "sqlite" | "postgres" | "both") {
        return Err(format!("BACKENDS is sqlite, postgres or both, not '{backends}'").into());
    }
    if backends != "postgres" {
        sqlite_bench(games, seconds)?;
    }
    if backends != "sqlite" {
        postgres_bench(games, seconds)?;
    }
    Ok(())
}

fn sqlite_bench(games: usize, seconds: f64) -> Result<(), BoxError> {
    let dir = std::env::current_dir()?.join("target").join("append-bench");
    std::fs::create_dir_all(&dir)?;

    // Single: one transaction per append, 4 connections.
    let path = dir.join("single.db");
    remove_db(&path);
    let setup = SqliteStore::open(&path)?;
    let keys = create_games(&setup, games)?;
    let threads = 4.min(games.max(1));
    let tally = run_writers(&keys, threads, seconds, || SqliteStore::open(&path))?;
    tally.print(&format!("single: {games} games, {threads} writers"));
    check(&setup, &keys, &tally)?;

    // Group commit: one committer, GAMES clients.
    let path = dir.join("group.db");
    remove_db(&path);
    let store = Arc::new(GroupCommitter::start(SqliteStore::open(&path)?, 512)?);
    let keys = create_games(&*store, games)?;
    let tally = run_clients(&store, &keys, seconds)?;
    tally.print(&format!("group:  {games} games, 1 committer"));
    check(store.store(), &keys, &tally)?;
    Ok(())
}

#[cfg(not(feature = "postgres"))]
fn postgres_bench(_games: usize, _seconds: f64) -> Result<(), BoxError> {
    eprintln!("postgres: not built (cargo feature `postgres`)");
    Ok(())
}

/// PostgreSQL, both ways, on the server named by `TABULA_PG_URL`.
#[cfg(feature = "postgres")]
fn postgres_bench(games: usize, seconds: f64) -> Result<(), BoxError> {
    use tabula_store::PgStore;
    let Ok(url) = std::env::var("TABULA_PG_URL") else {
        eprintln!("postgres: TABULA_PG_URL is not set, skipped");
        return Ok(());
    };
    let schema = "append_bench";

    // Single: one transaction per append, one connection per game (up to
    // 64); only the server's own grouping of concurrent WAL flushes helps.
    PgStore::drop_schema(&url, schema)?;
    let setup = PgStore::connect(&url, schema)?;
    let keys = create_games(&setup, games)?;
    let threads = games.clamp(1, 64);
    let tally = run_writers(&keys, threads, seconds, || PgStore::connect(&url, schema))?;
    tally.print(&format!(
        "postgres single: {games} games, {threads} connections"
    ));
    check(&setup, &keys, &tally)?;
    drop(setup);

    // Group commit: one committer on one connection, GAMES clients.
    PgStore::drop_schema(&url, schema)?;
    let store = Arc::new(GroupCommitter::start(PgStore::connect(&url, schema)?, 512)?);
    let keys = create_games(&*store, games)?;
    let tally = run_clients(&store, &keys, seconds)?;
    tally.print(&format!("postgres group:  {games} games, 1 committer"));
    check(store.store(), &keys, &tally)?;
    drop(store);
    PgStore::drop_schema(&url, schema)?;
    Ok(())
}

fn create_games(store: &dyn Store, games: usize) -> Result<Vec<GameKey>, StoreError> {
    (0..games)
        .map(|_| store.create_game(&NewGame::of(GameId::Chess)))
        .collect()
}

/// Appends counted and acknowledgement latencies, shared by the threads.
#[derive(Default)]
struct Tally {
    done: AtomicU64,
    latency_us: AtomicU64,
    max_us: AtomicU64,
    stop: AtomicBool,
    secs: f64,
}

impl Tally {
    fn record(&self, sent: Instant) {
        let us = sent.elapsed().as_micros() as u64;
        self.latency_us.fetch_add(us, Ordering::Relaxed);
        self.max_us.fetch_max(us, Ordering::Relaxed);
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    fn print(&self, what: &str) {
        let n = self.done.load(Ordering::Relaxed);
        println!(
            "{what}: {n} appends in {:.2} s = {:.0} appends/s \
             (mean ack latency {:.2} ms, max {:.1} ms)",
            self.secs,
            n as f64 / self.secs,
            self.latency_us.load(Ordering::Relaxed) as f64 / n.max(1) as f64 / 1000.0,
            self.max_us.load(Ordering::Relaxed) as f64 / 1000.0
        );
    }
}

/// `threads` writers, each with its own store from `open`, going round
/// their share of the games, for `seconds`.
fn run_writers<S, F>(
    keys: &[GameKey],
    threads: usize,
    seconds: f64,
    open: F,
) -> Result<Tally, BoxError>
where
    S: Store,
    F: Fn() -> Result<S, StoreError> + Sync,
{
    let mut tally = Tally::default();
    let start = Instant::now();
    std::thread::scope(|scope| -> Result<(), BoxError> {
        let (tally, open) = (&tally, &open);
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<GameKey> = keys.iter().copied().skip(t).step_by(threads).collect();
                scope.spawn(move || -> Result<(), StoreError> {
                    let store = open()?;
                    let mut ply = vec![0u64; mine.len()];
                    'outer: loop {
                        for (i, key) in mine.iter().enumerate() {
                            if tally.stop.load(Ordering::Relaxed) {
                                break 'outer;
                            }
                            let sent = Instant::now();
                            store.append_action(*key, ply[i], MOVES[ply[i] as usize % 8])?;
                            tally.record(sent);
                            ply[i] += 1;
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        tally.stop.store(true, Ordering::Relaxed);
        for h in handles {
            h.join().map_err(|_| "writer panicked")??;
        }
        Ok(())
    })?;
    tally.secs = start.elapsed().as_secs_f64();
    Ok(tally)
}

/// One client thread per game, each appending through `store` and waiting
/// for the acknowledgement before the next action, for `seconds`.
fn run_clients<S>(store: &Arc<S>, keys: &[GameKey], seconds: f64) -> Result<Tally, BoxError>
where
    S: Store + Send + Sync + 'static,
{
    let mut tally = Tally::default();
    let start = Instant::now();
    std::thread::scope(|scope| -> Result<(), BoxError> {
        let tally = &tally;
        let clients: Vec<_> = keys
            .iter()
            .map(|&key| {
                let store = store.clone();
                scope.spawn(move || -> Result<(), StoreError> {
                    let mut ply = 0u64;
                    while !tally.stop.load(Ordering::Relaxed) {
                        let sent = Instant::now();
                        store.append_action(key, ply, MOVES[ply as usize % 8])?;
                        tally.record(sent);
                        ply += 1;
                    }
                    Ok(())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        tally.stop.store(true, Ordering::Relaxed);
        for c in clients {
            c.join().map_err(|_| "client panicked")??;
        }
        Ok(())
    })?;
    tally.secs = start.elapsed().as_secs_f64();
    Ok(tally)
}

/// Every acknowledged action is there, in order, with no gap (`load_game`
/// checks the plies).
fn check(store: &dyn Store, keys: &[GameKey], tally: &Tally) -> Result<(), BoxError> {
    let mut total = 0;
    for key in keys {
        total += store.load_game(*key)?.actions.len() as u64;
    }
    let acknowledged = tally.done.load(Ordering::Relaxed);
    if total != acknowledged {
        return Err(format!("{acknowledged} appends acknowledged but {total} stored").into());
    }
    println!(
        "        verified: {total} actions stored in {} games",
        keys.len()
    );
    Ok(())
}

fn remove_db(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}
