//! Actions: every decision of a turn, with their text form.
//!
//! The canonical form is `verb@hex` (`act@d4`, `move@e5`, `melee@e6`...),
//! with no spaces so each action is one shell word; see
//! `docs/rules/covenant.md` for the whole notation.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::data::{Kind, PieceTable};
use crate::hex::Hex;

/// The most targets a Sweep can name (the piece table allows 2 to 6).
pub const MAX_SWEEP: usize = 6;

/// The targets of a Sweep: the first (the one that counters), then the
/// others in hex order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Targets {
    hexes: [Hex; MAX_SWEEP],
    len: u8,
}

impl Targets {
    /// Targets from `first` and the `others`, put in canonical order; `None`
    /// unless there are 2 to 6 distinct hexes.
    pub fn new(first: Hex, others: &[Hex]) -> Option<Self> {
        if others.is_empty() || others.len() >= MAX_SWEEP {
            return None;
        }
        let mut hexes = [first; MAX_SWEEP];
        hexes[1..=others.len()].copy_from_slice(others);
        hexes[1..=others.len()].sort_unstable();
        let all = &hexes[..=others.len()];
        for (i, a) in all.iter().enumerate() {
            if all[i + 1..].contains(a) {
                return None;
            }
        }
        Some(Targets {
            hexes,
            len: others.len() as u8 + 1,
        })
    }

    /// The targets, the first one first.
    pub fn as_slice(&self) -> &[Hex] {
        &self.hexes[..usize::from(self.len)]
    }

    /// The target that counters.
    pub fn first(&self) -> Hex {
        self.hexes[0]
    }
}

/// One decision.
///
/// The JSON form is an object tagged by `kind`; hexes are written as the
/// notation writes them (`"e4"`), piece kinds by their two-letter code (the
/// catalog's piece id):
///
/// | action | JSON | text |
/// |---|---|---|
/// | activate | `{"kind":"activate","at":"d4"}` | `act@d4` |
/// | buy the Maiden's extra act | `{"kind":"extra","at":"d4"}` | `extra@d4` |
/// | move the active piece | `{"kind":"move","to":"e5"}` | `move@e5` |
/// | melee (a Berserker's Fury too) | `{"kind":"melee","at":"e6"}` | `melee@e6` |
/// | shoot (arrows, bolts) | `{"kind":"shoot","at":"f8"}` | `shoot@f8` |
/// | holy strike | `{"kind":"holy","at":"f8"}` | `holy@f8` |
/// | sweep (the first target counters) | `{"kind":"sweep","targets":["e6","f5","f6"]}` | `sweep@e6,f5,f6` |
/// | heal | `{"kind":"heal","healer":"c2","target":"c3"}` | `heal@c2:c3` |
/// | recruit | `{"kind":"recruit","piece":"Mi","at":"c3"}` | `recruit@c3:Mi` |
/// | convert | `{"kind":"convert","at":"e6"}` | `convert@e6` |
/// | end the active piece's act | `{"kind":"end-act"}` | `end-act` |
/// | end the turn | `{"kind":"end-turn"}` | `end-turn` |
///
/// Reading refuses, with a serde error: an unknown `kind`, a missing or
/// unknown field, a hex that is not a name (`"z0"`), a piece code that is
/// no row of the table, and a sweep that does not name 2 to 6 different
/// hexes. A sweep's other targets may come in any order; they are written
/// in hex order, after the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "ActionJson", try_from = "ActionJson")]
pub enum Action {
    /// Activate the piece on this hex for one of its acts: it gets MP equal
    /// to its Speed (+2 near its Heir). `act@d4`
    Activate(Hex),
    /// Buy the Maiden's extra act for the piece on this hex (pay its Blood)
    /// and activate it. `extra@d4`
    Extra(Hex),
    /// Walk the active piece to this hex by the cheapest path. `move@e5`
    Move(Hex),
    /// The active piece strikes the adjacent foe on this hex (a Berserker
    /// strikes it twice); its act ends. `melee@e6`
    Melee(Hex),
    /// The active piece shoots (Arrows, Bolts) at this hex. `shoot@f8`
    Shoot(Hex),
    /// The active piece casts a holy strike at this hex. `holy@f8`
    Holy(Hex),
    /// The active Blade strikes several adjacent foes; the first counters.
    /// `sweep@e6,f5,f6`
    Sweep(Targets),
    /// The Prophet on `healer` fully heals the ally on `target`. `heal@c2:c3`
    Heal {
        /// The Prophet.
        healer: Hex,
        /// The ally healed (the Prophet himself allowed).
        target: Hex,
    },
    /// Recruit a piece of `kind` onto `at`, beside a royal. `recruit@c3:Mi`
    Recruit {
        /// What.
        kind: Kind,
        /// Where.
        at: Hex,
    },
    /// Raise the foe the active Apostle's holy strike just killed on this
    /// hex, for a Grail. `convert@e6`
    Convert(Hex),
    /// End the active piece's act. `end-act`
    EndAct,
    /// End the turn (ending any act first). `end-turn`
    EndTurn,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Activate(h) => write!(f, "act@{h}"),
            Action::Extra(h) => write!(f, "extra@{h}"),
            Action::Move(h) => write!(f, "move@{h}"),
            Action::Melee(h) => write!(f, "melee@{h}"),
            Action::Shoot(h) => write!(f, "shoot@{h}"),
            Action::Holy(h) => write!(f, "holy@{h}"),
            Action::Sweep(t) => {
                f.write_str("sweep@")?;
                for (i, h) in t.as_slice().iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{h}")?;
                }
                Ok(())
            }
            Action::Heal { healer, target } => write!(f, "heal@{healer}:{target}"),
            Action::Recruit { kind, at } => write!(f, "recruit@{at}:{kind}"),
            Action::Convert(h) => write!(f, "convert@{h}"),
            Action::EndAct => f.write_str("end-act"),
            Action::EndTurn => f.write_str("end-turn"),
        }
    }
}

