//! Actions: every decision of a turn, and every dice outcome.
//!
//! The canonical, context-free text (`Display` / `FromStr`):
//!
//! | action | text | example |
//! |---|---|---|
//! | a chess move: Basic move, Strategic movement, or a skirmish (capture attempt) | UCI | `e2e4`, `e7e8q`, `e1g1`, `f3e5` |
//! | announce a Tactical movement from A to B with its first target | `tac:` UCI `:` target | `tac:a1a5:b3`, `tac:d4d4:e5` (remaining in the same spot) |
//! | the next target of the Tactical movement under way | `hit:` square | `hit:c4` |
//! | end the Tactical movement on its final square | `arrive` | |
//! | announce a divided skirmish | `div:` origin `:` targets | `div:d4:c5,e5` |
//! | place a piece that won every divided skirmish | `place:` square [promotion] | `place:e5`, `place:e8q` |
//! | the defender keeps its piece where it stands | `stay` | |
//! | the defender takes the attacker's old square | `take:` UCI | `take:d5e4`, `take:d2d1q` |
//! | end an Advanced turn | `end` | |
//! | dice outcome: attacker's total, defender's total | `roll:A-D` | `roll:5-3` |
//! | a given: the result is certain, no dice | `given` | |
//!
//! The JSON form is documented on [`SkirmishAction`].

use std::fmt;
use std::str::FromStr;

use tabula_chess::{Bitboard, Role, Square, UciMove};

/// One Skirmish chess action.
///
/// Canonical text (`Display` / `FromStr`):
///
/// | action | text | example |
/// |---|---|---|
/// | a chess move: Basic move, Strategic movement, or a skirmish (capture attempt) | UCI | `e2e4`, `e7e8q`, `e1g1`, `f3e5` |
/// | announce a Tactical movement from A to B with its first target | `tac:` UCI `:` target | `tac:a1a5:b3`, `tac:d4d4:e5` |
/// | the next target of the Tactical movement under way | `hit:` square | `hit:c4` |
/// | end the Tactical movement on its final square | `arrive` | |
/// | announce a divided skirmish | `div:` origin `:` targets | `div:d4:c5,e5` |
/// | place a piece that won every divided skirmish | `place:` square [promotion] | `place:e5`, `place:e8q` |
/// | the defender keeps its piece where it stands | `stay` | |
/// | the defender takes the attacker's old square | `take:` UCI | `take:d5e4`, `take:d2d1q` |
/// | end an Advanced turn | `end` | |
/// | dice outcome: attacker's total, defender's total | `roll:A-D` | `roll:5-3` |
/// | a given: the result is certain, no dice | `given` | |
///
/// JSON (internally tagged by `kind`; squares as the text writes them,
/// promotions as lower-case letters, `promotion` left out when there is
/// none; unknown kinds or fields, bad squares or letters, and repeated or
/// missing targets are refused):
///
/// | kind | fields | example |
/// |---|---|---|
/// | `move` | `from`, `to`, `promotion`? | `{"kind":"move","from":"e7","to":"e8","promotion":"q"}` |
/// | `tactical` | `from` (point A), `to` (point B; `from` itself to attack while remaining in the same spot), `promotion`?, `target` (the first piece attacked) | `{"kind":"tactical","from":"a1","to":"a5","target":"b3"}` |
/// | `hit` | `target` (the next piece attacked on the way) | `{"kind":"hit","target":"c4"}` |
/// | `arrive` | | `{"kind":"arrive"}` |
/// | `divided` | `from`, `targets` (written lowest square first, read in any order) | `{"kind":"divided","from":"d4","targets":["c5","e5"]}` |
/// | `place` | `to` (a won square), `promotion`? | `{"kind":"place","to":"e5"}` |
/// | `stay` | | `{"kind":"stay"}` |
/// | `take` | `from` (the defender's square), `to` (the attacker's old square), `promotion`? | `{"kind":"take","from":"d5","to":"e4"}` |
/// | `end-turn` | | `{"kind":"end-turn"}` |
/// | `roll` (chance) | `attacker`, `defender`: each side's dice total | `{"kind":"roll","attacker":5,"defender":3}` |
/// | `given` (chance) | | `{"kind":"given"}` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "ActionJson", try_from = "ActionJson")]
pub enum SkirmishAction {
    /// A chess move in UCI: the Basic game's move, the Advanced game's
    /// Strategic movement, or (onto an enemy piece, or en passant) a
    /// skirmish.
    Move(UciMove),
    /// Announces a Tactical movement of the piece on `from` to `to` (the
    /// same square: attacking while remaining in the same spot), at half
    /// value, attacking `target` first.
    Tactical {
        /// The moving piece's square (point A).
        from: Square,
        /// The final square (point B).
        to: Square,
        /// The piece a pawn becomes on arriving on the last rank.
        promotion: Option<Role>,
        /// The first piece attacked on the way.
        target: Square,
    },
    /// The next target of the Tactical movement under way.
    Hit(Square),
    /// Ends the Tactical movement under way on its final square.
    Arrive,
    /// Announces a divided skirmish of the piece on `from` against every
    /// piece in `targets` (two or more), each at the piece's value divided
    /// by their number. The dice are rolled target by target, lowest square
    /// first.
    Divided {
        /// The attacking piece's square.
        from: Square,
        /// The announced targets.
        targets: Bitboard,
    },
    /// Places the piece that won every divided skirmish on one of the won
    /// squares.
    Place {
        /// The chosen square.
        to: Square,
        /// The piece a pawn becomes on the last rank.
        promotion: Option<Role>,
    },
    /// The defender that won keeps its piece on its square.
    Stay,
    /// The defender that won takes the attacker's old square.
    Take {
        /// The defending piece's square.
        from: Square,
        /// The attacker's old square.
        to: Square,
        /// The piece a pawn becomes on its last rank.
        promotion: Option<Role>,
    },
    /// Ends an Advanced-game turn.
    End,
    /// A dice outcome: each side's total.
    Roll {
        /// The attacker's total.
        attacker: u32,
        /// The defender's total.
        defender: u32,
    },
    /// The single outcome of a skirmish decided without dice.
    Given,
}

