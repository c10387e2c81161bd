//! [`Covenant`] as a [`tabula_core::Game`].

use std::sync::Arc;

use serde::Serialize;
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, Zone};
use tabula_core::{Game, GameId, Player, Seating, Team, ToAct, Viewer};

use crate::action::{Action, ActionError};
use crate::data::PieceTable;
use crate::hex::Hex;
use crate::options::CovenantOptions;
use crate::protocol::{self, side_of};
use crate::scenario::Scenario;
use crate::side::Side;
use crate::state::{Covenant, Forecast, Step};
use crate::text::{PositionError, parse_text, write_text};

/// One piece as a viewer sees it, with its current modified stats.
#[derive(Debug, Clone, Serialize)]
pub struct ViewPiece {
    /// Where it stands.
    pub cell: Hex,
    /// Its side's seat: 0 Gold, 1 Blue.
    pub owner: u8,
    /// Its type's code, the catalog's piece id (`Mi`).
    pub piece: String,
    /// Blood left.
    pub blood: u8,
    /// Full Blood.
    pub max_blood: u8,
    /// Attack before target-dependent modifiers (the King's aura and a hill included).
    pub attack: i16,
    /// Defence where it stands, every modifier included.
    pub defence: i16,
    /// MP it would get if activated now.
    pub speed: u8,
    /// Acts begun this turn.
    pub acts: u8,
    /// Its own acts a turn.
    pub base_acts: u8,
    /// Bought the Maiden's extra act this turn.
    pub extra: bool,
    /// (A Prophet) has healed this turn.
    pub healed: bool,
    /// Countered this round.
    pub countered: bool,
    /// Recruited or converted this turn.
    pub idle: bool,
    /// Under an enemy Curse.
    pub cursed: bool,
}

/// The active piece and what it can reach.
#[derive(Debug, Clone, Serialize)]
pub struct ViewActive {
    /// Where it stands.
    pub cell: Hex,
    /// MP left.
    pub mp: u8,
    /// Tiles walked this act.
    pub tiles: u8,
    /// Every hex it can walk to, with the MP and tiles.
    pub reachable: Vec<Step>,
    /// Every foe it can attack now (melee, shot, holy strike or sweep).
    pub targets: Vec<Hex>,
    /// What each melee blow, shot and holy strike it may make now would do:
    /// the foe's Blood lost, whether it falls, the counter-blow taken.
    pub forecasts: Vec<Forecast>,
}

/// What a viewer sees of the state: everything (Covenant hides nothing).
/// The field, the piece table and the scenario are in the catalog; the
/// position text, who acts and the legal actions are in the table's envelope.
#[derive(Debug, Clone, Serialize)]
pub struct CovenantView {
    /// Every piece, in hex order.
    pub pieces: Vec<ViewPiece>,
    /// The round, from 1.
    pub round: u16,
    /// Complete rounds without a capture so far (the game is drawn at the
    /// catalog's `rules.draw-rounds`).
    pub quiet_rounds: u16,
    /// Whether a piece has fallen to the enemy this round (the count then
    /// restarts when the round ends).
    pub captured_this_round: bool,
    /// Grails, Gold then Blue.
    pub grails: [u16; 2],
    /// What each side would earn if its turn started now.
    pub income: [u16; 2],
    /// The active piece.
    pub active: Option<ViewActive>,
    /// A foe the active Apostle may convert.
    pub convertible: Option<Hex>,
}

impl Covenant {
    /// Reads a position text played on a scenario of your own.
    pub fn from_text_on(
        text: &str,
        options: &CovenantOptions,
        scenario: Arc<Scenario>,
    ) -> Result<Self, PositionError> {
        parse_text(text, options, Some(scenario))
    }

    /// Reads several actions separated by spaces, checking each in turn, and
    /// expands a path `move@d5,e5,e6` into one move per hex. The actions are
    /// returned to be applied in order; `self` is not changed.
    pub fn parse_actions(&self, text: &str) -> Result<Vec<Action>, ActionError> {
        let mut scratch = self.clone();
        let mut out = Vec::new();
        for word in text.split_whitespace() {
            let lower = word.to_ascii_lowercase();
            let steps: Vec<String> = match lower.strip_prefix("move@") {
                Some(path) if path.contains(',') => {
                    path.split(',').map(|h| format!("move@{h}")).collect()
                }
                _ => vec![word.to_owned()],
            };
            for step in steps {
                let action = scratch.parse_action(&step)?;
                scratch.apply_unchecked(&action);
                out.push(action);
            }
        }
        Ok(out)
    }

