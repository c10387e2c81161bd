//! The [`tabula_core::Game`] implementation and the view.

use std::hash::{Hash, Hasher};

use serde::Serialize;
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, StableHasher, Zone};
use tabula_core::{EndReason, Game, GameId, Outcome, Player, Seating, Team, ToAct, Viewer};
use thiserror::Error;

use crate::action::{Action, ActionParseError, Rough, parse_rough};
use crate::options::WarriorOptions;
use crate::protocol::seat;
use crate::state::{Illegal, Warrior};
use crate::text::PositionError;
use crate::types::{
    Army, Ending, Facing, Money, NewStock, Phase, Piece, PieceKind, Reserve, Square, Weapon,
    Weapons,
};

/// Why an action cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The text is not an action.
    #[error(transparent)]
    Unreadable(#[from] ActionParseError),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action is well formed but not legal now.
    #[error("'{action}' is not legal: {reason}")]
    Illegal {
        /// The action.
        action: Action,
        /// Why.
        reason: Illegal,
    },
    /// The text fits several legal actions.
    #[error("'{text}' could be any of: {candidates}")]
    Ambiguous {
        /// The text given.
        text: String,
        /// The legal actions it fits, comma-separated.
        candidates: String,
    },
}

/// One player as everybody sees them (Warrior Chess hides nothing).
#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    /// The seat, from 0 in turn order.
    pub seat: u8,
    /// The army.
    pub army: Army,
    /// The army's colour name (not in the JSON view: the envelope's seat
    /// carries it).
    #[serde(skip)]
    pub name: &'static str,
    /// The team (0: Red and Green; 1: Blue and Yellow; not in the JSON
    /// view: the envelope's seat carries it).
    #[serde(skip)]
    pub team: u8,
    /// Money held.
    pub money: Money,
    /// The Reserve.
    pub reserve: Reserve,
    /// What the player collects at the start of each turn (before the cap).
    pub income: u8,
}

/// One army's stock in the Bank.
#[derive(Debug, Clone, Serialize)]
pub struct BankView {
    /// The army.
    pub army: Army,
    /// Warriors and new weapons.
    pub new: NewStock,
    /// Weapons for reissue.
    pub reissued: Weapons,
}

/// Captured Warriors of one army under a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StackView {
    /// The seat of the captured Warriors' army.
    pub owner: u8,
    /// How many.
    pub count: u8,
}

/// One piece on the board.
#[derive(Debug, Clone, Serialize)]
pub struct PieceView {
    /// Its square (`"e4"`).
    pub cell: Square,
    /// The seat of its army.
    pub owner: u8,
    /// `king` or `warrior` (catalog ids).
    pub piece: PieceKind,
    /// The weapons carried, one entry per weapon (`rook`, `knight`,
    /// `bishop`, `swords`), in that order.
    pub weapons: Vec<Weapon>,
    /// The Swords facing, for a piece with one Swords.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
    /// The captured Warriors under it, by army (only armies with some).
    pub stack: Vec<StackView>,
    /// Whether the Warrior was dropped this turn (it cannot be armed yet).
    pub dropped_this_turn: bool,
}

impl PieceView {
    /// How many captured Warriors of seat `owner` are under the piece.
    pub fn stacked(&self, owner: u8) -> u8 {
        self.stack
            .iter()
            .filter(|s| s.owner == owner)
            .map(|s| s.count)
            .sum()
    }
}

/// What a page draws: the board, each player's public state, the Bank and
/// the phase (Warrior Chess is perfect information, so every viewer sees
/// the same). Who acts, the position text and the outcome are the table's.
#[derive(Debug, Clone, Serialize)]
pub struct WarriorView {
    /// The players in seat order.
    pub players: Vec<PlayerView>,
    /// The pieces on the board, `a1` first.
    pub pieces: Vec<PieceView>,
    /// The Bank, per army.
    pub bank: Vec<BankView>,
    /// The phase of the turn (`move`, `bonus`, `arm`, `buy`, or once over
    /// how it ended: `king-captured`...).
    pub phase: Phase,
    /// Turns in a row without a drop or capture.
    pub no_progress: u16,
    /// The number of such turns that draws.
    pub fifty_moves_limit: u16,
}

