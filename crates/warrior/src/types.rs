//! The book's vocabulary: squares, armies, pieces, weapons, Swords facing,
//! stacks of captured Warriors, money, the Bank, the Reserve and the phases.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A square of the standard chessboard, `a1` = 0 .. `h8` = 63 (rank-major).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square(u8);

/// A square name that is not one of `a1`..`h8`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a square (a1..h8)")]
pub struct BadSquare(pub String);

impl Square {
    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub const fn at(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The square with this index (0..64), if any.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The index, 0..64.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> i8 {
        (self.0 % 8) as i8
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> i8 {
        (self.0 / 8) as i8
    }

    /// The square `(df, dr)` away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// The square's bit in a 64-bit set of squares.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Reads a square name (`e4`, or the book's `E4`) at the start of
    /// `text`; returns the square and the rest.
    pub(crate) fn parse_prefix(text: &str) -> Option<(Square, &str)> {
        let mut chars = text.chars();
        let f = chars.next()?.to_ascii_lowercase();
        let r = chars.next()?;
        if !('a'..='h').contains(&f) || !('1'..='8').contains(&r) {
            return None;
        }
        let sq = Square::at(f as i8 - b'a' as i8, r as i8 - b'1' as i8)?;
        Some((sq, &text[2..]))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'1' + self.rank() as u8) as char
        )
    }
}

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match Square::parse_prefix(s) {
            Some((sq, "")) => Ok(sq),
            _ => Err(BadSquare(s.to_owned())),
        }
    }
}

impl From<Square> for String {
    fn from(sq: Square) -> String {
        sq.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = BadSquare;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// An army (a set of pieces of one colour). Seat `i` plays army `i`: two
/// players are Red and Blue; doubles adds Green and Yellow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Army {
    /// Red: the first player, King on E1.
    Red,
    /// Blue: the second player (D8 in the two-player game, A4 in doubles).
    Blue,
    /// Green: doubles only, the first player's partner, King on D8.
    Green,
    /// Yellow: doubles only, Blue's partner, King on H5.
    Yellow,
}

impl Army {
    /// The four armies in seat order.
    pub const ALL: [Army; 4] = [Army::Red, Army::Blue, Army::Green, Army::Yellow];

    /// The army's index (= its seat).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The army at `index`, if any.
    pub const fn from_index(index: usize) -> Option<Army> {
        match index {
            0 => Some(Army::Red),
            1 => Some(Army::Blue),
            2 => Some(Army::Green),
            3 => Some(Army::Yellow),
            _ => None,
        }
    }

