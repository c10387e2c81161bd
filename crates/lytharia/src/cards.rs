//! The card set as data: troops, spells and equipment read from TOML files,
//! validated on load, and the small declarative effect language they use.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A troop's alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alignment {
    /// Good: may not share an army with evil troops, may not use death spells.
    Good,
    /// Evil: may not share an army with good troops, may not use life spells.
    Evil,
    /// Neutral: joins any army.
    Neutral,
}

/// What a troop is. Only humanoids carry equipment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// People of the clans.
    Humanoid,
    /// Animals.
    Beast,
    /// Living elements.
    Elemental,
    /// Monsters.
    Monster,
}

/// The chess piece a troop stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Role {
    /// K.
    #[serde(rename = "K")]
    King,
    /// Q.
    #[serde(rename = "Q")]
    Queen,
    /// R.
    #[serde(rename = "R")]
    Rook,
    /// KN.
    #[serde(rename = "KN", alias = "N")]
    Knight,
    /// B.
    #[serde(rename = "B")]
    Bishop,
    /// P.
    #[serde(rename = "P")]
    Pawn,
}

impl Role {
    /// The book's letters: K, Q, R, KN, B, P.
    pub const fn letters(self) -> &'static str {
        match self {
            Role::King => "K",
            Role::Queen => "Q",
            Role::Rook => "R",
            Role::Knight => "KN",
            Role::Bishop => "B",
            Role::Pawn => "P",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letters())
    }
}

/// The six clans of Jangor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clan {
    /// Brudakian.
    Brudakian,
    /// Deepdark.
    Deepdark,
    /// Kevetni.
    Kevetni,
    /// Stoneborn.
    Stoneborn,
    /// Surictavi.
    Surictavi,
    /// Zuk Gar.
    ZukGar,
}

/// A spell's school.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum School {
    /// Life (alignment school; not for evil armies).
    Life,
    /// Death (alignment school; not for good armies).
    Death,
    /// Fire, opposite of water.
    Fire,
    /// Water, opposite of fire.
    Water,
    /// Earth, opposite of air.
    Earth,
    /// Air, opposite of earth.
    Air,
    /// Arcane: any army.
    Arcane,
}

impl School {
    /// The elemental opposite, if this is an element.
    pub const fn opposite(self) -> Option<School> {
        match self {
            School::Fire => Some(School::Water),
            School::Water => Some(School::Fire),
            School::Earth => Some(School::Air),
            School::Air => Some(School::Earth),
            _ => None,
        }
    }
}

/// When a spell may be cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Speed {
    /// Only by the active player in their main phase, on an empty stack.
    Normal,
    /// Also in response, and by the defending player.
    Fast,
}

/// Whether a spell resolves and goes to the nether, or stays in an enchant space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpellKind {
    /// Resolves once, then goes to the nether.
    Instant,
    /// Occupies one of the caster's 3 enchant spaces while it lasts.
    Enchantment,
}

/// Weapon (Att) or armour (Def).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// Raises Att.
    Weapon,
    /// Raises Def.
    Armor,
}

/// When a troop ability works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityPhase {
    /// Triggered by its owner once per effects phase.
    Effects,
    /// Used by its owner once per main phase, instead of attacking.
    Main,
    /// Always on.
    Passive,
}

/// The damage a troop inflicts in combat, or a spell inflicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DamageType {
    /// Physical: reduced by `guard`.
    #[default]
    Physical,
    /// Magic: reduced by `ward`.
    Magic,
}

/// What a spell or ability is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// No troop: the effects act on players.
    #[default]
    None,
    /// The ability's own troop (abilities only).
    #[serde(rename = "self")]
    SelfTroop,
    /// One friendly troop (chosen when cast).
    Friend,
    /// One enemy troop (chosen when cast).
    Enemy,
    /// One troop of either side (chosen when cast).
    Any,
    /// Every friendly troop.
    AllFriends,
    /// Every enemy troop.
    AllEnemies,
    /// Friendly troops adjacent to the ability's troop (abilities only).
    AdjacentFriends,
    /// Enemy troops adjacent to the ability's troop (abilities only).
    AdjacentEnemies,
    /// The spell just below on the stack (counter spells).
    Spell,
}

impl Target {
    /// Whether one troop is chosen when casting.
    pub const fn is_single(self) -> bool {
        matches!(self, Target::Friend | Target::Enemy | Target::Any)
    }
}

