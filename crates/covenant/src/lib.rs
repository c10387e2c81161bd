//! Covenant Chess, the rules engine.
//!
//! A hex wargame for two armies, Gold and Blue: pieces with Attack, Defence,
//! Blood and Speed walk with movement points over open ground, forest, hills
//! and desert, strike, shoot and cast holy strikes, and earn Grails in Holy
//! Cities to recruit more. The book is `shared/rules/covenant-chess.txt`; the
//! piece table and the scenarios are data (`data/*.toml`, embedded); the
//! decisions taken where the book is silent or ambiguous are in
//! `docs/rules/covenant.md`.
//!
//! ```
//! use tabula_core::{Game, Options};
//! use tabula_covenant::{Covenant, CovenantOptions};
//!
//! let mut options = CovenantOptions::default();
//! options.set("scenario", "crossroads").unwrap();
//! let mut game = Covenant::new(&options);
//! assert!(game.to_text().starts_with("crossroads g 1 0 3/4 - - "));
//! for action in game.parse_actions("act@g1 move@g3 end-act end-turn").unwrap() {
//!     game.apply(&action).unwrap();
//! }
//! assert_eq!(game.player_name(game.to_act().player().unwrap()), "Blue");
//! ```

mod action;
mod data;
mod game;
mod hex;
mod options;
mod protocol;
mod scenario;
mod side;
mod state;
mod text;

pub use action::{Action, ActionError, Illegal, MAX_SWEEP, Targets};
pub use data::{
    Aura, DataError, HolyStrike, Kind, MAX_REACH, MAX_TYPES, PIECES_TOML, PieceTable, PieceType,
    Powers, Ranged, RuleNumbers, Sacrifice, Wrath,
};
pub use game::{CovenantView, ViewActive, ViewPiece};
pub use hex::{BadHex, Hex, MAX_COLUMNS, MAX_ROWS};
pub use options::{CovenantOptions, WrathDamage};
pub use protocol::RECRUITS;
pub use scenario::{Army, Scenario, ScenarioError, ScenarioId, Terrain, UnknownScenario};
pub use side::Side;
pub use state::{Active, Covenant, Forecast, MAX_GRAILS, Piece, Step};
pub use text::{Field, PositionError};
