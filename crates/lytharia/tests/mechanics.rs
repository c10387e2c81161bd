//! One test (or more) per mechanic of the book, on small scenarios.

mod common;

use common::*;
use tabula_core::{ChanceModel, EndReason, Game, Options, Outcome, Team, ToAct};
use tabula_lytharia::state::Stage;
use tabula_lytharia::{Action, Lytharia, LythariaOptions, starter_list};

// ---------------------------------------------------------------- setup

#[test]
fn lower_power_army_goes_first_with_bonus_mana() {
    let (good, evil) = (starter_list("good").unwrap(), starter_list("evil").unwrap());
    let g = Lytharia::new(&options("good", "evil"));
    let (pg, pe) = (good.power(), evil.power());
    assert_ne!(pg, pe, "the test needs different power scores");
    let low = if pg < pe { 0 } else { 1 };
    let bonus = ((pg - pe).abs() + 4) / 5;
    assert_eq!(g.state().first, low);
    assert_eq!(g.state().sides[low as usize].mana, 1 + bonus);
    assert_eq!(g.state().sides[1 - low as usize].mana, 1);
    assert_eq!(g.state().sides[0].obelisk, 1);
    assert!(g.state().sides.iter().all(|s| s.hand.is_empty()));
}

#[test]
fn equal_power_scores_roll_off_and_ties_roll_again() {
    let mut g = Lytharia::new(&options("good", "good"));
    assert_eq!(g.to_act(), ToAct::Chance);
    let ChanceModel::Exact(outcomes) = g.chance() else {
        panic!("roll-off lists its outcomes")
    };
    assert_eq!(outcomes.len(), 36);
    act(&mut g, "rolloff 4-4");
    assert_eq!(g.state().stage, Stage::RollOff);
    act(&mut g, "rolloff 2-5");
    assert_eq!(g.state().first, 1);
    assert_eq!(g.state().stage, Stage::Shuffle);
    assert_eq!(g.state().sides[1].mana, 1, "no bonus on equal scores");
}

#[test]
fn shuffles_are_sampled_chance_and_bad_orders_are_refused() {
    let mut g = Lytharia::new(&options("good", "evil"));
    assert_eq!(g.chance(), ChanceModel::Sampled);
    let before = g.clone();
    assert!(g.parse_action("shuffle 0 0.1.2").is_err());
    assert!(g.apply(&"shuffle 0 0.0.1".parse().unwrap()).is_err());
    assert_eq!(g, before);
    let n = g.state().sides[0].deck.len();
    let order: Vec<String> = (0..n).rev().map(|i| i.to_string()).collect();
    act(&mut g, &format!("shuffle 0 {}", order.join(".")));
    let first = g.state().sides[0].deck.clone();
    let mut unshuffled = before.state().sides[0].deck.clone();
    unshuffled.reverse();
    assert_eq!(first, unshuffled);
}

#[test]
fn setup_places_back_rows_the_castle_and_chosen_pawns() {
    let mut g = Lytharia::new(&options("good", "evil"));
    let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(3));
    while g.state().stage == Stage::Shuffle {
        let a = g.sample_chance(&mut rng).unwrap();
        g.apply(&a).unwrap();
    }
    let first = g.state().first;
    let role = |s: &str| unit(&g, s).map(|u| (u.owner, u.troop().role.letters()));
    assert_eq!(role("d1"), Some((first, "Q")));
    assert_eq!(role("e1"), Some((first, "K")));
    assert_eq!(
        role("d8"),
        Some((1 - first, "Q")),
        "Player 2's Queen on the dark castle square"
    );
    assert_eq!(role("e8"), Some((1 - first, "K")));
    assert_eq!(role("a1"), Some((first, "R")));
    assert_eq!(role("g8"), Some((1 - first, "KN")));
    assert!(
        g.state().units.iter().all(|u| !u.face_up),
        "troops start face down"
    );
    // Pawns: the first player chooses which goes on a2, b2, ...
    assert_eq!(g.state().stage, Stage::Place);
    assert_eq!(g.to_act().player().map(|p| p.0), Some(first));
    let choice = legal(&g)[0].clone();
    act(&mut g, &choice);
    let placed = unit(&g, "a2").unwrap();
    assert_eq!(format!("place {}", placed.card), choice);
    let mut buf = Vec::new();
    while g.state().stage == Stage::Place {
        g.legal_actions(&mut buf);
        let a = buf[buf.len() - 1].clone();
        g.apply(&a).unwrap();
    }
    assert_eq!(g.state().units.len(), 32);
    assert_eq!(g.state().turn, 1);
    assert_eq!(g.state().active, first);
    assert_eq!(g.to_act().player().map(|p| p.0), Some(first));
}

// ---------------------------------------------------------------- phases

