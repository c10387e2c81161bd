//! The card set and the deck lists load and keep the book's limits.

use tabula_lytharia::cards::{AbilityPhase, Alignment, Card, Kind, Op, Role, Roll, Target};
use tabula_lytharia::{card_db, starter_lists};

#[test]
fn builtin_cards_load_with_the_promised_counts() {
    let db = card_db();
    let troops = db.iter().filter(|(_, c)| c.troop().is_some()).count();
    let spells = db.iter().filter(|(_, c)| c.spell().is_some()).count();
    let equipment = db.iter().filter(|(_, c)| c.equipment().is_some()).count();
    assert_eq!((troops, spells, equipment), (60, 60, 12));
}

#[test]
fn starter_lists_are_legal() {
    let lists = starter_lists();
    assert_eq!(lists.len(), 4);
    for l in lists {
        l.validate().unwrap_or_else(|e| panic!("{e}"));
    }
    let al: Vec<Alignment> = lists.iter().map(|l| l.alignment()).collect();
    assert_eq!(
        al,
        [
            Alignment::Good,
            Alignment::Evil,
            Alignment::Neutral,
            Alignment::Neutral
        ]
    );
}

#[test]
fn troops_cover_every_role_alignment_and_kind() {
    let db = card_db();
    let troops: Vec<_> = db.iter().filter_map(|(_, c)| c.troop()).collect();
    for role in [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Pawn,
    ] {
        for al in [Alignment::Good, Alignment::Evil, Alignment::Neutral] {
            assert!(
                troops.iter().any(|t| t.role == role && t.alignment == al),
                "no {al:?} {role}"
            );
        }
    }
    for kind in [Kind::Humanoid, Kind::Beast, Kind::Elemental, Kind::Monster] {
        assert!(troops.iter().any(|t| t.kind == kind), "no {kind:?}");
    }
    for phase in [
        AbilityPhase::Effects,
        AbilityPhase::Main,
        AbilityPhase::Passive,
    ] {
        assert!(
            troops
                .iter()
                .any(|t| t.abilities.iter().any(|a| a.phase == phase))
        );
    }
    assert!(troops.iter().any(|t| t.abilities.iter().any(|a| !a.reveal)));
}

#[test]
fn every_op_roll_and_target_is_used_by_some_card() {
    let db = card_db();
    let mut effects = Vec::new();
    let mut targets = Vec::new();
    for (_, c) in db.iter() {
        match c {
            Card::Troop(t) => {
                for a in &t.abilities {
                    targets.push(a.target);
                    effects.extend(a.effects.iter().cloned());
                }
            }
            Card::Spell(s) => {
                targets.push(s.target);
                effects.extend(s.effects.iter().cloned());
            }
            Card::Equipment(_) => {}
        }
    }
    use Op::*;
    for op in [
        Damage, Heal, Att, Def, Ward, Guard, Root, Draw, Mana, Drain, Destroy, Unequip, Reveal,
        Counter, Hold, Income,
    ] {
        assert!(effects.iter().any(|e| e.op == op), "{op:?} unused");
    }
    assert!(effects.iter().any(|e| e.roll == Roll::Add));
    assert!(effects.iter().any(|e| matches!(e.roll, Roll::AtLeast(_))));
    assert!(effects.iter().any(|e| !e.condition.is_empty()));
    use Target as T;
    for t in [
        T::None,
        T::SelfTroop,
        T::Friend,
        T::Enemy,
        T::AllFriends,
        T::AllEnemies,
        T::AdjacentFriends,
        T::AdjacentEnemies,
        T::Spell,
    ] {
        assert!(targets.contains(&t), "{t:?} unused");
    }
}