/// One operation of the effect language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Deal `amount` damage (magic for spells, the troop's type for abilities).
    Damage,
    /// Remove up to `amount` damage.
    Heal,
    /// Att changes by `amount` (static: needs `turns`, an enchantment or a passive).
    Att,
    /// Def changes by `amount` (static).
    Def,
    /// Magic damage taken is reduced by `amount` (static).
    Ward,
    /// Physical damage taken is reduced by `amount` (static).
    Guard,
    /// The troop cannot move (static).
    Root,
    /// The controller draws `amount` cards.
    Draw,
    /// The controller's mana counter advances `amount`.
    Mana,
    /// The opponent's mana counter goes back `amount` (not below 0).
    Drain,
    /// The target troop is killed.
    Destroy,
    /// All equipment on the target goes to its owner's nether.
    Unequip,
    /// The target troop turns face up.
    Reveal,
    /// The spell below on the stack goes to the nether without effect.
    Counter,
    /// The controller may end this main phase without moving a troop.
    Hold,
    /// The controller's mana phase gains `amount` more (enchantments, passives).
    Income,
}

impl Op {
    /// Ops that modify a troop for a while rather than acting once.
    pub const fn is_static(self) -> bool {
        matches!(
            self,
            Op::Att | Op::Def | Op::Ward | Op::Guard | Op::Root | Op::Income
        )
    }

    /// Ops that act on a troop.
    pub const fn needs_troop(self) -> bool {
        matches!(
            self,
            Op::Damage
                | Op::Heal
                | Op::Att
                | Op::Def
                | Op::Ward
                | Op::Guard
                | Op::Root
                | Op::Destroy
                | Op::Unequip
                | Op::Reveal
        )
    }
}

/// A d6 roll attached to an effect. Serialized as in the card files:
/// `"add"`, `"4+"`, or `null` for no die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Roll {
    /// No die.
    #[default]
    None,
    /// Roll a d6 and add it to the amount (`roll = "add"`).
    Add,
    /// Roll a d6; the effect happens only on this number or more (`roll = "4+"`).
    AtLeast(u8),
}

impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Roll::None => s.serialize_none(),
            Roll::Add => s.serialize_str("add"),
            Roll::AtLeast(n) => s.collect_str(&format_args!("{n}+")),
        }
    }
}

/// What a target troop must be for the effect to work; every given field must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The troop is of this kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// The troop is not of this kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_kind: Option<Kind>,
    /// The troop has this alignment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alignment: Option<Alignment>,
    /// The troop has this role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// The troop is (true) or is not (false) damaged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damaged: Option<bool>,
    /// The troop's power score is at most this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_power: Option<i32>,
}

impl Condition {
    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Condition::default()
    }
}

/// One step of an effect.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Effect {
    /// What happens.
    pub op: Op,
    /// How much (0 where the op takes no amount).
    pub amount: i32,
    /// The die roll, if any.
    pub roll: Roll,
    /// For static ops on instants and abilities: how many turns it lasts
    /// (1 = until the end of this turn).
    pub turns: u32,
    /// The condition the target troop must meet.
    #[serde(skip_serializing_if = "Condition::is_empty")]
    pub condition: Condition,
}

/// A troop's ability.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Ability {
    /// The ability's name.
    pub name: String,
    /// When it works.
    pub phase: AbilityPhase,
    /// Whether the troop must be revealed to use it (using it reveals the troop).
    pub reveal: bool,
    /// What it aims at.
    pub target: Target,
    /// For single targets: the furthest (king-step distance) the target may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
    /// What it does.
    pub effects: Vec<Effect>,
}

/// A troop card.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Troop {
    /// The card's id in files and texts.
    pub id: String,
    /// The printed name.
    pub name: String,
    /// Its clan.
    pub clan: Clan,
    /// Good, evil or neutral.
    pub alignment: Alignment,
    /// Humanoid, beast, elemental or monster.
    pub kind: Kind,
    /// The chess piece it plays as.
    pub role: Role,
    /// Attack power.
    pub att: i32,
    /// Defense power.
    pub def: i32,
    /// Power score.
    pub power: i32,
    /// At most one per army.
    pub unique: bool,
    /// The damage it inflicts in combat.
    pub damage: DamageType,
    /// Its abilities.
    pub abilities: Vec<Ability>,
    /// Flavour and rules text.
    pub text: String,
}

