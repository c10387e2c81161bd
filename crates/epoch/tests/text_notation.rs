//! Position text, notation, the Game contract, perft.

mod common;

use common::{game, play};
use tabula_core::{Game, Options, Viewer};
use tabula_epoch::{ActionError, Epoch, EpochOptions, Field, Move, PositionError};

const START: &str = "sthgaepmaghts/13/lllllllllllll/13/13/13/13/13/13/13/LLLLLLLLLLLLL/13/STHGAEPMAGHTS w KQkq - - - - 0 1 s";

#[test]
fn start_position_text() {
    let g = Epoch::new(&EpochOptions::default());
    assert_eq!(g.to_text(), START);
    let back = Epoch::from_text(START, &EpochOptions::default()).unwrap();
    assert_eq!(back, g);
}

#[test]
fn position_errors_name_the_field() {
    let o = EpochOptions::default();
    let field_of = |t: &str| match Epoch::from_text(t, &o) {
        Err(PositionError::BadField { field, .. }) => Some(field),
        Err(PositionError::FieldCount { .. }) => None,
        Ok(_) => panic!("accepted {t}"),
    };
    let with = |i: usize, v: &str| {
        let mut f: Vec<&str> = START.split(' ').collect();
        f[i] = v;
        f.join(" ")
    };
    assert_eq!(field_of("x"), None);
    assert_eq!(field_of(&with(0, "13/13")), Some(Field::Placement));
    assert_eq!(field_of(&with(1, "x")), Some(Field::SideToMove));
    assert_eq!(field_of(&with(2, "KX")), Some(Field::Castling));
    assert_eq!(field_of(&with(3, "e6")), Some(Field::EnPassant));
    assert_eq!(field_of(&with(4, "q")), Some(Field::Riposte));
    assert_eq!(field_of(&with(5, "X")), Some(Field::Emperors));
    assert_eq!(field_of(&with(6, "Pc")), Some(Field::Slots));
    assert_eq!(field_of(&with(7, "-1")), Some(Field::NoProgress));
    assert_eq!(field_of(&with(8, "0")), Some(Field::MoveNumber));
    assert_eq!(field_of(&with(9, "y")), Some(Field::Swap));
    assert_eq!(field_of(&format!("{START} zz")), Some(Field::History));
    let err = Epoch::from_text(&with(1, "x"), &o).unwrap_err();
    assert!(err.to_string().contains("side to move"), "{err}");
}

#[test]
fn text_round_trips_with_every_field_set() {
    let mut g = Epoch::new(&EpochOptions::default());
    for m in [
        "g3g7", "swap", "f11f7", "g7xf8", "b13d10", "b1d4", "d10b13", "d4b1",
    ] {
        play(&mut g, m);
    }
    let t = g.to_text();
    let back = Epoch::from_text(&t, &EpochOptions::default()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.to_text(), t);
}

#[test]
fn app_long_algebraic_notation() {
    let g = Epoch::new(&EpochOptions::default());
    let n = |m: &str| g.action_notation(&g.parse_action(m).unwrap());
    assert_eq!(n("l1j2"), "Tl1-j2");
    assert_eq!(n("e3e7"), "e3-e7");
    assert_eq!(n("d1c2"), "Gd1-c2");
    let b = game("Pm1 Gd4 Ac3 pl13 te5 hb5 lb7", "w");
    let n = |m: &str| b.action_notation(&b.parse_action(m).unwrap());
    assert_eq!(n("d4xd4"), "Gd4xd4");
    let c = game("Pm1 Ac3 pl13 hf6", "w");
    assert_eq!(
        c.action_notation(&c.parse_action("c3xf6g7").unwrap()),
        "Ac3xg7"
    );
    let p = common::game_with("Pm1 Lc12 Le13 pk7", "w - - - - Sc,Sd,Td 0 10 -");
    let n = |m: &str| p.action_notation(&p.parse_action(m).unwrap());
    assert_eq!(n("c12c13=Td"), "c12-c13=T");
    assert_eq!(
        n("c12c13=Sc"),
        "c12-c13=Sc",
        "two Sentinel places: the file is named"
    );
    assert_eq!(n("e13=Sd"), "e13-e13=S");
}

