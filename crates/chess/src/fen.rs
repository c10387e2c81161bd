//! Forsyth–Edwards Notation.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::{
    Board, CastlingRights, Color, File, Piece, Position, PositionError, Rank, Setup, Square,
};

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN could not be read. Each variant names the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    #[error(
        "FEN has {0} fields, expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number)"
    )]
    FieldCount(usize),
    /// Field 1 is malformed.
    #[error("FEN field 1 (piece placement): {0}")]
    Placement(String),
    /// Field 2 is not `w` or `b`.
    #[error("FEN field 2 (side to move): expected 'w' or 'b', found '{0}'")]
    Turn(String),
    /// Field 3 is malformed.
    #[error("FEN field 3 (castling): expected '-' or letters from KQkq in that order, found '{0}'")]
    Castling(String),
    /// Field 4 is not `-` or a square.
    #[error("FEN field 4 (en passant): expected '-' or a square such as e3, found '{0}'")]
    EnPassant(String),
    /// Field 5 is not a number.
    #[error("FEN field 5 (halfmove clock): expected a non-negative number, found '{0}'")]
    Halfmove(String),
    /// Field 6 is not a number.
    #[error("FEN field 6 (fullmove number): expected a non-negative number, found '{0}'")]
    Fullmove(String),
    /// The FEN reads but is not a legal standard chess position.
    #[error("FEN describes an invalid position: {0}")]
    Position(#[from] PositionError),
}

/// Parses FEN field 1 (piece placement).
pub fn parse_board(s: &str) -> Result<Board, FenError> {
    let err = |msg: String| FenError::Placement(msg);
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(format!(
            "expected 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new_masked(7 - i as u32);
        let mut file = 0u32;
        let mut last_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if last_digit {
                    return Err(err(format!("rank {} has two digits in a row", rank.char())));
                }
                last_digit = true;
                file += d;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                last_digit = false;
                if file < 8 {
                    board.set_piece_at(Square::from_coords(File::new_masked(file), rank), piece);
                }
                file += 1;
            } else {
                return Err(err(format!(
                    "unexpected character '{c}' in rank {}",
                    rank.char()
                )));
            }
            if file > 8 {
                return Err(err(format!("rank {} has more than 8 squares", rank.char())));
            }
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} has {file} squares, expected 8",
                rank.char()
            )));
        }
    }
    Ok(board)
}

/// Formats FEN field 1 (piece placement).
#[must_use]
pub fn board_fen(board: &Board) -> String {
    let mut s = String::with_capacity(64);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::from_coords(file, *rank)) {
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(s, "{empty}");
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        if *rank != Rank::First {
            s.push('/');
        }
    }
    s
}

impl Setup {
    /// Parses a FEN. The two clock fields may be left out (they then default
    /// to `0 1`); everything else must be there. Nothing is validated beyond
    /// syntax: use [`Position::from_fen`] for a checked position.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        let castling = CastlingRights::from_fen(fields[2])
            .ok_or_else(|| FenError::Castling(fields[2].to_owned()))?;
        let ep_square = match fields[3] {
            "-" => None,
            s => Some(
                s.parse::<Square>()
                    .map_err(|_| FenError::EnPassant(s.to_owned()))?,
            ),
        };
        let halfmove_clock = match fields.get(4) {
            Some(s) => parse_number(s).ok_or_else(|| FenError::Halfmove((*s).to_owned()))?,
            None => 0,
        };
        let fullmove_number = match fields.get(5) {
            Some(s) => parse_number(s).ok_or_else(|| FenError::Fullmove((*s).to_owned()))?,
            None => 1,
        };
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmove_clock,
            fullmove_number,
        })
    }

    /// Formats the setup as a six-field FEN.
    #[must_use]
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
}

fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl fmt::Display for Setup {
    /// The six-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} ",
            board_fen(&self.board),
            self.turn.fen_char(),
            self.castling
        )?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }
}

impl FromStr for Setup {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::from_fen(s)
    }
}

impl Position {
    /// Parses and validates a FEN as a standard chess position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(Setup::from_fen(fen)?)?)
    }

    /// The six-field FEN (exactly as read, for a position read from FEN).
    #[must_use]
    pub fn fen(&self) -> String {
        fen(self)
    }
}

pub(crate) fn fen(pos: &Position) -> String {
    pos.to_setup().to_string()
}

impl fmt::Display for Position {
    /// The six-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
