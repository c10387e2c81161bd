//! The table protocol: the JSON form of actions, gestures, holdings, zones,
//! events, the catalog, fault kinds, the state key and the view.

mod common;

use std::collections::{HashMap, HashSet};

use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};
use tabula_core::protocol::{EventKind, FaultKind, GestureKind, Place};
use tabula_core::{Game, GameRng, Player, Seed, Viewer};
use tabula_warrior::{
    Action, ActionError, FiftyMoves, Illegal, NoMovement, Warrior, WarriorOptions,
};

fn act(text: &str) -> Action {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn json_of(text: &str) -> String {
    serde_json::to_string(&act(text)).unwrap()
}

/// Plays `text` and returns the events the public saw.
fn events(game: &mut Warrior, text: &str) -> Vec<tabula_core::protocol::Event> {
    let before = game.clone();
    let action = game
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(&action).unwrap();
    before.events(&action, game, Viewer::Public)
}

fn texts(events: &[tabula_core::protocol::Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

// ---------------------------------------------------------------- JSON

#[test]
fn each_action_kind_has_the_documented_json_form() {
    for (text, expected) in [
        ("W@e4", r#"{"kind":"drop","to":"e4"}"#),
        ("e1-e2", r#"{"kind":"move","from":"e1","to":"e2"}"#),
        (
            "d4-d5N",
            r#"{"kind":"move","from":"d4","to":"d5","facing":"north"}"#,
        ),
        ("a1xa5", r#"{"kind":"capture","from":"a1","to":"a5"}"#),
        (
            "d4xc5W",
            r#"{"kind":"capture","from":"d4","to":"c5","facing":"west"}"#,
        ),
        ("pass", r#"{"kind":"pass"}"#),
        ("+W@c3", r#"{"kind":"bonus-drop","to":"c3"}"#),
        ("R@d4", r#"{"kind":"arm","weapon":"rook","on":"d4"}"#),
        (
            "S@d4E",
            r#"{"kind":"arm","weapon":"swords","on":"d4","facing":"east"}"#,
        ),
        ("buy-W", r#"{"kind":"buy","item":"warrior"}"#),
        (
            "buy-new-N",
            r#"{"kind":"buy","item":"knight","issue":"new"}"#,
        ),
        (
            "buy-reissued-S",
            r#"{"kind":"buy","item":"swords","issue":"reissued"}"#,
        ),
        ("end", r#"{"kind":"end"}"#),
        ("draw", r#"{"kind":"claim-draw"}"#),
    ] {
        assert_eq!(json_of(text), expected, "{text}");
        assert_eq!(
            serde_json::from_str::<Action>(expected).unwrap(),
            act(text),
            "{expected}"
        );
    }
}

#[test]
fn malformed_json_is_refused_with_an_error() {
    for bad in [
        r#""W@e4""#,
        r#"{"kind":"resign"}"#,
        r#"{"kind":"drop"}"#,
        r#"{"kind":"drop","to":"e9"}"#,
        r#"{"kind":"drop","to":4}"#,
        r#"{"kind":"drop","to":"e4","from":"e2"}"#,
        r#"{"kind":"move","from":"e1"}"#,
        r#"{"kind":"move","from":"e1","to":"e2","facing":"up"}"#,
        r#"{"kind":"arm","weapon":"queen","on":"d4"}"#,
        r#"{"kind":"buy","item":"warrior","issue":"new"}"#,
        r#"{"kind":"buy","item":"rook"}"#,
        r#"{"kind":"buy","item":"rook","issue":"old"}"#,
        r#"{"Drop":{"to":"e4"}}"#,
        r#"{"action":"drop","to":"e4"}"#,
        r#"[]"#,
        r#"null"#,
        r#"{"kind":"end""#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
    }
}

fn random_legal(rng: &mut GameRng, actions: &[Action]) -> Action {
    // Captures half the time, so that games reach armed pieces and ends.
    let captures: Vec<&Action> = actions
        .iter()
        .filter(|a| matches!(a, Action::Capture { .. }))
        .collect();
    if !captures.is_empty() && rng.below(2) == 0 {
        return *captures[rng.below(captures.len() as u64) as usize];
    }
    actions[rng.below(actions.len() as u64) as usize]
}

/// Plays a seeded game, calling `check` before each action with the state,
/// its legal actions and the action chosen.
fn playout(
    seed: u64,
    options: &WarriorOptions,
    max_plies: usize,
    mut check: impl FnMut(&Warrior, &[Action], &Action),
) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = Warrior::new(options);
    let mut actions = Vec::new();
    for _ in 0..max_plies {
        game.legal_actions(&mut actions);
        if actions.is_empty() {
            return;
        }
        let pick = random_legal(&mut rng, &actions);
        check(&game, &actions, &pick);
        game.apply(&pick).unwrap();
    }
}

fn options_for(seed: u64) -> WarriorOptions {
    let mut o = if seed.is_multiple_of(2) {
        WarriorOptions::default()
    } else {
        WarriorOptions::doubles()
    };
    o.fifty_moves = match seed % 5 {
        1 => FiftyMoves::Claim,
        3 => FiftyMoves::Off,
        _ => FiftyMoves::Auto,
    };
    o.no_movement = if seed % 7 == 2 {
        NoMovement::Lose
    } else {
        NoMovement::Pass
    };
    o.duplicate_weapons = seed % 3 == 1;
    o
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every legal action at every ply: JSON and canonical text round-trip.
    #[test]
    fn every_legal_action_round_trips_through_json_and_text(seed in 0u64..1_000_000) {
        let options = options_for(seed);
        let mut failures = Vec::new();
        playout(seed, &options, 400, |_, actions, _| {
            for a in actions {
                let json = serde_json::to_string(a).unwrap();
                if serde_json::from_str::<Action>(&json).ok() != Some(*a) {
                    failures.push(format!("JSON {json}"));
                }
                if a.to_string().parse::<Action>().ok() != Some(*a) {
                    failures.push(format!("text {a}"));
                }
            }
        });
        prop_assert!(failures.is_empty(), "{:?}", failures);
    }
}

// ---------------------------------------------------------------- gestures

fn placeholder(a: &Action) -> tabula_core::protocol::Gesture {
    tabula_core::protocol::Gesture::button(GestureKind::Pass, &a.to_string(), a.to_string())
}

/// Over seeded random games, at every ply: every legal action has a
/// gesture of its own (never the placeholder), no two share `(from, to,
/// choice)`, every cell is a board cell and every item is in a zone of the
/// acting player's view with the same id and owner.
#[test]
fn gestures_identify_every_legal_action_over_random_games() {
    let mut kinds: HashMap<String, usize> = HashMap::new();
    for seed in 0..120 {
        let options = options_for(seed);
        let cells: HashSet<String> = Warrior::catalog(&options)
            .board
            .cells()
            .into_iter()
            .collect();
        playout(seed, &options, 600, |game, actions, _| {
            let player = game.to_act().player().unwrap();
            let zones = game.zones(Viewer::Player(player));
            let mut seen = HashSet::new();
            for a in actions {
                let g = game.gesture(a);
                assert_ne!(g, placeholder(a), "{a}");
                if let Place::Button { button, .. } = &g.from {
                    assert_ne!(
                        *button,
                        a.to_string(),
                        "a button named by the action's text"
                    );
                }
                *kinds.entry(format!("{:?}", g.kind)).or_default() += 1;
                let id = format!("{:?}", g.identity());
                assert!(
                    seen.insert(id.clone()),
                    "{a}: {id} twice in {}",
                    game.to_text()
                );
                for c in g.cells() {
                    assert!(cells.contains(c), "{a}: {c}");
                }
                if let Place::Item { zone, owner, item } = &g.from {
                    assert!(
                        zones.iter().any(|z| &z.zone == zone
                            && z.owner == *owner
                            && z.items.iter().any(|i| &i.item == item && i.count > 0)),
                        "{a}: {zone} {owner:?} {item} not in {zones:?}"
                    );
                }
            }
        });
    }
    for kind in [
        "Drop", "Move", "Capture", "Arm", "Buy", "EndPhase", "EndTurn",
    ] {
        assert!(kinds.contains_key(kind), "{kind} never came up: {kinds:?}");
    }
}

#[test]
fn each_action_kind_has_its_gesture() {
    let g = red_with(
        &[("d4", "RWsN"), ("c5", "BW"), ("a1", "RWr"), ("a5", "BWb")],
        1,
    );
    let red = Some(Player(0));
    let gesture = |g: &Warrior, t: &str| g.gesture(&act(t));

    let drop = gesture(&g, "W@e4");
    assert_eq!(drop.kind, GestureKind::Drop);
    assert_eq!(drop.from, Place::item("bank", None, "red-warrior"));
    assert_eq!(drop.to.as_deref(), Some("e4"));

    let step = gesture(&g, "e1-e2");
    assert_eq!(
        (step.kind, &step.from, step.to.as_deref(), &step.choice),
        (GestureKind::Move, &Place::cell("e1"), Some("e2"), &None)
    );
    let faced = gesture(&g, "d4-d5E");
    assert_eq!(faced.kind, GestureKind::Move);
    assert_eq!(faced.choice.as_ref().map(|c| c.id.as_str()), Some("east"));
    let take = gesture(&g, "a1xa5");
    assert_eq!(take.kind, GestureKind::Capture);
    assert_eq!(take.to.as_deref(), Some("a5"));
    assert_eq!(take.touches, ["a5"]);
    let sword_take = gesture(&g, "d4xc5W");
    assert_eq!(sword_take.kind, GestureKind::Capture);
    assert_eq!(sword_take.choice.unwrap().id, "west");

    let later = |phase: &str| {
        setup(
            &two(),
            &board(&[("e1", "RK"), ("d8", "BK"), ("b2", "RW"), ("c2", "RWr")]),
            'R',
            phase,
            &[12, 0],
            &["W1r1s1", "-"],
            &["-", "s1"],
        )
    };
    let bonus = later("bonus");
    let g = gesture(&bonus, "+W@c3");
    assert_eq!(g.kind, GestureKind::Drop);
    assert_eq!(g.from, Place::item("reserve", red, "warrior"));
    assert_eq!(g.to.as_deref(), Some("c3"));
    assert_eq!(gesture(&bonus, "end").kind, GestureKind::EndPhase);

    let arm = later("arm");
    let g = gesture(&arm, "S@b2N");
    assert_eq!(g.kind, GestureKind::Arm);
    assert_eq!(g.from, Place::item("reserve", red, "swords"));
    assert_eq!(g.to.as_deref(), Some("b2"));
    assert_eq!(g.choice.unwrap().id, "north");
    let g = gesture(&arm, "S@c2N");
    assert_eq!(g.choice.unwrap().id, "north", "Rook then first Swords");
    assert_eq!(gesture(&arm, "R@b2").choice, None);
    let end = gesture(&arm, "end");
    assert_eq!(end.kind, GestureKind::EndPhase);
    assert_eq!(end.from, Place::button("end-arming", "End placing weapons"));

    let buy = later("buy");
    let g = gesture(&buy, "buy-new-R");
    assert_eq!(g.kind, GestureKind::Buy);
    assert_eq!(g.from, Place::item("bank", None, "red-new-rook"));
    assert_eq!(g.to, None, "one click");
    assert_eq!(
        gesture(&buy, "buy-W").from,
        Place::item("bank", None, "red-warrior")
    );
    let end = gesture(&buy, "end");
    assert_eq!(end.kind, GestureKind::EndTurn);
    assert!(matches!(end.from, Place::Button { .. }));

    let mut claim = two();
    claim.fifty_moves = FiftyMoves::Claim;
    let g = setup_full(
        &claim,
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[1, 1],
        &["-", "-"],
        &["-", "-"],
        "-",
        100,
    );
    assert_eq!(gesture(&g, "draw").kind, GestureKind::Claim);
}

#[test]
fn a_pass_is_a_button() {
    // Red walled into a1 with no Warrior left in the Bank.
    let g = pos(
        "3BK4/8/8/8/8/BWBWBW5/RWRWBW5/RKRWBW5 R move 3,1 W5r1s2,- r2n2b3s2,W3r3n2b3s4 -,- - 0",
        &two(),
    );
    assert_eq!(legal(&g), ["pass"]);
    let p = g.gesture(&Action::Pass);
    assert_eq!(p.kind, GestureKind::Pass);
    assert!(matches!(p.from, Place::Button { ref button, .. } if button == "pass-movement"));
}

// ---------------------------------------------------------------- holdings, zones

#[test]
fn holdings_show_money_income_reserve_and_captures_to_everyone() {
    let g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a1", "RWr(B2)")]),
        'R',
        "move",
        &[7, 3],
        &["W1n1s1", "-"],
        &["-", "-"],
    );
    for viewer in [
        Viewer::Public,
        Viewer::Player(Player(0)),
        Viewer::Player(Player(1)),
    ] {
        let h = g.holdings(Player(0), viewer);
        let get = |k: &str| h.iter().find(|x| x.key == k).unwrap().value.clone();
        assert_eq!(get("money"), json!(7));
        assert_eq!(get("income"), json!(4), "King, Warrior, two stacked");
        assert_eq!(get("reserve"), json!(["Warrior", "Knight", "Swords"]));
        assert_eq!(get("reserve-size"), json!(3));
        assert_eq!(get("captured"), json!(2));
        assert_eq!(
            get("bank-warriors"),
            json!(6),
            "8 less one on the board and one in Reserve"
        );
        let blue = g.holdings(Player(1), viewer);
        assert_eq!(
            blue.iter().find(|x| x.key == "money").unwrap().value,
            json!(3)
        );
        assert_eq!(
            blue.iter()
                .find(|x| x.key == "bank-warriors")
                .unwrap()
                .value,
            json!(6)
        );
    }
    assert!(
        g.holdings(Player(2), Viewer::Public).is_empty(),
        "no third seat"
    );
}

#[test]
fn zones_are_each_reserve_and_the_shared_bank() {
    let g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[7, 3],
        &["W1n1s2", "-"],
        &["-", "r1"],
    );
    let zones = g.zones(Viewer::Player(Player(1)));
    let ids: Vec<(&str, Option<Player>)> =
        zones.iter().map(|z| (z.zone.as_str(), z.owner)).collect();
    assert_eq!(
        ids,
        [
            ("reserve", Some(Player(0))),
            ("reserve", Some(Player(1))),
            ("bank", None)
        ]
    );
    let red: Vec<(&str, u32)> = zones[0]
        .items
        .iter()
        .map(|i| (i.item.as_str(), i.count))
        .collect();
    assert_eq!(red, [("warrior", 1), ("knight", 1), ("swords", 2)]);
    assert!(zones[1].items.is_empty());
    assert_eq!(zones[0].label, "Red's Reserve");
    let bank: HashMap<&str, u32> = zones[2]
        .items
        .iter()
        .map(|i| (i.item.as_str(), i.count))
        .collect();
    assert_eq!(bank["red-warrior"], 7);
    assert_eq!(bank["red-new-rook"], 3);
    assert_eq!(bank["red-new-knight"], 1);
    assert_eq!(bank["blue-new-rook"], 2);
    assert_eq!(bank["blue-reissued-rook"], 1);
    assert!(!bank.contains_key("red-reissued-rook"), "none to reissue");
    assert_eq!(zones, g.zones(Viewer::Public), "nothing is hidden");
}

// ---------------------------------------------------------------- events

#[test]
fn a_first_drop_pays_the_bank_and_passes_the_turn() {
    let mut g = Warrior::new(&two());
    let e = events(&mut g, "W@e4");
    assert_eq!(
        texts(&e),
        [
            "Red drops a Warrior from the Bank on e4",
            "Red pays the Bank $1 for the drop",
            "Red's turn ends; Blue's turn",
            "Blue collects $1 from the Bank",
        ]
    );
    assert_eq!(e[0].kind, EventKind::Enter);
    assert_eq!(e[0].cells, ["e4"]);
    assert_eq!(e[1].kind, EventKind::Resource);
    assert_eq!(e[1].data["payer"], json!(0));
    assert_eq!(e[1].data["payee"], json!("bank"));
    assert_eq!(e[1].data["amount"], json!(1));
    assert_eq!(e[1].data["money"], json!(0));
    assert_eq!(e[2].kind, EventKind::Phase);
    assert_eq!(e[2].data["next"], json!(1));
    assert_eq!(e[3].data["payer"], json!("bank"));
    assert_eq!(e[3].data["payee"], json!(1));
    assert_eq!(e[3].data["reason"], json!("collect"));
    assert_eq!(e[3].data["money"], json!(2));
}

/// The book's example: "$3 and collects $5 ... captures ... a Rook ... he
/// can only collect an additional $4".
#[test]
fn the_capture_bonus_under_the_cap_is_told_as_the_book_tells_it() {
    let mut g = setup(
        &two(),
        "3BK4/BWr7/8/8/RWr(B3)7/8/8/4RK3",
        'B',
        "buy",
        &[3, 0],
        &["-", "-"],
        &["-", "-"],
    );
    let e = events(&mut g, "end");
    assert_eq!(
        texts(&e),
        [
            "Blue ends buying",
            "Blue's turn ends; Red's turn",
            "Red collects $5 from the Bank"
        ]
    );
    let e = events(&mut g, "a4xa7");
    assert_eq!(
        e[0].text,
        "Red's Warrior with a Rook on a4 captures Blue's Warrior with a Rook on a7; \
         the Rook goes to the Bank for reissue"
    );
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].data["piece"], json!("warrior"));
    assert_eq!(e[0].data["from"], json!("a4"));
    assert_eq!(e[0].data["to"], json!("a7"));
    assert_eq!(e[0].data["captured"], json!("warrior"));
    assert_eq!(e[0].data["captured_on"], json!("a7"));
    assert_eq!(e[0].data["captured_owner"], json!(1));
    assert_eq!(e[0].data["captured_weapons"], json!(["rook"]));
    assert_eq!(e[0].data["stack_taken"], json!(1));
    assert_eq!(e[0].data["stack"], json!(4));
    assert_eq!(
        e[1].text,
        "The Bank pays Red $4 of the $6 for the captured Rook: nobody holds more than $12"
    );
    assert_eq!(e[1].data["amount"], json!(4));
    assert_eq!(e[1].data["due"], json!(6));
    assert_eq!(e[1].data["money"], json!(12));
    let e = events(&mut g, "buy-new-R");
    assert_eq!(
        texts(&e)[..2],
        ["Red buys a new Rook for $6", "Red pays the Bank $6"]
    );
    assert_eq!(e[0].kind, EventKind::Buy);
    assert_eq!(e[0].data["item"], json!("rook"));
    assert_eq!(e[0].data["issue"], json!("new"));
    assert_eq!(e[1].data["payer"], json!(0));
}

#[test]
fn a_captured_stack_changes_hands_in_the_sentence() {
    let mut g = red_with(&[("a1", "RWr(B1)"), ("a5", "BWn(R2)")], 0);
    let e = events(&mut g, "a1xa5");
    assert_eq!(
        e[0].text,
        "Red's Warrior with a Rook on a1 captures Blue's Warrior with a Knight on a5 and the \
         2 Warriors stacked under it; the Knight goes to the Bank for reissue"
    );
    assert_eq!(e[0].data["stack_taken"], json!(3));
    assert_eq!(e[0].data["stack"], json!(4));
    assert_eq!(e[1].text, "The Bank pays Red $5 for the captured Knight");
    let mut g = red_with(&[("a1", "RWr"), ("a5", "BWsN(R1)")], 0);
    let e = events(&mut g, "a1xa5");
    assert_eq!(
        texts(&e)[..2],
        [
            "Red's Warrior with a Rook on a1 captures Blue's Warrior with Swords on a5 and the \
             Warrior stacked under it; the Swords piece goes to the Bank for reissue",
            "The Bank pays Red $2 for the captured Swords piece",
        ]
    );
}

#[test]
fn arming_tells_the_weapon_the_facing_and_the_combination() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("b2", "RW"), ("c2", "RWr")]),
        'R',
        "arm",
        &[0, 0],
        &["s2", "-"],
        &["-", "-"],
    );
    let e = events(&mut g, "S@b2N");
    assert_eq!(
        e[0].text,
        "Red places Swords on the Warrior on b2, facing north"
    );
    assert_eq!(e[0].kind, EventKind::Buy);
    assert_eq!(e[0].data["facing"], json!("north"));
    let e = events(&mut g, "S@c2E");
    assert_eq!(
        e[0].text,
        "Red places Swords on the Warrior with a Rook on c2, facing east: it is now a Rook/Swords"
    );
    assert_eq!(e[0].data["weapons"], json!(["rook", "swords"]));
}

#[test]
fn a_swords_move_tells_its_new_facing() {
    let mut g = red_with(&[("d4", "RWsN")], 1);
    let e = events(&mut g, "d4-d5W");
    assert_eq!(
        e[0].text,
        "Red's Warrior with Swords moves from d4 to d5, its Swords facing west"
    );
    assert_eq!(e[0].data["facing"], json!("west"));
    assert_eq!(e[0].cells, ["d4", "d5"]);
}

#[test]
fn capturing_a_king_ends_the_game_in_an_end_event() {
    let mut g = red_with(&[("d2", "RWr")], 0);
    let e = events(&mut g, "d2xd8");
    assert_eq!(
        texts(&e),
        [
            "Red's Warrior with a Rook on d2 captures Blue's King on d8",
            "Red wins: Red captured a King",
        ]
    );
    assert_eq!(e[1].kind, EventKind::End);
    assert_eq!(e[1].data["winner"], json!(0));
    assert_eq!(e[1].data["reason"], json!("king-captured"));
}

/// "Warrior Chess does not require players to call Check", but the event
/// says when a King has become capturable (here by arming, the counter-
/// attack of the Strategy Guide).
#[test]
fn a_king_newly_attacked_is_told() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("d2", "RW")]),
        'R',
        "arm",
        &[0, 0],
        &["r1", "-"],
        &["-", "-"],
    );
    let e = events(&mut g, "R@d2");
    assert_eq!(e[0].text, "Red places a Rook on the Warrior on d2");
    assert_eq!(e[1].kind, EventKind::Check);
    assert_eq!(e[1].text, "Blue's King on d8 can be captured from d2");
    assert_eq!(e[1].player, Some(Player(1)));
    assert_eq!(e[1].data["king"], json!("d8"));
    assert_eq!(e[1].data["checkers"], json!(["d2"]));
    assert!(e[1].data.get("attackers").is_none());
    // Still attacked after Blue's drop elsewhere: not told again.
    let e = events(&mut g, "W@a8");
    assert!(e.iter().all(|x| x.kind != EventKind::Check), "{e:?}");
}

