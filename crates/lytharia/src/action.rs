//! Actions and their text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabula_chess::Square;
use thiserror::Error;

use crate::cards::{CardId, card_db};

/// A square, written `e4` in texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub Square);

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Sq {
    type Err = ActionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<Square>()
            .map(Sq)
            .map_err(|_| ActionError::Parse(format!("'{s}' is not a square")))
    }
}

impl Serialize for Sq {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Sq {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One decision of a player, or one chance outcome.
///
/// Text forms (the canonical notation, also accepted by `parse_action`):
///
/// | action | text |
/// |---|---|
/// | both players' d6 for a roll-off | `rolloff 3-5` |
/// | one d6 for an effect | `d6 4` |
/// | a deck shuffle (chance), bottom to top as indices of the unshuffled deck | `shuffle 1 4.0.2.3.1` |
/// | place the next Pawn (setup), or this round's troop (Battle Duels) | `place stoneborn-militia` |
/// | pick one of the seven troops of a Battle Duel | `pick bronn` |
/// | move a troop | `e2-e4` |
/// | attack with the troop on e4 the enemy on d5 | `e4xd5` |
/// | promote the Pawn that reached the far rank | `promote bronn` |
/// | cast a spell, with its target square if it takes one | `cast firebolt @e5`, `cast counterspell` |
/// | pass priority (resolves the stack) | `pass` |
/// | harness a spell for mana | `harness firebolt` |
/// | attach equipment | `equip longsword @e2` |
/// | reforge equipment from hand, or attached to the troop on e2 | `reforge dagger`, `reforge dagger @e2` |
/// | use ability 0 of the troop on e2, with a target if it takes one | `use e2 0 @d5` |
/// | discard in the draw phase (hand of 10 or more) | `discard firebolt` |
/// | decline to draw (hand of 10 or more) | `keep` |
/// | charge the obelisk at 15 mana | `charge` |
/// | end the effects or main phase | `end` |
///
/// JSON form (the server's and the page's): an object tagged by `kind`;
/// squares are written as in the text (`"e4"`), cards by their card id,
/// seats as 0 and 1. Optional fields are left out when absent. Anything
/// else (an unknown kind or field, a die face outside 1-6, an unknown card
/// or square) is refused with a serde error.
///
/// | action | JSON |
/// |---|---|
/// | roll-off (chance): seat 0's d6, seat 1's d6 | `{"kind":"roll-off","first":3,"second":5}` |
/// | effect d6 (chance) | `{"kind":"die","value":4}` |
/// | deck shuffle (chance) | `{"kind":"shuffle","player":1,"order":[4,0,2,3,1]}` |
/// | place a Pawn / this round's troop | `{"kind":"place","card":"stoneborn-militia"}` |
/// | pick a Battle Duel troop | `{"kind":"pick","card":"bronn"}` |
/// | move | `{"kind":"move","from":"e2","to":"e4"}` |
/// | attack (Normal Chess: a capture) | `{"kind":"attack","from":"e4","to":"d5"}` |
/// | promote | `{"kind":"promote","card":"bronn"}` |
/// | cast | `{"kind":"cast","card":"firebolt","target":"e5"}`, `{"kind":"cast","card":"counterspell"}` |
/// | pass priority | `{"kind":"pass"}` |
/// | harness | `{"kind":"harness","card":"firebolt"}` |
/// | equip | `{"kind":"equip","card":"longsword","troop":"e2"}` |
/// | reforge from hand / from a troop | `{"kind":"reforge","card":"dagger"}`, `{"kind":"reforge","card":"dagger","troop":"e2"}` |
/// | use an ability (by index) | `{"kind":"use","troop":"e2","ability":0,"target":"d5"}` |
/// | discard | `{"kind":"discard","card":"firebolt"}` |
/// | keep the hand, do not draw | `{"kind":"keep"}` |
/// | charge the obelisk | `{"kind":"charge"}` |
/// | end the phase | `{"kind":"end"}` |
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: the two players' d6 in a roll-off (first player's seat, then the other).
    RollOff(u8, u8),
    /// Chance: one d6 for the effect on top of the stack.
    Die(u8),
    /// Chance: the shuffled order of a player's deck.
    Shuffle(u8, Vec<u16>),
    /// Setup: the next Pawn to place. Battle Duels: the troop for this round
    /// (also the chance outcome of a sudden-death lot).
    Place(CardId),
    /// Battle Duels: pick one of the seven troops for the match.
    Pick(CardId),
    /// Move a troop.
    Move(Sq, Sq),
    /// Attack an enemy from where the troop stands.
    Attack(Sq, Sq),
    /// Promote the Pawn on the far rank into a copy of this troop.
    Promote(CardId),
    /// Cast a spell from hand.
    Cast(CardId, Option<Sq>),
    /// Pass priority.
    Pass,
    /// Discard a spell for mana by its quality.
    Harness(CardId),
    /// Attach equipment from hand to a troop.
    Equip(CardId, Sq),
    /// Reforge equipment from hand (`None`) or attached to the troop on a square.
    Reforge(CardId, Option<Sq>),
    /// Use an ability of the troop on a square, by index, with an optional target.
    Use(Sq, u8, Option<Sq>),
    /// Discard a card in the draw phase.
    Discard(CardId),
    /// Decline to draw.
    Keep,
    /// Charge the obelisk.
    Charge,
    /// End the effects phase or the main phase.
    End,
}

