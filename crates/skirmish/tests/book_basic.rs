//! One test per rule sentence of the book's opening, skirmish and Basic
//! game sections (`shared/rules/skirmish-chess.txt`), built from its words.
//! The sentence is quoted above each test; `docs/rules/skirmish.md` maps
//! every sentence to its test.

mod common;

use common::{actions, game, is_chance, legal, outcomes, play};
use tabula_chess::{Chess, ChessOptions, Position, Role, Square};
use tabula_core::{EndReason, Game, Outcome, Player, Probability, Team, ToAct};
use tabula_skirmish::{Pending, Phase, Skirmish, SkirmishAction, SkirmishOptions, Verdict};

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

fn p(n: u64, d: u64) -> Probability {
    Probability::new(n, d).unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The legal moves standard chess allows, in UCI.
fn chess_moves(fen: &str) -> Vec<String> {
    let chess = Chess::from_text(fen, &ChessOptions::default()).unwrap();
    let mut v = Vec::new();
    chess.legal_actions(&mut v);
    sorted(v.iter().map(|a| a.to_string()).collect())
}

/// "Movement and objectives are as per the usual chess game."
#[test]
fn movement_and_objectives_are_as_per_the_usual_chess_game() {
    // Movement: wherever no King is in check, the Basic game offers exactly
    // the chess moves (captures being skirmish attempts), castling, en
    // passant and promotions included.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    ] {
        let g = game(fen, basic());
        assert_eq!(sorted(legal(&g)), chess_moves(fen), "{fen}");
    }
    // Objective: checkmate. Fool's mate: the Queen's checkmate roll
    // (9 + roll + 1 against the King's 4 + roll) cannot fail, so it is a
    // given and Black wins by checkmate.
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["f3", "e5", "g4", "Qh4"]);
    assert!(matches!(g.phase(), Phase::Roll(Pending::Mate(_))));
    assert_eq!(outcomes(&g), ["given"]);
    play(&mut g, &["given"]);
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(1), EndReason::Checkmate)
        }
    );
    assert_eq!(
        g.describe_outcome(&g.outcome().unwrap()),
        "Black wins by checkmate"
    );
}

/// "'Skirmishing' replaces 'capturing' and is more complex: the winner of a
/// skirmish is decided by both players rolling the bones..."
#[test]
fn skirmishing_replaces_capturing_both_players_roll_the_bones() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5"]);
    // No capture: a chance node whose outcomes are both players' rolls.
    assert!(is_chance(&g));
    assert!(matches!(g.phase(), Phase::Roll(Pending::Capture(_))));
    assert_eq!(g.board().role_at(Square::D5), Some(Role::Pawn));
    assert_eq!(g.board().role_at(Square::E4), Some(Role::Pawn));
    let tabula_core::ChanceModel::Exact(list) = g.chance() else {
        panic!("dice are listed exactly");
    };
    assert_eq!(list.len(), 36);
    assert!(list.iter().all(|(_, q)| *q == p(1, 36)));
    assert!(list.contains(&(
        SkirmishAction::Roll {
            attacker: 3,
            defender: 5
        },
        p(1, 36)
    )));
}

/// "Attacking Piece Value* + Roll + Attack Bonus** .versus. Defending Piece
/// Value + Roll."
#[test]
fn attacking_value_plus_roll_plus_bonus_versus_defending_value_plus_roll() {
    // White Rook (5) attacks a black Knight (3); bonus 1.
    let g0 = game("4k3/8/8/8/4n3/8/8/4R1K1 w - - 0 1", basic());
    let odds = g0.odds(&g0.parse_action("Rxe4").unwrap())[0];
    assert_eq!(
        (odds.attack_value, odds.bonus, odds.defence_value),
        (5, 1, 3)
    );
    // Rook rolls 2: 5 + 2 + 1 = 8; Knight rolls 5: 3 + 5 = 8. A tie: the
    // defender holds (the default tie rule).
    assert_eq!(odds.attack_total(2), 8);
    assert_eq!(odds.defence_total(5), 8);
    assert_eq!(odds.verdict(2, 5), Verdict::Defender);
    // Rook rolls 3: 9 > 8, the attacker wins.
    assert_eq!(odds.verdict(3, 5), Verdict::Attacker);
    let mut g = g0.clone();
    play(&mut g, &["Rxe4", "roll:3-5"]);
    assert_eq!(g.board().role_at(Square::E4), Some(Role::Rook));
    let mut g = g0.clone();
    play(&mut g, &["Rxe4", "roll:2-5"]);
    assert_eq!(g.board().role_at(Square::E1), None);
    assert_eq!(g.board().role_at(Square::E4), Some(Role::Knight));
}

