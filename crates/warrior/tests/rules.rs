//! One test per rule of the book (movement of the pieces is in
//! `pieces.rs`, the worked examples in `book_examples.rs`).

mod common;

use common::*;
use tabula_core::{EndReason, Game, Options, Outcome, Player, Seating, Team, ToAct};
use tabula_warrior::{
    Action, ActionError, Army, Ending, FiftyMoves, Issue, Money, NoMovement, Phase, PieceKind,
    Players, Purchase, Square, Warrior, WarriorOptions, Weapon, Weapons,
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn red() -> usize {
    Army::Red.index()
}

fn blue() -> usize {
    Army::Blue.index()
}

// ---------------------------------------------------------------- Equipment

/// "each set or army consists of 8 Warriors (unarmed chessmen) and 1 King",
/// "Rooks (3 per army ...)", "Knights (2 per army ...)", "Bishops (3 per
/// army ...)", "Swords (4 per army ...)".
#[test]
fn each_army_has_8_warriors_1_king_and_the_books_weapons() {
    for options in [two(), four()] {
        let g = Warrior::new(&options);
        for army in g.armies() {
            let kings = g
                .pieces()
                .filter(|(_, p)| p.army == army && p.kind == PieceKind::King)
                .count();
            assert_eq!(kings, 1);
            assert_eq!(g.bank().new[army.index()].warriors, 8);
            assert_eq!(g.bank().new[army.index()].weapons, Weapons([3, 2, 3, 4]));
            assert_eq!(g.bank().reissue[army.index()], Weapons::NONE);
            assert_eq!(g.equipment(army), (8, Weapons::FULL_SET));
        }
    }
}

/// "Rooks (3 per army @ $6 apiece "new" and $12 "reissued")", Knights $5 and
/// $10, Bishops $4 and $8, Swords $2 and $4.
#[test]
fn weapons_cost_the_books_new_and_reissued_prices() {
    let prices: Vec<(u8, u8, u8)> = Weapon::ALL
        .iter()
        .map(|w| (w.per_army(), w.new_cost(), w.reissued_cost()))
        .collect();
    assert_eq!(prices, [(3, 6, 12), (2, 5, 10), (3, 4, 8), (4, 2, 4)]);
    // And in play: each purchase takes exactly its price.
    for w in Weapon::ALL {
        for issue in [Issue::New, Issue::Reissued] {
            let reissued = match (issue, w) {
                (Issue::Reissued, Weapon::Rook) => "r1",
                (Issue::Reissued, Weapon::Knight) => "n1",
                (Issue::Reissued, Weapon::Bishop) => "b1",
                (Issue::Reissued, Weapon::Swords) => "s1",
                _ => "-",
            };
            let mut g = setup(
                &two(),
                &board(&[("e1", "RK"), ("d8", "BK")]),
                'R',
                "buy",
                &[12, 0],
                &["-", "-"],
                &[reissued, "-"],
            );
            let item = Purchase::Weapon(w, issue);
            g.apply(&Action::Buy { item }).unwrap();
            assert_eq!(g.money(Army::Red).0, 12 - w.cost(issue), "{w} {issue:?}");
            assert_eq!(g.reserve(Army::Red).weapons.count(w), 1);
        }
    }
}

// ---------------------------------------------------------------- Setup

/// "The winner of the toss, places his King on E1 and his opponent places
/// his King on D8", "At the beginning of play, the Kings are the only pieces
/// on the board."
#[test]
fn kings_start_on_e1_and_d8_alone_on_the_board() {
    let g = Warrior::new(&two());
    let pieces: Vec<(String, Army, PieceKind)> = g
        .pieces()
        .map(|(s, p)| (s.to_string(), p.army, p.kind))
        .collect();
    assert_eq!(
        pieces,
        [
            ("e1".to_owned(), Army::Red, PieceKind::King),
            ("d8".to_owned(), Army::Blue, PieceKind::King)
        ]
    );
    assert_eq!(g.to_act(), ToAct::Player { player: Player(0) });
}

/// "The player moving first starts with no money, but the second player
/// starts with $1", "The first player then starts the game by collecting his
/// money ($1, because his King occupies one square ...)".
#[test]
fn first_player_starts_with_nothing_and_collects_1_second_starts_with_1() {
    let mut g = Warrior::new(&two());
    assert_eq!(g.money(Army::Red), Money(1), "$0 + $1 collected");
    assert_eq!(g.money(Army::Blue), Money(1));
    play(&mut g, "e1-e2");
    assert_eq!(g.to_move(), Army::Blue);
    assert_eq!(g.money(Army::Blue), Money(2), "$1 + $1 collected");
}

/// "... and then makes his first move by either moving his King or dropping
/// one of his Warriors": five King moves and 62 drops, nothing else.
#[test]
fn the_first_move_is_a_king_move_or_a_drop() {
    let g = Warrior::new(&two());
    let actions = legal(&g);
    assert_eq!(actions.len(), 5 + 62);
    assert_eq!(actions.iter().filter(|a| a.starts_with("W@")).count(), 62);
    assert_eq!(actions.iter().filter(|a| a.starts_with("e1-")).count(), 5);
}

// ---------------------------------------------------------------- Collecting

/// "Beginning each turn a player receives from the Bank: One Dollar ($1) for
/// each square occupied by one of his pieces", "the player also receives
/// money for each Warrior in the stack ($1 per capture)". Own-colour Warriors
/// won back in a stack count too (decision D10).
#[test]
fn collection_pays_1_per_occupied_square_and_1_per_stacked_warrior() {
    let mut g = setup(
        &two(),
        &board(&[
            ("e1", "RK"),
            ("d8", "BK"),
            ("a2", "RW"),
            ("b2", "RW"),
            ("c4", "RWr(R1B2)"),
        ]),
        'B',
        "buy",
        &[0, 0],
        &["-", "-"],
        &["-", "-"],
    );
    assert_eq!(g.income(Army::Red), 1 + 3 + 3);
    play(&mut g, "end");
    assert_eq!(g.money(Army::Red), Money(7));
}

/// "The maximum amount of dollars ($) that any player can hold at a time is
/// $12. Once a player holds $12, he cannot collect any additional money
/// until he gets below the $12 amount."
#[test]
fn collection_stops_at_the_12_dollar_cap() {
    for (start, after) in [(10, 12), (12, 12), (7, 12), (6, 11)] {
        let mut g = setup(
            &two(),
            &board(&[("e1", "RK"), ("d8", "BK"), ("c4", "RWr(B3)")]),
            'B',
            "buy",
            &[start, 0],
            &["-", "-"],
            &["-", "-"],
        );
        play(&mut g, "end");
        assert_eq!(g.money(Army::Red), Money(after), "from ${start}");
    }
}

/// "Players must place their Dollars in open view", "All Warriors and
/// weapons held by the Bank must be placed in open view", "All purchased
/// weapons and Warriors held in a player's Reserve must be placed in open
/// view": every view shows all of it.
#[test]
fn money_reserves_and_bank_are_in_every_view() {
    let g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[3, 4],
        &["W1s1", "r1"],
        &["-", "n1"],
    );
    for viewer in [
        tabula_core::Viewer::Public,
        tabula_core::Viewer::Player(Player(0)),
        tabula_core::Viewer::Player(Player(1)),
    ] {
        let v = g.view(viewer);
        assert_eq!(v.players[1].money, Money(4));
        assert_eq!(v.players[0].reserve.warriors, 1);
        assert_eq!(v.bank[1].reissued.count(Weapon::Knight), 1);
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains("\"money\":4"), "{json}");
    }
    const { assert!(!<Warrior as Game>::HIDDEN_INFORMATION) };
}

