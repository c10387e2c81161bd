//! The fixed baselines every level is measured against.

use tabula_core::{ChanceModel, Game, GameRng, Player};

use crate::eval::{Evaluate, score};

/// Samples a sampled chance node is averaged over.
const SAMPLES: usize = 8;

/// Uniform over the legal actions; `None` when `me` is not to act.
pub fn random<G: Game>(game: &G, me: Player, rng: &mut GameRng) -> Option<G::Action> {
    if game.to_act().player() != Some(me) {
        return None;
    }
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    rng.choose(&legal).cloned()
}

/// One decision of lookahead: the action whose result the evaluation likes
/// best for `me`'s team, a chance node valued by its expectation (exact
/// probabilities where listed, else the mean of a few draws). Ties break at
/// random. It looks at one world drawn from what `me` may see.
pub fn greedy<G: Evaluate>(game: &G, me: Player, rng: &mut GameRng) -> Option<G::Action> {
    if game.to_act().player() != Some(me) {
        return None;
    }
    let team = game.seating().team(me)?;
    let world = if G::HIDDEN_INFORMATION {
        game.determinize(me, rng)
    } else {
        game.clone()
    };
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut best: Vec<&G::Action> = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    for action in &legal {
        let mut after = world.clone();
        if after.apply(action).is_err() {
            continue;
        }
        let value = match after.chance() {
            ChanceModel::NotChance => score(&after, team),
            ChanceModel::Exact(outcomes) => outcomes
                .iter()
                .map(|(o, p)| {
                    let mut next = after.clone();
                    next.apply_unchecked(o);
                    p.to_f64() * score(&next, team)
                })
                .sum(),
            ChanceModel::Sampled => {
                let mut sum = 0.0;
                for _ in 0..SAMPLES {
                    let mut next = after.clone();
                    if let Some(o) = next.sample_chance(rng) {
                        next.apply_unchecked(&o);
                    }
                    sum += score(&next, team);
                }
                sum / SAMPLES as f64
            }
        };
        if value > best_value + 1e-12 {
            best_value = value;
            best.clear();
            best.push(action);
        } else if (value - best_value).abs() <= 1e-12 {
            best.push(action);
        }
    }
    match rng.choose(&best) {
        Some(a) => Some((*a).clone()),
        None => rng.choose(&legal).cloned(),
    }
}
