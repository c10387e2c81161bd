//! The computer players as a player meets them: legal, reproducible, blind
//! to hidden cards, and taking a win when one is on the board.

use tabula_ai::{
    Budget, Choice, Level, Search, SearchConfig, choose, choose_on_threads, choose_with,
};
use tabula_core::{GameId, GameRng, Player, Seed, ToAct, Viewer};
use tabula_games::AnyGame;
use tabula_lytharia::Lytharia;

fn configurations() -> Vec<(GameId, Vec<(String, String)>)> {
    let o = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    vec![
        (GameId::Chess, vec![]),
        (GameId::Epoch, vec![]),
        (GameId::Skirmish, vec![]),
        (GameId::Skirmish, o("mode", "advanced")),
        (GameId::Warrior, vec![]),
        (GameId::Warrior, o("players", "4")),
        (GameId::Covenant, o("scenario", "arena")),
        (GameId::Covenant, o("scenario", "crossroads")),
        (GameId::Covenant, vec![]),
        (GameId::Lytharia, vec![]),
        (GameId::Lytharia, o("mode", "duel")),
        (GameId::Lytharia, o("mode", "pawn-wars")),
        (GameId::Lytharia, o("mode", "chess")),
    ]
}

fn small(iterations: u32) -> Option<Budget> {
    Some(Budget {
        iterations,
        time: None,
        depth: None,
    })
}

/// Plays chance nodes from `chance` until a player is to act (or the end).
fn settle(game: &mut AnyGame, chance: &mut GameRng) {
    while game.to_act() == ToAct::Chance {
        let outcome = game
            .sample_chance(chance)
            .expect("a chance node has outcomes");
        game.apply(&outcome.canonical)
            .expect("a drawn outcome is legal");
    }
}

#[test]
fn every_level_plays_only_legal_actions_in_every_game() {
    // A bounded stand-in for the long AI-vs-AI runs of docs/ai.md: every
    // level in turn, small budgets, a few hundred decisions a game.
    let mut decisions = 0;
    for (id, options) in configurations() {
        let mut game = AnyGame::new(id, &options).unwrap();
        let mut chance = GameRng::from_seed(Seed(3));
        let mut rng = GameRng::from_seed(Seed(4));
        for ply in 0..160 {
            settle(&mut game, &mut chance);
            let Some(me) = game.to_act().player() else {
                break;
            };
            let level = Level::ALL[ply % Level::ALL.len()];
            let (action, _) = choose_with(&game, me, level, small(24), &mut rng)
                .unwrap_or_else(|| panic!("{id} {options:?}: {level} found no action"));
            assert!(
                game.legal_actions().contains(&action),
                "{id} {options:?}: {level} chose {action:?}, not legal in {}",
                game.to_text()
            );
            game.apply(&action.canonical).unwrap();
            decisions += 1;
        }
    }
    assert!(decisions > 1000, "{decisions}");
}

#[test]
fn whole_lytharian_duels_play_to_the_end() {
    // Battle Duels hide the opponent's picks: one tree node is a chance
    // node in some worlds and a decision in others (a panic found by
    // `tabula match`).
    let options = vec![("mode".to_owned(), "duel".to_owned())];
    for seed in 0..12 {
        let mut game = AnyGame::new(GameId::Lytharia, &options).unwrap();
        let mut chance = GameRng::from_seed(Seed(seed));
        let mut rng = GameRng::from_seed(Seed(100 + seed));
        for _ in 0..400 {
            settle(&mut game, &mut chance);
            let Some(me) = game.to_act().player() else {
                break;
            };
            let (action, _) = choose_with(&game, me, Level::Hard, small(1600), &mut rng).unwrap();
            game.apply(&action.canonical).unwrap();
        }
        assert!(game.outcome().is_some(), "duel {seed} did not end");
    }
}

#[test]
fn the_same_seed_gives_the_same_choice() {
    for (id, options) in configurations() {
        let mut game = AnyGame::new(id, &options).unwrap();
        settle(&mut game, &mut GameRng::from_seed(Seed(5)));
        let me = game.to_act().player().unwrap();
        // Hard is the alpha-beta engine for chess and Epoch: its reused
        // tables must not carry one decision into the next.
        for level in [Level::Greedy, Level::Easy, Level::Hard] {
            let pick = |seed| {
                let mut rng = GameRng::from_seed(Seed(seed));
                choose_with(&game, me, level, small(200), &mut rng).unwrap()
            };
            let (first, stats) = pick(9);
            let (again, again_stats) = pick(9);
            assert_eq!(first, again, "{id} {options:?} {level}");
            assert_eq!(stats, again_stats, "{id} {options:?} {level}");
        }
    }
}

#[test]
fn the_iteration_budget_is_honoured() {
    let game = AnyGame::new(GameId::Chess, &[]).unwrap();
    for n in [1, 37, 500] {
        let mut rng = GameRng::from_seed(Seed(1));
        // Chess at hard is the alpha-beta engine; medium is a tree search.
        let (_, stats) = choose_with(&game, Player(0), Level::Medium, small(n), &mut rng).unwrap();
        assert_eq!(stats.iterations, n);
    }
}

