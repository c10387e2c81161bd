//! The command zone, the Marshal and its riposte, the Emperor's dormancy,
//! the Pope, castling and the several meanings of check.

mod common;

use common::{game, game_with, has, play, targets};
use tabula_epoch::{Color, Position, Square};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn zone_size(pos: &Position) -> usize {
    Square::all()
        .filter(|&s| pos.enhanced(Color::White, s))
        .count()
}

// ---- The command zone ----

#[test]
fn zone_marshal_on_the_command_square_enhances_everything() {
    assert_eq!(zone_size(game("Pm1 Mg7 pl13", "w").position()), 169);
}

#[test]
fn zone_four_squares_in_every_direction() {
    assert_eq!(zone_size(game("Pm1 Mf6 pl13", "w").position()), 81);
}

#[test]
fn zone_against_the_edge() {
    assert_eq!(zone_size(game("Pm1 Ma7 pl13", "w").position()), 45);
}

#[test]
fn zone_in_a_corner() {
    assert_eq!(zone_size(game("Pm13 Ma1 pl11", "w").position()), 25);
}

#[test]
fn zone_marshal_captured_leaves_everything_restricted() {
    assert_eq!(zone_size(game("Pm1 pl13", "w").position()), 0);
}

#[test]
fn zone_ignores_the_enemy_marshal() {
    // The black Marshal next to the white Templar does not enhance it.
    let g = game("Pm1 Te5 pl13 mf6", "w");
    assert_eq!(targets(&g, "e5").len(), 8);
}

#[test]
fn zone_is_read_on_the_square_a_piece_starts_from() {
    // Legionary e7 is enhanced (Marshal h5, three away): it advances two
    // although e9 is five from the Marshal.
    let mut g = game("Pm1 Mh4 Le7 pl13", "w");
    assert!(has(&g, "e7e9"));
    play(&mut g, "e7e9");
    play(&mut g, "l13l12");
    assert_eq!(
        targets(&g, "e9"),
        vec!["e10".to_owned()],
        "restricted on the next turn"
    );
}

// ---- The Marshal ----

#[test]
fn marshal_eight_lines_any_distance() {
    let g = game("Pm1 Md4 pl13", "w");
    // 12 + 12 on rank and file, diagonals 3+9 and 3+3.
    assert_eq!(targets(&g, "d4").len(), 12 + 12 + 12 + 6);
}

#[test]
fn marshal_the_herald_already_attacks_it() {
    assert!(has(&game("Pm1 Md4 Hg7 pl13 sd10", "w"), "d4xd10"));
}

#[test]
fn marshal_nothing_of_yours_attacks_it() {
    assert!(!has(&game("Pm1 Md4 pl13 sd10", "w"), "d4xd10"));
}

#[test]
fn marshal_the_mage_attacks_everything_next_to_it() {
    assert!(has(&game("Pm1 Md4 Ge11 pl13 sd10", "w"), "d4xd10"));
}

#[test]
fn marshal_captures_though_the_mage_cannot_blast() {
    // Restricted Mage d11 with its own Pope c12 in the ring may not blast,
    // yet it attacks d10 for the Marshal.
    let g = game("Pc12 Md4 Gd11 pl13 sd10", "w");
    assert!(!has(&g, "d11xd11"));
    assert!(has(&g, "d4xd10"));
}

#[test]
fn marshal_can_capture_the_square_behind_is_only_attacked() {
    // Assassin a10 aims at d10 with e10 empty but attacked by Legionary f11.
    let g = game("Pm1 Md4 Aa10 pl13 sd10 lf11", "w");
    assert!(!has(&g, "a10xd10e10"), "the Assassin itself cannot");
    assert!(has(&g, "d4xd10"), "the Marshal can");
}

#[test]
fn marshal_cannot_capture_the_square_behind_is_occupied() {
    let g = game("Pm1 Md4 Aa10 pl13 sd10 te10", "w");
    assert!(!has(&g, "d4xd10"));
}

