//! The piece table and the rule numbers, read from TOML and validated.
//!
//! The crate embeds `data/pieces.toml` (the book's section 8 table, one
//! `[[piece]]` per row, plus a `[rules]` table of the numbers a designer
//! might tune) and reads it on first use. [`PieceTable::from_toml`] reads any
//! other file in the same format, with errors that name the piece and field.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The piece table shipped with the crate.
pub const PIECES_TOML: &str = include_str!("../data/pieces.toml");

/// The index of a piece type in its [`PieceTable`] (the table's row order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Kind(pub u8);

impl Kind {
    /// The row index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// An aura or other power reaching allies within `radius` tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Aura {
    /// The amount (Attack, Defence, Speed or Blood).
    pub amount: i8,
    /// The reach in tiles (hex distance, inclusive).
    pub radius: u8,
}

/// A shooting power (Arrows, Bolts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ranged {
    /// The farthest target, in tiles.
    pub range: u8,
    /// MP per shot.
    pub cost: u8,
    /// The shot's constant Attack.
    pub attack: u8,
}

/// A holy strike (Apostle, Elias).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HolyStrike {
    /// The flat damage.
    pub damage: u8,
    /// The farthest target, in tiles.
    pub range: u8,
    /// MP per cast.
    pub cost: u8,
}

/// The Angel's wrath.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Wrath {
    /// The wrath's Attack (the book's "attack 7").
    pub attack: u8,
    /// The farthest attacker it answers, in tiles.
    pub range: u8,
}

/// Sacrifice: more acts a turn, paid in Blood after the last of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sacrifice {
    /// Acts a turn.
    pub acts: u8,
    /// Blood lost after the extra act.
    pub blood: u8,
}

/// Every power a piece type may have; `None`/`false` when it has not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Powers {
    /// King: allies within the radius get +amount Attack.
    pub aura_attack: Option<Aura>,
    /// Queen: allies within the radius get +amount Defence.
    pub aura_defence: Option<Aura>,
    /// Heir: allies within the radius get +amount Speed (MP) when activated.
    pub aura_speed: Option<Aura>,
    /// Heir: takes the crown when the King falls.
    pub succession: bool,
    /// Princess: allies within the radius recover `amount` Blood each turn.
    pub aura_recovery: Option<Aura>,
    /// Maiden (For the Kingdom!): allies within the radius may buy one extra
    /// act a turn for `amount` Blood.
    pub for_the_kingdom: Option<Aura>,
    /// Militia: +this Defence for each adjacent allied Shield-wall piece.
    pub shield_wall: Option<i8>,
    /// Pikeman, Lancer: +1 Attack per tile moved this act beyond the first, up to this.
    pub charge: Option<u8>,
    /// Pikeman: +this Attack against riders.
    pub set_pike: Option<i8>,
    /// Archer, Ranger, Attila (arrows), Bastion (bolts).
    pub ranged: Option<Ranged>,
    /// Archer: +this range while beside an allied Bastion (a Stone-wall piece).
    pub bastions_height: Option<u8>,
    /// Blade: strikes up to this many adjacent foes at once.
    pub sweep: Option<u8>,
    /// Vanguard: +this Defence to every adjacent ally.
    pub bulwark: Option<i8>,
    /// Berserker: this many blows on the same foe, only the first countered.
    pub fury: Option<u8>,
    /// Bastion: his Defence is never ignored by holy strikes.
    pub stone_wall: bool,
    /// Apostle, Elias.
    pub holy_strike: Option<HolyStrike>,
    /// Apostle: Grails to convert a foe his holy strike killed.
    pub convert: Option<u8>,
    /// Prophet: fully heals one ally within this radius each turn.
    pub healing: Option<u8>,
    /// Templar, Paladin.
    pub sacrifice: Option<Sacrifice>,
    /// Angel: her only attack, a counter.
    pub wrath: Option<Wrath>,
    /// Angel: refunds the price of allies falling within this radius.
    pub grace: Option<u8>,
    /// Wayfarer: acts this many times every turn, for free.
    pub two_acts: Option<u8>,
    /// Wayfarer: walks through other pieces.
    pub pass_through: bool,
    /// Wayfarer: no piece can counter him.
    pub untouchable: bool,
    /// Levite: every enemy within this radius has Defence 0.
    pub curse: Option<u8>,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PieceType {
    /// Its name, as the book writes it.
    pub name: String,
    /// Its two-letter code in position text and notation (`Ki`, `Mi`...).
    pub code: String,
    /// Attack.
    pub attack: u8,
    /// Defence.
    pub defence: u8,
    /// Blood (its full health).
    pub blood: u8,
    /// Speed (MP per act).
    pub speed: u8,
    /// Price in Grails; `None` for the King, who is never recruited.
    pub price: Option<u8>,
    /// How many a side may have on the board at once; `None` for unlimited.
    pub limit: Option<u8>,
    /// The piece whose fall loses the game.
    pub king: bool,
    /// A royal (section 5): earns Grails in a Holy City, recruits appear beside it.
    pub royal: bool,
    /// A Legend (★).
    pub legend: bool,
    /// A rider (the Pikeman's Set pike hits riders harder).
    pub rider: bool,
    /// Its powers.
    pub powers: Powers,
}

