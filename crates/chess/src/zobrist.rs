//! Zobrist hashing keys (fixed, generated at compile time by SplitMix64).

use crate::{Board, CastlingRights, Color, File, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 16],
    ep_file: [u64; 8],
    black_to_move: u64,
}

static KEYS: Keys = {
    let mut state = 0x7461_6275_6c61_u64; // "tabula"
    let mut pieces = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (st, k) = splitmix(state);
            state = st;
            pieces[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (st, k) = splitmix(state);
        state = st;
        single[i] = k;
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut k = 0;
        let mut b = 0;
        while b < 4 {
            if bits & (1 << b) != 0 {
                k ^= single[b];
            }
            b += 1;
        }
        castling[bits] = k;
        bits += 1;
    }
    let mut ep_file = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let (st, k) = splitmix(state);
        state = st;
        ep_file[f] = k;
        f += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        pieces,
        castling,
        ep_file,
        black_to_move,
    }
};

/// The key of `piece` on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.color as usize * 6 + piece.role as usize][sq as usize]
}

/// The key of a set of castling rights (the XOR of one key per right).
#[inline]
pub(crate) fn castling_key(rights: CastlingRights) -> u64 {
    KEYS.castling[(rights.bits() & 15) as usize]
}

/// The key of an en-passant file.
#[inline]
pub(crate) fn ep_key(file: File) -> u64 {
    KEYS.ep_file[file as usize]
}

/// The key XORed in when Black is to move.
#[inline]
pub(crate) fn turn_key(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS.black_to_move,
    }
}

/// The hash of a placement alone.
pub(crate) fn board_hash(board: &Board) -> u64 {
    board.iter().fold(0, |h, (sq, p)| h ^ piece_key(p, sq))
}
