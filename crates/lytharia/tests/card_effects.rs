//! A test per card: every spell, every troop ability, every equipment card and
//! every troop's printed Att/Def and damage type do what the card says.
//!
//! The tables below are transcribed by hand from each card's rules *text*
//! (not from its effect data), so a card whose data disagrees with its text,
//! or an engine that resolves an effect wrongly, fails here and the failure
//! names the card. Each card is played in a small position built for it, and
//! the test checks the state change the text promises: damage dealt, damage
//! healed, stats changed (and when the change runs out), cards drawn, mana
//! gained or lost, equipment removed, troops revealed or killed, spells
//! countered, and d6 outcomes through the exact chance node.

mod common;

use common::*;
use tabula_core::{ChanceModel, Game, Probability, ToAct};
use tabula_lytharia::cards::{Card, Kind};
use tabula_lytharia::state::{Stage, Stats, Unit};
use tabula_lytharia::{Lytharia, card_db};

// ---------------------------------------------------------------- shared

/// What a spell or ability aims at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Aim {
    None,
    /// The ability's own troop.
    Own,
    Friend,
    Enemy,
    AllFriends,
    AllEnemies,
    AdjacentFriends,
    AdjacentEnemies,
    /// The spell below on the stack.
    Spell,
}

/// A die roll the text promises.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dice {
    No,
    /// "N + d6".
    Add,
    /// "Roll a d6: on N+".
    AtLeast(u8),
}

/// Which troops the text limits the effect to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Only {
    All,
    /// "an evil troop".
    Evil,
    /// "that is not an elemental".
    NotElemental,
    /// "a damaged enemy of power 9 or less".
    DamagedPower9,
}

impl Only {
    fn holds(self, u: &Unit) -> bool {
        let t = u.troop();
        match self {
            Only::All => true,
            Only::Evil => t.alignment == tabula_lytharia::cards::Alignment::Evil,
            Only::NotElemental => t.kind != Kind::Elemental,
            Only::DamagedPower9 => u.damage > 0 && t.power <= 9,
        }
    }
}

/// One card's promise, transcribed from its text.
#[derive(Clone, Copy, Debug)]
struct P {
    id: &'static str,
    aim: Aim,
    dmg: i32,
    heal: i32,
    att: i32,
    def: i32,
    ward: i32,
    guard: i32,
    root: bool,
    /// Temporary stat changes last this many turns (1 = this turn only).
    turns: u32,
    /// An enchantment lasting this many turns (0 = until removed).
    enchant: Option<u32>,
    draw: usize,
    mana: i32,
    drain: i32,
    income: i32,
    roll: Dice,
    destroy: bool,
    unequip: bool,
    reveal: bool,
    hold: bool,
    counter: bool,
    only: Only,
    // Troop abilities only.
    /// Ability index on the troop.
    index: u8,
    /// How far a single target may be (king steps); `None` = anywhere.
    range: Option<i32>,
    /// The troop need not reveal to use it ("usable face down").
    face_down: bool,
    /// The troop deals magic damage.
    magic: bool,
}

const NO: P = P {
    id: "",
    aim: Aim::None,
    dmg: 0,
    heal: 0,
    att: 0,
    def: 0,
    ward: 0,
    guard: 0,
    root: false,
    turns: 0,
    enchant: None,
    draw: 0,
    mana: 0,
    drain: 0,
    income: 0,
    roll: Dice::No,
    destroy: false,
    unequip: false,
    reveal: false,
    hold: false,
    counter: false,
    only: Only::All,
    index: 0,
    range: None,
    face_down: false,
    magic: false,
};

impl P {
    fn faces(&self) -> Vec<Option<u8>> {
        match self.roll {
            Dice::No => vec![None],
            _ => (1..=6).map(Some).collect(),
        }
    }

    /// Whether the roll lets the effect happen.
    fn hits(&self, face: Option<u8>) -> bool {
        match (self.roll, face) {
            (Dice::AtLeast(n), Some(f)) => f >= n,
            _ => true,
        }
    }

    fn bonus(&self, face: Option<u8>) -> i32 {
        match (self.roll, face) {
            (Dice::Add, Some(f)) => i32::from(f),
            _ => 0,
        }
    }

    fn has_stat(&self) -> bool {
        self.att != 0 || self.def != 0 || self.ward != 0 || self.guard != 0 || self.root
    }
}

fn diff(a: Stats, b: Stats) -> (i32, i32, i32, i32, bool) {
    (
        a.att - b.att,
        a.def - b.def,
        a.ward - b.ward,
        a.guard - b.guard,
        a.rooted && !b.rooted,
    )
}

fn promised(p: &P) -> (i32, i32, i32, i32, bool) {
    (p.att, p.def, p.ward, p.guard, p.root)
}

/// The rolled chance node lists the six faces at 1/6 each; plays `face`.
fn roll(g: &mut Lytharia, face: Option<u8>, who: &str) {
    match face {
        Some(f) => {
            assert_eq!(g.to_act(), ToAct::Chance, "{who}: a die is rolled");
            let ChanceModel::Exact(outcomes) = g.chance() else {
                panic!("{who}: the die is an exact chance node")
            };
            let sixth = Probability::new(1, 6).unwrap();
            let faces: Vec<String> = outcomes.iter().map(|(a, _)| a.to_string()).collect();
            assert_eq!(
                faces,
                (1..=6).map(|n| format!("d6 {n}")).collect::<Vec<_>>(),
                "{who}"
            );
            assert!(outcomes.iter().all(|(_, p)| *p == sixth), "{who}");
            act(g, &format!("d6 {f}"));
        }
        None => assert_ne!(g.to_act(), ToAct::Chance, "{who}: no die expected"),
    }
}

/// Every troop's damage, stats, face and equipment, by uid.
type Snap = Vec<(u32, String, i32, Stats, bool, usize)>;

