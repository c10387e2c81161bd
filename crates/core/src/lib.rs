//! The vocabulary every tabula game shares.
//!
//! A game crate (chess, epoch, skirmish, warrior, covenant, lytharia) implements
//! [`Game`]; the computer opponents, the store, the server and the command line
//! work through that trait (generic code) or through a runtime enum built on it,
//! without knowing which game they hold.
//!
//! The model, in one paragraph: a game state says who decides next
//! ([`ToAct`]): a seated [`Player`], chance, or nobody because the game is
//! [`Outcome`]-over. Every atomic decision, including each chance outcome (a die
//! roll, a shuffle), is an action of the game's own action type. Applying the
//! same actions to the same start therefore replays a game exactly, and a
//! record never rolls dice again. Chance outcomes come with exact
//! [`Probability`] values where they can be listed, and are drawn from the
//! seeded [`GameRng`] otherwise.
//!
//! ```
//! use tabula_core::{GameRng, Probability, Seed};
//!
//! let mut rng = GameRng::from_seed(Seed(7));
//! let roll = rng.roll(6);
//! assert!((1..=6).contains(&roll));
//! assert_eq!(Probability::new(6, 36).unwrap().to_string(), "1/6");
//! ```

mod game;
mod id;
mod options;
mod outcome;
pub mod perft;
mod player;
mod prob;
pub mod protocol;
mod rng;

pub use game::{ChanceModel, Game, ToAct, Viewer};
pub use id::{GameId, UnknownGame};
pub use options::{OptionError, OptionSpec, Options};
pub use outcome::{EndReason, GameResult, Outcome};
pub use player::{Player, Seating, Team};
pub use prob::{Probability, ProbabilityError};
pub use rng::{GameRng, Seed};

/// Gives an action type the JSON form of its canonical text (a JSON string),
/// through its `Display` and `FromStr`.
#[macro_export]
macro_rules! serde_as_text {
    ($t:ty) => {
        impl ::serde::Serialize for $t {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $t {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <String as ::serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}
