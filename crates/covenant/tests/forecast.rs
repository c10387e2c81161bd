//! The view's predicted damage (`board.active.forecasts`) is what the attack
//! then does: over seeded random games on every scenario, each forecast is
//! played and the Blood of the foe and of the attacker compared before and
//! after.

use tabula_core::{Game, GameRng, Seed, ToAct, Viewer};
use tabula_covenant::{
    Action, Covenant, CovenantOptions, Forecast, Hex, PieceTable, ScenarioId, Side,
};

#[derive(Default)]
struct Seen {
    forecasts: usize,
    kills: usize,
    counters: usize,
    counter_kills: usize,
    fury: usize,
}

fn blood_at(game: &Covenant, at: Hex, side: Side) -> u8 {
    game.piece_at(at)
        .filter(|p| p.side == side)
        .map_or(0, |p| p.blood)
}

/// Plays `f` on a copy of `game` and checks that it did what was forecast.
fn check(game: &Covenant, f: &Forecast, seen: &mut Seen) {
    let text = game.to_text();
    let active = game.active().expect("a forecast needs an active piece");
    let attacker = *game.piece_at(active.at).expect("the active piece stands");
    let foe = *game.piece_at(f.target).expect("the foe stands");
    let action: Action = f.action.parse().expect("the forecast's notation reads");
    assert!(matches!(
        action,
        Action::Melee(t) | Action::Shoot(t) | Action::Holy(t) if t == f.target
    ));
    let mut after = game.clone();
    after
        .apply(&action)
        .unwrap_or_else(|e| panic!("{} in {text}: {e}", f.action));
    let foe_after = blood_at(&after, f.target, foe.side);
    assert_eq!(
        foe.blood - foe_after,
        f.damage,
        "{} in {text}: the foe's Blood lost",
        f.action
    );
    assert_eq!(
        foe_after == 0,
        f.kills,
        "{} in {text}: the foe falls",
        f.action
    );
    // The attacker's Blood changes only by the counter-blow, except a
    // Sacrifice paid at the end of the act (a melee blow ends it).
    let attacker_after = blood_at(&after, attacker.at, attacker.side);
    let lost = attacker.blood - attacker_after;
    let sacrifice = PieceTable::builtin()
        .get(attacker.kind)
        .powers
        .sacrifice
        .is_some();
    match f.counter_damage {
        Some(d) if sacrifice => assert!(lost >= d, "{} in {text}", f.action),
        Some(d) => assert_eq!(lost, d, "{} in {text}: the counter-blow", f.action),
        None if sacrifice => {}
        None => assert_eq!(lost, 0, "{} in {text}: no counter-blow", f.action),
    }
    if f.counter_kills {
        assert_eq!(
            attacker_after, 0,
            "{} in {text}: the attacker falls",
            f.action
        );
        seen.counter_kills += 1;
    }
    seen.forecasts += 1;
    seen.kills += usize::from(f.kills);
    seen.counters += usize::from(f.counter_damage.is_some());
    seen.fury += usize::from(f.blows > 1);
}

fn games(scenario: ScenarioId, count: u64, seen: &mut Seen) {
    let options = CovenantOptions::with_scenario(scenario);
    let mut actions = Vec::new();
    for seed in 0..count {
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut game = Covenant::new(&options);
        for _ in 0..1500 {
            if matches!(game.to_act(), ToAct::Over { .. }) {
                break;
            }
            game.legal_actions(&mut actions);
            let view = game.view(Viewer::Public);
            let forecasts = view.active.as_ref().map_or(&[][..], |a| &a.forecasts[..]);
            // Every melee blow, shot and holy strike has its forecast.
            let attacks = actions
                .iter()
                .filter(|a| matches!(a, Action::Melee(_) | Action::Shoot(_) | Action::Holy(_)))
                .count();
            assert_eq!(forecasts.len(), attacks, "{}", game.to_text());
            for f in forecasts {
                check(&game, f, seen);
            }
            // Prefer attacks so that games reach blows and falls.
            let hits: Vec<Action> = actions
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Melee(_) | Action::Shoot(_) | Action::Holy(_)))
                .collect();
            let roll = rng.below(10);
            let pick = if !hits.is_empty() && roll < 6 {
                hits[rng.below(hits.len() as u64) as usize]
            } else if roll == 9 {
                Action::EndTurn
            } else {
                actions[rng.below(actions.len() as u64) as usize]
            };
            game.apply(&pick).expect("a listed action");
        }
    }
}

#[test]
fn the_predicted_damage_is_what_the_attack_does() {
    let mut seen = Seen::default();
    for scenario in ScenarioId::ALL {
        games(scenario, 12, &mut seen);
    }
    // The games reached every kind of outcome the forecast tells.
    assert!(seen.forecasts > 500, "{} forecasts", seen.forecasts);
    assert!(seen.kills > 0 && seen.counters > 0 && seen.counter_kills > 0);
    assert!(seen.fury > 0, "no Berserker struck twice");
}
