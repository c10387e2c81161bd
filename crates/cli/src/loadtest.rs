//! `tabula loadtest`: many concurrent tables of every game played through
//! the server's WebSocket API exactly as clients play them (docs/api.md),
//! measuring acknowledged actions per second, acknowledgement latency and
//! the memory an idle table costs, then checking that every table's stored
//! record replays to the state its players last saw.
//!
//! Each human seat is one connection: it waits for its view, picks one of
//! `view.legal` with its own seeded stream and sends that entry's JSON form
//! with the view's `ply`. An action is acknowledged by the first view whose
//! `ply` is past the one it was chosen on (the server sends no other
//! acknowledgement); the latency is the time from sending to that view.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tabula_core::{GameId, GameRng, Seed};
use tabula_games::AnyGame;
use tabula_server::{App, Limits};
use tabula_store::{GameKey, GroupCommitter, SqliteStore, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// `tabula loadtest`'s options.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// How many tables play at once.
    #[arg(long, default_value_t = 1000)]
    pub tables: usize,
    /// The seed every table's chance stream and every seat's choices derive from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play for this many seconds (a table whose game ends is replaced by a
    /// new one) [default: 30 unless --actions-per-table].
    #[arg(long, value_name = "SECS", conflicts_with = "actions_per_table")]
    pub duration: Option<f64>,
    /// Stop each table after this many acknowledged actions (or when its
    /// game ends, if sooner).
    #[arg(long, value_name = "N")]
    pub actions_per_table: Option<usize>,
    /// Load a running `tabula serve` at this address instead of starting a
    /// server in this process (then --db must name its game store, for the
    /// final check).
    #[arg(long, value_name = "http://HOST:PORT")]
    pub url: Option<String>,
    /// The SQLite game store [default: a temporary file, removed afterwards].
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// A PostgreSQL game store instead (`postgres://…` or `host=… user=…
    /// dbname=…`; a build with `--features postgres`); its tables stay in
    /// the database's `tabula` schema.
    #[arg(long, value_name = "URL", conflicts_with = "db")]
    pub database_url: Option<String>,
    /// Group-commit the in-process server's appends, as `tabula serve` does
    /// (many tables' actions in one transaction and one durable commit;
    /// `tabula_store::GroupCommitter`), with SQLite or PostgreSQL.
    #[arg(long, conflicts_with = "url")]
    pub group_commit: bool,
    /// Offer this many actions a second in all, spread evenly over the
    /// tables (each table acts every `tables / rate` seconds), instead of
    /// every seat answering its view at once: the latency then is the
    /// server's at that load, not the queue of a saturated run.
    #[arg(long, value_name = "ACTIONS_PER_SEC")]
    pub rate: Option<f64>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One table's pace under `--rate`: its actions are spaced `interval`
/// apart from a phase of its own, so that the tables together offer the
/// rate. A table that falls behind (its acknowledgements are slower than
/// the interval) acts at once, without bursting to catch up.
struct Schedule {
    interval: Duration,
    next: std::sync::Mutex<Instant>,
}

impl Schedule {
    /// The moment the table's next action may be sent.
    fn slot(&self) -> Instant {
        let now = Instant::now();
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let at = (*next).max(now);
        *next = at + self.interval;
        at
    }
}

/// The games the tables cycle through: every game id, and four-seat
/// Warrior Chess as well as two-seat.
const GAMES: [(GameId, &[(&str, &str)]); 7] = [
    (GameId::Chess, &[]),
    (GameId::Epoch, &[]),
    (GameId::Skirmish, &[]),
    (GameId::Warrior, &[]),
    (GameId::Covenant, &[]),
    (GameId::Lytharia, &[]),
    (GameId::Warrior, &[("players", "4")]),
];

/// How many tables a client address opens before the next table's
/// request comes from another loopback address: the server limits
/// unfinished tables per address (`Limits::open_tables_per_address`).
const TABLES_PER_ADDRESS: usize = 50;

/// A connection sends at most this many messages a second, and this many
/// at once: under the server's own limits (`tabula_server::PER_SECOND`,
/// `BURST`), as a well-behaved client does.
const CLIENT_PER_SECOND: f64 = 18.0;
const CLIENT_BURST: f64 = 30.0;

/// How long any one message may take before the run counts it as a failure.
const WAIT: Duration = Duration::from_secs(60);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Runs the load test and prints its report.
pub fn run(args: LoadtestArgs, out: &mut impl Write) -> Result<()> {
    if args.tables == 0 {
        bail!("--tables must be at least 1");
    }
    if args.actions_per_table == Some(0) {
        bail!("--actions-per-table must be at least 1");
    }
    if let Some(d) = args.duration
        && !(d.is_finite() && d > 0.0)
    {
        bail!("--duration must be a positive number of seconds");
    }
    if args.url.is_some() && args.db.is_none() && args.database_url.is_none() {
        bail!(
            "--url needs --db or --database-url, the served game store, to check what was stored"
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    // The stores are opened and dropped outside the runtime: PostgreSQL's
    // synchronous client runs a runtime of its own.
    let (store, temp) = open_store(&args)?;
    let report = runtime.block_on(load(&args, Arc::clone(&store)));
    drop(runtime);
    drop(store);
    if let Some(path) = temp {
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
    let report = report?;
    if args.json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        report.print(out)?;
    }
    if report.lost > 0 || report.mismatched > 0 {
        bail!(
            "{} acknowledged actions lost, {} tables whose record does not replay to what their players saw",
            report.lost,
            report.mismatched
        );
    }
    Ok(())
}

/// The server under load: started here or already running.
struct Target {
    addr: SocketAddr,
    store: Arc<dyn Store + Send + Sync>,
    in_process: bool,
    stop: Option<(
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    )>,
}

/// The game store the run checks (and, in process, serves from), and the
/// temporary file to remove afterwards.
#[allow(clippy::type_complexity)]
fn open_store(args: &LoadtestArgs) -> Result<(Arc<dyn Store + Send + Sync>, Option<PathBuf>)> {
    let (path, temp) = match &args.db {
        Some(path) => (path.clone(), None),
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            let path = std::env::temp_dir()
                .join(format!("tabula-loadtest-{}-{nanos}.db", std::process::id()));
            (path.clone(), Some(path))
        }
    };
    let opened: Box<dyn Store + Send + Sync> = match &args.database_url {
        Some(url) => tabula_store::open(None, Some(url)).context("opening the PostgreSQL store")?,
        None => Box::new(
            SqliteStore::open(&path)
                .with_context(|| format!("opening the game store {}", path.display()))?,
        ),
    };
    let temp = temp.filter(|_| args.database_url.is_none());
    // As `tabula serve` runs it: one committer over the store.
    let store: Arc<dyn Store + Send + Sync> = if args.group_commit {
        Arc::new(GroupCommitter::start(opened, 512).context("starting the group committer")?)
    } else {
        Arc::from(opened)
    };
    Ok((store, temp))
}

impl Target {
    async fn start(args: &LoadtestArgs, store: Arc<dyn Store + Send + Sync>) -> Result<Target> {
        if let Some(url) = &args.url {
            let addr = resolve(url).await?;
            return Ok(Target {
                addr,
                store,
                in_process: false,
                stop: None,
            });
        }
        let limits = Limits {
            open_tables_per_address: usize::MAX,
            ..Limits::default()
        };
        let app = App::with_limits(Arc::clone(&store), limits);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("listening on loopback")?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            let served = tabula_server::serve(listener, app, async {
                let _ = stopped.await;
            })
            .await;
            if let Err(e) = served {
                eprintln!("tabula: the server stopped: {e}");
            }
        });
        Ok(Target {
            addr,
            store,
            in_process: true,
            stop: Some((stop, done)),
        })
    }

    async fn finish(mut self) {
        if let Some((stop, done)) = self.stop.take() {
            let _ = stop.send(());
            let _ = done.await;
        }
    }
}

