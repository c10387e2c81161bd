//! One test per rule sentence of the book's ADVANCED GAME section, built
//! from its words (quoted above each test).

mod common;

use common::{game, is_chance, legal, play};
use tabula_chess::{Color, Role, Square};
use tabula_core::{Game, Player, Probability, ToAct};
use tabula_skirmish::{Mode, Pending, Phase, SkirmishAction, SkirmishOptions};

fn advanced() -> SkirmishOptions {
    SkirmishOptions::advanced()
}

fn p(n: u64, d: u64) -> Probability {
    Probability::new(n, d).unwrap()
}

/// White: Kg1, Rh1, Bb3, Nf3; Black: Kg8 and pawns d5, e5, h5. The Knight
/// reaches e5, the Bishop d5, the Rook h5.
const THREE_TARGETS: &str = "6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1";

fn quiet_moves(all: &[String]) -> Vec<String> {
    // Quiet chess moves of the position (none of the three captures).
    all.iter()
        .filter(|a| {
            !a.contains(':') && !["f3e5", "b3d5", "h1h5"].contains(&a.as_str()) && *a != "end"
        })
        .cloned()
        .collect()
}

/// "In this more skilled enhancement of the basic game, each player's turn
/// consists of: - a maximum of one Strategic or Tactical movement ..."
#[test]
fn advanced_turn_has_at_most_one_strategic_or_tactical_movement() {
    let mut g = game(THREE_TARGETS, advanced());
    assert!(!quiet_moves(&legal(&g)).is_empty());
    play(&mut g, &["Kg1-g2"]);
    // Still White's turn; no second movement of any kind.
    assert_eq!(g.turn(), Color::White);
    let mut left = legal(&g);
    left.sort();
    assert_eq!(left, ["b3d5", "end", "f3e5", "h1h5"]);
}

/// "... - an unlimited amount of Skirmishes by pieces that are already in
/// position."
#[test]
fn advanced_turn_allows_unlimited_skirmishes_by_pieces_already_in_position() {
    let mut g = game(THREE_TARGETS, advanced());
    play(
        &mut g,
        &["Nxe5", "roll:6-1", "Bxd5", "roll:6-1", "Rxh5", "roll:6-1"],
    );
    for sq in [Square::D5, Square::E5, Square::H5] {
        assert_eq!(g.board().color_at(sq), Some(Color::White), "{sq}");
    }
    // Three skirmishes, and the turn goes on: the movement is still to be
    // made (by a piece that has not attacked) or the turn ended.
    assert_eq!(g.turn(), Color::White);
    let all = legal(&g);
    assert!(all.contains(&"end".to_owned()));
    assert!(all.contains(&"g1g2".to_owned()));
    // The piece that made the movement is not "already in position": after
    // the movement it may not skirmish.
    let mut g = game("6k1/8/8/4p3/8/8/3N4/6K1 w - - 0 1", advanced());
    play(&mut g, &["Nd2-f3"]);
    assert!(!legal(&g).contains(&"f3e5".to_owned()));
}

/// "Strategic Movement.... A regular chess move from point A to point B
/// with no skirmishes involved."
#[test]
fn strategic_movement_is_a_regular_chess_move_with_no_skirmishes() {
    let mut g = game(THREE_TARGETS, advanced());
    // The quiet moves are the chess moves that capture nothing.
    let mut quiet = quiet_moves(&legal(&g));
    quiet.sort();
    let basic = game(THREE_TARGETS, SkirmishOptions::default());
    let mut chess_quiet: Vec<String> = legal(&basic)
        .into_iter()
        .filter(|a| !["f3e5", "b3d5", "h1h5"].contains(&a.as_str()))
        .collect();
    chess_quiet.sort();
    assert_eq!(quiet, chess_quiet);
    // A Strategic movement involves no dice.
    play(&mut g, &["Bb3-c2"]);
    assert!(!is_chance(&g));
    assert_eq!(g.board().role_at(Square::C2), Some(Role::Bishop));
    // A skirmish is not the movement: after one, the movement is still due.
    let mut g = game(THREE_TARGETS, advanced());
    play(&mut g, &["Nxe5", "roll:6-1"]);
    assert!(legal(&g).contains(&"b3c2".to_owned()));
    // ... but not by the piece that attacked.
    assert!(!legal(&g).iter().any(|a| a.starts_with("e5")));
}

/// White Rook a1, King g1; black pawns b2, b3, b6, King g8.
const ROOK_RUN: &str = "6k1/8/1p6/8/8/1p6/1p6/R5K1 w - - 0 1";

