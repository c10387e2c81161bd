//! The readings taken where the book is silent (`docs/rules/skirmish.md`,
//! "Decisions"), one test each.

mod common;

use common::{game, legal, play};
use tabula_chess::{Color, Role, Square};
use tabula_core::{Game, Player, ToAct};
use tabula_skirmish::{Pending, Phase, Relocation, SkirmishOptions, path};

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

fn advanced() -> SkirmishOptions {
    SkirmishOptions::advanced()
}

#[test]
fn relocation_free_or_only_by_a_move_of_the_defenders_own_kind() {
    // The d5 Bishop beats the f4 Knight: f4 is not on its diagonals.
    let fen = "4k3/7p/8/3b4/5N2/8/7P/4K3 w - - 0 1";
    let mut g = game(fen, basic());
    play(&mut g, &["Nxd5", "roll:1-6"]);
    assert_eq!(legal(&g), ["stay", "take:d5f4"]);
    let reachable = SkirmishOptions {
        relocation: Relocation::Reachable,
        ..basic()
    };
    let mut g = game(fen, reachable);
    play(&mut g, &["Nxd5", "roll:1-6"]);
    // Nothing to decide: the Bishop stays and Black plays on.
    assert_eq!(g.phase(), Phase::Act);
    assert_eq!(g.turn(), Color::Black);
    // From c4 the Bishop's own diagonal reaches back: taking is offered.
    let mut g = game("4k3/7p/8/3b4/2B5/8/7P/4K3 w - - 0 1", reachable);
    play(&mut g, &["Bxd5", "roll:1-6"]);
    assert_eq!(legal(&g), ["stay", "take:d5c4"]);
}

#[test]
fn a_take_that_would_expose_the_defenders_own_king_is_not_offered() {
    // The e6 Knight is pinned to its King by the e1 Rook.
    let mut g = game("4k3/8/4n3/3P4/8/8/8/4R1K1 w - - 0 1", basic());
    play(&mut g, &["dxe6", "roll:1-6"]);
    assert_eq!(g.phase(), Phase::Act);
    assert_eq!(g.turn(), Color::Black);
    assert_eq!(g.board().role_at(Square::E6), Some(Role::Knight));
}

#[test]
fn a_lost_attacker_that_uncovers_its_own_king_leaves_it_to_the_next_check_roll() {
    // The e2 Rook attacks the e8 Rook and loses: the file opens onto e1.
    let mut g = game("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1", basic());
    play(&mut g, &["Rxe8", "roll:1-6", "stay"]);
    // Black may not take the King; it plays on.
    assert!(!legal(&g).iter().any(|a| a == "e8e1"));
    play(&mut g, &["Kb8"]);
    // White's turn starts with a check roll: Rook 5 + roll + 1 against the
    // King's 4 + roll.
    assert!(matches!(g.phase(), Phase::Roll(Pending::Check(_))));
    assert_eq!(g.pending_odds().unwrap().attack_value, 5);
}

#[test]
fn a_king_excused_by_its_check_roll_stays_excused_for_the_whole_advanced_turn() {
    let mut g = game("r3k3/8/8/8/1b6/8/7P/R3K3 w Q - 0 1", advanced());
    play(&mut g, &["roll:1-6", "h2-h3"]);
    // After ignoring the check with the movement, the a1 Rook may still
    // skirmish while the excused Bishop attacks the King.
    assert!(legal(&g).contains(&"a1a8".to_owned()));
    play(&mut g, &["Rxa8", "roll:6-1"]);
    assert_eq!(g.board().role_at(Square::A8), Some(Role::Rook));
}

#[test]
fn a_king_capturing_in_the_normal_manner_captures_once_a_turn_and_never_tactically() {
    let mut g = game("4k3/7p/8/8/8/8/3nn2P/4K3 w - - 0 1", advanced());
    let all = legal(&g);
    assert!(all.contains(&"e1d2".to_owned()) && all.contains(&"e1e2".to_owned()));
    assert!(
        !all.iter()
            .any(|a| a.starts_with("tac:e1") || a.starts_with("div:e1"))
    );
    play(&mut g, &["Kxd2"]);
    assert!(!legal(&g).contains(&"d2e2".to_owned()));
}

#[test]
fn a_lost_tactical_movement_uses_up_the_turns_movement() {
    let mut g = game("6k1/8/1p6/8/8/1p6/1p6/R5K1 w - - 0 1", advanced());
    play(&mut g, &["tac:a1a5:b3", "roll:1-6", "stay"]);
    // No movement left for the King, nothing to skirmish: the turn ended.
    assert_eq!(g.turn(), Color::Black);
}

#[test]
fn a_piece_that_has_skirmished_may_not_make_the_movement_and_the_order_is_free() {
    let mut g = game("6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1", advanced());
    play(&mut g, &["Nxe5", "roll:6-1"]);
    let all = legal(&g);
    assert!(!all.iter().any(|a| a.starts_with("e5")));
    assert!(all.contains(&"b3c2".to_owned()));
    // The movement after a skirmish, then another skirmish.
    play(&mut g, &["Bb3-c2", "Rxh5", "roll:6-1"]);
    assert_eq!(g.board().role_at(Square::H5), Some(Role::Rook));
}

#[test]
fn the_way_of_each_kind_of_movement() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let squares = |from: &str, to: &str| -> Vec<String> {
        path(sq(from), sq(to))
            .squares()
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    // Sliders: A and every square passed, not B.
    assert_eq!(squares("a1", "a5"), ["a1", "a2", "a3", "a4"]);
    assert_eq!(squares("h8", "c3"), ["h8", "g7", "f6", "e5", "d4"]);
    // A pawn's double step passes one square; single steps, King steps and
    // Knight leaps have A alone; so has remaining in the same spot.
    assert_eq!(squares("e2", "e4"), ["e2", "e3"]);
    assert_eq!(squares("e2", "e3"), ["e2"]);
    assert_eq!(squares("e1", "f2"), ["e1"]);
    assert_eq!(squares("b3", "d4"), ["b3"]);
    assert_eq!(squares("d4", "d4"), ["d4"]);
    // A Knight skirmishes only from where it starts: c4 is beside b3, c5
    // only beside d4, the final square.
    let g = game("6k1/8/8/2p5/2p5/1N6/8/6K1 w - - 0 1", advanced());
    let all = legal(&g);
    assert!(all.contains(&"tac:b3d4:c4".to_owned()));
    assert!(!all.contains(&"tac:b3d4:c5".to_owned()));
    // Adjacent means the eight neighbours whatever the piece's capture: a
    // pawn may skirmish sideways and backwards on the way.
    let g = game("6k1/8/8/8/8/2pp4/3P4/6K1 w - - 0 1", advanced());
    let all = legal(&g);
    assert!(all.contains(&"tac:d2d2:c3".to_owned()));
    assert!(all.contains(&"tac:d2d2:d3".to_owned()));
}

#[test]
fn the_defender_decides_in_the_attackers_turn_and_the_turn_then_goes_on() {
    // Advanced: after the defender's choice the attacker continues.
    let mut g = game("6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1", advanced());
    play(&mut g, &["Nxe5", "roll:1-6"]);
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    play(&mut g, &["take"]);
    assert_eq!(g.board().color_at(Square::F3), Some(Color::Black));
    assert_eq!(g.to_act(), ToAct::Player { player: Player(0) });
    assert!(legal(&g).contains(&"b3d5".to_owned()));
}
