//! Prints perft divide for a FEN: `cargo run --example divide -- "<fen>" <depth>`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args.get(1).map_or(tabula_chess::START_FEN, String::as_str);
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
    let pos = tabula_chess::Position::from_fen(fen).expect("valid FEN");
    let mut total = 0;
    let mut rows: Vec<(String, u64)> = tabula_chess::divide(&pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect();
    rows.sort();
    for (m, n) in rows {
        println!("{m}: {n}");
        total += n;
    }
    println!("total: {total}");
}
