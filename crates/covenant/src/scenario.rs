//! Scenarios: the field (shape, terrain, Holy Cities) and the starting armies.
//!
//! The book gives no field, so scenarios are data: TOML files in the format
//! documented in `docs/rules/covenant.md`. Three are embedded in the crate
//! ([`ScenarioId`]); [`Scenario::from_toml`] reads any other.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::data::{Kind, PieceTable};
use crate::hex::{Hex, MAX_COLUMNS, MAX_ROWS};
use crate::side::Side;

/// The land of one hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Open ground: 1 MP to enter, no modifier.
    Open,
    /// Forest: rough (2 MP), +1 Defence.
    Forest,
    /// Hill: rough (2 MP), +1 Attack when striking a lower (non-hill) tile.
    Hill,
    /// Desert: rough (2 MP), -1 Defence.
    Desert,
}

impl Terrain {
    /// The map token: `.`, `f`, `h`, `d`.
    pub const fn token(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Forest => 'f',
            Terrain::Hill => 'h',
            Terrain::Desert => 'd',
        }
    }

    /// The land's name in catalogs and views: `open`, `forest`, `hill`, `desert`.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Forest => "forest",
            Terrain::Hill => "hill",
            Terrain::Desert => "desert",
        }
    }

    /// Whether entering costs the rough-ground price.
    pub const fn is_rough(self) -> bool {
        !matches!(self, Terrain::Open)
    }
}

/// A side's starting army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Army {
    /// Starting Grails.
    pub grails: u16,
    /// Starting pieces.
    pub pieces: Vec<(Kind, Hex)>,
}

/// A field and two armies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scenario {
    /// The id, as written in position text and the `scenario` option.
    pub id: String,
    /// The display name.
    pub name: String,
    /// One line about it.
    pub about: String,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    cells: Vec<Option<Terrain>>,
    city_of: Vec<Option<u8>>,
    /// The marked hex of each Holy City.
    pub cities: Vec<Hex>,
    /// The armies, Gold first.
    pub armies: [Army; 2],
}

