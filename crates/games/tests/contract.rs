//! The `Game` contract, checked for every game through `AnyGame` with seeded
//! random play: whoever acts, the action lists, the notations, the position
//! text and the refusal of bad actions behave the same way in all six games.

use tabula_core::{GameId, GameRng, Seed, ToAct};
use tabula_games::AnyGame;

/// Option sets worth covering per game (the default first).
fn variants(id: GameId) -> Vec<Vec<(String, String)>> {
    let o = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    match id {
        GameId::Chess => vec![vec![], o("draw-rules", "fide")],
        GameId::Epoch => vec![vec![], o("swap", "off")],
        GameId::Skirmish => vec![vec![], o("mode", "advanced")],
        GameId::Warrior => vec![vec![], o("players", "4")],
        GameId::Covenant => vec![o("scenario", "crossroads"), o("scenario", "arena")],
        GameId::Lytharia => vec![vec![], o("mode", "pawn-wars")],
    }
}

/// Texts no game accepts as an action.
const GARBAGE: [&str; 6] = ["", " ", "zz9", "e2e9", "@@", "resign resign"];

fn check_game(id: GameId, options: &[(String, String)], seed: u64, max_plies: usize) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = AnyGame::new(id, options).unwrap_or_else(|e| panic!("{id} {options:?}: {e}"));
    for ply in 0..max_plies {
        let here = format!("{id} {options:?} seed {seed} ply {ply}");
        // Position text round-trips exactly.
        let text = game.to_text();
        let again = AnyGame::from_text(id, &text, options)
            .unwrap_or_else(|e| panic!("{here}: own text refused: {e}\n{text}"));
        assert_eq!(again.to_text(), text, "{here}");

        let actions = game.legal_actions();
        // Bad text is refused and changes nothing.
        for bad in GARBAGE {
            let before = game.to_text();
            if game.clone().apply(bad).is_ok() {
                continue; // some games may accept a word here; not garbage for them
            }
            assert!(game.apply(bad).is_err());
            assert_eq!(
                game.to_text(),
                before,
                "{here}: refused '{bad}' changed the state"
            );
        }
        match game.to_act() {
            ToAct::Over { outcome } => {
                assert!(actions.is_empty(), "{here}: actions after the end");
                assert!(!game.describe_outcome(&outcome).is_empty());
                return;
            }
            ToAct::Chance => {
                assert!(
                    actions.is_empty(),
                    "{here}: player actions at a chance node"
                );
                if let Some(list) = game.chance_outcomes() {
                    let total: tabula_core::Probability = list.iter().map(|(_, p)| *p).sum();
                    assert_eq!(total, tabula_core::Probability::ONE, "{here}");
                }
                let outcome = game
                    .sample_chance(&mut rng)
                    .unwrap_or_else(|| panic!("{here}: chance node without an outcome"));
                game.apply(&outcome.canonical)
                    .unwrap_or_else(|e| panic!("{here}: chance outcome refused: {e}"));
            }
            ToAct::Player { .. } => {
                assert!(
                    !actions.is_empty(),
                    "{here}: a player to act with no action"
                );
                // Both notations parse back to the same action.
                for a in actions.iter().step_by(1 + actions.len() / 12) {
                    let by_notation = game
                        .parse_action(&a.notation)
                        .unwrap_or_else(|e| panic!("{here}: '{}' refused: {e}", a.notation));
                    assert_eq!(by_notation.canonical, a.canonical, "{here}");
                    let by_canonical = game
                        .parse_action(&a.canonical)
                        .unwrap_or_else(|e| panic!("{here}: '{}' refused: {e}", a.canonical));
                    assert_eq!(by_canonical.canonical, a.canonical, "{here}");
                }
                let pick = &actions[rng.below(actions.len() as u64) as usize];
                game.apply(&pick.canonical)
                    .unwrap_or_else(|e| panic!("{here}: legal '{}' refused: {e}", pick.canonical));
            }
        }
    }
}

#[test]
fn every_game_keeps_the_contract_in_random_play() {
    for id in GameId::ALL {
        for (i, options) in variants(id).iter().enumerate() {
            for seed in 0..3u64 {
                check_game(id, options, seed * 7 + i as u64, 120);
            }
        }
    }
}

#[test]
fn views_serialize_for_every_game_and_viewer() {
    for id in GameId::ALL {
        let game = AnyGame::new(id, &variants(id)[0]).unwrap();
        let public = game.view(tabula_core::Viewer::Public);
        assert!(public.is_object(), "{id}: {public}");
        assert!(public.get("error").is_none(), "{id}: {public}");
        for p in game.seating().players() {
            let v = game.view(tabula_core::Viewer::Player(p));
            assert!(v.is_object() && v.get("error").is_none(), "{id}: {v}");
        }
    }
}
