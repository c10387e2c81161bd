//! A slow reference for Lytharian Chess, written from the rule book
//! (`/work/shared/rules/lytharian-chess.txt`), the recorded readings of
//! `docs/rules/lytharia.md` and the card files with their documented effect
//! language, without the engine's rules code. It reads the card and deck TOML
//! files itself (the card data is part of the spec).
//!
//! Covered: setup (first player and bonus mana, shuffles as given by the
//! engine's chance, Pawn placement), the turn (effects phase, the mana phase
//! with obelisk and `income`, `charge`, the draw phase with `discard`/`keep`
//! and fast spells), troop moves and attacks, combat with passives, auras,
//! temporary effects, enchantments, equipment, guard and ward, face-down
//! troops, promotion, harnessing, casting with the stack, responses, effect
//! dice, fizzling and counter spells, every op of the effect language, playing
//! abilities, equipping and reforging, the honor charge, the end of the full
//! game and of Pawn Wars, the turn limit, Battle Duels (reading 30) and
//! Normal Chess (reading 31).

use std::collections::BTreeMap;

/// Whether casting is modelled (the differential test compares `cast`).
pub const CAST: bool = true;
/// Whether equipping and reforging are modelled.
pub const EQUIP: bool = true;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Sq(pub i8, pub i8);

impl Sq {
    pub fn text(self) -> String {
        format!("{}{}", (b'a' + self.0 as u8) as char, self.1 + 1)
    }
    pub fn parse(s: &str) -> Sq {
        let b = s.as_bytes();
        Sq((b[0] - b'a') as i8, (b[1] - b'1') as i8)
    }
    fn on(self) -> bool {
        (0..8).contains(&self.0) && (0..8).contains(&self.1)
    }
    fn dist(self, o: Sq) -> i8 {
        (self.0 - o.0).abs().max((self.1 - o.1).abs())
    }
}

#[allow(dead_code)]
#[derive(Clone, Debug)]
pub struct Ability {
    pub phase: String,
    pub reveal: bool,
    pub target: String,
    pub range: Option<i8>,
    pub effects: Vec<toml::Table>,
}

#[allow(dead_code)]
#[derive(Clone, Debug)]
pub struct Troop {
    pub alignment: String,
    pub kind: String,
    pub role: String,
    pub att: i32,
    pub def: i32,
    pub power: i32,
    pub magic: bool,
    pub abilities: Vec<Ability>,
}

#[derive(Clone, Debug)]
pub struct Spell {
    pub quality: i32,
    pub cost: i32,
    pub fast: bool,
    pub enchant: bool,
    pub target: String,
    pub lasts: u32,
    pub effects: Vec<toml::Table>,
}

#[derive(Clone, Debug)]
pub struct Equip {
    pub att: i32,
    pub def: i32,
    pub weapon: bool,
    pub cost: i32,
    pub reforge: i32,
}

#[derive(Clone, Debug)]
pub struct Db {
    pub troops: BTreeMap<String, Troop>,
    pub spells: BTreeMap<String, Spell>,
    pub equipment: BTreeMap<String, Equip>,
    /// list id -> (army, deck cards sorted by id with copies)
    pub lists: BTreeMap<String, (Vec<String>, Vec<String>)>,
}

fn int(t: &toml::Table, k: &str) -> i32 {
    t.get(k).and_then(|v| v.as_integer()).unwrap_or(0) as i32
}
fn st(t: &toml::Table, k: &str) -> String {
    t.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string()
}

