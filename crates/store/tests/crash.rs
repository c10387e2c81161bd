//! Crash safety on every backend: a writer stopped dead in the middle of a
//! stream of games loses no acknowledged action, never leaves part of an
//! import behind, and every game resumes.
//!
//! The writer is this test executable re-invoked with
//! `TABULA_STORE_CRASH_BACKEND` naming the store (`sqlite:PATH`,
//! `sqlite-group:PATH`, `pg:SCHEMA` or `pg-group:SCHEMA`; `-group` puts a
//! `GroupCommitter` in front) and `TABULA_STORE_CRASH_THREADS` writer
//! threads. `crash_child_writer` then plays, on each thread, seeded random
//! games of every kind, appending each action and printing
//! `ack GAME PLY ACTION` only after the append returned; every third game
//! of a thread is instead a whole finished game of 100 to 150 actions
//! stored with one `import_game`, between `importing NO` and
//! `imported GAME NO N`. The test kills the writer with SIGKILL at a chosen
//! point, reopens the store and checks every game in it: each acknowledged
//! action is there, a streamed game holds at most the one append that was
//! in flight beyond its acknowledgements, an import is either absent or all
//! there with its result, and each game replays and takes its next action.
//!
//! PostgreSQL (feature `postgres`): the same tests run when `TABULA_PG_URL`
//! names a server, each in a fresh schema dropped at the end. When
//! `TABULA_PG_CRASH` is set too, to a shell command that crashes and
//! restarts the server (`pg_ctlcluster 15 main stop -m immediate &&
//! pg_ctlcluster 15 main start`), one more test runs it in the middle of the
//! stream instead of killing the writer. It takes the whole server down:
//! do not point it at a server anything else is using.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use tabula_core::{EndReason, GameId, Outcome};
use tabula_store::{GameKey, GroupCommitter, NewGame, SqliteStore, Store, StoreError};

use common::{RandomPlay, random_game, scratch_dir};

const BACKEND_VAR: &str = "TABULA_STORE_CRASH_BACKEND";
const THREADS_VAR: &str = "TABULA_STORE_CRASH_THREADS";
/// A streamed game stops after this many actions (if it has not ended).
const PLIES_PER_GAME: usize = 40;
/// Every third game of a writer thread is an import.
const IMPORT_EVERY: u64 = 3;
const IMPORT_MIN_PLIES: usize = 100;
const IMPORT_MAX_PLIES: usize = 150;
/// The tag that marks an import, with its game number.
const IMPORT_TAG: &str = "CrashImport";
/// Imports acknowledged before the writer may be stopped.
const MIN_IMPORTS: usize = 2;
const GROUP_MAX_BATCH: usize = 64;
/// The writer must reach its stopping point, and end, within this.
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// The child's exit code once every writer thread has failed.
const WRITER_FAILED: i32 = 3;

fn seed_of(no: u64) -> u64 {
    1000 + no
}

fn kind_of(no: u64) -> GameId {
    GameId::ALL[(no % GameId::ALL.len() as u64) as usize]
}

/// Game number `no` as an import: a seeded random game of 100 to 150
/// actions with its result (a draw by agreement where play stopped, if the
/// game had not ended), tagged with its number.
struct Import {
    new: NewGame,
    actions: Vec<String>,
    outcome: Outcome,
}

impl Import {
    fn of(no: u64) -> Import {
        // Warrior is left out: its random games run to the fifty-moves
        // limit, thousands of actions, and would only slow the test.
        const KINDS: [GameId; 5] = [
            GameId::Chess,
            GameId::Epoch,
            GameId::Skirmish,
            GameId::Covenant,
            GameId::Lytharia,
        ];
        let id = KINDS[(no % KINDS.len() as u64) as usize];
        let mut seed = 1_000_000 + no * 64;
        loop {
            let (actions, game) = random_game(id, &[], seed, IMPORT_MAX_PLIES);
            if actions.len() >= IMPORT_MIN_PLIES {
                let mut new = NewGame::of(id);
                new.seed = Some(seed);
                new.tags = vec![(IMPORT_TAG.to_owned(), no.to_string())];
                let outcome = game
                    .outcome()
                    .unwrap_or(Outcome::draw(EndReason::Agreement));
                return Import {
                    new,
                    actions,
                    outcome,
                };
            }
            seed += 1;
        }
    }
}