/// A spell card.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Spell {
    /// The card's id.
    pub id: String,
    /// The printed name.
    pub name: String,
    /// Its school.
    pub school: School,
    /// Mana cost.
    pub cost: i32,
    /// Normal or fast cast.
    pub speed: Speed,
    /// Instant or enchantment.
    pub kind: SpellKind,
    /// Mana gained when harnessed.
    pub quality: i32,
    /// What it aims at.
    pub target: Target,
    /// For enchantments: turns before it leaves its space (0 = until removed).
    pub lasts: u32,
    /// What it does.
    pub effects: Vec<Effect>,
    /// Rules text.
    pub text: String,
}

/// An equipment card.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Equipment {
    /// The card's id.
    pub id: String,
    /// The printed name.
    pub name: String,
    /// Weapon or armour.
    pub slot: Slot,
    /// Att added.
    pub att: i32,
    /// Def added.
    pub def: i32,
    /// Mana to attach.
    pub cost: i32,
    /// Mana gained when reforged.
    pub reforge: i32,
    /// Rules text.
    pub text: String,
}

/// Any card. Serialized (for the catalog) with its `type` (`troop`,
/// `spell` or `equipment`; a troop's `kind` is humanoid, beast...) and
/// the card's fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Card {
    /// A troop.
    Troop(Troop),
    /// A spell.
    Spell(Spell),
    /// Equipment.
    Equipment(Equipment),
}

impl Card {
    /// The card's id.
    pub fn id(&self) -> &str {
        match self {
            Card::Troop(t) => &t.id,
            Card::Spell(s) => &s.id,
            Card::Equipment(e) => &e.id,
        }
    }

    /// The printed name.
    pub fn name(&self) -> &str {
        match self {
            Card::Troop(t) => &t.name,
            Card::Spell(s) => &s.name,
            Card::Equipment(e) => &e.name,
        }
    }

    /// The troop, if a troop.
    pub fn troop(&self) -> Option<&Troop> {
        match self {
            Card::Troop(t) => Some(t),
            _ => None,
        }
    }

    /// The spell, if a spell.
    pub fn spell(&self) -> Option<&Spell> {
        match self {
            Card::Spell(s) => Some(s),
            _ => None,
        }
    }

    /// The equipment, if equipment.
    pub fn equipment(&self) -> Option<&Equipment> {
        match self {
            Card::Equipment(e) => Some(e),
            _ => None,
        }
    }

    /// One line describing the card, for listings.
    pub fn summary(&self) -> String {
        match self {
            Card::Troop(t) => format!(
                "{} [{}] {} {:?} {:?} {:?} {}/{} power {}{} - {}",
                t.id,
                t.role,
                t.name,
                t.clan,
                t.alignment,
                t.kind,
                t.att,
                t.def,
                t.power,
                if t.unique { " unique" } else { "" },
                t.text
            ),
            Card::Spell(s) => format!(
                "{} {} {:?} {:?} {:?} cost {} quality {} - {}",
                s.id, s.name, s.school, s.speed, s.kind, s.cost, s.quality, s.text
            ),
            Card::Equipment(e) => format!(
                "{} {} {:?} +{}/+{} cost {} reforge {} - {}",
                e.id, e.name, e.slot, e.att, e.def, e.cost, e.reforge, e.text
            ),
        }
    }
}

/// A card's index in the card set. In texts it is written as the card's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub u16);

impl CardId {
    /// The card in the built-in set.
    pub fn card(self) -> &'static Card {
        card_db().card(self)
    }

    /// The card's id text.
    pub fn name(self) -> &'static str {
        self.card().id()
    }
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for CardId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CardId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        card_db()
            .lookup(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown card '{s}'")))
    }
}

/// Why a card file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardError {
    /// The file is not TOML, or a card's table does not fit the format.
    #[error("{file}: card '{card}': {message}")]
    Format {
        /// The file.
        file: String,
        /// The card id (or its position when it has none).
        card: String,
        /// The parser's message, naming the field.
        message: String,
    },
    /// A field has a value the rules do not allow.
    #[error("{file}: card '{card}': field '{field}': {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The card id.
        card: String,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The file is not TOML at all.
    #[error("{file}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The parser's message.
        message: String,
    },
}