impl Db {
    pub fn load() -> Db {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/");
        let read = |p: &str| -> toml::Table {
            std::fs::read_to_string(format!("{dir}{p}"))
                .unwrap()
                .parse()
                .unwrap()
        };
        let mut troops = BTreeMap::new();
        for t in read("cards/troops.toml")["troop"].as_array().unwrap() {
            let t = t.as_table().unwrap();
            let abilities = t
                .get("abilities")
                .and_then(|a| a.as_array())
                .map(|a| {
                    a.iter()
                        .map(|a| {
                            let a = a.as_table().unwrap();
                            Ability {
                                phase: st(a, "phase"),
                                reveal: a.get("reveal").and_then(|v| v.as_bool()).unwrap_or(true),
                                target: st(a, "target"),
                                range: a.get("range").and_then(|v| v.as_integer()).map(|r| r as i8),
                                effects: a["effects"]
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .map(|e| e.as_table().unwrap().clone())
                                    .collect(),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            troops.insert(
                st(t, "id"),
                Troop {
                    alignment: st(t, "alignment"),
                    kind: st(t, "kind"),
                    role: st(t, "role"),
                    att: int(t, "att"),
                    def: int(t, "def"),
                    power: int(t, "power"),
                    magic: st(t, "damage") == "magic",
                    abilities,
                },
            );
        }
        let mut spells = BTreeMap::new();
        for t in read("cards/spells.toml")["spell"].as_array().unwrap() {
            let t = t.as_table().unwrap();
            spells.insert(
                st(t, "id"),
                Spell {
                    quality: int(t, "quality"),
                    cost: int(t, "cost"),
                    fast: st(t, "speed") == "fast",
                    enchant: st(t, "kind") == "enchantment",
                    target: st(t, "target"),
                    lasts: int(t, "lasts") as u32,
                    effects: t["effects"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| e.as_table().unwrap().clone())
                        .collect(),
                },
            );
        }
        let mut equipment = BTreeMap::new();
        for t in read("cards/equipment.toml")["equipment"]
            .as_array()
            .unwrap()
        {
            let t = t.as_table().unwrap();
            equipment.insert(
                st(t, "id"),
                Equip {
                    att: int(t, "att"),
                    def: int(t, "def"),
                    weapon: st(t, "slot") == "weapon",
                    cost: int(t, "cost"),
                    reforge: int(t, "reforge"),
                },
            );
        }
        let mut lists = BTreeMap::new();
        for l in read("decks/starter.toml")["list"].as_array().unwrap() {
            let l = l.as_table().unwrap();
            let army: Vec<String> = l["army"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            let mut deck = Vec::new();
            for (id, n) in l["cards"].as_table().unwrap() {
                for _ in 0..n.as_integer().unwrap() {
                    deck.push(id.clone());
                }
            }
            deck.sort();
            lists.insert(st(l, "id"), (army, deck));
        }
        Db {
            troops,
            spells,
            equipment,
            lists,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Full,
    PawnWars,
    Duel,
    Chess,
}

/// Normal Chess bookkeeping (reading 31).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChessState {
    /// Castling rights as in FEN (`KQkq`, `-`).
    pub castling: String,
    pub ep: Option<Sq>,
    pub halfmove: u32,
    pub fullmove: u32,
    /// Position keys for repetition.
    pub history: Vec<String>,
    /// A promotion move waiting for its card (played when it is chosen).
    pub pending: Option<(Sq, Sq)>,
}

/// Battle Duels (reading 30): one player's seven and the round's choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DSide {
    pub picks: Vec<String>,
    pub left: Vec<String>,
    pub played: Vec<String>,
    pub choice: Option<String>,
    pub fighting: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Duel {
    pub round: u32,
    pub attacker: usize,
    /// Turns ended in this round.
    pub turns: u32,
    /// Each round's winner (`None`: a tie).
    pub results: Vec<Option<usize>>,
    pub sides: [DSide; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    RollOff,
    Shuffle,
    Place,
    Effects,
    Draw,
    Main,
    Promote,
    Pick,
    Choose,
    Lot,
    /// The end-of-game roll-off (rule 4's last tie-break).
    TieBreak,
    Over,
}

impl Stage {
    pub fn text(self) -> &'static str {
        match self {
            Stage::RollOff => "roll-off",
            Stage::Shuffle => "shuffle",
            Stage::Place => "place",
            Stage::Effects => "effects",
            Stage::Draw => "draw",
            Stage::Main => "main",
            Stage::Promote => "promote",
            Stage::Pick => "pick",
            Stage::Choose => "choose",
            Stage::Lot => "lot",
            Stage::TieBreak => "tie-break",
            Stage::Over => "over",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub at: Sq,
    pub owner: usize,
    pub card: String,
    pub face_up: bool,
    pub damage: i32,
    pub equipment: Vec<String>,
    /// Abilities (indices) used this turn.
    pub used: Vec<usize>,
    /// Identity (to tell a troop that left its square from a newcomer).
    pub uid: u32,
    /// A promoted Pawn: its own card (the physical card, for the crypt).
    pub pawn: Option<String>,
    /// Temporary effects: (op, amount, the turn at whose start it ends).
    pub mods: Vec<(String, i32, u32)>,
    /// Attacked this turn (then no main ability).
    pub attacked: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub list: String,
    pub army: Vec<String>,
    pub deck: Vec<String>,
    pub hand: Vec<String>,
    pub crypt: Vec<String>,
    pub nether: Vec<String>,
    pub mana: i32,
    pub obelisk: i32,
    pub power: i32,
    pub harnessed: bool,
    pub spell_pool: i32,
    pub kills: i32,
    pub points: i32,
    pub to_place: Vec<String>,
    /// `hold` this turn (may end the main phase without moving).
    pub hold: bool,
    /// Reforged mana for equipment (reading 14), and the troop it is tied
    /// to when it came from a troop's equipment.
    pub forge_pool: i32,
    pub forge_uid: Option<u32>,
    /// Enchantments in this player's spaces.
    pub enchants: Vec<Ench>,
}

/// An enchantment in its space: the card, the troop it is on, when it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ench {
    pub card: String,
    pub on: Option<u32>,
    pub until: Option<u32>,
}

/// A stack entry: a spell (by card) or an ability (troop uid, index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub spell: Option<String>,
    pub ability: Option<(u32, usize, String)>,
    pub controller: usize,
    pub target: Option<(Sq, u32)>,
}

/// The result: `Some(winner)` or `None` for a draw, with the reason text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub winner: Option<usize>,
    pub reason: String,
}

#[derive(Clone, Debug)]
pub struct RGame {
    pub db: std::rc::Rc<Db>,
    pub mode: Mode,
    pub knight_leap: bool,
    pub face_down: bool,
    pub turn_limit: u32,
    pub stage: Stage,
    pub active: usize,
    pub first: usize,
    pub turn: u32,
    pub attacked: bool,
    /// The square of the troop that made this turn's move.
    pub moved: Option<Sq>,
    pub sides: [Side; 2],
    pub units: Vec<Unit>,
    pub end: Option<End>,
    /// A roll-off is pending for this purpose.
    pub rolloff_for: Option<&'static str>,
    pub promoting: Option<Sq>,
    pub stack: Vec<Entry>,
    /// The seat holding priority while the stack is not empty.
    pub priority: usize,
    /// A die rolled for the top entry, not yet used.
    pub die: Option<i32>,
    pub next_uid: u32,
    pub resolving: bool,
    pub duel: Duel,
    pub chess: ChessState,
}

fn ceil_div(a: i32, b: i32) -> i32 {
    (a + b - 1) / b
}

impl RGame {
    pub fn new(
        db: std::rc::Rc<Db>,
        mode: Mode,
        decks: [&str; 2],
        face_down: bool,
        knight_leap: bool,
        turn_limit: u32,
    ) -> RGame {
        let mk = |id: &str| {
            let (army, deck) = db.lists[id].clone();
            // Pawn Wars (reading 27): the army is the list's 8 Pawns.
            let counted = if mode == Mode::PawnWars {
                &army[8..]
            } else {
                &army[..]
            };
            let power = counted.iter().map(|c| db.troops[c].power).sum();
            let to_place = if mode == Mode::Duel {
                vec![]
            } else {
                army[8..].to_vec()
            };
            Side {
                list: id.to_string(),
                army,
                deck,
                hand: vec![],
                crypt: vec![],
                nether: vec![],
                mana: 1,
                obelisk: 1,
                power,
                harnessed: false,
                spell_pool: 0,
                kills: 0,
                points: 0,
                to_place,
                hold: false,
                forge_pool: 0,
                forge_uid: None,
                enchants: vec![],
            }
        };
        let sides = [mk(decks[0]), mk(decks[1])];
        let mut g = RGame {
            db,
            mode,
            knight_leap,
            face_down,
            turn_limit,
            stage: Stage::Shuffle,
            active: 0,
            first: 0,
            turn: 0,
            attacked: false,
            moved: None,
            sides,
            units: vec![],
            end: None,
            rolloff_for: None,
            promoting: None,
            stack: vec![],
            priority: 0,
            die: None,
            next_uid: 0,
            resolving: false,
            duel: Duel::default(),
            chess: ChessState {
                castling: "KQkq".into(),
                fullmove: 1,
                ..Default::default()
            },
        };
        if mode == Mode::Chess {
            // "a standard game": seat 1 is White and moves first; no decks.
            for s in &mut g.sides {
                s.deck.clear();
                s.mana = 0;
            }
            g.first = 0;
            g.start_place();
            return g;
        }
        let (p0, p1) = (g.sides[0].power, g.sides[1].power);
        if p0 == p1 {
            g.stage = Stage::RollOff;
            g.rolloff_for = Some("first");
        } else {
            let low = if p0 < p1 { 0 } else { 1 };
            g.first = low;
            if mode != Mode::Duel {
                g.sides[low].mana = (1 + ceil_div((p0 - p1).abs(), 5)).min(15);
            }
        }
        g
    }

    pub fn is_chance(&self) -> bool {
        matches!(
            self.stage,
            Stage::RollOff | Stage::Shuffle | Stage::Lot | Stage::TieBreak
        ) || self.needs_die()
    }

    /// The seat to act: the priority holder while the stack is not empty.
    pub fn to_move(&self) -> usize {
        if self.stack.is_empty() {
            self.active
        } else {
            self.priority
        }
    }

    /// The stack is resolving and its top entry rolls a d6 first.
    fn needs_die(&self) -> bool {
        self.resolving
            && self.die.is_none()
            && self.stack.last().is_some_and(|e| {
                // An entry whose target left its square fizzles without
                // resolving, so no die is rolled for it.
                let fizzles = e
                    .target
                    .is_some_and(|(s, uid)| self.unit_at(s).map(|u| u.uid) != Some(uid));
                !fizzles && self.entry_effects(e).iter().any(|f| f.contains_key("roll"))
            })
    }

    fn entry_effects(&self, e: &Entry) -> Vec<toml::Table> {
        match (&e.spell, &e.ability) {
            (Some(c), _) => self.db.spells[c].effects.clone(),
            (_, Some((_, i, card))) => self.db.troops[card].abilities[*i].effects.clone(),
            _ => unreachable!(),
        }
    }

    fn stamp(&mut self) {
        self.next_uid += 1;
        self.units.last_mut().unwrap().uid = self.next_uid;
    }

    fn fwd(&self, owner: usize) -> i8 {
        if owner == self.first { 1 } else { -1 }
    }

    pub fn unit_at(&self, s: Sq) -> Option<&Unit> {
        self.units.iter().find(|u| u.at == s)
    }

    fn idx_at(&self, s: Sq) -> Option<usize> {
        self.units.iter().position(|u| u.at == s)
    }

    // ---------------------------------------------------------------- stats

    fn passive_sum(&self, u: &Unit, op: &str) -> i32 {
        let mut n = 0;
        for a in &self.db.troops[&u.card].abilities {
            if a.phase == "passive" && a.target == "self" {
                for e in &a.effects {
                    if st(e, "op") == op {
                        n += int(e, "amount");
                    }
                }
            }
        }
        for o in &self.units {
            if o.owner == u.owner && o.at != u.at && o.at.dist(u.at) == 1 {
                for a in &self.db.troops[&o.card].abilities {
                    if a.phase == "passive" && a.target == "adjacent-friends" {
                        for e in &a.effects {
                            if st(e, "op") == op {
                                n += int(e, "amount");
                            }
                        }
                    }
                }
            }
        }
        // Temporary effects.
        for (o, a, _) in &u.mods {
            if o == op {
                n += a;
            }
        }
        // Enchantments: on this troop, or on all friends / all enemies.
        for (side, s) in self.sides.iter().enumerate() {
            for en in &s.enchants {
                let sp = &self.db.spells[&en.card];
                let on = match sp.target.as_str() {
                    "all-friends" => u.owner == side,
                    "all-enemies" => u.owner != side,
                    "none" => false,
                    _ => en.on == Some(u.uid),
                };
                if on {
                    for e in &sp.effects {
                        if st(e, "op") == op {
                            n += int(e, "amount");
                        }
                    }
                }
            }
        }
        n
    }

    fn rooted(&self, u: &Unit) -> bool {
        if u.mods.iter().any(|m| m.0 == "root") {
            return true;
        }
        self.sides.iter().any(|s| {
            s.enchants.iter().any(|en| {
                en.on == Some(u.uid)
                    && self.db.spells[&en.card]
                        .effects
                        .iter()
                        .any(|e| st(e, "op") == "root")
            })
        })
    }

    pub fn att(&self, u: &Unit) -> i32 {
        let t = &self.db.troops[&u.card];
        let eq: i32 = u.equipment.iter().map(|e| self.db.equipment[e].att).sum();
        (t.att + eq + self.passive_sum(u, "att")).max(0)
    }

    pub fn def(&self, u: &Unit) -> i32 {
        let t = &self.db.troops[&u.card];
        let eq: i32 = u.equipment.iter().map(|e| self.db.equipment[e].def).sum();
        t.def + eq + self.passive_sum(u, "def")
    }

    fn hit(&self, from_magic: bool, amount: i32, to: &Unit) -> i32 {
        let cut = self.passive_sum(to, if from_magic { "ward" } else { "guard" });
        (amount - cut).max(0)
    }

    fn income(&self, side: usize) -> i32 {
        let mut n = 0;
        for u in self.units.iter().filter(|u| u.owner == side) {
            for a in &self.db.troops[&u.card].abilities {
                if a.phase == "passive" {
                    for e in &a.effects {
                        if st(e, "op") == "income" {
                            n += int(e, "amount");
                        }
                    }
                }
            }
        }
        for en in &self.sides[side].enchants {
            for e in &self.db.spells[&en.card].effects {
                if st(e, "op") == "income" {
                    n += int(e, "amount");
                }
            }
        }
        n
    }

    // ---------------------------------------------------------------- moves

    fn role(&self, u: &Unit) -> &str {
        &self.db.troops[&u.card].role
    }

    fn king(&self, side: usize) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.owner == side && self.role(u) == "K")
    }

    fn lone_king(&self, side: usize) -> bool {
        self.mode == Mode::Full
            && self.units.iter().filter(|u| u.owner == side).count() == 1
            && self.king(side).is_some()
    }

    fn dirs(role: &str) -> Vec<(i8, i8)> {
        let orth = vec![(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = vec![(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match role {
            "R" => orth,
            "B" => diag,
            _ => [orth, diag].concat(),
        }
    }

    const KN: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];

    fn move_targets(&self, u: &Unit) -> Vec<Sq> {
        let mut v = vec![];
        if self.rooted(u) {
            return v;
        }
        let empty = |s: Sq| s.on() && self.unit_at(s).is_none();
        let role = self.role(u).to_string();
        match role.as_str() {
            "K" => {
                for (dx, dy) in Self::dirs("K") {
                    let s = Sq(u.at.0 + dx, u.at.1 + dy);
                    if empty(s) {
                        v.push(s);
                    }
                }
            }
            "KN" => {
                for (dx, dy) in Self::KN {
                    let s = Sq(u.at.0 + dx, u.at.1 + dy);
                    if empty(s) {
                        v.push(s);
                    }
                }
            }
            "P" => {
                let f = self.fwd(u.owner);
                let s = Sq(u.at.0, u.at.1 + f);
                if empty(s) {
                    v.push(s);
                    let start = if f == 1 { 1 } else { 6 };
                    let s2 = Sq(u.at.0, u.at.1 + 2 * f);
                    if u.at.1 == start && empty(s2) {
                        v.push(s2);
                    }
                }
            }
            r => {
                for (dx, dy) in Self::dirs(r) {
                    let mut s = Sq(u.at.0 + dx, u.at.1 + dy);
                    while empty(s) {
                        v.push(s);
                        s = Sq(s.0 + dx, s.1 + dy);
                    }
                }
            }
        }
        if self.lone_king(u.owner)
            && let Some(k) = self.king(1 - u.owner)
        {
            let d = u.at.dist(k.at);
            v.retain(|s| s.dist(k.at) < d);
        }
        v
    }

    fn attack_targets(&self, u: &Unit) -> Vec<Sq> {
        let role = self.role(u).to_string();
        let cands: Vec<Sq> = match role.as_str() {
            "P" => {
                let f = self.fwd(u.owner);
                vec![Sq(u.at.0 - 1, u.at.1 + f), Sq(u.at.0 + 1, u.at.1 + f)]
            }
            "KN" if self.knight_leap => Self::KN
                .iter()
                .map(|(dx, dy)| Sq(u.at.0 + dx, u.at.1 + dy))
                .collect(),
            "KN" => Self::dirs("K")
                .iter()
                .map(|(dx, dy)| Sq(u.at.0 + dx, u.at.1 + dy))
                .collect(),
            r => Self::dirs(r)
                .iter()
                .map(|(dx, dy)| Sq(u.at.0 + dx, u.at.1 + dy))
                .collect(),
        };
        let mut v: Vec<Sq> = cands
            .into_iter()
            .filter(|s| s.on() && self.unit_at(*s).is_some_and(|o| o.owner != u.owner))
            .collect();
        if self.lone_king(u.owner)
            && let Some(k) = self.king(1 - u.owner)
        {
            let d = u.at.dist(k.at);
            v.retain(|s| s.dist(k.at) < d);
        }
        v
    }

    fn any_move(&self) -> bool {
        self.units
            .iter()
            .filter(|u| u.owner == self.active)
            .any(|u| !self.move_targets(u).is_empty())
    }

    /// Ability targets: `None` in the list means "no target square".
    fn ability_uses(&self, u: &Unit, phase: &str) -> Vec<String> {
        let mut v = vec![];
        for (i, a) in self.db.troops[&u.card].abilities.iter().enumerate() {
            if a.phase != phase || u.used.contains(&i) {
                continue;
            }
            let base = format!("use {} {i}", u.at.text());
            match a.target.as_str() {
                "none" | "self" | "adjacent-friends" | "adjacent-enemies" | "all-friends"
                | "all-enemies" => v.push(base),
                "friend" | "enemy" | "any" => {
                    for o in &self.units {
                        if o.at == u.at {
                            continue;
                        }
                        let ok_side = match a.target.as_str() {
                            "friend" => o.owner == u.owner,
                            "enemy" => o.owner != u.owner,
                            _ => true,
                        };
                        if ok_side && a.range.is_none_or(|r| o.at.dist(u.at) <= r) {
                            v.push(format!("{base} @{}", o.at.text()));
                        }
                    }
                }
                t => panic!("target {t}"),
            }
        }
        v
    }

    fn effects_uses(&self) -> Vec<String> {
        let mut v = vec![];
        for u in self.units.iter().filter(|u| u.owner == self.active) {
            v.extend(self.ability_uses(u, "effects"));
        }
        v
    }

    // ---------------------------------------------------------------- legal

    fn main_used(&self, u: &Unit) -> bool {
        let ab = &self.db.troops[&u.card].abilities;
        u.used.iter().any(|&i| ab[i].phase == "main")
    }

    /// `cast` actions for seat `p` (timing checked by the caller).
    fn casts(&self, p: usize, fast_only: bool) -> Vec<String> {
        let me = &self.sides[p];
        let mut v = vec![];
        let mut c: Vec<&String> = me
            .hand
            .iter()
            .filter(|c| self.db.spells.contains_key(*c))
            .collect();
        c.sort();
        c.dedup();
        for x in c {
            let sp = &self.db.spells[x];
            if (fast_only && !sp.fast) || sp.cost > me.mana + me.spell_pool {
                continue;
            }
            if sp.enchant && me.enchants.len() >= 3 {
                continue;
            }
            match sp.target.as_str() {
                "friend" | "enemy" | "any" => {
                    for o in &self.units {
                        let ok = match sp.target.as_str() {
                            "friend" => o.owner == p,
                            "enemy" => o.owner != p,
                            _ => true,
                        };
                        if ok {
                            v.push(format!("cast {x} @{}", o.at.text()));
                        }
                    }
                }
                "spell" => {
                    if !self.stack.is_empty() {
                        v.push(format!("cast {x}"));
                    }
                }
                _ => v.push(format!("cast {x}")),
            }
        }
        v
    }

    /// `equip` and `reforge` for the active player (main phase, empty stack).
    fn equips(&self) -> Vec<String> {
        let p = self.active;
        let me = &self.sides[p];
        let mut v = vec![];
        let mut c: Vec<&String> = me
            .hand
            .iter()
            .filter(|c| self.db.equipment.contains_key(*c))
            .collect();
        c.sort();
        c.dedup();
        for x in &c {
            v.push(format!("reforge {x}"));
        }
        for u in self.units.iter().filter(|u| u.owner == p) {
            // Mana reforged from a troop is tied to it (reading 14), so no
            // other troop's equipment can join that pool.
            if me.forge_uid.is_none_or(|x| x == u.uid) {
                for e in &u.equipment {
                    v.push(format!("reforge {e} @{}", u.at.text()));
                }
            }
            if self.db.troops[&u.card].kind != "humanoid" {
                continue;
            }
            let pool = if me.forge_uid.is_none_or(|x| x == u.uid) {
                me.forge_pool
            } else {
                0
            };
            for x in &c {
                let eq = &self.db.equipment[*x];
                let taken = u
                    .equipment
                    .iter()
                    .any(|e| self.db.equipment[e].weapon == eq.weapon);
                if !taken && eq.cost <= me.mana + pool {
                    v.push(format!("equip {x} @{}", u.at.text()));
                }
            }
        }
        v.sort();
        v.dedup();
        v
    }

    fn harnesses(&self, p: usize) -> Vec<String> {
        let me = &self.sides[p];
        let mut v = vec![];
        if !me.harnessed {
            let mut c: Vec<String> = me
                .hand
                .iter()
                .filter(|c| self.db.spells.contains_key(*c))
                .cloned()
                .collect();
            c.sort();
            c.dedup();
            for x in c {
                v.push(format!("harness {x}"));
            }
        }
        v
    }

    pub fn legal(&self) -> Vec<String> {
        let me = &self.sides[self.active];
        let mut v = vec![];
        if self.stage == Stage::Over || self.is_chance() {
            return v;
        }
        if !self.stack.is_empty() {
            let p = self.priority;
            v.push("pass".into());
            v.extend(self.casts(p, true));
            v.extend(self.harnesses(p));
            v.extend(self.charge());
            return v;
        }
        match self.stage {
            Stage::Over | Stage::RollOff | Stage::Shuffle | Stage::Lot | Stage::TieBreak => {}
            Stage::Pick => {
                let picks = &self.duel.sides[self.active].picks;
                let mut c: Vec<String> = me
                    .army
                    .iter()
                    .filter(|c| {
                        me.army.iter().filter(|x| x == c).count()
                            > picks.iter().filter(|x| x == c).count()
                    })
                    .cloned()
                    .collect();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("pick {x}"));
                }
            }
            Stage::Choose => {
                let mut c = self.duel.sides[self.active].left.clone();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("place {x}"));
                }
            }
            Stage::Main if self.mode == Mode::Chess => v.extend(self.c_legal()),
            Stage::Promote if self.mode == Mode::Chess => {
                let mut c: Vec<String> = me
                    .army
                    .iter()
                    .filter(|c| matches!(self.db.troops[*c].role.as_str(), "Q" | "R" | "B" | "KN"))
                    .cloned()
                    .collect();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("promote {x}"));
                }
            }
            Stage::Main if self.mode == Mode::Duel => {
                // Reading 30: no moves; one attack on the enemy troop
                // whatever the roles, not after a main ability; `end` at any
                // time; the obelisk counts wins and is never charged.
                for u in self.units.iter().filter(|u| u.owner == self.active) {
                    if !self.attacked && !self.main_used(u) {
                        for o in self.units.iter().filter(|o| o.owner != u.owner) {
                            v.push(format!("{}x{}", u.at.text(), o.at.text()));
                        }
                    }
                    if !self.main_used(u) && !u.attacked {
                        v.extend(self.ability_uses(u, "main"));
                    }
                }
                v.push("end".into());
                v.extend(self.harnesses(self.active));
                if CAST {
                    v.extend(self.casts(self.active, false));
                }
                if EQUIP {
                    v.extend(self.equips());
                }
            }
            Stage::Place => {
                let mut c = me.to_place.clone();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("place {x}"));
                }
            }
            Stage::Promote => {
                let mut c: Vec<String> = me
                    .army
                    .iter()
                    .filter(|c| self.db.troops[*c].role != "K")
                    .cloned()
                    .collect();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("promote {x}"));
                }
                // Reading 12: "whenever", also while a promotion waits.
                v.extend(self.charge());
            }
            Stage::Effects => {
                v.extend(self.effects_uses());
                v.push("end".into());
                v.extend(self.charge());
            }
            Stage::Draw => {
                let mut c = me.hand.clone();
                c.sort();
                c.dedup();
                for x in c {
                    v.push(format!("discard {x}"));
                }
                v.push("keep".into());
                v.extend(self.charge());
                if CAST {
                    v.extend(self.casts(self.active, true));
                }
            }
            Stage::Main => {
                let mine: Vec<&Unit> = self
                    .units
                    .iter()
                    .filter(|u| u.owner == self.active)
                    .collect();
                if self.moved.is_none() {
                    for u in &mine {
                        for s in self.move_targets(u) {
                            v.push(format!("{}-{}", u.at.text(), s.text()));
                        }
                    }
                }
                if !self.attacked {
                    for u in &mine {
                        if self.main_used(u) {
                            continue;
                        }
                        if self.moved.is_some_and(|m| m != u.at) {
                            continue;
                        }
                        for s in self.attack_targets(u) {
                            v.push(format!("{}x{}", u.at.text(), s.text()));
                        }
                    }
                }
                for u in &mine {
                    if !self.main_used(u) && !u.attacked {
                        v.extend(self.ability_uses(u, "main"));
                    }
                }
                let lone = self.lone_king(self.active);
                let can_end = if lone {
                    self.moved.is_some()
                        || self.attacked
                        || me.hold
                        || v.iter().all(|a| a.starts_with("use"))
                } else {
                    self.moved.is_some() || !self.any_move() || me.hold
                };
                if can_end {
                    v.push("end".into());
                }
                v.extend(self.harnesses(self.active));
                v.extend(self.charge());
                if CAST {
                    v.extend(self.casts(self.active, false));
                }
                if EQUIP {
                    v.extend(self.equips());
                }
            }
        }
        v
    }

    /// Reading 12: whenever the counter is 15 and the obelisk below 6.
    fn charge(&self) -> Option<String> {
        // While the stack is not empty, the priority holder (reading 12:
        // "whenever").
        let me = &self.sides[self.to_move()];
        (self.mode != Mode::Duel && me.mana == 15 && me.obelisk < 6).then(|| "charge".to_string())
    }
}