#[test]
fn a_pass_and_a_claimed_draw_are_told() {
    let mut g = pos(
        "3BK4/8/8/8/8/BWBWBW5/RWRWBW5/RKRWBW5 R move 3,1 W5r1s2,- r2n2b3s2,W3r3n2b3s4 -,- - 0",
        &two(),
    );
    let e = events(&mut g, "pass");
    assert_eq!(
        e[0].text,
        "Red has no drop, move or capture and passes the movement"
    );
    let mut claim = two();
    claim.fifty_moves = FiftyMoves::Claim;
    let mut g = setup_full(
        &claim,
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[1, 1],
        &["-", "-"],
        &["-", "-"],
        "-",
        100,
    );
    let e = events(&mut g, "draw");
    assert_eq!(
        texts(&e),
        ["Draw claimed by Red: fifty movements each without a drop or a capture"]
    );
    assert_eq!(e[0].data["winner"], Value::Null);
    assert_eq!(e[0].data["reason"], json!("draw-claimed"));
}

/// Over random games every action yields at least one event, each with a
/// sentence, and every event's cells are board cells.
#[test]
fn every_action_of_random_games_is_told() {
    let mut kinds: HashSet<String> = HashSet::new();
    for seed in 0..80 {
        let options = options_for(seed);
        let cells: HashSet<String> = Warrior::catalog(&options)
            .board
            .cells()
            .into_iter()
            .collect();
        playout(1000 + seed, &options, 800, |game, _, pick| {
            let mut after = game.clone();
            after.apply(pick).unwrap();
            let e = game.events(pick, &after, Viewer::Public);
            assert!(!e.is_empty(), "{pick} in {}", game.to_text());
            for x in &e {
                assert!(!x.text.is_empty(), "{pick}: {x:?}");
                assert!(x.cells.iter().all(|c| cells.contains(c)), "{x:?}");
                kinds.insert(format!("{:?}", x.kind));
            }
            assert_eq!(e, game.events(pick, &after, Viewer::Player(Player(0))));
        });
    }
    for k in [
        "Enter", "Move", "Capture", "Resource", "Buy", "Phase", "Check", "End",
    ] {
        assert!(kinds.contains(k), "{k} never came up: {kinds:?}");
    }
}

