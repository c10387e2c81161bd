//! What Skirmish chess keeps from chess ("Movement and objectives are as
//! per the usual chess game"): castling, en passant, promotion, the draws;
//! and how each meets the skirmish.

mod common;

use common::{game, legal, play};
use tabula_chess::{Color, Role, Square};
use tabula_core::{EndReason, Game, Outcome, Probability, Team, perft};
use tabula_skirmish::{KingCaptures, Pending, Phase, Skirmish, SkirmishOptions};

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

#[test]
fn castling_as_in_chess_never_through_an_attacked_square() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", basic());
    let all = legal(&g);
    assert!(all.contains(&"e1g1".to_owned()) && all.contains(&"e1c1".to_owned()));
    // The f8 Rook covers f1.
    let g = game("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", basic());
    let all = legal(&g);
    assert!(!all.contains(&"e1g1".to_owned()) && all.contains(&"e1c1".to_owned()));
    let mut g = g.clone();
    play(&mut g, &["O-O-O"]);
    assert_eq!(g.setup().to_fen(), "r3kr2/8/8/8/8/8/8/2KR3R b q - 1 1");
}

#[test]
fn a_rook_lost_in_a_skirmish_takes_its_castling_right_with_it() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", basic());
    play(&mut g, &["Rxa8", "roll:1-6"]);
    // White's a1 Rook is lost (White loses Q); the black Rook takes a1 and
    // so leaves a8 (Black loses q).
    assert_eq!(g.castling_rights().to_string(), "Kkq");
    play(&mut g, &["take"]);
    assert_eq!(g.castling_rights().to_string(), "Kk");
    assert_eq!(g.board().color_at(Square::A1), Some(Color::Black));
}

#[test]
fn castling_is_a_strategic_movement_in_the_advanced_game() {
    let mut g = game(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        SkirmishOptions::advanced(),
    );
    play(&mut g, &["O-O"]);
    // The movement is made: no other movement may follow, and neither the
    // King nor the f1 Rook may skirmish; the a1 Rook, in position, may.
    assert_eq!(g.turn(), Color::White);
    assert_eq!(legal(&g), ["a1a8", "end"]);
}

