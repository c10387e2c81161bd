//! [`Lytharia`]: the [`tabula_core::Game`] implementation, views, position
//! text and determinization.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};
use tabula_chess::{CastlingRightView, CastlingRights, CastlingSide, Color};
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, StableHasher, Zone};
use tabula_core::{
    ChanceModel, Game, GameId, GameRng, Player, Probability, Seating, Team, ToAct, Viewer,
};
use thiserror::Error;

use crate::action::{Action, ActionError, Sq};
use crate::cards::{CardId, Role, card_db};
use crate::deck::{DeckList, starter_list, starter_lists};
use crate::options::{LythariaOptions, Mode};
use crate::state::{Enchant, Entry, Source, Stage, State, TempMod};

/// A game of Lytharian Chess: the options and the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lytharia {
    options: LythariaOptions,
    state: State,
}

/// Why a position text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not start with `lytharia `.
    #[error("a Lytharian position text starts with 'lytharia '")]
    Prefix,
    /// The text is not the state's format; the message names the field.
    #[error("position text: {0}")]
    Format(String),
    /// A field has a value the rules do not allow.
    #[error("position text: field '{field}': {message}")]
    Invalid {
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
}

fn list_or_default(id: &str, seat: usize) -> &'static DeckList {
    starter_list(id).unwrap_or_else(|_| {
        let lists = starter_lists();
        &lists[seat.min(lists.len() - 1)]
    })
}

impl Lytharia {
    /// The rules state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// A game from a state (not checked: see [`Game::from_text`] for a checked way).
    pub fn from_state(state: State, options: LythariaOptions) -> Self {
        Lytharia { options, state }
    }

    /// Changes the state with a closure, for tests and scenario set-ups.
    pub fn edit(&mut self, f: impl FnOnce(&mut State)) {
        f(&mut self.state);
    }

    /// The view of `viewer` as one line of text (`lytharia-view {...}`).
    pub fn view_text(&self, viewer: Viewer) -> String {
        let mut s = String::from("lytharia-view ");
        let _ = self
            .view(viewer)
            .serialize(toml::ser::ValueSerializer::new(&mut s));
        s
    }

    /// Reads the readable notation of [`Game::action_notation`] (not checked
    /// for legality).
    fn parse_readable(&self, text: &str) -> Option<Action> {
        let text = text.trim();
        let (head, rest) = text.split_once(' ')?;
        if ["K", "Q", "R", "KN", "N", "B", "P"].contains(&head) {
            return match rest.trim().parse().ok()? {
                a @ (Action::Move(..) | Action::Attack(..)) => Some(a),
                _ => None,
            };
        }
        let rest = rest.trim();
        let (body, target) = match rest.rsplit_once(" @") {
            Some((b, t)) => (b.trim(), Some(t.trim().parse::<Sq>().ok()?)),
            None => (rest, None),
        };
        if head == "use" {
            let (sq, ability) = body.split_once(' ')?;
            let sq: Sq = sq.parse().ok()?;
            let u = self.state.unit_at(sq.0)?;
            let i = u
                .troop()
                .abilities
                .iter()
                .position(|a| a.name.eq_ignore_ascii_case(ability.trim()))?;
            return Some(Action::Use(sq, u8::try_from(i).ok()?, target));
        }
        let c = card_db().lookup_name(body)?;
        Some(match (head, target) {
            ("cast", t) => Action::Cast(c, t),
            ("harness", None) => Action::Harness(c),
            ("equip", Some(t)) => Action::Equip(c, t),
            ("reforge", t) => Action::Reforge(c, t),
            ("discard", None) => Action::Discard(c),
            ("promote", None) => Action::Promote(c),
            ("place", None) => Action::Place(c),
            ("pick", None) => Action::Pick(c),
            _ => return None,
        })
    }