/// Why an action text cannot be read, or an action cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The text is not in the notation.
    #[error("cannot read '{text}' as an action: {reason}")]
    Unreadable {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The action is well formed but not legal here.
    #[error("{action} is not legal here: {reason}")]
    Illegal {
        /// The action, canonical form.
        action: String,
        /// Why.
        reason: Illegal,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// Why a well-formed action is not legal now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Illegal {
    /// Another piece is active: end its act first.
    #[error("the piece on {0} is active; end its act first")]
    PieceActive(Hex),
    /// No piece is active.
    #[error("no piece is active; activate one first")]
    NoActivePiece,
    /// The hex is not on the field.
    #[error("{0} is not on the field")]
    OffField(Hex),
    /// Nobody stands there.
    #[error("no piece stands on {0}")]
    Empty(Hex),
    /// The piece belongs to the other side.
    #[error("the piece on {0} is not yours")]
    NotYours(Hex),
    /// The piece there is an ally, not a foe.
    #[error("the piece on {0} is not a foe")]
    NotAFoe(Hex),
    /// The piece was recruited or converted this turn.
    #[error("the piece on {0} stands idle until your next turn")]
    Idle(Hex),
    /// The piece has no act left this turn.
    #[error("the piece on {0} has no act left this turn")]
    NoActLeft(Hex),
    /// The hex is taken.
    #[error("{0} is taken")]
    Occupied(Hex),
    /// The hex cannot be reached with the MP left.
    #[error("{to} is out of reach ({mp} MP left)")]
    OutOfReach {
        /// The destination.
        to: Hex,
        /// MP left.
        mp: u8,
    },
    /// Melee needs an adjacent target.
    #[error("{0} is not adjacent")]
    NotAdjacent(Hex),
    /// The target is beyond range.
    #[error("{target} is {distance} tiles away; the range is {range}")]
    OutOfRange {
        /// The target.
        target: Hex,
        /// Its distance.
        distance: u8,
        /// The range.
        range: u8,
    },
    /// Not enough MP for the shot or cast.
    #[error("it costs {cost} MP and {mp} are left")]
    NotEnoughMp {
        /// The cost.
        cost: u8,
        /// MP left.
        mp: u8,
    },
    /// The piece lacks the power the action needs.
    #[error("the {piece} has no {power}")]
    NoPower {
        /// The piece's name.
        piece: String,
        /// The power.
        power: &'static str,
    },
    /// The Angel never strikes first.
    #[error("the {0} never attacks first")]
    NeverAttacks(String),
    /// Too many targets for the Sweep.
    #[error("a Sweep strikes at most {0} foes")]
    TooManyTargets(u8),
    /// Not enough Grails.
    #[error("it costs {cost} Grails and you have {have}")]
    NotEnoughGrails {
        /// The price.
        cost: u16,
        /// Grails held.
        have: u16,
    },
    /// The kind is not a row of the piece table.
    #[error("no piece type has index {0}")]
    UnknownKind(u8),
    /// The King is never recruited.
    #[error("the {0} is never recruited")]
    NeverRecruited(String),
    /// One of a kind (or the limit) already on the board.
    #[error("you already have {limit} {piece} on the board")]
    LimitReached {
        /// The piece's name.
        piece: String,
        /// Its limit.
        limit: u8,
    },
    /// Recruits are placed beside a royal.
    #[error("{0} is not beside one of your royals")]
    NotBesideRoyal(Hex),
    /// The Prophet heals once a turn.
    #[error("the Prophet on {0} has already healed this turn")]
    AlreadyHealed(Hex),
    /// Healing needs a hurt ally within reach.
    #[error("the piece on {0} has all its Blood")]
    NotHurt(Hex),
    /// The Maiden's extra act.
    #[error("the piece on {0} cannot buy an extra act: {1}")]
    NoExtra(Hex, &'static str),
    /// Nothing to convert there now.
    #[error("no foe just fell to a holy strike on {0}")]
    NothingToConvert(Hex),
}

fn unreadable(text: &str, reason: impl Into<String>) -> ActionError {
    ActionError::Unreadable {
        text: text.to_owned(),
        reason: reason.into(),
    }
}

fn hex(text: &str, part: &str) -> Result<Hex, ActionError> {
    part.trim()
        .parse()
        .map_err(|e: crate::hex::BadHex| unreadable(text, e.to_string()))
}

impl FromStr for Action {
    type Err = ActionError;

    /// Reads the canonical form, case-insensitively; piece kinds by code
    /// (`Mi`) or name (`Militia`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "end-act" => return Ok(Action::EndAct),
            "end-turn" => return Ok(Action::EndTurn),
            _ => {}
        }
        let Some((verb, arg)) = lower.split_once('@') else {
            return Err(unreadable(
                text,
                "expected verb@hex (act, extra, move, melee, shoot, holy, sweep, heal, recruit, convert), end-act or end-turn",
            ));
        };
        // Keep the argument's original case for piece codes.
        let raw_arg = &text[verb.len() + 1..];
        match verb {
            "act" => Ok(Action::Activate(hex(text, arg)?)),
            "extra" => Ok(Action::Extra(hex(text, arg)?)),
            "move" if arg.contains(',') => Err(unreadable(
                text,
                "a path is a run of moves, one a step (move@d2 move@d3); Covenant::parse_actions expands move@d2,d3",
            )),
            "move" => Ok(Action::Move(hex(text, arg)?)),
            "melee" => Ok(Action::Melee(hex(text, arg)?)),
            "shoot" => Ok(Action::Shoot(hex(text, arg)?)),
            "holy" => Ok(Action::Holy(hex(text, arg)?)),
            "convert" => Ok(Action::Convert(hex(text, arg)?)),
            "sweep" => {
                let hexes = arg
                    .split(',')
                    .map(|p| hex(text, p))
                    .collect::<Result<Vec<_>, _>>()?;
                let (first, others) = hexes
                    .split_first()
                    .ok_or_else(|| unreadable(text, "a sweep names its targets"))?;
                Targets::new(*first, others)
                    .map(Action::Sweep)
                    .ok_or_else(|| unreadable(text, "a sweep names 2 to 6 different hexes"))
            }
            "heal" => {
                let (a, b) = arg
                    .split_once(':')
                    .ok_or_else(|| unreadable(text, "expected heal@<prophet>:<ally>"))?;
                Ok(Action::Heal {
                    healer: hex(text, a)?,
                    target: hex(text, b)?,
                })
            }
            "recruit" => {
                let (a, b) = raw_arg
                    .split_once(':')
                    .ok_or_else(|| unreadable(text, "expected recruit@<hex>:<piece>"))?;
                let kind = PieceTable::builtin()
                    .find(b.trim())
                    .ok_or_else(|| unreadable(text, format!("no piece is called '{b}'")))?;
                Ok(Action::Recruit {
                    kind,
                    at: hex(text, a)?,
                })
            }
            other => Err(unreadable(text, format!("unknown verb '{other}'"))),
        }
    }
}

