//! Attack tables: what each piece attacks from a square.
//!
//! Knight, king and pawn tables are `const`; rook and bishop attacks use fancy
//! magic bitboards whose tables `build.rs` generates at compile time.
//! Every function here works on any occupancy; none can panic.

use crate::{Bitboard, Color, Piece, Role, Square};

/// One square's magic hashing parameters.
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

const fn step_table(deltas: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::new_masked(i as u32);
        let mut bb = 0u64;
        let mut d = 0;
        while d < deltas.len() {
            if let Some(to) = sq.offset(deltas[d].0, deltas[d].1) {
                bb |= 1 << to as u32;
            }
            d += 1;
        }
        table[i] = Bitboard(bb);
        i += 1;
    }
    table
}

static KNIGHT_ATTACKS: [Bitboard; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING_ATTACKS: [Bitboard; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// The squares a knight on `sq` attacks.
#[inline]
#[must_use]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[sq.index()]
}

/// The squares a king on `sq` attacks.
#[inline]
#[must_use]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// The squares a `color` pawn on `sq` attacks (diagonally forward).
#[inline]
#[must_use]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS[m.offset as usize + idx])
}

/// The squares a rook on `sq` attacks when `occupied` holds the pieces
/// (blockers are included: the first occupied square on each ray).
#[inline]
#[must_use]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

/// The squares a bishop on `sq` attacks, blockers included.
#[inline]
#[must_use]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// The squares a queen on `sq` attacks, blockers included.
#[inline]
#[must_use]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares `piece` on `sq` attacks (for a pawn: its two capture squares).
#[inline]
#[must_use]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise (and for `a == b`).
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b`,
/// both included; empty if they share none (and for `a == b`).
#[inline]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Rook attacks computed ray by ray, for tests and as an independent check.
#[must_use]
pub fn rook_attacks_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    slow(sq, occupied, &[(1, 0), (-1, 0), (0, 1), (0, -1)])
}

/// Bishop attacks computed ray by ray, for tests and as an independent check.
#[must_use]
pub fn bishop_attacks_slow(sq: Square, occupied: Bitboard) -> Bitboard {
    slow(sq, occupied, &[(1, 1), (1, -1), (-1, 1), (-1, -1)])
}

fn slow(sq: Square, occupied: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            bb = bb.with(next);
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
    }
    bb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_match_slow_attacks() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(17));
            for sq in Square::ALL {
                assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ));
                assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ));
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::D4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E2),
            Bitboard::EMPTY.with(Square::D3).with(Square::F3)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A7),
            Bitboard::EMPTY.with(Square::B6)
        );
        assert_eq!(pawn_attacks(Color::White, Square::E8), Bitboard::EMPTY);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4).count(), 2);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(
            line(Square::E1, Square::E5),
            Bitboard::from_file(crate::File::E)
        );
        assert_eq!(line(Square::A1, Square::A1), Bitboard::EMPTY);
    }
}