fn snap(g: &Lytharia) -> Snap {
    let st = g.state();
    st.units
        .iter()
        .map(|u| {
            (
                u.uid,
                u.at.to_string(),
                u.damage,
                st.stats(u),
                u.face_up,
                u.equipment.len(),
            )
        })
        .collect()
}

fn find(s: &Snap, uid: u32) -> Option<&(u32, String, i32, Stats, bool, usize)> {
    s.iter().find(|x| x.0 == uid)
}

/// Checks every troop after an effect against the state before (or a
/// control game where the effect was not used): the `hit` troops show the
/// promise, every other troop is untouched.
fn check_troops(
    who: &str,
    p: &P,
    face: Option<u8>,
    before: &Lytharia,
    after: &Lytharia,
    hit: &[u32],
) {
    let (b, a) = (snap(before), snap(after));
    let bonus = p.bonus(face);
    for (uid, at, dmg0, st0, up0, eq0) in &b {
        let affected = hit.contains(uid);
        let Some((_, _, dmg1, st1, up1, eq1)) = find(&a, *uid) else {
            assert!(
                affected && p.destroy,
                "{who}: the troop on {at} is gone but should not be"
            );
            continue;
        };
        assert!(
            !(affected && p.destroy),
            "{who}: the troop on {at} should have been killed"
        );
        let mut want = *dmg0;
        if affected {
            if p.heal > 0 {
                want = (want - p.heal - bonus).max(0);
            }
            if p.dmg > 0 || p.roll == Dice::Add && p.heal == 0 {
                want += p.dmg + bonus;
            }
        }
        assert_eq!(*dmg1, want, "{who}: damage on {at}");
        let d = diff(*st1, *st0);
        if affected {
            let mut want = promised(p);
            if p.unequip {
                // The arena's Longsword (+4 Att) and Chain Mail (+2 Def) are gone.
                want.0 -= 4;
                want.1 -= 2;
            }
            assert_eq!(d, want, "{who}: stat change on {at}");
        } else {
            assert_eq!(d, (0, 0, 0, 0, false), "{who}: the troop on {at} changed");
        }
        if p.reveal && affected {
            assert!(*up1, "{who}: the troop on {at} is revealed");
        } else if !p.reveal && p.only == Only::All {
            assert_eq!(up0, up1, "{who}: face of the troop on {at}");
        }
        if p.unequip && affected {
            assert_eq!(*eq1, 0, "{who}: equipment left on {at}");
        } else {
            assert_eq!(eq0, eq1, "{who}: equipment on {at}");
        }
    }
}

/// Plays turns and checks that a temporary change holds for `turns` turns
/// (the current one counted) and is gone after.
fn check_duration(
    who: &str,
    p: &P,
    g: &mut Lytharia,
    base: &Lytharia,
    targets: &[u32],
    turns: u32,
) {
    let start = g.state().turn;
    let stat_of = |g: &Lytharia, uid: u32| {
        let st = g.state();
        st.units.iter().find(|u| u.uid == uid).map(|u| st.stats(u))
    };
    for k in 1..=turns {
        next_turn(g);
        let still = k < turns;
        for &uid in targets {
            let (Some(now), Some(orig)) = (stat_of(g, uid), stat_of(base, uid)) else {
                panic!("{who}: a target left the board")
            };
            let d = diff(now, orig);
            if still {
                assert_eq!(
                    d,
                    promised(p),
                    "{who}: still in force on turn {}",
                    start + k
                );
            } else {
                assert_eq!(
                    d,
                    (0, 0, 0, 0, false),
                    "{who}: over on turn {} ({turns} turns)",
                    start + k
                );
            }
        }
        // A rooted enemy has no move on its own turn.
        if p.root && still && g.state().active == 1 {
            for &uid in targets {
                let at = g
                    .state()
                    .units
                    .iter()
                    .find(|u| u.uid == uid)
                    .map(|u| u.at.to_string())
                    .unwrap();
                assert!(
                    !legal(g).iter().any(|a| a.starts_with(&format!("{at}-"))),
                    "{who}: the rooted troop on {at} moves"
                );
            }
        }
    }
}

