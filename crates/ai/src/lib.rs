//! Computer opponents for every tabula game.
//!
//! The search is Monte Carlo tree search (UCT with a progressive bias from
//! the game's evaluation) over the atomic actions of [`tabula_core::Game`],
//! monomorphised per game. Each game brings its knowledge through
//! [`Evaluate`]: an estimate of who is ahead, so playouts can stop after a few
//! plies instead of running to the end (uniformly random Covenant games
//! almost never end). Chance nodes draw outcomes by their exact probabilities
//! and merge outcomes that reach the same state ([`tabula_core::Game::key`]); multi-decision
//! turns and team games need nothing special, since every node backs up the
//! score of every team and each decider maximises its own team's. Where a
//! turn is many decisions deep (Warrior, Covenant) a new leaf first plays the
//! rest of its team's turn greedily, and Covenant's action values lean on the
//! best line below them (implicit minimax). Several threads search
//! independent trees whose root statistics are summed (root parallelism).
//!
//! Hidden information: the search only ever sees worlds drawn with
//! [`tabula_core::Game::determinize`] from the deciding seat's point of view, one per
//! iteration, sharing one tree keyed by actions (single-observer information
//! set MCTS); legal actions are read from each world.
//!
//! Chess and Chess 13: Epoch, deterministic and fully visible, get an
//! alpha-beta engine instead at `hard` and `expert` ([`alphabeta`]).
//!
//! [`Level`] names the strengths: `random` and `greedy` are the fixed
//! baselines, `easy`, `medium`, `hard` and `expert` are search budgets
//! (docs/ai.md).
//!
//! ```
//! use tabula_ai::{Level, choose};
//! use tabula_core::{GameId, GameRng, Player, Seed};
//! use tabula_games::AnyGame;
//!
//! let game = AnyGame::new(GameId::Chess, &[]).unwrap();
//! let mut rng = GameRng::from_seed(Seed(1));
//! let action = choose(&game, Player(0), Level::Easy, &mut rng).unwrap();
//! assert!(game.legal_actions().contains(&action));
//! ```

pub mod alphabeta;
mod any;
mod baseline;
mod eval;
mod level;
mod mcts;
pub mod uci;

pub use any::{
    Stats, choose, choose_on_threads, choose_with, evaluations_per_second, iterations_per_second,
    playouts_per_second,
};
pub use baseline::{greedy, random};
pub use eval::{Evaluate, score};
pub use level::{Budget, Choice, Level, UnknownLevel};
pub use mcts::{Search, SearchConfig, SearchReport};
