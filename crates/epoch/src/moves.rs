//! Moves and their context-free canonical text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::types::{PieceKind, Square};

/// A place a promotion can fill: a lost piece's kind and the file (0 = a) it
/// was captured on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Slot {
    /// The kind of the lost piece.
    pub kind: PieceKind,
    /// The file it was captured on, 0 (a) to 12 (m).
    pub file: u8,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), (b'a' + self.file) as char)
    }
}

/// A castling wing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wing {
    /// The Marshal's wing (files h-m): Pope g to j, Sentinel m to i. `O-O`.
    Marshal,
    /// The Emperor's wing (files a-f): Pope g to d, Sentinel a to e. `O-O-O`.
    Emperor,
}

/// One action of Chess 13: Epoch.
///
/// Canonical text (`Display`/`FromStr`, context-free): `e3e7` quiet move,
/// `e3xf4` capture on the destination square (also the Assassin's corner
/// capture), `d5xd5` blast, `c3xd4e5` Assassin capture (from, victim,
/// landing), `f7xe6ep` en passant, `d12d13=Sc` / `c12xd13=Sd` promotion on
/// arrival (kind and slot file), `d13=Sc` trade of a waiting Legionary,
/// `O-O` / `O-O-O` castling, `swap` the swap rule.
///
/// JSON form (what the server and the page exchange): an object tagged by
/// `kind`; squares as the notation writes them (`"g7"`), pieces by the
/// catalog's id (the kind's name in lowercase), a promotion place's file as
/// its letter. Unknown fields, squares off the board, a Pope or Legionary
/// as a place's piece and the shapes the canonical text refuses (a move
/// that stays on its square, an Assassin capture naming one square twice)
/// are refused.
///
/// | `kind` | fields | example | canonical |
/// |---|---|---|---|
/// | `move` | `from`, `to` | `{"kind":"move","from":"g3","to":"g7"}` | `g3g7` |
/// | `capture` | `from`, `to` (the captured piece's square, also an Assassin's corner capture) | `{"kind":"capture","from":"a4","to":"a12"}` | `a4xa12` |
/// | `blast` | `at` (the Mage's square; it stays there) | `{"kind":"blast","at":"d4"}` | `d4xd4` |
/// | `assassin-capture` | `from`, `victim`, `to` (the landing square beyond the victim) | `{"kind":"assassin-capture","from":"c3","victim":"f6","to":"g7"}` | `c3xf6g7` |
/// | `en-passant` | `from`, `to` (the square the advance crossed) | `{"kind":"en-passant","from":"f7","to":"e6"}` | `f7xe6ep` |
/// | `promotion` | `from`, `to`, `capture` (bool), `piece`, `file` (the place: the lost piece's kind and the file it fell on) | `{"kind":"promotion","from":"c12","to":"d13","capture":true,"piece":"sentinel","file":"c"}` | `c12xd13=Sc` |
/// | `trade` | `at` (the waiting Legionary), `piece`, `file` | `{"kind":"trade","at":"d13","piece":"templar","file":"e"}` | `d13=Te` |
/// | `castle` | `wing`: `marshal` (`O-O`, files h-m) or `emperor` (`O-O-O`, files a-f) | `{"kind":"castle","wing":"marshal"}` | `O-O` |
/// | `swap` | none | `{"kind":"swap"}` | `swap` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "MoveJson", try_from = "MoveJson")]
pub enum Move {
    /// A move to an empty square (any piece, a Legionary's advance included).
    Quiet {
        /// Start square.
        from: Square,
        /// Destination.
        to: Square,
    },
    /// A capture where the mover ends on the captured piece's square.
    Capture {
        /// Start square.
        from: Square,
        /// The captured piece's square and the destination.
        to: Square,
    },
    /// A Mage's blast: it stays on `at` and destroys its ring.
    Blast {
        /// The Mage's square.
        at: Square,
    },
    /// An Assassin's capture by passing over `victim` onto `to`.
    AssassinCapture {
        /// Start square.
        from: Square,
        /// The captured piece's square.
        victim: Square,
        /// The landing square, just beyond the victim.
        to: Square,
    },
    /// A Legionary takes en passant: it moves to `to`, the advanced
    /// Legionary beside it is captured.
    EnPassant {
        /// Start square (rank 7).
        from: Square,
        /// Destination, the square the advance crossed.
        to: Square,
    },
    /// A Legionary reaches the last rank and is traded for `slot` in the same move.
    Promotion {
        /// Start square.
        from: Square,
        /// Destination on the last rank.
        to: Square,
        /// Whether the arrival captures.
        capture: bool,
        /// The lost piece it becomes.
        slot: Slot,
    },
    /// A Legionary waiting on the last rank is traded: the whole move.
    Trade {
        /// The Legionary's square.
        at: Square,
        /// The lost piece it becomes.
        slot: Slot,
    },
    /// Castling on a wing.
    Castle {
        /// Which wing.
        wing: Wing,
    },
    /// Black, on its first turn, takes White's side instead of moving.
    Swap,
}