/// Why an action cannot be parsed or played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The text is not an action.
    #[error("cannot read action: {0}")]
    Parse(String),
    /// The action is not legal now.
    #[error("'{action}' is not legal now: {why}")]
    Illegal {
        /// The action.
        action: String,
        /// Why.
        why: String,
    },
}

fn target(t: &Option<Sq>) -> String {
    t.map(|s| format!(" @{s}")).unwrap_or_default()
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::RollOff(a, b) => write!(f, "rolloff {a}-{b}"),
            Action::Die(n) => write!(f, "d6 {n}"),
            Action::Shuffle(p, perm) => {
                write!(f, "shuffle {p} ")?;
                if perm.is_empty() {
                    return f.write_str("-");
                }
                for (i, x) in perm.iter().enumerate() {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
            Action::Place(c) => write!(f, "place {c}"),
            Action::Pick(c) => write!(f, "pick {c}"),
            Action::Move(a, b) => write!(f, "{a}-{b}"),
            Action::Attack(a, b) => write!(f, "{a}x{b}"),
            Action::Promote(c) => write!(f, "promote {c}"),
            Action::Cast(c, t) => write!(f, "cast {c}{}", target(t)),
            Action::Pass => f.write_str("pass"),
            Action::Harness(c) => write!(f, "harness {c}"),
            Action::Equip(c, s) => write!(f, "equip {c} @{s}"),
            Action::Reforge(c, t) => write!(f, "reforge {c}{}", target(t)),
            Action::Use(s, i, t) => write!(f, "use {s} {i}{}", target(t)),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Keep => f.write_str("keep"),
            Action::Charge => f.write_str("charge"),
            Action::End => f.write_str("end"),
        }
    }
}

fn card(s: Option<&str>) -> Result<CardId, ActionError> {
    let s = s.ok_or_else(|| ActionError::Parse("a card id is missing".into()))?;
    card_db()
        .lookup(s)
        .ok_or_else(|| ActionError::Parse(format!("unknown card '{s}'")))
}

fn at(s: Option<&str>) -> Result<Option<Sq>, ActionError> {
    match s {
        None => Ok(None),
        Some(t) => match t.strip_prefix('@') {
            Some(sq) => sq.parse().map(Some),
            None => Err(ActionError::Parse(format!(
                "expected '@square', found '{t}'"
            ))),
        },
    }
}

fn num<T: FromStr>(s: Option<&str>, what: &str) -> Result<T, ActionError> {
    s.and_then(|x| x.parse().ok())
        .ok_or_else(|| ActionError::Parse(format!("expected {what}")))
}

impl FromStr for Action {
    type Err = ActionError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut w = text.split_whitespace();
        let head = w
            .next()
            .ok_or_else(|| ActionError::Parse("empty action".into()))?;
        let a = match head {
            "rolloff" => {
                let s = w.next().unwrap_or_default();
                let (x, y) = s
                    .split_once('-')
                    .ok_or_else(|| ActionError::Parse("expected rolloff A-B".into()))?;
                let x: u8 = num(Some(x), "a die face")?;
                let y: u8 = num(Some(y), "a die face")?;
                if !(1..=6).contains(&x) || !(1..=6).contains(&y) {
                    return Err(ActionError::Parse("die faces are 1 to 6".into()));
                }
                Action::RollOff(x, y)
            }
            "d6" => {
                let n: u8 = num(w.next(), "a die face")?;
                if !(1..=6).contains(&n) {
                    return Err(ActionError::Parse("die faces are 1 to 6".into()));
                }
                Action::Die(n)
            }
            "shuffle" => {
                let p: u8 = num(w.next(), "a seat (0 or 1)")?;
                let list = w.next().unwrap_or_default();
                let perm = if list == "-" {
                    Vec::new()
                } else {
                    list.split('.')
                        .map(|x| num(Some(x), "deck indices separated by '.'"))
                        .collect::<Result<Vec<u16>, _>>()?
                };
                Action::Shuffle(p, perm)
            }
            "place" => Action::Place(card(w.next())?),
            "pick" => Action::Pick(card(w.next())?),
            "promote" => Action::Promote(card(w.next())?),
            "cast" => Action::Cast(card(w.next())?, at(w.next())?),
            "pass" => Action::Pass,
            "harness" => Action::Harness(card(w.next())?),
            "equip" => {
                let c = card(w.next())?;
                let t = at(w.next())?
                    .ok_or_else(|| ActionError::Parse("equip needs '@square'".into()))?;
                Action::Equip(c, t)
            }
            "reforge" => Action::Reforge(card(w.next())?, at(w.next())?),
            "use" => {
                let s: Sq = w
                    .next()
                    .ok_or_else(|| ActionError::Parse("use needs a square".into()))?
                    .parse()?;
                let i: u8 = num(w.next(), "an ability index")?;
                Action::Use(s, i, at(w.next())?)
            }
            "discard" => Action::Discard(card(w.next())?),
            "keep" => Action::Keep,
            "charge" => Action::Charge,
            "end" => Action::End,
            other => {
                if let Some((a, b)) = other.split_once('-') {
                    Action::Move(a.parse()?, b.parse()?)
                } else if let Some((a, b)) = other.split_once('x') {
                    Action::Attack(a.parse()?, b.parse()?)
                } else {
                    return Err(ActionError::Parse(format!("unknown action '{text}'")));
                }
            }
        };
        if let Some(extra) = w.next() {
            return Err(ActionError::Parse(format!(
                "unexpected '{extra}' in '{text}'"
            )));
        }
        Ok(a)
    }
}

