//! Times tabula-chess perft alone: `cargo run --release --example perft -- [depth] [fen]`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.get(2).map_or(tabula_chess::START_FEN, String::as_str);
    let pos = tabula_chess::Position::from_fen(fen).expect("valid FEN");
    let t = Instant::now();
    let nodes = tabula_chess::perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {s:.3} s = {:.1} Mnps",
        nodes as f64 / s / 1e6
    );
}