/// "The attacker is, of course, the player whose turn it is."
#[test]
fn the_attacker_is_the_player_whose_turn_it_is() {
    // Black to move: the black pawn attacks the white Knight and gets the
    // Attack Bonus; 1 + roll + 1 against 3 + roll wins when Black's die is
    // at least 2 higher: 4+3+2+1 = 10 of 36 rolls, 5/18.
    let mut g = game("4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1", basic());
    let attack = g.parse_action("dxe4").unwrap();
    let odds = g.odds(&attack)[0];
    assert_eq!(
        (odds.attack_value, odds.bonus, odds.defence_value),
        (1, 1, 3)
    );
    assert_eq!(odds.win_probability(), p(5, 18));
    g.apply(&attack).unwrap();
    assert_eq!(g.turn(), tabula_chess::Color::Black);
    // The white Knight cannot attack out of turn.
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    assert!(v.is_empty());
    assert!(g.clone().apply(&"e4d6".parse().unwrap()).is_err());
}

/// "The attacking piece must be able to reach the defending piece in a
/// single move."
#[test]
fn the_attacking_piece_must_be_able_to_reach_the_defending_piece_in_a_single_move() {
    // The a1 Rook is blocked by its own pawn; the Knight reaches d4.
    let g = game("4k3/n7/8/8/3n4/1N6/P7/R3K3 w - - 0 1", basic());
    let all = legal(&g);
    assert!(all.contains(&"b3d4".to_owned()));
    assert!(!all.iter().any(|a| a == "a1a7"));
    assert!(matches!(
        g.parse_action("a1a7"),
        Err(tabula_skirmish::ActionError::Illegal { .. })
    ));
    assert!(g.clone().apply(&"a1a7".parse().unwrap()).is_err());
    assert!(g.clone().apply(&"b3d4".parse().unwrap()).is_ok());
}

/// "If the attacker wins the skirmish, the defender gives up the piece and
/// the defender's square is then occupied by the attacker; thus far
/// identical to a standard capture move."
#[test]
fn attacker_wins_the_defender_gives_up_the_piece_and_the_attacker_occupies_its_square() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5", "roll:6-1"]);
    // Exactly the position of chess after 1.e4 d5 2.exd5.
    let mut pos = Position::start();
    for m in ["e2e4", "d7d5", "e4d5"] {
        pos.play(pos.parse_uci(m).unwrap()).unwrap();
    }
    assert_eq!(g.setup().to_fen(), pos.fen());
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
}

/// "However If the defender wins, the attacker's piece is captured by the
/// defender, who then has the options of either keeping the defending piece
/// in the original spot or immediately take the defunct attacker's old
/// square." (part 1: the attacker's piece is captured; the defender
/// decides)
#[test]
fn defender_wins_the_attackers_piece_is_captured_and_the_defender_decides() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5", "roll:1-6"]);
    assert_eq!(g.board().piece_at(Square::E4), None);
    assert_eq!(g.board().role_at(Square::D5), Some(Role::Pawn));
    // Still White's turn, but Black (the defender) decides, mid-turn.
    assert_eq!(g.turn(), tabula_chess::Color::White);
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    assert_eq!(legal(&g), ["stay", "take:d5e4"]);
}

/// (part 2) "... keeping the defending piece in the original spot ..."
#[test]
fn defender_wins_and_keeps_the_defending_piece_in_the_original_spot() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5", "roll:1-6", "stay"]);
    assert_eq!(
        g.setup().to_fen(),
        "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
    );
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
}

