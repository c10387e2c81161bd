//! The differential test: the engine in `src/` against the slow reference
//! written from the book (`tests/reference/`), over positions reached by
//! seeded random playouts from the start and from random positions, with
//! move choices biased so that the rare rules come up (captures, blasts,
//! promotions, castling, the Marshal's loss, the awake Emperor, riposte).
//!
//! At every ply: the same legal moves (as sets of canonical texts), the same
//! position text (fields 1-10), the same check and the same result. On some
//! plies every legal move is played in both and the children compared too.
//!
//! `EPOCH_DIFF_GAMES=n` changes the number of playouts (default below).

mod reference;

use std::collections::{BTreeSet, HashMap};

use reference::{REnd, RGame, RMove, RPos};
use tabula_core::{EndReason, Game, GameRng, Player, Seed, ToAct};
use tabula_epoch::{Color, Epoch, EpochOptions, Move, Piece, PieceKind};

fn engine_end(g: &Epoch) -> Option<REnd> {
    let ToAct::Over { outcome } = g.to_act() else {
        return None;
    };
    let winner = outcome.winner.map(|t| g.color_of(Player(t.0)));
    Some(match (outcome.reason, winner) {
        (EndReason::Checkmate, Some(w)) => REnd::Mated { winner: w },
        (EndReason::Stalemate, Some(w)) => REnd::NoMove { winner: w },
        (EndReason::Repetition, Some(w)) => REnd::Repetition { winner: w },
        (EndReason::NoProgress, None) => REnd::NoProgress,
        (EndReason::InsufficientMaterial, None) => REnd::BarePopes,
        other => panic!("unexpected outcome {other:?}"),
    })
}

fn engine_moves(g: &Epoch) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// The first ten fields of the engine's text.
fn engine_text(g: &Epoch) -> String {
    let t = g.to_text();
    t.split_whitespace().take(10).collect::<Vec<_>>().join(" ")
}

/// Compares everything observable; panics with a readable difference.
fn compare(g: &Epoch, r: &RGame, context: &str) -> Vec<Move> {
    let et = engine_text(g);
    let rt = r.text();
    assert_eq!(et, rt, "position text differs {context}");
    let moves = engine_moves(g);
    let mine: BTreeSet<String> = moves.iter().map(Move::to_string).collect();
    let theirs: BTreeSet<String> = r.legal().iter().map(RMove::text).collect();
    if mine != theirs {
        let only_engine: Vec<&String> = mine.difference(&theirs).collect();
        let only_reference: Vec<&String> = theirs.difference(&mine).collect();
        panic!(
            "legal moves differ {context}\n  position {et}\n  engine only: {only_engine:?}\n  reference only: {only_reference:?}"
        );
    }
    assert_eq!(
        mine.len(),
        moves.len(),
        "duplicate engine moves {context}: {et}"
    );
    assert_eq!(engine_end(g), r.end, "results differ {context}: {et}");
    let side = r.pos.side;
    assert_eq!(
        g.position().in_check(),
        r.pos.in_check(side),
        "check differs {context}: {et}"
    );
    moves
}

/// What the rare-situation counters saw.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    children: usize,
    restricted_moves: usize,
    no_marshal: usize,
    awake_emperor: usize,
    riposte: usize,
    riposte_captures: usize,
    promotions: usize,
    trades: usize,
    castlings: usize,
    en_passant: usize,
    blasts: usize,
    own_blast_losses: usize,
    assassin_captures: usize,
    corner_captures: usize,
    sentinel_pass_through: usize,
    marshal_captures: usize,
    checks: usize,
    perfts: usize,
    ends: [usize; 5],
}

fn end_index(e: REnd) -> usize {
    match e {
        REnd::Mated { .. } => 0,
        REnd::NoMove { .. } => 1,
        REnd::Repetition { .. } => 2,
        REnd::NoProgress => 3,
        REnd::BarePopes => 4,
    }
}

