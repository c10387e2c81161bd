//! Prints one record per game from seeded random play, for `docs/records.md`:
//! `cargo run -p tabula-store --example records`.

use tabula_core::{GameId, GameRng, Player, Seed, ToAct};
use tabula_games::AnyGame;
use tabula_store::{Record, RecordedAction};

/// A game, its options, the seed, and how many actions at most.
type Example = (GameId, &'static [(&'static str, &'static str)], u64, usize);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: [Example; 7] = [
        (GameId::Chess, &[], 4, 24),
        (GameId::Epoch, &[], 1, 16),
        (GameId::Skirmish, &[], 3, 200),
        (GameId::Warrior, &[], 2, 24),
        (GameId::Warrior, &[("players", "4")], 2, 16),
        (GameId::Covenant, &[], 1, 16),
        (GameId::Lytharia, &[("mode", "duel")], 1, 24),
    ];
    for (id, options, seed, plies) in games {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let mut game = AnyGame::new(id, &options)?;
        let mut chance = GameRng::from_seed(Seed(seed));
        let mut choice = GameRng::from_seed(Seed(seed ^ 0x9E37_79B9_7F4A_7C15));
        let mut record = Record::new(id, options);
        record.seed = (id != GameId::Chess).then_some(Seed(seed));
        record.players = game
            .seating()
            .players()
            .map(|p| ["Ada", "Bo", "Cy", "Di"][p.index() % 4].to_owned())
            .collect();
        record.date = Some("2026.11.30".to_owned());
        let mut chance_seen = false;
        while record.actions.len() < plies {
            let action = match game.to_act() {
                ToAct::Over { .. } => break,
                ToAct::Chance => {
                    chance_seen = true;
                    game.sample_chance(&mut chance).ok_or("no chance outcome")?
                }
                ToAct::Player { .. } => {
                    let legal = game.legal_actions();
                    legal[choice.below(legal.len() as u64) as usize].clone()
                }
            };
            game.apply(&action.canonical)?;
            record.actions.push(RecordedAction::new(action.canonical));
            // Skirmish: stop soon after the first dice.
            if id == GameId::Skirmish && chance_seen && game.to_act().player().is_some() {
                break;
            }
        }
        println!("==== {id}\n{}", record.write()?);
        if id == GameId::Lytharia {
            println!("==== {id} seat 2\n{}", record.write_for(Player(1))?);
        }
    }
    Ok(())
}