impl PieceType {
    /// Acts a turn before any bought extra act.
    pub fn base_acts(&self) -> u8 {
        match (self.powers.sacrifice, self.powers.two_acts) {
            (Some(s), _) => s.acts,
            (None, Some(n)) => n,
            (None, None) => 1,
        }
    }

    /// Whether an Apostle may convert it (never royals or Legends, never the King).
    pub fn convertible(&self) -> bool {
        !(self.royal || self.legend || self.king)
    }
}

/// The numbers of the rules (the `[rules]` table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RuleNumbers {
    /// The `+ 4` of the damage formula.
    pub damage_constant: i8,
    /// The least damage a blow deals.
    pub minimum_damage: u8,
    /// MP to enter open ground.
    pub walk_cost: u8,
    /// MP to enter forest, hill or desert.
    pub rough_cost: u8,
    /// Defence on forest.
    pub forest_defence: i8,
    /// Defence on desert (negative).
    pub desert_defence: i8,
    /// Attack from a hill onto a lower tile.
    pub hill_attack: i8,
    /// Defence on a Holy City hex.
    pub city_defence: i8,
    /// Grails a Holy City yields a turn.
    pub city_income: u8,
    /// Rounds without a capture that draw the game.
    pub draw_rounds: u16,
}

/// The whole table: piece types in row order plus the rule numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PieceTable {
    /// The rule numbers.
    pub rules: RuleNumbers,
    /// The piece types, in row order.
    pub pieces: Vec<PieceType>,
    king: Kind,
}