    /// The colour's name, as the book writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Army::Red => "Red",
            Army::Blue => "Blue",
            Army::Green => "Green",
            Army::Yellow => "Yellow",
        }
    }

    /// The letter used in position text: `R`, `B`, `G`, `Y`.
    pub const fn letter(self) -> char {
        match self {
            Army::Red => 'R',
            Army::Blue => 'B',
            Army::Green => 'G',
            Army::Yellow => 'Y',
        }
    }

    /// The army with this letter.
    pub fn from_letter(c: char) -> Option<Army> {
        Army::ALL.into_iter().find(|a| a.letter() == c)
    }

    /// The team the army plays for: Red and Green are team 0, Blue and
    /// Yellow team 1 (teammates sit across the board).
    pub const fn team(self) -> u8 {
        (self as u8) % 2
    }

    /// Where the army's King starts: E1, D8 (two players) or E1, A4, D8, H5
    /// clockwise (doubles).
    pub fn king_square(self, players: u8) -> Square {
        let (f, r) = match (players, self) {
            (_, Army::Red) => (4, 0),
            (2, _) => (3, 7),
            (_, Army::Blue) => (0, 3),
            (_, Army::Green) => (3, 7),
            (_, Army::Yellow) => (7, 4),
        };
        Square((r * 8 + f) as u8)
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A weapon a Warrior can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weapon {
    /// Rook: moves and captures in straight orthogonal lines.
    Rook,
    /// Knight: moves and captures by the chess knight's jump.
    Knight,
    /// Bishop: moves and captures in straight diagonal lines.
    Bishop,
    /// Swords: a quiet step orthogonally; captures on the two diagonal
    /// squares it faces.
    Swords,
}

impl Weapon {
    /// The four weapons, in the book's order of listing.
    pub const ALL: [Weapon; 4] = [Weapon::Rook, Weapon::Knight, Weapon::Bishop, Weapon::Swords];

    /// The weapon's index in [`Weapon::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this weapon each army has: Rooks 3, Knights 2, Bishops 3,
    /// Swords 4.
    pub const fn per_army(self) -> u8 {
        match self {
            Weapon::Rook => 3,
            Weapon::Knight => 2,
            Weapon::Bishop => 3,
            Weapon::Swords => 4,
        }
    }

    /// The price of a "new" weapon, which is also the bonus paid for
    /// capturing one: Rook $6, Knight $5, Bishop $4, Swords $2.
    pub const fn new_cost(self) -> u8 {
        match self {
            Weapon::Rook => 6,
            Weapon::Knight => 5,
            Weapon::Bishop => 4,
            Weapon::Swords => 2,
        }
    }

    /// The price of a "reissued" weapon: Rook $12, Knight $10, Bishop $8,
    /// Swords $4.
    pub const fn reissued_cost(self) -> u8 {
        2 * self.new_cost()
    }

    /// The price in the given issue.
    pub const fn cost(self, issue: Issue) -> u8 {
        match issue {
            Issue::New => self.new_cost(),
            Issue::Reissued => self.reissued_cost(),
        }
    }

    /// The weapon's name.
    pub const fn name(self) -> &'static str {
        match self {
            Weapon::Rook => "Rook",
            Weapon::Knight => "Knight",
            Weapon::Bishop => "Bishop",
            Weapon::Swords => "Swords",
        }
    }

    /// The letter used in notation: `R`, `N`, `B`, `S` (position text uses
    /// the lowercase letter).
    pub const fn letter(self) -> char {
        match self {
            Weapon::Rook => 'R',
            Weapon::Knight => 'N',
            Weapon::Bishop => 'B',
            Weapon::Swords => 'S',
        }
    }

    /// The weapon with this letter, either case.
    pub fn from_letter(c: char) -> Option<Weapon> {
        let c = c.to_ascii_uppercase();
        Weapon::ALL.into_iter().find(|w| w.letter() == c)
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which stock of the Bank a weapon is bought from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Issue {
    /// Never yet on the board: the cheaper price.
    New,
    /// Captured and returned to the Bank: twice the new price.
    Reissued,
}

impl Issue {
    /// The book's word: `new` or `reissued`.
    pub const fn word(self) -> &'static str {
        match self {
            Issue::New => "new",
            Issue::Reissued => "reissued",
        }
    }
}

/// The way a Swords piece faces: the side whose two diagonal squares it
/// attacks. North is toward rank 8, East toward the h-file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    /// Attacks the two diagonals toward rank 8.
    North,
    /// Attacks the two diagonals toward the h-file.
    East,
    /// Attacks the two diagonals toward rank 1.
    South,
    /// Attacks the two diagonals toward the a-file.
    West,
}

impl Facing {
    /// The four facings.
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    /// The letter used in notation and position text: `N`, `E`, `S`, `W`.
    pub const fn letter(self) -> char {
        match self {
            Facing::North => 'N',
            Facing::East => 'E',
            Facing::South => 'S',
            Facing::West => 'W',
        }
    }

    /// The facing with this letter, either case.
    pub fn from_letter(c: char) -> Option<Facing> {
        let c = c.to_ascii_uppercase();
        Facing::ALL.into_iter().find(|f| f.letter() == c)
    }

    /// The two diagonal steps `(df, dr)` this facing attacks.
    pub const fn diagonals(self) -> [(i8, i8); 2] {
        match self {
            Facing::North => [(-1, 1), (1, 1)],
            Facing::East => [(1, 1), (1, -1)],
            Facing::South => [(1, -1), (-1, -1)],
            Facing::West => [(-1, -1), (-1, 1)],
        }
    }
}

/// Counts of each weapon: the weapons on one Warrior, in a Reserve, or in
/// one of the Bank's stocks. JSON: `{"rook":1,"knight":0,"bishop":0,"swords":2}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "WeaponCounts", into = "WeaponCounts")]
pub struct Weapons(pub [u8; 4]);

/// The JSON shape of [`Weapons`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponCounts {
    #[serde(default)]
    rook: u8,
    #[serde(default)]
    knight: u8,
    #[serde(default)]
    bishop: u8,
    #[serde(default)]
    swords: u8,
}

impl From<WeaponCounts> for Weapons {
    fn from(c: WeaponCounts) -> Self {
        Weapons([c.rook, c.knight, c.bishop, c.swords])
    }
}

impl From<Weapons> for WeaponCounts {
    fn from(w: Weapons) -> Self {
        let [rook, knight, bishop, swords] = w.0;
        WeaponCounts {
            rook,
            knight,
            bishop,
            swords,
        }
    }
}

impl Weapons {
    /// No weapons.
    pub const NONE: Weapons = Weapons([0; 4]);

    /// One army's full set: 3 Rooks, 2 Knights, 3 Bishops, 4 Swords.
    pub const FULL_SET: Weapons = Weapons([3, 2, 3, 4]);

    /// How many of `weapon`.
    pub const fn count(self, weapon: Weapon) -> u8 {
        self.0[weapon.index()]
    }

