//! Every tabula game behind one enum, [`AnyGame`], for the code that picks a
//! game at run time: the command line, the store and the server.
//!
//! Actions cross this boundary as text in each game's own notation or as
//! their JSON form, positions as text, and views as JSON; computer players
//! stay generic over [`tabula_core::Game`] and never come through here.
//!
//! [`Table`] is the table protocol every front end speaks: one game with its
//! history, table-level actions (resign, draw offers), and a [`TableView`]
//! of one shape for every game and viewer (`docs/protocol.md`).
//!
//! ```
//! use tabula_core::GameId;
//! use tabula_games::AnyGame;
//!
//! let mut game = AnyGame::new(GameId::Chess, &[]).unwrap();
//! assert_eq!(game.legal_actions().len(), 20);
//! game.apply("e4").unwrap();
//! assert!(game.to_text().starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
//! ```

use std::error::Error as StdError;

use serde::Serialize;
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, Zone};
use tabula_core::{
    ChanceModel, Game, GameId, GameRng, OptionError, OptionSpec, Options, Outcome, Player,
    Probability, Seating, Team, ToAct, UnknownGame, Viewer,
};
use thiserror::Error;

pub mod builtin;
mod table;

pub use table::{
    ActionInput, Fault, LastView, MoveView, OutcomeView, SeatView, Table, TableAction, TableView,
    ToActView,
};

pub use tabula_chess::Chess;
pub use tabula_covenant::Covenant;
pub use tabula_epoch::Epoch;
pub use tabula_lytharia::Lytharia;
pub use tabula_skirmish::Skirmish;
pub use tabula_warrior::Warrior;

/// One game's own view ([`tabula_core::Game::View`]), whichever the game:
/// it encodes as that view alone. One lives only while a view is encoded,
/// so its variants stay unboxed.
#[allow(missing_docs, clippy::large_enum_variant)]
pub enum BoardView {
    Chess(<Chess as Game>::View),
    Epoch(<Epoch as Game>::View),
    Warrior(<Warrior as Game>::View),
    Covenant(<Covenant as Game>::View),
    Skirmish(<Skirmish as Game>::View),
    Lytharia(<Lytharia as Game>::View),
}

impl Serialize for BoardView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BoardView::Chess(v) => v.serialize(serializer),
            BoardView::Epoch(v) => v.serialize(serializer),
            BoardView::Warrior(v) => v.serialize(serializer),
            BoardView::Covenant(v) => v.serialize(serializer),
            BoardView::Skirmish(v) => v.serialize(serializer),
            BoardView::Lytharia(v) => v.serialize(serializer),
        }
    }
}

/// A game of any kind, chosen at run time.
///
/// Variants differ in size (an Epoch state is several times a chess state);
/// front ends hold one `AnyGame` per table, so boxing would only add an
/// indirection to every call.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Standard chess.
    Chess(Chess),
    /// Chess 13: Epoch.
    Epoch(Epoch),
    /// Warrior Chess.
    Warrior(Warrior),
    /// Covenant Chess.
    Covenant(Covenant),
    /// Skirmish chess.
    Skirmish(Skirmish),
    /// Lytharian Chess.
    Lytharia(Lytharia),
}

/// Runs `$body` with `$g` bound to the concrete game inside `$self`.
macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Chess($g) => $body,
            AnyGame::Epoch($g) => $body,
            AnyGame::Warrior($g) => $body,
            AnyGame::Covenant($g) => $body,
            AnyGame::Skirmish($g) => $body,
            AnyGame::Lytharia($g) => $body,
        }
    };
}

/// Runs `$body` with `$G` the concrete game type for `$id`.
macro_rules! by_id {
    ($id:expr, $G:ident => $body:expr) => {
        match $id {
            GameId::Chess => {
                type $G = Chess;
                $body
            }
            GameId::Epoch => {
                type $G = Epoch;
                $body
            }
            GameId::Warrior => {
                type $G = Warrior;
                $body
            }
            GameId::Covenant => {
                type $G = Covenant;
                $body
            }
            GameId::Skirmish => {
                type $G = Skirmish;
                $body
            }
            GameId::Lytharia => {
                type $G = Lytharia;
                $body
            }
        }
    };
}

