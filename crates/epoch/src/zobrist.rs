//! Zobrist keys: one fixed random 64-bit number per fact of the state, the
//! key the XOR of the facts that hold. `Position` keeps its keys up to date
//! move by move, so reading a key costs nothing on the search path.
//!
//! The numbers come from a fixed splitmix64 sequence computed by the
//! compiler: the same on every run and platform, which matters because
//! position texts store repetition keys (field 11).

use crate::types::{Color, Piece, SQUARES, Square};

/// The splitmix64 output for `n`: well spread, stable, `const`.
const fn mix(n: u64) -> u64 {
    let mut z = n
        .wrapping_add(0x9e37_79b9_7f4a_7c15)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The most lost pieces of one kind one file can hold (two of a kind at
/// most ever exist), plus room for a count the rules never reach.
pub(crate) const SLOT_COUNTS: usize = 4;

/// Every random number, grouped by the fact it stands for.
pub(crate) struct Zobrist {
    /// `piece[colour * 9 + kind][square]`.
    pub piece: [[u64; SQUARES]; 18],
    /// Black to move.
    pub black: u64,
    /// `castling[rights]`, the four right bits as an index.
    pub castling: [u64; 16],
    /// The en passant target square.
    pub ep: [u64; SQUARES],
    /// The side to move holds the riposte.
    pub riposte: u64,
    /// `awake[colour]`: that side's Emperor is in play.
    pub awake: [u64; 2],
    /// `slot[colour][slot kind][file][count]`: open promotion places;
    /// count 0 is 0 so an empty place adds nothing.
    pub slot: [[[[u64; SLOT_COUNTS]; 13]; 7]; 2],
    /// The swap is still open to Black (the game's part of the key).
    pub swap_open: u64,
    /// The players have swapped colours.
    pub swapped: u64,
}

const fn build() -> Zobrist {
    let mut n = 1u64;
    let mut z = Zobrist {
        piece: [[0; SQUARES]; 18],
        black: 0,
        castling: [0; 16],
        ep: [0; SQUARES],
        riposte: 0,
        awake: [0; 2],
        slot: [[[[0; SLOT_COUNTS]; 13]; 7]; 2],
        swap_open: 0,
        swapped: 0,
    };
    let mut p = 0;
    while p < 18 {
        let mut s = 0;
        while s < SQUARES {
            z.piece[p][s] = mix(n);
            n += 1;
            s += 1;
        }
        p += 1;
    }
    z.black = mix(n);
    n += 1;
    // No right at all adds nothing, like every other absent fact.
    let mut c = 1;
    while c < 16 {
        z.castling[c] = mix(n);
        n += 1;
        c += 1;
    }
    let mut s = 0;
    while s < SQUARES {
        z.ep[s] = mix(n);
        n += 1;
        s += 1;
    }
    z.riposte = mix(n);
    n += 1;
    z.awake = [mix(n), mix(n + 1)];
    n += 2;
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < 7 {
            let mut f = 0;
            while f < 13 {
                let mut count = 1;
                while count < SLOT_COUNTS {
                    z.slot[color][k][f][count] = mix(n);
                    n += 1;
                    count += 1;
                }
                f += 1;
            }
            k += 1;
        }
        color += 1;
    }
    z.swap_open = mix(n);
    z.swapped = mix(n + 1);
    z
}

/// The numbers, built by the compiler.
pub(crate) static ZOBRIST: Zobrist = build();

/// The number of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    ZOBRIST.piece[piece.color.index() * 9 + piece.kind.index()][sq.index()]
}

/// The number of the en passant target, 0 for none.
#[inline]
pub(crate) fn ep(sq: Option<Square>) -> u64 {
    match sq {
        Some(s) => ZOBRIST.ep[s.index()],
        None => 0,
    }
}

/// The number of `color` to move.
#[inline]
pub(crate) fn side(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => ZOBRIST.black,
    }
}

/// The number of `count` open places of one kind on one file.
#[inline]
pub(crate) fn slot(color: Color, kind_index: usize, file: usize, count: u8) -> u64 {
    ZOBRIST.slot[color.index()][kind_index % 7][file % 13][(count as usize).min(SLOT_COUNTS - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_are_distinct_and_absent_facts_add_nothing() {
        let z = &ZOBRIST;
        let mut all: Vec<u64> = z.piece.iter().flatten().copied().collect();
        all.extend(z.castling[1..].iter());
        all.extend(z.ep.iter());
        all.extend([
            z.black,
            z.riposte,
            z.awake[0],
            z.awake[1],
            z.swap_open,
            z.swapped,
        ]);
        for c in &z.slot {
            for k in c {
                for f in k {
                    assert_eq!(f[0], 0);
                    all.extend(f[1..].iter());
                }
            }
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(!all.contains(&0));
        assert_eq!(z.castling[0], 0);
    }
}
