//! Information set MCTS against plain determinization, in Lytharian Chess
//! (the game with hidden cards), at an equal iteration budget.
//!
//! `cargo run --release -p tabula-ai --example worlds -- MODE GAMES ITERATIONS A_TREES B_TREES [SEED]`
//!
//! Side A searches `A_TREES` trees (root parallel), each drawing a fresh
//! world from what it may see at every iteration (single-observer
//! information set MCTS, what the levels play with one tree). Side B
//! searches `B_TREES` trees, each on one world drawn at its start
//! (determinization: `B_TREES` worlds, their root visits summed). Each side
//! shares `ITERATIONS` among its trees. Seats alternate; game `i` draws
//! chance from `SEED + i`. Prints A's score.

use tabula_ai::{Budget, Search, SearchConfig};
use tabula_core::{Game, GameId, GameRng, Seed, Team, ToAct};
use tabula_games::AnyGame;
use tabula_lytharia::Lytharia;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: worlds MODE GAMES ITERATIONS A_TREES B_TREES [SEED]";
    let mode = args.first().expect(usage).clone();
    let number = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{usage}"))
    };
    let (games, iterations) = (number(1), number(2) as u32);
    let (a_trees, b_trees) = (number(3) as u32, number(4) as u32);
    let seed = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(1u64);
    let config = |game: &Lytharia, determinized: bool| SearchConfig {
        threads: if determinized { 1 } else { a_trees },
        worlds: if determinized { b_trees } else { 0 },
        ..SearchConfig::for_game(
            game,
            Budget {
                iterations,
                time: None,
                depth: None,
            },
        )
    };
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for i in 0..games {
        let options = vec![("mode".to_owned(), mode.clone())];
        let AnyGame::Lytharia(mut game) = AnyGame::new(GameId::Lytharia, &options).expect("mode")
        else {
            unreachable!("a Lytharian table")
        };
        let a_team = Team((i % 2) as u8);
        let mut chance = GameRng::from_seed(Seed(seed + i));
        let mut rng = GameRng::from_seed(Seed((seed + i) ^ 0x0005_eed0_fa11));
        let mut plies = 0;
        let outcome = loop {
            if plies >= 3000 {
                break None;
            }
            let action = match game.to_act() {
                ToAct::Over { outcome } => break Some(outcome),
                ToAct::Chance => game.sample_chance(&mut chance).expect("chance outcome"),
                ToAct::Player { player } => {
                    let determinized = game.seating().team(player) != Some(a_team);
                    let (action, _) = Search::<Lytharia>::new(config(&game, determinized))
                        .choose(&game, player, &mut rng)
                        .expect("an action");
                    action
                }
            };
            game.apply(&action).expect("a legal action");
            plies += 1;
        };
        match outcome.map(|o| o.result_for_team(a_team).score()) {
            Some(s) if s > 0.75 => wins += 1,
            Some(s) if s < 0.25 => losses += 1,
            _ => draws += 1,
        }
        eprintln!("game {}: +{wins} ={draws} -{losses} ({plies} plies)", i + 1);
    }
    let score = (wins as f64 + draws as f64 / 2.0) / games as f64;
    println!(
        "information set MCTS ({a_trees} trees) vs determinization ({b_trees} worlds), {mode}, \
         {iterations} iterations: +{wins} ={draws} -{losses} of {games}, {:.1}%",
        score * 100.0
    );
}
