//! Seeded random games in both modes: nothing panics, the `Game` contract
//! holds every ply, the position text round-trips every ply, chance outcomes
//! sum to one, and illegal actions are refused without changing anything.

mod common;

use tabula_core::{ChanceModel, EndReason, Game, GameRng, Probability, Seed, ToAct};
use tabula_skirmish::{
    Checkers, Dice, KingCaptures, Mode, Relocation, Sequential, Skirmish, SkirmishAction,
    SkirmishOptions, TieRule,
};

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    over: std::collections::BTreeMap<String, usize>,
    unfinished: usize,
    rolls: usize,
    givens: usize,
    choices: usize,
    tacticals: usize,
    divided: usize,
}

/// Some action texts that are usually illegal, to check refusals.
const PROBES: [&str; 8] = [
    "e2e4",
    "end",
    "stay",
    "arrive",
    "given",
    "roll:1-1",
    "hit:e5",
    "div:d4:c5,e5",
];

fn check_ply(game: &Skirmish, seed: u64, ply: usize, rng: &mut GameRng, deep: bool) {
    let ctx = || format!("seed {seed} ply {ply}: {}", game.to_text());
    let text = game.to_text();
    let back =
        Skirmish::from_text(&text, game.options()).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
    assert_eq!(&back, game, "{}", ctx());
    assert_eq!(back.to_text(), text, "{}", ctx());
    if ply.is_multiple_of(16) {
        // The text carries its options: the default options read it too.
        let with_default = Skirmish::from_text(&text, &SkirmishOptions::default()).unwrap();
        assert_eq!(&with_default, game, "{}", ctx());
    }

    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    match game.to_act() {
        ToAct::Player { .. } => assert!(!legal.is_empty(), "{}", ctx()),
        _ => assert!(legal.is_empty(), "{}", ctx()),
    }
    match (game.to_act(), game.chance()) {
        (ToAct::Chance, ChanceModel::Exact(outcomes)) => {
            let total: Probability = outcomes.iter().map(|(_, p)| *p).sum();
            assert_eq!(total, Probability::ONE, "{}", ctx());
            for (a, _) in outcomes.iter().take(3) {
                assert_eq!(
                    game.parse_action(&a.to_string()).as_ref(),
                    Ok(a),
                    "{}",
                    ctx()
                );
            }
        }
        (ToAct::Chance, other) => panic!("chance node without exact outcomes {other:?}: {}", ctx()),
        (_, ChanceModel::NotChance) => {}
        (_, other) => panic!("not a chance node, yet {other:?}: {}", ctx()),
    }
    // Notation: on deep plies every action's notation is distinct (so each
    // reads back as itself); one action a ply is read back.
    if deep {
        let notations: std::collections::HashSet<String> =
            legal.iter().map(|a| game.action_notation(a)).collect();
        assert_eq!(notations.len(), legal.len(), "{}", ctx());
    }
    if let Some(a) = rng.choose(&legal) {
        let canonical = a.to_string();
        assert_eq!(
            canonical.parse::<SkirmishAction>().as_ref(),
            Ok(a),
            "{}",
            ctx()
        );
        let notation = game.action_notation(a);
        assert_eq!(
            game.parse_action(&notation).as_ref(),
            Ok(a),
            "{notation}: {}",
            ctx()
        );
        assert_eq!(game.parse_action(&canonical).as_ref(), Ok(a), "{}", ctx());
    }
    // Refusals change nothing (one probe a ply, in rotation).
    {
        let probe = PROBES[ply % PROBES.len()];
        let a: SkirmishAction = probe.parse().unwrap();
        let legal_now = legal.contains(&a)
            || matches!(game.chance(), ChanceModel::Exact(ref v) if v.iter().any(|(x, _)| *x == a));
        if !legal_now {
            let mut copy = game.clone();
            assert!(copy.apply(&a).is_err(), "{probe} accepted: {}", ctx());
            assert_eq!(&copy, game, "{}", ctx());
        }
    }
}