/// Why a piece table is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DataError {
    /// Not TOML, or not the expected shape (the message names line and key).
    #[error("piece table: {0}")]
    Toml(String),
    /// One field of one piece is wrong.
    #[error("piece table: piece {index} ('{piece}'), field '{field}': {reason}")]
    Piece {
        /// The row, from 1.
        index: usize,
        /// The piece's name as written.
        piece: String,
        /// The field.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A number in `[rules]` is out of range.
    #[error("piece table: [rules] field '{field}': {reason}")]
    Rules {
        /// The field.
        field: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The table as a whole is wrong (no King, duplicate names...).
    #[error("piece table: {0}")]
    Table(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    rules: RuleNumbers,
    piece: Vec<RawPiece>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NumberOrWord {
    Number(i64),
    Word(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    name: String,
    code: String,
    attack: i64,
    defence: i64,
    blood: i64,
    speed: i64,
    price: NumberOrWord,
    limit: NumberOrWord,
    #[serde(default)]
    king: bool,
    #[serde(default)]
    royal: bool,
    #[serde(default)]
    legend: bool,
    #[serde(default)]
    rider: bool,
    #[serde(default)]
    powers: Vec<RawPower>,
}

#[derive(Deserialize)]
#[serde(tag = "power", rename_all = "kebab-case", deny_unknown_fields)]
enum RawPower {
    AuraAttack { bonus: i64, radius: i64 },
    AuraDefence { bonus: i64, radius: i64 },
    AuraSpeed { bonus: i64, radius: i64 },
    Succession,
    AuraRecovery { blood: i64, radius: i64 },
    ForTheKingdom { blood: i64, radius: i64 },
    ShieldWall { bonus: i64 },
    Charge { max: i64 },
    SetPike { bonus: i64 },
    Arrows { range: i64, cost: i64, attack: i64 },
    Bolts { range: i64, cost: i64, attack: i64 },
    BastionsHeight { bonus: i64 },
    Sweep { targets: i64 },
    Bulwark { bonus: i64 },
    Fury { blows: i64 },
    StoneWall,
    HolyStrike { damage: i64, range: i64, cost: i64 },
    Convert { cost: i64 },
    Healing { radius: i64 },
    Sacrifice { acts: i64, blood: i64 },
    Wrath { attack: i64, range: i64 },
    Grace { radius: i64 },
    TwoActs { acts: i64 },
    PassThrough,
    Untouchable,
    Curse { radius: i64 },
}

impl RawPower {
    fn name(&self) -> &'static str {
        match self {
            RawPower::AuraAttack { .. } => "aura-attack",
            RawPower::AuraDefence { .. } => "aura-defence",
            RawPower::AuraSpeed { .. } => "aura-speed",
            RawPower::Succession => "succession",
            RawPower::AuraRecovery { .. } => "aura-recovery",
            RawPower::ForTheKingdom { .. } => "for-the-kingdom",
            RawPower::ShieldWall { .. } => "shield-wall",
            RawPower::Charge { .. } => "charge",
            RawPower::SetPike { .. } => "set-pike",
            RawPower::Arrows { .. } | RawPower::Bolts { .. } => "arrows/bolts",
            RawPower::BastionsHeight { .. } => "bastions-height",
            RawPower::Sweep { .. } => "sweep",
            RawPower::Bulwark { .. } => "bulwark",
            RawPower::Fury { .. } => "fury",
            RawPower::StoneWall => "stone-wall",
            RawPower::HolyStrike { .. } => "holy-strike",
            RawPower::Convert { .. } => "convert",
            RawPower::Healing { .. } => "healing",
            RawPower::Sacrifice { .. } => "sacrifice",
            RawPower::Wrath { .. } => "wrath",
            RawPower::Grace { .. } => "grace",
            RawPower::TwoActs { .. } => "two-acts",
            RawPower::PassThrough => "pass-through",
            RawPower::Untouchable => "untouchable",
            RawPower::Curse { .. } => "curse",
        }
    }
}

/// The most piece types a table may hold.
pub const MAX_TYPES: usize = 64;
/// Auras, ranges and radii stay within this many tiles.
pub const MAX_REACH: i64 = 12;

struct Checker<'a> {
    index: usize,
    piece: &'a str,
}

impl Checker<'_> {
    fn err(&self, field: impl Into<String>, reason: impl Into<String>) -> DataError {
        DataError::Piece {
            index: self.index,
            piece: self.piece.to_owned(),
            field: field.into(),
            reason: reason.into(),
        }
    }

    fn num(&self, field: &str, value: i64, lo: i64, hi: i64) -> Result<i64, DataError> {
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            Err(self.err(field, format!("{value} is not in {lo}..={hi}")))
        }
    }

    fn u8(&self, field: &str, value: i64, lo: i64, hi: i64) -> Result<u8, DataError> {
        self.num(field, value, lo, hi).map(|v| v as u8)
    }

    fn i8(&self, field: &str, value: i64, lo: i64, hi: i64) -> Result<i8, DataError> {
        self.num(field, value, lo, hi).map(|v| v as i8)
    }

    fn aura(&self, power: &str, amount: i64, radius: i64) -> Result<Aura, DataError> {
        Ok(Aura {
            amount: self.i8(&format!("{power}.amount"), amount, 1, 20)?,
            radius: self.u8(&format!("{power}.radius"), radius, 1, MAX_REACH)?,
        })
    }
}

fn set<T>(
    slot: &mut Option<T>,
    value: T,
    c: &Checker<'_>,
    name: &'static str,
) -> Result<(), DataError> {
    if slot.is_some() {
        return Err(c.err("powers", format!("'{name}' is given twice")));
    }
    *slot = Some(value);
    Ok(())
}

