//! Actions: one atomic decision of a turn, and their notation.
//!
//! | action | notation | example |
//! |---|---|---|
//! | drop a Bank Warrior ($1) | `W@` square | `W@e4` |
//! | move | from `-` to, facing if it has one Swords | `e4-e5`, `e4-e5N` |
//! | capture | from `x` to, facing if it has one Swords | `e5xd6`, `e5xd6W` |
//! | no movement possible | `pass` | `pass` |
//! | bonus drop of a Reserve Warrior | `+W@` square | `+W@c3` |
//! | arm a Warrior | weapon `@` square, facing for a first Swords | `R@d4`, `S@d4N` |
//! | buy a Warrior for the Reserve ($5) | `buy-W` | `buy-W` |
//! | buy a weapon | `buy-new-` or `buy-reissued-` weapon | `buy-new-R`, `buy-reissued-S` |
//! | end the current optional phase | `end` | `end` |
//! | claim the fifty-moves draw | `draw` | `draw` |
//!
//! Resigning is not among them: the table offers it for every game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::types::{Facing, Issue, Square, Weapon};

/// Something bought for the Reserve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purchase {
    /// A Warrior, $5, for a later bonus drop.
    Warrior,
    /// A weapon of the buyer's colour, new or reissued.
    Weapon(Weapon, Issue),
}

impl Purchase {
    /// The price.
    pub const fn price(self) -> u8 {
        match self {
            Purchase::Warrior => 5,
            Purchase::Weapon(w, issue) => w.cost(issue),
        }
    }
}

/// One decision of a turn.
///
/// The JSON form is an object tagged by `kind`; squares are the strings the
/// notation writes, weapons and facings their lowercase names:
///
/// | action | JSON |
/// |---|---|
/// | drop a Bank Warrior | `{"kind":"drop","to":"e4"}` |
/// | move | `{"kind":"move","from":"e1","to":"e2"}` |
/// | move, one Swords carried | `{"kind":"move","from":"d4","to":"d5","facing":"north"}` |
/// | capture | `{"kind":"capture","from":"a1","to":"a5"}` (`facing` as for a move) |
/// | no movement possible | `{"kind":"pass"}` |
/// | bonus drop of a Reserve Warrior | `{"kind":"bonus-drop","to":"c3"}` |
/// | arm a Warrior | `{"kind":"arm","weapon":"rook","on":"d4"}` |
/// | arm with a first Swords | `{"kind":"arm","weapon":"swords","on":"d4","facing":"east"}` |
/// | buy a Warrior for the Reserve | `{"kind":"buy","item":"warrior"}` |
/// | buy a weapon | `{"kind":"buy","item":"knight","issue":"new"}`, `{"kind":"buy","item":"swords","issue":"reissued"}` |
/// | end the current optional phase | `{"kind":"end"}` |
/// | claim the fifty-moves draw | `{"kind":"claim-draw"}` |
///
/// `weapon` and a bought weapon's `item` are `rook`, `knight`, `bishop` or
/// `swords` (the catalog's piece ids); `facing` is `north`, `east`, `south`
/// or `west`, left out where there is none to choose; `issue` is `new` or
/// `reissued`, given for a weapon and never for a Warrior. Unknown kinds,
/// unknown or missing fields, bad squares and a Warrior with an issue are
/// refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "ActionJson", try_from = "ActionJson")]
pub enum Action {
    /// The movement: drop one of one's Warriors held by the Bank onto an
    /// empty square, paying $1.
    Drop {
        /// Where.
        to: Square,
    },
    /// The movement: move a piece to an empty square. `facing` is the
    /// Swords facing chosen on arrival, for a piece with exactly one Swords.
    Move {
        /// From.
        from: Square,
        /// To (empty).
        to: Square,
        /// The new Swords facing, for a piece with one Swords.
        facing: Option<Facing>,
    },
    /// The movement: capture the opponent's piece on `to` with an armed
    /// piece or the King.
    Capture {
        /// From.
        from: Square,
        /// The captured piece's square.
        to: Square,
        /// The new Swords facing, for a piece with one Swords.
        facing: Option<Facing>,
    },
    /// The movement, when none is possible (option `no-movement=pass`).
    Pass,
    /// After the movement: drop a Reserve Warrior free onto an empty square.
    BonusDrop {
        /// Where.
        to: Square,
    },
    /// Placing weapons: put a Reserve weapon on one's Warrior. `facing` is
    /// given when the weapon is Swords and the Warrior has no Swords yet.
    Arm {
        /// The weapon.
        weapon: Weapon,
        /// The Warrior's square.
        on: Square,
        /// The Swords facing chosen.
        facing: Option<Facing>,
    },
    /// Buying: one item for the Reserve.
    Buy {
        /// What.
        item: Purchase,
    },
    /// Ends the current optional phase (bonus drops, placing weapons,
    /// buying); ending buying passes the turn.
    End,
    /// Claims the fifty-moves draw (option `fifty-moves=claim`).
    ClaimDraw,
}

