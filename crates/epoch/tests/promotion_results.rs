//! Promotion by trade, the five results and the swap rule.

mod common;

use common::{game, game_with, has, play};
use tabula_core::{EndReason, Game, Player, Team, ToAct};
use tabula_epoch::{Color, Epoch, EpochOptions, Move, PieceKind, Square, no_progress_limit};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn kind_at(g: &Epoch, s: &str) -> Option<PieceKind> {
    g.position().piece_at(sq(s)).map(|p| p.kind)
}

// ---- Promotion ----

#[test]
fn promotion_claims_a_place_on_its_file_or_either_side() {
    // "Say you lose a Sentinel on file c": b13, c13 and d13 may take it, e13 not.
    let g = game_with("Pm1 Lb12 Ld12 Le12 pk7", "w - - - - Sc 0 10 -");
    assert!(has(&g, "b12b13=Sc") && has(&g, "d12d13=Sc"));
    assert!(
        !has(&g, "b12b13") && !has(&g, "d12d13"),
        "no arriving and declining"
    );
    assert!(has(&g, "e12e13") && !has(&g, "e12e13=Sc"));
}

#[test]
fn promotion_choice_between_two_open_places() {
    let mut g = game_with("Pm1 Lc12 pk7", "w - - - - Sc,Td 0 10 -");
    assert!(has(&g, "c12c13=Sc") && has(&g, "c12c13=Td"));
    play(&mut g, "c12-c13=T");
    assert_eq!(kind_at(&g, "c13"), Some(PieceKind::Templar));
    assert_eq!(
        g.position().slots(Color::White).len(),
        1,
        "the Sentinel place stays open"
    );
}

#[test]
fn promotion_by_capture_onto_the_last_rank() {
    let g = game_with("Pm1 Lc12 pk7 td13", "w - - - - Sc 0 10 -");
    assert!(has(&g, "c12xd13=Sc"));
}

#[test]
fn promotion_waiting_legionary_trades_later_as_a_whole_move() {
    let mut g = game("Pm1 Le13 Tf5 pk7 sf9", "b");
    assert!(!common::legal(&g).iter().any(|m| m.starts_with("e13=")));
    play(&mut g, "f9xf5");
    assert!(has(&g, "e13=Tf"), "{:?}", common::legal(&g));
    play(&mut g, "e13-e13=T");
    assert_eq!(kind_at(&g, "e13"), Some(PieceKind::Templar));
    assert_eq!(g.position().side_to_move(), Color::Black);
}

#[test]
fn promotion_into_a_marshal_restores_the_zone() {
    let mut g = game_with("Pm1 Ld12 Te5 pk7", "w - - - - Md 0 10 -");
    assert!(!g.position().enhanced(Color::White, sq("e11")));
    play(&mut g, "d12d13=Md");
    assert!(g.position().enhanced(Color::White, sq("e11")));
}

#[test]
fn promotion_into_an_emperor_skips_the_dormancy() {
    let mut g = game_with("Pm1 Md1 Ld12 pk7", "w - - - - Ed 0 10 -");
    play(&mut g, "d12d13=Ed");
    assert!(g.position().emperor_awake(Color::White));
    play(&mut g, "k7l7");
    assert!(
        has(&g, "d13d12"),
        "it moves at once although the Marshal lives"
    );
}

#[test]
fn promotion_in_place_does_not_answer_check() {
    let g = game_with("Pg5 Le13 pm13 mg10", "w - - - - Sd 0 10 -");
    assert!(g.position().in_check());
    assert!(!has(&g, "e13=Sd"));
}

#[test]
fn never_more_of_a_kind_than_at_the_start() {
    let text = format!(
        "{} w - - - - Sc,Sd 0 10 -",
        common::placement("Pm1 Sa1 pk7")
    );
    assert!(Epoch::from_text(&text, &EpochOptions::default()).is_err());
}

// ---- Results ----

#[test]
fn result_checkmate_loses() {
    let g = game("Pa1 pm13 ma3 td4", "w");
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: tabula_core::Outcome::win(Team(1), EndReason::Checkmate)
        }
    );
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    assert!(v.is_empty());
}

#[test]
fn result_checkmate_by_a_move() {
    let mut g = game("Pa1 pm13 mb4 td4", "b");
    play(&mut g, "b4a3");
    assert_eq!(
        g.to_act().outcome().map(|o| o.reason),
        Some(EndReason::Checkmate)
    );
    assert_eq!(g.to_act().outcome().and_then(|o| o.winner), Some(Team(1)));
}

