//! `Chess` as a `tabula_core::Game`: the trait's contract and the draw rules.

use tabula_chess::{
    Chess, ChessAction, ChessActionError, ChessOptions, DrawRules, Position, perft,
};
use tabula_core::{EndReason, Game, Options, Outcome, Player, Team, ToAct, Viewer};

fn fide() -> ChessOptions {
    ChessOptions {
        draw_rules: DrawRules::Fide,
    }
}

fn play(game: &mut Chess, moves: &[&str]) {
    for text in moves {
        let a = game
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(&a).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

fn legal(game: &Chess) -> Vec<ChessAction> {
    let mut v = Vec::new();
    game.legal_actions(&mut v);
    v
}

/// The contract from the trait's docs, checked along seeded random games.
#[test]
fn contract_holds_along_random_games() {
    for (seed, options) in (0..24u64).map(|s| {
        (
            s,
            if s % 2 == 0 {
                ChessOptions::default()
            } else {
                fide()
            },
        )
    }) {
        let mut game = Chess::new(&options);
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for _ in 0..400 {
            let actions = legal(&game);
            assert_eq!(
                actions.is_empty(),
                !matches!(game.to_act(), ToAct::Player { .. })
            );
            // Text round trip (position text is the FEN).
            let text = game.to_text();
            let back = Chess::from_text(&text, &options).expect("own text parses");
            assert_eq!(back.to_text(), text);
            assert_eq!(back.position(), game.position());
            for a in &actions {
                assert_eq!(a.to_string().parse::<ChessAction>().as_ref(), Ok(a));
                let notation = game.action_notation(a);
                assert_eq!(game.parse_action(&notation).as_ref(), Ok(a), "{notation}");
                assert_eq!(game.parse_action(&a.to_string()).as_ref(), Ok(a));
            }
            if actions.is_empty() {
                assert!(game.outcome().is_some());
                break;
            }
            // An illegal action errs and changes nothing.
            let before = game.clone();
            let mut copy = game.clone();
            let bogus: ChessAction = "a1a1".parse().expect("syntax is fine");
            assert!(copy.apply(&bogus).is_err());
            assert_eq!(copy, before);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = actions[(x % actions.len() as u64) as usize];
            let mut unchecked = game.clone();
            unchecked.apply_unchecked(&a);
            game.apply(&a).expect("legal action applies");
            assert_eq!(unchecked, game);
        }
    }
}

#[test]
fn threefold_repetition_ends_the_game_automatically() {
    let mut game = Chess::new(&ChessOptions::default());
    play(&mut game, &SHUFFLE);
    assert_eq!(game.repetitions(), 2);
    assert!(game.outcome().is_none());
    play(&mut game, &SHUFFLE);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.to_act(),
        ToAct::Over {
            outcome: Outcome::draw(EndReason::Repetition)
        }
    );
    assert!(legal(&game).is_empty());
    assert!(matches!(
        game.parse_action("e4"),
        Err(ChessActionError::GameOver(_))
    ));
}

#[test]
fn fide_rules_claim_at_threefold_and_end_at_fivefold() {
    let mut game = Chess::new(&fide());
    play(&mut game, &SHUFFLE);
    assert!(!game.can_claim_draw());
    assert!(matches!(
        game.parse_action("claim-draw"),
        Err(ChessActionError::CannotClaimDraw(_))
    ));
    play(&mut game, &SHUFFLE);
    assert!(game.outcome().is_none());
    assert!(game.can_claim_draw());
    assert!(legal(&game).contains(&ChessAction::ClaimDraw));
    let mut claimed = game.clone();
    let claim = claimed.parse_action("claim-draw").unwrap();
    assert_eq!(claim, ChessAction::ClaimDraw);
    assert_eq!(claimed.action_notation(&claim), "claim-draw");
    claimed.apply(&claim).unwrap();
    assert_eq!(
        claimed.outcome(),
        Some(Outcome::draw(EndReason::DrawClaimed))
    );
    play(&mut game, &SHUFFLE);
    assert!(game.outcome().is_none());
    play(&mut game, &SHUFFLE);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    // Claiming is not possible under automatic rules.
    let auto = Chess::new(&ChessOptions::default());
    assert!(matches!(
        auto.clone().apply(&ChessAction::ClaimDraw),
        Err(ChessActionError::CannotClaimDraw(_))
    ));
}

#[test]
fn fifty_and_seventy_five_move_rules() {
    let fen99 = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
    let mut auto = Chess::from_text(fen99, &ChessOptions::default()).unwrap();
    play(&mut auto, &["Ra2"]);
    assert_eq!(auto.outcome(), Some(Outcome::draw(EndReason::NoProgress)));

    let mut f = Chess::from_text(fen99, &fide()).unwrap();
    play(&mut f, &["Ra2"]);
    assert!(f.outcome().is_none() && f.can_claim_draw());
    // The game tree counts the claim as one more action; perft (the
    // published definition) counts moves only.
    let moves = Position::from_fen(&f.to_text())
        .unwrap()
        .count_legal_moves();
    assert_eq!(f.perft(1), moves);
    assert_eq!(tabula_core::perft::perft(&f, 1), moves + 1);
    let mut f149 = Chess::from_text("4k3/8/8/8/8/8/8/R3K3 w - - 149 80", &fide()).unwrap();
    play(&mut f149, &["Ra2"]);
    assert_eq!(f149.outcome(), Some(Outcome::draw(EndReason::NoProgress)));

    // Mate on the hundredth half-move is still mate.
    let mut mate =
        Chess::from_text("7k/8/6K1/8/8/8/8/R7 w - - 99 80", &ChessOptions::default()).unwrap();
    play(&mut mate, &["Ra8#"]);
    assert_eq!(
        mate.outcome(),
        Some(Outcome::win(Team(0), EndReason::Checkmate))
    );
}

#[test]
fn mate_stalemate_and_dead_positions_end_the_game() {
    let mut game = Chess::new(&ChessOptions::default());
    assert_eq!(game.to_act(), ToAct::Player { player: Player(0) });
    play(&mut game, &["f3", "e5", "g4"]);
    assert_eq!(game.to_act(), ToAct::Player { player: Player(1) });
    play(&mut game, &["Qh4#"]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome, Outcome::win(Team(1), EndReason::Checkmate));
    assert_eq!(game.describe_outcome(&outcome), "Black wins by checkmate");

    let stale =
        Chess::from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &ChessOptions::default()).unwrap();
    assert_eq!(stale.outcome(), Some(Outcome::draw(EndReason::Stalemate)));

    let mut dead =
        Chess::from_text("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", &ChessOptions::default()).unwrap();
    play(&mut dead, &["Kxe2"]);
    assert_eq!(
        dead.outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
}

#[test]
fn parse_action_accepts_san_and_uci() {
    let game = Chess::from_text(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &ChessOptions::default(),
    )
    .unwrap();
    let oo = game.parse_action("O-O").unwrap();
    assert_eq!(oo.to_string(), "e1g1");
    assert_eq!(game.parse_action("e1g1").unwrap(), oo);
    assert_eq!(game.parse_action("e1h1").unwrap(), oo);
    assert_eq!(game.parse_action("0-0").unwrap(), oo);
    assert_eq!(game.action_notation(&oo), "O-O");
    assert!(matches!(
        game.parse_action("e2e4"),
        Err(ChessActionError::Uci(_))
    ));
    assert!(matches!(
        game.parse_action("Qd4"),
        Err(ChessActionError::San(_))
    ));
    assert!(matches!(
        game.parse_action("hello"),
        Err(ChessActionError::San(_))
    ));
    assert!("claim-draw".parse::<ChessAction>() == Ok(ChessAction::ClaimDraw));
    assert!("nonsense".parse::<ChessAction>().is_err());
}

#[test]
fn game_perft_matches_engine_perft_and_generic_perft() {
    for fen in [
        tabula_chess::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let game = Chess::from_text(fen, &ChessOptions::default()).unwrap();
        let pos = Position::from_fen(fen).unwrap();
        for depth in 0..=3 {
            assert_eq!(game.perft(depth), perft(&pos, depth), "{fen} depth {depth}");
            assert_eq!(
                game.perft(depth),
                tabula_core::perft::perft(&game, depth),
                "{fen} depth {depth}"
            );
        }
    }
    let game = Chess::new(&ChessOptions::default());
    assert_eq!(game.perft(5), 4_865_609);
    // Perft follows the published definition: draws by rule are not endings.
    // The generic game-tree count stops where the game ends instead: after
    // the shuffle and Nf3 Nf6 Ng1, Ng8 repeats the start a third time, which
    // ends an automatic-rules game, so its 20 replies are not counted.
    let mut auto = Chess::new(&ChessOptions::default());
    play(&mut auto, &SHUFFLE);
    play(&mut auto, &["Nf3", "Nf6", "Ng1"]);
    for depth in 0..=3 {
        assert_eq!(auto.perft(depth), perft(auto.position(), depth));
    }
    assert_eq!(
        tabula_core::perft::perft(&auto, 2),
        auto.perft(2) - 20,
        "the threefold repetition ends the game tree"
    );
    // Under FIDE rules the same game goes on, and a claim is one more action.
    let mut fide_game = Chess::new(&fide());
    play(&mut fide_game, &SHUFFLE);
    play(&mut fide_game, &["Nf3", "Nf6", "Ng1"]);
    assert_eq!(fide_game.perft(2), auto.perft(2));
    assert_eq!(
        tabula_core::perft::perft(&fide_game, 2),
        fide_game.perft(2) + 1,
        "after Ng8 the player to move may claim the draw"
    );
}

#[test]
fn options_text_and_view() {
    let mut o = ChessOptions::default();
    assert!(o.to_pairs().is_empty());
    o.set("draw_rules", "fide").unwrap();
    assert_eq!(o, fide());
    assert_eq!(
        o.to_pairs(),
        vec![("draw-rules".to_owned(), "fide".to_owned())]
    );
    assert!(o.set("draw_rules", "sometimes").is_err());
    assert!(o.set("colour", "white").is_err());
    assert_eq!(ChessOptions::specs().len(), 1);

    assert!(matches!(
        Chess::from_text("8/8/8 w - - 0 1", &ChessOptions::default()),
        Err(tabula_chess::FenError::Placement(_))
    ));
    let game = Chess::new(&ChessOptions::default());
    assert_eq!(game.player_name(Player(0)), "White");
    assert_eq!(game.team_name(Team(1)), "Black");
    let view = game.view(Viewer::Public);
    assert_eq!(view.pieces.len(), 32);
    assert_eq!(view.castling.len(), 4);
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(
        json["pieces"][4],
        serde_json::json!({"cell": "e1", "owner": 0, "piece": "K"})
    );
    assert_eq!(
        json["pieces"][31],
        serde_json::json!({"cell": "h8", "owner": 1, "piece": "R"})
    );
    // The envelope carries these; the board view does not repeat them.
    for gone in ["fen", "turn", "legal", "outcome"] {
        assert!(json.get(gone).is_none(), "{gone} left in the view");
    }
}