fn flag(slot: &mut bool, c: &Checker<'_>, name: &'static str) -> Result<(), DataError> {
    if *slot {
        return Err(c.err("powers", format!("'{name}' is given twice")));
    }
    *slot = true;
    Ok(())
}

fn powers(raw: &[RawPower], c: &Checker<'_>) -> Result<Powers, DataError> {
    let mut p = Powers::default();
    for power in raw {
        let name = power.name();
        match *power {
            RawPower::AuraAttack { bonus, radius } => {
                set(&mut p.aura_attack, c.aura(name, bonus, radius)?, c, name)?
            }
            RawPower::AuraDefence { bonus, radius } => {
                set(&mut p.aura_defence, c.aura(name, bonus, radius)?, c, name)?
            }
            RawPower::AuraSpeed { bonus, radius } => {
                set(&mut p.aura_speed, c.aura(name, bonus, radius)?, c, name)?
            }
            RawPower::Succession => flag(&mut p.succession, c, name)?,
            RawPower::AuraRecovery { blood, radius } => {
                set(&mut p.aura_recovery, c.aura(name, blood, radius)?, c, name)?
            }
            RawPower::ForTheKingdom { blood, radius } => set(
                &mut p.for_the_kingdom,
                c.aura(name, blood, radius)?,
                c,
                name,
            )?,
            RawPower::ShieldWall { bonus } => set(
                &mut p.shield_wall,
                c.i8("shield-wall.bonus", bonus, 1, 10)?,
                c,
                name,
            )?,
            RawPower::Charge { max } => {
                set(&mut p.charge, c.u8("charge.max", max, 1, 20)?, c, name)?
            }
            RawPower::SetPike { bonus } => set(
                &mut p.set_pike,
                c.i8("set-pike.bonus", bonus, 1, 10)?,
                c,
                name,
            )?,
            RawPower::Arrows {
                range,
                cost,
                attack,
            }
            | RawPower::Bolts {
                range,
                cost,
                attack,
            } => {
                let r = Ranged {
                    range: c.u8("arrows.range", range, 1, MAX_REACH)?,
                    cost: c.u8("arrows.cost", cost, 1, 20)?,
                    attack: c.u8("arrows.attack", attack, 0, 30)?,
                };
                set(&mut p.ranged, r, c, name)?
            }
            RawPower::BastionsHeight { bonus } => set(
                &mut p.bastions_height,
                c.u8("bastions-height.bonus", bonus, 1, 4)?,
                c,
                name,
            )?,
            RawPower::Sweep { targets } => {
                set(&mut p.sweep, c.u8("sweep.targets", targets, 2, 6)?, c, name)?
            }
            RawPower::Bulwark { bonus } => set(
                &mut p.bulwark,
                c.i8("bulwark.bonus", bonus, 1, 10)?,
                c,
                name,
            )?,
            RawPower::Fury { blows } => {
                set(&mut p.fury, c.u8("fury.blows", blows, 2, 6)?, c, name)?
            }
            RawPower::StoneWall => flag(&mut p.stone_wall, c, name)?,
            RawPower::HolyStrike {
                damage,
                range,
                cost,
            } => {
                let h = HolyStrike {
                    damage: c.u8("holy-strike.damage", damage, 1, 50)?,
                    range: c.u8("holy-strike.range", range, 1, MAX_REACH)?,
                    cost: c.u8("holy-strike.cost", cost, 1, 20)?,
                };
                set(&mut p.holy_strike, h, c, name)?
            }
            RawPower::Convert { cost } => {
                set(&mut p.convert, c.u8("convert.cost", cost, 0, 50)?, c, name)?
            }
            RawPower::Healing { radius } => set(
                &mut p.healing,
                c.u8("healing.radius", radius, 0, MAX_REACH)?,
                c,
                name,
            )?,
            RawPower::Sacrifice { acts, blood } => {
                let s = Sacrifice {
                    acts: c.u8("sacrifice.acts", acts, 2, 2)?,
                    blood: c.u8("sacrifice.blood", blood, 1, 50)?,
                };
                set(&mut p.sacrifice, s, c, name)?
            }
            RawPower::Wrath { attack, range } => {
                let w = Wrath {
                    attack: c.u8("wrath.attack", attack, 0, 50)?,
                    range: c.u8("wrath.range", range, 1, MAX_REACH)?,
                };
                set(&mut p.wrath, w, c, name)?
            }
            RawPower::Grace { radius } => set(
                &mut p.grace,
                c.u8("grace.radius", radius, 1, MAX_REACH)?,
                c,
                name,
            )?,
            RawPower::TwoActs { acts } => {
                set(&mut p.two_acts, c.u8("two-acts.acts", acts, 2, 4)?, c, name)?
            }
            RawPower::PassThrough => flag(&mut p.pass_through, c, name)?,
            RawPower::Untouchable => flag(&mut p.untouchable, c, name)?,
            RawPower::Curse { radius } => set(
                &mut p.curse,
                c.u8("curse.radius", radius, 1, MAX_REACH)?,
                c,
                name,
            )?,
        }
    }
    if p.bastions_height.is_some() && p.ranged.is_none() {
        return Err(c.err("powers", "'bastions-height' needs 'arrows' or 'bolts'"));
    }
    if p.convert.is_some() && p.holy_strike.is_none() {
        return Err(c.err("powers", "'convert' needs 'holy-strike'"));
    }
    if p.sacrifice.is_some() && p.two_acts.is_some() {
        return Err(c.err("powers", "'sacrifice' and 'two-acts' do not combine"));
    }
    if p.sweep.is_some() && p.fury.is_some() {
        return Err(c.err("powers", "'sweep' and 'fury' do not combine"));
    }
    Ok(p)
}

