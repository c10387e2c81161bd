//! How a game ended.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Player, Seating, Team};

/// Why a game ended. Games add reasons as their books need them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A position occurred the number of times the rules allow.
    Repetition,
    /// The no-progress limit (chess: fifty moves without a capture or pawn move).
    NoProgress,
    /// Neither side can possibly checkmate.
    InsufficientMaterial,
    /// A player claimed a draw the rules allowed them to claim.
    DrawClaimed,
    /// The players agreed.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A King (or the piece the book names) was captured.
    KingCaptured,
    /// A player ran out of time.
    Timeout,
    /// Scored by points at the end (mini-games, tie-breaks).
    Points,
}

impl EndReason {
    /// Every reason, in a fixed order.
    pub const ALL: [EndReason; 11] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::Repetition,
        EndReason::NoProgress,
        EndReason::InsufficientMaterial,
        EndReason::DrawClaimed,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::KingCaptured,
        EndReason::Timeout,
        EndReason::Points,
    ];

    /// The stable id written in records, the store and JSON (`no-progress`).
    pub const fn id(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no-progress",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::DrawClaimed => "draw-claimed",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::KingCaptured => "king-captured",
            EndReason::Timeout => "timeout",
            EndReason::Points => "points",
        }
    }

    /// The reason with this id.
    pub fn from_id(id: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.id() == id)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no-progress limit",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::DrawClaimed => "draw claimed",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::KingCaptured => "king captured",
            EndReason::Timeout => "timeout",
            EndReason::Points => "points",
        })
    }
}

impl EndReason {
    /// How a win came about, as it follows "White wins": "by checkmate",
    /// "on time", "by defeating the King".
    pub fn win_phrase(self) -> &'static str {
        match self {
            EndReason::Checkmate => "by checkmate",
            EndReason::Stalemate => "by stalemate",
            EndReason::Repetition => "by repetition",
            EndReason::NoProgress => "by the no-progress limit",
            EndReason::InsufficientMaterial => "by insufficient material",
            EndReason::DrawClaimed => "by a claim",
            EndReason::Agreement => "by agreement",
            EndReason::Resignation => "by resignation",
            EndReason::KingCaptured => "by defeating the King",
            EndReason::Timeout => "on time",
            EndReason::Points => "on points",
        }
    }

    /// How a draw came about, as it follows "Draw": "by stalemate",
    /// "on time" (time ran out against a side that could not have won).
    pub fn draw_phrase(self) -> &'static str {
        match self {
            EndReason::NoProgress => "by the no-progress limit",
            EndReason::DrawClaimed => "claimed",
            EndReason::Points => "on equal points",
            other => other.win_phrase(),
        }
    }
}

/// What one player (or team) got out of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

impl GameResult {
    /// The conventional score: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// The end of a game: the winning team (none for a draw) and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The team that won, or `None` for a draw.
    pub winner: Option<Team>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `team`.
    pub const fn win(team: Team, reason: EndReason) -> Self {
        Outcome {
            winner: Some(team),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: EndReason) -> Self {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `player` resigned: the other team wins (a partner's resignation
    /// loses for the whole team). `None` when `player` is not seated.
    pub fn resignation(seating: &Seating, player: Player) -> Option<Self> {
        crate::protocol::resignation_winner(seating, player)
            .map(|team| Outcome::win(team, EndReason::Resignation))
    }

    /// The result for one team.
    pub fn result_for_team(&self, team: Team) -> GameResult {
        match self.winner {
            None => GameResult::Draw,
            Some(w) if w == team => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    /// The result for each seated player, in seat order.
    pub fn results(&self, seating: &Seating) -> Vec<(Player, GameResult)> {
        seating
            .players()
            .filter_map(|p| seating.team(p).map(|t| (p, self.result_for_team(t))))
            .collect()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(team) => write!(f, "team {} wins by {}", team.0 + 1, self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_ids_match_their_json_and_parse_back() {
        for r in EndReason::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), r.id());
            assert_eq!(EndReason::from_id(r.id()), Some(r));
        }
        assert_eq!(EndReason::from_id("boredom"), None);
    }

    /// Each phrase reads after "White wins" or "Draw" as an English
    /// sentence a player would say, with no bracketed asides.
    #[test]
    fn result_phrases_read_as_sentences() {
        assert_eq!(EndReason::Timeout.win_phrase(), "on time");
        assert_eq!(
            EndReason::KingCaptured.win_phrase(),
            "by defeating the King"
        );
        assert_eq!(EndReason::Points.win_phrase(), "on points");
        assert_eq!(EndReason::Points.draw_phrase(), "on equal points");
        assert_eq!(
            EndReason::NoProgress.draw_phrase(),
            "by the no-progress limit"
        );
        for r in EndReason::ALL {
            for phrase in [r.win_phrase(), r.draw_phrase()] {
                assert!(
                    !phrase.contains(['(', ')', '_', '-']) || phrase.contains("no-progress"),
                    "{phrase}"
                );
                assert!(
                    phrase.starts_with("by ") || phrase.starts_with("on ") || phrase == "claimed",
                    "{phrase}"
                );
            }
        }
    }

    #[test]
    fn resignation_respects_teams() {
        let doubles = Seating::with_teams(vec![Team(0), Team(1), Team(0), Team(1)]);
        assert_eq!(
            Outcome::resignation(&doubles, Player(2)),
            Some(Outcome::win(Team(1), EndReason::Resignation))
        );
        assert_eq!(Outcome::resignation(&doubles, Player(9)), None);
    }
}
