//! The book's notes (piece values, the Attack Bonus, givens, the King's
//! value), one test per sentence, and exact probabilities computed by hand.

mod common;

use common::{game, outcomes, play};
use proptest::prelude::*;
use tabula_chess::Role;
use tabula_core::{ChanceModel, Game, Options, Probability};
use tabula_skirmish::{
    Dice, KingValue, Odds, Phase, Skirmish, SkirmishAction, SkirmishOptions, TieRule, Verdict,
    piece_value, win_probability,
};

fn p(n: u64, d: u64) -> Probability {
    Probability::new(n, d).unwrap()
}

/// Exact comparison of two fractions: `x >= y`.
fn at_least(x: Probability, y: Probability) -> bool {
    u128::from(x.numerator()) * u128::from(y.denominator())
        >= u128::from(y.numerator()) * u128::from(x.denominator())
}

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

/// "* Standardish Chesspiece Values: Pawn:1, Bishop:3, Knight:3, Rook:5,
/// Queen:9, King:4"
#[test]
fn standard_piece_values_pawn_1_bishop_3_knight_3_rook_5_queen_9_king_4() {
    let k = KingValue::DEFAULT.get();
    assert_eq!(k, 4);
    let values: Vec<i64> = [
        Role::Pawn,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
        Role::Queen,
        Role::King,
    ]
    .into_iter()
    .map(|r| piece_value(r, k))
    .collect();
    assert_eq!(values, [1, 3, 3, 5, 9, 4]);
    // The game uses them: a Bishop attacking a Rook.
    let g = game("4k3/8/8/3r4/8/1B6/8/4K3 w - - 0 1", basic());
    let odds = g.odds(&"b3d5".parse().unwrap())[0];
    assert_eq!((odds.attack_value, odds.defence_value), (3, 5));
}

/// "** The attack bonus is a fixed value (default 1), set before the game,
/// to any amount: positive, zero, or even negative."
#[test]
fn the_attack_bonus_is_fixed_before_the_game_default_one_positive_zero_or_negative() {
    assert_eq!(basic().attack_bonus, 1);
    for (text, bonus) in [("0", 0), ("-3", -3), ("7", 7), ("999", 999), ("-999", -999)] {
        let mut o = basic();
        o.set("attack-bonus", text).unwrap();
        assert_eq!(o.attack_bonus, bonus);
        let g = game("4k3/8/8/3r4/8/1B6/8/4K3 w - - 0 1", o);
        assert_eq!(g.odds(&"b3d5".parse().unwrap())[0].bonus, i64::from(bonus));
    }
    assert!(basic().set("attack-bonus", "1.5").is_err());
    // "Any amount": beyond ±999 no game differs (docs/rules/skirmish.md).
    assert!(basic().set("attack-bonus", "-2147483648").is_err());
    // Fixed: it is part of the options, carried by the position text, and a
    // text written under one bonus is refused under another.
    let mut o = basic();
    o.set("attack-bonus", "3").unwrap();
    let text = Skirmish::new(&o).to_text();
    assert!(text.contains("attack-bonus=3"));
    let mut other = basic();
    other.set("attack-bonus", "2").unwrap();
    assert!(Skirmish::from_text(&text, &other).is_err());
}

/// "Obviously a positive number will result in more captures by the
/// attacker during any given turn."
#[test]
fn a_positive_attack_bonus_results_in_more_captures() {
    // For every pairing of pieces, the attacker's chance grows with the
    // bonus, and a positive bonus beats a zero one wherever dice decide.
    let values = [1, 3, 5, 9];
    for a in values {
        for d in values {
            let mut last = Probability::ZERO;
            for bonus in -12..=12 {
                let o = SkirmishOptions {
                    attack_bonus: bonus,
                    ..basic()
                };
                let w = win_probability(&o, a, d);
                assert!(at_least(w, last), "{a} v {d} bonus {bonus}");
                last = w;
            }
            let zero = win_probability(
                &SkirmishOptions {
                    attack_bonus: 0,
                    ..basic()
                },
                a,
                d,
            );
            let one = win_probability(&basic(), a, d);
            if zero != Probability::ZERO && zero != Probability::ONE {
                assert!(at_least(one, zero) && one != zero, "{a} v {d}");
            }
        }
    }
}

