//! The rules of sections 1-4 and 7: the turn, movement, combat, counters,
//! the land, Holy Cities and Grails, recruiting, succession and victory, the
//! draw. Positions on the Arena field (forest c4, hill e4, desert g4, Holy
//! City e7 with d6, d7, e6, e8, f6, f7) unless said otherwise.

mod common;

use std::sync::Arc;

use common::*;
use tabula_core::{EndReason, Game, Outcome, Team, ToAct, Viewer};
use tabula_covenant::{Covenant, CovenantOptions, Illegal, PieceTable, Scenario, ScenarioId, Side};

fn with_kings(pieces: &str) -> String {
    format!("{KINGS},{pieces}")
}

// ----- section 1: the field and the turn ------------------------------------

#[test]
fn gold_moves_first_and_a_round_is_gold_then_blue() {
    let mut g = Covenant::new(&CovenantOptions::default());
    assert_eq!((g.side_to_move(), g.round()), (Side::Gold, 1));
    assert_eq!(g.player_name(Side::Gold.player()), "Gold");
    assert_eq!(g.team_name(Team(1)), "Blue");
    play(&mut g, "end-turn");
    assert_eq!((g.side_to_move(), g.round()), (Side::Blue, 1));
    play(&mut g, "end-turn");
    assert_eq!((g.side_to_move(), g.round()), (Side::Gold, 2));
}

#[test]
fn a_piece_acts_once_a_turn_with_mp_equal_to_its_speed() {
    let mut g = arena("g", &with_kings("gPk@d3,gLa@h2,gBa@b2"));
    play(&mut g, "act@d3");
    assert_eq!(g.active().unwrap().mp, 4);
    assert_eq!(refused(&g, "act@h2"), Illegal::PieceActive(h("d3")));
    play(&mut g, "end-act");
    assert_eq!(refused(&g, "act@d3"), Illegal::NoActLeft(h("d3")));
    play(&mut g, "act@h2");
    assert_eq!(g.active().unwrap().mp, 8);
    play(&mut g, "end-act act@b2");
    assert_eq!(g.active().unwrap().mp, 2);
    // End turn ends the act; next turn the piece acts again.
    play(&mut g, "end-turn end-turn act@d3");
}

#[test]
fn walking_costs_1_and_rough_ground_2() {
    let start = arena("g", &with_kings("gPk@d3"));
    for (to, left) in [("d4", 3), ("c4", 2), ("e4", 2), ("g4", 0), ("d7", 0)] {
        let mut g = start.clone();
        play(&mut g, &format!("act@d3 move@{to}"));
        assert_eq!(g.active().unwrap().mp, left, "{to}");
    }
    // From the forest on: open ground 1.
    let mut g = start.clone();
    play(&mut g, "act@d3 move@c4 move@b4");
    assert_eq!(g.active().unwrap().mp, 1);
    // Out of reach: 5 tiles.
    let mut g = start;
    play(&mut g, "act@d3");
    assert!(matches!(
        refused(&g, "move@d8"),
        Illegal::OutOfReach { mp: 4, .. }
    ));
}

#[test]
fn pieces_block_movement_friend_or_foe() {
    // a1 touches a2 and b1 only.
    let mut g = arena("g", &with_kings("gPk@a1,bMi@a2"));
    play(&mut g, "act@a1 move@a3");
    // Around the foe: b1, b2, a3.
    assert_eq!(g.active().unwrap().mp, 1);
    let mut g = arena("g", &with_kings("gPk@a1,bMi@a2,gMi@b1"));
    play(&mut g, "act@a1");
    assert!(!legal(&g).iter().any(|a| a.starts_with("move")));
    assert_eq!(refused(&g, "move@a2"), Illegal::Occupied(h("a2")));
}