impl Warrior {
    /// The team of `army`.
    fn team_of(army: Army) -> Team {
        Team(army.team())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let me = Self::team_of(self.to_move);
        let other = Team(1 - me.0);
        match self.phase {
            Phase::Over(Ending::KingCaptured) => Some(Outcome::win(me, EndReason::KingCaptured)),
            Phase::Over(Ending::NoMovement) => Some(Outcome::win(other, EndReason::Stalemate)),
            Phase::Over(Ending::FiftyMoves) => Some(Outcome::draw(EndReason::NoProgress)),
            Phase::Over(Ending::DrawClaimed) => Some(Outcome::draw(EndReason::DrawClaimed)),
            _ => None,
        }
    }

    fn resolve(&self, text: &str, rough: Rough) -> Result<Action, ActionError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(ActionError::GameOver);
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        let candidate = match rough {
            Rough::Exact(Action::End) if self.phase == Phase::Movement => {
                if legal.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    Action::End
                }
            }
            Rough::Exact(a) => a,
            Rough::AnyDrop(to) => {
                if self.phase == Phase::BonusDrops {
                    Action::BonusDrop { to }
                } else {
                    Action::Drop { to }
                }
            }
            Rough::Movement {
                from,
                to,
                capture,
                facing,
            } => {
                let keep = self.piece(from).and_then(|p| p.facing);
                let fits: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| match *a {
                        Action::Move {
                            from: f,
                            to: t,
                            facing: g,
                        } => {
                            f == from
                                && t == to
                                && capture != Some(true)
                                && (facing == g || (facing.is_none() && g == keep))
                        }
                        Action::Capture {
                            from: f,
                            to: t,
                            facing: g,
                        } => {
                            // `-` is read leniently: a capture may be written
                            // like a move, not the other way round.
                            f == from && t == to && (facing == g || (facing.is_none() && g == keep))
                        }
                        _ => false,
                    })
                    .collect();
                match fits[..] {
                    [a] => return Ok(a),
                    [] => match capture {
                        Some(true) | None if self.is_opponent(to, self.to_move) => {
                            Action::Capture { from, to, facing }
                        }
                        _ => Action::Move { from, to, facing },
                    },
                    _ => {
                        return Err(ActionError::Ambiguous {
                            text: text.to_owned(),
                            candidates: fits
                                .iter()
                                .map(|a| a.to_string())
                                .collect::<Vec<_>>()
                                .join(", "),
                        });
                    }
                }
            }
        };
        if legal.contains(&candidate) {
            Ok(candidate)
        } else {
            Err(ActionError::Illegal {
                action: candidate,
                reason: self.explain(&candidate),
            })
        }
    }

    /// The whole state as a serializable view.
    pub fn whole_view(&self) -> WarriorView {
        WarriorView {
            players: self
                .armies()
                .map(|a| PlayerView {
                    seat: a.index() as u8,
                    army: a,
                    name: a.name(),
                    team: a.team(),
                    money: self.money(a),
                    reserve: self.reserve(a),
                    income: self.income(a),
                })
                .collect(),
            pieces: self
                .pieces()
                .map(|(sq, p): (Square, &Piece)| PieceView {
                    cell: sq,
                    owner: seat(p.army).0,
                    piece: p.kind,
                    weapons: p.weapons.iter().collect(),
                    facing: p.facing,
                    stack: Army::ALL
                        .iter()
                        .filter(|a| p.stack.count(**a) > 0)
                        .map(|a| StackView {
                            owner: seat(*a).0,
                            count: p.stack.count(*a),
                        })
                        .collect(),
                    dropped_this_turn: self.dropped & sq.bit() != 0,
                })
                .collect(),
            bank: self
                .armies()
                .map(|a| BankView {
                    army: a,
                    new: self.bank.new[a.index()],
                    reissued: self.bank.reissue[a.index()],
                })
                .collect(),
            phase: self.phase,
            no_progress: self.no_progress,
            fifty_moves_limit: self.options.fifty_moves_limit(),
        }
    }
}

impl Game for Warrior {
    type Action = Action;
    type Options = WarriorOptions;
    type View = WarriorView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Warrior;
    /// The book names one draw only, the fifty movements each without a
    /// drop or a capture ("draws are extremely rare"); it has no agreed
    /// draw (`docs/rules/warrior.md`, "Draw by agreement").
    const DRAW_BY_AGREEMENT: bool = false;