// ---------------------------------------------------------------- raw forms

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEffect {
    op: Op,
    #[serde(default)]
    amount: Option<i32>,
    #[serde(default)]
    roll: Option<String>,
    #[serde(default)]
    turns: Option<u32>,
    #[serde(default)]
    condition: Option<Condition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbility {
    name: String,
    phase: AbilityPhase,
    #[serde(default = "yes")]
    reveal: bool,
    #[serde(default)]
    target: Target,
    #[serde(default)]
    range: Option<u8>,
    effects: Vec<RawEffect>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroop {
    id: String,
    name: String,
    clan: Clan,
    alignment: Alignment,
    kind: Kind,
    role: Role,
    att: i32,
    def: i32,
    power: i32,
    #[serde(default)]
    unique: bool,
    #[serde(default)]
    damage: DamageType,
    #[serde(default)]
    abilities: Vec<RawAbility>,
    #[serde(default)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpell {
    id: String,
    name: String,
    school: School,
    cost: i32,
    speed: Speed,
    kind: SpellKind,
    quality: i32,
    #[serde(default)]
    target: Target,
    #[serde(default)]
    lasts: u32,
    effects: Vec<RawEffect>,
    #[serde(default)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEquipment {
    id: String,
    name: String,
    slot: Slot,
    #[serde(default)]
    att: i32,
    #[serde(default)]
    def: i32,
    cost: i32,
    reforge: i32,
    #[serde(default)]
    text: String,
}

// ---------------------------------------------------------------- the set

/// The card set: every card, by index and by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardDb {
    cards: Vec<Card>,
    by_id: HashMap<String, CardId>,
}

/// The card files built into the crate: (file name, contents).
pub const CARD_FILES: [(&str, &str); 3] = [
    ("cards/troops.toml", include_str!("../cards/troops.toml")),
    ("cards/spells.toml", include_str!("../cards/spells.toml")),
    (
        "cards/equipment.toml",
        include_str!("../cards/equipment.toml"),
    ),
];

/// The built-in card set, loaded and validated once.
///
/// The built-in files are checked by the crate's tests; should they ever fail
/// to load this panics with the validation error, since no game can be played.
pub fn card_db() -> &'static CardDb {
    static DB: OnceLock<CardDb> = OnceLock::new();
    DB.get_or_init(|| match CardDb::load(&CARD_FILES) {
        Ok(db) => db,
        Err(e) => panic!("built-in Lytharian card files are invalid: {e}"),
    })
}

