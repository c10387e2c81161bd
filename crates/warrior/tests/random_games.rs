//! Seeded random games, two- and four-player: the conservation invariants
//! hold every ply, nothing panics, the position text round-trips, notation
//! round-trips, `apply` and `apply_unchecked` agree, and illegal actions are
//! refused without changing anything.

mod common;

use tabula_core::{Game, GameRng, Seed, ToAct};
use tabula_warrior::{
    Action, Army, Ending, Facing, FiftyMoves, Issue, Money, NoMovement, Phase, Purchase, Square,
    Warrior, WarriorOptions, Weapon, Weapons,
};

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    king_captured: usize,
    fifty: usize,
    claimed: usize,
    no_movement: usize,
    passes: usize,
    unfinished: usize,
    captures: usize,
    armings: usize,
    bonus_drops: usize,
    reissued_buys: usize,
}

fn check_invariants(game: &Warrior, seed: u64, ply: usize) {
    for army in game.armies() {
        let (warriors, weapons) = game.equipment(army);
        assert_eq!(
            warriors,
            8,
            "seed {seed} ply {ply} {army}: {}",
            game.to_text()
        );
        assert_eq!(
            weapons,
            Weapons::FULL_SET,
            "seed {seed} ply {ply} {army}: {}",
            game.to_text()
        );
        assert!(game.money(army).0 <= Money::CAP, "seed {seed} ply {ply}");
    }
    for (_, p) in game.pieces() {
        assert!(p.weapons.total() <= 2);
        assert_eq!(p.facing.is_some(), p.has_single_swords());
    }
}

fn random_action(rng: &mut GameRng) -> Action {
    let sq = |rng: &mut GameRng| {
        Square::from_index(rng.below(64) as usize).unwrap_or(Square::at(0, 0).unwrap())
    };
    let facing = |rng: &mut GameRng| match rng.below(5) {
        0 => None,
        k => Some(Facing::ALL[k as usize - 1]),
    };
    match rng.below(10) {
        0 => Action::Drop { to: sq(rng) },
        1 => Action::Move {
            from: sq(rng),
            to: sq(rng),
            facing: facing(rng),
        },
        2 => Action::Capture {
            from: sq(rng),
            to: sq(rng),
            facing: facing(rng),
        },
        3 => Action::BonusDrop { to: sq(rng) },
        4 => Action::Arm {
            weapon: Weapon::ALL[rng.below(4) as usize],
            on: sq(rng),
            facing: facing(rng),
        },
        5 => Action::Buy {
            item: match rng.below(3) {
                0 => Purchase::Warrior,
                1 => Purchase::Weapon(Weapon::ALL[rng.below(4) as usize], Issue::New),
                _ => Purchase::Weapon(Weapon::ALL[rng.below(4) as usize], Issue::Reissued),
            },
        },
        6 => Action::End,
        7 => Action::Pass,
        8 => Action::ClaimDraw,
        _ => Action::Move {
            from: sq(rng),
            to: sq(rng),
            facing: None,
        },
    }
}

/// How the random player chooses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    /// Captures half the time, otherwise uniformly.
    Aggressive,
    /// Never drops or captures when anything else is possible: long games
    /// that reach the fifty-moves rule and blocked positions.
    Peaceful,
}

