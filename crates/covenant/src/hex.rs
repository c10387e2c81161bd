//! Hex coordinates: flat-top hexes, axial arithmetic, chess-like names.
//!
//! A field is drawn in columns of flat-top hexes. Columns are lettered from
//! `a` (left) and rows numbered from `1` (Gold's edge, at the bottom), so a
//! hex reads like a chess square: `d4`. Odd columns (`b`, `d`, `f`...) stand
//! half a hex higher than even ones (an "odd-q" layout with rows counted
//! upward), so `a1` touches `b1` but not `b2`, and `b1` touches `a1` and `a2`.
//!
//! Internally distances and neighbours use axial coordinates `(q, r)` with
//! `q = column` and `r = row - column / 2`; [`Hex`] converts both ways.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The largest number of columns a field may have (`a` to `z`).
pub const MAX_COLUMNS: u8 = 26;
/// The largest number of rows a field may have.
pub const MAX_ROWS: u8 = 99;

/// One hex of a field, by column (0 = `a`) and row (0 = row `1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    /// The column, 0-based (`a` is 0).
    pub col: u8,
    /// The row, 0-based (row `1` is 0), counted from Gold's edge.
    pub row: u8,
}

/// The six axial directions, counter-clockwise from "up and right".
const DIRECTIONS: [(i16, i16); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

impl Hex {
    /// The hex at `col`, `row` (both 0-based).
    pub const fn new(col: u8, row: u8) -> Self {
        Hex { col, row }
    }

    /// Axial coordinates `(q, r)`.
    pub const fn axial(self) -> (i16, i16) {
        let q = self.col as i16;
        (q, self.row as i16 - q / 2)
    }

    /// The hex with axial coordinates `(q, r)`, if it has a name (column
    /// `a`-`z`, row `1`-`99`).
    pub fn from_axial(q: i16, r: i16) -> Option<Self> {
        if !(0..i16::from(MAX_COLUMNS)).contains(&q) {
            return None;
        }
        let row = r + q / 2;
        if !(0..i16::from(MAX_ROWS)).contains(&row) {
            return None;
        }
        Some(Hex::new(q as u8, row as u8))
    }

    /// The number of steps between two hexes.
    pub fn distance(self, other: Hex) -> u8 {
        let (q1, r1) = self.axial();
        let (q2, r2) = other.axial();
        let (dq, dr) = (q1 - q2, r1 - r2);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u8
    }

    /// The (up to six) named hexes touching this one. Whether they lie on a
    /// given field is the field's business.
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        let (q, r) = self.axial();
        DIRECTIONS
            .iter()
            .filter_map(move |&(dq, dr)| Hex::from_axial(q + dq, r + dr))
    }

    /// Every named hex within `radius` steps, this one included.
    pub fn within(self, radius: u8) -> impl Iterator<Item = Hex> {
        let (q, r) = self.axial();
        let n = i16::from(radius);
        (-n..=n).flat_map(move |dq| {
            let lo = (-n).max(-dq - n);
            let hi = n.min(-dq + n);
            (lo..=hi).filter_map(move |dr| Hex::from_axial(q + dq, r + dr))
        })
    }

    /// Whether two hexes touch.
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.col),
            u16::from(self.row) + 1
        )
    }
}

/// A hex name that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a hex (a column letter a-z and a row 1-99, like d4)")]
pub struct BadHex(pub String);

impl FromStr for Hex {
    type Err = BadHex;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadHex(s.to_owned());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        Ok(Hex::new(letter as u8 - b'a', row - 1))
    }
}

impl Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn names_round_trip() {
        for col in 0..MAX_COLUMNS {
            for row in 0..MAX_ROWS {
                let hex = Hex::new(col, row);
                assert_eq!(hex.to_string().parse::<Hex>(), Ok(hex));
                let (q, r) = hex.axial();
                assert_eq!(Hex::from_axial(q, r), Some(hex));
            }
        }
        for bad in ["", "4", "d", "d0", "d04", "d100", "?3", "dd4", "d-1"] {
            assert!(bad.parse::<Hex>().is_err(), "{bad}");
        }
        assert_eq!(h("D4"), h("d4"));
    }

    #[test]
    fn odd_columns_stand_half_a_hex_higher() {
        let mut a1: Vec<String> = h("a1").neighbours().map(|x| x.to_string()).collect();
        a1.sort();
        assert_eq!(a1, ["a2", "b1"]);
        let mut b1: Vec<String> = h("b1").neighbours().map(|x| x.to_string()).collect();
        b1.sort();
        assert_eq!(b1, ["a1", "a2", "b2", "c1", "c2"]);
        let mut c3: Vec<String> = h("c3").neighbours().map(|x| x.to_string()).collect();
        c3.sort();
        assert_eq!(c3, ["b2", "b3", "c2", "c4", "d2", "d3"]);
    }

    #[test]
    fn distance_and_rings() {
        assert_eq!(h("a1").distance(h("a1")), 0);
        assert_eq!(h("a1").distance(h("b1")), 1);
        assert_eq!(h("a1").distance(h("b2")), 2);
        assert_eq!(h("a1").distance(h("a5")), 4);
        assert_eq!(h("a1").distance(h("e3")), 4);
        assert_eq!(h("a1").distance(h("e4")), 5);
        let centre = h("k20");
        assert_eq!(centre.within(4).count(), 61);
        assert_eq!(centre.within(1).count(), 7);
        for x in centre.within(4) {
            assert!(centre.distance(x) <= 4);
        }
        for n in centre.neighbours() {
            assert!(n.is_adjacent(centre));
        }
        // Clipped at the edge of the nameable world.
        assert_eq!(h("a1").within(1).count(), 3);
    }
}
