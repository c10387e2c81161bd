//! The book's two worked examples, as it tells them.

mod common;

use common::*;
use tabula_warrior::{Army, Money, Phase, Weapon};

/// "Example: A player has on the board his King and one Warrior piece with
/// two captured Warriors stacked under it. At the beginning of his turn, he
/// will receive $1 for the King plus $1 for his Warrior piece and $2 for the
/// two captured Warriors under his piece for a total of $4."
#[test]
fn book_example_king_and_warrior_over_two_captured_warriors_collect_4() {
    // Blue ends its turn; Red's turn begins with collecting.
    let mut g = setup(
        &two(),
        "3BK4/8/8/8/3RWr(B2)4/8/8/4RK3",
        'B',
        "buy",
        &[0, 0],
        &["-", "-"],
        &["-", "-"],
    );
    assert_eq!(g.income(Army::Red), 4);
    play(&mut g, "end");
    assert_eq!(g.to_move(), Army::Red);
    assert_eq!(g.phase(), Phase::Movement);
    assert_eq!(g.money(Army::Red), Money(4));
}

/// "Example: A player starts a turn with $3 and collects $5 at the beginning
/// of his turn and then captures an opponent's piece armed with a Rook.
/// Although he would normally collect $6 for the Rook, since he already has
/// $8 he can only collect an additional $4, so that his holdings do not
/// exceed the $12 limit."
#[test]
fn book_example_3_plus_5_then_a_rook_capture_pays_only_4_under_the_cap() {
    // Red: King and a Rook Warrior over three captured Warriors:
    // $1 + $1 + $3 = $5 a turn. Blue's Rook Warrior on a7.
    let mut g = setup(
        &two(),
        "3BK4/BWr7/8/8/RWr(B3)7/8/8/4RK3",
        'B',
        "buy",
        &[3, 0],
        &["-", "-"],
        &["-", "-"],
    );
    assert_eq!(g.income(Army::Red), 5);
    play(&mut g, "end");
    assert_eq!(g.money(Army::Red), Money(8), "$3 + $5 collected");
    play(&mut g, "a4xa7");
    assert_eq!(g.money(Army::Red), Money(12), "only $4 of the Rook's $6");
    // The Rook went back to the Bank for reissue; the Warrior is stacked.
    assert_eq!(g.bank().reissue[Army::Blue.index()].count(Weapon::Rook), 1);
    let capturer = g.piece("a7".parse().unwrap()).unwrap();
    assert_eq!(capturer.stack.count(Army::Blue), 4);
    // And the money can be used on that turn.
    assert_eq!(g.phase(), Phase::Buying);
    play(&mut g, "buy-new-R");
    assert_eq!(g.money(Army::Red), Money(6));
}
