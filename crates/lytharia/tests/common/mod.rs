//! Shared helpers: seeded random play.

#![allow(dead_code)]

use tabula_core::{Game, GameRng, Options, Seed, ToAct};
use tabula_lytharia::{Action, Lytharia, LythariaOptions};

pub const DECKS: [&str; 4] = ["good", "evil", "neutral-life", "neutral-death"];

pub fn options(a: &str, b: &str) -> LythariaOptions {
    let mut o = LythariaOptions::default();
    o.set("decks", &format!("{a},{b}")).unwrap();
    o
}

/// One step of random play: a chance outcome or a uniformly chosen legal action.
pub fn random_step(game: &Lytharia, rng: &mut GameRng, buf: &mut Vec<Action>) -> Option<Action> {
    match game.to_act() {
        ToAct::Over { .. } => None,
        ToAct::Chance => game.sample_chance(rng),
        ToAct::Player { .. } => {
            game.legal_actions(buf);
            rng.choose(buf).cloned()
        }
    }
}

/// Plays a game to its end; `each` sees every state before each action.
pub fn play(
    options: &LythariaOptions,
    seed: u64,
    checked: bool,
    mut each: impl FnMut(&Lytharia, &Action),
) -> Lytharia {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = Lytharia::new(options);
    let mut buf = Vec::new();
    let mut plies = 0;
    while let Some(a) = random_step(&game, &mut rng, &mut buf) {
        each(&game, &a);
        if checked {
            game.apply(&a)
                .unwrap_or_else(|e| panic!("seed {seed} ply {plies}: {e}"));
        } else {
            game.apply_unchecked(&a);
        }
        plies += 1;
        assert!(plies < 100_000, "seed {seed}: game does not end");
    }
    game
}

use tabula_lytharia::state::{Stage, Unit};
use tabula_lytharia::{CardId, Sq, card_db};

pub fn id(s: &str) -> CardId {
    card_db().lookup(s).unwrap_or_else(|| panic!("no card {s}"))
}

pub fn sq(s: &str) -> Sq {
    s.parse().unwrap()
}

/// Seat 0 (first, White) to act in its main phase, an empty board but for
/// the two Kings (a1 and h8), empty hands and 10 mana each.
pub fn blank() -> Lytharia {
    let mut g = Lytharia::new(&options("good", "evil"));
    g.edit(|st| {
        st.stage = Stage::Main;
        st.active = 0;
        st.first = 0;
        st.priority = 0;
        st.turn = 1;
        st.units.clear();
        for s in &mut st.sides {
            s.hand.clear();
            s.mana = 10;
            s.to_place.clear();
        }
    });
    put(&mut g, 0, "thane-orvik", "a1");
    put(&mut g, 1, "vorzak", "h8");
    // Spare troops, so neither King is alone (no honor charge).
    put(&mut g, 0, "stoneborn-militia", "h5");
    put(&mut g, 1, "deepdark-cultist", "a6");
    g
}

/// Puts a face-up troop on the board; returns its uid.
pub fn put(g: &mut Lytharia, owner: u8, card: &str, at: &str) -> u32 {
    let c = id(card);
    let at = sq(at);
    let mut uid = 0;
    g.edit(|st| {
        uid = st.next_uid;
        st.next_uid += 1;
        st.units.push(Unit {
            at,
            owner,
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
    });
    uid
}

pub fn give(g: &mut Lytharia, owner: u8, cards: &[&str]) {
    let ids: Vec<CardId> = cards.iter().map(|c| id(c)).collect();
    g.edit(|st| st.sides[owner as usize].hand.extend(ids));
}

pub fn act(g: &mut Lytharia, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\nlegal: {:?}", legal(g)));
    g.apply(&a).unwrap();
}

pub fn legal(g: &Lytharia) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.iter().map(|a| a.to_string()).collect()
}

pub fn is_legal(g: &Lytharia, text: &str) -> bool {
    legal(g).iter().any(|a| a == text)
}

pub fn unit<'a>(g: &'a Lytharia, at: &str) -> Option<&'a Unit> {
    g.state().unit_at(sq(at).0)
}

/// The current stats of the troop on a square.
pub fn stats_at(g: &Lytharia, at: &str) -> tabula_lytharia::state::Stats {
    let u = unit(g, at).unwrap_or_else(|| panic!("no troop on {at}"));
    g.state().stats(u)
}

/// Sets a field of the troop on a square.
pub fn edit_unit(g: &mut Lytharia, at: &str, f: impl FnOnce(&mut Unit)) {
    let at = sq(at);
    g.edit(|st| {
        let u = st
            .units
            .iter_mut()
            .find(|u| u.at == at)
            .unwrap_or_else(|| panic!("no troop on {at}"));
        f(u);
    });
}

/// Plays the rest of the current turn with the plainest choices (pass,
/// end the effects phase, keep, a King step, end) until the next turn starts.
pub fn next_turn(g: &mut Lytharia) {
    let start = g.state().turn;
    for _ in 0..64 {
        if g.state().turn != start || g.to_act().outcome().is_some() {
            return;
        }
        if g.to_act() == ToAct::Chance {
            act(g, "d6 1");
            continue;
        }
        let l = legal(g);
        let st = g.state();
        let pick = if !st.stack.is_empty() {
            "pass".to_owned()
        } else if st.stage == Stage::Effects || l.iter().any(|a| a == "end") {
            "end".to_owned()
        } else if st.stage == Stage::Draw {
            "keep".to_owned()
        } else {
            let p = st.active;
            let king = st
                .units
                .iter()
                .find(|u| u.owner == p && u.troop().role == tabula_lytharia::cards::Role::King)
                .map(|u| format!("{}-", u.at));
            l.iter()
                .find(|a| king.as_ref().is_some_and(|k| a.starts_with(k.as_str())))
                .or_else(|| l.iter().find(|a| a.contains('-')))
                .cloned()
                .unwrap_or_else(|| panic!("no way to finish the turn: {l:?}"))
        };
        act(g, &pick);
    }
    panic!("the turn did not end");
}