/// Runs `check` for every card and fails once at the end, naming every card
/// whose check failed (each failure's message is printed as it happens).
fn each_card<'a, T: 'a + ?Sized>(
    cards: impl Iterator<Item = (&'static str, &'a T)>,
    check: impl Fn(&'a T) + std::panic::RefUnwindSafe,
) where
    &'a T: std::panic::UnwindSafe,
{
    let mut failed = Vec::new();
    for (name, card) in cards {
        if std::panic::catch_unwind(|| check(card)).is_err() {
            failed.push(name);
        }
    }
    assert!(
        failed.is_empty(),
        "cards not doing what they say: {failed:?}"
    );
}

// ---------------------------------------------------------------- spells

use Aim as A;

/// Every spell of the set, as its text reads.
#[rustfmt::skip]
const SPELLS: &[P] = &[
    // Life
    P { id: "mending-light", aim: A::Friend, heal: 3, ..NO },
    P { id: "renewal", aim: A::AllFriends, heal: 2, ..NO },
    P { id: "blessing-of-vigor", aim: A::Friend, def: 2, enchant: Some(0), ..NO },
    P { id: "sanctuary", aim: A::Friend, ward: 3, turns: 2, ..NO },
    P { id: "smite-evil", aim: A::Enemy, dmg: 4, only: Only::Evil, ..NO },
    P { id: "lifebloom-grove", income: 1, enchant: Some(0), ..NO },
    P { id: "second-wind", aim: A::Friend, heal: 1, roll: Dice::Add, ..NO },
    P { id: "guardian-spirit", aim: A::Friend, guard: 2, turns: 2, ..NO },
    P { id: "radiant-insight", draw: 2, ..NO },
    P { id: "stand-fast", hold: true, ..NO },
    // Death
    P { id: "soul-rot", aim: A::Enemy, dmg: 3, ..NO },
    P { id: "death-grip", aim: A::Enemy, destroy: true, roll: Dice::AtLeast(4), ..NO },
    P { id: "wither", aim: A::Enemy, att: -3, turns: 2, ..NO },
    P { id: "curse-of-frailty", aim: A::Enemy, def: -2, enchant: Some(0), ..NO },
    P { id: "grave-chill", aim: A::Enemy, root: true, turns: 2, ..NO },
    P { id: "blood-tithe", mana: 3, ..NO },
    P { id: "plague-cloud", aim: A::AllEnemies, dmg: 1, only: Only::NotElemental, ..NO },
    P { id: "dread-aura", aim: A::AllEnemies, att: -1, enchant: Some(3), ..NO },
    P { id: "mind-drain", drain: 2, ..NO },
    P { id: "final-rest", aim: A::Enemy, destroy: true, only: Only::DamagedPower9, ..NO },
    // Fire
    P { id: "firebolt", aim: A::Enemy, dmg: 2, ..NO },
    P { id: "fireball", aim: A::Enemy, dmg: 2, roll: Dice::Add, ..NO },
    P { id: "flame-blade", aim: A::Friend, att: 3, turns: 1, ..NO },
    P { id: "inferno", aim: A::AllEnemies, dmg: 2, ..NO },
    P { id: "kindle-rage", aim: A::Friend, att: 2, enchant: Some(0), ..NO },
    P { id: "cauterize", aim: A::Friend, heal: 2, ..NO },
    P { id: "melt-armor", aim: A::Enemy, unequip: true, ..NO },
    P { id: "forgeheart", income: 1, enchant: Some(4), ..NO },
    // Water
    P { id: "frost-shard", aim: A::Enemy, dmg: 2, ..NO },
    P { id: "tidal-surge", aim: A::AllEnemies, dmg: 2, roll: Dice::AtLeast(4), ..NO },
    P { id: "healing-rain", aim: A::AllFriends, heal: 1, ..NO },
    P { id: "deep-freeze", aim: A::Enemy, root: true, turns: 3, ..NO },
    P { id: "mist-veil", aim: A::Friend, guard: 2, turns: 2, ..NO },
    P { id: "undertow", aim: A::Enemy, att: -2, def: -1, turns: 2, ..NO },
    P { id: "wellspring", draw: 1, mana: 1, ..NO },
    P { id: "glacial-armor", aim: A::Friend, def: 3, enchant: Some(0), ..NO },
    // Earth
    P { id: "stoneskin", aim: A::Friend, def: 3, turns: 2, ..NO },
    P { id: "boulder-toss", aim: A::Enemy, dmg: 3, ..NO },
    P { id: "entangling-roots", aim: A::Enemy, root: true, turns: 2, ..NO },
    P { id: "earthquake", aim: A::AllEnemies, dmg: 2, only: Only::NotElemental, ..NO },
    P { id: "mountain-strength", aim: A::Friend, att: 1, def: 2, enchant: Some(0), ..NO },
    P { id: "bedrock-ward", aim: A::AllFriends, guard: 1, enchant: Some(0), ..NO },
    P { id: "shatter", aim: A::Enemy, unequip: true, ..NO },
    P { id: "ley-stone", income: 1, enchant: Some(0), ..NO },
    // Air
    P { id: "lightning-bolt", aim: A::Enemy, dmg: 3, ..NO },
    P { id: "gale-force", aim: A::Enemy, att: -2, turns: 1, ..NO },
    P { id: "tailwind", draw: 1, ..NO },
    P { id: "storm-call", aim: A::Enemy, dmg: 1, roll: Dice::Add, ..NO },
    P { id: "far-sight", aim: A::Enemy, reveal: true, draw: 1, ..NO },
    P { id: "chain-lightning", aim: A::AllEnemies, dmg: 3, roll: Dice::AtLeast(5), ..NO },
    P { id: "skyward-shield", aim: A::Friend, ward: 2, enchant: Some(0), ..NO },
    P { id: "thunderclap", aim: A::Enemy, dmg: 1, root: true, turns: 2, ..NO },
    // Arcane
    P { id: "counterspell", aim: A::Spell, counter: true, ..NO },
    P { id: "arcane-missile", aim: A::Enemy, dmg: 1, ..NO },
    P { id: "mana-surge", mana: 2, ..NO },
    P { id: "arcane-insight", draw: 2, ..NO },
    P { id: "unveil", aim: A::Enemy, reveal: true, ..NO },
    P { id: "nullify", aim: A::Spell, counter: true, ..NO },
    P { id: "rune-of-power", aim: A::Friend, att: 1, ward: 1, enchant: Some(0), ..NO },
    P { id: "arcane-binding", aim: A::Enemy, root: true, enchant: Some(2), ..NO },
];

/// Seat 0 to act in its main phase: Kings on a1 (Orvik) and h8 (Vorzak),
/// spare troops on h5 and a6; a friendly Bronn on d4, the `enemy` on d5 and
/// an elemental enemy (Clay Homunculus) on f6. Seat 0's troops carry
/// `friend_damage` (at most 8 on Bronn, 4 on the others). Mana 9 and 10.
fn arena(enemy: &str, enemy_damage: i32, friend_damage: i32) -> Lytharia {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d4");
    put(&mut g, 1, enemy, "d5");
    put(&mut g, 1, "clay-homunculus", "f6");
    edit_unit(&mut g, "d4", |u| u.damage = friend_damage.min(8));
    edit_unit(&mut g, "a1", |u| u.damage = friend_damage.min(4));
    edit_unit(&mut g, "h5", |u| u.damage = friend_damage.min(4));
    edit_unit(&mut g, "d5", |u| u.damage = enemy_damage);
    g.edit(|st| {
        st.sides[0].mana = 9;
        st.sides[1].mana = 10;
    });
    g
}

fn uids(g: &Lytharia, f: impl Fn(&Unit) -> bool) -> Vec<u32> {
    g.state()
        .units
        .iter()
        .filter(|u| f(u))
        .map(|u| u.uid)
        .collect()
}

fn spell_cost(id: &str) -> i32 {
    card_db()
        .card(common::id(id))
        .spell()
        .map(|s| s.cost)
        .unwrap()
}

fn check_counter(p: &P) {
    let who = p.id;
    let mut g = arena("siege-crawler", 0, 8);
    give(&mut g, 0, &["firebolt"]);
    give(&mut g, 1, &[p.id]);
    act(&mut g, "cast firebolt @d5");
    act(&mut g, &format!("cast {}", p.id));
    assert_eq!(
        g.state().sides[1].mana,
        10 - spell_cost(p.id),
        "{who}: cost"
    );
    act(&mut g, "pass");
    let st = g.state();
    assert_eq!(
        unit(&g, "d5").unwrap().damage,
        0,
        "{who}: Firebolt had no effect"
    );
    assert!(st.sides[0].nether.contains(&id("firebolt")), "{who}");
    assert!(st.sides[1].nether.contains(&id(p.id)), "{who}");
    assert!(st.stack.is_empty(), "{who}");
}

/// Casts the spell in an arena and checks its promise.
fn check_spell(p: &P, enemy: &str, enemy_damage: i32, friend_damage: i32, face: Option<u8>) {
    let who = format!(
        "{} (enemy {enemy} with {enemy_damage} damage, friends with {friend_damage}, die {face:?})",
        p.id
    );
    let mut g = arena(enemy, enemy_damage, friend_damage);
    if p.unequip {
        edit_unit(&mut g, "d5", |u| {
            u.equipment = vec![id("longsword"), id("chain-mail")];
        });
    }
    if p.reveal {
        g.edit(|st| {
            for u in &mut st.units {
                if u.owner == 1 {
                    u.face_up = false;
                }
            }
        });
    }
    give(&mut g, 0, &[p.id]);
    let before = g.clone();
    let hand = g.state().sides[0].hand.len();
    if p.hold {
        assert!(!is_legal(&g, "end"), "{who}: a troop must move first");
    }
    let (target, in_aim): (Option<&str>, Vec<u32>) = match p.aim {
        A::Friend => (Some("d4"), uids(&g, |u| u.at == sq("d4"))),
        A::Enemy => (Some("d5"), uids(&g, |u| u.at == sq("d5"))),
        A::AllFriends => (None, uids(&g, |u| u.owner == 0)),
        A::AllEnemies => (None, uids(&g, |u| u.owner == 1)),
        _ => (None, Vec::new()),
    };
    let hit: Vec<u32> = if p.hits(face) {
        let st = g.state();
        in_aim
            .iter()
            .copied()
            .filter(|uid| {
                st.units
                    .iter()
                    .find(|u| u.uid == *uid)
                    .is_some_and(|u| p.only.holds(u))
            })
            .collect()
    } else {
        Vec::new()
    };
    let cast = match target {
        Some(t) => format!("cast {} @{t}", p.id),
        None => format!("cast {}", p.id),
    };
    act(&mut g, &cast);
    act(&mut g, "pass");
    roll(&mut g, face, &who);
    assert!(g.state().stack.is_empty(), "{who}: resolved");
    check_troops(&who, p, face, &before, &g, &hit);
    // The reveal promise holds whatever the condition.
    if p.reveal {
        for uid in &in_aim {
            let u = g.state().units.iter().find(|u| u.uid == *uid).unwrap();
            assert!(u.face_up, "{who}: revealed");
        }
    }
    let st = g.state();
    let cost = spell_cost(p.id);
    assert_eq!(
        st.sides[0].mana,
        (9 - cost + p.mana).min(15),
        "{who}: mana after paying {cost}"
    );
    assert_eq!(st.sides[1].mana, 10 - p.drain, "{who}: opponent's mana");
    assert_eq!(st.sides[0].hand.len(), hand - 1 + p.draw, "{who}: hand");
    if p.unequip && !hit.is_empty() {
        for e in ["longsword", "chain-mail"] {
            assert!(
                st.sides[1].nether.contains(&id(e)),
                "{who}: {e} to its owner's nether"
            );
        }
    }
    if p.hold {
        assert!(is_legal(&g, "end"), "{who}: may end without moving");
    }
    match p.enchant {
        None => assert!(
            st.sides[0].nether.contains(&id(p.id)),
            "{who}: to the nether"
        ),
        Some(_) => assert!(
            st.sides[0].enchants.iter().any(|e| e.card == id(p.id)),
            "{who}: in an enchant space"
        ),
    }
    if p.income > 0 {
        let mut h = g.clone();
        h.edit(|st| st.sides[0].mana = 0);
        next_turn(&mut h);
        next_turn(&mut h);
        assert_eq!(
            h.state().sides[0].mana,
            1 + p.income,
            "{who}: the next mana phase gains the obelisk (1) and {}",
            p.income
        );
        // Seat 0's mana phases come on odd turns; play to the first one after
        // the enchantment is gone (if it ever goes) and see the income stop.
        if let Some(n @ 1..) = p.enchant {
            let start = h.state().turn;
            while h.state().turn < 1 + n || h.state().active != 0 {
                next_turn(&mut h);
            }
            let st = h.state();
            assert!(
                st.sides[0].enchants.is_empty() && st.sides[0].nether.contains(&id(p.id)),
                "{who}: gone after {n} turns"
            );
            let mut k = h.clone();
            k.edit(|st| st.sides[0].mana = 0);
            next_turn(&mut k);
            next_turn(&mut k);
            assert_eq!(
                k.state().sides[0].mana,
                1,
                "{who}: no income once gone (from turn {start})"
            );
        }
    }
    // Durations.
    if p.has_stat() && !hit.is_empty() {
        match p.enchant {
            None => check_duration(&who, p, &mut g, &before, &hit, p.turns),
            Some(0) => {
                for _ in 0..4 {
                    next_turn(&mut g);
                }
                for uid in &hit {
                    let st = g.state();
                    let u = st.units.iter().find(|u| u.uid == *uid).unwrap();
                    let b = before.state();
                    let u0 = b.units.iter().find(|u| u.uid == *uid).unwrap();
                    assert_eq!(
                        diff(st.stats(u), b.stats(u0)),
                        promised(p),
                        "{who}: an enchantment until removed"
                    );
                }
            }
            Some(n) => {
                check_duration(&who, p, &mut g, &before, &hit, n);
                let st = g.state();
                assert!(
                    st.sides[0].nether.contains(&id(p.id)) && st.sides[0].enchants.is_empty(),
                    "{who}: leaves its space after {n} turns"
                );
            }
        }
    }
}

#[test]
fn every_spell_resolves_as_its_text_says() {
    each_card(SPELLS.iter().map(|p| (p.id, p)), |p| {
        if p.counter {
            check_counter(p);
            return;
        }
        for face in p.faces() {
            match p.only {
                Only::All if p.unequip => check_spell(p, "drowned-sentinel", 0, 8, face),
                Only::All | Only::NotElemental => {
                    check_spell(p, "siege-crawler", 0, 8, face);
                    if p.heal > 0 {
                        // Healing removes damage, never more than there is.
                        check_spell(p, "siege-crawler", 0, 1, face);
                    }
                }
                Only::Evil => {
                    check_spell(p, "siege-crawler", 0, 8, face);
                    check_spell(p, "war-mammoth", 0, 8, face);
                }
                Only::DamagedPower9 => {
                    check_spell(p, "hollow-rider", 1, 8, face);
                    check_spell(p, "hollow-rider", 0, 8, face);
                    check_spell(p, "siege-crawler", 1, 8, face);
                }
            }
        }
    });
}

// ---------------------------------------------------------------- troop abilities

/// Ability phases.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ph {
    Effects,
    Main,
    Passive,
}

