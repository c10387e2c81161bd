//! Chess 13: Epoch, the rules engine.
//!
//! A 13x13 chess variant with a command zone around each side's Marshal that
//! makes pieces enhanced or restricted, a blasting Mage, a passing Assassin,
//! a dormant Emperor, the Marshal's riposte, and promotion by trade. The book
//! is `shared/rules/chess13-epoch.txt`; the decisions taken where it is silent
//! are in `docs/rules/epoch.md`.
//!
//! ```
//! use tabula_core::Game;
//! use tabula_epoch::{Epoch, EpochOptions};
//!
//! let mut game = Epoch::new(&EpochOptions::default());
//! let mv = game.parse_action("g3g7").unwrap();
//! assert_eq!(game.action_notation(&mv), "g3-g7");
//! game.apply(&mv).unwrap();
//! assert!(game.to_text().ends_with(" 0 1 s"));
//! ```

mod game;
mod moves;
mod position;
mod table;
mod tables;
mod text;
mod types;
mod zobrist;

pub use game::{
    ActionError, Epoch, EpochOptions, EpochView, NoProgress, OpenPlace, ViewPiece,
    no_progress_limit,
};
pub use moves::{Move, MoveJsonError, MoveParseError, Slot, Wing};
pub use position::{BACK_RANK, MoveEffect, Position};
pub use text::{Field, PositionError};
pub use types::{BadSquare, Bitboard, Color, Piece, PieceKind, SIZE, SQUARES, Square};