/// The JSON form of [`Action`]: an object tagged by `kind` (see the table
/// on [`Action`]); [`Action`] converts to and from it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum Json {
    RollOff {
        first: u8,
        second: u8,
    },
    Die {
        value: u8,
    },
    Shuffle {
        player: u8,
        order: Vec<u16>,
    },
    Place {
        card: CardId,
    },
    Pick {
        card: CardId,
    },
    Move {
        from: Sq,
        to: Sq,
    },
    Attack {
        from: Sq,
        to: Sq,
    },
    Promote {
        card: CardId,
    },
    Cast {
        card: CardId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Sq>,
    },
    Pass,
    Harness {
        card: CardId,
    },
    Equip {
        card: CardId,
        troop: Sq,
    },
    Reforge {
        card: CardId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        troop: Option<Sq>,
    },
    Use {
        troop: Sq,
        ability: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Sq>,
    },
    Discard {
        card: CardId,
    },
    Keep,
    Charge,
    End,
}

fn die_face(n: u8) -> Result<u8, String> {
    if (1..=6).contains(&n) {
        Ok(n)
    } else {
        Err(format!("die faces are 1 to 6, not {n}"))
    }
}

impl Json {
    fn into_action(self) -> Result<Action, String> {
        Ok(match self {
            Json::RollOff { first, second } => Action::RollOff(die_face(first)?, die_face(second)?),
            Json::Die { value } => Action::Die(die_face(value)?),
            Json::Shuffle { player, order } => {
                if player > 1 {
                    return Err(format!("seats are 0 and 1, not {player}"));
                }
                Action::Shuffle(player, order)
            }
            Json::Place { card } => Action::Place(card),
            Json::Pick { card } => Action::Pick(card),
            Json::Move { from, to } => Action::Move(from, to),
            Json::Attack { from, to } => Action::Attack(from, to),
            Json::Promote { card } => Action::Promote(card),
            Json::Cast { card, target } => Action::Cast(card, target),
            Json::Pass => Action::Pass,
            Json::Harness { card } => Action::Harness(card),
            Json::Equip { card, troop } => Action::Equip(card, troop),
            Json::Reforge { card, troop } => Action::Reforge(card, troop),
            Json::Use {
                troop,
                ability,
                target,
            } => Action::Use(troop, ability, target),
            Json::Discard { card } => Action::Discard(card),
            Json::Keep => Action::Keep,
            Json::Charge => Action::Charge,
            Json::End => Action::End,
        })
    }
}

impl Json {
    fn of(a: &Action) -> Self {
        match a.clone() {
            Action::RollOff(first, second) => Json::RollOff { first, second },
            Action::Die(value) => Json::Die { value },
            Action::Shuffle(player, order) => Json::Shuffle { player, order },
            Action::Place(card) => Json::Place { card },
            Action::Pick(card) => Json::Pick { card },
            Action::Move(from, to) => Json::Move { from, to },
            Action::Attack(from, to) => Json::Attack { from, to },
            Action::Promote(card) => Json::Promote { card },
            Action::Cast(card, target) => Json::Cast { card, target },
            Action::Pass => Json::Pass,
            Action::Harness(card) => Json::Harness { card },
            Action::Equip(card, troop) => Json::Equip { card, troop },
            Action::Reforge(card, troop) => Json::Reforge { card, troop },
            Action::Use(troop, ability, target) => Json::Use {
                troop,
                ability,
                target,
            },
            Action::Discard(card) => Json::Discard { card },
            Action::Keep => Json::Keep,
            Action::Charge => Json::Charge,
            Action::End => Json::End,
        }
    }
}

impl Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Json::of(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Json::deserialize(d)?
            .into_action()
            .map_err(serde::de::Error::custom)
    }
}