#[test]
fn effects_phase_abilities_trigger_once_in_the_players_order_and_end_for_good() {
    let mut g = blank();
    put(&mut g, 0, "lightbinder", "c3");
    let m = put(&mut g, 0, "stoneborn-militia", "c4");
    g.edit(|st| {
        st.stage = Stage::Effects;
        st.units.iter_mut().find(|u| u.uid == m).unwrap().damage = 2;
    });
    assert!(is_legal(&g, "end"));
    let mut skip = g.clone();
    act(&mut skip, "end");
    assert_eq!(skip.state().stage, Stage::Main);
    assert_eq!(
        unit(&skip, "c4").unwrap().damage,
        2,
        "ended without using it"
    );
    let hand = g.state().sides[0].hand.len();
    act(&mut g, "use c3 0 @c4");
    assert_eq!(unit(&g, "c4").unwrap().damage, 1);
    // Nothing left to trigger: the phase ends by itself; the mana phase
    // (+1 obelisk) and the draw phase ran; now the main phase.
    assert_eq!(g.state().stage, Stage::Main);
    assert_eq!(g.state().sides[0].mana, 11);
    assert_eq!(g.state().sides[0].hand.len(), hand + 1);
    assert!(
        !legal(&g).iter().any(|a| a.starts_with("use c3")),
        "no going back"
    );
}

#[test]
fn mana_phase_adds_obelisk_and_income_caps_at_15_and_the_obelisk_charges() {
    let mut g = blank();
    g.edit(|st| st.sides[1].mana = 14);
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert_eq!(g.state().active, 1);
    assert_eq!(g.state().sides[1].mana, 15);
    assert!(is_legal(&g, "charge"));
    act(&mut g, "charge");
    assert_eq!(
        (g.state().sides[1].mana, g.state().sides[1].obelisk),
        (1, 2)
    );
    assert!(!is_legal(&g, "charge"));
    // Income: Elder Tamsin's passive adds one more.
    let mut g = blank();
    g.edit(|st| {
        st.units.retain(|u| u.owner == 1);
        st.sides[1].mana = 15;
    });
    put(&mut g, 0, "elder-tamsin", "a1");
    put(&mut g, 0, "stoneborn-militia", "h5");
    g.edit(|st| st.sides[0].mana = 3);
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert_eq!(g.state().sides[1].mana, 15, "capped at 15");
    act(&mut g, "h8-h7");
    act(&mut g, "end");
    assert_eq!(g.state().sides[0].mana, 5, "obelisk 1 + income 1");
    // At obelisk 6 no more charging.
    let mut g = blank();
    g.edit(|st| {
        st.sides[0].mana = 15;
        st.sides[0].obelisk = 6;
    });
    assert!(!is_legal(&g, "charge"));
}

#[test]
fn draw_phase_hand_limit_discard_to_nine_or_keep() {
    let mut g = blank();
    give(&mut g, 1, &["firebolt"; 10]);
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert_eq!(g.state().stage, Stage::Draw);
    assert!(is_legal(&g, "keep") && is_legal(&g, "discard firebolt"));
    let mut keep = g.clone();
    act(&mut keep, "keep");
    assert_eq!(
        (keep.state().stage, keep.state().sides[1].hand.len()),
        (Stage::Main, 10)
    );
    act(&mut g, "discard firebolt");
    assert_eq!(g.state().stage, Stage::Main);
    assert_eq!(
        g.state().sides[1].hand.len(),
        10,
        "discarded to 9 then drew"
    );
    assert_eq!(g.state().sides[1].nether.len(), 1);
}

// ---------------------------------------------------------------- movement and combat

#[test]
fn pawns_step_or_double_step_first_and_one_move_is_required() {
    let mut g = blank();
    put(&mut g, 0, "stoneborn-militia", "e2");
    put(&mut g, 0, "stoneborn-militia", "f3");
    assert!(is_legal(&g, "e2-e3") && is_legal(&g, "e2-e4"));
    assert!(is_legal(&g, "f3-f4") && !is_legal(&g, "f3-f5"));
    assert!(!is_legal(&g, "e2-d3"), "pawns move straight");
    assert!(!is_legal(&g, "end"), "a troop must move");
    act(&mut g, "e2-e4");
    assert!(is_legal(&g, "end"));
    assert!(!is_legal(&g, "f3-f4"), "one move per turn");
}

#[test]
fn sliders_stop_at_troops_and_knights_jump() {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d1");
    put(&mut g, 0, "stoneborn-militia", "d3");
    put(&mut g, 0, "stag-rider", "b1");
    put(&mut g, 0, "stoneborn-militia", "b2");
    assert!(is_legal(&g, "d1-d2") && !is_legal(&g, "d1-d4"));
    assert!(is_legal(&g, "b1-c3") && is_legal(&g, "b1-a3"));
}

#[test]
fn attacks_deal_mutual_persistent_damage_and_the_winner_takes_the_square() {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d4");
    put(&mut g, 1, "deepdark-cultist", "d5");
    act(&mut g, "d4xd5");
    assert!(unit(&g, "d4").is_none());
    let b = unit(&g, "d5").unwrap();
    assert_eq!((b.card.to_string(), b.damage), ("bronn".to_owned(), 3));
    assert!(g.state().sides[1].crypt.contains(&id("deepdark-cultist")));
    assert_eq!(g.state().sides[0].kills, 4);
    assert!(
        !is_legal(&g, "end"),
        "a won attack from a standing start is not the move"
    );
    assert!(is_legal(&g, "d5-d6"), "attack, then move any troop");
}