// ---------------------------------------------------------------- Movement

/// "One movement per turn", "For movement, a player must do one of the
/// following": after it no other movement is offered, and the movement
/// phase cannot be ended without one.
#[test]
fn exactly_one_compulsory_movement_per_turn() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[5, 0],
        &["W1", "-"],
        &["-", "-"],
    );
    let e = refused(&mut g, "end");
    assert!(e.contains("compulsory"), "{e}");
    let e = refused(&mut g, "pass");
    assert!(e.contains("compulsory"), "{e}");
    play(&mut g, "e1-e2");
    assert_eq!(g.phase(), Phase::BonusDrops);
    let actions = legal(&g);
    assert!(
        actions.iter().all(|a| a.starts_with("+W@") || a == "end"),
        "{actions:?}"
    );
    let e = refused(&mut g, "e2-e3");
    assert!(e.contains("bonus drops phase"), "{e}");
    let e = refused(&mut g, "W@a1");
    assert!(e.contains("bonus drops phase"), "{e}");
}

/// "Drop one of his Warriors held by the Bank on to an empty square", "A
/// Warrior must always be dropped on an empty square", "A player must pay a
/// $1 to the Bank to drop a Warrior onto the board during a normal turn".
#[test]
fn a_drop_takes_a_bank_warrior_to_an_empty_square_for_1() {
    let mut g = red_with(&[], 3);
    let e = refused(&mut g, "W@e1");
    assert!(e.contains("e1 is not empty"), "{e}");
    let e = refused(&mut g, "W@d8");
    assert!(e.contains("d8 is not empty"), "{e}");
    play(&mut g, "W@c3");
    assert_eq!(g.money(Army::Red), Money(2));
    assert_eq!(g.bank().new[red()].warriors, 7);
    let p = g.piece(sq("c3")).unwrap();
    assert_eq!(
        (p.army, p.kind, p.is_armed()),
        (Army::Red, PieceKind::Warrior, false)
    );

    let mut broke = red_with(&[], 0);
    let e = refused(&mut broke, "W@c3");
    assert!(e.contains("costs $1"), "{e}");
    // With every Warrior out of the Bank (here: in the Reserve), no drop.
    let mut none_left = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[5, 0],
        &["W8", "-"],
        &["-", "-"],
    );
    let e = refused(&mut none_left, "W@c3");
    assert!(e.contains("no Red Warrior is left in the Bank"), "{e}");
}

/// "Warriors are the only pieces that can be dropped": the notation has no
/// drop of anything else, and no drop of a King or weapon is ever offered.
#[test]
fn warriors_are_the_only_pieces_dropped() {
    assert!("K@c3".parse::<Action>().is_err());
    let g = Warrior::new(&two());
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    for a in actions {
        if let Action::Drop { to } = a {
            let mut after = g.clone();
            after.apply(&a).unwrap();
            assert_eq!(after.piece(to).unwrap().kind, PieceKind::Warrior);
        }
    }
}

