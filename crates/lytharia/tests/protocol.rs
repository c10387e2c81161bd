//! The table protocol over seeded random games in every mode: JSON actions,
//! gestures, zones, holdings, events, the catalog, keys and fault kinds,
//! and that nothing hidden reaches a viewer through any of them.

mod common;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

use common::{DECKS, options, random_step};
use proptest::prelude::any;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;
use tabula_core::protocol::{FaultKind, Gesture, GestureKind, Place};
use tabula_core::{ChanceModel, Game, GameRng, Options, Player, Seed, ToAct, Viewer};
use tabula_lytharia::state::Source;
use tabula_lytharia::{Action, CardId, Lytharia, LythariaOptions, State};

const MODES: [&str; 4] = ["full", "duel", "pawn-wars", "chess"];

/// A runner with a fixed seed: the same games on every run.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

fn game_options(mode: &str, seed: u64) -> LythariaOptions {
    let mut o = options(DECKS[seed as usize % 4], DECKS[(seed as usize / 4) % 4]);
    o.set("mode", mode).unwrap();
    // Face up now and then, where it changes what is hidden.
    if seed % 5 == 4 {
        o.set("face-down", "off").unwrap();
    }
    o
}

/// Plays a seeded random game of `mode`, calling `each(before, action,
/// after)` for at most `plies` actions.
fn walk(
    mode: &str,
    seed: u64,
    plies: usize,
    mut each: impl FnMut(&Lytharia, &Action, &Lytharia),
) -> Lytharia {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut g = Lytharia::new(&game_options(mode, seed));
    let mut buf = Vec::new();
    for _ in 0..plies {
        let Some(a) = random_step(&g, &mut rng, &mut buf) else {
            break;
        };
        let mut after = g.clone();
        after
            .apply(&a)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        each(&g, &a, &after);
        g = after;
    }
    g
}

fn legal(g: &Lytharia) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

// ---------------------------------------------------------------- JSON actions

#[test]
fn every_legal_action_and_chance_outcome_round_trips_through_json_and_text() {
    let checked = Cell::new(0usize);
    for mode in MODES {
        runner(6)
            .run(&any::<u64>(), |seed| {
                walk(mode, seed, 600, |g, played, _| {
                    let mut all = legal(g);
                    if let ChanceModel::Exact(outcomes) = g.chance() {
                        all.extend(outcomes.into_iter().map(|(a, _)| a));
                    }
                    all.push(played.clone());
                    for a in &all {
                        let json = serde_json::to_string(a).unwrap();
                        let back: Action =
                            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
                        assert_eq!(&back, a, "{json}");
                        assert_eq!(&a.to_string().parse::<Action>().unwrap(), a);
                        checked.set(checked.get() + 1);
                    }
                });
                Ok(())
            })
            .unwrap();
    }
    let checked = checked.get();
    assert!(checked > 10_000, "only {checked} actions checked");
}