fn check_rules(r: &RuleNumbers) -> Result<(), DataError> {
    let check = |field: &'static str, v: i64, lo: i64, hi: i64| {
        if (lo..=hi).contains(&v) {
            Ok(())
        } else {
            Err(DataError::Rules {
                field,
                reason: format!("{v} is not in {lo}..={hi}"),
            })
        }
    };
    check("damage-constant", r.damage_constant.into(), 0, 20)?;
    check("minimum-damage", r.minimum_damage.into(), 0, 20)?;
    check("walk-cost", r.walk_cost.into(), 1, 10)?;
    check("rough-cost", r.rough_cost.into(), 1, 10)?;
    check("forest-defence", r.forest_defence.into(), -10, 10)?;
    check("desert-defence", r.desert_defence.into(), -10, 10)?;
    check("hill-attack", r.hill_attack.into(), -10, 10)?;
    check("city-defence", r.city_defence.into(), -10, 10)?;
    check("city-income", r.city_income.into(), 0, 50)?;
    check("draw-rounds", r.draw_rounds.into(), 1, 999)
}

impl PieceTable {
    /// Reads and validates a piece table in the documented TOML format.
    pub fn from_toml(text: &str) -> Result<Self, DataError> {
        let raw: RawTable = toml::from_str(text).map_err(|e| DataError::Toml(e.to_string()))?;
        check_rules(&raw.rules)?;
        if raw.piece.is_empty() {
            return Err(DataError::Table("no [[piece]] rows".to_owned()));
        }
        if raw.piece.len() > MAX_TYPES {
            return Err(DataError::Table(format!(
                "{} piece types; at most {MAX_TYPES}",
                raw.piece.len()
            )));
        }
        let mut pieces = Vec::with_capacity(raw.piece.len());
        for (i, rp) in raw.piece.iter().enumerate() {
            let c = Checker {
                index: i + 1,
                piece: &rp.name,
            };
            let name_ok = !rp.name.is_empty()
                && rp.name.len() <= 20
                && rp
                    .name
                    .chars()
                    .all(|ch| ch.is_ascii_alphabetic() || ch == ' ' || ch == '\'');
            if !name_ok {
                return Err(c.err("name", "1 to 20 letters"));
            }
            let cb = rp.code.as_bytes();
            if cb.len() != 2 || !cb[0].is_ascii_uppercase() || !cb[1].is_ascii_lowercase() {
                return Err(c.err(
                    "code",
                    format!(
                        "'{}' is not an upper-case letter followed by a lower-case one",
                        rp.code
                    ),
                ));
            }
            let price = match &rp.price {
                NumberOrWord::Number(n) => Some(c.u8("price", *n, 1, 99)?),
                NumberOrWord::Word(w) if w == "none" => None,
                NumberOrWord::Word(w) => {
                    return Err(c.err("price", format!("'{w}' is neither a number nor \"none\"")));
                }
            };
            let limit = match &rp.limit {
                NumberOrWord::Number(n) => Some(c.u8("limit", *n, 1, 99)?),
                NumberOrWord::Word(w) if w == "unlimited" => None,
                NumberOrWord::Word(w) => {
                    return Err(c.err(
                        "limit",
                        format!("'{w}' is neither a number nor \"unlimited\""),
                    ));
                }
            };
            let piece = PieceType {
                name: rp.name.clone(),
                code: rp.code.clone(),
                attack: c.u8("attack", rp.attack, 0, 30)?,
                defence: c.u8("defence", rp.defence, 0, 30)?,
                blood: c.u8("blood", rp.blood, 1, 99)?,
                speed: c.u8("speed", rp.speed, 1, 20)?,
                price,
                limit,
                king: rp.king,
                royal: rp.royal,
                legend: rp.legend,
                rider: rp.rider,
                powers: powers(&rp.powers, &c)?,
            };
            if piece.king && (!piece.royal || piece.price.is_some() || piece.limit != Some(1)) {
                return Err(c.err(
                    "king",
                    "the King is royal, never recruited (price \"none\") and limit 1",
                ));
            }
            if !piece.king && piece.price.is_none() {
                return Err(c.err("price", "only the King has no price"));
            }
            if (piece.royal || piece.legend) && piece.limit != Some(1) {
                return Err(c.err("limit", "royals and Legends are one of a kind (limit 1)"));
            }
            if piece.powers.succession && (!piece.royal || piece.king) {
                return Err(c.err(
                    "powers",
                    "'succession' belongs to a royal who is not the King",
                ));
            }
            pieces.push(piece);
        }
        for (i, a) in pieces.iter().enumerate() {
            for b in &pieces[..i] {
                if a.name.eq_ignore_ascii_case(&b.name) {
                    return Err(DataError::Table(format!(
                        "two pieces are named '{}'",
                        a.name
                    )));
                }
                if a.code == b.code {
                    return Err(DataError::Table(format!(
                        "'{}' and '{}' share the code '{}'",
                        b.name, a.name, a.code
                    )));
                }
            }
        }
        let kings: Vec<usize> = (0..pieces.len()).filter(|&i| pieces[i].king).collect();
        let [king] = kings[..] else {
            return Err(DataError::Table(format!(
                "exactly one piece must have king = true, found {}",
                kings.len()
            )));
        };
        Ok(PieceTable {
            rules: raw.rules,
            pieces,
            king: Kind(king as u8),
        })
    }

