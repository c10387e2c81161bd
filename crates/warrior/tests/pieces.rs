//! How each piece moves and captures: Kings, unarmed Warriors, each weapon
//! and every combination the book lists.

mod common;

use common::*;
use tabula_core::Game;
use tabula_warrior::{Action, Facing, Warrior};

fn sq(s: &str) -> tabula_warrior::Square {
    s.parse().unwrap()
}

/// "Kings move and capture as in Usual Chess: One square in any direction,
/// horizontally, vertically and diagonally."
#[test]
fn kings_move_one_square_any_direction_and_capture() {
    let g = red_with(&[("e2", "BW"), ("d2", "RW")], 1);
    assert_eq!(targets(&g, "e1"), ["d1", "f1", "f2", "xe2"]);
    let g = red_to_move(&board(&[("d4", "RK"), ("d8", "BK")]), 1);
    assert_eq!(
        targets(&g, "d4"),
        ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
    );
}

/// "Warriors move as Kings, but cannot capture."
#[test]
fn unarmed_warriors_move_like_kings_and_cannot_capture() {
    let mut g = red_with(&[("d4", "RW"), ("e5", "BW")], 1);
    assert_eq!(
        targets(&g, "d4"),
        ["c3", "c4", "c5", "d3", "d5", "e3", "e4"]
    );
    let e = refused(&mut g, "d4xe5");
    assert!(e.contains("cannot go to e5"), "{e}");
}

/// "Once equipped with a weapon, a Warrior loses its "King's movement" and
/// adopts its weapon's movement."
#[test]
fn an_armed_warrior_loses_the_kings_movement() {
    let g = red_with(&[("d4", "RWr")], 1);
    let t = targets(&g, "d4");
    for diagonal in ["c3", "c5", "e3", "e5"] {
        assert!(!t.contains(&diagonal.to_owned()), "{t:?}");
    }
    let g = red_with(&[("d4", "RWb")], 1);
    let t = targets(&g, "d4");
    for orthogonal in ["c4", "d3", "d5", "e4"] {
        assert!(!t.contains(&orthogonal.to_owned()), "{t:?}");
    }
}

/// "With Swords, a Warrior now can make a non-capturing move one square
/// horizontally or vertically and can capture opponent pieces if they occupy
/// either of the two adjacent diagonal squares that the Swords piece faces."
#[test]
fn swords_step_orthogonally_and_capture_on_the_two_diagonals_faced() {
    let pieces = [
        ("c5", "BW"),
        ("e5", "BW"),
        ("c3", "BW"),
        ("e3", "BW"),
        ("d5", "BW"),
    ];
    let mut all = vec![("d4", "RWsN")];
    all.extend_from_slice(&pieces);
    let g = red_with(&all, 1);
    // d5 holds an opponent: no quiet move there, and no capture either.
    assert_eq!(targets(&g, "d4"), ["c4", "d3", "e4", "xc5", "xe5"]);
    all[0] = ("d4", "RWsE");
    let g = red_with(&all, 1);
    assert_eq!(targets(&g, "d4"), ["c4", "d3", "e4", "xe3", "xe5"]);
    all[0] = ("d4", "RWsS");
    let g = red_with(&all, 1);
    assert_eq!(targets(&g, "d4"), ["c4", "d3", "e4", "xc3", "xe3"]);
    all[0] = ("d4", "RWsW");
    let g = red_with(&all, 1);
    assert_eq!(targets(&g, "d4"), ["c4", "d3", "e4", "xc3", "xc5"]);
}

/// "Also, when moving a Warrior with Swords, a player needs to place the
/// Warrior so that the Swords face toward the two squares he wishes it to
/// attack."
#[test]
fn a_moving_swords_piece_chooses_its_new_facing() {
    let mut g = red_with(&[("d4", "RWsN")], 1);
    let to_c4: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("d4-c4"))
        .collect();
    assert_eq!(to_c4, ["d4-c4N", "d4-c4E", "d4-c4S", "d4-c4W"]);
    play(&mut g, "d4-c4S");
    assert_eq!(g.piece(sq("c4")).unwrap().facing, Some(Facing::South));
}

/// The facing is chosen on every move of a piece carrying Swords, including
/// a Rook/Swords moving as a Rook (decision D7).
#[test]
fn a_rook_swords_moving_as_a_rook_also_chooses_its_facing() {
    let mut g = red_with(&[("a2", "RWrsN")], 1);
    assert!(is_legal(&g, "a2-a6W"));
    play(&mut g, "a2-a6W");
    assert_eq!(g.piece(sq("a6")).unwrap().facing, Some(Facing::West));
}