fn playout(
    seed: u64,
    options: &WarriorOptions,
    policy: Policy,
    max_plies: usize,
    deep: bool,
    stats: &mut Stats,
) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let mut game = Warrior::new(options);
    let mut actions = Vec::new();
    stats.games += 1;
    for ply in 0..max_plies {
        check_invariants(&game, seed, ply);
        let text = game.to_text();
        let back = Warrior::from_text(&text, options)
            .unwrap_or_else(|e| panic!("seed {seed} ply {ply}: {e}\n{text}"));
        assert_eq!(back, game, "seed {seed} ply {ply}: {text}");
        assert_eq!(back.to_text(), text);

        game.legal_actions(&mut actions);
        match game.to_act() {
            ToAct::Over { outcome } => {
                assert!(actions.is_empty());
                match game.phase() {
                    Phase::Over(Ending::KingCaptured) => stats.king_captured += 1,
                    Phase::Over(Ending::FiftyMoves) => stats.fifty += 1,
                    Phase::Over(Ending::DrawClaimed) => stats.claimed += 1,
                    Phase::Over(Ending::NoMovement) => stats.no_movement += 1,
                    other => panic!("seed {seed}: unexpected end {other:?}"),
                }
                assert_eq!(
                    outcome.winner.is_none(),
                    matches!(
                        game.phase(),
                        Phase::Over(Ending::FiftyMoves | Ending::DrawClaimed)
                    )
                );
                return;
            }
            ToAct::Player { player } => {
                assert!(!actions.is_empty(), "seed {seed} ply {ply}");
                assert_eq!(player.index(), game.to_move().index());
            }
            ToAct::Chance => panic!("no chance in Warrior Chess"),
        }
        for a in &actions {
            assert_eq!(a.to_string().parse::<Action>().as_ref(), Ok(a), "{a}");
        }
        if deep {
            for a in &actions {
                let n = game.action_notation(a);
                assert_eq!(game.parse_action(&n).as_ref(), Ok(a), "{n} in {text}");
            }
        }

        // An arbitrary action: refused unchanged unless it is legal. Forced
        // through `apply_unchecked` it may leave nonsense, but never panics.
        let probe = random_action(&mut rng);
        let mut wild = game.clone();
        wild.apply_unchecked(&probe);
        let _ = (wild.to_text(), wild.to_act());
        wild.legal_actions(&mut Vec::new());
        let mut copy = game.clone();
        match copy.apply(&probe) {
            Ok(()) => assert!(actions.contains(&probe), "{probe} accepted in {text}"),
            Err(_) => {
                assert!(!actions.contains(&probe), "{probe} refused in {text}");
                assert_eq!(copy, game, "refusing {probe} changed the state");
            }
        }

        // Captures half the time.
        let captures: Vec<Action> = actions
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Capture { .. }))
            .collect();
        let quiet: Vec<Action> = actions
            .iter()
            .copied()
            .filter(|a| {
                !matches!(
                    a,
                    Action::Capture { .. }
                        | Action::Drop { .. }
                        | Action::BonusDrop { .. }
                        | Action::ClaimDraw
                )
            })
            .collect();
        let pick = if policy == Policy::Peaceful
            && actions.contains(&Action::ClaimDraw)
            && rng.below(4) == 0
        {
            Action::ClaimDraw
        } else if policy == Policy::Peaceful && !quiet.is_empty() && rng.below(200) != 0 {
            quiet[rng.below(quiet.len() as u64) as usize]
        } else if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len() as u64) as usize]
        } else {
            actions[rng.below(actions.len() as u64) as usize]
        };
        match pick {
            Action::Capture { .. } => stats.captures += 1,
            Action::Arm { .. } => stats.armings += 1,
            Action::BonusDrop { .. } => stats.bonus_drops += 1,
            Action::Pass => stats.passes += 1,
            Action::Buy {
                item: Purchase::Weapon(_, Issue::Reissued),
            } => stats.reissued_buys += 1,
            _ => {}
        }
        let mut checked = game.clone();
        checked
            .apply(&pick)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        game.apply_unchecked(&pick);
        assert_eq!(
            checked, game,
            "apply and apply_unchecked disagree on {pick}"
        );
        stats.plies += 1;
    }
    stats.unfinished += 1;
}

fn games(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn two_player_random_games_keep_every_invariant() {
    let options = WarriorOptions::default();
    let mut stats = Stats::default();
    for seed in 0..games("WARRIOR_GAMES_2", 2000) {
        playout(
            seed,
            &options,
            Policy::Aggressive,
            3000,
            seed % 10 == 0,
            &mut stats,
        );
    }
    eprintln!("{stats:?}");
    assert_eq!(stats.unfinished, 0);
    assert!(stats.captures > 0 && stats.armings > 0 && stats.bonus_drops > 0);
    assert!(stats.king_captured > 0 && stats.reissued_buys > 0);
}

#[test]
fn four_player_random_games_keep_every_invariant() {
    let options = WarriorOptions::doubles();
    let mut stats = Stats::default();
    for seed in 0..games("WARRIOR_GAMES_4", 2000) {
        playout(
            1_000_000 + seed,
            &options,
            Policy::Aggressive,
            4000,
            seed % 10 == 0,
            &mut stats,
        );
    }
    eprintln!("{stats:?}");
    assert_eq!(stats.unfinished, 0);
    assert!(stats.captures > 0 && stats.armings > 0 && stats.bonus_drops > 0);
    assert!(stats.king_captured > 0 && stats.reissued_buys > 0);
}

/// Long quiet games under every option: the fifty-moves draw (automatic
/// and claimed), blocked players, doubled weapons.
#[test]
fn long_quiet_random_games_under_every_option_keep_every_invariant() {
    let mut stats = Stats::default();
    for seed in 0..games("WARRIOR_GAMES_QUIET", 300) {
        let mut options = if seed % 2 == 0 {
            WarriorOptions::default()
        } else {
            WarriorOptions::doubles()
        };
        options.fifty_moves = match seed % 3 {
            0 => FiftyMoves::Auto,
            1 => FiftyMoves::Claim,
            _ => FiftyMoves::Off,
        };
        options.no_movement = if seed % 5 == 0 {
            NoMovement::Lose
        } else {
            NoMovement::Pass
        };
        options.duplicate_weapons = seed % 7 < 3;
        playout(
            2_000_000 + seed,
            &options,
            Policy::Peaceful,
            20_000,
            seed % 25 == 0,
            &mut stats,
        );
    }
    eprintln!("{stats:?}");
    assert_eq!(stats.unfinished, 0);
    assert!(stats.fifty > 0 && stats.claimed > 0);
}

#[test]
fn armies_in_play_are_listed_in_seat_order() {
    let g = Warrior::new(&WarriorOptions::doubles());
    assert_eq!(
        g.armies().collect::<Vec<_>>(),
        [Army::Red, Army::Blue, Army::Green, Army::Yellow]
    );
}
