//! The named strengths and their budgets.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A computer player's strength, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Uniform over the legal actions: the floor every level is measured from.
    Random,
    /// One decision of lookahead with the game's evaluation (chance by its
    /// expectation).
    Greedy,
    /// A small search.
    Easy,
    /// A search answering within about a second a move.
    Medium,
    /// The largest search, a few seconds a move at most; for chess and
    /// Epoch the alpha-beta engine under a node budget.
    Hard,
    /// The strongest: for chess and Epoch the alpha-beta engine with a
    /// larger node budget and table, for the other games twice hard's search.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 6] = [
        Level::Random,
        Level::Greedy,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
    ];

    /// The levels offered to people: easy, medium, hard, expert.
    pub const PLAYABLE: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The level's name, lower case.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The search budget of a searching level (`None` for the baselines),
    /// scaled by the game's base iteration count ([`crate::Evaluate::ITERATIONS`]).
    pub fn budget(self, base: u32) -> Option<Budget> {
        // Easy is a fifth of medium, hard three times it: a clear step
        // each, and hard stays within a second a decision.
        let iterations = match self {
            Level::Random | Level::Greedy => return None,
            Level::Easy => (base / 5).max(16),
            Level::Medium => base,
            Level::Hard => base.saturating_mul(3),
            Level::Expert => base.saturating_mul(6),
        };
        Some(Budget {
            iterations,
            time: None,
            depth: None,
        })
    }

    /// How the tree search picks the action it plays at this level (see
    /// [`Choice`]): hard and expert play the most searched action; medium
    /// and easy draw among the actions searched about as good as the best,
    /// so that where more iterations no longer make a stronger player (a
    /// game much decided by chance, or one whose turn completion decides)
    /// the levels still differ by design (docs/ai.md, "Levels and
    /// budgets").
    pub const fn choice(self) -> Choice {
        match self {
            Level::Easy => Choice {
                temperature: 1.0,
                margin: 0.2,
            },
            Level::Medium => Choice {
                temperature: 1.0,
                margin: 0.08,
            },
            _ => Choice::BEST,
        }
    }

    /// The alpha-beta engine's nodes a decision at this level (chess and
    /// Epoch, hard and expert only): a node count, not a time, so the same
    /// position gives the same move on any machine (docs/ai.md).
    pub fn nodes(self) -> Option<u64> {
        match self {
            Level::Hard => Some(300_000),
            Level::Expert => Some(1_500_000),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown level '{0}' (levels: random, greedy, easy, medium, hard, expert)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

/// How a tree search picks the action it plays from the root's searched
/// actions. Only actions whose searched value (the searcher's team's
/// expected score, 0 to 1) is within `margin` of the best action's take
/// part, so an action clearly better than the rest, such as a win in one,
/// is always played; among them one is drawn with probability
/// proportional to its visits to the power `1 / temperature` (AlphaZero's
/// move temperature). A temperature of 0 plays the most searched action.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    /// 0: the most searched action; t > 0: visits^(1/t).
    pub temperature: f64,
    /// How far below the best action's value an action may be and still be
    /// drawn.
    pub margin: f64,
}

impl Choice {
    /// Always the most searched action.
    pub const BEST: Choice = Choice {
        temperature: 0.0,
        margin: 0.0,
    };
}

/// How much one decision may search: iterations (the alpha-beta engine's
/// nodes, for chess and Epoch at hard and expert) always bound it; a time
/// limit, when given, stops it earlier (and then the choice depends on the
/// machine's speed, so only iteration budgets are reproducible).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most search iterations.
    pub iterations: u32,
    /// The most wall-clock time, if any.
    pub time: Option<Duration>,
    /// The alpha-beta engine's depth, if fixed (its node budget is then
    /// `iterations` when below `u32::MAX`, else unbounded).
    pub depth: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for level in Level::ALL {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        assert_eq!("Hard".parse::<Level>(), Ok(Level::Hard));
        let err = "grandmaster".parse::<Level>().unwrap_err();
        assert!(err.to_string().contains("grandmaster"), "{err}");
    }

    #[test]
    fn each_searching_level_searches_more_than_the_one_below() {
        let budgets: Vec<u32> = Level::PLAYABLE
            .iter()
            .map(|l| l.budget(1000).unwrap().iterations)
            .collect();
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
        assert_eq!(Level::Greedy.budget(1000), None);
    }
}
