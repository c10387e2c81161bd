//! The table protocol: one game with its history and table-level actions,
//! seen by every viewer through one [`TableView`] shape.
//!
//! A [`Table`] is what the server holds per table and `tabula view` prints:
//! it checks whose decision it is, plays actions given as text or JSON,
//! keeps for each viewer the move list and the events as that viewer may
//! know them, and adds what no rule book lists as a move: resigning (every
//! game) and draws by agreement (the games whose book allows them).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabula_core::protocol::{Event, EventKind, FaultKind, Holding, Zone};
use tabula_core::{EndReason, GameId, GameResult, GameRng, Outcome, Player, Team, ToAct, Viewer};
use thiserror::Error;

use crate::{ActionEntry, AnyError, AnyGame};

/// An action as a client sends it: its text in any notation the game
/// accepts (a JSON string), or its JSON form (a JSON object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ActionInput {
    /// Text: canonical or the game's notation.
    Text(String),
    /// The structured JSON form.
    Json(serde_json::Value),
}

impl fmt::Display for ActionInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionInput::Text(t) => f.write_str(t),
            ActionInput::Json(v) => write!(f, "{v}"),
        }
    }
}

/// A refused request: machine-readably why, and why in words. A fault
/// changes nothing at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Error)]
#[error("{message}")]
pub struct Fault {
    /// Why, for programs.
    pub kind: FaultKind,
    /// Why, for people.
    pub message: String,
}

impl Fault {
    fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }

    fn from_any(error: &AnyError) -> Self {
        Fault::new(
            error.fault_kind().unwrap_or(FaultKind::Unreadable),
            error.to_string(),
        )
    }
}

/// A table-level action: not a move of any rule book, offered to a seat by
/// [`TableView::table_actions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableAction {
    /// Give up: the other team wins.
    Resign,
    /// Offer a draw (where the rule book allows a draw by agreement).
    OfferDraw,
    /// Accept the other team's standing offer: the game is drawn.
    AcceptDraw,
    /// Decline the other team's standing offer.
    DeclineDraw,
    /// Take back to this seat's previous decision (the server offers it in
    /// games against the computer; a [`Table`] never lists it itself).
    Takeback,
    /// Ask for a new table with the same options and the seats swapped (the
    /// server offers it once the game is over; a [`Table`] never lists it).
    Rematch,
}

/// One played action as one viewer may know it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveView {
    /// Its ply, from 1.
    pub ply: usize,
    /// Who played it; `None` for chance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<Player>,
    /// The action in the game's notation, hidden parts left out.
    pub notation: String,
}

/// The last action and what this viewer saw of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastView {
    /// The action.
    #[serde(flatten)]
    pub action: MoveView,
    /// What happened, as this viewer may know it.
    pub events: Vec<Event>,
}

/// Who decides next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ToActView {
    /// A seat chooses.
    Player {
        /// The seat.
        player: Player,
    },
    /// Chance (dice, a shuffle): the server draws it.
    Chance,
    /// Nobody: the game is over.
    Over,
}

/// The outcome, in data and in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeView {
    /// The winning team; `None` for a draw.
    pub winner: Option<Team>,
    /// Why it ended (`checkmate`, `resignation`...).
    pub reason: EndReason,
    /// The sentence ("Black wins by checkmate").
    pub text: String,
    /// Each seat's result, in seat order.
    pub results: Vec<GameResult>,
}

/// A seat at the table as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatView {
    /// The seat.
    pub player: Player,
    /// How the seat is called ("White", "Gold").
    pub name: String,
    /// Its team.
    pub team: Team,
    /// How its team is called in results.
    pub team_name: String,
    /// What it holds that this viewer may know.
    pub holdings: Vec<Holding>,
}

/// Everything one viewer may know of a table, in one shape for every game.
///
/// The board is a JSON tree by default; [`Table::typed_view`] gives it as
/// the game's own typed view ([`crate::BoardView`]), which encodes to the
/// same JSON, faster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView<B = serde_json::Value> {
    /// The game.
    pub game: GameId,
    /// The options that differ from the book's game.
    pub options: BTreeMap<String, String>,
    /// Whose view this is.
    pub viewer: Viewer,
    /// How many actions were played (chance outcomes included).
    pub ply: usize,
    /// Every seat, in turn order.
    pub seats: Vec<SeatView>,
    /// Who decides next.
    pub to_act: ToActView,
    /// How it ended, once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeView>,
    /// The position text, for games without hidden information (it holds
    /// the whole state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The last action and its events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<LastView>,
    /// Every action so far as this viewer may know it.
    pub moves: Vec<MoveView>,
    /// This viewer's legal actions when it is to act; empty otherwise.
    pub legal: Vec<ActionEntry>,
    /// The table actions this viewer may take now.
    pub table_actions: Vec<TableAction>,
    /// The team whose draw offer stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Team>,
    /// The zones off the board (hands, Reserves, the Bank).
    pub zones: Vec<Zone>,
    /// The board and the rest of the game's state, in the game's own shape.
    pub board: B,
}

