//! The game side of the table protocol: what a page needs to draw a game and
//! let a person play it by clicking, without knowing any rule.
//!
//! - A [`Gesture`] says how a person picks one legal action: what they click
//!   first ([`Place`]), where it lands, what else it touches, and a second-step
//!   [`Choice`] where one click pair is not enough.
//! - [`Holding`]s are what a seat holds in public (money, mana, hand size);
//!   [`Zone`]s are the named places off the board whose items can be clicked
//!   (a hand, a Reserve, the Bank, the recruits on offer).
//! - An [`Event`] is one thing that happened, as data and as a sentence, cut
//!   to what its viewer may know.
//! - A [`Catalog`] is what never changes during a game (the board's cells,
//!   the pieces, a card set, a scenario's field): sent once, not in every view.
//! - [`FaultKind`] says, machine-readably, why an action was refused.
//!
//! `docs/protocol.md` documents every field with an example per game.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{GameId, Player, Seating, Team};

/// Something a person clicks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "kebab-case")]
pub enum Place {
    /// A cell of the board, named as the game writes it (`e4`, `m13`, a hex `d5`).
    Cell {
        /// The cell's name, one of the catalog board's cells.
        cell: String,
    },
    /// An item of a zone off the board: a card in a hand, a piece in a
    /// Reserve, a weapon in the Bank, a recruit on offer.
    Item {
        /// The zone's id (`hand`, `reserve`, `bank`...), one of the view's zones.
        zone: String,
        /// Whose zone it is; `None` for a shared zone (the Bank).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<Player>,
        /// The item's id within the zone (a card id, a piece letter).
        item: String,
    },
    /// A button beside the board (end the phase, pass, keep).
    Button {
        /// A stable id (`end-turn`, `pass`).
        button: String,
        /// What the button says.
        label: String,
    },
}

impl Place {
    /// A board cell.
    pub fn cell(cell: impl fmt::Display) -> Self {
        Place::Cell {
            cell: cell.to_string(),
        }
    }

    /// An item in a zone.
    pub fn item(zone: &str, owner: Option<Player>, item: impl fmt::Display) -> Self {
        Place::Item {
            zone: zone.to_owned(),
            owner,
            item: item.to_string(),
        }
    }

    /// A button.
    pub fn button(button: &str, label: impl Into<String>) -> Self {
        Place::Button {
            button: button.to_owned(),
            label: label.into(),
        }
    }
}

/// What sort of decision a gesture makes: the page picks icons, cursors and
/// sounds by it. Games use the closest kind; kinds are never game-specific
/// names of the same thing (a Warrior drop and a Lytharian placement differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GestureKind {
    /// A piece moves to an empty cell.
    Move,
    /// A piece moves and captures (chess-like games).
    Capture,
    /// A King castles (the King's move; the Rook's cells are touched).
    Castle,
    /// A piece from off the board enters it (Warrior's Reserve drops).
    Drop,
    /// A card or piece is set on the board during setup or a round.
    Place,
    /// A card or piece is picked for a match or a promotion.
    Pick,
    /// A spell is cast.
    Cast,
    /// A piece is chosen to act (Covenant activations).
    Activate,
    /// A piece attacks without necessarily moving (Lytharian troops, Covenant melee).
    Attack,
    /// A ranged attack (Covenant Arrows and Bolts).
    Shoot,
    /// A holy strike.
    Holy,
    /// Several adjacent foes struck at once.
    Sweep,
    /// A blast that strikes a ring of cells (Epoch's Mage).
    Blast,
    /// A piece's ability is used.
    Ability,
    /// A piece is healed.
    Heal,
    /// A piece is recruited onto the board.
    Recruit,
    /// A fallen foe is raised to one's side.
    Convert,
    /// Equipment or a weapon is attached to a piece.
    Arm,
    /// Something is bought.
    Buy,
    /// A card is spent for another resource (harness, reforge).
    Spend,
    /// A card is discarded.
    Discard,
    /// A facing or orientation is set.
    Face,
    /// A choice between staying and taking a square after a fight.
    Decide,
    /// The colours are swapped (Epoch's swap rule).
    Swap,
    /// A draw is claimed under a rule.
    Claim,
    /// Priority or a step is passed without acting.
    Pass,
    /// An act, phase or step ends.
    EndPhase,
    /// The turn ends.
    EndTurn,
}

