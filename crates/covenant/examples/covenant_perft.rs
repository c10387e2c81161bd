//! Counts the action tree from a scenario's start: `cargo run --release
//! --example covenant_perft -p tabula-covenant -- crossroads 4`.

use std::time::Instant;

use tabula_core::Game;
use tabula_covenant::{Covenant, CovenantOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "crossroads".to_owned());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(3);
    let Ok(id) = scenario.parse() else {
        eprintln!("unknown scenario {scenario}");
        std::process::exit(2);
    };
    let game = Covenant::new(&CovenantOptions::with_scenario(id));
    for d in 1..=depth {
        let t = Instant::now();
        let n = game.perft(d);
        eprintln!("depth {d}: {n} ({:.2?})", t.elapsed());
        println!("{n}");
    }
}
