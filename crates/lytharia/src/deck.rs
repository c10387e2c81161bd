//! Armies and decks: the book's building limits, and the preconstructed lists.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use thiserror::Error;

use crate::cards::{Alignment, Card, CardId, Role, School, card_db};

/// An army (16 troops) and a deck (spells and equipment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckList {
    /// The list's id, as given to the `decks` option.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The troops, in placement order.
    pub army: Vec<CardId>,
    /// The spells and equipment with their copies, in id order.
    pub cards: Vec<(CardId, u32)>,
}

/// Why an army or deck breaks the book's limits.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// The file does not parse.
    #[error("{file}: {message}")]
    Format {
        /// The file.
        file: String,
        /// The parser's message.
        message: String,
    },
    /// A card id is not in the card set.
    #[error("list '{list}': unknown card '{card}'")]
    UnknownCard {
        /// The list.
        list: String,
        /// The id.
        card: String,
    },
    /// A non-troop card in the army.
    #[error("list '{list}': '{card}' is not a troop and cannot be in the army")]
    NotATroop {
        /// The list.
        list: String,
        /// The card.
        card: String,
    },
    /// A troop card in the deck.
    #[error("list '{list}': '{card}' is a troop; the deck holds only spells and equipment")]
    NotSpellOrEquipment {
        /// The list.
        list: String,
        /// The card.
        card: String,
    },
    /// Not 16 troops.
    #[error("list '{list}': the army has {found} troops; it must have 16")]
    ArmySize {
        /// The list.
        list: String,
        /// How many.
        found: usize,
    },
    /// Wrong number of a role.
    #[error("list '{list}': the army has {found} {role}; it must have {expected}")]
    RoleCount {
        /// The list.
        list: String,
        /// The role.
        role: Role,
        /// The book's number.
        expected: usize,
        /// How many.
        found: usize,
    },
    /// More than 2 of the same Pawn.
    #[error("list '{list}': {found} copies of the pawn '{card}'; at most 2 of the same type")]
    PawnCopies {
        /// The list.
        list: String,
        /// The card.
        card: String,
        /// How many.
        found: usize,
    },
    /// More than 1 of a unique troop.
    #[error("list '{list}': {found} copies of the unique troop '{card}'; at most 1")]
    UniqueCopies {
        /// The list.
        list: String,
        /// The card.
        card: String,
        /// How many.
        found: usize,
    },
    /// Good and evil troops together.
    #[error("list '{list}': good troop '{good}' and evil troop '{evil}' cannot share an army")]
    GoodWithEvil {
        /// The list.
        list: String,
        /// A good troop.
        good: String,
        /// An evil troop.
        evil: String,
    },
    /// Fewer than 50 spells and equipment.
    #[error("list '{list}': the deck has {found} spells/equipment; it needs at least 50")]
    DeckSize {
        /// The list.
        list: String,
        /// How many.
        found: u32,
    },
    /// More than 3 copies.
    #[error("list '{list}': {found} copies of '{card}'; at most 3")]
    DeckCopies {
        /// The list.
        list: String,
        /// The card.
        card: String,
        /// How many.
        found: u32,
    },
    /// Elemental opposites together.
    #[error("list '{list}': '{a}' ({sa:?}) and '{b}' ({sb:?}) are elemental opposites")]
    Opposites {
        /// The list.
        list: String,
        /// One card.
        a: String,
        /// Its school.
        sa: School,
        /// The other card.
        b: String,
        /// Its school.
        sb: School,
    },
    /// A life spell in an evil army.
    #[error("list '{list}': evil armies may not use the life spell '{card}'")]
    LifeInEvil {
        /// The list.
        list: String,
        /// The card.
        card: String,
    },
    /// A death spell in a good army.
    #[error("list '{list}': good armies may not use the death spell '{card}'")]
    DeathInGood {
        /// The list.
        list: String,
        /// The card.
        card: String,
    },
    /// Life and death together in a neutral army.
    #[error("list '{list}': a neutral army uses life or death, not both ('{life}' and '{death}')")]
    LifeAndDeath {
        /// The list.
        list: String,
        /// A life spell.
        life: String,
        /// A death spell.
        death: String,
    },
    /// No such preconstructed list.
    #[error("no deck named '{0}' (known: good, evil, neutral-life, neutral-death)")]
    UnknownList(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    list: Vec<RawList>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawList {
    id: String,
    name: String,
    army: Vec<String>,
    cards: BTreeMap<String, u32>,
}

/// The book's role counts.
pub const ROLE_COUNTS: [(Role, usize); 6] = [
    (Role::King, 1),
    (Role::Queen, 1),
    (Role::Rook, 2),
    (Role::Knight, 2),
    (Role::Bishop, 2),
    (Role::Pawn, 8),
];

/// Parses deck lists (`[[list]]` tables: id, name, army, cards) without
/// checking the building limits (see [`DeckList::validate`]).
pub fn parse_lists(file: &str, text: &str) -> Result<Vec<DeckList>, DeckError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| DeckError::Format {
        file: file.to_owned(),
        message: e.message().to_owned(),
    })?;
    let db = card_db();
    let mut out = Vec::new();
    for l in raw.list {
        let look = |s: &str| {
            db.lookup(s).ok_or_else(|| DeckError::UnknownCard {
                list: l.id.clone(),
                card: s.to_owned(),
            })
        };
        let army = l
            .army
            .iter()
            .map(|s| look(s))
            .collect::<Result<Vec<_>, _>>()?;
        let cards = l
            .cards
            .iter()
            .map(|(s, n)| look(s).map(|c| (c, *n)))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(DeckList {
            id: l.id,
            name: l.name,
            army,
            cards,
        });
    }
    Ok(out)
}