#[test]
fn failed_attacks_leave_the_attacker_where_it_stood_and_damage_stays() {
    let mut g = blank();
    put(&mut g, 0, "stoneborn-militia", "d4");
    put(&mut g, 1, "bog-ghoul", "e5");
    act(&mut g, "d4xe5");
    let (a, d) = (unit(&g, "d4").unwrap(), unit(&g, "e5").unwrap());
    assert_eq!(a.damage, 3);
    assert_eq!(d.damage, 2, "3 Att minus the ghoul's guard 1");
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert_eq!(unit(&g, "d4").unwrap().damage, 3, "damage persists");
}

#[test]
fn attacks_follow_the_troops_move_directions() {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d4");
    put(&mut g, 1, "deepdark-cultist", "e5");
    put(&mut g, 0, "stoneborn-militia", "b4");
    put(&mut g, 1, "deepdark-cultist", "b5");
    assert!(!is_legal(&g, "d4xe5"), "rooks attack orthogonally");
    assert!(!is_legal(&g, "b4xb5"), "pawns attack diagonally forward");
    put(&mut g, 0, "stag-rider", "g1");
    put(&mut g, 1, "deepdark-cultist", "h3");
    put(&mut g, 1, "deepdark-cultist", "g2");
    assert!(is_legal(&g, "g1xh3"), "knights attack a knight's move away");
    assert!(!is_legal(&g, "g1xg2"));
    let mut adj = g.clone();
    let mut o = LythariaOptions::default();
    o.set("knight-attack", "adjacent").unwrap();
    adj = Lytharia::from_text(&adj.to_text(), &o).unwrap();
    assert!(is_legal(&adj, "g1xg2") && !is_legal(&adj, "g1xh3"));
}

#[test]
fn after_moving_only_the_moved_troop_attacks_and_only_once() {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d3");
    put(&mut g, 0, "stoneborn-pikeman", "c4");
    put(&mut g, 1, "deepdark-cultist", "d5");
    put(&mut g, 1, "deepdark-cultist", "e4");
    assert!(is_legal(&g, "c4xd5"));
    act(&mut g, "d3-d4");
    assert!(!is_legal(&g, "c4xd5"));
    assert!(is_legal(&g, "d4xd5") && is_legal(&g, "d4xe4"));
    act(&mut g, "d4xe4");
    assert!(
        !legal(&g).iter().any(|a| a.contains('x')),
        "one attack per turn"
    );
    assert!(is_legal(&g, "end"));
}

#[test]
fn a_troop_held_up_by_an_aura_dies_when_a_move_takes_the_aura_away() {
    let mut g = blank();
    g.edit(|st| st.units.retain(|u| u.at != sq("a1")));
    put(&mut g, 0, "thane-orvik", "d1");
    let m = put(&mut g, 0, "stoneborn-militia", "e2");
    g.edit(|st| st.units.iter_mut().find(|u| u.uid == m).unwrap().damage = 5);
    assert_eq!(stats_at(&g, "e2").def, 6, "5 Def + 1 from Orvik");
    act(&mut g, "d1-c1");
    assert!(unit(&g, "e2").is_none(), "5 damage against 5 Def");
    assert!(g.state().sides[0].crypt.contains(&id("stoneborn-militia")));
    assert_eq!(g.state().sides[1].kills, 4);
}

#[test]
fn pawns_promote_to_a_copy_of_a_friendly_non_king_losing_damage_and_equipment() {
    let mut g = blank();
    let p = put(&mut g, 0, "stoneborn-militia", "e7");
    g.edit(|st| {
        let u = st.units.iter_mut().find(|u| u.uid == p).unwrap();
        u.damage = 3;
        u.equipment.push(id("spear"));
    });
    act(&mut g, "e7-e8");
    assert_eq!(g.state().stage, Stage::Promote);
    assert!(is_legal(&g, "promote bronn"), "even a unique troop");
    assert!(!is_legal(&g, "promote thane-orvik"), "never the King");
    act(&mut g, "promote bronn");
    let u = unit(&g, "e8").unwrap();
    assert_eq!(u.troop().id, "bronn");
    assert_eq!((u.damage, u.equipment.len()), (0, 0));
    assert!(g.state().sides[0].nether.contains(&id("spear")));
    assert_eq!(g.state().stage, Stage::Main);
}

#[test]
fn rooted_troops_cannot_move() {
    let mut g = blank();
    put(&mut g, 1, "deepdark-cultist", "c6");
    give(&mut g, 0, &["entangling-roots"]);
    act(&mut g, "cast entangling-roots @c6");
    act(&mut g, "pass");
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert!(
        !is_legal(&g, "c6-c5"),
        "rooted through the opponent's next turn"
    );
    act(&mut g, "h8-h7");
    act(&mut g, "end");
    act(&mut g, "a2-a3");
    act(&mut g, "end");
    assert!(is_legal(&g, "c6-c5"), "the root ran out");
}

