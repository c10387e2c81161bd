//! Seeded random games on every scenario: no panic, the position text
//! round-trips every ply, every legal action reads back from its notation and
//! is accepted by `apply`, a sample of illegal actions errs and changes
//! nothing, and every game ends with one of the book's results.

use tabula_core::{EndReason, Game, GameRng, Options, Seed, ToAct};
use tabula_covenant::{Action, Covenant, CovenantOptions, Hex, Kind, ScenarioId, Targets};

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    kings: usize,
    draws: usize,
    unfinished: usize,
    plies: usize,
    falls: usize,
    /// How often each kind of action was played, by verb.
    played: std::collections::BTreeMap<String, usize>,
}

fn random_action(rng: &mut GameRng, game: &Covenant) -> Action {
    let s = game.scenario();
    let hex = |rng: &mut GameRng| {
        Hex::new(
            rng.below(u64::from(s.width) + 1) as u8,
            rng.below(u64::from(s.height) + 1) as u8,
        )
    };
    match rng.below(12) {
        0 => Action::Activate(hex(rng)),
        1 => Action::Extra(hex(rng)),
        2 => Action::Move(hex(rng)),
        3 => Action::Melee(hex(rng)),
        4 => Action::Shoot(hex(rng)),
        5 => Action::Holy(hex(rng)),
        6 => {
            let a = hex(rng);
            let b = hex(rng);
            Targets::new(a, &[b]).map_or(Action::EndAct, Action::Sweep)
        }
        7 => Action::Heal {
            healer: hex(rng),
            target: hex(rng),
        },
        8 => Action::Recruit {
            kind: Kind(rng.below(23) as u8),
            at: hex(rng),
        },
        9 => Action::Convert(hex(rng)),
        10 => Action::EndAct,
        _ => Action::EndTurn,
    }
}

/// Plays one game. Attacks are preferred so games end; end-turn is chosen
/// with a fixed chance so turns stay short. `full` adds the costly checks
/// (every listed action's notation, random illegal actions, checked against
/// unchecked play); without it each ply still round-trips the position text.
fn playout(options: &CovenantOptions, seed: u64, max_plies: usize, full: bool, stats: &mut Stats) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = Covenant::new(options);
    let mut actions = Vec::new();
    stats.games += 1;
    for ply in 0..max_plies {
        let text = game.to_text();
        let back = Covenant::from_text(&text, options)
            .unwrap_or_else(|e| panic!("seed {seed} ply {ply}: {e}\n{text}"));
        assert_eq!(back, game, "seed {seed} ply {ply}: {text}");
        assert_eq!(back.to_text(), text);
        game.legal_actions(&mut actions);
        match game.to_act() {
            ToAct::Over { outcome } => {
                assert!(actions.is_empty());
                match outcome.reason {
                    EndReason::KingCaptured => stats.kings += 1,
                    EndReason::NoProgress => stats.draws += 1,
                    other => panic!("seed {seed}: unexpected end {other}"),
                }
                let mut after = game.clone();
                assert!(after.apply(&Action::EndTurn).is_err());
                assert_eq!(after, game);
                return;
            }
            ToAct::Player { player } => {
                assert_eq!(player, game.side_to_move().player());
                assert!(actions.contains(&Action::EndTurn), "seed {seed} ply {ply}");
            }
            ToAct::Chance => panic!("Covenant has no chance"),
        }
        stats.plies += 1;
        // Notation and legality agree with the list.
        if full && ply % 7 == 0 {
            for a in &actions {
                assert_eq!(a.to_string().parse::<Action>().as_ref(), Ok(a), "{a}");
                assert_eq!(game.parse_action(&game.action_notation(a)).as_ref(), Ok(a));
                assert_eq!(game.check(a), Ok(()), "{a} listed but refused in {text}");
            }
        }
        // Illegal actions err and change nothing; random ones are checked
        // against the list.
        for _ in 0..if full { 4 } else { 0 } {
            let a = random_action(&mut rng, &game);
            let listed = actions.contains(&a);
            let mut copy = game.clone();
            let result = copy.apply(&a);
            assert_eq!(result.is_ok(), listed, "{a}: {result:?} in {text}");
            if !listed {
                assert_eq!(copy, game, "{a} changed the state");
            }
        }
        let pieces_before = game.pieces().len();
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
        } else if roll == 9 || actions.len() == 1 {
            Action::EndTurn
        } else {
            let others: Vec<Action> = actions
                .iter()
                .copied()
                .filter(|a| *a != Action::EndTurn)
                .collect();
            others[rng.below(others.len() as u64) as usize]
        };
        if full {
            let mut checked = game.clone();
            checked
                .apply(&pick)
                .unwrap_or_else(|e| panic!("{pick}: {e} in {text}"));
            game.apply_unchecked(&pick);
            assert_eq!(checked, game);
        } else {
            game.apply(&pick)
                .unwrap_or_else(|e| panic!("seed {seed}: {pick}: {e} in {text}"));
        }
        let verb = pick.to_string();
        let verb = verb.split('@').next().unwrap_or_default().to_owned();
        *stats.played.entry(verb).or_default() += 1;
        if game.pieces().len() < pieces_before {
            stats.falls += 1;
        }
    }
    stats.unfinished += 1;
}

fn run(scenario: ScenarioId, games: u64, max_plies: usize, full: bool) {
    let var = format!("COVENANT_PLAYOUTS_{}", scenario.as_str().to_uppercase());
    let games = std::env::var(&var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(games);
    let options = CovenantOptions::with_scenario(scenario);
    let mut stats = Stats::default();
    // The light games use other seeds than the fully checked ones.
    let first = if full { 0 } else { 1_000_000 };
    for seed in first..first + games {
        playout(&options, seed, max_plies, full, &mut stats);
    }
    eprintln!("{scenario}: {stats:?}");
}

#[test]
fn random_games_on_arena() {
    run(ScenarioId::Arena, 100, 4000, true);
}

#[test]
fn random_games_on_crossroads() {
    run(ScenarioId::Crossroads, 100, 4000, true);
}

#[test]
fn random_games_on_pilgrimage() {
    run(ScenarioId::Pilgrimage, 60, 6000, true);
}

/// Thousands of games on each scenario (issue 6), with the per-ply checks
/// that cost little: no panic, position text round-trips, every game ends
/// in a result of the book or reaches the ply cap.
#[test]
fn a_thousand_light_games_on_each_scenario() {
    run(ScenarioId::Arena, 1000, 2000, false);
    run(ScenarioId::Crossroads, 1000, 2000, false);
    run(ScenarioId::Pilgrimage, 1000, 2000, false);
}

#[test]
fn random_games_under_the_other_options() {
    let mut options = CovenantOptions::with_scenario(ScenarioId::Crossroads);
    options.set("wrath", "7").unwrap();
    options.set("curse-wall", "spares").unwrap();
    options.set("sacrifice", "spares").unwrap();
    let mut stats = Stats::default();
    for seed in 0..40 {
        playout(&options, 1000 + seed, 4000, true, &mut stats);
    }
    eprintln!("other options: {stats:?}");
}