impl Move {
    /// The start square of the moving piece (the Pope for castling); `None` for the swap.
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Quiet { from, .. }
            | Move::Capture { from, .. }
            | Move::AssassinCapture { from, .. }
            | Move::EnPassant { from, .. }
            | Move::Promotion { from, .. } => Some(from),
            Move::Blast { at } | Move::Trade { at, .. } => Some(at),
            Move::Castle { .. } | Move::Swap => None,
        }
    }

    /// Where the moving piece ends; `None` for castling and the swap.
    pub fn to(self) -> Option<Square> {
        match self {
            Move::Quiet { to, .. }
            | Move::Capture { to, .. }
            | Move::AssassinCapture { to, .. }
            | Move::EnPassant { to, .. }
            | Move::Promotion { to, .. } => Some(to),
            Move::Blast { at } | Move::Trade { at, .. } => Some(at),
            Move::Castle { .. } | Move::Swap => None,
        }
    }
}

/// The wire shape of [`Move`]'s JSON form; [`Move`] converts to and from it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum MoveJson {
    Move {
        from: Square,
        to: Square,
    },
    Capture {
        from: Square,
        to: Square,
    },
    Blast {
        at: Square,
    },
    AssassinCapture {
        from: Square,
        victim: Square,
        to: Square,
    },
    EnPassant {
        from: Square,
        to: Square,
    },
    Promotion {
        from: Square,
        to: Square,
        capture: bool,
        piece: PieceKind,
        file: char,
    },
    Trade {
        at: Square,
        piece: PieceKind,
        file: char,
    },
    Castle {
        wing: Wing,
    },
    Swap,
}

impl From<Move> for MoveJson {
    fn from(m: Move) -> Self {
        let file = |slot: Slot| char::from(b'a' + slot.file);
        match m {
            Move::Quiet { from, to } => MoveJson::Move { from, to },
            Move::Capture { from, to } => MoveJson::Capture { from, to },
            Move::Blast { at } => MoveJson::Blast { at },
            Move::AssassinCapture { from, victim, to } => {
                MoveJson::AssassinCapture { from, victim, to }
            }
            Move::EnPassant { from, to } => MoveJson::EnPassant { from, to },
            Move::Promotion {
                from,
                to,
                capture,
                slot,
            } => MoveJson::Promotion {
                from,
                to,
                capture,
                piece: slot.kind,
                file: file(slot),
            },
            Move::Trade { at, slot } => MoveJson::Trade {
                at,
                piece: slot.kind,
                file: file(slot),
            },
            Move::Castle { wing } => MoveJson::Castle { wing },
            Move::Swap => MoveJson::Swap,
        }
    }
}

