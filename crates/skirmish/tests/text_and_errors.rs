//! The position text (every example of `docs/rules/skirmish.md`), its
//! errors, notation, illegal actions, and the view.

mod common;

use common::{game, play};
use tabula_core::{Game, Viewer};
use tabula_skirmish::{
    ActionError, Field, Phase, PositionError, Skirmish, SkirmishAction, SkirmishOptions,
};

fn basic() -> SkirmishOptions {
    SkirmishOptions::default()
}

/// The examples printed in `docs/rules/skirmish.md`: options, the starting
/// text (a bare FEN, or the start), the actions played, the text reached.
const EXAMPLES: &[(&str, &str, &[&str], &str)] = &[
    (
        "basic",
        "",
        &[],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - act - -",
    ),
    (
        "advanced",
        "",
        &[],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 mode=advanced act - -",
    ),
    (
        "basic",
        "",
        &["e4", "d5", "exd5"],
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 - roll:capture:e4d5 acted -",
    ),
    (
        "basic",
        "",
        &["e4", "d5", "exd5", "roll:2-5"],
        "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2 - choice:e4:d5 acted,progress -",
    ),
    (
        "basic",
        "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1",
        &[],
        "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1 - roll:check:b5 - -",
    ),
    (
        "basic",
        "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1",
        &["roll:1-6"],
        "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1 - act ex:b5 -",
    ),
    (
        "basic",
        "",
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"],
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3 - act - 7f52a2f5bb91ff36,ee8cd603e91736df,668784b59b1b6a8c,f759f043c99da365,7f52a2f5bb91ff36",
    ),
    (
        "basic",
        "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        &["roll:6-1"],
        "4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1 - over:w:checkmate - -",
    ),
    (
        "advanced",
        "6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1",
        &["Kg1-g2"],
        "6k1/8/8/3pp2p/8/1B3N2/6K1/7R w - - 0 1 mode=advanced act acted,movement,moved:g2,start:63625e2a93fabd8b -",
    ),
    (
        "advanced",
        "6k1/p7/8/p2p4/8/8/8/3R2K1 w - - 0 1",
        &["Rxd5", "roll:6-1"],
        "6k1/p7/8/p2R4/8/8/8/6K1 w - - 0 1 mode=advanced act acted,progress,att:d5:1 -",
    ),
    (
        "advanced",
        "6k1/8/1p6/8/8/1p6/1p6/R5K1 w - - 0 1",
        &["tac:a1a5:b2", "roll:6-1"],
        "6k1/8/1p6/8/8/1p6/8/R5K1 w - - 0 1 mode=advanced tactical:a1a5:0 acted,movement,progress,moved:a1 -",
    ),
    (
        "advanced",
        "6k1/8/3p4/2p1p3/3Q4/8/8/6K1 w - - 0 1",
        &["div:d4:c5,e5,d6", "roll:6-1"],
        "6k1/8/3p4/4p3/3Q4/8/8/6K1 w - - 0 1 mode=advanced roll:divided:d4:c5+,e5,d6 acted,progress -",
    ),
    (
        "advanced",
        "6k1/8/3p4/2p1p3/3Q4/8/8/6K1 w - - 0 1",
        &["div:d4:c5,e5,d6", "roll:6-1", "roll:6-1", "roll:6-1"],
        "6k1/8/8/8/3Q4/8/8/6K1 w - - 0 1 mode=advanced place:d4:c5,e5,d6 acted,progress -",
    ),
];

#[test]
fn the_documented_examples_are_reached_and_read_back_exactly() {
    for (mode, fen, actions, text) in EXAMPLES {
        let o = if *mode == "advanced" {
            SkirmishOptions::advanced()
        } else {
            basic()
        };
        let mut played = if fen.is_empty() {
            Skirmish::new(&o)
        } else {
            game(fen, o)
        };
        play(&mut played, actions);
        assert_eq!(played.to_text(), *text, "after {actions:?}");
        let read = Skirmish::from_text(text, &o).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read, played);
        assert_eq!(read.to_text(), *text);
        // The text carries its options: read under the defaults, too.
        assert_eq!(Skirmish::from_text(text, &basic()).unwrap(), played);
    }
}

