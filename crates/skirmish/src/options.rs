//! The options of Skirmish chess: the book's settings (attack bonus, the
//! King's value), the dice the book leaves unnamed, and the house rules where
//! the book can reasonably be read two ways (see `docs/rules/skirmish.md`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabula_core::{OptionError, OptionSpec, Options};

/// Which game of the book is played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The Basic game: a chess move a turn, every capture a skirmish.
    #[default]
    Basic,
    /// The Advanced game: at most one Strategic or Tactical movement and any
    /// number of skirmishes (sequential, divided) a turn.
    Advanced,
}

/// The dice each player rolls in a skirmish: `count` dice of `sides` faces,
/// added up. The same dice for both players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Dice {
    count: u8,
    sides: u8,
}

impl Dice {
    /// One six-sided die each: the default.
    pub const D6: Dice = Dice { count: 1, sides: 6 };
    /// The most dice a player may roll.
    pub const MAX_COUNT: u8 = 4;
    /// The most faces a die may have.
    pub const MAX_SIDES: u8 = 20;

    /// `count` dice of `sides` faces each; `None` unless
    /// `1 <= count <= 4` and `2 <= sides <= 20` (so that every exact
    /// probability fits a 64-bit fraction).
    pub const fn new(count: u8, sides: u8) -> Option<Dice> {
        if count >= 1 && count <= Self::MAX_COUNT && sides >= 2 && sides <= Self::MAX_SIDES {
            Some(Dice { count, sides })
        } else {
            None
        }
    }

    /// How many dice each player rolls.
    pub const fn count(self) -> u8 {
        self.count
    }

    /// How many faces each die has.
    pub const fn sides(self) -> u8 {
        self.sides
    }

    /// The lowest total a player can roll.
    pub const fn min_total(self) -> u32 {
        self.count as u32
    }

    /// The highest total a player can roll.
    pub const fn max_total(self) -> u32 {
        self.count as u32 * self.sides as u32
    }

    /// The number of equally likely ways to roll one player's dice: sides^count.
    pub const fn combinations(self) -> u64 {
        (self.sides as u64).pow(self.count as u32)
    }

    /// `ways[t - min_total]` = the number of ways to roll total `t`.
    pub fn ways(self) -> Vec<u64> {
        let mut ways = vec![1u64];
        for _ in 0..self.count {
            let mut next = vec![0u64; ways.len() + self.sides as usize - 1];
            for (i, w) in ways.iter().enumerate() {
                for face in 0..self.sides as usize {
                    next[i + face] += w;
                }
            }
            ways = next;
        }
        ways
    }
}

impl Default for Dice {
    fn default() -> Self {
        Dice::D6
    }
}

impl fmt::Display for Dice {
    /// `1d6`, `2d6`, `1d10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// Text that is not a dice description like `1d6`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not dice: '{0}' (expected NdS with 1 <= N <= 4 dice of 2 <= S <= 20 sides, like 1d6 or 2d6)"
)]
pub struct BadDice(pub String);

impl FromStr for Dice {
    type Err = BadDice;
    fn from_str(s: &str) -> Result<Dice, BadDice> {
        let t = s.trim().to_ascii_lowercase();
        let bad = || BadDice(s.to_owned());
        let (n, sides) = match t.split_once('d') {
            Some(("", sides)) => ("1", sides),
            Some(pair) => pair,
            None => return Err(bad()),
        };
        let n: u8 = n.parse().map_err(|_| bad())?;
        let sides: u8 = sides.parse().map_err(|_| bad())?;
        Dice::new(n, sides).ok_or_else(bad)
    }
}

impl TryFrom<String> for Dice {
    type Error = BadDice;
    fn try_from(s: String) -> Result<Dice, BadDice> {
        s.parse()
    }
}

impl From<Dice> for String {
    fn from(d: Dice) -> String {
        d.to_string()
    }
}

/// Who wins a skirmish whose totals are equal (the book does not say).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TieRule {
    /// The defender holds: the attacker must beat the defence. The default.
    #[default]
    Defender,
    /// The attacker wins ties.
    Attacker,
    /// Both players roll again until the totals differ.
    Reroll,
}