/// "Tactical Movement.... While making a Strategic Movement, a piece may
/// skirmish with any pieces on adjacent squares along the way from point A
/// to point B, except the final square."
#[test]
fn tactical_movement_skirmishes_with_pieces_adjacent_along_the_way_except_the_final_square() {
    let g = game(ROOK_RUN, advanced());
    let all = legal(&g);
    // a1 to a5: the way is a1, a2, a3, a4. b2 and b3 are beside it; b6 is
    // beside a5 only, the final square.
    assert!(all.contains(&"tac:a1a5:b2".to_owned()));
    assert!(all.contains(&"tac:a1a5:b3".to_owned()));
    assert!(!all.contains(&"tac:a1a5:b6".to_owned()));
    // Further along the way, b6 is beside a5 and a6.
    assert!(all.contains(&"tac:a1a7:b6".to_owned()));
    // One step to a2: the way is a1 alone; b3 touches only a2.
    assert!(all.contains(&"tac:a1a2:b2".to_owned()));
    assert!(!all.contains(&"tac:a1a2:b3".to_owned()));
    // Along the way the piece takes on one piece after another, in the
    // order of the way, and continues to B.
    let mut g = g.clone();
    play(&mut g, &["tac:a1a5:b2", "roll:6-1"]);
    assert_eq!(
        g.phase(),
        Phase::Tactical(tabula_skirmish::TacticalMove {
            from: Square::A1,
            to: Square::A5,
            promotion: None,
            at: 0,
        })
    );
    assert_eq!(legal(&g), ["hit:b3", "arrive"]);
    play(&mut g, &["hit:b3", "roll:6-1"]);
    // No target left: the Rook arrives on a5 and, nothing else to do, the
    // turn ends.
    assert_eq!(g.board().role_at(Square::A5), Some(Role::Rook));
    assert_eq!(g.board().piece_at(Square::B2), None);
    assert_eq!(g.board().piece_at(Square::B3), None);
    assert_eq!(g.board().role_at(Square::B6), Some(Role::Pawn));
    assert_eq!(g.turn(), Color::Black);
}

/// "The catch is that the attacking piece's value is halved(rounded down)
/// for the skirmishing portions of the move."
#[test]
fn tactical_skirmish_value_is_halved_rounded_down() {
    let g = game(ROOK_RUN, advanced());
    // Rook 5 -> 2: 2 + roll + 1 against the pawn's 1 + roll; the pawn wins
    // when its die is at least 2 higher (10 rolls): 26/36 = 13/18.
    let odds = g.odds(&"tac:a1a5:b3".parse().unwrap())[0];
    assert_eq!(
        (odds.attack_value, odds.bonus, odds.defence_value),
        (2, 1, 1)
    );
    assert_eq!(odds.win_probability(), p(13, 18));
    // Queen 9 -> 4, Knight and Bishop 3 -> 1, Pawn 1 -> 0 (each standing
    // still beside a black pawn).
    let g = game("6k1/8/8/2ppp3/2PQNB2/8/8/6K1 w - - 0 1", advanced());
    let all = legal(&g);
    let half = |text: &str| {
        assert!(all.contains(&text.to_owned()), "{text}");
        g.odds(&text.parse().unwrap())[0].attack_value
    };
    assert_eq!(half("tac:d4d4:d5"), 4);
    assert_eq!(half("tac:e4e4:d5"), 1);
    assert_eq!(half("tac:f4f4:e5"), 1);
    assert_eq!(half("tac:c4c4:d5"), 0);
    // A King that skirmishes (king-captures=skirmish) at value 4 -> 2.
    let o = SkirmishOptions {
        king_captures: tabula_skirmish::KingCaptures::Skirmish,
        ..advanced()
    };
    let g = game("6k1/8/8/8/8/8/5r2/6K1 w - - 0 1", o);
    assert_eq!(g.odds(&"tac:g1g1:f2".parse().unwrap())[0].attack_value, 2);
}

/// "This is also a technique used for attacking while remaining in the
/// same spot."
#[test]
fn tactical_movement_attacks_while_remaining_in_the_same_spot() {
    // The d4 Knight cannot capture e5 by a chess move, but it may skirmish
    // with it without moving: 1 + roll + 1 against 1 + roll, 21/36 = 7/12.
    let mut g = game("6k1/7p/8/4p3/3N4/8/7P/6K1 w - - 0 1", advanced());
    assert!(!legal(&g).contains(&"d4e5".to_owned()));
    let stay = "tac:d4d4:e5".parse().unwrap();
    assert_eq!(g.odds(&stay)[0].win_probability(), p(7, 12));
    assert_eq!(g.action_notation(&stay), "tac:Nd4-d4:xe5");
    g.apply(&stay).unwrap();
    play(&mut g, &["roll:6-1"]);
    assert_eq!(g.board().role_at(Square::D4), Some(Role::Knight));
    assert_eq!(g.board().piece_at(Square::E5), None);
    assert_eq!(g.turn(), Color::Black);
}

