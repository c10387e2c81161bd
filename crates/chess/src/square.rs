//! The 64 squares.

use std::fmt;
use std::str::FromStr;

use crate::{Bitboard, Color, File, Rank};

/// A square of the board, `A1` (index 0) to `H8` (index 63), rank by rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Square {
    A1 = 0,
    B1,
    C1,
    D1,
    E1,
    F1,
    G1,
    H1,
    A2,
    B2,
    C2,
    D2,
    E2,
    F2,
    G2,
    H2,
    A3,
    B3,
    C3,
    D3,
    E3,
    F3,
    G3,
    H3,
    A4,
    B4,
    C4,
    D4,
    E4,
    F4,
    G4,
    H4,
    A5,
    B5,
    C5,
    D5,
    E5,
    F5,
    G5,
    H5,
    A6,
    B6,
    C6,
    D6,
    E6,
    F6,
    G6,
    H6,
    A7,
    B7,
    C7,
    D7,
    E7,
    F7,
    G7,
    H7,
    A8,
    B8,
    C8,
    D8,
    E8,
    F8,
    G8,
    H8,
}

/// A string that is not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?} (expected a file a-h and a rank 1-8, like e4)")]
pub struct ParseSquareError(pub String);

impl Square {
    /// All squares, `A1` first, then along the first rank, then up.
    pub const ALL: [Square; 64] = [
        Square::A1,
        Square::B1,
        Square::C1,
        Square::D1,
        Square::E1,
        Square::F1,
        Square::G1,
        Square::H1,
        Square::A2,
        Square::B2,
        Square::C2,
        Square::D2,
        Square::E2,
        Square::F2,
        Square::G2,
        Square::H2,
        Square::A3,
        Square::B3,
        Square::C3,
        Square::D3,
        Square::E3,
        Square::F3,
        Square::G3,
        Square::H3,
        Square::A4,
        Square::B4,
        Square::C4,
        Square::D4,
        Square::E4,
        Square::F4,
        Square::G4,
        Square::H4,
        Square::A5,
        Square::B5,
        Square::C5,
        Square::D5,
        Square::E5,
        Square::F5,
        Square::G5,
        Square::H5,
        Square::A6,
        Square::B6,
        Square::C6,
        Square::D6,
        Square::E6,
        Square::F6,
        Square::G6,
        Square::H6,
        Square::A7,
        Square::B7,
        Square::C7,
        Square::D7,
        Square::E7,
        Square::F7,
        Square::G7,
        Square::H7,
        Square::A8,
        Square::B8,
        Square::C8,
        Square::D8,
        Square::E8,
        Square::F8,
        Square::G8,
        Square::H8,
    ];

    /// The square with index `i & 63`.
    #[inline]
    #[must_use]
    pub const fn new_masked(i: u32) -> Square {
        Square::ALL[(i & 63) as usize]
    }

    /// The square with index `i` (`A1` = 0, `B1` = 1, ..., `H8` = 63), or `None` past 63.
    #[inline]
    #[must_use]
    pub const fn new(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square::new_masked(i))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new_masked(rank as u32 * 8 + file as u32)
    }

    /// `0` for `A1` to `63` for `H8`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file.
    #[inline]
    #[must_use]
    pub const fn file(self) -> File {
        File::new_masked(self as u32 & 7)
    }

    /// The rank.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::new_masked(self as u32 >> 3)
    }

    /// The square `df` files right and `dr` ranks up, if on the board.
    #[inline]
    #[must_use]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        match (self.file().offset(df), self.rank().offset(dr)) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }

    /// The square mirrored top to bottom (`E1` <-> `E8`).
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Square {
        Square::new_masked(self as u32 ^ 56)
    }

    /// This square seen from `color`'s side (mirrored for Black).
    #[inline]
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square one rank forward for `color` (up for White), if on the board.
    #[inline]
    #[must_use]
    pub const fn forward(self, color: Color) -> Option<Square> {
        match color {
            Color::White => self.offset(0, 1),
            Color::Black => self.offset(0, -1),
        }
    }

    /// The single-square set.
    #[inline]
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self as u32)
    }

    /// Whether the square is light (`a1` is dark, `h1` light).
    #[inline]
    #[must_use]
    pub const fn is_light(self) -> bool {
        (self.file() as u32 + self.rank() as u32) % 2 == 1
    }

    /// Parses a name like `e4` from bytes (exactly two).
    #[inline]
    #[must_use]
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        match (File::from_char(s[0] as char), Rank::from_char(s[1] as char)) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}
