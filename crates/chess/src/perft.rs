//! Perft: counting leaf nodes of the legal move tree, to check move generation.

use crate::{Move, Position};

/// The number of legal move sequences of length `depth` from `pos`.
/// At depth 1 the moves are counted without being listed (bulk counting).
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut total = 0;
            for &m in &pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Perft split by first move: each legal move with the perft of the position
/// after it at `depth - 1` (for `depth == 0`, no moves).
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