/// The JSON shape of [`Action`]: serde derives the tagging, and
/// `TryFrom` refuses what an `Action` cannot hold.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum ActionJson {
    Activate {
        at: Hex,
    },
    Extra {
        at: Hex,
    },
    Move {
        to: Hex,
    },
    Melee {
        at: Hex,
    },
    Shoot {
        at: Hex,
    },
    Holy {
        at: Hex,
    },
    Sweep {
        targets: Vec<Hex>,
    },
    Heal {
        healer: Hex,
        target: Hex,
    },
    Recruit {
        #[serde(with = "piece_code")]
        piece: Kind,
        at: Hex,
    },
    Convert {
        at: Hex,
    },
    EndAct,
    EndTurn,
}

/// A piece kind as its code (`"Mi"`); reading also takes the name.
mod piece_code {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::data::{Kind, PieceTable};

    pub fn serialize<S: Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(kind)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let text = String::deserialize(d)?;
        PieceTable::builtin()
            .find(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("no piece is called '{text}'")))
    }
}

impl From<Action> for ActionJson {
    fn from(action: Action) -> Self {
        match action {
            Action::Activate(at) => ActionJson::Activate { at },
            Action::Extra(at) => ActionJson::Extra { at },
            Action::Move(to) => ActionJson::Move { to },
            Action::Melee(at) => ActionJson::Melee { at },
            Action::Shoot(at) => ActionJson::Shoot { at },
            Action::Holy(at) => ActionJson::Holy { at },
            Action::Sweep(t) => ActionJson::Sweep {
                targets: t.as_slice().to_vec(),
            },
            Action::Heal { healer, target } => ActionJson::Heal { healer, target },
            Action::Recruit { kind, at } => ActionJson::Recruit { piece: kind, at },
            Action::Convert(at) => ActionJson::Convert { at },
            Action::EndAct => ActionJson::EndAct,
            Action::EndTurn => ActionJson::EndTurn,
        }
    }
}