/// Where the writer writes.
#[derive(Debug, Clone)]
struct Backend {
    pg: bool,
    group: bool,
    /// The SQLite file or the PostgreSQL schema.
    place: String,
}

impl Backend {
    fn sqlite(path: &Path, group: bool) -> Backend {
        Backend {
            pg: false,
            group,
            place: path.to_str().expect("a UTF-8 path").to_owned(),
        }
    }

    fn name(&self) -> &'static str {
        match (self.pg, self.group) {
            (false, false) => "sqlite",
            (false, true) => "sqlite-group",
            (true, false) => "pg",
            (true, true) => "pg-group",
        }
    }

    fn spec(&self) -> String {
        format!("{}:{}", self.name(), self.place)
    }

    fn parse(spec: &str) -> Backend {
        let (name, place) = spec.split_once(':').expect("BACKEND:PLACE");
        assert!(
            ["sqlite", "sqlite-group", "pg", "pg-group"].contains(&name),
            "unknown backend {name}"
        );
        Backend {
            pg: name.starts_with("pg"),
            group: name.ends_with("-group"),
            place: place.to_owned(),
        }
    }

    fn open(&self) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
        if self.pg {
            return open_pg(&self.place, self.group);
        }
        let store = SqliteStore::open(&self.place)?;
        Ok(if self.group {
            Box::new(GroupCommitter::start(store, GROUP_MAX_BATCH)?)
        } else {
            Box::new(store)
        })
    }
}

#[cfg(feature = "postgres")]
fn open_pg(schema: &str, group: bool) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
    let url = std::env::var("TABULA_PG_URL")
        .map_err(|_| StoreError::Invalid("TABULA_PG_URL is not set".to_owned()))?;
    let store = tabula_store::PgStore::connect(&url, schema)?;
    Ok(if group {
        Box::new(GroupCommitter::start(store, GROUP_MAX_BATCH)?)
    } else {
        Box::new(store)
    })
}

#[cfg(not(feature = "postgres"))]
fn open_pg(_: &str, _: bool) -> Result<Box<dyn Store + Send + Sync>, StoreError> {
    Err(StoreError::Invalid(
        "built without the postgres feature".to_owned(),
    ))
}

/// One whole line on stdout, flushed.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .expect("stdout");
}

/// The writer. Does nothing unless started by a test below.
#[test]
fn crash_child_writer() {
    let Ok(spec) = std::env::var(BACKEND_VAR) else {
        return;
    };
    let threads: u64 = std::env::var(THREADS_VAR)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    // Ends libtest's "test crash_child_writer ... " line.
    say("");
    let store: Arc<dyn Store + Send + Sync> = Backend::parse(&spec)
        .open()
        .expect("the store opens")
        .into();
    let writers: Vec<_> = (0..threads)
        .map(|thread| {
            let store = store.clone();
            std::thread::spawn(move || write_games(&*store, thread, threads))
        })
        .collect();
    for writer in writers {
        let _ = writer.join();
    }
    // Every thread stopped on an error (the server went away).
    std::process::exit(WRITER_FAILED);
}

/// Writes games number `thread`, `thread + threads`, ... until the store
/// fails.
fn write_games(store: &dyn Store, thread: u64, threads: u64) -> StoreError {
    for round in 0u64.. {
        let no = round * threads + thread;
        let written = if round % IMPORT_EVERY == IMPORT_EVERY - 1 {
            import_one(store, no)
        } else {
            stream_one(store, no)
        };
        if let Err(e) = written {
            say(&format!("error {thread} {e}"));
            return e;
        }
    }
    unreachable!()
}

fn stream_one(store: &dyn Store, no: u64) -> Result<(), StoreError> {
    let (id, seed) = (kind_of(no), seed_of(no));
    let mut new = NewGame::of(id);
    new.seed = Some(seed);
    let key = store.create_game(&new)?;
    say(&format!("game {key} {no}"));
    let mut play = RandomPlay::new(id, &[], seed);
    for ply in 0..PLIES_PER_GAME {
        let Some(action) = play.step() else { break };
        store.append_action(key, ply as u64, &action)?;
        say(&format!("ack {key} {ply} {action}"));
    }
    Ok(())
}

