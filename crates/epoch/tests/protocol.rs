//! The table protocol: the incremental key, JSON actions, gestures, events,
//! holdings, zones, the catalog, fault kinds and the view's shape.

mod common;

use std::collections::{HashMap, HashSet};

use common::{game, game_with, play};
use proptest::prelude::*;
use serde_json::{Value, json};
use tabula_core::protocol::{EventKind, FaultKind, GestureKind, Place};
use tabula_core::{Game, GameRng, Player, Seed, Viewer};
use tabula_epoch::{ActionError, Epoch, EpochOptions, Move};

/// A seeded random game: every state from the start to the end (or
/// `plies`), with the move played from each. Captures and Legionary moves
/// are favoured half of the time so games reach promotions and endgames.
fn random_game(seed: u64, plies: usize, options: EpochOptions) -> Vec<(Epoch, Option<Move>)> {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut g = Epoch::new(&options);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        g.legal_actions(&mut moves);
        if moves.is_empty() {
            break;
        }
        let sharp: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !matches!(m, Move::Quiet { .. } | Move::Castle { .. }))
            .collect();
        let pick = if !sharp.is_empty() && rng.below(2) == 0 {
            sharp[rng.below(sharp.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        out.push((g.clone(), Some(pick)));
        g.apply(&pick).unwrap();
    }
    out.push((g, None));
    out
}

fn legal(g: &Epoch) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

fn mv(g: &Epoch, text: &str) -> Move {
    g.parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.to_text()))
}

/// The events of playing `text` in `g` (which it plays).
fn events_of(g: &mut Epoch, text: &str) -> Vec<tabula_core::protocol::Event> {
    let m = mv(g, text);
    let before = g.clone();
    g.apply(&m).unwrap();
    before.events(&m, g, Viewer::Public)
}