#[derive(Debug, Clone)]
struct Turn {
    player: Option<Player>,
    canonical: String,
    /// Per viewer slot (each seat, then the public): notation and events.
    seen: Vec<(String, Vec<Event>)>,
}

/// One game at a table: the state, its history as every viewer knows it,
/// and the table-level ending (resignation, agreement, time).
#[derive(Debug, Clone)]
pub struct Table {
    game: AnyGame,
    /// Shared turns: a table is cloned for every action tried on it (the
    /// server applies to a copy, stores, then swaps), and a long history
    /// of per-viewer notation and events is then copied by pointer.
    history: Vec<Arc<Turn>>,
    ending: Option<Outcome>,
    draw_offer: Option<Team>,
}

impl Table {
    /// A table around a game (a new one, or read from a position).
    pub fn new(game: AnyGame) -> Self {
        Table {
            game,
            history: Vec::new(),
            ending: None,
            draw_offer: None,
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// How many actions were played here.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The canonical text of every action played here, in order.
    pub fn actions(&self) -> impl Iterator<Item = &str> {
        self.history.iter().map(|t| t.canonical.as_str())
    }

    /// Who decided each action played here, in order (`None` for chance).
    pub fn deciders(&self) -> impl Iterator<Item = Option<Player>> + '_ {
        self.history.iter().map(|t| t.player)
    }

    /// How the game ended: by its rules, or at the table.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ending.or_else(|| self.game.outcome())
    }

    /// Who decides next (nobody once the table ended the game).
    pub fn to_act(&self) -> ToAct {
        match self.outcome() {
            Some(outcome) => ToAct::Over { outcome },
            None => self.game.to_act(),
        }
    }

    fn viewers(&self) -> Vec<Viewer> {
        self.game
            .seating()
            .players()
            .map(Viewer::Player)
            .chain([Viewer::Public])
            .collect()
    }

    fn slot(&self, viewer: Viewer) -> usize {
        let seats = self.game.seating().len();
        match viewer {
            Viewer::Player(p) if p.index() < seats => p.index(),
            _ => seats,
        }
    }

    fn open(&self) -> Result<(), Fault> {
        match self.outcome() {
            Some(outcome) => Err(Fault::new(
                FaultKind::GameOver,
                format!("the game is over: {}", self.game.describe_outcome(&outcome)),
            )),
            None => Ok(()),
        }
    }

    fn seated(&self, seat: Player) -> Result<Team, Fault> {
        self.game.seating().team(seat).ok_or_else(|| {
            Fault::new(
                FaultKind::NotYourTurn,
                format!("{seat} is not seated at this table"),
            )
        })
    }

    /// `seat` plays an action given as text or JSON. Refused, with nothing
    /// changed, when the game is over, when the decision is not `seat`'s,
    /// or when the action is unreadable, ambiguous or illegal.
    pub fn act(&mut self, seat: Player, input: &ActionInput) -> Result<Vec<Event>, Fault> {
        self.open()?;
        self.seated(seat)?;
        match self.game.to_act() {
            ToAct::Player { player } if player == seat => {}
            ToAct::Player { player } => {
                return Err(Fault::new(
                    FaultKind::NotYourTurn,
                    format!("it is {}'s decision", self.game.player_name(player)),
                ));
            }
            _ => {
                return Err(Fault::new(
                    FaultKind::NotYourTurn,
                    "chance decides now, not a player",
                ));
            }
        }
        self.play(Some(seat), input, Viewer::Player(seat))
    }

    /// Draws the current chance outcome from `rng` and plays it. `None`
    /// when chance does not decide now.
    pub fn play_chance(&mut self, rng: &mut GameRng) -> Option<Vec<Event>> {
        if self.outcome().is_some() || self.game.to_act() != ToAct::Chance {
            return None;
        }
        let outcome = self.game.sample_chance(rng)?;
        self.play(None, &ActionInput::Text(outcome.canonical), Viewer::Public)
            .ok()
    }