/// A second step after the click pair: which of several actions sharing the
/// same clicks (a promotion piece, a Swords facing, an ability, extra sweep
/// targets).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Choice {
    /// A stable id, unique among the actions sharing the same clicks.
    pub id: String,
    /// What the picker shows ("Queen", "facing north", "Fireball").
    pub label: String,
}

impl Choice {
    /// A choice.
    pub fn new(id: impl Into<String>, label: impl Into<String>) -> Self {
        Choice {
            id: id.into(),
            label: label.into(),
        }
    }
}

/// How a person picks one legal action.
///
/// Within one decision no two legal actions have the same `from`, `to` and
/// `choice`; a page that finds several gestures with the same `from` and
/// `to` asks which (by `choice`, or by the action's notation where a choice
/// is absent).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Gesture {
    /// What sort of decision this is.
    pub kind: GestureKind,
    /// The first thing clicked.
    pub from: Place,
    /// The cell clicked second, where the action lands; `None` for a
    /// one-click action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Other cells the action touches, for highlighting: victims, a blast's
    /// ring, a sweep's other targets, the path walked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touches: Vec<String>,
    /// The second step, where the clicks alone do not decide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
}

impl Gesture {
    /// A gesture from `from` to the cell `to`.
    pub fn to(kind: GestureKind, from: Place, to: impl fmt::Display) -> Self {
        Gesture {
            kind,
            from,
            to: Some(to.to_string()),
            touches: Vec::new(),
            choice: None,
        }
    }

    /// A one-click gesture.
    pub fn click(kind: GestureKind, from: Place) -> Self {
        Gesture {
            kind,
            from,
            to: None,
            touches: Vec::new(),
            choice: None,
        }
    }

    /// A button gesture.
    pub fn button(kind: GestureKind, button: &str, label: impl Into<String>) -> Self {
        Gesture::click(kind, Place::button(button, label))
    }

    /// The same gesture, also touching `cells`.
    pub fn touching<I, C>(mut self, cells: I) -> Self
    where
        I: IntoIterator<Item = C>,
        C: fmt::Display,
    {
        self.touches
            .extend(cells.into_iter().map(|c| c.to_string()));
        self
    }

    /// The same gesture, with a second-step choice.
    pub fn choosing(mut self, id: impl Into<String>, label: impl Into<String>) -> Self {
        self.choice = Some(Choice::new(id, label));
        self
    }

    /// Every cell the gesture names (first click, landing, touched).
    pub fn cells(&self) -> impl Iterator<Item = &str> {
        let from = match &self.from {
            Place::Cell { cell } => Some(cell.as_str()),
            _ => None,
        };
        from.into_iter()
            .chain(self.to.as_deref())
            .chain(self.touches.iter().map(String::as_str))
    }

    /// What identifies the gesture among a decision's actions.
    pub fn identity(&self) -> (&Place, Option<&str>, Option<&Choice>) {
        (&self.from, self.to.as_deref(), self.choice.as_ref())
    }
}

/// Something a seat holds that everyone may know: money, mana, a hand's
/// size, points. A page shows `label: value` without knowing the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holding {
    /// A stable id (`money`, `mana`, `hand-size`).
    pub key: String,
    /// What a page shows beside the value ("Money").
    pub label: String,
    /// The value: a number, a word, or a list.
    pub value: serde_json::Value,
}

impl Holding {
    /// A holding.
    pub fn new(key: &str, label: &str, value: impl Into<serde_json::Value>) -> Self {
        Holding {
            key: key.to_owned(),
            label: label.to_owned(),
            value: value.into(),
        }
    }
}

/// A named place off the board whose items a viewer may see and click.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    /// The zone's id (`hand`, `reserve`, `bank`, `recruits`).
    pub zone: String,
    /// Whose zone; `None` for a shared one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Player>,
    /// What a page calls it ("Gold's hand").
    pub label: String,
    /// The items this viewer may see, in the zone's order.
    pub items: Vec<ZoneItem>,
    /// How many more items the zone holds that this viewer may not see
    /// (an opponent's hand).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hidden: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One item of a zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZoneItem {
    /// The item's id, as gestures name it (a card id, a piece letter).
    pub item: String,
    /// What a page shows ("Firebolt", "Queen").
    pub label: String,
    /// How many of it the zone holds.
    pub count: u32,
}

