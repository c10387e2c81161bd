//! Perft against published node counts from `tests/perft.txt`.

use tabula_chess::{Position, perft};

/// Depths with at most this many nodes run by default; the rest are `--ignored`.
const FAST_LIMIT: u64 = 5_000_000;

struct Case {
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    include_str!("perft.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().expect("fen").to_owned();
            let depths = parts
                .map(|p| {
                    let (d, n) = p.split_once(' ').expect("D<depth> <nodes>");
                    let d = d
                        .strip_prefix('D')
                        .expect("D prefix")
                        .parse()
                        .expect("depth");
                    (d, n.trim().parse().expect("node count"))
                })
                .collect();
            Case { fen, depths }
        })
        .collect()
}

fn run(filter: impl Fn(u64) -> bool) -> usize {
    let mut ran = 0;
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        assert_eq!(pos.fen(), case.fen, "FEN round trip");
        for &(depth, expected) in &case.depths {
            if filter(expected) {
                assert_eq!(perft(&pos, depth), expected, "perft({}, {depth})", case.fen);
                ran += 1;
            }
        }
    }
    ran
}

#[test]
fn perft_suite_fast() {
    let ran = run(|n| n <= FAST_LIMIT);
    assert!(ran > 40, "only {ran} perft checks ran");
}

#[test]
#[ignore = "deep perft: minutes in the dev profile, run with --release -- --ignored"]
fn perft_suite_deep() {
    run(|n| n > FAST_LIMIT);
}

#[test]
fn suite_file_has_the_standard_positions() {
    let cases = cases();
    assert!(cases.len() >= 7);
    assert!(cases.iter().any(|c| c.depths.contains(&(6, 119_060_324))));
    assert!(cases.iter().any(|c| c.depths.contains(&(4, 4_085_603))));
}