// ---------------------------------------------------------------- casting and the stack

#[test]
fn the_stack_resolves_last_cast_first() {
    let mut g = blank();
    let c = put(&mut g, 1, "deepdark-cultist", "d5");
    g.edit(|st| st.units.iter_mut().find(|u| u.uid == c).unwrap().damage = 2);
    give(&mut g, 0, &["firebolt"]);
    give(&mut g, 1, &["mending-light", "soul-rot"]);
    act(&mut g, "cast firebolt @d5");
    assert_eq!(
        g.to_act().player().map(|p| p.0),
        Some(1),
        "the opponent may respond"
    );
    assert!(
        !legal(&g).iter().any(|a| a.starts_with("cast soul-rot")),
        "only fast spells respond"
    );
    act(&mut g, "cast mending-light @d5");
    assert_eq!(g.to_act().player().map(|p| p.0), Some(0));
    act(&mut g, "pass");
    // Heal 3 first (2 -> 0), then 2 damage: alive with 2. First-to-last would kill it.
    assert_eq!(unit(&g, "d5").unwrap().damage, 2);
    assert_eq!(g.state().sides[0].mana, 8);
    assert_eq!(g.state().sides[1].mana, 8);
    assert!(g.state().sides[0].nether.contains(&id("firebolt")));
    assert!(g.state().sides[1].nether.contains(&id("mending-light")));
}

#[test]
fn a_spell_whose_target_left_its_square_fizzles_into_the_nether() {
    let mut g = blank();
    let m = put(&mut g, 0, "stoneborn-militia", "c3");
    g.edit(|st| st.units.iter_mut().find(|u| u.uid == m).unwrap().damage = 4);
    give(&mut g, 0, &["mending-light"]);
    give(&mut g, 1, &["firebolt"]);
    act(&mut g, "cast mending-light @c3");
    act(&mut g, "cast firebolt @c3");
    act(&mut g, "pass");
    assert!(unit(&g, "c3").is_none());
    assert!(g.state().sides[0].nether.contains(&id("mending-light")));
    assert!(g.state().sides[0].crypt.contains(&id("stoneborn-militia")));
    assert!(g.state().stack.is_empty());
}

#[test]
fn counterspells_send_the_spell_below_to_the_nether() {
    let mut g = blank();
    put(&mut g, 1, "deepdark-cultist", "d5");
    give(&mut g, 0, &["firebolt"]);
    give(&mut g, 1, &["counterspell"]);
    act(&mut g, "cast firebolt @d5");
    act(&mut g, "cast counterspell");
    act(&mut g, "pass");
    assert_eq!(unit(&g, "d5").unwrap().damage, 0);
    assert!(g.state().sides[0].nether.contains(&id("firebolt")));
    assert!(g.state().sides[1].nether.contains(&id("counterspell")));
}

#[test]
fn d6_effects_are_exact_chance_nodes() {
    let mut g = blank();
    put(&mut g, 1, "siege-crawler", "d5");
    give(&mut g, 0, &["fireball", "death-grip"]);
    g.edit(|st| st.sides[0].mana = 15);
    act(&mut g, "cast fireball @d5");
    assert_eq!(
        g.to_act().player().map(|p| p.0),
        Some(1),
        "no roll before responses"
    );
    act(&mut g, "pass");
    assert_eq!(g.to_act(), ToAct::Chance);
    let ChanceModel::Exact(faces) = g.chance() else {
        panic!()
    };
    assert_eq!(faces.len(), 6);
    act(&mut g, "d6 4");
    assert_eq!(unit(&g, "d5").unwrap().damage, 6, "2 + d6");
    act(&mut g, "cast death-grip @d5");
    act(&mut g, "pass");
    act(&mut g, "d6 3");
    assert!(unit(&g, "d5").is_some(), "4+ needed");
    g.edit(|st| st.sides[0].hand.push(common::id("death-grip")));
    g.edit(|st| st.sides[0].mana = 15);
    act(&mut g, "cast death-grip @d5");
    act(&mut g, "pass");
    act(&mut g, "d6 5");
    assert!(unit(&g, "d5").is_none());
}

#[test]
fn conditions_limit_effects_and_reveal_the_target() {
    let mut g = blank();
    let x = put(&mut g, 1, "deepdark-cultist", "d5");
    let y = put(&mut g, 1, "cave-grub", "e5");
    g.edit(|st| {
        for u in &mut st.units {
            if u.uid == x || u.uid == y {
                u.face_up = false;
            }
        }
    });
    give(&mut g, 0, &["smite-evil", "final-rest"]);
    act(&mut g, "cast smite-evil @d5");
    act(&mut g, "pass");
    assert!(unit(&g, "d5").is_none(), "evil: 4 damage kills");
    act(&mut g, "cast final-rest @e5");
    act(&mut g, "pass");
    let grub = unit(&g, "e5").unwrap();
    assert!(grub.face_up, "checking the condition shows the card");
    assert_eq!(grub.damage, 0, "not damaged: no effect");
}