/// Every troop ability of the set, as its troop's text reads.
#[rustfmt::skip]
const ABILITIES: &[(Ph, P)] = &[
    (Ph::Passive, P { id: "thane-orvik", aim: A::AdjacentFriends, def: 1, ..NO }),
    (Ph::Main, P { id: "vorzak", aim: A::Enemy, range: Some(2), dmg: 2, magic: true, ..NO }),
    (Ph::Effects, P { id: "matriarch-ysolde", aim: A::Friend, range: Some(1), heal: 2, ..NO }),
    (Ph::Passive, P { id: "grukk-skullcrown", aim: A::Own, att: 1, ..NO }),
    (Ph::Passive, P { id: "elder-tamsin", income: 1, ..NO }),
    (Ph::Effects, P { id: "brudak-ferryman", draw: 1, ..NO }),
    (Ph::Main, P { id: "warden-esselde", aim: A::Friend, range: Some(2), heal: 3, ..NO }),
    (Ph::Main, P { id: "mother-of-gloom", aim: A::Enemy, range: Some(1), att: -2, turns: 2, ..NO }),
    (Ph::Passive, P { id: "magmaw", aim: A::Own, ward: 1, magic: true, ..NO }),
    (Ph::Passive, P { id: "warmother-hrasha", aim: A::AdjacentFriends, att: 1, ..NO }),
    (Ph::Effects, P { id: "nerea-sunken-bell", aim: A::AdjacentEnemies, dmg: 1, magic: true, ..NO }),
    (Ph::Passive, P { id: "stoneborn-shieldwall", aim: A::Own, guard: 1, ..NO }),
    (Ph::Passive, P { id: "granite-colossus", aim: A::Own, ward: 2, ..NO }),
    (Ph::Passive, P { id: "brudakian-tower-guard", aim: A::Own, guard: 1, ..NO }),
    (Ph::Effects, P { id: "kevetni-oakwarden", aim: A::Own, heal: 1, ..NO }),
    (Ph::Main, P { id: "drowned-sentinel", aim: A::Enemy, range: Some(1), root: true, turns: 2, ..NO }),
    (Ph::Passive, P { id: "antlered-elk", aim: A::Own, guard: 1, ..NO }),
    (Ph::Main, P { id: "lurker-spider", aim: A::Enemy, range: Some(1), root: true, turns: 2, face_down: true, ..NO }),
    (Ph::Main, P { id: "storm-hawk", aim: A::Enemy, range: Some(3), reveal: true, face_down: true, ..NO }),
    (Ph::Main, P { id: "sun-lancer-dariel", aim: A::Own, att: 2, turns: 1, ..NO }),
    (Ph::Effects, P { id: "lightbinder", aim: A::Friend, range: Some(1), heal: 1, ..NO }),
    (Ph::Main, P { id: "runepriest", aim: A::Friend, range: Some(1), def: 2, turns: 2, ..NO }),
    (Ph::Effects, P { id: "soulbinder", aim: A::Enemy, range: Some(2), dmg: 1, magic: true, ..NO }),
    (Ph::Main, P { id: "bone-shaman", aim: A::Friend, range: Some(1), att: 2, turns: 1, ..NO }),
    (Ph::Effects, P { id: "tidecaller", aim: A::Friend, range: Some(2), heal: 1, ..NO }),
    (Ph::Main, P { id: "sand-seer", aim: A::Enemy, reveal: true, face_down: true, ..NO }),
    (Ph::Main, P { id: "wisp-of-embers", aim: A::Enemy, range: Some(1), roll: Dice::Add, magic: true, ..NO }),
    (Ph::Effects, P { id: "grave-whisperer", drain: 1, ..NO }),
    (Ph::Effects, P { id: "moss-druid", aim: A::Own, heal: 2, ..NO }),
    (Ph::Main, P { id: "plague-mystic", aim: A::AdjacentEnemies, dmg: 1, magic: true, only: Only::NotElemental, ..NO }),
    (Ph::Main, P { id: "kevetni-archer", aim: A::Enemy, range: Some(2), dmg: 1, ..NO }),
    (Ph::Effects, P { id: "kevetni-acolyte", aim: A::Friend, range: Some(1), heal: 1, ..NO }),
    (Ph::Main, P { id: "goblin-slinger", aim: A::Enemy, range: Some(2), dmg: 1, ..NO }),
    (Ph::Passive, P { id: "bog-ghoul", aim: A::Own, guard: 1, ..NO }),
    (Ph::Main, P { id: "brudakian-harpooner", aim: A::Enemy, range: Some(2), root: true, turns: 2, ..NO }),
    (Ph::Main, P { id: "surictavi-scout", aim: A::Enemy, range: Some(3), reveal: true, face_down: true, ..NO }),
    (Ph::Effects, P { id: "troll-whelp", aim: A::Own, heal: 1, ..NO }),
];

