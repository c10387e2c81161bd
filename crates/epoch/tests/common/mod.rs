//! Position builders shared by the tests.
#![allow(dead_code)]

use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions, Move, Piece, Square};

/// The placement field from piece lists such as `"Pg1 Mh1 Gd4"` (letter case
/// gives the colour: write White uppercase, Black lowercase).
pub fn placement(pieces: &str) -> String {
    let mut board = [[None::<char>; 13]; 13];
    for item in pieces.split_whitespace() {
        let mut chars = item.chars();
        let letter = chars.next().expect("piece letter");
        assert!(Piece::from_letter(letter).is_some(), "bad letter in {item}");
        let sq: Square = chars.as_str().parse().expect("square");
        board[sq.rank() as usize][sq.file() as usize] = Some(letter);
    }
    let mut ranks = Vec::new();
    for rank in (0..13).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in board[rank] {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// A game from a piece list and the remaining fields after the placement.
pub fn game_with(pieces: &str, fields: &str) -> Epoch {
    let text = format!("{} {fields}", placement(pieces));
    Epoch::from_text(&text, &EpochOptions::default())
        .unwrap_or_else(|e| panic!("bad test position {text}: {e}"))
}

/// A game from a piece list, `side` to move, no rights, Emperors dormant.
pub fn game(pieces: &str, side: &str) -> Epoch {
    game_with(pieces, &format!("{side} - - - - - 0 10 -"))
}

/// The legal actions in canonical form.
pub fn legal(g: &Epoch) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.iter().map(Move::to_string).collect()
}

/// Whether the canonical move `m` is legal.
pub fn has(g: &Epoch, m: &str) -> bool {
    legal(g).iter().any(|x| x == m)
}

/// Plays a move given in any notation, panicking if it is refused.
pub fn play(g: &mut Epoch, m: &str) {
    let mv = g
        .parse_action(m)
        .unwrap_or_else(|e| panic!("{m}: {e}\n{}", g.to_text()));
    g.apply(&mv).unwrap();
}

/// The legal moves of the piece on `from`, canonical, sorted.
pub fn moves_from(g: &Epoch, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    let mut out: Vec<String> = v
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(Move::to_string)
        .collect();
    out.sort();
    out
}

/// Destinations (canonical `to` squares) of the piece on `from`, sorted.
pub fn targets(g: &Epoch, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    let mut out: Vec<String> = v
        .iter()
        .filter(|m| m.from() == Some(from))
        .filter_map(|m| m.to().map(|s| s.to_string()))
        .collect();
    out.sort();
    out
}

/// Sorted square names.
pub fn squares(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}