impl RGame {
    // ---------------------------------------------------------------- apply

    /// Applies an action text (the engine's canonical form).
    pub fn apply(&mut self, a: &str) {
        let w: Vec<&str> = a.split(' ').collect();
        // Reading 14: the reforge pool is emptied by any action other than
        // `reforge`, `equip`, `charge` of that player.
        if !matches!(
            w[0],
            "reforge" | "equip" | "charge" | "rolloff" | "shuffle" | "d6"
        ) {
            let p = self.to_move();
            self.sides[p].forge_pool = 0;
            self.sides[p].forge_uid = None;
        }
        // Reading 13: likewise the harnessed pool, but for `cast`,
        // `harness`, `charge`.
        if !matches!(
            w[0],
            "cast" | "harness" | "charge" | "rolloff" | "shuffle" | "d6"
        ) {
            let p = self.to_move();
            self.sides[p].spell_pool = 0;
        }
        match w[0] {
            "rolloff" => {
                let (x, y) = w[1].split_once('-').unwrap();
                let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
                if x != y {
                    self.rolled(if x > y { 0 } else { 1 });
                }
            }
            "shuffle" => {
                let s: usize = w[1].parse().unwrap();
                let order: Vec<usize> = w[2].split('.').map(|x| x.parse().unwrap()).collect();
                let old = self.sides[s].deck.clone();
                self.sides[s].deck = order.iter().map(|&i| old[i].clone()).collect();
                if s == 0 {
                    self.active = 1;
                } else if self.mode == Mode::Duel {
                    self.stage = Stage::Pick;
                    self.active = self.first;
                    self.priority = self.first;
                } else {
                    self.start_place();
                }
            }
            "pick" => {
                let p = self.active;
                let d = &mut self.duel.sides[p];
                d.picks.push(w[1].to_string());
                d.left.push(w[1].to_string());
                if d.picks.len() == 7 {
                    if p == self.first {
                        self.active = 1 - p;
                        self.priority = 1 - p;
                    } else {
                        self.start_round();
                    }
                }
            }
            "place" if self.mode == Mode::Duel => {
                self.duel_choose(w[1]);
            }
            "place" => {
                let side = self.active;
                let i = self.sides[side]
                    .to_place
                    .iter()
                    .position(|c| c == w[1])
                    .unwrap();
                let c = self.sides[side].to_place.remove(i);
                self.put_pawn(side, c);
                self.auto_place();
            }
            "promote" if self.mode == Mode::Chess => {
                let (f, t) = self.chess.pending.unwrap();
                self.chess_move(f, t);
                self.chess.pending = None;
                let i = self.idx_at(t).unwrap();
                let u = &mut self.units[i];
                if u.pawn.is_none() {
                    u.pawn = Some(u.card.clone());
                }
                u.card = w[1].to_string();
                u.face_up = true;
                self.chess_after_move();
            }
            "promote" => {
                let at = self.promoting.take().unwrap();
                let i = self.idx_at(at).unwrap();
                let eq = std::mem::take(&mut self.units[i].equipment);
                let owner = self.units[i].owner;
                self.sides[owner].nether.extend(eq);
                let uid = self.units[i].uid;
                self.drop_enchants(uid);
                let u = &mut self.units[i];
                if u.pawn.is_none() {
                    u.pawn = Some(u.card.clone());
                }
                u.card = w[1].to_string();
                u.damage = 0;
                u.face_up = true;
                u.mods.clear();
                self.stage = Stage::Main;
                self.deaths();
                self.check_end();
            }
            "end" => {
                self.sides[self.active].spell_pool = 0;
                if self.stage == Stage::Effects {
                    self.after_effects();
                } else {
                    self.next_turn();
                }
            }
            "keep" => {
                self.stage = Stage::Main;
            }
            "discard" => {
                let s = &mut self.sides[self.active];
                let i = s.hand.iter().position(|c| c == w[1]).unwrap();
                let c = s.hand.remove(i);
                s.nether.push(c);
                if s.hand.len() <= 9 {
                    self.draw(self.active);
                    self.stage = Stage::Main;
                }
            }
            "use" => {
                let side = self.active;
                self.sides[side].spell_pool = 0;
                let at = Sq::parse(w[1]);
                let i: usize = w[2].parse().unwrap();
                let ui = self.idx_at(at).unwrap();
                self.units[ui].used.push(i);
                let card = self.units[ui].card.clone();
                let ab = self.db.troops[&card].abilities[i].clone();
                if ab.reveal {
                    self.units[ui].face_up = true;
                }
                let target = w.get(3).map(|t| {
                    let s = Sq::parse(&t[1..]);
                    (s, self.unit_at(s).unwrap().uid)
                });
                let uid = self.units[ui].uid;
                self.stack.push(Entry {
                    spell: None,
                    ability: Some((uid, i, card)),
                    controller: side,
                    target,
                });
                // Abilities are not spells: they resolve at once.
                self.resolving = true;
                self.run_stack();
            }
            "cast" => {
                let p = self.to_move();
                let c = w[1].to_string();
                let sp = self.db.spells[&c].clone();
                let s = &mut self.sides[p];
                let from_pool = s.spell_pool.min(sp.cost);
                s.spell_pool -= from_pool;
                s.mana -= sp.cost - from_pool;
                let i = s.hand.iter().position(|x| *x == c).unwrap();
                s.hand.remove(i);
                let target = w.get(2).map(|t| {
                    let s = Sq::parse(&t[1..]);
                    (s, self.unit_at(s).unwrap().uid)
                });
                self.stack.push(Entry {
                    spell: Some(c),
                    ability: None,
                    controller: p,
                    target,
                });
                self.priority = 1 - p;
            }
            "pass" => {
                let p = self.priority;
                self.sides[p].spell_pool = 0;
                self.resolving = true;
                self.run_stack();
            }
            "d6" => {
                self.die = Some(w[1].parse().unwrap());
                self.run_stack();
            }
            "equip" => {
                let p = self.active;
                let c = w[1].to_string();
                let at = Sq::parse(&w[2][1..]);
                let ui = self.idx_at(at).unwrap();
                let uid = self.units[ui].uid;
                let cost = self.db.equipment[&c].cost;
                let s = &mut self.sides[p];
                let pool = if s.forge_uid.is_none_or(|x| x == uid) {
                    s.forge_pool
                } else {
                    0
                };
                let from_pool = pool.min(cost);
                s.forge_pool -= from_pool;
                s.mana -= cost - from_pool;
                let i = s.hand.iter().position(|x| *x == c).unwrap();
                s.hand.remove(i);
                self.units[ui].equipment.push(c);
                // Attaching shows the kind, so the troop turns face up.
                self.units[ui].face_up = true;
            }
            "reforge" => {
                let p = self.active;
                let c = w[1].to_string();
                let value = self.db.equipment[&c].reforge;
                if let Some(t) = w.get(2) {
                    let ui = self.idx_at(Sq::parse(&t[1..])).unwrap();
                    let eq = &mut self.units[ui].equipment;
                    let i = eq.iter().position(|x| *x == c).unwrap();
                    eq.remove(i);
                    self.sides[p].forge_uid = Some(self.units[ui].uid);
                } else {
                    let s = &mut self.sides[p];
                    let i = s.hand.iter().position(|x| *x == c).unwrap();
                    s.hand.remove(i);
                }
                let s = &mut self.sides[p];
                s.nether.push(c);
                s.forge_pool += value;
                // Armour removed may leave damage at or above Def.
                self.deaths();
                self.check_end();
            }
            "charge" => {
                let s = &mut self.sides[self.to_move()];
                s.mana = 1;
                s.obelisk += 1;
            }
            "harness" => {
                let q = self.db.spells[w[1]].quality;
                let p = self.to_move();
                let s = &mut self.sides[p];
                let i = s.hand.iter().position(|c| c == w[1]).unwrap();
                let c = s.hand.remove(i);
                s.nether.push(c);
                s.harnessed = true;
                s.spell_pool += q;
            }
            mv if self.mode == Mode::Chess => {
                let (f, t) = mv.split_once(['-', 'x']).unwrap();
                self.chess_move(Sq::parse(f), Sq::parse(t));
            }
            mv => {
                self.sides[self.active].spell_pool = 0;
                if let Some((f, t)) = mv.split_once('-') {
                    let (f, t) = (Sq::parse(f), Sq::parse(t));
                    let i = self.idx_at(f).unwrap();
                    self.units[i].at = t;
                    self.moved = Some(t);
                    self.arrived(t);
                } else if let Some((f, t)) = mv.split_once('x') {
                    self.attack(Sq::parse(f), Sq::parse(t));
                } else {
                    panic!("reference does not play {a}");
                }
                if self.stage == Stage::Main {
                    self.deaths();
                    self.check_end();
                }
            }
        }
    }