#[test]
fn a_melee_blow_ends_the_act() {
    let mut g = arena("g", &with_kings("gPk@d3,bMi@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(g.active(), None);
    assert_eq!(refused(&g, "move@d4"), Illegal::NoActivePiece);
    assert_eq!(refused(&g, "act@d3"), Illegal::NoActLeft(h("d3")));
}

#[test]
fn a_piece_may_strike_with_no_movement_points_left() {
    let mut g = arena("g", &with_kings("gMi@d1,bMi@e5"));
    play(&mut g, "act@d1 move@d5");
    assert_eq!(g.active().unwrap().mp, 0);
    play(&mut g, "melee@e5");
    assert_eq!(blood(&g, "e5"), 12 - 3);
}

#[test]
fn shooters_fire_while_mp_remains_and_walk_with_what_is_left() {
    let mut g = arena("g", &with_kings("gRa@b1,bVa@b6"));
    play(&mut g, "act@b1 move@b2 shoot@b6 move@b3 shoot@b6");
    assert_eq!(g.active().unwrap().mp, 0);
    assert_eq!(blood(&g, "b6"), 11);
    assert!(g.piece_at(h("b3")).is_some());
}

#[test]
fn shots_need_no_line_of_sight() {
    // Three pieces between the Archer and its target, a forest beside.
    let mut g = arena("g", &with_kings("gAr@b2,gMi@b3,bMi@b4,gVa@b5,bPk@b6"));
    play(&mut g, "act@b2 shoot@b6");
    assert_eq!(blood(&g, "b6"), 12 - 4);
}

// ----- section 2: combat -----------------------------------------------------

#[test]
fn damage_is_attack_minus_defence_plus_4_never_below_1() {
    assert_eq!(Covenant::damage(4, 2), 6);
    assert_eq!(Covenant::damage(2, 7), 1);
    assert_eq!(Covenant::damage(0, 30), 1);
    // A Militia's blow on a Bastion: 2 - 7 + 4 < 1, so 1.
    let mut g = arena("g", &with_kings("gMi@d3,bBa@e3"));
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(blood(&g, "e3"), 19);
}

#[test]
fn damage_with_terrain_and_auras_stacked() {
    // Blade on the hill e4 beside its King's reach (f1, 3 tiles): 4 + 1 + 1.
    // Militia on d4: 3, +1 Shield wall (d5), +2 Bulwark (c5), +1 Queen (c6).
    // 6 - 7 + 4 = 3. The Militia's counter from below: 2 - 1 + 4 = 5.
    let mut g = arena("g", "gKi@f1,bKi@i9,gBl@e4,bMi@d4,bMi@d5,bVa@c5,bQu@c6");
    let blade = *g.piece_at(h("e4")).unwrap();
    let militia = *g.piece_at(h("d4")).unwrap();
    assert_eq!(g.melee_attack(&blade, &militia, Some(0)), 6);
    assert_eq!(g.defence(&militia), 7);
    play(&mut g, "act@e4 melee@d4");
    assert_eq!((blood(&g, "d4"), blood(&g, "e4")), (9, 7));
    // The same Militia under a Levite's Curse: 6 - 0 + 4 = 10.
    let mut g = arena(
        "g",
        "gKi@f1,bKi@i9,gBl@e4,bMi@d4,bMi@d5,bVa@c5,bQu@c6,gLe@g3",
    );
    play(&mut g, "act@e4 melee@d4");
    assert_eq!(blood(&g, "d4"), 2);
}

#[test]
fn counters_answer_adjacent_attacks_once_a_round() {
    let mut g = arena("g", &with_kings("gBl@d3,gPk@f2,bMi@e3"));
    play(&mut g, "act@d3 melee@e3");
    // 4 - 3 + 4 = 5 dealt; the counter 2 - 1 + 4 = 5.
    assert_eq!((blood(&g, "e3"), blood(&g, "d3")), (7, 7));
    assert!(g.to_text().contains("bMi@e3=7:c"));
    play(&mut g, "act@f2 melee@e3");
    // The second attacker gets no counter this round.
    assert_eq!((blood(&g, "e3"), blood(&g, "f2")), (4, 12));
    // Next round it counters again.
    play(&mut g, "end-turn end-turn act@f2 melee@e3");
    assert_eq!((blood(&g, "e3"), blood(&g, "f2")), (1, 8));
}

#[test]
fn an_idle_recruit_still_counters() {
    let mut g = arena("g", "gKi@d2,bKi@i9,bBl@f3");
    play(&mut g, "recruit@e3:Mi end-turn act@f3 melee@e3");
    // 4 - 3 + 4 = 5 taken, 2 + 1 (its King's aura) - 1 + 4 = 6 given back.
    assert_eq!((blood(&g, "e3"), blood(&g, "f3")), (7, 6));
}

#[test]
fn a_kill_draws_no_counter() {
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e3=5"));
    play(&mut g, "act@d3 melee@e3");
    assert!(g.piece_at(h("e3")).is_none());
    assert_eq!(blood(&g, "d3"), 12);
}

#[test]
fn attacks_from_two_tiles_draw_no_counter_adjacent_shots_do() {
    let mut g = arena("g", &with_kings("gAr@b2,bMi@b4"));
    play(&mut g, "act@b2 shoot@b4");
    assert_eq!((blood(&g, "b4"), blood(&g, "b2")), (9, 12));
    let mut g = arena("g", &with_kings("gAr@b2,bMi@b3"));
    play(&mut g, "act@b2 shoot@b3");
    assert_eq!((blood(&g, "b3"), blood(&g, "b2")), (9, 7));
}

#[test]
fn a_piece_killed_by_a_counter_ends_its_act() {
    let mut g = arena("g", &with_kings("gAr@b2=1,bMi@b3"));
    play(&mut g, "act@b2 shoot@b3");
    assert!(g.piece_at(h("b2")).is_none());
    assert_eq!(g.active(), None);
    assert!(g.captured_this_round());
}

// ----- section 3: the land ---------------------------------------------------

#[test]
fn land_forest_desert_and_holy_city_change_defence() {
    // Forest +1: 4 - 4 + 4.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@c4"));
    play(&mut g, "act@d3 melee@c4");
    assert_eq!(blood(&g, "c4"), 8);
    // Desert -1: 4 - 2 + 4.
    let mut g = arena("g", &with_kings("gBl@f3,bMi@g4"));
    play(&mut g, "act@f3 melee@g4");
    assert_eq!(blood(&g, "g4"), 6);
    // Desert on Defence 1 leaves 0 (never below; no shipped piece has less).
    let g = arena("g", &with_kings("bAr@g4"));
    assert_eq!(g.defence(g.piece_at(h("g4")).unwrap()), 0);
    // Holy City (any of its seven hexes) +1.
    let mut g = arena("g", &with_kings("gBl@e5,bMi@e6"));
    play(&mut g, "act@e5 melee@e6");
    assert_eq!(blood(&g, "e6"), 8);
}

#[test]
fn land_hill_adds_attack_striking_a_lower_tile() {
    // From the hill e4 down to e3: 4 + 1 - 3 + 4 = 6.
    let mut g = arena("g", &with_kings("gBl@e4,bMi@e3"));
    play(&mut g, "act@e4 melee@e3");
    assert_eq!(blood(&g, "e3"), 6);
    // Up onto the hill: no bonus for the striker, the defender's counter
    // from the hill gets it: 2 + 1 - 1 + 4 = 6.
    let mut g = arena("g", &with_kings("gBl@d3,bMi@e4"));
    play(&mut g, "act@d3 melee@e4");
    assert_eq!((blood(&g, "e4"), blood(&g, "d3")), (7, 6));
}

const LAB: &str = r#"
id = "lab"
name = "Lab"
about = "Two adjacent hills."
map = """
. . . . . . . . .
. h h . . . . . .
. . . . . . . . .
"""
[gold]
grails = 0
pieces = ["King i1"]
[blue]
grails = 0
pieces = ["King i3"]
"#;

#[test]
fn land_hill_against_hill_gives_nothing_and_custom_scenarios_play() {
    let lab = Arc::new(Scenario::from_toml(LAB, PieceTable::builtin()).unwrap());
    let options = CovenantOptions::default();
    let start = Covenant::with_scenario(lab.clone(), &options);
    assert_eq!(start.to_text(), "lab g 1 0 0/0 - - gKi@i1,bKi@i3");
    let mut g = Covenant::from_text_on(
        "lab g 1 0 0/0 - - gKi@i1,bKi@i3,gBl@b2,bMi@c2,bMi@b3",
        &options,
        lab.clone(),
    )
    .unwrap();
    // b2 and c2 are both hills: 4 - 3 + 4, no bonus... (the b3 Militia does
    // not touch c2, so no Shield wall).
    play(&mut g, "act@b2 melee@c2");
    assert_eq!(blood(&g, "c2"), 7);
    // ...while b3 is lower: +1.
    let mut g = Covenant::from_text_on(
        "lab g 1 0 0/0 - - gKi@i1,bKi@i3,gBl@b2,bMi@b3",
        &options,
        lab.clone(),
    )
    .unwrap();
    play(&mut g, "act@b2 melee@b3");
    assert_eq!(blood(&g, "b3"), 6);
    // The built-in list does not know it.
    assert!(Covenant::from_text("lab g 1 0 0/0 - - gKi@i1,bKi@i3", &options).is_err());
    assert!(Covenant::from_text_on("arena g 1 0 0/0 - - gKi@i1,bKi@i3", &options, lab).is_err());
}

// ----- section 4: Holy Cities, Grails and recruiting ------------------------

fn income_after_blue(pieces: &str) -> u16 {
    let mut g = arena("b", pieces);
    play(&mut g, "end-turn");
    g.grails(Side::Gold) - 10
}

#[test]
fn holy_city_income_2_grails_for_a_royal_at_the_start_of_its_turn() {
    assert_eq!(income_after_blue(&with_kings("gQu@d6")), 2);
    assert_eq!(income_after_blue(&with_kings("gQu@e7")), 2);
    // At most 2 per city, however many royals.
    assert_eq!(income_after_blue(&with_kings("gQu@d6,gHe@e7,gPr@f7")), 2);
    // Nothing for a non-royal, nothing outside the city.
    assert_eq!(income_after_blue(&with_kings("gMi@e7")), 0);
    assert_eq!(income_after_blue(&with_kings("gQu@e5")), 0);
    // Blue earns at the start of Blue's turn.
    let mut g = arena("g", &with_kings("bQu@e7"));
    play(&mut g, "end-turn");
    assert_eq!(g.grails(Side::Blue), 12);
    // Each city pays: two cities, 4.
    let mut g = Covenant::from_text(
        "crossroads b 1 0 0/0 - - gKi@e5,gHe@c3,bKi@e9",
        &CovenantOptions::default(),
    )
    .unwrap();
    assert_eq!(g.view(Viewer::Public).income, [4, 0]);
    play(&mut g, "end-turn");
    assert_eq!(g.grails(Side::Gold), 4);
}

#[test]
fn holy_city_income_counts_golds_first_turn() {
    let with_city = LAB
        .replace("about = \"Two adjacent hills.\"", "holy-cities = [\"h1\"]")
        .replace("King i1", "King i2");
    let s = Scenario::from_toml(&with_city, PieceTable::builtin()).unwrap();
    let g = Covenant::with_scenario(Arc::new(s), &CovenantOptions::default());
    assert_eq!(g.grails(Side::Gold), 2);
    assert_eq!(g.to_text(), "lab g 1 0 2/0 - - gKi@i2,bKi@i3");
}

#[test]
fn holy_city_income_is_blocked_by_any_enemy_in_it() {
    assert_eq!(income_after_blue(&with_kings("gQu@d6,bMi@f7")), 0);
    assert_eq!(income_after_blue(&with_kings("gQu@d6,bMi@g7")), 2);
}

#[test]
fn recruiting_beside_a_royal_at_the_tables_price() {
    let mut g = arena("g", "gKi@d2,bKi@i9,gQu@g2");
    play(&mut g, "recruit@d3:Mi");
    assert_eq!(g.grails(Side::Gold), 9);
    play(&mut g, "recruit@g3:Va");
    assert_eq!(g.grails(Side::Gold), 7);
    // It stands idle until Gold's next turn.
    assert_eq!(refused(&g, "act@d3"), Illegal::Idle(h("d3")));
    assert!(!legal(&g).contains(&"act@d3".to_owned()));
    play(&mut g, "end-turn end-turn act@d3");
    // Only beside a royal, on a free hex of the field.
    let g = arena("g", "gKi@d2,bKi@i9,gMi@f2");
    assert_eq!(
        refused(&g, "recruit@f3:Mi"),
        Illegal::NotBesideRoyal(h("f3"))
    );
    assert_eq!(refused(&g, "recruit@d2:Mi"), Illegal::Occupied(h("d2")));
    // Between acts only.
    let mut g = arena("g", "gKi@d2,bKi@i9,gMi@f2");
    play(&mut g, "act@f2");
    assert_eq!(refused(&g, "recruit@d3:Mi"), Illegal::PieceActive(h("f2")));
}

#[test]
fn recruiting_limits_one_of_a_kind_and_never_the_king() {
    let g = arena("g", "gKi@d2,bKi@i9,gQu@g2,bQu@h8");
    assert_eq!(
        refused(&g, "recruit@d3:Ki"),
        Illegal::NeverRecruited("King".into())
    );
    assert_eq!(
        refused(&g, "recruit@d3:Qu"),
        Illegal::LimitReached {
            piece: "Queen".into(),
            limit: 1
        }
    );
    // Legends: one on the board; unlimited troops: as many as Grails allow.
    let mut g = arena("g", "gKi@d2,bKi@i9,bAn@h8");
    play(&mut g, "recruit@d3:An");
    assert!(matches!(
        refused(&g, "recruit@c2:An"),
        Illegal::LimitReached { .. }
    ));
    play(
        &mut g,
        "recruit@c2:Mi recruit@c3:Mi recruit@e2:Mi recruit@e3:Mi recruit@d1:Mi",
    );
    assert_eq!(g.grails(Side::Gold), 1);
    assert_eq!(
        refused(&g, "recruit@c1:Va"),
        Illegal::NotEnoughGrails { cost: 2, have: 1 }
    );
    // A fallen one-of-a-kind may be recruited again.
    let mut g = arena("b", "gKi@d2,bKi@i9,gQu@g2=1,bBl@g3");
    play(&mut g, "act@g3 melee@g2 end-turn recruit@d3:Qu");
}

// ----- section 7: victory ----------------------------------------------------

#[test]
fn felling_the_king_wins_even_by_his_own_blow() {
    // Gold's King strikes a Vanguard and falls to its counter.
    let mut g = arena("g", "gKi@d3=1,bKi@i9,bVa@e3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(1), EndReason::KingCaptured)
        }
    );
    let mut out = Vec::new();
    g.legal_actions(&mut out);
    assert!(out.is_empty());
    assert!(g.clone().apply(&"end-turn".parse().unwrap()).is_err());
}

#[test]
fn the_heir_takes_the_crown_and_the_battle_goes_on() {
    let mut g = arena("g", "gKi@a9,bKi@e3=1,bHe@h8,gBl@d3");
    play(&mut g, "act@d3 melee@e3");
    assert_eq!(
        g.to_act(),
        ToAct::Player {
            player: Side::Gold.player()
        }
    );
    assert!(g.to_text().contains("bKi@h8"));
    // Felling the new King ends it.
    let mut g = arena("g", "gKi@a9,bKi@e3=1,bHe@d4=1,gBl@d3");
    play(&mut g, "act@d3 sweep@e3,d4");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::KingCaptured))
    );
}