/// "This must be announced prior to the skirmish taking place (to enable
/// the piece value to be adjusted)."
#[test]
fn tactical_movement_is_announced_before_the_skirmish_takes_place() {
    let mut g = game(ROOK_RUN, advanced());
    // The announcement names the movement (A, B) and the first target; the
    // roll that follows already uses the halved value.
    play(&mut g, &["tac:Ra1-a5:xb3"]);
    assert!(matches!(g.phase(), Phase::Roll(Pending::Tactical { .. })));
    assert_eq!(g.pending_odds().unwrap().attack_value, 2);
    // Lost on the way: the Rook is captured from a2, the first square of the
    // way beside b3; the pawn may take that square.
    play(&mut g, &["roll:1-6"]);
    assert_eq!(g.board().piece_at(Square::A1), None);
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    assert_eq!(legal(&g), ["stay", "take:b3a2"]);
    // Once announced, the destination stands: after a win only the next
    // target or the arrival on a5 may follow.
    let mut g = game(ROOK_RUN, advanced());
    play(&mut g, &["tac:a1a5:b3", "roll:6-1"]);
    assert_eq!(legal(&g), ["hit:b2", "arrive"]);
    assert!(g.clone().apply(&"a1a7".parse().unwrap()).is_err());
}

/// White Rook d1, King g1; black pawns a7, a5, d5, King g8.
const CHAIN: &str = "6k1/p7/8/p2p4/8/8/8/3R2K1 w - - 0 1";

/// "Sequential Skirmish.... After a successful skirmish, the attacking
/// piece may subsequently attack a new piece from its new position, ..."
#[test]
fn sequential_skirmish_attacks_a_new_piece_from_the_new_position() {
    let mut g = game(CHAIN, advanced());
    // From d1 the Rook reaches d5 only.
    assert!(!legal(&g).contains(&"d1a5".to_owned()));
    play(&mut g, &["Rxd5", "roll:6-1"]);
    // From d5 it reaches a5: a second attack, marked /2.
    let second = g.parse_action("d5a5").unwrap();
    assert_eq!(g.action_notation(&second), "Rd5xa5/2");
    play(&mut g, &["Rd5xa5/2", "roll:6-1", "Ra5xa7/3", "roll:6-1"]);
    assert_eq!(g.board().role_at(Square::A7), Some(Role::Rook));
    assert_eq!(g.turn_state().attacks.get(Square::A7), 3);
    // A piece that lost is gone: no chain from there.
    let mut g = game(CHAIN, advanced());
    play(&mut g, &["Rxd5", "roll:1-6", "stay"]);
    assert_eq!(g.board().pieces(Color::White, Role::Rook).count(), 0);
}

/// "... however, the Attack Bonus is decreased by half the attacking
/// piece's original value (rounded up) with each new attack."
#[test]
fn sequential_attack_bonus_falls_by_half_the_original_value_rounded_up_with_each_new_attack() {
    let mut g = game(CHAIN, advanced());
    // First attack: 5 + roll + 1 against 1 + roll: lost only on a 1 against
    // a 6 (a tie): 35/36.
    let first = g.odds(&"d1d5".parse().unwrap())[0];
    assert_eq!(first.bonus, 1);
    assert_eq!(first.win_probability(), p(35, 36));
    play(&mut g, &["Rxd5", "roll:6-1"]);
    // Second: bonus 1 - ceil(5/2) = -2: 5 + roll - 2 against 1 + roll, lost
    // when the pawn's die is 2 or more higher (10 rolls): 26/36 = 13/18.
    let second = g.odds(&"d5a5".parse().unwrap())[0];
    assert_eq!(second.bonus, -2);
    assert_eq!(second.win_probability(), p(13, 18));
    play(&mut g, &["d5a5", "roll:6-1"]);
    // Third: bonus 1 - 2*3 = -5: won only when the Rook's die is 2 or more
    // higher: 10/36 = 5/18.
    let third = g.odds(&"a5a7".parse().unwrap())[0];
    assert_eq!(third.bonus, -5);
    assert_eq!(third.win_probability(), p(5, 18));
    // The alternative reading (sequential=flat): every later attack -3.
    let flat = SkirmishOptions {
        sequential: tabula_skirmish::Sequential::Flat,
        ..advanced()
    };
    let mut g = game(CHAIN, flat);
    play(&mut g, &["Rxd5", "roll:6-1", "d5a5", "roll:6-1"]);
    assert_eq!(g.odds(&"a5a7".parse().unwrap())[0].bonus, -2);
}