/// (part 3) "... or immediately take the defunct attacker's old square."
#[test]
fn defender_wins_and_immediately_takes_the_defunct_attackers_old_square() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "exd5", "roll:1-6", "take"]);
    assert_eq!(
        g.setup().to_fen(),
        "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
    );
    // Taking is a decision within White's turn: Black then plays its own.
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    // A Bishop that wins may take a square off its colour (relocation=free).
    let mut g = game("4k3/8/8/3b4/5N2/8/8/4K3 w - - 0 1", basic());
    play(&mut g, &["Nxd5", "roll:1-6"]);
    assert!(legal(&g).contains(&"take:d5f4".to_owned()));
}

/// "Regarding the King.... Capture: the King captures pieces in the normal
/// chess manner."
#[test]
fn the_king_captures_pieces_in_the_normal_chess_manner() {
    // No skirmish, no dice: the Knight is simply captured.
    let mut g = game("4k3/7p/8/8/8/8/3n3P/4K3 w - - 0 1", basic());
    let a = g.parse_action("Kxd2").unwrap();
    assert!(g.odds(&a).is_empty());
    g.apply(&a).unwrap();
    assert_eq!(g.board().role_at(Square::D2), Some(Role::King));
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    // As in chess, not a defended piece.
    let g = game("3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1", basic());
    assert!(g.parse_action("Kxd2").is_err());
    // And no piece ever captures a King: the King only falls to the
    // checkmate roll.
    let g = game("4k3/7p/8/8/1b6/8/7P/4K3 b - - 0 1", basic());
    assert!(!legal(&g).iter().any(|a| a.ends_with("e1")));
}

/// "Check: a skirmish roll determines whether the King has to respond to
/// the check or not." (the checker wins: the King must respond)
#[test]
fn check_roll_won_by_the_checking_piece_means_the_king_must_respond() {
    // The Bishop (3 + roll + 1) checks the King (4 + roll): it wins when
    // its die is higher, 15/36 = 5/12.
    let mut g = game("4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1", basic());
    assert!(matches!(g.phase(), Phase::Roll(Pending::Check(_))));
    assert_eq!(g.pending_odds().unwrap().win_probability(), p(5, 12));
    play(&mut g, &["roll:6-1"]);
    assert_eq!(sorted(legal(&g)), ["e8d8", "e8e7", "e8f7", "e8f8"]);
}

/// (the King wins: it need not respond)
#[test]
fn check_roll_won_by_the_king_means_it_need_not_respond() {
    let mut g = game("4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1", basic());
    play(&mut g, &["roll:1-6"]);
    let all = legal(&g);
    assert!(all.contains(&"a7a6".to_owned()));
    assert_eq!(g.turn_state().excused, Square::B5.bitboard());
    // Black ignores the check.
    play(&mut g, &["a6"]);
    // The King left in check is never captured: White may not take it.
    assert!(!legal(&g).iter().any(|a| a.ends_with("e8")));
    // On Black's next turn the still-standing check is rolled again.
    play(&mut g, &["Kh1"]);
    assert!(matches!(g.phase(), Phase::Roll(Pending::Check(_))));
}

/// The check roll excuses only the checking pieces, for the turn: moving
/// into another piece's attack and castling out of check stay illegal.
#[test]
fn a_king_excused_from_a_check_still_may_not_step_into_another_attack() {
    // The b4 Bishop checks; the d8 Rook covers d1 and d2.
    let mut g = game("3rk3/8/8/8/1b6/8/8/R3K2R w KQ - 0 1", basic());
    assert!(matches!(g.phase(), Phase::Roll(Pending::Check(_))));
    play(&mut g, &["roll:1-6"]);
    let all = legal(&g);
    for ok in ["e1e2", "e1f1", "e1f2", "h1h2", "a1a2"] {
        assert!(all.contains(&ok.to_owned()), "{ok}");
    }
    for no in ["e1d1", "e1d2", "e1g1", "e1c1"] {
        assert!(!all.contains(&no.to_owned()), "{no}");
    }
}

