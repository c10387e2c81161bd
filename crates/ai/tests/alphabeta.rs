//! The alpha-beta engine on positions with a known answer, depth-limited
//! so the answers are the same on every machine: chess tactics in the style
//! of the Win at Chess set, and the Epoch situations a player would test an
//! engine with (an Assassin's mate, a winning blast, a riposte, an Emperor
//! left asleep, a losing repetition avoided).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tabula_ai::alphabeta::{
    ChessNode, Engine, EpochNode, Limits, MATE_BOUND, Node, Root, chess_root, epoch_decision,
};
use tabula_chess::{Chess, Position, UciMove};
use tabula_core::{EndReason, Game, Team};
use tabula_epoch::{Epoch, EpochOptions, Piece, Square};

fn chess_best(fen: &str, depth: u32) -> String {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::<ChessNode>::new(8);
    let out = engine.search(&Root::new(ChessNode(pos)), Limits::depth(depth), |_| {});
    UciMove::from(out.best.unwrap()).to_string()
}

#[test]
fn chess_tactics_are_found_at_a_fixed_depth() {
    // (position, best move, depth)
    let suite = [
        // Mate in one on f7.
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "f3f7",
            2,
        ),
        // The back rank.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 2),
        // A knight fork of king and queen.
        ("4k3/8/q7/1N6/8/8/8/4K3 w - - 0 1", "b5c7", 4),
        // Win at Chess 1: the queen sacrifice on g6.
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
            6,
        ),
        // Win at Chess 4: the queen takes h7 with check.
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "h6h7",
            4,
        ),
    ];
    for (fen, best, depth) in suite {
        assert_eq!(chess_best(fen, depth), best, "{fen}");
    }
}

#[test]
fn quiescence_sees_the_hanging_queen_the_static_evaluation_does_not() {
    // White to move can take the undefended queen on d5: the position is
    // not quiet, so a tuner would not take it. After 1.e4 it is quiet.
    let loose = ChessNode(Position::from_fen("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1").unwrap());
    let mut engine = Engine::<ChessNode>::new(1);
    assert!(engine.quiescence(&loose) > loose.evaluate() + 800);
    let quiet = ChessNode(
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap(),
    );
    assert_eq!(engine.quiescence(&quiet), quiet.evaluate());
}

#[test]
fn a_chess_mate_is_announced_as_one() {
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let mut engine = Engine::<ChessNode>::new(8);
    let out = engine.search(&Root::new(ChessNode(pos)), Limits::depth(3), |_| {});
    assert!(out.info.score > MATE_BOUND, "{}", out.info.score);
    assert_eq!(out.info.mate_in_plies(), Some(1));
}

#[test]
fn a_raised_stop_ends_an_unbounded_search_with_a_legal_move() {
    let game = Chess::new(&Default::default());
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let mut engine = Engine::<ChessNode>::new(8);
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    // Raised from the report of the second iteration: the search must
    // come back without finishing the rest.
    let out = engine.search(&chess_root(&game), limits, |info| {
        if info.depth >= 2 {
            flag.store(true, Ordering::Relaxed);
        }
    });
    let best = out.best.unwrap();
    assert!(game.position().legal_moves().contains(&best));
    assert!(out.info.depth < 20, "{}", out.info.depth);
}