fn import_one(store: &dyn Store, no: u64) -> Result<(), StoreError> {
    let import = Import::of(no);
    say(&format!("importing {no}"));
    let key = store.import_game(&import.new, &import.actions, Some(&import.outcome))?;
    say(&format!("imported {key} {no} {}", import.actions.len()));
    Ok(())
}

/// What the writer acknowledged.
#[derive(Debug, Default)]
struct Seen {
    /// Streamed games announced: key to game number.
    streams: BTreeMap<i64, u64>,
    /// Acknowledged actions of each streamed game, in ply order.
    acks: BTreeMap<i64, Vec<String>>,
    n_acks: usize,
    /// Game numbers of the imports begun.
    importing: BTreeSet<u64>,
    /// Imports acknowledged: key to game number and action count.
    imported: BTreeMap<i64, (u64, usize)>,
    errors: Vec<String>,
    /// How many writer threads (game `no` is thread `no % threads`'s).
    threads: u64,
    /// Each thread's streamed game under way, if its last line was of one.
    streaming: BTreeMap<u64, i64>,
}

/// A line of the writer, as far as the stopping point cares.
#[derive(Debug, Clone, Copy)]
enum Event {
    Ack { game: i64, ply: usize },
    Importing(u64),
    Other,
}

fn num<T: FromStr>(text: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    text.parse()
        .unwrap_or_else(|e| panic!("bad number '{text}': {e:?}"))
}

impl Seen {
    fn new(threads: u64) -> Self {
        Seen {
            threads,
            ..Seen::default()
        }
    }

    /// Whether some thread is in the middle of a streamed game: past its
    /// first acknowledged action and short of its last.
    fn stream_under_way(&self) -> bool {
        self.streaming.values().any(|key| {
            let n = self.acks.get(key).map_or(0, Vec::len);
            (1..PLIES_PER_GAME - 1).contains(&n)
        })
    }

    fn record(&mut self, line: &str) -> Event {
        let parts: Vec<&str> = line.splitn(4, ' ').collect();
        match parts.as_slice() {
            ["game", key, no] => {
                let no: u64 = num(no);
                let old = self.streams.insert(num(key), no);
                assert!(old.is_none(), "game {key} announced twice");
                self.streaming.insert(no % self.threads.max(1), num(key));
                Event::Other
            }
            ["ack", key, ply, action] => {
                let game = num(key);
                assert!(
                    self.streams.contains_key(&game),
                    "an ack of game {key} before the game: {line}"
                );
                let acks = self.acks.entry(game).or_default();
                let ply = num(ply);
                assert_eq!(ply, acks.len(), "ack out of order: {line}");
                acks.push((*action).to_owned());
                self.n_acks += 1;
                Event::Ack { game, ply }
            }
            ["importing", no] => {
                let no = num(no);
                assert!(self.importing.insert(no), "import {no} begun twice");
                self.streaming.remove(&(no % self.threads.max(1)));
                Event::Importing(no)
            }
            ["imported", key, no, n] => {
                let no = num(no);
                assert!(self.importing.contains(&no), "import {no} never begun");
                self.imported.insert(num(key), (no, num(n)));
                Event::Other
            }
            ["error", ..] => {
                self.errors.push(line.to_owned());
                Event::Other
            }
            _ => Event::Other,
        }
    }
}

/// Where to stop the writer, once it has acknowledged `min_acks` actions
/// and [`MIN_IMPORTS`] imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// On an acknowledgement in the middle of a streamed game (ply 5 to 30).
    Ack,
    /// As an import begins.
    Import,
}

/// How to stop it.
#[derive(Debug, Clone)]
enum How {
    /// SIGKILL.
    Kill,
    /// Run this shell command, which crashes and restarts the database
    /// server; the writer sees errors and exits.
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    ServerCrash(String),
}

#[derive(Debug, Clone)]
struct Plan {
    threads: u64,
    min_acks: usize,
    at: At,
    how: How,
}

