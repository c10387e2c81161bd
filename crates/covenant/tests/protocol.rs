//! The table protocol: JSON actions, gestures, holdings, zones, events, the
//! catalog, fault kinds and the state key, on named positions and over
//! seeded random games.

mod common;

use std::collections::{BTreeSet, HashMap, HashSet};

use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};
use tabula_core::protocol::{BoardShape, Event, EventKind, FaultKind, Gesture, GestureKind, Place};
use tabula_core::{Game, GameRng, Player, Seed, Viewer};
use tabula_covenant::{Action, Covenant, CovenantOptions, RECRUITS, ScenarioId, Side};

// ----- helpers -------------------------------------------------------------------

/// The events of `action` (notation) played on `game`, which it then plays.
fn play_events(game: &mut Covenant, action: &str) -> Vec<Event> {
    let a = game
        .parse_action(action)
        .unwrap_or_else(|e| panic!("{action}: {e}\nin {}", game.to_text()));
    let before = game.clone();
    game.apply(&a).unwrap();
    before.events(&a, game, Viewer::Public)
}

fn texts(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

fn gesture(game: &Covenant, action: &str) -> Gesture {
    game.gesture(&game.parse_action(action).unwrap())
}

fn from_json(text: &str) -> Result<Action, serde_json::Error> {
    serde_json::from_str(text)
}

/// One random game: attacks preferred so pieces fall, end-turn now and then.
/// Calls `each` with the state before every action and the action chosen.
fn random_game(
    scenario: ScenarioId,
    seed: u64,
    plies: usize,
    mut each: impl FnMut(&Covenant, &[Action], &Action),
) {
    let options = CovenantOptions::with_scenario(scenario);
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = Covenant::new(&options);
    let mut actions = Vec::new();
    for _ in 0..plies {
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            return;
        }
        let attacks: Vec<Action> = actions
            .iter()
            .copied()
            .filter(|a| {
                matches!(
                    a,
                    Action::Melee(_)
                        | Action::Shoot(_)
                        | Action::Holy(_)
                        | Action::Sweep(_)
                        | Action::Convert(_)
                )
            })
            .collect();
        let roll = rng.below(10);
        let pick = if !attacks.is_empty() && roll < 6 {
            attacks[rng.below(attacks.len() as u64) as usize]
        } else if roll == 9 {
            Action::EndTurn
        } else {
            actions[rng.below(actions.len() as u64) as usize]
        };
        each(&game, &actions, &pick);
        game.apply(&pick).unwrap();
    }
}

fn scenario_of(i: u8) -> ScenarioId {
    ScenarioId::ALL[usize::from(i) % 3]
}

// ----- JSON actions --------------------------------------------------------------