#[test]
fn enchantments_take_one_of_three_spaces_and_leave_with_their_troop() {
    let mut g = blank();
    let b = put(&mut g, 0, "bronn", "d4");
    give(
        &mut g,
        0,
        &[
            "kindle-rage",
            "blessing-of-vigor",
            "blessing-of-vigor",
            "blessing-of-vigor",
        ],
    );
    g.edit(|st| st.sides[0].mana = 15);
    act(&mut g, "cast kindle-rage @d4");
    act(&mut g, "pass");
    let st = g.state();
    let u = st.units.iter().find(|u| u.uid == b).unwrap();
    assert_eq!(st.stats(u).att, 11);
    act(&mut g, "cast blessing-of-vigor @d4");
    act(&mut g, "pass");
    act(&mut g, "cast blessing-of-vigor @d4");
    act(&mut g, "pass");
    assert_eq!(g.state().sides[0].enchants.len(), 3);
    assert!(
        !legal(&g).iter().any(|a| a.starts_with("cast blessing")),
        "three spaces"
    );
    g.edit(|st| st.units.iter_mut().find(|u| u.uid == b).unwrap().damage = 13);
    give(&mut g, 1, &["arcane-missile"]);
    give(&mut g, 0, &["tailwind"]);
    act(&mut g, "cast tailwind");
    act(&mut g, "cast arcane-missile @d4");
    act(&mut g, "pass");
    assert!(unit(&g, "d4").is_none());
    assert!(g.state().sides[0].enchants.is_empty());
    assert_eq!(
        g.state().sides[0]
            .nether
            .iter()
            .filter(|c| c.to_string() == "blessing-of-vigor")
            .count(),
        2
    );
}

#[test]
fn mana_cannot_go_below_zero_and_hold_allows_ending_without_a_move() {
    let mut g = blank();
    give(&mut g, 0, &["mind-drain", "stand-fast"]);
    g.edit(|st| st.sides[1].mana = 1);
    act(&mut g, "cast mind-drain");
    act(&mut g, "pass");
    assert_eq!(g.state().sides[1].mana, 0);
    assert!(!is_legal(&g, "end"));
    act(&mut g, "cast stand-fast");
    act(&mut g, "pass");
    assert!(is_legal(&g, "end"));
}

#[test]
fn harnessing_once_per_turn_for_spells_only_and_spent_at_once() {
    let mut g = blank();
    g.edit(|st| st.sides[0].mana = 0);
    give(
        &mut g,
        0,
        &["firebolt", "arcane-missile", "tailwind", "dagger"],
    );
    put(&mut g, 1, "deepdark-cultist", "d5");
    put(&mut g, 0, "stoneborn-militia", "c3");
    assert!(!legal(&g).iter().any(|a| a.starts_with("cast")));
    act(&mut g, "harness firebolt");
    assert_eq!(g.state().sides[0].spell_pool, 1);
    assert!(
        !legal(&g).iter().any(|a| a.starts_with("harness")),
        "once per turn"
    );
    assert!(
        !is_legal(&g, "equip dagger @c3"),
        "harnessed mana is for spells"
    );
    assert!(is_legal(&g, "cast arcane-missile @d5"));
    let mut lost = g.clone();
    act(&mut lost, "a1-a2");
    assert_eq!(lost.state().sides[0].spell_pool, 0, "unused mana is lost");
    act(&mut g, "cast arcane-missile @d5");
    assert_eq!(g.state().sides[0].mana, 0);
}

#[test]
fn a_responders_unspent_harnessed_mana_is_lost_when_the_turn_ends() {
    // Found by the differential test: mana harnessed in a response and not
    // all spent stayed in the responder's pool into their own turn. The book:
    // "This mana must be used immediately … any unused mana is lost."
    let mut g = blank();
    g.edit(|st| st.sides[1].mana = 0);
    put(&mut g, 0, "stoneborn-militia", "c3");
    put(&mut g, 1, "deepdark-cultist", "d5");
    give(&mut g, 0, &["firebolt"]);
    give(&mut g, 1, &["lightning-bolt", "arcane-missile"]);
    act(&mut g, "cast firebolt @d5");
    act(&mut g, "harness lightning-bolt");
    assert_eq!(g.state().sides[1].spell_pool, 2);
    act(&mut g, "cast arcane-missile @c3");
    assert_eq!(g.state().sides[1].spell_pool, 1);
    act(&mut g, "pass");
    act(&mut g, "a1-a2");
    act(&mut g, "end");
    assert_eq!(g.state().active, 1);
    assert_eq!(g.state().sides[1].spell_pool, 0, "unused mana is lost");
}

// ---------------------------------------------------------------- equipment

#[test]
fn equipment_goes_on_humanoids_one_weapon_one_armour() {
    let mut g = blank();
    let b = put(&mut g, 0, "bronn", "d4");
    put(&mut g, 0, "antlered-elk", "b3");
    give(&mut g, 0, &["longsword", "plate-mail", "spear"]);
    g.edit(|st| st.sides[0].mana = 12);
    assert!(!is_legal(&g, "equip longsword @b3"), "not on beasts");
    act(&mut g, "equip longsword @d4");
    act(&mut g, "equip plate-mail @d4");
    let st = g.state();
    let u = st.units.iter().find(|u| u.uid == b).unwrap();
    let s = st.stats(u);
    assert_eq!((s.att, s.def), (13, 14), "the book's Bronn example");
    assert!(!is_legal(&g, "equip spear @d4"), "one weapon");
    assert_eq!(g.state().sides[0].mana, 3);
}