#[test]
fn a_bare_fen_starts_a_turn_under_the_options_given() {
    let g = Skirmish::from_text("4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1", &basic()).unwrap();
    assert!(matches!(g.phase(), Phase::Roll(_)));
    assert_eq!(
        g.to_text(),
        "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1 - roll:check:b5 - -"
    );
}

fn field_of(text: &str, options: &SkirmishOptions) -> Field {
    match Skirmish::from_text(text, options) {
        Err(PositionError { field, .. }) => field,
        Ok(g) => panic!("accepted {text}: {}", g.to_text()),
    }
}

#[test]
fn bad_position_texts_are_refused_naming_the_field() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let o = basic();
    assert_eq!(field_of("", &o), Field::Whole);
    assert_eq!(field_of(&format!("{start} - act -"), &o), Field::Whole);
    assert_eq!(
        field_of(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            &o
        ),
        Field::Fen
    );
    assert_eq!(field_of("8/8/8/8/8/8/8/8 w - - 0 1", &o), Field::Placement);
    assert_eq!(
        field_of("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", &o),
        Field::Placement
    );
    assert_eq!(
        field_of("4k3/8/8/8/8/8/8/4K3 w K - 0 1", &o),
        Field::Castling
    );
    assert_eq!(
        field_of("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", &o),
        Field::EnPassant
    );
    assert_eq!(
        field_of(&format!("{start} colour=red act - -"), &o),
        Field::Options
    );
    assert_eq!(
        field_of(&format!("{start} attack-bonus act - -"), &o),
        Field::Options
    );
    // Options in the text must agree with non-default options given.
    let mut other = basic();
    other.attack_bonus = 2;
    assert_eq!(
        field_of(&format!("{start} mode=advanced act - -"), &other),
        Field::Options
    );
    assert_eq!(field_of(&format!("{start} - dance - -"), &o), Field::Phase);
    assert_eq!(
        field_of(&format!("{start} - roll:capture:e2e4 - -"), &o),
        Field::Phase
    );
    assert_eq!(
        field_of(&format!("{start} - tactical:b1c3:0 - -"), &o),
        Field::Phase
    );
    assert_eq!(
        field_of(&format!("{start} - roll:check:e8 - -"), &o),
        Field::Phase
    );
    assert_eq!(
        field_of(&format!("{start} - over:x:checkmate - -"), &o),
        Field::Phase
    );
    assert_eq!(
        field_of(&format!("{start} - act jumped -"), &o),
        Field::Turn
    );
    assert_eq!(
        field_of(&format!("{start} - act att:e4:0 -"), &o),
        Field::Turn
    );
    assert_eq!(
        field_of(&format!("{start} - act movement -"), &o),
        Field::Turn
    );
    assert_eq!(field_of(&format!("{start} - act - 12"), &o), Field::History);
    assert_eq!(
        field_of(&format!("{start} - act progress 0000000000000000"), &o),
        Field::History
    );
    // Messages say what is wrong.
    let e = Skirmish::from_text(&format!("{start} - dance - -"), &o).unwrap_err();
    assert!(e.to_string().contains("phase (field 8)"), "{e}");
}

#[test]
fn illegal_actions_are_refused_with_a_typed_error_and_change_nothing() {
    let mut g = Skirmish::new(&basic());
    let cases: Vec<(Skirmish, &str)> = {
        let start = g.clone();
        play(&mut g, &["e4", "d5", "exd5"]);
        let rolling = g.clone();
        play(&mut g, &["roll:1-6"]);
        let choosing = g.clone();
        let mut over = Skirmish::new(&basic());
        play(&mut over, &["f3", "e5", "g4", "Qh4", "given"]);
        vec![
            (start.clone(), "e2e5"),
            (start.clone(), "roll:3-4"),
            (start.clone(), "stay"),
            (start.clone(), "given"),
            (start.clone(), "end"),
            (start.clone(), "tac:b1c3:c3"),
            (rolling.clone(), "e7e5"),
            (rolling.clone(), "roll:7-1"),
            (rolling.clone(), "roll:0-3"),
            (rolling.clone(), "given"),
            (choosing.clone(), "e7e5"),
            (choosing.clone(), "take:d5e5"),
            (choosing.clone(), "roll:3-3"),
            (over.clone(), "e2e4"),
        ]
    };
    for (state, text) in cases {
        let a: SkirmishAction = text.parse().unwrap();
        let mut copy = state.clone();
        let err = copy.apply(&a).unwrap_err();
        assert!(
            matches!(err, ActionError::Illegal { .. } | ActionError::GameOver(_)),
            "{text}: {err}"
        );
        assert_eq!(copy, state, "{text}");
        assert!(state.parse_action(text).is_err(), "{text}");
    }
    assert!(matches!(
        Skirmish::new(&basic()).parse_action("zz9"),
        Err(ActionError::Syntax(_))
    ));
    assert!(matches!(
        Skirmish::new(&basic()).parse_action("N"),
        Err(ActionError::Syntax(_))
    ));
}

