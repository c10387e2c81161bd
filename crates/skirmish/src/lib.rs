//! Skirmish chess, the rules engine: chess where every capture is a dice
//! skirmish.
//!
//! The book (`shared/rules/skirmish-chess.txt`): "'Skirmishing' replaces
//! 'capturing'": `Attacking Piece Value + Roll + Attack Bonus` versus
//! `Defending Piece Value + Roll` (Pawn 1, Knight 3, Bishop 3, Rook 5,
//! Queen 9, King 4). The attacker wins: an ordinary capture. The defender
//! wins: the attacker's piece is lost and the defender may stay or take the
//! attacker's old square. Check and checkmate are decided by rolls too. The
//! Advanced game adds Tactical movements (skirmishing along the way at half
//! value), sequential and divided skirmishes. Every reading taken where the
//! book is silent is in `docs/rules/skirmish.md`.
//!
//! Each roll is a chance node ([`tabula_core::ToAct::Chance`]) whose outcomes
//! are the two totals, `roll:A-D`, listed with exact probabilities; a skirmish
//! whose result is certain (a "given") has the single outcome `given`.
//! [`win_probability`] and [`Odds`] give the exact odds of any skirmish.
//!
//! ```
//! use tabula_core::{Game, ToAct, Probability};
//! use tabula_skirmish::{Skirmish, SkirmishOptions};
//!
//! let mut game = Skirmish::new(&SkirmishOptions::default());
//! for m in ["e2e4", "d7d5"] {
//!     let a = game.parse_action(m).unwrap();
//!     game.apply(&a).unwrap();
//! }
//! // exd5 is a skirmish: Pawn (1) + roll + 1 against Pawn (1) + roll.
//! let attack = game.parse_action("exd5").unwrap();
//! assert_eq!(game.odds(&attack)[0].win_probability(), Probability::new(7, 12).unwrap());
//! game.apply(&attack).unwrap();
//! assert_eq!(game.to_act(), ToAct::Chance);
//! // White rolls 2, Black rolls 5: the defender wins, White's pawn is lost,
//! // and Black decides whether the d5 pawn takes e4.
//! game.apply(&game.parse_action("roll:2-5").unwrap()).unwrap();
//! assert_eq!(game.action_notation(&game.parse_action("take").unwrap()), "take:d5-e4");
//! assert_eq!(
//!     game.to_text(),
//!     "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 - choice:e4:d5 acted,progress -"
//! );
//! ```

mod action;
mod game;
mod odds;
mod options;
mod protocol;
mod state;
mod text;

pub use action::{ActionJsonError, ActionSyntaxError, SkirmishAction};
pub use game::{ActionError, OddsView, OfferView, PieceView, SkirmishView};
pub use odds::{Odds, Verdict, piece_value, sequential_bonus, win_probability};
pub use options::{
    BadDice, Checkers, Dice, KingCaptures, KingValue, Mode, Relocation, Sequential,
    SkirmishOptions, TieRule,
};
pub use state::{AttackCounts, Path, Pending, Phase, Skirmish, TacticalMove, TurnState, path};
pub use text::{Field, PositionError};
