//! The table protocol: JSON actions, gestures, events, holdings, zones, the
//! catalog, fault kinds, the state key and the reshaped view.

mod common;

use std::collections::{HashMap, HashSet};

use common::{game, play};
use proptest::prelude::*;
use serde_json::{Value, json};
use tabula_core::protocol::{EventKind, FaultKind, GestureKind, Place};
use tabula_core::{ChanceModel, EndReason, Game, GameRng, Player, Seed, ToAct, Viewer};
use tabula_skirmish::{
    Checkers, Dice, KingCaptures, Mode, Relocation, Skirmish, SkirmishAction, SkirmishOptions,
    TieRule,
};

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

fn advanced() -> SkirmishOptions {
    SkirmishOptions::advanced()
}

/// A house-rule mix that reaches Tactical and divided skirmishes by a
/// skirmishing King, re-rolls and two dice.
fn house() -> SkirmishOptions {
    SkirmishOptions {
        mode: Mode::Advanced,
        ties: TieRule::Reroll,
        dice: Dice::new(2, 6).unwrap(),
        king_captures: KingCaptures::Skirmish,
        checkers: Checkers::Strongest,
        relocation: Relocation::Reachable,
        attack_bonus: -1,
        ..SkirmishOptions::default()
    }
}

/// Plays a seeded random game, calling `each` on every state before its
/// action is chosen, and `step` on every (before, action, after).
fn walk(
    options: SkirmishOptions,
    seed: u64,
    plies: usize,
    mut each: impl FnMut(&Skirmish),
    mut step: impl FnMut(&Skirmish, &SkirmishAction, &Skirmish),
) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut g = Skirmish::new(&options);
    for _ in 0..plies {
        each(&g);
        let a = match g.to_act() {
            ToAct::Over { .. } => break,
            ToAct::Chance => g.sample_chance(&mut rng).unwrap(),
            ToAct::Player { .. } => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                *rng.choose(&v).unwrap()
            }
        };
        let before = g.clone();
        g.apply(&a).unwrap();
        step(&before, &a, &g);
    }
    each(&g);
}

fn legal(g: &Skirmish) -> Vec<SkirmishAction> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

fn chance(g: &Skirmish) -> Vec<SkirmishAction> {
    match g.chance() {
        ChanceModel::Exact(v) => v.into_iter().map(|(a, _)| a).collect(),
        _ => Vec::new(),
    }
}

fn json_round_trips(g: &Skirmish) {
    for a in legal(g).into_iter().chain(chance(g)) {
        let text = serde_json::to_string(&a).unwrap();
        let back: SkirmishAction =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, a, "{text}");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(value["kind"].is_string(), "{text}");
        assert_eq!(a.to_string().parse::<SkirmishAction>().as_ref(), Ok(&a));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_legal_action_and_chance_outcome_round_trips_through_json(seed in any::<u64>()) {
        for options in [basic(), advanced(), house()] {
            walk(options, seed, 250, json_round_trips, |_, _, _| {});
        }
    }

    #[test]
    fn any_json_text_is_read_or_refused_without_panic(text in ".{0,60}") {
        let _ = serde_json::from_str::<SkirmishAction>(&text);
    }

    #[test]
    fn any_object_with_a_kind_is_read_or_refused_without_panic(
        kind in "(move|tactical|hit|arrive|divided|place|stay|take|end-turn|roll|given|x)",
        from in "[a-j][0-9]{1,2}",
        to in "[a-j][0-9]",
        promotion in "[a-z]?",
    ) {
        let v = json!({"kind": kind, "from": from, "to": to, "promotion": promotion,
            "target": to, "targets": [from, to]});
        let _ = serde_json::from_value::<SkirmishAction>(v);
    }
}

