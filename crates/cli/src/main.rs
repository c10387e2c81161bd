//! `tabula`: list, start, inspect and play every tabula game from a terminal.
//!
//! Output contract (scripts and tests rely on it): data on stdout, one item a
//! line, or JSON with `--json`; errors as one line on stderr with exit code 2.

mod arena;
mod args;
mod bench;
mod commands;
mod loadtest;
mod play;
mod record;
mod render;
mod serve;
mod uci;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::args::Cli;

fn main() -> ExitCode {
    // A panic is a bug, but the user still gets one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        eprintln!("tabula: internal error (please report): {msg}");
    }));

    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
            _ => {
                // clap's message runs over several lines before its usage
                // block; fold it into one.
                let rendered = e.render().to_string();
                let message: Vec<&str> = rendered
                    .lines()
                    .map(str::trim)
                    .take_while(|l| !l.starts_with("Usage:"))
                    .filter(|l| {
                        !l.is_empty()
                            && !l.starts_with("tip:")
                            && !l.starts_with("For more information")
                    })
                    .collect();
                let message = message.join(" ");
                let message = message.strip_prefix("error: ").unwrap_or(&message);
                eprintln!("tabula: {message} (see tabula --help)");
                return ExitCode::from(2);
            }
        },
    };

    // Not locked for the whole run: `tabula uci` writes from its search thread.
    let mut stdout = std::io::stdout();
    match commands::run(cli, &mut stdout) {
        Ok(()) => {
            let _ = stdout.flush();
            ExitCode::SUCCESS
        }
        Err(e) if broken_pipe(&e) => {
            // The reader went away (`tabula moves epoch | head -1`): stop
            // quietly, as Unix tools do.
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = stdout.flush();
            // One line: the error and its causes, joined.
            let mut line = e.to_string();
            for cause in e.chain().skip(1) {
                let cause = cause.to_string();
                if !line.contains(&cause) {
                    line.push_str(": ");
                    line.push_str(&cause);
                }
            }
            eprintln!("tabula: {}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// Whether writing to a closed pipe caused `error`.
fn broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