// ---- Riposte ----

#[test]
fn riposte_the_capture_triggers_the_riposte() {
    let mut g = game("Pm1 Md4 Tg7 pl13 sg10 td9", "b");
    play(&mut g, "g10xg7");
    assert!(g.position().riposte());
    assert!(has(&g, "d4xg7"), "the capturer, unsupported");
    assert!(has(&g, "d4xd9"), "any piece on its eight lines");
}

#[test]
fn riposte_the_capture_does_not_trigger_the_riposte() {
    // Same capture, but a Legionary on e5 cuts the Marshal's line to g7.
    let mut g = game("Pm1 Md4 Le5 Tg7 pl13 sg10 td9", "b");
    play(&mut g, "g10xg7");
    assert!(!g.position().riposte());
    assert!(!has(&g, "d4xd9"));
}

#[test]
fn riposte_lasts_exactly_one_move() {
    let mut g = game("Pm1 Md4 Tg7 pl13 sg10 td9", "b");
    play(&mut g, "g10xg7");
    play(&mut g, "m1m2");
    play(&mut g, "l13l12");
    assert!(!g.position().riposte());
    assert!(!has(&g, "d4xd9"));
}

#[test]
fn riposte_the_blast_comes_from_your_own_mage() {
    // White's restricted Mage destroys White's Templar on the Marshal's line:
    // nothing for White (and Black lost nothing its Marshal sees).
    let mut g = game("Pm1 Md4 Gd10 Td9 pl13 te11 ti13", "w");
    play(&mut g, "d10xd10");
    assert!(g.position().piece_at(sq("d9")).is_none());
    assert!(!g.position().riposte());
    play(&mut g, "l13k13");
    assert!(!g.position().riposte());
}

#[test]
fn riposte_the_same_blast_comes_from_the_opponent() {
    let mut g = game("Pm1 Md4 Tg7 pl13 gh8", "b");
    play(&mut g, "h8xh8");
    assert!(g.position().riposte());
}

#[test]
fn riposte_the_assassin_lands_on_the_line_and_cuts_it() {
    let mut g = game("Pm1 Md4 Tg7 pl13 aj10", "b");
    play(&mut g, "j10xg7f6");
    assert!(!g.position().riposte());
    assert!(!has(&g, "d4xf6"));
}

#[test]
fn riposte_the_assassin_lands_where_the_marshal_can_capture_it() {
    let mut g = game("Pm1 Md4 Tg7 pl13 ae5", "b");
    play(&mut g, "e5xg7h8");
    assert!(g.position().riposte());
    assert!(has(&g, "d4xh8"));
}

#[test]
fn riposte_not_armed_when_the_marshal_itself_falls() {
    let mut g = game("Pm1 Md4 Ee1 pl13 sd10", "b");
    play(&mut g, "d10xd4");
    assert!(!g.position().riposte());
}

// ---- The Emperor ----

#[test]
fn dormant_emperor_cannot_move_capture_or_guard() {
    let g = game("Pm1 Md4 Ef1 pl13 tf6 tf2", "w");
    assert!(targets(&g, "f1").is_empty(), "no move, no capture");
    assert!(!has(&g, "d4xf6"), "guards nothing");
    let g = game_with("Pm1 Md4 Ef1 pl13 tf6", "w - - - E - 0 10 -");
    assert!(has(&g, "d4xf6"), "awake, it supports the Marshal");
}

#[test]
fn dormant_emperor_still_closes_lines() {
    let g = game("Pf1 Mm2 Ef4 pl13 sf8", "w");
    assert!(!g.position().in_check());
}

#[test]
fn emperor_the_attack_arrives_down_the_file() {
    let mut g = game("Pm1 Mk2 Ef1 pl13 sc6", "b");
    assert!(!g.position().emperor_awake(Color::White));
    play(&mut g, "c6f6");
    assert!(g.position().emperor_awake(Color::White));
    assert!(has(&g, "f1xf6"));
}

