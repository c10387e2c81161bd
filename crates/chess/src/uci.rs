//! UCI move notation (`e2e4`, `e7e8q`, castling as `e1g1`).

use std::fmt;
use std::str::FromStr;

use crate::{CastlingSide, Move, Position, Role, Square};

/// A move in UCI notation, read without a position: origin, destination and
/// an optional promotion letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// Origin square.
    pub from: Square,
    /// Destination square (for castling: the king's destination, or the rook's square).
    pub to: Square,
    /// Promotion role.
    pub promotion: Option<Role>,
}

/// Why a UCI move could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UciError {
    /// Not four or five characters of the form `e2e4` / `e7e8q`.
    #[error(
        "not a UCI move: {0:?} (expected origin, destination and optional promotion, like e2e4 or e7e8q)"
    )]
    Syntax(String),
    /// Well formed, but not legal in the position.
    #[error("illegal move {uci} in position {fen}")]
    Illegal {
        /// The move as given.
        uci: String,
        /// The position, as FEN.
        fen: String,
    },
}

impl FromStr for UciMove {
    type Err = UciError;
    fn from_str(s: &str) -> Result<UciMove, UciError> {
        let b = s.as_bytes();
        let syntax = || UciError::Syntax(s.to_owned());
        if !(4..=5).contains(&b.len()) {
            return Err(syntax());
        }
        let from = Square::from_ascii(&b[0..2]).ok_or_else(syntax)?;
        let to = Square::from_ascii(&b[2..4]).ok_or_else(syntax)?;
        let promotion = match b.get(4) {
            None => None,
            Some(&c) => {
                let role = Role::from_char(c as char).ok_or_else(syntax)?;
                if !role.is_promotion_target() {
                    return Err(syntax());
                }
                Some(role)
            }
        };
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(r) = self.promotion {
            write!(f, "{}", r.char())?;
        }
        Ok(())
    }
}

impl From<Move> for UciMove {
    fn from(m: Move) -> UciMove {
        UciMove {
            from: m.from(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }
}

impl UciMove {
    /// The move this notation means in `pos`, which must be legal there.
    /// Castling is accepted as the king's two-square step (`e1g1`) or as the
    /// king taking its own rook (`e1h1`).
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let m = self.interpret(pos);
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(UciError::Illegal {
                uci: self.to_string(),
                fen: pos.fen(),
            })
        }
    }

    /// The move this notation would be in `pos`, unchecked.
    pub(crate) fn interpret(&self, pos: &Position) -> Move {
        let b = pos.board();
        let us = pos.turn();
        let UciMove {
            from,
            to,
            promotion,
        } = *self;
        if promotion.is_none()
            && b.pieces(us, Role::King).contains(from)
            && from.rank() == to.rank()
        {
            if b.pieces(us, Role::Rook).contains(to) {
                return Move::Castle {
                    king: from,
                    rook: to,
                };
            }
            if from == CastlingSide::king_from(us)
                && from.file().index().abs_diff(to.file().index()) == 2
            {
                let side = CastlingSide::from_squares(from, to);
                return Move::Castle {
                    king: from,
                    rook: side.rook_from(us),
                };
            }
        }
        if promotion.is_none()
            && b.pieces(us, Role::Pawn).contains(from)
            && pos.ep_square() == Some(to)
            && from.file() != to.file()
            && !b.occupied().contains(to)
        {
            return Move::EnPassant { from, to };
        }
        Move::Normal {
            from,
            to,
            promotion,
        }
    }
}

impl Position {
    /// Reads a UCI move (`e2e4`, `e7e8q`, `e1g1` or `e1h1`) and checks that it
    /// is legal here.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, UciError> {
        uci.parse::<UciMove>()?.to_move(self)
    }
}