/// The square `n` ranks below (negative: above) d4.
fn d_file(rank: i32) -> String {
    format!("d{rank}")
}

/// An arena for a troop ability: the troop (seat 0, face down) on d4, the
/// usual Kings and spares, and targets placed for the ability's aim.
/// Returns the game and the square of the chosen single target.
fn ability_arena(p: &P, enemy: &str) -> (Lytharia, Option<String>) {
    let mut g = blank();
    put(&mut g, 0, p.id, "d4");
    let r = p.range.unwrap_or(4);
    let target = match p.aim {
        A::Own => {
            if p.heal > 0 {
                edit_unit(&mut g, "d4", |u| u.damage = 3);
            }
            Some("d4".to_owned())
        }
        A::Friend => {
            let t = d_file(4 - r);
            put(&mut g, 0, "bronn", &t);
            edit_unit(&mut g, &t, |u| u.damage = 8);
            Some(t)
        }
        A::Enemy => {
            let t = d_file(4 + r);
            put(&mut g, 1, enemy, &t);
            Some(t)
        }
        A::AdjacentEnemies => {
            put(&mut g, 1, enemy, "d5");
            put(&mut g, 1, "clay-homunculus", "e5");
            put(&mut g, 1, "cave-grub", "d6");
            None
        }
        A::AdjacentFriends => {
            put(&mut g, 0, "bronn", "d3");
            put(&mut g, 0, "stag-rider", "d2");
            None
        }
        _ => None,
    };
    g.edit(|st| {
        for u in &mut st.units {
            if u.at == sq("d4") || (p.reveal && u.owner == 1) {
                u.face_up = false;
            }
        }
        st.sides[0].mana = 5;
        st.sides[1].mana = 5;
    });
    (g, target)
}