#[test]
fn emperor_woken_by_a_templar_leap() {
    // d4 is a (−2,−3) leap from f1's point of view: the Templar there attacks it.
    let mut g = game("Pm1 Mk2 Ef1 pl13 tg6", "b");
    play(&mut g, "g6d4");
    assert!(g.position().emperor_awake(Color::White));
    let mut g = game("Pm1 Mk2 Ef1 pl13 tg6", "b");
    play(&mut g, "g6j8");
    assert!(!g.position().emperor_awake(Color::White));
}

#[test]
fn emperor_your_own_mage_steps_off_the_line() {
    // Opening the line on your own move settles nothing: the reading waits
    // for the start of your turn, and the opponent may withdraw.
    let mut g = game("Pm1 Mk2 Ef1 Gf2 pl13 sf6", "w");
    play(&mut g, "f2e2");
    assert!(!g.position().emperor_awake(Color::White));
    let mut withdrawn = g.clone();
    play(&mut withdrawn, "f6c6");
    assert!(!withdrawn.position().emperor_awake(Color::White));
    play(&mut g, "l13l12");
    assert!(g.position().emperor_awake(Color::White));
}

#[test]
fn emperor_the_marshal_steps_down_and_the_line_still_holds() {
    let mut g = game("Pm1 Mf3 Ef1 pl13 sf7", "w");
    play(&mut g, "f3g2");
    play(&mut g, "l13l12");
    assert!(
        g.position().emperor_awake(Color::White),
        "comes into play already attacked"
    );
    assert!(has(&g, "f1xf7"));
}

#[test]
fn emperor_the_assassin_lands_on_the_line_to_the_emperor() {
    // The dormant Emperor guards nothing, so f3 reads as free; the landing
    // attacks the Emperor, which wakes and takes the Assassin.
    let mut g = game("Pm1 Mk2 Ef2 Tf4 pl13 af8", "b");
    assert!(has(&g, "f8xf4f3"));
    play(&mut g, "f8xf4f3");
    assert!(g.position().emperor_awake(Color::White));
    assert!(has(&g, "f2xf3"));
}

#[test]
fn emperor_wakes_when_its_marshal_is_captured_and_stays_awake() {
    let mut g = game("Pm1 Md4 Ef1 pl13 sd10 hk11", "b");
    play(&mut g, "d10xd4");
    assert!(g.position().emperor_awake(Color::White));
    assert!(!targets(&g, "f1").is_empty());
}

// ---- The Pope and castling ----

#[test]
fn pope_one_square_in_every_direction() {
    let g = game("Pf5 pl13 tl12", "w");
    assert_eq!(targets(&g, "f5").len(), 8);
}

#[test]
fn castling_where_castling_puts_the_pope() {
    let mut g = game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    assert!(has(&g, "O-O") && has(&g, "O-O-O"));
    let mut left = g.clone();
    play(&mut g, "O-O");
    assert_eq!(
        g.position().piece_at(sq("j1")).map(|p| p.kind),
        Some(tabula_epoch::PieceKind::Pope)
    );
    assert_eq!(
        g.position().piece_at(sq("i1")).map(|p| p.kind),
        Some(tabula_epoch::PieceKind::Sentinel)
    );
    play(&mut left, "O-O-O");
    assert_eq!(
        left.position().piece_at(sq("d1")).map(|p| p.kind),
        Some(tabula_epoch::PieceKind::Pope)
    );
    assert_eq!(
        left.position().piece_at(sq("e1")).map(|p| p.kind),
        Some(tabula_epoch::PieceKind::Sentinel)
    );
}

#[test]
fn castling_not_through_an_attacked_square() {
    // The black Sentinel on i8 (enhanced by its Marshal on g11) attacks i1.
    let g = game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11 si8", "w KQ - - - - 0 10 -");
    assert!(!has(&g, "O-O"));
    assert!(has(&g, "O-O-O"));
}

