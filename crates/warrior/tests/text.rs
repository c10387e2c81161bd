//! Position text and action notation: the documented examples, exact round
//! trips, errors naming the field at fault, and no panic on any input.

mod common;

use common::*;
use proptest::prelude::*;
use tabula_core::{Game, perft};
use tabula_warrior::{
    Action, ActionError, Army, Facing, Field, Issue, Phase, Purchase, Warrior, WarriorOptions,
    Weapon,
};

const START_2: &str = "3BK4/8/8/8/8/8/8/4RK3 R move 1,1 -,- W8r3n2b3s4,W8r3n2b3s4 -,- - 0";
const START_4: &str = "3GK4/8/8/7YK/BK7/8/8/4RK3 R move 1,1,0,1 -,-,-,- \
                       W8r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4 -,-,-,- - 0";
/// The start after Red's `W@e2` (docs/rules/warrior.md).
const AFTER_DROP: &str = "3BK4/8/8/8/8/8/4RW3/4RK3 B move 0,2 -,- W7r3n2b3s4,W8r3n2b3s4 -,- - 0";
/// The middle-game example of docs/rules/warrior.md.
const MIDDLE: &str = "3BK4/2BWb5/8/3RWrsN(B2)4/8/2RW5/1RW6/4RK3 R arm 3,4 W1n1,s1 \
                      W4r2n1b3s3,W5r3n2b2s2 -,s1 c3 0";
/// The finished-game example of docs/rules/warrior.md.
const OVER: &str = "3BK4/8/8/8/8/8/8/4BWr3 B king-captured 1,3 -,- W8r3n2b3s4,W7r2n2b3s4 -,- - 0";

#[test]
fn start_positions_have_the_documented_text() {
    assert_eq!(Warrior::new(&two()).to_text(), START_2);
    assert_eq!(Warrior::new(&four()).to_text(), START_4);
    let mut g = Warrior::new(&two());
    play(&mut g, "W@e2");
    assert_eq!(g.to_text(), AFTER_DROP);
}

#[test]
fn documented_examples_read_and_round_trip_exactly() {
    for (text, options) in [
        (START_2, two()),
        (START_4, four()),
        (AFTER_DROP, two()),
        (MIDDLE, two()),
        (OVER, two()),
    ] {
        let g = pos(text, &options);
        assert_eq!(g.to_text(), text);
        assert_eq!(Warrior::from_text(&g.to_text(), &options).unwrap(), g);
    }
    let g = pos(MIDDLE, &two());
    let d5 = g.piece("d5".parse().unwrap()).unwrap();
    assert_eq!(d5.facing, Some(Facing::North));
    assert_eq!(d5.stack.count(Army::Blue), 2);
    assert_eq!(g.phase(), Phase::Arming);
    assert_eq!(legal(&g), ["N@b2", "end"]);
    let over = pos(OVER, &two());
    assert_eq!(
        over.outcome(),
        Some(tabula_core::Outcome::win(
            tabula_core::Team(1),
            tabula_core::EndReason::KingCaptured
        ))
    );
}

fn field_of(text: &str, options: &WarriorOptions) -> Field {
    match Warrior::from_text(text, options) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => {
            assert!(e.to_string().contains(&e.field.to_string()), "{e}");
            e.field
        }
    }
}

/// `START_2` with field `k` (0-based) replaced.
fn with_field(k: usize, value: &str) -> String {
    let mut f: Vec<&str> = START_2.split(' ').collect();
    f[k] = value;
    f.join(" ")
}

