//! The games tabula plays, by id.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The id of each game, as typed on the command line and written in records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameId {
    /// Standard chess.
    Chess,
    /// Chess 13: Epoch.
    Epoch,
    /// Skirmish chess (captures by dice).
    Skirmish,
    /// Warrior Chess.
    Warrior,
    /// Covenant Chess.
    Covenant,
    /// Lytharian Chess.
    Lytharia,
}

impl GameId {
    /// Every game id, in the order `tabula games` lists them.
    pub const ALL: [GameId; 6] = [
        GameId::Chess,
        GameId::Epoch,
        GameId::Skirmish,
        GameId::Warrior,
        GameId::Covenant,
        GameId::Lytharia,
    ];

    /// The id as text: `chess`, `epoch`...
    pub const fn as_str(self) -> &'static str {
        match self {
            GameId::Chess => "chess",
            GameId::Epoch => "epoch",
            GameId::Skirmish => "skirmish",
            GameId::Warrior => "warrior",
            GameId::Covenant => "covenant",
            GameId::Lytharia => "lytharia",
        }
    }

    /// The game's full name.
    pub const fn title(self) -> &'static str {
        match self {
            GameId::Chess => "Chess",
            GameId::Epoch => "Chess 13: Epoch",
            GameId::Skirmish => "Skirmish Chess",
            GameId::Warrior => "Warrior Chess",
            GameId::Covenant => "Covenant Chess",
            GameId::Lytharia => "Lytharian Chess",
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game id nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game '{0}' (known: chess, epoch, skirmish, warrior, covenant, lytharia)")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|id| id.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownGame(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ids_are_named() {
        for id in GameId::ALL {
            assert_eq!(id.as_str().parse::<GameId>(), Ok(id));
        }
        let err = "go".parse::<GameId>().unwrap_err();
        assert!(err.to_string().contains("unknown game 'go'"));
    }
}