    /// How many weapons in all.
    pub const fn total(self) -> u8 {
        self.0[0]
            .saturating_add(self.0[1])
            .saturating_add(self.0[2])
            .saturating_add(self.0[3])
    }

    /// Whether there is at least one `weapon`.
    pub const fn has(self, weapon: Weapon) -> bool {
        self.0[weapon.index()] > 0
    }

    /// The sum of the weapons' "new" costs: a capture's bonus.
    pub fn new_value(self) -> u8 {
        Weapon::ALL.iter().fold(0u8, |sum, w| {
            sum.saturating_add(self.count(*w).saturating_mul(w.new_cost()))
        })
    }

    /// Each weapon once per copy, in the book's order.
    pub fn iter(self) -> impl Iterator<Item = Weapon> {
        Weapon::ALL
            .into_iter()
            .flat_map(move |w| std::iter::repeat_n(w, self.count(w) as usize))
    }
}

impl Index<Weapon> for Weapons {
    type Output = u8;
    fn index(&self, weapon: Weapon) -> &u8 {
        &self.0[weapon.index()]
    }
}

impl IndexMut<Weapon> for Weapons {
    fn index_mut(&mut self, weapon: Weapon) -> &mut u8 {
        &mut self.0[weapon.index()]
    }
}

/// The captured Warriors stacked under a piece, counted by army.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stack(pub [u8; 4]);

impl Stack {
    /// How many Warriors of `army`.
    pub const fn count(self, army: Army) -> u8 {
        self.0[army.index()]
    }

    /// How many Warriors in all: the dollars the stack earns each turn.
    pub const fn total(self) -> u8 {
        self.0[0]
            .saturating_add(self.0[1])
            .saturating_add(self.0[2])
            .saturating_add(self.0[3])
    }

    /// Whether the stack is empty.
    pub const fn is_empty(self) -> bool {
        self.total() == 0
    }

    /// This stack with `other` added.
    pub const fn plus(self, other: Stack) -> Stack {
        Stack([
            self.0[0].saturating_add(other.0[0]),
            self.0[1].saturating_add(other.0[1]),
            self.0[2].saturating_add(other.0[2]),
            self.0[3].saturating_add(other.0[3]),
        ])
    }
}

/// A King or a Warrior.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    /// The King: one per army, one square any way, captures.
    King,
    /// A Warrior: moves like a King and cannot capture until armed; armed,
    /// it moves and captures as its weapons.
    Warrior,
}

/// A piece on the board, with its weapons, its Swords facing and the
/// captured Warriors stacked under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub army: Army,
    /// King or Warrior.
    pub kind: PieceKind,
    /// The weapons on it (Warriors only; at most two).
    pub weapons: Weapons,
    /// Which way its Swords face: present exactly when it carries one Swords.
    pub facing: Option<Facing>,
    /// The captured Warriors under it.
    pub stack: Stack,
}

impl Piece {
    /// A King with nothing under it.
    pub const fn king(army: Army) -> Piece {
        Piece {
            army,
            kind: PieceKind::King,
            weapons: Weapons::NONE,
            facing: None,
            stack: Stack([0; 4]),
        }
    }

    /// An unarmed Warrior with nothing under it.
    pub const fn warrior(army: Army) -> Piece {
        Piece {
            army,
            kind: PieceKind::Warrior,
            weapons: Weapons::NONE,
            facing: None,
            stack: Stack([0; 4]),
        }
    }

    /// Whether the piece is a Warrior with at least one weapon.
    pub const fn is_armed(&self) -> bool {
        self.weapons.total() > 0
    }

    /// Whether the piece is a Warrior with exactly one Swords, so that it
    /// has a facing to choose whenever it moves.
    pub const fn has_single_swords(&self) -> bool {
        self.weapons.0[3] == 1
    }
}

/// Money in dollars. Nobody may hold more than [`Money::CAP`].
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Money(pub u8);

impl Money {
    /// The most a player may hold: $12.
    pub const CAP: u8 = 12;

    /// `self` plus `amount`, stopping at the $12 cap (collection and
    /// capture bonuses alike).
    pub const fn receive(self, amount: u8) -> Money {
        let sum = self.0 as u16 + amount as u16;
        Money(if sum > Money::CAP as u16 {
            Money::CAP
        } else {
            sum as u8
        })
    }

    /// `self` minus `price`, if it can be paid.
    pub const fn pay(self, price: u8) -> Option<Money> {
        match self.0.checked_sub(price) {
            Some(rest) => Some(Money(rest)),
            None => None,
        }
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// What a player has bought and not yet used: Warriors waiting for a bonus
/// drop and weapons waiting to be placed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reserve {
    /// Warriors in Reserve (bought for $5, dropped free as bonus drops).
    pub warriors: u8,
    /// Weapons in Reserve.
    pub weapons: Weapons,
}

/// What the Bank holds of one army: its Warriors not yet played and its
/// never-used ("new") weapons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NewStock {
    /// Warriors not yet dropped or bought.
    pub warriors: u8,
    /// "New" weapons.
    pub weapons: Weapons,
}