    /// The table shipped with the crate, read once.
    ///
    /// The shipped file is checked by this crate's tests, so reading it cannot
    /// fail in a released build.
    pub fn builtin() -> &'static PieceTable {
        static TABLE: OnceLock<PieceTable> = OnceLock::new();
        TABLE.get_or_init(|| match PieceTable::from_toml(PIECES_TOML) {
            Ok(table) => table,
            Err(e) => panic!("the embedded data/pieces.toml is invalid: {e}"),
        })
    }

    /// The type of `kind`.
    ///
    /// Kinds come from this table (positions and actions are validated on
    /// reading), so the index is in range.
    pub fn get(&self, kind: Kind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    /// Every kind, in row order.
    pub fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..self.pieces.len()).map(|i| Kind(i as u8))
    }

    /// The King's kind.
    pub fn king(&self) -> Kind {
        self.king
    }

    /// The kind with this code (`Mi`) or name (`Militia`), case-insensitively.
    pub fn find(&self, text: &str) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.code.eq_ignore_ascii_case(text) || p.name.eq_ignore_ascii_case(text))
            .map(|i| Kind(i as u8))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match PieceTable::builtin().pieces.get(self.index()) {
            Some(p) => f.write_str(&p.code),
            None => write!(f, "#{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_reads() {
        let t = PieceTable::from_toml(PIECES_TOML).unwrap();
        assert_eq!(t.pieces.len(), 23);
        assert_eq!(t.get(t.king()).name, "King");
        assert_eq!(t.find("mi"), t.find("Militia"));
    }
}