// ---------------------------------------------------------------- catalog

#[test]
fn the_catalog_has_the_board_the_pieces_and_the_books_prices() {
    let c = Warrior::catalog(&two());
    assert_eq!(c.board.cells().len(), 64);
    let ids: Vec<&str> = c.pieces.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        ["king", "warrior", "rook", "knight", "bishop", "swords"]
    );
    let stat = |id: &str, k: &str| c.pieces.iter().find(|p| p.id == id).unwrap().stats[k].clone();
    for (id, new, reissued, per_army) in [
        ("rook", 6, 12, 3),
        ("knight", 5, 10, 2),
        ("bishop", 4, 8, 3),
        ("swords", 2, 4, 4),
    ] {
        assert_eq!(stat(id, "new_price"), json!(new), "{id}");
        assert_eq!(stat(id, "reissued_price"), json!(reissued), "{id}");
        assert_eq!(stat(id, "per_army"), json!(per_army), "{id}");
        assert_eq!(stat(id, "capture_bonus"), json!(new), "{id}");
    }
    assert_eq!(stat("warrior", "reserve_price"), json!(5));
    assert_eq!(stat("warrior", "drop_price"), json!(1));
    let letters: Vec<&str> = c.pieces.iter().map(|p| p.letter.as_str()).collect();
    assert_eq!(letters, ["K", "W", "R", "N", "B", "S"]);
    assert_eq!(c.extra["money_cap"], json!(12));
    let armies = c.extra["armies"].as_array().unwrap();
    assert_eq!(armies.len(), 2);
    assert_eq!(armies[1]["name"], json!("Blue"));
    assert_eq!(armies[1]["king_square"], json!("d8"));
    let c4 = Warrior::catalog(&four());
    let squares: Vec<&Value> = c4.extra["armies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["king_square"])
        .collect();
    assert_eq!(
        squares,
        [&json!("e1"), &json!("a4"), &json!("d8"), &json!("h5")]
    );
    assert_eq!(c4.extra["fifty_moves_limit"], json!(200));
}