    /// The notation of `action` (about to be played here) as `viewer` may
    /// see it in a move list: what the action would tell them that they may
    /// not know is left out. A Pawn placed face down reads `place a Pawn`, a
    /// Battle Duels pick `pick a troop`, the round's choice `choose a troop`
    /// (for everyone but the player acting), and a shuffle `shuffle deck N`
    /// (the order is hidden from everyone).
    pub fn notation_for(&self, action: &Action, viewer: Viewer) -> String {
        let st = &self.state;
        let actor = st.player_to_act();
        let own = matches!(viewer, Viewer::Player(p) if Some(p.0) == actor);
        match action {
            Action::Shuffle(p, _) => format!("shuffle deck {}", p + 1),
            Action::Place(_) if st.stage == Stage::Place && !own && self.options.face_down => {
                "place a Pawn".to_owned()
            }
            Action::Place(_) if st.stage == Stage::Choose && !own => "choose a troop".to_owned(),
            Action::Pick(_) if !own => "pick a troop".to_owned(),
            // A face-down troop's ability that does not reveal it: which
            // troop acted is public, which ability (its index) is not.
            Action::Use(sq, i, t) if !own => match st.unit_at(sq.0) {
                Some(u)
                    if !u.face_up
                        && u.troop()
                            .abilities
                            .get(*i as usize)
                            .is_some_and(|a| !a.reveal) =>
                {
                    format!(
                        "use {sq}{}",
                        t.map(|t| format!(" @{t}")).unwrap_or_default()
                    )
                }
                _ => self.action_notation(action),
            },
            _ => self.action_notation(action),
        }
    }

    fn check(&self, a: &Action) -> Result<(), ActionError> {
        let illegal = |why: &str| ActionError::Illegal {
            action: a.to_string(),
            why: why.to_owned(),
        };
        let st = &self.state;
        if st.outcome.is_some() {
            return Err(illegal("the game is over"));
        }
        if st.is_chance() {
            return match (self.chance(), a) {
                (ChanceModel::Exact(outcomes), _) => {
                    if outcomes.iter().any(|(x, _)| x == a) {
                        Ok(())
                    } else {
                        Err(illegal("not an outcome of this chance node"))
                    }
                }
                (ChanceModel::Sampled, Action::Shuffle(p, perm)) => {
                    if *p != st.active {
                        return Err(illegal("this deck is not being shuffled now"));
                    }
                    let n = st.sides[*p as usize].deck.len();
                    let mut seen = vec![false; n];
                    if perm.len() != n {
                        return Err(illegal("the order must list every card of the deck once"));
                    }
                    for &i in perm {
                        match seen.get_mut(i as usize) {
                            Some(s) if !*s => *s = true,
                            _ => {
                                return Err(illegal(
                                    "the order must list every card of the deck once",
                                ));
                            }
                        }
                    }
                    Ok(())
                }
                _ => Err(illegal("chance decides now")),
            };
        }
        if st.player_to_act().is_none() {
            return Err(illegal("chance decides now"));
        }
        let mut legal = Vec::new();
        st.legal(&self.options, &mut legal);
        if legal.contains(a) {
            Ok(())
        } else {
            Err(illegal("not among the legal actions"))
        }
    }
}

/// What one viewer may see of a troop: one of the view's `pieces`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    /// Its square.
    pub cell: Sq,
    /// Its owner's seat.
    pub owner: u8,
    /// The catalog's piece id: the card it plays as (a promoted Pawn's
    /// copied troop) when the viewer may see it, else its role's letters
    /// (`K`, `Q`, `R`, `KN`, `B`, `P`) for a face-down troop.
    pub piece: String,
    /// Its role (always visible).
    pub role: Role,
    /// The card, when face up or the viewer's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<CardId>,
    /// The copied troop of a promoted Pawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy: Option<CardId>,
    /// Its uid.
    pub uid: u32,
    /// Whether face up.
    pub face_up: bool,
    /// Damage taken.
    pub damage: i32,
    /// Equipment.
    pub equipment: Vec<CardId>,
    /// Temporary changes.
    pub mods: Vec<TempMod>,
    /// Abilities used this turn (hidden on face-down enemy troops).
    pub used: u8,
    /// Whether it attacked this turn.
    pub attacked: bool,
}