#[test]
fn reforging_from_hand_and_from_a_troop_pays_for_equipment() {
    let mut g = blank();
    let b = put(&mut g, 0, "bronn", "d4");
    put(&mut g, 0, "stoneborn-militia", "c3");
    g.edit(|st| {
        st.sides[0].mana = 0;
        st.units
            .iter_mut()
            .find(|u| u.uid == b)
            .unwrap()
            .equipment
            .push(id("longsword"));
    });
    give(
        &mut g,
        0,
        &["battle-axe", "chain-mail", "spear", "war-hammer"],
    );
    assert!(!is_legal(&g, "equip spear @c3"));
    act(&mut g, "reforge battle-axe");
    act(&mut g, "reforge chain-mail");
    assert_eq!(g.state().sides[0].forge_pool, 2);
    assert!(is_legal(&g, "equip spear @c3"));
    // From the troop: the mana goes back on the same troop.
    let mut h = g.clone();
    act(&mut h, "a1-a2");
    assert_eq!(h.state().sides[0].forge_pool, 0, "spent at once or lost");
    act(&mut h, "reforge longsword @d4");
    assert_eq!(h.state().sides[0].forge_pool, 2);
    assert!(is_legal(&h, "equip spear @d4"));
    assert!(!is_legal(&h, "equip spear @c3"), "only on the same troop");
    // Combined with counter mana.
    h.edit(|st| st.sides[0].mana = 4);
    assert!(is_legal(&h, "equip war-hammer @d4"));
    act(&mut h, "equip war-hammer @d4");
    assert_eq!(h.state().sides[0].mana, 0);
}

// ---------------------------------------------------------------- abilities and hidden troops

#[test]
fn main_abilities_once_per_troop_and_not_with_an_attack() {
    let mut g = blank();
    put(&mut g, 0, "runepriest", "c3");
    let m = put(&mut g, 0, "stoneborn-militia", "c4");
    put(&mut g, 1, "deepdark-cultist", "d4");
    assert!(is_legal(&g, "c3xd4"));
    act(&mut g, "use c3 0 @c4");
    let st = g.state();
    let u = st.units.iter().find(|u| u.uid == m).unwrap();
    assert_eq!(st.stats(u).def, 7);
    assert!(!is_legal(&g, "use c3 0 @c4"));
    assert!(!is_legal(&g, "c3xd4"), "ability or attack, not both");
}

#[test]
fn using_an_ability_reveals_unless_the_card_says_otherwise() {
    let mut g = blank();
    put(&mut g, 0, "kevetni-archer", "c3");
    put(&mut g, 0, "surictavi-scout", "f3");
    put(&mut g, 1, "deepdark-cultist", "c5");
    g.edit(|st| st.units.iter_mut().for_each(|u| u.face_up = false));
    act(&mut g, "use f3 0 @c5");
    assert!(
        !unit(&g, "f3").unwrap().face_up,
        "the scout works face down"
    );
    assert!(unit(&g, "c5").unwrap().face_up);
    act(&mut g, "use c3 0 @c5");
    assert!(unit(&g, "c3").unwrap().face_up);
    assert_eq!(unit(&g, "c5").unwrap().damage, 1);
}

#[test]
fn combat_reveals_both_troops() {
    let mut g = blank();
    put(&mut g, 0, "stoneborn-militia", "d4");
    put(&mut g, 1, "bog-ghoul", "e5");
    g.edit(|st| st.units.iter_mut().for_each(|u| u.face_up = false));
    act(&mut g, "d4xe5");
    assert!(unit(&g, "d4").unwrap().face_up && unit(&g, "e5").unwrap().face_up);
}

// ---------------------------------------------------------------- winning

fn kings_only(k0: &str, k1: &str) -> Lytharia {
    let mut g = blank();
    g.edit(|st| st.units.clear());
    put(&mut g, 0, "thane-orvik", k0);
    put(&mut g, 1, "vorzak", k1);
    g
}

#[test]
fn killing_the_enemy_king_wins() {
    let mut g = kings_only("a1", "d5");
    put(&mut g, 0, "bronn", "d4");
    put(&mut g, 1, "deepdark-cultist", "h7");
    g.edit(|st| {
        st.units
            .iter_mut()
            .find(|u| u.at == sq("d5"))
            .unwrap()
            .damage = 5
    });
    act(&mut g, "d4xd5");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::KingCaptured))
    );
}

#[test]
fn a_lone_king_must_charge_the_enemy_king() {
    let mut g = kings_only("a1", "h8");
    put(&mut g, 1, "deepdark-cultist", "h6");
    assert!(g.state().lone_king(0));
    let moves: Vec<String> = legal(&g).into_iter().filter(|a| a.contains('-')).collect();
    assert_eq!(moves, ["a1-b2"]);
    assert!(!is_legal(&g, "end"));
}