/// "Move one of his pieces already on the board to an empty square".
#[test]
fn a_move_goes_to_an_empty_square() {
    let mut g = red_with(&[("e2", "RW")], 1);
    let e = refused(&mut g, "e1-e2");
    assert!(e.contains("e2 is not empty"), "{e}");
    play(&mut g, "e1-d1");
    assert_eq!(g.piece(sq("d1")).unwrap().kind, PieceKind::King);
}

/// "Capture an opponent on an occupied square using one of his armed pieces
/// or his King."
#[test]
fn captures_are_made_by_armed_pieces_and_the_king() {
    let mut g = red_with(
        &[("d4", "RW"), ("e5", "BW"), ("e2", "BW"), ("f4", "RWb")],
        1,
    );
    assert!(is_legal(&g, "e1xe2"));
    assert!(is_legal(&g, "f4xe5"));
    let e = refused(&mut g, "d4xe5");
    assert!(e.contains("cannot go to e5"), "{e}");
    let e = refused(&mut g, "e1xd1");
    assert!(e.contains("d1 holds no opponent's piece"), "{e}");
    let e = refused(&mut g, "e1xd2");
    assert!(e.contains("d2 holds no opponent's piece"), "{e}");
}

/// "A Warrior, when first dropped, cannot be immediately armed. A player when
/// dropping a Warrior must wait until a future turn before adding any
/// weapons to the dropped Warrior." (also "A Warrior dropped during a turn
/// cannot be armed until a future turn.")
#[test]
fn a_dropped_warrior_is_armed_on_a_future_turn_only() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "move",
        &[1, 0],
        &["r2", "-"],
        &["-", "-"],
    );
    play(&mut g, "W@c3");
    assert_eq!(g.phase(), Phase::Arming);
    assert_eq!(g.dropped_this_turn(), [sq("c3")]);
    let e = refused(&mut g, "R@c3");
    assert!(e.contains("dropped this turn"), "{e}");
    play(&mut g, "R@a2");
    // Nothing left to arm or to buy: the turn passed.
    assert_eq!(g.to_move(), Army::Blue);
    play(&mut g, "d8-d7");
    while g.to_move() == Army::Blue {
        play(&mut g, "end");
    }
    play(&mut g, "e1-f1");
    assert_eq!(g.phase(), Phase::Arming);
    play(&mut g, "R@c3");
    assert!(g.piece(sq("c3")).unwrap().weapons.has(Weapon::Rook));
}

// ---------------------------------------------------------------- Capture

/// "An attacking piece moves to the defending piece's square and stacks his
/// piece on top of the captured Warrior piece (or stack of Warriors if the
/// captured piece includes previous captures under it)."
#[test]
fn the_capturer_stacks_on_the_captured_warrior_and_its_stack() {
    let mut g = red_with(&[("a1", "RWr(B1)"), ("a5", "BWn(R2)")], 0);
    play(&mut g, "a1xa5");
    let p = g.piece(sq("a5")).unwrap();
    assert_eq!(
        (p.army, p.stack.count(Army::Blue), p.stack.count(Army::Red)),
        (Army::Red, 2, 2)
    );
    assert!(g.piece(sq("a1")).is_none());
    // Captured Warriors are not given back to anyone.
    assert_eq!(g.bank().new[blue()].warriors, 8 - 2);
    assert_eq!(g.equipment(Army::Blue).0, 8);
}

/// "If a player captures a piece with weapons, the weapons are removed and
/// the player is paid by the Bank a bonus equal to the weapons' "new" cost:
/// $6 for a Rook, $5 for a Knight, $4 for a Bishop and $2 for each Swords
/// piece", "When a weapon is captured it is taken off the board and held by
/// the Bank with other captured or weapons available for "reissue",
/// separately from the "new" weapons."
#[test]
fn captured_weapons_pay_their_new_cost_and_go_to_the_reissue_stock() {
    for (victim, bonus) in [
        ("BWr", 6),
        ("BWn", 5),
        ("BWb", 4),
        ("BWsN", 2),
        ("BWss", 4),
        ("BWrn", 11),
        ("BW", 0),
    ] {
        let mut g = red_with(&[("a1", "RWr"), ("a5", victim)], 0);
        let new_before = g.bank().new[blue()].weapons;
        play(&mut g, "a1xa5");
        assert_eq!(g.money(Army::Red), Money(bonus), "{victim}");
        let p = g.piece(sq("a5")).unwrap();
        assert_eq!(
            p.weapons,
            Weapons([1, 0, 0, 0]),
            "the capturer keeps its own weapons"
        );
        let reissue = g.bank().reissue[blue()];
        assert_eq!(reissue.new_value(), bonus, "{victim}");
        assert_eq!(
            g.bank().new[blue()].weapons,
            new_before,
            "new stock untouched"
        );
    }
}

/// "The money received by a player for any captured weapon can be used on
/// that turn or a later turn".
#[test]
fn capture_money_can_be_spent_the_same_turn() {
    let mut g = red_with(&[("a1", "RWr"), ("a5", "BWr")], 0);
    play(&mut g, "a1xa5");
    assert_eq!(g.phase(), Phase::Buying);
    play(&mut g, "buy-W");
    assert_eq!(g.money(Army::Red), Money(1));
}