/// What one viewer may see of a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideView {
    /// The deck list's id (public: the `decks` option).
    pub list: String,
    /// The army list (public).
    pub army: Vec<CardId>,
    /// The hand, when it is the viewer's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<CardId>>,
    /// The hand's size.
    pub hand_size: usize,
    /// The deck's size (never its order).
    pub deck_size: usize,
    /// The crypt.
    pub crypt: Vec<CardId>,
    /// The nether.
    pub nether: Vec<CardId>,
    /// The enchant spaces.
    pub enchants: Vec<Enchant>,
    /// Mana counter.
    pub mana: i32,
    /// Obelisk.
    pub obelisk: i32,
    /// Army power score.
    pub power: i32,
    /// Harnessed this turn.
    pub harnessed: bool,
    /// Harnessed mana pool.
    pub spell_pool: i32,
    /// Reforged mana pool.
    pub forge_pool: i32,
    /// Power of enemy troops killed.
    pub kills: i32,
    /// Pawn Wars points.
    pub points: i32,
    /// May end the main phase without moving.
    pub hold: bool,
    /// Pawns still to place (count).
    pub to_place: usize,
}

/// What one viewer may see of a player's Battle Duel troops.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DuelSideView {
    /// The seven picked troops, when they are the viewer's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picks: Option<Vec<CardId>>,
    /// How many troops are picked.
    pub picks_count: usize,
    /// The picked troops not yet sent into a round, when the viewer's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<CardId>>,
    /// How many picked troops are not yet sent into a round.
    pub left_count: usize,
    /// Troops sent into rounds 1 to 7 so far (public).
    pub played: Vec<CardId>,
    /// Whether the troop for the coming round is chosen.
    pub chosen: bool,
    /// That troop, when the viewer's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<CardId>,
    /// The troop fighting this round (public).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fighting: Option<CardId>,
}

/// What one viewer may see of a Battle Duel: all but the other player's picks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DuelView {
    /// The round (after 7: sudden death).
    pub round: u32,
    /// This round's attacker.
    pub attacker: u8,
    /// Turns played in this round.
    pub turns: u32,
    /// Finished rounds: 0 or 1 = that seat won, 2 = a tie.
    pub results: Vec<u8>,
    /// Both players (round wins are the sides' `points`).
    pub sides: [DuelSideView; 2],
}

/// The chess side of a Normal Chess game (all public): what a FEN holds
/// beyond the pieces, named as `tabula-chess`'s view names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChessView {
    /// The castling rights left, as in `tabula-chess`: `{owner, side}` with
    /// `owner` the seat (White is the seat that went first) and `side`
    /// `kingside` or `queenside`.
    pub castling: Vec<CastlingRightView>,
    /// The en-passant square, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub en_passant: Option<Sq>,
    /// Half-moves since the last capture or Pawn move.
    pub halfmove_clock: u32,
    /// The move number.
    pub fullmove_number: u32,
    /// A Pawn move waiting for its promotion piece.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<[Sq; 2]>,
}

/// What one viewer may see of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LythariaView {
    /// The stage.
    pub stage: Stage,
    /// The active seat.
    pub active: u8,
    /// The seat that went first.
    pub first: u8,
    /// Turn number (both players' turns counted).
    pub turn_number: u32,
    /// The troop that moved this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<u32>,
    /// Whether the turn's attack was made.
    pub attacked: bool,
    /// Both players.
    pub sides: [SideView; 2],
    /// The troops on the board.
    pub pieces: Vec<UnitView>,
    /// The stack, bottom first. An ability of a face-down troop the viewer
    /// may not identify shows as [`Source::Hidden`].
    pub stack: Vec<Entry>,
    /// The mode.
    pub mode: Mode,
    /// Battle Duels: the match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duel: Option<DuelView>,
    /// Normal Chess: the rest of the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess: Option<ChessView>,
    /// Normal Chess: whether the player to move is in check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_check: Option<bool>,
}