impl CardDb {
    /// Loads and validates card files. A file may hold `[[troop]]`, `[[spell]]`
    /// and `[[equipment]]` tables; ids must be unique across all files.
    pub fn load(files: &[(&str, &str)]) -> Result<CardDb, CardError> {
        let mut db = CardDb {
            cards: Vec::new(),
            by_id: HashMap::new(),
        };
        for (file, text) in files {
            let table: toml::Table = toml::from_str(text).map_err(|e| CardError::Syntax {
                file: (*file).to_owned(),
                message: e.message().to_owned(),
            })?;
            for (key, value) in table {
                let items = match value {
                    toml::Value::Array(items) => items,
                    _ => {
                        return Err(CardError::Syntax {
                            file: (*file).to_owned(),
                            message: format!("'{key}' must be an array of tables"),
                        });
                    }
                };
                for (i, item) in items.into_iter().enumerate() {
                    let card_name = item
                        .get("id")
                        .and_then(|v| v.as_str())
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("#{} of {key}", i + 1));
                    let fmt_err = |e: toml::de::Error| CardError::Format {
                        file: (*file).to_owned(),
                        card: card_name.clone(),
                        message: e.message().to_owned(),
                    };
                    let card = match key.as_str() {
                        "troop" => Card::Troop(validate_troop(
                            file,
                            item.try_into::<RawTroop>().map_err(fmt_err)?,
                        )?),
                        "spell" => Card::Spell(validate_spell(
                            file,
                            item.try_into::<RawSpell>().map_err(fmt_err)?,
                        )?),
                        "equipment" => Card::Equipment(validate_equipment(
                            file,
                            item.try_into::<RawEquipment>().map_err(fmt_err)?,
                        )?),
                        _ => {
                            return Err(CardError::Syntax {
                                file: (*file).to_owned(),
                                message: format!(
                                    "unknown section '{key}' (expected troop, spell or equipment)"
                                ),
                            });
                        }
                    };
                    let id = card.id().to_owned();
                    if db.by_id.contains_key(&id) {
                        return Err(invalid(file, &id, "id", "this id is already used"));
                    }
                    if db
                        .cards
                        .iter()
                        .any(|c| c.name().eq_ignore_ascii_case(card.name()))
                    {
                        return Err(invalid(file, &id, "name", "this name is already used"));
                    }
                    let index = u16::try_from(db.cards.len()).map_err(|_| {
                        invalid(file, &id, "id", "more than 65535 cards in the set")
                    })?;
                    db.by_id.insert(id, CardId(index));
                    db.cards.push(card);
                }
            }
        }
        Ok(db)
    }

    /// The card at an index. Indices come from this set, so they are valid;
    /// an index from elsewhere gets the first card rather than a panic.
    pub fn card(&self, id: CardId) -> &Card {
        self.cards
            .get(id.0 as usize)
            .or_else(|| self.cards.first())
            .unwrap_or(&PLACEHOLDER)
    }

    /// The index of the card with this id.
    pub fn lookup(&self, id: &str) -> Option<CardId> {
        self.by_id.get(id).copied()
    }

    /// The card with this id or printed name (names compared without regard
    /// to case), for the readable action notation.
    pub fn lookup_name(&self, name: &str) -> Option<CardId> {
        let name = name.trim();
        self.lookup(name).or_else(|| {
            self.iter()
                .find(|(_, c)| c.name().eq_ignore_ascii_case(name))
                .map(|(i, _)| i)
        })
    }

    /// Every card with its index, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (CardId, &Card)> {
        self.cards
            .iter()
            .enumerate()
            .map(|(i, c)| (CardId(i as u16), c))
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Cards whose id, name or text contains `needle` (case-insensitive).
    pub fn search(&self, needle: &str) -> Vec<(CardId, &Card)> {
        let n = needle.to_lowercase();
        self.iter()
            .filter(|(_, c)| c.summary().to_lowercase().contains(&n))
            .collect()
    }
}

static PLACEHOLDER: Card = Card::Equipment(Equipment {
    id: String::new(),
    name: String::new(),
    slot: Slot::Weapon,
    att: 0,
    def: 0,
    cost: 0,
    reforge: 0,
    text: String::new(),
});

fn invalid(file: &str, card: &str, field: &str, message: &str) -> CardError {
    CardError::Invalid {
        file: file.to_owned(),
        card: card.to_owned(),
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

fn check_id(file: &str, id: &str) -> Result<(), CardError> {
    let ok = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(invalid(
            file,
            id,
            "id",
            "ids are lowercase letters, digits and '-'",
        ))
    }
}

fn in_range(
    file: &str,
    card: &str,
    field: &str,
    v: i32,
    lo: i32,
    hi: i32,
) -> Result<(), CardError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(invalid(
            file,
            card,
            field,
            &format!("{v} is outside {lo}..={hi}"),
        ))
    }
}

/// Where an effect list appears; decides which ops and targets make sense.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Instant,
    Enchantment,
    Active,
    Passive,
}