/// Capturing a Warrior earns $1 each later turn for its holder, and the
/// stack moves with whoever captures its holder.
#[test]
fn captured_warriors_earn_their_holder_1_a_turn() {
    let mut g = red_with(&[("a1", "RWr"), ("a5", "BW"), ("h5", "BWr")], 0);
    assert_eq!(g.income(Army::Red), 2);
    play(&mut g, "a1xa5");
    assert_eq!(g.income(Army::Red), 3);
    // Blue takes the holder back and with it the whole stack.
    play(&mut g, "h5xa5");
    assert_eq!(g.income(Army::Red), 1);
    assert_eq!(g.income(Army::Blue), 1 + 1 + 2);
}

// ---------------------------------------------------------------- Bonus drops

/// "A player must have a Warrior in his Reserve", "After taking his normal
/// movement first (drop, move or capture), a player has an option to drop
/// onto the board any Warrior(s) held in his Reserve", "dropping a Warrior
/// in Reserve during a Bonus Drop is free".
#[test]
fn bonus_drops_follow_the_movement_are_free_and_may_be_several() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "move",
        &[0, 0],
        &["W3", "-"],
        &["-", "-"],
    );
    let e = refused(&mut g, "+W@c3");
    assert!(e.contains("movement phase"), "{e}");
    play(&mut g, "e1-e2");
    play(&mut g, "+W@c3");
    play(&mut g, "W@c4"); // `W@` reads as a bonus drop in the bonus phase
    assert_eq!(g.money(Army::Red), Money(0));
    assert_eq!(g.reserve(Army::Red).warriors, 1);
    assert_eq!(g.phase(), Phase::BonusDrops);
    let e = refused(&mut g, "+W@c3");
    assert!(e.contains("c3 is not empty"), "{e}");
    play(&mut g, "end");
    assert_eq!(g.to_move(), Army::Blue, "nothing to arm or buy");
    assert_eq!(g.reserve(Army::Red).warriors, 1);

    // Without a Reserve Warrior the phase is skipped; a text may still
    // hold it, and then a bonus drop is refused.
    let mut empty = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "bonus",
        &[0, 0],
        &["-", "-"],
        &["-", "-"],
    );
    let e = refused(&mut empty, "+W@c3");
    assert!(e.contains("Reserve holds no Warrior"), "{e}");
}

/// "All drop rules apply to Bonus Drops": empty square, and no arming on the
/// turn of the drop.
#[test]
fn a_bonus_dropped_warrior_cannot_be_armed_that_turn() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "move",
        &[0, 0],
        &["W1s1", "-"],
        &["-", "-"],
    );
    play(&mut g, "e1-f1");
    play(&mut g, "+W@c3");
    assert_eq!(g.phase(), Phase::Arming);
    assert!(!legal(&g).iter().any(|a| a.contains("@c3")));
    let e = refused(&mut g, "S@c3N");
    assert!(e.contains("dropped this turn"), "{e}");
    assert!(is_legal(&g, "S@a2N"));
}

// ---------------------------------------------------------------- Arming

/// "A player can only arm his own pieces on the board. To arm a Warrior, a
/// player takes a weapon from his Reserve and places it on top of a
/// Warrior."
#[test]
fn arming_puts_a_reserve_weapon_on_ones_own_warrior() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW"), ("h2", "BW")]),
        'R',
        "arm",
        &[0, 0],
        &["b1", "-"],
        &["-", "-"],
    );
    let e = refused(&mut g, "B@e1");
    assert!(e.contains("no Warrior of the player's"), "{e}");
    let e = refused(&mut g, "B@h2");
    assert!(e.contains("no Warrior of the player's"), "{e}");
    let e = refused(&mut g, "R@a2");
    assert!(e.contains("Reserve holds no Rook"), "{e}");
    play(&mut g, "B@a2");
    assert_eq!(g.reserve(Army::Red).weapons, Weapons::NONE);
    assert!(g.piece(sq("a2")).unwrap().weapons.has(Weapon::Bishop));
}

/// "When placing Swords on a Warrior, a player must face the Swords toward
/// the squares he wishes it to attack."
#[test]
fn swords_are_faced_when_placed() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("d4", "RW")]),
        'R',
        "arm",
        &[0, 0],
        &["s2", "-"],
        &["-", "-"],
    );
    let swords: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("S@"))
        .collect();
    assert_eq!(swords, ["S@d4N", "S@d4E", "S@d4S", "S@d4W"]);
    let e = refused(&mut g, "S@d4");
    assert!(e.contains("say which way"), "{e}");
    play(&mut g, "S@d4W");
    assert_eq!(
        g.piece(sq("d4")).unwrap().facing,
        Some(tabula_warrior::Facing::West)
    );
    // The second Swords covers all four diagonals: no facing any more.
    assert!(is_legal(&g, "S@d4"));
    play(&mut g, "S@d4");
    assert_eq!(g.piece(sq("d4")).unwrap().facing, None);
}

/// "A player can place various weapons on different Warriors during his
/// turn, but the maximum number of weapons allowed on any single Warrior is
/// two." Both may go on in one turn (decision D12).
#[test]
fn various_weapons_on_different_warriors_at_most_two_each() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW"), ("b2", "RW")]),
        'R',
        "arm",
        &[0, 0],
        &["r1n1b1s1", "-"],
        &["-", "-"],
    );
    play(&mut g, "R@a2");
    play(&mut g, "N@a2");
    play(&mut g, "B@b2");
    let e = refused(&mut g, "S@a2N");
    assert!(e.contains("already carries two weapons"), "{e}");
    assert!(is_legal(&g, "S@b2N"));
    assert_eq!(g.piece(sq("a2")).unwrap().weapons, Weapons([1, 1, 0, 0]));
}