// ---------------------------------------------------------------- faults

#[test]
fn refusals_say_what_kind_of_fault_they_are() {
    let g = Warrior::new(&two());
    let kind = |t: &str| g.parse_action(t).map_err(|e| Warrior::fault_kind(&e)).err();
    assert_eq!(kind("hello"), Some(FaultKind::Unreadable));
    assert_eq!(kind("resign"), Some(FaultKind::Unreadable));
    assert_eq!(kind("e1-e3"), Some(FaultKind::Illegal));
    assert_eq!(kind("end"), Some(FaultKind::Illegal));
    let over = pos(
        "3BK4/8/8/8/8/8/8/4BWr3 B king-captured 1,3 -,- W8r3n2b3s4,W7r2n2b3s4 -,- - 0",
        &two(),
    );
    assert_eq!(
        over.parse_action("end")
            .map_err(|e| Warrior::fault_kind(&e)),
        Err(FaultKind::GameOver)
    );
    // `parse_action` never finds a text fitting two legal actions (a Swords
    // move without a facing keeps the one it has), so the ambiguity is built.
    let ambiguous = ActionError::Ambiguous {
        text: "d4d5".into(),
        candidates: "d4-d5N, d4-d5E".into(),
    };
    assert_eq!(Warrior::fault_kind(&ambiguous), FaultKind::Ambiguous);
    let illegal = ActionError::Illegal {
        action: Action::End,
        reason: Illegal::MovementCompulsory,
    };
    assert_eq!(Warrior::fault_kind(&illegal), FaultKind::Illegal);
}

