//! Step, leap and ray tables, computed at compile time.

use crate::types::{Bitboard, SQUARES, Square};

/// The eight directions (file step, rank step): four straight (E, W, N, S),
/// then four diagonal (NE, SE, NW, SW). The same order as `position::DIRS`.
pub(crate) const DIR_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Whether moving along direction `d` increases the square index (so the
/// nearest square of a ray is its lowest bit).
pub(crate) const fn dir_positive(d: usize) -> bool {
    let (df, dr) = DIR_STEPS[d];
    dr > 0 || (dr == 0 && df > 0)
}

/// The direction opposite to `d`.
pub(crate) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// Every precomputed set.
pub(crate) struct Tables {
    /// The eight squares around a square.
    pub king: [Bitboard; SQUARES],
    /// The four orthogonal neighbours.
    pub ortho1: [Bitboard; SQUARES],
    /// The Templar's 3-2 leap.
    pub leap32: [Bitboard; SQUARES],
    /// The knight leap (2-1).
    pub leap21: [Bitboard; SQUARES],
    /// The enhanced Mage's two-square leaps along the eight lines.
    pub mage2: [Bitboard; SQUARES],
    /// `pawn_from[c][sq]`: the squares from which a Legionary of colour `c`
    /// attacks `sq` (diagonally behind it, seen from `c`).
    pub pawn_from: [[Bitboard; SQUARES]; 2],
    /// `ray[d][sq]`: every square from `sq` (excluded) along direction `d`.
    pub ray: [[Bitboard; SQUARES]; 8],
    /// `ball[k][sq]`: the squares within king distance `k` of `sq`.
    pub ball: [[Bitboard; SQUARES]; 13],
    /// The four straight rays together.
    pub rook: [Bitboard; SQUARES],
    /// The four diagonal rays together.
    pub bishop: [Bitboard; SQUARES],
}

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq % 13) as i8 + df;
    let r = (sq / 13) as i8 + dr;
    if f >= 0 && f < 13 && r >= 0 && r < 13 {
        Some(r as usize * 13 + f as usize)
    } else {
        None
    }
}

const fn set(b: Bitboard, i: usize) -> Bitboard {
    match Square::from_index(i) {
        Some(sq) => b.with(sq),
        None => b,
    }
}

const fn steps(sq: usize, list: &[(i8, i8)], scale: i8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < list.len() {
        let (df, dr) = list[i];
        if let Some(t) = offset(sq, df * scale, dr * scale) {
            b = set(b, t);
        }
        i += 1;
    }
    b
}

const LEAP_32: [(i8, i8); 8] = [
    (3, 2),
    (2, 3),
    (-2, 3),
    (-3, 2),
    (-3, -2),
    (-2, -3),
    (2, -3),
    (3, -2),
];

const LEAP_21: [(i8, i8); 8] = [
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];

const fn build() -> Tables {
    let mut t = Tables {
        king: [Bitboard::EMPTY; SQUARES],
        ortho1: [Bitboard::EMPTY; SQUARES],
        leap32: [Bitboard::EMPTY; SQUARES],
        leap21: [Bitboard::EMPTY; SQUARES],
        mage2: [Bitboard::EMPTY; SQUARES],
        pawn_from: [[Bitboard::EMPTY; SQUARES]; 2],
        ray: [[Bitboard::EMPTY; SQUARES]; 8],
        ball: [[Bitboard::EMPTY; SQUARES]; 13],
        rook: [Bitboard::EMPTY; SQUARES],
        bishop: [Bitboard::EMPTY; SQUARES],
    };
    let mut sq = 0;
    while sq < SQUARES {
        t.king[sq] = steps(sq, &DIR_STEPS, 1);
        let mut straight = [(0i8, 0i8); 4];
        let mut i = 0;
        while i < 4 {
            straight[i] = DIR_STEPS[i];
            i += 1;
        }
        t.ortho1[sq] = steps(sq, &straight, 1);
        t.leap32[sq] = steps(sq, &LEAP_32, 1);
        t.leap21[sq] = steps(sq, &LEAP_21, 1);
        t.mage2[sq] = steps(sq, &DIR_STEPS, 2);
        // A White Legionary attacks sq from one rank below, Black from above.
        t.pawn_from[0][sq] = steps(sq, &[(-1, -1), (1, -1)], 1);
        t.pawn_from[1][sq] = steps(sq, &[(-1, 1), (1, 1)], 1);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIR_STEPS[d];
            let mut b = Bitboard::EMPTY;
            let mut cur = sq;
            while let Some(n) = offset(cur, df, dr) {
                b = set(b, n);
                cur = n;
            }
            t.ray[d][sq] = b;
            if d < 4 {
                t.rook[sq] = t.rook[sq].union(b);
            } else {
                t.bishop[sq] = t.bishop[sq].union(b);
            }
            d += 1;
        }
        let (f, r) = ((sq % 13) as i8, (sq / 13) as i8);
        let mut o = 0;
        while o < SQUARES {
            let (of, or) = ((o % 13) as i8, (o / 13) as i8);
            let df = if f > of { f - of } else { of - f };
            let dr = if r > or { r - or } else { or - r };
            let dist = if df > dr { df } else { dr };
            // the ring at exactly `dist` for now; made cumulative below
            t.ball[dist as usize][sq] = set(t.ball[dist as usize][sq], o);
            o += 1;
        }
        let mut k = 1;
        while k < 13 {
            t.ball[k][sq] = t.ball[k][sq].union(t.ball[k - 1][sq]);
            k += 1;
        }
        sq += 1;
    }
    t
}

/// The tables, built by the compiler.
pub(crate) static TABLES: Tables = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_geometry() {
        let g7 = Square::G7.index();
        assert_eq!(TABLES.king[g7].count(), 8);
        assert_eq!(TABLES.king[0].count(), 3);
        assert_eq!(TABLES.leap32[g7].count(), 8);
        assert_eq!(TABLES.leap21[g7].count(), 8);
        assert_eq!(TABLES.mage2[g7].count(), 8);
        assert_eq!(TABLES.ball[4][g7].count(), 81);
        assert_eq!(TABLES.ball[4][0].count(), 25);
        assert_eq!(TABLES.ball[12][0], Bitboard::FULL);
        for d in 0..8 {
            assert_eq!(TABLES.ray[d][g7].count(), 6);
            let first = TABLES.ray[d][g7].iter().next();
            let step = DIR_STEPS[d];
            let near = Square::G7.offset(step.0, step.1);
            if dir_positive(d) {
                assert_eq!(first, near);
            } else {
                assert_eq!(TABLES.ray[d][g7].iter().last(), near);
            }
            assert_eq!(DIR_STEPS[OPPOSITE[d]], (-step.0, -step.1));
        }
    }
}