/// The castling rights of a FEN castling field as `tabula-chess` lists
/// them: White's then Black's, kingside before queenside.
fn castling_rights(st: &State, fen: &str) -> Vec<CastlingRightView> {
    let rights = CastlingRights::from_fen(fen).unwrap_or(CastlingRights::NONE);
    let mut out = Vec::new();
    for color in Color::ALL {
        let seat = if color == Color::White {
            st.first
        } else {
            1 - st.first
        };
        for side in CastlingSide::ALL {
            if rights.has(color, side) {
                out.push(CastlingRightView {
                    owner: Player(seat),
                    side: match side {
                        CastlingSide::KingSide => "kingside",
                        CastlingSide::QueenSide => "queenside",
                    }
                    .to_owned(),
                });
            }
        }
    }
    out
}

impl Game for Lytharia {
    type Action = Action;
    type Options = LythariaOptions;
    type View = LythariaView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Lytharia;
    const HIDDEN_INFORMATION: bool = true;
    /// The book offers no agreed draw in any mode: the full game's ties go
    /// to kills, army power and d6 roll-offs "until someone wins", a Battle
    /// Duel plays sudden death "until someone wins a round", Pawn Wars
    /// breaks ties by kills. Normal Chess would allow one as standard chess
    /// does, but the constant is per game (docs/rules/lytharia.md).
    const DRAW_BY_AGREEMENT: bool = false;

    fn new(options: &LythariaOptions) -> Self {
        let lists = [
            list_or_default(&options.decks[0], 0),
            list_or_default(&options.decks[1], 1),
        ];
        Lytharia {
            options: options.clone(),
            state: State::new(lists, options),
        }
    }

    fn options(&self) -> &LythariaOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::two_players()
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = self.state.outcome {
            return ToAct::Over { outcome };
        }
        match self.state.player_to_act() {
            Some(p) => ToAct::Player { player: Player(p) },
            None => ToAct::Chance,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.state.legal(&self.options, out);
    }