/// "A Warrior with Swords can only change the direction the Swords face when
/// moving to a new square (no swiveling in place)."
#[test]
fn swords_never_swivel_in_place() {
    let g = red_with(&[("d4", "RWsN")], 1);
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    assert!(actions.iter().all(|a| match *a {
        Action::Move { from, to, .. } | Action::Capture { from, to, .. } => from != to,
        _ => true,
    }));
    // Arming a second, different weapon leaves the facing as it was.
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("d4", "RWsE")]),
        'R',
        "arm",
        &[0, 0],
        &["r1", "-"],
        &["-", "-"],
    );
    assert!(legal(&g).contains(&"R@d4".to_owned()));
    assert!(
        !legal(&g)
            .iter()
            .any(|a| a.starts_with("R@d4") && a.len() > 4)
    );
    play(&mut g, "R@d4");
    assert_eq!(g.piece(sq("d4")).unwrap().facing, Some(Facing::East));
}

/// "Bishops move and capture as in usual Chess: In straight diagonal lines."
#[test]
fn bishops_move_and_capture_diagonally_and_are_blocked() {
    let g = red_with(&[("d4", "RWb"), ("f6", "RW"), ("b6", "BW")], 1);
    assert_eq!(
        targets(&g, "d4"),
        ["a1", "b2", "c3", "c5", "e3", "e5", "f2", "g1", "xb6"]
    );
}

/// "Knights move and capture as in usual chess ... The Knight is the only
/// weapon that has the ability to jump over other pieces."
#[test]
fn knights_jump_over_pieces() {
    let g = red_to_move(
        &board(&[
            ("d8", "BK"),
            ("d4", "RWn"),
            ("c3", "RW"),
            ("c4", "RW"),
            ("c5", "RW"),
            ("d3", "RW"),
            ("d5", "RW"),
            ("e3", "RK"),
            ("e4", "RW"),
            ("e5", "BW"),
            ("f5", "BW"),
        ]),
        1,
    );
    assert_eq!(
        targets(&g, "d4"),
        ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "xf5"]
    );
}

/// "Rooks move and capture as in usual chess: In straight lines,
/// horizontally and vertically."
#[test]
fn rooks_move_and_capture_orthogonally_and_are_blocked() {
    let g = red_with(&[("d4", "RWr"), ("d6", "RW"), ("g4", "BW")], 1);
    assert_eq!(
        targets(&g, "d4"),
        ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "e4", "f4", "xg4"]
    );
}

/// A position with pieces to block and to capture around d4, holding the
/// piece `token` on d4.
fn around_d4(token: &str) -> Warrior {
    red_to_move(
        &board(&[
            ("e1", "RK"),
            ("h8", "BK"),
            ("d4", token),
            ("d7", "RW"),
            ("b6", "BW"),
            ("c5", "BW"),
            ("f4", "BW"),
            ("e3", "BW"),
            ("f5", "RW"),
            ("b3", "BW"),
        ]),
        1,
    )
}

fn union(a: &str, b: &str) -> Vec<String> {
    let mut t = targets(&around_d4(a), "d4");
    t.extend(targets(&around_d4(b), "d4"));
    t.sort();
    t.dedup();
    t
}

fn moves_as_either(combined: &str, a: &str, b: &str) {
    let t = targets(&around_d4(combined), "d4");
    assert_eq!(t, union(a, b), "{combined} = {a} + {b}");
    assert!(t.len() > targets(&around_d4(a), "d4").len());
    assert!(t.len() > targets(&around_d4(b), "d4").len());
}

/// "Rook/Bishop: Combined piece gives a traditional Queen's movement."
#[test]
fn rook_bishop_moves_as_a_queen() {
    moves_as_either("RWrb", "RWr", "RWb");
    let t = targets(&around_d4("RWrb"), "d4");
    assert!(t.contains(&"xc5".to_owned()) && t.contains(&"xf4".to_owned()));
}

/// "Rook /Knight: Combined piece gives a Chancellor's movement."
#[test]
fn rook_knight_moves_as_a_chancellor() {
    moves_as_either("RWrn", "RWr", "RWn");
}

/// "Bishop/ Knight: Combined piece gives a Cardinal's movement."
#[test]
fn bishop_knight_moves_as_a_cardinal() {
    moves_as_either("RWnb", "RWn", "RWb");
}

/// "Rook /Swords: Combined piece can move and capture as either a Rook or a
/// Warrior with Swords."
#[test]
fn rook_swords_moves_as_either() {
    for f in ["N", "E", "S", "W"] {
        moves_as_either(&format!("RWrs{f}"), "RWr", &format!("RWs{f}"));
    }
}