/// "Higher positive or negative numbers will result in "givens": no need
/// for a dice for some skirmish combinations."
#[test]
fn high_positive_or_negative_bonuses_result_in_givens_needing_no_dice() {
    // Pawn against Pawn: with bonus 6 the attacker's worst total (1+1+6 = 8)
    // beats the defender's best (1+6 = 7): no dice.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let o = SkirmishOptions {
        attack_bonus: 6,
        ..basic()
    };
    let mut g = game(fen, o);
    play(&mut g, &["exd5"]);
    assert_eq!(
        g.chance(),
        ChanceModel::Exact(vec![(SkirmishAction::Given, Probability::ONE)])
    );
    play(&mut g, &["given"]);
    assert_eq!(
        g.board().role_at(tabula_chess::Square::D5),
        Some(Role::Pawn)
    );
    assert_eq!(
        g.board().color_at(tabula_chess::Square::D5),
        Some(tabula_chess::Color::White)
    );
    // With bonus -6 the attacker's best (1+6-6 = 1) never beats the worst
    // defence (1+1 = 2): a given loss.
    let o = SkirmishOptions {
        attack_bonus: -6,
        ..basic()
    };
    let mut g = game(fen, o);
    play(&mut g, &["exd5"]);
    assert_eq!(outcomes(&g), ["given"]);
    assert_eq!(g.pending_odds().unwrap().given(), Some(false));
    play(&mut g, &["given"]);
    assert_eq!(g.board().piece_at(tabula_chess::Square::E4), None);
    // A roll is refused for a given, and "given" for a real roll.
    let mut g = game(fen, basic());
    play(&mut g, &["exd5"]);
    assert!(g.clone().apply(&SkirmishAction::Given).is_err());
    // The book's default bonus already gives givens for some combinations:
    // a Queen against a Pawn, a Pawn against a Queen.
    assert_eq!(Odds::new(&basic(), 9, 1).given(), Some(true));
    assert_eq!(Odds::new(&basic(), 1, 9).given(), Some(false));
}

/// "*** As a game variation, the piece-value of the King can be set within
/// the range 1-9 for very different endgame play."
#[test]
fn the_kings_value_can_be_set_within_one_to_nine() {
    for v in 1..=9u8 {
        let mut o = basic();
        o.set("king-value", &v.to_string()).unwrap();
        assert_eq!(o.king_value.get(), v);
    }
    for bad in ["0", "10", "-1", "four"] {
        assert!(basic().set("king-value", bad).is_err(), "{bad}");
    }
    // It changes the check roll: the b5 Bishop (3 + roll + 1) checks.
    let fen = "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1";
    let odds = |v: u8| {
        let o = SkirmishOptions {
            king_value: KingValue::new(v).unwrap(),
            ..basic()
        };
        game(fen, o).pending_odds().unwrap()
    };
    // King 1: the Bishop wins unless the King's die is 3+ higher: 30/36.
    assert_eq!(odds(1).win_probability(), p(5, 6));
    assert_eq!(odds(4).win_probability(), p(5, 12));
    // King 9: 3 + 6 + 1 = 10 never beats 9 + 1: a given, the check lapses.
    assert_eq!(odds(9).given(), Some(false));
}

// ----- exact probabilities, computed by hand --------------------------------

/// A Pawn attacking a Queen under the default options: the attacker needs
/// 1 + a + 1 > 9 + d, i.e. a - d > 7, but a - d is at most 6 - 1 = 5. Never:
/// probability 0, and so a given loss with no dice.
#[test]
fn pawn_attacking_queen_with_default_options_never_wins() {
    let g = game("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", basic());
    let odds = g.odds(&"e4d5".parse().unwrap())[0];
    assert_eq!(odds.win_probability(), Probability::ZERO);
    assert_eq!(odds.given(), Some(false));
    let mut g = g.clone();
    play(&mut g, &["exd5"]);
    assert_eq!(outcomes(&g), ["given"]);
}