/// Kills the writer if the test gives up on it.
struct Writer(Child);

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs the writer on `backend`, stops it as `plan` says, then checks the
/// store.
fn crash_and_check(backend: &Backend, plan: &Plan) {
    let started = Instant::now();
    let name = backend.name();
    let mut writer = Writer(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "crash_child_writer",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(BACKEND_VAR, backend.spec())
            .env(THREADS_VAR, plan.threads.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the writer starts"),
    );
    let stdout = writer.0.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Seen::new(plan.threads);
    let mut stopped: Option<(Event, usize, usize)> = None;
    let deadline = started + TIME_LIMIT;
    loop {
        // Lines already in the pipe when the writer died were acknowledged
        // too: read to the end.
        let line = match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!(
                "{name}: the writer was still going after {TIME_LIMIT:?} \
                 ({} acks, {} imports, stopped: {stopped:?})",
                seen.n_acks,
                seen.imported.len()
            ),
        };
        let event = seen.record(&line);
        // With several threads, the stop also lands while another thread
        // streams a game, so the check sees one cut short.
        let at = match event {
            Event::Ack { ply, .. } => plan.at == At::Ack && (5..=30).contains(&ply),
            Event::Importing(_) => {
                plan.at == At::Import && (plan.threads < 2 || seen.stream_under_way())
            }
            Event::Other => false,
        };
        if stopped.is_none()
            && at
            && seen.n_acks >= plan.min_acks
            && seen.imported.len() >= MIN_IMPORTS
        {
            match &plan.how {
                How::Kill => writer.0.kill().expect("SIGKILL"),
                How::ServerCrash(command) => crash_server(command),
            }
            stopped = Some((event, seen.n_acks, seen.imported.len()));
        }
    }
    let status = writer.0.wait().unwrap();
    let Some((stopped_at, acks_then, imports_then)) = stopped else {
        panic!(
            "{name}: the writer ended on its own ({status}) after {} acks and {} imports: {:?}",
            seen.n_acks,
            seen.imported.len(),
            seen.errors
        );
    };
    match plan.how {
        How::Kill => {
            assert!(seen.errors.is_empty(), "{name}: {:?}", seen.errors);
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                assert_eq!(status.signal(), Some(9), "{name}: not killed: {status}");
            }
            assert!(!status.success(), "{name}: {status}");
        }
        How::ServerCrash(_) => {
            // Every writer thread saw the server go and the writer gave up.
            assert_eq!(
                seen.errors.len() as u64,
                plan.threads,
                "{name}: {:?}",
                seen.errors
            );
            assert_eq!(status.code(), Some(WRITER_FAILED), "{name}: {status}");
        }
    }
    assert!(acks_then >= plan.min_acks && imports_then >= MIN_IMPORTS);

    let store = reopen(backend);
    let checked = check(&*store, &seen, plan.threads);
    // The writer was stopped in the middle of the stream: with several
    // threads, some streamed game was cut short (one thread alone may be
    // between games, or importing).
    if plan.threads > 1 {
        assert!(
            checked.cut_short >= 1,
            "{name}: no streamed game was in progress: {checked:?}"
        );
    }
    let landed = match stopped_at {
        Event::Importing(no) if seen.imported.values().any(|&(n, _)| n == no) => {
            format!("as import {no} began (acknowledged before the writer stopped)")
        }
        Event::Importing(no) if checked.unacknowledged_imports.contains(&no) => {
            format!("as import {no} began (stored whole, unacknowledged)")
        }
        Event::Importing(no) => format!("as import {no} began (absent)"),
        Event::Ack { game, ply } => format!("on the ack of game {game} ply {ply}"),
        Event::Other => unreachable!(),
    };
    eprintln!(
        "crash test {name} ({} writer thread(s), {how}): stopped {landed} after {acks_then} acks \
         and {imports_then} imports; {} acks and {} imports read in all; the store has {} streamed \
         games ({} cut short, {} resumed) and {} imports; {:.2?}",
        plan.threads,
        seen.n_acks,
        seen.imported.len(),
        checked.streams,
        checked.cut_short,
        checked.resumed,
        checked.imports,
        started.elapsed(),
        how = match plan.how {
            How::Kill => "SIGKILL",
            How::ServerCrash(_) => "server crash",
        },
    );
}

/// Runs the shell command that crashes and restarts the server.
fn crash_server(command: &str) {
    let status = Command::new("sh")
        .args(["-c", command])
        .stdin(Stdio::null())
        .status()
        .expect("sh runs");
    assert!(status.success(), "`{command}` failed: {status}");
}

