//! Property tests: random legal playouts checked against an independent naive
//! legality test and against cozy-chess, with notation round trips at every ply.

use proptest::prelude::*;
use tabula_chess::{Color, Move, Piece, Position, Role, Setup, Square};

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
];

/// xorshift64*, so a proptest seed fixes a whole playout.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Whether `sq` is attacked by `by`, found by walking the board square by
/// square (no bitboards, no tables): an independent check of the engine.
fn naive_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let b = pos.board();
    let at = |df: i32, dr: i32| sq.offset(df, dr).and_then(|s| b.piece_at(s));
    let is = |p: Option<Piece>, roles: &[Role]| {
        p.is_some_and(|p| p.color == by && roles.contains(&p.role))
    };
    for (df, dr) in [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ] {
        if is(at(df, dr), &[Role::Knight]) {
            return true;
        }
    }
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0) && is(at(df, dr), &[Role::King]) {
                return true;
            }
        }
    }
    let pawn_dr = if by == Color::White { -1 } else { 1 };
    if is(at(-1, pawn_dr), &[Role::Pawn]) || is(at(1, pawn_dr), &[Role::Pawn]) {
        return true;
    }
    for (df, dr, roles) in [
        (1, 0, [Role::Rook, Role::Queen]),
        (-1, 0, [Role::Rook, Role::Queen]),
        (0, 1, [Role::Rook, Role::Queen]),
        (0, -1, [Role::Rook, Role::Queen]),
        (1, 1, [Role::Bishop, Role::Queen]),
        (1, -1, [Role::Bishop, Role::Queen]),
        (-1, 1, [Role::Bishop, Role::Queen]),
        (-1, -1, [Role::Bishop, Role::Queen]),
    ] {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if let Some(p) = b.piece_at(next) {
                if p.color == by && roles.contains(&p.role) {
                    return true;
                }
                break;
            }
            cur = next;
        }
    }
    false
}

/// The independent slow legality check: make the move, then see whether the
/// mover's king is attacked; castling also must not start in or pass through check.
fn naive_legal(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    if let Move::Castle { king, .. } = m {
        let step = if m.to().file() > king.file() { 1 } else { -1 };
        let mid = king.offset(step, 0).expect("on board");
        if naive_attacked(pos, king, !us) || naive_attacked(pos, mid, !us) {
            return false;
        }
    }
    let mut after = *pos;
    after.play_unchecked(m);
    match after.board().king_of(us) {
        Some(k) => !naive_attacked(&after, k, !us),
        None => true,
    }
}