/// "Checkmate: a skirmish roll determines a game win for the attacker, or
/// the loss of the checking piece(s)." (the attacker wins)
#[test]
fn checkmate_roll_won_by_the_attacker_wins_the_game() {
    // Back-rank mate by the Rook: 5 + roll + 1 against 4 + roll; the King
    // wins only when its die is at least 2 higher (10 rolls): 26/36 = 13/18.
    let mut g = game("4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", basic());
    assert!(matches!(g.phase(), Phase::Roll(Pending::Mate(_))));
    assert_eq!(g.pending_odds().unwrap().win_probability(), p(13, 18));
    play(&mut g, &["roll:6-1"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Team(0), EndReason::Checkmate))
    );
    assert!(actions(&g).is_empty());
}

/// (the King wins: the checking piece is lost)
#[test]
fn checkmate_roll_won_by_the_king_loses_the_checking_piece() {
    let mut g = game("4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", basic());
    play(&mut g, &["roll:1-6"]);
    assert_eq!(g.board().piece_at(Square::E8), None);
    assert_eq!(g.phase(), Phase::Act);
    assert_eq!(g.to_act(), ToAct::Player { player: Player(1) });
    assert_eq!(g.halfmove_clock(), 0);
}

/// (several checking pieces: one roll, their values added, all lost)
#[test]
fn checkmate_roll_against_several_checking_pieces_adds_their_values_and_loses_them_all() {
    // Rook e8 and Knight h6 both check: (5 + 3) + roll + 1 against 4 + roll
    // loses only on 1 against 6 (a tie, the defender holds): 35/36.
    let mut g = game("4R1k1/5ppp/7N/8/8/8/8/6K1 b - - 0 1", basic());
    let Phase::Roll(Pending::Mate(checkers)) = g.phase() else {
        panic!("a checkmate roll");
    };
    assert_eq!(checkers.count(), 2);
    let odds = g.pending_odds().unwrap();
    assert_eq!(odds.attack_value, 8);
    assert_eq!(odds.win_probability(), p(35, 36));
    play(&mut g, &["roll:1-6"]);
    assert_eq!(g.board().piece_at(Square::E8), None);
    assert_eq!(g.board().piece_at(Square::H6), None);
    assert_eq!(g.phase(), Phase::Act);
    // With checkers=strongest the Rook alone counts.
    let o = SkirmishOptions {
        checkers: tabula_skirmish::Checkers::Strongest,
        ..basic()
    };
    let g = game("4R1k1/5ppp/7N/8/8/8/8/6K1 b - - 0 1", o);
    assert_eq!(g.pending_odds().unwrap().attack_value, 5);
    assert_eq!(g.pending_odds().unwrap().win_probability(), p(13, 18));
}

/// A checkmate roll that removes the checkers may uncover another attack:
/// the new check is rolled in its turn.
#[test]
fn a_check_uncovered_by_the_lost_checking_piece_is_rolled_next() {
    // The g7 Bishop mates (the Queen behind it guards g7, the Knight g8, the
    // g6 pawn h7). 3 + roll + 1 against 4 + roll: 5/12.
    let mut g = game("7k/4N1B1/6P1/8/8/8/2K5/Q7 b - - 0 1", basic());
    assert_eq!(g.phase(), Phase::Roll(Pending::Mate(Square::G7.bitboard())));
    assert_eq!(g.pending_odds().unwrap().win_probability(), p(5, 12));
    play(&mut g, &["roll:1-6"]);
    // The Bishop is lost; the Queen now mates along the diagonal, and her
    // roll (9 + roll + 1 against 4 + roll) is a given.
    assert_eq!(g.board().piece_at(Square::G7), None);
    assert_eq!(g.phase(), Phase::Roll(Pending::Mate(Square::A1.bitboard())));
    assert_eq!(outcomes(&g), ["given"]);
    play(&mut g, &["given"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Team(0), EndReason::Checkmate))
    );
}

/// Kings never stand next to each other, so neither captures the other.
#[test]
fn kings_never_capture_kings() {
    let g = game("8/8/8/3k4/8/3K4/P7/8 w - - 0 1", basic());
    let all = legal(&g);
    assert!(
        !all.iter()
            .any(|a| a == "d3d4" || a == "d3c4" || a == "d3e4")
    );
    assert_eq!(all.len(), 7);
}
