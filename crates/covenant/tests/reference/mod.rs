//! A deliberately simple second rules engine for Covenant Chess, written
//! straight from the book (`shared/rules/covenant-chess.txt`, rules version
//! 1.9.3) and the readings recorded in `docs/rules/covenant.md` (cited below
//! as "decision N"), to check the fast engine in `src/` against.
//!
//! Nothing here is shared with `src/`: the piece table is typed in from the
//! book's section 8 (row order from `shared/rules/README.md`, codes from the
//! notation), the scenario files are read with the `toml` crate, hexes are
//! plain `(column, row)` pairs with the neighbours the rules page draws, the
//! position text is parsed and written here, and the legal actions are
//! listed in the engine's canonical notation. Pieces are a plain `Vec`
//! searched linearly; reach is a Dijkstra over the whole field every time.
//! It is slow on purpose; its only job is to read the book independently.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

// ---------------------------------------------------------------------------
// Hexes
// ---------------------------------------------------------------------------

/// A hex as (column 0.. = a.., row 0.. = 1..).
pub type Hx = (i32, i32);

/// The six neighbours, from the rules page's picture: "Odd columns (b, d,
/// f...) stand half a hex higher than even ones, so a1 touches a2 and b1; b1
/// touches a1, a2, b2, c1, c2; c3 touches b2, b3, c2, c4, d2, d3".
pub fn neighbours(h: Hx) -> [Hx; 6] {
    let (c, r) = h;
    if c % 2 == 0 {
        [
            (c, r + 1),
            (c, r - 1),
            (c - 1, r),
            (c - 1, r - 1),
            (c + 1, r),
            (c + 1, r - 1),
        ]
    } else {
        [
            (c, r + 1),
            (c, r - 1),
            (c - 1, r),
            (c - 1, r + 1),
            (c + 1, r),
            (c + 1, r + 1),
        ]
    }
}

/// Hex distance, through cube coordinates of the layout above (checked
/// against a breadth-first count in the tests below).
pub fn distance(a: Hx, b: Hx) -> i32 {
    let cube = |(c, r): Hx| {
        let x = c;
        let z = r - (c - (c & 1)) / 2;
        (x, z)
    };
    let (ax, az) = cube(a);
    let (bx, bz) = cube(b);
    let dx = ax - bx;
    let dz = az - bz;
    (dx.abs() + dz.abs() + (dx + dz).abs()) / 2
}

pub fn adjacent(a: Hx, b: Hx) -> bool {
    neighbours(a).contains(&b)
}

pub fn hex_text(h: Hx) -> String {
    format!("{}{}", (b'a' + h.0 as u8) as char, h.1 + 1)
}

pub fn parse_hex(s: &str) -> Option<Hx> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if !c.is_ascii_lowercase() {
        return None;
    }
    let row: i32 = chars.as_str().parse().ok()?;
    if row < 1 {
        return None;
    }
    Some((i32::from(c as u8 - b'a'), row - 1))
}

// ---------------------------------------------------------------------------
// The piece table (section 8), typed in from the book
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum K {
    King,
    Queen,
    Heir,
    Princess,
    Maiden,
    Militia,
    Pikeman,
    Archer,
    Blade,
    Vanguard,
    Berserker,
    Bastion,
    Apostle,
    Prophet,
    Lancer,
    Templar,
    Ranger,
    Angel,
    Paladin,
    Attila,
    Wayfarer,
    Elias,
    Levite,
}

pub const ALL_KINDS: [K; 23] = [
    K::King,
    K::Queen,
    K::Heir,
    K::Princess,
    K::Maiden,
    K::Militia,
    K::Pikeman,
    K::Archer,
    K::Blade,
    K::Vanguard,
    K::Berserker,
    K::Bastion,
    K::Apostle,
    K::Prophet,
    K::Lancer,
    K::Templar,
    K::Ranger,
    K::Angel,
    K::Paladin,
    K::Attila,
    K::Wayfarer,
    K::Elias,
    K::Levite,
];

/// One row: Atk, Def, Blood, Speed, Grails (None: "—"), Limit (None:
/// unlimited), and the code the notation uses.
pub struct Row {
    pub atk: i32,
    pub def: i32,
    pub blood: i32,
    pub speed: i32,
    pub price: Option<u32>,
    pub limit: Option<usize>,
    pub code: &'static str,
}

const fn row(
    atk: i32,
    def: i32,
    blood: i32,
    speed: i32,
    price: Option<u32>,
    limit: Option<usize>,
    code: &'static str,
) -> Row {
    Row {
        atk,
        def,
        blood,
        speed,
        price,
        limit,
        code,
    }
}

