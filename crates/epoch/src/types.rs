//! The vocabulary of the book: squares, colours, piece kinds, bitboards.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The board is 13 files by 13 ranks.
pub const SIZE: i8 = 13;
/// The number of squares on the board.
pub const SQUARES: usize = 169;

/// One of the 169 squares, `a1` (index 0) to `m13` (index 168), rank-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square(u8);

/// A square name that is not one of a1..m13.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a square (files a-m, ranks 1-13)")]
pub struct BadSquare(pub String);

impl Square {
    /// The command square, g7.
    pub const G7: Square = Square(6 * 13 + 6);

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 13 && rank < 13 {
            Some(Square(rank * 13 + file))
        } else {
            None
        }
    }

    /// The square with this index (0..169).
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The index, 0..169.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 12 (m).
    pub const fn file(self) -> u8 {
        self.0 % 13
    }

    /// The rank, 0 (rank 1) to 12 (rank 13).
    pub const fn rank(self) -> u8 {
        self.0 / 13
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < SIZE && r >= 0 && r < SIZE {
            Some(Square((r as u8) * 13 + f as u8))
        } else {
            None
        }
    }

    /// King-move (Chebyshev) distance.
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// Whether this is one of the four corners.
    pub const fn is_corner(self) -> bool {
        (self.file() == 0 || self.file() == 12) && (self.rank() == 0 || self.rank() == 12)
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadSquare(s.to_owned());
        let mut chars = s.chars();
        let f = chars.next().ok_or_else(bad)?;
        if !('a'..='m').contains(&f) {
            return Err(bad());
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if rest.starts_with('0') {
            return Err(bad());
        }
        let r: u8 = rest.parse().map_err(|_| bad())?;
        if !(1..=13).contains(&r) {
            return Err(bad());
        }
        Square::new(f as u8 - b'a', r - 1).ok_or_else(bad)
    }
}

impl From<Square> for String {
    fn from(s: Square) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = BadSquare;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// A side: White moves first from ranks 1-3, Black from ranks 11-13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// White, rank 1 side, moves first.
    White,
    /// Black, rank 13 side.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank step of a forward move: +1 for White, -1 for Black.
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The rank (0-based) counted from this side's back rank.
    pub const fn relative_rank(self, rank: u8) -> u8 {
        match self {
            Color::White => rank,
            Color::Black => 12 - rank,
        }
    }

    /// The back rank (0-based).
    pub const fn back_rank(self) -> u8 {
        self.relative_rank(0)
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// The nine kinds of piece, in the book's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    /// The rook of the game (letter S).
    Sentinel,
    /// The knight of the game (letter T).
    Templar,
    /// The bishop of the game (letter H).
    Herald,
    /// The blasting piece (letter G).
    Mage,
    /// Captures by passing over (letter A).
    Assassin,
    /// The queen of the game, dormant at first (letter E).
    Emperor,
    /// The king of the game (letter P).
    Pope,
    /// Carries the command zone (letter M).
    Marshal,
    /// The pawn of the game (letter L in position text, none in notation).
    Legionary,
}

impl PieceKind {
    /// Every kind.
    pub const ALL: [PieceKind; 9] = [
        PieceKind::Sentinel,
        PieceKind::Templar,
        PieceKind::Herald,
        PieceKind::Mage,
        PieceKind::Assassin,
        PieceKind::Emperor,
        PieceKind::Pope,
        PieceKind::Marshal,
        PieceKind::Legionary,
    ];

    /// The kinds a promotion can bring back (every kind but Pope and Legionary).
    pub const SLOT_KINDS: [PieceKind; 7] = [
        PieceKind::Sentinel,
        PieceKind::Templar,
        PieceKind::Herald,
        PieceKind::Mage,
        PieceKind::Assassin,
        PieceKind::Emperor,
        PieceKind::Marshal,
    ];

    /// Index in [`PieceKind::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Index in [`PieceKind::SLOT_KINDS`], `None` for Pope and Legionary.
    pub const fn slot_index(self) -> Option<usize> {
        match self {
            PieceKind::Sentinel => Some(0),
            PieceKind::Templar => Some(1),
            PieceKind::Herald => Some(2),
            PieceKind::Mage => Some(3),
            PieceKind::Assassin => Some(4),
            PieceKind::Emperor => Some(5),
            PieceKind::Marshal => Some(6),
            PieceKind::Pope | PieceKind::Legionary => None,
        }
    }