    fn chance(&self) -> ChanceModel<Action> {
        let st = &self.state;
        if !st.is_chance() {
            return ChanceModel::NotChance;
        }
        if st.pending_roll() {
            let sixth = Probability::new(1, 6).unwrap_or(Probability::ONE);
            return ChanceModel::Exact((1..=6).map(|n| (Action::Die(n), sixth)).collect());
        }
        match st.stage {
            Stage::Shuffle => ChanceModel::Sampled,
            Stage::Lot => {
                let lot = st.lot_outcomes();
                let total: u32 = lot.iter().map(|(_, n)| n).sum();
                ChanceModel::Exact(
                    lot.into_iter()
                        .map(|(c, n)| {
                            let p = Probability::new(u64::from(n), u64::from(total.max(1)))
                                .unwrap_or(Probability::ONE);
                            (Action::Place(c), p)
                        })
                        .collect(),
                )
            }
            _ => {
                let p = Probability::new(1, 36).unwrap_or(Probability::ONE);
                ChanceModel::Exact(
                    (1..=6)
                        .flat_map(|a| (1..=6).map(move |b| (Action::RollOff(a, b), p)))
                        .collect(),
                )
            }
        }
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Option<Action> {
        match self.chance() {
            ChanceModel::NotChance => None,
            ChanceModel::Sampled => {
                let p = self.state.active;
                let n = self.state.sides[p as usize].deck.len();
                let mut perm: Vec<u16> = (0..n as u16).collect();
                rng.shuffle(&mut perm);
                Some(Action::Shuffle(p, perm))
            }
            ChanceModel::Exact(outcomes) => {
                // By the listed probabilities (a lot's troops are weighted
                // by their copies among the seven).
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
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &Action) {
        let opts = self.options.clone();
        self.state.play(action, &opts);
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let a: Action = match text.parse() {
            Ok(a) => a,
            Err(e) => self.parse_readable(text).ok_or(e)?,
        };
        self.check(&a)?;
        Ok(a)
    }

    fn team_name(&self, team: Team) -> String {
        // Each player is a team of one.
        self.player_name(Player(team.0))
    }

    fn action_notation_for(&self, action: &Action, viewer: Viewer) -> String {
        self.notation_for(action, viewer)
    }

    /// The readable notation: card names instead of ids, the role before a
    /// move or attack (`KN g1-f3`, `R d4xd5`), the ability's name when the
    /// troop is face up (`use d4 Soul Lash @d6`). Chance outcomes and the
    /// rest read as the canonical text. `parse_action` reads both.
    fn action_notation(&self, action: &Action) -> String {
        let st = &self.state;
        let name = |c: &CardId| c.card().name().to_owned();
        let at = |t: &Option<Sq>| t.map(|s| format!(" @{s}")).unwrap_or_default();
        match action {
            Action::Move(f, _) | Action::Attack(f, _) => match st.unit_at(f.0) {
                Some(u) => format!("{} {action}", u.troop().role.letters()),
                None => action.to_string(),
            },
            Action::Cast(c, t) => format!("cast {}{}", name(c), at(t)),
            Action::Harness(c) => format!("harness {}", name(c)),
            Action::Equip(c, s) => format!("equip {} @{s}", name(c)),
            Action::Reforge(c, t) => format!("reforge {}{}", name(c), at(t)),
            Action::Discard(c) => format!("discard {}", name(c)),
            Action::Promote(c) => format!("promote {}", name(c)),
            Action::Place(c) => format!("place {}", name(c)),
            Action::Pick(c) => format!("pick {}", name(c)),
            Action::Use(s, i, t) => {
                let ability = st
                    .unit_at(s.0)
                    .filter(|u| u.face_up)
                    .and_then(|u| u.troop().abilities.get(*i as usize));
                match ability {
                    Some(a) => format!("use {s} {}{}", a.name, at(t)),
                    None => action.to_string(),
                }
            }
            _ => action.to_string(),
        }
    }

    fn to_text(&self) -> String {
        let mut s = String::from("lytharia ");
        let _ = self
            .state
            .serialize(toml::ser::ValueSerializer::new(&mut s));
        s
    }

    fn from_text(text: &str, options: &LythariaOptions) -> Result<Self, PositionError> {
        let body = text
            .trim()
            .strip_prefix("lytharia ")
            .ok_or(PositionError::Prefix)?;
        let de = toml::de::ValueDeserializer::parse(body)
            .map_err(|e| PositionError::Format(e.message().to_owned()))?;
        let state =
            State::deserialize(de).map_err(|e| PositionError::Format(e.message().to_owned()))?;
        validate_state(&state, options)?;
        Ok(Lytharia {
            options: options.clone(),
            state,
        })
    }

    fn view(&self, viewer: Viewer) -> LythariaView {
        let st = &self.state;
        // A spectator sees only what is hidden from no one: no hands, and
        // face-down troops as their role (so a spectator cannot relay secrets).
        let sees = |owner: u8| match viewer {
            Viewer::Public => false,
            Viewer::Player(p) => p.0 == owner,
        };
        let units = st
            .units
            .iter()
            .map(|u| {
                let shown = u.face_up || sees(u.owner);
                UnitView {
                    cell: u.at,
                    owner: u.owner,
                    piece: if shown {
                        u.identity().name().to_owned()
                    } else {
                        u.troop().role.letters().to_owned()
                    },
                    role: u.troop().role,
                    card: shown.then_some(u.card),
                    copy: u.copy,
                    uid: u.uid,
                    face_up: u.face_up,
                    damage: u.damage,
                    equipment: u.equipment.clone(),
                    mods: u.mods.clone(),
                    used: if shown { u.used } else { 0 },
                    attacked: u.attacked,
                }
            })
            .collect();
        let side = |i: usize| {
            let s = &st.sides[i];
            SideView {
                list: s.list.clone(),
                army: s.army.clone(),
                hand: sees(i as u8).then(|| s.hand.clone()),
                hand_size: s.hand.len(),
                deck_size: s.deck.len(),
                crypt: s.crypt.clone(),
                nether: s.nether.clone(),
                enchants: s.enchants.clone(),
                mana: s.mana,
                obelisk: s.obelisk,
                power: s.power,
                harnessed: s.harnessed,
                spell_pool: s.spell_pool,
                forge_pool: s.forge_pool,
                kills: s.kills,
                points: s.points,
                hold: s.hold,
                to_place: s.to_place.len(),
            }
        };
        let stack = st
            .stack
            .iter()
            .map(|e| {
                let mut e = e.clone();
                if let Source::Ability { uid, .. } = e.source {
                    let hidden = st
                        .units
                        .iter()
                        .find(|u| u.uid == uid)
                        .is_some_and(|u| !u.face_up && !sees(u.owner));
                    if hidden {
                        // Which face-down troop acted is public; its card is not.
                        e.source = Source::Hidden { uid };
                    }
                }
                e
            })
            .collect();
        LythariaView {
            stage: st.stage,
            active: st.active,
            first: st.first,
            turn_number: st.turn,
            moved: st.moved,
            attacked: st.attacked,
            sides: [side(0), side(1)],
            pieces: units,
            stack,
            mode: self.options.mode,
            duel: st.duel.as_ref().map(|d| {
                let side = |i: usize| {
                    let ds = &d.sides[i];
                    let mine = sees(i as u8);
                    DuelSideView {
                        picks: mine.then(|| ds.picks.clone()),
                        picks_count: ds.picks.len(),
                        left: mine.then(|| ds.left.clone()),
                        left_count: ds.left.len(),
                        played: ds.played.clone(),
                        chosen: ds.choice.is_some(),
                        choice: if mine { ds.choice } else { None },
                        fighting: ds.fighting,
                    }
                };
                DuelView {
                    round: d.round,
                    attacker: d.attacker,
                    turns: d.turns,
                    results: d.results.clone(),
                    sides: [side(0), side(1)],
                }
            }),
            chess: st.chess.as_ref().map(|c| ChessView {
                castling: castling_rights(st, &c.castling),
                en_passant: c.ep,
                halfmove_clock: c.halfmove,
                fullmove_number: c.fullmove,
                pending: c.pending,
            }),
            in_check: st.chess.as_ref().map(|_| st.chess_position().is_check()),
        }
    }

    fn key(&self) -> u64 {
        let mut h = StableHasher::default();
        let o = &self.options;
        (o.mode, o.knight_attack, o.face_down, o.turn_limit, &o.decks).hash(&mut h);
        self.state.hash(&mut h);
        h.finish()
    }

    fn gesture(&self, action: &Action) -> Gesture {
        crate::table::gesture(self, action)
    }

    fn holdings(&self, player: Player, viewer: Viewer) -> Vec<Holding> {
        crate::table::holdings(self, player, viewer)
    }

    fn zones(&self, viewer: Viewer) -> Vec<Zone> {
        crate::table::zones(self, viewer)
    }

    fn events(&self, action: &Action, after: &Self, viewer: Viewer) -> Vec<Event> {
        crate::table::events(self, action, after, viewer)
    }

    fn catalog(options: &LythariaOptions) -> Catalog {
        crate::table::catalog(options)
    }

    fn fault_kind(error: &ActionError) -> FaultKind {
        match error {
            ActionError::Parse(_) => FaultKind::Unreadable,
            ActionError::Illegal { .. } => FaultKind::Illegal,
        }
    }

    fn determinize(&self, observer: Player, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let me = observer.0.min(1) as usize;
        let opp = 1 - me;
        let st = &mut g.state;
        // The observer's own deck order is unknown to them too. Hidden cards
        // are sorted before every shuffle so the world drawn depends on what
        // the observer knows (which cards are unseen), never on where the
        // real state keeps them: a computer player's choice must not change
        // with hidden cards it cannot see.
        st.sides[me].deck.sort();
        rng.shuffle(&mut st.sides[me].deck);
        // The opponent's hand and deck: any split of the unseen cards.
        let side = &mut st.sides[opp];
        let mut unseen: Vec<CardId> = side.hand.drain(..).chain(side.deck.drain(..)).collect();
        unseen.sort();
        rng.shuffle(&mut unseen);
        let hand_size = self.state.sides[opp].hand.len();
        side.deck = unseen.split_off(hand_size);
        side.hand = unseen;
        // Battle Duels: the opponent's picks not yet shown (and a chosen
        // troop not yet shown) may be any of their army's other troops.
        if let Some(d) = st.duel.as_mut()
            && d.round > crate::state::DUEL_ROUNDS
        {
            // Sudden death: the seven picks are all known (played); a troop
            // drawn by lot and not yet shown is any of them.
            let ds = &mut d.sides[opp];
            if ds.choice.is_some() && !ds.picks.is_empty() {
                ds.choice = Some(ds.picks[rng.below(ds.picks.len() as u64) as usize]);
            }
        } else if let Some(d) = st.duel.as_mut() {
            let ds = &mut d.sides[opp];
            let mut pool = st.sides[opp].army.clone();
            for c in &ds.played {
                if let Some(i) = pool.iter().position(|x| x == c) {
                    pool.remove(i);
                }
            }
            let unknown = ds.left.len() + usize::from(ds.choice.is_some());
            rng.shuffle(&mut pool);
            pool.truncate(unknown);
            if ds.choice.is_some() {
                ds.choice = pool.pop();
            }
            ds.left = pool;
            ds.picks = ds
                .played
                .iter()
                .chain(&ds.left)
                .chain(&ds.choice)
                .copied()
                .collect();
        }
        // The opponent's face-down troops: any assignment within each role
        // that keeps every one alive with its damage.
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Pawn,
        ] {
            let idx: Vec<usize> = st
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| {
                    u.owner as usize == opp
                        && !u.face_up
                        && u.copy.is_none()
                        && u.troop().role == role
                })
                .map(|(i, _)| i)
                .collect();
            let mut pool: Vec<CardId> = idx.iter().map(|&i| st.units[i].card).collect();
            if role == Role::Pawn {
                pool.extend(st.sides[opp].to_place.iter().copied());
            }
            pool.sort();
            if pool.len() < 2 {
                continue;
            }
            for _ in 0..8 {
                let mut trial = st.clone();
                let mut p = pool.clone();
                rng.shuffle(&mut p);
                for (k, &i) in idx.iter().enumerate() {
                    trial.units[i].card = p[k];
                }
                let consistent = idx
                    .iter()
                    .all(|&i| trial.units[i].damage < trial.stats(&trial.units[i]).def);
                if consistent {
                    if role == Role::Pawn {
                        let mut rest = p.split_off(idx.len());
                        rest.sort();
                        trial.sides[opp].to_place = rest;
                    }
                    *st = trial;
                    break;
                }
            }
        }
        g
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x.max(1) * b
}

fn invalid(field: &str, message: &str) -> PositionError {
    PositionError::Invalid {
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

fn validate_state(st: &State, options: &LythariaOptions) -> Result<(), PositionError> {
    if st.active > 1 || st.first > 1 || st.priority > 1 {
        return Err(invalid("active/first/priority", "seats are 0 and 1"));
    }
    if (options.mode == Mode::Duel) != st.duel.is_some() {
        return Err(invalid("duel", "present exactly in mode duel"));
    }
    if (options.mode == Mode::Chess) != st.chess.is_some() {
        return Err(invalid("chess", "present exactly in mode chess"));
    }
    let duel_stage = matches!(st.stage, Stage::Pick | Stage::Choose | Stage::Lot);
    if duel_stage && st.duel.is_none() {
        return Err(invalid("stage", "a Battle Duels stage outside mode duel"));
    }
    if let Some(d) = &st.duel {
        if d.attacker > 1 || d.results.iter().any(|r| *r > 2) {
            return Err(invalid("duel", "seats are 0 and 1, results 0, 1 or 2"));
        }
        let me = &d.sides[st.active as usize];
        let stuck = match st.stage {
            Stage::Pick => me.picks.len() >= crate::state::DUEL_PICKS,
            Stage::Choose => me.left.is_empty(),
            Stage::Lot => me.picks.is_empty(),
            _ => false,
        };
        if stuck && st.outcome.is_none() {
            return Err(invalid(
                "stage",
                "the player to pick, choose or draw has nothing to take",
            ));
        }
        for (i, ds) in d.sides.iter().enumerate() {
            let cards = ds
                .picks
                .iter()
                .chain(&ds.left)
                .chain(&ds.played)
                .chain(&ds.choice)
                .chain(&ds.fighting);
            if cards.clone().any(|c| c.card().troop().is_none()) {
                return Err(invalid(&format!("duel.sides[{i}]"), "not a troop"));
            }
            if ds.picks.len() > crate::state::DUEL_PICKS {
                return Err(invalid(&format!("duel.sides[{i}].picks"), "seven at most"));
            }
        }
    }
    if let Some(c) = &st.chess
        && tabula_chess::CastlingRights::from_fen(&c.castling).is_none()
    {
        return Err(invalid(
            "chess.castling",
            "a FEN castling field (KQkq or -)",
        ));
    }
    if st
        .stack
        .iter()
        .any(|e| matches!(e.source, Source::Hidden { .. }))
    {
        return Err(invalid("stack", "hidden entries exist only in views"));
    }
    let mut squares = Vec::new();
    let mut uids = Vec::new();
    for (i, u) in st.units.iter().enumerate() {
        if u.owner > 1 {
            return Err(invalid(&format!("units[{i}].owner"), "seats are 0 and 1"));
        }
        if u.card.card().troop().is_none() || u.copy.is_some_and(|c| c.card().troop().is_none()) {
            return Err(invalid(&format!("units[{i}].card"), "not a troop"));
        }
        if u.equipment.iter().any(|e| e.card().equipment().is_none()) {
            return Err(invalid(&format!("units[{i}].equipment"), "not equipment"));
        }
        if squares.contains(&u.at) {
            return Err(invalid(
                &format!("units[{i}].at"),
                "two troops on one square",
            ));
        }
        if uids.contains(&u.uid) || u.uid >= st.next_uid {
            return Err(invalid(
                &format!("units[{i}].uid"),
                "uids are unique and below next_uid",
            ));
        }
        squares.push(u.at);
        uids.push(u.uid);
    }
    for (i, s) in st.sides.iter().enumerate() {
        let f = |x: &str| format!("sides[{i}].{x}");
        if !(0..=15).contains(&s.mana) {
            return Err(invalid(&f("mana"), "0 to 15"));
        }
        if !(1..=6).contains(&s.obelisk) {
            return Err(invalid(&f("obelisk"), "1 to 6"));
        }
        if s.enchants.len() > 3 {
            return Err(invalid(&f("enchants"), "3 spaces at most"));
        }
        if s.enchants.iter().any(|e| e.card.card().spell().is_none()) {
            return Err(invalid(&f("enchants"), "not a spell"));
        }
        if s.hand
            .iter()
            .chain(&s.deck)
            .any(|c| c.card().troop().is_some())
        {
            return Err(invalid(&f("hand/deck"), "troops are not drawn"));
        }
        if s.army
            .iter()
            .chain(&s.to_place)
            .any(|c| c.card().troop().is_none())
        {
            return Err(invalid(&f("army"), "not a troop"));
        }
    }
    Ok(())
}
