//! The options of Warrior Chess: the number of players and the house rules
//! where the book leaves room for disagreement (see `docs/rules/warrior.md`).

use serde::{Deserialize, Serialize};
use tabula_core::{OptionError, OptionSpec, Options};

/// How many play: two, or four in two teams (doubles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Players {
    /// The two-player game: Red (E1) against Blue (D8).
    #[default]
    Two,
    /// Doubles: Red (E1) and Green (D8) against Blue (A4) and Yellow (H5).
    Four,
}

impl Players {
    /// The number of players.
    pub const fn count(self) -> u8 {
        match self {
            Players::Two => 2,
            Players::Four => 4,
        }
    }
}

impl From<Players> for u8 {
    fn from(p: Players) -> u8 {
        p.count()
    }
}

impl TryFrom<u8> for Players {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        match n {
            2 => Ok(Players::Two),
            4 => Ok(Players::Four),
            _ => Err(format!(
                "Warrior Chess is played by 2 or 4 players, not {n}"
            )),
        }
    }
}

/// What a player does who has no legal movement (no Warrior in the Bank to
/// drop, no piece able to move or capture).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NoMovement {
    /// The movement is skipped with the action `pass`; the rest of the turn
    /// (bonus drops, arming, buying) goes on.
    #[default]
    Pass,
    /// The player (and in doubles the team) loses.
    Lose,
}

/// How the book's fifty-moves draw applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FiftyMoves {
    /// The game is drawn as soon as the limit is reached.
    #[default]
    Auto,
    /// From the limit on, the player to move may claim the draw (`draw`).
    Claim,
    /// No draw.
    Off,
}

/// The options of Warrior Chess. `Default` is the two-player game with the
/// readings recorded in `docs/rules/warrior.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct WarriorOptions {
    /// Two players, or four in doubles.
    pub players: Players,
    /// What a player without a legal movement does.
    pub no_movement: NoMovement,
    /// How the fifty-moves draw applies.
    pub fifty_moves: FiftyMoves,
    /// Whether a Warrior may carry two Rooks, two Knights or two Bishops
    /// (two Swords are always allowed: the book lists Swords/Swords).
    pub duplicate_weapons: bool,
}

impl Default for WarriorOptions {
    fn default() -> Self {
        WarriorOptions {
            players: Players::Two,
            no_movement: NoMovement::Pass,
            fifty_moves: FiftyMoves::Auto,
            duplicate_weapons: false,
        }
    }
}

impl WarriorOptions {
    /// The four-player doubles game with otherwise default options.
    pub fn doubles() -> Self {
        WarriorOptions {
            players: Players::Four,
            ..WarriorOptions::default()
        }
    }

    /// How many turns in a row without a drop or capture draw the game:
    /// fifty movements for each player.
    pub const fn fifty_moves_limit(&self) -> u16 {
        50 * self.players.count() as u16
    }
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        key: "players",
        values: "2|4",
        default: "2",
        help: "2 players, or 4 in two teams (doubles: Kings on E1, A4, D8, H5)",
    },
    OptionSpec {
        key: "no-movement",
        values: "pass|lose",
        default: "pass",
        help: "a player with no legal movement passes it, or loses",
    },
    OptionSpec {
        key: "fifty-moves",
        values: "auto|claim|off",
        default: "auto",
        help: "50 movements each without a drop or capture: drawn at once, drawn on claim, or never",
    },
    OptionSpec {
        key: "duplicate-weapons",
        values: "off|on",
        default: "off",
        help: "whether a Warrior may carry two Rooks, two Knights or two Bishops (two Swords always allowed)",
    },
];

fn bad(key: &str, value: &str, expected: &'static str) -> OptionError {
    OptionError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

impl Options for WarriorOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim();
        match key {
            "players" => {
                self.players = match v {
                    "2" => Players::Two,
                    "4" => Players::Four,
                    _ => return Err(bad(key, value, "2|4")),
                }
            }
            "no-movement" => {
                self.no_movement = match v {
                    "pass" => NoMovement::Pass,
                    "lose" => NoMovement::Lose,
                    _ => return Err(bad(key, value, "pass|lose")),
                }
            }
            "fifty-moves" => {
                self.fifty_moves = match v {
                    "auto" => FiftyMoves::Auto,
                    "claim" => FiftyMoves::Claim,
                    "off" => FiftyMoves::Off,
                    _ => return Err(bad(key, value, "auto|claim|off")),
                }
            }
            "duplicate-weapons" => {
                self.duplicate_weapons = match v {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return Err(bad(key, value, "off|on")),
                }
            }
            _ => return Err(Self::unknown_key("warrior", key)),
        }
        Ok(())
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        let d = WarriorOptions::default();
        let mut pairs = Vec::new();
        if self.players != d.players {
            pairs.push(("players".to_owned(), self.players.count().to_string()));
        }
        if self.no_movement != d.no_movement {
            let v = match self.no_movement {
                NoMovement::Pass => "pass",
                NoMovement::Lose => "lose",
            };
            pairs.push(("no-movement".to_owned(), v.to_owned()));
        }
        if self.fifty_moves != d.fifty_moves {
            let v = match self.fifty_moves {
                FiftyMoves::Auto => "auto",
                FiftyMoves::Claim => "claim",
                FiftyMoves::Off => "off",
            };
            pairs.push(("fifty-moves".to_owned(), v.to_owned()));
        }
        if self.duplicate_weapons != d.duplicate_weapons {
            let v = if self.duplicate_weapons { "on" } else { "off" };
            pairs.push(("duplicate-weapons".to_owned(), v.to_owned()));
        }
        pairs
    }
}
