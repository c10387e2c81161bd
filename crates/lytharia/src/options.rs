//! Options: the mode, the two deck lists and the house readings.

use serde::{Deserialize, Serialize};
use tabula_core::{OptionError, OptionSpec, Options};

/// Which game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// The full game.
    #[default]
    Full,
    /// Pawn Wars: Pawns only, points for reaching the far rank.
    PawnWars,
    /// Battle Duels: seven rounds of one troop against one, full mana and hand.
    Duel,
    /// Normal Chess played with the troop cards as pieces.
    Chess,
}

impl Mode {
    /// The option value: `full`, `pawn-wars`, `duel` or `chess`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::PawnWars => "pawn-wars",
            Mode::Duel => "duel",
            Mode::Chess => "chess",
        }
    }
}

/// What a Knight may attack (the book: "can only attack in the direction they can move").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KnightAttack {
    /// An enemy a Knight's move away (the default reading).
    #[default]
    Leap,
    /// An enemy on any of the 8 adjacent squares.
    Adjacent,
}

/// The options of a Lytharian game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LythariaOptions {
    /// The mode.
    pub mode: Mode,
    /// The preconstructed lists of seat 0 and seat 1.
    pub decks: [String; 2],
    /// The Knight attack reading.
    pub knight_attack: KnightAttack,
    /// Whether troops start face down (hidden identities).
    pub face_down: bool,
    /// Turns (both players' turns counted) before the game is drawn; 0 = none.
    pub turn_limit: u32,
}

impl Default for LythariaOptions {
    fn default() -> Self {
        LythariaOptions {
            mode: Mode::Full,
            decks: ["good".to_owned(), "evil".to_owned()],
            knight_attack: KnightAttack::Leap,
            face_down: true,
            turn_limit: 200,
        }
    }
}

const SPECS: &[OptionSpec] = &[
    OptionSpec {
        key: "mode",
        values: "full|duel|pawn-wars|chess",
        default: "full",
        help: "the full game, or a mini-game: Battle Duels, Pawn Wars, Normal Chess with troop cards",
    },
    OptionSpec {
        key: "decks",
        values: "A,B with A and B among good|evil|neutral-life|neutral-death",
        default: "good,evil",
        help: "the preconstructed army and deck of seat 1 and seat 2",
    },
    OptionSpec {
        key: "knight-attack",
        values: "leap|adjacent",
        default: "leap",
        help: "a Knight attacks a Knight's move away (leap) or any adjacent square",
    },
    OptionSpec {
        key: "face-down",
        values: "on|off",
        default: "on",
        help: "troops start face down and reveal to use abilities or in combat",
    },
    OptionSpec {
        key: "turn-limit",
        values: "integer (0 = none)",
        default: "200",
        help: "turns (each player's turn counts one) before the game is drawn",
    },
];

fn bad(key: &str, value: &str, expected: &'static str) -> OptionError {
    OptionError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

impl Options for LythariaOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let v = value.trim();
        match key {
            "mode" => {
                self.mode = match v {
                    "full" => Mode::Full,
                    "pawn-wars" => Mode::PawnWars,
                    "duel" => Mode::Duel,
                    "chess" => Mode::Chess,
                    _ => return Err(bad(key, value, "full|duel|pawn-wars|chess")),
                }
            }
            "decks" => {
                let parts: Vec<&str> = v.split(',').map(str::trim).collect();
                let known = |s: &str| crate::deck::starter_list(s).is_ok();
                match parts.as_slice() {
                    [a, b] if known(a) && known(b) => {
                        self.decks = [(*a).to_owned(), (*b).to_owned()];
                    }
                    _ => {
                        return Err(bad(
                            key,
                            value,
                            "two of good|evil|neutral-life|neutral-death, comma-separated",
                        ));
                    }
                }
            }
            "knight-attack" => {
                self.knight_attack = match v {
                    "leap" => KnightAttack::Leap,
                    "adjacent" => KnightAttack::Adjacent,
                    _ => return Err(bad(key, value, "leap|adjacent")),
                }
            }
            "face-down" => {
                self.face_down = match v {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return Err(bad(key, value, "on|off")),
                }
            }
            "turn-limit" => {
                self.turn_limit = v
                    .parse()
                    .map_err(|_| bad(key, value, "a non-negative integer"))?;
            }
            _ => return Err(Self::unknown_key("lytharia", key)),
        }
        Ok(())
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        let d = LythariaOptions::default();
        let mut out = Vec::new();
        if self.mode != d.mode {
            out.push(("mode".into(), self.mode.as_str().into()));
        }
        if self.decks != d.decks {
            out.push(("decks".into(), self.decks.join(",")));
        }
        if self.knight_attack != d.knight_attack {
            out.push(("knight-attack".into(), "adjacent".into()));
        }
        if self.face_down != d.face_down {
            out.push((
                "face-down".into(),
                if self.face_down { "on" } else { "off" }.into(),
            ));
        }
        if self.turn_limit != d.turn_limit {
            out.push(("turn-limit".into(), self.turn_limit.to_string()));
        }
        out
    }
}