/// Counts what the position and its moves hold.
fn observe(r: &RGame, moves: &[RMove], seen: &mut Seen) {
    let pos = &r.pos;
    let us = pos.side;
    seen.positions += 1;
    let marshal = (0..13)
        .flat_map(|f| (0..13).map(move |rk| (f, rk)))
        .find(|&s| pos.at(s) == Some(Piece::new(us, PieceKind::Marshal)));
    if marshal.is_none() {
        seen.no_marshal += 1;
    }
    if pos.awake[usize::from(us == Color::Black)]
        && (0..13)
            .flat_map(|f| (0..13).map(move |rk| (f, rk)))
            .any(|s| pos.at(s) == Some(Piece::new(us, PieceKind::Emperor)))
    {
        seen.awake_emperor += 1;
    }
    if pos.riposte {
        seen.riposte += 1;
    }
    if pos.in_check(us) {
        seen.checks += 1;
    }
    for m in moves {
        let from = match *m {
            RMove::Step { from, .. }
            | RMove::Take { from, .. }
            | RMove::Pass { from, .. }
            | RMove::EnPassant { from, .. }
            | RMove::Promote { from, .. } => Some(from),
            RMove::Blast { at } | RMove::Trade { at, .. } => Some(at),
            _ => None,
        };
        let kind = from.and_then(|s| pos.at(s)).map(|p| p.kind);
        if let (Some(s), Some(k)) = (from, kind)
            && !matches!(k, PieceKind::Pope | PieceKind::Emperor | PieceKind::Marshal)
            && marshal.is_none_or(|m| m != (6, 6) && (m.0 - s.0).abs().max((m.1 - s.1).abs()) > 4)
        {
            seen.restricted_moves += 1;
        }
        match *m {
            RMove::Promote { .. } => seen.promotions += 1,
            RMove::Trade { .. } => seen.trades += 1,
            RMove::Castle { .. } => seen.castlings += 1,
            RMove::EnPassant { .. } => seen.en_passant += 1,
            RMove::Blast { at } => {
                seen.blasts += 1;
                let restricted = marshal
                    .is_none_or(|m| m != (6, 6) && (m.0 - at.0).abs().max((m.1 - at.1).abs()) > 4);
                let own_in_ring = (-1..=1).any(|df| {
                    (-1..=1).any(|dr| {
                        (df, dr) != (0, 0)
                            && pos
                                .at((at.0 + df, at.1 + dr))
                                .is_some_and(|p| p.color == us && p.kind != PieceKind::Emperor)
                    })
                });
                if restricted && own_in_ring {
                    seen.own_blast_losses += 1;
                }
            }
            RMove::Pass { .. } => seen.assassin_captures += 1,
            RMove::Take { .. } => match kind {
                Some(PieceKind::Assassin) => {
                    seen.corner_captures += 1;
                }
                Some(PieceKind::Marshal) => {
                    seen.marshal_captures += 1;
                    if pos.riposte {
                        seen.riposte_captures += 1;
                    }
                }
                _ => {}
            },
            RMove::Step { from, to } => {
                if kind == Some(PieceKind::Sentinel) {
                    let (df, dr) = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
                    let n = (to.0 - from.0).abs().max((to.1 - from.1).abs());
                    if (1..n).any(|k| pos.at((from.0 + df * k, from.1 + dr * k)).is_some()) {
                        seen.sentinel_pass_through += 1;
                    }
                }
            }
            RMove::Swap => {}
        }
    }
}

/// Move-choice styles: each gives a weight to a move's category.
#[derive(Debug, Clone, Copy)]
enum Style {
    Uniform,
    Captures,
    Rush,
    Hunt,
    /// Plays a piece back where it came from whenever it can: repetitions.
    Repeat,
}

fn category(pos: &RPos, m: RMove) -> usize {
    match m {
        RMove::Promote { .. } | RMove::Trade { .. } | RMove::Castle { .. } => 0,
        RMove::Take { to, .. } | RMove::Pass { victim: to, .. }
            if pos
                .at(to)
                .is_some_and(|p| matches!(p.kind, PieceKind::Marshal | PieceKind::Emperor)) =>
        {
            1
        }
        RMove::Take { .. } | RMove::Pass { .. } | RMove::Blast { .. } | RMove::EnPassant { .. } => {
            2
        }
        RMove::Step { from, .. }
            if pos.at(from).is_some_and(|p| p.kind == PieceKind::Legionary) =>
        {
            3
        }
        _ => 4,
    }
}

