//! Helpers shared by the Skirmish chess tests.
#![allow(dead_code)]

use tabula_core::{ChanceModel, Game, ToAct};
use tabula_skirmish::{Skirmish, SkirmishAction, SkirmishOptions};

/// The game from a position text, under `options`.
pub fn game(text: &str, options: SkirmishOptions) -> Skirmish {
    Skirmish::from_text(text, &options).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Parses and applies each action in turn (any notation the game reads).
pub fn play(game: &mut Skirmish, actions: &[&str]) {
    for text in actions {
        let a = game
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
        game.apply(&a)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    }
}

/// The legal actions, canonical text.
pub fn legal(game: &Skirmish) -> Vec<String> {
    let mut v = Vec::new();
    game.legal_actions(&mut v);
    v.iter().map(|a| a.to_string()).collect()
}

/// The legal actions.
pub fn actions(game: &Skirmish) -> Vec<SkirmishAction> {
    let mut v = Vec::new();
    game.legal_actions(&mut v);
    v
}

/// The chance outcomes, canonical text, or empty.
pub fn outcomes(game: &Skirmish) -> Vec<String> {
    match game.chance() {
        ChanceModel::Exact(v) => v.iter().map(|(a, _)| a.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// Whether the game waits for dice.
pub fn is_chance(game: &Skirmish) -> bool {
    game.to_act() == ToAct::Chance
}