fn check_active_ability(ph: Ph, p: &P, enemy: &str, face: Option<u8>) {
    let who = format!(
        "{} ability {} (target {enemy}, die {face:?})",
        p.id, p.index
    );
    let (mut g, target) = ability_arena(p, enemy);
    if ph == Ph::Effects {
        g.edit(|st| st.stage = Stage::Effects);
    }
    // Range and side: the promised targets and no others.
    let use_on = |t: &str| format!("use d4 {} @{t}", p.index);
    if let Some(r) = p.range {
        match p.aim {
            A::Friend => {
                let out = d_file(4 - r - 1);
                let mut h = g.clone();
                put(&mut h, 0, "stoneborn-militia", &out);
                assert!(!is_legal(&h, &use_on(&out)), "{who}: out of range");
                assert!(!is_legal(&g, &use_on("d4")), "{who}: not on itself");
            }
            A::Enemy => {
                let out = d_file(4 + r + 1);
                let mut h = g.clone();
                put(&mut h, 1, "deepdark-cultist", &out);
                assert!(!is_legal(&h, &use_on(&out)), "{who}: out of range");
            }
            _ => {}
        }
    }
    match p.aim {
        A::Friend => assert!(!is_legal(&g, &use_on("a6")), "{who}: not on an enemy"),
        A::Enemy => assert!(!is_legal(&g, &use_on("h5")), "{who}: not on a friend"),
        _ => {}
    }
    let mut control = g.clone();
    if ph == Ph::Effects {
        act(&mut control, "end");
    }
    let in_aim: Vec<u32> = match (p.aim, &target) {
        (_, Some(t)) => uids(&g, |u| u.at == sq(t)),
        (A::AdjacentEnemies, _) => uids(&g, |u| {
            u.owner == 1 && ["d5", "e5"].contains(&u.at.to_string().as_str())
        }),
        _ => Vec::new(),
    };
    let hit: Vec<u32> = {
        let st = g.state();
        in_aim
            .iter()
            .copied()
            .filter(|uid| {
                st.units
                    .iter()
                    .find(|u| u.uid == *uid)
                    .is_some_and(|u| p.only.holds(u))
            })
            .collect()
    };
    let text = match (&target, p.aim) {
        (Some(_), A::Own) | (None, _) => format!("use d4 {}", p.index),
        (Some(t), _) => use_on(t),
    };
    act(&mut g, &text);
    roll(&mut g, face, &who);
    assert!(g.state().stack.is_empty(), "{who}: resolved at once");
    if enemy != "siege-crawler" {
        // The troop's damage type: guard stops physical, ward magic damage.
        let reduce = match enemy {
            "bog-ghoul" if !p.magic => 1,
            "granite-colossus" if p.magic => 2,
            _ => 0,
        };
        let at = target.clone().unwrap_or_else(|| "d5".to_owned());
        let total = (p.dmg + p.bonus(face) - reduce).max(0);
        let def = card_db().card(id(enemy)).troop().unwrap().def;
        assert_eq!(
            unit(&g, &at).map(|u| u.damage),
            (total < def).then_some(total),
            "{who}: {} damage",
            if p.magic { "magic" } else { "physical" }
        );
        return;
    }
    let q = P {
        dmg: p.dmg + p.bonus(face),
        roll: Dice::No,
        ..*p
    };
    // The used troop revealed itself unless the card says otherwise; compare
    // it separately, then the rest with the control game.
    let me = unit(&g, "d4").expect("the troop is still there");
    assert_eq!(
        me.face_up, !p.face_down,
        "{who}: reveals itself iff it must"
    );
    let mut control_faces = control.clone();
    control_faces.edit(|st| {
        for u in &mut st.units {
            if u.at == sq("d4") {
                u.face_up = !p.face_down;
            }
        }
    });
    check_troops(&who, &q, None, &control_faces, &g, &hit);
    let (st, cs) = (g.state(), control.state());
    assert_eq!(
        st.sides[0].hand.len(),
        cs.sides[0].hand.len() + p.draw,
        "{who}: cards drawn"
    );
    assert_eq!(
        cs.sides[1].mana - st.sides[1].mana,
        p.drain,
        "{who}: opponent's mana lost"
    );
    assert!(
        !legal(&g).iter().any(|a| a.starts_with("use d4 ")),
        "{who}: once per turn"
    );
    if ph == Ph::Main {
        assert!(
            !legal(&g).iter().any(|a| a.starts_with("d4x")),
            "{who}: an ability or an attack, not both"
        );
    }
    if p.has_stat() && !hit.is_empty() {
        check_duration(&who, p, &mut g, &control, &hit, p.turns);
    }
}