#[test]
fn the_json_form_is_the_documented_one() {
    let cases = [
        (r#"{"kind":"move","from":"e2","to":"e4"}"#, "e2-e4"),
        (r#"{"kind":"attack","from":"e4","to":"d5"}"#, "e4xd5"),
        (
            r#"{"kind":"cast","card":"firebolt","target":"e5"}"#,
            "cast firebolt @e5",
        ),
        (
            r#"{"kind":"cast","card":"counterspell"}"#,
            "cast counterspell",
        ),
        (
            r#"{"kind":"use","troop":"e2","ability":0,"target":"d5"}"#,
            "use e2 0 @d5",
        ),
        (
            r#"{"kind":"shuffle","player":1,"order":[2,0,1]}"#,
            "shuffle 1 2.0.1",
        ),
        (r#"{"kind":"roll-off","first":3,"second":5}"#, "rolloff 3-5"),
        (r#"{"kind":"die","value":4}"#, "d6 4"),
        (r#"{"kind":"pass"}"#, "pass"),
        (
            r#"{"kind":"equip","card":"longsword","troop":"e2"}"#,
            "equip longsword @e2",
        ),
        (
            r#"{"kind":"reforge","card":"dagger","troop":"e2"}"#,
            "reforge dagger @e2",
        ),
        (
            r#"{"kind":"harness","card":"firebolt"}"#,
            "harness firebolt",
        ),
        (r#"{"kind":"keep"}"#, "keep"),
        (r#"{"kind":"end"}"#, "end"),
    ];
    for (json, text) in cases {
        let Ok(a) = serde_json::from_str::<Action>(json) else {
            // Cards the set may not hold are skipped, not guessed.
            assert!(
                json.contains("longsword") || json.contains("dagger"),
                "{json}"
            );
            continue;
        };
        assert_eq!(a.to_string(), text);
        assert_eq!(serde_json::to_string(&a).unwrap(), json);
    }
}

#[test]
fn malformed_json_is_refused_with_an_error_not_a_panic() {
    for bad in [
        r#""e2-e4""#,
        r#"{"kind":"fly","from":"e2"}"#,
        r#"{"kind":"move","from":"e2"}"#,
        r#"{"kind":"move","from":"z9","to":"e4"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","via":"e3"}"#,
        r#"{"kind":"cast","card":"no-such-card"}"#,
        r#"{"kind":"die","value":7}"#,
        r#"{"kind":"die","value":0}"#,
        r#"{"kind":"roll-off","first":3,"second":9}"#,
        r#"{"kind":"shuffle","player":2,"order":[]}"#,
        r#"{"kind":"use","troop":"e2","ability":-1}"#,
        r#"{"from":"e2","to":"e4"}"#,
        r#"[]"#,
        r#"{"kind":"#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------- gestures

#[test]
fn every_legal_action_has_a_gesture_distinct_on_the_board_and_in_the_zones() {
    let cells: BTreeSet<String> = Lytharia::catalog(&LythariaOptions::default())
        .board
        .cells()
        .into_iter()
        .collect();
    let decisions = Cell::new(0usize);
    let kinds = RefCell::new(BTreeSet::new());
    for mode in MODES {
        runner(5)
            .run(&any::<u64>(), |seed| {
                walk(mode, seed, 700, |g, _, _| {
                    let Some(me) = g.to_act().player() else {
                        return;
                    };
                    let zones = g.zones(Viewer::Player(me));
                    let mut seen: HashMap<String, Action> = HashMap::new();
                    for a in legal(g) {
                        let ges = g.gesture(&a);
                        let placeholder =
                            Gesture::button(GestureKind::Pass, &a.to_string(), a.to_string());
                        assert_ne!(ges, placeholder, "{a}: the placeholder gesture");
                        for c in ges.cells() {
                            assert!(cells.contains(c), "{a}: {c} is not a cell");
                        }
                        if let Place::Item { zone, owner, item } = &ges.from {
                            let z = zones
                                .iter()
                                .find(|z| &z.zone == zone && z.owner == *owner)
                                .unwrap_or_else(|| panic!("{a}: no zone {zone} {owner:?}"));
                            assert!(
                                z.items.iter().any(|i| &i.item == item),
                                "{a}: {item} is not in {zone}"
                            );
                        }
                        let id = serde_json::to_string(&ges.identity()).unwrap();
                        if let Some(other) = seen.insert(id.clone(), a.clone()) {
                            panic!("{other} and {a} share the gesture {id}");
                        }
                        kinds.borrow_mut().insert(format!("{:?}", ges.kind));
                    }
                    decisions.set(decisions.get() + 1);
                });
                Ok(())
            })
            .unwrap();
    }
    let (decisions, kinds) = (decisions.get(), kinds.into_inner());
    assert!(decisions > 5_000, "only {decisions} decisions");
    for k in [
        "Move", "Attack", "Capture", "Cast", "Spend", "Place", "Pick", "EndTurn", "EndPhase",
        "Pass",
    ] {
        assert!(kinds.contains(k), "no {k} gesture in {kinds:?}");
    }
}

#[test]
fn gestures_click_the_card_then_the_cell_it_lands_on() {
    let mut g = common::blank();
    common::give(&mut g, 0, &["firebolt"]);
    let a = g.parse_action("cast firebolt @a6").unwrap();
    let ges = g.gesture(&a);
    assert_eq!(ges.kind, GestureKind::Cast);
    assert_eq!(ges.from, Place::item("hand", Some(Player(0)), "firebolt"));
    assert_eq!(ges.to.as_deref(), Some("a6"));
    let h = g.gesture(&g.parse_action("harness firebolt").unwrap());
    assert_eq!(h.kind, GestureKind::Spend);
    assert_eq!(h.from, ges.from);
    assert_eq!(h.choice.as_ref().map(|c| c.id.as_str()), Some("harness"));
    let m = g.gesture(&g.parse_action("h5-h6").unwrap());
    assert_eq!((m.kind, m.to.as_deref()), (GestureKind::Move, Some("h6")));
    assert_eq!(m.from, Place::cell("h5"));
}

// ---------------------------------------------------------------- hidden information

/// The cards `viewer` may know are where they are, leaving out the public
/// army lists (which name every troop): own hand and picks, face-up and
/// own troops, crypts, nethers, enchantments, spells on the stack...
fn seen_cards(st: &State, face_down: bool, viewer: Viewer) -> BTreeSet<CardId> {
    let mine = |p: u8| matches!(viewer, Viewer::Player(v) if v.0 == p);
    let mut out = BTreeSet::new();
    for (i, s) in st.sides.iter().enumerate() {
        out.extend(s.crypt.iter().chain(&s.nether).copied());
        out.extend(s.enchants.iter().map(|e| e.card));
        if mine(i as u8) {
            // One's own army too (a pick offer lists it).
            out.extend(s.hand.iter().chain(&s.to_place).chain(&s.army).copied());
        }
        if st.stage == tabula_lytharia::state::Stage::Promote && st.active == i as u8 {
            // The promotion offer: troops of the public army list.
            out.extend(s.army.iter().copied());
        }
        if !face_down {
            out.extend(s.to_place.iter().copied());
        }
    }
    for u in &st.units {
        if u.face_up || mine(u.owner) {
            out.insert(u.card);
            out.extend(u.copy);
        }
        out.extend(u.equipment.iter().copied());
    }
    for e in &st.stack {
        match &e.source {
            Source::Spell(c) => {
                out.insert(*c);
            }
            Source::Ability { uid, card, .. } => {
                let hidden = st
                    .units
                    .iter()
                    .any(|u| u.uid == *uid && !u.face_up && !mine(u.owner));
                if !hidden {
                    out.insert(*card);
                }
            }
            Source::Hidden { .. } => {}
        }
    }
    if let Some(d) = &st.duel {
        for (i, ds) in d.sides.iter().enumerate() {
            out.extend(ds.played.iter().chain(&ds.fighting).copied());
            if mine(i as u8) {
                out.extend(ds.picks.iter().chain(&ds.left).chain(&ds.choice).copied());
            }
        }
    }
    out
}

/// The cards hidden from `viewer`: the other seat's hand, deck, face-down
/// troops, Pawns to place and Battle Duel picks, and every deck's order.
fn hidden_cards(st: &State, face_down: bool, viewer: Viewer) -> BTreeSet<CardId> {
    let mine = |p: u8| matches!(viewer, Viewer::Player(v) if v.0 == p);
    let mut out = BTreeSet::new();
    for (i, s) in st.sides.iter().enumerate() {
        out.extend(s.deck.iter().copied());
        if !mine(i as u8) {
            out.extend(s.hand.iter().copied());
            if face_down {
                out.extend(s.to_place.iter().copied());
            }
        }
    }
    for u in &st.units {
        if !u.face_up && !mine(u.owner) {
            out.insert(u.card);
        }
    }
    if let Some(d) = &st.duel {
        for (i, ds) in d.sides.iter().enumerate() {
            if !mine(i as u8) {
                out.extend(ds.picks.iter().chain(&ds.left).chain(&ds.choice).copied());
            }
        }
    }
    out
}

/// The JSON a viewer gets, minus the public army lists.
fn strip_armies(mut v: Value) -> Value {
    if let Some(sides) = v.get_mut("sides").and_then(Value::as_array_mut) {
        for s in sides {
            if let Some(m) = s.as_object_mut() {
                m.remove("army");
            }
        }
    }
    v
}

/// Whether `name` stands in `text` as a word of its own ("Wither", not
/// "Withering Gaze").
fn names_word(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn assert_no_secret(json: &str, secret: &BTreeSet<CardId>, seen: &BTreeSet<CardId>, what: &str) {
    for c in secret.difference(seen) {
        let id = format!("\"{}\"", c.name());
        assert!(!json.contains(&id), "{what} names the hidden {id}: {json}");
        let name = c.card().name();
        let shadowed = seen.iter().any(|s| s.card().name().contains(name));
        if !shadowed {
            assert!(
                !names_word(json, name),
                "{what} names the hidden {name}: {json}"
            );
        }
    }
}

fn viewer_json(g: &Lytharia, v: Viewer) -> String {
    let view = strip_armies(serde_json::to_value(g.view(v)).unwrap());
    let zones = serde_json::to_string(&g.zones(v)).unwrap();
    let holdings: Vec<_> = (0..2).map(|p| g.holdings(Player(p), v)).collect();
    format!(
        "{view} {zones} {}",
        serde_json::to_string(&holdings).unwrap()
    )
}

#[test]
fn nothing_hidden_reaches_a_viewer_through_views_zones_holdings_or_events() {
    let viewers = [
        Viewer::Player(Player(0)),
        Viewer::Player(Player(1)),
        Viewer::Public,
    ];
    let positions = Cell::new(0usize);
    let det = RefCell::new(GameRng::from_seed(Seed(77)));
    for mode in MODES {
        runner(6)
            .run(&any::<u64>(), |seed| {
                walk(mode, seed, 500, |b, a, after| {
                    let face_down = b.options().face_down;
                    for v in viewers {
                        let seen: BTreeSet<CardId> = seen_cards(b.state(), face_down, v)
                            .union(&seen_cards(after.state(), face_down, v))
                            .copied()
                            .collect();
                        let secret_now = hidden_cards(b.state(), face_down, v);
                        let json = viewer_json(b, v);
                        assert_no_secret(
                            &json,
                            &secret_now,
                            &seen_cards(b.state(), face_down, v),
                            "the view",
                        );
                        let secret: BTreeSet<CardId> = secret_now
                            .union(&hidden_cards(after.state(), face_down, v))
                            .copied()
                            .collect();
                        let events = serde_json::to_string(&b.events(a, after, v)).unwrap();
                        assert_no_secret(&events, &secret, &seen, &format!("events of {a}"));
                        assert!(!events.contains("\"order\""), "{events}");
                        // Face-down troops show their role only.
                        let view = b.view(v);
                        for (u, p) in b.state().units.iter().zip(&view.pieces) {
                            let mine = matches!(v, Viewer::Player(x) if x.0 == u.owner);
                            if !u.face_up && !mine {
                                assert_eq!(p.piece, u.troop().role.letters());
                                assert!(p.card.is_none() && p.used == 0);
                            }
                        }
                        // A deck is a count; a hand is a count for others.
                        for z in b.zones(v) {
                            let owner = z.owner.map(|p| p.0 as usize).unwrap_or(9);
                            let mine = matches!(v, Viewer::Player(x) if x.0 as usize == owner);
                            let side = &b.state().sides[owner.min(1)];
                            if z.zone == "deck" {
                                assert!(z.items.is_empty());
                                assert_eq!(z.hidden, side.deck.len());
                            }
                            if z.zone == "hand" && !mine {
                                assert!(z.items.is_empty());
                                assert_eq!(z.hidden, side.hand.len());
                            }
                        }
                        // What a player sees does not depend on what they cannot.
                        if let Viewer::Player(p) = v {
                            let sample = b.determinize(p, &mut det.borrow_mut());
                            assert_eq!(viewer_json(&sample, v), json, "seed {seed}");
                        }
                    }
                    positions.set(positions.get() + 1);
                });
                Ok(())
            })
            .unwrap();
    }
    let positions = positions.get();
    assert!(positions > 5_000, "only {positions} positions");
}

// ---------------------------------------------------------------- events

#[test]
fn every_action_tells_at_least_one_event_with_a_sentence() {
    let kinds = RefCell::new(BTreeSet::new());
    for mode in MODES {
        runner(4)
            .run(&any::<u64>(), |seed| {
                walk(mode, seed, 800, |b, a, after| {
                    for v in [Viewer::Player(Player(0)), Viewer::Public] {
                        let evs = b.events(a, after, v);
                        assert!(!evs.is_empty(), "{a}: no event");
                        for e in &evs {
                            assert!(!e.text.trim().is_empty(), "{a}: {e:?}");
                            kinds
                                .borrow_mut()
                                .insert(serde_json::to_string(&e.kind).unwrap());
                        }
                    }
                });
                Ok(())
            })
            .unwrap();
    }
    let kinds = kinds.into_inner();
    for k in [
        "move", "fight", "fall", "cast", "resolved", "cards", "dice", "enter", "resource", "phase",
        "score", "end",
    ] {
        assert!(
            kinds.contains(&format!("\"{k}\"")),
            "no {k} event: {kinds:?}"
        );
    }
}

fn play_events(g: &mut Lytharia, text: &str, viewer: Viewer) -> Vec<tabula_core::protocol::Event> {
    let a = g.parse_action(text).unwrap();
    let mut after = g.clone();
    after.apply(&a).unwrap();
    let evs = g.events(&a, &after, viewer);
    *g = after;
    evs
}

#[test]
fn an_attack_tells_the_blows_and_who_fell() {
    let mut g = common::blank();
    common::put(&mut g, 0, "stoneborn-militia", "c4");
    common::put(&mut g, 1, "deepdark-cultist", "d5");
    common::edit_unit(&mut g, "d5", |u| u.damage = 1);
    let evs = play_events(&mut g, "c4xd5", Viewer::Public);
    let fight = evs.iter().find(|e| e.text.contains("attacks")).unwrap();
    assert_eq!(
        fight.text,
        "Player 1's Stoneborn Militia on c4 attacks Player 2's Deepdark Cultist on d5: \
         deals 3 damage (4 in all), takes 3 (3 in all)"
    );
    assert_eq!(fight.data["dealt"], 3);
    assert_eq!(fight.data["taken"], 3);
    assert_eq!(fight.data["defender"], "deepdark-cultist");
    let fall = evs
        .iter()
        .find(|e| e.kind == tabula_core::protocol::EventKind::Fall)
        .unwrap();
    assert_eq!(fall.text, "Player 2's Deepdark Cultist on d5 dies");
    assert_eq!(fall.cells, ["d5"]);
}

#[test]
fn a_spell_is_cast_then_resolves_with_its_damage() {
    let mut g = common::blank();
    common::give(&mut g, 0, &["firebolt"]);
    let evs = play_events(&mut g, "cast firebolt @a6", Viewer::Player(Player(1)));
    assert_eq!(
        evs[0].text,
        "Player 1 casts Firebolt on Player 2's Deepdark Cultist on a6"
    );
    assert_eq!(evs[0].data["card"], "firebolt");
    let evs = play_events(&mut g, "pass", Viewer::Player(Player(1)));
    let texts: Vec<&str> = evs.iter().map(|e| e.text.as_str()).collect();
    assert!(
        texts.contains(&"Player 1's Firebolt resolves on a6"),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Player 2's Deepdark Cultist on a6 takes 2 damage (2 in all)"),
        "{texts:?}"
    );
}

#[test]
fn a_draw_names_the_card_for_its_owner_only() {
    let mut g = common::blank();
    g.edit(|st| {
        st.stage = tabula_lytharia::state::Stage::Effects;
        st.sides[0].deck = vec![common::id("firebolt")];
    });
    let a = g.parse_action("end").unwrap();
    let mut after = g.clone();
    after.apply(&a).unwrap();
    let own = g.events(&a, &after, Viewer::Player(Player(0)));
    let other = g.events(&a, &after, Viewer::Player(Player(1)));
    assert!(
        own.iter().any(|e| e.text == "Player 1 draws Firebolt"),
        "{own:?}"
    );
    assert!(
        other.iter().any(|e| e.text == "Player 1 draws a card"),
        "{other:?}"
    );
    assert!(!serde_json::to_string(&other).unwrap().contains("firebolt"));
}

#[test]
fn a_face_down_pawn_is_placed_as_a_pawn_for_the_other_seat() {
    let mut rng = GameRng::from_seed(Seed(3));
    let mut g = Lytharia::new(&options("good", "evil"));
    while g.to_act() == ToAct::Chance {
        let a = g.sample_chance(&mut rng).unwrap();
        g.apply(&a).unwrap();
    }
    let me = g.to_act().player().unwrap();
    let a = legal(&g)[0].clone();
    let mut after = g.clone();
    after.apply(&a).unwrap();
    let Action::Place(card) = a else {
        panic!("{a}")
    };
    let other = g.events(&a, &after, Viewer::Player(Player(1 - me.0)));
    let own = g.events(&a, &after, Viewer::Player(me));
    let who = format!("Player {}", me.0 + 1);
    assert!(
        other[0]
            .text
            .starts_with(&format!("{who} places a Pawn face down on ")),
        "{other:?}"
    );
    assert_eq!(other[0].data["piece"], "P");
    assert!(
        own[0].text.starts_with(&format!(
            "{who} places {} face down on ",
            card.card().name()
        )),
        "{own:?}"
    );
}

#[test]
fn a_battle_duel_round_won_tells_the_score_and_the_round() {
    let mut found = None;
    for seed in 0..40 {
        walk("duel", seed, 5_000, |b, a, after| {
            if found.is_some() {
                return;
            }
            for e in b.events(a, after, Viewer::Public) {
                if e.kind == tabula_core::protocol::EventKind::Score && !e.data["winner"].is_null()
                {
                    found = Some(e);
                    return;
                }
            }
        });
    }
    let e = found.expect("some round was won");
    let round = e.data["round"].as_u64().unwrap();
    let w = e.data["winner"].as_u64().unwrap();
    let score = e.data["score"].as_array().unwrap();
    assert!(score[w as usize].as_u64().unwrap() >= 1);
    assert!(
        e.text
            .starts_with(&format!("Player {} wins round {round}: ", w + 1)),
        "{}",
        e.text
    );
}

#[test]
fn a_pawn_wars_point_is_scored_in_an_event() {
    let mut found = None;
    for seed in 0..40 {
        walk("pawn-wars", seed, 5_000, |b, a, after| {
            if found.is_none() {
                found = b
                    .events(a, after, Viewer::Public)
                    .into_iter()
                    .find(|e| e.kind == tabula_core::protocol::EventKind::Score);
            }
        });
    }
    let e = found.expect("a Pawn scored");
    assert!(
        e.text.contains("reaches the far rank and scores a point"),
        "{}",
        e.text
    );
    assert!(e.data["points"].as_u64().unwrap() >= 1);
}

/// A Normal Chess game with its Pawns placed (seat 0 White).
fn chess_game(face_down: bool) -> Lytharia {
    let mut o = options("good", "evil");
    o.set("mode", "chess").unwrap();
    o.set("face-down", if face_down { "on" } else { "off" })
        .unwrap();
    let mut g = Lytharia::new(&o);
    while g.state().stage == tabula_lytharia::state::Stage::Place {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        g.apply(&legal[0]).unwrap();
    }
    g
}

fn one(evs: &[tabula_core::protocol::Event], kind: &str) -> tabula_core::protocol::Event {
    let found: Vec<_> = evs
        .iter()
        .filter(|e| serde_json::to_value(e.kind).unwrap() == kind)
        .collect();
    assert_eq!(found.len(), 1, "one {kind} event: {evs:?}");
    found[0].clone()
}

#[test]
fn a_chess_capture_names_the_capturer_and_the_captured_as_chess_does() {
    let mut g = chess_game(false);
    for m in ["e2-e4", "d7-d5"] {
        play_events(&mut g, m, Viewer::Public);
    }
    let evs = play_events(&mut g, "e4xd5", Viewer::Public);
    assert!(
        evs.iter()
            .all(|e| e.kind != tabula_core::protocol::EventKind::Move)
    );
    let c = one(&evs, "capture");
    assert_eq!(c.player, Some(Player(0)), "the capturer's seat");
    assert_eq!(c.cells, ["e4", "d5"]);
    let pawn = |at: &str| {
        let u = g.state().units.iter().find(|u| u.at.to_string() == at);
        u.map(|u| u.card.to_string())
    };
    assert_eq!(c.data["piece"], pawn("d5").unwrap().as_str());
    assert_eq!(c.data["from"], "e4");
    assert_eq!(c.data["to"], "d5");
    assert_eq!(c.data["captured_on"], "d5");
    assert_eq!(c.data["captured_owner"], 1);
    assert_eq!(
        c.data["captured"],
        g.state().sides[1].crypt[0].to_string().as_str()
    );
    assert!(c.data.get("player").is_none() && c.data.get("en_passant").is_none());
    // En passant: the Pawn taken stands beside the capturer's landing cell.
    for m in ["e7-e5", "d5xe6"] {
        let evs = play_events(&mut g, m, Viewer::Public);
        if m == "d5xe6" {
            let c = one(&evs, "capture");
            assert_eq!(c.data["to"], "e6");
            assert_eq!(c.data["captured_on"], "e5");
            assert_eq!(c.data["en_passant"], true);
            assert_eq!(c.cells, ["d5", "e6", "e5"]);
        }
    }
}

#[test]
fn a_chess_check_names_the_side_in_check_its_king_and_the_checkers() {
    let mut g = chess_game(true);
    for m in ["e2-e4", "f7-f6", "d2-d4", "g7-g5"] {
        play_events(&mut g, m, Viewer::Public);
    }
    let evs = play_events(&mut g, "d1-h5", Viewer::Public);
    // Checkmate: the end event, no check event.
    let end = one(&evs, "end");
    assert_eq!(end.data["winner"], 0, "the winning team");
    assert_eq!(end.data["reason"], "checkmate");
    let mut g = chess_game(true);
    for m in ["e2-e4", "f7-f5"] {
        play_events(&mut g, m, Viewer::Public);
    }
    let evs = play_events(&mut g, "d1-h5", Viewer::Player(Player(1)));
    let check = one(&evs, "check");
    assert_eq!(check.player, Some(Player(1)), "the side in check");
    assert_eq!(check.data["king"], "e8");
    assert_eq!(check.data["checkers"], serde_json::json!(["h5"]));
    assert!(check.data.get("player").is_none());
}

#[test]
fn no_event_repeats_its_seat_as_data_player() {
    for mode in MODES {
        walk(mode, 5, 600, |b, a, after| {
            for e in b.events(a, after, Viewer::Player(Player(0))) {
                assert!(e.data.get("player").is_none(), "{a}: {e:?}");
                for k in e.data.keys() {
                    assert!(!k.contains('-'), "{a}: key {k} in {e:?}");
                }
            }
        });
    }
}

#[test]
fn the_chess_board_names_its_fields_as_tabula_chess_does() {
    let g = chess_game(false);
    let board = serde_json::to_value(g.view(Viewer::Player(Player(0)))).unwrap();
    assert!(board.get("viewer").is_none(), "the envelope carries it");
    let c = &board["chess"];
    assert_eq!(c["halfmove_clock"], 0);
    assert_eq!(c["fullmove_number"], 1);
    assert_eq!(
        c["castling"],
        serde_json::json!([
            {"owner": 0, "side": "kingside"}, {"owner": 0, "side": "queenside"},
            {"owner": 1, "side": "kingside"}, {"owner": 1, "side": "queenside"},
        ])
    );
    // The same form as tabula-chess's view.
    let chess = tabula_chess::Chess::new(&tabula_chess::ChessOptions::default());
    let cv = serde_json::to_value(chess.view(Viewer::Public)).unwrap();
    assert_eq!(c["castling"], cv["castling"]);
    // Seat 1 White: its rights are White's.
    let mut g = g;
    g.edit(|st| {
        st.first = 1;
        st.chess.as_mut().unwrap().castling = "Kq".to_owned();
    });
    let board = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    assert_eq!(
        board["chess"]["castling"],
        serde_json::json!([{"owner": 1, "side": "kingside"}, {"owner": 0, "side": "queenside"}])
    );
}

#[test]
fn a_stack_source_names_the_troop_as_ability_of_and_the_text_still_reads() {
    let mut g = common::blank();
    let uid = common::put(&mut g, 1, "lurker-spider", "c6");
    let entry = tabula_lytharia::state::Entry {
        source: Source::Ability {
            uid,
            card: common::id("lurker-spider"),
            index: 0,
        },
        controller: 1,
        target: None,
        roll: None,
    };
    g.edit(|st| {
        st.stack.push(entry.clone());
        st.active = 1;
    });
    // The position text keeps the stack and reads back.
    let text = g.to_text();
    let read = Lytharia::from_text(&text, g.options()).unwrap();
    assert_eq!(read.state().stack, [entry]);
    assert_eq!(read.to_text(), text);
    let a = Action::Pass;
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.contains(&a), "{legal:?}");
    let mut after = g.clone();
    after.apply(&a).unwrap();
    let json = serde_json::to_string(&g.events(&a, &after, Viewer::Public)).unwrap();
    assert!(json.contains(&format!("\"ability_of\":{uid}")), "{json}");
    assert!(!json.contains("ability-of"), "{json}");
}

// ---------------------------------------------------------------- catalog, keys, faults

#[test]
fn the_catalog_holds_every_card_deck_and_piece_a_view_names() {
    let cat = Lytharia::catalog(&LythariaOptions::default());
    let cards = cat.extra["cards"].as_array().unwrap();
    assert_eq!(cards.len(), tabula_lytharia::card_db().len());
    for c in cards {
        assert_eq!(c["art"], c["id"]);
        assert!(c["name"].is_string() && c["text"].is_string());
        assert!(["troop", "spell", "equipment"].contains(&c["kind"].as_str().unwrap()));
        if c["kind"] != "troop" {
            assert!(c["cost"].is_i64(), "{c}");
        }
    }
    assert_eq!(cat.extra["starter_decks"].as_array().unwrap().len(), 4);
    let ids: BTreeSet<String> = cat.pieces.iter().map(|p| p.id.clone()).collect();
    for mode in MODES {
        walk(mode, 9, 400, |_, _, after| {
            for v in [Viewer::Player(Player(0)), Viewer::Public] {
                for p in after.view(v).pieces {
                    assert!(ids.contains(&p.piece), "{} is not a catalog piece", p.piece);
                }
            }
        });
    }
}

#[test]
fn equal_states_have_equal_keys_and_different_ones_differ() {
    let mut keys: HashMap<u64, String> = HashMap::new();
    let mut n = 0;
    for mode in MODES {
        for seed in 0..3 {
            walk(mode, 100 + seed, 400, |_, _, g| {
                let text = g.to_text();
                let back = Lytharia::from_text(&text, g.options()).unwrap();
                assert_eq!(back.key(), g.key(), "a text round trip keeps the key");
                if let Some(old) = keys.insert(g.key(), text.clone()) {
                    assert_eq!(old, text, "two states share a key");
                }
                n += 1;
            });
        }
    }
    assert!(n > 2_000, "only {n} states");
    // Two move orders to the same position: the same key.
    let mut a = common::blank();
    let mut b = a.clone();
    for m in ["a1-a2", "end", "a6-a5", "end", "a2-b2"] {
        common::act(&mut a, m);
    }
    for m in ["a1-b1", "end", "a6-a5", "end", "b1-b2"] {
        common::act(&mut b, m);
    }
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.key(), b.key());
    b.edit(|st| st.sides[0].mana -= 1);
    assert_ne!(a.key(), b.key());
}

#[test]
fn refusals_are_classified() {
    let g = common::blank();
    let unreadable = g.parse_action("fly to the moon").unwrap_err();
    assert_eq!(Lytharia::fault_kind(&unreadable), FaultKind::Unreadable);
    let illegal = g.parse_action("a1-a8").unwrap_err();
    assert_eq!(Lytharia::fault_kind(&illegal), FaultKind::Illegal);
    let mut h = g.clone();
    assert_eq!(
        Lytharia::fault_kind(&h.apply(&Action::Die(3)).unwrap_err()),
        FaultKind::Illegal
    );
}
