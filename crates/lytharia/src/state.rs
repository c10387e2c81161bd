//! The game state and the rules engine.

use serde::{Deserialize, Serialize};
use tabula_chess::{Bitboard, Color, Square, attacks};
use tabula_core::{EndReason, Outcome, Team};

use crate::action::{Action, Sq};
use crate::cards::{
    AbilityPhase, CardId, Condition, Effect, Kind, Op, Role, Roll, Speed, SpellKind, Target, Troop,
};
use crate::deck::DeckList;
use crate::options::{KnightAttack, LythariaOptions, Mode};

/// A temporary change on a troop, lasting until the start of turn `until`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TempMod {
    /// What changes (att, def, ward, guard, root).
    pub op: Op,
    /// By how much.
    pub amount: i32,
    /// The first turn number it no longer applies.
    pub until: u32,
}

/// A troop card on the board.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// Its square.
    pub at: Sq,
    /// Its owner's seat (0 or 1).
    pub owner: u8,
    /// The card.
    pub card: CardId,
    /// For a promoted Pawn: the troop it copies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy: Option<CardId>,
    /// A number unique in this game, so spells notice when their target left.
    pub uid: u32,
    /// Whether the card is face up.
    pub face_up: bool,
    /// Damage taken (persistent).
    pub damage: i32,
    /// Attached equipment.
    pub equipment: Vec<CardId>,
    /// Temporary changes.
    pub mods: Vec<TempMod>,
    /// Bit `i`: ability `i` used this turn.
    pub used: u8,
    /// Whether it attacked this turn.
    pub attacked: bool,
}

impl Unit {
    /// The card it plays as (the copied troop for a promoted Pawn).
    pub fn identity(&self) -> CardId {
        self.copy.unwrap_or(self.card)
    }

    /// Its troop data.
    pub fn troop(&self) -> &'static Troop {
        troop_of(self.identity())
    }
}

fn troop_of(c: CardId) -> &'static Troop {
    static FALLBACK: std::sync::OnceLock<Troop> = std::sync::OnceLock::new();
    c.card().troop().unwrap_or_else(|| {
        FALLBACK.get_or_init(|| Troop {
            id: String::new(),
            name: String::new(),
            clan: crate::cards::Clan::Stoneborn,
            alignment: crate::cards::Alignment::Neutral,
            kind: Kind::Humanoid,
            role: Role::Pawn,
            att: 0,
            def: 1,
            power: 0,
            unique: false,
            damage: Default::default(),
            abilities: Vec::new(),
            text: String::new(),
        })
    })
}

/// An enchantment in one of a player's 3 enchant spaces.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Enchant {
    /// The spell.
    pub card: CardId,
    /// The enchanted troop's uid, for single-target enchantments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
    /// The first turn it is gone, if it lasts a number of turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u32>,
}

/// One player's cards and counters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Side {
    /// The deck list's id.
    pub list: String,
    /// The army (troops), in placement order.
    pub army: Vec<CardId>,
    /// The draw pile, bottom first: the last card is drawn next.
    pub deck: Vec<CardId>,
    /// The hand.
    pub hand: Vec<CardId>,
    /// Killed troops.
    pub crypt: Vec<CardId>,
    /// Discarded spells and equipment.
    pub nether: Vec<CardId>,
    /// The enchant spaces (at most 3).
    pub enchants: Vec<Enchant>,
    /// The mana counter, 0 to 15.
    pub mana: i32,
    /// The obelisk: mana gained each mana phase, 1 to 6.
    pub obelisk: i32,
    /// The army power score.
    pub power: i32,
    /// Whether this player harnessed this turn.
    pub harnessed: bool,
    /// Harnessed mana waiting to be spent on spells.
    pub spell_pool: i32,
    /// Reforged mana waiting to be spent on equipment.
    pub forge_pool: i32,
    /// The troop reforged mana must go to, when it came from that troop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forge_uid: Option<u32>,
    /// The total power score of enemy troops this player killed.
    pub kills: i32,
    /// Pawn Wars points.
    pub points: i32,
    /// Whether this player may end this main phase without moving.
    pub hold: bool,
    /// Pawns still to be placed at setup.
    pub to_place: Vec<CardId>,
}

/// Where a stack entry comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A spell card.
    Spell(CardId),
    /// A troop's ability: the troop's uid and card, and the ability's index.
    Ability {
        /// The troop's uid.
        uid: u32,
        /// The troop's card (its identity).
        card: CardId,
        /// The ability's index.
        index: u8,
    },
    /// Only in views: an ability of a face-down troop that the viewer may not
    /// identify. Which troop acted is public (its uid); its card is not.
    Hidden {
        /// The troop's uid.
        uid: u32,
    },
}

/// A troop a spell was aimed at, and the square it stood on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TargetRef {
    /// The square.
    pub at: Sq,
    /// The troop's uid.
    pub uid: u32,
}

/// A spell or ability waiting to resolve.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    /// What it is.
    pub source: Source,
    /// Who cast or used it.
    pub controller: u8,
    /// The troop it targets, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetRef>,
    /// The d6 rolled for it, once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
}

/// One player's side of a Battle Duel.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DuelSide {
    /// The seven troops picked for the match (hidden from the opponent
    /// until each is sent into a round).
    pub picks: Vec<CardId>,
    /// Picked troops not yet sent into one of rounds 1 to 7.
    pub left: Vec<CardId>,
    /// Troops sent into rounds 1 to 7 so far, in order (public).
    pub played: Vec<CardId>,
    /// The troop chosen for the coming round, before both are shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<CardId>,
    /// The troop fighting this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fighting: Option<CardId>,
}

/// The state of a Battle Duels match (round wins are the sides' `points`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Duel {
    /// The round, from 1; rounds after the 7th are sudden-death rounds.
    pub round: u32,
    /// This round's attacker, who takes its first turn.
    pub attacker: u8,
    /// Turns played in this round.
    pub turns: u32,
    /// Finished rounds: 0 or 1 = that seat won it, 2 = a tie.
    pub results: Vec<u8>,
    /// Both players.
    pub sides: [DuelSide; 2],
}

/// Normal Chess bookkeeping: the troops on the board are the pieces; these
/// are the rest of a FEN and the repetition history.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChessPlay {
    /// Castling rights as in a FEN (`KQkq`, a subset, or `-`).
    pub castling: String,
    /// The en-passant square, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ep: Option<Sq>,
    /// Half-moves since the last capture or Pawn move.
    pub halfmove: u32,
    /// The move number (from 1, +1 after the second player's move).
    pub fullmove: u32,
    /// Hashes of the positions so far, current last (for repetition).
    pub history: Vec<i64>,
    /// A Pawn move to the far rank waiting for its promotion: from, to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<[Sq; 2]>,
}

/// The rounds of a Battle Duel before sudden death.
pub const DUEL_ROUNDS: u32 = 7;
/// Round wins that take a Battle Duel.
pub const DUEL_WINS: i32 = 4;
/// Troops each player picks for a Battle Duel.
pub const DUEL_PICKS: usize = 7;
/// House limit: a Battle Duel round with both troops alive after this many
/// turns is a tie.
pub const DUEL_ROUND_TURNS: u32 = 12;
/// The Battle Duel battlefield: the first player's troop, the other's.
pub const DUEL_SQUARES: [Square; 2] = [Square::D4, Square::D5];

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Chance: the first-player roll-off on equal power scores.
    RollOff,
    /// Chance: a player's deck is shuffled (and cut).
    Shuffle,
    /// A player places their Pawns.
    Place,
    /// The active player's effects phase.
    Effects,
    /// The active player's draw phase, when there is a decision.
    Draw,
    /// The active player's main phase.
    Main,
    /// A Pawn reached the far rank and its owner chooses its new identity.
    Promote,
    /// Chance: a d6 roll-off to break an end-of-game tie.
    TieBreak,
    /// Battle Duels: a player picks their seven troops.
    Pick,
    /// Battle Duels: a player chooses the troop for the coming round.
    Choose,
    /// Battle Duels, sudden death: chance draws a player's troop from their seven.
    Lot,
}

/// The whole state of a game of Lytharian Chess.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// The stage.
    pub stage: Stage,
    /// The seat whose setup step or turn it is (and the shuffled deck at `shuffle`).
    pub active: u8,
    /// The seat that went first (its troops start on ranks 1 and 2).
    pub first: u8,
    /// Turn number, from 1 at the first player's first turn.
    pub turn: u32,
    /// The troop that moved this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<u32>,
    /// Whether an attack was made this turn.
    pub attacked: bool,
    /// Who may respond to the stack now.
    pub priority: u8,
    /// The next uid.
    pub next_uid: u32,
    /// The Pawn being promoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoting: Option<u32>,
    /// The game's result, once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The two players.
    pub sides: [Side; 2],
    /// The troops on the board.
    pub units: Vec<Unit>,
    /// Spells and abilities waiting to resolve, bottom first.
    pub stack: Vec<Entry>,
    /// Whether the stack is resolving (a player passed, or an ability was used).
    #[serde(default)]
    pub resolving: bool,
    /// Battle Duels bookkeeping (mode `duel` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duel: Option<Duel>,
    /// Normal Chess bookkeeping (mode `chess` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess: Option<ChessPlay>,
    /// What happened during the action being played, when asked for (see
    /// [`State::play_noting`]); not part of the state.
    #[serde(skip)]
    pub(crate) journal: Journal,
}

/// The notes of an action being played, kept only while
/// [`State::play_noting`] asks for them. It is no part of the state: it is
/// equal to every other journal, hashes to nothing and is never written.
#[derive(Debug, Clone, Default)]
pub struct Journal(Option<Vec<Note>>);

