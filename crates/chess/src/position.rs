//! A playable position: placement, side to move, rights, clocks and hash.

use crate::attacks::pawn_attacks;
use crate::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, Move, Piece, Rank, Role, Setup, Square,
    zobrist,
};

/// Why a [`Setup`] is not a legal standard-chess position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A side has more than sixteen pieces.
    #[error("{color} has {count} pieces, more than 16")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// A side has more than eight pawns.
    #[error("{color} has {count} pawns, more than 8")]
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many pawns it has.
        count: u32,
    },
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on the first or eighth rank ({0})")]
    PawnOnBackRank(Square),
    /// The side not to move is in check.
    #[error("{0} is in check but it is not their turn")]
    OppositeCheck(Color),
    /// The side to move is checked by more pieces than any legal position allows.
    #[error("the side to move is checked by {0} pieces at once")]
    ImpossibleCheck(u32),
    /// A castling right without its king and rook on their home squares.
    #[error("castling right {right} needs the king on {king} and a rook on {rook}")]
    InvalidCastlingRight {
        /// The FEN letter of the right (`K`, `Q`, `k` or `q`).
        right: char,
        /// Where the king must stand.
        king: Square,
        /// Where the rook must stand.
        rook: Square,
    },
    /// An en-passant square no double step can have produced.
    #[error(
        "en-passant square {0} is impossible: it must be empty, on the sixth rank of the side to move, with an enemy pawn just in front and the square behind empty"
    )]
    InvalidEnPassant(Square),
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv} in position {fen}")]
pub struct IllegalMove {
    /// The move (UCI notation when displayed).
    pub mv: Move,
    /// The position, as FEN.
    pub fen: String,
}

/// A position: placement, side to move, castling rights, en-passant square,
/// clocks, and a Zobrist hash kept up to date move by move.
///
/// `Copy`, so a search can copy and make. Built from a [`Setup`] by
/// [`from_setup`](Self::from_setup) (validated for standard chess) or
/// [`from_setup_unchecked`](Self::from_setup_unchecked) (anything goes, for
/// variants; move generation and every query still never panic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
}

impl Default for Position {
    /// The standard starting position.
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The standard starting position.
    #[must_use]
    pub fn start() -> Position {
        Position::from_setup_unchecked(Setup::start())
    }

