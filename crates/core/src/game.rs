//! The `Game` trait.

use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use serde::de::DeserializeOwned;

use crate::protocol::{Catalog, Event, FaultKind, Gesture, Holding, Zone};
use crate::{EndReason, GameId, GameRng, Options, Outcome, Player, Probability, Seating, Team};

/// Who makes the next decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum ToAct {
    /// A seated player chooses one of [`Game::legal_actions`].
    Player {
        /// The player deciding.
        player: Player,
    },
    /// Chance decides: see [`Game::chance`] and [`Game::sample_chance`].
    Chance,
    /// Nobody: the game is over.
    Over {
        /// How it ended.
        outcome: Outcome,
    },
}

impl ToAct {
    /// The player to decide, if a player decides.
    pub fn player(self) -> Option<Player> {
        match self {
            ToAct::Player { player } => Some(player),
            _ => None,
        }
    }

    /// The outcome, if the game is over.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            ToAct::Over { outcome } => Some(outcome),
            _ => None,
        }
    }
}

/// How a chance node's outcomes are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChanceModel<A> {
    /// Not a chance node.
    NotChance,
    /// Every outcome with its exact probability; the probabilities sum to one.
    /// Dice are always listed this way.
    Exact(Vec<(A, Probability)>),
    /// Too many outcomes to list (a shuffled deck): draw one with
    /// [`Game::sample_chance`], every outcome equally likely unless the game
    /// documents otherwise.
    Sampled,
}

/// Whose eyes a view is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Viewer {
    /// What one seated player may see.
    Player(Player),
    /// What a spectator may see: nothing hidden from anyone.
    Public,
}

