//! Thousands of seeded random games with the four preconstructed decks.

mod common;

use common::{DECKS, options, play};
use tabula_core::{Game, Options, ToAct};
use tabula_lytharia::{Action, Lytharia};

/// 16 pairings x 125 = 2000 games.
const PER_PAIRING: u64 = 125;

#[test]
fn random_games_with_every_pairing_end_without_panic() {
    let mut ends = std::collections::BTreeMap::new();
    let mut seed = 0;
    for a in DECKS {
        for b in DECKS {
            let opts = options(a, b);
            for _ in 0..PER_PAIRING {
                seed += 1;
                let g = play(&opts, seed, seed % 4 == 0, |_, _| {});
                let ToAct::Over { outcome } = g.to_act() else {
                    panic!("not over")
                };
                *ends.entry(format!("{outcome}")).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{ends:?}");
}

/// Also checks that every action played reads back from its text.
#[test]
fn state_text_round_trips_every_ply() {
    for seed in 0..6 {
        let opts = options(common::DECKS[seed % 4], common::DECKS[(seed + 1) % 4]);
        play(&opts, 1000 + seed as u64, true, |g, a| {
            let text = a.to_string();
            assert_eq!(&text.parse::<Action>().unwrap(), a, "{text}");
            assert_eq!(&g.parse_action(&g.action_notation(a)).unwrap(), a, "{text}");
            let text = g.to_text();
            let back =
                Lytharia::from_text(&text, g.options()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(&back, g);
            assert_eq!(back.to_text(), text);
        });
    }
}

#[test]
fn pawn_wars_games_end() {
    for seed in 0..400 {
        let mut opts = options(common::DECKS[seed % 4], common::DECKS[(seed / 4) % 4]);
        opts.set("mode", "pawn-wars").unwrap();
        let g = play(&opts, 5000 + seed as u64, seed % 3 == 0, |_, _| {});
        assert!(g.to_act().outcome().is_some());
    }
}