#[test]
fn en_passant_is_a_skirmish_with_the_pawn_that_passed() {
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let g0 = game(fen, basic());
    let ep = g0.parse_action("exd6").unwrap();
    assert_eq!(g0.action_notation(&ep), "e5xd6ep");
    // Pawn against Pawn: 7/12.
    assert_eq!(
        g0.odds(&ep)[0].win_probability(),
        Probability::new(7, 12).unwrap()
    );
    let mut g = g0.clone();
    play(&mut g, &["exd6", "roll:6-1"]);
    assert_eq!(g.setup().to_fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
    let mut g = g0.clone();
    play(&mut g, &["exd6", "roll:1-6"]);
    assert_eq!(common::legal(&g), ["stay", "take:d5e5"]);
    play(&mut g, &["take"]);
    assert_eq!(g.setup().to_fen(), "4k3/8/8/4p3/8/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_lasts_the_whole_advanced_turn_and_no_longer() {
    let mut g = game(
        "4k3/p7/8/3pP3/8/8/7P/R3K3 w - d6 0 1",
        SkirmishOptions::advanced(),
    );
    play(&mut g, &["Ra1-a2"]);
    // After the movement the en-passant skirmish is still there.
    assert!(legal(&g).contains(&"e5d6".to_owned()));
    play(&mut g, &["end"]);
    assert_eq!(g.ep_square(), None);
    // Black's double step gives White an en-passant square for its turn.
    play(&mut g, &["a7-a5"]);
    assert_eq!(g.ep_square(), Some(Square::A6));
}

#[test]
fn promotion_on_a_won_capture_and_on_a_defenders_taking() {
    // The e7 pawn attacks the d8 Rook: 1 + roll + 1 against 5 + roll wins
    // only when its die is 4+ higher (3 rolls): 1/12; a win promotes.
    let mut g = game("3r2k1/4P3/8/8/8/8/8/6K1 w - - 0 1", basic());
    let a = g.parse_action("exd8=Q").unwrap();
    assert_eq!(
        g.odds(&a)[0].win_probability(),
        Probability::new(1, 12).unwrap()
    );
    g.apply(&a).unwrap();
    play(&mut g, &["roll:6-1"]);
    assert_eq!(g.board().role_at(Square::D8), Some(Role::Queen));
    // A defending pawn that takes the attacker's square on its last rank
    // promotes, its player choosing the piece.
    let mut g = game("6k1/8/8/8/8/8/3p4/2B3K1 w - - 0 1", basic());
    play(&mut g, &["Bxd2", "roll:1-6"]);
    assert_eq!(
        legal(&g),
        [
            "stay",
            "take:d2c1q",
            "take:d2c1r",
            "take:d2c1b",
            "take:d2c1n"
        ]
    );
    play(&mut g, &["take:d2c1n"]);
    assert_eq!(g.board().role_at(Square::C1), Some(Role::Knight));
    assert_eq!(g.board().color_at(Square::C1), Some(Color::Black));
}

#[test]
fn stalemate_is_a_draw() {
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", basic());
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
}

#[test]
fn dead_positions_are_drawn_unless_a_king_can_be_lost() {
    let g = game("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", basic());
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // With king-captures=skirmish the lone King could still lose itself
    // attacking the Bishop: play on.
    let o = SkirmishOptions {
        king_captures: KingCaptures::Skirmish,
        ..basic()
    };
    assert_eq!(game("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", o).outcome(), None);
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.repetitions(), 2);
    play(&mut g, &["Ng8"]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn fifty_moves_without_progress_draw_and_a_lost_attacker_is_progress() {
    let mut g = game("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", basic());
    play(&mut g, &["Ra2"]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    // A skirmish resets the count even when the attacker loses.
    let mut g = game("8/8/8/4k3/8/8/r7/R3K3 w - - 90 80", basic());
    play(&mut g, &["Rxa2", "roll:1-6", "stay"]);
    assert_eq!(g.halfmove_clock(), 0);
}

/// "Movement and objectives are as per the usual chess game": the fifty
/// moves draw at once (decision 16), also when the King is attacked at that
/// turn start; a check roll, whose result could change nothing, is not made
/// first. (Found by the differential test: the engine used to roll the
/// check and only then declare the draw.) A checkmate roll still comes
/// first, as chess's mate beats the fifty-move rule.
#[test]
fn fifty_moves_draw_at_once_even_with_the_king_attacked() {
    // The d4 Queen attacks the d8 King; the count reaches 100 at Black's
    // turn start.
    let mut g = game("3k4/8/8/8/3Q4/8/8/7K w - - 99 62", basic());
    play(&mut g, &["Kh2"]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    assert!(!common::is_chance(&g));
    // Checkmate at the same count: the checkmate roll is made.
    let g = game("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 62", basic());
    assert!(matches!(g.phase(), Phase::Roll(Pending::Mate(_))));
}

#[test]
fn a_king_that_skirmishes_and_loses_loses_the_game() {
    let o = SkirmishOptions {
        king_captures: KingCaptures::Skirmish,
        ..basic()
    };
    let mut g = game("4k3/7p/8/8/8/8/3n3P/4K3 w - - 0 1", o);
    let a = g.parse_action("Kxd2").unwrap();
    // King 4 + roll + 1 against Knight 3 + roll: lost only when the Knight's
    // die is 2+ higher: 26/36 = 13/18.
    assert_eq!(
        g.odds(&a)[0].win_probability(),
        Probability::new(13, 18).unwrap()
    );
    g.apply(&a).unwrap();
    play(&mut g, &["roll:1-6"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Team(1), EndReason::KingCaptured))
    );
}

#[test]
fn perft_matches_chess_while_no_capture_or_check_is_resolved() {
    // Within three plies of the start no skirmish or check roll can happen
    // before the last ply, where capture attempts count as moves.
    let g = Skirmish::new(&basic());
    assert_eq!(perft::perft(&g, 1), 20);
    assert_eq!(perft::perft(&g, 2), 400);
    assert_eq!(perft::perft(&g, 3), 8_902);
}

#[test]
fn check_rolls_and_skirmishes_are_chance_branches_in_perft() {
    // After 1.e4 d5 2.exd5: 36 rolls.
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5"]);
    assert_eq!(perft::perft(&g, 1), 36);
    // 21 of the rolls win (Black then has its moves), 15 lose and Black
    // chooses stay or take.
    let mut win = g.clone();
    play(&mut win, &["roll:6-1"]);
    let mut lose = g.clone();
    play(&mut lose, &["roll:1-6"]);
    assert_eq!(perft::perft(&g, 2), 21 * perft::perft(&win, 1) + 15 * 2);
    assert!(matches!(g.phase(), Phase::Roll(Pending::Capture(_))));
}