/// `http://HOST:PORT` (a trailing `/` allowed) to a socket address.
async fn resolve(url: &str) -> Result<SocketAddr> {
    let Some(rest) = url.strip_prefix("http://") else {
        bail!("--url '{url}' is not http://HOST:PORT");
    };
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') {
        bail!("--url '{url}' is not http://HOST:PORT");
    }
    tokio::net::lookup_host(host)
        .await
        .with_context(|| format!("resolving {host}"))?
        .next()
        .with_context(|| format!("{host} resolves to no address"))
}

/// The resident set of this process in KiB (`VmRSS` of /proc/self/status);
/// `None` where there is no /proc.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Mixes a seed with indices into a fresh seed (splitmix64's finaliser).
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One slot of the load: a table, and the tables that replace it when its
/// game ends before the run does.
struct Slot {
    index: usize,
    game: GameId,
    options: Vec<(String, String)>,
    seats: usize,
    /// The loopback address this slot's tables are asked for from, when
    /// the server is on loopback.
    source: Option<IpAddr>,
}

/// A created table: its id and one link secret per seat.
struct Opened {
    table: i64,
    tokens: Vec<String>,
}

/// When the run stops.
#[derive(Clone, Copy)]
enum Until {
    Deadline(Instant),
    Actions(usize),
}