    fn view_piece(&self, p: &crate::state::Piece) -> ViewPiece {
        let t = PieceTable::builtin().get(p.kind);
        // Attack against a notional non-rider on open ground: base, aura, hill.
        let mut dummy = *p;
        dummy.at = Hex::new(u8::MAX, u8::MAX);
        let attack = self.melee_attack(p, &dummy, None);
        ViewPiece {
            cell: p.at,
            owner: p.side.player().0,
            piece: t.code.clone(),
            blood: p.blood,
            max_blood: t.blood,
            attack,
            defence: self.defence(p),
            speed: self.activation_mp(p),
            acts: p.acts,
            base_acts: t.base_acts(),
            extra: p.extra,
            healed: p.healed,
            countered: p.countered,
            idle: p.idle,
            cursed: self.is_cursed(p),
        }
    }
}

impl Game for Covenant {
    type Action = Action;
    type Options = CovenantOptions;
    type View = CovenantView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Covenant;
    /// The book is silent; its section 7 lists every way a battle ends
    /// (`docs/rules/covenant.md`, "Draw by agreement").
    const DRAW_BY_AGREEMENT: bool = false;

    fn new(options: &CovenantOptions) -> Self {
        Covenant::with_scenario(Scenario::builtin(options.scenario), options)
    }

    fn options(&self) -> &CovenantOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::two_players()
    }

    fn to_act(&self) -> ToAct {
        match self.outcome() {
            Some(outcome) => ToAct::Over { outcome },
            None => ToAct::Player {
                player: self.side.player(),
            },
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.outcome().is_some() {
            return Err(ActionError::GameOver);
        }
        self.check(action).map_err(|reason| ActionError::Illegal {
            action: action.to_string(),
            reason,
        })?;
        self.play(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &Action) {
        self.play(action);
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let action: Action = text.parse()?;
        if self.outcome().is_some() {
            return Err(ActionError::GameOver);
        }
        self.check(&action).map_err(|reason| ActionError::Illegal {
            action: action.to_string(),
            reason,
        })?;
        Ok(action)
    }

    fn to_text(&self) -> String {
        write_text(self)
    }

    fn from_text(text: &str, options: &CovenantOptions) -> Result<Self, PositionError> {
        parse_text(text, options, None)
    }

    fn view(&self, _viewer: Viewer) -> CovenantView {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        let active = self.active.and_then(|a| {
            let p = self.piece_at(a.at)?;
            let pass = PieceTable::builtin().get(p.kind).powers.pass_through;
            let mut targets: Vec<Hex> = legal
                .iter()
                .filter_map(|act| match act {
                    Action::Melee(h) | Action::Shoot(h) | Action::Holy(h) => Some(*h),
                    _ => None,
                })
                .collect();
            targets.sort_unstable();
            targets.dedup();
            let forecasts = legal.iter().filter_map(|act| self.forecast(act)).collect();
            Some(ViewActive {
                cell: a.at,
                mp: a.mp,
                tiles: a.tiles,
                reachable: self.reach(a.at, a.mp, pass),
                targets,
                forecasts,
            })
        });
        CovenantView {
            pieces: self.pieces.iter().map(|p| self.view_piece(p)).collect(),
            round: self.round,
            quiet_rounds: self.quiet,
            captured_this_round: self.captured,
            grails: self.grails,
            income: [self.income(Side::Gold), self.income(Side::Blue)],
            active,
            convertible: self.convertible.map(|(_, h)| h),
        }
    }

    fn key(&self) -> u64 {
        self.state_key()
    }

    fn gesture(&self, action: &Action) -> Gesture {
        self.gesture_of(action)
    }

    fn holdings(&self, player: Player, _viewer: Viewer) -> Vec<Holding> {
        side_of(player).map_or_else(Vec::new, |side| self.holdings_of(side))
    }

    fn zones(&self, _viewer: Viewer) -> Vec<Zone> {
        Side::BOTH.iter().map(|&s| self.recruit_zone(s)).collect()
    }

    fn events(&self, action: &Action, after: &Self, _viewer: Viewer) -> Vec<Event> {
        self.events_of(action, after)
    }

    fn catalog(options: &CovenantOptions) -> Catalog {
        protocol::catalog(options)
    }

    fn fault_kind(error: &ActionError) -> FaultKind {
        match error {
            ActionError::Unreadable { .. } => FaultKind::Unreadable,
            ActionError::Illegal { .. } => FaultKind::Illegal,
            ActionError::GameOver => FaultKind::GameOver,
        }
    }

    fn player_name(&self, player: Player) -> String {
        match Side::of_index(player.index()) {
            Some(side) => side.name().to_owned(),
            None => format!("Player {}", player.0 + 1),
        }
    }

    fn team_name(&self, team: Team) -> String {
        match Side::of_index(team.index()) {
            Some(side) => side.name().to_owned(),
            None => format!("Team {}", team.0 + 1),
        }
    }
}
