//! `tabula serve`: the game server (crates/server) on an SQLite store,
//! until Ctrl-C or SIGTERM.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use tabula_server::App;

/// Opens (creating) the store at `db`, listens on `addr`, prints the URL and
/// serves until told to stop.
pub fn run(addr: SocketAddr, db: &Path, out: &mut impl Write) -> Result<()> {
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
    let store = crate::record::open(db, true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening on {addr}"))?;
        let bound = listener.local_addr()?;
        writeln!(
            out,
            "tabula serves on http://{bound}/ (game store {})",
            db.display()
        )?;
        out.flush()?;
        let app = App::new(Arc::new(store));
        let resumed = app.resume().await.context("resuming the stored tables")?;
        if resumed > 0 {
            writeln!(out, "{resumed} tables resumed")?;
        }
        tabula_server::serve(listener, app, stop_signal())
            .await
            .context("serving")?;
        writeln!(out, "stopped")?;
        Ok(())
    })
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
