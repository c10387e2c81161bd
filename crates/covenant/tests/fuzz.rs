//! Bad input never panics: arbitrary and mutated position texts, action
//! texts and scenario files are refused with an error or read consistently.
//! And the hex arithmetic keeps its laws.

use proptest::prelude::*;
use tabula_core::Game;
use tabula_covenant::{Action, Covenant, CovenantOptions, Hex, PieceTable, Scenario, ScenarioId};

const TEXTS: [&str; 3] = [
    "crossroads g 1 0 3/4 - - gAr@c1,bLa@c9,gHe@d1,gMi@d2,bMi@d7,gKi@e1,gPk@e2,bPk@e8,bKi@e9,gMi@f2,bMi@f7,bHe@f8,gLa@g1,bAr@g9",
    "arena g 12 3* 0/9999 d3:2:5 - gKi@a9,gBl@d3=4:1c,gTe@d5=7:3x,gPh@f2:hc,gMi@g2:i,bKi@i9",
    "arena g 2 0 5/5 b2:2:0 Mi@b4 gKi@a9,gAp@b2:1,bKi@i9",
];

fn mutate(text: &str, at: usize, with: char, cut: bool) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = at % chars.len();
    if cut {
        chars.remove(i);
    } else {
        chars[i] = with;
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn arbitrary_position_texts_do_not_panic(text in "\\PC{0,80}") {
        let _ = Covenant::from_text(&text, &CovenantOptions::default());
    }

    #[test]
    fn mutated_position_texts_are_refused_or_round_trip(
        which in 0usize..3,
        at in 0usize..400,
        with in prop::sample::select(vec!['a', 'g', 'b', '9', '0', ':', '@', ',', '=', '*', '-', ' ', 'x', 'i', 'K', '/']),
        cut in any::<bool>(),
    ) {
        let text = mutate(TEXTS[which], at, with, cut);
        if let Ok(game) = Covenant::from_text(&text, &CovenantOptions::default()) {
            let again = game.to_text();
            let back = Covenant::from_text(&again, &CovenantOptions::default()).unwrap();
            prop_assert_eq!(back.to_text(), again);
            // Play on from it: every listed action is accepted.
            let mut game = game;
            let mut actions = Vec::new();
            for step in 0..6 {
                game.legal_actions(&mut actions);
                let Some(a) = actions.get((at + step * 7) % actions.len().max(1)).copied() else {
                    break;
                };
                game.apply(&a).unwrap();
            }
        }
    }

    #[test]
    fn action_texts_never_panic_and_read_back(text in "[a-z@:,0-9A-Z-]{0,24}") {
        if let Ok(action) = text.parse::<Action>() {
            prop_assert_eq!(action.to_string().parse::<Action>().unwrap(), action);
        }
        let game = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
        let _ = game.parse_action(&text);
        let _ = game.parse_actions(&text);
    }

    #[test]
    fn mutated_scenarios_do_not_panic(
        which in 0usize..3,
        at in 0usize..3000,
        with in prop::sample::select(vec!['.', 'f', '-', '"', '1', 'z', ' ', '\n', '=', '[', 'K']),
        cut in any::<bool>(),
    ) {
        let source = ScenarioId::ALL[which].source();
        let text = mutate(source, at, with, cut);
        let _ = Scenario::from_toml(&text, PieceTable::builtin());
    }

    #[test]
    fn mutated_piece_tables_do_not_panic(
        at in 0usize..9000,
        with in prop::sample::select(vec!['0', '9', '-', '"', 'x', ' ', '\n', '=', '[', ']', '{']),
        cut in any::<bool>(),
    ) {
        let text = mutate(tabula_covenant::PIECES_TOML, at, with, cut);
        let _ = PieceTable::from_toml(&text);
    }

    #[test]
    fn hex_distance_is_a_metric(
        a in (0u8..26, 0u8..99), b in (0u8..26, 0u8..99), c in (0u8..26, 0u8..99),
    ) {
        let (a, b, c) = (Hex::new(a.0, a.1), Hex::new(b.0, b.1), Hex::new(c.0, c.1));
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert_eq!(a.distance(a), 0);
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
        for n in a.neighbours() {
            prop_assert_eq!(a.distance(n), 1);
        }
        let ring: Vec<Hex> = a.within(4).collect();
        prop_assert!(ring.iter().all(|x| a.distance(*x) <= 4));
        if a.distance(b) <= 4 {
            prop_assert!(ring.contains(&b));
        }
    }
}
