//! Helpers shared by the rule tests: positions on the Arena field (open 9x9,
//! forest c4, hill e4, desert g4, Holy City e7 with e6, e8, d6, d7, f6, f7).

#![allow(dead_code)]

use tabula_core::{Game, Options};
use tabula_covenant::{Action, ActionError, Covenant, CovenantOptions, Hex, Illegal, ScenarioId};

/// The two Kings, far (7+ tiles) from the test ground in rows 1-5.
pub const KINGS: &str = "gKi@a9,bKi@i9";

pub fn options() -> CovenantOptions {
    CovenantOptions::with_scenario(ScenarioId::Arena)
}

pub fn options_with(key: &str, value: &str) -> CovenantOptions {
    let mut o = options();
    o.set(key, value).unwrap();
    o
}

/// A position on the Arena, round 1, 10 Grails each, `side` to move.
pub fn arena(side: &str, pieces: &str) -> Covenant {
    arena_with(&options(), side, pieces)
}

pub fn arena_with(options: &CovenantOptions, side: &str, pieces: &str) -> Covenant {
    let text = format!("arena {side} 1 0 10/10 - - {pieces}");
    Covenant::from_text(&text, options).unwrap_or_else(|e| panic!("{e}: {text}"))
}

pub fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// Plays space-separated actions, each checked.
pub fn play(game: &mut Covenant, actions: &str) {
    for word in actions.split_whitespace() {
        let action = game
            .parse_action(word)
            .unwrap_or_else(|e| panic!("{word}: {e}\nin {}", game.to_text()));
        game.apply(&action).unwrap();
    }
}

/// The Blood of the piece on `hex`, or 0 if nobody stands there.
pub fn blood(game: &Covenant, hex: &str) -> u8 {
    game.piece_at(h(hex)).map_or(0, |p| p.blood)
}

/// The reason `action` is refused; checks the state did not change.
pub fn refused(game: &Covenant, action: &str) -> Illegal {
    let a: Action = action.parse().unwrap();
    let mut copy = game.clone();
    let err = copy.apply(&a).unwrap_err();
    assert_eq!(&copy, game, "{action} changed the state");
    assert!(game.parse_action(action).is_err());
    match err {
        ActionError::Illegal { reason, .. } => reason,
        other => panic!("{action}: {other}"),
    }
}

pub fn legal(game: &Covenant) -> Vec<String> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out.iter().map(ToString::to_string).collect()
}
