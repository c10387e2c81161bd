//! The state of a game and the rules that change it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use serde::Serialize;
use tabula_core::{EndReason, Outcome};

use crate::action::{Action, Illegal, Targets};
use crate::data::{Aura, Kind, PieceTable, PieceType, Powers};
use crate::hex::Hex;
use crate::options::{CovenantOptions, WrathDamage};
use crate::scenario::{Scenario, Terrain};
use crate::side::Side;

/// The most Grails a side can hold.
pub const MAX_GRAILS: u16 = 9999;

/// One piece on the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Piece {
    /// Its type.
    pub kind: Kind,
    /// Its side.
    pub side: Side,
    /// Where it stands.
    pub at: Hex,
    /// Blood left (1 to its type's Blood).
    pub blood: u8,
    /// Acts begun this turn (bought extra acts included).
    pub acts: u8,
    /// Whether it bought the Maiden's extra act this turn.
    pub extra: bool,
    /// Whether (a Prophet) it has healed this turn.
    pub healed: bool,
    /// Whether it has countered this round.
    pub countered: bool,
    /// Recruited or converted this turn: it may not act until its side's next turn.
    pub idle: bool,
}

/// The piece acting now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Active {
    /// Where it stands.
    pub at: Hex,
    /// Movement points left.
    pub mp: u8,
    /// Tiles walked this act (for Charge).
    pub tiles: u8,
}

/// A game of Covenant Chess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Covenant {
    pub(crate) options: CovenantOptions,
    pub(crate) scenario: Arc<Scenario>,
    pub(crate) side: Side,
    pub(crate) round: u16,
    pub(crate) quiet: u16,
    pub(crate) captured: bool,
    pub(crate) grails: [u16; 2],
    /// Sorted by hex.
    pub(crate) pieces: Vec<Piece>,
    pub(crate) active: Option<Active>,
    pub(crate) convertible: Option<(Kind, Hex)>,
}

/// What kind of attack a blow is, for events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attack {
    /// A melee blow (a Berserker's Fury: several).
    Melee,
    /// One blow of a Blade's Sweep.
    Sweep,
    /// An arrow or a bolt.
    Shot,
    /// A holy strike.
    Holy,
}

/// One thing the engine did while playing an action, told to a [`Log`] so
/// that events report it exactly (the pieces as they were just before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Record {
    /// An attacker's blow on `target` (its Blood before the blow).
    Blow {
        by: Piece,
        target: Piece,
        damage: u8,
        attack: Attack,
        /// 1 for the first blow, 2 for a Berserker's second.
        blow: u8,
    },
    /// A counter-blow of `by` on the attacker `target`.
    Counter {
        by: Piece,
        target: Piece,
        damage: u8,
        /// The Angel's holy wrath rather than a blow.
        wrath: bool,
    },
    /// A piece left the field at 0 Blood.
    Fell { piece: Piece, by_enemy: bool },
    /// An Angel's Grace refunded the fallen piece's price.
    Grace { piece: Piece, grails: u16 },
    /// The Heir took the crown.
    Crowned { heir: Piece },
    /// Sacrifice's Blood paid at the end of the second act.
    Sacrifice { piece: Piece, blood: u8 },
    /// A side's turn began (fresh acts, recruits awake).
    TurnBegins { side: Side },
    /// Holy City income at the start of a turn.
    Income { side: Side, grails: u16 },
    /// The Princess's recovery at the start of a turn.
    Recovery { piece: Piece, blood: u8 },
}

/// Where the engine tells what it does; [`NoLog`] (the rules' own play)
/// compiles the telling away.
pub(crate) trait Log {
    fn record(&mut self, record: Record);
}

/// The log of plain play: nothing is kept.
pub(crate) struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn record(&mut self, _: Record) {}
}

impl Log for Vec<Record> {
    fn record(&mut self, record: Record) {
        self.push(record);
    }
}

/// The result of [`Covenant::search`], indexed by [`Scenario::cell`].
struct Search {
    start: usize,
    occupied: Vec<bool>,
    best: Vec<Option<(u8, u8)>>,
    prev: Vec<Option<Hex>>,
}

/// A reachable destination: its MP cost and the tiles walked to get there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Where.
    pub to: Hex,
    /// MP spent.
    pub cost: u8,
    /// Tiles walked (the cheapest path with the most tiles).
    pub tiles: u8,
}

fn table() -> &'static PieceTable {
    PieceTable::builtin()
}

fn ty(kind: Kind) -> &'static PieceType {
    table().get(kind)
}

fn powers(p: &Piece) -> &'static Powers {
    &ty(p.kind).powers
}

impl Covenant {
    /// A new game on `scenario` (built-in or read with
    /// [`Scenario::from_toml`]); `options.scenario` is ignored.
    pub fn with_scenario(scenario: Arc<Scenario>, options: &CovenantOptions) -> Self {
        let mut pieces: Vec<Piece> = Vec::new();
        for side in Side::BOTH {
            for &(kind, at) in &scenario.armies[side.index()].pieces {
                pieces.push(Piece {
                    kind,
                    side,
                    at,
                    blood: ty(kind).blood,
                    acts: 0,
                    extra: false,
                    healed: false,
                    countered: false,
                    idle: false,
                });
            }
        }
        pieces.sort_by_key(|p| p.at);
        let mut game = Covenant {
            options: options.clone(),
            grails: [scenario.armies[0].grails, scenario.armies[1].grails],
            scenario,
            side: Side::Gold,
            round: 1,
            quiet: 0,
            captured: false,
            pieces,
            active: None,
            convertible: None,
        };
        game.start_turn(&mut NoLog);
        game
    }