/// Decision D11: the book lists no doubled Rook, Knight or Bishop; Swords/
/// Swords is the only doubled weapon unless `duplicate-weapons=on`.
#[test]
fn only_swords_may_be_doubled_unless_the_option_allows_it() {
    let pieces = board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RWr")]);
    let mut g = setup(
        &two(),
        &pieces,
        'R',
        "arm",
        &[0, 0],
        &["r1", "-"],
        &["-", "-"],
    );
    let e = refused(&mut g, "R@a2");
    assert!(e.contains("only Swords may be doubled"), "{e}");
    let mut options = two();
    options.set("duplicate-weapons", "on").unwrap();
    let mut g = setup(
        &options,
        &pieces,
        'R',
        "arm",
        &[0, 0],
        &["r1", "-"],
        &["-", "-"],
    );
    play(&mut g, "R@a2");
    assert_eq!(g.piece(sq("a2")).unwrap().weapons.count(Weapon::Rook), 2);
}

/// "Once a player places a weapon on a Warrior, it is permanent. The player
/// cannot switch or remove a weapon": no action takes a weapon off, and the
/// weapon stays through later turns; only a capture removes it.
#[test]
fn weapons_once_placed_are_permanent() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "arm",
        &[12, 0],
        &["r1", "-"],
        &["-", "-"],
    );
    play(&mut g, "R@a2");
    for _ in 0..6 {
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        // Whatever is chosen (no capture is possible), a2's Rook stays.
        let pick = actions
            .iter()
            .find(|a| matches!(a, Action::End | Action::Move { .. }))
            .copied()
            .unwrap();
        g.apply(&pick).unwrap();
    }
    let rooks: u8 = g
        .pieces()
        .filter(|(_, p)| p.army == Army::Red)
        .map(|(_, p)| p.weapons.count(Weapon::Rook))
        .sum();
    assert_eq!(rooks, 1);
}

// ---------------------------------------------------------------- Buying

/// "The last phase during a turn gives a player the option to buy from the
/// Bank weapons and/or Warriors to add to his Reserve", "After buying
/// weapons/Warriors (or opting not to) a player passes his turn to the next
/// player."
#[test]
fn buying_is_the_last_phase_then_the_turn_passes() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "move",
        &[12, 0],
        &["W1s1", "-"],
        &["-", "-"],
    );
    play(&mut g, "e1-e2");
    assert_eq!(g.phase(), Phase::BonusDrops);
    play(&mut g, "end");
    assert_eq!(g.phase(), Phase::Arming);
    play(&mut g, "end");
    assert_eq!(g.phase(), Phase::Buying);
    play(&mut g, "buy-new-R");
    play(&mut g, "buy-new-S");
    assert_eq!(g.money(Army::Red), Money(4));
    assert_eq!(g.phase(), Phase::Buying);
    play(&mut g, "end");
    assert_eq!((g.to_move(), g.phase()), (Army::Blue, Phase::Movement));
}

/// "A player can buy multiple weapons/Warriors on his turn, but can only buy
/// weapons/Warriors of his own color."
#[test]
fn only_ones_own_colour_is_bought() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "buy",
        &[12, 0],
        &["-", "-"],
        &["-", "r1"],
    );
    let e = refused(&mut g, "buy-reissued-R");
    assert!(e.contains("no reissued Rook of the player's colour"), "{e}");
    play(&mut g, "buy-W");
    play(&mut g, "buy-new-R");
    assert_eq!(g.bank().reissue[blue()].count(Weapon::Rook), 1);
    assert_eq!(g.bank().new[red()].weapons.count(Weapon::Rook), 2);
    assert_eq!(
        g.bank().new[blue()].weapons.count(Weapon::Rook),
        2,
        "Blue's third Rook is in its reissue stock"
    );
}

/// "A player can buy "new" or "reissued" weapons during this phase and pay
/// for the weapons according to their respective costs." Either may be
/// bought while both are in stock (decision D14).
#[test]
fn new_or_reissued_weapons_are_bought_at_their_prices() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "buy",
        &[12, 0],
        &["-", "-"],
        &["n1", "-"],
    );
    assert!(is_legal(&g, "buy-new-N") && is_legal(&g, "buy-reissued-N"));
    play(&mut g, "buy-reissued-N");
    assert_eq!(g.money(Army::Red), Money(2));
    assert_eq!(g.bank().reissue[red()], Weapons::NONE);
    let e = refused(&mut g, "buy-new-N");
    assert!(e.contains("costs $5 and the player holds $2"), "{e}");
}

/// "The cost to buy a Warrior to place in Reserve for a "Bonus Drop" is $5
/// per Warrior."
#[test]
fn a_reserve_warrior_costs_5() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK")]),
        'R',
        "buy",
        &[9, 0],
        &["-", "-"],
        &["-", "-"],
    );
    play(&mut g, "buy-W");
    assert_eq!(g.money(Army::Red), Money(4));
    assert_eq!(g.reserve(Army::Red).warriors, 1);
    assert_eq!(g.bank().new[red()].warriors, 7);
    let e = refused(&mut g, "buy-W");
    assert!(e.contains("costs $5 and the player holds $4"), "{e}");
}