/// What went wrong, for a front end to show in one line.
#[derive(Debug, Error)]
pub enum AnyError {
    /// No game has this id.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// An option was unknown or had a bad value.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The position text was refused.
    #[error("bad position: {0}")]
    Position(#[source] Box<dyn StdError + Send + Sync>),
    /// The action could not be parsed or is not legal here.
    #[error("bad move '{text}': {reason}")]
    Action {
        /// The text (or JSON) given.
        text: String,
        /// Why, machine-readably: unreadable, illegal or ambiguous.
        kind: FaultKind,
        /// Why, in words.
        reason: String,
    },
}

impl AnyError {
    /// The fault kind of a refused action; `None` for other errors.
    pub fn fault_kind(&self) -> Option<FaultKind> {
        match self {
            AnyError::Action { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// Why, in words, without the echo of what was given.
    pub fn reason(&self) -> String {
        match self {
            AnyError::Action { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }
}

/// One legal action as the table protocol sends it: both texts, the JSON
/// form the page sends back, and how a person picks it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionEntry {
    /// The context-free canonical text.
    pub canonical: String,
    /// The game's notation.
    pub notation: String,
    /// The structured JSON form.
    pub action: serde_json::Value,
    /// How a person picks it on the board.
    pub gesture: Gesture,
}

/// What playing one action did, for every viewer of the table.
#[derive(Debug, Clone)]
pub struct Played {
    /// The action's texts.
    pub text: ActionText,
    /// Its JSON form.
    pub json: serde_json::Value,
    /// For each viewer asked (in the order given): the action as that viewer
    /// may know it, and the events it saw.
    pub seen: Vec<(String, Vec<Event>)>,
}

/// An action in both its forms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionText {
    /// The game's notation for move lists and records (chess: SAN).
    pub notation: String,
    /// The context-free canonical form (chess: UCI).
    pub canonical: String,
}

impl ActionText {
    fn of<G: Game>(game: &G, action: &G::Action) -> Self {
        ActionText {
            notation: game.action_notation(action),
            canonical: action.to_string(),
        }
    }
}

/// The options a game takes.
pub fn option_specs(id: GameId) -> &'static [OptionSpec] {
    match id {
        GameId::Chess => <<Chess as Game>::Options as Options>::specs(),
        GameId::Epoch => <<Epoch as Game>::Options as Options>::specs(),
        GameId::Warrior => <<Warrior as Game>::Options as Options>::specs(),
        GameId::Covenant => <<Covenant as Game>::Options as Options>::specs(),
        GameId::Skirmish => <<Skirmish as Game>::Options as Options>::specs(),
        GameId::Lytharia => <<Lytharia as Game>::Options as Options>::specs(),
    }
}

fn options_from<G: Game>(pairs: &[(String, String)]) -> Result<G::Options, AnyError> {
    let mut options = G::Options::default();
    for (key, value) in pairs {
        options.set(key, value)?;
    }
    Ok(options)
}

fn parse<G: Game>(game: &G, text: &str) -> Result<G::Action, AnyError> {
    game.parse_action(text).map_err(|e| refused::<G>(text, &e))
}

fn refused<G: Game>(text: &str, error: &G::ActionError) -> AnyError {
    AnyError::Action {
        text: text.to_owned(),
        kind: G::fault_kind(error),
        reason: error.to_string(),
    }
}

/// Reads an action given as text or JSON; checks nothing about legality.
fn read<G: Game>(game: &G, input: &ActionInput) -> Result<G::Action, AnyError> {
    match input {
        ActionInput::Text(text) => parse(game, text),
        ActionInput::Json(value) => {
            serde_json::from_value::<G::Action>(value.clone()).map_err(|e| AnyError::Action {
                text: value.to_string(),
                kind: FaultKind::Unreadable,
                reason: format!("not a {} action: {e}", G::ID),
            })
        }
    }
}

fn refused_in<G: Game>(_: &G, text: &str, error: &G::ActionError) -> AnyError {
    refused::<G>(text, error)
}

fn json_in<G: Game>(_: &G, action: &G::Action) -> serde_json::Value {
    // Serializing a plain action type into a JSON value cannot fail (no
    // maps with non-string keys, no failing Serialize impls).
    serde_json::to_value(action).unwrap_or(serde_json::Value::Null)
}

impl AnyGame {
    /// A new game with options given as `(key, value)` text pairs.
    pub fn new(id: GameId, options: &[(String, String)]) -> Result<Self, AnyError> {
        by_id!(id, G => Ok(Self::from(G::new(&options_from::<G>(options)?))))
    }

    /// A game from its position text.
    pub fn from_text(
        id: GameId,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Self, AnyError> {
        by_id!(id, G => {
            let options = options_from::<G>(options)?;
            G::from_text(text, &options)
                .map(Self::from)
                .map_err(|e| AnyError::Position(Box::new(e)))
        })
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        dispatch!(self, g => type_id_of(g))
    }

    /// Who decides next.
    pub fn to_act(&self) -> ToAct {
        dispatch!(self, g => g.to_act())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.to_act().outcome()
    }

    /// Who sits at the table.
    pub fn seating(&self) -> Seating {
        dispatch!(self, g => g.seating())
    }

    /// How a player is called ("White").
    pub fn player_name(&self, player: Player) -> String {
        dispatch!(self, g => g.player_name(player))
    }

    /// A sentence for the outcome ("Black wins by checkmate").
    pub fn describe_outcome(&self, outcome: &Outcome) -> String {
        dispatch!(self, g => g.describe_outcome(outcome))
    }

    /// Every legal action of the player to act, in the game's order.
    pub fn legal_actions(&self) -> Vec<ActionText> {
        dispatch!(self, g => {
            let mut actions = Vec::new();
            g.legal_actions(&mut actions);
            actions.iter().map(|a| ActionText::of(g, a)).collect()
        })
    }

    /// The outcomes of the current chance node with their probabilities
    /// (`None` when chance does not decide now or its outcomes are sampled).
    pub fn chance_outcomes(&self) -> Option<Vec<(ActionText, Probability)>> {
        dispatch!(self, g => match g.chance() {
            ChanceModel::Exact(list) => Some(
                list.iter().map(|(a, p)| (ActionText::of(g, a), *p)).collect(),
            ),
            ChanceModel::Sampled | ChanceModel::NotChance => None,
        })
    }

    /// Draws the current chance node's outcome from `rng` (not applied).
    pub fn sample_chance(&self, rng: &mut GameRng) -> Option<ActionText> {
        dispatch!(self, g => g.sample_chance(rng).map(|a| ActionText::of(g, &a)))
    }

    /// A full state consistent with what `observer` sees, the hidden parts
    /// drawn from `rng` (a copy for perfect-information games).
    pub fn determinize(&self, observer: Player, rng: &mut GameRng) -> AnyGame {
        dispatch!(self, g => Self::from(g.determinize(observer, rng)))
    }

    /// Parses an action in any notation the game accepts and checks that it is
    /// legal now, without playing it.
    pub fn parse_action(&self, text: &str) -> Result<ActionText, AnyError> {
        dispatch!(self, g => parse(g, text).map(|a| ActionText::of(g, &a)))
    }

    /// An action given as text, written as `viewer` may know it (a card
    /// placed face down stays unnamed for the opponent).
    pub fn notation_for(&self, text: &str, viewer: Viewer) -> Result<String, AnyError> {
        dispatch!(self, g => parse(g, text).map(|a| g.action_notation_for(&a, viewer)))
    }

    /// Plays an action given as text; on error nothing changes.
    pub fn apply(&mut self, text: &str) -> Result<ActionText, AnyError> {
        dispatch!(self, g => {
            let action = parse(g, text)?;
            let shown = ActionText::of(g, &action);
            g.apply(&action).map_err(|e| refused_in(g, text, &e))?;
            Ok(shown)
        })
    }

    /// Every legal action of the player to act with its JSON form and gesture.
    pub fn legal_entries(&self) -> Vec<ActionEntry> {
        dispatch!(self, g => {
            let mut actions = Vec::new();
            g.legal_actions(&mut actions);
            actions
                .iter()
                .map(|a| ActionEntry {
                    canonical: a.to_string(),
                    notation: g.action_notation(a),
                    action: json_in(g, a),
                    gesture: g.gesture(a),
                })
                .collect()
        })
    }

    /// Reads an action given as text (any notation) or JSON and checks it is
    /// legal now (a player's action or a listed chance outcome), without
    /// playing it.
    pub fn read_action(&self, input: &ActionInput) -> Result<ActionText, AnyError> {
        dispatch!(self, g => {
            let action = read(g, input)?;
            let mut probe = g.clone();
            probe
                .apply(&action)
                .map_err(|e| refused_in(g, &input.to_string(), &e))?;
            Ok(ActionText::of(g, &action))
        })
    }

    /// Plays an action given as text or JSON and reports, for each of
    /// `viewers`, how it may know the action and the events it saw. On error
    /// nothing changes.
    pub fn play(&mut self, input: &ActionInput, viewers: &[Viewer]) -> Result<Played, AnyError> {
        dispatch!(self, g => {
            let action = read(g, input)?;
            let before = g.clone();
            g.apply(&action)
                .map_err(|e| refused_in(&before, &input.to_string(), &e))?;
            let seen = viewers
                .iter()
                .map(|v| (before.action_notation_for(&action, *v), before.events(&action, g, *v)))
                .collect();
            Ok(Played {
                text: ActionText::of(&before, &action),
                json: json_in(&before, &action),
                seen,
            })
        })
    }

    /// The state key: equal states, equal keys.
    pub fn key(&self) -> u64 {
        dispatch!(self, g => g.key())
    }

    /// The zones off the board as `viewer` may see them.
    pub fn zones(&self, viewer: Viewer) -> Vec<Zone> {
        dispatch!(self, g => g.zones(viewer))
    }

    /// What `player` holds that `viewer` may know.
    pub fn holdings(&self, player: Player, viewer: Viewer) -> Vec<Holding> {
        dispatch!(self, g => g.holdings(player, viewer))
    }

    /// How a team is called ("Black", "Blue and Yellow").
    pub fn team_name(&self, team: Team) -> String {
        dispatch!(self, g => g.team_name(team))
    }

    /// What never changes in this game.
    pub fn catalog(&self) -> Catalog {
        dispatch!(self, g => catalog_of(g))
    }

    /// The catalog of a game under options given as text pairs.
    pub fn catalog_for(id: GameId, options: &[(String, String)]) -> Result<Catalog, AnyError> {
        by_id!(id, G => Ok(G::catalog(&options_from::<G>(options)?)))
    }

    /// The result when `player`'s time runs out ([`Game::timeout_outcome`]).
    pub fn timeout_outcome(&self, player: Player) -> Outcome {
        dispatch!(self, g => g.timeout_outcome(player))
    }

    /// Whether the rule book allows a draw by agreement.
    pub fn draw_by_agreement(&self) -> bool {
        dispatch!(self, g => draws_by_agreement(g))
    }

    /// Whether some of the state is hidden from some player.
    pub fn hidden_information(&self) -> bool {
        dispatch!(self, g => hides(g))
    }

    /// The one-line position text.
    pub fn to_text(&self) -> String {
        dispatch!(self, g => g.to_text())
    }

    /// What `viewer` may see, as JSON.
    pub fn view(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.board_view(viewer))
            .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }))
    }