/// Puts an attacker of seat 1 where the troop on d4 can attack it, attacks,
/// and returns the damage the d4 troop took in that combat.
fn retaliation(g: &Lytharia, attacker: &str) -> i32 {
    for s in ["d5", "e5", "e6"] {
        let mut h = g.clone();
        put(&mut h, 1, attacker, s);
        if is_legal(&h, &format!("d4x{s}")) {
            let (me, before) = unit(&h, "d4").map(|u| (u.uid, u.damage)).unwrap();
            act(&mut h, &format!("d4x{s}"));
            let st = h.state();
            return st
                .units
                .iter()
                .find(|u| u.uid == me)
                .map_or(i32::MAX, |u| u.damage - before);
        }
    }
    panic!("nothing to attack from d4")
}

fn check_passive(p: &P) {
    let who = format!("{} passive", p.id);
    let (g, _) = ability_arena(p, "siege-crawler");
    let base = |at: &str| {
        let t = unit(&g, at).unwrap().troop();
        Stats {
            att: t.att,
            def: t.def,
            ..Stats::default()
        }
    };
    match p.aim {
        A::Own => {
            assert_eq!(
                diff(stats_at(&g, "d4"), base("d4")),
                promised(p),
                "{who}: its own stats"
            );
            // Guard and ward at work in combat: a physical Att 4 and a magic Att 3 attacker.
            assert_eq!(
                retaliation(&g, "zuk-gar-grunt"),
                4 - p.guard,
                "{who}: guard"
            );
            assert_eq!(retaliation(&g, "ember-sprite"), 3 - p.ward, "{who}: ward");
        }
        A::AdjacentFriends => {
            assert_eq!(
                diff(stats_at(&g, "d3"), base("d3")),
                promised(p),
                "{who}: adjacent"
            );
            for at in ["d2", "d4", "h5"] {
                assert_eq!(
                    diff(stats_at(&g, at), base(at)),
                    (0, 0, 0, 0, false),
                    "{who}: {at} is not an adjacent friend"
                );
            }
        }
        A::None => {
            let mut g = g.clone();
            let mut control = g.clone();
            control.edit(|st| st.units.retain(|u| u.at != sq("d4")));
            for h in [&mut g, &mut control] {
                h.edit(|st| st.sides[0].mana = 0);
                next_turn(h);
                next_turn(h);
            }
            assert_eq!(
                g.state().sides[0].mana - control.state().sides[0].mana,
                p.income,
                "{who}: mana each mana phase"
            );
        }
        other => panic!("{who}: no check for passive aim {other:?}"),
    }
}

#[test]
fn every_troop_ability_works_as_its_text_says() {
    each_card(ABILITIES.iter().map(|x| (x.1.id, x)), |(ph, p)| match ph {
        Ph::Passive => check_passive(p),
        Ph::Effects | Ph::Main => {
            for face in p.faces() {
                check_active_ability(*ph, p, "siege-crawler", face);
                if p.dmg > 0 || p.roll == Dice::Add {
                    check_active_ability(*ph, p, "bog-ghoul", face);
                    check_active_ability(*ph, p, "granite-colossus", face);
                }
            }
        }
    });
}

// ---------------------------------------------------------------- troops in combat

