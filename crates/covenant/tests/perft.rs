//! The number of action sequences from the quick scenario's start, pinned as
//! a regression guard for move generation. The independent reference in
//! `tests/reference/` counts the same four figures
//! (`differential::reference_perft_from_the_crossroads_start`).

use tabula_core::{Game, perft};
use tabula_covenant::{Covenant, CovenantOptions, ScenarioId};

#[test]
fn perft_from_the_crossroads_start() {
    let game = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
    let counts: Vec<u64> = (1..=4).map(|d| game.perft(d)).collect();
    assert_eq!(counts, [36, 687, 14391, 257805]);
    let divide = perft::divide(&game, 2);
    assert_eq!(divide.len(), 36);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 687);
    // Ending the turn at once hands Blue 50 choices: 7 activations, end
    // turn, and with its extra Grail (4) 21 kinds (all but the King and the
    // Heir it has) on 2 free hexes beside its royals (d8, g8).
    let end = divide.iter().find(|(a, _)| a == "end-turn");
    assert_eq!(end, Some(&("end-turn".to_owned(), 50)), "{divide:?}");
}
