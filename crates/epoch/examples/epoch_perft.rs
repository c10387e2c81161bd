//! Perft from the start position:
//! `cargo run --release -p tabula-epoch --example epoch_perft -- 4 [noswap] [generic]`.
//!
//! `noswap` turns the swap rule off; `generic` counts with
//! `tabula_core::perft::perft` (clone and apply per node) instead of the
//! engine's own walk, to cross-check the two.

use std::time::Instant;

use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(3);
    let swap = !args.iter().any(|a| a == "noswap");
    let generic = args.iter().any(|a| a == "generic");
    let game = Epoch::new(&EpochOptions { swap });
    for d in 1..=depth {
        let start = Instant::now();
        let n = if generic {
            tabula_core::perft::perft(&game, d)
        } else {
            game.perft(d)
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft({d}) = {n}  [{secs:.2} s, {:.0} nodes/s, swap {}{}]",
            n as f64 / secs.max(1e-9),
            if swap { "on" } else { "off" },
            if generic { ", generic count" } else { "" }
        );
    }
}
