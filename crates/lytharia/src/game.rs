//! [`Lytharia`]: the [`tabula_core::Game`] implementation, views, position
//! text and determinization.

use serde::{Deserialize, Serialize};
use tabula_core::{
    ChanceModel, Game, GameId, GameRng, Outcome, Player, Probability, Seating, ToAct, Viewer,
};
use thiserror::Error;

use crate::action::{Action, ActionError, Sq};
use crate::cards::{CardId, Role};
use crate::deck::{DeckList, starter_list, starter_lists};
use crate::options::LythariaOptions;
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

    fn check(&self, a: &Action) -> Result<(), ActionError> {
        let illegal = |why: &str| ActionError::Illegal {
            action: a.to_string(),
            why: why.to_owned(),
        };
        let st = &self.state;
        if st.outcome.is_some() {
            return Err(illegal("the game is over"));
        }
        match a {
            Action::RollOff(x, y) => {
                if !matches!(st.stage, Stage::RollOff | Stage::TieBreak) || st.pending_roll() {
                    return Err(illegal("no roll-off is under way"));
                }
                if !(1..=6).contains(x) || !(1..=6).contains(y) {
                    return Err(illegal("die faces are 1 to 6"));
                }
                Ok(())
            }
            Action::Die(n) => {
                if !st.pending_roll() {
                    return Err(illegal("no effect waits for a die"));
                }
                if !(1..=6).contains(n) {
                    return Err(illegal("die faces are 1 to 6"));
                }
                Ok(())
            }
            Action::Shuffle(p, perm) => {
                if st.stage != Stage::Shuffle || *p != st.active {
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
                            return Err(illegal("the order must list every card of the deck once"));
                        }
                    }
                }
                Ok(())
            }
            _ => {
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
    }
}

/// What one viewer may see of a troop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    /// Its square.
    pub at: Sq,
    /// Its owner's seat.
    pub owner: u8,
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

/// What one viewer may see of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LythariaView {
    /// Whose view.
    pub viewer: Viewer,
    /// The stage.
    pub stage: Stage,
    /// The active seat.
    pub active: u8,
    /// The seat that went first.
    pub first: u8,
    /// Turn number.
    pub turn: u32,
    /// The player to decide, if a player decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<u8>,
    /// The troop that moved this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<u32>,
    /// Whether the turn's attack was made.
    pub attacked: bool,
    /// The result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Both players.
    pub sides: [SideView; 2],
    /// The troops.
    pub units: Vec<UnitView>,
    /// The stack, bottom first.
    pub stack: Vec<Entry>,
}

impl Game for Lytharia {
    type Action = Action;
    type Options = LythariaOptions;
    type View = LythariaView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Lytharia;
    const HIDDEN_INFORMATION: bool = true;

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
                // Every listed outcome here is equally likely.
                let i = rng.below(outcomes.len() as u64) as usize;
                outcomes.into_iter().nth(i).map(|(a, _)| a)
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
        let a: Action = text.parse()?;
        self.check(&a)?;
        Ok(a)
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
        validate_state(&state)?;
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
                    at: u.at,
                    owner: u.owner,
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
                if let Source::Ability { uid, card, index } = &mut e.source {
                    let hidden = st
                        .units
                        .iter()
                        .find(|u| u.uid == *uid)
                        .is_some_and(|u| !u.face_up && !sees(u.owner));
                    if hidden {
                        // Which face-down troop acted is public; its card is not.
                        *card = CardId(0);
                        *index = 0;
                    }
                }
                e
            })
            .collect();
        LythariaView {
            viewer,
            stage: st.stage,
            active: st.active,
            first: st.first,
            turn: st.turn,
            to_act: st.player_to_act(),
            moved: st.moved,
            attacked: st.attacked,
            outcome: st.outcome,
            sides: [side(0), side(1)],
            units,
            stack,
        }
    }

    fn determinize(&self, observer: Player, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let me = observer.0.min(1) as usize;
        let opp = 1 - me;
        let st = &mut g.state;
        // The observer's own deck order is unknown to them too.
        rng.shuffle(&mut st.sides[me].deck);
        // The opponent's hand and deck: any split of the unseen cards.
        let side = &mut st.sides[opp];
        let mut unseen: Vec<CardId> = side.hand.drain(..).chain(side.deck.drain(..)).collect();
        rng.shuffle(&mut unseen);
        let hand_size = self.state.sides[opp].hand.len();
        side.deck = unseen.split_off(hand_size);
        side.hand = unseen;
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

fn invalid(field: &str, message: &str) -> PositionError {
    PositionError::Invalid {
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

fn validate_state(st: &State) -> Result<(), PositionError> {
    if st.active > 1 || st.first > 1 || st.priority > 1 {
        return Err(invalid("active/first/priority", "seats are 0 and 1"));
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