/// What one game at one table came to.
struct Played {
    table: i64,
    game: GameId,
    /// The ply of the latest view any seat received, and its position text
    /// (absent for hidden-information games).
    ply: u64,
    position: Option<String>,
    over: bool,
    acked: usize,
}

/// What one seat's connection measured.
#[derive(Default)]
struct SeatEnd {
    ply: u64,
    position: Option<String>,
    over: bool,
    acked: usize,
    latencies_us: Vec<u32>,
    faults: BTreeMap<String, usize>,
}

/// The message a seat reads: only the fields it needs.
#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    view: Option<ViewLite>,
    #[serde(default)]
    fault: Option<FaultLite>,
}

#[derive(Deserialize)]
struct ViewLite {
    ply: u64,
    to_act: ToActLite,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    legal: Vec<LegalLite>,
}

#[derive(Deserialize)]
struct ToActLite {
    kind: String,
}

#[derive(Deserialize)]
struct LegalLite {
    /// Sent back as it came: kept as text, not read into a tree.
    action: Box<serde_json::value::RawValue>,
}

#[derive(Deserialize)]
struct FaultLite {
    kind: String,
    #[serde(default)]
    message: String,
}

/// A client-side token bucket that keeps a connection under the server's
/// message rate.
struct Pace {
    tokens: f64,
    last: Instant,
}

impl Pace {
    fn new() -> Self {
        Pace {
            tokens: CLIENT_BURST,
            last: Instant::now(),
        }
    }

    async fn wait(&mut self) {
        let now = Instant::now();
        self.tokens = (self.tokens
            + now.duration_since(self.last).as_secs_f64() * CLIENT_PER_SECOND)
            .min(CLIENT_BURST);
        self.last = now;
        if self.tokens < 1.0 {
            let wait = (1.0 - self.tokens) / CLIENT_PER_SECOND;
            tokio::time::sleep(Duration::from_secs_f64(wait)).await;
            self.tokens = 1.0;
            self.last = Instant::now();
        }
        self.tokens -= 1.0;
    }
}

/// What the seats of one game share: whether it is to stop, and the
/// actions it may still play.
struct Shared {
    stop: watch::Sender<bool>,
    /// Actions the slot may still play (`i64::MAX` when the run is timed).
    budget: Arc<AtomicI64>,
    deadline: Option<Instant>,
    failed: AtomicBool,
    /// The table's pace, under `--rate`.
    schedule: Option<Arc<Schedule>>,
}