fn pick(rng: &mut GameRng, style: Style, pos: &RPos, moves: &[RMove]) -> RMove {
    // Weights for: special (promotion, trade, castling), capture of a Marshal or
    // Emperor, other captures, Legionary steps, the rest.
    let weights: [u64; 5] = match style {
        Style::Uniform | Style::Repeat => [0, 0, 0, 0, 1],
        Style::Captures => [2, 2, 6, 1, 2],
        Style::Rush => [8, 1, 3, 6, 2],
        Style::Hunt => [4, 12, 4, 1, 2],
    };
    if let Style::Uniform | Style::Repeat = style {
        return moves[rng.below(moves.len() as u64) as usize];
    }
    let mut by_cat: [Vec<RMove>; 5] = Default::default();
    for &m in moves {
        by_cat[category(pos, m)].push(m);
    }
    let total: u64 = (0..5)
        .filter(|&c| !by_cat[c].is_empty())
        .map(|c| weights[c])
        .sum();
    if total == 0 {
        return moves[rng.below(moves.len() as u64) as usize];
    }
    let mut x = rng.below(total);
    for c in 0..5 {
        if by_cat[c].is_empty() {
            continue;
        }
        if x < weights[c] {
            return by_cat[c][rng.below(by_cat[c].len() as u64) as usize];
        }
        x -= weights[c];
    }
    unreachable!()
}