    /// The uppercase letter (position text and notation).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Sentinel => 'S',
            PieceKind::Templar => 'T',
            PieceKind::Herald => 'H',
            PieceKind::Mage => 'G',
            PieceKind::Assassin => 'A',
            PieceKind::Emperor => 'E',
            PieceKind::Pope => 'P',
            PieceKind::Marshal => 'M',
            PieceKind::Legionary => 'L',
        }
    }

    /// The kind of an uppercase or lowercase letter.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'S' => Some(PieceKind::Sentinel),
            'T' => Some(PieceKind::Templar),
            'H' => Some(PieceKind::Herald),
            'G' => Some(PieceKind::Mage),
            'A' => Some(PieceKind::Assassin),
            'E' => Some(PieceKind::Emperor),
            'P' => Some(PieceKind::Pope),
            'M' => Some(PieceKind::Marshal),
            'L' => Some(PieceKind::Legionary),
            _ => None,
        }
    }

    /// How many of this kind each side starts with.
    pub const fn initial_count(self) -> u8 {
        match self {
            PieceKind::Pope | PieceKind::Emperor | PieceKind::Marshal => 1,
            PieceKind::Legionary => 13,
            _ => 2,
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A piece: a colour and a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The position-text letter: uppercase White, lowercase Black.
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a position-text letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                kind,
            }),
            None => None,
        }
    }
}

/// A set of squares: 169 bits over three words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub [u64; 3]);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard([0; 3]);
    /// Every square of the board.
    pub const FULL: Bitboard = Bitboard([u64::MAX, u64::MAX, (1u64 << (169 - 128)) - 1]);

    /// The set holding one square.
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard::EMPTY.with(sq)
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> Bitboard {
        let i = sq.index();
        let mut w = self.0;
        w[i / 64] |= 1 << (i % 64);
        Bitboard(w)
    }

    /// The set with `sq` removed.
    pub const fn without(self, sq: Square) -> Bitboard {
        let i = sq.index();
        let mut w = self.0;
        w[i / 64] &= !(1 << (i % 64));
        Bitboard(w)
    }

    /// Union.
    pub const fn union(self, o: Bitboard) -> Bitboard {
        Bitboard([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    /// Intersection.
    pub const fn intersection(self, o: Bitboard) -> Bitboard {
        Bitboard([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    /// The squares of `self` not in `o`.
    pub const fn difference(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0[0] == 0 && self.0[1] == 0 && self.0[2] == 0
    }

    /// The number of squares.
    pub const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// The lowest square of the set.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0[0] != 0 {
            Square::from_index(self.0[0].trailing_zeros() as usize)
        } else if self.0[1] != 0 {
            Square::from_index(64 + self.0[1].trailing_zeros() as usize)
        } else if self.0[2] != 0 {
            Square::from_index(128 + self.0[2].trailing_zeros() as usize)
        } else {
            None
        }
    }

    /// The highest square of the set.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0[2] != 0 {
            Square::from_index(191 - self.0[2].leading_zeros() as usize)
        } else if self.0[1] != 0 {
            Square::from_index(127 - self.0[1].leading_zeros() as usize)
        } else if self.0[0] != 0 {
            Square::from_index(63 - self.0[0].leading_zeros() as usize)
        } else {
            None
        }
    }

    /// Whether the set holds at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        !self.is_empty()
    }

    /// The squares, a1 first.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut words = self.0;
        let mut w = 0usize;
        std::iter::from_fn(move || {
            while w < 3 {
                if words[w] != 0 {
                    let b = words[w].trailing_zeros() as usize;
                    words[w] &= words[w] - 1;
                    return Square::from_index(w * 64 + b);
                }
                w += 1;
            }
            None
        })
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        self.intersection(o)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        self.union(o)
    }
}

impl std::ops::BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard([self.0[0] ^ o.0[0], self.0[1] ^ o.0[1], self.0[2] ^ o.0[2]])
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    /// The squares of the board not in the set.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard::FULL.difference(self)
    }
}

impl std::ops::BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        *self = self.intersection(o);
    }
}

impl std::ops::BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        *self = self.union(o);
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("m13".parse::<Square>().map(Square::index), Ok(168));
        for bad in ["n1", "a0", "a14", "a", "", "a01", "A1", "a1x"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bitboards_hold_all_squares() {
        let mut b = Bitboard::EMPTY;
        for sq in Square::all() {
            b = b.with(sq);
        }
        assert_eq!(b, Bitboard::FULL);
        assert_eq!(b.count(), 169);
        assert_eq!(b.iter().count(), 169);
        let g7 = Bitboard::from_square(Square::G7);
        assert!(g7.contains(Square::G7));
        assert_eq!(b.difference(g7).count(), 168);
        assert!(b.without(Square::G7).intersection(g7).is_empty());
        assert_eq!(b.union(g7), b);
        assert_eq!(b.first(), Square::from_index(0));
        assert_eq!(b.last(), Square::from_index(168));
        assert_eq!(g7.first(), Some(Square::G7));
        assert_eq!(g7.last(), Some(Square::G7));
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(!g7, b.without(Square::G7));
        let m = Bitboard::from_square(Square::from_index(100).unwrap());
        assert_eq!((m | g7).last(), Square::from_index(100));
        assert_eq!((m | g7).first(), Some(Square::G7));
    }
}