/// Text that is not a Skirmish chess action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read '{0}' as a Skirmish chess action (examples: e2e4, e7e8q, tac:a1a5:b3, hit:c4, arrive, div:d4:c5,e5, place:e5, stay, take:d5e4, end, roll:5-3, given)"
)]
pub struct ActionSyntaxError(pub String);

fn promo_suffix(p: Option<Role>) -> String {
    p.map(|r| r.char().to_string()).unwrap_or_default()
}

impl fmt::Display for SkirmishAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkirmishAction::Move(m) => write!(f, "{m}"),
            SkirmishAction::Tactical {
                from,
                to,
                promotion,
                target,
            } => write!(f, "tac:{from}{to}{}:{target}", promo_suffix(*promotion)),
            SkirmishAction::Hit(sq) => write!(f, "hit:{sq}"),
            SkirmishAction::Arrive => f.write_str("arrive"),
            SkirmishAction::Divided { from, targets } => {
                write!(f, "div:{from}:")?;
                write_squares(f, *targets)
            }
            SkirmishAction::Place { to, promotion } => {
                write!(f, "place:{to}{}", promo_suffix(*promotion))
            }
            SkirmishAction::Stay => f.write_str("stay"),
            SkirmishAction::Take {
                from,
                to,
                promotion,
            } => write!(f, "take:{from}{to}{}", promo_suffix(*promotion)),
            SkirmishAction::End => f.write_str("end"),
            SkirmishAction::Roll { attacker, defender } => write!(f, "roll:{attacker}-{defender}"),
            SkirmishAction::Given => f.write_str("given"),
        }
    }
}

/// Writes squares lowest first, comma-separated.
pub(crate) fn write_squares(f: &mut impl fmt::Write, squares: Bitboard) -> fmt::Result {
    for (i, sq) in squares.into_iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        write!(f, "{sq}")?;
    }
    Ok(())
}

/// Reads `e4` into a square.
pub(crate) fn parse_square(s: &str) -> Option<Square> {
    s.parse().ok()
}

/// Reads `c5,e5` (at least one square, no repeats).
pub(crate) fn parse_squares(s: &str) -> Option<Bitboard> {
    let mut bb = Bitboard::EMPTY;
    for part in s.split(',') {
        let sq = parse_square(part)?;
        if bb.contains(sq) {
            return None;
        }
        bb = bb.with(sq);
    }
    Some(bb)
}

/// Reads `e5` or `e8q`.
fn parse_square_promo(s: &str) -> Option<(Square, Option<Role>)> {
    let b = s.as_bytes();
    match b.len() {
        2 => Some((Square::from_ascii(b)?, None)),
        3 => {
            let role = Role::from_char(b[2] as char).filter(|r| r.is_promotion_target())?;
            if !(b[2] as char).is_ascii_lowercase() {
                return None;
            }
            Some((Square::from_ascii(&b[..2])?, Some(role)))
        }
        _ => None,
    }
}

