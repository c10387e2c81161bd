//! Prints the starting position text of every built-in scenario, and the
//! legal actions at the start of the quick one.

use tabula_core::Game;
use tabula_covenant::{Covenant, CovenantOptions, ScenarioId};

fn main() {
    for id in ScenarioId::ALL {
        let game = Covenant::new(&CovenantOptions::with_scenario(id));
        println!("{}", game.to_text());
    }
    let game = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    println!(
        "{} actions: {}",
        actions.len(),
        actions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
}