/// "A weapon purchased during a turn can be placed on any future turn and a
/// Warrior purchased during a turn can be dropped on any future turn."
#[test]
fn purchases_are_used_on_a_future_turn() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "buy",
        &[12, 0],
        &["-", "-"],
        &["-", "-"],
    );
    play(&mut g, "buy-W");
    let e = refused(&mut g, "+W@c3");
    assert!(e.contains("buying phase"), "{e}");
    play(&mut g, "buy-new-S");
    let e = refused(&mut g, "S@a2N");
    assert!(e.contains("buying phase"), "{e}");
    play(&mut g, "end");
    play(&mut g, "d8-d7");
    while g.to_move() == Army::Blue {
        play(&mut g, "end");
    }
    play(&mut g, "e1-e2");
    play(&mut g, "+W@c3");
    assert_eq!(
        g.phase(),
        Phase::Arming,
        "the last Reserve Warrior is dropped"
    );
    play(&mut g, "S@a2N");
}

// ---------------------------------------------------------------- Winning

/// "To capture your opponent's King", "When a player captures his
/// opponent's King he wins and the game is over."
#[test]
fn capturing_the_king_wins() {
    let mut g = red_with(&[("d2", "RWr")], 0);
    play(&mut g, "d2xd8");
    assert_eq!(
        g.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(0), EndReason::KingCaptured)
        }
    );
    assert!(legal(&g).is_empty());
    assert_eq!(
        g.describe_outcome(&g.outcome().unwrap()),
        "Red wins: Red captured a King"
    );
    let mut after = g.clone();
    assert!(after.apply(&Action::End).is_err());
    assert_eq!(after, g);
}

/// "There are no check, checkmate or stalemate rules": a King may stay in
/// or move into attack, and the game goes on until a King is captured.
#[test]
fn there_is_no_check() {
    let g = red_with(&[("e8", "BWr"), ("f8", "BWr")], 1);
    // Red's King on e1 is attacked; dropping elsewhere is still legal, and so
    // is moving onto the attacked f-file.
    assert!(is_legal(&g, "W@a1"));
    assert!(is_legal(&g, "e1-f1"));
    assert!(is_legal(&g, "e1-f2"));
}

/// "A player with no hope of winning can resign during play on his turn. A
/// player resigning gives his opponent an automatic win." Resigning is the
/// table's action, open to every game (`Outcome::resignation`), not one of
/// the game's decisions (D18): no phase offers `resign`, and the seating
/// gives the win to the other side.
#[test]
fn resigning_is_the_tables_action_and_gives_the_opponent_the_win() {
    for phase in ["move", "bonus", "arm", "buy"] {
        let g = setup(
            &two(),
            &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
            'R',
            phase,
            &[12, 0],
            &["W1s1", "-"],
            &["-", "-"],
        );
        assert!(!legal(&g).iter().any(|a| a.contains("resign")), "{phase}");
        assert!(
            matches!(g.parse_action("resign"), Err(ActionError::Unreadable(_))),
            "{phase}"
        );
        let outcome = Outcome::resignation(&g.seating(), Player(0)).unwrap();
        assert_eq!(outcome, Outcome::win(Team(1), EndReason::Resignation));
        assert_eq!(g.describe_outcome(&outcome), "Blue wins by resignation");
    }
}

fn fifty(options: &WarriorOptions, count: u16, reserve: &str) -> Warrior {
    let n = options.players.count() as usize;
    let mut pieces = vec![("e1", "RK"), ("d8", "BK")];
    if n == 4 {
        pieces.push(("a4", "GK"));
        pieces.push(("h5", "YK"));
        pieces[1] = ("d8", "GK");
        pieces[2] = ("a4", "BK");
    }
    let mut money = vec![0u8; n];
    money[0] = 1;
    let mut reserves = vec!["-"; n];
    reserves[0] = reserve;
    let reissued = vec!["-"; n];
    setup_full(
        options,
        &board(&pieces),
        'R',
        "move",
        &money,
        &reserves,
        &reissued,
        "-",
        count,
    )
}

/// "in the case where the players move 50 times each without dropping a
/// Warrior or making a capture the game can be considered a draw": drawn at
/// the end of the 100th such turn (two players) by default.
#[test]
fn fifty_movements_each_without_drop_or_capture_draw() {
    let mut g = fifty(&two(), 98, "-");
    play(&mut g, "e1-e2");
    assert_eq!((g.to_move(), g.no_progress()), (Army::Blue, 99));
    assert!(g.outcome().is_none());
    play(&mut g, "d8-d7");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    assert_eq!(g.phase(), Phase::Over(Ending::FiftyMoves));
}

/// A drop, a bonus drop or a capture starts the count again.
#[test]
fn drops_bonus_drops_and_captures_reset_the_fifty_moves_count() {
    let mut g = fifty(&two(), 99, "-");
    play(&mut g, "W@c3");
    assert_eq!(g.no_progress(), 0);
    assert!(g.outcome().is_none());

    let mut g = fifty(&two(), 99, "W1");
    play(&mut g, "e1-e2");
    assert_eq!(g.no_progress(), 100);
    play(&mut g, "+W@c3");
    assert_eq!(g.no_progress(), 0);
    assert!(g.outcome().is_none());

    let mut g = setup_full(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("e2", "BW")]),
        'R',
        "move",
        &[0, 0],
        &["-", "-"],
        &["-", "-"],
        "-",
        99,
    );
    play(&mut g, "e1xe2");
    assert_eq!(g.no_progress(), 0);
    assert!(g.outcome().is_none());
}

