//! The two armies.

use std::fmt;

use serde::{Deserialize, Serialize};
use tabula_core::{Player, Team};

/// Gold (moves first, seat 0) or Blue (seat 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// Moves first; player 1.
    Gold,
    /// Moves second; player 2.
    Blue,
}

impl Side {
    /// Both sides, Gold first.
    pub const BOTH: [Side; 2] = [Side::Gold, Side::Blue];

    /// 0 for Gold, 1 for Blue.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Gold => Side::Blue,
            Side::Blue => Side::Gold,
        }
    }

    /// `Gold` or `Blue`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Gold => "Gold",
            Side::Blue => "Blue",
        }
    }

    /// The letter in position text: `g` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Side::Gold => 'g',
            Side::Blue => 'b',
        }
    }

    /// The seat playing this side.
    pub const fn player(self) -> Player {
        Player(self as u8)
    }

    /// The team of this side.
    pub const fn team(self) -> Team {
        Team(self as u8)
    }

    /// The side a seat plays, if the seat is at the table.
    pub fn of_index(index: usize) -> Option<Side> {
        match index {
            0 => Some(Side::Gold),
            1 => Some(Side::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
