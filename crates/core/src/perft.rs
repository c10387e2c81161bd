//! Counting the game tree, for correctness tables and speed figures.

use crate::{ChanceModel, Game, ToAct};

/// The number of leaves `depth` decisions below `game`, expanding every legal
/// action and every listed chance outcome. Sampled chance nodes and finished
/// games are leaves.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    count(game, depth, &mut buffers)
}

fn count<G: Game>(game: &G, depth: u32, buffers: &mut [Vec<G::Action>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((buffer, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    match game.to_act() {
        ToAct::Over { .. } => 0,
        ToAct::Chance => match game.chance() {
            ChanceModel::Exact(outcomes) => {
                if depth == 1 {
                    return outcomes.len() as u64;
                }
                outcomes
                    .iter()
                    .map(|(action, _)| {
                        let mut child = game.clone();
                        child.apply_unchecked(action);
                        count(&child, depth - 1, deeper)
                    })
                    .sum()
            }
            ChanceModel::Sampled | ChanceModel::NotChance => 1,
        },
        ToAct::Player { .. } => {
            game.legal_actions(buffer);
            if depth == 1 {
                return buffer.len() as u64;
            }
            let mut total = 0;
            for action in buffer.iter() {
                let mut child = game.clone();
                child.apply_unchecked(action);
                total += count(&child, depth - 1, deeper);
            }
            total
        }
    }
}

/// Perft split by first action: `(action in the game's notation, count)`.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut actions = Vec::new();
    match game.to_act() {
        ToAct::Player { .. } => game.legal_actions(&mut actions),
        ToAct::Chance => {
            if let ChanceModel::Exact(outcomes) = game.chance() {
                actions = outcomes.into_iter().map(|(a, _)| a).collect();
            }
        }
        ToAct::Over { .. } => {}
    }
    actions
        .iter()
        .map(|action| {
            let mut child = game.clone();
            child.apply_unchecked(action);
            let n = if depth <= 1 {
                1
            } else {
                child.perft(depth - 1)
            };
            (game.action_notation(action), n)
        })
        .collect()
}
