//! Lytharian Chess for tabula: troop cards that move as chess pieces, spells
//! and equipment paid with mana, an obelisk that raises the mana base, hidden
//! hands and face-down troops, and the three mini-games: Battle Duels, Pawn
//! Wars and Normal Chess with troop cards.
//!
//! The card set is data ([`cards`]: TOML files embedded in the crate and
//! validated on load); the rules engine ([`state`]) interprets the cards'
//! small effect language; [`Lytharia`] implements [`tabula_core::Game`].
//! The readings of what the book leaves open are in `docs/rules/lytharia.md`.
//!
//! ```
//! use tabula_core::{Game, GameRng, Seed, ToAct};
//! use tabula_lytharia::{Lytharia, LythariaOptions};
//!
//! let mut game = Lytharia::new(&LythariaOptions::default());
//! let mut rng = GameRng::from_seed(Seed(1));
//! // Setup starts with chance: the decks are shuffled.
//! assert_eq!(game.to_act(), ToAct::Chance);
//! let shuffle = game.sample_chance(&mut rng).unwrap();
//! game.apply(&shuffle).unwrap();
//! let text = game.to_text();
//! assert_eq!(Lytharia::from_text(&text, game.options()).unwrap(), game);
//! ```

pub mod action;
pub mod cards;
pub mod deck;
mod game;
pub mod options;
pub mod state;
mod table;

pub use action::{Action, ActionError, Sq};
pub use cards::{CardDb, CardError, CardId, card_db};
pub use deck::{DeckError, DeckList, starter_list, starter_lists};
pub use game::{
    ChessView, DuelSideView, DuelView, Lytharia, LythariaView, PositionError, SideView, UnitView,
};
pub use options::{KnightAttack, LythariaOptions, Mode};
pub use state::{Note, State};
pub use table::role_name;