    /// Validates `setup` as a standard chess position.
    ///
    /// Checks: exactly one king each; at most 16 pieces and 8 pawns a side; no
    /// pawn on the first or eighth rank; the side not to move is not in check;
    /// the side to move is not checked by three or more pieces; each castling
    /// right has its king and rook on their home squares; an en-passant square
    /// lies on the mover's sixth rank, is empty, has an enemy pawn in front of it
    /// and an empty square behind it.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = &setup.board;
        for color in Color::ALL {
            match board.pieces(color, Role::King).count() {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
            let count = board.by_color(color).count();
            if count > 16 {
                return Err(PositionError::TooManyPieces { color, count });
            }
            let count = board.pieces(color, Role::Pawn).count();
            if count > 8 {
                return Err(PositionError::TooManyPawns { color, count });
            }
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for (right, color, side) in [
            ('K', Color::White, CastlingSide::KingSide),
            ('Q', Color::White, CastlingSide::QueenSide),
            ('k', Color::Black, CastlingSide::KingSide),
            ('q', Color::Black, CastlingSide::QueenSide),
        ] {
            let king = CastlingSide::king_from(color);
            let rook = side.rook_from(color);
            if setup.castling.has(color, side)
                && !(board.pieces(color, Role::King).contains(king)
                    && board.pieces(color, Role::Rook).contains(rook))
            {
                return Err(PositionError::InvalidCastlingRight { right, king, rook });
            }
        }
        if let Some(ep) = setup.ep_square {
            let us = setup.turn;
            let pushed = ep.forward(!us);
            let origin = ep.forward(us);
            let ok = ep.rank() == Rank::Sixth.relative_to(us)
                && !board.occupied().contains(ep)
                && pushed.is_some_and(|sq| board.pieces(!us, Role::Pawn).contains(sq))
                && origin.is_some_and(|sq| !board.occupied().contains(sq));
            if !ok {
                return Err(PositionError::InvalidEnPassant(ep));
            }
        }
        let pos = Position::from_setup_unchecked(setup);
        let them = !pos.turn;
        if let Some(k) = board.king_of(them)
            && board.is_attacked(k, pos.turn)
        {
            return Err(PositionError::OppositeCheck(them));
        }
        let checkers = pos.checkers().count();
        if checkers > 2 {
            return Err(PositionError::ImpossibleCheck(checkers));
        }
        Ok(pos)
    }

    /// Takes `setup` as it is, for variants whose positions standard chess calls
    /// invalid (a missing king, a king left in check, extra pieces). Nothing is
    /// checked; every method of the result still works without panicking.
    ///
    /// With no king, the side to move is never in check and all its
    /// pseudo-legal moves are legal; with several kings, the lowest-square one
    /// is the one that must not be left in check.
    #[must_use]
    pub fn from_setup_unchecked(setup: Setup) -> Position {
        let mut pos = Position {
            board: setup.board,
            turn: setup.turn,
            castling: setup.castling,
            ep_square: setup.ep_square,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position's fields as an unchecked [`Setup`].
    #[must_use]
    pub const fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The placement.
    #[inline]
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The remaining castling rights.
    #[inline]
    #[must_use]
    pub const fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square as recorded (set after every double step, as FEN
    /// does, whether or not a capture there is possible).
    #[inline]
    #[must_use]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move (fifty-move rule: 100).
    #[inline]
    #[must_use]
    pub const fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Whether fifty moves (100 half-moves) have passed without a capture or
    /// pawn move: the point from which the fifty-move rule applies.
    #[inline]
    #[must_use]
    pub const fn is_fifty_moves(&self) -> bool {
        self.halfmove_clock >= 100
    }

    /// The move number: 1 at the start, incremented after each Black move.
    #[inline]
    #[must_use]
    pub const fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist hash, kept up to date move by move. Covers placement, side
    /// to move, castling rights, and the en-passant file only when a pawn of
    /// the side to move attacks the en-passant square, so that positions with
    /// the same possible moves compare equal (for repetition).
    #[inline]
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (equals [`hash`](Self::hash)).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::board_hash(&self.board)
            ^ zobrist::castling_key(self.castling)
            ^ zobrist::turn_key(self.turn);
        if let Some(ep) = self.ep_square
            && self.ep_hash_relevant(ep)
        {
            h ^= zobrist::ep_key(ep.file());
        }
        h
    }

    #[inline]
    fn ep_hash_relevant(&self, ep: Square) -> bool {
        (pawn_attacks(!self.turn, ep) & self.board.pieces(self.turn, Role::Pawn)).any()
    }

    /// The side to move's king square (the lowest if several), if any.
    #[inline]
    #[must_use]
    pub const fn our_king(&self) -> Option<Square> {
        self.board.king_of(self.turn)
    }

    /// The enemy pieces giving check to the side to move (empty without a king).
    #[inline]
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        match self.our_king() {
            Some(k) => self
                .board
                .attackers_to(k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the side to move is checkmated: in check with no legal move.
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated: not in check, no legal move.
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether the position is dead by material. Exactly these cases count:
    /// no pawns, rooks or queens on the board, and either
    /// (a) at most one knight or bishop in total (K v K, K+N v K, K+B v K), or
    /// (b) no knights and every bishop, of both sides, on squares of one
    /// colour (K+B v K+B with same-coloured bishops, and any number of such
    /// bishops). Everything else (K+N v K+N, K+B v K+N, opposite-coloured
    /// bishops, K+N+N v K) is not treated as dead.
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.pawns() | b.rooks_and_queens()).any() {
            return false;
        }
        let minors = b.knights() | b.bishops();
        if minors.count() <= 1 {
            return true;
        }
        b.knights().is_empty()
            && (b.bishops().is_subset(Bitboard::DARK_SQUARES)
                || b.bishops().is_subset(Bitboard::LIGHT_SQUARES))
    }

    /// Plays `m` if it is legal; on error the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove {
                mv: m,
                fen: crate::fen::fen(self),
            })
        }
    }

    /// The position after `m`, if legal.
    pub fn after(&self, m: Move) -> Result<Position, IllegalMove> {
        let mut p = *self;
        p.play(m)?;
        Ok(p)
    }

    /// Plays `m` without checking it. `m` should come from move generation for
    /// this position; anything else gives a meaningless (but safe) position:
    /// a move from an empty square only passes the turn.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let mut hash = self.hash ^ zobrist::castling_key(self.castling) ^ zobrist::turn_key(us);
        if let Some(ep) = self.ep_square.take()
            && self.ep_hash_relevant(ep)
        {
            hash ^= zobrist::ep_key(ep.file());
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        match m {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                if let Some(piece) = self.board.piece_at(from) {
                    if let Some(captured) = self.board.piece_at(to) {
                        self.board.toggle(to, captured);
                        hash ^= zobrist::piece_key(captured, to);
                        self.halfmove_clock = 0;
                    }
                    self.board.toggle(from, piece);
                    hash ^= zobrist::piece_key(piece, from);
                    let placed = match promotion {
                        Some(role) => Piece::new(piece.color, role),
                        None => piece,
                    };
                    self.board.toggle(to, placed);
                    hash ^= zobrist::piece_key(placed, to);
                    if piece.role == Role::Pawn {
                        self.halfmove_clock = 0;
                        if from.index().abs_diff(to.index()) == 16 {
                            self.ep_square =
                                Square::new((from.index() as u32 + to.index() as u32) / 2);
                        }
                    }
                    self.castling = self.castling.after_touching(from).after_touching(to);
                }
            }
            Move::EnPassant { from, to } => {
                let captured_sq = Square::from_coords(to.file(), from.rank());
                let pawn = Piece::new(us, Role::Pawn);
                if let Some(captured) = self.board.piece_at(captured_sq) {
                    self.board.toggle(captured_sq, captured);
                    hash ^= zobrist::piece_key(captured, captured_sq);
                }
                if self.board.piece_at(from) == Some(pawn) && !self.board.occupied().contains(to) {
                    self.board.toggle(from, pawn);
                    self.board.toggle(to, pawn);
                    hash ^= zobrist::piece_key(pawn, from) ^ zobrist::piece_key(pawn, to);
                }
                self.halfmove_clock = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                let k = Piece::new(us, Role::King);
                let r = Piece::new(us, Role::Rook);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
                if self.board.piece_at(king) == Some(k) && self.board.piece_at(rook) == Some(r) {
                    self.board.toggle(king, k);
                    self.board.toggle(rook, r);
                    self.board.set_piece_at(king_to, k);
                    self.board.set_piece_at(rook_to, r);
                    hash ^= zobrist::piece_key(k, king)
                        ^ zobrist::piece_key(r, rook)
                        ^ zobrist::piece_key(k, king_to)
                        ^ zobrist::piece_key(r, rook_to);
                }
                self.castling = self.castling.without_color(us);
            }
        }
        self.turn = them;
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        hash ^= zobrist::castling_key(self.castling) ^ zobrist::turn_key(them);
        if let Some(ep) = self.ep_square
            && self.ep_hash_relevant(ep)
        {
            hash ^= zobrist::ep_key(ep.file());
        }
        self.hash = hash;
    }

    /// Passes the turn without moving (a "null move", for search and variants):
    /// clears the en-passant square and bumps the clocks.
    pub fn play_null(&mut self) {
        let mut setup = self.to_setup();
        setup.turn = !setup.turn;
        setup.ep_square = None;
        setup.halfmove_clock = setup.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            setup.fullmove_number = setup.fullmove_number.saturating_add(1);
        }
        *self = Position::from_setup_unchecked(setup);
    }
}
