//! The options of Covenant Chess: the scenario, and the readings of the book
//! where players could reasonably disagree.

use serde::{Deserialize, Serialize};
use tabula_core::{OptionError, OptionSpec, Options};

use crate::scenario::ScenarioId;

/// How much the Angel's wrath deals ("wrath 7 + 4", "a holy strike of attack 7
/// ignoring defense").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WrathDamage {
    /// Attack 7 in the damage formula with Defence taken as 0: 7 - 0 + 4 = 11.
    #[default]
    Eleven,
    /// A flat 7, like the other holy strikes.
    Seven,
}

/// The options; `Default` is the project's reading of the book on the full
/// scenario.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct CovenantOptions {
    /// The field and armies.
    pub scenario: ScenarioId,
    /// The Angel's wrath damage.
    pub wrath: WrathDamage,
    /// Whether the Levite's Curse spares the Bastion's Stone wall (default:
    /// it does not; the wall only resists holy strikes).
    pub curse_spares_wall: bool,
    /// Whether Sacrifice's Blood loss leaves at least 1 Blood (default: it
    /// can kill).
    pub sacrifice_spares: bool,
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        key: "scenario",
        values: "arena|crossroads|pilgrimage",
        default: "pilgrimage",
        help: "the field and armies: pilgrimage (full), crossroads (quick), arena (lessons)",
    },
    OptionSpec {
        key: "wrath",
        values: "11|7",
        default: "11",
        help: "the Angel's wrath damage: 11 (attack 7 + 4, Defence ignored) or a flat 7",
    },
    OptionSpec {
        key: "curse-wall",
        values: "lowers|spares",
        default: "lowers",
        help: "whether the Levite's Curse lowers the Bastion's Defence to 0 or his Stone wall spares him",
    },
    OptionSpec {
        key: "sacrifice",
        values: "can-kill|spares",
        default: "can-kill",
        help: "whether the Templar's and Paladin's Sacrifice (lose 4 Blood) can kill or leaves 1 Blood",
    },
];

fn bad(key: &str, value: &str, expected: &'static str) -> OptionError {
    OptionError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

impl Options for CovenantOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim().to_ascii_lowercase();
        match key {
            "scenario" => {
                self.scenario = v
                    .parse()
                    .map_err(|_| bad(key, value, "arena|crossroads|pilgrimage"))?;
            }
            "wrath" => {
                self.wrath = match v.as_str() {
                    "11" => WrathDamage::Eleven,
                    "7" => WrathDamage::Seven,
                    _ => return Err(bad(key, value, "11|7")),
                }
            }
            "curse-wall" => {
                self.curse_spares_wall = match v.as_str() {
                    "lowers" => false,
                    "spares" => true,
                    _ => return Err(bad(key, value, "lowers|spares")),
                }
            }
            "sacrifice" => {
                self.sacrifice_spares = match v.as_str() {
                    "can-kill" => false,
                    "spares" => true,
                    _ => return Err(bad(key, value, "can-kill|spares")),
                }
            }
            _ => return Err(Self::unknown_key("covenant", key)),
        }
        Ok(())
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        let d = CovenantOptions::default();
        if self.scenario != d.scenario {
            pairs.push(("scenario".to_owned(), self.scenario.to_string()));
        }
        if self.wrath != d.wrath {
            pairs.push(("wrath".to_owned(), "7".to_owned()));
        }
        if self.curse_spares_wall {
            pairs.push(("curse-wall".to_owned(), "spares".to_owned()));
        }
        if self.sacrifice_spares {
            pairs.push(("sacrifice".to_owned(), "spares".to_owned()));
        }
        pairs
    }
}

impl CovenantOptions {
    /// The default options on another built-in scenario.
    pub fn with_scenario(scenario: ScenarioId) -> Self {
        CovenantOptions {
            scenario,
            ..CovenantOptions::default()
        }
    }
}
