//! One test per power of section 6 and of the table (and per aura of
//! section 5), on the Arena field: forest c4, hill e4, desert g4, Holy City
//! e7. Kings stand at a9 and i9 unless a test needs them elsewhere.

mod common;

use common::*;
use tabula_core::{EndReason, Game, Outcome, Team, ToAct};
use tabula_covenant::{Action, Covenant, Illegal, PieceTable, Side};

fn with_kings(pieces: &str) -> String {
    format!("{KINGS},{pieces}")
}

fn active_mp(game: &Covenant) -> u8 {
    game.active().expect("a piece is active").mp
}

// ----- section 5: the court's auras ----------------------------------------

#[test]
fn power_king_aura_attack() {
    // Blade (Atk 4) on a Pikeman (Def 2): 4 - 2 + 4 = 6.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 6);
    // The King within 4 tiles (b2 to d3: 2): +1 Attack.
    let mut g = arena("g", "gKi@b2,bKi@i9,gBl@d3,bPk@e3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 5);
    // Exactly 4 tiles still counts (h3 to d3), 5 does not (i3).
    let mut g = arena("g", "gKi@h3,bKi@i9,gBl@d3,bPk@e3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 5);
    let mut g = arena("g", "gKi@i3,bKi@i9,gBl@d3,bPk@e3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 6);
    // The aura is for allies: the King himself strikes with his own 3.
    let mut g = arena("g", "gKi@d3,bKi@i9,bPk@e3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 12 - 5);
}

#[test]
fn power_queen_aura_defence() {
    // The Queen at g3 (2 tiles): the Pikeman's Defence 2 + 1.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3,bQu@g3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 12 - 5);
    // Not on herself: Defence 1, the Blade deals 7.
    let mut g = arena("g", &with_kings("gBl@d3,bQu@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 12 - 7);
}

#[test]
fn power_heir_aura_speed() {
    let mut g = arena("g", &with_kings("gPk@d2,gHe@b2"));
    play(&mut g, "act@d2");
    assert_eq!(active_mp(&g), 6);
    // Not on himself.
    play(&mut g, "end-act act@b2");
    assert_eq!(active_mp(&g), 4);
    // Without an Heir near, Speed alone.
    let mut g = arena("g", &with_kings("gPk@d2,gHe@i1"));
    play(&mut g, "act@d2");
    assert_eq!(active_mp(&g), 4);
    // The extra MP buy more walking: 6 open tiles.
    let mut g = arena("g", &with_kings("gPk@d1,gHe@b2"));
    play(&mut g, "act@d1 move@d7");
    assert_eq!(active_mp(&g), 0);
}

#[test]
fn power_heir_succession() {
    let mut g = arena("b", "gKi@e3=1,gHe@b2,bKi@i9,bBl@d3");
    play(&mut g, "act@d3 melee@e3");
    assert!(g.piece_at(h("e3")).is_none());
    let crowned = g.piece_at(h("b2")).unwrap();
    assert_eq!(crowned.kind, PieceTable::builtin().king());
    assert_eq!(
        g.to_act(),
        ToAct::Player {
            player: Side::Blue.player()
        }
    );
    // The new King's aura is the King's; a new Heir may be recruited.
    play(&mut g, "end-turn recruit@b3:He");
    assert!(g.to_text().contains("gHe@b3:i"));
    // Without an Heir the fall of the King loses the game.
    let mut g = arena("b", "gKi@e3=1,bKi@i9,bBl@d3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(1), EndReason::KingCaptured)
        }
    );
    assert_eq!(
        g.describe_outcome(&g.to_act().outcome().unwrap()),
        "Blue wins by defeating the King"
    );
}

#[test]
fn power_princess_recovery() {
    let mut g = arena(
        "b",
        &with_kings("gPr@c2=5,gMi@d3=5,gVa@d4=14,gPk@h1=5,bMi@e3=5"),
    );
    play(&mut g, "end-turn");
    // At the start of Gold's turn: +2 within 4 tiles, capped, not herself,
    // not beyond 4 tiles (c2 to h1: 5), not the enemy.
    assert_eq!(blood(&g, "d3"), 7);
    assert_eq!(blood(&g, "d4"), 15);
    assert_eq!(blood(&g, "c2"), 5);
    assert_eq!(blood(&g, "h1"), 5);
    assert_eq!(blood(&g, "e3"), 5);
    // Only at the start of her own side's turn.
    play(&mut g, "end-turn");
    assert_eq!(blood(&g, "d3"), 7);
}

#[test]
fn power_maiden_extra_action() {
    let mut g = arena("g", &with_kings("gMa@b2,gPk@d2:1"));
    assert!(legal(&g).contains(&"extra@d2".to_owned()));
    play(&mut g, "extra@d2");
    let p = *g.piece_at(h("d2")).unwrap();
    assert_eq!((p.blood, p.acts, p.extra), (8, 2, true));
    assert_eq!(active_mp(&g), 4);
    play(&mut g, "end-act");
    assert!(matches!(refused(&g, "extra@d2"), Illegal::NoExtra(..)));
    // Not for herself, not beyond 4 tiles, not with 4 Blood or less, not
    // while the piece still has an act of its own.
    for pieces in [
        "gMa@b2:1",
        "gMa@b2,gPk@g2:1",
        "gMa@b2,gPk@d2=4:1",
        "gMa@b2,gPk@d2",
    ] {
        let g = arena("g", &with_kings(pieces));
        let hex = &pieces[pieces.rfind('@').unwrap() + 1..pieces.rfind('@').unwrap() + 3];
        assert!(
            matches!(refused(&g, &format!("extra@{hex}")), Illegal::NoExtra(..)),
            "{pieces}"
        );
    }
    // It stacks with Sacrifice: a Templar's third act, paid up front only.
    let mut g = arena("g", &with_kings("gMa@b2,gTe@d2:2"));
    play(&mut g, "extra@d2 end-act");
    assert_eq!(blood(&g, "d2"), 11);
    assert_eq!(g.piece_at(h("d2")).unwrap().acts, 3);
}

// ----- section 6 --------------------------------------------------------------

#[test]
fn power_militia_shield_wall() {
    // Alone: 4 - 3 + 4 = 5.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 7);
    // Two adjacent Militia: +2.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3,bMi@e2,bMi@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 9);
    // Only Militia count, and only allied ones.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3,bPk@e2,bMi@f3,gMi@d2"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 8);
    // A Pikeman beside Militia gains nothing.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3,bMi@e2,bMi@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 6);
}

#[test]
fn power_pikeman_charge() {
    // The table's "+0/+1/+2/+3 by tiles moved": tiles - 1, capped at 3.
    let g = arena("g", &with_kings("gPk@d5,bMi@e5"));
    let pk = *g.piece_at(h("d5")).unwrap();
    let mi = *g.piece_at(h("e5")).unwrap();
    let attacks: Vec<i16> = (0..=5).map(|t| g.melee_attack(&pk, &mi, Some(t))).collect();
    assert_eq!(attacks, [2, 2, 3, 4, 5, 5]);
    // Counters never charge.
    assert_eq!(g.melee_attack(&pk, &mi, None), 2);
    // Four tiles walked, then the blow: 5 - 3 + 4 = 6; the counter 4.
    let mut g = arena("g", &with_kings("gPk@d1,bMi@e5"));
    play(&mut g, "act@d1 move@d5 melee@e5");
    assert_eq!((blood(&g, "e5"), blood(&g, "d5")), (6, 8));
    // Two tiles (in two moves): +1.
    let mut g = arena("g", &with_kings("gPk@d3,bMi@e5"));
    play(&mut g, "act@d3 move@d4 move@d5 melee@e5");
    assert_eq!(blood(&g, "e5"), 8);
    // Standing still: +0.
    let mut g = arena("g", &with_kings("gPk@d5,bMi@e5"));
    play(&mut g, "act@d5 melee@e5");
    assert_eq!(blood(&g, "e5"), 9);
}

#[test]
fn power_pikeman_set_pike() {
    // Against a rider (Lancer, Def 4): 2 + 1 - 4 + 4 = 3.
    let mut g = arena("g", &with_kings("gPk@d3,bLa@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 12);
    // Against the Heir (Def 4, not a rider): 2.
    let mut g = arena("g", &with_kings("gPk@d3,bHe@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 13);
    // The set pike also answers a rider's charge.
    let mut g = arena("b", &with_kings("gPk@d3,bLa@e3"));
    play(&mut g, "act@e3 melee@d3");
    assert_eq!((blood(&g, "d3"), blood(&g, "e3")), (7, 12));
}

#[test]
fn power_archer_arrows() {
    let mut g = arena("g", &with_kings("gAr@b2,bMi@b6,bPk@b7"));
    play(&mut g, "act@b2");
    assert!(matches!(
        refused(&g, "shoot@b7"),
        Illegal::OutOfRange {
            distance: 5,
            range: 4,
            ..
        }
    ));
    play(&mut g, "shoot@b6");
    // Constant attack 2: 2 - 3 + 4 = 3; 4 tiles away draws no counter.
    assert_eq!((blood(&g, "b6"), blood(&g, "b2")), (9, 12));
    assert_eq!(active_mp(&g), 1);
    assert_eq!(
        refused(&g, "shoot@b6"),
        Illegal::NotEnoughMp { cost: 3, mp: 1 }
    );
    // It walks with what is left.
    play(&mut g, "move@b3");
    assert_eq!(active_mp(&g), 0);
    // Constant: neither the King's aura nor a hill adds to an arrow.
    let mut g = arena("g", "gKi@d4,bKi@i9,gAr@e4,bMi@e6");
    play(&mut g, "act@e4 shoot@e6");
    // Arrow 2 on the Militia's 3 + 1 (Holy City e6): 2.
    assert_eq!(blood(&g, "e6"), 10);
}

#[test]
fn power_archer_bastions_height() {
    // b1 to b6 is 5 tiles: in range only beside an allied Bastion.
    let mut g = arena("g", &with_kings("gAr@b1,gBa@a1,bMi@b6"));
    play(&mut g, "act@b1 shoot@b6");
    assert_eq!(blood(&g, "b6"), 9);
    let g = arena("g", &with_kings("gAr@b1,bBa@a1,bMi@b6"));
    let mut g2 = g.clone();
    play(&mut g2, "act@b1");
    assert!(matches!(
        refused(&g2, "shoot@b6"),
        Illegal::OutOfRange { range: 4, .. }
    ));
}

#[test]
fn power_blade_sweep() {
    let mut g = arena("g", &with_kings("gBl@d3,bPk@c3,bPk@d4,bPk@e3,bPk@d2"));
    play(&mut g, "act@d3");
    assert_eq!(refused(&g, "sweep@c3,d2,d4,e3"), Illegal::TooManyTargets(3));
    play(&mut g, "sweep@c3,d4,e3");
    // Each takes 4 - 2 + 4 = 6; only the first (c3) counters: 5.
    for t in ["c3", "d4", "e3"] {
        assert_eq!(blood(&g, t), 6, "{t}");
    }
    assert_eq!(blood(&g, "d2"), 12);
    assert_eq!(blood(&g, "d3"), 7);
    assert!(g.piece_at(h("c3")).unwrap().countered);
    assert!(!g.piece_at(h("e3")).unwrap().countered);
    assert_eq!(g.active(), None);
    // The first named target is the one that counters.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@c3,bMi@e3"));
    play(&mut g, "act@d3 sweep@e3,c3");
    assert!(g.piece_at(h("e3")).unwrap().countered);
    assert!(!g.piece_at(h("c3")).unwrap().countered);
}

/// "Blade — Sweep: strikes up to 3 adjacent foes at once": every blow of a
/// Sweep lands, even when one of them fells the enemy King and wins, and
/// the targets fall together, so an Angel felled by the same Sweep gives no
/// Grace for the allies beside her, whatever order the targets are named
/// in (decision 25). Found by the differential test (`differential.rs`).
#[test]
fn power_blade_sweep_strikes_every_foe_at_once() {
    for sweep in ["sweep@e3,c3", "sweep@c3,e3"] {
        // The King (no Heir) falls; the Militia still takes 4 - 3 + 4 = 5.
        let mut g = arena("g", "gKi@a9,gBl@d3,bKi@e3=1,bMi@c3");
        play(&mut g, &format!("act@d3 {sweep}"));
        assert_eq!(
            g.to_act(),
            ToAct::Over {
                outcome: Outcome::win(Team(0), EndReason::KingCaptured)
            },
            "{sweep}"
        );
        assert_eq!(blood(&g, "c3"), 7, "{sweep}");
        assert!(!g.piece_at(h("c3")).unwrap().countered, "{sweep}");
        // The Angel (4 - 1 + 4 = 7) and the Militia fall together: no Grace.
        let mut g = arena("g", &with_kings("gBl@d3,bAn@e3=1,bMi@c3=1"));
        play(&mut g, &format!("act@d3 {sweep}"));
        assert!(g.piece_at(h("e3")).is_none() && g.piece_at(h("c3")).is_none());
        assert_eq!(g.grails(Side::Blue), 10, "{sweep}");
    }
    // An Angel left standing refunds the Militia's 1.
    let mut g = arena("g", &with_kings("gBl@d3,bAn@e3,bMi@c3=1"));
    play(&mut g, "act@d3 sweep@c3,e3");
    assert_eq!(blood(&g, "e3"), 5);
    assert_eq!(g.grails(Side::Blue), 11);
}

#[test]
fn power_vanguard_bulwark() {
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3,bVa@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 8);
    // Two Vanguards: each gives its +2.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3,bVa@f3,bVa@e2"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 10);
    // An enemy Vanguard shields nobody of the other side.
    let mut g = arena("g", &with_kings("gBl@d3,bPk@e3,gVa@d2"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 6);
}

#[test]
fn power_berserker_fury() {
    // Two blows of 5 - 5 + 4 = 4; one counter of 3 - 3 + 4 = 4.
    let mut g = arena("g", &with_kings("gBe@d3,bVa@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (7, 11));
    assert_eq!(g.active(), None);
    // A first blow that kills ends it: no counter, no second blow.
    let mut g = arena("g", &with_kings("gBe@d3,bVa@e3=4"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (0, 15));
    // A counter that kills the Berserker stops the second blow.
    let mut g = arena("g", &with_kings("gBe@d3=4,bVa@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (11, 0));
    // The second blow may kill.
    let mut g = arena("g", &with_kings("gBe@d3,bVa@e3=8"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (0, 11));
}

#[test]
fn power_bastion_bolts() {
    let mut g = arena("g", &with_kings("gBa@d2,bAr@d4,bAr@d5"));
    play(&mut g, "act@d2");
    assert_eq!(active_mp(&g), 2);
    assert!(matches!(
        refused(&g, "shoot@d5"),
        Illegal::OutOfRange { range: 2, .. }
    ));
    play(&mut g, "shoot@d4");
    // Constant attack 1: 1 - 1 + 4 = 4; 2 tiles: no counter.
    assert_eq!((blood(&g, "d4"), blood(&g, "d2")), (8, 20));
    assert_eq!(
        refused(&g, "shoot@d4"),
        Illegal::NotEnoughMp { cost: 2, mp: 0 }
    );
}

#[test]
fn power_bastion_stone_wall() {
    // Holy strikes keep his Defence: 6 - 7 + 4 = 3 (not the flat 6).
    let mut g = arena("g", &with_kings("gAp@b2,bBa@b4"));
    play(&mut g, "act@b2 holy@b4");
    assert_eq!(blood(&g, "b4"), 17);
    // In a forest (Defence 8): 2.
    let mut g = arena("g", &with_kings("gAp@c2,bBa@c4"));
    play(&mut g, "act@c2 holy@c4");
    assert_eq!(blood(&g, "c4"), 18);
    // Elias: 7 - 7 + 4 = 4.
    let mut g = arena("g", &with_kings("gEl@b2,bBa@b4"));
    play(&mut g, "act@b2 holy@b4");
    assert_eq!(blood(&g, "b4"), 16);
    // The wall never makes a holy strike hurt more than its flat damage:
    // cursed to Defence 0, the formula would give 10; he takes 6.
    let mut g = arena("g", &with_kings("gAp@b2,bBa@b4,gLe@b1"));
    play(&mut g, "act@b2 holy@b4");
    assert_eq!(blood(&g, "b4"), 14);
}

#[test]
fn power_apostle_holy_strike() {
    // Flat 6 on a Vanguard in a forest beside the Queen: Defence ignored.
    let mut g = arena("g", &with_kings("gAp@b2,bVa@c4,bQu@b4,bMi@b5"));
    play(&mut g, "act@b2 holy@c4");
    assert_eq!((blood(&g, "c4"), blood(&g, "b2")), (9, 12));
    assert_eq!(active_mp(&g), 2);
    assert!(matches!(
        refused(&g, "holy@b5"),
        Illegal::OutOfRange { distance: 3, .. }
    ));
    play(&mut g, "holy@c4");
    assert_eq!(blood(&g, "c4"), 3);
    assert_eq!(
        refused(&g, "holy@c4"),
        Illegal::NotEnoughMp { cost: 2, mp: 0 }
    );
    // Cast on an adjacent foe, it draws the counter-blow (2 - 1 + 4 = 5).
    let mut g = arena("g", &with_kings("gAp@b2,bMi@b3"));
    play(&mut g, "act@b2 holy@b3");
    assert_eq!((blood(&g, "b3"), blood(&g, "b2")), (6, 7));
}

#[test]
fn power_apostle_convert() {
    let mut g = arena("g", &with_kings("gAp@b2,bMi@b4=6"));
    play(&mut g, "act@b2 holy@b4");
    assert!(g.piece_at(h("b4")).is_none());
    assert!(legal(&g).contains(&"convert@b4".to_owned()));
    play(&mut g, "convert@b4");
    let convert = *g.piece_at(h("b4")).unwrap();
    assert_eq!(
        (convert.side, convert.blood, convert.idle),
        (Side::Gold, 12, true)
    );
    assert_eq!(g.grails(Side::Gold), 9);
    play(&mut g, "end-act");
    assert_eq!(refused(&g, "act@b4"), Illegal::Idle(h("b4")));
    play(&mut g, "end-turn end-turn act@b4");
    // The chance passes with the next action.
    let mut g = arena("g", &with_kings("gAp@b2,bMi@b4=6"));
    play(&mut g, "act@b2 holy@b4 end-act");
    assert_eq!(
        refused(&g, "convert@b4"),
        Illegal::NothingToConvert(h("b4"))
    );
    // Never royals or Legends; not after a melee kill; it costs a Grail.
    for pieces in ["gAp@b2,bQu@b4=6", "gAp@b2,bAn@b4=6"] {
        let mut g = arena("g", &with_kings(pieces));
        play(&mut g, "act@b2 holy@b4");
        assert!(g.piece_at(h("b4")).is_none());
        assert!(!legal(&g).iter().any(|a| a.starts_with("convert")));
    }
    let mut g = arena("g", &with_kings("gAp@b2,bMi@b3=1"));
    play(&mut g, "act@b2 melee@b3");
    assert_eq!(g.convertible(), None);
    let text = format!("arena g 1 0 0/10 - - {KINGS},gAp@b2,bMi@b4=6");
    let mut g = Covenant::from_text(&text, &options()).unwrap();
    play(&mut g, "act@b2 holy@b4");
    assert_eq!(
        refused(&g, "convert@b4"),
        Illegal::NotEnoughGrails { cost: 1, have: 0 }
    );
}

#[test]
fn power_prophet_healing() {
    let pieces = with_kings("gPh@c2,gMi@d3=3,gMi@c7=3,bMi@d2=3");
    let mut g = arena("g", &pieces);
    play(&mut g, "heal@c2:d3");
    assert_eq!(blood(&g, "d3"), 12);
    assert_eq!(refused(&g, "heal@c2:c7"), Illegal::AlreadyHealed(h("c2")));
    // Healing is not an act: the Prophet still acts.
    play(&mut g, "act@c2");
    let g = arena("g", &pieces);
    assert!(matches!(
        refused(&g, "heal@c2:c7"),
        Illegal::OutOfRange { distance: 5, .. }
    ));
    assert_eq!(refused(&g, "heal@c2:d2"), Illegal::NotYours(h("d2")));
    assert_eq!(refused(&g, "heal@c2:c2"), Illegal::NotHurt(h("c2")));
    // Himself allowed.
    let mut g = arena("g", &with_kings("gPh@c2=4"));
    play(&mut g, "heal@c2:c2");
    assert_eq!(blood(&g, "c2"), 12);
    // Not while idle; once a turn, again next turn.
    let g = arena("g", &with_kings("gPh@c2:i,gMi@d3=3"));
    assert_eq!(refused(&g, "heal@c2:d3"), Illegal::Idle(h("c2")));
    let mut g = arena("g", &with_kings("gPh@c2:h,gMi@d3=3"));
    play(&mut g, "end-turn end-turn heal@c2:d3");
}

#[test]
fn power_lancer_charge() {
    let g = arena("g", &with_kings("gLa@d5,bMi@e5"));
    let la = *g.piece_at(h("d5")).unwrap();
    let mi = *g.piece_at(h("e5")).unwrap();
    let attacks: Vec<i16> = (0..=9).map(|t| g.melee_attack(&la, &mi, Some(t))).collect();
    // "8th tile: 3+7=10".
    assert_eq!(attacks, [3, 3, 4, 5, 6, 7, 8, 9, 10, 10]);
    // Eight tiles up the open d column, then the blow with 0 MP left:
    // 10 - 3 + 4 = 11 on the Militia, whose counter deals 2 - 4 + 4 = 2.
    let mut g = arena("g", "gKi@i1,bKi@i9,gLa@d1,bMi@c9");
    play(&mut g, "act@d1 move@d9");
    assert_eq!(g.active().unwrap().tiles, 8);
    assert_eq!(active_mp(&g), 0);
    play(&mut g, "melee@c9");
    assert_eq!((blood(&g, "c9"), blood(&g, "d9")), (1, 13));
}

fn two_acts(piece: &str, pieces: &str, options: &tabula_covenant::CovenantOptions) -> Covenant {
    let mut g = arena_with(options, "g", &with_kings(pieces));
    play(&mut g, &format!("act@{piece} end-act act@{piece} end-act"));
    g
}

#[test]
fn power_templar_sacrifice() {
    let g = two_acts("d2", "gTe@d2", &options());
    assert_eq!(blood(&g, "d2"), 11);
    assert_eq!(refused(&g, "act@d2"), Illegal::NoActLeft(h("d2")));
    // One act costs nothing.
    let mut one = arena("g", &with_kings("gTe@d2"));
    play(&mut one, "act@d2 end-act");
    assert_eq!(blood(&one, "d2"), 15);
    // The loss can kill (not a capture: the count of quiet rounds goes on).
    let g = two_acts("d2", "gTe@d2=4", &options());
    assert!(g.piece_at(h("d2")).is_none());
    assert!(!g.captured_this_round());
    // Under sacrifice=spares it leaves 1 Blood.
    let g = two_acts("d2", "gTe@d2=4", &options_with("sacrifice", "spares"));
    assert_eq!(blood(&g, "d2"), 1);
    // A second act ended by the end of the turn pays too...
    let mut g = arena("g", &with_kings("gTe@d2"));
    play(&mut g, "act@d2 end-act act@d2 end-turn");
    assert_eq!(blood(&g, "d2"), 11);
    // ...and one ended by a melee blow.
    let mut g = arena("g", &with_kings("gTe@d2,bMi@e3=1"));
    play(&mut g, "act@d2 end-act act@d2 melee@e3");
    assert_eq!(blood(&g, "d2"), 11);
}

#[test]
fn power_ranger_arrows() {
    let mut g = arena("g", &with_kings("gRa@b2,bVa@b6"));
    play(&mut g, "act@b2 shoot@b6 shoot@b6");
    // Constant attack 3 on Defence 5: 2 a shot; Speed 8 pays two.
    assert_eq!(blood(&g, "b6"), 11);
    assert_eq!(active_mp(&g), 2);
    assert_eq!(
        refused(&g, "shoot@b6"),
        Illegal::NotEnoughMp { cost: 3, mp: 2 }
    );
    play(&mut g, "move@d2");
    // No Bastion's height for the Ranger.
    let mut g = arena("g", &with_kings("gRa@b1,gBa@a1,bVa@b6"));
    play(&mut g, "act@b1");
    assert!(matches!(
        refused(&g, "shoot@b6"),
        Illegal::OutOfRange { range: 4, .. }
    ));
}

#[test]
fn power_angel_wrath_answers_a_blow_with_11() {
    // The Blade deals 4 - 1 + 4 = 7; the wrath 7 + 4 = 11, Defence ignored.
    let mut g = arena("g", &with_kings("gBl@d3,bAn@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (5, 1));
    // Under wrath=7 a flat 7.
    let mut g = arena_with(
        &options_with("wrath", "7"),
        "g",
        &with_kings("gBl@d3,bAn@e3"),
    );
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "d3"), 5);
}

#[test]
fn power_angel_wrath_reaches_4_tiles() {
    // An arrow from 4 tiles: 2 - 1 + 4 = 5, and the wrath answers.
    let mut g = arena("g", &with_kings("gAr@b2,bAn@b6"));
    play(&mut g, "act@b2 shoot@b6");
    assert_eq!((blood(&g, "b6"), blood(&g, "b2")), (7, 1));
    // From 5 tiles (an Archer beside its Bastion) it cannot.
    let mut g = arena("g", &with_kings("gAr@b1,gBa@a1,bAn@b6"));
    play(&mut g, "act@b1 shoot@b6");
    assert_eq!((blood(&g, "b6"), blood(&g, "b1")), (7, 12));
    // Holy fire is answered too.
    let mut g = arena("g", &with_kings("gAp@b4,bAn@b6"));
    play(&mut g, "act@b4 holy@b6");
    assert_eq!((blood(&g, "b6"), blood(&g, "b4")), (6, 1));
}

#[test]
fn power_angel_wrath_breaks_the_bastions_wall() {
    // Bolts 1 - 1 + 4 = 4; the wrath deals the Bastion the full 11.
    let mut g = arena("g", &with_kings("gBa@b4,bAn@b6"));
    play(&mut g, "act@b4 shoot@b6");
    assert_eq!((blood(&g, "b6"), blood(&g, "b4")), (8, 9));
}

#[test]
fn power_angel_wrath_is_a_counter_only() {
    // She never attacks first.
    let mut g = arena("b", &with_kings("gMi@d3,bAn@e3"));
    play(&mut g, "act@e3");
    assert!(matches!(refused(&g, "melee@d3"), Illegal::NeverAttacks(_)));
    assert!(!legal(&g).iter().any(|a| a.starts_with("melee")));
    // Once a round, like every counter.
    let mut g = arena("g", &with_kings("gAr@b2,gAp@b4,bAn@b6"));
    play(&mut g, "act@b2 shoot@b6 end-act act@b4 holy@b6");
    assert_eq!(
        (blood(&g, "b6"), blood(&g, "b2"), blood(&g, "b4")),
        (1, 1, 12)
    );
    // Not when she is a Sweep's second target.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@c3,bAn@e3"));
    play(&mut g, "act@d3 sweep@c3,e3");
    assert_eq!(blood(&g, "e3"), 5);
    assert_eq!(blood(&g, "d3"), 12 - 5);
    // Not when the blow kills her.
    let mut g = arena("g", &with_kings("gBl@d3,bAn@e3=7"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "d3"), 12);
}

#[test]
fn power_angel_grace() {
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3=1,bAn@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.grails(Side::Blue), 11);
    // A fallen Vanguard refunds its 2.
    let mut g = arena("g", &with_kings("gBl@d3,bVa@e3=1,bAn@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.grails(Side::Blue), 12);
    // Beyond 4 tiles (h7 to e3: 6), nothing; nor for the Angel herself.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3=1,bAn@h7"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.grails(Side::Blue), 10);
    let mut g = arena("g", &with_kings("gBl@d3,bAn@e3=1"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.grails(Side::Blue), 10);
    // Any fall of an ally counts, a Sacrifice's too.
    let mut g = arena("g", &with_kings("gTe@d2=4,gAn@d4"));
    play(&mut g, "act@d2 end-act act@d2 end-act");
    assert!(g.piece_at(h("d2")).is_none());
    assert_eq!(g.grails(Side::Gold), 12);
    // Her own side only.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3=1,gAn@f3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.grails(Side::Blue), 10);
    assert_eq!(g.grails(Side::Gold), 10);
}

#[test]
fn power_paladin_sacrifice() {
    let g = two_acts("d2", "gPa@d2", &options());
    assert_eq!(blood(&g, "d2"), 11);
    assert_eq!(refused(&g, "act@d2"), Illegal::NoActLeft(h("d2")));
    let g = two_acts("d2", "gPa@d2=3", &options());
    assert!(g.piece_at(h("d2")).is_none());
}

#[test]
fn power_attila_arrows() {
    let mut g = arena("g", "gKi@b3,bKi@i9,gAt@b2,bVa@b6");
    play(&mut g, "act@b2 shoot@b6 shoot@b6");
    // Constant attack 4 (the King beside him adds nothing): 4 - 5 + 4 = 3.
    assert_eq!(blood(&g, "b6"), 9);
    assert_eq!(active_mp(&g), 2);
}

#[test]
fn power_wayfarer_two_acts() {
    let g = two_acts("d2", "gWa@d2", &options());
    assert_eq!(blood(&g, "d2"), 15);
    assert_eq!(refused(&g, "act@d2"), Illegal::NoActLeft(h("d2")));
}

#[test]
fn power_wayfarer_pass_through() {
    let ring = "gMi@a1,bMi@a2,gMi@b2,bMi@c1,gMi@c2";
    let mut g = arena("g", &with_kings(&format!("gWa@b1,{ring}")));
    play(&mut g, "act@b1");
    let moves: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("move"))
        .collect();
    assert!(moves.contains(&"move@b3".to_owned()), "{moves:?}");
    assert_eq!(refused(&g, "move@b2"), Illegal::Occupied(h("b2")));
    play(&mut g, "move@b3");
    assert_eq!(active_mp(&g), 2);
    // Anyone else is walled in.
    let mut g = arena("g", &with_kings(&format!("gMi@b1,{ring}")));
    play(&mut g, "act@b1");
    assert!(!legal(&g).iter().any(|a| a.starts_with("move")));
    assert!(matches!(refused(&g, "move@b3"), Illegal::OutOfReach { .. }));
}

#[test]
fn power_wayfarer_untouchable() {
    let mut g = arena("g", &with_kings("gWa@d3,bVa@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (11, 15));
    assert!(!g.piece_at(h("e3")).unwrap().countered);
    // Not even the Angel's wrath touches him.
    let mut g = arena("g", &with_kings("gWa@d3,bAn@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (4, 15));
}

#[test]
fn power_elias_holy_strike() {
    let mut g = arena("g", &with_kings("gEl@b2,bVa@c4"));
    play(&mut g, "act@b2 holy@c4");
    assert_eq!(blood(&g, "c4"), 8);
    // He does not convert.
    let mut g = arena("g", &with_kings("gEl@b2,bMi@c4=7"));
    play(&mut g, "act@b2 holy@c4");
    assert!(g.piece_at(h("c4")).is_none());
    assert_eq!(g.convertible(), None);
}

#[test]
fn power_levite_curse() {
    // A Vanguard in a forest beside its Queen: Defence 7, the Blade deals 1.
    let mut g = arena("g", &with_kings("gBl@d3,bVa@c4,bQu@b4,gLe@h3"));
    play(&mut g, "act@d3 melee@c4");
    assert_eq!(blood(&g, "c4"), 14);
    // The Levite within 4 tiles (g3 to c4): Defence 0, 8 damage; the Levite's
    // own side keeps its Defence (the Vanguard's counter: 3 - 1 + 4 = 6).
    let mut g = arena("g", &with_kings("gBl@d3,bVa@c4,bQu@b4,gLe@g3"));
    play(&mut g, "act@d3 melee@c4");
    assert_eq!((blood(&g, "c4"), blood(&g, "d3")), (7, 6));
    // The Bastion too, by default: 4 - 0 + 4.
    let mut g = arena("g", &with_kings("gBl@d3,bBa@c4,gLe@g3"));
    play(&mut g, "act@d3 melee@c4");
    assert_eq!(blood(&g, "c4"), 12);
    // Under curse-wall=spares his wall keeps his 7 (+1 forest): 1 damage.
    let mut g = arena_with(
        &options_with("curse-wall", "spares"),
        "g",
        &with_kings("gBl@d3,bBa@c4,gLe@g3"),
    );
    play(&mut g, "act@d3 melee@c4");
    assert_eq!(blood(&g, "c4"), 19);
    // No negative Defence: a cursed piece in the desert has 0.
    let g = arena("g", &with_kings("bAr@g4,gLe@g2"));
    assert_eq!(g.defence(g.piece_at(h("g4")).unwrap()), 0);
}

#[test]
fn every_act_is_one_action() {
    // Each decision listed is one of the book's: activate, move, melee,
    // shoot, holy strike, sweep, heal, recruit, convert, extra act, end act,
    // end turn.
    let g = arena("g", &with_kings("gPh@c2,gMi@d3=3,gMa@b3,gPk@e2:1"));
    let list = legal(&g);
    for verb in ["act@", "heal@", "recruit@", "extra@", "end-turn"] {
        assert!(list.iter().any(|a| a.starts_with(verb)), "{verb}");
    }
    let _: Action = "end-act".parse().unwrap();
}