/// How the King captures (book: "the King captures pieces in the normal
/// chess manner").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KingCaptures {
    /// As in chess: no skirmish, the capture always succeeds, one a turn.
    #[default]
    Normal,
    /// Like any other piece: a skirmish at the King's value. A King that
    /// loses a skirmish is captured and its side loses.
    Skirmish,
}

/// The attacking value of a check or checkmate roll made by several
/// checking pieces at once (the book: "a skirmish roll", "the checking
/// piece(s)").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Checkers {
    /// The checking pieces' values added up.
    #[default]
    Sum,
    /// The value of the strongest checking piece.
    Strongest,
}

/// How the Attack Bonus falls over a sequential skirmish.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sequential {
    /// Lowered once more with each new attack: the k-th attack of a piece
    /// in a turn has bonus − (k−1)·⌈value/2⌉.
    #[default]
    Cumulative,
    /// Every attack after the first has bonus − ⌈value/2⌉.
    Flat,
}

/// Whether a defender that won may take the attacker's old square whatever
/// its own way of moving.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relocation {
    /// Any defending piece may take the square (the book puts no condition).
    #[default]
    Free,
    /// Only if the defending piece could capture on that square by its own
    /// chess move (a pawn diagonally forward, a bishop on its diagonals...).
    Reachable,
}

/// The options of Skirmish chess. `Default` is the book's game with the
/// readings recorded in `docs/rules/skirmish.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct SkirmishOptions {
    /// Basic or Advanced game.
    pub mode: Mode,
    /// The Attack Bonus, -999 to 999 through `set` (book default 1).
    pub attack_bonus: i32,
    /// The King's value, 1 to 9 (book default 4).
    pub king_value: KingValue,
    /// The dice each player rolls (default one d6).
    pub dice: Dice,
    /// Who wins a tie.
    pub ties: TieRule,
    /// How the King captures.
    pub king_captures: KingCaptures,
    /// The value of several checking pieces in one roll.
    pub checkers: Checkers,
    /// How the bonus falls over a sequential skirmish.
    pub sequential: Sequential,
    /// Whether the defender's taking of the attacker's square must be a move
    /// of its own kind.
    pub relocation: Relocation,
}

impl Default for SkirmishOptions {
    fn default() -> Self {
        SkirmishOptions {
            mode: Mode::Basic,
            attack_bonus: 1,
            king_value: KingValue::DEFAULT,
            dice: Dice::D6,
            ties: TieRule::Defender,
            king_captures: KingCaptures::Normal,
            checkers: Checkers::Sum,
            sequential: Sequential::Cumulative,
            relocation: Relocation::Free,
        }
    }
}

impl SkirmishOptions {
    /// The default options in the Advanced game.
    pub fn advanced() -> Self {
        SkirmishOptions {
            mode: Mode::Advanced,
            ..SkirmishOptions::default()
        }
    }
}

/// The King's value, 1 to 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct KingValue(u8);

impl KingValue {
    /// The book's value, 4.
    pub const DEFAULT: KingValue = KingValue(4);

    /// The value `v`, if `1 <= v <= 9`.
    pub const fn new(v: u8) -> Option<KingValue> {
        if v >= 1 && v <= 9 {
            Some(KingValue(v))
        } else {
            None
        }
    }

    /// The value.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl Default for KingValue {
    fn default() -> Self {
        KingValue::DEFAULT
    }
}

impl TryFrom<u8> for KingValue {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, String> {
        KingValue::new(v).ok_or_else(|| format!("the King's value is 1 to 9, not {v}"))
    }
}