    /// Enchantments on this troop go to their caster's nether.
    fn drop_enchants(&mut self, uid: u32) {
        self.drop_enchants_of(&[uid]);
    }

    /// Enchantments on any of these troops, in each side's space order.
    fn drop_enchants_of(&mut self, uids: &[u32]) {
        for s in &mut self.sides {
            let (gone, keep): (Vec<Ench>, Vec<Ench>) = s
                .enchants
                .drain(..)
                .partition(|e| e.on.is_some_and(|u| uids.contains(&u)));
            s.enchants = keep;
            s.nether.extend(gone.into_iter().map(|e| e.card));
        }
    }

    /// The start of a turn: temporary effects and enchantments run out.
    fn expire(&mut self) {
        let t = self.turn;
        for u in &mut self.units {
            u.mods.retain(|m| m.2 > t);
        }
        for s in &mut self.sides {
            let (gone, keep): (Vec<Ench>, Vec<Ench>) = s
                .enchants
                .drain(..)
                .partition(|e| e.until.is_some_and(|u| u <= t));
            s.enchants = keep;
            s.nether.extend(gone.into_iter().map(|e| e.card));
        }
        self.deaths();
        self.check_end();
    }

    /// Resolves the stack from the top, stopping for a die when needed.
    fn run_stack(&mut self) {
        while let Some(e) = self.stack.last().cloned() {
            if self.stage == Stage::Over {
                break;
            }
            if self.needs_die() {
                return;
            }
            self.stack.pop();
            let die = self.die.take();
            self.resolve(e, die);
            self.deaths();
            self.check_end();
        }
        self.resolving = false;
        self.die = None;
        self.priority = self.active;
        if self.stage == Stage::Effects && self.effects_uses().is_empty() {
            self.after_effects();
        } else if self.stage == Stage::Draw && self.sides[self.active].hand.len() <= 9 {
            self.draw(self.active);
            self.stage = Stage::Main;
        }
    }