#[test]
fn thirty_rounds_without_a_capture_is_a_draw() {
    let mut g = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Arena));
    for _ in 0..29 {
        play(&mut g, "end-turn end-turn");
    }
    assert_eq!(g.quiet_rounds(), 29);
    assert!(g.to_act().player().is_some());
    play(&mut g, "end-turn");
    assert!(g.to_act().player().is_some());
    play(&mut g, "end-turn");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::draw(EndReason::NoProgress))
    );
    assert_eq!(g.to_text(), "arena g 31 30 10/10 - - gKi@a1,bKi@i9");
}

#[test]
fn a_capture_restarts_the_count_at_the_end_of_its_round() {
    let mut g = Covenant::from_text(
        &format!("arena g 20 29 10/10 - - {KINGS},gBl@d3,bMi@e3=1"),
        &options(),
    )
    .unwrap();
    play(&mut g, "act@d3 melee@e3");
    assert!(g.to_text().contains(" 20 29* "));
    play(&mut g, "end-turn end-turn");
    assert!(g.to_text().contains(" 21 0 "), "{}", g.to_text());
    assert!(g.to_act().player().is_some());
    // A round ending with the count at 29 and no capture: drawn.
    let mut g =
        Covenant::from_text(&format!("arena b 40 29 10/10 - - {KINGS}"), &options()).unwrap();
    play(&mut g, "end-turn");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::draw(EndReason::NoProgress))
    );
}