#[test]
fn nobody_chooses_for_a_seat_not_to_act() {
    let game = AnyGame::new(GameId::Chess, &[]).unwrap();
    for level in Level::ALL {
        let mut rng = GameRng::from_seed(Seed(1));
        assert!(
            choose(&game, Player(1), level, &mut rng).is_none(),
            "{level}"
        );
    }
    let over = AnyGame::from_text(
        GameId::Chess,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        &[],
    )
    .unwrap();
    let mut rng = GameRng::from_seed(Seed(1));
    assert!(choose(&over, Player(0), Level::Medium, &mut rng).is_none());
}

#[test]
fn hidden_cards_do_not_change_the_choice() {
    // Two Lytharian tables that look the same to the seat to act but hold
    // different hidden cards (the opponent's hand, both decks' order, the
    // opponent's face-down troops): for a fixed seed, every level chooses
    // the same there.
    let mut checked = 0;
    for mode in ["full", "duel", "pawn-wars", "chess"] {
        let options = vec![("mode".to_owned(), mode.to_owned())];
        let mut game = AnyGame::new(GameId::Lytharia, &options).unwrap();
        let mut chance = GameRng::from_seed(Seed(11));
        let mut walk = GameRng::from_seed(Seed(12));
        for ply in 0..60 {
            settle(&mut game, &mut chance);
            let Some(me) = game.to_act().player() else {
                break;
            };
            let other = game.determinize(me, &mut GameRng::from_seed(Seed(1000 + ply)));
            assert_eq!(
                game.view(Viewer::Player(me)),
                other.view(Viewer::Player(me)),
                "{mode}: the other world must look the same to {me}"
            );
            if game.to_text() != other.to_text() {
                for level in [Level::Greedy, Level::Easy] {
                    let a = choose_with(
                        &game,
                        me,
                        level,
                        small(64),
                        &mut GameRng::from_seed(Seed(7)),
                    );
                    let b = choose_with(
                        &other,
                        me,
                        level,
                        small(64),
                        &mut GameRng::from_seed(Seed(7)),
                    );
                    assert_eq!(a, b, "{mode} ply {ply}: {level} saw hidden cards");
                }
                // Plain determinization (one world a tree, two trees) is
                // as blind: its worlds are drawn from the seat's view.
                if let (AnyGame::Lytharia(g), AnyGame::Lytharia(o)) = (&game, &other) {
                    let config = SearchConfig {
                        worlds: 2,
                        ..SearchConfig::for_game(g, small(64).unwrap())
                    };
                    let pick = |world: &Lytharia| {
                        Search::new(config).choose(world, me, &mut GameRng::from_seed(Seed(7)))
                    };
                    let (a, b) = (pick(g), pick(o));
                    assert_eq!(a, b, "{mode} ply {ply}: determinization saw hidden cards");
                }
                checked += 1;
            }
            let action = choose(&game, me, Level::Random, &mut walk).unwrap();
            game.apply(&action.canonical).unwrap();
        }
    }
    assert!(
        checked > 20,
        "too few positions with hidden cards: {checked}"
    );
}

/// Whether playing `canonical` wins at once for the player to act.
fn wins_at_once(game: &AnyGame, canonical: &str) -> bool {
    let Some(me) = game.to_act().player() else {
        return false;
    };
    let team = game.seating().team(me);
    let mut after = game.clone();
    after.apply(canonical).is_ok()
        && after
            .outcome()
            .is_some_and(|o| o.winner.is_some() && o.winner == team)
}

#[test]
fn medium_takes_a_mate_in_one() {
    // Black to move: Qh4# (fool's mate).
    let game = AnyGame::from_text(
        GameId::Chess,
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        &[],
    )
    .unwrap();
    for seed in 0..3 {
        let mut rng = GameRng::from_seed(Seed(seed));
        let choice = choose_with(&game, Player(1), Level::Medium, small(4000), &mut rng).unwrap();
        assert_eq!(choice.0.canonical, "d8h4");
    }
}