#[test]
fn castling_not_out_of_check_nor_once_moved() {
    let g = game_with("Pg1 Sa1 Sm1 Mh3 pg13 sg7", "w KQ - - - - 0 10 -");
    assert!(g.position().in_check());
    assert!(!has(&g, "O-O") && !has(&g, "O-O-O"));
    let mut g = game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    play(&mut g, "m1m2");
    play(&mut g, "g13f13");
    play(&mut g, "m2m1");
    play(&mut g, "f13g13");
    assert!(!has(&g, "O-O"), "the Sentinel has moved");
    assert!(has(&g, "O-O-O"));
}

#[test]
fn castling_blocked_by_the_dormant_emperor_at_the_start() {
    let g = game_with("Pg1 Sa1 Sm1 Ef1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    assert!(
        !has(&g, "O-O-O"),
        "every square between them has to be empty"
    );
}

// ---- Check ----

#[test]
fn check_the_mage_stands_next_to_the_pope() {
    assert!(game("Pg5 pf8 gg6 mm13", "w").position().in_check());
}

#[test]
fn check_its_own_pope_shares_the_ring() {
    assert!(!game("Pg5 pf7 gg6 mm13", "w").position().in_check());
}

#[test]
fn check_the_marshal_turns_the_mage_enhanced() {
    assert!(game("Pg5 pf7 gg6 mc10", "w").position().in_check());
}

#[test]
fn check_the_square_behind_the_pope_is_empty_and_unattacked() {
    // The Pope itself touches g4; it does not count (it is the piece taken).
    assert!(game("Pg5 pm13 ag9", "w").position().in_check());
}

#[test]
fn check_the_square_behind_the_pope_is_occupied() {
    assert!(!game("Pg5 Lg4 pm13 ag9", "w").position().in_check());
}

#[test]
fn check_the_square_behind_the_pope_is_attacked() {
    // The restricted Templar on d2 leaps (3,2) onto g4.
    assert!(!game("Pg5 Td2 pm13 ag9", "w").position().in_check());
}

#[test]
fn check_the_pope_stands_on_the_far_rank() {
    assert!(!game("Pg1 pm13 ag5", "w").position().in_check());
}

#[test]
fn check_the_pope_stands_on_a_corner() {
    assert!(game("Pa1 pm13 aa6", "w").position().in_check());
}

#[test]
fn check_the_marshal_checks_on_its_own() {
    let g = game("Pg5 pm13 mg10", "w");
    assert!(g.position().in_check());
    // The Pope must leave the line: every legal move leaves the g-file.
    for t in targets(&g, "g5") {
        assert!(!t.starts_with('g'), "{t}");
    }
}

#[test]
fn check_one_square_of_the_line_is_missing() {
    // Herald a1, clear diagonal; g7 would attack the dormant black Emperor
    // on e9, which wakes onto the white Pope on the shared e-file.
    let g = game("Pe1 Ha1 pa13 mm12 ee9", "w");
    let t = targets(&g, "a1");
    assert!(!t.contains(&"g7".to_owned()), "{t:?}");
    for s in ["b2", "c3", "d4", "e5", "f6"] {
        assert!(t.contains(&s.to_owned()));
    }
    // Off the shared file the square comes back.
    let g = game("Pd1 Ha1 pa13 mm12 ee9", "w");
    assert!(targets(&g, "a1").contains(&"g7".to_owned()));
}

#[test]
fn capturing_the_marshal_is_illegal_if_the_woken_emperor_takes_the_pope() {
    // Taking the black Marshal wakes the black Emperor on the e-file.
    let g = game("Pe1 Sd5 pa13 md9 ee9", "w");
    assert!(!has(&g, "d5xd9"));
    let g = game("Pd1 Sd5 pa13 md9 ee9", "w");
    assert!(
        has(&g, "d5xd9"),
        "legal once the Pope is off the Emperor's file"
    );
}