    fn condition_holds(&mut self, uid: u32, c: &toml::Table) -> bool {
        let i = self.units.iter().position(|u| u.uid == uid).unwrap();
        // Checking the condition shows the card (reading 3).
        self.units[i].face_up = true;
        let u = &self.units[i];
        let t = &self.db.troops[&u.card];
        let ok_kind = c.get("kind").is_none_or(|k| k.as_str() == Some(&t.kind));
        let ok_not = c
            .get("not_kind")
            .is_none_or(|k| k.as_str() != Some(&t.kind));
        let ok_al = c
            .get("alignment")
            .is_none_or(|k| k.as_str() == Some(&t.alignment));
        let ok_role = c.get("role").is_none_or(|k| k.as_str() == Some(&t.role));
        let ok_dmg = c
            .get("damaged")
            .is_none_or(|k| k.as_bool() == Some(u.damage > 0));
        let ok_pow = c
            .get("max_power")
            .is_none_or(|k| t.power as i64 <= k.as_integer().unwrap());
        ok_kind && ok_not && ok_al && ok_role && ok_dmg && ok_pow
    }

    fn resolve(&mut self, e: Entry, die: Option<i32>) {
        let me = e.controller;
        let (target_kind, effects, magic, src_uid) = match (&e.spell, &e.ability) {
            (Some(c), _) => {
                let sp = &self.db.spells[c];
                (sp.target.clone(), sp.effects.clone(), true, None)
            }
            (_, Some((uid, i, card))) => {
                let a = &self.db.troops[card].abilities[*i];
                (
                    a.target.clone(),
                    a.effects.clone(),
                    self.db.troops[card].magic,
                    Some(*uid),
                )
            }
            _ => unreachable!(),
        };
        let to_nether = |g: &mut RGame| {
            if let Some(c) = &e.spell {
                g.sides[me].nether.push(c.clone());
            }
        };
        // Fizzling (reading 17).
        if let Some((s, uid)) = e.target
            && self.unit_at(s).map(|u| u.uid) != Some(uid)
        {
            to_nether(self);
            return;
        }
        if target_kind == "spell" {
            if let Some(below) = self.stack.pop()
                && let Some(c) = below.spell
            {
                self.sides[below.controller].nether.push(c);
            }
            to_nether(self);
            return;
        }
        if let Some(c) = &e.spell
            && self.db.spells[c].enchant
        {
            let sp = &self.db.spells[c];
            if self.sides[me].enchants.len() >= 3 {
                to_nether(self);
                return;
            }
            let until = (sp.lasts > 0).then_some(self.turn + sp.lasts);
            self.sides[me].enchants.push(Ench {
                card: c.clone(),
                on: e.target.map(|t| t.1),
                until,
            });
            return;
        }
        let src_at = src_uid.and_then(|uid| self.units.iter().find(|u| u.uid == uid).map(|u| u.at));
        let recips: Vec<u32> = match target_kind.as_str() {
            "self" => src_uid.into_iter().collect(),
            "friend" | "enemy" | "any" => e.target.map(|t| t.1).into_iter().collect(),
            "all-friends" => self
                .units
                .iter()
                .filter(|u| u.owner == me)
                .map(|u| u.uid)
                .collect(),
            "all-enemies" => self
                .units
                .iter()
                .filter(|u| u.owner != me)
                .map(|u| u.uid)
                .collect(),
            "adjacent-friends" | "adjacent-enemies" => {
                let friends = target_kind == "adjacent-friends";
                match src_at {
                    Some(at) => self
                        .units
                        .iter()
                        .filter(|u| u.at.dist(at) == 1 && (u.owner == me) == friends)
                        .map(|u| u.uid)
                        .collect(),
                    None => vec![],
                }
            }
            _ => vec![],
        };
        for f in &effects {
            let op = st(f, "op");
            let mut amount = int(f, "amount");
            match f.get("roll").and_then(|r| r.as_str()) {
                Some("add") => amount += die.unwrap(),
                Some(r) => {
                    let n: i32 = r.trim_end_matches('+').parse().unwrap();
                    if die.unwrap() < n {
                        continue;
                    }
                }
                None => {}
            }
            match op.as_str() {
                "draw" => {
                    for _ in 0..amount {
                        self.draw(me);
                    }
                    continue;
                }
                "mana" => {
                    let s = &mut self.sides[me];
                    s.mana = (s.mana + amount).min(15);
                    continue;
                }
                "drain" => {
                    let s = &mut self.sides[1 - me];
                    s.mana = (s.mana - amount).max(0);
                    continue;
                }
                "hold" => {
                    self.sides[me].hold = true;
                    continue;
                }
                _ => {}
            }
            for &uid in &recips {
                let Some(i) = self.units.iter().position(|u| u.uid == uid) else {
                    continue;
                };
                if let Some(c) = f.get("condition").and_then(|c| c.as_table())
                    && !self.condition_holds(uid, c)
                {
                    continue;
                }
                match op.as_str() {
                    "damage" => {
                        let d = self.hit(magic, amount, &self.units[i]);
                        self.units[i].damage += d;
                    }
                    "heal" => {
                        let u = &mut self.units[i];
                        u.damage = (u.damage - amount).max(0);
                    }
                    "att" | "def" | "ward" | "guard" | "root" => {
                        let until = self.turn + int(f, "turns") as u32;
                        self.units[i].mods.push((op.clone(), amount, until));
                    }
                    "destroy" => {
                        self.kill(vec![i]);
                    }
                    "unequip" => {
                        let eq = std::mem::take(&mut self.units[i].equipment);
                        let o = self.units[i].owner;
                        self.sides[o].nether.extend(eq);
                    }
                    "reveal" => self.units[i].face_up = true,
                    o => panic!("op {o}"),
                }
            }
        }
        to_nether(self);
    }