// ---------------------------------------------------------------- key

#[test]
fn equal_states_have_equal_keys() {
    let mut a = Warrior::new(&two());
    play_all(&mut a, &["W@a1", "W@h8", "W@b1"]);
    let mut b = Warrior::new(&two());
    play_all(&mut b, &["W@b1", "W@h8", "W@a1"]);
    assert_eq!(a, b, "two orders, one position");
    assert_eq!(a.key(), b.key());
    let back = Warrior::from_text(&a.to_text(), &two()).unwrap();
    assert_eq!(back.key(), a.key());
    assert_ne!(a.key(), Warrior::new(&two()).key());
    // The options are part of the state.
    let mut claim = two();
    claim.fifty_moves = FiftyMoves::Claim;
    assert_ne!(Warrior::new(&claim).key(), Warrior::new(&two()).key());
}

#[test]
fn states_of_random_games_with_different_texts_have_different_keys() {
    let mut by_key: HashMap<u64, String> = HashMap::new();
    for seed in 0..40u64 {
        let options = if seed.is_multiple_of(2) {
            two()
        } else {
            four()
        };
        playout(5000 + seed, &options, 300, |game, _, _| {
            let text = game.to_text();
            if let Some(other) = by_key.insert(game.key(), text.clone()) {
                assert_eq!(other, text, "one key, two positions");
            }
        });
    }
    assert!(by_key.len() > 3000, "{}", by_key.len());
}