#[test]
fn both_kings_dying_goes_to_the_higher_power_on_the_board() {
    let mut g = kings_only("d4", "d5");
    put(&mut g, 0, "stoneborn-militia", "a2");
    put(&mut g, 1, "bonebreaker", "h7");
    g.edit(|st| {
        st.units[0].damage = 10;
        st.units[1].damage = 9;
    });
    act(&mut g, "d4xd5");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(1), EndReason::Points))
    );
}

#[test]
fn lone_kings_killing_each_other_go_to_kills_then_army_power_then_dice() {
    let setup = |k0: i32, k1: i32, p0: i32, p1: i32| {
        let mut g = kings_only("d4", "d5");
        g.edit(|st| {
            st.units[0].damage = 10;
            st.units[1].damage = 9;
            st.sides[0].kills = k0;
            st.sides[1].kills = k1;
            st.sides[0].power = p0;
            st.sides[1].power = p1;
        });
        act(&mut g, "d4xd5");
        g
    };
    let g = setup(20, 10, 100, 100);
    assert_eq!(
        g.to_act().outcome().unwrap().winner,
        Some(Team(0)),
        "more killed"
    );
    // Orvik's killer gains 15, Vorzak's 14: 11 + 14 = 10 + 15.
    let g = setup(11, 10, 100, 90);
    assert_eq!(
        g.to_act().outcome().unwrap().winner,
        Some(Team(1)),
        "lower army power"
    );
    let mut g = setup(11, 10, 100, 100);
    assert_eq!(g.to_act(), ToAct::Chance);
    act(&mut g, "rolloff 3-3");
    assert_eq!(g.to_act(), ToAct::Chance, "ties roll again");
    act(&mut g, "rolloff 2-6");
    assert_eq!(g.to_act().outcome().unwrap().winner, Some(Team(1)));
}

#[test]
fn pawn_wars_scores_pawns_reaching_the_far_rank() {
    let mut o = options("good", "evil");
    o.set("mode", "pawn-wars").unwrap();
    let g = Lytharia::new(&o);
    assert_eq!(g.state().sides[0].army.len(), 8);
    let mut g = Lytharia::from_text(&blank().to_text(), &o).unwrap();
    put(&mut g, 0, "stoneborn-militia", "e7");
    act(&mut g, "e7-e8");
    assert!(unit(&g, "e8").is_none());
    assert_eq!(g.state().sides[0].points, 1);
    assert_eq!(g.state().stage, Stage::Main);
}

/// Every spell of the set can be cast and resolves into the nether or an
/// enchant space (a smoke test per card; the mechanics are tested above).
#[test]
fn every_spell_casts_and_resolves() {
    use tabula_lytharia::cards::{SpellKind, Target};
    let mut base = blank();
    put(&mut base, 0, "bronn", "d4");
    put(&mut base, 1, "deepdark-cultist", "d5");
    for (c, card) in tabula_lytharia::card_db().iter() {
        let Some(s) = card.spell() else { continue };
        if s.target == Target::Spell {
            continue;
        }
        let mut g = base.clone();
        g.edit(|st| {
            st.sides[0].hand.push(c);
            st.sides[0].mana = 15;
        });
        let cast = legal(&g)
            .into_iter()
            .find(|a| a.starts_with(&format!("cast {} ", s.id)) || *a == format!("cast {}", s.id))
            .unwrap_or_else(|| panic!("{} cannot be cast", s.id));
        act(&mut g, &cast);
        act(&mut g, "pass");
        while g.to_act() == ToAct::Chance {
            act(&mut g, "d6 6");
        }
        let st = g.state();
        let placed = match s.kind {
            SpellKind::Instant => st.sides[0].nether.contains(&c),
            SpellKind::Enchantment => st.sides[0].enchants.iter().any(|e| e.card == c),
        };
        assert!(placed, "{} did not end where it should", s.id);
        assert_eq!(
            st.sides[0].mana,
            (15 - s.cost + mana_gain(&s.effects)).min(15),
            "{} (mana is capped at 15)",
            s.id
        );
    }
}

fn mana_gain(effects: &[tabula_lytharia::cards::Effect]) -> i32 {
    effects
        .iter()
        .filter(|e| e.op == tabula_lytharia::cards::Op::Mana)
        .map(|e| e.amount)
        .sum()
}

// ------------------------------------------- found by the differential test