fn parse_uci(s: &str) -> Option<UciMove> {
    let m: UciMove = s.parse().ok()?;
    // Canonical only: lower-case promotion letter.
    (m.to_string() == s).then_some(m)
}

impl FromStr for SkirmishAction {
    type Err = ActionSyntaxError;
    fn from_str(s: &str) -> Result<SkirmishAction, ActionSyntaxError> {
        let text = s.trim();
        let bad = || ActionSyntaxError(s.to_owned());
        match text {
            "arrive" => return Ok(SkirmishAction::Arrive),
            "stay" => return Ok(SkirmishAction::Stay),
            "end" => return Ok(SkirmishAction::End),
            "given" => return Ok(SkirmishAction::Given),
            _ => {}
        }
        let Some((head, rest)) = text.split_once(':') else {
            return parse_uci(text).map(SkirmishAction::Move).ok_or_else(bad);
        };
        match head {
            "tac" => {
                let (mv, target) = rest.split_once(':').ok_or_else(bad)?;
                let m = parse_uci(mv).ok_or_else(bad)?;
                let target = parse_square(target).ok_or_else(bad)?;
                Ok(SkirmishAction::Tactical {
                    from: m.from,
                    to: m.to,
                    promotion: m.promotion,
                    target,
                })
            }
            "hit" => parse_square(rest).map(SkirmishAction::Hit).ok_or_else(bad),
            "div" => {
                let (from, targets) = rest.split_once(':').ok_or_else(bad)?;
                let from = parse_square(from).ok_or_else(bad)?;
                let targets = parse_squares(targets).ok_or_else(bad)?;
                let canonical = SkirmishAction::Divided { from, targets };
                // Squares must be listed lowest first, as printed.
                if canonical.to_string() != text {
                    return Err(bad());
                }
                Ok(canonical)
            }
            "place" => {
                let (to, promotion) = parse_square_promo(rest).ok_or_else(bad)?;
                Ok(SkirmishAction::Place { to, promotion })
            }
            "take" => {
                let m = parse_uci(rest).ok_or_else(bad)?;
                Ok(SkirmishAction::Take {
                    from: m.from,
                    to: m.to,
                    promotion: m.promotion,
                })
            }
            "roll" => {
                let (a, d) = rest.split_once('-').ok_or_else(bad)?;
                let num = |t: &str| {
                    (!t.is_empty()
                        && t.bytes().all(|b| b.is_ascii_digit())
                        && (t == "0" || !t.starts_with('0')))
                    .then(|| t.parse::<u32>().ok())
                    .flatten()
                };
                Ok(SkirmishAction::Roll {
                    attacker: num(a).ok_or_else(bad)?,
                    defender: num(d).ok_or_else(bad)?,
                })
            }
            _ => Err(bad()),
        }
    }
}

/// The JSON shape of an action (see [`SkirmishAction`]); squares and
/// letters are checked when it becomes an action.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum ActionJson {
    Move {
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
    },
    Tactical {
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
        target: String,
    },
    Hit {
        target: String,
    },
    Arrive {},
    Divided {
        from: String,
        targets: Vec<String>,
    },
    Place {
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
    },
    Stay {},
    Take {
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
    },
    EndTurn {},
    Roll {
        attacker: u32,
        defender: u32,
    },
    Given {},
}

fn promo_letter(p: Option<Role>) -> Option<String> {
    p.map(|r| r.char().to_string())
}

impl From<SkirmishAction> for ActionJson {
    fn from(a: SkirmishAction) -> ActionJson {
        let sq = |s: Square| s.to_string();
        match a {
            SkirmishAction::Move(m) => ActionJson::Move {
                from: sq(m.from),
                to: sq(m.to),
                promotion: promo_letter(m.promotion),
            },
            SkirmishAction::Tactical {
                from,
                to,
                promotion,
                target,
            } => ActionJson::Tactical {
                from: sq(from),
                to: sq(to),
                promotion: promo_letter(promotion),
                target: sq(target),
            },
            SkirmishAction::Hit(target) => ActionJson::Hit { target: sq(target) },
            SkirmishAction::Arrive => ActionJson::Arrive {},
            SkirmishAction::Divided { from, targets } => ActionJson::Divided {
                from: sq(from),
                targets: targets.into_iter().map(sq).collect(),
            },
            SkirmishAction::Place { to, promotion } => ActionJson::Place {
                to: sq(to),
                promotion: promo_letter(promotion),
            },
            SkirmishAction::Stay => ActionJson::Stay {},
            SkirmishAction::Take {
                from,
                to,
                promotion,
            } => ActionJson::Take {
                from: sq(from),
                to: sq(to),
                promotion: promo_letter(promotion),
            },
            SkirmishAction::End => ActionJson::EndTurn {},
            SkirmishAction::Roll { attacker, defender } => ActionJson::Roll { attacker, defender },
            SkirmishAction::Given => ActionJson::Given {},
        }
    }
}