/// The four preconstructed lists: `good`, `evil`, `neutral-life`, `neutral-death`.
pub fn starter_lists() -> &'static [DeckList] {
    static LISTS: OnceLock<Vec<DeckList>> = OnceLock::new();
    LISTS.get_or_init(|| {
        match parse_lists("decks/starter.toml", include_str!("../decks/starter.toml")) {
            Ok(l) => l,
            Err(e) => panic!("built-in deck lists are invalid: {e}"),
        }
    })
}

/// A preconstructed list by id.
pub fn starter_list(id: &str) -> Result<&'static DeckList, DeckError> {
    starter_lists()
        .iter()
        .find(|l| l.id == id)
        .ok_or_else(|| DeckError::UnknownList(id.to_owned()))
}

impl DeckList {
    /// The army's alignment for the spell rules: good if it holds a good
    /// troop, evil if it holds an evil one, neutral otherwise.
    pub fn alignment(&self) -> Alignment {
        army_alignment(&self.army)
    }

    /// The army power score: the sum of the troops' power scores.
    pub fn power(&self) -> i32 {
        self.army
            .iter()
            .filter_map(|c| c.card().troop())
            .map(|t| t.power)
            .sum()
    }

    /// The deck as a list of cards, each copy once, in id order.
    pub fn deck_cards(&self) -> Vec<CardId> {
        let mut out = Vec::new();
        for (c, n) in &self.cards {
            for _ in 0..*n {
                out.push(*c);
            }
        }
        out
    }

    /// Checks every limit of the book; the first broken one is returned.
    pub fn validate(&self) -> Result<(), DeckError> {
        let list = self.id.clone();
        // Army.
        for c in &self.army {
            if c.card().troop().is_none() {
                return Err(DeckError::NotATroop {
                    list,
                    card: c.name().to_owned(),
                });
            }
        }
        if self.army.len() != 16 {
            return Err(DeckError::ArmySize {
                list,
                found: self.army.len(),
            });
        }
        for (role, expected) in ROLE_COUNTS {
            let found = self
                .army
                .iter()
                .filter(|c| c.card().troop().map(|t| t.role) == Some(role))
                .count();
            if found != expected {
                return Err(DeckError::RoleCount {
                    list,
                    role,
                    expected,
                    found,
                });
            }
        }
        let mut counts: BTreeMap<CardId, usize> = BTreeMap::new();
        for c in &self.army {
            *counts.entry(*c).or_default() += 1;
        }
        for (c, n) in &counts {
            if let Some(t) = c.card().troop() {
                if t.unique && *n > 1 {
                    return Err(DeckError::UniqueCopies {
                        list,
                        card: t.id.clone(),
                        found: *n,
                    });
                }
                if t.role == Role::Pawn && *n > 2 {
                    return Err(DeckError::PawnCopies {
                        list,
                        card: t.id.clone(),
                        found: *n,
                    });
                }
            }
        }
        let find = |a: Alignment| {
            self.army
                .iter()
                .find(|c| c.card().troop().map(|t| t.alignment) == Some(a))
        };
        if let (Some(g), Some(e)) = (find(Alignment::Good), find(Alignment::Evil)) {
            return Err(DeckError::GoodWithEvil {
                list,
                good: g.name().to_owned(),
                evil: e.name().to_owned(),
            });
        }
        // Deck.
        let mut total = 0;
        for (c, n) in &self.cards {
            if c.card().troop().is_some() {
                return Err(DeckError::NotSpellOrEquipment {
                    list,
                    card: c.name().to_owned(),
                });
            }
            if *n > 3 {
                return Err(DeckError::DeckCopies {
                    list,
                    card: c.name().to_owned(),
                    found: *n,
                });
            }
            total += n;
        }
        if total < 50 {
            return Err(DeckError::DeckSize { list, found: total });
        }
        let spells: Vec<(CardId, School)> = self
            .cards
            .iter()
            .filter(|(_, n)| *n > 0)
            .filter_map(|(c, _)| c.card().spell().map(|s| (*c, s.school)))
            .collect();
        for (a, sa) in &spells {
            if let Some(opp) = sa.opposite()
                && let Some((b, sb)) = spells.iter().find(|(_, s)| *s == opp)
            {
                return Err(DeckError::Opposites {
                    list,
                    a: a.name().to_owned(),
                    sa: *sa,
                    b: b.name().to_owned(),
                    sb: *sb,
                });
            }
        }
        let life = spells.iter().find(|(_, s)| *s == School::Life);
        let death = spells.iter().find(|(_, s)| *s == School::Death);
        match self.alignment() {
            Alignment::Evil => {
                if let Some((c, _)) = life {
                    return Err(DeckError::LifeInEvil {
                        list,
                        card: c.name().to_owned(),
                    });
                }
            }
            Alignment::Good => {
                if let Some((c, _)) = death {
                    return Err(DeckError::DeathInGood {
                        list,
                        card: c.name().to_owned(),
                    });
                }
            }
            Alignment::Neutral => {
                if let (Some((l, _)), Some((d, _))) = (life, death) {
                    return Err(DeckError::LifeAndDeath {
                        list,
                        life: l.name().to_owned(),
                        death: d.name().to_owned(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// The alignment of an army: good if any troop is good, evil if any is evil,
/// neutral otherwise.
pub fn army_alignment(army: &[CardId]) -> Alignment {
    let has = |a: Alignment| {
        army.iter()
            .any(|c| matches!(c.card(), Card::Troop(t) if t.alignment == a))
    };
    if has(Alignment::Good) {
        Alignment::Good
    } else if has(Alignment::Evil) {
        Alignment::Evil
    } else {
        Alignment::Neutral
    }
}