// ---------------------------------------------------------------- view

#[test]
fn the_view_lists_pieces_by_cell_owner_and_kind_and_leaves_the_rest_to_the_table() {
    let g = setup_full(
        &two(),
        &board(&[
            ("e1", "RK"),
            ("d8", "BK"),
            ("d5", "RWrsN(B2)"),
            ("c3", "RW"),
        ]),
        'R',
        "arm",
        &[3, 4],
        &["n1", "-"],
        &["-", "-"],
        "c3",
        7,
    );
    let v = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    for gone in ["text", "to_move", "outcome", "board", "legal", "position"] {
        assert!(v.get(gone).is_none(), "{gone} is the table's");
    }
    assert_eq!(v["phase"], json!("arm"));
    assert_eq!(v["no_progress"], json!(7));
    assert_eq!(v["fifty_moves_limit"], json!(100));
    let pieces = v["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 4);
    let at = |c: &str| pieces.iter().find(|p| p["cell"] == json!(c)).unwrap();
    assert_eq!(
        at("d5"),
        &json!({
            "cell": "d5", "owner": 0, "piece": "warrior", "weapons": ["rook", "swords"],
            "facing": "north", "stack": [{"owner": 1, "count": 2}], "dropped_this_turn": false
        })
    );
    assert_eq!(at("d8")["owner"], json!(1));
    assert_eq!(at("d8")["piece"], json!("king"));
    assert!(at("d8").get("facing").is_none());
    assert_eq!(at("c3")["dropped_this_turn"], json!(true));
    assert_eq!(v["players"][1]["money"], json!(4));
    assert_eq!(v["players"][1]["army"], json!("blue"));
    // The seat's name and team are the envelope's.
    for gone in ["name", "team"] {
        assert!(v["players"][1].get(gone).is_none(), "{gone} is the seat's");
    }
    assert_eq!(v["players"][0]["reserve"]["weapons"]["knight"], json!(1));
    assert_eq!(v["bank"][0]["new"]["weapons"]["rook"], json!(2));
    // Every piece id is one of the catalog's.
    let catalog = Warrior::catalog(&two());
    for p in pieces {
        assert!(catalog.pieces.iter().any(|k| json!(k.id) == p["piece"]));
        for w in p["weapons"].as_array().unwrap() {
            assert!(catalog.pieces.iter().any(|k| json!(k.id) == *w));
        }
    }
}