/// The placement field from a piece list (`"Pg1 Mh1"`, White uppercase).
fn placement(pieces: &str) -> String {
    let mut board = [[None::<char>; 13]; 13];
    for item in pieces.split_whitespace() {
        let mut chars = item.chars();
        let letter = chars.next().unwrap();
        assert!(Piece::from_letter(letter).is_some(), "{item}");
        let sq: Square = chars.as_str().parse().unwrap();
        board[sq.rank() as usize][sq.file() as usize] = Some(letter);
    }
    let mut ranks = Vec::new();
    for rank in (0..13).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in board[rank] {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

fn epoch(pieces: &str, side: &str) -> Epoch {
    let text = format!("{} {side} - - - - - 0 10 -", placement(pieces));
    Epoch::from_text(&text, &EpochOptions::default()).unwrap()
}

fn epoch_best(game: &Epoch, depth: u32) -> String {
    let mut engine = Engine::<EpochNode>::new(8);
    let out = epoch_decision(&mut engine, game, Limits::depth(depth), |_| {});
    out.best.unwrap().to_string()
}

fn play(game: &mut Epoch, mv: &str) {
    let m = game.parse_action(mv).unwrap();
    game.apply(&m).unwrap();
}

#[test]
fn epoch_the_assassin_mates_along_the_last_rank() {
    // The black Pope is boxed in its corner by its own Templars (whose
    // leaps never reach the last rank); only the Assassin reaches the rank
    // it stands on.
    let mut game = epoch("Pm1 Ag8 pa13 ta12 tb12", "w");
    let best = epoch_best(&game, 2);
    assert_eq!(best, "g8g13");
    play(&mut game, &best);
    let outcome = game.outcome().expect("mate");
    assert_eq!(outcome.reason, EndReason::Checkmate);
    assert_eq!(outcome.winner, Some(Team(0)));
}

#[test]
fn epoch_the_blast_that_opens_the_mating_line() {
    // The Mage on d12 blasts both Heralds off the last rank
    // and the Sentinel's line to the boxed Pope is open: mate.
    let mut game = epoch("Pm1 Gd12 Sg13 pa13 ta12 tb12 hc13 he13", "w");
    let best = epoch_best(&game, 2);
    assert_eq!(best, "d12xd12");
    play(&mut game, &best);
    assert_eq!(game.outcome().map(|o| o.winner), Some(Some(Team(0))));
}

#[test]
fn epoch_the_marshal_ripostes() {
    // Black's Sentinel takes the Templar on g7, a square the Marshal sees:
    // for one move the Marshal captures on its lines with nothing else
    // attacking. Taking back on g7 would lose the Marshal to the Templar's
    // leap from d9; taking that Templar is the riposte that wins.
    let mut game = epoch("Pm1 Md4 Tg7 pl13 sg10 td9", "b");
    play(&mut game, "g10xg7");
    assert!(game.position().riposte());
    assert_eq!(epoch_best(&game, 3), "d4xd9");
}

#[test]
fn epoch_no_capture_that_wakes_the_emperor_to_lose_the_sentinel() {
    // Sentinel takes e9 would stand on the dormant Emperor's file: it wakes
    // on Black's turn and takes the Sentinel.
    let game = epoch("Pg1 Se5 Ta1 ph13 mk13 ee13 le9", "w");
    let best = epoch_best(&game, 3);
    assert_ne!(best, "e5xe9");
}

#[test]
fn epoch_the_third_repetition_is_not_made() {
    let mut game = epoch("Pa1 La3 pm13 lm10", "w");
    for mv in ["a1a2", "m13m12", "a2a1", "m12m13", "a1a2", "m13m12", "a2a1"] {
        play(&mut game, mv);
    }
    // m12-m13 would bring the position after White's a2-a1 a third time: it loses.
    let best = epoch_best(&game, 3);
    assert_ne!(best, "m12m13");
    play(&mut game, &best);
    assert_eq!(game.outcome(), None);
}

#[test]
fn epoch_a_side_left_without_a_move_wins_so_the_engine_leaves_one() {
    // Black's Sentinel can take the Legionary on b3, but with the other
    // Sentinel on d2 that leaves White's Pope in its corner with no legal
    // move and not in check, which wins for White: the engine must see the
    // rule and keep a move available (read as a mate, the capture would be
    // taken at once).
    let game = epoch("Pa1 Lb3 pm13 sb8 sd2", "b");
    let mut lure = game.clone();
    play(&mut lure, "b8xb3");
    let outcome = lure.outcome().expect("White is left without a move");
    assert_eq!(outcome.reason, EndReason::Stalemate);
    assert_eq!(outcome.winner, Some(Team(0)));
    for depth in 1..=4 {
        let best = epoch_best(&game, depth);
        assert_ne!(best, "b8xb3", "depth {depth}");
        let mut after = game.clone();
        play(&mut after, &best);
        let winner = after.outcome().map(|o| o.winner);
        assert!(
            matches!(winner, None | Some(Some(Team(1)))),
            "depth {depth}: {best}"
        );
    }
}

/// Whether some move of the side to move mates at once.
fn mates_at_once(game: &Epoch) -> bool {
    let mut moves = Vec::new();
    game.position().legal_moves(&mut moves);
    moves.iter().any(|mv| {
        let mut after = game.clone();
        after.apply(mv).unwrap();
        after
            .outcome()
            .is_some_and(|o| o.reason == EndReason::Checkmate)
    })
}

/// The same position with the other side to move: a pass.
fn passed(game: &Epoch) -> Epoch {
    let text = game.to_text();
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    Epoch::from_text(&fields.join(" "), &EpochOptions::default()).unwrap()
}

#[test]
fn epoch_the_engine_sees_a_zugzwang() {
    // Black's Pope on m13 has no square (White's Pope takes l12 and l13,
    // the Legionary m12) and its Templar on l10 guards j13, where White's
    // Sentinel would mate along the last rank. Black to move must leap, and
    // every leap lets the Sentinel in; a pass would not. White wins with a
    // waiting move on the j-file: a search that lets the side to move hold
    // its static score, as a pass would (null move, reverse futility), takes
    // the Templar later instead, or plays l11-l12+ and no mate. In the
    // second position the Sentinel attacks the Templar already, and taking
    // it leaves Black without a move: Black wins.
    let mut lure = epoch("Pk12 Ll11 Sj10 pm13 tl10", "w");
    play(&mut lure, "j10xl10");
    assert_eq!(lure.outcome().map(|o| o.winner), Some(Some(Team(1))));
    for pieces in ["Pk12 Ll11 Sj11 pm13 tl10", "Pk12 Ll11 Sj10 pm13 tl10"] {
        let game = epoch(pieces, "w");
        assert!(!mates_at_once(&game), "{pieces}");
        let mut engine = Engine::<EpochNode>::new(8);
        let out = epoch_decision(&mut engine, &game, Limits::depth(6), |_| {});
        let best = out.best.unwrap();
        assert!(
            out.info.score > MATE_BOUND,
            "{pieces}: {best} {}",
            out.info.score
        );
        // The zugzwang, by the rules: Black has moves, each lets White mate
        // at once, and a pass would not.
        let mut after = game.clone();
        after.apply(&best).unwrap();
        let mut replies = Vec::new();
        after.position().legal_moves(&mut replies);
        assert!(!replies.is_empty(), "{pieces}: {best}");
        for reply in &replies {
            let mut next = after.clone();
            next.apply(reply).unwrap();
            assert!(mates_at_once(&next), "{pieces}: {best} {reply}");
        }
        assert!(!mates_at_once(&passed(&after)), "{pieces}: {best}");
    }
}

#[test]
fn epoch_tactical_generator_gives_exactly_the_tactical_legal_moves() {
    use tabula_ai::alphabeta::Node;
    use tabula_core::{GameRng, Seed};
    use tabula_epoch::Position as EpochPosition;
    let mut rng = GameRng::from_seed(Seed(16));
    let (mut positions, mut tactical_seen) = (0, 0);
    for game in 0..40 {
        let mut node = EpochNode(EpochPosition::start());
        for ply in 0..200 {
            let mut all = Vec::new();
            node.legal_moves(&mut all);
            let mut expected: Vec<String> = all
                .iter()
                .filter(|&&m| node.tactical(m).is_some())
                .map(|m| m.to_string())
                .collect();
            let mut fast = Vec::new();
            node.tactical_moves(&mut fast);
            let mut got: Vec<String> = fast.iter().map(|m| m.to_string()).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "game {game}, ply {ply}");
            assert_eq!(node.has_moves(), !all.is_empty());
            positions += 1;
            tactical_seen += expected.len();
            let Some(&mv) = rng.choose(&all) else { break };
            node = node.play(mv).0;
        }
    }
    assert!(
        positions > 2000 && tactical_seen > 10_000,
        "{positions} {tactical_seen}"
    );
}

#[test]
fn epoch_a_won_endgame_is_mated_before_the_no_progress_limit() {
    // A Herald and two Templars against a bare Pope: a mate no search of a
    // few plies sees on a 13-square board. Without the evaluation's drive of
    // the weaker Pope to an edge (and the stronger Pope after it) the engine
    // shuffled until the no-progress limit drew the game. (Black may lose by
    // making the third repetition, cornered, rather than by the mate.)
    let mut game = epoch("Pg1 Hd4 Td5 Te5 pg13", "w");
    let mut engines = [Engine::<EpochNode>::new(8), Engine::<EpochNode>::new(8)];
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    for ply in 0..400 {
        if game.outcome().is_some() {
            break;
        }
        let engine = &mut engines[ply % 2];
        let best = epoch_decision(engine, &game, limits.clone(), |_| {})
            .best
            .unwrap();
        game.apply(&best).unwrap();
    }
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Team(0)), "{outcome:?}");
}

#[test]
fn epoch_a_shallow_search_plays_forward_instead_of_shuffling() {
    // With nothing in the evaluation to choose between quiet moves, a search
    // of two plies shuffled its Pope between two squares for hundreds of
    // plies, and games between shallow searches never ended (depth 2 against
    // depth 1: 198 of 200 drawn). The Legionary's advance gives it a plan:
    // from the start, no side goes 20 plies without moving a Legionary or
    // taking something.
    let mut game = Epoch::new(&EpochOptions { swap: false });
    let mut engine = Engine::<EpochNode>::new(8);
    let mut longest = 0;
    for _ in 0..60 {
        if game.outcome().is_some() {
            break;
        }
        let best = epoch_decision(&mut engine, &game, Limits::depth(2), |_| {})
            .best
            .unwrap();
        game.apply(&best).unwrap();
        longest = longest.max(game.position().halfmoves());
    }
    assert!(longest < 20, "{longest} plies without progress");
}