#[test]
fn parse_every_documented_form() {
    let g = Epoch::new(&EpochOptions::default());
    let quiet = Move::Quiet {
        from: "g3".parse().unwrap(),
        to: "g7".parse().unwrap(),
    };
    for t in ["g3g7", "g3-g7", "Lg3-g7", "g3-g7^", " g3g7 "] {
        assert_eq!(g.parse_action(t), Ok(quiet), "{t}");
    }
    assert!(matches!(
        g.parse_action("g3g8"),
        Err(ActionError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_action("Tg3-g7"),
        Err(ActionError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_action("zz"),
        Err(ActionError::Unreadable { .. })
    ));
    let c = common::game_with("Pg1 Sa1 Sm1 Mg3 pg13 mg11", "w KQ - - - - 0 10 -");
    assert_eq!(
        c.parse_action("g1j1"),
        Ok(Move::Castle {
            wing: tabula_epoch::Wing::Marshal
        })
    );
    assert_eq!(c.parse_action("0-0-0"), c.parse_action("O-O-O"));
    let p = common::game_with("Pm1 Lc12 pk7", "w - - - - Sc,Sd 0 10 -");
    assert!(matches!(
        p.parse_action("c12c13"),
        Err(ActionError::Ambiguous { .. })
    ));
    assert!(matches!(
        p.parse_action("c12c13=S"),
        Err(ActionError::Ambiguous { .. })
    ));
    assert!(p.parse_action("c12c13=Sd").is_ok());
}

#[test]
fn apply_refuses_illegal_moves_and_leaves_the_state() {
    let mut g = Epoch::new(&EpochOptions::default());
    let before = g.clone();
    let bad: Move = "g3g8".parse().unwrap();
    assert!(g.apply(&bad).is_err());
    assert!(g.apply(&Move::Swap).is_err());
    assert_eq!(g, before);
}

#[test]
fn options_and_view() {
    let mut o = EpochOptions::default();
    assert_eq!(EpochOptions::specs().len(), 1);
    o.set("swap", "off").unwrap();
    assert_eq!(o.to_pairs(), vec![("swap".to_owned(), "off".to_owned())]);
    assert!(o.set("swap", "maybe").is_err());
    assert!(o.set("size", "9").is_err());
    let g = Epoch::new(&o);
    let json = serde_json::to_string(&g.view(Viewer::Public)).unwrap();
    assert!(json.contains("\"enhanced\":true"));
    assert!(json.contains("\"dormant\":true"));
}

#[test]
fn perft_from_the_start() {
    let g = Epoch::new(&EpochOptions::default());
    assert_eq!(g.perft(1), 81);
    assert_eq!(g.perft(2), 6629);
    assert_eq!(g.perft(3), 560_301);
    let n = Epoch::new(&EpochOptions { swap: false });
    assert_eq!(n.perft(2), 6548);
    assert_eq!(n.perft(3), 553_753);
}

#[test]
fn documented_examples_parse() {
    let o = EpochOptions::default();
    let mut g = Epoch::new(&o);
    play(&mut g, "g3-g7");
    assert_eq!(
        g.to_text(),
        "sthgaepmaghts/13/lllllllllllll/13/13/13/6L6/13/13/13/LLLLLL1LLLLLL/13/STHGAEPMAGHTS b KQkq g6 - - - 0 1 s"
    );
    let t = "12p/13/13/13/13/13/13/13/L12/13/13/13/P12 w - - - - Sb,tc 12 40 - 0123456789abcdef";
    let e = Epoch::from_text(t, &o).unwrap();
    assert_eq!(e.to_text(), t);
}

/// Found by the differential test (`differential.rs`): the text reader tested
/// the mover's Pope before reading the start-of-turn wake, so it accepted a
/// position in which the Emperor that wakes (here because its Marshal is
/// gone) stands on a clear line to the Pope of the side that just moved, a
/// position no legal move can leave (decision 20). The wake is read first now.
#[test]
fn text_refuses_a_pope_left_on_the_line_of_an_emperor_that_wakes() {
    let o = EpochOptions::default();
    // White has no Marshal, so its dormant Emperor on c10 wakes as White's
    // turn opens, with the black Pope on f10 at the end of its rank.
    let text = |pieces: &str| format!("{} w - - - - - 0 10 -", common::placement(pieces));
    match Epoch::from_text(&text("Ec10 pf10 Pg1 mh13"), &o) {
        Err(PositionError::BadField { field, .. }) => assert_eq!(field, Field::Placement),
        other => panic!("accepted: {other:?}"),
    }
    // With a white Marshal the Emperor sleeps on and the text is fine.
    let g = Epoch::from_text(&text("Ec10 pf10 Pg1 Mm1 mh13"), &o).unwrap();
    assert!(!g.position().emperor_awake(tabula_epoch::Color::White));
    // Blocked line: the Emperor wakes, but the Pope is not attacked.
    let g = Epoch::from_text(&text("Ec10 Ld10 pf10 Pg1 mh13"), &o).unwrap();
    assert!(g.position().emperor_awake(tabula_epoch::Color::White));
}