fn validate_effects(
    file: &str,
    card: &str,
    field: &str,
    raw: Vec<RawEffect>,
    target: Target,
    ctx: Context,
) -> Result<Vec<Effect>, CardError> {
    if raw.is_empty() {
        return Err(invalid(file, card, field, "at least one effect is needed"));
    }
    let mut out = Vec::new();
    for (i, r) in raw.into_iter().enumerate() {
        let f = format!("{field}[{i}]");
        let bad = |sub: &str, msg: &str| invalid(file, card, &format!("{f}.{sub}"), msg);
        let roll = match r.roll.as_deref() {
            None => Roll::None,
            Some("add") => Roll::Add,
            Some(s) => match s.strip_suffix('+').and_then(|n| n.parse::<u8>().ok()) {
                Some(n) if (2..=6).contains(&n) => Roll::AtLeast(n),
                _ => return Err(bad("roll", "expected \"add\" or \"2+\" to \"6+\"")),
            },
        };
        let takes_amount = !matches!(
            r.op,
            Op::Root | Op::Destroy | Op::Unequip | Op::Reveal | Op::Counter | Op::Hold
        );
        let amount = match (takes_amount, r.amount) {
            (true, Some(a)) => {
                if !(-12..=12).contains(&a) || a == 0 {
                    return Err(bad("amount", "must be -12..=12 and not 0"));
                }
                if a < 0 && !matches!(r.op, Op::Att | Op::Def) {
                    return Err(bad("amount", "only att and def take a negative amount"));
                }
                a
            }
            (true, None) if roll == Roll::Add => 0,
            (true, None) => return Err(bad("amount", "this op needs an amount")),
            (false, Some(_)) => return Err(bad("amount", "this op takes no amount")),
            (false, None) => 0,
        };
        if roll == Roll::Add && !takes_amount {
            return Err(bad("roll", "\"add\" needs an op with an amount"));
        }
        if r.op.needs_troop() && target == Target::None {
            return Err(bad("op", "this op acts on a troop but the target is none"));
        }
        if r.op == Op::Counter && target != Target::Spell {
            return Err(bad("op", "counter needs target = \"spell\""));
        }
        if target == Target::Spell && r.op != Op::Counter {
            return Err(bad("op", "a spell target only takes counter"));
        }
        let turns = r.turns.unwrap_or(0);
        match ctx {
            Context::Passive | Context::Enchantment => {
                if !r.op.is_static() {
                    return Err(bad(
                        "op",
                        "passives and enchantments take only static ops (att, def, ward, guard, root, income)",
                    ));
                }
                if r.turns.is_some() {
                    return Err(bad("turns", "passives and enchantments last while in play"));
                }
                if roll != Roll::None {
                    return Err(bad("roll", "static effects do not roll"));
                }
            }
            Context::Instant | Context::Active => {
                if r.op == Op::Income {
                    return Err(bad("op", "income belongs on enchantments and passives"));
                }
                if r.op.is_static() && turns == 0 {
                    return Err(bad("turns", "a static op on an instant needs turns >= 1"));
                }
                if !r.op.is_static() && r.turns.is_some() {
                    return Err(bad("turns", "only static ops last for turns"));
                }
                if turns > 6 {
                    return Err(bad("turns", "at most 6"));
                }
            }
        }
        if r.op == Op::Root && matches!(ctx, Context::Passive) {
            return Err(bad("op", "a passive cannot root"));
        }
        let condition = r.condition.unwrap_or_default();
        if !condition.is_empty() && !r.op.needs_troop() {
            return Err(bad("condition", "conditions apply to troop targets only"));
        }
        out.push(Effect {
            op: r.op,
            amount,
            roll,
            turns,
            condition,
        });
    }
    Ok(out)
}

fn validate_troop(file: &str, r: RawTroop) -> Result<Troop, CardError> {
    check_id(file, &r.id)?;
    let id = r.id.clone();
    if r.name.trim().is_empty() {
        return Err(invalid(file, &id, "name", "must not be empty"));
    }
    in_range(file, &id, "att", r.att, 0, 15)?;
    in_range(file, &id, "def", r.def, 1, 20)?;
    in_range(file, &id, "power", r.power, 1, 40)?;
    let mut abilities = Vec::new();
    for (i, a) in r.abilities.into_iter().enumerate() {
        let f = format!("abilities[{i}]");
        let ctx = match a.phase {
            AbilityPhase::Passive => Context::Passive,
            _ => Context::Active,
        };
        match (a.phase, a.target) {
            (_, Target::Spell) => {
                return Err(invalid(
                    file,
                    &id,
                    &format!("{f}.target"),
                    "abilities cannot counter spells",
                ));
            }
            (
                AbilityPhase::Passive,
                Target::SelfTroop | Target::AdjacentFriends | Target::AllFriends | Target::None,
            ) => {}
            (AbilityPhase::Passive, _) => {
                return Err(invalid(
                    file,
                    &id,
                    &format!("{f}.target"),
                    "a passive affects self, adjacent-friends, all-friends or none",
                ));
            }
            _ => {}
        }
        if a.range.is_some() && !a.target.is_single() {
            return Err(invalid(
                file,
                &id,
                &format!("{f}.range"),
                "range needs a single target",
            ));
        }
        let effects =
            validate_effects(file, &id, &format!("{f}.effects"), a.effects, a.target, ctx)?;
        if a.phase == AbilityPhase::Passive
            && a.target == Target::None
            && effects.iter().any(|e| e.op != Op::Income)
        {
            return Err(invalid(
                file,
                &id,
                &format!("{f}.target"),
                "a passive without target only takes income",
            ));
        }
        abilities.push(Ability {
            name: a.name,
            phase: a.phase,
            reveal: a.reveal,
            target: a.target,
            range: a.range,
            effects,
        });
    }
    for (i, a) in abilities.iter().enumerate() {
        if abilities[..i]
            .iter()
            .any(|b| b.name.eq_ignore_ascii_case(&a.name))
        {
            return Err(invalid(
                file,
                &id,
                &format!("abilities[{i}].name"),
                "two abilities of a troop share this name",
            ));
        }
    }
    if abilities.len() > 4 {
        return Err(invalid(file, &id, "abilities", "at most 4 abilities"));
    }
    if r.role == Role::King && !r.unique {
        return Err(invalid(file, &id, "unique", "kings are unique"));
    }
    Ok(Troop {
        id: r.id,
        name: r.name,
        clan: r.clan,
        alignment: r.alignment,
        kind: r.kind,
        role: r.role,
        att: r.att,
        def: r.def,
        power: r.power,
        unique: r.unique,
        damage: r.damage,
        abilities,
        text: r.text,
    })
}

