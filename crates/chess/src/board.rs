//! Piece placement.

use std::fmt;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// Where the pieces stand: one bitboard per role and one per colour.
///
/// Any placement is allowed (no kings, ten queens, pawns on the back rank):
/// the board itself checks nothing and none of its methods panic. Every square
/// holds at most one piece; the setters keep it so.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
}

impl Default for Board {
    /// The empty board.
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// The empty board.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
        }
    }

    /// The standard starting placement.
    #[must_use]
    pub const fn start() -> Board {
        Board {
            roles: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            colors: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// All occupied squares.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.colors[0].0 | self.colors[1].0)
    }

    /// The squares of `color`'s pieces.
    #[inline]
    #[must_use]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    #[must_use]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role as usize]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    #[must_use]
    pub const fn pieces(&self, color: Color, role: Role) -> Bitboard {
        Bitboard(self.colors[color as usize].0 & self.roles[role as usize].0)
    }

    /// The squares of `piece`.
    #[inline]
    #[must_use]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        self.pieces(piece.color, piece.role)
    }

    /// Pawns, both colours.
    #[inline]
    #[must_use]
    pub const fn pawns(&self) -> Bitboard {
        self.roles[0]
    }

    /// Knights, both colours.
    #[inline]
    #[must_use]
    pub const fn knights(&self) -> Bitboard {
        self.roles[1]
    }

    /// Bishops, both colours.
    #[inline]
    #[must_use]
    pub const fn bishops(&self) -> Bitboard {
        self.roles[2]
    }

    /// Rooks, both colours.
    #[inline]
    #[must_use]
    pub const fn rooks(&self) -> Bitboard {
        self.roles[3]
    }

    /// Queens, both colours.
    #[inline]
    #[must_use]
    pub const fn queens(&self) -> Bitboard {
        self.roles[4]
    }

    /// Kings, both colours.
    #[inline]
    #[must_use]
    pub const fn kings(&self) -> Bitboard {
        self.roles[5]
    }

    /// Rooks and queens, both colours (the pieces that slide along ranks and files).
    #[inline]
    #[must_use]
    pub const fn rooks_and_queens(&self) -> Bitboard {
        Bitboard(self.roles[3].0 | self.roles[4].0)
    }

    /// Bishops and queens, both colours (the pieces that slide along diagonals).
    #[inline]
    #[must_use]
    pub const fn bishops_and_queens(&self) -> Bitboard {
        Bitboard(self.roles[2].0 | self.roles[4].0)
    }

    /// `color`'s king square: the lowest one if there are several, `None` if none.
    #[inline]
    #[must_use]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.colors[0].contains(sq) {
            Some(Color::White)
        } else if self.colors[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            None
        } else if self.roles[0].contains(sq) {
            Some(Role::Pawn)
        } else if self.roles[1].contains(sq) {
            Some(Role::Knight)
        } else if self.roles[2].contains(sq) {
            Some(Role::Bishop)
        } else if self.roles[3].contains(sq) {
            Some(Role::Rook)
        } else if self.roles[4].contains(sq) {
            Some(Role::Queen)
        } else if self.roles[5].contains(sq) {
            Some(Role::King)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        match (self.color_at(sq), self.role_at(sq)) {
            (Some(color), Some(role)) => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    #[inline]
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.toggle(sq, piece);
    }

    /// Empties `sq`, returning the piece that stood there.
    #[inline]
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq);
        let mask = !sq.bitboard();
        for bb in &mut self.roles {
            *bb &= mask;
        }
        for bb in &mut self.colors {
            *bb &= mask;
        }
        piece
    }

    /// Flips `piece` on `sq`: adds it to an empty square or removes it from
    /// where it stands. Only for use when the square's content is known.
    #[inline]
    pub(crate) fn toggle(&mut self, sq: Square, piece: Piece) {
        let b = sq.bitboard();
        self.roles[piece.role.index()] ^= b;
        self.colors[piece.color.index()] ^= b;
    }

    /// Every piece with its square, `A1` first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The pieces of `by` that attack `sq` when `occupied` holds the blockers
    /// (pseudo-legal: pins and whose turn it is are not considered).
    #[inline]
    #[must_use]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(by);
        let attackers = (rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (knight_attacks(sq) & self.knights())
            | (king_attacks(sq) & self.kings())
            | (pawn_attacks(!by, sq) & self.pawns());
        attackers & them
    }

    /// Whether any piece of `by` attacks `sq` (blockers: the board's own pieces).
    #[inline]
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by, self.occupied()).any()
    }

    /// The board mirrored top to bottom with colours swapped (White's view of
    /// Black's position).
    #[must_use]
    pub fn flipped(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.iter() {
            b.set_piece_at(sq.flip_vertical(), Piece::new(!p.color, p.role));
        }
        b
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", crate::fen::board_fen(self))
    }
}

impl fmt::Display for Board {
    /// Eight lines, rank 8 first, FEN letters and `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', Piece::fen_char);
                write!(f, "{c}")?;
                if file != File::H {
                    f.write_str(" ")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