fn cozy_uci(m: Move) -> String {
    match m {
        Move::Castle { king, rook } => format!("{king}{rook}"),
        other => other.to_string(),
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<String> {
    let mut out = Vec::new();
    board.generate_moves(|ms| {
        out.extend(ms.into_iter().map(|m| m.to_string()));
        false
    });
    sorted(out)
}

/// Plays a random legal game from `start`, checking everything at every ply.
fn check_playout(start: &str, seed: u64, plies: usize) -> usize {
    let mut rng = Rng(seed | 1);
    let mut pos = Position::from_fen(start).expect("valid start");
    let mut cozy: cozy_chess::Board = start.parse().expect("cozy parses");
    for ply in 0..plies {
        let ctx = || format!("start {start}, seed {seed}, ply {ply}, fen {}", pos.fen());
        let legal = pos.legal_moves();

        // Incremental hash equals recomputed hash.
        assert_eq!(pos.hash(), pos.compute_hash(), "hash drift: {}", ctx());

        // Same move set as cozy-chess.
        let ours = sorted(legal.iter().map(|&m| cozy_uci(m)).collect());
        assert_eq!(ours, cozy_moves(&cozy), "move sets differ: {}", ctx());
        assert_eq!(legal.len() as u64, pos.count_legal_moves());

        // Every generated move is legal by the naive test, and every
        // pseudo-legal move the naive test accepts was generated.
        for &m in &legal {
            assert!(
                naive_legal(&pos, m),
                "generated illegal move {m}: {}",
                ctx()
            );
        }
        for m in pos.pseudo_legal_moves() {
            assert_eq!(
                naive_legal(&pos, m),
                legal.contains(&m),
                "pseudo-legal {m}: {}",
                ctx()
            );
        }

        // Notation round trips.
        let fen = pos.fen();
        let reparsed = Position::from_fen(&fen).expect("own FEN parses");
        assert_eq!(reparsed, pos, "FEN round trip: {}", ctx());
        assert_eq!(reparsed.fen(), fen);
        for &m in &legal {
            let san = pos.san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san}: {}", ctx());
            assert_eq!(pos.parse_uci(&m.to_string()), Ok(m), "UCI {m}: {}", ctx());
        }

        // Status agrees with cozy-chess.
        let status = cozy.status();
        if legal.is_empty() {
            assert_eq!(
                pos.is_checkmate(),
                status == cozy_chess::GameStatus::Won,
                "{}",
                ctx()
            );
            assert_eq!(
                pos.is_stalemate(),
                status == cozy_chess::GameStatus::Drawn,
                "{}",
                ctx()
            );
            return ply;
        }
        assert_eq!(pos.is_check(), !cozy.checkers().is_empty(), "{}", ctx());

        // Illegal moves are refused and change nothing.
        for _ in 0..4 {
            let from = Square::new_masked(rng.next() as u32);
            let to = Square::new_masked(rng.next() as u32);
            let promotion = [
                None,
                Some(Role::Queen),
                Some(Role::Knight),
                Some(Role::King),
            ][rng.below(4)];
            let m = match rng.below(8) {
                0 => Move::EnPassant { from, to },
                1 => Move::Castle {
                    king: from,
                    rook: to,
                },
                _ => Move::Normal {
                    from,
                    to,
                    promotion,
                },
            };
            let before = pos;
            let mut copy = pos;
            let result = copy.play(m);
            assert_eq!(result.is_ok(), legal.contains(&m), "play({m}): {}", ctx());
            if result.is_err() {
                assert_eq!(copy, before, "failed play changed the position: {}", ctx());
            }
        }

        let m = legal[rng.below(legal.len())];
        let mut copy = pos;
        copy.play(m).expect("legal move plays");
        pos.play_unchecked(m);
        assert_eq!(copy, pos);
        cozy.play(cozy_uci(m).parse().expect("cozy move"));
    }
    plies
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_playouts_match_oracles(start in 0..STARTS.len(), seed in any::<u64>(), plies in 1usize..160) {
        check_playout(STARTS[start], seed, plies);
    }
}

#[test]
fn long_seeded_playouts_match_oracles() {
    let mut total = 0;
    for seed in 0..40u64 {
        total += check_playout(
            STARTS[seed as usize % STARTS.len()],
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            300,
        );
    }
    assert!(total > 3000, "only {total} plies checked");
}

/// Random boards, kings or not, either side to move: the pseudo-legal layer,
/// the legal layer and every query must never panic.
#[test]
fn random_unchecked_boards_never_panic() {
    let mut rng = Rng(0x5eed);
    let pieces: Vec<Piece> = Color::ALL
        .into_iter()
        .flat_map(|c| Role::ALL.into_iter().map(move |r| Piece::new(c, r)))
        .collect();
    for _ in 0..3000 {
        let mut setup = Setup::empty();
        let n = rng.below(40);
        for _ in 0..n {
            let sq = Square::new_masked(rng.next() as u32);
            setup
                .board
                .set_piece_at(sq, pieces[rng.below(pieces.len())]);
        }
        setup.turn = Color::from_white(rng.below(2) == 0);
        setup.castling = tabula_chess::CastlingRights::from_bits(rng.next() as u8);
        setup.ep_square = Square::new(rng.below(80) as u32);
        let pos = Position::from_setup_unchecked(setup);
        let legal = pos.legal_moves();
        let pseudo = pos.pseudo_legal_moves();
        for m in &legal {
            assert!(
                pseudo.contains(m) || pseudo.is_full(),
                "legal move {m} not pseudo-legal in {}",
                pos.fen()
            );
        }
        let _ = (
            pos.is_check(),
            pos.is_checkmate(),
            pos.is_stalemate(),
            pos.is_insufficient_material(),
        );
        let _ = tabula_chess::perft(&pos, 2);
        for &m in pseudo.iter().take(10) {
            let mut p = pos;
            p.play_unchecked(m);
            assert_eq!(
                p.hash(),
                p.compute_hash(),
                "hash after {m} in {}",
                pos.fen()
            );
            let _ = p.legal_moves();
            if legal.contains(&m) {
                let _ = pos.san(m);
            }
        }
        let _ = Position::from_setup(setup);
        let _ = Position::from_fen(&pos.fen());
    }
}