fn run(options: SkirmishOptions, games: u64, max_plies: usize, first_seed: u64, stats: &mut Stats) {
    for seed in first_seed..first_seed + games {
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut game = Skirmish::new(&options);
        let mut record = Vec::new();
        let mut ply = 0;
        while game.to_act().outcome().is_none() && ply < max_plies {
            check_ply(&game, seed, ply, &mut rng, seed % 50 == 0);
            let action = match game.to_act() {
                ToAct::Chance => {
                    let a = game.sample_chance(&mut rng).expect("a chance node samples");
                    if a == SkirmishAction::Given {
                        stats.givens += 1;
                    } else {
                        stats.rolls += 1;
                    }
                    a
                }
                _ => {
                    let mut legal = Vec::new();
                    game.legal_actions(&mut legal);
                    *rng.choose(&legal).expect("a player has an action")
                }
            };
            match action {
                SkirmishAction::Stay | SkirmishAction::Take { .. } => stats.choices += 1,
                SkirmishAction::Tactical { .. } => stats.tacticals += 1,
                SkirmishAction::Divided { .. } => stats.divided += 1,
                _ => {}
            }
            let mut unchecked = game.clone();
            unchecked.apply_unchecked(&action);
            game.apply(&action)
                .unwrap_or_else(|e| panic!("seed {seed} ply {ply}: {action}: {e}"));
            assert_eq!(unchecked, game, "seed {seed} ply {ply}");
            record.push(action);
            ply += 1;
        }
        check_ply(&game, seed, ply, &mut rng, false);
        // Replaying the record reaches the same state, with no dice.
        let mut replay = Skirmish::new(&options);
        for a in &record {
            replay.apply(a).unwrap();
        }
        assert_eq!(replay, game, "seed {seed}");
        stats.games += 1;
        stats.plies += ply;
        match game.outcome() {
            Some(o) => *stats.over.entry(format!("{:?}", o.reason)).or_default() += 1,
            None => stats.unfinished += 1,
        }
    }
}

#[test]
fn basic_random_games_never_panic_and_round_trip_every_ply() {
    let mut stats = Stats::default();
    run(SkirmishOptions::default(), 1000, 600, 1, &mut stats);
    eprintln!("{stats:?}");
    assert!(stats.over.get("Checkmate").copied().unwrap_or(0) > 0);
    assert!(stats.choices > 0 && stats.rolls > 0 && stats.givens > 0);
}

#[test]
fn advanced_random_games_never_panic_and_round_trip_every_ply() {
    let mut stats = Stats::default();
    run(SkirmishOptions::advanced(), 1000, 600, 10_001, &mut stats);
    eprintln!("{stats:?}");
    assert!(stats.tacticals > 0 && stats.divided > 0 && stats.choices > 0);
}

#[test]
fn random_games_under_every_house_rule() {
    let mut stats = Stats::default();
    let variants = [
        SkirmishOptions {
            ties: TieRule::Reroll,
            dice: Dice::new(2, 6).unwrap(),
            attack_bonus: -2,
            ..SkirmishOptions::default()
        },
        SkirmishOptions {
            mode: Mode::Advanced,
            ties: TieRule::Attacker,
            king_captures: KingCaptures::Skirmish,
            checkers: Checkers::Strongest,
            sequential: Sequential::Flat,
            relocation: Relocation::Reachable,
            attack_bonus: 3,
            king_value: tabula_skirmish::KingValue::new(9).unwrap(),
            ..SkirmishOptions::default()
        },
        SkirmishOptions {
            mode: Mode::Advanced,
            ties: TieRule::Reroll,
            dice: Dice::new(1, 2).unwrap(),
            attack_bonus: 0,
            ..SkirmishOptions::default()
        },
        SkirmishOptions {
            king_captures: KingCaptures::Skirmish,
            king_value: tabula_skirmish::KingValue::new(1).unwrap(),
            ..SkirmishOptions::default()
        },
    ];
    for (i, options) in variants.into_iter().enumerate() {
        run(options, 150, 500, 50_000 + 1000 * i as u64, &mut stats);
    }
    eprintln!("{stats:?}");
    let _ = EndReason::KingCaptured;
}
