//! FEN, SAN and UCI: formatting, lenient parsing and typed errors.

use tabula_chess::{
    CastlingSide, FenError, Move, Position, PositionError, Role, START_FEN, SanError, Setup,
    Square, UciError,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.san(m)).collect();
    v.sort();
    v
}

#[test]
fn fen_round_trips_exactly() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 250",
    ] {
        assert_eq!(pos(fen).fen(), fen);
        assert_eq!(Setup::from_fen(fen).unwrap().to_string(), fen);
        assert_eq!(pos(fen).to_string().parse::<Position>().unwrap(), pos(fen));
    }
    // Clocks may be left out.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - -").fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn fen_errors_name_the_field() {
    let err = |fen: &str| Setup::from_fen(fen).unwrap_err();
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").to_string(),
        "FEN field 2 (side to move): expected 'w' or 'b', found 'x'"
    );
    assert!(matches!(err("8/8/8 w - - 0 1"), FenError::Placement(_)));
    assert!(
        err("8/8/8 w - - 0 1")
            .to_string()
            .starts_with("FEN field 1 (piece placement): expected 8 ranks")
    );
    assert!(
        err("9/8/8/8/8/8/8/8 w - - 0 1")
            .to_string()
            .contains("unexpected character '9'")
    );
    assert!(
        err("ppppppppp/8/8/8/8/8/8/8 w - - 0 1")
            .to_string()
            .contains("more than 8 squares")
    );
    assert!(
        err("7/8/8/8/8/8/8/8 w - - 0 1")
            .to_string()
            .contains("rank 8 has 7 squares")
    );
    assert!(matches!(err("8/8/8/8/8/8/8/8 w KQkqX - 0 1"), FenError::Castling(s) if s == "KQkqX"));
    assert!(matches!(
        err("8/8/8/8/8/8/8/8 w qk - 0 1"),
        FenError::Castling(_)
    ));
    assert!(matches!(err("8/8/8/8/8/8/8/8 w - e9 0 1"), FenError::EnPassant(s) if s == "e9"));
    assert!(matches!(
        err("8/8/8/8/8/8/8/8 w - - -1 1"),
        FenError::Halfmove(_)
    ));
    assert!(matches!(
        err("8/8/8/8/8/8/8/8 w - - 0 x"),
        FenError::Fullmove(_)
    ));
    assert!(matches!(err("8/8/8/8/8/8/8/8 w"), FenError::FieldCount(2)));
    assert!(matches!(err(""), FenError::FieldCount(0)));
    assert!(
        err("8/8/8/8/8/8/8/8 w - - 0 1 extra")
            .to_string()
            .contains("FEN has 7 fields")
    );
    // Syntax fine, position invalid.
    assert!(matches!(
        Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(FenError::Position(PositionError::MissingKing(_)))
    ));
}

#[test]
fn san_formats_pieces_pawns_and_castling() {
    let p = Position::start();
    assert_eq!(sans(&p).len(), 20);
    assert!(sans(&p).contains(&"Nf3".to_owned()));
    assert!(sans(&p).contains(&"e4".to_owned()));

    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let all = sans(&castle);
    assert!(all.contains(&"O-O".to_owned()) && all.contains(&"O-O-O".to_owned()));
    let oo = castle.parse_san("O-O").unwrap();
    assert_eq!(
        oo,
        Move::Castle {
            king: Square::E1,
            rook: Square::H1
        }
    );
    assert_eq!(oo.to_string(), "e1g1");
    assert_eq!(oo.castling_side(), Some(CastlingSide::KingSide));
    // Rook h1 to h8 captures with check.
    assert!(all.contains(&"Rxh8+".to_owned()));
}

#[test]
fn san_disambiguates_by_file_rank_or_both() {
    let files = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert!(sans(&files).contains(&"Nbd2".to_owned()));
    assert!(sans(&files).contains(&"Nfd2".to_owned()));
    let ranks = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert!(sans(&ranks).contains(&"R1a3".to_owned()));
    assert!(sans(&ranks).contains(&"R5a3".to_owned()));
    let both = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    let all = sans(&both);
    assert!(all.contains(&"Qa1b2".to_owned()), "{all:?}");
    assert!(all.contains(&"Q3b2".to_owned()), "{all:?}");
    assert!(all.contains(&"Qcb2".to_owned()), "{all:?}");
    // A pinned knight does not force disambiguation.
    let pinned = pos("4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1");
    assert!(sans(&pinned).contains(&"Nd4".to_owned()));
    assert!(!sans(&pinned).contains(&"Ncd4".to_owned()));
}

#[test]
fn san_promotions_en_passant_checks_and_mates() {
    let promo = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    let all = sans(&promo);
    for s in ["e8=Q+", "e8=R+", "e8=B", "e8=N", "exd8=Q+", "exd8=N"] {
        assert!(all.contains(&s.to_owned()), "{s} missing from {all:?}");
    }
    let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let m = ep.parse_san("exf6").unwrap();
    assert_eq!(
        m,
        Move::EnPassant {
            from: Square::E5,
            to: Square::F6
        }
    );
    assert_eq!(ep.san(m), "exf6");
    let mate = pos("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3");
    let m = mate.parse_san("Qxf7").unwrap();
    assert_eq!(mate.san(m), "Qxf7#");
    let mut after = mate;
    after.play(m).unwrap();
    assert!(after.is_checkmate());
}