impl ZoneItem {
    /// An item.
    pub fn new(item: impl fmt::Display, label: impl Into<String>, count: u32) -> Self {
        ZoneItem {
            item: item.to_string(),
            label: label.into(),
            count,
        }
    }
}

/// What sort of thing happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EventKind {
    /// A piece moved.
    Move,
    /// A piece was captured or removed by a capture.
    Capture,
    /// A King castled.
    Castle,
    /// A piece entered the board from off it (a drop, a placement, a recruit).
    Enter,
    /// A piece was promoted or changed kind.
    Promote,
    /// A King (or the piece the book names) is in check.
    Check,
    /// Dice were rolled.
    Dice,
    /// An attack was made or announced whose result is still to come (a
    /// skirmish awaiting its dice); the `Fight` event gives the result.
    Attack,
    /// A fight decided by dice or stats ended, with its result.
    Fight,
    /// Damage was dealt.
    Damage,
    /// A piece fell (was killed, not captured by moving onto it).
    Fall,
    /// A piece was healed.
    Heal,
    /// A piece changed sides.
    Convert,
    /// Money, mana or another resource was gained or paid.
    Resource,
    /// Something was bought or armed.
    Buy,
    /// A spell or ability was cast or used (it goes on the stack).
    Cast,
    /// A spell or ability left the stack without effect.
    Countered,
    /// A spell or ability resolved.
    Resolved,
    /// Cards were drawn, discarded or shuffled.
    Cards,
    /// A round of a match was won, or points scored.
    Score,
    /// A piece woke, became enhanced or restricted, or armed a riposte.
    State,
    /// The colours were swapped.
    Swap,
    /// A phase, act or turn ended, or priority passed.
    Phase,
    /// The game ended.
    End,
}

/// One thing that happened, as data and as a sentence, cut to what its
/// viewer may know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// What sort of thing happened.
    pub kind: EventKind,
    /// Who did it, or whom it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Player>,
    /// The cells it happened on, for highlighting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<String>,
    /// The structured form: keys per event kind and game, documented in
    /// `docs/protocol.md`.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub data: serde_json::Map<String, serde_json::Value>,
    /// The sentence a page or terminal shows.
    pub text: String,
}

impl Event {
    /// An event with its sentence.
    pub fn new(kind: EventKind, text: impl Into<String>) -> Self {
        Event {
            kind,
            player: None,
            cells: Vec::new(),
            data: serde_json::Map::new(),
            text: text.into(),
        }
    }

    /// The same event, concerning `player`.
    pub fn by(mut self, player: Player) -> Self {
        self.player = Some(player);
        self
    }

    /// The same event, on these cells.
    pub fn at<I, C>(mut self, cells: I) -> Self
    where
        I: IntoIterator<Item = C>,
        C: fmt::Display,
    {
        self.cells.extend(cells.into_iter().map(|c| c.to_string()));
        self
    }

    /// The same event with one more structured field.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.data.insert(key.to_owned(), value.into());
        self
    }
}

/// The board's cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "kebab-case")]
pub enum BoardShape {
    /// A rectangle of squares; a cell is named file then rank (`a1`, `m13`).
    Squares {
        /// File names, left to right from the first player's side.
        files: Vec<String>,
        /// Rank names, nearest the first player first.
        ranks: Vec<String>,
    },
    /// A field of flat-top hexes.
    Hexes {
        /// Every hex of the field.
        cells: Vec<HexCell>,
    },
}

impl BoardShape {
    /// A board of `files` x `ranks` squares named `a1`...
    pub fn squares(files: u8, ranks: u8) -> Self {
        BoardShape::Squares {
            files: (0..files)
                .map(|f| char::from(b'a' + f).to_string())
                .collect(),
            ranks: (1..=ranks).map(|r| r.to_string()).collect(),
        }
    }

    /// Every cell's name.
    pub fn cells(&self) -> Vec<String> {
        match self {
            BoardShape::Squares { files, ranks } => ranks
                .iter()
                .flat_map(|r| files.iter().map(move |f| format!("{f}{r}")))
                .collect(),
            BoardShape::Hexes { cells } => cells.iter().map(|c| c.cell.clone()).collect(),
        }
    }
}