#[test]
fn the_json_form_of_each_action_kind() {
    for (text, json) in [
        ("e2e4", r#"{"kind":"move","from":"e2","to":"e4"}"#),
        (
            "e7e8q",
            r#"{"kind":"move","from":"e7","to":"e8","promotion":"q"}"#,
        ),
        (
            "tac:a1a5:b3",
            r#"{"kind":"tactical","from":"a1","to":"a5","target":"b3"}"#,
        ),
        (
            "tac:e7e8n:d8",
            r#"{"kind":"tactical","from":"e7","to":"e8","promotion":"n","target":"d8"}"#,
        ),
        ("hit:c4", r#"{"kind":"hit","target":"c4"}"#),
        ("arrive", r#"{"kind":"arrive"}"#),
        (
            "div:d4:c5,e5,d6",
            r#"{"kind":"divided","from":"d4","targets":["c5","e5","d6"]}"#,
        ),
        ("place:e8q", r#"{"kind":"place","to":"e8","promotion":"q"}"#),
        ("stay", r#"{"kind":"stay"}"#),
        ("take:d5e4", r#"{"kind":"take","from":"d5","to":"e4"}"#),
        ("end", r#"{"kind":"end-turn"}"#),
        ("roll:5-3", r#"{"kind":"roll","attacker":5,"defender":3}"#),
        ("given", r#"{"kind":"given"}"#),
    ] {
        let a: SkirmishAction = text.parse().unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), json, "{text}");
        assert_eq!(serde_json::from_str::<SkirmishAction>(json).unwrap(), a);
    }
    // Targets may come in any order; they are written lowest first.
    let a: SkirmishAction =
        serde_json::from_str(r#"{"kind":"divided","from":"d4","targets":["e5","c5"]}"#).unwrap();
    assert_eq!(a.to_string(), "div:d4:c5,e5");
}

#[test]
fn malformed_json_actions_are_refused() {
    for bad in [
        r#""e2e4""#,
        r#"{}"#,
        r#"{"kind":"fly","from":"e2","to":"e4"}"#,
        r#"{"kind":"move","from":"e2"}"#,
        r#"{"kind":"move","from":"e9","to":"e4"}"#,
        r#"{"kind":"move","from":"E2","to":"e4"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":"k"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":"Q"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","speed":3}"#,
        r#"{"kind":"divided","from":"d4","targets":[]}"#,
        r#"{"kind":"divided","from":"d4","targets":["c5","c5"]}"#,
        r#"{"kind":"roll","attacker":-1,"defender":3}"#,
        r#"{"kind":"roll","attacker":"5","defender":3}"#,
        r#"{"kind":"stay","extra":true}"#,
        r#"{"kind":"end"}"#,
        r#"[1,2]"#,
    ] {
        assert!(
            serde_json::from_str::<SkirmishAction>(bad).is_err(),
            "accepted {bad}"
        );
    }
}

// ----- gestures ------------------------------------------------------------

fn gesture_rules(g: &Skirmish) {
    let actions = legal(g);
    if actions.is_empty() {
        return;
    }
    let cells: HashSet<String> = Skirmish::catalog(g.options())
        .board
        .cells()
        .into_iter()
        .collect();
    let actor = g.to_act().player().unwrap();
    let zones = g.zones(Viewer::Player(actor));
    let mut seen = HashMap::new();
    for a in &actions {
        let gesture = g.gesture(a);
        // Never the placeholder: a Pass button named by the action's text.
        assert!(
            !(gesture.kind == GestureKind::Pass
                && matches!(&gesture.from, Place::Button { button, .. } if *button == a.to_string())),
            "{a}: placeholder gesture in {}",
            g.to_text()
        );
        for c in gesture.cells() {
            assert!(cells.contains(c), "{a}: {c} is not a cell");
        }
        if let Place::Item {
            zone, owner, item, ..
        } = &gesture.from
        {
            assert!(
                zones.iter().any(|z| z.zone == *zone
                    && z.owner == *owner
                    && z.items.iter().any(|i| i.item == *item)),
                "{a}: item {item} of {zone} is in no zone"
            );
        }
        let id = format!("{:?}", gesture.identity());
        if let Some(other) = seen.insert(id.clone(), *a) {
            panic!("{a} and {other} share the gesture {id} in {}", g.to_text());
        }
    }
}

#[test]
fn every_legal_action_has_a_distinct_gesture_on_the_board_in_random_games() {
    for seed in 0..60 {
        for options in [basic(), advanced(), house()] {
            walk(options, seed, 300, gesture_rules, |_, _, _| {});
        }
    }
}

fn gesture_of(g: &Skirmish, text: &str) -> tabula_core::protocol::Gesture {
    g.gesture(&g.parse_action(text).unwrap())
}

#[test]
fn gestures_of_each_action_kind() {
    // A skirmish: the piece, then the target.
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5"]);
    let c = gesture_of(&g, "exd5");
    assert_eq!(c.kind, GestureKind::Capture);
    assert_eq!(c.from, Place::cell("e4"));
    assert_eq!(c.to.as_deref(), Some("d5"));
    let m = gesture_of(&g, "Nf3");
    assert_eq!((m.kind, m.to.as_deref()), (GestureKind::Move, Some("f3")));
    // The defender's decision: the defending piece, then the attacker's
    // old square; staying is a button.
    play(&mut g, &["exd5", "roll:2-5"]);
    let take = gesture_of(&g, "take");
    assert_eq!(take.kind, GestureKind::Decide);
    assert_eq!(take.from, Place::cell("d5"));
    assert_eq!(take.to.as_deref(), Some("e4"));
    let stay = gesture_of(&g, "stay");
    assert_eq!(stay.kind, GestureKind::Decide);
    assert!(matches!(stay.from, Place::Button { ref button, .. } if button == "stay"));

    // Castling: the King's two steps, the Rook's squares touched.
    let g = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1", basic());
    let castle = gesture_of(&g, "O-O");
    assert_eq!(castle.kind, GestureKind::Castle);
    assert_eq!(
        (castle.from, castle.to.as_deref()),
        (Place::cell("e1"), Some("g1"))
    );
    assert_eq!(castle.touches, ["h1", "f1"]);

    // Promotion: a choice of piece.
    let g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", basic());
    let q = gesture_of(&g, "b7b8q");
    assert_eq!(q.choice.as_ref().map(|c| c.id.as_str()), Some("q"));
    assert_eq!(q.choice.as_ref().map(|c| c.label.as_str()), Some("Queen"));

    // Advanced: Tactical movement to a5 attacking b3 first, remaining in
    // the same spot, a divided skirmish, ending the turn.
    let g = game(
        "6k1/8/8/8/8/1p6/8/R5K1 w - - 0 1",
        SkirmishOptions::advanced(),
    );
    let t = gesture_of(&g, "tac:a1a5:b3");
    assert_eq!(t.kind, GestureKind::Attack);
    assert_eq!(
        (t.from.clone(), t.to.as_deref()),
        (Place::cell("a1"), Some("a5"))
    );
    assert_eq!(t.touches, ["b3", "a2", "a3", "a4"]);
    assert_eq!(
        t.choice.as_ref().map(|c| c.id.as_str()),
        Some("tactical:b3")
    );
    let strategic = gesture_of(&g, "a1a5");
    assert_eq!(strategic.identity().0, t.identity().0);
    assert_eq!(strategic.identity().1, t.identity().1);
    assert_eq!(strategic.choice, None);

    let g = game(
        "6k1/8/3p4/4p3/3Q4/8/8/6K1 w - - 0 1",
        SkirmishOptions::advanced(),
    );
    let d = gesture_of(&g, "div:d4:e5,d6");
    assert_eq!(
        (d.from.clone(), d.to.as_deref()),
        (Place::cell("d4"), Some("e5"))
    );
    assert_eq!(d.touches, ["d6"]);
    assert_eq!(
        d.choice.as_ref().map(|c| c.id.as_str()),
        Some("divided:e5,d6")
    );
    let here = gesture_of(&g, "tac:d4d4:e5");
    assert_eq!(here.to.as_deref(), Some("e5"));
    assert_eq!(
        here.choice.as_ref().map(|c| c.id.as_str()),
        Some("tactical")
    );
    let mut g = g;
    play(&mut g, &["Kg1-g2"]);
    let end = gesture_of(&g, "end");
    assert_eq!(end.kind, GestureKind::EndTurn);
    assert!(matches!(end.from, Place::Button { ref button, .. } if button == "end-turn"));
}

// ----- events --------------------------------------------------------------

fn events_of(g: &mut Skirmish, text: &str) -> Vec<tabula_core::protocol::Event> {
    let a = g.parse_action(text).unwrap();
    let before = g.clone();
    g.apply(&a).unwrap();
    before.events(&a, g, Viewer::Public)
}

fn texts(events: &[tabula_core::protocol::Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

#[test]
fn a_won_skirmish_is_told_in_the_books_words() {
    let mut g = game("7k/p7/5b2/8/4N3/8/8/4K3 w - - 0 1", basic());
    let attack = events_of(&mut g, "Nxf6");
    assert_eq!(attack.len(), 1);
    assert_eq!(attack[0].kind, EventKind::Attack);
    assert_eq!(
        attack[0].text,
        "White's Knight on e4 attacks the Bishop on f6: the attacker wins with probability 7/12 (58%)"
    );
    assert_eq!(attack[0].data["win_probability"], json!([7, 12]));
    let roll = events_of(&mut g, "roll:5-4");
    assert_eq!(
        texts(&roll),
        [
            "White rolls 5, Black rolls 4",
            "White's Knight on e4 attacks the Bishop on f6: White rolls 5 (3 + 5 + 1 = 9), Black rolls 4 (3 + 4 = 7); the Bishop is captured and White's Knight takes f6",
            "Black's Bishop on f6 is captured",
        ]
    );
    assert_eq!(roll[0].kind, EventKind::Dice);
    assert_eq!(roll[1].kind, EventKind::Fight);
    let d = &roll[1].data;
    assert_eq!(
        (
            &d["attacker_total"],
            &d["defender_total"],
            &d["result"],
            &d["winner"]
        ),
        (&json!(9), &json!(7), &json!("captured"), &json!("attacker"))
    );
    assert_eq!(roll[2].kind, EventKind::Capture);
    // The capturer's piece and cells, then the captured piece's.
    assert_eq!(
        Value::Object(roll[2].data.clone()),
        json!({"piece": "N", "from": "e4", "to": "f6",
               "captured": "B", "captured_on": "f6", "captured_owner": 1})
    );
    assert_eq!(roll[2].player, Some(Player(0)));
    assert_eq!(roll[2].cells, ["e4", "f6"]);
}

#[test]
fn a_repelled_skirmish_and_the_defenders_decision() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5"]);
    let roll = events_of(&mut g, "roll:2-5");
    assert_eq!(
        texts(&roll),
        [
            "White rolls 2, Black rolls 5",
            "White's Pawn on e4 attacks the Pawn on d5: White rolls 2 (1 + 2 + 1 = 4), Black rolls 5 (1 + 5 = 6); the attack is repelled and the Pawn is captured by the defender",
            "White's Pawn on e4 is captured by the defender",
        ]
    );
    assert_eq!(roll[1].data["result"], json!("repelled"));
    // The defender captures, standing where it is.
    let c = &roll[2].data;
    assert_eq!(roll[2].kind, EventKind::Capture);
    assert_eq!(roll[2].player, Some(Player(1)));
    assert_eq!(
        [&c["piece"], &c["from"], &c["to"]],
        [&json!("P"), &json!("d5"), &json!("d5")]
    );
    assert_eq!(
        [&c["captured"], &c["captured_on"], &c["captured_owner"]],
        [&json!("P"), &json!("e4"), &json!(0)]
    );
    assert_eq!(roll[2].cells, ["d5", "e4"]);
    let take = events_of(&mut g, "take");
    assert_eq!(
        texts(&take),
        ["Black's Pawn on d5 takes the defunct attacker's old square e4"]
    );
    assert_eq!(take[0].player, Some(Player(1)));
    assert_eq!(take[0].data["decision"], json!("take"));

    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5", "roll:2-5"]);
    let stay = events_of(&mut g, "stay");
    assert_eq!(texts(&stay), ["Black's Pawn on d5 stays where it stands"]);
    assert_eq!(stay[0].data["decision"], json!("stay"));
}

#[test]
fn a_given_needs_no_dice() {
    let mut g = game("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", basic());
    play(&mut g, &["Qxd7"]);
    let ev = events_of(&mut g, "given");
    assert!(ev.iter().all(|e| e.kind != EventKind::Dice));
    assert_eq!(
        ev[0].text,
        "White's Queen on d1 attacks the Pawn on d7: a given, no dice needed (9 + 1 against 1 + 1d6); the Pawn is captured and White's Queen takes d7"
    );
    assert_eq!(ev[0].data["given"], json!(true));
    let mut g = game("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", basic());
    let attack = events_of(&mut g, "Qxd7");
    assert_eq!(
        attack[0].text,
        "White's Queen on d1 attacks the Pawn on d7: the attacker wins for certain (a given, no dice)"
    );
}

#[test]
fn check_and_the_check_roll() {
    let mut g = game("4k3/p7/8/8/8/3B4/8/6K1 w - - 0 1", basic());
    let check = events_of(&mut g, "Bb5");
    let last = check.last().unwrap();
    assert_eq!(last.kind, EventKind::Check);
    assert_eq!(
        last.text,
        "Black's King on e8 is in check from White's Bishop on b5: a check roll decides whether it has to respond"
    );
    assert_eq!(last.data["roll"], json!("check"));
    // The side in check, its King and the checking pieces.
    assert_eq!(last.player, Some(Player(1)));
    assert_eq!(last.data["king"], json!("e8"));
    assert_eq!(last.data["checkers"], json!(["b5"]));
    let roll = events_of(&mut g, "roll:1-6");
    assert_eq!(
        roll[1].text,
        "Check roll: White's Bishop on b5 against Black's King on e8: White rolls 1 (3 + 1 + 1 = 5), Black rolls 6 (4 + 6 = 10); the King need not respond to the check this turn"
    );
    assert_eq!(roll[1].data["result"], json!("excused"));
    assert_eq!(roll[1].player, Some(Player(0)));
}

#[test]
fn the_checkmate_roll_won_and_lost() {
    let start = "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1";
    let mut g = game(start, basic());
    let mate = events_of(&mut g, "Re8");
    assert_eq!(
        mate.last().unwrap().text,
        "Black's King on g8 is checkmated by White's Rook on e8: a checkmate roll decides between a win for White and the loss of the checking piece"
    );
    let won = events_of(&mut g, "roll:6-1");
    assert_eq!(
        texts(&won)[1..],
        [
            "Checkmate roll: White's Rook on e8 against Black's King on g8: White rolls 6 (5 + 6 + 1 = 12), Black rolls 1 (4 + 1 = 5); checkmate, White wins",
            "White wins by checkmate",
        ]
    );
    assert_eq!(won[2].kind, EventKind::End);
    assert_eq!(won[2].data["reason"], json!("checkmate"));
    assert_eq!(won[2].data["winner"], json!(0));

    let mut g = game(start, basic());
    play(&mut g, &["Re8"]);
    let lost = events_of(&mut g, "roll:1-6");
    assert_eq!(
        texts(&lost)[1..],
        [
            "Checkmate roll: White's Rook on e8 against Black's King on g8: White rolls 1 (5 + 1 + 1 = 7), Black rolls 6 (4 + 6 = 10); the King holds and the checking piece is lost",
            "White's Rook on e8 is lost",
        ]
    );
    // The King held and stays: it is the capturer.
    let c = &lost[2].data;
    assert_eq!(
        [
            &c["piece"],
            &c["from"],
            &c["to"],
            &c["captured"],
            &c["captured_on"],
            &c["captured_owner"]
        ],
        [
            &json!("K"),
            &json!("g8"),
            &json!("g8"),
            &json!("R"),
            &json!("e8"),
            &json!(0)
        ]
    );
    assert_eq!(lost[2].player, Some(Player(1)));
}

#[test]
fn capture_events_name_capturer_and_captured() {
    // A won skirmish by en passant: the captured Pawn is not on `to`.
    let mut g = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", basic());
    play(&mut g, &["exd6"]);
    let ev = events_of(&mut g, "roll:6-1");
    let cap = ev.iter().find(|e| e.kind == EventKind::Capture).unwrap();
    assert_eq!(
        [&cap.data["piece"], &cap.data["from"], &cap.data["to"]],
        [&json!("P"), &json!("e5"), &json!("d6")]
    );
    assert_eq!(
        [
            &cap.data["captured"],
            &cap.data["captured_on"],
            &cap.data["captured_owner"]
        ],
        [&json!("P"), &json!("d5"), &json!(1)]
    );
    assert_eq!(cap.data["en_passant"], json!(true));
    assert_eq!(cap.cells, ["e5", "d6", "d5"]);

    // A King capturing in the normal chess manner.
    let normal = SkirmishOptions {
        king_captures: KingCaptures::Normal,
        ..basic()
    };
    let mut g = game("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", normal);
    let ev = events_of(&mut g, "Kxd2");
    assert_eq!(ev[0].kind, EventKind::Capture);
    assert_eq!(
        [&ev[0].data["piece"], &ev[0].data["from"], &ev[0].data["to"]],
        [&json!("K"), &json!("e1"), &json!("d2")]
    );
    assert_eq!(
        [
            &ev[0].data["captured"],
            &ev[0].data["captured_on"],
            &ev[0].data["captured_owner"]
        ],
        [&json!("R"), &json!("d2"), &json!(1)]
    );
    assert!(ev[0].data.get("cell").is_none() && ev[0].data.get("owner").is_none());
}

#[test]
fn advanced_tactical_and_divided_skirmishes() {
    let mut g = game(
        "6k1/8/1p6/8/8/1p6/8/R5K1 w - - 0 1",
        SkirmishOptions::advanced(),
    );
    let tac = events_of(&mut g, "tac:a1a5:b3");
    assert!(
        tac[0]
            .text
            .starts_with("White's Rook on a1 announces a Tactical movement to a5 and attacks the Pawn on b3 at half value: "),
        "{}",
        tac[0].text
    );
    let roll = events_of(&mut g, "roll:4-1");
    assert_eq!(
        roll[1].text,
        "White's Rook on a1, on its Tactical movement, attacks the Pawn on b3 at half value: White rolls 4 (2 + 4 + 1 = 7), Black rolls 1 (1 + 1 = 2); the Pawn is captured"
    );
    // No target left on the way: the movement arrives by itself.
    assert_eq!(
        texts(&roll)[2..],
        [
            "Black's Pawn on b3 is captured",
            "White's Rook on a1 ends its Tactical movement on a5"
        ]
    );
    // The Rook stays on a1 until it arrives.
    let c = &roll[2].data;
    assert_eq!(
        [
            &c["piece"],
            &c["from"],
            &c["to"],
            &c["captured"],
            &c["captured_on"]
        ],
        [
            &json!("R"),
            &json!("a1"),
            &json!("a1"),
            &json!("P"),
            &json!("b3")
        ]
    );

    let mut g = game(
        "6k1/8/3p4/4p3/3Q4/8/8/6K1 w - - 0 1",
        SkirmishOptions::advanced(),
    );
    let div = events_of(&mut g, "div:d4:e5,d6");
    assert_eq!(
        div[0].text,
        "White's Queen on d4 announces a divided skirmish against the Pawn on e5 and the Pawn on d6 (value 9 / 2 = 4 each)"
    );
    assert_eq!(div[0].data["defenders"], json!(["e5", "d6"]));
    let first = events_of(&mut g, "roll:3-1");
    assert_eq!(
        first[1].text,
        "White's Queen on d4, in its divided skirmish, attacks the Pawn on e5: White rolls 3 (4 + 3 + 1 = 8), Black rolls 1 (1 + 1 = 2); the Pawn is captured"
    );
    let second = events_of(&mut g, "roll:1-6");
    assert_eq!(
        texts(&second)[1..],
        [
            "White's Queen on d4, in its divided skirmish, attacks the Pawn on d6: White rolls 1 (4 + 1 + 1 = 6), Black rolls 6 (1 + 6 = 7); the Pawn holds",
            "White's Queen on d4 lost a divided skirmish and is given to the defender",
        ]
    );
    // The first target's capture: the Queen, which stays until placed.
    let c = &first[2].data;
    assert_eq!(
        [
            &c["piece"],
            &c["from"],
            &c["to"],
            &c["captured"],
            &c["captured_on"]
        ],
        [
            &json!("Q"),
            &json!("d4"),
            &json!("d4"),
            &json!("P"),
            &json!("e5")
        ]
    );
    // A lost divided skirmish has no single capturer: only the captured
    // piece, and the defenders that held.
    let c = &second[2].data;
    assert_eq!(second[2].kind, EventKind::Capture);
    assert_eq!(second[2].player, Some(Player(1)));
    for k in ["piece", "from", "to"] {
        assert!(c.get(k).is_none(), "{k}");
    }
    assert_eq!(
        [
            &c["captured"],
            &c["captured_on"],
            &c["captured_owner"],
            &c["defenders"]
        ],
        [&json!("Q"), &json!("d4"), &json!(0), &json!(["d6"])]
    );

    // Both targets hold: the two defenders decide together.
    let mut g = game(
        "6k1/8/3p4/4p3/3Q4/8/8/6K1 w - - 0 1",
        SkirmishOptions::advanced(),
    );
    play(&mut g, &["div:d4:e5,d6", "roll:1-6", "roll:1-6"]);
    let stay = events_of(&mut g, "stay");
    assert_eq!(
        texts(&stay),
        ["Black's Pawn on e5 and Black's Pawn on d6 stay where they stand"]
    );
}

#[test]
fn every_action_in_random_games_tells_at_least_one_event() {
    let mut kinds = HashSet::new();
    for seed in 0..40 {
        for options in [basic(), advanced(), house()] {
            walk(
                options,
                seed,
                300,
                |_| {},
                |before, a, after| {
                    let ev = before.events(a, after, Viewer::Public);
                    assert!(!ev.is_empty(), "{a} in {}", before.to_text());
                    for e in &ev {
                        assert!(!e.text.is_empty(), "{a} in {}", before.to_text());
                        assert!(!e.text.contains("the piece on"), "{}", e.text);
                        kinds.insert(format!("{:?}", e.kind));
                    }
                    assert_eq!(ev, before.events(a, after, Viewer::Player(Player(1))));
                },
            );
        }
    }
    for k in [
        "Move", "Capture", "Attack", "Dice", "Fight", "Check", "Phase", "End",
    ] {
        assert!(kinds.contains(k), "no {k} event in the random games");
    }
}

// ----- holdings, zones, catalog --------------------------------------------

#[test]
fn holdings_are_material_and_pieces_and_there_are_no_zones() {
    let mut g = Skirmish::new(&basic());
    let h = g.holdings(Player(0), Viewer::Public);
    assert_eq!(h[0].key, "material");
    assert_eq!(h[0].value, json!(39));
    assert_eq!(h[1].value, json!(16));
    play(&mut g, &["e4", "d5", "exd5", "roll:6-1"]);
    assert_eq!(g.holdings(Player(1), Viewer::Public)[0].value, json!(38));
    assert_eq!(g.holdings(Player(1), Viewer::Public)[1].value, json!(15));
    assert_eq!(
        g.holdings(Player(0), Viewer::Player(Player(1)))[0].value,
        json!(39)
    );
    assert!(g.zones(Viewer::Public).is_empty());
}

#[test]
fn the_catalog_has_the_board_and_the_books_piece_values() {
    let c = Skirmish::catalog(&basic());
    assert_eq!(c.board.cells().len(), 64);
    let value = |id: &str| {
        c.pieces
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.stats["value"].clone())
    };
    assert_eq!(
        ["P", "B", "N", "R", "Q", "K"].map(value),
        [1, 3, 3, 5, 9, 4].map(|v| Some(json!(v)))
    );
    let knight = c.pieces.iter().find(|p| p.id == "N").unwrap();
    assert_eq!(
        (knight.name.as_str(), knight.letter.as_str()),
        ("Knight", "N")
    );
    let seven = SkirmishOptions {
        king_value: tabula_skirmish::KingValue::new(7).unwrap(),
        attack_bonus: 2,
        ..basic()
    };
    let c = Skirmish::catalog(&seven);
    assert_eq!(
        c.pieces.iter().find(|p| p.id == "K").unwrap().stats["value"],
        json!(7)
    );
    assert_eq!(c.extra["attack_bonus"], json!(2));
    // Every piece id the view uses is in the catalog.
    let ids: HashSet<String> = c.pieces.iter().map(|p| p.id.clone()).collect();
    let view = serde_json::to_value(Skirmish::new(&seven).view(Viewer::Public)).unwrap();
    for p in view["pieces"].as_array().unwrap() {
        assert!(ids.contains(p["piece"].as_str().unwrap()));
    }
}

// ----- fault kinds, key, view, end reasons ---------------------------------

#[test]
fn fault_kinds_classify_refusals() {
    let g = game("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", basic());
    let kind = |t: &str| Skirmish::fault_kind(&g.parse_action(t).unwrap_err());
    assert_eq!(kind("fly me to the moon"), FaultKind::Unreadable);
    assert_eq!(kind("e2e4"), FaultKind::Illegal);
    assert_eq!(kind("Rd1"), FaultKind::Ambiguous);
    let over = game(
        "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1 - over:w:checkmate - -",
        basic(),
    );
    assert_eq!(
        Skirmish::fault_kind(&over.parse_action("e2e4").unwrap_err()),
        FaultKind::GameOver
    );
}

#[test]
fn equal_states_have_equal_keys_and_different_texts_different_keys() {
    // The same state by its text.
    let mut g = Skirmish::new(&advanced());
    play(&mut g, &["Nf3", "d5"]);
    let back = Skirmish::from_text(&g.to_text(), g.options()).unwrap();
    assert_eq!(back.key(), g.key());
    // Two move orders to the same position.
    let mut a = Skirmish::new(&basic());
    play(&mut a, &["e3", "e6", "d3"]);
    let mut b = Skirmish::new(&basic());
    play(&mut b, &["d3", "e6", "e3"]);
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), Skirmish::new(&basic()).key());
    // Thousands of random states: different texts, different keys.
    let mut keys: HashMap<u64, String> = HashMap::new();
    for seed in 0..30 {
        for options in [basic(), advanced()] {
            walk(
                options,
                seed,
                200,
                |s| {
                    let text = s.to_text();
                    if let Some(other) = keys.insert(s.key(), text.clone()) {
                        assert_eq!(other, text, "two texts, one key");
                    }
                },
                |_, _, _| {},
            );
        }
    }
    assert!(keys.len() > 2000, "{}", keys.len());
}

#[test]
fn the_view_has_pieces_and_no_envelope_fields() {
    let v = serde_json::to_value(Skirmish::new(&basic()).view(Viewer::Public)).unwrap();
    for gone in ["text", "fen", "turn", "to_act", "legal", "outcome"] {
        assert!(v.get(gone).is_none(), "{gone} still in the view");
    }
    let pieces = v["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 32);
    assert_eq!(pieces[0], json!({"cell": "a1", "owner": 0, "piece": "R"}));
    assert!(
        pieces
            .iter()
            .any(|p| p == &json!({"cell": "e8", "owner": 1, "piece": "K"}))
    );
    assert_eq!(v["phase"], json!("act"));
    assert_eq!(v["mode"], json!("basic"));
    assert_eq!(v["in_check"], json!(false));
    // Advanced: the piece that made the movement, and one that attacked.
    let mut g = game(
        "6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1",
        SkirmishOptions::advanced(),
    );
    play(&mut g, &["Nf3xe5", "roll:6-1", "Kg1-g2"]);
    let v = serde_json::to_value(g.view(Viewer::Public)).unwrap();
    let pieces = v["pieces"].as_array().unwrap();
    let at = |c: &str| pieces.iter().find(|p| p["cell"] == c).unwrap().clone();
    assert_eq!(
        at("g2"),
        json!({"cell": "g2", "owner": 0, "piece": "K", "moved": true})
    );
    assert_eq!(
        at("e5"),
        json!({"cell": "e5", "owner": 0, "piece": "N", "attacks": 1})
    );
    assert_eq!(at("d5"), json!({"cell": "d5", "owner": 1, "piece": "P"}));
}

#[test]
fn the_pending_roll_shows_its_exact_odds_and_cells() {
    let mut g = game("4k3/8/5b2/8/4N3/8/8/4K3 w - - 0 1", basic());
    let v = g.view(Viewer::Public);
    let offer = v.offers.iter().find(|o| o.action == "e4f6").unwrap();
    assert_eq!(offer.odds[0].defender_cell, "f6");
    play(&mut g, &["Nxf6"]);
    let v = g.view(Viewer::Public);
    let p = v.pending.unwrap();
    assert_eq!(p.win_probability.to_string(), "7/12");
    assert_eq!(
        (p.attacker_cells, p.defender_cell),
        (vec!["e4".to_owned()], "f6".to_owned())
    );
    assert_eq!(v.phase, "roll");
}

#[test]
fn end_reasons_are_written_by_their_core_ids() {
    for reason in EndReason::ALL {
        for who in ["w", "b", "draw"] {
            let text = format!(
                "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1 - over:{who}:{} - -",
                reason.id()
            );
            let g = Skirmish::from_text(&text, &basic()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(g.outcome().unwrap().reason, reason);
            assert_eq!(g.to_text(), text);
        }
    }
    assert!(
        Skirmish::from_text(
            "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1 - over:w:boredom - -",
            &basic()
        )
        .is_err()
    );
}

#[test]
fn draw_by_agreement_follows_chess() {
    const { assert!(Skirmish::DRAW_BY_AGREEMENT) };
}