#[test]
fn medium_takes_a_win_in_one_in_every_game() {
    // Positions from seeded random games where the player to act has an
    // action that wins on the spot (a mate, a King taken, a winning
    // skirmish, a King felled, a lethal blow); medium must take one.
    let mut found = 0;
    for (id, options) in configurations() {
        let mut chance = GameRng::from_seed(Seed(21));
        let mut walk = GameRng::from_seed(Seed(22));
        let mut seen_here = 0;
        'games: for _ in 0..30 {
            let mut game = AnyGame::new(id, &options).unwrap();
            for _ in 0..600 {
                settle(&mut game, &mut chance);
                let Some(me) = game.to_act().player() else {
                    continue 'games;
                };
                let actions = game.legal_actions();
                let winning = actions
                    .iter()
                    .filter(|a| wins_at_once(&game, &a.canonical))
                    .count();
                if winning > 0 && winning < actions.len() {
                    let mut rng = GameRng::from_seed(Seed(5));
                    let (choice, _) =
                        choose_with(&game, me, Level::Medium, small(2000), &mut rng).unwrap();
                    assert!(
                        wins_at_once(&game, &choice.canonical),
                        "{id} {options:?}: medium played {} and missed the win in {}",
                        choice.canonical,
                        game.to_text()
                    );
                    found += 1;
                    seen_here += 1;
                    if seen_here >= 2 {
                        break 'games;
                    }
                    continue 'games;
                }
                let action = choose(&game, me, Level::Random, &mut walk).unwrap();
                game.apply(&action.canonical).unwrap();
            }
        }
    }
    assert!(found >= 8, "too few winning positions found: {found}");
}

#[test]
fn root_parallel_search_is_reproducible_and_still_finds_the_mate() {
    // Black to move: Qh4# (fool's mate).
    let mate = AnyGame::from_text(
        GameId::Chess,
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        &[],
    )
    .unwrap();
    for threads in [2, 3] {
        let pick = |seed| {
            let mut rng = GameRng::from_seed(Seed(seed));
            choose_on_threads(
                &mate,
                Player(1),
                Level::Medium,
                small(4000),
                None,
                threads,
                &mut rng,
            )
            .unwrap()
        };
        let (first, stats) = pick(7);
        assert_eq!(first.canonical, "d8h4", "{threads} threads");
        // Each tree runs its share, rounded up.
        assert!(
            (4000..4000 + threads).contains(&stats.iterations),
            "{stats:?}"
        );
        assert_eq!(pick(7), (first, stats), "{threads} threads");
    }
    // The same in a team game and a hidden-information game.
    for (id, options) in configurations() {
        if !matches!(id, GameId::Warrior | GameId::Lytharia) {
            continue;
        }
        let mut game = AnyGame::new(id, &options).unwrap();
        settle(&mut game, &mut GameRng::from_seed(Seed(5)));
        let me = game.to_act().player().unwrap();
        let pick = || {
            let mut rng = GameRng::from_seed(Seed(3));
            choose_on_threads(&game, me, Level::Medium, small(300), None, 2, &mut rng).unwrap()
        };
        let first = pick();
        assert!(game.legal_actions().contains(&first.0), "{id} {options:?}");
        assert_eq!(pick(), first, "{id} {options:?}");
    }
}

/// The first moves `level` plays from `text` over seeds 0..12, with
/// `choice` replacing the level's.
fn first_moves(text: &str, level: Level, choice: Option<Choice>) -> Vec<String> {
    let game = AnyGame::from_text(GameId::Chess, text, &[]).unwrap();
    let me = game.to_act().player().unwrap();
    (0..12)
        .map(|seed| {
            let mut rng = GameRng::from_seed(Seed(seed));
            choose_on_threads(&game, me, level, small(3000), choice, 1, &mut rng)
                .unwrap()
                .0
                .canonical
        })
        .collect()
}

#[test]
fn the_lower_levels_vary_among_near_best_moves_but_not_past_a_clearly_best_one() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let distinct = |moves: &[String]| {
        let mut m = moves.to_vec();
        m.sort();
        m.dedup();
        m.len()
    };
    // From the start the most searched move is one move whatever the seed;
    // medium and easy draw among the moves searched about as good.
    let best = first_moves(start, Level::Medium, Some(Choice::BEST));
    assert_eq!(distinct(&best), 1, "{best:?}");
    for level in [Level::Medium, Level::Easy] {
        let moves = first_moves(start, level, None);
        assert!(distinct(&moves) >= 3, "{level}: {moves:?}");
    }
    // The Black Queen on d4 hangs to e3xd4: every level takes it.
    let queen = "rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    for level in [Level::Medium, Level::Easy] {
        let moves = first_moves(queen, level, None);
        assert!(moves.iter().all(|m| m == "e3d4"), "{level}: {moves:?}");
    }
}

#[test]
fn a_skirmish_is_judged_by_its_odds_before_it_is_searched() {
    // The Queen's attempt on the undefended Rook wins it for certain (9 and
    // the attack bonus against 5, one die each); before the roll the board
    // is unchanged, so only the odds can tell that attempt from a quiet
    // move. With one iteration the search plays the action it judged best
    // on sight, from its evaluation of each action's result.
    let game = AnyGame::from_text(
        GameId::Skirmish,
        "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1 - act - -",
        &[],
    )
    .unwrap();
    for seed in 0..4 {
        let mut rng = GameRng::from_seed(Seed(seed));
        let (choice, _) = choose_on_threads(
            &game,
            Player(0),
            Level::Hard,
            small(1),
            Some(Choice::BEST),
            1,
            &mut rng,
        )
        .unwrap();
        assert_eq!(choice.canonical, "d1d5", "seed {seed}");
    }
}
