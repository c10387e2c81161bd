//! Perft from the start position: `cargo run --release -p tabula-epoch --example epoch_perft -- 4`.

use std::time::Instant;

use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions};

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let swap = std::env::args().nth(2).is_none_or(|s| s != "noswap");
    let game = Epoch::new(&EpochOptions { swap });
    for d in 1..=depth {
        let start = Instant::now();
        let n = game.perft(d);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft({d}) = {n}  [{secs:.2} s, {:.0} nodes/s, swap {}]",
            n as f64 / secs.max(1e-9),
            if swap { "on" } else { "off" }
        );
    }
}