#[test]
fn san_input_is_lenient() {
    let promo = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    let q = Move::Normal {
        from: Square::E7,
        to: Square::E8,
        promotion: Some(Role::Queen),
    };
    for s in ["e8=Q", "e8=Q+", "e8Q", "e8q", "e8=Q#", "e8=Q!?", "Pe8=Q"] {
        assert_eq!(promo.parse_san(s), Ok(q), "{s}");
    }
    let n = Move::Normal {
        from: Square::E7,
        to: Square::D8,
        promotion: Some(Role::Knight),
    };
    assert_eq!(promo.parse_san("exd8=N"), Ok(n));
    assert_eq!(promo.parse_san("exd8N"), Ok(n));
    assert_eq!(promo.parse_san("ed8n"), Ok(n));
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for s in ["O-O", "0-0", "O-O+", "Kg1"] {
        assert_eq!(
            castle.parse_san(s),
            Ok(Move::Castle {
                king: Square::E1,
                rook: Square::H1
            }),
            "{s}"
        );
    }
    assert_eq!(
        castle.parse_san("0-0-0"),
        Ok(Move::Castle {
            king: Square::E1,
            rook: Square::A1
        })
    );
    let start = Position::start();
    assert_eq!(start.parse_san("Nf3").unwrap().to_string(), "g1f3");
    assert_eq!(start.parse_san("Ng1f3").unwrap().to_string(), "g1f3");
    assert_eq!(start.parse_san(" e4 ").unwrap().to_string(), "e2e4");
    let cap = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(cap.parse_san("exd5").unwrap().to_string(), "e4d5");
    assert_eq!(cap.parse_san("ed5").unwrap().to_string(), "e4d5");
    assert_eq!(cap.parse_san("e4xd5").unwrap().to_string(), "e4d5");
}

#[test]
fn san_errors_are_typed() {
    let files = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    match files.parse_san("Nd2") {
        Err(SanError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["Nbd2".to_owned(), "Nfd2".to_owned()]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let start = Position::start();
    assert!(matches!(
        start.parse_san("Ke2"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_san("e5"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_san("O-O"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_san("e8"),
        Err(SanError::Illegal { .. })
    ));
    for bad in ["", "zz", "Xe4", "e", "Nbb1d2", "e4e5e6", "é4"] {
        assert!(
            matches!(start.parse_san(bad), Err(SanError::Syntax(_))),
            "{bad:?}"
        );
    }
    // A promotion must name its piece.
    let promo = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert!(matches!(
        promo.parse_san("e8"),
        Err(SanError::Illegal { .. })
    ));
    assert!(
        start
            .parse_san("Ke2")
            .unwrap_err()
            .to_string()
            .contains("no legal move matches Ke2")
    );
}

#[test]
fn uci_parses_and_formats() {
    let start = Position::start();
    assert_eq!(
        start.parse_uci("e2e4"),
        Ok(Move::Normal {
            from: Square::E2,
            to: Square::E4,
            promotion: None
        })
    );
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let oo = Move::Castle {
        king: Square::E1,
        rook: Square::H1,
    };
    assert_eq!(castle.parse_uci("e1g1"), Ok(oo));
    assert_eq!(castle.parse_uci("e1h1"), Ok(oo));
    assert_eq!(
        castle.parse_uci("e1c1"),
        Ok(Move::Castle {
            king: Square::E1,
            rook: Square::A1
        })
    );
    assert_eq!(castle.parse_uci("e1a1").unwrap().to_string(), "e1c1");
    let promo = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(promo.parse_uci("e7d8n").unwrap().to_string(), "e7d8n");
    assert!(matches!(
        promo.parse_uci("e7e8"),
        Err(UciError::Illegal { .. })
    ));
    for bad in ["e2", "e2e9", "e7e8k", "e7e8p", "e2e4qq", "0000", "E2E4"] {
        assert!(
            matches!(start.parse_uci(bad), Err(UciError::Syntax(_))),
            "{bad}"
        );
    }
    assert!(matches!(
        start.parse_uci("e2e5"),
        Err(UciError::Illegal { .. })
    ));
    let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    assert_eq!(
        ep.parse_uci("e5f6"),
        Ok(Move::EnPassant {
            from: Square::E5,
            to: Square::F6
        })
    );
}

mod fuzz {
    use proptest::prelude::*;
    use tabula_chess::{Position, START_FEN};

    /// Text shaped like FEN: a mix of the characters FEN uses and any others.
    fn fenish() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                4 => prop::sample::select(
                    "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789".chars().collect::<Vec<_>>()
                ),
                1 => any::<char>(),
            ],
            0..90,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any text: FEN parsing errs or succeeds, never panics, and what it
        /// accepts prints back to a FEN that parses to the same position.
        #[test]
        fn fen_parsing_never_panics(text in fenish()) {
            if let Ok(pos) = Position::from_fen(&text) {
                let again = Position::from_fen(&pos.fen()).expect("printed FEN parses");
                prop_assert_eq!(again.fen(), pos.fen());
            }
        }

        /// Any text as a move, in SAN or UCI, in a few positions: an error or
        /// a legal move, never a panic.
        #[test]
        fn move_parsing_never_panics(text in "[a-hKQRBNPOo0x=+#1-8-]{0,8}|\\PC{0,8}") {
            for fen in [START_FEN, "r3k2r/8/8/3pP3/8/8/1p4P1/R3K2R w KQkq d6 0 1"] {
                let pos = Position::from_fen(fen).unwrap();
                if let Ok(m) = pos.parse_san(&text) {
                    prop_assert!(pos.is_legal(m));
                }
                if let Ok(m) = pos.parse_uci(&text) {
                    prop_assert!(pos.is_legal(m));
                }
            }
        }
    }
}