/// White Queen d4; black pawns c5, e5, d6 (all reachable), King g8.
const FORK: &str = "6k1/8/3p4/2p1p3/3Q4/8/8/6K1 w - - 0 1";

/// "Divided Skirmish.... An attacking piece may simultaneously attack any
/// targets it can reach from it's original position, ..."
#[test]
fn divided_skirmish_attacks_targets_reachable_from_the_original_position() {
    let g = game(FORK, advanced());
    let mut divided: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("div:"))
        .collect();
    divided.sort();
    assert_eq!(
        divided,
        [
            "div:d4:c5,d6",
            "div:d4:c5,e5",
            "div:d4:c5,e5,d6",
            "div:d4:e5,d6"
        ]
    );
    // b6 is behind c5: not reachable from d4.
    let g = game("6k1/8/1p1p4/2p1p3/3Q4/8/8/6K1 w - - 0 1", advanced());
    assert!(g.parse_action("div:d4:b6,c5").is_err());
}

/// "... however the piece's Value for the skirmish is divided by the number
/// of attacks to be made (rounded down)."
#[test]
fn divided_skirmish_value_is_divided_by_the_number_of_attacks_rounded_down() {
    let g = game(FORK, advanced());
    // Three targets: 9 / 3 = 3. 3 + roll + 1 against 1 + roll: lost when
    // the pawn's die is 3 or more higher (6 rolls): 30/36 = 5/6 each.
    let three = g.odds(&"div:d4:c5,e5,d6".parse().unwrap());
    assert_eq!(three.len(), 3);
    assert!(
        three
            .iter()
            .all(|o| o.attack_value == 3 && o.win_probability() == p(5, 6))
    );
    // Two targets: 9 / 2 = 4 (rounded down): lost on 4+ higher (3 rolls):
    // 33/36 = 11/12.
    let two = g.odds(&"div:d4:c5,e5".parse().unwrap());
    assert!(
        two.iter()
            .all(|o| o.attack_value == 4 && o.win_probability() == p(11, 12))
    );
}

/// "The piece may be placed on any of the won squares if it wins all the
/// skirmishes, ..."
#[test]
fn divided_skirmish_winner_may_be_placed_on_any_won_square() {
    let mut g = game(FORK, advanced());
    play(
        &mut g,
        &["div:d4:c5,e5,d6", "roll:6-1", "roll:6-1", "roll:6-1"],
    );
    assert!(matches!(g.phase(), Phase::Place { .. }));
    assert_eq!(legal(&g), ["place:c5", "place:e5", "place:d6"]);
    play(&mut g, &["place:d6"]);
    assert_eq!(g.board().role_at(Square::D6), Some(Role::Queen));
    assert_eq!(g.board().by_color(Color::Black).count(), 1);
}

/// "... but is given to the defender if it loses any of them."
#[test]
fn divided_skirmish_piece_is_given_to_the_defender_if_it_loses_any() {
    let mut g = game(FORK, advanced());
    // Rolled lowest square first: c5 won, e5 lost, d6 won.
    play(
        &mut g,
        &["div:d4:c5,e5,d6", "roll:6-1", "roll:1-6", "roll:6-1"],
    );
    assert_eq!(g.board().piece_at(Square::D4), None);
    assert_eq!(g.board().piece_at(Square::C5), None);
    assert_eq!(g.board().piece_at(Square::D6), None);
    assert_eq!(g.board().role_at(Square::E5), Some(Role::Pawn));
    // The defender that beat it decides: stay, or take d4.
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    assert_eq!(legal(&g), ["stay", "take:e5d4"]);
    play(&mut g, &["take:e5d4"]);
    assert_eq!(g.board().color_at(Square::D4), Some(Color::Black));
}

/// "The attacking player must announce which pieces he will be attempting
/// to capture, prior to the attack."
#[test]
fn divided_skirmish_targets_are_announced_prior_to_the_attack() {
    let mut g = game(FORK, advanced());
    let a = g.parse_action("div:Qd4:xc5,xe5").unwrap();
    assert_eq!(a.to_string(), "div:d4:c5,e5");
    g.apply(&a).unwrap();
    // Announced: the rolls follow for exactly those targets, d6 untouched.
    let Phase::Roll(Pending::Divided { targets, .. }) = g.phase() else {
        panic!("a divided skirmish roll");
    };
    assert_eq!(targets, Square::C5.bitboard() | Square::E5.bitboard());
    play(&mut g, &["roll:6-1", "roll:6-1"]);
    assert_eq!(g.board().role_at(Square::D6), Some(Role::Pawn));
    assert_eq!(legal(&g), ["place:c5", "place:e5"]);
    let _ = (Mode::Advanced, SkirmishAction::End);
}