/// The store again, waiting (for a restarting server) until it accepts
/// connections.
fn reopen(backend: &Backend) -> Box<dyn Store + Send + Sync> {
    let until = Instant::now() + TIME_LIMIT;
    loop {
        match backend.open() {
            Ok(store) => return store,
            Err(_) if backend.pg && Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(e) => panic!("{}: the store does not reopen: {e}", backend.name()),
        }
    }
}

#[derive(Debug, Default)]
struct Checked {
    streams: usize,
    /// Streamed games stored with 1 to 39 actions and not over.
    cut_short: usize,
    resumed: usize,
    imports: usize,
    /// Game numbers of the imports stored but not acknowledged.
    unacknowledged_imports: BTreeSet<u64>,
}

/// Checks every game in `store` against what the writer acknowledged.
fn check(store: &dyn Store, seen: &Seen, threads: u64) -> Checked {
    let load = |key: i64| {
        store
            .load_game(GameKey(key))
            .unwrap_or_else(|e| panic!("game {key}: {e}"))
    };
    // Every acknowledged action is there.
    for (key, acked) in &seen.acks {
        let stored = load(*key);
        assert!(
            stored.actions.len() >= acked.len() && stored.actions[..acked.len()] == acked[..],
            "game {key}: acknowledged {acked:?}, stored {:?}",
            stored.actions
        );
    }
    // Every acknowledged game and import is there.
    for key in seen.streams.keys().chain(seen.imported.keys()) {
        load(*key);
    }
    let mut checked = Checked::default();
    let mut numbers = BTreeSet::new();
    let mut unannounced = 0;
    for summary in store.list_games().unwrap() {
        let key = summary.key;
        let stored = store.load_game(key).unwrap();
        let n = stored.actions.len();
        assert_eq!(summary.plies, n as u64, "game {key}");
        // Chance outcomes checked against the seed, the result against
        // the final position.
        let state = stored
            .record()
            .replay()
            .unwrap_or_else(|e| panic!("game {key}: {e}"));
        if let Some((_, no)) = stored.header.tags.iter().find(|(t, _)| t == IMPORT_TAG) {
            // An import: all of it, or it would not be here.
            let no: u64 = num(no);
            assert!(numbers.insert(no), "game number {no} stored twice");
            let import = Import::of(no);
            assert_eq!(
                n,
                import.actions.len(),
                "import {no} (game {key}) is partial"
            );
            assert_eq!(stored.header, import.new, "import {no} (game {key})");
            assert_eq!(stored.actions, import.actions, "import {no} (game {key})");
            assert_eq!(
                stored.result,
                Some(import.outcome),
                "import {no} (game {key})"
            );
            match seen.imported.get(&key.0) {
                Some(&acked) => assert_eq!(acked, (no, n), "import {no} (game {key})"),
                None => {
                    // The one in flight on its thread.
                    assert!(seen.importing.contains(&no), "import {no} never begun");
                    checked.unacknowledged_imports.insert(no);
                }
            }
            checked.imports += 1;
            continue;
        }
        let seed = stored.header.seed.expect("a streamed game has a seed");
        let no = seed - seed_of(0);
        let id = kind_of(no);
        assert!(numbers.insert(no), "game number {no} stored twice");
        assert_eq!(stored.header.game, Some(id), "game {key}");
        assert_eq!(stored.result, None, "game {key}");
        match seen.streams.get(&key.0) {
            Some(&announced) => assert_eq!(announced, no, "game {key}"),
            None => {
                // Created, then the writer stopped before saying so.
                assert_eq!(n, 0, "game {key} was never announced");
                unannounced += 1;
            }
        }
        let acked = seen.acks.get(&key.0).map_or(0, Vec::len);
        assert!(
            n <= acked + 1,
            "game {key}: {n} actions stored, {acked} acknowledged: more than one in flight"
        );
        let (expected, expected_state) = random_game(id, &[], seed, n);
        assert_eq!(stored.actions, expected, "game {key}");
        assert_eq!(state.to_text(), expected_state.to_text(), "game {key}");
        checked.streams += 1;
        if state.outcome().is_some() {
            continue;
        }
        if (1..PLIES_PER_GAME).contains(&n) {
            checked.cut_short += 1;
        }
        // It resumes where it stopped, with the action it would have
        // played next.
        let (next, after) = random_game(id, &[], seed, n + 1);
        assert_eq!(next.len(), n + 1, "game {key} can go on");
        store.append_action(key, n as u64, &next[n]).unwrap();
        let state = store.load_game(key).unwrap().record().replay().unwrap();
        assert_eq!(state.to_text(), after.to_text(), "game {key}");
        checked.resumed += 1;
    }
    // At most one thing in flight per writer thread.
    assert!(unannounced <= threads, "{unannounced} unannounced games");
    assert!(
        checked.unacknowledged_imports.len() as u64 <= threads,
        "{checked:?}"
    );
    assert!(
        checked.imports >= seen.imported.len() && seen.imported.len() >= MIN_IMPORTS,
        "{checked:?}"
    );
    assert!(checked.resumed >= 5, "{checked:?}");
    checked
}