impl PartialEq for Journal {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Journal {}

impl std::hash::Hash for Journal {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// One thing that happened while an action was played, with snapshots of
/// the troops concerned (events are written from these notes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A stack entry resolved (its effects' notes follow).
    Resolved(Entry),
    /// A stack entry left without effect: its target had left its square.
    Fizzled(Entry),
    /// A stack entry was countered by the entry above it.
    Countered {
        /// The entry countered.
        entry: Entry,
        /// The counter's controller.
        by: u8,
    },
    /// An attack: both troops as they stand after the blows.
    Fight {
        /// The attacker.
        attacker: Unit,
        /// The defender.
        defender: Unit,
        /// Damage dealt to the defender.
        dealt: i32,
        /// Damage the attacker took back.
        taken: i32,
    },
    /// Damage from a spell or ability (the troop after it).
    Damage {
        /// The troop.
        unit: Unit,
        /// Damage dealt, after ward or guard.
        amount: i32,
    },
    /// Healing (the troop after it).
    Heal {
        /// The troop.
        unit: Unit,
        /// Damage removed.
        amount: i32,
    },
    /// A temporary change on a troop.
    Modified {
        /// The troop.
        unit: Unit,
        /// What changes.
        op: Op,
        /// By how much.
        amount: i32,
        /// For how many turns.
        turns: u32,
    },
    /// A troop's equipment went to the nether.
    Unequipped {
        /// The troop.
        unit: Unit,
        /// The equipment.
        cards: Vec<CardId>,
    },
    /// A troop was destroyed by an effect (it dies right after).
    Destroyed {
        /// The troop.
        unit: Unit,
    },
    /// A troop died (to its owner's crypt).
    Died {
        /// The troop as it was.
        unit: Unit,
    },
    /// Normal Chess: a piece was captured.
    Captured {
        /// The troop as it was.
        unit: Unit,
    },
    /// Pawn Wars: a Pawn reached the far rank and scored.
    Scored {
        /// The Pawn.
        unit: Unit,
        /// Its owner's points now.
        points: i32,
    },
    /// A player drew cards.
    Drew {
        /// Who.
        player: u8,
        /// The cards, in the order drawn.
        cards: Vec<CardId>,
    },
    /// A player's mana counter changed.
    Mana {
        /// Whose.
        player: u8,
        /// By how much.
        change: i32,
        /// The counter now.
        total: i32,
        /// Why: `mana-phase`, `effect`, `drain`, `round`.
        cause: &'static str,
    },
    /// A Battle Duel round ended.
    Round {
        /// The round.
        round: u32,
        /// 0 or 1 = that seat won it, 2 = a tie.
        result: u8,
        /// Round wins of both seats now.
        score: [i32; 2],
    },
    /// An enchantment's turns ran out.
    Expired {
        /// Its caster.
        player: u8,
        /// The spell.
        card: CardId,
    },
    /// A turn began.
    Turn {
        /// The active player.
        player: u8,
        /// The turn number.
        turn: u32,
    },
}

/// Sum of static modifiers on a troop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Attack.
    pub att: i32,
    /// Defense.
    pub def: i32,
    /// Magic damage reduction.
    pub ward: i32,
    /// Physical damage reduction.
    pub guard: i32,
    /// Whether it cannot move.
    pub rooted: bool,
}

pub(crate) const HAND_LIMIT: usize = 10;
const MANA_MAX: i32 = 15;
const OBELISK_MAX: i32 = 6;
const ENCHANT_SPACES: usize = 3;