/// The table of one-die odds at bonus 1, the defender holding ties, with
/// the count of winning rolls out of 36 worked out by hand: the attacker
/// wins when its die minus the defender's die is greater than
/// (defending value - attacking value - 1).
///
/// | attacker v defender | needs a - d > | winning rolls | probability |
/// |---|---|---|---|
/// | Pawn v Pawn (1 v 1) | -1 | 21 (a >= d) | 7/12 |
/// | Knight v Bishop (3 v 3) | -1 | 21 | 7/12 |
/// | Pawn v Knight (1 v 3) | 1 | 10 (a - d >= 2: 4+3+2+1) | 5/18 |
/// | Pawn v Rook (1 v 5) | 3 | 3 (a - d >= 4: 2+1) | 1/12 |
/// | Rook v Knight (5 v 3) | -3 | 30 (all but a - d <= -3: 3+2+1) | 5/6 |
/// | Bishop v Rook (3 v 5) | 1 | 10 | 5/18 |
/// | Queen v Rook (9 v 5) | -5 | 35 (all but 1 v 6) | 35/36 |
/// | Pawn checking the King (1 v 4) | 2 | 6 (a - d >= 3: 3+2+1) | 1/6 |
/// | Rook checking the King (5 v 4) | -2 | 26 (all but a - d <= -2) | 13/18 |
#[test]
fn one_die_odds_match_the_hand_computed_table() {
    let o = basic();
    for (a, d, num, den) in [
        (1, 1, 7, 12),
        (3, 3, 7, 12),
        (1, 3, 5, 18),
        (1, 5, 1, 12),
        (5, 3, 5, 6),
        (3, 5, 5, 18),
        (9, 5, 35, 36),
        (1, 4, 1, 6),
        (5, 4, 13, 18),
    ] {
        assert_eq!(win_probability(&o, a, d), p(num, den), "{a} v {d}");
    }
}

/// The tie rules on Knight v Bishop (bonus 1): 21 wins, 5 ties (a + 1 = d),
/// 10 losses. Defender holds: 21/36; attacker wins ties: 26/36 = 13/18;
/// re-roll: 21/(21 + 10) = 21/31.
#[test]
fn the_tie_rules_change_the_odds_as_computed_by_hand() {
    let with = |ties| SkirmishOptions { ties, ..basic() };
    assert_eq!(win_probability(&with(TieRule::Defender), 3, 3), p(7, 12));
    assert_eq!(win_probability(&with(TieRule::Attacker), 3, 3), p(13, 18));
    assert_eq!(win_probability(&with(TieRule::Reroll), 3, 3), p(21, 31));
    // Under re-rolls a tie leaves the skirmish pending.
    let mut g = game("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1", with(TieRule::Reroll));
    play(&mut g, &["Nxd5", "roll:2-3"]);
    assert!(matches!(g.phase(), Phase::Roll(_)));
    assert_eq!(g.pending_odds().unwrap().verdict(2, 3), Verdict::Reroll);
    play(&mut g, &["roll:3-3"]);
    assert_eq!(
        g.board().role_at(tabula_chess::Square::D5),
        Some(Role::Knight)
    );
}

