//! The book's pieces, one named test per worked example or rule sentence.

mod common;

use common::{game, has, play, squares, targets};
use tabula_epoch::{Color, PieceKind, Square};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

// ---- Sentinel ----

#[test]
fn sentinel_it_reaches_it_only_by_capturing() {
    // Enhanced (Marshal d4 is 3 away): six squares quiet, no limit capturing.
    let g = game("Pm1 Md4 Sa4 pl13 ta12", "w");
    assert!(has(&g, "a4a10"), "six quiet squares");
    assert!(
        !has(&g, "a4a11"),
        "a seventh square is too far for a quiet move"
    );
    assert!(has(&g, "a4xa12"), "the far square is open to a capture");
}

#[test]
fn restricted_sentinel_three_quiet_six_capturing() {
    let g = game("Pm1 Mm5 Sa4 pl13 ta10", "w");
    assert_eq!(targets(&g, "a4"), squares("a5 a6 a7 a10 b4 c4 d4 a3 a2 a1"));
    let g = game("Pm1 Mm5 Sa4 pl13 ta11", "w");
    assert!(
        !has(&g, "a4xa11"),
        "seven squares is beyond the restricted capture"
    );
}

#[test]
fn sentinel_it_passes_through_then_cannot_capture() {
    // Marshal e1: east is towards it; the Templar on b1 is passed, then the
    // Templar on d1 cannot be taken.
    let g = game("Pm1 Me1 Sa1 Tb1 pl13 td1", "w");
    assert!(has(&g, "a1c1"), "passes through its own Templar");
    assert!(!has(&g, "a1xd1"), "no capture after passing through");
}

#[test]
fn sentinel_towards_is_measured_one_axis_at_a_time() {
    // "With the Marshal on d3, a Sentinel on a1 heads towards it both east and north."
    let g = game("Pm1 Md3 Sa1 Tb1 Ha2 pk13", "w");
    let t = targets(&g, "a1");
    for s in ["c1", "g1", "a3", "a7"] {
        assert!(t.contains(&s.to_owned()), "{s} in {t:?}");
    }
    assert!(!t.contains(&"h1".to_owned()) && !t.contains(&"a8".to_owned()));
    // Away from the Marshal its own pieces block.
    let g = game("Pm1 Md3 Se5 Hf5 Hd5 pk13", "w");
    assert!(!has(&g, "e5g5"), "east is away from d3");
    assert!(has(&g, "e5c5"), "west is towards d3");
}

#[test]
fn restricted_sentinel_is_blocked_by_any_piece() {
    let g = game("Pm1 Mm5 Sa1 Tb1 pl13", "w");
    assert!(!has(&g, "a1c1"));
    // Without a Marshal there is no towards at all.
    let g = game("Pm1 Sa1 Tb1 pl13", "w");
    assert!(!has(&g, "a1c1"));
}

// ---- Templar ----

#[test]
fn enhanced_templar_has_both_leaps() {
    let g = game("Pm1 Mg7 Te5 pl13", "w");
    assert_eq!(
        targets(&g, "e5"),
        squares("h7 g8 c8 b7 b3 c2 g2 h3 g6 f7 d7 c6 c4 d3 f3 g4")
    );
}

#[test]
fn restricted_templar_keeps_only_the_long_leap() {
    let g = game("Pm1 Mm5 Te5 pl13", "w");
    assert_eq!(targets(&g, "e5"), squares("h7 g8 c8 b7 b3 c2 g2 h3"));
}

#[test]
fn templar_captures_on_landing_and_ignores_pieces_between() {
    let g = game("Pm1 Te5 Le6 Lf6 Lf5 pl13 th7", "w");
    assert!(has(&g, "e5xh7"));
}

// ---- Herald ----

#[test]
fn enhanced_herald_unlimited_diagonal_and_capturing_step() {
    let g = game("Pm1 Md1 Ha1 pl13", "w");
    assert_eq!(
        targets(&g, "a1"),
        squares("b2 c3 d4 e5 f6 g7 h8 i9 j10 k11 l12 m13 a2 b1")
    );
    let g = game("Pm1 Md1 Ha1 pl13 ta2", "w");
    assert!(has(&g, "a1xa2"), "the straight step captures when enhanced");
}

#[test]
fn restricted_herald_six_diagonal_and_quiet_step() {
    let g = game("Pm1 Mm5 Ha1 pl13", "w");
    assert_eq!(targets(&g, "a1"), squares("b2 c3 d4 e5 f6 g7 a2 b1"));
    let g = game("Pm1 Mm5 Ha1 pl13 ta2 tg7", "w");
    assert!(
        !has(&g, "a1xa2"),
        "the straight step cannot capture when restricted"
    );
    assert!(has(&g, "a1xg7"), "same diagonal reach for captures");
}

// ---- Legionary ----