impl TryFrom<ActionJson> for Action {
    type Error = String;

    fn try_from(json: ActionJson) -> Result<Self, String> {
        Ok(match json {
            ActionJson::Activate { at } => Action::Activate(at),
            ActionJson::Extra { at } => Action::Extra(at),
            ActionJson::Move { to } => Action::Move(to),
            ActionJson::Melee { at } => Action::Melee(at),
            ActionJson::Shoot { at } => Action::Shoot(at),
            ActionJson::Holy { at } => Action::Holy(at),
            ActionJson::Sweep { targets } => {
                let refuse =
                    || "a sweep names 2 to 6 different hexes, the first one first".to_owned();
                let (first, others) = targets.split_first().ok_or_else(refuse)?;
                Action::Sweep(Targets::new(*first, others).ok_or_else(refuse)?)
            }
            ActionJson::Heal { healer, target } => Action::Heal { healer, target },
            ActionJson::Recruit { piece, at } => Action::Recruit { kind: piece, at },
            ActionJson::Convert { at } => Action::Convert(at),
            ActionJson::EndAct => Action::EndAct,
            ActionJson::EndTurn => Action::EndTurn,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_are_canonical() {
        let a: Action = "sweep@e6,f6,f5".parse().unwrap();
        assert_eq!(a.to_string(), "sweep@e6,f5,f6");
        assert!("sweep@e6".parse::<Action>().is_err());
        assert!("sweep@e6,e6".parse::<Action>().is_err());
    }

    #[test]
    fn every_form_reads_back() {
        for text in [
            "act@d4",
            "extra@d4",
            "move@e5",
            "melee@e6",
            "shoot@f8",
            "holy@f8",
            "sweep@e6,f5",
            "heal@c2:c3",
            "recruit@c3:Mi",
            "convert@e6",
            "end-act",
            "end-turn",
        ] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        assert_eq!(
            "Recruit@C3:militia".parse::<Action>().unwrap().to_string(),
            "recruit@c3:Mi"
        );
        for bad in [
            "",
            "go@d4",
            "act",
            "act@",
            "act@z0",
            "recruit@c3:Dragon",
            "heal@c3",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }
}