/// Options `fifty-moves=claim` and `fifty-moves=off` (decision D17).
#[test]
fn the_fifty_moves_draw_may_be_claimed_or_switched_off() {
    let mut claim = two();
    claim.set("fifty-moves", "claim").unwrap();
    let mut g = fifty(&claim, 99, "-");
    let e = refused(&mut g, "draw");
    assert!(e.contains("cannot be claimed"), "{e}");
    play(&mut g, "e1-e2");
    play(&mut g, "d8-d7");
    assert!(g.outcome().is_none());
    assert!(is_legal(&g, "draw"));
    play(&mut g, "draw");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::DrawClaimed)));

    let mut off = two();
    off.set("fifty-moves", "off").unwrap();
    let mut g = fifty(&off, 500, "-");
    play(&mut g, "e1-e2");
    assert!(g.outcome().is_none());
    assert!(!is_legal(&g, "draw"));
}

// ---------------------------------------------------------------- No movement

/// A position where Red has no Warrior in the Bank (five in the Reserve) and
/// no piece can move: King a1 and Warriors a2, b1, b2 walled in by Blue.
fn walled_in(options: &WarriorOptions, to_act: char, phase: &str) -> Warrior {
    setup(
        options,
        &board(&[
            ("a1", "RK"),
            ("a2", "RW"),
            ("b1", "RW"),
            ("b2", "RW"),
            ("a3", "BW"),
            ("b3", "BW"),
            ("c3", "BW"),
            ("c2", "BW"),
            ("c1", "BW"),
            ("h8", "BK"),
        ]),
        to_act,
        phase,
        &[0, 0],
        &["W5", "-"],
        &["-", "-"],
    )
}

/// Decision D4: a player without any legal movement passes it (default) and
/// goes on with the turn; with `no-movement=lose` that player loses.
#[test]
fn a_player_without_movement_passes_or_with_the_option_loses() {
    let mut g = walled_in(&two(), 'B', "buy");
    play(&mut g, "end");
    assert_eq!(g.to_move(), Army::Red);
    assert!(!g.has_movement());
    assert_eq!(legal(&g), ["pass"]);
    play(&mut g, "end"); // `end` reads as `pass` here
    assert_eq!(g.phase(), Phase::BonusDrops);
    play(&mut g, "+W@h1");
    assert_eq!(g.no_progress(), 0);

    let mut lose = two();
    lose.no_movement = NoMovement::Lose;
    let mut g = walled_in(&lose, 'B', "buy");
    play(&mut g, "end");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Team(1), EndReason::Stalemate))
    );
    assert_eq!(g.phase(), Phase::Over(Ending::NoMovement));
}

// ---------------------------------------------------------------- Phases

/// "Phases to Each Turn": collecting, movement, bonus drops, placing
/// weapons, buying, in that order; a phase with nothing to do but end it is
/// skipped (decision D2).
#[test]
fn phases_run_in_order_and_empty_ones_are_skipped() {
    let mut g = setup(
        &two(),
        &board(&[("e1", "RK"), ("d8", "BK"), ("a2", "RW")]),
        'R',
        "move",
        &[1, 0],
        &["s1", "-"],
        &["-", "-"],
    );
    play(&mut g, "e1-e2");
    assert_eq!(
        g.phase(),
        Phase::Arming,
        "no Reserve Warrior: bonus drops skipped"
    );
    play(&mut g, "S@a2N");
    assert_eq!(
        (g.to_move(), g.phase()),
        (Army::Blue, Phase::Movement),
        "nothing more to arm and $1 buys nothing"
    );
}

// ---------------------------------------------------------------- Doubles

/// "Players make teams and each person sits across the board from their
/// teammate (still using the clockwise turn sequence and starting their
/// Kings on E1, D8, A4 and H5)."
#[test]
fn doubles_kings_on_e1_a4_d8_h5_teammates_across_clockwise() {
    let mut g = Warrior::new(&four());
    let kings: Vec<(String, Army)> = g.pieces().map(|(s, p)| (s.to_string(), p.army)).collect();
    assert_eq!(
        kings,
        [
            ("e1".to_owned(), Army::Red),
            ("a4".to_owned(), Army::Blue),
            ("h5".to_owned(), Army::Yellow),
            ("d8".to_owned(), Army::Green),
        ]
    );
    assert_eq!(
        g.seating(),
        Seating::with_teams(vec![Team(0), Team(1), Team(0), Team(1)])
    );
    let mut order = Vec::new();
    for step in ["e1-e2", "a4-a5", "d8-d7", "h5-h6", "e2-e3"] {
        order.push(g.to_move());
        play(&mut g, step);
        while g.phase() != Phase::Movement {
            play(&mut g, "end");
        }
    }
    assert_eq!(
        order,
        [Army::Red, Army::Blue, Army::Green, Army::Yellow, Army::Red]
    );
    assert_eq!(g.team_name(Team(0)), "Red and Green");
    assert_eq!(g.team_name(Team(1)), "Blue and Yellow");
    assert_eq!(g.player_name(Player(3)), "Yellow");
}

/// "The first player and his partner start the game with no money and their
/// opponents start the game with $1 each."
#[test]
fn doubles_first_player_and_partner_start_with_nothing_opponents_with_1() {
    let g = Warrior::new(&four());
    let money: Vec<u8> = g.armies().map(|a| g.money(a).0).collect();
    assert_eq!(money, [1, 1, 0, 1], "Red has already collected $1");
}