/// "Bishop/Swords: Combined piece can move and capture as either a Bishop or
/// a Warrior with Swords."
#[test]
fn bishop_swords_moves_as_either() {
    for f in ["N", "E", "S", "W"] {
        moves_as_either(&format!("RWbs{f}"), "RWb", &format!("RWs{f}"));
    }
}

/// "Knight /Swords: Combined piece can move and capture as either a Knight
/// or a Warrior with Swords."
#[test]
fn knight_swords_moves_as_either() {
    for f in ["N", "E", "S", "W"] {
        moves_as_either(&format!("RWns{f}"), "RWn", &format!("RWs{f}"));
    }
}

/// "Swords /Swords: ... capture an opponent piece occupying any of the 4
/// adjacent diagonal squares and can make a non-capturing move 1 or 2
/// squares either horizontally or vertically."
#[test]
fn swords_swords_captures_on_all_four_diagonals_and_steps_one_or_two() {
    let g = red_with(
        &[
            ("d4", "RWss"),
            ("c5", "BW"),
            ("e5", "BW"),
            ("c3", "BW"),
            ("e3", "BW"),
        ],
        1,
    );
    assert_eq!(
        targets(&g, "d4"),
        [
            "b4", "c4", "d2", "d3", "d5", "d6", "e4", "f4", "xc3", "xc5", "xe3", "xe5"
        ]
    );
    // No facing to choose for doubled Swords.
    assert!(legal(&g).contains(&"d4-d6".to_owned()));
}

/// Decision D6: the two-square step never passes over a piece ("The Knight
/// is the only weapon that has the ability to jump over other pieces").
#[test]
fn swords_swords_cannot_step_over_a_piece() {
    let g = red_with(&[("d4", "RWss"), ("d5", "RW"), ("e4", "BW")], 1);
    assert_eq!(targets(&g, "d4"), ["b4", "c4", "d2", "d3"]);
}

/// An armed piece captures any of the opponent's pieces, armed or not, and
/// the King.
#[test]
fn armed_pieces_capture_warriors_and_kings() {
    let g = red_with(&[("d2", "RWr"), ("d5", "BWb")], 1);
    assert_eq!(targets(&g, "d2").last().unwrap(), "xd5");
    let g = red_with(&[("d2", "RWr")], 1);
    assert!(targets(&g, "d2").contains(&"xd8".to_owned()));
}

/// Strategy Guide: "Rook/Swords ... note that it controls the three adjacent
/// squares its Swords face" (the two diagonals and, as a Rook, the square
/// between them): the facing is one of four sides, each with two diagonals.
#[test]
fn rook_swords_controls_the_three_adjacent_squares_its_swords_face() {
    let g = red_with(
        &[("d4", "RWrsN"), ("c5", "BW"), ("d5", "BW"), ("e5", "BW")],
        1,
    );
    let captures: Vec<String> = targets(&g, "d4")
        .into_iter()
        .filter(|t| t.starts_with('x'))
        .collect();
    assert_eq!(captures, ["xc5", "xd5", "xe5"]);
}

/// Strategy Guide: "the Knight/Swords piece when placed away from the edge
/// of the board can attack 10 squares at once and cannot be blocked."
#[test]
fn knight_swords_attacks_ten_squares_away_from_the_edge() {
    let mut pieces = vec![
        ("e1", "RK"),
        ("a4", "BK"),
        ("d8", "GK"),
        ("h5", "YK"),
        ("d4", "RWnsN"),
        ("c5", "YW"),
        ("e5", "YW"),
    ];
    for s in ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"] {
        pieces.push((s, "BW"));
    }
    let g = setup(
        &four(),
        &board(&pieces),
        'R',
        "move",
        &[0, 0, 0, 0],
        &["-", "-", "-", "-"],
        &["-", "-", "-", "-"],
    );
    let t = targets(&g, "d4");
    assert_eq!(t.iter().filter(|t| t.starts_with('x')).count(), 10);
    assert_eq!(t.len(), 10 + 4, "and the four quiet Swords steps");
}

/// With no check rule, Kings may stand side by side, and a King captures a
/// King like any other piece.
#[test]
fn a_king_may_capture_a_king() {
    let mut g = red_to_move(&board(&[("e1", "RK"), ("e2", "BK")]), 1);
    play(&mut g, "e1xe2");
    assert_eq!(
        g.outcome(),
        Some(tabula_core::Outcome::win(
            tabula_core::Team(0),
            tabula_core::EndReason::KingCaptured
        ))
    );
}