/// The JSON shape of [`Action`] (see its documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum ActionJson {
    Drop {
        to: Square,
    },
    Move {
        from: Square,
        to: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Facing>,
    },
    Capture {
        from: Square,
        to: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Facing>,
    },
    Pass,
    BonusDrop {
        to: Square,
    },
    Arm {
        weapon: Weapon,
        on: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Facing>,
    },
    Buy {
        item: Item,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        issue: Option<Issue>,
    },
    End,
    ClaimDraw,
}

/// What a `buy` names: a Warrior or a weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Item {
    Warrior,
    Rook,
    Knight,
    Bishop,
    Swords,
}

impl From<Action> for ActionJson {
    fn from(a: Action) -> Self {
        match a {
            Action::Drop { to } => ActionJson::Drop { to },
            Action::Move { from, to, facing } => ActionJson::Move { from, to, facing },
            Action::Capture { from, to, facing } => ActionJson::Capture { from, to, facing },
            Action::Pass => ActionJson::Pass,
            Action::BonusDrop { to } => ActionJson::BonusDrop { to },
            Action::Arm { weapon, on, facing } => ActionJson::Arm { weapon, on, facing },
            Action::Buy { item } => match item {
                Purchase::Warrior => ActionJson::Buy {
                    item: Item::Warrior,
                    issue: None,
                },
                Purchase::Weapon(w, issue) => ActionJson::Buy {
                    item: match w {
                        Weapon::Rook => Item::Rook,
                        Weapon::Knight => Item::Knight,
                        Weapon::Bishop => Item::Bishop,
                        Weapon::Swords => Item::Swords,
                    },
                    issue: Some(issue),
                },
            },
            Action::End => ActionJson::End,
            Action::ClaimDraw => ActionJson::ClaimDraw,
        }
    }
}

impl TryFrom<ActionJson> for Action {
    type Error = &'static str;

    fn try_from(j: ActionJson) -> Result<Self, Self::Error> {
        Ok(match j {
            ActionJson::Drop { to } => Action::Drop { to },
            ActionJson::Move { from, to, facing } => Action::Move { from, to, facing },
            ActionJson::Capture { from, to, facing } => Action::Capture { from, to, facing },
            ActionJson::Pass => Action::Pass,
            ActionJson::BonusDrop { to } => Action::BonusDrop { to },
            ActionJson::Arm { weapon, on, facing } => Action::Arm { weapon, on, facing },
            ActionJson::Buy { item, issue } => {
                let weapon = match item {
                    Item::Warrior => {
                        return match issue {
                            None => Ok(Action::Buy {
                                item: Purchase::Warrior,
                            }),
                            Some(_) => Err("a Warrior is bought without an issue"),
                        };
                    }
                    Item::Rook => Weapon::Rook,
                    Item::Knight => Weapon::Knight,
                    Item::Bishop => Weapon::Bishop,
                    Item::Swords => Weapon::Swords,
                };
                let issue =
                    issue.ok_or("a weapon is bought \"new\" or \"reissued\": give its issue")?;
                Action::Buy {
                    item: Purchase::Weapon(weapon, issue),
                }
            }
            ActionJson::End => Action::End,
            ActionJson::ClaimDraw => Action::ClaimDraw,
        })
    }
}

/// Text that is not an action in any form this game reads.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read '{text}' as a Warrior Chess action: {reason}")]
pub struct ActionParseError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

fn write_facing(f: &mut fmt::Formatter<'_>, facing: Option<Facing>) -> fmt::Result {
    match facing {
        Some(facing) => write!(f, "{}", facing.letter()),
        None => Ok(()),
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Drop { to } => write!(f, "W@{to}"),
            Action::Move { from, to, facing } => {
                write!(f, "{from}-{to}")?;
                write_facing(f, facing)
            }
            Action::Capture { from, to, facing } => {
                write!(f, "{from}x{to}")?;
                write_facing(f, facing)
            }
            Action::Pass => f.write_str("pass"),
            Action::BonusDrop { to } => write!(f, "+W@{to}"),
            Action::Arm { weapon, on, facing } => {
                write!(f, "{}@{on}", weapon.letter())?;
                write_facing(f, facing)
            }
            Action::Buy { item } => match item {
                Purchase::Warrior => f.write_str("buy-W"),
                Purchase::Weapon(w, issue) => write!(f, "buy-{}-{}", issue.word(), w.letter()),
            },
            Action::End => f.write_str("end"),
            Action::ClaimDraw => f.write_str("draw"),
        }
    }
}

/// An action as read from text, before the position settles what it is:
/// a move written without `-`/`x`, or without a facing, is completed by
/// [`crate::Warrior`]'s `parse_action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rough {
    /// An action written in full.
    Exact(Action),
    /// `from` to `to`: `capture` is `Some(true)` for `x`, `Some(false)` for
    /// `-`, `None` when no separator was written; `facing` as written.
    Movement {
        from: Square,
        to: Square,
        capture: Option<bool>,
        facing: Option<Facing>,
    },
    /// `W@sq`: a drop, or a bonus drop in the bonus phase.
    AnyDrop(Square),
}