    /// The scenario played.
    pub fn scenario(&self) -> &Arc<Scenario> {
        &self.scenario
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The round (a Gold turn then a Blue turn), from 1.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Complete rounds since the last round with a capture.
    pub fn quiet_rounds(&self) -> u16 {
        self.quiet
    }

    /// Whether a piece has fallen to the enemy this round.
    pub fn captured_this_round(&self) -> bool {
        self.captured
    }

    /// A side's Grails.
    pub fn grails(&self, side: Side) -> u16 {
        self.grails[side.index()]
    }

    /// Every piece, in hex order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The piece acting now.
    pub fn active(&self) -> Option<Active> {
        self.active
    }

    /// The foe the active Apostle may convert now, if any.
    pub fn convertible(&self) -> Option<(Kind, Hex)> {
        self.convertible
    }

    /// The piece on `hex`.
    pub fn piece_at(&self, hex: Hex) -> Option<&Piece> {
        self.index(hex).map(|i| &self.pieces[i])
    }

    pub(crate) fn index(&self, hex: Hex) -> Option<usize> {
        self.pieces.binary_search_by_key(&hex, |p| p.at).ok()
    }

    fn insert(&mut self, piece: Piece) {
        let i = self
            .pieces
            .binary_search_by_key(&piece.at, |p| p.at)
            .unwrap_or_else(|i| i);
        self.pieces.insert(i, piece);
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        let mut kings = [false; 2];
        for p in &self.pieces {
            if ty(p.kind).king {
                kings[p.side.index()] = true;
            }
        }
        match kings {
            [false, _] => Some(Outcome::win(Side::Blue.team(), EndReason::KingCaptured)),
            [_, false] => Some(Outcome::win(Side::Gold.team(), EndReason::KingCaptured)),
            _ if self.quiet >= table().rules.draw_rounds => {
                Some(Outcome::draw(EndReason::NoProgress))
            }
            _ => None,
        }
    }

    // ----- stats -------------------------------------------------------------

    /// The strongest aura of `pick` an ally of `p` (not `p` itself) casts on it.
    fn aura(&self, p: &Piece, pick: impl Fn(&Powers) -> Option<Aura>) -> Option<Aura> {
        self.pieces
            .iter()
            .filter(|q| q.side == p.side && q.at != p.at)
            .filter_map(|q| pick(powers(q)).filter(|a| q.at.distance(p.at) <= a.radius))
            .max_by_key(|a| a.amount)
    }

    fn terrain(&self, hex: Hex) -> Terrain {
        self.scenario.terrain(hex).unwrap_or(Terrain::Open)
    }

    /// Whether an enemy Curse reaches `p` (and lowers it, under the options).
    pub fn is_cursed(&self, p: &Piece) -> bool {
        if powers(p).stone_wall && self.options.curse_spares_wall {
            return false;
        }
        self.pieces
            .iter()
            .any(|q| q.side != p.side && powers(q).curse.is_some_and(|r| q.at.distance(p.at) <= r))
    }

    /// The Defence of `p` where it stands, with every modifier: the Queen's
    /// aura, land, Holy City, Shield wall, Bulwark, never below 0; 0 under a Curse.
    pub fn defence(&self, p: &Piece) -> i16 {
        if self.is_cursed(p) {
            return 0;
        }
        let rules = &table().rules;
        let t = ty(p.kind);
        let mut d = i16::from(t.defence);
        if let Some(a) = self.aura(p, |w| w.aura_defence) {
            d += i16::from(a.amount);
        }
        match self.terrain(p.at) {
            Terrain::Forest => d += i16::from(rules.forest_defence),
            Terrain::Desert => d += i16::from(rules.desert_defence),
            Terrain::Open | Terrain::Hill => {}
        }
        if self.scenario.city(p.at).is_some() {
            d += i16::from(rules.city_defence);
        }
        for q in &self.pieces {
            if q.side != p.side || !q.at.is_adjacent(p.at) {
                continue;
            }
            let qp = powers(q);
            if let (Some(bonus), Some(_)) = (t.powers.shield_wall, qp.shield_wall) {
                d += i16::from(bonus);
            }
            if let Some(bonus) = qp.bulwark {
                d += i16::from(bonus);
            }
        }
        d.max(0)
    }

    /// The Attack of `p` striking `target` in melee or a counter-blow: the
    /// King's aura, a hill above a lower tile, Set pike against riders, and
    /// Charge when `tiles` walked this act are given (attacks, not counters).
    pub fn melee_attack(&self, p: &Piece, target: &Piece, tiles: Option<u8>) -> i16 {
        let rules = &table().rules;
        let t = ty(p.kind);
        let mut a = i16::from(t.attack);
        if let Some(aura) = self.aura(p, |w| w.aura_attack) {
            a += i16::from(aura.amount);
        }
        if self.terrain(p.at) == Terrain::Hill && self.terrain(target.at) != Terrain::Hill {
            a += i16::from(rules.hill_attack);
        }
        if let (Some(max), Some(tiles)) = (t.powers.charge, tiles) {
            a += i16::from(tiles.saturating_sub(1).min(max));
        }
        if let Some(bonus) = t.powers.set_pike
            && ty(target.kind).rider
        {
            a += i16::from(bonus);
        }
        a
    }

    /// Damage = Attack - Defence + 4, never less than 1.
    pub fn damage(attack: i16, defence: i16) -> u8 {
        let rules = &table().rules;
        (attack - defence + i16::from(rules.damage_constant))
            .max(i16::from(rules.minimum_damage))
            .clamp(0, 255) as u8
    }

    /// The damage of a holy strike of `flat` on `target`: flat, unless the
    /// target's Stone wall keeps his Defence, when it is the damage formula
    /// with `flat` as Attack, never more than `flat`.
    pub fn holy_damage(&self, flat: u8, target: &Piece) -> u8 {
        if powers(target).stone_wall {
            Self::damage(i16::from(flat), self.defence(target)).min(flat)
        } else {
            flat
        }
    }

    /// The damage of the Angel's wrath of Attack `attack` (Defence ignored,
    /// the Bastion's wall broken).
    pub fn wrath_damage(&self, attack: u8) -> u8 {
        match self.options.wrath {
            WrathDamage::Eleven => Self::damage(i16::from(attack), 0),
            WrathDamage::Seven => attack,
        }
    }

    /// The range of `p`'s shots where it stands (Bastion's height included).
    pub fn shot_range(&self, p: &Piece) -> Option<u8> {
        let t = ty(p.kind);
        let r = t.powers.ranged?;
        let height = t.powers.bastions_height.filter(|_| {
            self.pieces
                .iter()
                .any(|q| q.side == p.side && powers(q).stone_wall && q.at.is_adjacent(p.at))
        });
        Some(r.range + height.unwrap_or(0))
    }

    /// The MP `p` gets when activated: Speed, +2 within 4 tiles of its Heir.
    pub fn activation_mp(&self, p: &Piece) -> u8 {
        let bonus = self.aura(p, |w| w.aura_speed).map_or(0, |a| a.amount);
        (i16::from(ty(p.kind).speed) + i16::from(bonus)).clamp(0, 255) as u8
    }

    /// The Blood price of a Maiden's extra act for `p`, if one reaches it.
    pub fn extra_price(&self, p: &Piece) -> Option<u8> {
        self.aura(p, |w| w.for_the_kingdom).map(|a| a.amount as u8)
    }

    fn enter_cost(&self, hex: Hex) -> u8 {
        let rules = &table().rules;
        if self.terrain(hex).is_rough() {
            rules.rough_cost
        } else {
            rules.walk_cost
        }
    }

    // ----- movement ----------------------------------------------------------

    /// Every free hex `p` can walk to from `from` with `mp` MP, with the
    /// cheapest cost and, among the cheapest paths, the most tiles. Pieces
    /// block, except for a walker with Pass-through, who may cross them but
    /// not stop on them.
    pub fn reach(&self, from: Hex, mp: u8, pass_through: bool) -> Vec<Step> {
        let s = &*self.scenario;
        let Some(search) = self.search(from, mp, pass_through) else {
            return Vec::new();
        };
        s.hexes()
            .filter_map(|h| {
                let c = s.cell(h)?;
                let (cost, tiles) = search.best[c]?;
                (c != search.start && !search.occupied[c]).then_some(Step { to: h, cost, tiles })
            })
            .collect()
    }

    /// The path a walk from `from` to `to` takes with `mp` MP: the hexes
    /// entered in order, `to` last, along a cheapest path with the most
    /// tiles (the one [`Covenant::reach`] prices); `None` if `to` is out of
    /// reach.
    pub fn path(&self, from: Hex, to: Hex, mp: u8, pass_through: bool) -> Option<Vec<Hex>> {
        let s = &*self.scenario;
        let search = self.search(from, mp, pass_through)?;
        let goal = s.cell(to)?;
        if goal == search.start || search.occupied[goal] || search.best[goal].is_none() {
            return None;
        }
        let mut path = vec![to];
        let mut at = to;
        while let Some(prev) = s.cell(at).and_then(|c| search.prev[c]) {
            if prev == from {
                path.reverse();
                return Some(path);
            }
            path.push(prev);
            at = prev;
        }
        None
    }

    /// Dijkstra over (cost, most tiles) from `from`, remembering how each
    /// hex was best reached.
    fn search(&self, from: Hex, mp: u8, pass_through: bool) -> Option<Search> {
        let s = &*self.scenario;
        let n = s.cell_count();
        let mut occupied = vec![false; n];
        for p in &self.pieces {
            if let Some(c) = s.cell(p.at) {
                occupied[c] = true;
            }
        }
        let mut best: Vec<Option<(u8, u8)>> = vec![None; n];
        let mut prev: Vec<Option<Hex>> = vec![None; n];
        let start = s.cell(from)?;
        best[start] = Some((0, 0));
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u8, Reverse(0u8), from)));
        while let Some(Reverse((cost, Reverse(tiles), hex))) = heap.pop() {
            let Some(c) = s.cell(hex) else { continue };
            if best[c] != Some((cost, tiles)) {
                continue;
            }
            for next in s.neighbours(hex) {
                let Some(nc) = s.cell(next) else { continue };
                if occupied[nc] && !pass_through {
                    continue;
                }
                let step = self.enter_cost(next);
                let Some(ncost) = cost.checked_add(step).filter(|&c| c <= mp) else {
                    continue;
                };
                let ntiles = tiles.saturating_add(1);
                let better = match best[nc] {
                    None => true,
                    Some((bc, bt)) => ncost < bc || (ncost == bc && ntiles > bt),
                };
                if better {
                    best[nc] = Some((ncost, ntiles));
                    prev[nc] = Some(hex);
                    heap.push(Reverse((ncost, Reverse(ntiles), next)));
                }
            }
        }
        Some(Search {
            start,
            occupied,
            best,
            prev,
        })
    }

    // ----- legality ----------------------------------------------------------

    fn own(&self, hex: Hex) -> Result<usize, Illegal> {
        if !self.scenario.contains(hex) {
            return Err(Illegal::OffField(hex));
        }
        let i = self.index(hex).ok_or(Illegal::Empty(hex))?;
        if self.pieces[i].side != self.side {
            return Err(Illegal::NotYours(hex));
        }
        Ok(i)
    }

    fn foe(&self, hex: Hex) -> Result<usize, Illegal> {
        if !self.scenario.contains(hex) {
            return Err(Illegal::OffField(hex));
        }
        let i = self.index(hex).ok_or(Illegal::Empty(hex))?;
        if self.pieces[i].side == self.side {
            return Err(Illegal::NotAFoe(hex));
        }
        Ok(i)
    }

    fn idle_piece(&self) -> Result<(), Illegal> {
        match self.active {
            Some(a) => Err(Illegal::PieceActive(a.at)),
            None => Ok(()),
        }
    }

    fn active_piece(&self) -> Result<(Active, usize), Illegal> {
        let a = self.active.ok_or(Illegal::NoActivePiece)?;
        let i = self.index(a.at).ok_or(Illegal::NoActivePiece)?;
        Ok((a, i))
    }

    fn never_attacks(&self, i: usize) -> Result<(), Illegal> {
        let t = ty(self.pieces[i].kind);
        if t.powers.wrath.is_some() {
            Err(Illegal::NeverAttacks(t.name.clone()))
        } else {
            Ok(())
        }
    }

    fn no_power(i: &Piece, power: &'static str) -> Illegal {
        Illegal::NoPower {
            piece: ty(i.kind).name.clone(),
            power,
        }
    }

    pub(crate) fn count_of(&self, side: Side, kind: Kind) -> usize {
        self.pieces
            .iter()
            .filter(|p| p.side == side && p.kind == kind)
            .count()
    }

    fn limit_ok(&self, side: Side, kind: Kind) -> Result<(), Illegal> {
        let t = ty(kind);
        match t.limit {
            Some(limit) if self.count_of(side, kind) >= usize::from(limit) => {
                Err(Illegal::LimitReached {
                    piece: t.name.clone(),
                    limit,
                })
            }
            _ => Ok(()),
        }
    }

    fn pay(&self, cost: u16) -> Result<(), Illegal> {
        let have = self.grails[self.side.index()];
        if have < cost {
            Err(Illegal::NotEnoughGrails { cost, have })
        } else {
            Ok(())
        }
    }

    /// Whether `action` is legal now, and why not.
    pub fn check(&self, action: &Action) -> Result<(), Illegal> {
        match *action {
            Action::Activate(h) => {
                self.idle_piece()?;
                let i = self.own(h)?;
                let p = &self.pieces[i];
                if p.idle {
                    return Err(Illegal::Idle(h));
                }
                if p.acts >= ty(p.kind).base_acts() {
                    return Err(Illegal::NoActLeft(h));
                }
                Ok(())
            }
            Action::Extra(h) => {
                self.idle_piece()?;
                let i = self.own(h)?;
                let p = &self.pieces[i];
                if p.idle {
                    return Err(Illegal::Idle(h));
                }
                let price = self
                    .extra_price(p)
                    .ok_or(Illegal::NoExtra(h, "no Maiden of yours is within reach"))?;
                if p.extra {
                    return Err(Illegal::NoExtra(h, "it already bought one this turn"));
                }
                if p.acts < ty(p.kind).base_acts() {
                    return Err(Illegal::NoExtra(h, "it still has an act of its own"));
                }
                if p.blood <= price {
                    return Err(Illegal::NoExtra(h, "it has too little Blood to pay"));
                }
                Ok(())
            }
            Action::Move(to) => {
                let (a, i) = self.active_piece()?;
                if !self.scenario.contains(to) {
                    return Err(Illegal::OffField(to));
                }
                if self.index(to).is_some() {
                    return Err(Illegal::Occupied(to));
                }
                let pass = powers(&self.pieces[i]).pass_through;
                if self.reach(a.at, a.mp, pass).iter().any(|s| s.to == to) {
                    Ok(())
                } else {
                    Err(Illegal::OutOfReach { to, mp: a.mp })
                }
            }
            Action::Melee(t) => {
                let (a, i) = self.active_piece()?;
                self.never_attacks(i)?;
                self.foe(t)?;
                if !a.at.is_adjacent(t) {
                    return Err(Illegal::NotAdjacent(t));
                }
                Ok(())
            }
            Action::Sweep(targets) => {
                let (a, i) = self.active_piece()?;
                let p = &self.pieces[i];
                let n = powers(p).sweep.ok_or_else(|| Self::no_power(p, "Sweep"))?;
                if targets.as_slice().len() > usize::from(n) {
                    return Err(Illegal::TooManyTargets(n));
                }
                for &t in targets.as_slice() {
                    self.foe(t)?;
                    if !a.at.is_adjacent(t) {
                        return Err(Illegal::NotAdjacent(t));
                    }
                }
                Ok(())
            }
            Action::Shoot(t) => {
                let (a, i) = self.active_piece()?;
                let p = &self.pieces[i];
                let r = powers(p)
                    .ranged
                    .ok_or_else(|| Self::no_power(p, "arrows or bolts"))?;
                self.never_attacks(i)?;
                self.foe(t)?;
                let range = self.shot_range(p).unwrap_or(r.range);
                let distance = a.at.distance(t);
                if distance > range {
                    return Err(Illegal::OutOfRange {
                        target: t,
                        distance,
                        range,
                    });
                }
                if a.mp < r.cost {
                    return Err(Illegal::NotEnoughMp {
                        cost: r.cost,
                        mp: a.mp,
                    });
                }
                Ok(())
            }
            Action::Holy(t) => {
                let (a, i) = self.active_piece()?;
                let p = &self.pieces[i];
                let h = powers(p)
                    .holy_strike
                    .ok_or_else(|| Self::no_power(p, "holy strike"))?;
                self.never_attacks(i)?;
                self.foe(t)?;
                let distance = a.at.distance(t);
                if distance > h.range {
                    return Err(Illegal::OutOfRange {
                        target: t,
                        distance,
                        range: h.range,
                    });
                }
                if a.mp < h.cost {
                    return Err(Illegal::NotEnoughMp {
                        cost: h.cost,
                        mp: a.mp,
                    });
                }
                Ok(())
            }
            Action::Heal { healer, target } => {
                self.idle_piece()?;
                let i = self.own(healer)?;
                let p = &self.pieces[i];
                let radius = powers(p)
                    .healing
                    .ok_or_else(|| Self::no_power(p, "Healing"))?;
                if p.idle {
                    return Err(Illegal::Idle(healer));
                }
                if p.healed {
                    return Err(Illegal::AlreadyHealed(healer));
                }
                let j = self.own(target)?;
                let q = &self.pieces[j];
                let distance = healer.distance(target);
                if distance > radius {
                    return Err(Illegal::OutOfRange {
                        target,
                        distance,
                        range: radius,
                    });
                }
                if q.blood >= ty(q.kind).blood {
                    return Err(Illegal::NotHurt(target));
                }
                Ok(())
            }
            Action::Recruit { kind, at } => {
                self.idle_piece()?;
                let t = table()
                    .pieces
                    .get(kind.index())
                    .ok_or(Illegal::UnknownKind(kind.0))?;
                let price = t
                    .price
                    .ok_or_else(|| Illegal::NeverRecruited(t.name.clone()))?;
                self.pay(u16::from(price))?;
                self.limit_ok(self.side, kind)?;
                if !self.scenario.contains(at) {
                    return Err(Illegal::OffField(at));
                }
                if self.index(at).is_some() {
                    return Err(Illegal::Occupied(at));
                }
                let beside = self
                    .pieces
                    .iter()
                    .any(|q| q.side == self.side && ty(q.kind).royal && q.at.is_adjacent(at));
                if !beside {
                    return Err(Illegal::NotBesideRoyal(at));
                }
                Ok(())
            }
            Action::Convert(h) => {
                let Some((kind, at)) = self.convertible else {
                    return Err(Illegal::NothingToConvert(h));
                };
                if at != h || self.active.is_none() || self.index(at).is_some() {
                    return Err(Illegal::NothingToConvert(h));
                }
                let (_, i) = self.active_piece()?;
                let cost = powers(&self.pieces[i])
                    .convert
                    .ok_or(Illegal::NothingToConvert(h))?;
                self.pay(u16::from(cost))?;
                self.limit_ok(self.side, kind)
            }
            Action::EndAct => self.active_piece().map(|_| ()),
            Action::EndTurn => Ok(()),
        }
    }

    /// Fills `out` with every legal action (empty once the game is over).
    pub fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        if let Some((_, h)) = self.convertible
            && self.check(&Action::Convert(h)).is_ok()
        {
            out.push(Action::Convert(h));
        }
        if let Ok((a, i)) = self.active_piece() {
            let p = self.pieces[i];
            let pw = powers(&p);
            for step in self.reach(a.at, a.mp, pw.pass_through) {
                out.push(Action::Move(step.to));
            }
            let foes_adjacent: Vec<Hex> = self
                .pieces
                .iter()
                .filter(|q| q.side != p.side && q.at.is_adjacent(p.at))
                .map(|q| q.at)
                .collect();
            if pw.wrath.is_none() {
                for &t in &foes_adjacent {
                    out.push(Action::Melee(t));
                }
                if let Some(n) = pw.sweep {
                    sweeps(&foes_adjacent, usize::from(n), out);
                }
                let mut ranged = |range: u8, cost: u8, make: fn(Hex) -> Action| {
                    if a.mp >= cost {
                        for q in &self.pieces {
                            if q.side != p.side && q.at.distance(p.at) <= range {
                                out.push(make(q.at));
                            }
                        }
                    }
                };
                if let (Some(r), Some(range)) = (pw.ranged, self.shot_range(&p)) {
                    ranged(range, r.cost, Action::Shoot);
                }
                if let Some(h) = pw.holy_strike {
                    ranged(h.range, h.cost, Action::Holy);
                }
            }
            out.push(Action::EndAct);
        } else {
            for p in &self.pieces {
                if p.side != self.side || p.idle {
                    continue;
                }
                let t = ty(p.kind);
                if p.acts < t.base_acts() {
                    out.push(Action::Activate(p.at));
                } else if !p.extra && self.extra_price(p).is_some_and(|price| p.blood > price) {
                    out.push(Action::Extra(p.at));
                }
                if let Some(radius) = t.powers.healing
                    && !p.healed
                {
                    for q in &self.pieces {
                        if q.side == p.side
                            && q.at.distance(p.at) <= radius
                            && q.blood < ty(q.kind).blood
                        {
                            out.push(Action::Heal {
                                healer: p.at,
                                target: q.at,
                            });
                        }
                    }
                }
            }
            self.recruits(out);
        }
        out.push(Action::EndTurn);
    }

    fn recruits(&self, out: &mut Vec<Action>) {
        let have = self.grails[self.side.index()];
        let kinds: Vec<Kind> = table()
            .kinds()
            .filter(|&k| {
                let t = ty(k);
                t.price.is_some_and(|price| u16::from(price) <= have)
                    && self.limit_ok(self.side, k).is_ok()
            })
            .collect();
        if kinds.is_empty() {
            return;
        }
        let mut spots: Vec<Hex> = Vec::new();
        for q in &self.pieces {
            if q.side == self.side && ty(q.kind).royal {
                for h in self.scenario.neighbours(q.at) {
                    if self.index(h).is_none() && !spots.contains(&h) {
                        spots.push(h);
                    }
                }
            }
        }
        spots.sort_unstable();
        for kind in kinds {
            for &at in &spots {
                out.push(Action::Recruit { kind, at });
            }
        }
    }

    // ----- effects -----------------------------------------------------------

    /// Plays an action known to be legal.
    pub fn play(&mut self, action: &Action) {
        self.play_with(action, &mut NoLog);
    }

    /// Plays an action known to be legal, telling `log` every blow, fall,
    /// refund and start-of-turn effect as it happens.
    pub(crate) fn play_with<L: Log>(&mut self, action: &Action, log: &mut L) {
        let pending = self.convertible.take();
        match *action {
            Action::Activate(h) => {
                if let Some(i) = self.index(h) {
                    self.pieces[i].acts += 1;
                    let mp = self.activation_mp(&self.pieces[i]);
                    self.active = Some(Active {
                        at: h,
                        mp,
                        tiles: 0,
                    });
                }
            }
            Action::Extra(h) => {
                if let Some(i) = self.index(h) {
                    let price = self.extra_price(&self.pieces[i]).unwrap_or(0);
                    let p = &mut self.pieces[i];
                    p.blood = p.blood.saturating_sub(price).max(1);
                    p.extra = true;
                    p.acts += 1;
                    let mp = self.activation_mp(&self.pieces[i]);
                    self.active = Some(Active {
                        at: h,
                        mp,
                        tiles: 0,
                    });
                }
            }
            Action::Move(to) => self.walk(to),
            Action::Melee(t) => {
                self.melee(t, log);
                self.end_act(log);
            }
            Action::Sweep(targets) => {
                self.sweep(&targets, log);
                self.end_act(log);
            }
            Action::Shoot(t) => self.shoot(t, log),
            Action::Holy(t) => self.holy(t, log),
            Action::Heal { healer, target } => {
                if let (Some(i), Some(j)) = (self.index(healer), self.index(target)) {
                    self.pieces[i].healed = true;
                    self.pieces[j].blood = ty(self.pieces[j].kind).blood;
                }
            }
            Action::Recruit { kind, at } => {
                // Unchecked play trusts the action; still never index out of
                // the table or stack two pieces on a hex.
                let Some(t) = table().pieces.get(kind.index()) else {
                    return;
                };
                if self.index(at).is_some() {
                    return;
                }
                let price = t.price.unwrap_or(0);
                let g = &mut self.grails[self.side.index()];
                *g = g.saturating_sub(u16::from(price));
                self.raise(kind, at);
            }
            Action::Convert(h) => {
                if let (Some((kind, _)), Some(a)) = (pending, self.active)
                    && let Some(i) = self.index(a.at)
                    && self.index(h).is_none()
                {
                    let cost = powers(&self.pieces[i]).convert.unwrap_or(0);
                    let g = &mut self.grails[self.side.index()];
                    *g = g.saturating_sub(u16::from(cost));
                    self.raise(kind, h);
                }
            }
            Action::EndAct => self.end_act(log),
            Action::EndTurn => self.end_turn(log),
        }
    }

    fn raise(&mut self, kind: Kind, at: Hex) {
        self.insert(Piece {
            kind,
            side: self.side,
            at,
            blood: ty(kind).blood,
            acts: 0,
            extra: false,
            healed: false,
            countered: false,
            idle: true,
        });
    }

    fn walk(&mut self, to: Hex) {
        let Some(a) = self.active else { return };
        let Some(i) = self.index(a.at) else { return };
        let pass = powers(&self.pieces[i]).pass_through;
        let Some(step) = self
            .reach(a.at, a.mp, pass)
            .into_iter()
            .find(|s| s.to == to)
        else {
            return;
        };
        let mut p = self.pieces.remove(i);
        p.at = to;
        self.insert(p);
        self.active = Some(Active {
            at: to,
            mp: a.mp - step.cost,
            tiles: a.tiles.saturating_add(step.tiles),
        });
    }

    /// Deals `damage` to the piece at index `i`; true if it fell.
    fn wound<L: Log>(&mut self, i: usize, damage: u8, by_enemy: bool, log: &mut L) -> bool {
        let p = &mut self.pieces[i];
        p.blood = p.blood.saturating_sub(damage);
        if p.blood == 0 {
            self.fall(i, by_enemy, log);
            true
        } else {
            false
        }
    }

    /// Removes a fallen piece: capture count, Grace, succession.
    fn fall<L: Log>(&mut self, i: usize, by_enemy: bool, log: &mut L) {
        let p = self.pieces.remove(i);
        self.fallen(p, by_enemy, log);
    }

    /// What follows a fall, once the fallen piece is off the field: the
    /// capture mark, the end of its act, Grace, succession.
    fn fallen<L: Log>(&mut self, p: Piece, by_enemy: bool, log: &mut L) {
        log.record(Record::Fell { piece: p, by_enemy });
        if by_enemy {
            self.captured = true;
        }
        if self.active.is_some_and(|a| a.at == p.at) {
            self.active = None;
        }
        let t = ty(p.kind);
        if let Some(price) = t.price {
            let graced = self.pieces.iter().any(|q| {
                q.side == p.side && powers(q).grace.is_some_and(|r| q.at.distance(p.at) <= r)
            });
            if graced {
                log.record(Record::Grace {
                    piece: p,
                    grails: u16::from(price),
                });
                let g = &mut self.grails[p.side.index()];
                *g = g.saturating_add(u16::from(price)).min(MAX_GRAILS);
            }
        }
        if t.king
            && let Some(heir) = self
                .pieces
                .iter()
                .position(|q| q.side == p.side && powers(q).succession)
        {
            log.record(Record::Crowned {
                heir: self.pieces[heir],
            });
            self.pieces[heir].kind = table().king();
        }
    }

    /// The defender on `defender` answers the attacker on `attacker`, if it
    /// may: once a round, adjacent (the Angel's wrath: within its range),
    /// never against the Untouchable.
    fn counter<L: Log>(&mut self, defender: Hex, attacker: Hex, log: &mut L) {
        if self.outcome().is_some() {
            return;
        }
        let (Some(di), Some(ai)) = (self.index(defender), self.index(attacker)) else {
            return;
        };
        let d = self.pieces[di];
        let a = self.pieces[ai];
        if d.countered || powers(&a).untouchable {
            return;
        }
        let distance = d.at.distance(a.at);
        let damage = match powers(&d).wrath {
            Some(w) if distance <= w.range => self.wrath_damage(w.attack),
            Some(_) => return,
            None if distance == 1 => {
                Self::damage(self.melee_attack(&d, &a, None), self.defence(&a))
            }
            None => return,
        };
        self.pieces[di].countered = true;
        log.record(Record::Counter {
            by: d,
            target: a,
            damage,
            wrath: powers(&d).wrath.is_some(),
        });
        self.wound(ai, damage, true, log);
    }

    fn melee<L: Log>(&mut self, target: Hex, log: &mut L) {
        let Some(a) = self.active else { return };
        let Some(i) = self.index(a.at) else { return };
        let blows = powers(&self.pieces[i]).fury.unwrap_or(1);
        for blow in 0..blows {
            if self.outcome().is_some() {
                return;
            }
            let (Some(ai), Some(ti)) = (self.index(a.at), self.index(target)) else {
                return;
            };
            let attacker = self.pieces[ai];
            let defender = self.pieces[ti];
            let damage = Self::damage(
                self.melee_attack(&attacker, &defender, Some(a.tiles)),
                self.defence(&defender),
            );
            log.record(Record::Blow {
                by: attacker,
                target: defender,
                damage,
                attack: Attack::Melee,
                blow: blow + 1,
            });
            if self.wound(ti, damage, true, log) {
                return;
            }
            if blow == 0 {
                self.counter(target, a.at, log);
            }
        }
    }

    fn sweep<L: Log>(&mut self, targets: &Targets, log: &mut L) {
        let Some(a) = self.active else { return };
        let Some(ai) = self.index(a.at) else { return };
        let attacker = self.pieces[ai];
        // The blows land at once: every damage is reckoned before any falls.
        let blows: Vec<(Hex, u8)> = targets
            .as_slice()
            .iter()
            .filter_map(|&t| {
                let d = self.piece_at(t)?;
                Some((
                    t,
                    Self::damage(
                        self.melee_attack(&attacker, d, Some(a.tiles)),
                        self.defence(d),
                    ),
                ))
            })
            .collect();
        // "at once": every blow lands, then the fallen leave the field
        // together, and only then is each fall reckoned (so an Angel falling
        // in the same Sweep gives no Grace, and the order the targets are
        // named in changes nothing but who counters).
        for &(t, damage) in &blows {
            if let Some(ti) = self.index(t) {
                log.record(Record::Blow {
                    by: attacker,
                    target: self.pieces[ti],
                    damage,
                    attack: Attack::Sweep,
                    blow: 1,
                });
                let p = &mut self.pieces[ti];
                p.blood = p.blood.saturating_sub(damage);
            }
        }
        let mut fallen = Vec::new();
        self.pieces.retain(|p| {
            if p.blood == 0 {
                fallen.push(*p);
                false
            } else {
                true
            }
        });
        for p in fallen {
            self.fallen(p, true, log);
        }
        self.counter(targets.first(), a.at, log);
    }

    fn shoot<L: Log>(&mut self, target: Hex, log: &mut L) {
        let Some(a) = self.active else { return };
        let (Some(ai), Some(ti)) = (self.index(a.at), self.index(target)) else {
            return;
        };
        let Some(r) = powers(&self.pieces[ai]).ranged else {
            return;
        };
        self.active = Some(Active {
            mp: a.mp.saturating_sub(r.cost),
            ..a
        });
        let damage = Self::damage(i16::from(r.attack), self.defence(&self.pieces[ti]));
        log.record(Record::Blow {
            by: self.pieces[ai],
            target: self.pieces[ti],
            damage,
            attack: Attack::Shot,
            blow: 1,
        });
        if !self.wound(ti, damage, true, log) {
            self.counter(target, a.at, log);
        }
    }

    fn holy<L: Log>(&mut self, target: Hex, log: &mut L) {
        let Some(a) = self.active else { return };
        let (Some(ai), Some(ti)) = (self.index(a.at), self.index(target)) else {
            return;
        };
        let caster = self.pieces[ai];
        let Some(h) = powers(&caster).holy_strike else {
            return;
        };
        self.active = Some(Active {
            mp: a.mp.saturating_sub(h.cost),
            ..a
        });
        let victim = self.pieces[ti];
        let damage = self.holy_damage(h.damage, &victim);
        log.record(Record::Blow {
            by: caster,
            target: victim,
            damage,
            attack: Attack::Holy,
            blow: 1,
        });
        if self.wound(ti, damage, true, log) {
            if powers(&caster).convert.is_some()
                && ty(victim.kind).convertible()
                && self.outcome().is_none()
            {
                self.convertible = Some((victim.kind, target));
            }
        } else {
            self.counter(target, a.at, log);
        }
    }

    fn end_act<L: Log>(&mut self, log: &mut L) {
        let Some(a) = self.active.take() else { return };
        let Some(i) = self.index(a.at) else { return };
        let p = self.pieces[i];
        if let Some(s) = powers(&p).sacrifice
            && p.acts == s.acts
        {
            let lost = if p.blood > s.blood || !self.options.sacrifice_spares {
                s.blood.min(p.blood)
            } else {
                p.blood - 1
            };
            log.record(Record::Sacrifice {
                piece: p,
                blood: lost,
            });
            if p.blood > s.blood {
                self.pieces[i].blood -= s.blood;
            } else if self.options.sacrifice_spares {
                self.pieces[i].blood = 1;
            } else {
                self.fall(i, false, log);
            }
        }
    }

    fn end_turn<L: Log>(&mut self, log: &mut L) {
        self.end_act(log);
        self.convertible = None;
        if self.outcome().is_some() {
            return;
        }
        if self.side == Side::Blue {
            self.quiet = if self.captured {
                0
            } else {
                self.quiet.saturating_add(1)
            };
            self.captured = false;
            self.round = self.round.saturating_add(1);
        }
        self.side = self.side.other();
        if self.outcome().is_none() {
            self.start_turn(log);
        }
    }

    /// The start of the side to move's turn: fresh acts, recruits wake,
    /// Holy City income, the Princess's recovery.
    pub(crate) fn start_turn<L: Log>(&mut self, log: &mut L) {
        let side = self.side;
        log.record(Record::TurnBegins { side });
        for p in &mut self.pieces {
            p.acts = 0;
            p.extra = false;
            p.healed = false;
            p.countered = false;
            if p.side == side {
                p.idle = false;
            }
        }
        let income = self.income(side);
        if income > 0 {
            log.record(Record::Income {
                side,
                grails: income,
            });
        }
        let g = &mut self.grails[side.index()];
        *g = g.saturating_add(income).min(MAX_GRAILS);
        let heal: Vec<(usize, u8)> = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.side == side)
            .filter_map(|(i, p)| {
                let a = self.aura(p, |w| w.aura_recovery)?;
                Some((i, a.amount.max(0) as u8))
            })
            .collect();
        for (i, amount) in heal {
            let before = self.pieces[i];
            let p = &mut self.pieces[i];
            p.blood = p.blood.saturating_add(amount).min(ty(p.kind).blood);
            if p.blood > before.blood {
                let blood = p.blood - before.blood;
                log.record(Record::Recovery {
                    piece: before,
                    blood,
                });
            }
        }
    }

    /// The Grails `side` earns at the start of its turn: for each Holy City
    /// holding one of its royals and no enemy, the city's income.
    pub fn income(&self, side: Side) -> u16 {
        let mut total = 0u16;
        for (c, _) in self.scenario.cities.iter().enumerate() {
            let mut royal = false;
            let mut enemy = false;
            for p in &self.pieces {
                if self.scenario.city(p.at) == Some(c as u8) {
                    if p.side == side {
                        royal |= ty(p.kind).royal;
                    } else {
                        enemy = true;
                    }
                }
            }
            if royal && !enemy {
                total += u16::from(table().rules.city_income);
            }
        }
        total
    }
}

