//! Durable appends per second on SQLite, many games at once.
//!
//! `cargo run --release -p tabula-store --example append_bench -- [GAMES] [SECONDS]`
//!
//! Two ways of writing, each for SECONDS on a fresh database file next to
//! the target directory (WAL, `synchronous=FULL`: every acknowledged append
//! has been fsynced):
//! - `single`: 4 writer threads, each with its own connection, each append
//!   its own transaction (`Store::append_action`);
//! - `group`: GAMES client threads, one per game, append through a
//!   `GroupCommitter` (whatever is queued, up to 512, goes into one
//!   transaction: one fsync per batch); a client waits for its
//!   acknowledgement before sending the game's next action, as a server must.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tabula_core::GameId;
use tabula_store::{GameKey, GroupCommitter, NewGame, SqliteStore, Store, StoreError};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let dir = std::env::current_dir()?.join("target").join("append-bench");
    std::fs::create_dir_all(&dir)?;
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];

    // Single: one transaction per append, 4 connections.
    {
        let path = dir.join("single.db");
        remove_db(&path);
        let setup = SqliteStore::open(&path)?;
        let keys: Vec<GameKey> = (0..games)
            .map(|_| setup.create_game(&NewGame::of(GameId::Chess)))
            .collect::<Result<_, _>>()?;
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let threads = 4.min(games.max(1));
        let start = Instant::now();
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<GameKey> = keys.iter().copied().skip(t).step_by(threads).collect();
                let (done, stop, path) = (done.clone(), stop.clone(), path.clone());
                std::thread::spawn(move || -> Result<(), StoreError> {
                    let store = SqliteStore::open(&path)?;
                    let mut ply = vec![0u64; mine.len()];
                    'outer: loop {
                        for (i, key) in mine.iter().enumerate() {
                            if stop.load(Ordering::Relaxed) {
                                break 'outer;
                            }
                            store.append_action(*key, ply[i], moves[ply[i] as usize % 8])?;
                            ply[i] += 1;
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            h.join().map_err(|_| "writer panicked")??;
        }
        let secs = start.elapsed().as_secs_f64();
        let n = done.load(Ordering::Relaxed);
        println!(
            "single: {games} games, {threads} writers: {n} appends in {secs:.2} s = {:.0} appends/s",
            n as f64 / secs
        );
        check(&setup, &keys)?;
    }

    // Group commit: one committer, GAMES clients.
    {
        let path = dir.join("group.db");
        remove_db(&path);
        let store = GroupCommitter::start(SqliteStore::open(&path)?, 512)?;
        let keys: Vec<GameKey> = (0..games)
            .map(|_| store.create_game(&NewGame::of(GameId::Chess)))
            .collect::<Result<_, _>>()?;
        let store = Arc::new(store);
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let latency_us = Arc::new(AtomicU64::new(0));
        let max_us = Arc::new(AtomicU64::new(0));
        let start = Instant::now();
        let clients: Vec<_> = keys
            .iter()
            .map(|key| {
                let (key, store) = (*key, store.clone());
                let (done, stop) = (done.clone(), stop.clone());
                let (latency_us, max_us) = (latency_us.clone(), max_us.clone());
                std::thread::spawn(move || -> Result<(), StoreError> {
                    let mut ply = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let sent = Instant::now();
                        store.append_action(key, ply, moves[ply as usize % 8])?;
                        let us = sent.elapsed().as_micros() as u64;
                        latency_us.fetch_add(us, Ordering::Relaxed);
                        max_us.fetch_max(us, Ordering::Relaxed);
                        ply += 1;
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, Ordering::Relaxed);
        for c in clients {
            c.join().map_err(|_| "client panicked")??;
        }
        let secs = start.elapsed().as_secs_f64();
        let n = done.load(Ordering::Relaxed);
        println!(
            "group:  {games} games, 1 committer: {n} appends in {secs:.2} s = {:.0} appends/s \
             (mean ack latency {:.2} ms, max {:.1} ms)",
            n as f64 / secs,
            latency_us.load(Ordering::Relaxed) as f64 / n.max(1) as f64 / 1000.0,
            max_us.load(Ordering::Relaxed) as f64 / 1000.0
        );
        check(store.store(), &keys)?;
    }
    #[cfg(feature = "postgres")]
    if let Ok(url) = std::env::var("TABULA_PG_URL") {
        postgres_bench(&url, games, seconds, &moves)?;
    }
    Ok(())
}

/// PostgreSQL: one thread and one connection per game (up to 64), each
/// append its own transaction; the server's WAL flush serves concurrent
/// commits together.
#[cfg(feature = "postgres")]
fn postgres_bench(
    url: &str,
    games: usize,
    seconds: f64,
    moves: &[&'static str; 8],
) -> Result<(), Box<dyn std::error::Error>> {
    use tabula_store::PgStore;
    let schema = "append_bench";
    PgStore::drop_schema(url, schema)?;
    let setup = PgStore::connect(url, schema)?;
    let keys: Vec<GameKey> = (0..games)
        .map(|_| setup.create_game(&NewGame::of(GameId::Chess)))
        .collect::<Result<_, _>>()?;
    let threads = games.clamp(1, 64);
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let mine: Vec<GameKey> = keys.iter().copied().skip(t).step_by(threads).collect();
            let (done, stop, url, moves) = (done.clone(), stop.clone(), url.to_owned(), *moves);
            std::thread::spawn(move || -> Result<(), StoreError> {
                let store = PgStore::connect(&url, schema)?;
                let mut ply = vec![0u64; mine.len()];
                'outer: loop {
                    for (i, key) in mine.iter().enumerate() {
                        if stop.load(Ordering::Relaxed) {
                            break 'outer;
                        }
                        store.append_action(*key, ply[i], moves[ply[i] as usize % 8])?;
                        ply[i] += 1;
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Ok(())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.join().map_err(|_| "writer panicked")??;
    }
    let secs = start.elapsed().as_secs_f64();
    let n = done.load(Ordering::Relaxed);
    println!(
        "postgres: {games} games, {threads} connections: {n} appends in {secs:.2} s = {:.0} appends/s",
        n as f64 / secs
    );
    let mut total = 0;
    for key in &keys {
        total += setup.load_game(*key)?.actions.len();
    }
    println!(
        "        verified: {total} actions stored in {} games",
        keys.len()
    );
    PgStore::drop_schema(url, schema)?;
    Ok(())
}

/// Every game's actions are there, in order, with no gap.
fn check(store: &SqliteStore, keys: &[GameKey]) -> Result<(), Box<dyn std::error::Error>> {
    let mut total = 0;
    for key in keys {
        total += store.load_game(*key)?.actions.len();
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
