//! A tactical suite solved at a fixed time or node budget a position: the
//! alpha-beta engine searches each position of an EPD file from a cleared
//! engine, and a position is solved when its move is one of the `bm` moves
//! (and none of the `am` ones). One line a failure, then the count solved
//! and the time used.
//!
//! `cargo run --release -p tabula-ai --example tactics -- EPD (--ms N | --nodes N | --depth N) [--hash MB]`
//!
//! The Win at Chess set is `crates/ai/tests/data/wac.epd`. A node budget
//! gives the same answer on every machine; a time does not.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tabula_ai::alphabeta::epd;
use tabula_ai::alphabeta::{ChessNode, Engine, Limits};

const USAGE: &str = "usage: tactics EPD (--ms N | --nodes N | --depth N) [--hash MB]";

struct Args {
    path: String,
    limits: Limits,
    budget: String,
    hash_mb: usize,
}

fn args() -> Result<Args, String> {
    let mut path = None;
    let mut limits = None;
    let mut budget = String::new();
    let mut hash_mb = 16;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or_else(|| format!("{name} needs a number"))?;
            v.parse()
                .map_err(|_| format!("{name} needs a number, not {v:?}"))
        };
        match arg.as_str() {
            "--ms" => {
                let ms = number("--ms")?;
                limits = Some(Limits::move_time(Duration::from_millis(ms)));
                budget = format!("{ms} ms a position");
            }
            "--nodes" => {
                let n = number("--nodes")?;
                limits = Some(Limits {
                    nodes: Some(n),
                    ..Limits::default()
                });
                budget = format!("{n} nodes a position");
            }
            "--depth" => {
                let d = number("--depth")?;
                limits = Some(Limits::depth(d as u32));
                budget = format!("depth {d}");
            }
            "--hash" => hash_mb = number("--hash")? as usize,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s if path.is_none() => path = Some(s.to_owned()),
            s => return Err(format!("one EPD file only ({s:?} is a second)")),
        }
    }
    Ok(Args {
        path: path.ok_or("no EPD file given")?,
        limits: limits.ok_or("no budget given")?,
        budget,
        hash_mb,
    })
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let text = std::fs::read_to_string(&args.path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", args.path));
    let problems = match epd::parse(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", args.path);
            return ExitCode::FAILURE;
        }
    };

    let mut engine = Engine::<ChessNode>::new(args.hash_mb);
    let started = Instant::now();
    let mut nodes = 0;
    let mut failed = Vec::new();
    for p in &problems {
        let (out, solved) = epd::solve(&mut engine, p, args.limits.clone());
        nodes += out.info.nodes;
        if !solved {
            let played = out.best.map_or("none".to_owned(), |m| p.position.san(m));
            println!(
                "{}: played {played}, expected {} (depth {}, score {})",
                p.id,
                p.answer(),
                out.info.depth,
                out.info.score
            );
            failed.push(p.id.as_str());
        }
    }
    let time = started.elapsed();
    println!(
        "solved {}/{} at {}, {:.1} s, {} nodes ({} knps)",
        problems.len() - failed.len(),
        problems.len(),
        args.budget,
        time.as_secs_f64(),
        nodes,
        (nodes as f64 / time.as_secs_f64() / 1000.0) as u64
    );
    println!("failed: {}", failed.join(" "));
    ExitCode::SUCCESS
}