/// Why a scenario file is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScenarioError {
    /// Not TOML, or not the expected shape.
    #[error("scenario: {0}")]
    Toml(String),
    /// One field is wrong.
    #[error("scenario '{scenario}', field '{field}': {reason}")]
    Field {
        /// The scenario's id (as far as it was read).
        scenario: String,
        /// The field (`map`, `holy-cities`, `gold.pieces`...).
        field: String,
        /// What is wrong.
        reason: String,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawScenario {
    id: String,
    name: String,
    #[serde(default)]
    about: String,
    map: String,
    #[serde(default)]
    holy_cities: Vec<String>,
    gold: RawArmy,
    blue: RawArmy,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    grails: i64,
    pieces: Vec<String>,
}

impl Scenario {
    /// Reads and validates a scenario against a piece table.
    pub fn from_toml(text: &str, table: &PieceTable) -> Result<Self, ScenarioError> {
        let raw: RawScenario =
            toml::from_str(text).map_err(|e| ScenarioError::Toml(e.to_string()))?;
        let err = |field: &str, reason: String| ScenarioError::Field {
            scenario: raw.id.clone(),
            field: field.to_owned(),
            reason,
        };
        let id_ok = !raw.id.is_empty()
            && raw.id.len() <= 32
            && raw
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && raw.id.as_bytes()[0].is_ascii_lowercase();
        if !id_ok {
            return Err(err(
                "id",
                "1 to 32 lower-case letters, digits and '-', starting with a letter".to_owned(),
            ));
        }
        if raw.name.trim().is_empty() {
            return Err(err("name", "empty".to_owned()));
        }
        let lines: Vec<Vec<&str>> = raw
            .map
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|l| !l.is_empty())
            .collect();
        let height = lines.len();
        if height == 0 || height > usize::from(MAX_ROWS) {
            return Err(err(
                "map",
                format!("{height} rows; a field has 1 to {MAX_ROWS}"),
            ));
        }
        let width = lines[0].len();
        if width == 0 || width > usize::from(MAX_COLUMNS) {
            return Err(err(
                "map",
                format!("{width} columns; a field has 1 to {MAX_COLUMNS}"),
            ));
        }
        let mut cells = vec![None; width * height];
        for (i, line) in lines.iter().enumerate() {
            let row = height - 1 - i;
            if line.len() != width {
                return Err(err(
                    "map",
                    format!(
                        "row {} has {} hexes but the top row has {width}",
                        row + 1,
                        line.len()
                    ),
                ));
            }
            for (col, token) in line.iter().enumerate() {
                cells[row * width + col] = match *token {
                    "." => Some(Terrain::Open),
                    "f" => Some(Terrain::Forest),
                    "h" => Some(Terrain::Hill),
                    "d" => Some(Terrain::Desert),
                    "-" => None,
                    other => {
                        return Err(err(
                            "map",
                            format!(
                                "'{other}' at {} is not one of . f h d -",
                                Hex::new(col as u8, row as u8)
                            ),
                        ));
                    }
                };
            }
        }
        if cells.iter().all(Option::is_none) {
            return Err(err("map", "the field has no hex".to_owned()));
        }
        let mut scenario = Scenario {
            id: raw.id.clone(),
            name: raw.name.clone(),
            about: raw.about.clone(),
            width: width as u8,
            height: height as u8,
            city_of: vec![None; cells.len()],
            cells,
            cities: Vec::new(),
            armies: [
                Army {
                    grails: 0,
                    pieces: Vec::new(),
                },
                Army {
                    grails: 0,
                    pieces: Vec::new(),
                },
            ],
        };
        if raw.holy_cities.len() > 64 {
            return Err(err("holy-cities", "more than 64 cities".to_owned()));
        }
        for text in &raw.holy_cities {
            let centre: Hex = text
                .parse()
                .map_err(|e: crate::hex::BadHex| err("holy-cities", e.to_string()))?;
            if !scenario.contains(centre) {
                return Err(err("holy-cities", format!("{centre} is not on the field")));
            }
            let index = scenario.cities.len() as u8;
            let area: Vec<Hex> = scenario.city_area(centre).collect();
            for hex in area {
                let cell = scenario.index(hex).unwrap_or(0);
                if let Some(other) = scenario.city_of[cell] {
                    return Err(err(
                        "holy-cities",
                        format!(
                            "{centre} and {} overlap at {hex}; cities need 3 tiles between their marked hexes",
                            scenario.cities[usize::from(other)]
                        ),
                    ));
                }
                scenario.city_of[cell] = Some(index);
            }
            scenario.cities.push(centre);
        }
        let mut seen: Vec<Hex> = Vec::new();
        for (side, army) in [(Side::Gold, &raw.gold), (Side::Blue, &raw.blue)] {
            let field = format!("{}.pieces", side.name().to_lowercase());
            if !(0..=9999).contains(&army.grails) {
                return Err(err(
                    &format!("{}.grails", side.name().to_lowercase()),
                    format!("{} is not in 0..=9999", army.grails),
                ));
            }
            let mut pieces: Vec<(Kind, Hex)> = Vec::new();
            for entry in &army.pieces {
                let mut words = entry.split_whitespace();
                let (Some(name), Some(at), None) = (words.next(), words.next(), words.next())
                else {
                    return Err(err(
                        &field,
                        format!("'{entry}' is not \"<piece> <hex>\", like \"King e1\""),
                    ));
                };
                let kind = table
                    .find(name)
                    .ok_or_else(|| err(&field, format!("no piece is called '{name}'")))?;
                let hex: Hex = at
                    .parse()
                    .map_err(|e: crate::hex::BadHex| err(&field, e.to_string()))?;
                if !scenario.contains(hex) {
                    return Err(err(&field, format!("{hex} is not on the field")));
                }
                if seen.contains(&hex) {
                    return Err(err(&field, format!("two pieces stand on {hex}")));
                }
                seen.push(hex);
                pieces.push((kind, hex));
            }
            for kind in table.kinds() {
                let count = pieces.iter().filter(|(k, _)| *k == kind).count();
                let t = table.get(kind);
                if let Some(limit) = t.limit
                    && count > usize::from(limit)
                {
                    return Err(err(
                        &field,
                        format!("{count} {}s; the limit is {limit}", t.name),
                    ));
                }
                if t.king && count != 1 {
                    return Err(err(&field, format!("{count} Kings; an army has one")));
                }
            }
            scenario.armies[side.index()] = Army {
                grails: army.grails as u16,
                pieces,
            };
        }
        Ok(scenario)
    }

    /// The built-in scenario `id`.
    pub fn builtin(id: ScenarioId) -> Arc<Scenario> {
        static CACHE: OnceLock<[Arc<Scenario>; 3]> = OnceLock::new();
        let all = CACHE.get_or_init(|| {
            ScenarioId::ALL.map(|id| {
                match Scenario::from_toml(id.source(), PieceTable::builtin()) {
                    Ok(s) => Arc::new(s),
                    Err(e) => panic!("the embedded scenario {id} is invalid: {e}"),
                }
            })
        });
        all[id as usize].clone()
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        (hex.col < self.width && hex.row < self.height)
            .then(|| usize::from(hex.row) * usize::from(self.width) + usize::from(hex.col))
    }

    /// The number of cells in the field's bounding rectangle (for dense tables
    /// indexed by [`Scenario::cell`]).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The dense index of a hex of the field.
    pub fn cell(&self, hex: Hex) -> Option<usize> {
        self.index(hex).filter(|&i| self.cells[i].is_some())
    }

    /// Whether the hex is part of the field.
    pub fn contains(&self, hex: Hex) -> bool {
        self.cell(hex).is_some()
    }

    /// The terrain of a hex of the field.
    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.index(hex).and_then(|i| self.cells[i])
    }

    /// The Holy City a hex belongs to (its index in [`Scenario::cities`]).
    pub fn city(&self, hex: Hex) -> Option<u8> {
        self.index(hex).and_then(|i| self.city_of[i])
    }

    /// The hexes of a city: the marked hex and those of its six neighbours
    /// that lie on the field.
    pub fn city_area(&self, centre: Hex) -> impl Iterator<Item = Hex> + '_ {
        std::iter::once(centre)
            .chain(centre.neighbours())
            .filter(|&h| self.contains(h))
    }

    /// The neighbours of a hex that lie on the field.
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        hex.neighbours().filter(|&h| self.contains(h))
    }

    /// Every hex of the field, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.width)
            .flat_map(move |c| (0..self.height).map(move |r| Hex::new(c, r)))
            .filter(|&h| self.contains(h))
    }
}