impl K {
    pub fn row(self) -> Row {
        use K::*;
        let one = Some(1);
        match self {
            King => row(3, 4, 15, 4, None, one, "Ki"),
            Queen => row(1, 1, 12, 4, Some(3), one, "Qu"),
            Heir => row(3, 4, 15, 4, Some(3), one, "He"),
            Princess => row(1, 1, 12, 4, Some(3), one, "Pr"),
            Maiden => row(2, 2, 12, 4, Some(4), one, "Ma"),
            Militia => row(2, 3, 12, 4, Some(1), None, "Mi"),
            Pikeman => row(2, 2, 12, 4, Some(1), None, "Pk"),
            Archer => row(2, 1, 12, 4, Some(1), None, "Ar"),
            Blade => row(4, 1, 12, 4, Some(1), None, "Bl"),
            Vanguard => row(3, 5, 15, 4, Some(2), None, "Va"),
            Berserker => row(5, 3, 15, 4, Some(2), None, "Be"),
            Bastion => row(1, 7, 20, 2, Some(2), None, "Ba"),
            Apostle => row(2, 1, 12, 4, Some(2), None, "Ap"),
            Prophet => row(1, 1, 12, 4, Some(2), None, "Ph"),
            Lancer => row(3, 4, 15, 8, Some(2), None, "La"),
            Templar => row(5, 5, 15, 8, Some(2), None, "Te"),
            Ranger => row(3, 2, 15, 8, Some(2), None, "Ra"),
            Angel => row(0, 1, 12, 4, Some(4), one, "An"),
            Paladin => row(7, 7, 15, 8, Some(4), one, "Pa"),
            Attila => row(4, 3, 15, 8, Some(4), one, "At"),
            Wayfarer => row(5, 3, 15, 4, Some(4), one, "Wa"),
            Elias => row(3, 2, 12, 4, Some(4), one, "El"),
            Levite => row(3, 1, 15, 4, Some(4), one, "Le"),
        }
    }

    pub fn code(self) -> &'static str {
        self.row().code
    }

    pub fn from_code(code: &str) -> Option<K> {
        ALL_KINDS.into_iter().find(|k| k.code() == code)
    }

    /// Section 4: "A royal (King, Queen, Heir, Princess, Maiden)".
    pub fn royal(self) -> bool {
        matches!(self, K::King | K::Queen | K::Heir | K::Princess | K::Maiden)
    }

    /// The book's ★.
    pub fn legend(self) -> bool {
        matches!(
            self,
            K::Maiden | K::Angel | K::Paladin | K::Attila | K::Wayfarer | K::Elias | K::Levite
        )
    }

    /// Decision 14: riders are the Speed-8 mounted pieces.
    pub fn rider(self) -> bool {
        self.row().speed == 8
    }

    /// Acts a turn without buying any: Sacrifice and Two acts give 2.
    pub fn base_acts(self) -> u8 {
        match self {
            K::Templar | K::Paladin | K::Wayfarer => 2,
            _ => 1,
        }
    }

    /// Sacrifice: "may act a second time in a turn, then loses 4 Blood".
    pub fn sacrifice(self) -> bool {
        matches!(self, K::Templar | K::Paladin)
    }

    /// Charge: +min(max, tiles - 1) (the table's "+0/+1/+2/+3 by tiles moved").
    pub fn charge_max(self) -> Option<i32> {
        match self {
            K::Pikeman => Some(3),
            K::Lancer => Some(7),
            _ => None,
        }
    }

    /// Arrows and Bolts: (range, MP a shot, constant attack).
    pub fn shots(self) -> Option<(i32, i32, i32)> {
        match self {
            K::Archer => Some((4, 3, 2)),
            K::Ranger => Some((4, 3, 3)),
            K::Attila => Some((4, 3, 4)),
            K::Bastion => Some((2, 2, 1)),
            _ => None,
        }
    }

    /// Holy strike: (flat damage, range, MP a cast).
    pub fn holy(self) -> Option<(i32, i32, i32)> {
        match self {
            K::Apostle => Some((6, 2, 2)),
            K::Elias => Some((7, 2, 2)),
            _ => None,
        }
    }

    /// "never royals or Legends" (Convert); the King has no price either.
    pub fn convertible(self) -> bool {
        !self.royal() && !self.legend()
    }
}

// ---------------------------------------------------------------------------
// The field, read from the scenario files
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Land {
    Open,
    Forest,
    Hill,
    Desert,
}

#[derive(Debug)]
pub struct Field {
    pub id: String,
    pub cols: i32,
    pub rows: i32,
    land: BTreeMap<Hx, Land>,
    /// The marked hexes.
    pub cities: Vec<Hx>,
    /// Each hex of the field in a city (marked hex or a neighbour on the field).
    city_hex: BTreeMap<Hx, usize>,
}

impl Field {
    pub fn from_toml(text: &str) -> Field {
        let v: toml::Table = text.parse().expect("scenario TOML");
        let id = v["id"].as_str().unwrap().to_owned();
        let map = v["map"].as_str().unwrap();
        let lines: Vec<&str> = map.lines().filter(|l| !l.trim().is_empty()).collect();
        let rows = lines.len() as i32;
        let mut cols = 0;
        let mut land = BTreeMap::new();
        for (i, line) in lines.iter().enumerate() {
            let r = rows - 1 - i as i32;
            for (c, tok) in line.split_whitespace().enumerate() {
                cols = cols.max(c as i32 + 1);
                let l = match tok {
                    "." => Land::Open,
                    "f" => Land::Forest,
                    "h" => Land::Hill,
                    "d" => Land::Desert,
                    "-" => continue,
                    other => panic!("map token {other}"),
                };
                land.insert((c as i32, r), l);
            }
        }
        let cities: Vec<Hx> = v["holy-cities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| parse_hex(c.as_str().unwrap()).unwrap())
            .collect();
        let mut city_hex = BTreeMap::new();
        for (i, &c) in cities.iter().enumerate() {
            city_hex.insert(c, i);
            for n in neighbours(c) {
                if land.contains_key(&n) {
                    city_hex.insert(n, i);
                }
            }
        }
        Field {
            id,
            cols,
            rows,
            land,
            cities,
            city_hex,
        }
    }

    pub fn on(&self, h: Hx) -> bool {
        self.land.contains_key(&h)
    }

    pub fn land(&self, h: Hx) -> Land {
        self.land[&h]
    }

    pub fn in_city(&self, h: Hx) -> bool {
        self.city_hex.contains_key(&h)
    }

    /// The city's hexes: the marked hex and its neighbours on the field.
    pub fn city_area(&self, i: usize) -> Vec<Hx> {
        self.city_hex
            .iter()
            .filter(|&(_, &c)| c == i)
            .map(|(&h, _)| h)
            .collect()
    }

    pub fn hexes(&self) -> impl Iterator<Item = Hx> + '_ {
        self.land.keys().copied()
    }