/// Every troop attacks three dummies: plain (Siege Crawler, Att 8), guard 1
/// (Shieldwall) and ward 2 (Granite Colossus). It deals its Att (with its
/// own passive), as magic damage exactly when its text says so, and takes
/// the dummy's Att against its Def.
#[test]
fn every_troop_fights_with_its_printed_stats_and_damage_type() {
    for (c, card) in card_db().iter() {
        let Some(t) = card.troop() else { continue };
        let magic = t.text.contains("magic");
        let own_att: i32 = ABILITIES
            .iter()
            .filter(|(ph, p)| *ph == Ph::Passive && p.id == t.id && p.aim == A::Own)
            .map(|(_, p)| p.att)
            .sum();
        let own_guard: i32 = ABILITIES
            .iter()
            .filter(|(ph, p)| *ph == Ph::Passive && p.id == t.id && p.aim == A::Own)
            .map(|(_, p)| p.guard)
            .sum();
        assert_eq!(
            magic,
            t.damage == tabula_lytharia::cards::DamageType::Magic,
            "{}: the text says magic iff the troop deals magic damage",
            t.id
        );
        for (dummy, guard, ward) in [
            ("siege-crawler", 0, 0),
            ("stoneborn-shieldwall", 1, 0),
            ("granite-colossus", 0, 2),
        ] {
            let who = format!("{} attacking {dummy}", t.id);
            let mut g = blank();
            let me_uid = put(&mut g, 0, &t.id, "d4");
            let sq_ = ["d5", "e5", "e6"]
                .into_iter()
                .find(|s| {
                    let mut h = g.clone();
                    put(&mut h, 1, dummy, s);
                    is_legal(&h, &format!("d4x{s}"))
                })
                .unwrap_or_else(|| panic!("{who}: no attack square"));
            put(&mut g, 1, dummy, sq_);
            let dummy_att = unit(&g, sq_).unwrap().troop().att;
            act(&mut g, &format!("d4x{sq_}"));
            let reduce = if magic { ward } else { guard };
            let dealt = (t.att + own_att - reduce).max(0);
            let taken = (dummy_att - own_guard).max(0);
            let d = unit(&g, sq_).filter(|u| u.uid != me_uid);
            assert_eq!(d.map(|u| u.damage), Some(dealt), "{who}: damage dealt");
            let me = g.state().units.iter().find(|u| u.uid == me_uid);
            if taken >= t.def {
                assert!(me.is_none(), "{who}: killed by {taken}");
                assert!(g.state().sides[0].crypt.contains(&c), "{who}: to the crypt");
            } else {
                assert_eq!(me.map(|u| u.damage), Some(taken), "{who}: damage taken");
                assert_eq!(me.map(|u| u.at), Some(sq("d4")), "{who}: stays");
            }
        }
    }
}

// ---------------------------------------------------------------- equipment

/// Every equipment card: (id, Att, Def) as its text reads.
const EQUIPMENT: &[(&str, i32, i32)] = &[
    ("longsword", 4, 0),
    ("dagger", 1, 0),
    ("battle-axe", 3, 0),
    ("war-hammer", 5, 0),
    ("spear", 2, 0),
    ("runed-blade", 3, 1),
    ("plate-mail", 0, 4),
    ("leather-jerkin", 0, 1),
    ("chain-mail", 0, 2),
    ("tower-shield", 0, 3),
    ("scale-armor", 0, 3),
    ("warded-cloak", 0, 1),
];

#[test]
fn every_equipment_card_raises_its_stats_costs_its_mana_and_reforges_for_its_value() {
    for &(e, att, def) in EQUIPMENT {
        let eq = card_db().card(id(e)).equipment().unwrap().clone();
        let mut g = blank();
        put(&mut g, 0, "bronn", "d4");
        put(&mut g, 0, "antlered-elk", "b3");
        g.edit(|st| st.sides[0].mana = 15);
        give(&mut g, 0, &[e, e]);
        assert!(
            !is_legal(&g, &format!("equip {e} @b3")),
            "{e}: humanoids only"
        );
        let base = stats_at(&g, "d4");
        act(&mut g, &format!("equip {e} @d4"));
        assert_eq!(
            diff(stats_at(&g, "d4"), base),
            (att, def, 0, 0, false),
            "{e}: bonus"
        );
        assert_eq!(g.state().sides[0].mana, 15 - eq.cost, "{e}: cost");
        assert!(
            !is_legal(&g, &format!("equip {e} @d4")),
            "{e}: one per slot"
        );
        act(&mut g, &format!("reforge {e} @d4"));
        assert_eq!(g.state().sides[0].forge_pool, eq.reforge, "{e}: reforged");
        assert_eq!(
            diff(stats_at(&g, "d4"), base),
            (0, 0, 0, 0, false),
            "{e}: off"
        );
        assert!(g.state().sides[0].nether.contains(&id(e)), "{e}: nether");
        let mut h = blank();
        give(&mut h, 0, &[e]);
        act(&mut h, &format!("reforge {e}"));
        assert_eq!(h.state().sides[0].forge_pool, eq.reforge, "{e}: from hand");
    }
}

// ---------------------------------------------------------------- coverage

#[test]
fn every_card_of_the_set_has_an_entry_above() {
    let mut missing = Vec::new();
    for (_, card) in card_db().iter() {
        match card {
            Card::Spell(s) => {
                if SPELLS.iter().filter(|p| p.id == s.id).count() != 1 {
                    missing.push(s.id.clone());
                }
            }
            Card::Equipment(e) => {
                if EQUIPMENT.iter().filter(|x| x.0 == e.id).count() != 1 {
                    missing.push(e.id.clone());
                }
            }
            Card::Troop(t) => {
                for (i, a) in t.abilities.iter().enumerate() {
                    let n = ABILITIES
                        .iter()
                        .filter(|(ph, p)| {
                            p.id == t.id
                                && usize::from(p.index) == i
                                && matches!(
                                    (ph, a.phase),
                                    (Ph::Effects, tabula_lytharia::cards::AbilityPhase::Effects)
                                        | (Ph::Main, tabula_lytharia::cards::AbilityPhase::Main)
                                        | (
                                            Ph::Passive,
                                            tabula_lytharia::cards::AbilityPhase::Passive
                                        )
                                )
                        })
                        .count();
                    if n != 1 {
                        missing.push(format!("{} ability {i} ({:?})", t.id, a.phase));
                    }
                }
            }
        }
    }
    let known = |s: &str| card_db().lookup(s).is_some();
    for p in SPELLS.iter().chain(ABILITIES.iter().map(|(_, p)| p)) {
        assert!(known(p.id), "no card {}", p.id);
    }
    assert!(
        missing.is_empty(),
        "cards without a test entry: {missing:?}"
    );
}