    // ------------------------------------------------------------ chess

    /// Pseudo-legal chess moves of `side`: (from, to, capture).
    fn c_pseudo(&self, side: usize) -> Vec<(Sq, Sq, bool)> {
        let mut v = vec![];
        let at = |s: Sq| self.unit_at(s);
        for u in self.units.iter().filter(|u| u.owner == side) {
            let f = u.at;
            let role = self.role(u).to_string();
            let push = |t: Sq, v: &mut Vec<(Sq, Sq, bool)>| -> bool {
                if !t.on() {
                    return false;
                }
                match at(t) {
                    None => {
                        v.push((f, t, false));
                        true
                    }
                    Some(o) => {
                        if o.owner != side {
                            v.push((f, t, true));
                        }
                        false
                    }
                }
            };
            match role.as_str() {
                "K" => {
                    for (dx, dy) in Self::dirs("K") {
                        push(Sq(f.0 + dx, f.1 + dy), &mut v);
                    }
                }
                "KN" => {
                    for (dx, dy) in Self::KN {
                        push(Sq(f.0 + dx, f.1 + dy), &mut v);
                    }
                }
                "P" => {
                    let d = self.fwd(side);
                    let one = Sq(f.0, f.1 + d);
                    if one.on() && at(one).is_none() {
                        v.push((f, one, false));
                        let start = if d == 1 { 1 } else { 6 };
                        let two = Sq(f.0, f.1 + 2 * d);
                        if f.1 == start && at(two).is_none() {
                            v.push((f, two, false));
                        }
                    }
                    for dx in [-1, 1] {
                        let t = Sq(f.0 + dx, f.1 + d);
                        if !t.on() {
                            continue;
                        }
                        if at(t).is_some_and(|o| o.owner != side) || self.chess.ep == Some(t) {
                            v.push((f, t, true));
                        }
                    }
                }
                r => {
                    for (dx, dy) in Self::dirs(r) {
                        let mut t = Sq(f.0 + dx, f.1 + dy);
                        while push(t, &mut v) {
                            t = Sq(t.0 + dx, t.1 + dy);
                        }
                    }
                }
            }
        }
        v
    }

    /// Whether `side` attacks square `s`.
    fn c_attacks(&self, side: usize, s: Sq) -> bool {
        self.units.iter().filter(|u| u.owner == side).any(|u| {
            let (dx, dy) = (s.0 - u.at.0, s.1 - u.at.1);
            match self.role(u) {
                "P" => dy == self.fwd(side) && dx.abs() == 1,
                "KN" => (dx.abs(), dy.abs()) == (1, 2) || (dx.abs(), dy.abs()) == (2, 1),
                "K" => dx.abs().max(dy.abs()) == 1,
                r => {
                    let ok = match r {
                        "R" => dx == 0 || dy == 0,
                        "B" => dx.abs() == dy.abs(),
                        _ => dx == 0 || dy == 0 || dx.abs() == dy.abs(),
                    };
                    if !ok || (dx, dy) == (0, 0) {
                        return false;
                    }
                    let (sx, sy) = (dx.signum(), dy.signum());
                    let mut t = Sq(u.at.0 + sx, u.at.1 + sy);
                    while t != s {
                        if self.unit_at(t).is_some() {
                            return false;
                        }
                        t = Sq(t.0 + sx, t.1 + sy);
                    }
                    true
                }
            }
        })
    }

    fn c_in_check(&self, side: usize) -> bool {
        self.king(side)
            .is_some_and(|k| self.c_attacks(1 - side, k.at))
    }

    /// Plays a chess move on the board only (no bookkeeping): the captured
    /// troop, if any.
    fn c_board_move(&mut self, f: Sq, t: Sq) -> Option<Unit> {
        let i = self.idx_at(f).unwrap();
        let pawn = self.role(&self.units[i]) == "P";
        let mut victim = None;
        if let Some(j) = self.idx_at(t) {
            victim = Some(self.units.remove(j));
        } else if pawn && f.0 != t.0 {
            // En passant: the Pawn passed beside the square.
            let j = self.idx_at(Sq(t.0, f.1)).unwrap();
            victim = Some(self.units.remove(j));
        }
        let i = self.idx_at(f).unwrap();
        self.units[i].at = t;
        if self.role(&self.units[i]) == "K" && (t.0 - f.0).abs() == 2 {
            let (rf, rt) = if t.0 > f.0 { (7, 5) } else { (0, 3) };
            let r = self.idx_at(Sq(rf, f.1)).unwrap();
            self.units[r].at = Sq(rt, f.1);
        }
        victim
    }

    fn c_legal(&self) -> Vec<String> {
        let side = self.active;
        let mut v = vec![];
        for (f, t, cap) in self.c_pseudo(side) {
            let mut g = self.clone();
            g.c_board_move(f, t);
            if !g.c_in_check(side) {
                v.push(format!(
                    "{}{}{}",
                    f.text(),
                    if cap { "x" } else { "-" },
                    t.text()
                ));
            }
        }
        // Castling: the King's two-square step.
        let back = if side == self.first { 0 } else { 7 };
        let rights: Vec<char> = if side == self.first {
            vec!['K', 'Q']
        } else {
            vec!['k', 'q']
        };
        let e = Sq(4, back);
        if self
            .unit_at(e)
            .is_some_and(|u| u.owner == side && self.role(u) == "K")
            && !self.c_in_check(side)
        {
            for (r, (rook, pass, to, empty)) in rights
                .iter()
                .zip([(7, 5, 6, vec![5, 6]), (0, 3, 2, vec![1, 2, 3])])
            {
                let has_rook = self
                    .unit_at(Sq(rook, back))
                    .is_some_and(|u| u.owner == side && self.role(u) == "R");
                if self.chess.castling.contains(*r)
                    && has_rook
                    && empty.iter().all(|&x| self.unit_at(Sq(x, back)).is_none())
                    && !self.c_attacks(1 - side, Sq(pass, back))
                    && !self.c_attacks(1 - side, Sq(to, back))
                {
                    v.push(format!("{}-{}", e.text(), Sq(to, back).text()));
                }
            }
        }
        v
    }

    fn c_key(&self) -> String {
        let mut b: Vec<String> = self
            .units
            .iter()
            .map(|u| format!("{}{}{}", u.at.text(), u.owner, self.role(u)))
            .collect();
        b.sort();
        format!(
            "{} {} {} {:?}",
            b.join(","),
            self.active,
            self.chess.castling,
            self.chess.ep
        )
    }