    /// "Walking costs 1 MP per tile, and 2 MP to enter forest, hill or desert."
    pub fn cost(&self, h: Hx) -> i32 {
        match self.land(h) {
            Land::Open => 1,
            _ => 2,
        }
    }
}

pub fn field(id: &str) -> Arc<Field> {
    static FIELDS: OnceLock<Vec<Arc<Field>>> = OnceLock::new();
    let all = FIELDS.get_or_init(|| {
        [
            include_str!("../../data/scenarios/arena.toml"),
            include_str!("../../data/scenarios/crossroads.toml"),
            include_str!("../../data/scenarios/pilgrimage.toml"),
        ]
        .iter()
        .map(|t| Arc::new(Field::from_toml(t)))
        .collect()
    });
    all.iter()
        .find(|f| f.id == id)
        .cloned()
        .unwrap_or_else(|| panic!("no scenario {id}"))
}

/// Each army of a scenario file: (grails, pieces).
pub fn start_text(id: &str) -> String {
    let text = match id {
        "arena" => include_str!("../../data/scenarios/arena.toml"),
        "crossroads" => include_str!("../../data/scenarios/crossroads.toml"),
        "pilgrimage" => include_str!("../../data/scenarios/pilgrimage.toml"),
        _ => panic!("{id}"),
    };
    let v: toml::Table = text.parse().unwrap();
    let mut pieces = Vec::new();
    let mut grails = [0; 2];
    for (s, name) in ["gold", "blue"].iter().enumerate() {
        let army = v[*name].as_table().unwrap();
        grails[s] = army["grails"].as_integer().unwrap() as u32;
        for p in army["pieces"].as_array().unwrap() {
            let (kind, hex) = p.as_str().unwrap().split_once(' ').unwrap();
            let k = ALL_KINDS
                .into_iter()
                .find(|k| format!("{k:?}") == kind)
                .unwrap();
            pieces.push(RP::new(s as u8, k, parse_hex(hex).unwrap()));
        }
    }
    let mut g = RGame {
        field: field(id),
        opts: ROpts::default(),
        side: 0,
        round: 1,
        quiet: 0,
        captured: false,
        grails,
        active: None,
        convert: None,
        pieces,
    };
    // "Gold's first turn counts" (decision 36): the start of Gold's turn.
    g.start_turn();
    g.text()
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

/// The options that change readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ROpts {
    /// Decision 20: wrath 11 (Attack 7, Defence 0, + 4) or a flat 7.
    pub wrath_flat7: bool,
    /// Decision 19: the Curse spares the Bastion.
    pub curse_spares_wall: bool,
    /// Decision 28: Sacrifice never below 1 Blood.
    pub sacrifice_spares: bool,
}

/// A piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RP {
    pub side: u8,
    pub kind: K,
    pub at: Hx,
    pub blood: i32,
    /// Acts begun this turn (the Maiden's extra act included).
    pub acts: u8,
    pub extra: bool,
    pub healed: bool,
    pub countered: bool,
    pub idle: bool,
}

impl RP {
    pub fn new(side: u8, kind: K, at: Hx) -> RP {
        RP {
            side,
            kind,
            at,
            blood: kind.row().blood,
            acts: 0,
            extra: false,
            healed: false,
            countered: false,
            idle: false,
        }
    }
}

/// The active piece: where, MP left, tiles walked this act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RActive {
    pub at: Hx,
    pub mp: i32,
    pub tiles: i32,
}

#[derive(Debug, Clone)]
pub struct RGame {
    pub field: Arc<Field>,
    pub opts: ROpts,
    /// 0 Gold, 1 Blue.
    pub side: u8,
    pub round: u32,
    pub quiet: u32,
    pub captured: bool,
    pub grails: [u32; 2],
    pub active: Option<RActive>,
    pub convert: Option<(K, Hx)>,
    pub pieces: Vec<RP>,
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum REnd {
    /// The side (0 Gold, 1 Blue) whose enemy has no King.
    Won(u8),
    /// "30 rounds without a capture is a draw."
    Drawn,
}

/// One action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RAct {
    Act(Hx),
    Extra(Hx),
    Move(Hx),
    Melee(Hx),
    Shoot(Hx),
    Holy(Hx),
    /// The first target, then the others in column-then-row order.
    Sweep(Vec<Hx>),
    Heal(Hx, Hx),
    Recruit(Hx, K),
    Convert(Hx),
    EndAct,
    EndTurn,
}