#[test]
fn legionary_advance_below_rank_seven() {
    let g = game("Pm1 Le3 pl13", "w");
    assert_eq!(targets(&g, "e3"), squares("e4 e5 e6 e7"));
    let g = game("Pm1 Le3 pl13 te6", "w");
    assert_eq!(
        targets(&g, "e3"),
        squares("e4 e5"),
        "stops earlier when blocked"
    );
    // Black mirrored.
    let g = game("Pm1 pl13 le11", "b");
    assert_eq!(targets(&g, "e11"), squares("e10 e9 e8 e7"));
}

#[test]
fn legionary_from_rank_seven_one_or_two_enhanced_one_restricted() {
    let g = game("Pm1 Mh5 Le7 pl13", "w");
    assert_eq!(targets(&g, "e7"), squares("e8 e9"));
    let g = game("Pm1 Mh5 Le7 pl13 te9", "w");
    assert_eq!(targets(&g, "e7"), squares("e8"));
    let g = game("Pm1 Mh5 Le7 pl13 te8", "w");
    assert!(
        targets(&g, "e7").is_empty(),
        "the step needs the square in between"
    );
    let g = game("Pm1 Ma1 Le7 pl13", "w");
    assert_eq!(targets(&g, "e7"), squares("e8"));
}

#[test]
fn legionary_captures_diagonally_forward() {
    let g = game("Pm1 Le5 pl13 td6 hf6 te6", "w");
    assert_eq!(targets(&g, "e5"), squares("d6 f6"));
}

#[test]
fn white_advances_to_e7_black_captures_en_passant() {
    let mut g = game("Pg1 Le3 pg13 lf7", "w");
    play(&mut g, "e3-e7");
    assert_eq!(g.position().en_passant(), Some(sq("e6")));
    assert!(has(&g, "f7xe6ep"));
    play(&mut g, "f7xe6");
    assert_eq!(
        g.position().piece_at(sq("e7")),
        None,
        "the advanced Legionary is taken"
    );
    assert_eq!(
        g.position().piece_at(sq("e6")).map(|p| (p.color, p.kind)),
        Some((Color::Black, PieceKind::Legionary))
    );
}

#[test]
fn en_passant_right_is_gone_when_not_used() {
    let mut g = game("Pg1 Le3 Ta5 pg13 lf7", "w");
    play(&mut g, "e3e7");
    play(&mut g, "g13g12");
    play(&mut g, "a5d7");
    assert!(!has(&g, "f7xe6ep"));
}

#[test]
fn en_passant_only_after_the_start_rank_to_rank_seven_advance() {
    let mut g = game("Pg1 Le4 pg13 lf7", "w");
    play(&mut g, "e4e7");
    assert_eq!(g.position().en_passant(), None);
    assert!(!has(&g, "f7xe6ep"));
}

// ---- Mage ----

#[test]
fn enhanced_mage_steps_or_leaps_two() {
    let g = game("Pm1 Mg7 Gd4 Ld5 pl13", "w");
    assert_eq!(
        targets(&g, "d4"),
        squares("c3 c4 c5 d3 e3 e4 e5 b2 b4 b6 d2 d6 f2 f4 f6")
    );
}

#[test]
fn restricted_mage_steps_one() {
    let g = game("Pm1 Gd4 pl13", "w");
    assert_eq!(targets(&g, "d4"), squares("c3 c4 c5 d3 d5 e3 e4 e5"));
}

#[test]
fn enhanced_blast_destroys_enemy_pieces_only() {
    let mut g = game("Pm1 Mg7 Gd4 Tc4 pl13 te5 hd5", "w");
    play(&mut g, "Gd4xd4");
    let p = g.position();
    assert!(p.piece_at(sq("e5")).is_none() && p.piece_at(sq("d5")).is_none());
    assert!(p.piece_at(sq("c4")).is_some(), "own piece spared");
    assert!(p.piece_at(sq("d4")).is_some(), "the Mage stays where it is");
}

#[test]
fn restricted_blast_destroys_own_pieces_as_well() {
    let mut g = game("Pm1 Gd4 Tc4 pl13 te5", "w");
    play(&mut g, "d4xd4");
    let p = g.position();
    assert!(p.piece_at(sq("e5")).is_none() && p.piece_at(sq("c4")).is_none());
    assert!(p.piece_at(sq("d4")).is_some());
    // The own Templar lost opens a place for promotion on file c.
    assert_eq!(p.slots(Color::White).len(), 1);
}

#[test]
fn blast_needs_an_enemy_piece_in_the_ring() {
    assert!(!has(&game("Pm1 Gd4 pl13", "w"), "d4xd4"), "empty ring");
    assert!(
        !has(&game("Pm1 Gd4 Tc4 pl13", "w"), "d4xd4"),
        "only own pieces"
    );
    assert!(has(&game("Pm1 Gd4 pl13 tc4", "w"), "d4xd4"));
}