/// "If an attack is successful the defender is removed from the board and the
/// attacking troop occupies the defender's square", also when the kill ends
/// the game: a Pawn Wars Pawn that kills the last enemy troop on the far rank
/// survives there and scores its point before the result is taken.
#[test]
fn a_winning_attack_takes_the_square_even_when_it_ends_the_game() {
    let mut o = options("good", "evil");
    o.set("mode", "pawn-wars").unwrap();
    let mut g = Lytharia::from_text(&blank().to_text(), &o).unwrap();
    g.edit(|st| st.units.clear());
    put(&mut g, 0, "stoneborn-pikeman", "d7");
    put(&mut g, 1, "cave-grub", "e8");
    g.edit(|st| {
        st.sides[1].points = 1;
        st.sides[1].kills = 0;
        st.sides[0].kills = 0;
    });
    act(&mut g, "d7xe8");
    assert!(
        unit(&g, "e8").is_none(),
        "the Pawn scored and left the board"
    );
    assert_eq!(g.state().sides[0].points, 1);
    // 1-1 on points; seat 0 killed the Grub (3): seat 0 wins.
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::Points))
    );

    // Full game: the attacker stands on the dead King's square.
    let mut g = blank();
    put(&mut g, 0, "bronn", "g8");
    edit_unit(&mut g, "h8", |u| u.damage = 10);
    act(&mut g, "g8xh8");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::KingCaptured))
    );
    assert_eq!(unit(&g, "h8").map(|u| u.uid), unit_uid(&g, "bronn"));
    assert!(unit(&g, "g8").is_none());
}

fn unit_uid(g: &Lytharia, card: &str) -> Option<u32> {
    let c = id(card);
    g.state().units.iter().find(|u| u.card == c).map(|u| u.uid)
}

/// Reading 32 for the square taken by a winning attack: the attacker that
/// leaves Thane Orvik's +1 Def aura by taking the square dies there if its
/// damage reaches its Def again.
#[test]
fn a_winning_attacker_that_leaves_an_aura_by_taking_the_square_dies() {
    let mut g = blank();
    put(&mut g, 0, "warden-esselde", "b2");
    edit_unit(&mut g, "b2", |u| u.damage = 6);
    put(&mut g, 1, "cave-grub", "c3");
    assert_eq!(stats_at(&g, "b2").def, 10, "Orvik on a1 is adjacent");
    // 6 + 3 = 9 damage: alive on b2 (Def 10), dead on c3 (Def 9).
    act(&mut g, "b2xc3");
    assert!(unit(&g, "c3").is_none(), "Esselde died leaving the aura");
    assert!(unit(&g, "b2").is_none());
    assert_eq!(g.state().sides[0].crypt, vec![id("warden-esselde")]);
    assert_eq!(g.state().sides[1].kills, 14);
}

/// Found by the differential test: when the attack killed the enemy King,
/// the winning attacker took the square but was not checked again, so it
/// lived on with damage at its Def after leaving an aura (reading 32). The
/// final position (crypt, kills) must be the same as when no King dies.
#[test]
fn a_winning_attacker_that_kills_the_king_and_leaves_an_aura_still_dies() {
    let mut g = blank();
    put(&mut g, 0, "warden-esselde", "b2");
    edit_unit(&mut g, "b2", |u| u.damage = 2);
    edit_unit(&mut g, "h8", |u| {
        u.at = sq("c3");
        u.damage = 10;
    });
    assert_eq!(stats_at(&g, "b2").def, 10, "Orvik on a1 is adjacent");
    // 2 + 7 = 9 damage: alive on b2 (Def 10), dead on c3 (Def 9).
    act(&mut g, "b2xc3");
    assert!(matches!(g.to_act(), ToAct::Over { .. }), "Vorzak is dead");
    assert!(unit(&g, "c3").is_none(), "Esselde died leaving the aura");
    assert!(g.state().sides[0].crypt.contains(&id("warden-esselde")));
    assert_eq!(g.state().sides[1].kills, 14);
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(0), EndReason::KingCaptured)
        }
    );
}

/// `face-down=off` holds in Pawn Wars too (there is no back row there; the
/// Pawns were placed face down whatever the option said).
#[test]
fn pawn_wars_pawns_are_placed_face_up_with_face_down_off() {
    let mut o = options("good", "evil");
    o.set("mode", "pawn-wars").unwrap();
    o.set("face-down", "off").unwrap();
    let mut g = Lytharia::new(&o);
    let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(3));
    while g.state().stage != Stage::Main {
        let a = match g.to_act() {
            ToAct::Chance => g.sample_chance(&mut rng).unwrap(),
            _ => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                v[0].clone()
            }
        };
        g.apply(&a).unwrap();
    }
    assert_eq!(g.state().units.len(), 16);
    assert!(g.state().units.iter().all(|u| u.face_up));
}

#[test]
fn a_refused_play_changes_nothing_not_even_the_mana_pools() {
    let mut g = blank();
    give(&mut g, 0, &["firebolt"]);
    g.edit(|st| {
        st.sides[0].spell_pool = 2;
        st.sides[0].forge_pool = 1;
    });
    let opts = g.options().clone();
    for a in [
        // A card not in hand, a square with no troop, an ability that is not there.
        Action::Cast(id("counterspell"), None),
        Action::Equip(id("firebolt"), sq("e4")),
        Action::Reforge(id("firebolt"), Some(sq("e4"))),
        Action::Use(sq("a1"), 7, None),
    ] {
        let mut st = g.state().clone();
        assert!(!st.play(&a, &opts), "{a}");
        assert_eq!(&st, g.state(), "{a} changed the state");
    }
}
