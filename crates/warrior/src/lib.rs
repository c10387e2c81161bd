//! Warrior Chess, the rules engine.
//!
//! Justin Bridges' chess variant for two players, or four in two teams: the
//! board starts with the Kings alone; each turn a player collects money ($1
//! per occupied square and per captured Warrior stacked under their pieces,
//! never above $12), makes one movement (drops a Warrior for $1, moves, or
//! captures), may drop Reserve Warriors free, may arm Warriors with weapons
//! from the Reserve (Rook, Knight, Bishop, Swords, at most two each), and may
//! buy weapons and Warriors for the Reserve. Capturing a King wins. The book
//! is `shared/rules/warrior-chess.txt`; the readings taken where it is silent
//! are in `docs/rules/warrior.md`.
//!
//! Each phase is a sequence of actions ([`Action`]); an optional phase ends
//! with [`Action::End`], and a phase that offers nothing but ending it is
//! skipped.
//! Resigning is not an action: the table offers it for every game.
//!
//! The table protocol (gestures, holdings, the Reserve and Bank zones,
//! events, the catalog) is documented in the `protocol` module and in
//! `docs/rules/warrior.md`; the JSON form of an action is in [`Action`]'s
//! documentation.
//!
//! ```
//! use tabula_core::Game;
//! use tabula_warrior::{Warrior, WarriorOptions};
//!
//! let mut game = Warrior::new(&WarriorOptions::default());
//! assert_eq!(
//!     game.to_text(),
//!     "3BK4/8/8/8/8/8/8/4RK3 R move 1,1 -,- W8r3n2b3s4,W8r3n2b3s4 -,- - 0"
//! );
//! // Red drops a Warrior for $1; with nothing in the Reserve and no money
//! // left, the optional phases are skipped and Blue collects $1.
//! let drop = game.parse_action("W@e2").unwrap();
//! game.apply(&drop).unwrap();
//! assert_eq!(
//!     game.to_text(),
//!     "3BK4/8/8/8/8/8/4RW3/4RK3 B move 0,2 -,- W7r3n2b3s4,W8r3n2b3s4 -,- - 0"
//! );
//! ```

mod action;
mod game;
mod options;
mod protocol;
mod state;
mod text;
mod types;

pub use action::{Action, ActionParseError, Purchase};
pub use game::{ActionError, BankView, PieceView, PlayerView, StackView, WarriorView};
pub use options::{FiftyMoves, NoMovement, Players, WarriorOptions};
pub use protocol::{BANK, RESERVE, bank_item, facing_id, piece_id, weapon_id};
pub use state::{Illegal, Warrior};
pub use text::{Field, PositionError};
pub use types::{
    Army, BadSquare, Bank, Ending, Facing, Issue, Money, NewStock, Phase, Piece, PieceKind,
    Reserve, Square, Stack, Weapon, Weapons,
};