#[test]
fn sqlite_acknowledged_actions_survive_sigkill_and_games_resume() {
    let dir = scratch_dir("crash");
    let plan = Plan {
        threads: 1,
        min_acks: 250,
        at: At::Ack,
        how: How::Kill,
    };
    crash_and_check(&Backend::sqlite(&dir.join("crash.db"), false), &plan);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sqlite_group_commit_keeps_every_threads_acks_through_sigkill() {
    let dir = scratch_dir("crash-group");
    let plan = Plan {
        threads: 4,
        min_acks: 600,
        at: At::Import,
        how: How::Kill,
    };
    crash_and_check(&Backend::sqlite(&dir.join("crash.db"), true), &plan);
    let _ = std::fs::remove_dir_all(dir);
}

/// The same against PostgreSQL.
#[cfg(feature = "postgres")]
mod pg {
    use std::sync::Mutex;

    use tabula_store::PgStore;

    use super::{At, Backend, How, Plan, crash_and_check};

    /// The server-crash test takes the server down: the PostgreSQL tests
    /// here run one at a time.
    static SERVER: Mutex<()> = Mutex::new(());

    /// A fresh schema on the server named by `TABULA_PG_URL` (dropped when
    /// this is), or `None` and a note on stderr when it is not set.
    struct Schema {
        url: String,
        name: String,
    }

    impl Schema {
        fn fresh(test: &str) -> Option<Schema> {
            let Ok(url) = std::env::var("TABULA_PG_URL") else {
                eprintln!("TABULA_PG_URL is not set: skipping the PostgreSQL test {test}");
                return None;
            };
            let name = format!("t_crash_{test}_{}", std::process::id());
            PgStore::drop_schema(&url, &name).expect("a clean schema");
            Some(Schema { url, name })
        }

        fn backend(&self, group: bool) -> Backend {
            Backend {
                pg: true,
                group,
                place: self.name.clone(),
            }
        }
    }

    impl Drop for Schema {
        fn drop(&mut self) {
            let _ = PgStore::drop_schema(&self.url, &self.name);
        }
    }

    #[test]
    fn pg_acknowledged_actions_survive_sigkill_and_games_resume() {
        let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
        let Some(schema) = Schema::fresh("kill") else {
            return;
        };
        let plan = Plan {
            threads: 2,
            min_acks: 150,
            at: At::Import,
            how: How::Kill,
        };
        crash_and_check(&schema.backend(false), &plan);
    }

    #[test]
    fn pg_group_commit_keeps_every_threads_acks_through_sigkill() {
        let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
        let Some(schema) = Schema::fresh("kill_group") else {
            return;
        };
        let plan = Plan {
            threads: 4,
            min_acks: 600,
            at: At::Ack,
            how: How::Kill,
        };
        crash_and_check(&schema.backend(true), &plan);
    }

    /// The server itself crashes (`TABULA_PG_CRASH`) in the middle of the
    /// stream, and restarts.
    #[test]
    fn pg_server_crash_loses_no_acknowledged_action() {
        let _server = SERVER.lock().unwrap_or_else(|e| e.into_inner());
        let Ok(command) = std::env::var("TABULA_PG_CRASH") else {
            eprintln!(
                "TABULA_PG_CRASH is not set: skipping the PostgreSQL server crash test \
                 pg_server_crash_loses_no_acknowledged_action"
            );
            return;
        };
        let Some(schema) = Schema::fresh("server") else {
            return;
        };
        let plan = Plan {
            threads: 3,
            min_acks: 200,
            at: At::Import,
            how: How::ServerCrash(command),
        };
        crash_and_check(&schema.backend(true), &plan);
    }
}