impl NewStock {
    /// An army's whole equipment: 8 Warriors and a full set of weapons.
    pub const FULL: NewStock = NewStock {
        warriors: 8,
        weapons: Weapons::FULL_SET,
    };
}

/// The Bank: per army, the new stock (Warriors and weapons) and the
/// "reissue" stock of captured weapons, kept separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bank {
    /// New stock, indexed by army.
    pub new: [NewStock; 4],
    /// Captured weapons available for reissue, indexed by army.
    pub reissue: [Weapons; 4],
}

impl Bank {
    /// The Bank at the start: every army's equipment, nothing to reissue.
    pub const START: Bank = Bank {
        new: [NewStock::FULL; 4],
        reissue: [Weapons::NONE; 4],
    };

    /// How many of `weapon` of `army` the Bank sells in `issue`.
    pub const fn stock(&self, army: Army, weapon: Weapon, issue: Issue) -> u8 {
        match issue {
            Issue::New => self.new[army.index()].weapons.0[weapon.index()],
            Issue::Reissued => self.reissue[army.index()].0[weapon.index()],
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The player to act captured a King of the other team.
    KingCaptured,
    /// Fifty movements each without a drop or a capture (automatic).
    FiftyMoves,
    /// Fifty movements each without a drop or a capture, claimed by the
    /// player to act (option `fifty-moves=claim`).
    DrawClaimed,
    /// The player to act had no legal movement (option `no-movement=lose`).
    NoMovement,
}

/// The phase of the turn, or the end of the game.
///
/// Collecting money, the book's first phase, has no decision in it: it is
/// done automatically as each turn begins. JSON: the position text's word
/// (`move`, `bonus`, `arm`, `buy`, `king-captured`...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum Phase {
    /// The one compulsory movement: drop, move or capture.
    Movement,
    /// Optional bonus drops of Reserve Warriors.
    BonusDrops,
    /// Optional placing of Reserve weapons on Warriors.
    Arming,
    /// Optional buying for the Reserve; ending it passes the turn.
    Buying,
    /// The game is over.
    Over(Ending),
}

impl Phase {
    /// The word used in position text.
    pub const fn word(self) -> &'static str {
        match self {
            Phase::Movement => "move",
            Phase::BonusDrops => "bonus",
            Phase::Arming => "arm",
            Phase::Buying => "buy",
            Phase::Over(Ending::KingCaptured) => "king-captured",
            Phase::Over(Ending::FiftyMoves) => "fifty-moves",
            Phase::Over(Ending::DrawClaimed) => "draw-claimed",
            Phase::Over(Ending::NoMovement) => "no-movement",
        }
    }

    /// Every phase and ending, for parsing.
    pub const ALL: [Phase; 8] = [
        Phase::Movement,
        Phase::BonusDrops,
        Phase::Arming,
        Phase::Buying,
        Phase::Over(Ending::KingCaptured),
        Phase::Over(Ending::FiftyMoves),
        Phase::Over(Ending::DrawClaimed),
        Phase::Over(Ending::NoMovement),
    ];

    /// The phase with this word.
    pub fn from_word(word: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.word() == word)
    }
}

impl From<Phase> for &'static str {
    fn from(p: Phase) -> Self {
        p.word()
    }
}

impl TryFrom<String> for Phase {
    type Error = String;
    fn try_from(word: String) -> Result<Self, Self::Error> {
        Phase::from_word(&word).ok_or_else(|| format!("'{word}' is not a phase"))
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Movement => "movement",
            Phase::BonusDrops => "bonus drops",
            Phase::Arming => "placing weapons",
            Phase::Buying => "buying",
            Phase::Over(_) => "game over",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_both_cases_and_print_lowercase() {
        assert_eq!("E1".parse::<Square>().unwrap().to_string(), "e1");
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert!("i1".parse::<Square>().is_err());
        assert!("e9".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
        assert!("e11".parse::<Square>().is_err());
    }

    #[test]
    fn doubles_king_squares_are_quarter_turns() {
        let names: Vec<String> = Army::ALL
            .iter()
            .map(|a| a.king_square(4).to_string())
            .collect();
        assert_eq!(names, ["e1", "a4", "d8", "h5"]);
        assert_eq!(Army::Blue.king_square(2).to_string(), "d8");
    }

    #[test]
    fn money_stops_at_the_cap() {
        assert_eq!(Money(8).receive(6), Money(12));
        assert_eq!(Money(12).receive(1), Money(12));
        assert_eq!(Money(3).pay(5), None);
        assert_eq!(Money(5).pay(5), Some(Money(0)));
    }
}
