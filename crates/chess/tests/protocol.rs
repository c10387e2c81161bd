//! Chess's side of the table protocol: JSON actions, gestures, events,
//! holdings, the catalog, fault kinds and the state key.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use tabula_chess::{Chess, ChessAction, ChessOptions, DrawRules, Position};
use tabula_core::protocol::{EventKind, FaultKind, GestureKind, Place};
use tabula_core::{Game, Player, Viewer};

fn fide() -> ChessOptions {
    ChessOptions {
        draw_rules: DrawRules::Fide,
    }
}

fn game(fen: &str) -> Chess {
    Chess::from_text(fen, &ChessOptions::default()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(game: &mut Chess, moves: &[&str]) {
    for text in moves {
        let a = game
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(&a).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn legal(game: &Chess) -> Vec<ChessAction> {
    let mut v = Vec::new();
    game.legal_actions(&mut v);
    v
}

/// Starts rich in castling, en passant and promotions, so random games
/// reach every kind of move.
const STARTS: [&str; 5] = [
    tabula_chess::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
];

/// Every state of a seeded random game from one of [`STARTS`].
fn random_game(seed: u64, plies: usize) -> Vec<Chess> {
    let options = if seed.is_multiple_of(2) {
        ChessOptions::default()
    } else {
        fide()
    };
    let start = STARTS[(seed % STARTS.len() as u64) as usize];
    let mut game = Chess::from_text(start, &options).expect("start parses");
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut states = vec![game.clone()];
    for _ in 0..plies {
        let actions = legal(&game);
        if actions.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = actions[(x % actions.len() as u64) as usize];
        game.apply(&a).expect("legal action applies");
        states.push(game.clone());
    }
    states
}

// ---------------------------------------------------------------- JSON

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every legal action at every ply survives JSON and text round trips.
    #[test]
    fn json_and_text_round_trip_for_every_legal_action(seed in any::<u64>()) {
        for state in random_game(seed, 250) {
            for a in legal(&state) {
                let json = serde_json::to_string(&a).unwrap();
                let back: ChessAction = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back, a, "{}", json);
                prop_assert_eq!(a.to_string().parse::<ChessAction>(), Ok(a));
                prop_assert!(json.starts_with("{\"kind\":"), "{}", json);
            }
        }
    }

    /// Deserializing arbitrary text never panics.
    #[test]
    fn json_reading_never_panics(text in "\\PC{0,60}") {
        let _ = serde_json::from_str::<ChessAction>(&text);
    }

    /// Nor do objects of the right shape with arbitrary field values.
    #[test]
    fn json_fields_reading_never_panics(
        kind in "move|claim-draw|castle|\\PC{0,6}",
        from in "\\PC{0,4}",
        to in "[a-i][0-9]|\\PC{0,4}",
        promotion in proptest::option::of("\\PC{0,3}"),
    ) {
        let mut obj = serde_json::json!({"kind": kind, "from": from, "to": to});
        if let Some(p) = promotion {
            obj["promotion"] = serde_json::Value::String(p);
        }
        let _ = serde_json::from_value::<ChessAction>(obj);
    }
}

#[test]
fn json_form_is_the_documented_one() {
    let cases = [
        ("e2e4", r#"{"kind":"move","from":"e2","to":"e4"}"#),
        (
            "e7e8q",
            r#"{"kind":"move","from":"e7","to":"e8","promotion":"q"}"#,
        ),
        (
            "a2a1n",
            r#"{"kind":"move","from":"a2","to":"a1","promotion":"n"}"#,
        ),
        ("e1g1", r#"{"kind":"move","from":"e1","to":"g1"}"#),
        ("claim-draw", r#"{"kind":"claim-draw"}"#),
    ];
    for (text, json) in cases {
        let a: ChessAction = text.parse().unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), json);
        assert_eq!(serde_json::from_str::<ChessAction>(json).unwrap(), a);
    }
    // Upper-case promotion letters (the catalog's ids) are read too.
    let upper: ChessAction =
        serde_json::from_str(r#"{"kind":"move","from":"e7","to":"e8","promotion":"Q"}"#).unwrap();
    assert_eq!(upper.to_string(), "e7e8q");
    // A JSON action plays like its text.
    let mut g = Chess::new(&ChessOptions::default());
    let a: ChessAction = serde_json::from_str(r#"{"kind":"move","from":"g1","to":"f3"}"#).unwrap();
    g.apply(&a).unwrap();
    assert_eq!(
        g.to_text(),
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    );
}

#[test]
fn malformed_json_is_refused() {
    for bad in [
        r#""e2e4""#,
        r#"{}"#,
        r#"[]"#,
        r#"null"#,
        r#"{"kind":"move"}"#,
        r#"{"kind":"move","from":"e2"}"#,
        r#"{"kind":"move","to":"e4"}"#,
        r#"{"kind":"move","from":"e9","to":"e4"}"#,
        r#"{"kind":"move","from":"i2","to":"e4"}"#,
        r#"{"kind":"move","from":"E2","to":"e4"}"#,
        r#"{"kind":"move","from":"e2 ","to":"e4"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":"k"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":"p"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":"qq"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","promotion":""}"#,
        r#"{"kind":"move","from":2,"to":"e4"}"#,
        r#"{"kind":"move","from":"e2","to":"e4","piece":"P"}"#,
        r#"{"kind":"castle","from":"e1","to":"g1"}"#,
        r#"{"kind":"Move","from":"e2","to":"e4"}"#,
        r#"{"kind":"claim-draw","reason":"repetition"}"#,
        r#"{"kind":"resign"}"#,
        r#"{"from":"e2","to":"e4"}"#,
    ] {
        assert!(
            serde_json::from_str::<ChessAction>(bad).is_err(),
            "{bad} was accepted"
        );
    }
}

// ---------------------------------------------------------------- gestures

/// The gesture rules of the protocol, at every ply of seeded random games:
/// every legal action has a board gesture (never the placeholder button),
/// no two share an identity, every named cell is a catalog cell, and no
/// zone item is named (chess has no zones).
#[test]
fn gestures_follow_the_contract_along_random_games() {
    let cells: HashSet<String> = Chess::catalog(&ChessOptions::default())
        .board
        .cells()
        .into_iter()
        .collect();
    let mut seen: HashMap<GestureKind, usize> = HashMap::new();
    let mut promotions = 0;
    for seed in 0..40 {
        for state in random_game(seed, 300) {
            let actions = legal(&state);
            let mut identities = HashSet::new();
            for a in &actions {
                let g = state.gesture(a);
                *seen.entry(g.kind).or_default() += 1;
                assert!(identities.insert(g.clone()), "{a}: duplicate gesture");
                for c in g.cells() {
                    assert!(cells.contains(c), "{a}: {c} is not a board cell");
                }
                let fen = state.to_text();
                match a {
                    ChessAction::ClaimDraw => {
                        assert_eq!(g.kind, GestureKind::Claim);
                        assert!(matches!(g.from, Place::Button { .. }));
                    }
                    ChessAction::Move(m) => {
                        assert_eq!(g.from, Place::cell(m.from), "{a} in {fen}");
                        assert_eq!(g.to.as_deref(), Some(m.to.to_string().as_str()));
                        assert_eq!(
                            g.choice.as_ref().map(|c| c.id.clone()),
                            m.promotion.map(|r| r.char().to_string())
                        );
                        promotions += usize::from(m.promotion.is_some());
                        // A capture gesture exactly when a piece leaves the board.
                        let mut after = state.clone();
                        after.apply(a).unwrap();
                        let taken = after.view(Viewer::Public).pieces.len()
                            < state.view(Viewer::Public).pieces.len();
                        assert_eq!(g.kind == GestureKind::Capture, taken, "{a} in {fen}");
                    }
                }
            }
            // The identity the page uses is unique too, not just the whole gesture.
            let ids: HashSet<_> = actions
                .iter()
                .map(|a| {
                    let g = state.gesture(a);
                    (g.from.clone(), g.to.clone(), g.choice.clone())
                })
                .collect();
            assert_eq!(ids.len(), actions.len());
            assert!(state.zones(Viewer::Public).is_empty());
        }
    }
    for kind in [GestureKind::Move, GestureKind::Capture, GestureKind::Castle] {
        assert!(
            seen.get(&kind).copied().unwrap_or(0) > 0,
            "no {kind:?} seen"
        );
    }
    assert!(promotions > 0, "no promotion seen");
}

#[test]
fn gestures_of_the_special_moves() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let oo = g.gesture(&"e1g1".parse().unwrap());
    assert_eq!(oo.kind, GestureKind::Castle);
    assert_eq!(oo.from, Place::cell("e1"));
    assert_eq!(oo.to.as_deref(), Some("g1"));
    assert_eq!(oo.touches, ["h1", "f1"]);
    let ooo = g.gesture(&"e1c1".parse().unwrap());
    assert_eq!(ooo.to.as_deref(), Some("c1"));
    assert_eq!(ooo.touches, ["a1", "d1"]);
    let rook = g.gesture(&"a1a8".parse().unwrap());
    assert_eq!(rook.kind, GestureKind::Capture);
    assert!(rook.touches.is_empty() && rook.choice.is_none());

    let ep = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let g = ep.gesture(&"e5d6".parse().unwrap());
    assert_eq!(g.kind, GestureKind::Capture);
    assert_eq!(g.touches, ["d5"]);
    assert_eq!(ep.gesture(&"e5e6".parse().unwrap()).kind, GestureKind::Move);

    let promo = game("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let mut choices = Vec::new();
    for a in legal(&promo) {
        let g = promo.gesture(&a);
        if g.to.as_deref() == Some("e8") {
            assert_eq!(g.kind, GestureKind::Move);
            let c = g.choice.expect("a promotion asks which piece");
            choices.push((c.id, c.label));
        }
        if g.to.as_deref() == Some("d8") {
            assert_eq!(g.kind, GestureKind::Capture);
        }
    }
    // e7e8 is blocked by the King; the pawn promotes by taking on d8.
    assert!(choices.is_empty());
    let promo = game("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1");
    for a in legal(&promo) {
        let g = promo.gesture(&a);
        if g.from == Place::cell("e7") && g.to.as_deref() == Some("e8") {
            let c = g.choice.expect("a promotion asks which piece");
            choices.push((c.id, c.label));
        }
    }
    choices.sort();
    let want: Vec<(String, String)> = [
        ("b", "Bishop"),
        ("n", "Knight"),
        ("q", "Queen"),
        ("r", "Rook"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(choices, want);

    let mut claim = Chess::new(&fide());
    for _ in 0..2 {
        play(&mut claim, &["Nf3", "Nf6", "Ng1", "Ng8"]);
    }
    let g = claim.gesture(&ChessAction::ClaimDraw);
    assert_eq!(g.kind, GestureKind::Claim);
    assert_eq!(g.from, Place::button("claim-draw", "Claim a draw"));
    assert!(g.to.is_none());
}

// ---------------------------------------------------------------- events

fn events_of(g: &Chess, text: &str) -> Vec<tabula_core::protocol::Event> {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut after = g.clone();
    after.apply(&a).unwrap();
    g.events(&a, &after, Viewer::Public)
}

fn texts(events: &[tabula_core::protocol::Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

#[test]
fn events_speak_the_book_words() {
    // A quiet move.
    let start = Chess::new(&ChessOptions::default());
    let e = events_of(&start, "Nf3");
    assert_eq!(texts(&e), ["White's Knight from g1 to f3"]);
    assert_eq!(e[0].kind, EventKind::Move);
    assert_eq!(e[0].player, Some(Player(0)));
    assert_eq!(e[0].cells, ["g1", "f3"]);
    assert_eq!(e[0].data["piece"], "N");
    assert_eq!(e[0].data["from"], "g1");
    assert_eq!(e[0].data["to"], "f3");

    // A capture.
    let mut g = Chess::new(&ChessOptions::default());
    play(&mut g, &["Nf3", "b6", "e3"]);
    let e = events_of(&g, "Bb7");
    assert_eq!(texts(&e), ["Black's Bishop from c8 to b7"]);
    play(&mut g, &["Bb7", "d3"]);
    let e = events_of(&g, "Bxf3");
    assert_eq!(texts(&e), ["Black's Bishop takes the Knight on f3"]);
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].player, Some(Player(1)));
    assert_eq!(e[0].data["piece"], "B");
    assert_eq!(e[0].data["captured"], "N");
    assert_eq!(e[0].data["captured_on"], "f3");
    assert_eq!(e[0].data["captured_owner"], 0);
    assert_eq!(e[0].data["from"], "b7");
    assert_eq!(e[0].data["to"], "f3");

    // Castling, both sides.
    let c = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let e = events_of(&c, "O-O");
    assert_eq!(texts(&e), ["White castles kingside"]);
    assert_eq!(e[0].kind, EventKind::Castle);
    assert_eq!(e[0].cells, ["e1", "g1", "h1", "f1"]);
    assert_eq!(e[0].data["side"], "kingside");
    assert_eq!(e[0].data["rook_from"], "h1");
    assert_eq!(e[0].data["rook_to"], "f1");
    let c = game("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(texts(&events_of(&c, "O-O-O")), ["Black castles queenside"]);

    // Promotion, with check.
    let p = game("3k4/6P1/8/8/8/8/8/4K3 w - - 0 1");
    let e = events_of(&p, "g8=Q+");
    assert_eq!(
        texts(&e),
        [
            "White's Pawn from g7 to g8",
            "White's Pawn promotes to a Queen on g8",
            "Check"
        ]
    );
    assert_eq!(e[1].kind, EventKind::Promote);
    assert_eq!(e[1].data["promotion"], "Q");
    assert_eq!(e[1].data["on"], "g8");
    assert_eq!(e[2].kind, EventKind::Check);
    // The side in check: Black.
    assert_eq!(e[2].player, Some(Player(1)));
    assert_eq!(e[2].cells, ["d8"]);
    assert_eq!(e[2].data["king"], "d8");
    assert_eq!(e[2].data["checkers"], serde_json::json!(["g8"]));
    assert!(e[2].data.get("checked").is_none());
    let e = events_of(&p, "g8=N");
    assert_eq!(e[1].text, "White's Pawn promotes to a Knight on g8");
    // No check from the Knight, and King and Knight cannot mate.
    assert_eq!(
        e[2].text,
        "Draw: neither side can checkmate (insufficient material)"
    );
    assert_eq!(e[2].data["reason"], "insufficient-material");
    assert_eq!(e.len(), 3);

    // En passant.
    let ep = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let e = events_of(&ep, "exd6");
    assert_eq!(
        texts(&e),
        ["White's Pawn takes the Pawn on d5 en passant and lands on d6"]
    );
    assert_eq!(e[0].kind, EventKind::Capture);
    assert_eq!(e[0].cells, ["e5", "d6", "d5"]);
    assert_eq!(e[0].data["en_passant"], true);
    assert_eq!(e[0].data["captured_on"], "d5");
    assert_eq!(e[0].data["captured_owner"], 1);
    assert_eq!(e[0].data["piece"], "P");
    assert_eq!(e[0].data["from"], "e5");
    assert_eq!(e[0].data["to"], "d6");
    assert_eq!(e[0].data["captured"], "P");

    // Checkmate ends the game in an event, not a check.
    let mut fool = Chess::new(&ChessOptions::default());
    play(&mut fool, &["f3", "e5", "g4"]);
    let e = events_of(&fool, "Qh4#");
    assert_eq!(
        texts(&e),
        ["Black's Queen from d8 to h4", "Checkmate: Black wins"]
    );
    assert_eq!(e[1].kind, EventKind::End);
    assert_eq!(e[1].data["reason"], "checkmate");
    // The winning team (Black's team is 1, as its seat).
    assert_eq!(e[1].data["winner"], 1);
    assert_eq!(e[1].player, Some(Player(1)));
    assert_eq!(e[1].cells, ["e1"]);

    // Stalemate.
    let s = game("7k/8/4Q3/6K1/8/8/8/8 w - - 0 1");
    let e = events_of(&s, "Qf7");
    assert_eq!(e[1].kind, EventKind::End);
    assert_eq!(e[1].data["reason"], "stalemate");
    assert_eq!(e[1].data["winner"], serde_json::Value::Null);
    assert_eq!(
        e[1].text,
        "Draw by stalemate: Black has no legal move and is not in check"
    );

    // A draw claim.
    let mut claim = Chess::new(&fide());
    for _ in 0..2 {
        play(&mut claim, &["Nf3", "Nf6", "Ng1", "Ng8"]);
    }
    let mut after = claim.clone();
    after.apply(&ChessAction::ClaimDraw).unwrap();
    let e = claim.events(&ChessAction::ClaimDraw, &after, Viewer::Public);
    assert_eq!(texts(&e), ["White claims a draw by threefold repetition"]);
    assert_eq!(e[0].data["rules"], serde_json::json!(["repetition"]));
    assert_eq!(e[0].data["reason"], "draw-claimed");
    assert_eq!(e[0].data["winner"], serde_json::Value::Null);

    // The automatic threefold repetition.
    let mut rep = Chess::new(&ChessOptions::default());
    play(&mut rep, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    let e = events_of(&rep, "Ng8");
    assert_eq!(e[1].text, "Draw by threefold repetition");
}

#[test]
fn every_action_of_random_games_has_an_event_with_text() {
    let mut kinds = HashSet::new();
    for seed in 0..24 {
        let states = random_game(seed, 300);
        for pair in states.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            // Recover the action that was played.
            let played = legal(before)
                .into_iter()
                .find(|a| {
                    let mut c = before.clone();
                    c.apply(a).unwrap();
                    c == *after
                })
                .expect("the step is a legal action");
            let events = before.events(&played, after, Viewer::Public);
            assert!(!events.is_empty(), "{played}");
            for e in &events {
                assert!(!e.text.is_empty(), "{played}: {e:?}");
                kinds.insert(format!("{:?}", e.kind));
            }
        }
    }
    for k in ["Move", "Capture", "Castle", "Promote", "Check", "End"] {
        assert!(kinds.contains(k), "no {k} event seen: {kinds:?}");
    }
}

// ---------------------------------------------------------------- faults

#[test]
fn fault_kinds_classify_refusals() {
    let start = Chess::new(&ChessOptions::default());
    let kind = |g: &Chess, text: &str| Chess::fault_kind(&g.parse_action(text).unwrap_err());
    assert_eq!(kind(&start, "hello"), FaultKind::Unreadable);
    assert_eq!(kind(&start, "e9e4"), FaultKind::Unreadable);
    assert_eq!(kind(&start, ""), FaultKind::Unreadable);
    assert_eq!(kind(&start, "e2e5"), FaultKind::Illegal);
    assert_eq!(kind(&start, "Qd4"), FaultKind::Illegal);
    assert_eq!(kind(&start, "claim-draw"), FaultKind::Illegal);
    let two_knights = game("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(kind(&two_knights, "Nd2"), FaultKind::Ambiguous);
    assert!(two_knights.parse_action("Nbd2").is_ok());
    let mut fool = Chess::new(&ChessOptions::default());
    play(&mut fool, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(kind(&fool, "e4"), FaultKind::GameOver);
    // Playing an illegal action (as JSON would) is illegal, not unreadable.
    let mut copy = start.clone();
    let err = copy.apply(&"e2e5".parse().unwrap()).unwrap_err();
    assert_eq!(Chess::fault_kind(&err), FaultKind::Illegal);
}

// ---------------------------------------------------------------- key

#[test]
fn transpositions_share_the_key() {
    let mut a = Chess::new(&ChessOptions::default());
    play(&mut a, &["Nf3", "Nf6", "Nc3", "Nc6"]);
    let mut b = Chess::new(&ChessOptions::default());
    play(&mut b, &["Nc3", "Nc6", "Nf3", "Nf6"]);
    assert_eq!(a.to_text(), b.to_text());
    assert_eq!(a.key(), b.key());

    // Same position, FENs differ in an unusable en-passant square and the
    // move number: the documented choice gives one key.
    assert_eq!(
        game("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").key(),
        game("4k3/8/8/8/4P3/8/8/4K3 b - - 0 7").key()
    );
    // The halfmove clock is observed by the fifty-move rule: it is in the key.
    let mut c = Chess::new(&ChessOptions::default());
    play(&mut c, &["e4", "e5", "Nf3"]);
    let mut d = Chess::new(&ChessOptions::default());
    play(&mut d, &["Nf3", "e5", "e4"]);
    assert_eq!(c.position().hash(), d.position().hash());
    assert_ne!(c.key(), d.key());

    // A usable en-passant square is part of the position.
    let with_ep = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let without = game("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
    assert_ne!(with_ep.key(), without.key());
    // So are the side to move and the castling rights.
    assert_ne!(
        game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").key(),
        game("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1").key()
    );
    assert_ne!(
        game("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").key(),
        game("r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1").key()
    );
    // The key is not the placeholder hash of the text.
    assert_ne!(
        a.key(),
        tabula_core::protocol::fnv1a(a.to_text().as_bytes())
    );
}

/// The position as the key defines it: placement, side, castling, and the
/// en-passant square only when a pawn of the side to move attacks it, and
/// the halfmove clock.
fn identity(state: &Chess) -> String {
    let pos = state.position();
    let fen = state.to_text();
    let fields: Vec<&str> = fen.split(' ').collect();
    let ep = pos
        .ep_square()
        .filter(|&sq| {
            (tabula_chess::attacks::pawn_attacks(!pos.turn(), sq)
                & pos.board().pieces(pos.turn(), tabula_chess::Role::Pawn))
            .any()
        })
        .map_or_else(|| "-".to_owned(), |sq| sq.to_string());
    format!(
        "{} {} {} {ep} {}",
        fields[0], fields[1], fields[2], fields[4]
    )
}

#[test]
fn keys_of_random_states_match_positions() {
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let mut by_identity: HashMap<String, u64> = HashMap::new();
    let mut texts = HashSet::new();
    for seed in 0..30 {
        for state in random_game(seed, 200) {
            let key = state.key();
            // A state and its text round trip share the key.
            let back = Chess::from_text(&state.to_text(), state.options()).unwrap();
            assert_eq!(back.key(), key);
            assert_eq!(
                Position::from_fen(&state.to_text()).unwrap().hash(),
                state.position().hash()
            );
            let id = identity(&state);
            texts.insert(state.to_text());
            if let Some(old) = by_key.insert(key, id.clone()) {
                assert_eq!(old, id, "two positions share key {key:#x}");
            }
            if let Some(old) = by_identity.insert(id.clone(), key) {
                assert_eq!(old, key, "one position, two keys: {id}");
            }
        }
    }
    assert!(by_key.len() > 3000, "only {} positions", by_key.len());
    assert!(texts.len() >= by_key.len());
}

// ---------------------------------------------------------------- catalog, holdings, view

#[test]
fn catalog_names_the_board_and_pieces() {
    let c = Chess::catalog(&ChessOptions::default());
    assert_eq!(c.title, "Chess");
    assert_eq!(c.board.cells().len(), 64);
    let pieces: Vec<(&str, &str)> = c
        .pieces
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(
        pieces,
        [
            ("K", "King"),
            ("Q", "Queen"),
            ("R", "Rook"),
            ("B", "Bishop"),
            ("N", "Knight"),
            ("P", "Pawn")
        ]
    );
    assert_eq!(c.pieces[1].stats["value"], 9);
    assert!(c.pieces[0].stats.is_null());
    // Every piece a view names is in the catalog.
    let ids: HashSet<&str> = c.pieces.iter().map(|p| p.id.as_str()).collect();
    for state in random_game(3, 120) {
        for p in state.view(Viewer::Public).pieces {
            assert!(ids.contains(p.piece.as_str()));
            assert!(p.owner.0 <= 1);
        }
    }
}

fn captured(g: &Chess, player: u8) -> serde_json::Value {
    let h = g.holdings(Player(player), Viewer::Public);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].key, "captured");
    assert_eq!(h[0].label, "Captured");
    h[0].value.clone()
}

#[test]
fn holdings_list_captured_material() {
    let mut g = Chess::new(&ChessOptions::default());
    assert_eq!(captured(&g, 0), serde_json::json!([]));
    play(&mut g, &["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2", "Rxa2"]);
    assert_eq!(captured(&g, 0), serde_json::json!(["Q", "P"]));
    assert_eq!(captured(&g, 1), serde_json::json!(["P", "P"]));
    // A promoted pawn is not a capture: White has two Queens and seven pawns.
    let promoted = game("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNQ w Qkq - 0 1");
    assert_eq!(captured(&promoted, 1), serde_json::json!(["R"]));
    assert!(g.holdings(Player(2), Viewer::Public).is_empty());
}

#[test]
fn view_shows_castling_and_usable_en_passant() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
    let v = serde_json::to_value(g.view(Viewer::Player(Player(1)))).unwrap();
    assert_eq!(
        v["castling"],
        serde_json::json!([{"owner": 0, "side": "kingside"}, {"owner": 1, "side": "queenside"}])
    );
    assert_eq!(v["en_passant"], serde_json::Value::Null);
    assert_eq!(v["in_check"], false);
    let ep = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(ep.view(Viewer::Public).en_passant.as_deref(), Some("d6"));
    // Recorded by FEN after the double step, but no pawn can take.
    let mut d = Chess::new(&ChessOptions::default());
    play(&mut d, &["e4"]);
    assert!(d.to_text().contains(" e3 "));
    assert_eq!(d.view(Viewer::Public).en_passant, None);
    let check = game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    let v = check.view(Viewer::Public);
    assert!(v.in_check);
    assert_eq!(v.repetitions, 1);
    assert_eq!((v.halfmove_clock, v.fullmove_number), (0, 1));
}

#[test]
fn a_draw_may_be_agreed() {
    // FIDE Laws 9.1; checked when the tests compile.
    const { assert!(Chess::DRAW_BY_AGREEMENT) };
}

/// FIDE Laws 6.9: the flag loses, unless the opponent cannot checkmate by
/// any series of legal moves.
#[test]
fn running_out_of_time_loses_unless_the_opponent_cannot_mate() {
    use tabula_core::{EndReason, Outcome, Team};
    let queen = game("7k/8/8/8/8/8/8/KQ6 w - - 0 1");
    assert_eq!(
        queen.timeout_outcome(Player(1)),
        Outcome::win(Team(0), EndReason::Timeout)
    );
    assert_eq!(
        queen.timeout_outcome(Player(0)),
        Outcome::draw(EndReason::Timeout),
        "a lone King cannot mate"
    );
    // A pawn can become a queen: the side with it can still mate.
    let pawn = game("7k/7p/8/8/8/8/8/KR6 w - - 0 1");
    assert_eq!(
        pawn.timeout_outcome(Player(0)),
        Outcome::win(Team(1), EndReason::Timeout)
    );
    // King and knight against a bare King: dead, whoever flags.
    let knight = game("7k/8/8/8/8/8/8/KN6 w - - 0 1");
    assert_eq!(
        knight.timeout_outcome(Player(1)),
        Outcome::draw(EndReason::Timeout)
    );
}
