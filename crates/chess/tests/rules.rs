//! Validation, game status, clocks, hashing and the unchecked (variant) layer.

use tabula_chess::{
    Bitboard, CastlingRights, Color, Move, Piece, Position, PositionError, Role, Setup, Square,
    perft,
};

fn setup(fen: &str) -> Setup {
    Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn check(fen: &str) -> Result<Position, PositionError> {
    Position::from_setup(setup(fen))
}

fn pos(fen: &str) -> Position {
    check(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn validation_rejects_each_kind_of_invalid_position() {
    use PositionError as E;
    assert_eq!(
        check("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(E::MissingKing(Color::Black))
    );
    assert_eq!(
        check("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        Err(E::MissingKing(Color::White))
    );
    assert_eq!(
        check("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        Err(E::TooManyKings(Color::White))
    );
    assert_eq!(
        check("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        Err(E::PawnOnBackRank(Square::A8))
    );
    assert_eq!(
        check("4k3/8/8/8/8/8/8/p3K3 b - - 0 1"),
        Err(E::PawnOnBackRank(Square::A1))
    );
    assert_eq!(
        check("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        Err(E::TooManyPawns {
            color: Color::Black,
            count: 9
        })
    );
    assert_eq!(
        check("qqqqkqqq/qqqqqqqq/q7/8/8/8/8/4K3 w - - 0 1"),
        Err(E::TooManyPieces {
            color: Color::Black,
            count: 17
        })
    );
    assert_eq!(
        check("4k3/8/8/8/8/8/8/4K2r b - - 0 1"),
        Err(E::OppositeCheck(Color::White))
    );
    assert_eq!(
        check("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
        Err(E::OppositeCheck(Color::Black))
    );
    assert!(matches!(
        check("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        Err(E::InvalidCastlingRight {
            right: 'K',
            king: Square::E1,
            rook: Square::H1
        })
    ));
    assert!(matches!(
        check("4k2r/8/8/8/8/8/8/4K3 w q - 0 1"),
        Err(E::InvalidCastlingRight { right: 'q', .. })
    ));
    assert!(matches!(
        check("4k3/8/8/8/8/8/8/R2K4 w Q - 0 1"),
        Err(E::InvalidCastlingRight { .. })
    ));
    // En passant: wrong rank, no pawn in front, origin occupied.
    assert_eq!(
        check("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"),
        Err(E::InvalidEnPassant(Square::D3))
    );
    assert_eq!(
        check("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"),
        Err(E::InvalidEnPassant(Square::D6))
    );
    assert_eq!(
        check("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        Err(E::InvalidEnPassant(Square::D6))
    );
    assert!(check("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").is_ok());
    // Triple check cannot happen.
    assert_eq!(
        check("4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1"),
        Err(E::ImpossibleCheck(3))
    );
    // Double check can.
    assert!(check("4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1").is_ok());
    assert!(
        E::OppositeCheck(Color::White)
            .to_string()
            .contains("white is in check")
    );
}

#[test]
fn checkmate_stalemate_and_check() {
    let mut p = Position::start();
    for san in ["f3", "e5", "g4", "Qh4"] {
        let m = p.parse_san(san).unwrap();
        p.play(m).unwrap();
    }
    assert!(p.is_check() && p.is_checkmate() && !p.is_stalemate());
    assert_eq!(p.checkers(), Bitboard::from_square(Square::H4));
    assert_eq!(p.legal_moves().len(), 0);

    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stale.is_stalemate() && !stale.is_checkmate() && !stale.is_check());

    let double = pos("4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1");
    assert_eq!(double.checkers().count(), 2);
    assert!(double.legal_moves().iter().all(|m| m.from() == Square::E1));
}

#[test]
fn insufficient_material_cases() {
    let dead = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",    // K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",   // K+N v K
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",   // K+B v K
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",   // K v K+B
        "4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", // K+B v K+B, both bishops on light squares
        "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", // K+B+B v K, same colour
    ];
    for fen in dead {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
    let alive = [
        "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",  // opposite-coloured bishops
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  // K+N v K+N
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",  // K+B v K+N
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",  // K+N+N v K
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // bishop pair
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",   // a pawn
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",   // a rook
    ];
    for fen in alive {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn clocks_follow_the_fifty_move_rule_counting() {
    let mut p = Position::start();
    let play = |p: &mut Position, san: &str| {
        let m = p.parse_san(san).unwrap();
        p.play(m).unwrap();
    };
    play(&mut p, "Nf3");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (1, 1));
    play(&mut p, "Nf6");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (2, 2));
    play(&mut p, "e4");
    assert_eq!(p.halfmove_clock(), 0);
    play(&mut p, "Nxe4");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 3));
    play(&mut p, "Ng1");
    assert_eq!(p.halfmove_clock(), 1);
    let near = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let mut after = near;
    after.play(near.parse_san("Ra2").unwrap()).unwrap();
    assert_eq!(after.halfmove_clock(), 100);
}

#[test]
fn castling_rights_and_en_passant_bookkeeping() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    p.play(p.parse_san("Rxa8+").unwrap()).unwrap();
    assert_eq!(p.castling_rights().to_string(), "Kk");
    p.play(p.parse_san("Ke7").unwrap()).unwrap();
    assert_eq!(
        p.castling_rights(),
        CastlingRights::NONE.with(Color::White, tabula_chess::CastlingSide::KingSide)
    );
    let mut q = Position::start();
    q.play(q.parse_san("e4").unwrap()).unwrap();
    assert_eq!(q.ep_square(), Some(Square::E3));
    q.play(q.parse_san("Nf6").unwrap()).unwrap();
    assert_eq!(q.ep_square(), None);
}

#[test]
fn castling_through_into_and_out_of_check_is_illegal() {
    let castles = |fen: &str| {
        pos(fen)
            .legal_moves()
            .iter()
            .filter(|m| m.is_castle())
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        castles("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        vec!["e1g1", "e1c1"]
    );
    assert_eq!(castles("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").len(), 2);
    assert_eq!(castles("4k3/8/8/8/8/8/7r/R3K2R w KQ - 0 1").len(), 2); // an attacked rook may castle
    assert!(castles("4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1").is_empty()); // in check
    assert_eq!(castles("4k3/8/8/8/5r2/8/8/R3K2R w KQ - 0 1"), vec!["e1c1"]); // f1 attacked
    assert_eq!(castles("4k3/8/8/8/6r1/8/8/R3K2R w KQ - 0 1"), vec!["e1c1"]); // g1 attacked
    assert_eq!(
        castles("4k3/8/8/8/1r6/8/8/R3K2R w KQ - 0 1"),
        vec!["e1g1", "e1c1"]
    ); // b1 may be attacked
    assert_eq!(castles("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1"), vec!["e1g1"]); // b1 blocked
}

#[test]
fn en_passant_horizontal_pin_is_illegal() {
    // Capturing e.p. would remove both pawns from the fifth rank and expose the king.
    let p = pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    assert!(!p.legal_moves().iter().any(|m| m.is_en_passant()));
    // Without the rook the capture is fine.
    let q = pos("8/8/8/KPp5/8/8/8/4k3 w - c6 0 1");
    assert!(q.legal_moves().iter().any(|m| m.is_en_passant()));
    // E.p. that removes a checking pawn is a legal evasion.
    let r = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(r.is_check());
    assert!(r.legal_moves().contains(&Move::EnPassant {
        from: Square::E4,
        to: Square::D3
    }));
}

#[test]
fn incremental_hash_and_repetition_identity() {
    let mut p = Position::start();
    let start_hash = p.hash();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
        assert_eq!(p.hash(), p.compute_hash());
    }
    assert_eq!(p.hash(), start_hash);
    // An en-passant square no pawn can use does not change the hash.
    let a = pos("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    let b = pos("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(a.hash(), b.hash());
    let c = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let d = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(c.hash(), d.hash());
    assert_ne!(
        Position::start().hash(),
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").hash()
    );
}

#[test]
fn illegal_play_leaves_the_position_untouched() {
    let p = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    let mut q = p;
    let err = q
        .play(Move::Normal {
            from: Square::E1,
            to: Square::F2,
            promotion: None,
        })
        .unwrap_err();
    assert_eq!(q, p);
    assert!(err.to_string().contains("illegal move e1f2"));
    assert!(
        q.play(Move::Normal {
            from: Square::E1,
            to: Square::E2,
            promotion: None
        })
        .is_ok()
    );
}

#[test]
fn unchecked_positions_for_variants() {
    // No kings at all: every pseudo-legal move is legal, nothing is check.
    let mut s = Setup::empty();
    s.board
        .set_piece_at(Square::D4, Piece::new(Color::White, Role::Queen));
    s.board
        .set_piece_at(Square::D8, Piece::new(Color::Black, Role::Rook));
    let p = Position::from_setup_unchecked(s);
    assert!(Position::from_setup(s).is_err());
    assert!(!p.is_check() && !p.is_checkmate() && !p.is_stalemate());
    assert_eq!(p.legal_moves().len(), 27);
    assert_eq!(p.legal_moves(), p.pseudo_legal_moves());
    assert_eq!(
        perft(&p, 2),
        p.legal_moves()
            .iter()
            .map(|&m| {
                let mut c = p;
                c.play_unchecked(m);
                c.legal_moves().len() as u64
            })
            .sum::<u64>()
    );

    // The side not to move left in check: its king can simply be taken.
    let white_to_move = Position::from_setup_unchecked(setup("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"));
    assert!(Position::from_setup(white_to_move.to_setup()).is_err());
    assert!(white_to_move.legal_moves().contains(&Move::Normal {
        from: Square::E7,
        to: Square::E8,
        promotion: None
    }));

    // Board edits keep one piece per square.
    let mut b = tabula_chess::Board::empty();
    b.set_piece_at(Square::A1, Piece::new(Color::White, Role::Rook));
    b.set_piece_at(Square::A1, Piece::new(Color::Black, Role::Knight));
    assert_eq!(
        b.piece_at(Square::A1),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert_eq!(b.occupied().count(), 1);
    assert_eq!(
        b.remove_piece_at(Square::A1),
        Some(Piece::new(Color::Black, Role::Knight))
    );
    assert!(b.occupied().is_empty());
    assert_eq!(
        b.attackers_to(Square::E4, Color::White, Bitboard::EMPTY),
        Bitboard::EMPTY
    );
}

#[test]
fn divide_sums_to_perft() {
    let p = Position::start();
    let d = tabula_chess::divide(&p, 3);
    assert_eq!(d.len(), 20);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), perft(&p, 3));
    assert!(tabula_chess::divide(&p, 0).is_empty());
    assert_eq!(perft(&p, 0), 1);
}
