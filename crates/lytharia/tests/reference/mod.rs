//! A slow reference for Lytharian Chess, written from the rule book
//! (`/work/shared/rules/lytharian-chess.txt`) and the recorded readings of
//! `docs/rules/lytharia.md`, without the engine's rules code. It reads the
//! card and deck TOML files itself (the card data is part of the spec).
//!
//! Covered: setup (first player and bonus mana, shuffles as given by the
//! engine's chance, Pawn placement), the turn (effects phase entry and `end`,
//! the mana phase with obelisk and `income` passives, `charge`, the draw phase
//! with `discard`/`keep`), troop moves and attacks, combat with passives,
//! auras, equipment stats, guard and ward, face-down troops, promotion,
//! harnessing, the honor charge, the end of the full game and of Pawn Wars,
//! and the turn limit. Listed but not played: `use` of abilities (targets,
//! range, once per turn, not with an attack). Not covered: casting, the stack
//! and responses, equipping and reforging, playing abilities, Battle Duels
//! and Normal Chess.

use std::collections::BTreeMap;

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
}

#[derive(Clone, Debug)]
pub struct Equip {
    pub att: i32,
    pub def: i32,
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
    /// Main ability used this turn.
    pub used: bool,
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
            let to_place = army[8..].to_vec();
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
        };
        let (p0, p1) = (g.sides[0].power, g.sides[1].power);
        if p0 == p1 {
            g.stage = Stage::RollOff;
            g.rolloff_for = Some("first");
        } else {
            let low = if p0 < p1 { 0 } else { 1 };
            g.first = low;
            g.sides[low].mana = (1 + ceil_div((p0 - p1).abs(), 5)).min(15);
        }
        g
    }

    pub fn is_chance(&self) -> bool {
        matches!(self.stage, Stage::RollOff | Stage::Shuffle)
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
        n
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
            if a.phase != phase {
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

    pub fn legal(&self) -> Vec<String> {
        let me = &self.sides[self.active];
        let mut v = vec![];
        match self.stage {
            Stage::Over | Stage::RollOff | Stage::Shuffle => {}
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
                        if u.used {
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
                    if !u.used && !u.attacked {
                        v.extend(self.ability_uses(u, "main"));
                    }
                }
                let lone = self.lone_king(self.active);
                let can_end = if lone {
                    self.moved.is_some() || self.attacked || v.iter().all(|a| a.starts_with("use"))
                } else {
                    self.moved.is_some() || !self.any_move()
                };
                if can_end {
                    v.push("end".into());
                }
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
                v.extend(self.charge());
            }
        }
        v
    }

    /// Reading 12: whenever the counter is 15 and the obelisk below 6.
    fn charge(&self) -> Option<String> {
        let me = &self.sides[self.active];
        (me.mana == 15 && me.obelisk < 6).then(|| "charge".to_string())
    }
}

impl RGame {
    // ---------------------------------------------------------------- apply

    /// Applies an action text (the engine's canonical form).
    pub fn apply(&mut self, a: &str) {
        let w: Vec<&str> = a.split(' ').collect();
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
                } else {
                    self.start_place();
                }
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
            "promote" => {
                let at = self.promoting.take().unwrap();
                let i = self.idx_at(at).unwrap();
                let eq = std::mem::take(&mut self.units[i].equipment);
                let owner = self.units[i].owner;
                self.sides[owner].nether.extend(eq);
                let u = &mut self.units[i];
                u.card = w[1].to_string();
                u.damage = 0;
                u.face_up = true;
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
            "charge" => {
                let s = &mut self.sides[self.active];
                s.mana = 1;
                s.obelisk += 1;
            }
            "harness" => {
                let q = self.db.spells[w[1]].quality;
                let s = &mut self.sides[self.active];
                let i = s.hand.iter().position(|c| c == w[1]).unwrap();
                let c = s.hand.remove(i);
                s.nether.push(c);
                s.harnessed = true;
                s.spell_pool += q;
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
            if self.mode == Mode::Full {
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
                        used: false,
                        attacked: false,
                    });
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
            used: false,
            attacked: false,
        });
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
        self.attacked = false;
        self.moved = None;
        for u in &mut self.units {
            u.used = false;
            u.attacked = false;
        }
        for s in &mut self.sides {
            s.harnessed = false;
            s.spell_pool = 0;
        }
        if self.turn_limit > 0 && self.turn >= self.turn_limit {
            // The engine counts the turn that would start, then ends.
            self.turn += 1;
            self.active = 1 - self.active;
            match self.mode {
                Mode::Full => self.finish(None, "no-progress limit"),
                Mode::PawnWars => self.pawn_wars_score(),
            }
            return;
        }
        self.turn += 1;
        self.active = 1 - self.active;
        if self.effects_uses().is_empty() {
            self.after_effects();
        } else {
            self.stage = Stage::Effects;
        }
    }

    fn after_effects(&mut self) {
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
        if d_dies {
            self.kill(vec![id]);
            if !a_dies {
                let ia = self.idx_at(f).unwrap();
                self.units[ia].at = t;
                if self.moved == Some(f) {
                    self.moved = Some(t);
                }
                self.arrived(t);
            }
        }
    }

    /// Removes the units at these indices as killed, at once.
    fn kill(&mut self, mut idx: Vec<usize>) {
        idx.sort();
        for &i in idx.iter().rev() {
            let u = self.units.remove(i);
            let p = self.db.troops[&u.card].power;
            let role = self.db.troops[&u.card].role.clone();
            if self.mode == Mode::Full || role == "P" {
                self.sides[1 - u.owner].kills += p;
            }
            self.sides[u.owner].crypt.push(u.card);
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
                            self.stage = Stage::RollOff;
                            self.rolloff_for = Some("end");
                        }
                    }
                }
            }
        }
    }
}