impl From<KingValue> for u8 {
    fn from(v: KingValue) -> u8 {
        v.0
    }
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        key: "mode",
        values: "basic|advanced",
        default: "basic",
        help: "basic: one chess move a turn, captures by skirmish; advanced: one movement plus any number of skirmishes a turn",
    },
    OptionSpec {
        key: "attack-bonus",
        values: "-999..=999",
        default: "1",
        help: "added to the attacker's total in every skirmish (-999 to 999, negative too)",
    },
    OptionSpec {
        key: "king-value",
        values: "1..=9",
        default: "4",
        help: "the King's piece value in check and checkmate rolls (and when it attacks, with king-captures=skirmish)",
    },
    OptionSpec {
        key: "dice",
        values: "NdS (N 1..=4, S 2..=20)",
        default: "1d6",
        help: "the dice each player rolls and adds up",
    },
    OptionSpec {
        key: "ties",
        values: "defender|attacker|reroll",
        default: "defender",
        help: "who wins a skirmish with equal totals: the defender holds, the attacker wins, or both roll again",
    },
    OptionSpec {
        key: "king-captures",
        values: "normal|skirmish",
        default: "normal",
        help: "normal: the King captures as in chess, no roll; skirmish: it fights at its value and may be lost",
    },
    OptionSpec {
        key: "checkers",
        values: "sum|strongest",
        default: "sum",
        help: "attacking value of a check or checkmate roll by several pieces: their sum, or the strongest alone",
    },
    OptionSpec {
        key: "sequential",
        values: "cumulative|flat",
        default: "cumulative",
        help: "cumulative: the k-th attack of a piece in a turn has bonus-(k-1)*ceil(value/2); flat: every later attack has bonus-ceil(value/2)",
    },
    OptionSpec {
        key: "relocation",
        values: "free|reachable",
        default: "free",
        help: "free: a winning defender may always take the attacker's old square; reachable: only if it could capture there itself",
    },
];

fn bad(key: &str, value: &str, expected: &'static str) -> OptionError {
    OptionError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

fn pick<T: Copy>(
    key: &str,
    value: &str,
    expected: &'static str,
    table: &[(&str, T)],
) -> Result<T, OptionError> {
    let v = value.trim().to_ascii_lowercase();
    table
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| bad(key, value, expected))
}

impl Mode {
    /// `basic` or `advanced`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Basic => "basic",
            Mode::Advanced => "advanced",
        }
    }
}

impl TieRule {
    /// The option value.
    pub const fn as_str(self) -> &'static str {
        match self {
            TieRule::Defender => "defender",
            TieRule::Attacker => "attacker",
            TieRule::Reroll => "reroll",
        }
    }
}

impl KingCaptures {
    /// The option value.
    pub const fn as_str(self) -> &'static str {
        match self {
            KingCaptures::Normal => "normal",
            KingCaptures::Skirmish => "skirmish",
        }
    }
}

impl Checkers {
    /// The option value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Checkers::Sum => "sum",
            Checkers::Strongest => "strongest",
        }
    }
}

impl Sequential {
    /// The option value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Sequential::Cumulative => "cumulative",
            Sequential::Flat => "flat",
        }
    }
}

impl Relocation {
    /// The option value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Relocation::Free => "free",
            Relocation::Reachable => "reachable",
        }
    }
}

