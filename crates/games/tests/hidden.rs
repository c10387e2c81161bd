//! Hidden information through the table protocol, the property the server
//! relies on: what a viewer receives depends only on what it may see.
//!
//! For every game with hidden information (Lytharian Chess today, in each
//! mode), over thousands of positions of seeded random games: a seat's view
//! (board, zones, every seat's holdings) and its legal actions with their
//! gestures and JSON are the same in every state consistent with what that
//! seat sees (`determinize` redraws the hidden rest: the other hand, both
//! decks' order, the other seat's face-down troops); the spectator's view is
//! the same in every state consistent with either seat's; and the seat not
//! to act gets no legal actions. `crates/lytharia/tests/protocol.rs` checks
//! the same of events and notation, card by card.

use serde_json::{Value, json};
use tabula_core::{GameId, GameRng, Player, Seed, ToAct, Viewer};
use tabula_games::{AnyGame, Table};

/// Everything of the state a viewer receives, as JSON.
fn seen(game: &AnyGame, viewer: Viewer) -> Value {
    let holdings: Vec<Value> = game
        .seating()
        .players()
        .map(|p| json!(game.holdings(p, viewer)))
        .collect();
    json!({
        "board": game.view(viewer),
        "zones": game.zones(viewer),
        "holdings": holdings,
    })
}

fn legal(game: &AnyGame) -> Value {
    json!(game.legal_entries())
}

struct Count {
    positions: usize,
    redrawn: usize,
}

fn check_mode(options: &[(&str, &str)], seeds: std::ops::Range<u64>, plies: usize) -> Count {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let mut count = Count {
        positions: 0,
        redrawn: 0,
    };
    for seed in seeds {
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut table = Table::new(AnyGame::new(GameId::Lytharia, &options).unwrap());
        for ply in 0..plies {
            let here = format!("lytharia {options:?} seed {seed} ply {ply}");
            let game = table.game().clone();
            count.positions += 1;
            let acting = game.to_act().player();
            let public = seen(&game, Viewer::Public);
            for p in game.seating().players() {
                let mine = seen(&game, Viewer::Player(p));
                let my_legal = (acting == Some(p)).then(|| legal(&game));
                for _ in 0..2 {
                    let world = game.determinize(p, &mut rng);
                    count.redrawn += 1;
                    assert_eq!(
                        seen(&world, Viewer::Player(p)),
                        mine,
                        "{here}: {p}'s view depends on what it may not see"
                    );
                    assert_eq!(
                        seen(&world, Viewer::Public),
                        public,
                        "{here}: the spectator's view depends on {p}'s secrets"
                    );
                    if let Some(my_legal) = &my_legal {
                        assert_eq!(
                            &legal(&world),
                            my_legal,
                            "{here}: {p}'s legal actions depend on what it may not see"
                        );
                    }
                }
                if acting != Some(p) {
                    assert!(
                        table.view(Viewer::Player(p)).legal.is_empty(),
                        "{here}: {p} got the other seat's actions"
                    );
                }
            }
            assert!(table.view(Viewer::Public).legal.is_empty(), "{here}");
            match game.to_act() {
                ToAct::Over { .. } => break,
                ToAct::Chance => {
                    table.play_chance(&mut rng).expect("a chance outcome");
                }
                ToAct::Player { player } => {
                    let entries = game.legal_entries();
                    let pick = &entries[rng.below(entries.len() as u64) as usize];
                    table
                        .act(
                            player,
                            &tabula_games::ActionInput::Text(pick.canonical.clone()),
                        )
                        .unwrap();
                }
            }
        }
    }
    count
}

#[test]
fn what_a_viewer_receives_depends_only_on_what_it_may_see() {
    let mut total = 0;
    for (options, seeds, plies) in [
        (&[][..], 0..6, 220),
        (&[("mode", "duel")][..], 0..6, 200),
        (&[("mode", "pawn-wars")][..], 0..6, 200),
        (&[("mode", "chess")][..], 0..3, 120),
        (&[("face-down", "off")][..], 0..2, 150),
    ] {
        let c = check_mode(options, seeds, plies);
        assert!(
            c.positions > 100,
            "{options:?}: only {} positions",
            c.positions
        );
        total += c.positions;
        eprintln!(
            "{options:?}: {} positions, {} redrawn worlds",
            c.positions, c.redrawn
        );
    }
    assert!(total > 3_000, "only {total} positions");
    // Only Lytharia hides anything today; a new game with hidden
    // information must join this test.
    for id in GameId::ALL {
        let game = AnyGame::new(id, &[]).unwrap();
        assert_eq!(game.hidden_information(), id == GameId::Lytharia, "{id}");
    }
    let _ = Player(0);
}