/// "The object in a doubles game is to capture just one of the opposite
/// team's Kings."
#[test]
fn doubles_capturing_either_king_of_the_other_team_wins() {
    for (victim_square, victim) in [("a4", "BK"), ("h5", "YK")] {
        let mut pieces = vec![("e1", "RK"), ("a4", "BK"), ("d8", "GK"), ("h5", "YK")];
        let attacker = if victim == "BK" {
            ("a1", "RWr")
        } else {
            ("h1", "RWr")
        };
        pieces.push(attacker);
        let mut g = setup(
            &four(),
            &board(&pieces),
            'R',
            "move",
            &[0, 0, 0, 0],
            &["-", "-", "-", "-"],
            &["-", "-", "-", "-"],
        );
        play(&mut g, &format!("{}x{victim_square}", attacker.0));
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Team(0), EndReason::KingCaptured))
        );
        let results = g.outcome().unwrap().results(&g.seating());
        assert_eq!(results[2].1, tabula_core::GameResult::Win, "Green wins too");
    }
}

/// "Teammates must work together ... but they can only move their own
/// pieces and cannot lend or borrow any money, weapons or Warriors to each
/// other": a partner's pieces block and are never captured, armed or moved.
#[test]
fn doubles_partners_neither_capture_nor_use_each_others_pieces() {
    let mut g = setup(
        &four(),
        &board(&[
            ("e1", "RK"),
            ("a4", "BK"),
            ("d8", "GK"),
            ("h5", "YK"),
            ("c1", "RWr"),
            ("c5", "GW"),
        ]),
        'R',
        "move",
        &[0, 0, 0, 0],
        &["s1", "-", "-", "-"],
        &["-", "-", "-", "-"],
    );
    let t = targets(&g, "c1");
    assert!(t.contains(&"c4".to_owned()) && !t.iter().any(|s| s.ends_with("c5") || s == "c6"));
    let e = refused(&mut g, "c1xc5");
    assert!(e.contains("holds no opponent's piece"), "{e}");
    let e = refused(&mut g, "c5-c6");
    assert!(e.contains("holds no piece of the player's"), "{e}");
    play(&mut g, "e1-e2");
    // Arming: only Red's own Warriors.
    let e = refused(&mut g, "S@c5N");
    assert!(e.contains("no Warrior of the player's"), "{e}");
    // Money and Reserve are each player's own: the view lists them apart.
    let v = g.whole_view();
    assert_eq!(v.players.len(), 4);
}

/// A doubles player who resigns loses for the team (decision D18): the
/// seating puts partners in one team.
#[test]
fn doubles_resignation_loses_for_the_team() {
    let g = Warrior::new(&four());
    assert_eq!(
        Outcome::resignation(&g.seating(), Player(1)),
        Some(Outcome::win(Team(0), EndReason::Resignation)),
        "Blue resigned: Red and Green win"
    );
    assert_eq!(
        Outcome::resignation(&g.seating(), Player(2)),
        Some(Outcome::win(Team(1), EndReason::Resignation)),
        "Green resigned: Blue and Yellow win"
    );
    assert_eq!(
        g.describe_outcome(&Outcome::resignation(&g.seating(), Player(1)).unwrap()),
        "Red and Green win by resignation"
    );
}

/// "All other rules of Warrior Chess still apply": fifty movements each is
/// 200 turns with four players.
#[test]
fn doubles_fifty_moves_each_is_200_turns() {
    let mut g = fifty(&four(), 199, "-");
    play(&mut g, "e1-e2");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
    let mut g = fifty(&four(), 198, "-");
    play(&mut g, "e1-e2");
    assert!(g.outcome().is_none());
}

// ---------------------------------------------------------------- Options

#[test]
fn options_are_listed_set_from_text_and_round_trip() {
    let keys: Vec<&str> = WarriorOptions::specs().iter().map(|s| s.key).collect();
    assert_eq!(
        keys,
        ["players", "no-movement", "fifty-moves", "duplicate-weapons"]
    );
    let mut o = WarriorOptions::default();
    assert_eq!(o.players, Players::Two);
    assert!(o.to_pairs().is_empty());
    o.set("players", "4").unwrap();
    o.set("no-movement", "lose").unwrap();
    o.set("fifty-moves", "claim").unwrap();
    o.set("duplicate-weapons", "on").unwrap();
    assert_eq!(o.players, Players::Four);
    assert_eq!(o.fifty_moves, FiftyMoves::Claim);
    let mut again = WarriorOptions::default();
    for (k, v) in o.to_pairs() {
        again.set(&k, &v).unwrap();
    }
    assert_eq!(again, o);
    let e = o.set("players", "3").unwrap_err().to_string();
    assert!(e.contains("expected 2|4"), "{e}");
    let e = o.set("colour", "red").unwrap_err().to_string();
    assert!(e.contains("warrior has no option 'colour'"), "{e}");
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(serde_json::from_str::<WarriorOptions>(&json).unwrap(), o);
    assert!(serde_json::from_str::<WarriorOptions>(r#"{"players":3}"#).is_err());
}

#[test]
fn two_player_seating_and_names() {
    let g = Warrior::new(&two());
    assert_eq!(g.seating(), Seating::two_players());
    assert_eq!(g.player_name(Player(0)), "Red");
    assert_eq!(g.player_name(Player(1)), "Blue");
    assert_eq!(g.team_name(Team(1)), "Blue");
    assert_eq!(<Warrior as Game>::ID, tabula_core::GameId::Warrior);
}