/// One hex of a flat-top field, with where to draw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HexCell {
    /// Its name (`d5`).
    pub cell: String,
    /// Its column, from the left.
    pub col: i32,
    /// Its row within the column, from the bottom; odd columns sit half a
    /// hex higher or lower as the game's catalog documents.
    pub row: i32,
    /// Its land and features (`plain`, `forest`, `holy-city`...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}

/// One kind of piece, as views name it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceKind {
    /// The id views use (`piece` fields).
    pub id: String,
    /// Its name in the rule book's words.
    pub name: String,
    /// The letter or short mark drawn on it.
    pub letter: String,
    /// Game-specific stats (Covenant's table row, Epoch's value).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub stats: serde_json::Value,
}

/// What never changes during a game, sent once per table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// The game.
    pub game: GameId,
    /// Its full name.
    pub title: String,
    /// The board's cells.
    pub board: BoardShape,
    /// Every kind of piece a view may name.
    pub pieces: Vec<PieceKind>,
    /// The rest, per game (Lytharia's card set, a Covenant scenario's field).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
}

/// Why an action was refused, machine-readably.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The text or JSON is not an action of this game.
    Unreadable,
    /// It is an action, but not a legal one now.
    Illegal,
    /// It could mean more than one legal action.
    Ambiguous,
    /// It is not this seat's decision.
    NotYourTurn,
    /// The game is over.
    GameOver,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Unreadable => "unreadable",
            FaultKind::Illegal => "illegal",
            FaultKind::Ambiguous => "ambiguous",
            FaultKind::NotYourTurn => "not your turn",
            FaultKind::GameOver => "game over",
        })
    }
}

/// The team that wins when `player` resigns: the other team of a two-team
/// table (a partner's resignation loses for both partners).
pub fn resignation_winner(seating: &Seating, player: Player) -> Option<Team> {
    let own = seating.team(player)?;
    let mut others = seating
        .players()
        .filter_map(|p| seating.team(p))
        .filter(|t| *t != own);
    let first = others.next()?;
    others.all(|t| t == first).then_some(first)
}

/// A stable 64-bit FNV-1a hash of bytes: the default state key hashes the
/// position text with it (stable across runs and platforms, unlike std's).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A [`std::hash::Hasher`] over FNV-1a, for games that hash their state with
/// `#[derive(Hash)]`: stable across runs, unlike std's `DefaultHasher`.
#[derive(Debug, Clone, Copy)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for StableHasher {
    fn finish(&self) -> u64 {
        // A final avalanche so that nearby states spread over all 64 bits.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigning_loses_for_the_whole_team() {
        let two = Seating::two_players();
        assert_eq!(resignation_winner(&two, Player(0)), Some(Team(1)));
        assert_eq!(resignation_winner(&two, Player(1)), Some(Team(0)));
        let doubles = Seating::with_teams(vec![Team(0), Team(1), Team(0), Team(1)]);
        assert_eq!(resignation_winner(&doubles, Player(2)), Some(Team(1)));
        assert_eq!(resignation_winner(&doubles, Player(3)), Some(Team(0)));
        assert_eq!(resignation_winner(&two, Player(5)), None);
    }

    #[test]
    fn square_boards_name_their_cells() {
        let cells = BoardShape::squares(13, 13).cells();
        assert_eq!(cells.len(), 169);
        assert_eq!(cells[0], "a1");
        assert_eq!(cells[168], "m13");
    }

    #[test]
    fn gestures_serialize_compactly() {
        let g = Gesture::to(GestureKind::Move, Place::cell("e7"), "e8").choosing("q", "Queen");
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            r#"{"kind":"move","from":{"at":"cell","cell":"e7"},"to":"e8","choice":{"id":"q","label":"Queen"}}"#
        );
        let back: Gesture = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
        assert_eq!(back, g);
    }

    #[test]
    fn the_stable_hasher_is_stable() {
        use std::hash::{Hash, Hasher};
        let mut h = StableHasher::default();
        (1u8, "e4").hash(&mut h);
        let a = h.finish();
        let mut h = StableHasher::default();
        (1u8, "e4").hash(&mut h);
        assert_eq!(h.finish(), a);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    }
}