/// Two dice each (2d6), Knight v Bishop at bonus 1: the attacker wins when
/// its total is at least the defender's. By hand: equal totals happen in
/// 1+4+9+16+25+36+25+16+9+4+1 = 146 of the 6^4 = 1296 rolls, and of the
/// other 1150 half have the attacker ahead: 146 + 575 = 721 wins. The count
/// of every face one by one, the exact function and the listed chance
/// outcomes agree.
#[test]
fn two_dice_each_are_counted_exactly() {
    let o = SkirmishOptions {
        dice: Dice::new(2, 6).unwrap(),
        ..basic()
    };
    let mut wins = 0u64;
    for a1 in 1..=6 {
        for a2 in 1..=6 {
            for d1 in 1..=6 {
                for d2 in 1..=6 {
                    if 3 + a1 + a2 + 1 > 3 + d1 + d2 {
                        wins += 1;
                    }
                }
            }
        }
    }
    assert_eq!(wins, 721);
    assert_eq!(win_probability(&o, 3, 3), p(721, 1296));
    let mut g = game("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1", o);
    play(&mut g, &["Nxd5"]);
    let ChanceModel::Exact(list) = g.chance() else {
        panic!("exact");
    };
    // Totals 2..=12 each: 11 x 11 outcomes; 7 against 7 is 6*6/1296.
    assert_eq!(list.len(), 121);
    assert!(list.contains(&(
        SkirmishAction::Roll {
            attacker: 7,
            defender: 7
        },
        p(36, 1296)
    )));
    let total: Probability = list.iter().map(|(_, q)| *q).sum();
    assert_eq!(total, Probability::ONE);
}

fn brute(attack: i64, bonus: i64, defence: i64, dice: Dice, ties: TieRule) -> (u64, u64) {
    // Every face sequence, enumerated: (wins, decided rolls).
    let n = dice.count() as u32;
    let s = u64::from(dice.sides());
    let per = s.pow(n);
    let total = |mut code: u64| {
        let mut t = 0i64;
        for _ in 0..n {
            t += (code % s) as i64 + 1;
            code /= s;
        }
        t
    };
    let (mut win, mut decided) = (0, 0);
    for x in 0..per {
        for y in 0..per {
            let (a, d) = (attack + total(x) + bonus, defence + total(y));
            match (a.cmp(&d), ties) {
                (std::cmp::Ordering::Greater, _)
                | (std::cmp::Ordering::Equal, TieRule::Attacker) => {
                    win += 1;
                    decided += 1;
                }
                (std::cmp::Ordering::Equal, TieRule::Reroll) => {}
                _ => decided += 1,
            }
        }
    }
    (win, decided)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The exact odds equal a brute-force count of every face, for any
    /// values, bonus, dice and tie rule; the listed outcomes sum to one and
    /// a given is exactly a probability of 0 or 1.
    #[test]
    fn exact_odds_equal_a_brute_force_count(
        attack in -3i64..12,
        bonus in -15i64..15,
        defence in 0i64..12,
        count in 1u8..=2,
        sides in 2u8..=8,
        tie in 0usize..3,
    ) {
        let dice = Dice::new(count, sides).unwrap();
        let ties = [TieRule::Defender, TieRule::Attacker, TieRule::Reroll][tie];
        let odds = Odds { attack_value: attack, bonus, defence_value: defence, dice, ties };
        let (win, decided) = brute(attack, bonus, defence, dice, ties);
        prop_assert_eq!(odds.win_probability(), Probability::new(win, decided).unwrap());
        let w = odds.win_probability();
        prop_assert_eq!(odds.given().is_some(), w == Probability::ZERO || w == Probability::ONE);
        if odds.given().is_none() {
            let total: Probability = odds.rolls().iter().map(|r| r.2).sum();
            prop_assert_eq!(total, Probability::ONE);
        }
    }
}

#[test]
fn a_given_is_a_single_outcome_chance_node() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5", "Qh5", "a6", "Qxd5"]);
    // Queen (9 + roll + 1) against Pawn (1 + roll): certain.
    assert_eq!(
        g.chance(),
        ChanceModel::Exact(vec![(SkirmishAction::Given, Probability::ONE)])
    );
    let mut rng = tabula_core::GameRng::from_seed(tabula_core::Seed(3));
    assert_eq!(g.sample_chance(&mut rng), Some(SkirmishAction::Given));
    assert!(g.clone().apply(&"roll:6-1".parse().unwrap()).is_err());
}