    fn new(options: &WarriorOptions) -> Self {
        Warrior::start(options)
    }

    fn options(&self) -> &WarriorOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::with_teams(self.armies().map(Warrior::team_of).collect())
    }

    fn to_act(&self) -> ToAct {
        match self.outcome() {
            Some(outcome) => ToAct::Over { outcome },
            None => ToAct::Player {
                player: Player(self.to_move.index() as u8),
            },
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(ActionError::GameOver);
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if !legal.contains(action) {
            return Err(ActionError::Illegal {
                action: *action,
                reason: self.explain(action),
            });
        }
        self.play(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &Action) {
        self.play(action);
    }

    /// Reads the canonical form, and also: squares in capitals (`E2-E3`), a
    /// movement without `-`/`x` (`e2e3`), a Swords piece's move without a
    /// facing (it keeps the one it has), a capture written with `-`, `W@e4`
    /// for a bonus drop in the bonus phase, `end` for `pass`, `buy-R` for a
    /// new Rook, and lowercase weapon and facing letters.
    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let rough = parse_rough(text)?;
        self.resolve(text, rough)
    }

    fn to_text(&self) -> String {
        self.text()
    }

    fn from_text(text: &str, options: &WarriorOptions) -> Result<Self, PositionError> {
        Warrior::from_position_text(text, options)
    }

    fn view(&self, _viewer: Viewer) -> WarriorView {
        self.whole_view()
    }

    fn key(&self) -> u64 {
        let mut h = StableHasher::default();
        self.hash(&mut h);
        h.finish()
    }

    fn gesture(&self, action: &Action) -> Gesture {
        self.gesture_of(action)
    }

    fn holdings(&self, player: Player, _viewer: Viewer) -> Vec<Holding> {
        Army::from_index(player.index())
            .filter(|a| a.index() < self.player_count() as usize)
            .map_or_else(Vec::new, |a| self.holdings_of(a))
    }

    fn zones(&self, _viewer: Viewer) -> Vec<Zone> {
        self.zones_of()
    }

    fn events(&self, action: &Action, after: &Self, _viewer: Viewer) -> Vec<Event> {
        self.events_of(action, after)
    }

    fn catalog(options: &WarriorOptions) -> Catalog {
        Warrior::catalog_of(options)
    }

    fn fault_kind(error: &ActionError) -> FaultKind {
        match error {
            ActionError::Unreadable(_) => FaultKind::Unreadable,
            ActionError::GameOver => FaultKind::GameOver,
            ActionError::Illegal { .. } => FaultKind::Illegal,
            ActionError::Ambiguous { .. } => FaultKind::Ambiguous,
        }
    }

    fn player_name(&self, player: Player) -> String {
        Army::from_index(player.index())
            .filter(|a| a.index() < self.player_count() as usize)
            .map_or_else(
                || format!("Player {}", player.0 + 1),
                |a| a.name().to_owned(),
            )
    }

    fn describe_outcome(&self, outcome: &Outcome) -> String {
        let winner = outcome.winner.map(|t| self.team_name(t));
        // A doubles team is two players: "Red and Green win".
        let wins = if self.player_count() == 2 {
            "wins"
        } else {
            "win"
        };
        let mover = self.to_move.name();
        match (winner, outcome.reason) {
            (Some(w), EndReason::KingCaptured) => format!("{w} {wins}: {mover} captured a King"),
            (Some(w), EndReason::Stalemate) => {
                format!("{w} {wins}: {mover} had no legal movement")
            }
            (None, EndReason::NoProgress) => {
                "Draw: fifty movements each without a drop or a capture".to_owned()
            }
            (None, EndReason::DrawClaimed) => {
                format!("Draw claimed by {mover}: fifty movements each without a drop or a capture")
            }
            (Some(w), reason) => format!("{w} {wins} {}", reason.win_phrase()),
            (None, reason) => format!("Draw {}", reason.draw_phrase()),
        }
    }

    fn team_name(&self, team: Team) -> String {
        match (self.player_count(), team.0) {
            (2, 0) => "Red".to_owned(),
            (2, 1) => "Blue".to_owned(),
            (_, 0) => "Red and Green".to_owned(),
            (_, 1) => "Blue and Yellow".to_owned(),
            _ => format!("Team {}", team.0 + 1),
        }
    }
}