#[test]
fn bad_position_texts_name_the_field_at_fault() {
    let o = two();
    assert_eq!(field_of("", &o), Field::Whole);
    assert_eq!(field_of("3BK4/8/8/8/8/8/8/4RK3 R move", &o), Field::Whole);
    for board in [
        "3BK4/8/8/8/8/8/8/4RK2",
        "3BK4/8/8/8/8/8/8/4RK4",
        "3BK4/8/8/8/8/8/4RK3",
        "3BK4/8/8/8/8/8/8/4RQ3",
        "3BK4/8/8/8/8/8/8/4RKr2",
        "3BK4/8/8/8/8/8/RWs7/4RK3",
        "3BK4/8/8/8/8/8/RWrnb7/4RK3",
        "3BK4/8/8/8/8/8/RWrr7/4RK3",
        "3BK4/8/8/8/8/8/GW7/4RK3",
        "3BK4/8/8/8/8/8/RK7/4RK3",
        "3BK4/8/8/8/8/8/8/8",
        "3BK4/8/8/8/8/8/RWr(B9)7/4RK3",
        "3BK4/8/8/8/8/8/RWr(B1/7/4RK3",
        "3BK4/8/8/8/8/8/RWr()7/4RK3",
        "3BK4/8/8/8/8/8/RWsX7/4RK3",
        "0BK7/8/8/8/8/8/8/4RK3",
    ] {
        assert_eq!(field_of(&with_field(0, board), &o), Field::Board, "{board}");
    }
    for (k, value, field) in [
        (1, "X", Field::ToAct),
        (1, "G", Field::ToAct),
        (1, "RB", Field::ToAct),
        (2, "collect", Field::Phase),
        (3, "13,1", Field::Money),
        (3, "1", Field::Money),
        (3, "a,1", Field::Money),
        (4, "W9,-", Field::Reserves),
        (4, "Q1,-", Field::Reserves),
        (4, "W1W1,-", Field::Reserves),
        (4, ",-", Field::Reserves),
        (5, "W8r3n2b3s4", Field::BankNew),
        (5, "W8r4n2b3s4,W8r3n2b3s4", Field::BankNew),
        (6, "W1,-", Field::BankReissued),
        (7, "e4", Field::Dropped),
        (7, "e1", Field::Dropped),
        (7, "z9", Field::Dropped),
        (8, "x", Field::NoProgress),
        (8, "-1", Field::NoProgress),
        (5, "W7r3n2b3s4,W8r3n2b3s4", Field::Totals),
        (6, "r1,-", Field::Totals),
    ] {
        assert_eq!(field_of(&with_field(k, value), &o), field, "{k}: {value}");
    }
    // Four armies' text is refused by a two-player game and vice versa.
    assert_eq!(field_of(START_4, &two()), Field::Board);
    assert_eq!(field_of(START_2, &four()), Field::Money);
    // Doubled Rooks need the option that allows them.
    let doubled = "3BK4/8/8/8/8/8/RWrr7/4RK3 R move 1,1 -,- W7r1n2b3s4,W8r3n2b3s4 -,- - 0";
    assert_eq!(field_of(doubled, &o), Field::Board);
    let mut allow = two();
    allow.duplicate_weapons = true;
    assert_eq!(pos(doubled, &allow).to_text(), doubled);
    // A dropped Warrior in the movement phase is refused; a King capture
    // needs the King to be missing.
    let dropped = "3BK4/8/8/8/8/8/RW7/4RK3 R move 1,1 -,- W7r3n2b3s4,W8r3n2b3s4 -,- a2 0";
    assert_eq!(field_of(dropped, &o), Field::Dropped);
    assert_eq!(field_of(&with_field(2, "king-captured"), &o), Field::Board);
}

#[test]
fn every_kind_of_action_has_a_notation_that_round_trips() {
    let examples = [
        (
            Action::Drop {
                to: "e4".parse().unwrap(),
            },
            "W@e4",
        ),
        (
            Action::Move {
                from: "e4".parse().unwrap(),
                to: "e5".parse().unwrap(),
                facing: None,
            },
            "e4-e5",
        ),
        (
            Action::Move {
                from: "e4".parse().unwrap(),
                to: "e5".parse().unwrap(),
                facing: Some(Facing::East),
            },
            "e4-e5E",
        ),
        (
            Action::Capture {
                from: "e5".parse().unwrap(),
                to: "d6".parse().unwrap(),
                facing: Some(Facing::West),
            },
            "e5xd6W",
        ),
        (Action::Pass, "pass"),
        (
            Action::BonusDrop {
                to: "c3".parse().unwrap(),
            },
            "+W@c3",
        ),
        (
            Action::Arm {
                weapon: Weapon::Rook,
                on: "d4".parse().unwrap(),
                facing: None,
            },
            "R@d4",
        ),
        (
            Action::Arm {
                weapon: Weapon::Swords,
                on: "d4".parse().unwrap(),
                facing: Some(Facing::North),
            },
            "S@d4N",
        ),
        (
            Action::Buy {
                item: Purchase::Warrior,
            },
            "buy-W",
        ),
        (
            Action::Buy {
                item: Purchase::Weapon(Weapon::Knight, Issue::New),
            },
            "buy-new-N",
        ),
        (
            Action::Buy {
                item: Purchase::Weapon(Weapon::Bishop, Issue::Reissued),
            },
            "buy-reissued-B",
        ),
        (Action::End, "end"),
        (Action::ClaimDraw, "draw"),
    ];
    for (action, text) in examples {
        assert_eq!(action.to_string(), text);
        assert_eq!(text.parse::<Action>(), Ok(action));
        let json = serde_json::to_string(&action).unwrap();
        assert!(json.starts_with("{\"kind\":"), "{json}");
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    }
}