    /// The same view, typed: it encodes to the same JSON as
    /// [`AnyGame::view`] without building a tree first (the server encodes
    /// one on every change of every table).
    pub fn board_view(&self, viewer: Viewer) -> BoardView {
        match self {
            AnyGame::Chess(g) => BoardView::Chess(g.view(viewer)),
            AnyGame::Epoch(g) => BoardView::Epoch(g.view(viewer)),
            AnyGame::Warrior(g) => BoardView::Warrior(g.view(viewer)),
            AnyGame::Covenant(g) => BoardView::Covenant(g.view(viewer)),
            AnyGame::Skirmish(g) => BoardView::Skirmish(g.view(viewer)),
            AnyGame::Lytharia(g) => BoardView::Lytharia(g.view(viewer)),
        }
    }

    /// The options in force, as `(key, value)` pairs that differ from the default.
    pub fn option_pairs(&self) -> Vec<(String, String)> {
        dispatch!(self, g => g.options().to_pairs())
    }

    /// The perft count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, g => g.perft(depth))
    }

    /// Perft split by first action.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        dispatch!(self, g => tabula_core::perft::divide(g, depth))
    }
}

fn type_id_of<G: Game>(_: &G) -> GameId {
    G::ID
}

fn catalog_of<G: Game>(game: &G) -> Catalog {
    G::catalog(game.options())
}

