//! Moves.

use std::fmt;

use crate::{CastlingSide, Role, Square};

/// A chess move. Three bytes, `Copy`.
///
/// Castling is stored as the king and rook squares; its UCI form is the king's
/// two-square step (`e1g1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Any move that is not en passant or castling, promotions included.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// The role a pawn promotes to, if this is a promotion.
        promotion: Option<Role>,
    },
    /// A pawn capturing en passant: `to` is the (empty) en-passant square.
    EnPassant {
        /// The capturing pawn's square.
        from: Square,
        /// The en-passant square it moves to.
        to: Square,
    },
    /// Castling.
    Castle {
        /// The king's square before castling.
        king: Square,
        /// The square of the rook it castles with.
        rook: Square,
    },
}

impl Move {
    /// The square the moving piece (the king, for castling) leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The square the moving piece (the king, for castling) arrives on.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { king, rook } => Square::from_coords(
                CastlingSide::from_squares(king, rook).king_to_file(),
                king.rank(),
            ),
        }
    }

    /// The promotion role, if any.
    #[inline]
    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether this is a promotion.
    #[inline]
    #[must_use]
    pub const fn is_promotion(self) -> bool {
        self.promotion().is_some()
    }

    /// Whether this is an en-passant capture.
    #[inline]
    #[must_use]
    pub const fn is_en_passant(self) -> bool {
        matches!(self, Move::EnPassant { .. })
    }

    /// Whether this is castling.
    #[inline]
    #[must_use]
    pub const fn is_castle(self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// The castling side, for a castling move.
    #[inline]
    #[must_use]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self {
            Move::Castle { king, rook } => Some(CastlingSide::from_squares(king, rook)),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's step `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}