#[test]
fn restricted_mage_may_not_blast_with_its_own_pope_in_the_ring() {
    assert!(!has(&game("Pd3 Gd4 pl13 te5", "w"), "d4xd4"));
    let mut g = game("Pd3 Mg7 Gd4 pl13 te5", "w");
    assert!(
        has(&g, "d4xd4"),
        "enhanced, the blast passes over its own Pope"
    );
    play(&mut g, "d4xd4");
    assert!(g.position().piece_at(sq("d3")).is_some());
}

#[test]
fn mage_may_blast_again_the_turn_after() {
    let mut g = game("Pm1 Gd4 pl13 te5 sc8", "w");
    play(&mut g, "d4xd4");
    assert!(!has(&g, "d4xd4") || g.position().side_to_move() == Color::Black);
    play(&mut g, "c8c5");
    assert!(has(&g, "d4xd4"), "it blasts again the turn after");
}

#[test]
fn a_blast_is_a_whole_turn() {
    let mut g = game("Pm1 Gd4 pl13 te5", "w");
    play(&mut g, "d4xd4");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(
        g.position().piece_at(sq("d4")).map(|p| p.kind),
        Some(PieceKind::Mage)
    );
}

#[test]
fn dormant_emperor_neither_counts_for_nor_falls_to_a_blast() {
    // Black's Marshal lives, so its Emperor on e5 is dormant.
    assert!(!has(&game("Pm1 Gd4 pl13 ml12 ee5", "w"), "d4xd4"));
    let mut g = game("Pm1 Gd4 pl13 ml12 ee5 tc5", "w");
    play(&mut g, "d4xd4");
    assert!(
        g.position().piece_at(sq("e5")).is_some(),
        "nothing removes it"
    );
    assert!(g.position().piece_at(sq("c5")).is_none());
}

// ---- Assassin ----

#[test]
fn assassin_captures_by_passing_over() {
    let mut g = game("Pm1 Ac3 pl13 he5", "w");
    assert!(has(&g, "c3xe5f6"));
    play(&mut g, "Ac3xf6");
    assert!(g.position().piece_at(sq("e5")).is_none());
    assert_eq!(
        g.position().piece_at(sq("f6")).map(|p| p.kind),
        Some(PieceKind::Assassin)
    );
}

#[test]
fn assassin_the_square_behind_is_occupied() {
    let g = game("Pm1 Ac3 pl13 he5 tf6", "w");
    assert!(!has(&g, "c3xe5f6"));
}

#[test]
fn assassin_the_square_behind_is_attacked_by_the_opponent() {
    // A black Legionary on g7 attacks f6.
    let g = game("Pm1 Ac3 pl13 he5 lg7", "w");
    assert!(!has(&g, "c3xe5f6"));
}

#[test]
fn assassin_capturing_on_a_corner() {
    let mut g = game("Pm1 Ac3 pl13 ta1", "w");
    assert!(has(&g, "c3xa1"));
    play(&mut g, "Ac3xa1");
    assert_eq!(
        g.position().piece_at(sq("a1")).map(|p| p.color),
        Some(Color::White)
    );
}

#[test]
fn assassin_the_corner_capture_is_not_allowed_when_attacked() {
    let g = game("Pm1 Ac3 pl13 ta1 sa5", "w");
    assert!(!has(&g, "c3xa1"));
}

#[test]
fn assassin_cannot_capture_on_the_far_rank_from_in_front() {
    let g = game("Pm1 Ae9 pl13 te13", "w");
    assert!(!has(&g, "e9xe13"));
    assert!(!legal_has_victim(&g, "e13"));
    let g = game("Pm1 Aa13 pl11 te13", "w");
    assert!(has(&g, "a13xe13f13"), "from along the rank it lands beyond");
}

fn legal_has_victim(g: &tabula_epoch::Epoch, victim: &str) -> bool {
    common::legal(g)
        .iter()
        .any(|m| m.contains(&format!("x{victim}")))
}

#[test]
fn restricted_assassin_keeps_the_whole_capture_inside_six() {
    let g = game("Pm1 Aa1 pl13 ta6", "w");
    assert!(has(&g, "a1xa6a7"), "landing six away");
    let g = game("Pm1 Aa1 pl13 ta7", "w");
    assert!(!has(&g, "a1xa7a8"), "landing seven away");
    assert!(has(&g, "a1a6") && !has(&g, "a1a7"));
    let g = game("Pm1 Mc3 Aa1 pl13 ta11", "w");
    assert!(has(&g, "a1xa11a12"), "enhanced: no limit");
}

#[test]
fn assassin_quiet_moves_land_anywhere_the_line_is_clear() {
    // The quiet move has no watched-square condition.
    let g = game("Pm1 Ac3 pl13 lg7", "w");
    assert!(has(&g, "c3f6"));
}