    /// Plays a recorded action, whoever decides (replaying a stored game):
    /// a player's action or a chance outcome.
    pub fn replay(&mut self, input: &ActionInput) -> Result<(), Fault> {
        self.open()?;
        let player = self.game.to_act().player();
        self.play(player, input, Viewer::Public).map(|_| ())
    }

    fn play(
        &mut self,
        player: Option<Player>,
        input: &ActionInput,
        viewer: Viewer,
    ) -> Result<Vec<Event>, Fault> {
        let viewers = self.viewers();
        let played = self
            .game
            .play(input, &viewers)
            .map_err(|e| Fault::from_any(&e))?;
        // An offer lapses when the other team acts (FIDE 9.1.2: it stands
        // until accepted, rejected, or the opponent plays on).
        if let (Some(offer), Some(p)) = (self.draw_offer, player)
            && self.game.seating().team(p) != Some(offer)
        {
            self.draw_offer = None;
        }
        let mine = played
            .seen
            .get(self.slot(viewer))
            .map(|(_, e)| e.clone())
            .unwrap_or_default();
        self.history.push(Arc::new(Turn {
            player,
            canonical: played.text.canonical,
            seen: played.seen,
        }));
        Ok(mine)
    }

    /// `seat` resigns: the other team wins.
    pub fn resign(&mut self, seat: Player) -> Result<Event, Fault> {
        self.open()?;
        self.seated(seat)?;
        let seating = self.game.seating();
        let outcome = Outcome::resignation(&seating, seat)
            .ok_or_else(|| Fault::new(FaultKind::Illegal, "nobody to resign to"))?;
        self.ending = Some(outcome);
        self.draw_offer = None;
        Ok(Event::new(
            EventKind::End,
            format!("{} resigns", self.game.player_name(seat)),
        )
        .by(seat))
    }

    /// `seat`'s time ran out: the game ends as its rules say
    /// ([`AnyGame::timeout_outcome`]).
    pub fn time_out(&mut self, seat: Player) -> Result<Event, Fault> {
        self.open()?;
        self.seated(seat)?;
        let outcome = self.game.timeout_outcome(seat);
        self.ending = Some(outcome);
        self.draw_offer = None;
        Ok(Event::new(
            EventKind::End,
            format!(
                "{}'s time ran out: {}",
                self.game.player_name(seat),
                self.game.describe_outcome(&outcome)
            ),
        )
        .by(seat))
    }

    /// Ends the game with a stored table-level outcome (a resignation, an
    /// agreement or a flag read back from the store after a restart). Does
    /// nothing when the game already ended by its rules.
    pub fn restore_ending(&mut self, outcome: Outcome) {
        if self.game.outcome().is_none() {
            self.ending = Some(outcome);
        }
    }

    /// The team whose draw offer stands.
    pub fn draw_offer(&self) -> Option<Team> {
        self.draw_offer
    }

    /// Restores the draw offer `team` made when the table had `ply`
    /// actions (read back from storage): it stands again if the game is not
    /// over and no seat of another team has acted since, as it would have
    /// at a table that never stopped.
    pub fn restore_draw_offer(&mut self, team: Team, ply: usize) {
        if self.outcome().is_some() || self.draws().is_err() || ply > self.history.len() {
            return;
        }
        let seating = self.game.seating();
        let answered = self.history[ply..]
            .iter()
            .any(|t| t.player.is_some_and(|p| seating.team(p) != Some(team)));
        if !answered {
            self.draw_offer = Some(team);
        }
    }

    fn draws(&self) -> Result<(), Fault> {
        if self.game.draw_by_agreement() {
            Ok(())
        } else {
            Err(Fault::new(
                FaultKind::Illegal,
                format!("{} has no draw by agreement", self.game.id().title()),
            ))
        }
    }

    /// `seat` offers a draw; if the other team's offer stands, this accepts it.
    pub fn offer_draw(&mut self, seat: Player) -> Result<Event, Fault> {
        self.open()?;
        let team = self.seated(seat)?;
        self.draws()?;
        match self.draw_offer {
            Some(offer) if offer != team => self.accept_draw(seat),
            Some(_) => Err(Fault::new(
                FaultKind::Illegal,
                "your team's draw offer already stands",
            )),
            None => {
                self.draw_offer = Some(team);
                Ok(Event::new(
                    EventKind::Phase,
                    format!("{} offers a draw", self.game.player_name(seat)),
                )
                .by(seat))
            }
        }
    }