/// A JSON move of the right shape that cannot be a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("not a move: {0}")]
pub struct MoveJsonError(&'static str);

fn json_slot(piece: PieceKind, file: char) -> Result<Slot, MoveJsonError> {
    if piece.slot_index().is_none() {
        return Err(MoveJsonError("a Pope or a Legionary never opens a place"));
    }
    if !('a'..='m').contains(&file) {
        return Err(MoveJsonError("a place's file is a letter a-m"));
    }
    Ok(Slot {
        kind: piece,
        file: file as u8 - b'a',
    })
}

impl TryFrom<MoveJson> for Move {
    type Error = MoveJsonError;
    fn try_from(j: MoveJson) -> Result<Self, Self::Error> {
        let apart = |a: Square, b: Square| {
            if a == b {
                Err(MoveJsonError("a move must leave its square"))
            } else {
                Ok(())
            }
        };
        Ok(match j {
            MoveJson::Move { from, to } => {
                apart(from, to)?;
                Move::Quiet { from, to }
            }
            MoveJson::Capture { from, to } => {
                apart(from, to)?;
                Move::Capture { from, to }
            }
            MoveJson::Blast { at } => Move::Blast { at },
            MoveJson::AssassinCapture { from, victim, to } => {
                if from == victim || victim == to || from == to {
                    return Err(MoveJsonError(
                        "an Assassin capture names three different squares",
                    ));
                }
                Move::AssassinCapture { from, victim, to }
            }
            MoveJson::EnPassant { from, to } => {
                apart(from, to)?;
                Move::EnPassant { from, to }
            }
            MoveJson::Promotion {
                from,
                to,
                capture,
                piece,
                file,
            } => {
                apart(from, to)?;
                Move::Promotion {
                    from,
                    to,
                    capture,
                    slot: json_slot(piece, file)?,
                }
            }
            MoveJson::Trade { at, piece, file } => Move::Trade {
                at,
                slot: json_slot(piece, file)?,
            },
            MoveJson::Castle { wing } => Move::Castle { wing },
            MoveJson::Swap => Move::Swap,
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Quiet { from, to } => write!(f, "{from}{to}"),
            Move::Capture { from, to } => write!(f, "{from}x{to}"),
            Move::Blast { at } => write!(f, "{at}x{at}"),
            Move::AssassinCapture { from, victim, to } => write!(f, "{from}x{victim}{to}"),
            Move::EnPassant { from, to } => write!(f, "{from}x{to}ep"),
            Move::Promotion {
                from,
                to,
                capture,
                slot,
            } => write!(f, "{from}{}{to}={slot}", if capture { "x" } else { "" }),
            Move::Trade { at, slot } => write!(f, "{at}={slot}"),
            Move::Castle {
                wing: Wing::Marshal,
            } => f.write_str("O-O"),
            Move::Castle {
                wing: Wing::Emperor,
            } => f.write_str("O-O-O"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// Text that is not a canonical move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{text}' is not a move: {reason}")]
pub struct MoveParseError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// Reads a square at the start of `s`; returns it and the rest.
pub(crate) fn take_square(s: &str) -> Option<(Square, &str)> {
    let bytes = s.as_bytes();
    let f = *bytes.first()?;
    if !(b'a'..=b'm').contains(&f) {
        return None;
    }
    let mut n = 1;
    while n < bytes.len() && n < 3 && bytes[n].is_ascii_digit() {
        n += 1;
    }
    let sq: Square = s.get(..n)?.parse().ok()?;
    Some((sq, s.get(n..)?))
}

/// Reads `=Kf` (kind letter and optional file letter).
pub(crate) fn take_slot(s: &str) -> Option<(PieceKind, Option<u8>, &str)> {
    let rest = s.strip_prefix('=')?;
    let mut chars = rest.chars();
    let k = chars.next()?;
    if !k.is_ascii_uppercase() {
        return None;
    }
    let kind = PieceKind::from_letter(k)?;
    let rest = chars.as_str();
    match rest.as_bytes().first() {
        Some(&b) if (b'a'..=b'm').contains(&b) => Some((kind, Some(b - b'a'), &rest[1..])),
        _ => Some((kind, None, rest)),
    }
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason| MoveParseError {
            text: text.to_owned(),
            reason,
        };
        let s = text.trim();
        match s {
            "O-O" => {
                return Ok(Move::Castle {
                    wing: Wing::Marshal,
                });
            }
            "O-O-O" => {
                return Ok(Move::Castle {
                    wing: Wing::Emperor,
                });
            }
            "swap" => return Ok(Move::Swap),
            _ => {}
        }
        let (from, rest) = take_square(s).ok_or_else(|| err("expected a start square"))?;
        if rest.starts_with('=') {
            let (kind, file, rest) = take_slot(rest).ok_or_else(|| err("bad promotion"))?;
            let file = file.ok_or_else(|| err("a trade names the slot's file"))?;
            if !rest.is_empty() {
                return Err(err("trailing text"));
            }
            return Ok(Move::Trade {
                at: from,
                slot: Slot { kind, file },
            });
        }
        let (capture, rest) = match rest.strip_prefix('x') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let (to, rest) = take_square(rest).ok_or_else(|| err("expected a destination square"))?;
        if rest.is_empty() {
            return Ok(match (capture, from == to) {
                (_, true) if capture => Move::Blast { at: from },
                (_, true) => return Err(err("a move must leave its square")),
                (true, false) => Move::Capture { from, to },
                (false, false) => Move::Quiet { from, to },
            });
        }
        if rest == "ep" {
            if !capture || from == to {
                return Err(err("en passant is written e.g. f7xe6ep"));
            }
            return Ok(Move::EnPassant { from, to });
        }
        if rest.starts_with('=') {
            let (kind, file, rest) = take_slot(rest).ok_or_else(|| err("bad promotion"))?;
            let file = file.ok_or_else(|| err("a promotion names the slot's file"))?;
            if !rest.is_empty() || from == to {
                return Err(err("trailing text"));
            }
            return Ok(Move::Promotion {
                from,
                to,
                capture,
                slot: Slot { kind, file },
            });
        }
        if capture && let Some((land, "")) = take_square(rest) {
            if from == to || to == land {
                return Err(err("an Assassin capture names three different squares"));
            }
            return Ok(Move::AssassinCapture {
                from,
                victim: to,
                to: land,
            });
        }
        Err(err("trailing text"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn canonical_text_round_trips() {
        let slot = Slot {
            kind: PieceKind::Sentinel,
            file: 2,
        };
        let moves = [
            Move::Quiet {
                from: sq("e3"),
                to: sq("e7"),
            },
            Move::Capture {
                from: sq("e10"),
                to: sq("f11"),
            },
            Move::Blast { at: sq("g5") },
            Move::AssassinCapture {
                from: sq("c3"),
                victim: sq("d4"),
                to: sq("e5"),
            },
            Move::EnPassant {
                from: sq("f7"),
                to: sq("e6"),
            },
            Move::Promotion {
                from: sq("d12"),
                to: sq("d13"),
                capture: false,
                slot,
            },
            Move::Promotion {
                from: sq("c12"),
                to: sq("d13"),
                capture: true,
                slot,
            },
            Move::Trade {
                at: sq("d13"),
                slot,
            },
            Move::Castle {
                wing: Wing::Marshal,
            },
            Move::Castle {
                wing: Wing::Emperor,
            },
            Move::Swap,
        ];
        for m in moves {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m), "{m}");
        }
        for bad in [
            "", "e3", "e3e3", "e3xe4e4", "e3e4ep", "d13=S", "e3e4=Q", "z1z2",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
