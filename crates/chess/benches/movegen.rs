//! Move generation and perft, side by side with cozy-chess.
//!
//! `cargo bench -p tabula-chess --bench movegen`

use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const POSITIONS: &[(&str, &str)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
];

const NAMES: &[&str] = &["start", "kiwipete", "pos3", "pos4", "pos5"];

fn fen(name: &str) -> &'static str {
    POSITIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .expect("known position")
}

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

mod movegen {
    use super::*;

    #[divan::bench(args = NAMES)]
    fn tabula_legal_moves(bencher: Bencher, name: &str) {
        let pos = tabula_chess::Position::from_fen(fen(name)).expect("fen");
        bencher.bench(|| black_box(&pos).legal_moves());
    }

    #[divan::bench(args = NAMES)]
    fn cozy_legal_moves(bencher: Bencher, name: &str) {
        let board: cozy_chess::Board = fen(name).parse().expect("fen");
        bencher.bench(|| {
            let mut list = Vec::with_capacity(64);
            black_box(&board).generate_moves(|ms| {
                list.extend(ms);
                false
            });
            list
        });
    }

    #[divan::bench(args = NAMES)]
    fn tabula_count_moves(bencher: Bencher, name: &str) {
        let pos = tabula_chess::Position::from_fen(fen(name)).expect("fen");
        bencher.bench(|| black_box(&pos).count_legal_moves());
    }
}

mod perft {
    use super::*;

    #[divan::bench(args = NAMES, sample_count = 10)]
    fn tabula_perft_4(bencher: Bencher, name: &str) {
        let pos = tabula_chess::Position::from_fen(fen(name)).expect("fen");
        bencher.bench(|| tabula_chess::perft(black_box(&pos), 4));
    }

    #[divan::bench(args = NAMES, sample_count = 10)]
    fn cozy_perft_4(bencher: Bencher, name: &str) {
        let board: cozy_chess::Board = fen(name).parse().expect("fen");
        bencher.bench(|| cozy_perft(black_box(&board), 4));
    }
}
