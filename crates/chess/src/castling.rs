//! Castling rights.

use std::fmt;

use crate::{Color, File, Rank, Square};

/// Which way a king castles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide,
    /// Towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The rook's starting file (h or a).
    #[inline]
    #[must_use]
    pub const fn rook_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::H,
            CastlingSide::QueenSide => File::A,
        }
    }

    /// The king's file after castling (g or c).
    #[inline]
    #[must_use]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The rook's file after castling (f or d).
    #[inline]
    #[must_use]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The king's home square for `color` (e1 or e8).
    #[inline]
    #[must_use]
    pub const fn king_from(color: Color) -> Square {
        Square::from_coords(File::E, Rank::First.relative_to(color))
    }

    /// The rook's home square for `color` on this side.
    #[inline]
    #[must_use]
    pub const fn rook_from(self, color: Color) -> Square {
        Square::from_coords(self.rook_file(), Rank::First.relative_to(color))
    }

    /// The king's square after castling for `color`.
    #[inline]
    #[must_use]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The rook's square after castling for `color`.
    #[inline]
    #[must_use]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The side a rook on `rook` castles towards, judged against a king on `king`.
    #[inline]
    #[must_use]
    pub const fn from_squares(king: Square, rook: Square) -> CastlingSide {
        if (rook.file() as u8) > (king.file() as u8) {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

/// The four standard castling rights (`KQkq` in FEN), as a small bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights (`-`).
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (`KQkq`).
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// The rights as four bits: White king side = 1, White queen side = 2,
    /// Black king side = 4, Black queen side = 8.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Rights from the four bits of [`bits`](Self::bits) (higher bits ignored).
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 0b1111)
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    #[must_use]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Whether `color` has any right left.
    #[inline]
    #[must_use]
    pub const fn has_color(self, color: Color) -> bool {
        self.0 & (0b11 << (color as u8 * 2)) != 0
    }

    /// Whether no right is left.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These rights plus `color`'s right on `side`.
    #[inline]
    #[must_use]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// These rights less `color`'s right on `side`.
    #[inline]
    #[must_use]
    pub const fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// These rights less both of `color`'s.
    #[inline]
    #[must_use]
    pub const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & !(0b11 << (color as u8 * 2)))
    }

    /// The rights that survive a move touching `sq` (as origin or destination):
    /// moving or capturing on a king or rook home square loses the rights tied to it.
    #[inline]
    #[must_use]
    pub const fn after_touching(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0 & TOUCH_MASK[sq as usize])
    }

    /// Parses the FEN castling field (`KQkq`, any subset in that order, or `-`).
    #[must_use]
    pub fn from_fen(s: &str) -> Option<CastlingRights> {
        if s == "-" {
            return Some(CastlingRights::NONE);
        }
        if s.is_empty() {
            return None;
        }
        let mut rights = CastlingRights::NONE;
        let mut last = -1i32;
        for c in s.chars() {
            let (order, color, side) = match c {
                'K' => (0, Color::White, CastlingSide::KingSide),
                'Q' => (1, Color::White, CastlingSide::QueenSide),
                'k' => (2, Color::Black, CastlingSide::KingSide),
                'q' => (3, Color::Black, CastlingSide::QueenSide),
                _ => return None,
            };
            if order <= last {
                return None;
            }
            last = order;
            rights = rights.with(color, side);
        }
        Some(rights)
    }
}

const TOUCH_MASK: [u8; 64] = {
    let mut m = [0b1111u8; 64];
    m[Square::E1 as usize] = 0b1100;
    m[Square::H1 as usize] = 0b1110;
    m[Square::A1 as usize] = 0b1101;
    m[Square::E8 as usize] = 0b0011;
    m[Square::H8 as usize] = 0b1011;
    m[Square::A8 as usize] = 0b0111;
    m
};

impl fmt::Display for CastlingRights {
    /// The FEN field: `KQkq`, a subset, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (c, color, side) in [
            ('K', Color::White, CastlingSide::KingSide),
            ('Q', Color::White, CastlingSide::QueenSide),
            ('k', Color::Black, CastlingSide::KingSide),
            ('q', Color::Black, CastlingSide::QueenSide),
        ] {
            if self.has(color, side) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights({self})")
    }
}