fn texts(events: &[tabula_core::protocol::Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

/// The text fields the key covers: placement to open places, and the swap.
fn keyed_fields(text: &str) -> String {
    let f: Vec<&str> = text.split_whitespace().collect();
    format!("{} {}", f[..8].join(" "), f[9])
}

// ---- key ----

#[test]
fn incremental_key_equals_the_key_recomputed_from_scratch_at_every_ply() {
    for seed in 0..12 {
        for (g, _) in random_game(seed, 400, EpochOptions::default()) {
            let p = g.position();
            assert_eq!(
                p.key(),
                p.key_from_scratch(),
                "seed {seed}: {}",
                g.to_text()
            );
            assert_eq!(p.full_key(), p.full_key_from_scratch(), "{}", g.to_text());
            // Every child too, so every kind of move is checked where it occurs.
            for m in legal(&g) {
                let mut c = g.clone();
                c.apply_unchecked(&m);
                let q = c.position();
                assert_eq!(q.key(), q.key_from_scratch(), "{m} in {}", g.to_text());
                assert_eq!(
                    q.full_key(),
                    q.full_key_from_scratch(),
                    "{m} in {}",
                    g.to_text()
                );
            }
        }
    }
}

#[test]
fn text_round_trip_keeps_the_key() {
    for seed in 20..26 {
        for (g, _) in random_game(seed, 300, EpochOptions::default()) {
            let back = Epoch::from_text(&g.to_text(), g.options()).unwrap();
            assert_eq!(back.key(), g.key(), "{}", g.to_text());
            assert_eq!(back.position().key(), g.position().key());
        }
    }
}

#[test]
fn transpositions_share_the_key() {
    let o = EpochOptions::default();
    let mut a = Epoch::new(&o);
    for m in ["Tb1d4", "Tb13d10", "Tl1j4"] {
        play(&mut a, m);
    }
    let mut b = Epoch::new(&o);
    for m in ["Tl1j4", "Tb13d10", "Tb1d4"] {
        play(&mut b, m);
    }
    assert_ne!(a.to_text(), b.to_text(), "the repetition history differs");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.position().key(), b.position().key());
    // A knight's shuffle back to the start: the same position, the swap
    // right gone, so the game's key differs from the start's but the
    // book's repetition key does not (decision 26).
    let start = Epoch::new(&o);
    let mut c = Epoch::new(&o);
    for m in ["Tb1d4", "Tb13d10", "Td4b1", "Td10b13"] {
        play(&mut c, m);
    }
    assert_eq!(c.position().key(), start.position().key());
    assert_ne!(c.key(), start.key());
}

#[test]
fn the_key_sees_dormancy_places_and_the_swap() {
    let dormant = game("Pm1 Mk2 Ef1 pl13", "w");
    let awake = game_with("Pm1 Mk2 Ef1 pl13", "w - - - E - 0 10 -");
    assert_ne!(dormant.key(), awake.key());
    assert_eq!(
        dormant.position().key(),
        awake.position().key(),
        "the book's repetition counts placement and rights only"
    );
    let place = game_with("Pm1 Mk2 Ef1 pl13", "w - - - - Sc 0 10 -");
    assert_ne!(dormant.key(), place.key());
    let swapped = game_with("Pm1 Mk2 Ef1 pl13", "w - - - - - 0 10 x");
    assert_ne!(dormant.key(), swapped.key());
    // The riposte and the side to move are in both keys.
    let riposte = game_with("Pm1 Md4 pl13 sd10", "w - - r - - 0 10 -");
    let plain = game("Pm1 Md4 pl13 sd10", "w");
    assert_ne!(riposte.key(), plain.key());
    assert_ne!(riposte.position().key(), plain.position().key());
    // The no-progress count is in the game's key (the limit observes it),
    // not in the book's repetition key; the move number is in neither.
    let later = game_with("Pm1 Md4 pl13 sd10", "w - - - - - 7 30 -");
    assert_ne!(plain.key(), later.key());
    assert_eq!(plain.position().key(), later.position().key());
    let renumbered = game_with("Pm1 Md4 pl13 sd10", "w - - - - - 0 30 -");
    assert_eq!(plain.key(), renumbered.key());
}

#[test]
fn different_states_have_different_keys() {
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let mut by_text: HashMap<String, u64> = HashMap::new();
    for seed in 100..130 {
        let options = EpochOptions {
            swap: seed % 3 != 0,
        };
        for (g, _) in random_game(seed, 250, options) {
            let text = format!("{} {}", keyed_fields(&g.to_text()), options.swap);
            let key = g.key();
            if let Some(k) = by_text.get(&text) {
                assert_eq!(*k, key, "equal states, equal keys: {text}");
            }
            if let Some(t) = by_key.get(&key) {
                assert_eq!(*t, text, "a key shared by two different states");
            }
            by_text.insert(text.clone(), key);
            by_key.insert(key, text);
        }
    }
    assert!(by_key.len() > 3000, "{} states", by_key.len());
}

// ---- JSON actions ----

#[test]
fn json_forms_are_the_documented_ones() {
    let cases = [
        (r#"{"kind":"move","from":"g3","to":"g7"}"#, "g3g7"),
        (r#"{"kind":"capture","from":"a4","to":"a12"}"#, "a4xa12"),
        (r#"{"kind":"blast","at":"d4"}"#, "d4xd4"),
        (
            r#"{"kind":"assassin-capture","from":"c3","victim":"f6","to":"g7"}"#,
            "c3xf6g7",
        ),
        (r#"{"kind":"en-passant","from":"f7","to":"e6"}"#, "f7xe6ep"),
        (
            r#"{"kind":"promotion","from":"c12","to":"d13","capture":true,"piece":"sentinel","file":"c"}"#,
            "c12xd13=Sc",
        ),
        (
            r#"{"kind":"promotion","from":"d12","to":"d13","capture":false,"piece":"emperor","file":"e"}"#,
            "d12d13=Ee",
        ),
        (
            r#"{"kind":"trade","at":"d13","piece":"templar","file":"e"}"#,
            "d13=Te",
        ),
        (r#"{"kind":"castle","wing":"marshal"}"#, "O-O"),
        (r#"{"kind":"castle","wing":"emperor"}"#, "O-O-O"),
        (r#"{"kind":"swap"}"#, "swap"),
    ];
    for (json, text) in cases {
        let m: Move = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(m.to_string(), text);
        assert_eq!(serde_json::to_string(&m).unwrap(), json);
    }
}

#[test]
fn malformed_json_is_refused() {
    for bad in [
        r#""g3g7""#,
        r#"{"kind":"move","from":"g3"}"#,
        r#"{"kind":"move","from":"g3","to":"g3"}"#,
        r#"{"kind":"move","from":"n3","to":"g7"}"#,
        r#"{"kind":"move","from":"g0","to":"g7"}"#,
        r#"{"kind":"move","from":"g3","to":"g7","extra":1}"#,
        r#"{"kind":"walk","from":"g3","to":"g7"}"#,
        r#"{"from":"g3","to":"g7"}"#,
        r#"{"kind":"assassin-capture","from":"c3","victim":"c3","to":"g7"}"#,
        r#"{"kind":"promotion","from":"c12","to":"c13","capture":false,"piece":"pope","file":"c"}"#,
        r#"{"kind":"promotion","from":"c12","to":"c13","capture":false,"piece":"legionary","file":"c"}"#,
        r#"{"kind":"promotion","from":"c12","to":"c13","capture":false,"piece":"sentinel","file":"z"}"#,
        r#"{"kind":"promotion","from":"c12","to":"c13","piece":"sentinel","file":"c"}"#,
        r#"{"kind":"trade","at":"d13","piece":"queen","file":"e"}"#,
        r#"{"kind":"castle","wing":"left"}"#,
        r#"{"kind":"blast","at":13}"#,
        r#"[]"#,
        r#"null"#,
    ] {
        assert!(serde_json::from_str::<Move>(bad).is_err(), "accepted {bad}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Every legal action at every ply: JSON and canonical text round-trip.
    #[test]
    fn every_legal_action_round_trips_through_json_and_text(seed in any::<u64>()) {
        for (g, _) in random_game(seed, 300, EpochOptions::default()) {
            for m in legal(&g) {
                let json = serde_json::to_string(&m).unwrap();
                let back: Move = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back, m, "{}", json);
                let v: Value = serde_json::from_str(&json).unwrap();
                prop_assert!(v["kind"].is_string());
                prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
            }
        }
    }

    /// Gestures: one per legal action, never the placeholder button, no two
    /// alike, every cell on the board, every item in a zone of the actor.
    #[test]
    fn gestures_are_complete_distinct_and_on_the_board(seed in any::<u64>()) {
        let cells: HashSet<String> =
            Epoch::catalog(&EpochOptions::default()).board.cells().into_iter().collect();
        for (g, _) in random_game(seed, 300, EpochOptions::default()) {
            let Some(actor) = g.to_act().player() else { continue };
            let zones = g.zones(Viewer::Player(actor));
            let mut seen = HashSet::new();
            for m in legal(&g) {
                let ges = g.gesture(&m);
                prop_assert!(ges.kind != GestureKind::Pass, "{}", m);
                if m != Move::Swap {
                    prop_assert!(matches!(ges.from, Place::Cell { .. }), "{}", m);
                    prop_assert!(ges.to.is_some(), "{}", m);
                }
                let id = format!("{:?}", ges.identity());
                prop_assert!(seen.insert(id.clone()), "two actions share {}", id);
                for c in ges.cells() {
                    prop_assert!(cells.contains(c), "{} names {}", m, c);
                }
                if let Place::Item { zone, owner, item } = &ges.from {
                    prop_assert!(zones.iter().any(|z| &z.zone == zone
                        && &z.owner == owner
                        && z.items.iter().any(|i| &i.item == item)));
                }
            }
        }
    }

    /// Every action yields at least one event, each with a sentence.
    #[test]
    fn every_action_tells_what_happened(seed in any::<u64>()) {
        for (g, m) in random_game(seed, 400, EpochOptions::default()) {
            let Some(m) = m else { continue };
            let mut after = g.clone();
            after.apply(&m).unwrap();
            let events = g.events(&m, &after, Viewer::Public);
            prop_assert!(!events.is_empty(), "{}", m);
            for e in &events {
                prop_assert!(!e.text.is_empty());
                for c in &e.cells {
                    prop_assert!(c.parse::<tabula_epoch::Square>().is_ok(), "{}", c);
                }
            }
            // A check event names the Pope in check and at least one checker.
            for e in events.iter().filter(|e| e.kind == EventKind::Check) {
                prop_assert!(after.position().in_check());
                let checkers = e.data["checkers"].as_array().map_or(0, Vec::len);
                prop_assert!(checkers > 0, "{}", m);
                prop_assert!(e.data["king"].is_string());
            }
            // The blast's victims are the pieces that left its ring.
            if let Move::Blast { at } = m {
                let ring = g.gesture(&m).touches;
                let fallen = events.iter().filter(|e| e.kind == EventKind::Fall).count();
                prop_assert_eq!(ring.len(), fallen);
                prop_assert!(!ring.is_empty(), "a blast destroys something at {}", at);
            }
        }
    }
}

// ---- gestures, named ----

fn gesture_json(g: &Epoch, text: &str) -> Value {
    serde_json::to_value(g.gesture(&mv(g, text))).unwrap()
}

#[test]
fn gestures_of_each_kind_of_move() {
    let g = game("Pm1 Ac3 pl13 he5", "w");
    assert_eq!(
        gesture_json(&g, "c3xe5f6"),
        json!({"kind":"capture","from":{"at":"cell","cell":"c3"},"to":"f6","touches":["e5"]})
    );
    assert_eq!(
        gesture_json(&g, "c3c4"),
        json!({"kind":"move","from":{"at":"cell","cell":"c3"},"to":"c4"})
    );
    // A restricted blast: the enemy Templar and the own Templar both fall.
    let g = game("Pm1 Gd4 Tc4 pl13 te5", "w");
    assert_eq!(
        gesture_json(&g, "d4xd4"),
        json!({"kind":"blast","from":{"at":"cell","cell":"d4"},"to":"d4","touches":["c4","e5"]})
    );
    // Enhanced (Marshal near): only the enemy falls.
    let g = game("Pm1 Mf3 Gd4 Tc4 pl13 te5", "w");
    assert_eq!(g.gesture(&mv(&g, "d4xd4")).touches, vec!["e5"]);
    let g = game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    assert_eq!(
        gesture_json(&g, "O-O"),
        json!({"kind":"castle","from":{"at":"cell","cell":"g1"},"to":"j1","touches":["m1","i1"]})
    );
    assert_eq!(
        gesture_json(&g, "O-O-O"),
        json!({"kind":"castle","from":{"at":"cell","cell":"g1"},"to":"d1","touches":["a1","e1"]})
    );
    let mut g = game("Pg1 Le3 pg13 lf7", "w");
    play(&mut g, "e3-e7");
    assert_eq!(
        gesture_json(&g, "f7xe6ep"),
        json!({"kind":"capture","from":{"at":"cell","cell":"f7"},"to":"e6","touches":["e7"]})
    );
    let mut g = Epoch::new(&EpochOptions::default());
    play(&mut g, "g3g7");
    assert_eq!(
        gesture_json(&g, "swap"),
        json!({"kind":"swap","from":{"at":"button","button":"swap","label":"Swap sides"}})
    );
}

#[test]
fn promotion_choices_name_the_piece_and_its_file_when_two_files_offer_it() {
    let g = game_with("Pm1 Lc12 pk7", "w - - - - Sc,Td 0 10 -");
    let s = g.gesture(&mv(&g, "c12c13=Sc"));
    let t = g.gesture(&mv(&g, "c12c13=Td"));
    assert_eq!((s.kind, t.kind), (GestureKind::Move, GestureKind::Move));
    assert_eq!(s.to.as_deref(), Some("c13"));
    let (s, t) = (s.choice.unwrap(), t.choice.unwrap());
    assert_eq!(
        (s.id.as_str(), s.label.as_str()),
        ("sentinel-c", "Sentinel")
    );
    assert_eq!((t.id.as_str(), t.label.as_str()), ("templar-d", "Templar"));
    let g = game_with("Pm1 Lc12 pk7", "w - - - - Sb,Sd 0 10 -");
    let b = g.gesture(&mv(&g, "c12c13=Sb")).choice.unwrap();
    assert_eq!(
        (b.id.as_str(), b.label.as_str()),
        ("sentinel-b", "Sentinel lost on file b")
    );
    // A waiting Legionary's trade: clicked twice, then picked.
    let mut g = game("Pm1 Le13 Tf5 pk7 sf9", "b");
    play(&mut g, "f9xf5");
    let trade = g.gesture(&mv(&g, "e13=Tf"));
    assert_eq!(trade.kind, GestureKind::Pick);
    assert_eq!(trade.to.as_deref(), Some("e13"));
    assert_eq!(trade.choice.unwrap().id, "templar-f");
    // The choice ids are the items of the open-places zone.
    let zones = g.zones(Viewer::Public);
    let white = zones.iter().find(|z| z.owner == Some(Player(0))).unwrap();
    assert_eq!(white.zone, "open-places");
    assert_eq!(white.items[0].item, "templar-f");
    assert_eq!(white.items[0].label, "Templar lost on file f");
}

// ---- events, named ----

#[test]
fn a_move_and_a_capture_in_words() {
    let mut g = Epoch::new(&EpochOptions::default());
    let e = events_of(&mut g, "g3-g7");
    // Six squares from its Marshal on h1, the Legionary leaves the zone.
    assert_eq!(
        texts(&e),
        [
            "White's Legionary moves from g3 to g7",
            "White's Legionary on g7 becomes restricted"
        ]
    );
    assert_eq!(e[0].kind, EventKind::Move);
    assert_eq!(e[0].player, Some(Player(0)));
    assert_eq!(e[0].data["piece"], "legionary");
    assert_eq!(e[0].cells, ["g3", "g7"]);
    let mut g = game("Pm1 Sa4 pl13 ha10", "w");
    let e = events_of(&mut g, "Sa4xa10");
    assert_eq!(
        e[0].text,
        "White's Sentinel on a4 takes Black's Herald on a10"
    );
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].data["piece"], "sentinel");
    assert_eq!(e[0].data["from"], "a4");
    assert_eq!(e[0].data["to"], "a10");
    assert_eq!(e[0].data["captured"], "herald");
    assert_eq!(e[0].data["captured_on"], "a10");
    assert_eq!(e[0].data["captured_owner"], 1);
}

#[test]
fn the_assassin_passes_over_its_victim() {
    let mut g = game("Pm1 Ac3 pl13 he5", "w");
    let e = events_of(&mut g, "c3xe5f6");
    assert_eq!(
        e[0].text,
        "White's Assassin on c3 passes over Black's Herald on e5 and lands on f6, capturing it"
    );
    assert_eq!(e[0].cells, ["c3", "f6", "e5"]);
    assert_eq!(e[0].data["piece"], "assassin");
    assert_eq!(e[0].data["from"], "c3");
    assert_eq!(e[0].data["to"], "f6");
    assert_eq!(e[0].data["captured"], "herald");
    assert_eq!(e[0].data["captured_on"], "e5");
    assert_eq!(e[0].data["captured_owner"], 1);
}

#[test]
fn en_passant_captures_beside_the_landing_square() {
    let mut g = game("Pg1 Le3 pg13 lf7", "w");
    play(&mut g, "e3-e7");
    let e = events_of(&mut g, "f7xe6ep");
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].player, Some(Player(1)));
    assert_eq!(e[0].data["piece"], "legionary");
    assert_eq!(e[0].data["from"], "f7");
    assert_eq!(e[0].data["to"], "e6");
    assert_eq!(e[0].data["captured"], "legionary");
    assert_eq!(e[0].data["captured_on"], "e7");
    assert_eq!(e[0].data["captured_owner"], 0);
    assert_eq!(e[0].data["en_passant"], true);
}

#[test]
fn the_blast_destroys_its_ring_own_pieces_included_when_restricted() {
    let mut g = game("Pm1 Gd4 Tc4 pl13 te5", "w");
    let e = events_of(&mut g, "d4xd4");
    assert_eq!(
        e[0].text,
        "White's Mage on d4 blasts its ring and destroys White's Templar on c4 and Black's \
         Templar on e5"
    );
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].data["piece"], "mage");
    assert_eq!(e[0].data["from"], "d4");
    assert_eq!(e[0].data["to"], "d4");
    assert_eq!(e[0].data["blast"], "d4");
    assert_eq!(
        e[0].data["victims"],
        json!([
            {"cell": "c4", "piece": "templar", "owner": 0, "color": "white"},
            {"cell": "e5", "piece": "templar", "owner": 1, "color": "black"}
        ])
    );
    let falls: Vec<&str> = e
        .iter()
        .filter(|x| x.kind == EventKind::Fall)
        .map(|x| x.text.as_str())
        .collect();
    assert_eq!(
        falls,
        [
            "White's Templar on c4 is destroyed by the blast",
            "Black's Templar on e5 is destroyed by the blast"
        ]
    );
}

#[test]
fn the_emperor_wakes_when_the_attack_arrives_down_the_file() {
    let mut g = game("Pm1 Mk2 Ef1 pl13 sc6", "b");
    let e = events_of(&mut g, "c6f6");
    let wake = e
        .iter()
        .find(|x| x.data.get("change") == Some(&json!("awake")))
        .expect("a waking");
    assert_eq!(
        wake.text,
        "White's Emperor on f1 comes into play: it stands under attack as its side's turn begins"
    );
    assert_eq!(wake.kind, EventKind::State);
    assert_eq!(wake.player, Some(Player(0)));
    assert_eq!(wake.data["reason"], "attacked");
}

#[test]
fn the_riposte_is_armed_by_a_loss_on_the_marshals_line() {
    let mut g = game("Pm1 Md4 Tg7 pl13 sg10 td9", "b");
    let e = events_of(&mut g, "g10xg7");
    assert_eq!(
        e[0].text,
        "Black's Sentinel on g10 takes White's Templar on g7"
    );
    let r = e
        .iter()
        .find(|x| x.data.get("change") == Some(&json!("riposte")))
        .expect("a riposte");
    assert_eq!(
        r.text,
        "White's Marshal on d4 holds the riposte: on the next move it captures on its lines \
         with nothing else attacking"
    );
    assert_eq!(r.cells, ["d4"]);
    // Cut line: no riposte event.
    let mut g = game("Pm1 Md4 Le5 Tg7 pl13 sg10 td9", "b");
    let e = events_of(&mut g, "g10xg7");
    assert!(
        !e.iter()
            .any(|x| x.data.get("change") == Some(&json!("riposte")))
    );
}

#[test]
fn the_zone_changes_are_told() {
    // The Marshal goes from h4 to h12: the Legionary on e7 and the Templar
    // on f5 are left outside its zone.
    let mut g = game("Pm1 Mh4 Le7 Tf5 pl13", "w");
    let e = events_of(&mut g, "h4h12");
    let lost = e
        .iter()
        .find(|x| x.data.get("change") == Some(&json!("restricted")))
        .expect("pieces restricted");
    assert_eq!(
        lost.text,
        "White's Templar on f5 and Legionary on e7 become restricted"
    );
    // A Black move changes nothing of White's; the Marshal coming back does.
    let e = events_of(&mut g, "l13m13");
    assert!(!e.iter().any(|x| x.kind == EventKind::State));
    let e = events_of(&mut g, "h12h7");
    let gained = e
        .iter()
        .find(|x| x.data.get("change") == Some(&json!("enhanced")))
        .expect("pieces enhanced");
    assert_eq!(
        gained.text,
        "White's Templar on f5 and Legionary on e7 become enhanced"
    );
    assert_eq!(
        gained.data["pieces"][0],
        json!({"cell":"f5","piece":"templar"})
    );
    // Capturing the Marshal restricts everything it enhanced.
    let mut g = game("Pm1 Mh4 Tf5 pl13 sh10", "b");
    let e = events_of(&mut g, "h10xh4");
    let lost = e
        .iter()
        .find(|x| x.data.get("change") == Some(&json!("restricted")))
        .expect("pieces restricted");
    assert_eq!(lost.text, "White's Templar on f5 becomes restricted");
    assert_eq!(lost.data["color"], "white");
}

#[test]
fn promotion_castling_swap_check_and_the_end_in_words() {
    let mut g = game_with("Pm1 Lc12 pk7 td13", "w - - - - Sc 0 10 -");
    let e = events_of(&mut g, "c12xd13=Sc");
    assert_eq!(
        texts(&e)[..2],
        [
            "White's Legionary on c12 takes Black's Templar on d13",
            "White's Legionary reaches d13 and is traded for the Sentinel lost on file c"
        ]
    );
    assert_eq!(e[1].kind, EventKind::Promote);
    assert_eq!(e[1].data["piece"], "sentinel");
    assert_eq!(e[1].data["file"], "c");

    let mut g = game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    let e = events_of(&mut g, "O-O");
    assert_eq!(
        e[0].text,
        "White castles on the Marshal's wing: the Pope goes from g1 to j1, the Sentinel from \
         m1 to i1"
    );
    assert_eq!(e[0].kind, EventKind::Castle);

    let mut g = Epoch::new(&EpochOptions::default());
    play(&mut g, "g3g7");
    let e = events_of(&mut g, "swap");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].kind, EventKind::Swap);
    assert_eq!(e[0].player, Some(Player(1)));
    assert_eq!(e[0].data["white"], 1);

    let mut g = game("Pa1 pm13 mb4 td4", "b");
    let e = events_of(&mut g, "b4a3");
    let check = e.iter().find(|x| x.kind == EventKind::Check).unwrap();
    assert_eq!(check.text, "White's Pope on a1 is in check");
    assert_eq!(check.player, Some(Player(0)));
    assert_eq!(check.data["king"], "a1");
    assert_eq!(check.data["pope"], "a1");
    assert_eq!(check.data["checkers"], json!(["a3"]));
    let end = e.iter().find(|x| x.kind == EventKind::End).unwrap();
    assert_eq!(end.text, "Black wins by checkmate");
    assert_eq!(end.data["reason"], "checkmate");
    assert_eq!(end.player, Some(Player(1)));
    assert_eq!(end.data["winner"], 1);
}

// ---- holdings, zones, catalog, faults, view ----

#[test]
fn holdings_say_colour_pieces_places_and_emperor() {
    let g = game_with("Pm1 Mk2 Ef1 pl13", "w - - - - Sc 0 10 -");
    let h = g.holdings(Player(0), Viewer::Public);
    let get = |k: &str| h.iter().find(|x| x.key == k).map(|x| x.value.clone());
    assert_eq!(get("color"), Some(json!("White")));
    assert_eq!(get("pieces"), Some(json!(3)));
    assert_eq!(get("open-places"), Some(json!(1)));
    assert_eq!(get("emperor"), Some(json!("dormant")));
    let b = g.holdings(Player(1), Viewer::Player(Player(0)));
    assert_eq!(
        b.iter().find(|x| x.key == "emperor").unwrap().value,
        json!("lost")
    );
    // After the swap seat 1 plays White.
    let mut g = Epoch::new(&EpochOptions::default());
    play(&mut g, "g3g7");
    play(&mut g, "swap");
    assert_eq!(
        g.holdings(Player(1), Viewer::Public)[0].value,
        json!("White")
    );
    let zones = g.zones(Viewer::Public);
    assert_eq!(zones.len(), 2);
    assert_eq!(zones[1].label, "White's open promotion places");
}

#[test]
fn the_catalog_has_the_board_and_the_nine_kinds() {
    let c = Epoch::catalog(&EpochOptions::default());
    assert_eq!(c.board.cells().len(), 169);
    assert_eq!(c.pieces.len(), 9);
    let kind = |id: &str| c.pieces.iter().find(|p| p.id == id).unwrap();
    assert_eq!(kind("mage").name, "Mage");
    assert_eq!(kind("mage").letter, "G");
    assert_eq!(
        kind("assassin").stats,
        json!({"enhanced":10,"restricted":7,"zone":true})
    );
    assert_eq!(kind("emperor").stats, json!({"value":15,"zone":false}));
    assert_eq!(kind("marshal").stats["value"], 13);
    assert_eq!(kind("pope").stats["value"], "infinite");
    assert_eq!(kind("legionary").letter, "L");
    assert_eq!(c.extra["command_square"], "g7");
    // Every piece the view names is a catalog piece.
    let g = Epoch::new(&EpochOptions::default());
    let v = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    for p in v["pieces"].as_array().unwrap() {
        assert!(c.pieces.iter().any(|k| p["piece"] == k.id.as_str()), "{p}");
    }
}

#[test]
fn fault_kinds_classify_refusals() {
    let g = Epoch::new(&EpochOptions::default());
    let kind = |t: &str| Epoch::fault_kind(&g.parse_action(t).unwrap_err());
    assert_eq!(kind("zz9"), FaultKind::Unreadable);
    assert_eq!(kind("g3g9"), FaultKind::Illegal);
    // Two places of one kind open to the same arrival: `=S` alone is ambiguous.
    let two = game_with("Pm1 Lc12 pk7", "w - - - - Sb,Sd 0 10 -");
    let e = two.parse_action("c12-c13=S").unwrap_err();
    assert!(matches!(e, ActionError::Ambiguous { .. }));
    assert_eq!(Epoch::fault_kind(&e), FaultKind::Ambiguous);
    let over = game("Pa1 pm13 mb3", "w");
    assert_eq!(
        Epoch::fault_kind(&over.parse_action("a1a2").unwrap_err()),
        FaultKind::GameOver
    );
}

#[test]
fn the_view_draws_the_board_and_leaves_the_envelope_out() {
    let g = game_with("Pm1 Mk2 Ef1 Tc4 Ta12 pl13", "w - - - - Sc 3 10 -");
    let v = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    for gone in [
        "position",
        "side_to_move",
        "to_act",
        "slots",
        "outcome",
        "legal",
    ] {
        assert!(v.get(gone).is_none(), "{gone}");
    }
    let piece = |cell: &str| {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["cell"] == cell)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        piece("c4"),
        json!({"cell":"c4","owner":0,"piece":"templar","color":"white","enhanced":false,"restricted":true,"dormant":false})
    );
    assert_eq!(piece("k2")["enhanced"], true);
    assert_eq!(
        piece("f1"),
        json!({"cell":"f1","owner":0,"piece":"emperor","color":"white","enhanced":false,"restricted":false,"dormant":true})
    );
    assert_eq!(piece("l13")["owner"], 1);
    assert_eq!(
        v["no_progress"],
        json!({"plies":3,"limit":2 * (60 + 2 * (52 - 6))})
    );
    assert_eq!(
        v["open_places"],
        json!([{"color":"white","owner":0,"piece":"sentinel","file":"c","count":1}])
    );
    assert_eq!(v["in_check"], false);
    assert_eq!(v["swap_available"], false);
    const { assert!(!Epoch::DRAW_BY_AGREEMENT) };
}