/// What one attack of the active piece would do, reckoned by playing it on a
/// copy with the engine's own combat (so it is what the attack then does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Forecast {
    /// The attack's notation (`melee@e5`, `shoot@e5`, `holy@e5`).
    pub action: String,
    /// `melee`, `shot` or `holy`.
    pub attack: &'static str,
    /// The foe struck.
    pub target: Hex,
    /// Blood the foe loses, every blow counted (a Berserker's Fury: two),
    /// never more than it has.
    pub damage: u8,
    /// Blows struck (a second Fury blow only if the first does not fell it).
    pub blows: u8,
    /// Whether the foe falls.
    pub kills: bool,
    /// Blood the attacker loses to the foe's counter-blow (or an Angel's
    /// wrath); `None` when the foe does not answer.
    pub counter_damage: Option<u8>,
    /// Whether the counter-blow fells the attacker.
    pub counter_kills: bool,
}

impl Covenant {
    /// The forecast of `action` if it is a legal melee blow, shot or holy
    /// strike of the active piece; `None` for any other action.
    pub fn forecast(&self, action: &Action) -> Option<Forecast> {
        let (attack, target) = match *action {
            Action::Melee(t) => ("melee", t),
            Action::Shoot(t) => ("shot", t),
            Action::Holy(t) => ("holy", t),
            _ => return None,
        };
        if self.outcome().is_some() || self.check(action).is_err() {
            return None;
        }
        let attacker = *self.piece_at(self.active?.at)?;
        let foe = *self.piece_at(target)?;
        let mut log: Vec<Record> = Vec::new();
        self.clone().play_with(action, &mut log);
        let mut f = Forecast {
            action: action.to_string(),
            attack,
            target,
            damage: 0,
            blows: 0,
            kills: false,
            counter_damage: None,
            counter_kills: false,
        };
        for record in &log {
            match *record {
                // Each record holds the piece as it was just before.
                Record::Blow {
                    target: t, damage, ..
                } if t.at == target && t.side == foe.side => {
                    f.damage = f.damage.saturating_add(damage.min(t.blood));
                    f.blows += 1;
                }
                Record::Counter {
                    target: t, damage, ..
                } if t.at == attacker.at && t.side == attacker.side => {
                    f.counter_damage = Some(damage.min(t.blood));
                    f.counter_kills = damage >= t.blood;
                }
                Record::Fell { piece, .. } if piece.at == target && piece.side == foe.side => {
                    f.kills = true;
                }
                _ => {}
            }
        }
        Some(f)
    }
}

/// Every Sweep over the adjacent foes: each first target with each set of
/// 1 to `n - 1` others.
fn sweeps(foes: &[Hex], n: usize, out: &mut Vec<Action>) {
    let k = foes.len();
    if k < 2 {
        return;
    }
    for (fi, &first) in foes.iter().enumerate() {
        let others: Vec<Hex> = foes
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != fi)
            .map(|(_, &h)| h)
            .collect();
        for mask in 1u32..(1 << others.len()) {
            let count = mask.count_ones() as usize;
            if count + 1 > n {
                continue;
            }
            let chosen: Vec<Hex> = others
                .iter()
                .enumerate()
                .filter(|&(j, _)| mask & (1 << j) != 0)
                .map(|(_, &h)| h)
                .collect();
            if let Some(t) = Targets::new(first, &chosen) {
                out.push(Action::Sweep(t));
            }
        }
    }
}