/// The king-step distance between two squares.
pub(crate) fn dist(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

fn new_side(list: &DeckList, mode: Mode) -> Side {
    let army: Vec<CardId> = match mode {
        Mode::PawnWars => list
            .army
            .iter()
            .copied()
            .filter(|c| troop_of(*c).role == Role::Pawn)
            .collect(),
        Mode::Full | Mode::Duel | Mode::Chess => list.army.clone(),
    };
    let power = army.iter().map(|c| troop_of(*c).power).sum();
    let mut to_place: Vec<CardId> = army
        .iter()
        .copied()
        .filter(|c| troop_of(*c).role == Role::Pawn)
        .collect();
    to_place.sort();
    if mode == Mode::Duel {
        // Troops are picked and sent into rounds, not placed.
        to_place.clear();
    }
    Side {
        list: list.id.clone(),
        army,
        // Normal Chess is played with the troops alone.
        deck: if mode == Mode::Chess {
            Vec::new()
        } else {
            list.deck_cards()
        },
        hand: Vec::new(),
        crypt: Vec::new(),
        nether: Vec::new(),
        enchants: Vec::new(),
        mana: if mode == Mode::Chess { 0 } else { 1 },
        obelisk: 1,
        power,
        harnessed: false,
        spell_pool: 0,
        forge_pool: 0,
        forge_uid: None,
        kills: 0,
        points: 0,
        hold: false,
        to_place,
    }
}

impl State {
    /// The start of a game between two deck lists: at the roll-off if the
    /// power scores are equal, otherwise at the first shuffle.
    pub fn new(lists: [&DeckList; 2], options: &LythariaOptions) -> State {
        let sides = [
            new_side(lists[0], options.mode),
            new_side(lists[1], options.mode),
        ];
        let mut s = State {
            stage: Stage::RollOff,
            active: 0,
            first: 0,
            turn: 0,
            moved: None,
            attacked: false,
            priority: 0,
            next_uid: 1,
            promoting: None,
            outcome: None,
            sides,
            units: Vec::new(),
            stack: Vec::new(),
            resolving: false,
            duel: (options.mode == Mode::Duel).then(Duel::default),
            chess: None,
            journal: Journal::default(),
        };
        if options.mode == Mode::Chess {
            // "A standard game of Chess": the first seat plays White and
            // moves first; no decks, so no shuffle.
            s.first = 0;
            s.chess = Some(ChessPlay {
                castling: "KQkq".to_owned(),
                ep: None,
                halfmove: 0,
                fullmove: 1,
                history: Vec::new(),
                pending: None,
            });
            s.begin_setup(options);
            return s;
        }
        let (p0, p1) = (s.sides[0].power, s.sides[1].power);
        if p0 != p1 {
            let low = if p0 < p1 { 0 } else { 1 };
            s.set_first(low, (p0 - p1).abs(), options.mode);
        }
        s
    }

    fn set_first(&mut self, first: u8, diff: i32, mode: Mode) {
        self.first = first;
        if mode != Mode::Duel {
            // Battle Duels are played with full mana: no bonus.
            let bonus = (diff + 4) / 5;
            let side = &mut self.sides[first as usize];
            side.mana = (1 + bonus).min(MANA_MAX);
        }
        self.stage = Stage::Shuffle;
        self.active = 0;
    }

    /// The colour (board direction) of a seat.
    pub fn color(&self, p: u8) -> Color {
        if p == self.first {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The unit on a square.
    pub fn unit_at(&self, sq: Square) -> Option<&Unit> {
        self.units.iter().find(|u| u.at.0 == sq)
    }

    fn idx_at(&self, sq: Square) -> Option<usize> {
        self.units.iter().position(|u| u.at.0 == sq)
    }

    fn idx_uid(&self, uid: u32) -> Option<usize> {
        self.units.iter().position(|u| u.uid == uid)
    }

    fn occupied(&self) -> Bitboard {
        self.units.iter().map(|u| u.at.0).collect()
    }

    fn side_bb(&self, p: u8) -> Bitboard {
        self.units
            .iter()
            .filter(|u| u.owner == p)
            .map(|u| u.at.0)
            .collect()
    }

    /// The player to decide, or `None` at chance nodes and when over.
    pub fn player_to_act(&self) -> Option<u8> {
        if self.outcome.is_some() || self.is_chance() {
            return None;
        }
        if !self.stack.is_empty() {
            return Some(self.priority);
        }
        Some(self.active)
    }

    /// Whether chance decides next.
    pub fn is_chance(&self) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        matches!(
            self.stage,
            Stage::RollOff | Stage::Shuffle | Stage::TieBreak | Stage::Lot
        ) || self.pending_roll()
    }

    /// Whether the top of the stack waits for a d6.
    pub fn pending_roll(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|e| e.roll.is_none() && !self.fizzled(e) && self.needs_roll(e))
    }

    fn needs_roll(&self, e: &Entry) -> bool {
        // A stack entry rolls only once all responses are in: it is at the
        // top and either it is an ability (resolved at once) or a player passed.
        self.resolving && entry_effects(e).iter().any(|f| f.roll != Roll::None)
    }

    // ------------------------------------------------------------ stats

    /// A troop's current Att, Def, ward, guard and rooting.
    pub fn stats(&self, u: &Unit) -> Stats {
        let t = u.troop();
        let mut s = Stats {
            att: t.att,
            def: t.def,
            ..Stats::default()
        };
        let add = |op: Op, amount: i32, s: &mut Stats| match op {
            Op::Att => s.att += amount,
            Op::Def => s.def += amount,
            Op::Ward => s.ward += amount,
            Op::Guard => s.guard += amount,
            Op::Root => s.rooted = true,
            _ => {}
        };
        for e in &u.equipment {
            if let Some(eq) = e.card().equipment() {
                s.att += eq.att;
                s.def += eq.def;
            }
        }
        for other in &self.units {
            if other.owner != u.owner {
                continue;
            }
            for a in &other.troop().abilities {
                if a.phase != AbilityPhase::Passive {
                    continue;
                }
                let applies = match a.target {
                    Target::SelfTroop => other.uid == u.uid,
                    Target::AdjacentFriends => other.uid != u.uid && dist(other.at.0, u.at.0) == 1,
                    Target::AllFriends => true,
                    _ => false,
                };
                if applies {
                    for e in &a.effects {
                        add(e.op, e.amount, &mut s);
                    }
                }
            }
        }
        for (p, side) in self.sides.iter().enumerate() {
            for en in &side.enchants {
                let Some(spell) = en.card.card().spell() else {
                    continue;
                };
                let applies = match spell.target {
                    Target::AllFriends => u.owner as usize == p,
                    Target::AllEnemies => u.owner as usize != p,
                    _ => en.target == Some(u.uid),
                };
                if applies {
                    for e in &spell.effects {
                        add(e.op, e.amount, &mut s);
                    }
                }
            }
        }
        for m in &u.mods {
            add(m.op, m.amount, &mut s);
        }
        s.att = s.att.max(0);
        s.ward = s.ward.max(0);
        s.guard = s.guard.max(0);
        s
    }

    fn income(&self, p: u8) -> i32 {
        let mut n = 0;
        for u in self.units.iter().filter(|u| u.owner == p) {
            for a in &u.troop().abilities {
                if a.phase == AbilityPhase::Passive {
                    n += a
                        .effects
                        .iter()
                        .filter(|e| e.op == Op::Income)
                        .map(|e| e.amount)
                        .sum::<i32>();
                }
            }
        }
        for en in &self.sides[p as usize].enchants {
            if let Some(s) = en.card.card().spell() {
                n += s
                    .effects
                    .iter()
                    .filter(|e| e.op == Op::Income)
                    .map(|e| e.amount)
                    .sum::<i32>();
            }
        }
        n
    }

    // ------------------------------------------------------------ geometry

    fn move_targets(&self, u: &Unit) -> Bitboard {
        if self.stats(u).rooted {
            return Bitboard::EMPTY;
        }
        let occ = self.occupied();
        let sq = u.at.0;
        let targets = match u.troop().role {
            Role::King => attacks::king_attacks(sq),
            Role::Queen => attacks::queen_attacks(sq, occ),
            Role::Rook => attacks::rook_attacks(sq, occ),
            Role::Bishop => attacks::bishop_attacks(sq, occ),
            Role::Knight => attacks::knight_attacks(sq),
            Role::Pawn => {
                let color = self.color(u.owner);
                let mut bb = Bitboard::EMPTY;
                if let Some(one) = sq.forward(color)
                    && !occ.contains(one)
                {
                    bb = bb.with(one);
                    let start = sq.relative_to(color).rank() as u32 == 1;
                    if start
                        && let Some(two) = one.forward(color)
                        && !occ.contains(two)
                    {
                        bb = bb.with(two);
                    }
                }
                bb
            }
        };
        let mut bb = targets & !occ;
        if let Some(goal) = self.honor_goal(u) {
            let d = dist(sq, goal);
            bb = bb.into_iter().filter(|t| dist(*t, goal) < d).collect();
        }
        bb
    }

    fn attack_squares(&self, u: &Unit, knight: KnightAttack) -> Bitboard {
        let sq = u.at.0;
        let geo = match u.troop().role {
            Role::King | Role::Queen => attacks::king_attacks(sq),
            Role::Rook => attacks::rook_attacks(sq, Bitboard::FULL),
            Role::Bishop => attacks::bishop_attacks(sq, Bitboard::FULL),
            Role::Knight => match knight {
                KnightAttack::Leap => attacks::knight_attacks(sq),
                KnightAttack::Adjacent => attacks::king_attacks(sq),
            },
            Role::Pawn => attacks::pawn_attacks(self.color(u.owner), sq),
        };
        let mut bb = geo & self.side_bb(1 - u.owner);
        if let Some(goal) = self.honor_goal(u) {
            let d = dist(sq, goal);
            bb = bb.into_iter().filter(|t| dist(*t, goal) < d).collect();
        }
        bb
    }

    /// Whether a player's only troop on the board is their King.
    pub fn lone_king(&self, p: u8) -> bool {
        let mut it = self.units.iter().filter(|u| u.owner == p);
        matches!((it.next(), it.next()), (Some(u), None) if u.troop().role == Role::King)
    }

    /// The enemy King's square when this unit is a lone King on honor charge.
    fn honor_goal(&self, u: &Unit) -> Option<Square> {
        if u.troop().role != Role::King || !self.lone_king(u.owner) {
            return None;
        }
        self.units
            .iter()
            .find(|e| e.owner != u.owner && e.troop().role == Role::King)
            .map(|e| e.at.0)
    }

    // ------------------------------------------------------------ legal actions

    /// Every legal action of the player to act.
    pub fn legal(&self, opts: &LythariaOptions, out: &mut Vec<Action>) {
        out.clear();
        let Some(p) = self.player_to_act() else {
            return;
        };
        let side = &self.sides[p as usize];
        // In Battle Duels the obelisk counts round wins: no charging.
        if side.mana >= MANA_MAX && side.obelisk < OBELISK_MAX && self.duel.is_none() {
            out.push(Action::Charge);
        }
        if !self.stack.is_empty() {
            out.push(Action::Pass);
            self.cast_actions(p, true, out);
            self.harness_actions(p, out);
            return;
        }
        match self.stage {
            Stage::Place => {
                let mut seen: Vec<CardId> = side.to_place.clone();
                seen.dedup();
                out.extend(seen.into_iter().map(Action::Place));
            }
            Stage::Promote => {
                // Normal Chess: a Queen, Rook, Bishop or Knight, as in chess.
                let chess = self.chess.is_some();
                let mut opts_: Vec<CardId> = side
                    .army
                    .iter()
                    .copied()
                    .filter(|c| {
                        let r = troop_of(*c).role;
                        r != Role::King && !(chess && r == Role::Pawn)
                    })
                    .collect();
                opts_.sort();
                opts_.dedup();
                out.extend(opts_.into_iter().map(Action::Promote));
            }
            Stage::Effects => {
                self.ability_actions(p, AbilityPhase::Effects, out);
                out.push(Action::End);
            }
            Stage::Draw => {
                let mut hand = side.hand.clone();
                hand.sort();
                hand.dedup();
                out.extend(hand.into_iter().map(Action::Discard));
                out.push(Action::Keep);
                self.cast_actions(p, true, out);
            }
            Stage::Main if self.chess.is_some() => self.chess_actions(out),
            Stage::Main if self.duel.is_some() => self.duel_main_actions(p, out),
            Stage::Main => self.main_actions(p, opts, out),
            Stage::Pick => out.extend(self.pick_options(p).into_iter().map(Action::Pick)),
            Stage::Choose => out.extend(self.choose_options(p).into_iter().map(Action::Place)),
            Stage::RollOff | Stage::Shuffle | Stage::TieBreak | Stage::Lot => {}
        }
    }

    fn hand_distinct(&self, p: u8) -> Vec<CardId> {
        let mut hand = self.sides[p as usize].hand.clone();
        hand.sort();
        hand.dedup();
        hand
    }

    fn cast_actions(&self, p: u8, fast_only: bool, out: &mut Vec<Action>) {
        let side = &self.sides[p as usize];
        let budget = side.mana + side.spell_pool;
        for c in self.hand_distinct(p) {
            let Some(s) = c.card().spell() else { continue };
            if fast_only && s.speed != Speed::Fast {
                continue;
            }
            if s.cost > budget {
                continue;
            }
            if s.kind == SpellKind::Enchantment && side.enchants.len() >= ENCHANT_SPACES {
                continue;
            }
            match s.target {
                Target::Spell => {
                    if !self.stack.is_empty() {
                        out.push(Action::Cast(c, None));
                    }
                }
                t if t.is_single() => {
                    for u in &self.units {
                        let ok = match t {
                            Target::Friend => u.owner == p,
                            Target::Enemy => u.owner != p,
                            _ => true,
                        };
                        if ok {
                            out.push(Action::Cast(c, Some(u.at)));
                        }
                    }
                }
                _ => out.push(Action::Cast(c, None)),
            }
        }
    }

    fn harness_actions(&self, p: u8, out: &mut Vec<Action>) {
        if self.sides[p as usize].harnessed {
            return;
        }
        for c in self.hand_distinct(p) {
            if c.card().spell().is_some() {
                out.push(Action::Harness(c));
            }
        }
    }

    fn ability_actions(&self, p: u8, phase: AbilityPhase, out: &mut Vec<Action>) {
        for u in self.units.iter().filter(|u| u.owner == p) {
            if phase == AbilityPhase::Main && u.attacked {
                continue;
            }
            for (i, a) in u.troop().abilities.iter().enumerate() {
                if a.phase != phase || u.used & (1 << i) != 0 {
                    continue;
                }
                if a.target.is_single() {
                    for t in &self.units {
                        // "a friend within 2 squares", "an adjacent friend":
                        // never the troop itself (cards say "itself" for that).
                        if t.uid == u.uid {
                            continue;
                        }
                        let side_ok = match a.target {
                            Target::Friend => t.owner == p,
                            Target::Enemy => t.owner != p,
                            _ => true,
                        };
                        let range_ok = a.range.is_none_or(|r| dist(u.at.0, t.at.0) <= i32::from(r));
                        if side_ok && range_ok {
                            out.push(Action::Use(u.at, i as u8, Some(t.at)));
                        }
                    }
                } else {
                    out.push(Action::Use(u.at, i as u8, None));
                }
            }
        }
    }

    fn main_actions(&self, p: u8, opts: &LythariaOptions, out: &mut Vec<Action>) {
        let side = &self.sides[p as usize];
        let mut any_move = false;
        let mut any_attack = false;
        if self.moved.is_none() {
            for u in self.units.iter().filter(|u| u.owner == p) {
                for t in self.move_targets(u) {
                    out.push(Action::Move(u.at, Sq(t)));
                    any_move = true;
                }
            }
        }
        if !self.attacked {
            for u in self.units.iter().filter(|u| u.owner == p) {
                if self.moved.is_some_and(|m| m != u.uid) {
                    continue;
                }
                let main_used = u
                    .troop()
                    .abilities
                    .iter()
                    .enumerate()
                    .any(|(i, a)| a.phase == AbilityPhase::Main && u.used & (1 << i) != 0);
                if main_used {
                    continue;
                }
                for t in self.attack_squares(u, opts.knight_attack) {
                    out.push(Action::Attack(u.at, Sq(t)));
                    any_attack = true;
                }
            }
        }
        self.cast_actions(p, false, out);
        self.harness_actions(p, out);
        self.equip_actions(p, out);
        self.ability_actions(p, AbilityPhase::Main, out);
        let lone = self.lone_king(p);
        let engaged = self.moved.is_some() || (lone && self.attacked);
        if engaged || side.hold || !(any_move || (lone && any_attack)) {
            out.push(Action::End);
        }
    }

    /// Attaching and reforging equipment (the active player's main phase).
    fn equip_actions(&self, p: u8, out: &mut Vec<Action>) {
        let side = &self.sides[p as usize];
        let budget = side.mana + side.forge_pool;
        let hand = self.hand_distinct(p);
        for c in &hand {
            let Some(eq) = c.card().equipment() else {
                continue;
            };
            out.push(Action::Reforge(*c, None));
            for u in self.units.iter().filter(|u| u.owner == p) {
                if u.troop().kind != Kind::Humanoid {
                    continue;
                }
                if u.equipment
                    .iter()
                    .any(|e| e.card().equipment().map(|x| x.slot) == Some(eq.slot))
                {
                    continue;
                }
                let usable = match side.forge_uid {
                    Some(uid) if uid != u.uid => side.mana,
                    _ => budget,
                };
                if eq.cost <= usable {
                    out.push(Action::Equip(*c, u.at));
                }
            }
        }
        for u in self.units.iter().filter(|u| u.owner == p) {
            if side.forge_uid.is_some_and(|f| f != u.uid) {
                continue;
            }
            let mut eqs = u.equipment.clone();
            eqs.sort();
            eqs.dedup();
            for e in eqs {
                out.push(Action::Reforge(e, Some(u.at)));
            }
        }
    }

    /// Battle Duels main phase: no moving; either troop may attack the other
    /// (once per turn, not after a main ability); spells, equipment and
    /// abilities as in the full game; the turn may end at any time.
    fn duel_main_actions(&self, p: u8, out: &mut Vec<Action>) {
        if !self.attacked {
            for u in self.units.iter().filter(|u| u.owner == p) {
                let main_used = u
                    .troop()
                    .abilities
                    .iter()
                    .enumerate()
                    .any(|(i, a)| a.phase == AbilityPhase::Main && u.used & (1 << i) != 0);
                if main_used {
                    continue;
                }
                for e in self.units.iter().filter(|e| e.owner != p) {
                    out.push(Action::Attack(u.at, e.at));
                }
            }
        }
        self.cast_actions(p, false, out);
        self.harness_actions(p, out);
        self.equip_actions(p, out);
        self.ability_actions(p, AbilityPhase::Main, out);
        out.push(Action::End);
    }

    // ------------------------------------------------------------ applying

    /// Whether the action's data fits this state: the cards and troops it
    /// names are where it says (legality is [`State::legal`]'s business).
    fn fits(&self, a: &Action) -> bool {
        match a {
            Action::Cast(c, _) => {
                let p = self.player_to_act().unwrap_or(self.active);
                c.card().spell().is_some() && self.sides[p as usize].hand.contains(c)
            }
            Action::Equip(_, at) | Action::Reforge(_, Some(at)) => self.idx_at(at.0).is_some(),
            Action::Use(sq, i, _) => self
                .unit_at(sq.0)
                .is_some_and(|u| u.troop().abilities.get(*i as usize).is_some()),
            _ => true,
        }
    }

    /// Plays `a` as [`State::play`] does and returns the notes of what
    /// happened (empty when it did not fit).
    pub fn play_noting(&mut self, a: &Action, opts: &LythariaOptions) -> Vec<Note> {
        self.journal = Journal(Some(Vec::new()));
        self.play(a, opts);
        std::mem::take(&mut self.journal).0.unwrap_or_default()
    }

    fn noting(&self) -> bool {
        self.journal.0.is_some()
    }

    fn note(&mut self, n: Note) {
        if let Some(v) = &mut self.journal.0 {
            v.push(n);
        }
    }

    /// Plays a legal action (or chance outcome). Returns false, changing
    /// nothing, when the action's data does not fit this state.
    pub fn play(&mut self, a: &Action, opts: &LythariaOptions) -> bool {
        if !self.fits(a) {
            return false;
        }
        if let Some(p) = self.player_to_act() {
            let side = &mut self.sides[p as usize];
            if !matches!(a, Action::Cast(..) | Action::Harness(_) | Action::Charge) {
                side.spell_pool = 0;
            }
            if !matches!(a, Action::Reforge(..) | Action::Equip(..) | Action::Charge) {
                side.forge_pool = 0;
                side.forge_uid = None;
            }
        }
        match a {
            Action::RollOff(x, y) => {
                if x == y {
                    return true;
                }
                let winner = if x > y { 0 } else { 1 };
                match self.stage {
                    Stage::RollOff => {
                        self.first = winner;
                        self.stage = Stage::Shuffle;
                        self.active = 0;
                    }
                    _ => {
                        self.outcome = Some(Outcome::win(Team(winner), EndReason::Points));
                    }
                }
            }
            Action::Shuffle(p, perm) => {
                let deck = &mut self.sides[*p as usize].deck;
                let old = deck.clone();
                *deck = perm
                    .iter()
                    .filter_map(|&i| old.get(i as usize).copied())
                    .collect();
                if *p == 0 {
                    self.active = 1;
                } else {
                    self.begin_setup(opts);
                }
            }
            Action::Die(n) => {
                if let Some(top) = self.stack.last_mut() {
                    top.roll = Some(*n);
                }
                self.resolve_stack(opts);
            }
            Action::Place(c) if matches!(self.stage, Stage::Choose | Stage::Lot) => {
                self.duel_choose(*c, opts);
            }
            Action::Pick(c) => self.duel_pick(*c, opts),
            Action::Move(from, to) | Action::Attack(from, to) if self.chess.is_some() => {
                self.chess_move(*from, *to, opts);
            }
            Action::Promote(c) if self.chess.is_some() => self.chess_promote(*c, opts),
            Action::Place(c) => {
                let p = self.active;
                let side = &mut self.sides[p as usize];
                if let Some(i) = side.to_place.iter().position(|x| x == c) {
                    side.to_place.remove(i);
                }
                self.place_pawn(p, *c, opts);
                self.auto_place(opts);
            }
            Action::Move(from, to) => {
                if let Some(i) = self.idx_at(from.0) {
                    self.units[i].at = *to;
                    let uid = self.units[i].uid;
                    self.moved = Some(uid);
                    // A troop held up only by an adjacency aura (Thane Orvik's
                    // +1 Def) dies when the move takes it out of the aura.
                    self.reap(opts);
                    if self.outcome.is_none()
                        && let Some(i) = self.idx_uid(uid)
                    {
                        self.after_arrival(i, opts);
                    }
                }
            }
            Action::Attack(from, to) => self.attack(from.0, to.0, opts),
            Action::Promote(c) => {
                if let Some(i) = self.promoting.and_then(|u| self.idx_uid(u)) {
                    let u = &mut self.units[i];
                    let owner = u.owner as usize;
                    u.copy = Some(*c);
                    u.face_up = true;
                    u.damage = 0;
                    u.mods.clear();
                    let eq = std::mem::take(&mut u.equipment);
                    let uid = u.uid;
                    self.sides[owner].nether.extend(eq);
                    self.drop_enchants_on(uid);
                }
                self.promoting = None;
                self.stage = Stage::Main;
            }
            Action::Cast(c, t) => {
                let p = self.player_to_act().unwrap_or(self.active);
                let Some(spell) = c.card().spell() else {
                    return false;
                };
                let side = &mut self.sides[p as usize];
                let Some(i) = side.hand.iter().position(|x| x == c) else {
                    return false;
                };
                side.hand.remove(i);
                let from_pool = side.spell_pool.min(spell.cost);
                side.spell_pool -= from_pool;
                side.mana -= spell.cost - from_pool;
                let target =
                    t.and_then(|sq| self.unit_at(sq.0).map(|u| TargetRef { at: sq, uid: u.uid }));
                self.stack.push(Entry {
                    source: Source::Spell(*c),
                    controller: p,
                    target,
                    roll: None,
                });
                self.priority = 1 - p;
            }
            Action::Pass => {
                self.resolving = true;
                self.resolve_stack(opts);
            }
            Action::Harness(c) => {
                let p = self.player_to_act().unwrap_or(self.active);
                let side = &mut self.sides[p as usize];
                if let Some(i) = side.hand.iter().position(|x| x == c) {
                    side.hand.remove(i);
                    side.nether.push(*c);
                    side.harnessed = true;
                    side.spell_pool += c.card().spell().map_or(0, |s| s.quality);
                }
            }
            Action::Equip(c, at) => {
                let p = self.active as usize;
                let cost = c.card().equipment().map_or(0, |e| e.cost);
                let Some(ui) = self.idx_at(at.0) else {
                    return false;
                };
                let uid = self.units[ui].uid;
                let side = &mut self.sides[p];
                let pool = match side.forge_uid {
                    Some(f) if f != uid => 0,
                    _ => side.forge_pool,
                };
                let from_pool = pool.min(cost);
                side.forge_pool -= from_pool;
                side.mana -= cost - from_pool;
                if let Some(i) = side.hand.iter().position(|x| x == c) {
                    side.hand.remove(i);
                }
                let u = &mut self.units[ui];
                u.equipment.push(*c);
                u.face_up = true;
            }
            Action::Reforge(c, at) => {
                let p = self.active as usize;
                let value = c.card().equipment().map_or(0, |e| e.reforge);
                match at {
                    None => {
                        let side = &mut self.sides[p];
                        if let Some(i) = side.hand.iter().position(|x| x == c) {
                            side.hand.remove(i);
                        }
                    }
                    Some(sq) => {
                        let Some(ui) = self.idx_at(sq.0) else {
                            return false;
                        };
                        let u = &mut self.units[ui];
                        if let Some(i) = u.equipment.iter().position(|x| x == c) {
                            u.equipment.remove(i);
                        }
                        self.sides[p].forge_uid = Some(u.uid);
                        self.reap(opts);
                    }
                }
                let side = &mut self.sides[p];
                side.nether.push(*c);
                side.forge_pool += value;
            }
            Action::Use(sq, i, t) => {
                let Some(ui) = self.idx_at(sq.0) else {
                    return false;
                };
                let u = &mut self.units[ui];
                let Some(ab) = troop_of(u.identity()).abilities.get(*i as usize) else {
                    return false;
                };
                u.used |= 1 << i;
                if ab.reveal {
                    u.face_up = true;
                }
                let (uid, card, owner) = (u.uid, u.identity(), u.owner);
                let target = match ab.target {
                    Target::SelfTroop => Some(TargetRef { at: *sq, uid }),
                    _ => t.and_then(|s| self.unit_at(s.0).map(|x| TargetRef { at: s, uid: x.uid })),
                };
                self.stack.push(Entry {
                    source: Source::Ability {
                        uid,
                        card,
                        index: *i,
                    },
                    controller: owner,
                    target,
                    roll: None,
                });
                self.resolving = true;
                self.resolve_stack(opts);
            }
            Action::Discard(c) => {
                let side = &mut self.sides[self.active as usize];
                if let Some(i) = side.hand.iter().position(|x| x == c) {
                    side.hand.remove(i);
                    side.nether.push(*c);
                }
            }
            Action::Keep => {
                self.stage = Stage::Main;
            }
            Action::Charge => {
                if let Some(p) = self.player_to_act() {
                    let side = &mut self.sides[p as usize];
                    side.mana = 1;
                    side.obelisk = (side.obelisk + 1).min(OBELISK_MAX);
                }
            }
            Action::End => match self.stage {
                Stage::Effects => self.after_effects(),
                _ if self.duel.is_some() => self.duel_end_turn(opts),
                _ => {
                    let next = 1 - self.active;
                    self.begin_turn(next, opts);
                }
            },
        }
        self.advance(opts);
        true
    }

    fn begin_setup(&mut self, opts: &LythariaOptions) {
        if self.duel.is_some() {
            // Battle Duels: no board set-up; each player picks seven troops.
            self.stage = Stage::Pick;
            self.active = self.first;
            self.priority = self.first;
            return;
        }
        // Back rows, from each owner's left.
        for p in [self.first, 1 - self.first] {
            let color = self.color(p);
            let rank = if color == Color::White { 0 } else { 7 };
            let files: [usize; 8] = if color == Color::White {
                [0, 1, 2, 3, 4, 5, 6, 7]
            } else {
                [7, 6, 5, 4, 3, 2, 1, 0]
            };
            // Left to right: R N B Q K B N R; Player 2's castle is swapped
            // so the Queen stands on the dark square (d8).
            let order = if color == Color::White {
                [
                    Role::Rook,
                    Role::Knight,
                    Role::Bishop,
                    Role::Queen,
                    Role::King,
                    Role::Bishop,
                    Role::Knight,
                    Role::Rook,
                ]
            } else {
                [
                    Role::Rook,
                    Role::Knight,
                    Role::Bishop,
                    Role::King,
                    Role::Queen,
                    Role::Bishop,
                    Role::Knight,
                    Role::Rook,
                ]
            };
            let mut pool: Vec<CardId> = self.sides[p as usize]
                .army
                .iter()
                .copied()
                .filter(|c| troop_of(*c).role != Role::Pawn)
                .collect();
            for (k, role) in order.iter().enumerate() {
                if let Some(i) = pool.iter().position(|c| troop_of(*c).role == *role) {
                    let c = pool.remove(i);
                    let sq = Square::ALL[rank * 8 + files[k]];
                    self.spawn(p, c, sq, opts);
                }
            }
        }
        self.stage = Stage::Place;
        self.active = self.first;
        self.auto_place(opts);
    }

    fn spawn(&mut self, p: u8, c: CardId, sq: Square, opts: &LythariaOptions) {
        let uid = self.next_uid;
        self.next_uid += 1;
        self.units.push(Unit {
            at: Sq(sq),
            owner: p,
            card: c,
            copy: None,
            uid,
            face_up: !opts.face_down,
            damage: 0,
            equipment: Vec::new(),
            mods: Vec::new(),
            used: 0,
            attacked: false,
        });
    }

    /// The square of a player's `n`-th Pawn (from 0), placed from their left.
    fn pawn_square(&self, p: u8, n: usize) -> Square {
        let n = n.min(7);
        let (rank, file) = if self.color(p) == Color::White {
            (1, n)
        } else {
            (6, 7 - n)
        };
        Square::ALL[rank * 8 + file]
    }

    /// Where the next Pawn a player places lands (setup).
    pub fn next_pawn_square(&self, p: u8) -> Square {
        let left = self.sides[p as usize].to_place.len();
        self.pawn_square(p, 8usize.saturating_sub(left))
    }

    fn place_pawn(&mut self, p: u8, c: CardId, opts: &LythariaOptions) {
        // Called once the Pawn has left `to_place`.
        let n = 7usize.saturating_sub(self.sides[p as usize].to_place.len());
        let sq = self.pawn_square(p, n);
        // From the option, not from the troops already placed: Pawn Wars has
        // no back row to copy the face from.
        let face_down = opts.face_down;
        let uid = self.next_uid;
        self.next_uid += 1;
        self.units.push(Unit {
            at: Sq(sq),
            owner: p,
            card: c,
            copy: None,
            uid,
            face_up: !face_down,
            damage: 0,
            equipment: Vec::new(),
            mods: Vec::new(),
            used: 0,
            attacked: false,
        });
    }

    /// Places Pawns with no choice left, then moves on to the next player or
    /// the first turn.
    fn auto_place(&mut self, opts: &LythariaOptions) {
        loop {
            let p = self.active;
            let side = &self.sides[p as usize];
            let mut distinct = side.to_place.clone();
            distinct.dedup();
            match distinct.len() {
                0 => {
                    if p == self.first {
                        self.active = 1 - self.first;
                        continue;
                    }
                    self.begin_turn(self.first, opts);
                    return;
                }
                1 => {
                    let c = distinct[0];
                    self.sides[p as usize].to_place.pop();
                    self.place_pawn(p, c, opts);
                }
                _ => return,
            }
        }
    }

    fn begin_turn(&mut self, p: u8, opts: &LythariaOptions) {
        self.active = p;
        self.priority = p;
        self.turn += 1;
        self.moved = None;
        self.attacked = false;
        self.stage = Stage::Effects;
        if self.chess.is_some() {
            // Normal Chess has no phases: the turn is one chess move.
            self.stage = Stage::Main;
            self.chess_turn_start();
            if self.outcome.is_none() && opts.turn_limit > 0 && self.turn > opts.turn_limit {
                self.end_by_limit(opts);
            }
            return;
        }
        let turn = self.turn;
        self.note(Note::Turn { player: p, turn });
        for u in &mut self.units {
            u.used = 0;
            u.attacked = false;
            u.mods.retain(|m| m.until > turn);
        }
        for (seat, side) in self.sides.iter_mut().enumerate() {
            side.harnessed = false;
            // Harnessed mana "must be used immediately … any unused mana is
            // lost": also a responder's pool left over from the last turn.
            side.spell_pool = 0;
            side.hold = false;
            let (keep, gone): (Vec<Enchant>, Vec<Enchant>) = std::mem::take(&mut side.enchants)
                .into_iter()
                .partition(|e| e.until.is_none_or(|u| u > turn));
            side.enchants = keep;
            side.nether.extend(gone.iter().map(|e| e.card));
            if let Some(v) = &mut self.journal.0 {
                v.extend(gone.iter().map(|e| Note::Expired {
                    player: seat as u8,
                    card: e.card,
                }));
            }
        }
        self.reap(opts);
        if self.outcome.is_none() && opts.turn_limit > 0 && self.turn > opts.turn_limit {
            self.end_by_limit(opts);
        }
    }

    fn end_by_limit(&mut self, opts: &LythariaOptions) {
        match opts.mode {
            Mode::PawnWars => self.pawn_wars_result(),
            Mode::Duel => {
                // The match stops: more round wins takes it.
                let (a, b) = (self.sides[0].points, self.sides[1].points);
                self.outcome = Some(if a == b {
                    Outcome::draw(EndReason::NoProgress)
                } else {
                    Outcome::win(Team(if a > b { 0 } else { 1 }), EndReason::Points)
                });
            }
            Mode::Full | Mode::Chess => {
                self.outcome = Some(Outcome::draw(EndReason::NoProgress));
            }
        }
    }

    /// The effects phase is over: the mana phase (no mana or draw phase in
    /// Battle Duels: mana and hand are filled at each round's start).
    fn after_effects(&mut self) {
        if self.duel.is_some() {
            self.stage = Stage::Main;
        } else {
            self.mana_phase();
        }
    }

    fn mana_phase(&mut self) {
        let p = self.active;
        let gain = self.sides[p as usize].obelisk + self.income(p);
        let side = &mut self.sides[p as usize];
        let was = side.mana;
        side.mana = (side.mana + gain).clamp(0, MANA_MAX);
        let (change, total) = (side.mana - was, side.mana);
        self.note(Note::Mana {
            player: p,
            change,
            total,
            cause: "mana-phase",
        });
        self.stage = Stage::Draw;
    }

    /// Whether an effects ability can still be used (one with a target).
    fn has_effect_options(&self) -> bool {
        let mut out = Vec::new();
        self.ability_actions(self.active, AbilityPhase::Effects, &mut out);
        !out.is_empty()
    }

    /// Runs the steps that need no decision.
    fn advance(&mut self, _opts: &LythariaOptions) {
        loop {
            if self.outcome.is_some() || !self.stack.is_empty() {
                return;
            }
            if self.duel_round_over() {
                self.finish_round(_opts);
                continue;
            }
            match self.stage {
                Stage::Effects => {
                    if self.has_effect_options() {
                        return;
                    }
                    self.after_effects();
                }
                Stage::Choose => {
                    let options = self.choose_options(self.active);
                    match options.as_slice() {
                        [only] => self.duel_choose(*only, _opts),
                        _ => return,
                    }
                }
                Stage::Draw => {
                    let side = &mut self.sides[self.active as usize];
                    if side.deck.is_empty() {
                        self.stage = Stage::Main;
                    } else if side.hand.len() < HAND_LIMIT {
                        if let Some(c) = side.deck.pop() {
                            side.hand.push(c);
                            self.note(Note::Drew {
                                player: self.active,
                                cards: vec![c],
                            });
                        }
                        self.stage = Stage::Main;
                    } else {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// After a troop arrives on a square (move or won attack): promotion or
    /// Pawn Wars scoring on the far rank.
    fn after_arrival(&mut self, i: usize, opts: &LythariaOptions) {
        let u = &self.units[i];
        if u.troop().role != Role::Pawn || u.copy.is_some() {
            return;
        }
        let far = u.at.0.relative_to(self.color(u.owner)).rank() as u32 == 7;
        if !far {
            return;
        }
        if opts.mode == Mode::PawnWars {
            let u = self.units.remove(i);
            let side = &mut self.sides[u.owner as usize];
            side.points += 1;
            side.crypt.push(u.card);
            let points = side.points;
            if self.noting() {
                self.note(Note::Scored {
                    unit: u.clone(),
                    points,
                });
            }
            let side = &mut self.sides[u.owner as usize];
            side.nether.extend(u.equipment.iter().copied());
            self.drop_enchants_on(u.uid);
            self.check_end(opts);
        } else {
            self.promoting = Some(u.uid);
            self.stage = Stage::Promote;
        }
    }

    fn attack(&mut self, from: Square, to: Square, opts: &LythariaOptions) {
        let (Some(ai), Some(di)) = (self.idx_at(from), self.idx_at(to)) else {
            return;
        };
        self.attacked = true;
        let (a, d) = (&self.units[ai], &self.units[di]);
        let (sa, sd) = (self.stats(a), self.stats(d));
        let reduce = |dmg: i32, kind: crate::cards::DamageType, s: &Stats| {
            let r = match kind {
                crate::cards::DamageType::Physical => s.guard,
                crate::cards::DamageType::Magic => s.ward,
            };
            (dmg - r).max(0)
        };
        let to_def = reduce(sa.att, a.troop().damage, &sd);
        let to_att = reduce(sd.att, d.troop().damage, &sa);
        let (a_uid, d_uid) = (a.uid, d.uid);
        {
            let a = &mut self.units[ai];
            a.attacked = true;
            a.face_up = true;
            a.damage += to_att;
        }
        {
            let d = &mut self.units[di];
            d.face_up = true;
            d.damage += to_def;
        }
        if self.noting() {
            self.note(Note::Fight {
                attacker: self.units[ai].clone(),
                defender: self.units[di].clone(),
                dealt: to_def,
                taken: to_att,
            });
        }
        let mut died = self.remove_dead();
        // "If an attack is successful the defender is removed from the board
        // and the attacking troop occupies the defender's square", also when
        // that kill ends the game; the result is taken once the attacker has
        // arrived.
        if self.idx_uid(d_uid).is_none()
            && let Some(ai) = self.idx_uid(a_uid)
        {
            self.units[ai].at = Sq(to);
            if self.duel.is_none() {
                // Taking the square may leave an aura (reading 32).
                died |= self.remove_dead();
                // A Pawn Wars Pawn arriving on the far rank scores before the
                // result is taken; in the full game a Pawn promotes only if
                // play goes on.
                if let Some(ai) = self.idx_uid(a_uid)
                    && (opts.mode == Mode::PawnWars || self.both_kings_stand())
                {
                    self.after_arrival(ai, opts);
                }
            }
        }
        if died {
            self.check_end(opts);
        }
    }

    /// Whether each side still has its King on the board.
    fn both_kings_stand(&self) -> bool {
        [0, 1].iter().all(|&p| {
            self.units
                .iter()
                .any(|u| u.owner == p && u.troop().role == Role::King)
        })
    }

    fn drop_enchants_on(&mut self, uid: u32) {
        for side in &mut self.sides {
            let (gone, keep): (Vec<Enchant>, Vec<Enchant>) = std::mem::take(&mut side.enchants)
                .into_iter()
                .partition(|e| e.target == Some(uid));
            side.enchants = keep;
            side.nether.extend(gone.into_iter().map(|e| e.card));
        }
    }

    /// Removes every troop whose damage reached its Def and, if any died,
    /// takes the result if the game is over.
    fn reap(&mut self, opts: &LythariaOptions) {
        if self.remove_dead() {
            self.check_end(opts);
        }
    }

    /// Removes every troop whose damage reached its Def, again and again,
    /// since a death may take an aura that held others up (reading 32);
    /// says whether any died.
    fn remove_dead(&mut self) -> bool {
        let mut any = false;
        loop {
            let dead: Vec<u32> = self
                .units
                .iter()
                .filter(|u| u.damage >= self.stats(u).def)
                .map(|u| u.uid)
                .collect();
            if dead.is_empty() {
                return any;
            }
            any = true;
            for uid in dead {
                let Some(i) = self.idx_uid(uid) else {
                    continue;
                };
                let u = self.units.remove(i);
                if self.noting() {
                    self.note(Note::Died { unit: u.clone() });
                }
                let t = u.troop();
                let owner = u.owner as usize;
                self.sides[1 - owner].kills += t.power;
                self.sides[owner].crypt.push(u.card);
                self.sides[owner].nether.extend(u.equipment.iter().copied());
                self.drop_enchants_on(u.uid);
                if self.promoting == Some(u.uid) {
                    self.promoting = None;
                    self.stage = Stage::Main;
                }
            }
        }
    }

    fn check_end(&mut self, opts: &LythariaOptions) {
        if self.outcome.is_some() || self.stage == Stage::TieBreak {
            return;
        }
        if self.duel.is_some() || self.chess.is_some() {
            // Battle Duels score rounds (see `finish_round`); Normal Chess
            // ends by checkmate and the chess draws.
            return;
        }
        if opts.mode == Mode::PawnWars {
            let has = |p: u8| self.units.iter().any(|u| u.owner == p);
            if !has(0) || !has(1) {
                self.pawn_wars_result();
            }
            return;
        }
        let king = |p: u8| {
            self.units
                .iter()
                .any(|u| u.owner == p && u.troop().role == Role::King)
        };
        match (king(0), king(1)) {
            (true, true) => {}
            (true, false) => self.outcome = Some(Outcome::win(Team(0), EndReason::KingCaptured)),
            (false, true) => self.outcome = Some(Outcome::win(Team(1), EndReason::KingCaptured)),
            (false, false) => {
                let board = |p: u8| -> i32 {
                    self.units
                        .iter()
                        .filter(|u| u.owner == p)
                        .map(|u| u.troop().power)
                        .sum()
                };
                let mut keys = Vec::new();
                if !self.units.is_empty() {
                    keys.push((board(0), board(1)));
                }
                keys.push((self.sides[0].kills, self.sides[1].kills));
                // The lower army power score wins: compare negated.
                keys.push((-self.sides[0].power, -self.sides[1].power));
                self.decide(&keys);
            }
        }
    }

    fn decide(&mut self, keys: &[(i32, i32)]) {
        for (a, b) in keys {
            if a != b {
                let w = if a > b { 0 } else { 1 };
                self.outcome = Some(Outcome::win(Team(w), EndReason::Points));
                return;
            }
        }
        self.stack.clear();
        self.stage = Stage::TieBreak;
    }

    fn pawn_wars_result(&mut self) {
        let keys = [
            (self.sides[0].points, self.sides[1].points),
            (self.sides[0].kills, self.sides[1].kills),
        ];
        for (a, b) in keys {
            if a != b {
                let w = if a > b { 0 } else { 1 };
                self.outcome = Some(Outcome::win(Team(w), EndReason::Points));
                return;
            }
        }
        self.outcome = Some(Outcome::draw(EndReason::Points));
    }

    // ------------------------------------------------------------ the stack

    /// Whether a stack entry's target left its square.
    pub fn fizzled(&self, e: &Entry) -> bool {
        match e.target {
            Some(t) => self.unit_at(t.at.0).is_none_or(|u| u.uid != t.uid),
            None => false,
        }
    }

    fn resolve_stack(&mut self, opts: &LythariaOptions) {
        while self.outcome.is_none() && self.stage != Stage::TieBreak {
            let Some(top) = self.stack.last() else { break };
            if self.pending_roll() {
                return;
            }
            let top = top.clone();
            self.stack.pop();
            self.resolve(&top, opts);
            self.reap(opts);
        }
        self.resolving = false;
        self.priority = self.active;
    }

    fn resolve(&mut self, e: &Entry, opts: &LythariaOptions) {
        let p = e.controller;
        let fizzled = self.fizzled(e);
        let (target_kind, effects, spell) = match &e.source {
            Source::Spell(c) => match c.card().spell() {
                Some(s) => (s.target, &s.effects, Some((*c, s))),
                None => return,
            },
            Source::Ability { card, index, .. } => {
                match troop_of(*card).abilities.get(*index as usize) {
                    Some(a) => (a.target, &a.effects, None),
                    None => return,
                }
            }
            Source::Hidden { .. } => return,
        };
        let to_nether = |s: &mut Self| {
            if let Some((c, _)) = spell {
                s.sides[p as usize].nether.push(c);
            }
        };
        if fizzled {
            self.note(Note::Fizzled(e.clone()));
            to_nether(self);
            return;
        }
        self.note(Note::Resolved(e.clone()));
        // The troops affected.
        let source_unit = match &e.source {
            Source::Ability { uid, .. } => self.idx_uid(*uid).map(|i| self.units[i].clone()),
            Source::Spell(_) | Source::Hidden { .. } => None,
        };
        let targets: Vec<u32> = match target_kind {
            Target::None | Target::Spell => Vec::new(),
            Target::SelfTroop | Target::Friend | Target::Enemy | Target::Any => {
                e.target.map(|t| t.uid).into_iter().collect()
            }
            Target::AllFriends => self
                .units
                .iter()
                .filter(|u| u.owner == p)
                .map(|u| u.uid)
                .collect(),
            Target::AllEnemies => self
                .units
                .iter()
                .filter(|u| u.owner != p)
                .map(|u| u.uid)
                .collect(),
            Target::AdjacentFriends | Target::AdjacentEnemies => match &source_unit {
                Some(s) => self
                    .units
                    .iter()
                    .filter(|u| {
                        dist(u.at.0, s.at.0) == 1
                            && (u.owner == p) == (target_kind == Target::AdjacentFriends)
                    })
                    .map(|u| u.uid)
                    .collect(),
                None => Vec::new(),
            },
        };
        if let Some((c, s)) = spell
            && s.kind == SpellKind::Enchantment
        {
            let side = &mut self.sides[p as usize];
            if side.enchants.len() >= ENCHANT_SPACES {
                side.nether.push(c);
                return;
            }
            side.enchants.push(Enchant {
                card: c,
                target: if target_kind.is_single() {
                    targets.first().copied()
                } else {
                    None
                },
                until: (s.lasts > 0).then(|| self.turn + s.lasts),
            });
            return;
        }
        let damage_type = match &source_unit {
            Some(u) => u.troop().damage,
            None => crate::cards::DamageType::Magic,
        };
        let roll = e.roll.unwrap_or(0);
        for f in effects.iter() {
            if let Roll::AtLeast(k) = f.roll
                && roll < k
            {
                continue;
            }
            let amount = f.amount
                + if f.roll == Roll::Add {
                    i32::from(roll)
                } else {
                    0
                };
            self.apply_effect(p, f, amount, &targets, damage_type, opts);
        }
        to_nether(self);
    }

    fn meets(&self, u: &Unit, c: &Condition) -> bool {
        let t = u.troop();
        c.kind.is_none_or(|k| t.kind == k)
            && c.not_kind.is_none_or(|k| t.kind != k)
            && c.alignment.is_none_or(|a| t.alignment == a)
            && c.role.is_none_or(|r| t.role == r)
            && c.damaged.is_none_or(|d| (u.damage > 0) == d)
            && c.max_power.is_none_or(|m| t.power <= m)
    }

    fn apply_effect(
        &mut self,
        p: u8,
        f: &Effect,
        amount: i32,
        targets: &[u32],
        damage_type: crate::cards::DamageType,
        opts: &LythariaOptions,
    ) {
        let opp = 1 - p as usize;
        match f.op {
            Op::Draw => {
                let side = &mut self.sides[p as usize];
                let mut cards = Vec::new();
                for _ in 0..amount {
                    if let Some(c) = side.deck.pop() {
                        side.hand.push(c);
                        cards.push(c);
                    }
                }
                self.note(Note::Drew { player: p, cards });
                return;
            }
            Op::Mana => {
                let side = &mut self.sides[p as usize];
                let was = side.mana;
                side.mana = (side.mana + amount).min(MANA_MAX);
                let (change, total) = (side.mana - was, side.mana);
                self.note(Note::Mana {
                    player: p,
                    change,
                    total,
                    cause: "effect",
                });
                return;
            }
            Op::Drain => {
                let side = &mut self.sides[opp];
                let was = side.mana;
                side.mana = (side.mana - amount).max(0);
                let (change, total) = (side.mana - was, side.mana);
                self.note(Note::Mana {
                    player: opp as u8,
                    change,
                    total,
                    cause: "drain",
                });
                return;
            }
            Op::Hold => {
                self.sides[p as usize].hold = true;
                return;
            }
            Op::Counter => {
                // The entry just below (now the top) goes to the nether.
                if let Some(below) = self.stack.pop() {
                    if let Source::Spell(c) = below.source {
                        self.sides[below.controller as usize].nether.push(c);
                    }
                    self.note(Note::Countered {
                        entry: below,
                        by: p,
                    });
                }
                return;
            }
            Op::Income => return,
            _ => {}
        }
        for uid in targets {
            let Some(i) = self.idx_uid(*uid) else {
                continue;
            };
            if !f.condition.is_empty() {
                // Checking the condition shows the card.
                self.units[i].face_up = true;
                if !self.meets(&self.units[i], &f.condition) {
                    continue;
                }
            }
            let st = self.stats(&self.units[i]);
            let until = self.turn + f.turns;
            let u = &mut self.units[i];
            let note = match f.op {
                Op::Damage => {
                    let r = match damage_type {
                        crate::cards::DamageType::Physical => st.guard,
                        crate::cards::DamageType::Magic => st.ward,
                    };
                    let dealt = (amount - r).max(0);
                    u.damage += dealt;
                    Some(Note::Damage {
                        unit: u.clone(),
                        amount: dealt,
                    })
                }
                Op::Heal => {
                    let was = u.damage;
                    u.damage = (u.damage - amount).max(0);
                    Some(Note::Heal {
                        unit: u.clone(),
                        amount: was - u.damage,
                    })
                }
                Op::Att | Op::Def | Op::Ward | Op::Guard | Op::Root => {
                    u.mods.push(TempMod {
                        op: f.op,
                        amount,
                        until,
                    });
                    Some(Note::Modified {
                        unit: u.clone(),
                        op: f.op,
                        amount,
                        turns: f.turns,
                    })
                }
                Op::Destroy => {
                    u.damage = u.damage.max(st.def);
                    Some(Note::Destroyed { unit: u.clone() })
                }
                Op::Unequip => {
                    let eq = std::mem::take(&mut u.equipment);
                    let owner = u.owner as usize;
                    let note = Note::Unequipped {
                        unit: u.clone(),
                        cards: eq.clone(),
                    };
                    self.sides[owner].nether.extend(eq);
                    Some(note)
                }
                Op::Reveal => {
                    u.face_up = true;
                    None
                }
                _ => None,
            };
            if let Some(n) = note
                && self.noting()
            {
                self.note(n);
            }
        }
        let _ = opts;
    }
}

// ---------------------------------------------------------------- Battle Duels

impl State {
    fn duel_side(&self, p: u8) -> Option<&DuelSide> {
        self.duel.as_ref().and_then(|d| d.sides.get(p as usize))
    }

    /// The troops a player may still pick: their army less the picks so far.
    pub fn pick_options(&self, p: u8) -> Vec<CardId> {
        let Some(d) = self.duel_side(p) else {
            return Vec::new();
        };
        let mut pool = self.sides[p as usize].army.clone();
        for c in &d.picks {
            if let Some(i) = pool.iter().position(|x| x == c) {
                pool.remove(i);
            }
        }
        pool.sort();
        pool.dedup();
        pool
    }

    /// The troops a player may send into this round: picks not yet played.
    pub fn choose_options(&self, p: u8) -> Vec<CardId> {
        let mut left = self
            .duel_side(p)
            .map(|d| d.left.clone())
            .unwrap_or_default();
        left.sort();
        left.dedup();
        left
    }

    /// The sudden-death lot of the seat to draw: each distinct troop of
    /// their seven with how many of the seven it is.
    pub fn lot_outcomes(&self) -> Vec<(CardId, u32)> {
        let Some(d) = self.duel_side(self.active) else {
            return Vec::new();
        };
        let mut picks = d.picks.clone();
        picks.sort();
        let mut out: Vec<(CardId, u32)> = Vec::new();
        for c in picks {
            match out.last_mut() {
                Some((x, n)) if *x == c => *n += 1,
                _ => out.push((c, 1)),
            }
        }
        out
    }

    fn duel_pick(&mut self, c: CardId, opts: &LythariaOptions) {
        let p = self.active;
        let first = self.first;
        let Some(d) = self.duel.as_mut() else { return };
        let side = &mut d.sides[p as usize];
        side.picks.push(c);
        side.left.push(c);
        if side.picks.len() >= DUEL_PICKS {
            if p == first {
                self.active = 1 - p;
                self.priority = 1 - p;
            } else {
                self.start_round(1, opts);
            }
        }
    }

    /// A new round: full mana and a full hand for both, then the troops.
    fn start_round(&mut self, round: u32, _opts: &LythariaOptions) {
        let attacker = if round % 2 == 1 {
            self.first
        } else {
            1 - self.first
        };
        if let Some(d) = self.duel.as_mut() {
            d.round = round;
            d.turns = 0;
            d.attacker = attacker;
        }
        for p in 0..2u8 {
            let side = &mut self.sides[p as usize];
            let was = side.mana;
            side.mana = MANA_MAX;
            let mut drawn = Vec::new();
            while side.hand.len() < HAND_LIMIT {
                let Some(c) = side.deck.pop() else { break };
                side.hand.push(c);
                drawn.push(c);
            }
            if self.noting() {
                self.note(Note::Mana {
                    player: p,
                    change: MANA_MAX - was,
                    total: MANA_MAX,
                    cause: "round",
                });
                self.note(Note::Drew {
                    player: p,
                    cards: drawn,
                });
            }
            let side = &mut self.sides[p as usize];
            side.harnessed = false;
            side.spell_pool = 0;
            side.forge_pool = 0;
            side.forge_uid = None;
            side.hold = false;
        }
        self.moved = None;
        self.attacked = false;
        self.stack.clear();
        self.resolving = false;
        self.promoting = None;
        self.active = attacker;
        self.priority = attacker;
        self.stage = if round > DUEL_ROUNDS {
            Stage::Lot
        } else {
            Stage::Choose
        };
    }

    /// A player's troop for the round (chosen, or drawn by the lot).
    fn duel_choose(&mut self, c: CardId, opts: &LythariaOptions) {
        let p = self.active;
        let lot = self.stage == Stage::Lot;
        let Some(d) = self.duel.as_mut() else { return };
        let attacker = d.attacker;
        let side = &mut d.sides[p as usize];
        if !lot && let Some(i) = side.left.iter().position(|x| *x == c) {
            side.left.remove(i);
        }
        side.choice = Some(c);
        if p == attacker {
            self.active = 1 - p;
            self.priority = 1 - p;
        } else {
            self.deploy(opts);
        }
    }

    /// Both troops are shown and stand face to face; the attacker's turn.
    fn deploy(&mut self, opts: &LythariaOptions) {
        let Some(d) = self.duel.as_mut() else { return };
        let sudden = d.round > DUEL_ROUNDS;
        let attacker = d.attacker;
        let mut chosen = [None, None];
        for (p, side) in d.sides.iter_mut().enumerate() {
            let c = side.choice.take();
            if let Some(c) = c {
                if !sudden {
                    side.played.push(c);
                }
                side.fighting = Some(c);
            }
            chosen[p] = c;
        }
        for (p, c) in chosen.into_iter().enumerate() {
            let Some(c) = c else { continue };
            let p = p as u8;
            let at = if p == self.first {
                DUEL_SQUARES[0]
            } else {
                DUEL_SQUARES[1]
            };
            let uid = self.next_uid;
            self.next_uid += 1;
            self.units.push(Unit {
                at: Sq(at),
                owner: p,
                card: c,
                copy: None,
                uid,
                face_up: true,
                damage: 0,
                equipment: Vec::new(),
                mods: Vec::new(),
                used: 0,
                attacked: false,
            });
        }
        self.begin_turn(attacker, opts);
    }

    fn duel_end_turn(&mut self, opts: &LythariaOptions) {
        let Some(d) = self.duel.as_mut() else { return };
        d.turns += 1;
        if d.turns >= DUEL_ROUND_TURNS {
            self.finish_round(opts);
        } else {
            let next = 1 - self.active;
            self.begin_turn(next, opts);
        }
    }

    /// Whether a Battle Duel round just ended with a troop's death (once
    /// every spell in flight has resolved).
    fn duel_round_over(&self) -> bool {
        self.duel.is_some()
            && matches!(self.stage, Stage::Effects | Stage::Main | Stage::Draw)
            && self.stack.is_empty()
            && (0..2u8).any(|p| !self.units.iter().any(|u| u.owner == p))
    }

    /// Scores the round, clears the battlefield and starts the next round or
    /// ends the match.
    fn finish_round(&mut self, opts: &LythariaOptions) {
        let alive = |p: u8| self.units.iter().any(|u| u.owner == p);
        let (a0, a1) = (alive(0), alive(1));
        let Some(d) = self.duel.as_mut() else { return };
        let power = |c: Option<CardId>| c.map_or(0, |c| troop_of(c).power);
        let result = match (a0, a1) {
            (true, false) => Some(0u8),
            (false, true) => Some(1),
            (false, false) => {
                // "the player with the lower power score troop wins the round"
                let (p0, p1) = (power(d.sides[0].fighting), power(d.sides[1].fighting));
                match p0.cmp(&p1) {
                    std::cmp::Ordering::Less => Some(0),
                    std::cmp::Ordering::Greater => Some(1),
                    std::cmp::Ordering::Equal => None,
                }
            }
            (true, true) => None,
        };
        d.results.push(result.unwrap_or(2));
        for side in &mut d.sides {
            side.fighting = None;
        }
        let round = d.round;
        // The battlefield is cleared: survivors leave, equipment and every
        // enchantment go to their owners' nethers.
        for u in std::mem::take(&mut self.units) {
            self.sides[u.owner as usize]
                .nether
                .extend(u.equipment.iter().copied());
        }
        for side in &mut self.sides {
            let gone: Vec<CardId> = side.enchants.drain(..).map(|e| e.card).collect();
            side.nether.extend(gone);
        }
        self.stack.clear();
        self.resolving = false;
        if let Some(w) = result {
            self.sides[w as usize].points += 1;
        }
        let (w0, w1) = (self.sides[0].points, self.sides[1].points);
        self.note(Note::Round {
            round,
            result: result.unwrap_or(2),
            score: [w0, w1],
        });
        let win = |w: u8| Some(Outcome::win(Team(w), EndReason::Points));
        if w0 >= DUEL_WINS || w1 >= DUEL_WINS {
            self.outcome = win(if w0 > w1 { 0 } else { 1 });
        } else if round > DUEL_ROUNDS {
            // Sudden death: the first round won takes the match.
            match result {
                Some(w) => self.outcome = win(w),
                None => self.start_round(round + 1, opts),
            }
        } else if round == DUEL_ROUNDS && w0 != w1 {
            self.outcome = win(if w0 > w1 { 0 } else { 1 });
        } else {
            self.start_round(round + 1, opts);
        }
    }
}

// ---------------------------------------------------------------- Normal Chess

fn chess_role(r: Role) -> tabula_chess::Role {
    match r {
        Role::King => tabula_chess::Role::King,
        Role::Queen => tabula_chess::Role::Queen,
        Role::Rook => tabula_chess::Role::Rook,
        Role::Knight => tabula_chess::Role::Knight,
        Role::Bishop => tabula_chess::Role::Bishop,
        Role::Pawn => tabula_chess::Role::Pawn,
    }
}

impl State {
    /// The chess position of a Normal Chess game: the troops' roles, the
    /// side to move, and the rest of the FEN from [`ChessPlay`].
    pub fn chess_position(&self) -> tabula_chess::Position {
        let mut setup = tabula_chess::Setup::empty();
        for u in &self.units {
            setup.board.set_piece_at(
                u.at.0,
                tabula_chess::Piece::new(self.color(u.owner), chess_role(u.troop().role)),
            );
        }
        setup.turn = self.color(self.active);
        if let Some(c) = &self.chess {
            setup.castling = tabula_chess::CastlingRights::from_fen(&c.castling)
                .unwrap_or(tabula_chess::CastlingRights::NONE);
            setup.ep_square = c.ep.map(|s| s.0);
            setup.halfmove_clock = c.halfmove;
            setup.fullmove_number = c.fullmove;
        }
        tabula_chess::Position::from_setup_unchecked(setup)
    }

    /// Every chess move as an action: captures (en passant too) with `x`,
    /// castling as the King's two-square step; the promotion piece is chosen
    /// afterwards with `promote <card>`.
    fn chess_actions(&self, out: &mut Vec<Action>) {
        let pos = self.chess_position();
        pos.for_each_legal_move(|m| {
            let (from, to) = (Sq(m.from()), Sq(m.to()));
            let capture =
                m.is_en_passant() || (!m.is_castle() && pos.board().piece_at(m.to()).is_some());
            let a = if capture {
                Action::Attack(from, to)
            } else {
                Action::Move(from, to)
            };
            if !out.contains(&a) {
                out.push(a);
            }
        });
    }

    fn chess_find(
        &self,
        from: Square,
        to: Square,
        role: Option<Role>,
    ) -> Option<tabula_chess::Move> {
        let pos = self.chess_position();
        let want = role.map(chess_role);
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && (want.is_none() || m.promotion() == want))
    }

    fn chess_move(&mut self, from: Sq, to: Sq, opts: &LythariaOptions) {
        let Some(m) = self.chess_find(from.0, to.0, None) else {
            return;
        };
        if m.is_promotion() {
            if let Some(c) = self.chess.as_mut() {
                c.pending = Some([from, to]);
            }
            self.promoting = self.unit_at(from.0).map(|u| u.uid);
            self.stage = Stage::Promote;
            return;
        }
        self.chess_apply(m, None, opts);
    }

    fn chess_promote(&mut self, card: CardId, opts: &LythariaOptions) {
        let Some([from, to]) = self.chess.as_ref().and_then(|c| c.pending) else {
            return;
        };
        let role = troop_of(card).role;
        if let Some(m) = self.chess_find(from.0, to.0, Some(role)) {
            self.chess_apply(m, Some(card), opts);
        }
    }

    /// Removes the troop on a square as captured.
    fn capture_at(&mut self, sq: Square) {
        if let Some(i) = self.idx_at(sq) {
            let u = self.units.remove(i);
            if self.noting() {
                self.note(Note::Captured { unit: u.clone() });
            }
            let owner = u.owner as usize;
            self.sides[1 - owner].kills += u.troop().power;
            self.sides[owner].crypt.push(u.card);
            self.sides[owner].nether.extend(u.equipment.iter().copied());
        }
    }

    fn relocate(&mut self, from: Square, to: Square) -> Option<usize> {
        let i = self.idx_at(from)?;
        self.units[i].at = Sq(to);
        Some(i)
    }

    /// Plays a legal chess move: the troops follow the pieces, the FEN
    /// fields are updated, and the turn passes.
    fn chess_apply(
        &mut self,
        m: tabula_chess::Move,
        promotion: Option<CardId>,
        opts: &LythariaOptions,
    ) {
        let mut pos = self.chess_position();
        pos.play_unchecked(m);
        let mover = self.active;
        match m {
            tabula_chess::Move::Castle { king, rook } => {
                let side = tabula_chess::CastlingSide::from_squares(king, rook);
                let color = self.color(mover);
                let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
                let k = self.idx_at(king);
                let r = self.idx_at(rook);
                if let Some(k) = k {
                    self.units[k].at = Sq(king_to);
                }
                if let Some(r) = r {
                    self.units[r].at = Sq(rook_to);
                }
            }
            tabula_chess::Move::EnPassant { from, to } => {
                self.capture_at(Square::from_coords(to.file(), from.rank()));
                self.relocate(from, to);
            }
            tabula_chess::Move::Normal { from, to, .. } => {
                self.capture_at(to);
                if let Some(i) = self.relocate(from, to)
                    && let Some(c) = promotion
                {
                    let u = &mut self.units[i];
                    u.copy = Some(c);
                    u.face_up = true;
                }
            }
        }
        if let Some(c) = self.chess.as_mut() {
            c.castling = pos.castling_rights().to_string();
            c.ep = pos.ep_square().map(Sq);
            c.halfmove = pos.halfmove_clock();
            c.fullmove = pos.fullmove_number();
            c.pending = None;
        }
        self.promoting = None;
        self.begin_turn(1 - mover, opts);
    }

    /// At the start of a Normal Chess turn: record the position and end the
    /// game by checkmate, stalemate, dead position, threefold repetition or
    /// the fifty-move rule (as in `tabula-chess` with automatic draws).
    fn chess_turn_start(&mut self) {
        let pos = self.chess_position();
        let hash = pos.hash() as i64;
        let Some(c) = self.chess.as_mut() else { return };
        c.history.push(hash);
        let repeats = c.history.iter().filter(|h| **h == hash).count();
        self.outcome = if !pos.has_legal_moves() {
            Some(if pos.is_check() {
                let winner = 1 - self.active;
                Outcome::win(Team(winner), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            })
        } else if pos.is_insufficient_material() {
            Some(Outcome::draw(EndReason::InsufficientMaterial))
        } else if repeats >= 3 {
            Some(Outcome::draw(EndReason::Repetition))
        } else if pos.halfmove_clock() >= 100 {
            Some(Outcome::draw(EndReason::NoProgress))
        } else {
            None
        };
    }
}

/// The effects of a stack entry's source.
pub fn entry_effects(e: &Entry) -> &'static [Effect] {
    match &e.source {
        Source::Spell(c) => c.card().spell().map_or(&[], |s| &s.effects),
        Source::Ability { card, index, .. } => troop_of(*card)
            .abilities
            .get(*index as usize)
            .map_or(&[], |a| &a.effects),
        Source::Hidden { .. } => &[],
    }
}