impl Shared {
    fn halt(&self) {
        self.stop.send_replace(true);
    }

    /// Takes one action from the budget; `false` (and the game is stopped)
    /// when the budget or the time is used up.
    fn take(&self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.budget.fetch_sub(1, Ordering::SeqCst) <= 0
        {
            self.halt();
            return false;
        }
        true
    }
}

/// The whole run's measurements.
struct Report {
    tables: usize,
    /// The actions a second offered under `--rate`.
    offered: Option<f64>,
    connections: usize,
    games: usize,
    finished: usize,
    seconds: f64,
    acked: usize,
    latencies_us: Vec<u32>,
    faults: BTreeMap<String, usize>,
    per_game: BTreeMap<&'static str, usize>,
    idle_kib_per_table: Option<f64>,
    connected_kib_per_table: Option<f64>,
    checked: usize,
    lost: u64,
    mismatched: usize,
    store: String,
}

async fn load(args: &LoadtestArgs, store: Arc<dyn Store + Send + Sync>) -> Result<Report> {
    let target = Target::start(args, store).await?;
    let result = drive(args, &target).await;
    target.finish().await;
    result
}

async fn drive(args: &LoadtestArgs, target: &Target) -> Result<Report> {
    let loopback_v4 = matches!(target.addr.ip(), IpAddr::V4(ip) if ip.is_loopback());
    let mut slots = Vec::new();
    for index in 0..args.tables {
        let (game, options) = GAMES[index % GAMES.len()];
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let seats = AnyGame::new(game, &options)
            .map_err(|e| anyhow::anyhow!("{game}: {e}"))?
            .seating()
            .len();
        let group = (index / TABLES_PER_ADDRESS) as u32;
        let source = loopback_v4.then(|| {
            // 127.1.0.1, 127.1.0.2, …: every one of them is this machine.
            IpAddr::V4(Ipv4Addr::from(
                u32::from(Ipv4Addr::new(127, 1, 0, 1)) + group,
            ))
        });
        slots.push(Arc::new(Slot {
            index,
            game,
            options,
            seats,
            source,
        }));
    }

    // Idle tables: created, nobody connected.
    let before = if target.in_process { rss_kib() } else { None };
    let permits = Arc::new(Semaphore::new(16));
    let mut creating = Vec::new();
    for slot in &slots {
        let slot = Arc::clone(slot);
        let permits = Arc::clone(&permits);
        let addr = target.addr;
        let seed = mix(args.seed, slot.index as u64, 0);
        creating.push(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await?;
            create(addr, &slot, seed).await
        }));
    }
    let mut opened = Vec::new();
    for task in creating {
        opened.push(task.await??);
    }
    let idle = if target.in_process { rss_kib() } else { None };
    eprintln!("tabula loadtest: {} tables open", opened.len());

    // Every seat connected, each waiting for the start.
    let mut connecting = Vec::new();
    for (slot, table) in slots.iter().zip(&opened) {
        for (seat, token) in table.tokens.iter().enumerate() {
            let permits = Arc::clone(&permits);
            let addr = target.addr;
            let (id, token) = (table.table, token.clone());
            let slot_index = slot.index;
            connecting.push(tokio::spawn(async move {
                let _permit = permits.acquire_owned().await?;
                connect(addr, id, &token)
                    .await
                    .with_context(|| format!("table {id} (slot {slot_index}) seat {seat}"))
            }));
        }
    }
    let mut sockets = Vec::new();
    for task in connecting {
        sockets.push(task.await??);
    }
    let connected = if target.in_process { rss_kib() } else { None };
    let connections = sockets.len();
    eprintln!("tabula loadtest: {connections} seats connected, playing");

    let until = match (args.actions_per_table, args.duration) {
        (Some(n), _) => Until::Actions(n),
        (None, d) => Until::Deadline(Instant::now() + Duration::from_secs_f64(d.unwrap_or(30.0))),
    };
    let started = Instant::now();
    let interval = args
        .rate
        .map(|rate| Duration::from_secs_f64(args.tables as f64 / rate));
    let mut sockets = sockets.into_iter();
    let mut running = Vec::new();
    for (slot, table) in slots.iter().zip(opened) {
        let seats: Vec<Socket> = sockets.by_ref().take(slot.seats).collect();
        // Table i starts i/tables of an interval in, so sends are spread.
        let schedule = interval.map(|interval| {
            Arc::new(Schedule {
                interval,
                next: std::sync::Mutex::new(
                    started + interval.mul_f64(slot.index as f64 / args.tables as f64),
                ),
            })
        });
        running.push(tokio::spawn(play_slot(
            target.addr,
            Arc::clone(slot),
            args.seed,
            table,
            seats,
            until,
            schedule,
        )));
    }
    let mut played = Vec::new();
    let mut latencies_us = Vec::new();
    let mut faults = BTreeMap::new();
    for task in running {
        let (games, ends) = task.await??;
        played.extend(games);
        for end in ends {
            latencies_us.extend(end.latencies_us);
            for (kind, n) in end.faults {
                *faults.entry(kind).or_insert(0) += n;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("tabula loadtest: played, checking the store");

    // Nothing lost: every game's stored record replays to what its
    // players last saw.
    let store = Arc::clone(&target.store);
    let checks: Vec<(i64, u64, Option<String>)> = played
        .iter()
        .map(|p| (p.table, p.ply, p.position.clone()))
        .collect();
    let (checked, lost, mismatched) = tokio::task::spawn_blocking(move || {
        let mut lost = 0u64;
        let mut mismatched = 0usize;
        for (table, ply, position) in &checks {
            let record = match store.load_game(GameKey(*table)) {
                Ok(stored) => stored.record(),
                Err(e) => {
                    eprintln!("tabula loadtest: table {table}: {e}");
                    lost += ply;
                    mismatched += 1;
                    continue;
                }
            };
            let stored = record.actions.len() as u64;
            lost += ply.saturating_sub(stored);
            let replayed = record.replay();
            let same = stored == *ply
                && match (&replayed, position) {
                    (Ok(game), Some(position)) => game.to_text() == *position,
                    (Ok(_), None) => true,
                    (Err(_), _) => false,
                };
            if !same {
                mismatched += 1;
                eprintln!(
                    "tabula loadtest: table {table}: seen at ply {ply}, stored {stored} actions{}",
                    match &replayed {
                        Err(e) => format!(", which do not replay: {e}"),
                        Ok(_) => String::new(),
                    }
                );
            }
        }
        (checks.len(), lost, mismatched)
    })
    .await?;

    let mut per_game = BTreeMap::new();
    for p in &played {
        *per_game.entry(p.game.as_str()).or_insert(0) += p.acked;
    }
    let per = |after: Option<u64>| match (before, after) {
        (Some(b), Some(a)) => Some(a.saturating_sub(b) as f64 / args.tables as f64),
        _ => None,
    };
    Ok(Report {
        offered: args.rate,
        tables: args.tables,
        connections,
        games: played.len(),
        finished: played.iter().filter(|p| p.over).count(),
        seconds,
        acked: played.iter().map(|p| p.acked).sum(),
        latencies_us,
        faults,
        per_game,
        idle_kib_per_table: per(idle),
        connected_kib_per_table: per(connected),
        checked,
        lost,
        mismatched,
        store: match (&args.url, &args.database_url, args.group_commit) {
            (Some(url), _, _) => format!("the server at {url}"),
            (None, Some(_), true) => "PostgreSQL, group commit".to_owned(),
            (None, Some(_), false) => "PostgreSQL".to_owned(),
            (None, None, true) => "SQLite, group commit".to_owned(),
            (None, None, false) => "SQLite".to_owned(),
        },
    })
}

/// `POST /api/tables` with every seat human, from the slot's address.
async fn create(addr: SocketAddr, slot: &Slot, seed: u64) -> Result<Opened> {
    let options: serde_json::Map<String, Value> = slot
        .options
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let body = json!({
        "game": slot.game.as_str(),
        "options": options,
        "seats": vec!["human"; slot.seats],
        "seed": seed,
    })
    .to_string();
    let (status, reply) = post(addr, slot.source, "/api/tables", &body).await?;
    if status != 201 {
        bail!("creating a {} table: HTTP {status}: {reply}", slot.game);
    }
    let table = reply["table"]
        .as_i64()
        .with_context(|| format!("no table id in {reply}"))?;
    let mut tokens = vec![String::new(); slot.seats];
    for link in reply["seats"].as_array().into_iter().flatten() {
        let (Some(seat), Some(token)) = (link["seat"].as_u64(), link["link_token"].as_str()) else {
            bail!("a bad seat link in {reply}");
        };
        if let Some(slot) = tokens.get_mut(seat as usize) {
            *slot = token.to_owned();
        }
    }
    if tokens.iter().any(String::is_empty) {
        bail!("table {table} came without a link for every seat: {reply}");
    }
    Ok(Opened { table, tokens })
}

/// A plain HTTP/1.1 POST (the server answers with a length, then closes):
/// the status and the JSON body.
async fn post(
    addr: SocketAddr,
    source: Option<IpAddr>,
    path: &str,
    body: &str,
) -> Result<(u16, Value)> {
    let socket = TcpSocket::new_v4().context("opening a socket")?;
    if let Some(source) = source {
        socket
            .bind(SocketAddr::new(source, 0))
            .with_context(|| format!("binding to {source}"))?;
    }
    let mut stream = socket
        .connect(addr)
        .await
        .with_context(|| format!("connecting to {addr}"))?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut response))
        .await
        .context("no answer in time")??;
    let response = String::from_utf8_lossy(&response);
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("not an HTTP answer: {response}"))?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("");
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// Opens one seat's WebSocket.
async fn connect(addr: SocketAddr, table: i64, token: &str) -> Result<Socket> {
    let url = format!("ws://{addr}/api/tables/{table}/ws?token={token}");
    // A small read buffer (tungstenite's default is 128 KiB a connection,
    // allocated up front), so the client's memory does not hide the
    // server's; no Nagle delay on the small action messages.
    let config = WebSocketConfig::default().read_buffer_size(4096);
    let connecting = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
    let (socket, _) = tokio::time::timeout(WAIT, connecting)
        .await
        .context("no connection in time")?
        .context("connecting")?;
    Ok(socket)
}

