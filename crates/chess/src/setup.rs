//! An unchecked description of a position, as a FEN spells it.

use crate::{Board, CastlingRights, Color, Square};

/// Everything a FEN holds, unchecked: any combination of values is allowed.
///
/// Turn a setup into a playable [`Position`](crate::Position) with
/// [`Position::from_setup`](crate::Position::from_setup) (standard chess,
/// validated) or [`Position::from_setup_unchecked`](crate::Position::from_setup_unchecked)
/// (variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Remaining castling rights.
    pub castling: CastlingRights,
    /// The en-passant target square (the square a double-stepping pawn passed), if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (the fifty-move rule counter).
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and incremented after Black moves.
    pub fullmove_number: u32,
}

impl Setup {
    /// The standard starting position.
    #[must_use]
    pub const fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// An empty board, White to move, no rights, move 1.
    #[must_use]
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl Default for Setup {
    /// The standard starting position.
    fn default() -> Setup {
        Setup::start()
    }
}