fn draws_by_agreement<G: Game>(_: &G) -> bool {
    G::DRAW_BY_AGREEMENT
}

fn hides<G: Game>(_: &G) -> bool {
    G::HIDDEN_INFORMATION
}

impl From<Chess> for AnyGame {
    fn from(game: Chess) -> Self {
        AnyGame::Chess(game)
    }
}

impl From<Epoch> for AnyGame {
    fn from(game: Epoch) -> Self {
        AnyGame::Epoch(game)
    }
}

impl From<Warrior> for AnyGame {
    fn from(game: Warrior) -> Self {
        AnyGame::Warrior(game)
    }
}

impl From<Skirmish> for AnyGame {
    fn from(game: Skirmish) -> Self {
        AnyGame::Skirmish(game)
    }
}

impl From<Lytharia> for AnyGame {
    fn from(game: Lytharia) -> Self {
        AnyGame::Lytharia(game)
    }
}

impl From<Covenant> for AnyGame {
    fn from(game: Covenant) -> Self {
        AnyGame::Covenant(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_options_are_clear_errors() {
        let err =
            AnyGame::new(GameId::Chess, &[("no-such".to_owned(), "1".to_owned())]).unwrap_err();
        assert!(
            err.to_string().contains("chess has no option 'no-such'"),
            "{err}"
        );
        assert!("go".parse::<GameId>().is_err());
    }

    #[test]
    fn epoch_is_reachable_by_id_and_text() {
        let mut game = AnyGame::new(GameId::Epoch, &[]).unwrap();
        assert_eq!(game.id(), GameId::Epoch);
        assert_eq!(game.legal_actions().len(), 81);
        let start = game.to_text();
        let first = game.legal_actions()[0].canonical.clone();
        game.apply(&first).unwrap();
        assert_ne!(game.to_text(), start);
        let again = AnyGame::from_text(GameId::Epoch, &game.to_text(), &[]).unwrap();
        assert_eq!(again.to_text(), game.to_text());
        assert!(AnyGame::new(GameId::Epoch, &[("swap".into(), "off".into())]).is_ok());
    }

    #[test]
    fn a_bad_move_leaves_the_game_unchanged() {
        let mut game = AnyGame::new(GameId::Chess, &[]).unwrap();
        let before = game.to_text();
        let err = game.apply("e5").unwrap_err();
        assert!(err.to_string().starts_with("bad move 'e5'"), "{err}");
        assert_eq!(game.to_text(), before);
        let err = AnyGame::from_text(GameId::Chess, "not a fen", &[]).unwrap_err();
        assert!(err.to_string().starts_with("bad position"), "{err}");
    }
}
