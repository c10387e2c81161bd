//! Ranks (rows) 1 to 8.

use std::fmt;

use crate::Color;

/// A rank (row) of the board, `1` to `8`; White starts on ranks 1 and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, first to eighth.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7` (first = 0).
    #[inline]
    #[must_use]
    pub const fn new_masked(i: u32) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    /// The rank with index `i` (first = 0), or `None` past the eighth.
    #[inline]
    #[must_use]
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank::new_masked(i))
        } else {
            None
        }
    }

    /// `0` for the first rank to `7` for the eighth.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank `delta` ranks up (towards the eighth; negative: down), if on the board.
    #[inline]
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(Rank::new_masked(i as u32))
        } else {
            None
        }
    }

    /// This rank seen from `color`'s side: the first rank is Black's eighth.
    #[inline]
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new_masked(7 - self as u32),
        }
    }

    /// The digit `1` to `8`.
    #[inline]
    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `1` to `8`.
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new_masked(c as u32 - '1' as u32)),
            _ => None,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
