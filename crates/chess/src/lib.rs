//! Standard chess rules for tabula: board representation, legal move
//! generation, FEN, SAN and UCI notation, game status, perft, and
//! [`Chess`], the [`tabula_core::Game`] implementation.
//!
//! No I/O. The types are small and `Copy`; move generation allocates nothing.
//!
//! Layers, bottom up:
//! - vocabulary: [`Color`], [`Role`], [`Piece`], [`Square`], [`File`],
//!   [`Rank`], [`Bitboard`], [`CastlingRights`], [`Move`], [`MoveList`];
//! - [`attacks`]: const knight/king/pawn tables and fancy magic bitboards for
//!   sliders, all generated at compile time (`build.rs`);
//! - [`Board`] (any placement) and [`Setup`] (everything a FEN holds,
//!   unchecked);
//! - the pseudo-legal layer ([`Board::attackers_to`],
//!   [`Position::pseudo_legal_moves`]), which works on any board and never
//!   panics;
//! - the legal layer ([`Position::legal_moves`]: check and pin masks computed
//!   once per position, no make-and-test) on a [`Position`] built by the one
//!   validation gate [`Position::from_setup`], or by
//!   [`Position::from_setup_unchecked`] for variants (Skirmish, the card
//!   game) whose positions standard chess rejects (no king, a king left in
//!   check);
//! - notation ([`Position::fen`], [`Position::san`], [`Position::parse_san`],
//!   [`Position::parse_uci`]), status ([`Position::is_checkmate`],
//!   [`Position::is_insufficient_material`], ...), [`perft`];
//! - [`Chess`]: the game with draw rules and repetition history, and its
//!   side of the table protocol (JSON actions, gestures, events, the
//!   catalog; `docs/rules/chess.md`, "Table protocol").
//!
//! ```
//! use tabula_chess::{perft, Position};
//!
//! let mut pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let m = pos.parse_san("e4").unwrap();
//! assert_eq!(m.to_string(), "e2e4");
//! pos.play(m).unwrap();
//! let reply = pos.parse_uci("e7e5").unwrap();
//! assert_eq!(pos.san(reply), "e5");
//! pos.play(reply).unwrap();
//! assert_eq!(pos.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
//! assert_eq!(perft(&Position::start(), 3), 8_902);
//! ```

#![forbid(unsafe_code)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod color;
mod fen;
mod file;
mod game;
mod movegen;
mod movelist;
mod mv;
mod perft;
mod piece;
mod position;
mod protocol;
mod rank;
mod role;
mod san;
mod setup;
mod square;
mod uci;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::Board;
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use fen::{FenError, START_FEN, board_fen, parse_board};
pub use file::File;
pub use game::{
    CLAIM_DRAW, CastlingRightView, Chess, ChessAction, ChessActionError, ChessOptions,
    ChessPieceView, ChessView, DrawRules,
};
pub use movelist::MoveList;
pub use mv::Move;
pub use perft::{divide, perft};
pub use piece::Piece;
pub use position::{IllegalMove, Position, PositionError};
pub use rank::Rank;
pub use role::Role;
pub use san::SanError;
pub use setup::Setup;
pub use square::{ParseSquareError, Square};
pub use uci::{UciError, UciMove};