fn validate_spell(file: &str, r: RawSpell) -> Result<Spell, CardError> {
    check_id(file, &r.id)?;
    let id = r.id.clone();
    if r.name.trim().is_empty() {
        return Err(invalid(file, &id, "name", "must not be empty"));
    }
    in_range(file, &id, "cost", r.cost, 0, 15)?;
    in_range(file, &id, "quality", r.quality, 1, 5)?;
    if matches!(
        r.target,
        Target::SelfTroop | Target::AdjacentFriends | Target::AdjacentEnemies
    ) {
        return Err(invalid(
            file,
            &id,
            "target",
            "spells have no troop of their own: use friend, enemy, any, all-friends, all-enemies, spell or none",
        ));
    }
    if r.target == Target::Spell && r.speed != Speed::Fast {
        return Err(invalid(file, &id, "speed", "a counter spell must be fast"));
    }
    let ctx = match r.kind {
        SpellKind::Instant => {
            if r.lasts != 0 {
                return Err(invalid(file, &id, "lasts", "only enchantments last"));
            }
            Context::Instant
        }
        SpellKind::Enchantment => {
            if r.lasts > 6 {
                return Err(invalid(file, &id, "lasts", "at most 6 turns"));
            }
            if r.target == Target::Spell {
                return Err(invalid(
                    file,
                    &id,
                    "target",
                    "an enchantment cannot target a spell",
                ));
            }
            Context::Enchantment
        }
    };
    let effects = validate_effects(file, &id, "effects", r.effects, r.target, ctx)?;
    Ok(Spell {
        id: r.id,
        name: r.name,
        school: r.school,
        cost: r.cost,
        speed: r.speed,
        kind: r.kind,
        quality: r.quality,
        target: r.target,
        lasts: r.lasts,
        effects,
        text: r.text,
    })
}

fn validate_equipment(file: &str, r: RawEquipment) -> Result<Equipment, CardError> {
    check_id(file, &r.id)?;
    let id = r.id.clone();
    if r.name.trim().is_empty() {
        return Err(invalid(file, &id, "name", "must not be empty"));
    }
    in_range(file, &id, "att", r.att, 0, 8)?;
    in_range(file, &id, "def", r.def, 0, 8)?;
    in_range(file, &id, "cost", r.cost, 1, 15)?;
    in_range(file, &id, "reforge", r.reforge, 0, 15)?;
    match r.slot {
        Slot::Weapon if r.att == 0 => {
            return Err(invalid(file, &id, "att", "a weapon raises Att"));
        }
        Slot::Armor if r.def == 0 => {
            return Err(invalid(file, &id, "def", "armour raises Def"));
        }
        _ => {}
    }
    if r.reforge > r.cost {
        return Err(invalid(
            file,
            &id,
            "reforge",
            "a reforge value above the cost would make mana from nothing",
        ));
    }
    Ok(Equipment {
        id: r.id,
        name: r.name,
        slot: r.slot,
        att: r.att,
        def: r.def,
        cost: r.cost,
        reforge: r.reforge,
        text: r.text,
    })
}