#[test]
fn json_actions_are_tagged_objects_in_the_books_words() {
    for (text, json) in [
        ("act@d4", r#"{"kind":"activate","at":"d4"}"#),
        ("extra@d4", r#"{"kind":"extra","at":"d4"}"#),
        ("move@e5", r#"{"kind":"move","to":"e5"}"#),
        ("melee@e6", r#"{"kind":"melee","at":"e6"}"#),
        ("shoot@f8", r#"{"kind":"shoot","at":"f8"}"#),
        ("holy@f8", r#"{"kind":"holy","at":"f8"}"#),
        (
            "sweep@e6,f5,f6",
            r#"{"kind":"sweep","targets":["e6","f5","f6"]}"#,
        ),
        (
            "heal@c2:c3",
            r#"{"kind":"heal","healer":"c2","target":"c3"}"#,
        ),
        (
            "recruit@c3:Mi",
            r#"{"kind":"recruit","piece":"Mi","at":"c3"}"#,
        ),
        ("convert@e6", r#"{"kind":"convert","at":"e6"}"#),
        ("end-act", r#"{"kind":"end-act"}"#),
        ("end-turn", r#"{"kind":"end-turn"}"#),
    ] {
        let action: Action = text.parse().unwrap();
        assert_eq!(serde_json::to_string(&action).unwrap(), json, "{text}");
        assert_eq!(from_json(json).unwrap(), action, "{json}");
    }
    // The other targets of a sweep may come in any order; the first stays first.
    let a = from_json(r#"{"kind":"sweep","targets":["f6","f5","e6"]}"#).unwrap();
    assert_eq!(a.to_string(), "sweep@f6,e6,f5");
    // Piece names are read too; codes are written.
    let a = from_json(r#"{"kind":"recruit","piece":"Militia","at":"c3"}"#).unwrap();
    assert_eq!(serde_json::to_value(a).unwrap()["piece"], "Mi");
}

#[test]
fn malformed_json_actions_are_refused_with_an_error() {
    for bad in [
        r#"{"kind":"sweep","targets":["e6"]}"#,
        r#"{"kind":"sweep","targets":[]}"#,
        r#"{"kind":"sweep","targets":["e6","e6"]}"#,
        r#"{"kind":"sweep","targets":["a1","a2","a3","a4","a5","a6","a7"]}"#,
        r#"{"kind":"sweep","targets":"e6,f5"}"#,
        r#"{"kind":"recruit","piece":"Dragon","at":"c3"}"#,
        r#"{"kind":"recruit","at":"c3"}"#,
        r#"{"kind":"activate","at":"z0"}"#,
        r#"{"kind":"activate","at":4}"#,
        r#"{"kind":"activate"}"#,
        r#"{"kind":"activate","at":"d4","to":"d5"}"#,
        r#"{"kind":"fly","at":"d4"}"#,
        r#"{"at":"d4"}"#,
        r#""act@d4""#,
        r#"{"kind":"heal","healer":"c2"}"#,
        "[]",
        "null",
    ] {
        assert!(from_json(bad).is_err(), "{bad}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every legal action at every ply of random games reads back from its
    /// JSON and from its text.
    #[test]
    fn every_legal_action_round_trips_through_json_and_text(seed in any::<u64>(), s in 0u8..3) {
        let mut checked = 0usize;
        random_game(scenario_of(s), seed, 300, |_, actions, _| {
            for a in actions {
                let json = serde_json::to_string(a).unwrap();
                assert_eq!(&from_json(&json).unwrap(), a, "{json}");
                assert_eq!(&a.to_string().parse::<Action>().unwrap(), a);
                checked += 1;
            }
        });
        prop_assert!(checked > 0);
    }
}

// ----- gestures ------------------------------------------------------------------

/// The protocol's rules for one decision's gestures.
fn check_gestures(game: &Covenant, actions: &[Action], cells: &HashSet<String>) {
    let player = game.to_act().player().unwrap();
    let zones = game.zones(Viewer::Player(player));
    let mut seen = HashMap::new();
    for a in actions {
        let g = game.gesture(a);
        if let Place::Button { button, .. } = &g.from {
            assert_ne!(button, &a.to_string(), "{a}: the placeholder's button");
        }
        let id = format!("{:?}", g.identity());
        if let Some(other) = seen.insert(id.clone(), *a) {
            panic!("{a} and {other} share {id} in {}", game.to_text());
        }
        for c in g.cells() {
            assert!(cells.contains(c), "{a}: {c} is no hex of the field");
        }
        if let Place::Item { zone, owner, item } = &g.from {
            let found = zones.iter().any(|z| {
                &z.zone == zone && &z.owner == owner && z.items.iter().any(|i| &i.item == item)
            });
            assert!(found, "{a}: {zone}/{item} is in no zone");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Every legal action has a gesture; none shares its clicks and choice
    /// with another; every hex it names is in the catalog; every item is in
    /// a zone of the acting seat.
    #[test]
    fn every_decision_has_distinct_gestures_on_the_field(seed in any::<u64>(), s in 0u8..3) {
        let scenario = scenario_of(s);
        let cells: HashSet<String> = Covenant::catalog(&CovenantOptions::with_scenario(scenario))
            .board
            .cells()
            .into_iter()
            .collect();
        let mut decisions = 0;
        random_game(scenario, seed, 300, |game, actions, _| {
            check_gestures(game, actions, &cells);
            decisions += 1;
        });
        prop_assert!(decisions > 0);
    }
}

#[test]
fn gestures_click_the_piece_then_where_it_acts() {
    let mut g = arena("g", &format!("{KINGS},gMi@d2,bMi@d5"));
    let act = gesture(&g, "act@d2");
    assert_eq!(act.kind, GestureKind::Activate);
    assert_eq!(act.from, Place::cell("d2"));
    assert_eq!(act.to, None);
    play(&mut g, "act@d2");
    // The walk shows the hexes it passes.
    let walk = gesture(&g, "move@d4");
    assert_eq!(walk.kind, GestureKind::Move);
    assert_eq!(walk.from, Place::cell("d2"));
    assert_eq!(walk.to.as_deref(), Some("d4"));
    assert_eq!(walk.touches, ["d3"]);
    assert_eq!(
        gesture(&g, "end-act").from,
        Place::button("finish-act", "End the act")
    );
    assert_eq!(gesture(&g, "end-turn").kind, GestureKind::EndTurn);
}

#[test]
fn a_walk_around_rough_ground_shows_the_cheaper_path() {
    // Forest on c4: from c3 to c5 through it costs 2 + 1 for 2 tiles, around
    // it 1 + 1 + 1 for 3 tiles; the engine takes the cheapest path with the
    // most tiles (Charge counts tiles), and the gesture shows that one.
    let mut g = arena("g", &format!("{KINGS},gMi@c3"));
    play(&mut g, "act@c3");
    let walk = gesture(&g, "move@c5");
    assert!(!walk.touches.contains(&"c4".to_owned()), "{walk:?}");
    assert_eq!(walk.touches.len(), 2);
    let events = play_events(&mut g, "move@c5");
    assert_eq!(events[0].data["cost"], 3);
    assert_eq!(events[0].data["tiles"], 3);
    assert_eq!(events[0].data["path"].as_array().unwrap().len(), 3);
}

#[test]
fn a_sweep_names_its_other_targets_as_touches_and_a_choice() {
    let mut g = arena("g", &format!("{KINGS},gBl@d2,bMi@d3,bMi@e3,bMi@c2"));
    play(&mut g, "act@d2");
    let two = gesture(&g, "sweep@d3,e3");
    assert_eq!(two.kind, GestureKind::Sweep);
    assert_eq!(two.from, Place::cell("d2"));
    assert_eq!(two.to.as_deref(), Some("d3"));
    assert_eq!(two.touches, ["e3"]);
    let choice = two.choice.clone().unwrap();
    assert_eq!(
        (choice.id.as_str(), choice.label.as_str()),
        ("e3", "also strike e3")
    );
    let three = gesture(&g, "sweep@d3,c2,e3").choice.unwrap();
    assert_eq!(
        (three.id.as_str(), three.label.as_str()),
        ("c2,e3", "also strike c2, e3")
    );
    // The single blow on the same first target is a choice of its own.
    let melee = gesture(&g, "melee@d3");
    assert_eq!(melee.kind, GestureKind::Attack);
    assert_eq!(melee.choice.unwrap().id, "melee");
}

#[test]
fn an_adjacent_shot_and_a_blow_are_told_apart_by_a_choice() {
    let mut g = arena("g", &format!("{KINGS},gAr@d2,bMi@d3,bMi@d5"));
    play(&mut g, "act@d2");
    let shot = gesture(&g, "shoot@d3");
    assert_eq!(shot.kind, GestureKind::Shoot);
    assert_eq!(shot.choice.unwrap().label, "shoot (3 MP)");
    assert_eq!(gesture(&g, "melee@d3").choice.unwrap().id, "melee");
    // Out of melee reach, a shot needs no second step.
    assert_eq!(gesture(&g, "shoot@d5").choice, None);
}

#[test]
fn recruits_heals_extras_and_conversions_have_their_own_gestures() {
    let g = arena("g", &format!("{KINGS},gPh@c1,gMi@c2=5,gMa@e1,gMi@e2:1"));
    let recruit = gesture(&g, "recruit@a8:Mi");
    assert_eq!(recruit.kind, GestureKind::Recruit);
    assert_eq!(recruit.from, Place::item(RECRUITS, Some(Player(0)), "Mi"));
    assert_eq!(recruit.to.as_deref(), Some("a8"));
    let heal = gesture(&g, "heal@c1:c2");
    assert_eq!(heal.kind, GestureKind::Heal);
    assert_eq!(heal.from, Place::cell("c1"));
    assert_eq!(heal.to.as_deref(), Some("c2"));
    let extra = gesture(&g, "extra@e2");
    assert_eq!(extra.kind, GestureKind::Activate);
    assert_eq!(extra.from, Place::cell("e2"));
    assert_eq!(extra.choice.unwrap().id, "extra");

    // The Apostle's victim's hex is also within a walk: convert is a choice.
    let mut g = arena("g", &format!("{KINGS},gAp@d1,bMi@d3=6"));
    play(&mut g, "act@d1 holy@d3");
    let convert = gesture(&g, "convert@d3");
    assert_eq!(convert.kind, GestureKind::Convert);
    assert_eq!(convert.from, Place::cell("d1"));
    assert_eq!(
        convert.choice.unwrap().label,
        "raise the Militia for 1 Grail"
    );
    assert_eq!(gesture(&g, "move@d3").choice.unwrap().id, "move");
}

// ----- holdings and zones --------------------------------------------------------

#[test]
fn holdings_are_grails_income_and_pieces() {
    let g = arena("g", "gKi@a1,bKi@e7,bMi@e6");
    let blue = g.holdings(Player(1), Viewer::Player(Player(0)));
    let pairs: Vec<(&str, &Value)> = blue.iter().map(|h| (h.key.as_str(), &h.value)).collect();
    assert_eq!(
        pairs,
        [
            ("grails", &json!(10)),
            ("income", &json!(2)),
            ("pieces", &json!(2))
        ]
    );
    assert_eq!(g.holdings(Player(0), Viewer::Public)[1].value, json!(0));
    assert!(g.holdings(Player(2), Viewer::Public).is_empty());
}

#[test]
fn each_side_has_a_recruit_offer_with_prices() {
    let g = arena("g", &format!("{KINGS},gMa@e1"));
    let zones = g.zones(Viewer::Public);
    assert_eq!(zones.len(), 2);
    let gold = &zones[0];
    assert_eq!(
        (gold.zone.as_str(), gold.owner),
        (RECRUITS, Some(Player(0)))
    );
    let item = |id: &str| gold.items.iter().find(|i| i.item == id);
    let militia = item("Mi").unwrap();
    assert_eq!(
        (militia.label.as_str(), militia.count),
        ("Militia (1 Grail)", 10)
    );
    let angel = item("An").unwrap();
    assert_eq!((angel.label.as_str(), angel.count), ("Angel (4 Grails)", 1));
    // The King is never recruited; a Legend or royal on the board is not offered.
    assert!(item("Ki").is_none());
    assert!(item("Ma").is_none());
    assert_eq!(gold.items.len(), 21);
    assert_eq!(zones[1].items.len(), 22);
}

// ----- events --------------------------------------------------------------------

#[test]
fn a_blow_and_its_counter_are_one_sentence() {
    let mut g = arena("g", &format!("{KINGS},gTe@d2,bMi@d3"));
    let act = play_events(&mut g, "act@d2");
    assert_eq!(texts(&act), ["Gold activates the Templar on d2 (8 MP)"]);
    assert_eq!(act[0].kind, EventKind::Phase);
    let events = play_events(&mut g, "melee@d3");
    assert_eq!(
        texts(&events),
        [
            "Gold's Templar strikes Blue's Militia on d3 for 6 (6 Blood left); the Militia strikes back for 1 (14 Blood left)"
        ]
    );
    let e = &events[0];
    assert_eq!(e.kind, EventKind::Damage);
    assert_eq!(e.player, Some(Player(0)));
    assert_eq!(e.cells, ["d2", "d3"]);
    assert_eq!(e.data["attack"], "melee");
    assert_eq!(e.data["damage"], 6);
    assert_eq!(e.data["blood_left"], 6);
    assert_eq!(e.data["target_piece"], "Mi");
    assert_eq!(e.data["target_owner"], 1);
    assert_eq!(
        e.data["counter"],
        json!({"by": "d3", "piece": "Mi", "damage": 1, "blood_left": 14, "wrath": false})
    );
}

#[test]
fn a_kill_draws_no_counter_and_the_fallen_falls() {
    let mut g = arena("g", &format!("{KINGS},gTe@d2,bMi@d3=2"));
    play(&mut g, "act@d2");
    let events = play_events(&mut g, "melee@d3");
    assert_eq!(
        texts(&events),
        [
            "Gold's Templar strikes Blue's Militia on d3 for 6 (0 Blood left)",
            "Blue's Militia on d3 falls",
        ]
    );
    assert_eq!(events[1].kind, EventKind::Fall);
    assert_eq!(events[1].data["by_foe"], true);
    assert_eq!(events[1].data["owner"], 1);
}

#[test]
fn a_sweep_tells_every_blow_then_the_first_targets_counter() {
    let mut g = arena("g", &format!("{KINGS},gBl@d2,bMi@d3,bMi@e3"));
    play(&mut g, "act@d2");
    let events = play_events(&mut g, "sweep@d3,e3");
    assert_eq!(
        texts(&events),
        [
            "Gold's Blade sweeps Blue's Militia on d3 for 4 (8 Blood left)",
            "Gold's Blade sweeps Blue's Militia on e3 for 4 (8 Blood left)",
            "Blue's Militia on d3 strikes back at Gold's Blade on d2 for 5 (7 Blood left)",
        ]
    );
    assert_eq!(events[2].data["attack"], "counter");
    assert_eq!(blood(&g, "d2"), 7);
}

#[test]
fn shots_holy_strikes_and_the_angels_wrath() {
    let mut g = arena("g", &format!("{KINGS},gAr@d1,bMi@d4"));
    play(&mut g, "act@d1");
    assert_eq!(
        texts(&play_events(&mut g, "shoot@d4")),
        ["Gold's Archer shoots Blue's Militia on d4 for 3 (9 Blood left)"]
    );

    let mut g = arena("g", &format!("{KINGS},gAr@d1,bAn@d4"));
    play(&mut g, "act@d1");
    let events = play_events(&mut g, "shoot@d4");
    assert_eq!(
        texts(&events),
        [
            "Gold's Archer shoots Blue's Angel on d4 for 5 (7 Blood left); the Angel answers with holy wrath for 11 (1 Blood left)"
        ]
    );
    assert_eq!(events[0].data["counter"]["wrath"], true);

    let mut g = arena("g", &format!("{KINGS},gAp@d1,bMi@d3=6"));
    play(&mut g, "act@d1");
    let events = play_events(&mut g, "holy@d3");
    assert_eq!(
        texts(&events),
        [
            "Gold's Apostle casts a holy strike on Blue's Militia on d3 for 6 (0 Blood left)",
            "Blue's Militia on d3 falls",
            "Gold may raise the fallen Militia on d3 for 1 Grail",
        ]
    );
    assert_eq!(events[0].data["attack"], "holy");
    let events = play_events(&mut g, "convert@d3");
    assert_eq!(
        texts(&events),
        [
            "Gold's Apostle on d1 raises the fallen Militia on d3 under Gold's banner for 1 Grail (9 Grails left); it stands idle this turn"
        ]
    );
    assert_eq!(events[0].kind, EventKind::Convert);
    assert_eq!(events[0].data["paid"], 1);
}

#[test]
fn walks_heals_recruits_and_extra_acts() {
    let mut g = arena(
        "g",
        &format!("{KINGS},gPh@c1,gMi@c2=5,gMa@e1,gMi@e2:1,gMi@g1"),
    );
    let heal = play_events(&mut g, "heal@c1:c2");
    assert_eq!(
        texts(&heal),
        ["Gold's Prophet on c1 heals the Militia on c2 to full Blood: +7, 12 Blood"]
    );
    assert_eq!(heal[0].data["amount"], 7);
    let recruit = play_events(&mut g, "recruit@a8:Mi");
    assert_eq!(
        texts(&recruit),
        ["Gold recruits a Militia on a8 for 1 Grail (9 Grails left)"]
    );
    assert_eq!(recruit[0].kind, EventKind::Enter);
    let extra = play_events(&mut g, "extra@e2");
    assert_eq!(
        texts(&extra),
        [
            "Gold buys the Militia on e2 an extra act for 4 Blood (For the Kingdom!): 8 Blood left, 4 MP"
        ]
    );
    play(&mut g, "end-act act@g1");
    let walk = play_events(&mut g, "move@g3");
    assert_eq!(
        texts(&walk),
        ["Gold's Militia walks from g1 to g3 (2 MP, 2 left)"]
    );
    assert_eq!(walk[0].data["path"], json!(["g2", "g3"]));
    assert_eq!(walk[0].cells, ["g1", "g2", "g3"]);
}

#[test]
fn the_turns_end_brings_income_recovery_and_the_round() {
    // Blue's King holds the Holy City e7; Blue's Princess heals its Militia.
    let mut g = arena("g", "gKi@a1,bKi@e7,bPr@h8,bMi@h7=5");
    let events = play_events(&mut g, "end-turn");
    assert_eq!(
        texts(&events),
        [
            "Gold ends its turn",
            "Blue's turn begins",
            "Blue collects 2 Grails from its Holy Cities (12 Grails in all)",
            "Blue's Militia on h7 recovers 2 Blood by the Princess's aura (7 Blood)",
        ]
    );
    assert_eq!(events[2].kind, EventKind::Resource);
    assert_eq!(events[2].data["grails"], 2);
    assert_eq!(events[3].kind, EventKind::Heal);
    let events = play_events(&mut g, "end-turn");
    assert_eq!(
        texts(&events)[..3],
        [
            "Blue ends its turn",
            "Round 2 begins (1 of 30 rounds without a capture)",
            "Gold's turn begins",
        ]
    );
    assert_eq!(events[1].data["round"], 2);
}

#[test]
fn sacrifice_the_crown_and_the_end() {
    let mut g = arena("g", &format!("{KINGS},gTe@d2:1"));
    play(&mut g, "act@d2");
    let events = play_events(&mut g, "end-act");
    assert_eq!(
        texts(&events),
        [
            "Gold's Templar on d2 ends its act",
            "Gold's Templar on d2 pays 4 Blood for its second act (11 Blood left)",
        ]
    );

    let mut g = arena("g", "gKi@a9,bKi@d3=1,bHe@i9,gTe@d2");
    play(&mut g, "act@d2");
    let events = play_events(&mut g, "melee@d3");
    assert_eq!(
        texts(&events)[1..],
        [
            "Blue's King on d3 falls",
            "Blue's Heir on i9 takes the crown"
        ]
    );
    assert_eq!(events[2].kind, EventKind::Promote);

    let mut g = arena("g", "gKi@a9,bKi@d3=1,gTe@d2");
    play(&mut g, "act@d2");
    let events = play_events(&mut g, "melee@d3");
    let end = events.last().unwrap();
    assert_eq!(end.kind, EventKind::End);
    assert_eq!(end.text, g.describe_outcome(&g.to_act().outcome().unwrap()));
    assert_eq!(end.data["winner"], 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Every action of random games yields at least one event, each with a
    /// sentence, and the cells they name are on the field.
    #[test]
    fn every_action_tells_at_least_one_event(seed in any::<u64>(), s in 0u8..3) {
        let scenario = scenario_of(s);
        let cells: HashSet<String> = Covenant::catalog(&CovenantOptions::with_scenario(scenario))
            .board
            .cells()
            .into_iter()
            .collect();
        random_game(scenario, seed, 300, |game, _, pick| {
            let mut after = game.clone();
            after.apply(pick).unwrap();
            let events = game.events(pick, &after, Viewer::Public);
            assert!(!events.is_empty(), "{pick}");
            for e in &events {
                assert!(!e.text.is_empty(), "{pick}");
                for c in &e.cells {
                    assert!(cells.contains(c), "{pick}: {c}");
                }
            }
            // The last Blood an event tells for a hex is what stands there after.
            let mut told: HashMap<String, u64> = HashMap::new();
            for e in &events {
                let d = &e.data;
                let n = |v: &Value| v.as_u64().unwrap();
                match e.kind {
                    EventKind::Damage => {
                        told.insert(d["target"].as_str().unwrap().to_owned(), n(&d["blood_left"]));
                        if let Some(c) = d.get("counter") {
                            told.insert(d["attacker"].as_str().unwrap().to_owned(), n(&c["blood_left"]));
                        }
                    }
                    EventKind::Heal => {
                        told.insert(d["cell"].as_str().unwrap().to_owned(), n(&d["blood"]));
                    }
                    EventKind::Fall => {
                        told.insert(d["cell"].as_str().unwrap().to_owned(), 0);
                    }
                    _ => {}
                }
            }
            for (cell, blood) in told {
                let hex: tabula_covenant::Hex = cell.parse().unwrap();
                let now = after.piece_at(hex).map_or(0, |p| u64::from(p.blood));
                assert_eq!(now, blood, "{pick} on {cell} in {}", game.to_text());
            }
        });
    }
}

/// Every key in `v`, nested objects included, is snake_case.
fn assert_snake_keys(v: &Value, what: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                assert!(
                    k.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                    "{what}: key {k}"
                );
                assert_snake_keys(x, what);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| assert_snake_keys(x, what)),
        _ => {}
    }
}

/// The protocol's conventions: snake_case keys in `data` and the board,
/// word values in lower case, a fall's `cell`, `piece` and `owner`, an
/// end's `winner` team or `null`, no seat repeated as `data.player`.
#[test]
fn events_and_the_board_follow_the_protocol_conventions() {
    let words = ["attack", "cause", "ended", "begins", "side"];
    let mut falls = 0;
    for seed in 0..12 {
        random_game(scenario_of(seed as u8), seed, 400, |game, _, pick| {
            let mut after = game.clone();
            after.apply(pick).unwrap();
            assert_snake_keys(
                &serde_json::to_value(after.view(Viewer::Public)).unwrap(),
                "board",
            );
            for e in game.events(pick, &after, Viewer::Public) {
                let d = serde_json::to_value(&e.data).unwrap();
                assert_snake_keys(&d, &e.text);
                assert!(d.get("player").is_none(), "{}", e.text);
                for k in words {
                    if let Some(w) = d.get(k).and_then(Value::as_str) {
                        assert_eq!(w, w.to_lowercase(), "{}: {k}", e.text);
                    }
                }
                match e.kind {
                    EventKind::Fall => {
                        falls += 1;
                        assert!(d["cell"].is_string() && d["piece"].is_string(), "{d}");
                        assert_eq!(d["owner"].as_u64(), e.player.map(|p| u64::from(p.0)));
                    }
                    EventKind::End => {
                        assert!(d["reason"].is_string(), "{d}");
                        let w = &d["winner"];
                        assert!(w.is_null() || w.as_u64().is_some_and(|t| t < 2), "{d}");
                    }
                    _ => {}
                }
            }
        });
    }
    assert!(falls > 0, "some piece fell");
}

// ----- the catalog ---------------------------------------------------------------

#[test]
fn the_catalog_holds_the_field_the_table_and_the_scenario() {
    let c = Covenant::catalog(&CovenantOptions::with_scenario(ScenarioId::Arena));
    let BoardShape::Hexes { cells } = &c.board else {
        panic!("a hex field");
    };
    assert_eq!(cells.len(), 81);
    let hex = |name: &str| cells.iter().find(|h| h.cell == name).unwrap();
    assert_eq!(hex("c4").features, ["forest", "rough"]);
    assert_eq!(hex("e4").features, ["hill", "rough"]);
    assert_eq!(hex("a1").features, ["open"]);
    assert_eq!((hex("a1").col, hex("a1").row), (0, 0));
    assert_eq!((hex("d3").col, hex("d3").row), (3, 2));
    assert_eq!(hex("e7").features, ["open", "holy-city", "holy-city-mark"]);
    assert_eq!(hex("d7").features, ["open", "holy-city"]);
    assert_eq!(c.extra["orientation"], "flat-top");
    assert!(c.extra["layout"].as_str().unwrap().contains("odd columns"));
    assert_eq!(c.extra["scenario"]["name"], "Arena");
    assert_eq!(c.extra["rules"]["draw-rounds"], 30);
    assert_eq!(c.extra["cities"][0]["mark"], "e7");
    assert_eq!(c.extra["cities"][0]["hexes"].as_array().unwrap().len(), 7);

    assert_eq!(c.pieces.len(), 23);
    let templar = c.pieces.iter().find(|p| p.id == "Te").unwrap();
    assert_eq!(templar.name, "Templar");
    assert_eq!(
        (
            &templar.stats["attack"],
            &templar.stats["defence"],
            &templar.stats["blood"],
            &templar.stats["speed"],
            &templar.stats["price"],
            &templar.stats["acts"]
        ),
        (
            &json!(5),
            &json!(5),
            &json!(15),
            &json!(8),
            &json!(2),
            &json!(2)
        )
    );
    assert_eq!(
        templar.stats["powers"]["sacrifice"],
        json!({"acts": 2, "blood": 4})
    );
    let king = &c.pieces[0];
    assert_eq!(
        (king.id.as_str(), &king.stats["price"]),
        ("Ki", &Value::Null)
    );
    // Every piece id a view names is in the catalog.
    let ids: BTreeSet<&str> = c.pieces.iter().map(|p| p.id.as_str()).collect();
    let pilgrimage = Covenant::new(&CovenantOptions::default());
    for p in pilgrimage.view(Viewer::Public).pieces {
        assert!(ids.contains(p.piece.as_str()));
    }
    let full = Covenant::catalog(&CovenantOptions::default());
    assert_eq!(full.extra["scenario"]["id"], "pilgrimage");
    assert_eq!(full.extra["cities"].as_array().unwrap().len(), 5);
}

// ----- faults, keys, the draw ----------------------------------------------------

#[test]
fn faults_are_classified() {
    let g = arena("g", KINGS);
    let unreadable = g.parse_action("fly@a1").unwrap_err();
    assert_eq!(Covenant::fault_kind(&unreadable), FaultKind::Unreadable);
    let illegal = g.parse_action("act@i9").unwrap_err();
    assert_eq!(Covenant::fault_kind(&illegal), FaultKind::Illegal);
    let mut over = arena("g", "gKi@a9,bKi@d3=1,gTe@d2");
    play(&mut over, "act@d2 melee@d3");
    let done = over.parse_action("end-turn").unwrap_err();
    assert_eq!(Covenant::fault_kind(&done), FaultKind::GameOver);
    // The notation is canonical: no action text is ambiguous.
    const { assert!(!Covenant::DRAW_BY_AGREEMENT) };
}

#[test]
fn equal_states_have_equal_keys() {
    let mut g = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
    play(&mut g, "act@g1 move@g3 end-act act@c1");
    let back = Covenant::from_text(&g.to_text(), g.options()).unwrap();
    assert_eq!(back.key(), g.key());
    // Two orders of the same two walks.
    let start = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
    let mut a = start.clone();
    play(&mut a, "act@g1 move@g3 end-act act@c1 move@c2 end-act");
    let mut b = start.clone();
    play(&mut b, "act@c1 move@c2 end-act act@g1 move@g3 end-act");
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), start.key());
}

#[test]
fn thousands_of_states_with_different_texts_have_different_keys() {
    let mut keys: HashMap<u64, String> = HashMap::new();
    for (i, scenario) in ScenarioId::ALL.into_iter().enumerate() {
        for seed in 0..8 {
            random_game(scenario, 77 + seed + 100 * i as u64, 400, |game, _, _| {
                let text = game.to_text();
                if let Some(other) = keys.insert(game.key(), text.clone()) {
                    assert_eq!(other, text, "two positions share a key");
                }
            });
        }
    }
    assert!(keys.len() > 3000, "{}", keys.len());
}

#[test]
fn the_view_names_pieces_like_the_catalog() {
    let g = arena("b", "gKi@a1,bKi@i9,bMi@d3=5:c");
    let json = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    let militia = json["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["cell"] == "d3")
        .unwrap();
    assert_eq!(militia["owner"], 1);
    assert_eq!(militia["piece"], "Mi");
    assert_eq!(militia["blood"], 5);
    assert_eq!(militia["countered"], true);
    assert_eq!(json["quiet_rounds"], 0);
    assert_eq!(json["grails"], json!([10, 10]));
    let _ = Side::Gold;
}