/// Why a JSON action was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a Skirmish chess action: {0}")]
pub struct ActionJsonError(String);

fn json_square(field: &str, s: &str) -> Result<Square, ActionJsonError> {
    // Only the canonical form, as the text writes it.
    parse_square(s)
        .filter(|sq| sq.to_string() == s)
        .ok_or_else(|| ActionJsonError(format!("{field} '{s}' is not a square like e4")))
}

fn json_promotion(p: Option<String>) -> Result<Option<Role>, ActionJsonError> {
    match p.as_deref() {
        None => Ok(None),
        Some(s @ ("q" | "r" | "b" | "n")) => Ok(s.chars().next().and_then(Role::from_char)),
        Some(s) => Err(ActionJsonError(format!(
            "promotion '{s}' is not one of q, r, b, n"
        ))),
    }
}

impl TryFrom<ActionJson> for SkirmishAction {
    type Error = ActionJsonError;
    fn try_from(j: ActionJson) -> Result<SkirmishAction, ActionJsonError> {
        Ok(match j {
            ActionJson::Move {
                from,
                to,
                promotion,
            } => SkirmishAction::Move(UciMove {
                from: json_square("from", &from)?,
                to: json_square("to", &to)?,
                promotion: json_promotion(promotion)?,
            }),
            ActionJson::Tactical {
                from,
                to,
                promotion,
                target,
            } => SkirmishAction::Tactical {
                from: json_square("from", &from)?,
                to: json_square("to", &to)?,
                promotion: json_promotion(promotion)?,
                target: json_square("target", &target)?,
            },
            ActionJson::Hit { target } => SkirmishAction::Hit(json_square("target", &target)?),
            ActionJson::Arrive {} => SkirmishAction::Arrive,
            ActionJson::Divided { from, targets } => {
                let mut bb = Bitboard::EMPTY;
                for t in &targets {
                    let sq = json_square("target", t)?;
                    if bb.contains(sq) {
                        return Err(ActionJsonError(format!("target {t} is named twice")));
                    }
                    bb = bb.with(sq);
                }
                if bb.is_empty() {
                    return Err(ActionJsonError(
                        "a divided skirmish names its targets".into(),
                    ));
                }
                SkirmishAction::Divided {
                    from: json_square("from", &from)?,
                    targets: bb,
                }
            }
            ActionJson::Place { to, promotion } => SkirmishAction::Place {
                to: json_square("to", &to)?,
                promotion: json_promotion(promotion)?,
            },
            ActionJson::Stay {} => SkirmishAction::Stay,
            ActionJson::Take {
                from,
                to,
                promotion,
            } => SkirmishAction::Take {
                from: json_square("from", &from)?,
                to: json_square("to", &to)?,
                promotion: json_promotion(promotion)?,
            },
            ActionJson::EndTurn {} => SkirmishAction::End,
            ActionJson::Roll { attacker, defender } => SkirmishAction::Roll { attacker, defender },
            ActionJson::Given {} => SkirmishAction::Given,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_round_trips() {
        for text in [
            "e2e4",
            "e7e8q",
            "tac:a1a5:b3",
            "tac:e7e8n:d8",
            "tac:d4d4:e5",
            "hit:c4",
            "arrive",
            "div:d4:c5,e5,f6",
            "place:e5",
            "place:e8q",
            "stay",
            "take:d5e4",
            "take:d2d1r",
            "end",
            "roll:5-3",
            "roll:12-2",
            "given",
        ] {
            let a: SkirmishAction = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        for bad in [
            "",
            "e2",
            "e7e8k",
            "tac:a1a5",
            "div:d4:e5,c5",
            "div:d4:c5,c5",
            "roll:5",
            "roll:05-3",
            "roll:-1-3",
            "take:d5",
            "place:e9",
            "hit:",
            "foo:bar",
            "E2E4",
        ] {
            assert!(bad.parse::<SkirmishAction>().is_err(), "{bad}");
        }
    }
}