/// The scenarios shipped with the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioId {
    /// Lessons and tests: a plain field, Kings only.
    Arena,
    /// The quick game.
    Crossroads,
    /// The full game (the default).
    #[default]
    Pilgrimage,
}

impl ScenarioId {
    /// Every built-in scenario.
    pub const ALL: [ScenarioId; 3] = [
        ScenarioId::Arena,
        ScenarioId::Crossroads,
        ScenarioId::Pilgrimage,
    ];

    /// The id as text.
    pub const fn as_str(self) -> &'static str {
        match self {
            ScenarioId::Arena => "arena",
            ScenarioId::Crossroads => "crossroads",
            ScenarioId::Pilgrimage => "pilgrimage",
        }
    }

    /// The TOML source.
    pub const fn source(self) -> &'static str {
        match self {
            ScenarioId::Arena => include_str!("../data/scenarios/arena.toml"),
            ScenarioId::Crossroads => include_str!("../data/scenarios/crossroads.toml"),
            ScenarioId::Pilgrimage => include_str!("../data/scenarios/pilgrimage.toml"),
        }
    }
}

impl fmt::Display for ScenarioId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scenario name that is not built in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("no built-in scenario '{0}' (known: arena, crossroads, pilgrimage)")]
pub struct UnknownScenario(pub String);

impl FromStr for ScenarioId {
    type Err = UnknownScenario;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ScenarioId::ALL
            .into_iter()
            .find(|id| id.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownScenario(s.to_owned()))
    }
}