#[test]
fn parse_action_reads_the_shorter_forms_in_context() {
    let g = red_with(&[("d4", "RWsN"), ("c5", "BW")], 1);
    let read = |g: &Warrior, t: &str| g.parse_action(t).map(|a| a.to_string());
    assert_eq!(read(&g, "E1-E2").unwrap(), "e1-e2");
    assert_eq!(read(&g, "e1e2").unwrap(), "e1-e2");
    assert_eq!(read(&g, "d4-d5").unwrap(), "d4-d5N", "keeps its facing");
    assert_eq!(read(&g, "d4-d5e").unwrap(), "d4-d5E");
    assert_eq!(read(&g, "d4c5").unwrap(), "d4xc5N");
    assert_eq!(read(&g, "d4-c5W").unwrap(), "d4xc5W");
    assert_eq!(read(&g, "w@a1").unwrap(), "W@a1");
    for (t, g) in [("W@c3", "bonus"), ("s@b2n", "arm"), ("buy-R", "buy")] {
        let game = setup(
            &two(),
            &board(&[("e1", "RK"), ("d8", "BK"), ("b2", "RW")]),
            'R',
            g,
            &[12, 0],
            &["W1s1", "-"],
            &["-", "-"],
        );
        let expected = match g {
            "bonus" => "+W@c3",
            "arm" => "S@b2N",
            _ => "buy-new-R",
        };
        assert_eq!(read(&game, t).unwrap(), expected);
    }
    assert!(matches!(
        g.parse_action("hello"),
        Err(ActionError::Unreadable(_))
    ));
    assert!(matches!(
        g.parse_action("d4-d6"),
        Err(ActionError::Illegal { .. })
    ));
    let over = pos(OVER, &two());
    assert_eq!(over.parse_action("end"), Err(ActionError::GameOver));
    let mut copy = over.clone();
    assert_eq!(copy.apply(&Action::End), Err(ActionError::GameOver));
    assert_eq!(copy, over);
}

/// Counted by hand: Red has 5 King moves and 62 drops. After a drop Red has
/// $0, so the optional phases are skipped, and Blue has 5 King actions (a
/// Warrior dropped next to Blue's King can be captured) and 61 drops; after
/// a King move Red's $1 buys nothing, and Blue has 5 King moves and 62
/// drops. Resigning is the table's, not a game action, so it is not counted.
#[test]
fn perft_from_the_start_matches_a_count_by_hand() {
    let g = Warrior::new(&two());
    assert_eq!(perft::perft(&g, 1), 67);
    assert_eq!(perft::perft(&g, 2), 62 * 66 + 5 * 67);
    assert_eq!(perft::perft(&g, 2), 4_427);
}

fn arbitrary_position() -> impl Strategy<Value = String> {
    (0u64..300, 0usize..200).prop_map(|(seed, plies)| {
        let options = if seed % 3 == 0 { four() } else { two() };
        let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(seed));
        let mut g = Warrior::new(&options);
        let mut actions = Vec::new();
        for _ in 0..plies {
            g.legal_actions(&mut actions);
            match rng.choose(&actions) {
                Some(a) => {
                    let a = *a;
                    g.apply(&a).unwrap();
                }
                None => break,
            }
        }
        g.to_text()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_text_is_read_or_refused_without_panic(text in "\\PC{0,120}") {
        let _ = Warrior::from_text(&text, &two());
        let _ = Warrior::from_text(&text, &four());
        let _ = text.parse::<Action>();
        let _ = Warrior::new(&two()).parse_action(&text);
    }

    #[test]
    fn mutated_positions_are_read_or_refused_without_panic(
        text in arbitrary_position(),
        at in 0usize..200,
        with in "[0-9A-Za-z(),/ -]{0,3}",
    ) {
        let mut chars: Vec<char> = text.chars().collect();
        let at = at % chars.len().max(1);
        let tail = chars.split_off(at.min(chars.len()));
        let mutated: String = chars.into_iter().chain(with.chars()).chain(tail.into_iter().skip(1)).collect();
        for options in [two(), four()] {
            if let Ok(g) = Warrior::from_text(&mutated, &options) {
                // Whatever is accepted is a position that round-trips and plays.
                let again = g.to_text();
                prop_assert_eq!(Warrior::from_text(&again, &options).unwrap(), g.clone());
                let mut actions = Vec::new();
                g.legal_actions(&mut actions);
                for a in actions.iter().take(20) {
                    let mut c = g.clone();
                    c.apply(a).unwrap();
                }
            }
        }
    }

    #[test]
    fn positions_reached_in_play_round_trip(text in arbitrary_position()) {
        let options = if text.split(' ').nth(3).is_some_and(|m| m.split(',').count() == 4) {
            four()
        } else {
            two()
        };
        let g = Warrior::from_text(&text, &options).unwrap();
        prop_assert_eq!(g.to_text(), text);
    }
}