/// One game's rules: a state, the decisions it allows, and their effects.
///
/// The state is a value: cloning it is how search, undo and the server keep
/// copies, so implementations keep it cheap to clone.
///
/// A turn made of several decisions (Warrior Chess's movement, bonus drops,
/// arming and buying; Covenant's activations; a Lytharian response stack) is
/// several actions; an optional phase ends with an explicit "end of phase"
/// action listed among the legal ones. Chance outcomes are actions too and go
/// into the record, so replaying the actions replays the game.
///
/// Contract, checked by each game's tests:
/// - `legal_actions` is empty exactly when `to_act` is not `Player`;
/// - `apply` accepts exactly the legal actions (and, at a chance node, the
///   listed chance outcomes), and on error leaves the state unchanged;
/// - `from_text(to_text(s)) == s` in everything the rules can observe, and
///   `to_text` of that is the same string;
/// - `parse_action(action_notation(a)) == a` and `a.to_string().parse() == a`
///   for every legal `a`.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// One atomic decision. `Display`/`FromStr` give the context-free canonical
    /// form (chess: UCI); [`Game::action_notation`] gives the book's notation.
    ///
    /// The JSON form (`Serialize`/`Deserialize`) is stable and documented in
    /// `docs/protocol.md`; it is what the server and the page exchange.
    type Action: Clone
        + Debug
        + Display
        + FromStr
        + PartialEq
        + Eq
        + Hash
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// House rules, variants and scenario choice; `Default` is the book's game.
    type Options: Options;
    /// What one viewer may see, serializable to JSON for the server and UI.
    type View: Serialize;
    /// Why an action cannot be parsed or played here.
    type ActionError: Error + Send + Sync + 'static;
    /// Why a position text is refused.
    type PositionError: Error + Send + Sync + 'static;

    /// The game's id.
    const ID: GameId;
    /// Whether the rule book allows a draw by agreement (an offer the other
    /// side accepts); `docs/rules/<game>.md` says where.
    const DRAW_BY_AGREEMENT: bool = false;
    /// Whether some of the state is hidden from some player. When false, every
    /// view shows the whole state and [`Game::determinize`] is a clone.
    const HIDDEN_INFORMATION: bool = false;

    /// The starting state under `options`. A setup that needs chance (a
    /// shuffle, a roll-off) starts at a chance node rather than rolling here.
    fn new(options: &Self::Options) -> Self;

    /// The options this game is played with.
    fn options(&self) -> &Self::Options;

    /// Who sits at the table and in which team.
    fn seating(&self) -> Seating;

    /// Who decides next.
    fn to_act(&self) -> ToAct;

    /// Fills `out` (cleared first) with every legal action of the player to
    /// act; leaves it empty at chance nodes and when the game is over.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// The outcomes of the current chance node.
    fn chance(&self) -> ChanceModel<Self::Action> {
        ChanceModel::NotChance
    }

    /// Draws a chance outcome from `rng`: by the exact probabilities where
    /// they are listed; games with [`ChanceModel::Sampled`] nodes override this.
    /// `None` when this is not a chance node.
    fn sample_chance(&self, rng: &mut GameRng) -> Option<Self::Action> {
        match self.chance() {
            ChanceModel::Exact(outcomes) => {
                let den = outcomes
                    .iter()
                    .fold(1u64, |l, (_, p)| lcm(l, p.denominator()));
                let mut pick = rng.below(den);
                for (action, p) in &outcomes {
                    let weight = p.numerator() * (den / p.denominator());
                    if pick < weight {
                        return Some(action.clone());
                    }
                    pick -= weight;
                }
                outcomes.last().map(|(a, _)| a.clone())
            }
            ChanceModel::NotChance | ChanceModel::Sampled => None,
        }
    }

    /// Validates and plays `action`; on error the state is unchanged.
    fn apply(&mut self, action: &Self::Action) -> Result<(), Self::ActionError>;

    /// Plays an action known to be legal (taken from `legal_actions` or the
    /// chance outcomes of this very state), skipping validation. Search uses it.
    fn apply_unchecked(&mut self, action: &Self::Action);

    /// Parses an action in any notation the game documents, in the context of
    /// this state (chess SAN needs the position), and checks it is legal now.
    fn parse_action(&self, text: &str) -> Result<Self::Action, Self::ActionError>;

    /// The action in the game's own notation for move lists and records
    /// (chess: SAN). Defaults to the canonical form.
    fn action_notation(&self, action: &Self::Action) -> String {
        action.to_string()
    }

    /// The action as `viewer` may know it: the same as
    /// [`Game::action_notation`] unless the action carries hidden
    /// information (a card placed face down, a shuffle's order), which
    /// hidden-information games leave out for viewers who may not see it.
    fn action_notation_for(&self, action: &Self::Action, viewer: Viewer) -> String {
        let _ = viewer;
        self.action_notation(action)
    }

    /// The one-line position text (FEN-like) holding the whole state.
    fn to_text(&self) -> String;

    /// Parses a position text; errors name the field that is wrong.
    fn from_text(text: &str, options: &Self::Options) -> Result<Self, Self::PositionError>;

    /// What `viewer` may see of the state.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// A full state consistent with what `observer` sees, drawing the hidden
    /// parts from `rng` (computer players search such samples). Perfect
    /// information games return a copy.
    fn determinize(&self, observer: Player, rng: &mut GameRng) -> Self {
        let _ = (observer, rng);
        self.clone()
    }

    /// The number of action sequences of length `depth` from here (chance
    /// outcomes count as branches). Games override it with a faster count.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }

    /// How a player is called at this table ("White", "Gold", "North").
    fn player_name(&self, player: Player) -> String {
        format!("Player {}", player.0 + 1)
    }

    /// How a team is called in results ("White", "North and South").
    fn team_name(&self, team: Team) -> String {
        format!("Team {}", team.0 + 1)
    }

    /// A 64-bit key of everything the rules observe: equal states have equal
    /// keys. Transposition tables and the merging of chance outcomes that
    /// reach the same state use it. The default hashes the position text.
    fn key(&self) -> u64 {
        crate::protocol::fnv1a(self.to_text().as_bytes())
    }

    /// How a person picks `action` (legal here) by clicking. Within one
    /// decision no two legal actions share a gesture's `from`, `to` and
    /// `choice`.
    fn gesture(&self, action: &Self::Action) -> Gesture;

    /// What `player` holds that `viewer` may know (money, mana, hand size).
    fn holdings(&self, player: Player, viewer: Viewer) -> Vec<Holding> {
        let _ = (player, viewer);
        Vec::new()
    }

    /// The zones off the board (hands, Reserves, the Bank) as `viewer` may
    /// see them; every item a gesture names is in one of them.
    fn zones(&self, viewer: Viewer) -> Vec<Zone> {
        let _ = viewer;
        Vec::new()
    }

    /// What happened when `action` took `self` to `after`, as `viewer` may
    /// know it.
    /// Every action yields at least one event with a sentence; hidden parts
    /// are cut as [`Game::view`] and [`Game::action_notation_for`] cut them.
    fn events(&self, action: &Self::Action, after: &Self, viewer: Viewer) -> Vec<Event>;

    /// What never changes during a game under `options`.
    fn catalog(options: &Self::Options) -> Catalog;

    /// Why `error` refused an action: unreadable, illegal or ambiguous.
    fn fault_kind(error: &Self::ActionError) -> FaultKind;

    /// The result when `player`'s time runs out (a table with a clock). By
    /// default the other team wins on time, as resigning would name it; a
    /// game whose book rules on time overrides this (chess: FIDE 6.9).
    fn timeout_outcome(&self, player: Player) -> Outcome {
        match crate::protocol::resignation_winner(&self.seating(), player) {
            Some(team) => Outcome::win(team, EndReason::Timeout),
            None => Outcome::draw(EndReason::Timeout),
        }
    }

    /// A sentence for an outcome: "White wins by checkmate", "Draw by stalemate".
    fn describe_outcome(&self, outcome: &Outcome) -> String {
        match outcome.winner {
            Some(team) => format!(
                "{} wins {}",
                self.team_name(team),
                outcome.reason.win_phrase()
            ),
            None => format!("Draw {}", outcome.reason.draw_phrase()),
        }
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}