impl RAct {
    /// The engine's canonical notation (`docs/rules/covenant.md`).
    pub fn text(&self) -> String {
        match self {
            RAct::Act(h) => format!("act@{}", hex_text(*h)),
            RAct::Extra(h) => format!("extra@{}", hex_text(*h)),
            RAct::Move(h) => format!("move@{}", hex_text(*h)),
            RAct::Melee(h) => format!("melee@{}", hex_text(*h)),
            RAct::Shoot(h) => format!("shoot@{}", hex_text(*h)),
            RAct::Holy(h) => format!("holy@{}", hex_text(*h)),
            RAct::Sweep(hs) => format!(
                "sweep@{}",
                hs.iter()
                    .map(|&h| hex_text(h))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            RAct::Heal(a, b) => format!("heal@{}:{}", hex_text(*a), hex_text(*b)),
            RAct::Recruit(h, k) => format!("recruit@{}:{}", hex_text(*h), k.code()),
            RAct::Convert(h) => format!("convert@{}", hex_text(*h)),
            RAct::EndAct => "end-act".to_owned(),
            RAct::EndTurn => "end-turn".to_owned(),
        }
    }

    /// A hostile action: a blow, a shot, a cast or a sweep.
    pub fn is_attack(&self) -> bool {
        matches!(
            self,
            RAct::Melee(_) | RAct::Shoot(_) | RAct::Holy(_) | RAct::Sweep(_)
        )
    }
}

fn parse_piece(tok: &str) -> Result<RP, String> {
    let side = match &tok[..1] {
        "g" => 0,
        "b" => 1,
        _ => return Err(format!("side of {tok}")),
    };
    let (code, rest) = tok[1..].split_once('@').ok_or("no @")?;
    let kind = K::from_code(code).ok_or_else(|| format!("code {code}"))?;
    let (place, flags) = match rest.split_once(':') {
        Some((p, f)) => (p, f),
        None => (rest, ""),
    };
    let (h, blood) = match place.split_once('=') {
        Some((h, b)) => (h, b.parse::<i32>().map_err(|e| e.to_string())?),
        None => (place, kind.row().blood),
    };
    let mut p = RP::new(side, kind, parse_hex(h).ok_or("hex")?);
    p.blood = blood;
    for c in flags.chars() {
        match c {
            '0'..='9' => p.acts = c as u8 - b'0',
            'x' => p.extra = true,
            'h' => p.healed = true,
            'c' => p.countered = true,
            'i' => p.idle = true,
            _ => return Err(format!("flag {c}")),
        }
    }
    Ok(p)
}

impl RGame {
    /// Reads the position text (`docs/rules/covenant.md`, "Position text").
    pub fn from_text(text: &str, opts: ROpts) -> Result<RGame, String> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 8 {
            return Err("8 fields".into());
        }
        let field = field(f[0]);
        let side = match f[1] {
            "g" => 0,
            "b" => 1,
            _ => return Err("side".into()),
        };
        let round = f[2].parse().map_err(|_| "round")?;
        let (q, captured) = match f[3].strip_suffix('*') {
            Some(q) => (q, true),
            None => (f[3], false),
        };
        let quiet = q.parse().map_err(|_| "quiet")?;
        let (g, b) = f[4].split_once('/').ok_or("grails")?;
        let grails = [
            g.parse().map_err(|_| "grails")?,
            b.parse().map_err(|_| "grails")?,
        ];
        let active = if f[5] == "-" {
            None
        } else {
            let p: Vec<&str> = f[5].split(':').collect();
            Some(RActive {
                at: parse_hex(p[0]).ok_or("active")?,
                mp: p[1].parse().map_err(|_| "mp")?,
                tiles: p[2].parse().map_err(|_| "tiles")?,
            })
        };
        let convert = if f[6] == "-" {
            None
        } else {
            let (c, h) = f[6].split_once('@').ok_or("convert")?;
            Some((
                K::from_code(c).ok_or("convert code")?,
                parse_hex(h).ok_or("convert hex")?,
            ))
        };
        let pieces = f[7]
            .split(',')
            .map(parse_piece)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RGame {
            field,
            opts,
            side,
            round,
            quiet,
            captured,
            grails,
            active,
            convert,
            pieces,
        })
    }

    /// Writes the position text: pieces in hex order (column, then row).
    pub fn text(&self) -> String {
        let mut ps: Vec<&RP> = self.pieces.iter().collect();
        ps.sort_by_key(|p| p.at);
        let pieces: Vec<String> = ps
            .iter()
            .map(|p| {
                let mut s = format!(
                    "{}{}@{}",
                    if p.side == 0 { 'g' } else { 'b' },
                    p.kind.code(),
                    hex_text(p.at)
                );
                if p.blood != p.kind.row().blood {
                    s += &format!("={}", p.blood);
                }
                let mut fl = String::new();
                if p.acts > 0 {
                    fl += &p.acts.to_string();
                }
                for (on, c) in [
                    (p.extra, 'x'),
                    (p.healed, 'h'),
                    (p.countered, 'c'),
                    (p.idle, 'i'),
                ] {
                    if on {
                        fl.push(c);
                    }
                }
                if !fl.is_empty() {
                    s += ":";
                    s += &fl;
                }
                s
            })
            .collect();
        format!(
            "{} {} {} {}{} {}/{} {} {} {}",
            self.field.id,
            if self.side == 0 { 'g' } else { 'b' },
            self.round,
            self.quiet,
            if self.captured { "*" } else { "" },
            self.grails[0],
            self.grails[1],
            match self.active {
                Some(a) => format!("{}:{}:{}", hex_text(a.at), a.mp, a.tiles),
                None => "-".to_owned(),
            },
            match self.convert {
                Some((k, h)) => format!("{}@{}", k.code(), hex_text(h)),
                None => "-".to_owned(),
            },
            pieces.join(",")
        )
    }

    // -- looking at the field -------------------------------------------

    pub fn at(&self, h: Hx) -> Option<&RP> {
        self.pieces.iter().find(|p| p.at == h)
    }

    fn at_mut(&mut self, h: Hx) -> Option<&mut RP> {
        self.pieces.iter_mut().find(|p| p.at == h)
    }

    fn count(&self, side: u8, k: K) -> usize {
        self.pieces
            .iter()
            .filter(|p| p.side == side && p.kind == k)
            .count()
    }

    /// Whether an ally of `p` of kind `k` (not `p` itself) stands within `n`.
    fn ally_within(&self, p: &RP, k: K, n: i32) -> bool {
        self.pieces
            .iter()
            .any(|q| q.side == p.side && q.kind == k && q.at != p.at && distance(q.at, p.at) <= n)
    }

    fn adjacent_allies(&self, p: &RP, k: K) -> i32 {
        self.pieces
            .iter()
            .filter(|q| q.side == p.side && q.kind == k && adjacent(q.at, p.at))
            .count() as i32
    }

    /// "Levite ★ — Curse: every enemy within 4 tiles has Defence 0."
    pub fn cursed(&self, p: &RP) -> bool {
        self.pieces
            .iter()
            .any(|q| q.side != p.side && q.kind == K::Levite && distance(q.at, p.at) <= 4)
    }

    /// Defence with land and auras (sections 3, 5, 6; decisions 16, 17, 19).
    pub fn defence(&self, p: &RP) -> i32 {
        let mut d = p.kind.row().def;
        match self.field.land(p.at) {
            Land::Forest => d += 1,
            Land::Desert => d -= 1,
            _ => {}
        }
        if self.field.in_city(p.at) {
            d += 1;
        }
        if self.ally_within(p, K::Queen, 4) {
            d += 1;
        }
        if p.kind == K::Militia {
            d += self.adjacent_allies(p, K::Militia);
        }
        d += 2 * self
            .pieces
            .iter()
            .filter(|q| {
                q.side == p.side && q.kind == K::Vanguard && q.at != p.at && adjacent(q.at, p.at)
            })
            .count() as i32;
        let d = d.max(0);
        if self.cursed(p) && !(p.kind == K::Bastion && self.opts.curse_spares_wall) {
            0
        } else {
            d
        }
    }

    /// The Attack of a melee blow or counter-blow of `a` on `t`; `tiles` is
    /// the act's walk for the striker's own blows, `None` for a counter.
    pub fn melee_attack(&self, a: &RP, t: &RP, tiles: Option<i32>) -> i32 {
        let mut x = a.kind.row().atk;
        if self.ally_within(a, K::King, 4) {
            x += 1;
        }
        if self.field.land(a.at) == Land::Hill && self.field.land(t.at) != Land::Hill {
            x += 1;
        }
        if let (Some(n), Some(max)) = (tiles, a.kind.charge_max()) {
            x += (n - 1).clamp(0, max);
        }
        if a.kind == K::Pikeman && t.kind.rider() {
            x += 1;
        }
        x
    }

    /// "Damage = Attack − Defence + 4, never less than 1."
    pub fn damage(attack: i32, defence: i32) -> i32 {
        (attack - defence + 4).max(1)
    }

    /// MP on activation: Speed, +2 within 4 tiles of an allied Heir.
    pub fn activation_mp(&self, p: &RP) -> i32 {
        p.kind.row().speed
            + if self.ally_within(p, K::Heir, 4) {
                2
            } else {
                0
            }
    }

    /// Range of shots; the Archer +1 beside an allied Bastion.
    pub fn shot_range(&self, p: &RP) -> Option<i32> {
        let (range, _, _) = p.kind.shots()?;
        let height = p.kind == K::Archer && self.adjacent_allies(p, K::Bastion) > 0;
        Some(range + i32::from(height))
    }

    /// Every hex the piece on `from` can walk to with `mp`: (hex, MP spent,
    /// tiles), cheapest first, most tiles among the cheapest.
    pub fn reach(&self, from: Hx, mp: i32, pass: bool) -> Vec<(Hx, i32, i32)> {
        // (cost, -tiles) labels, plain Dijkstra by repeated minimum search.
        let mut best: BTreeMap<Hx, (i32, i32)> = BTreeMap::new();
        let mut done: BTreeMap<Hx, bool> = BTreeMap::new();
        best.insert(from, (0, 0));
        loop {
            let next = best
                .iter()
                .filter(|(h, _)| !done.contains_key(*h))
                .min_by_key(|&(h, &(c, nt))| (c, nt, *h))
                .map(|(&h, &l)| (h, l));
            let Some((h, (c, nt))) = next else { break };
            done.insert(h, true);
            for n in neighbours(h) {
                if !self.field.on(n) || n == from {
                    continue;
                }
                if !pass && self.at(n).is_some() {
                    continue;
                }
                let label = (c + self.field.cost(n), nt - 1);
                if label.0 > mp {
                    continue;
                }
                if best.get(&n).is_none_or(|&old| label < old) {
                    best.insert(n, label);
                }
            }
        }
        best.into_iter()
            .filter(|&(h, _)| h != from && self.at(h).is_none())
            .map(|(h, (c, nt))| (h, c, -nt))
            .collect()
    }

    // -- results -------------------------------------------------------

    pub fn end(&self) -> Option<REnd> {
        for s in 0..2u8 {
            if !self.pieces.iter().any(|p| p.side == s && p.kind == K::King) {
                return Some(REnd::Won(1 - s));
            }
        }
        if self.quiet >= 30 {
            return Some(REnd::Drawn);
        }
        None
    }

    // -- legal actions ----------------------------------------------------

    /// Whether the piece may buy the Maiden's extra act now (decision 27).
    fn may_buy_extra(&self, p: &RP) -> bool {
        p.side == self.side
            && p.kind != K::Maiden
            && !p.idle
            && !p.extra
            && p.acts >= p.kind.base_acts()
            && p.blood > 4
            && self.ally_within(p, K::Maiden, 4)
    }

    pub fn legal(&self) -> Vec<RAct> {
        let mut v = Vec::new();
        if self.end().is_some() {
            return v;
        }
        let us = self.side;
        if let Some(a) = self.active {
            let p = self.at(a.at).expect("active piece").clone();
            if let Some((k, h)) = self.convert
                && self.grails[us as usize] >= 1
                && k.row().limit.is_none_or(|l| self.count(us, k) < l)
            {
                v.push(RAct::Convert(h));
            }
            for (h, _, _) in self.reach(a.at, a.mp, p.kind == K::Wayfarer) {
                v.push(RAct::Move(h));
            }
            let foes: Vec<Hx> = self
                .pieces
                .iter()
                .filter(|q| q.side != us)
                .map(|q| q.at)
                .collect();
            // "The Angel never attacks first" (decision 22).
            if p.kind != K::Angel {
                let near: Vec<Hx> = foes
                    .iter()
                    .copied()
                    .filter(|&f| adjacent(f, a.at))
                    .collect();
                for &f in &near {
                    v.push(RAct::Melee(f));
                }
                if p.kind == K::Blade {
                    // "strikes up to 3 adjacent foes at once": 2 or 3 named.
                    for &first in &near {
                        let others: Vec<Hx> =
                            near.iter().copied().filter(|&h| h != first).collect();
                        for i in 0..others.len() {
                            v.push(RAct::Sweep(vec![first, others[i]]));
                            for j in i + 1..others.len() {
                                let mut o = [others[i], others[j]];
                                o.sort();
                                v.push(RAct::Sweep(vec![first, o[0], o[1]]));
                            }
                        }
                    }
                }
                if let Some((_, cost, _)) = p.kind.shots() {
                    let range = self.shot_range(&p).unwrap();
                    if a.mp >= cost {
                        for &f in &foes {
                            if distance(f, a.at) <= range {
                                v.push(RAct::Shoot(f));
                            }
                        }
                    }
                }
                if let Some((_, range, cost)) = p.kind.holy()
                    && a.mp >= cost
                {
                    for &f in &foes {
                        if distance(f, a.at) <= range {
                            v.push(RAct::Holy(f));
                        }
                    }
                }
            }
            v.push(RAct::EndAct);
        } else {
            for p in self.pieces.iter().filter(|p| p.side == us && !p.idle) {
                if p.acts < p.kind.base_acts() {
                    v.push(RAct::Act(p.at));
                }
                if self.may_buy_extra(p) {
                    v.push(RAct::Extra(p.at));
                }
                if p.kind == K::Prophet && !p.healed {
                    for q in &self.pieces {
                        if q.side == us && distance(q.at, p.at) <= 4 && q.blood < q.kind.row().blood
                        {
                            v.push(RAct::Heal(p.at, q.at));
                        }
                    }
                }
            }
            // Recruiting: a free tile beside any of your royals.
            let mut spots: Vec<Hx> = Vec::new();
            for p in self
                .pieces
                .iter()
                .filter(|p| p.side == us && p.kind.royal())
            {
                for n in neighbours(p.at) {
                    if self.field.on(n) && self.at(n).is_none() && !spots.contains(&n) {
                        spots.push(n);
                    }
                }
            }
            for k in ALL_KINDS {
                let row = k.row();
                let Some(price) = row.price else { continue };
                if price > self.grails[us as usize] {
                    continue;
                }
                if row.limit.is_some_and(|l| self.count(us, k) >= l) {
                    continue;
                }
                for &h in &spots {
                    v.push(RAct::Recruit(h, k));
                }
            }
        }
        v.push(RAct::EndTurn);
        v
    }

    // -- playing ------------------------------------------------------------

    /// A piece falls: removed; a capture if an enemy felled it; Grace;
    /// succession (decisions 28, 33, 40, 41, 42).
    fn fall(&mut self, h: Hx, capture: bool) {
        let i = self.pieces.iter().position(|p| p.at == h).unwrap();
        let p = self.pieces.remove(i);
        self.fallen(p, capture);
    }

    /// What follows a fall, once the fallen piece is off the field.
    fn fallen(&mut self, p: RP, capture: bool) {
        let h = p.at;
        if capture {
            self.captured = true;
        }
        if self.active.is_some_and(|a| a.at == h) {
            self.active = None;
        }
        // Grace: the living Angel within 4 tiles of where an ally fell.
        if let Some(price) = p.kind.row().price
            && self
                .pieces
                .iter()
                .any(|q| q.side == p.side && q.kind == K::Angel && distance(q.at, h) <= 4)
        {
            self.grails[p.side as usize] += price;
        }
        if p.kind == K::King
            && let Some(heir) = self
                .pieces
                .iter_mut()
                .find(|q| q.side == p.side && q.kind == K::Heir)
        {
            heir.kind = K::King;
        }
    }

    /// Takes `dmg` off the piece on `h`; true if it fell.
    fn hurt(&mut self, h: Hx, dmg: i32) -> bool {
        let p = self.at_mut(h).unwrap();
        p.blood -= dmg;
        if p.blood <= 0 {
            self.fall(h, true);
            true
        } else {
            false
        }
    }

    /// The counter of the piece on `d` attacked by the piece on `a` (decisions
    /// 21, 23, 24): once a round; an adjacent attack draws a counter-blow,
    /// the Angel's wrath answers an attacker within 4 tiles; never the
    /// Wayfarer.
    fn counter(&mut self, d: Hx, a: Hx) {
        let (Some(dp), Some(ap)) = (self.at(d).cloned(), self.at(a).cloned()) else {
            return;
        };
        if dp.countered || ap.kind == K::Wayfarer {
            return;
        }
        let dmg = if dp.kind == K::Angel {
            if distance(d, a) > 4 {
                return;
            }
            if self.opts.wrath_flat7 {
                7
            } else {
                Self::damage(7, 0)
            }
        } else {
            if !adjacent(d, a) {
                return;
            }
            Self::damage(self.melee_attack(&dp, &ap, None), self.defence(&ap))
        };
        self.at_mut(d).unwrap().countered = true;
        self.hurt(a, dmg);
    }

    /// The end of the active piece's act (Sacrifice's price after the second).
    fn end_act(&mut self) {
        let Some(a) = self.active.take() else { return };
        let p = self.at(a.at).unwrap().clone();
        if p.kind.sacrifice() && p.acts == 2 {
            let blood = p.blood - 4;
            if blood <= 0 && !self.opts.sacrifice_spares {
                self.fall(a.at, false);
            } else {
                self.at_mut(a.at).unwrap().blood = blood.max(1);
            }
        }
    }

    /// The start of the side to move's turn: Holy City income, the
    /// Princess's recovery.
    fn start_turn(&mut self) {
        let us = self.side;
        let mut income = 0;
        for i in 0..self.field.cities.len() {
            let area = self.field.city_area(i);
            let ours = self
                .pieces
                .iter()
                .any(|p| p.side == us && p.kind.royal() && area.contains(&p.at));
            let enemy = self
                .pieces
                .iter()
                .any(|p| p.side != us && area.contains(&p.at));
            if ours && !enemy {
                income += 2;
            }
        }
        self.grails[us as usize] += income;
        if let Some(pr) = self
            .pieces
            .iter()
            .find(|p| p.side == us && p.kind == K::Princess)
            .cloned()
        {
            for q in self.pieces.iter_mut() {
                if q.side == us && q.at != pr.at && distance(q.at, pr.at) <= 4 {
                    q.blood = (q.blood + 2).min(q.kind.row().blood);
                }
            }
        }
    }

    fn end_turn(&mut self) {
        self.end_act();
        if self.end().is_some() {
            return;
        }
        if self.side == 1 {
            self.round += 1;
            self.quiet = if self.captured { 0 } else { self.quiet + 1 };
            self.captured = false;
        }
        self.side = 1 - self.side;
        if self.end().is_some() {
            // Drawn: no next turn begins.
            return;
        }
        // Fresh acts; the once-a-round counter mark is cleared at the start
        // of every turn (decision 24).
        for p in self.pieces.iter_mut() {
            p.acts = 0;
            p.extra = false;
            p.healed = false;
            p.countered = false;
        }
        // Decision 32: a recruit or convert stands "idle until its new
        // side's next turn".
        let us = self.side;
        for p in self.pieces.iter_mut().filter(|p| p.side == us) {
            p.idle = false;
        }
        self.start_turn();
    }

    /// Plays a legal action.
    pub fn play(&mut self, act: &RAct) {
        let pending = self.convert.take();
        let us = self.side;
        match *act {
            RAct::Act(h) => {
                let mp = self.activation_mp(self.at(h).unwrap());
                self.at_mut(h).unwrap().acts += 1;
                self.active = Some(RActive {
                    at: h,
                    mp,
                    tiles: 0,
                });
            }
            RAct::Extra(h) => {
                let p = self.at_mut(h).unwrap();
                p.blood -= 4;
                p.extra = true;
                p.acts += 1;
                let mp = self.activation_mp(self.at(h).unwrap());
                self.active = Some(RActive {
                    at: h,
                    mp,
                    tiles: 0,
                });
            }
            RAct::Move(to) => {
                let a = self.active.unwrap();
                let pass = self.at(a.at).unwrap().kind == K::Wayfarer;
                let (_, cost, tiles) = self
                    .reach(a.at, a.mp, pass)
                    .into_iter()
                    .find(|&(h, _, _)| h == to)
                    .unwrap();
                self.at_mut(a.at).unwrap().at = to;
                self.active = Some(RActive {
                    at: to,
                    mp: a.mp - cost,
                    tiles: a.tiles + tiles,
                });
            }
            RAct::Melee(t) => {
                let a = self.active.unwrap();
                let ap = self.at(a.at).unwrap().clone();
                let tp = self.at(t).unwrap().clone();
                let attack = self.melee_attack(&ap, &tp, Some(a.tiles));
                let blows = if ap.kind == K::Berserker { 2 } else { 1 };
                for blow in 0..blows {
                    if self.at(t).is_none() || self.at(a.at).is_none() {
                        break;
                    }
                    let dmg = Self::damage(attack, self.defence(self.at(t).unwrap()));
                    let fell = self.hurt(t, dmg);
                    if self.end().is_some() {
                        break;
                    }
                    if !fell && blow == 0 {
                        self.counter(t, a.at);
                    }
                }
                // "A melee blow ends the piece's movement."
                self.end_act();
            }
            RAct::Sweep(ref targets) => {
                let a = self.active.unwrap();
                let ap = self.at(a.at).unwrap().clone();
                // "at once": every blow reckoned before any falls.
                let dmgs: Vec<i32> = targets
                    .iter()
                    .map(|&t| {
                        let tp = self.at(t).unwrap();
                        Self::damage(self.melee_attack(&ap, tp, Some(a.tiles)), self.defence(tp))
                    })
                    .collect();
                let mut dead = Vec::new();
                for (&t, &d) in targets.iter().zip(&dmgs) {
                    let p = self.at_mut(t).unwrap();
                    p.blood -= d;
                    if p.blood <= 0 {
                        dead.push(t);
                    }
                }
                // The fallen leave the field together, then each fall is
                // reckoned: a falling Angel gives no Grace, a falling Heir
                // takes no crown.
                let fallen: Vec<RP> = self
                    .pieces
                    .iter()
                    .filter(|p| dead.contains(&p.at))
                    .cloned()
                    .collect();
                self.pieces.retain(|p| !dead.contains(&p.at));
                for p in fallen {
                    self.fallen(p, true);
                }
                if self.end().is_none() {
                    self.counter(targets[0], a.at);
                }
                self.end_act();
            }
            RAct::Shoot(t) => {
                let a = self.active.unwrap();
                let ap = self.at(a.at).unwrap().clone();
                let (_, cost, attack) = ap.kind.shots().unwrap();
                self.active = Some(RActive {
                    mp: a.mp - cost,
                    ..a
                });
                let dmg = Self::damage(attack, self.defence(self.at(t).unwrap()));
                if !self.hurt(t, dmg) && self.end().is_none() {
                    self.counter(t, a.at);
                }
            }
            RAct::Holy(t) => {
                let a = self.active.unwrap();
                let ap = self.at(a.at).unwrap().clone();
                let (flat, _, cost) = ap.kind.holy().unwrap();
                self.active = Some(RActive {
                    mp: a.mp - cost,
                    ..a
                });
                let tp = self.at(t).unwrap().clone();
                let dmg = if tp.kind == K::Bastion {
                    // Decision 18: the wall turns it into the formula.
                    flat.min(Self::damage(flat, self.defence(&tp)))
                } else {
                    flat
                };
                if self.hurt(t, dmg) {
                    if ap.kind == K::Apostle && tp.kind.convertible() && self.end().is_none() {
                        self.convert = Some((tp.kind, t));
                    }
                } else if self.end().is_none() {
                    self.counter(t, a.at);
                }
            }
            RAct::Heal(h, t) => {
                self.at_mut(h).unwrap().healed = true;
                let q = self.at_mut(t).unwrap();
                q.blood = q.kind.row().blood;
            }
            RAct::Recruit(h, k) => {
                self.grails[us as usize] -= k.row().price.unwrap();
                let mut p = RP::new(us, k, h);
                p.idle = true;
                self.pieces.push(p);
            }
            RAct::Convert(h) => {
                let (k, _) = pending.unwrap();
                self.grails[us as usize] -= 1;
                let mut p = RP::new(us, k, h);
                p.idle = true;
                self.pieces.push(p);
            }
            RAct::EndAct => self.end_act(),
            RAct::EndTurn => self.end_turn(),
        }
    }

    /// Counts action sequences of `depth` (for the perft figures).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut g = self.clone();
                g.play(m);
                g.perft(depth - 1)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_the_breadth_first_count() {
        let f = field("pilgrimage");
        for a in f.hexes().step_by(7) {
            let mut dist: BTreeMap<Hx, i32> = BTreeMap::new();
            dist.insert(a, 0);
            let mut frontier = vec![a];
            let mut d = 0;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for h in frontier {
                    for n in neighbours(h) {
                        if (-20..40).contains(&n.0)
                            && (-20..40).contains(&n.1)
                            && !dist.contains_key(&n)
                        {
                            dist.insert(n, d);
                            next.push(n);
                        }
                    }
                }
                frontier = next;
                if d > 12 {
                    break;
                }
            }
            for (&b, &d) in &dist {
                if d <= 12 {
                    assert_eq!(distance(a, b), d, "{a:?} {b:?}");
                }
            }
        }
    }
}
