//! `tabula serve`: the game server (crates/server) on an SQLite or
//! PostgreSQL store, until Ctrl-C or SIGTERM.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use tabula_server::App;

use crate::args::ServeStoreArgs;

/// Opens (creating) the store `args` names, listens on `addr`, prints the
/// URL and serves until told to stop.
pub fn run(addr: SocketAddr, args: &ServeStoreArgs, out: &mut impl Write) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a person at a terminal, not in log files.
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .ok();
    let (db, url) = args.resolve();
    let (db, url) = (db.as_deref(), url.as_deref());
    let location = tabula_store::describe(db, url);
    let opened = tabula_store::open(db, url)
        .with_context(|| format!("opening the game store {location}"))?;
    // Every table's moves go through one committer: one durable commit per
    // batch of appends rather than per move (docs/performance.md).
    let store: Arc<dyn tabula_store::Store + Send + Sync> = Arc::new(
        tabula_store::GroupCommitter::start(opened, 512)
            .with_context(|| format!("starting the committer of {location}"))?,
    );
    // Dropped after the runtime: PostgreSQL's synchronous client blocks on
    // its own runtime when it closes, which panics inside tokio's, so the
    // last reference to the store must go outside it.
    let last_store = Arc::clone(&store);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening on {addr}"))?;
        let bound = listener.local_addr()?;
        let stop = stop_signal();
        let app = App::new(store);
        if let Some(url) = url {
            follow(url, &app)?;
        }
        let resumed = app.resume().await.context("resuming the stored tables")?;
        writeln!(
            out,
            "tabula serves on http://{bound}/ (game store {location})"
        )?;
        if resumed > 0 {
            writeln!(out, "{resumed} tables resumed")?;
        }
        out.flush()?;
        tabula_server::serve(listener, app, stop)
            .await
            .context("serving")?;
        writeln!(out, "stopped")?;
        Ok(())
    });
    drop(runtime);
    drop(last_store);
    served
}

/// Several servers on one PostgreSQL database: a thread listens for the
/// store's notifications and tells the app which table another instance
/// changed; a lost connection is opened again, and every live table read
/// back, since notifications sent meanwhile are gone.
#[cfg(feature = "postgres")]
fn follow(url: &str, app: &App) -> Result<()> {
    let runtime = tokio::runtime::Handle::current();
    let app = app.clone();
    let url = url.to_owned();
    app.hear_changes();
    // The PostgreSQL client runs its own runtime: it connects and waits on
    // this plain thread, never on one of tokio's.
    std::thread::Builder::new()
        .name("tabula-listen".into())
        .spawn(move || {
            let connect = || tabula_store::postgres::Listener::connect(&url, tabula_store::PG_SCHEMA);
            let mut listener = None;
            loop {
                let Some(open) = listener.as_mut() else {
                    match connect() {
                        Ok(open) => {
                            // Notifications sent while not listening are gone.
                            runtime.block_on(app.reload_all());
                            listener = Some(open);
                        }
                        Err(error) => {
                            tracing::warn!(%error, "cannot listen for other servers' changes; retrying");
                            std::thread::sleep(std::time::Duration::from_secs(1));
                        }
                    }
                    continue;
                };
                match open.recv(std::time::Duration::from_secs(5)) {
                    Ok(Some((key, plies))) => runtime.block_on(app.heard(key, plies)),
                    Ok(None) => {}
                    Err(error) => {
                        tracing::warn!(%error, "the notification connection failed; reconnecting");
                        listener = None;
                    }
                }
            }
        })
        .context("starting the listener thread")?;
    Ok(())
}

#[cfg(not(feature = "postgres"))]
fn follow(_url: &str, _app: &App) -> Result<()> {
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix. The handlers are installed when this is
/// called, not when the future is first polled, so a signal that comes
/// right after the URL is printed stops the server cleanly.
fn stop_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    #[cfg(unix)]
    let mut interrupt =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok();
    async move {
        #[cfg(unix)]
        {
            let term = async {
                match term.as_mut() {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            let interrupt = async {
                match interrupt.as_mut() {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = term => {}
                _ = interrupt => {}
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