    /// `seat` accepts the other team's standing offer: the game is drawn.
    pub fn accept_draw(&mut self, seat: Player) -> Result<Event, Fault> {
        self.open()?;
        let team = self.seated(seat)?;
        self.draws()?;
        match self.draw_offer {
            Some(offer) if offer != team => {
                self.ending = Some(Outcome::draw(EndReason::Agreement));
                self.draw_offer = None;
                Ok(Event::new(
                    EventKind::End,
                    format!("{} accepts the draw", self.game.player_name(seat)),
                )
                .by(seat))
            }
            _ => Err(Fault::new(FaultKind::Illegal, "no draw offer to accept")),
        }
    }

    /// `seat` declines the other team's standing offer.
    pub fn decline_draw(&mut self, seat: Player) -> Result<Event, Fault> {
        self.open()?;
        let team = self.seated(seat)?;
        match self.draw_offer {
            Some(offer) if offer != team => {
                self.draw_offer = None;
                Ok(Event::new(
                    EventKind::Phase,
                    format!("{} declines the draw", self.game.player_name(seat)),
                )
                .by(seat))
            }
            _ => Err(Fault::new(FaultKind::Illegal, "no draw offer to decline")),
        }
    }

    /// The table actions `viewer` may take now.
    pub fn table_actions(&self, viewer: Viewer) -> Vec<TableAction> {
        let Viewer::Player(seat) = viewer else {
            return Vec::new();
        };
        let Some(team) = self.game.seating().team(seat) else {
            return Vec::new();
        };
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut out = vec![TableAction::Resign];
        if self.game.draw_by_agreement() {
            match self.draw_offer {
                None => out.push(TableAction::OfferDraw),
                Some(offer) if offer != team => {
                    out.extend([TableAction::AcceptDraw, TableAction::DeclineDraw]);
                }
                Some(_) => {}
            }
        }
        out
    }

    /// Everything `viewer` may know of the table.
    pub fn view(&self, viewer: Viewer) -> TableView {
        self.view_with(viewer, AnyGame::view)
    }

    /// [`Table::view`] with the board as the game's typed view: the same
    /// JSON once encoded, without the intermediate tree.
    pub fn typed_view(&self, viewer: Viewer) -> TableView<crate::BoardView> {
        self.view_with(viewer, AnyGame::board_view)
    }

    fn view_with<B>(&self, viewer: Viewer, board: impl Fn(&AnyGame, Viewer) -> B) -> TableView<B> {
        let game = &self.game;
        let seating = game.seating();
        let slot = self.slot(viewer);
        let seats = seating
            .players()
            .map(|p| {
                let team = seating.team(p).unwrap_or(Team(0));
                SeatView {
                    player: p,
                    name: game.player_name(p),
                    team,
                    team_name: game.team_name(team),
                    holdings: game.holdings(p, viewer),
                }
            })
            .collect();
        let outcome = self.outcome().map(|o| OutcomeView {
            winner: o.winner,
            reason: o.reason,
            text: game.describe_outcome(&o),
            results: o.results(&seating).into_iter().map(|(_, r)| r).collect(),
        });
        let to_act = match self.to_act() {
            ToAct::Player { player } => ToActView::Player { player },
            ToAct::Chance => ToActView::Chance,
            ToAct::Over { .. } => ToActView::Over,
        };
        let moves: Vec<MoveView> = self
            .history
            .iter()
            .enumerate()
            .map(|(i, t)| MoveView {
                ply: i + 1,
                player: t.player,
                notation: t.seen.get(slot).map(|s| s.0.clone()).unwrap_or_default(),
            })
            .collect();
        let last = self.history.last().map(|t| LastView {
            action: moves.last().cloned().unwrap_or(MoveView {
                ply: self.history.len(),
                player: t.player,
                notation: String::new(),
            }),
            events: t.seen.get(slot).map(|s| s.1.clone()).unwrap_or_default(),
        });
        let mine = matches!((to_act, viewer), (ToActView::Player { player }, Viewer::Player(v)) if player == v);
        TableView {
            game: game.id(),
            options: game.option_pairs().into_iter().collect(),
            viewer,
            ply: self.history.len(),
            seats,
            to_act,
            outcome,
            position: (!game.hidden_information()).then(|| game.to_text()),
            last,
            moves,
            legal: if mine {
                game.legal_entries()
            } else {
                Vec::new()
            },
            table_actions: self.table_actions(viewer),
            draw_offer: self.draw_offer,
            zones: game.zones(viewer),
            board: board(game, viewer),
        }
    }
}