/// One slot: its first table's game, then, while the run goes on, new
/// tables of the same game whenever one ends.
async fn play_slot(
    addr: SocketAddr,
    slot: Arc<Slot>,
    seed: u64,
    first: Opened,
    first_seats: Vec<Socket>,
    until: Until,
    schedule: Option<Arc<Schedule>>,
) -> Result<(Vec<Played>, Vec<SeatEnd>)> {
    let (budget, deadline) = match until {
        Until::Actions(n) => (i64::try_from(n).unwrap_or(i64::MAX), None),
        Until::Deadline(d) => (i64::MAX, Some(d)),
    };
    let budget = Arc::new(AtomicI64::new(budget));
    let mut played = Vec::new();
    let mut ends = Vec::new();
    let mut table = first;
    let mut sockets = first_seats;
    for round in 0u64.. {
        let (stop, _) = watch::channel(false);
        let shared = Arc::new(Shared {
            stop,
            budget: Arc::clone(&budget),
            deadline,
            failed: AtomicBool::new(false),
            schedule: schedule.clone(),
        });
        let table_seed = mix(seed, slot.index as u64, round);
        let mut seats = Vec::new();
        for (seat, socket) in sockets.into_iter().enumerate() {
            let rng = GameRng::from_seed(Seed(mix(table_seed, seat as u64 + 1, 0x5EA7)));
            seats.push(tokio::spawn(play_seat(socket, rng, Arc::clone(&shared))));
        }
        let mut game = Played {
            table: table.table,
            game: slot.game,
            ply: 0,
            position: None,
            over: false,
            acked: 0,
        };
        for seat in seats {
            let end = seat.await?;
            if end.ply >= game.ply {
                game.ply = end.ply;
                game.position = end.position.clone();
            }
            game.over |= end.over;
            game.acked += end.acked;
            ends.push(end);
        }
        if shared.failed.load(Ordering::SeqCst) {
            bail!("table {} failed", table.table);
        }
        let more = game.over
            && budget.load(Ordering::SeqCst) > 0
            && deadline.is_none_or(|d| Instant::now() < d);
        played.push(game);
        if !more {
            break;
        }
        table = create(addr, &slot, mix(seed, slot.index as u64, round + 1)).await?;
        sockets = Vec::new();
        for token in &table.tokens {
            sockets.push(connect(addr, table.table, token).await?);
        }
    }
    Ok((played, ends))
}

