//! Times perft for tabula-chess and cozy-chess side by side (bulk counting in both):
//! `cargo run --release --example perft_compare -- [depth] [fen] [repeats]`.

use std::time::Instant;

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.get(2).map_or(tabula_chess::START_FEN, String::as_str);
    let repeats: u32 = args.get(3).and_then(|d| d.parse().ok()).unwrap_or(3);
    let pos = tabula_chess::Position::from_fen(fen).expect("valid FEN");
    let board: cozy_chess::Board = fen.parse().expect("cozy parses the FEN");
    for round in 0..repeats {
        let t = Instant::now();
        let ours = tabula_chess::perft(&pos, depth);
        let ours_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let cozy = cozy_perft(&board, depth);
        let cozy_s = t.elapsed().as_secs_f64();
        assert_eq!(ours, cozy, "node counts differ");
        println!(
            "round {round}: depth {depth}: {ours} nodes | tabula {ours_s:.3} s = {:.1} Mnps | cozy-chess {cozy_s:.3} s = {:.1} Mnps | ratio {:.2}",
            ours as f64 / ours_s / 1e6,
            cozy as f64 / cozy_s / 1e6,
            cozy_s / ours_s
        );
    }
}
