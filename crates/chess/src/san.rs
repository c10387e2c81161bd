//! Standard Algebraic Notation.

use crate::{CastlingSide, File, Move, MoveList, Position, Rank, Role, Square};

/// Why a SAN move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// Not SAN at all.
    #[error("cannot read {0:?} as a SAN move (examples: e4, exd5, Nbd7, R1e2, e8=Q, O-O)")]
    Syntax(String),
    /// Well formed, but no legal move matches.
    #[error("no legal move matches {san} in position {fen}")]
    Illegal {
        /// The move as given.
        san: String,
        /// The position, as FEN.
        fen: String,
    },
    /// Several legal moves match; the notation needs disambiguation.
    #[error("{san} is ambiguous here: it could be any of {}", candidates.join(", "))]
    Ambiguous {
        /// The move as given.
        san: String,
        /// The matching moves, in SAN.
        candidates: Vec<String>,
    },
}

/// A SAN move read without a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SanParsed {
    Castle(CastlingSide),
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

fn parse_san_text(san: &str) -> Option<SanParsed> {
    let s = san.trim_end_matches(['+', '#', '!', '?']);
    match s {
        "O-O" | "0-0" | "o-o" => return Some(SanParsed::Castle(CastlingSide::KingSide)),
        "O-O-O" | "0-0-0" | "o-o-o" => return Some(SanParsed::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    let mut b: &[u8] = s.as_bytes();
    if !b.is_ascii() || b.len() < 2 {
        return None;
    }
    let role = match b[0] {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        b'P' => Some(Role::Pawn),
        _ => None,
    };
    if role.is_some() {
        b = &b[1..];
    }
    let role = role.unwrap_or(Role::Pawn);
    // Promotion suffix: "=Q", "Q", "=q" or "q" (pawns only).
    let mut promotion = None;
    if role == Role::Pawn && b.len() >= 3 {
        let last = b[b.len() - 1];
        if let Some(r) = Role::from_char(last as char).filter(|r| r.is_promotion_target())
            && (last.is_ascii_uppercase()
                || b[b.len() - 2].is_ascii_digit()
                || b[b.len() - 2] == b'=')
        {
            promotion = Some(r);
            b = &b[..b.len() - 1];
            if b.last() == Some(&b'=') {
                b = &b[..b.len() - 1];
            }
        }
    }
    if b.len() < 2 {
        return None;
    }
    let to = Square::from_ascii(&b[b.len() - 2..])?;
    let mut rest = &b[..b.len() - 2];
    if let Some((&last, init)) = rest.split_last()
        && matches!(last, b'x' | b':' | b'-')
    {
        rest = init;
    }
    let (mut file, mut rank) = (None, None);
    match rest {
        [] => {}
        [c] => {
            if let Some(f) = File::from_char(*c as char) {
                file = Some(f);
            } else {
                rank = Some(Rank::from_char(*c as char)?);
            }
        }
        [f, r] => {
            file = Some(File::from_char(*f as char)?);
            rank = Some(Rank::from_char(*r as char)?);
        }
        _ => return None,
    }
    Some(SanParsed::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// Reads a SAN move and finds the one legal move it means.
    ///
    /// Lenient on input: check and mate marks (`+`, `#`) and annotations
    /// (`!`, `?`) may be missing, wrong or present; castling may use zeros
    /// (`0-0`); promotions may omit `=` (`e8Q`, `e8q`); a capture mark may be
    /// missing; a pawn may be written with `P`.
    pub fn parse_san(&self, san: &str) -> Result<Move, SanError> {
        let parsed = parse_san_text(san.trim()).ok_or_else(|| SanError::Syntax(san.to_owned()))?;
        let legal = self.legal_moves();
        let candidates: MoveList = legal
            .iter()
            .copied()
            .filter(|&m| match parsed {
                SanParsed::Castle(side) => m.castling_side() == Some(side),
                SanParsed::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                } => {
                    !m.is_castle()
                        && self.board.role_at(m.from()) == Some(role)
                        && m.to() == to
                        && m.promotion() == promotion
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                }
            })
            .collect();
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => {
                // A king's two-square step written as a king move ("Kg1") is castling.
                if let SanParsed::Normal {
                    role: Role::King,
                    file: None,
                    rank: None,
                    to,
                    promotion: None,
                } = parsed
                    && let Some(&m) = legal.iter().find(|m| m.is_castle() && m.to() == to)
                {
                    return Ok(m);
                }
                Err(SanError::Illegal {
                    san: san.to_owned(),
                    fen: self.fen(),
                })
            }
            _ => Err(SanError::Ambiguous {
                san: san.to_owned(),
                candidates: candidates.iter().map(|&m| self.san(m)).collect(),
            }),
        }
    }

    /// The SAN of legal move `m`, with `+` for check and `#` for mate.
    #[must_use]
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut after = *self;
        after.play_unchecked(m);
        if after.is_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }

    /// The SAN of legal move `m`, without the check or mate mark.
    #[must_use]
    pub fn san_without_suffix(&self, m: Move) -> String {
        let mut s = String::with_capacity(8);
        match m {
            Move::Castle { king, rook } => {
                s.push_str(match CastlingSide::from_squares(king, rook) {
                    CastlingSide::KingSide => "O-O",
                    CastlingSide::QueenSide => "O-O-O",
                });
                return s;
            }
            Move::EnPassant { from, to } => {
                s.push(from.file().char());
                s.push('x');
                s.push_str(&to.to_string());
                return s;
            }
            Move::Normal { .. } => {}
        }
        let from = m.from();
        let to = m.to();
        let role = self.board.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.board.occupied().contains(to);
        if role == Role::Pawn {
            if capture {
                s.push(from.file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(role.upper_char());
        let mut others = Vec::new();
        self.for_each_legal_move(|o| {
            if !o.is_castle()
                && o.to() == to
                && o.from() != from
                && self.board.role_at(o.from()) == Some(role)
            {
                others.push(o.from());
            }
        });
        if !others.is_empty() {
            if others.iter().all(|o| o.file() != from.file()) {
                s.push(from.file().char());
            } else if others.iter().all(|o| o.rank() != from.rank()) {
                s.push(from.rank().char());
            } else {
                s.push(from.file().char());
                s.push(from.rank().char());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }
}