    fn chess_move(&mut self, f: Sq, t: Sq) {
        let side = self.active;
        let i = self.idx_at(f).unwrap();
        let role = self.role(&self.units[i]).to_string();
        let far = if side == self.first { 7 } else { 0 };
        if role == "P" && t.1 == far && self.chess.pending.is_none() {
            // The move is played once the card is chosen.
            self.chess.pending = Some((f, t));
            self.stage = Stage::Promote;
            return;
        }
        let victim = self.c_board_move(f, t);
        let capture = victim.is_some();
        if let Some(u) = victim {
            // Captured: to its owner's crypt, with no combat; its power
            // counts as killed (reading 22).
            self.sides[1 - u.owner].kills += self.db.troops[&u.card].power;
            self.sides[u.owner].crypt.push(u.pawn.unwrap_or(u.card));
        }
        // Castling rights.
        let mut lose = vec![];
        let (kk, qq) = if side == self.first {
            ('K', 'Q')
        } else {
            ('k', 'q')
        };
        if role == "K" {
            lose.extend([kk, qq]);
        }
        for (sq, c) in [
            (Sq(7, 0), 'K'),
            (Sq(0, 0), 'Q'),
            (Sq(7, 7), 'k'),
            (Sq(0, 7), 'q'),
        ] {
            if f == sq || t == sq {
                lose.push(c);
            }
        }
        let mut c: String = self
            .chess
            .castling
            .chars()
            .filter(|x| !lose.contains(x) && *x != '-')
            .collect();
        if c.is_empty() {
            c = "-".into();
        }
        self.chess.castling = c;
        self.chess.ep = (role == "P" && (t.1 - f.1).abs() == 2).then_some(Sq(f.0, (f.1 + t.1) / 2));
        if role == "P" || capture {
            self.chess.halfmove = 0;
        } else {
            self.chess.halfmove += 1;
        }
        if side != self.first {
            self.chess.fullmove += 1;
        }
        if self.chess.pending.is_some() {
            return;
        }
        self.chess_after_move();
    }

    fn chess_after_move(&mut self) {
        self.stage = Stage::Main;
        self.active = 1 - self.active;
        self.priority = self.active;
        self.turn += 1;
        let key = self.c_key();
        self.chess.history.push(key.clone());
        if self.c_legal().is_empty() {
            if self.c_in_check(self.active) {
                self.finish(Some(1 - self.active), "checkmate");
            } else {
                self.finish(None, "stalemate");
            }
        } else if self.c_insufficient() {
            self.finish(None, "insufficient material");
        } else if self.chess.history.iter().filter(|k| **k == key).count() >= 3 {
            self.finish(None, "repetition");
        } else if self.chess.halfmove >= 100 || (self.turn_limit > 0 && self.turn > self.turn_limit)
        {
            // The fifty-move rule and the turn limit (the engine names both
            // "no-progress limit").
            self.finish(None, "no-progress limit");
        }
    }

    fn c_insufficient(&self) -> bool {
        let others: Vec<&Unit> = self.units.iter().filter(|u| self.role(u) != "K").collect();
        match others.len() {
            0 => true,
            1 => matches!(self.role(others[0]), "B" | "KN"),
            _ => {
                // Only Bishops, all on squares of one colour.
                others.iter().all(|u| self.role(u) == "B")
                    && others
                        .iter()
                        .all(|u| (u.at.0 + u.at.1) % 2 == (others[0].at.0 + others[0].at.1) % 2)
            }
        }
    }

    // ------------------------------------------------------------ duels

    fn start_round(&mut self) {
        let d = &mut self.duel;
        d.round += 1;
        d.turns = 0;
        d.attacker = if d.round == 1 {
            self.first
        } else {
            1 - d.attacker
        };
        for s in &mut self.sides {
            s.mana = 15;
            while s.hand.len() < 10 {
                let Some(c) = s.deck.pop() else { break };
                s.hand.push(c);
            }
            s.harnessed = false;
            s.spell_pool = 0;
            s.forge_pool = 0;
            s.forge_uid = None;
            s.hold = false;
        }
        self.moved = None;
        self.attacked = false;
        self.stack.clear();
        self.resolving = false;
        self.active = self.duel.attacker;
        self.priority = self.active;
        self.stage = if self.duel.round > 7 {
            Stage::Lot
        } else {
            Stage::Choose
        };
        self.auto_choose();
    }

    /// A forced last choice is made automatically.
    fn auto_choose(&mut self) {
        while self.stage == Stage::Choose {
            let mut c = self.duel.sides[self.active].left.clone();
            c.dedup();
            if c.len() != 1 {
                return;
            }
            self.duel_choose(&c[0]);
        }
    }

    fn duel_choose(&mut self, card: &str) {
        let p = self.active;
        let d = &mut self.duel.sides[p];
        if let Some(i) = d.left.iter().position(|c| c == card) {
            d.left.remove(i);
        }
        d.choice = Some(card.to_string());
        if p == self.duel.attacker {
            self.active = 1 - p;
            self.priority = 1 - p;
            self.auto_choose();
            return;
        }
        // Both chosen: face to face, the first player's troop on d4.
        for s in 0..2 {
            let d = &mut self.duel.sides[s];
            let c = d.choice.take().unwrap();
            // Sudden-death troops are drawn from the seven again: not
            // recorded as played.
            if self.duel.round <= 7 {
                d.played.push(c.clone());
            }
            d.fighting = Some(c.clone());
            let at = if s == self.first { Sq(3, 3) } else { Sq(3, 4) };
            self.units.push(Unit {
                at,
                owner: s,
                card: c,
                face_up: true,
                damage: 0,
                equipment: vec![],
                used: vec![],
                uid: 0,
                pawn: None,
                mods: vec![],
                attacked: false,
            });
            self.stamp();
        }
        // The attacker takes the first turn.
        self.active = 1 - self.duel.attacker;
        self.stage = Stage::Choose;
        self.next_turn();
    }

    fn score_round(&mut self, w: Option<usize>) {
        self.duel.results.push(w);
        if let Some(w) = w {
            self.sides[w].points += 1;
        }
        // Clear the battlefield: survivors leave, equipment and every
        // enchantment to their owners' nethers.
        for u in std::mem::take(&mut self.units) {
            self.sides[u.owner].nether.extend(u.equipment);
        }
        for s in &mut self.sides {
            let e: Vec<String> = s.enchants.drain(..).map(|e| e.card).collect();
            s.nether.extend(e);
        }
        for d in &mut self.duel.sides {
            d.fighting = None;
        }
        let pts = [self.sides[0].points, self.sides[1].points];
        if let Some(w) = (0..2).find(|&s| pts[s] >= 4) {
            self.finish(Some(w), "points");
        } else if self.duel.round > 7 {
            if let Some(w) = w {
                self.finish(Some(w), "points");
            } else {
                self.start_round();
            }
        } else if self.duel.round == 7 && pts[0] != pts[1] {
            self.duel_by_wins();
        } else {
            self.start_round();
        }
    }

    fn duel_by_wins(&mut self) {
        let pts = [self.sides[0].points, self.sides[1].points];
        let w = (pts[0] != pts[1]).then(|| if pts[0] > pts[1] { 0 } else { 1 });
        self.finish(w, "points");
    }

    fn rolled(&mut self, winner: usize) {
        match self.rolloff_for.take() {
            Some("first") => {
                self.first = winner;
                self.stage = Stage::Shuffle;
                self.active = 0;
            }
            _ => self.finish(Some(winner), "points"),
        }
    }

    fn start_place(&mut self) {
        let first = self.first;
        for side in [first, 1 - first] {
            let back = if side == first { 0 } else { 7 };
            let army = self.sides[side].army.clone();
            if matches!(self.mode, Mode::Full | Mode::Chess) {
                // K Q R R KN KN B B in list order; from the owner's left.
                let files: [i8; 8] = if side == first {
                    [4, 3, 0, 7, 1, 6, 2, 5]
                } else {
                    [4, 3, 7, 0, 6, 1, 5, 2]
                };
                for (k, c) in army[..8].iter().enumerate() {
                    self.units.push(Unit {
                        at: Sq(files[k], back),
                        owner: side,
                        card: c.clone(),
                        face_up: !self.face_down,
                        damage: 0,
                        equipment: vec![],
                        used: vec![],
                        uid: 0,
                        pawn: None,
                        mods: vec![],
                        attacked: false,
                    });
                    self.stamp();
                }
            }
        }
        self.stage = Stage::Place;
        self.active = first;
        self.auto_place();
    }

    fn put_pawn(&mut self, side: usize, card: String) {
        let n = 8 - self.sides[side].to_place.len() as i8 - 1;
        let at = if side == self.first {
            Sq(n, 1)
        } else {
            Sq(7 - n, 6)
        };
        self.units.push(Unit {
            at,
            owner: side,
            card,
            face_up: !self.face_down,
            damage: 0,
            equipment: vec![],
            used: vec![],
            uid: 0,
            pawn: None,
            mods: vec![],
            attacked: false,
        });
        self.stamp();
    }

    fn auto_place(&mut self) {
        loop {
            let side = self.active;
            let tp = &self.sides[side].to_place;
            if tp.is_empty() {
                if side == self.first {
                    self.active = 1 - self.first;
                    continue;
                }
                self.turn = 0;
                self.active = 1 - self.first;
                self.next_turn();
                return;
            }
            if tp.iter().all(|c| *c == tp[0]) {
                let c = self.sides[side].to_place.remove(0);
                self.put_pawn(side, c);
                continue;
            }
            return;
        }
    }

