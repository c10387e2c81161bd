//! How long a 10 MB record from a stranger takes to be read or refused.
//!
//! `cargo run --release -p tabula-store --example record_limits`; the
//! figures go in docs/performance.md.

use std::time::Instant;

use tabula_store::Record;

const SIZE: usize = 10 * 1024 * 1024;

fn main() {
    let shapes: [(&str, String); 4] = [
        (
            "distinct tags",
            fill(SIZE, |i| format!("[T{i} \"v\"]\n"), "\n*\n"),
        ),
        (
            "short comments after a move",
            format!("1. e4 {} *\n", fill(SIZE, |_| "{note} ".to_owned(), "")),
        ),
        (
            "moves",
            fill(SIZE, |_| "Nf3 Nf6 Ng1 Ng8 ".to_owned(), "*\n"),
        ),
        ("one comment", format!("{{{}}} *\n", "c".repeat(SIZE))),
    ];
    for (name, text) in &shapes {
        let start = Instant::now();
        let result = Record::parse_all(text);
        let secs = start.elapsed().as_secs_f64();
        let verdict = match &result {
            Ok(records) => format!("read, {} game(s)", records.len()),
            Err(e) => format!("refused: {e}"),
        };
        println!(
            "{name:<28} {:>5.1} MB  {secs:>7.3} s  {verdict}",
            text.len() as f64 / 1e6
        );
    }
}

/// Pieces from `piece` until the text is about `size` bytes, then `end`.
fn fill(size: usize, piece: impl Fn(usize) -> String, end: &str) -> String {
    let mut text = String::with_capacity(size + end.len());
    let mut i = 0;
    while text.len() < size {
        text.push_str(&piece(i));
        i += 1;
    }
    text.push_str(end);
    text
}
