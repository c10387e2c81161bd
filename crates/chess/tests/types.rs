//! The vocabulary types: squares, files, ranks, bitboards, pieces, rights, moves.

use tabula_chess::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Move, MoveList, Piece, Rank, Role, Square,
    UciMove,
};

#[test]
fn squares_files_and_ranks() {
    assert_eq!(Square::A1.index(), 0);
    assert_eq!(Square::H8.index(), 63);
    assert_eq!(Square::E4.file(), File::E);
    assert_eq!(Square::E4.rank(), Rank::Fourth);
    assert_eq!(Square::from_coords(File::C, Rank::Sixth), Square::C6);
    assert_eq!(Square::new(64), None);
    assert_eq!(Square::new_masked(64 + 3), Square::D1);
    assert_eq!(Square::E1.offset(1, 1), Some(Square::F2));
    assert_eq!(Square::H1.offset(1, 0), None);
    assert_eq!(Square::E2.flip_vertical(), Square::E7);
    assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
    assert_eq!(Square::E2.forward(Color::White), Some(Square::E3));
    assert_eq!(Square::E1.forward(Color::Black), None);
    assert!(!Square::A1.is_light() && Square::H1.is_light());
    assert_eq!("g7".parse::<Square>(), Ok(Square::G7));
    assert!("i1".parse::<Square>().is_err());
    assert!("a9".parse::<Square>().is_err());
    assert_eq!(Square::B3.to_string(), "b3");
    for (i, sq) in Square::ALL.iter().enumerate() {
        assert_eq!(sq.index(), i);
        assert_eq!(sq.to_string().parse::<Square>(), Ok(*sq));
    }
    assert_eq!(File::from_char('h'), Some(File::H));
    assert_eq!(File::A.offset(-1), None);
    assert_eq!(Rank::from_char('9'), None);
    assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
}

#[test]
fn bitboards() {
    let bb = Bitboard::EMPTY
        .with(Square::A1)
        .with(Square::H8)
        .with(Square::E4);
    assert_eq!(bb.count(), 3);
    assert!(bb.contains(Square::E4) && !bb.contains(Square::E5));
    assert_eq!(
        bb.iter().collect::<Vec<_>>(),
        vec![Square::A1, Square::E4, Square::H8]
    );
    assert_eq!(bb.iter().len(), 3);
    assert_eq!(bb.first(), Some(Square::A1));
    assert_eq!(bb.last(), Some(Square::H8));
    assert!(bb.more_than_one());
    assert_eq!(
        Bitboard::from_square(Square::C3).single_square(),
        Some(Square::C3)
    );
    assert_eq!(bb.single_square(), None);
    assert_eq!(bb.without(Square::A1).count(), 2);
    assert_eq!(
        Bitboard::from_file(File::A).east(),
        Bitboard::from_file(File::B)
    );
    assert_eq!(Bitboard::from_file(File::H).east(), Bitboard::EMPTY);
    assert_eq!(Bitboard::from_file(File::A).west(), Bitboard::EMPTY);
    assert_eq!(Bitboard::from_rank(Rank::Eighth).north(), Bitboard::EMPTY);
    assert_eq!(
        Bitboard::from_rank(Rank::Second).forward(Color::Black),
        Bitboard::from_rank(Rank::First)
    );
    assert_eq!(
        (Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES),
        Bitboard::FULL
    );
    assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
    assert_eq!(Bitboard::DARK_SQUARES.count(), 32);
    assert_eq!(
        Square::ALL
            .into_iter()
            .filter(|s| s.is_light())
            .collect::<Bitboard>(),
        Bitboard::LIGHT_SQUARES
    );
    assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
    assert_eq!(Bitboard::FULL.iter().count(), 64);
    assert!(bb.to_string().starts_with(".......X\n"));
}

#[test]
fn pieces_roles_and_colors() {
    assert_eq!(!Color::White, Color::Black);
    assert_eq!(
        Piece::from_fen_char('N'),
        Some(Piece::new(Color::White, Role::Knight))
    );
    assert_eq!(
        Piece::from_fen_char('q'),
        Some(Piece::new(Color::Black, Role::Queen))
    );
    assert_eq!(Piece::from_fen_char('x'), None);
    assert_eq!(Piece::new(Color::Black, Role::King).fen_char(), 'k');
    assert_eq!(Role::PROMOTIONS.len(), 4);
    assert!(!Role::King.is_promotion_target() && !Role::Pawn.is_promotion_target());
}

#[test]
fn castling_rights() {
    let all = CastlingRights::ALL;
    assert_eq!(all.to_string(), "KQkq");
    assert_eq!(CastlingRights::NONE.to_string(), "-");
    assert_eq!(
        CastlingRights::from_fen("Kq"),
        Some(
            all.without(Color::White, CastlingSide::QueenSide)
                .without(Color::Black, CastlingSide::KingSide)
        )
    );
    assert_eq!(CastlingRights::from_fen("qK"), None);
    assert_eq!(CastlingRights::from_fen("KK"), None);
    assert_eq!(CastlingRights::from_fen(""), None);
    assert_eq!(all.after_touching(Square::E1).to_string(), "kq");
    assert_eq!(all.after_touching(Square::H8).to_string(), "KQq");
    assert_eq!(all.after_touching(Square::D4), all);
    assert!(all.without_color(Color::White).has_color(Color::Black));
    assert_eq!(CastlingSide::QueenSide.king_to(Color::Black), Square::C8);
    assert_eq!(CastlingSide::KingSide.rook_to(Color::White), Square::F1);
}

#[test]
fn moves_are_small_and_print_as_uci() {
    assert!(std::mem::size_of::<Move>() <= 4);
    let castle = Move::Castle {
        king: Square::E8,
        rook: Square::A8,
    };
    assert_eq!(castle.to_string(), "e8c8");
    assert_eq!(castle.from(), Square::E8);
    assert_eq!(castle.to(), Square::C8);
    let promo = Move::Normal {
        from: Square::B7,
        to: Square::A8,
        promotion: Some(Role::Knight),
    };
    assert_eq!(promo.to_string(), "b7a8n");
    assert_eq!(UciMove::from(promo).to_string(), "b7a8n");
    assert_eq!(
        "b7a8n".parse::<UciMove>().map(|u| u.promotion),
        Ok(Some(Role::Knight))
    );
    let list = MoveList::new();
    assert_eq!(list.capacity(), 256);
}