/// One seat: plays a random legal action on every view that offers some,
/// until the game ends or its table is stopped.
async fn play_seat(mut socket: Socket, mut rng: GameRng, shared: Arc<Shared>) -> SeatEnd {
    let mut end = SeatEnd::default();
    let mut stop = shared.stop.subscribe();
    let mut pace = Pace::new();
    // The latest view, whether it has been acted on, and the action in
    // flight: the ply it was chosen at, when it was sent, and its message.
    let mut latest: Option<ViewLite> = None;
    let mut used = false;
    let mut pending: Option<(u64, Instant, String)> = None;
    let fail = |end: &mut SeatEnd, why: String| {
        eprintln!("tabula loadtest: {why}");
        shared.failed.store(true, Ordering::SeqCst);
        shared.halt();
        *end.faults.entry("connection".to_owned()).or_insert(0) += 1;
    };
    loop {
        if pending.is_none() {
            if *stop.borrow_and_update() || end.over {
                break;
            }
            if let Some(view) = &latest
                && !used
                && !view.legal.is_empty()
            {
                used = true;
                if !shared.take() {
                    break;
                }
                let Some(choice) = rng.choose(&view.legal) else {
                    break;
                };
                let text = format!(
                    r#"{{"type":"action","action":{},"ply":{}}}"#,
                    choice.action.get(),
                    view.ply
                );
                if let Some(schedule) = &shared.schedule {
                    tokio::time::sleep_until(schedule.slot().into()).await;
                }
                pace.wait().await;
                if socket
                    .send(Message::Text(text.clone().into()))
                    .await
                    .is_err()
                {
                    fail(&mut end, "a connection closed while sending".to_owned());
                    break;
                }
                pending = Some((view.ply, Instant::now(), text));
            }
        }
        let waiting = pending.is_some();
        let message = tokio::select! {
            message = tokio::time::timeout(WAIT, socket.next()) => message,
            _ = stop.changed(), if !waiting => continue,
        };
        let text = match message {
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => {
                fail(&mut end, "the server closed a connection".to_owned());
                break;
            }
            Ok(Some(Ok(_))) => continue,
            Err(_) => {
                fail(&mut end, "no message for a minute".to_owned());
                break;
            }
        };
        let Ok(incoming) = serde_json::from_str::<Incoming>(text.as_str()) else {
            fail(&mut end, format!("an unreadable message: {text}"));
            break;
        };
        match (incoming.kind.as_str(), incoming.view, incoming.fault) {
            ("view", Some(view), _) => {
                if let Some((ply, sent, _)) = &pending
                    && view.ply > *ply
                {
                    let micros = sent.elapsed().as_micros();
                    end.latencies_us
                        .push(u32::try_from(micros).unwrap_or(u32::MAX));
                    end.acked += 1;
                    pending = None;
                }
                end.ply = view.ply;
                end.position = view.position.clone();
                end.over = view.to_act.kind == "over";
                latest = Some(view);
                used = false;
            }
            ("fault", _, Some(fault)) => {
                *end.faults.entry(fault.kind.clone()).or_insert(0) += 1;
                match (fault.kind.as_str(), &pending) {
                    ("too-fast", Some((_, _, text))) => {
                        // Dropped unread: wait and send it again.
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        let text = text.clone();
                        if socket.send(Message::Text(text.into())).await.is_err() {
                            fail(&mut end, "a connection closed while sending".to_owned());
                            break;
                        }
                    }
                    ("stale", _) => {
                        // The table moved on: choose again on the fresh view.
                        pending = None;
                    }
                    _ => {
                        fail(
                            &mut end,
                            format!("a legal action refused: {}: {}", fault.kind, fault.message),
                        );
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    let _ = socket.close(None).await;
    end
}

/// The `q`-quantile of sorted latencies, in milliseconds.
fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

impl Report {
    fn latency(&self) -> (f64, f64, f64) {
        let mut sorted = self.latencies_us.clone();
        sorted.sort_unstable();
        (
            quantile_ms(&sorted, 0.50),
            quantile_ms(&sorted, 0.99),
            quantile_ms(&sorted, 1.0),
        )
    }

    fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.acked as f64 / self.seconds
        } else {
            0.0
        }
    }

    fn to_json(&self) -> Value {
        let (p50, p99, max) = self.latency();
        json!({
            "store": self.store,
            "tables": self.tables,
            "connections": self.connections,
            "games": self.games,
            "finished_games": self.finished,
            "seconds": self.seconds,
            "acknowledged_actions": self.acked,
            "actions_per_second": self.rate(),
            "offered_per_second": self.offered,
            "latency_ms": {"p50": p50, "p99": p99, "max": max},
            "actions_per_game": self.per_game,
            "faults": self.faults,
            "idle_table_kib": self.idle_kib_per_table,
            "connected_table_kib": self.connected_kib_per_table,
            "tables_checked": self.checked,
            "lost_actions": self.lost,
            "mismatched_tables": self.mismatched,
        })
    }

    fn print(&self, out: &mut impl Write) -> Result<()> {
        let (p50, p99, max) = self.latency();
        writeln!(out, "store: {}", self.store)?;
        writeln!(
            out,
            "tables: {} ({} connections), {} games, {} finished",
            self.tables, self.connections, self.games, self.finished
        )?;
        writeln!(
            out,
            "actions: {} acknowledged in {:.1} s: {:.0} per second",
            self.acked,
            self.seconds,
            self.rate()
        )?;
        if let Some(offered) = self.offered {
            writeln!(
                out,
                "pace: {offered:.0} actions per second offered (each table acts every {:.0} ms)",
                self.tables as f64 / offered * 1000.0
            )?;
        }
        writeln!(
            out,
            "latency: p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms"
        )?;
        let per_game: Vec<String> = self
            .per_game
            .iter()
            .map(|(g, n)| format!("{g} {n}"))
            .collect();
        writeln!(out, "actions per game: {}", per_game.join(", "))?;
        if !self.faults.is_empty() {
            let faults: Vec<String> = self
                .faults
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            writeln!(out, "faults: {}", faults.join(", "))?;
        }
        match (self.idle_kib_per_table, self.connected_kib_per_table) {
            (Some(idle), Some(connected)) => writeln!(
                out,
                "memory: {idle:.1} KiB per idle table, {connected:.1} KiB per table with its seats connected (client included)"
            )?,
            _ => writeln!(out, "memory: not measured (the server is another process)")?,
        }
        writeln!(
            out,
            "check: {} tables replayed from the store, {} actions lost, {} mismatched",
            self.checked, self.lost, self.mismatched
        )?;
        Ok(())
    }
}
