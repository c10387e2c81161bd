//! Seats and teams.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered from 0 in turn order.
///
/// Two-player games seat the first player (White, Gold...) as `Player(0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Player(pub u8);

impl Player {
    /// The seat's index, for tables indexed by player.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Players count from one.
        write!(f, "player {}", self.0 + 1)
    }
}

/// A side that wins or loses together. In two-player games each player is
/// its own team; Warrior Chess doubles seats two teams of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Team(pub u8);

impl Team {
    /// The team's index, for tables indexed by team.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who sits at the table: the team of each seat, in seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    teams: Vec<Team>,
}

impl Seating {
    /// Two players, each on a team of their own.
    pub fn two_players() -> Self {
        Seating {
            teams: vec![Team(0), Team(1)],
        }
    }

    /// Seats with the given teams, in seat order.
    pub fn with_teams(teams: Vec<Team>) -> Self {
        Seating { teams }
    }

    /// How many players sit at the table.
    pub fn len(&self) -> usize {
        self.teams.len()
    }

    /// Whether nobody is seated (never true for a real game).
    pub fn is_empty(&self) -> bool {
        self.teams.is_empty()
    }

    /// Every seat, in turn order.
    pub fn players(&self) -> impl Iterator<Item = Player> + '_ {
        (0..self.teams.len()).map(|i| Player(i as u8))
    }

    /// The team a seat plays for; `None` for a seat not at this table.
    pub fn team(&self, player: Player) -> Option<Team> {
        self.teams.get(player.index()).copied()
    }

    /// The number of distinct teams.
    pub fn team_count(&self) -> usize {
        let mut seen: Vec<Team> = self.teams.clone();
        seen.sort();
        seen.dedup();
        seen.len()
    }
}
