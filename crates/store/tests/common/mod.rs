//! Seeded random games for the store's tests.
#![allow(dead_code)]

pub mod contract;

use tabula_core::{GameId, GameRng, Seed, ToAct};
use tabula_games::AnyGame;

/// A seeded random player of both sides and of chance: chance outcomes
/// drawn with `sample_chance` from the chance stream of `seed` (the record's
/// convention), player choices from a second stream.
pub struct RandomPlay {
    /// The state so far.
    pub game: AnyGame,
    chance: GameRng,
    choice: GameRng,
}

impl RandomPlay {
    /// A new game.
    pub fn new(id: GameId, options: &[(String, String)], seed: u64) -> Self {
        RandomPlay {
            game: AnyGame::new(id, options).expect("valid options"),
            chance: GameRng::from_seed(Seed(seed)),
            choice: GameRng::from_seed(Seed(seed ^ 0x9E37_79B9_7F4A_7C15)),
        }
    }

    /// Plays the next action and returns its canonical text; `None` once
    /// the game is over.
    pub fn step(&mut self) -> Option<String> {
        let action = match self.game.to_act() {
            ToAct::Over { .. } => return None,
            ToAct::Chance => self.game.sample_chance(&mut self.chance)?,
            ToAct::Player { .. } => {
                let legal = self.game.legal_actions();
                legal[self.choice.below(legal.len() as u64) as usize].clone()
            }
        };
        self.game.apply(&action.canonical).expect("legal");
        Some(action.canonical)
    }
}

/// Plays up to `max_plies` actions of a seeded random game; returns the
/// canonical actions and the final state.
pub fn random_game(
    id: GameId,
    options: &[(String, String)],
    seed: u64,
    max_plies: usize,
) -> (Vec<String>, AnyGame) {
    let mut play = RandomPlay::new(id, options, seed);
    let mut actions = Vec::new();
    while actions.len() < max_plies {
        match play.step() {
            Some(a) => actions.push(a),
            None => break,
        }
    }
    (actions, play.game)
}

/// A fresh directory under the system's temp dir.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "tabula-store-{name}-{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Options to test each game with, besides the default.
pub fn option_sets(id: GameId) -> Vec<Vec<(String, String)>> {
    let pair = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    match id {
        GameId::Warrior => vec![vec![], pair("players", "4")],
        GameId::Skirmish => vec![vec![], pair("mode", "advanced")],
        GameId::Chess => vec![vec![], pair("draw-rules", "fide")],
        GameId::Lytharia => vec![vec![], pair("mode", "duel")],
        _ => vec![vec![]],
    }
}