fn facing_suffix(rest: &str) -> Result<Option<Facing>, &'static str> {
    let mut chars = rest.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(None),
        (Some(c), None) => Facing::from_letter(c)
            .map(Some)
            .ok_or("a facing is one of N, E, S, W"),
        _ => Err("unexpected text after the square"),
    }
}

fn square_then_facing(rest: &str) -> Result<(Square, Option<Facing>), &'static str> {
    let (sq, rest) = Square::parse_prefix(rest).ok_or("expected a square a1..h8")?;
    Ok((sq, facing_suffix(rest)?))
}

pub(crate) fn parse_rough(text: &str) -> Result<Rough, ActionParseError> {
    let err = |reason| ActionParseError {
        text: text.to_owned(),
        reason,
    };
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "" => return Err(err("the text is empty")),
        "pass" => return Ok(Rough::Exact(Action::Pass)),
        "end" => return Ok(Rough::Exact(Action::End)),
        "draw" => return Ok(Rough::Exact(Action::ClaimDraw)),
        "buy-w" => {
            return Ok(Rough::Exact(Action::Buy {
                item: Purchase::Warrior,
            }));
        }
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix("buy-") {
        let (issue, letter) = if let Some(l) = rest.strip_prefix("new-") {
            (Issue::New, l)
        } else if let Some(l) = rest.strip_prefix("reissued-") {
            (Issue::Reissued, l)
        } else {
            (Issue::New, rest)
        };
        let mut chars = letter.chars();
        return match (chars.next().and_then(Weapon::from_letter), chars.next()) {
            (Some(w), None) => Ok(Rough::Exact(Action::Buy {
                item: Purchase::Weapon(w, issue),
            })),
            _ => Err(err(
                "buy what? buy-W, buy-new-R|N|B|S or buy-reissued-R|N|B|S",
            )),
        };
    }
    if let Some(rest) = t.strip_prefix("+W@").or_else(|| t.strip_prefix("+w@")) {
        let (to, facing) = square_then_facing(rest).map_err(err)?;
        if facing.is_some() {
            return Err(err("a drop has no facing"));
        }
        return Ok(Rough::Exact(Action::BonusDrop { to }));
    }
    if let Some((head, rest)) = t.split_once('@') {
        let (on, facing) = square_then_facing(rest).map_err(err)?;
        let mut chars = head.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) => c,
            _ => return Err(err("before '@': W to drop, or a weapon R, N, B, S to arm")),
        };
        if letter.eq_ignore_ascii_case(&'w') {
            if facing.is_some() {
                return Err(err("a drop has no facing"));
            }
            return Ok(Rough::AnyDrop(on));
        }
        let weapon = Weapon::from_letter(letter)
            .ok_or_else(|| err("before '@': W to drop, or a weapon R, N, B, S to arm"))?;
        return Ok(Rough::Exact(Action::Arm { weapon, on, facing }));
    }
    // A movement: from, optional '-' or 'x', to, optional facing.
    let (from, rest) = Square::parse_prefix(t).ok_or_else(|| err("not an action"))?;
    let (capture, rest) = match rest.chars().next() {
        Some('-') => (Some(false), &rest[1..]),
        Some('x') | Some('X') => (Some(true), &rest[1..]),
        _ => (None, rest),
    };
    let (to, facing) = square_then_facing(rest).map_err(err)?;
    Ok(Rough::Movement {
        from,
        to,
        capture,
        facing,
    })
}

impl FromStr for Action {
    type Err = ActionParseError;

    /// Reads the canonical form. Context-free, so `W@e4` is a drop and a
    /// movement must say `-` or `x`; [`crate::Warrior`]'s `parse_action`
    /// also reads the shorter forms.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match parse_rough(s)? {
            Rough::Exact(a) => Ok(a),
            Rough::AnyDrop(to) => Ok(Action::Drop { to }),
            Rough::Movement {
                from,
                to,
                capture: Some(capture),
                facing,
            } => Ok(if capture {
                Action::Capture { from, to, facing }
            } else {
                Action::Move { from, to, facing }
            }),
            Rough::Movement { capture: None, .. } => Err(ActionParseError {
                text: s.to_owned(),
                reason: "write '-' for a move or 'x' for a capture between the squares",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_round_trip() {
        for text in [
            "W@e4",
            "e4-e5",
            "e4-e5N",
            "e5xd6W",
            "pass",
            "+W@c3",
            "R@d4",
            "S@d4E",
            "buy-W",
            "buy-new-R",
            "buy-reissued-S",
            "end",
            "draw",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
    }

    #[test]
    fn bad_text_is_refused_with_a_reason() {
        for text in [
            "", "W@", "W@i9", "Q@d4", "e4", "e4-", "e4-e5Q", "e4-e5NN", "buy-Q", "+W@e4N", "é4",
            "@", "e4e5", "resign",
        ] {
            assert!(text.parse::<Action>().is_err(), "{text}");
        }
    }
}