impl Options for SkirmishOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim();
        match key.trim().replace('_', "-").as_str() {
            "mode" => {
                self.mode = pick(
                    key,
                    value,
                    "basic|advanced",
                    &[("basic", Mode::Basic), ("advanced", Mode::Advanced)],
                )?
            }
            "attack-bonus" => {
                // The book allows "any amount". Past about 170 either way
                // (4d20 against 4d20, a Queen's value, a whole sequential
                // chain's decrease) a bonus decides every skirmish alone, so
                // this range holds every distinct game, and keeps totals far
                // from overflow.
                self.attack_bonus = v
                    .parse()
                    .ok()
                    .filter(|b: &i32| (-999..=999).contains(b))
                    .ok_or_else(|| bad(key, value, "an integer from -999 to 999"))?
            }
            "king-value" => {
                self.king_value = v
                    .parse::<u8>()
                    .ok()
                    .and_then(KingValue::new)
                    .ok_or_else(|| bad(key, value, "1..=9"))?
            }
            "dice" => {
                self.dice = v
                    .parse()
                    .map_err(|_| bad(key, value, "NdS with N 1..=4 and S 2..=20, like 1d6"))?
            }
            "ties" => {
                self.ties = pick(
                    key,
                    value,
                    "defender|attacker|reroll",
                    &[
                        ("defender", TieRule::Defender),
                        ("attacker", TieRule::Attacker),
                        ("reroll", TieRule::Reroll),
                    ],
                )?
            }
            "king-captures" => {
                self.king_captures = pick(
                    key,
                    value,
                    "normal|skirmish",
                    &[
                        ("normal", KingCaptures::Normal),
                        ("skirmish", KingCaptures::Skirmish),
                    ],
                )?
            }
            "checkers" => {
                self.checkers = pick(
                    key,
                    value,
                    "sum|strongest",
                    &[("sum", Checkers::Sum), ("strongest", Checkers::Strongest)],
                )?
            }
            "sequential" => {
                self.sequential = pick(
                    key,
                    value,
                    "cumulative|flat",
                    &[
                        ("cumulative", Sequential::Cumulative),
                        ("flat", Sequential::Flat),
                    ],
                )?
            }
            "relocation" => {
                self.relocation = pick(
                    key,
                    value,
                    "free|reachable",
                    &[
                        ("free", Relocation::Free),
                        ("reachable", Relocation::Reachable),
                    ],
                )?
            }
            _ => return Err(Self::unknown_key("skirmish", key)),
        }
        Ok(())
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        let d = SkirmishOptions::default();
        let mut pairs = Vec::new();
        let mut push = |k: &str, v: String| pairs.push((k.to_owned(), v));
        if self.mode != d.mode {
            push("mode", self.mode.as_str().to_owned());
        }
        if self.attack_bonus != d.attack_bonus {
            push("attack-bonus", self.attack_bonus.to_string());
        }
        if self.king_value != d.king_value {
            push("king-value", self.king_value.get().to_string());
        }
        if self.dice != d.dice {
            push("dice", self.dice.to_string());
        }
        if self.ties != d.ties {
            push("ties", self.ties.as_str().to_owned());
        }
        if self.king_captures != d.king_captures {
            push("king-captures", self.king_captures.as_str().to_owned());
        }
        if self.checkers != d.checkers {
            push("checkers", self.checkers.as_str().to_owned());
        }
        if self.sequential != d.sequential {
            push("sequential", self.sequential.as_str().to_owned());
        }
        if self.relocation != d.relocation {
            push("relocation", self.relocation.as_str().to_owned());
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_ways_add_up() {
        assert_eq!(Dice::D6.ways(), vec![1; 6]);
        let two = Dice::new(2, 6).unwrap();
        assert_eq!(two.ways(), vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(two.ways().iter().sum::<u64>(), two.combinations());
        assert_eq!("2d6".parse::<Dice>(), Ok(two));
        assert_eq!("d6".parse::<Dice>(), Ok(Dice::D6));
        assert!("5d6".parse::<Dice>().is_err());
        assert!("1d1".parse::<Dice>().is_err());
        assert!("1d21".parse::<Dice>().is_err());
    }

    #[test]
    fn options_round_trip_through_pairs() {
        let mut o = SkirmishOptions::default();
        assert!(o.to_pairs().is_empty());
        o.set("mode", "advanced").unwrap();
        o.set("attack-bonus", "-3").unwrap();
        o.set("king_value", "9").unwrap();
        o.set("dice", "2d6").unwrap();
        o.set("ties", "reroll").unwrap();
        o.set("king-captures", "skirmish").unwrap();
        o.set("checkers", "strongest").unwrap();
        o.set("sequential", "flat").unwrap();
        o.set("relocation", "reachable").unwrap();
        let mut again = SkirmishOptions::default();
        for (k, v) in o.to_pairs() {
            again.set(&k, &v).unwrap();
        }
        assert_eq!(again, o);
        assert!(o.set("king-value", "0").is_err());
        assert!(o.set("king-value", "10").is_err());
        assert!(o.set("attack-bonus", "x").is_err());
        assert!(o.set("attack-bonus", "-2147483648").is_err());
        assert!(o.set("attack-bonus", "1000").is_err());
        o.set("attack-bonus", "-999").unwrap();
        assert!(o.set("colour", "x").is_err());
    }

    #[test]
    fn options_serialize_and_refuse_impossible_values() {
        let mut o = SkirmishOptions::advanced();
        o.set("dice", "2d10").unwrap();
        o.set("king-value", "7").unwrap();
        let json = serde_json::to_string(&o).unwrap();
        assert!(json.contains("\"dice\":\"2d10\""), "{json}");
        assert_eq!(serde_json::from_str::<SkirmishOptions>(&json).unwrap(), o);
        assert_eq!(
            serde_json::from_str::<SkirmishOptions>("{}").unwrap(),
            SkirmishOptions::default()
        );
        assert!(serde_json::from_str::<SkirmishOptions>(r#"{"king-value":0}"#).is_err());
        assert!(serde_json::from_str::<SkirmishOptions>(r#"{"dice":"9d6"}"#).is_err());
    }
}