#[test]
fn notation_reads_san_long_algebraic_and_canonical() {
    let g = Skirmish::new(&basic());
    for text in ["Nf3", "Ng1-f3", "g1f3", "Nf3+"] {
        assert_eq!(g.parse_action(text).unwrap().to_string(), "g1f3", "{text}");
    }
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", basic());
    assert_eq!(g.parse_action("O-O").unwrap().to_string(), "e1g1");
    assert_eq!(g.action_notation(&"e1c1".parse().unwrap()), "O-O-O");
    play(&mut g, &["Rxa8"]);
    assert_eq!(g.action_notation(&"roll:3-4".parse().unwrap()), "roll:3-4");
    // Two Rooks can reach d1: the short form is ambiguous.
    let g = game("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", basic());
    assert!(matches!(
        g.parse_action("Rd1"),
        Err(ActionError::Ambiguous { .. })
    ));
    assert_eq!(g.parse_action("Rad1").unwrap().to_string(), "a1d1");
    // Well-formed but illegal notation is reported as illegal, not
    // unreadable.
    for text in ["Ra1-b2", "Re2-e3", "tac:Ra1-a5:xb3", "Qd1", "take"] {
        assert!(
            matches!(g.parse_action(text), Err(ActionError::Illegal { .. })),
            "{text}"
        );
    }
}

#[test]
fn the_view_shows_the_odds_before_the_roll_and_serializes() {
    let mut g = Skirmish::new(&basic());
    play(&mut g, &["e4", "d5"]);
    let view = g.view(Viewer::Public);
    let attack = view.offers.iter().find(|l| l.action == "e4d5").unwrap();
    assert_eq!(attack.notation, "e4xd5");
    assert_eq!(attack.odds[0].win_probability.to_string(), "7/12");
    assert_eq!(attack.odds[0].attacker, "white pawn on e4");
    assert_eq!(attack.odds[0].defender, "black pawn on d5");
    play(&mut g, &["exd5"]);
    let view = g.view(Viewer::Public);
    let pending = view.pending.as_ref().unwrap();
    assert_eq!(
        (pending.attack_value, pending.bonus, pending.defence_value),
        (1, 1, 1)
    );
    assert_eq!(pending.dice, "1d6");
    let json = serde_json::to_string(&view).unwrap();
    assert!(json.contains("\"win_probability\":[7,12]"), "{json}");
    assert_eq!(g.player_name(tabula_core::Player(0)), "White");
    assert_eq!(g.player_name(tabula_core::Player(1)), "Black");
}

#[test]
fn the_record_printed_in_the_docs_replays() {
    let mut g = game(
        "6k1/8/8/3pp2p/8/1B3N2/8/6KR w - - 0 1",
        SkirmishOptions::advanced(),
    );
    let record = "Nf3xe5 roll:6-1 Bb3xd5 roll:1-6 take:d5-b3 Kg1-g2 end";
    let mut printed = Vec::new();
    for text in record.split(' ') {
        let a = g.parse_action(text).unwrap();
        printed.push(g.action_notation(&a));
        g.apply(&a).unwrap();
    }
    assert_eq!(printed.join(" "), record);
    assert_eq!(g.turn(), tabula_chess::Color::Black);
}