#[test]
fn result_no_legal_move_and_not_in_check_wins() {
    let g = game("Pa1 pm13 mb3", "w");
    assert!(!g.position().in_check());
    let outcome = g.to_act().outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Stalemate);
    assert_eq!(
        outcome.winner,
        Some(Team(0)),
        "the side without a move wins"
    );
}

#[test]
fn result_third_repetition_loses_for_the_mover() {
    let mut g = Epoch::new(&EpochOptions::default());
    for _ in 0..2 {
        for m in ["b1d4", "b13d10", "d4b1", "d10b13"] {
            assert!(g.to_act().player().is_some());
            play(&mut g, m);
        }
    }
    let outcome = g.to_act().outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert_eq!(
        outcome.winner,
        Some(Team(0)),
        "Black made the third occurrence"
    );
}

#[test]
fn repetition_key_includes_the_riposte_and_side_to_move() {
    let g = game("Pm1 Md4 pl13 sd10", "w");
    let r = game_with("Pm1 Md4 pl13 sd10", "w - - r - - 0 10 -");
    assert_ne!(g.position().key(), r.position().key());
    let b = game("Pm1 Md4 pl13 sd10", "b");
    assert_ne!(g.position().key(), b.position().key());
}

#[test]
fn result_no_progress_limit_draws() {
    assert_eq!(no_progress_limit(52), 120);
    assert_eq!(no_progress_limit(3), 316);
    // Four pieces: 60 + 2 x 48 = 156 turns, 312 plies.
    let mut g = game_with("Pa1 Sa2 pm13 sm12", "w - - - - - 310 200 -");
    play(&mut g, "a2b2");
    assert!(g.to_act().player().is_some());
    play(&mut g, "m12l12");
    assert_eq!(
        g.to_act().outcome().map(|o| (o.reason, o.winner)),
        Some((EndReason::NoProgress, None))
    );
}

#[test]
fn progress_resets_the_count() {
    let mut g = game_with("Pa1 Le4 pm13 sm12", "w - - - - - 300 200 -");
    play(&mut g, "e4e5");
    assert_eq!(g.position().halfmoves(), 0);
}

#[test]
fn result_repetition_and_no_progress_on_the_same_move_is_a_draw() {
    // 120 + 2*(52-4)*2... four pieces: limit 312 plies; eight shuffling plies
    // from 304 reach both the limit and the third occurrence.
    let mut g = game_with("Pa1 Ta3 pm13 tm11", "w - - - - - 304 200 -");
    for _ in 0..2 {
        for m in ["a3d5", "m11j9", "d5a3", "j9m11"] {
            play(&mut g, m);
        }
    }
    assert_eq!(
        g.to_act().outcome().map(|o| o.reason),
        Some(EndReason::NoProgress)
    );
}

#[test]
fn result_bare_popes_draw() {
    let mut g = game("Pa1 pm13 tb2", "w");
    play(&mut g, "a1xb2");
    assert_eq!(
        g.to_act().outcome().map(|o| (o.reason, o.winner)),
        Some((EndReason::InsufficientMaterial, None))
    );
}

#[test]
fn other_thin_material_is_played_out() {
    let g = game("Pa1 Tb1 pm13", "w");
    assert!(g.to_act().player().is_some());
}

// ---- Swap ----

#[test]
fn swap_offered_only_on_blacks_first_turn() {
    let mut g = Epoch::new(&EpochOptions::default());
    assert!(!has(&g, "swap"));
    play(&mut g, "g3g7");
    assert!(has(&g, "swap"));
    play(&mut g, "g11g8");
    play(&mut g, "a3a4");
    assert!(!has(&g, "swap"));
}

#[test]
fn swap_exchanges_the_players_and_black_still_moves() {
    let mut g = Epoch::new(&EpochOptions::default());
    play(&mut g, "g3g7");
    assert_eq!(g.to_act().player(), Some(Player(1)));
    play(&mut g, "swap");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(
        g.to_act().player(),
        Some(Player(0)),
        "player 1 now plays Black"
    );
    assert_eq!(g.player_name(Player(0)), "Black");
    assert!(!has(&g, "swap"));
    assert!(g.to_text().ends_with(" x"));
}

#[test]
fn swap_option_off_removes_it() {
    let mut g = Epoch::new(&EpochOptions { swap: false });
    let mv = g.parse_action("g3g7").unwrap();
    g.apply(&mv).unwrap();
    assert!(!has(&g, "swap"));
    assert!(g.apply(&Move::Swap).is_err());
}