/// A random position the engine accepts: random material (never more of a
/// kind than at the start), often without a Marshal or with an awake
/// Emperor, with open places, riposte, castling and en passant rights.
fn random_position(rng: &mut GameRng) -> String {
    let mut board = [[None::<Piece>; 13]; 13];
    let mut places: Vec<(Color, PieceKind, i8)> = Vec::new();
    let mut flags = String::new();
    for color in [Color::White, Color::Black] {
        let back: i8 = if color == Color::White { 0 } else { 12 };
        let put = |board: &mut [[Option<Piece>; 13]; 13],
                   rng: &mut GameRng,
                   kind,
                   fixed: Option<(i8, i8)>| {
            let sq = match fixed {
                Some(s) if board[s.0 as usize][s.1 as usize].is_none() => s,
                _ => loop {
                    let f = rng.below(13) as i8;
                    let mut r = rng.below(13) as i8;
                    if kind == PieceKind::Legionary {
                        // never behind the start rank
                        let rel = 2 + rng.below(11) as i8;
                        r = if color == Color::White { rel } else { 12 - rel };
                    }
                    if board[f as usize][r as usize].is_none() {
                        break (f, r);
                    }
                },
            };
            board[sq.0 as usize][sq.1 as usize] = Some(Piece::new(color, kind));
        };
        let home = rng.below(3) == 0;
        put(&mut board, rng, PieceKind::Pope, home.then_some((6, back)));
        for kind in [
            PieceKind::Marshal,
            PieceKind::Emperor,
            PieceKind::Sentinel,
            PieceKind::Templar,
            PieceKind::Herald,
            PieceKind::Mage,
            PieceKind::Assassin,
        ] {
            let most = kind.initial_count() as u64;
            let on_board = match kind {
                PieceKind::Marshal => u64::from(rng.below(4) != 0),
                PieceKind::Emperor => u64::from(rng.below(3) != 0),
                _ => rng.below(most + 1),
            };
            for i in 0..on_board {
                let fixed = (kind == PieceKind::Sentinel && home && rng.below(2) == 0)
                    .then_some((if i == 0 { 0 } else { 12 }, back));
                put(&mut board, rng, kind, fixed);
            }
            let lost = rng.below(most - on_board + 1);
            for _ in 0..lost {
                if rng.below(2) == 0 {
                    places.push((color, kind, rng.below(13) as i8));
                }
            }
        }
        for _ in 0..rng.below(9) {
            put(&mut board, rng, PieceKind::Legionary, None);
        }
    }
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let at = |s: (i8, i8)| board[s.0 as usize][s.1 as usize];
    // castling rights where the pieces stand at home
    let mut castle = String::new();
    for (color, back, k, q) in [(Color::White, 0, 'K', 'Q'), (Color::Black, 12, 'k', 'q')] {
        if at((6, back)) == Some(Piece::new(color, PieceKind::Pope)) {
            if at((12, back)) == Some(Piece::new(color, PieceKind::Sentinel)) && rng.below(4) != 0 {
                castle.push(k);
            }
            if at((0, back)) == Some(Piece::new(color, PieceKind::Sentinel)) && rng.below(4) != 0 {
                castle.push(q);
            }
        }
    }
    // en passant after a full advance by the side that just moved
    let mover = if side == Color::White {
        Color::Black
    } else {
        Color::White
    };
    let mut ep = "-".to_owned();
    if rng.below(3) == 0 {
        let seven = 6;
        let short = if mover == Color::White { 5 } else { 7 };
        for f in 0..13 {
            if at((f, seven)) == Some(Piece::new(mover, PieceKind::Legionary))
                && at((f, short)).is_none()
            {
                ep = format!("{}{}", (b'a' + f as u8) as char, short + 1);
                break;
            }
        }
    }
    let has_marshal =
        (0..13).any(|f| (0..13).any(|r| at((f, r)) == Some(Piece::new(side, PieceKind::Marshal))));
    let riposte = if has_marshal && rng.below(5) == 0 {
        "r"
    } else {
        "-"
    };
    // awake flags (the text allows them whether or not the Emperor stands)
    for l in ['E', 'e'] {
        if rng.below(3) == 0 {
            flags.push(l);
        }
    }
    if flags.is_empty() {
        flags.push('-');
    }
    let mut placement = Vec::new();
    for r in (0..13).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..13 {
            match at((f, r)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(p.letter());
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        placement.push(s);
    }
    // places written in the text's order
    let order = [
        PieceKind::Sentinel,
        PieceKind::Templar,
        PieceKind::Herald,
        PieceKind::Mage,
        PieceKind::Assassin,
        PieceKind::Emperor,
        PieceKind::Marshal,
    ];
    let mut pl = Vec::new();
    for color in [Color::White, Color::Black] {
        for k in order {
            for f in 0..13 {
                for &(c, kk, ff) in &places {
                    if (c, kk, ff) == (color, k, f) {
                        pl.push(format!(
                            "{}{}",
                            Piece::new(c, k).letter(),
                            (b'a' + f as u8) as char
                        ));
                    }
                }
            }
        }
    }
    let text = format!(
        "{} {} {} {} {} {} {} {} 20 -",
        placement.join("/"),
        if side == Color::White { "w" } else { "b" },
        if castle.is_empty() {
            "-".to_owned()
        } else {
            castle
        },
        ep,
        riposte,
        flags,
        if pl.is_empty() {
            "-".to_owned()
        } else {
            pl.join(",")
        },
        if rng.below(4) == 0 {
            // close to the no-progress limit
            let pieces = board.iter().flatten().flatten().count() as u64;
            (2 * (60 + 2 * (52 - pieces))).saturating_sub(rng.below(12))
        } else {
            rng.below(30)
        },
    );
    text
}

/// Plays one seeded game in both engines, comparing every ply.
fn playout(seed: u64, start: &str, swap: bool, style: Style, max_plies: usize, seen: &mut Seen) {
    let mut rng = GameRng::from_seed(Seed(seed ^ 0x5eed_d1ff));
    let options = EpochOptions { swap };
    let mut game = Epoch::from_text(start, &options).expect("engine reads the start");
    let mut refg = RGame::from_text(start, swap).expect("reference reads the start");
    let mut last: [Option<RMove>; 2] = [None; 2];
    for ply in 0..max_plies {
        let context = format!("(seed {seed}, {style:?}, ply {ply})");
        let moves = compare(&game, &refg, &context);
        let rmoves = refg.legal();
        observe(&refg, &rmoves, seen);
        if let Some(end) = refg.end {
            seen.ends[end_index(end)] += 1;
            return;
        }
        // The engine's own perft (copy-make, results read directly) against
        // the generic count of `tabula_core` (clone and apply per node).
        if ply % 10 == 3 || moves.len() <= 6 {
            let depth = if moves.len() <= 30 { 3 } else { 2 };
            assert_eq!(
                game.perft(depth),
                tabula_core::perft::perft(&game, depth),
                "perft({depth}) differs {context}: {}",
                game.to_text()
            );
            seen.perfts += 1;
        }
        let by_text: HashMap<String, Move> = moves.iter().map(|m| (m.to_string(), *m)).collect();
        // Now and then, every child too.
        if ply % 23 == 7 || rmoves.len() <= 6 {
            for &rm in &rmoves {
                let mut g2 = game.clone();
                g2.apply_unchecked(&by_text[&rm.text()]);
                let mut r2 = refg.clone();
                r2.play(rm);
                let ctx = format!("{context} after {}", rm.text());
                assert_eq!(engine_text(&g2), r2.text(), "child text differs {ctx}");
                assert_eq!(
                    engine_end(&g2),
                    r2.end,
                    "child result differs {ctx}: {}",
                    r2.text()
                );
                if let Some(end) = r2.end {
                    seen.ends[end_index(end)] += 1;
                }
                seen.children += 1;
            }
        }
        let side = usize::from(refg.pos.side == Color::Black);
        let back = match last[side] {
            Some(RMove::Step { from, to }) => Some(RMove::Step { from: to, to: from }),
            _ => None,
        };
        let rm = match back {
            Some(b)
                if matches!(style, Style::Repeat) && rmoves.contains(&b) && rng.below(8) != 0 =>
            {
                b
            }
            _ => pick(&mut rng, style, &refg.pos, &rmoves),
        };
        last[side] = Some(rm);
        game.apply_unchecked(&by_text[&rm.text()]);
        refg.play(rm);
    }
}

const START: &str = "sthgaepmaghts/13/lllllllllllll/13/13/13/13/13/13/13/LLLLLLLLLLLLL/13/STHGAEPMAGHTS w KQkq - - - - 0 1 s";

#[test]
fn reference_and_engine_agree_on_random_playouts() {
    let games: u64 = std::env::var("EPOCH_DIFF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let styles = [
        Style::Uniform,
        Style::Captures,
        Style::Rush,
        Style::Hunt,
        Style::Repeat,
    ];
    let mut seen = Seen::default();
    let mut rng = GameRng::from_seed(Seed(13));
    let mut random_starts = 0;
    for seed in 0..games {
        let style = styles[(seed / 2 % 5) as usize];
        let t0 = std::time::Instant::now();
        let before = seen.positions;
        if seed % 2 == 0 {
            playout(seed, START, seed % 8 != 0, style, 300, &mut seen);
        } else {
            // a random position the engine accepts
            let text = loop {
                let t = random_position(&mut rng);
                let accepted = Epoch::from_text(&t, &EpochOptions::default()).is_ok();
                let reference = RPos::parse(&t).expect("reference reads it");
                let mover = if reference.side == Color::White {
                    Color::Black
                } else {
                    Color::White
                };
                if accepted {
                    assert!(
                        !reference.in_check(mover),
                        "engine accepted an illegal position: {t}"
                    );
                    break t;
                }
            };
            random_starts += 1;
            playout(seed, &text, true, style, 200, &mut seen);
        }
        if std::env::var("EPOCH_DIFF_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed}: {} positions in {:?}",
                seen.positions - before,
                t0.elapsed()
            );
        }
    }
    eprintln!("random starts: {random_starts}\n{seen:#?}");
}

/// The reference alone confirms the recorded perft numbers (swap on and off).
#[test]
fn reference_perft_from_the_start() {
    let on = RGame::from_text(START, true).unwrap();
    assert_eq!(on.perft(1), 81);
    assert_eq!(on.perft(2), 6_629);
    assert_eq!(on.perft(3), 560_301);
    let off = RGame::from_text(START, false).unwrap();
    assert_eq!(off.perft(2), 6_548);
}

/// Depth 4 by the reference (about three minutes in release):
/// `cargo test --release -p tabula-epoch --test differential -- --ignored`.
#[test]
#[ignore]
fn reference_perft_depth_four() {
    let on = RGame::from_text(START, true).unwrap();
    assert_eq!(on.perft(4), 47_287_495);
}