    fn draw(&mut self, side: usize) {
        let s = &mut self.sides[side];
        // The top of the deck is the end of the list (the engine's layout).
        if let Some(c) = s.deck.pop() {
            s.hand.push(c);
        }
    }

    fn next_turn(&mut self) {
        if self.mode == Mode::Chess {
            // The first turn after placement: White to move.
            self.turn += 1;
            self.active = 1 - self.active;
            self.priority = self.active;
            self.stage = Stage::Main;
            let key = self.c_key();
            self.chess.history.push(key);
            return;
        }
        self.attacked = false;
        self.moved = None;
        for u in &mut self.units {
            u.used.clear();
            u.attacked = false;
        }
        for s in &mut self.sides {
            s.harnessed = false;
            s.spell_pool = 0;
            s.hold = false;
        }
        if self.mode == Mode::Duel && !matches!(self.stage, Stage::Choose | Stage::Lot) {
            self.duel.turns += 1;
            if self.duel.turns >= 12 {
                // House limit: 12 turns with both troops standing is a tie.
                self.score_round(None);
                return;
            }
        }
        if self.turn_limit > 0 && self.turn >= self.turn_limit {
            // The engine counts the turn that would start, then ends.
            self.turn += 1;
            self.active = 1 - self.active;
            // Representation: effects that end at the counted turn are gone.
            self.expire();
            if self.stage == Stage::Over {
                return;
            }
            match self.mode {
                Mode::Full | Mode::Chess => self.finish(None, "no-progress limit"),
                Mode::PawnWars => self.pawn_wars_score(),
                Mode::Duel => self.duel_by_wins(),
            }
            return;
        }
        self.turn += 1;
        self.active = 1 - self.active;
        let round = self.duel.round;
        self.expire();
        // A Battle Duel round that ended here has started the next one.
        if self.stage == Stage::Over || self.is_chance() || self.duel.round != round {
            return;
        }
        if self.effects_uses().is_empty() {
            self.after_effects();
        } else {
            self.stage = Stage::Effects;
        }
    }

    fn after_effects(&mut self) {
        if self.mode == Mode::Duel {
            // No mana and no draw phase in a Battle Duel.
            self.stage = Stage::Main;
            return;
        }
        let inc = self.income(self.active);
        let s = &mut self.sides[self.active];
        s.mana = (s.mana + s.obelisk + inc).min(15);
        // Reading 11: with an empty deck the draw is skipped, so there is
        // nothing to discard for either.
        if s.hand.len() >= 10 && !s.deck.is_empty() {
            self.stage = Stage::Draw;
        } else {
            self.draw(self.active);
            self.stage = Stage::Main;
        }
    }

    fn arrived(&mut self, t: Sq) {
        let i = self.idx_at(t).unwrap();
        let u = &self.units[i];
        if self.role(u) != "P" {
            return;
        }
        let far = if u.owner == self.first { 7 } else { 0 };
        if t.1 != far {
            return;
        }
        match self.mode {
            Mode::Duel | Mode::Chess => {}
            Mode::Full => {
                self.promoting = Some(t);
                self.stage = Stage::Promote;
            }
            Mode::PawnWars => {
                let u = self.units.remove(i);
                self.sides[u.owner].points += 1;
                // The book only says "removed from the board"; the card goes
                // to its owner's crypt (not a kill: nobody's kills change).
                self.sides[u.owner].crypt.push(u.card);
                self.sides[u.owner].nether.extend(u.equipment);
            }
        }
    }

    fn attack(&mut self, f: Sq, t: Sq) {
        self.attacked = true;
        let (ia, id) = (self.idx_at(f).unwrap(), self.idx_at(t).unwrap());
        let (a, d) = (self.units[ia].clone(), self.units[id].clone());
        let da = self.hit(self.db.troops[&d.card].magic, self.att(&d), &a);
        let dd = self.hit(self.db.troops[&a.card].magic, self.att(&a), &d);
        self.units[ia].damage += da;
        self.units[id].damage += dd;
        self.units[ia].face_up = true;
        self.units[ia].attacked = true;
        self.units[id].face_up = true;
        let a_dies = self.units[ia].damage >= self.def(&self.units[ia]);
        let d_dies = self.units[id].damage >= self.def(&self.units[id]);
        if d_dies && a_dies {
            self.kill(vec![ia, id]);
        } else if d_dies && self.mode == Mode::Duel {
            self.kill(vec![id]);
        } else if d_dies {
            self.kill(vec![id]);
            let ia = self.idx_at(f).unwrap();
            self.units[ia].at = t;
            if self.moved == Some(f) {
                self.moved = Some(t);
            }
            self.arrived(t);
        }
    }

    /// Removes the units at these indices as killed, at once.
    fn kill(&mut self, mut idx: Vec<usize>) {
        idx.sort();
        // Simultaneous deaths reach the crypt in board-list order
        // (representation only).
        let mut gone: Vec<Unit> = idx.iter().rev().map(|&i| self.units.remove(i)).collect();
        gone.reverse();
        for u in gone {
            let p = self.db.troops[&u.card].power;
            let role = self.db.troops[&u.card].role.clone();
            if self.mode != Mode::PawnWars || role == "P" {
                self.sides[1 - u.owner].kills += p;
            }
            // The physical card: a promoted Pawn's own (representation).
            self.sides[u.owner].crypt.push(u.pawn.unwrap_or(u.card));
            self.sides[u.owner].nether.extend(u.equipment);
        }
    }

    /// Every troop whose damage reached its Def dies (auras, reading 32).
    fn deaths(&mut self) {
        loop {
            let dead: Vec<usize> = (0..self.units.len())
                .filter(|&i| self.units[i].damage >= self.def(&self.units[i]))
                .collect();
            if dead.is_empty() {
                // Enchantments on troops that left the board go to their
                // caster's nether, in space order (the order is
                // representation only).
                let on: Vec<u32> = self.units.iter().map(|u| u.uid).collect();
                let gone: Vec<u32> = self
                    .sides
                    .iter()
                    .flat_map(|s| s.enchants.iter().filter_map(|e| e.on))
                    .filter(|u| !on.contains(u))
                    .collect();
                self.drop_enchants_of(&gone);
                return;
            }
            self.kill(dead);
        }
    }

    fn finish(&mut self, winner: Option<usize>, reason: &str) {
        self.stage = Stage::Over;
        self.end = Some(End {
            winner,
            reason: reason.into(),
        });
    }

    fn pawn_wars_score(&mut self) {
        let (a, b) = (&self.sides[0], &self.sides[1]);
        let w = if a.points != b.points {
            Some(if a.points > b.points { 0 } else { 1 })
        } else if a.kills != b.kills {
            Some(if a.kills > b.kills { 0 } else { 1 })
        } else {
            None
        };
        self.finish(w, "points");
    }

    fn check_end(&mut self) {
        if self.stage == Stage::Over {
            return;
        }
        match self.mode {
            Mode::Chess => {}
            Mode::Duel => {
                // The round is scored once the stack has resolved.
                if !self.stack.is_empty() || !matches!(self.stage, Stage::Main | Stage::Effects) {
                    return;
                }
                let alive = [0, 1].map(|s| self.units.iter().any(|u| u.owner == s));
                match alive {
                    [true, true] => {}
                    [true, false] => self.score_round(Some(0)),
                    [false, true] => self.score_round(Some(1)),
                    [false, false] => {
                        let p = [0, 1].map(|s| {
                            self.db.troops[self.duel.sides[s].fighting.as_ref().unwrap()].power
                        });
                        let w = if p[0] == p[1] {
                            None
                        } else {
                            Some(if p[0] < p[1] { 0 } else { 1 })
                        };
                        self.score_round(w);
                    }
                }
            }
            Mode::PawnWars => {
                if (0..2).any(|s| !self.units.iter().any(|u| u.owner == s)) {
                    self.pawn_wars_score();
                }
            }
            Mode::Full => {
                let k = [self.king(0).is_some(), self.king(1).is_some()];
                match k {
                    [true, true] => {}
                    [true, false] => self.finish(Some(0), "king captured"),
                    [false, true] => self.finish(Some(1), "king captured"),
                    [false, false] => {
                        let on: Vec<i32> = (0..2)
                            .map(|s| {
                                self.units
                                    .iter()
                                    .filter(|u| u.owner == s)
                                    .map(|u| self.db.troops[&u.card].power)
                                    .sum()
                            })
                            .collect();
                        let (a, b) = (&self.sides[0], &self.sides[1]);
                        if on[0] != on[1] {
                            self.finish(Some(if on[0] > on[1] { 0 } else { 1 }), "points");
                        } else if a.kills != b.kills {
                            self.finish(Some(if a.kills > b.kills { 0 } else { 1 }), "points");
                        } else if a.power != b.power {
                            self.finish(Some(if a.power < b.power { 0 } else { 1 }), "points");
                        } else {
                            self.stage = Stage::TieBreak;
                            self.rolloff_for = Some("end");
                        }
                    }
                }
            }
        }
    }
}
