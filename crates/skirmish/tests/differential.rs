//! The differential test: the engine in `src/` against the slow reference
//! written from the book (`tests/reference/`), over positions reached by
//! seeded random playouts in the Basic and the Advanced game under varied
//! options (Attack Bonus, King's value, dice, ties, the King's captures,
//! several checkers, the sequential rule, relocation), from the start, from
//! hand-made positions and from random ones, with choices biased so the
//! rare rules come up (skirmishes of every kind, checks and mates,
//! promotions, en passant, castling) and dice drawn as often uniformly over
//! the outcomes as by their odds, so that unlikely results happen.
//!
//! At every ply: the same position text (all ten fields), the same player
//! to act and outcome; at a player's decision the same legal actions (sets
//! of canonical texts, no duplicates in the engine's list); at a chance node
//! the same outcomes with the same exact probabilities. On some plies every
//! child is played in both and compared too.
//!
//! `SKIRMISH_DIFF_GAMES=n` changes the number of playouts (default below);
//! `SKIRMISH_DIFF_VERBOSE=1` prints each game's count.

mod reference;

use std::collections::{BTreeMap, BTreeSet};

use reference::{RAction, RGame, ROpts, RPhase, Role, Ties};
use tabula_core::{ChanceModel, Game, GameRng, Probability, Seed, ToAct};
use tabula_skirmish::{
    Checkers, Dice, KingCaptures, KingValue, Mode, Relocation, Sequential, Skirmish,
    SkirmishAction, SkirmishOptions, TieRule,
};

fn options_of(o: &ROpts) -> SkirmishOptions {
    SkirmishOptions {
        mode: if o.advanced {
            Mode::Advanced
        } else {
            Mode::Basic
        },
        attack_bonus: o.bonus,
        king_value: KingValue::new(o.king_value as u8).unwrap(),
        dice: Dice::new(o.dice_n as u8, o.dice_s as u8).unwrap(),
        ties: match o.ties {
            Ties::Defender => TieRule::Defender,
            Ties::Attacker => TieRule::Attacker,
            Ties::Reroll => TieRule::Reroll,
        },
        king_captures: if o.king_skirmish {
            KingCaptures::Skirmish
        } else {
            KingCaptures::Normal
        },
        checkers: if o.strongest {
            Checkers::Strongest
        } else {
            Checkers::Sum
        },
        sequential: if o.flat {
            Sequential::Flat
        } else {
            Sequential::Cumulative
        },
        relocation: if o.reachable {
            Relocation::Reachable
        } else {
            Relocation::Free
        },
    }
}

fn engine_result(g: &Skirmish) -> Option<(Option<usize>, String)> {
    match g.to_act() {
        ToAct::Over { outcome } => Some((
            outcome.winner.map(|t| usize::from(t.0)),
            format!("{:?}", outcome.reason),
        )),
        _ => None,
    }
}

fn reason_word(why: &str) -> String {
    match why {
        "checkmate" => "Checkmate",
        "stalemate" => "Stalemate",
        "repetition" => "Repetition",
        "no-progress" => "NoProgress",
        "insufficient-material" => "InsufficientMaterial",
        "king-captured" => "KingCaptured",
        other => other,
    }
    .to_owned()
}

/// Compares everything observable; returns the engine's actions or chance
/// outcomes by canonical text.
fn compare(g: &Skirmish, r: &RGame, context: &str) -> BTreeMap<String, SkirmishAction> {
    let et = g.to_text();
    let rt = r.text();
    assert_eq!(et, rt, "position text differs {context}");
    let rres = r.result().map(|(w, why)| (w, reason_word(why)));
    assert_eq!(engine_result(g), rres, "outcomes differ {context}: {et}");
    let mut by_text = BTreeMap::new();
    match g.to_act() {
        ToAct::Player { player } => {
            assert_eq!(
                Some(usize::from(player.0)),
                r.to_act(),
                "to act differs {context}: {et}"
            );
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            let mine: BTreeSet<String> = v.iter().map(ToString::to_string).collect();
            assert_eq!(
                mine.len(),
                v.len(),
                "duplicate engine actions {context}: {et}"
            );
            let theirs: BTreeSet<String> = r.legal().iter().map(RAction::text).collect();
            if mine != theirs {
                let only_engine: Vec<&String> = mine.difference(&theirs).collect();
                let only_reference: Vec<&String> = theirs.difference(&mine).collect();
                panic!(
                    "legal actions differ {context}\n  position {et}\n  engine only: {only_engine:?}\n  reference only: {only_reference:?}"
                );
            }
            for a in v {
                by_text.insert(a.to_string(), a);
            }
        }
        ToAct::Chance => {
            assert!(
                r.is_chance(),
                "engine waits for dice, reference not {context}: {et}"
            );
            let ChanceModel::Exact(list) = g.chance() else {
                panic!("dice are not listed exactly {context}: {et}")
            };
            let mine: BTreeMap<String, Probability> =
                list.iter().map(|(a, p)| (a.to_string(), *p)).collect();
            assert_eq!(mine.len(), list.len(), "duplicate outcomes {context}: {et}");
            let theirs: BTreeMap<String, Probability> = r
                .outcomes()
                .into_iter()
                .map(|(a, n, d)| (a.text(), Probability::new(n, d).unwrap()))
                .collect();
            assert_eq!(mine, theirs, "chance outcomes differ {context}: {et}");
            for (a, _) in list {
                by_text.insert(a.to_string(), a);
            }
        }
        ToAct::Over { .. } => {}
    }
    by_text
}

/// What the counters saw.
#[derive(Debug, Default)]
struct Seen {
    games: usize,
    positions: usize,
    chance_nodes: usize,
    children: usize,
    played: BTreeMap<&'static str, usize>,
    givens: usize,
    ends: BTreeMap<&'static str, usize>,
    unfinished: usize,
}

fn kind(r: &RGame, a: &RAction) -> &'static str {
    match a {
        RAction::Move(m) if m.castle => "castle",
        RAction::Move(m) if m.ep => "en-passant",
        RAction::Move(m) if r.board[m.to].is_some() && m.promo.is_some() => "capture-promotion",
        RAction::Move(m) if r.board[m.to].is_some() => {
            if r.board[m.from].unwrap().1 == Role::K {
                "king-capture"
            } else if r.ts.att[m.from] > 0 {
                "sequential"
            } else {
                "capture"
            }
        }
        RAction::Move(m) if m.promo.is_some() => "promotion",
        RAction::Move(_) => "move",
        RAction::Tac(..) => "tactical",
        RAction::Hit(_) => "hit",
        RAction::Arrive => "arrive",
        RAction::Div(..) => "divided",
        RAction::Place(..) => "place",
        RAction::Stay => "stay",
        RAction::Take(..) => "take",
        RAction::End => "end",
        RAction::Roll(..) => match r.phase {
            RPhase::RollCheck(_) => "check-roll",
            RPhase::RollMate(_) => "mate-roll",
            _ => "roll",
        },
        RAction::Given => "given",
    }
}

/// Weights by kind of action: skirmishes of every kind first.
fn weight(k: &str, aggressive: bool) -> u64 {
    let w = match k {
        "castle" | "en-passant" | "capture-promotion" | "promotion" => 60,
        "capture" | "sequential" | "king-capture" => 30,
        "tactical" | "divided" => 20,
        "hit" => 20,
        "arrive" => 8,
        "take" => 10,
        "stay" => 8,
        "place" => 10,
        "end" => 8,
        _ => 30,
    };
    if aggressive || matches!(k, "move" | "end" | "arrive" | "stay") {
        w
    } else {
        10
    }
}

/// Picks a kind of action by weight among the kinds on offer, then one
/// action of that kind uniformly, so that rare kinds are played often.
fn pick_action(rng: &mut GameRng, r: &RGame, acts: &[RAction], aggressive: bool) -> RAction {
    let mut by_kind: BTreeMap<&'static str, Vec<&RAction>> = BTreeMap::new();
    for a in acts {
        by_kind.entry(kind(r, a)).or_default().push(a);
    }
    let total: u64 = by_kind.keys().map(|k| weight(k, aggressive)).sum();
    let mut x = rng.below(total);
    for (k, list) in &by_kind {
        let w = weight(k, aggressive);
        if x < w {
            return list[rng.below(list.len() as u64) as usize].clone();
        }
        x -= w;
    }
    unreachable!()
}

fn pick_outcome(rng: &mut GameRng, outs: &[(RAction, u64, u64)]) -> RAction {
    if rng.below(2) == 0 {
        return outs[rng.below(outs.len() as u64) as usize].0.clone();
    }
    let den = outs[0].2;
    let mut x = rng.below(den);
    for (a, n, _) in outs {
        if x < *n {
            return a.clone();
        }
        x -= n;
    }
    unreachable!()
}

/// Hand-made starts for the rarer rules.
const SPECIAL: &[&str] = &[
    // promotions both ways, captures onto the last rank
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    // en passant ready
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/2p5/8/1P1P4/8/8/8/4K3 b - - 0 1",
    // back-rank mate threats
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
    // forks for divided skirmishes
    "6k1/8/3p4/2p1p3/3Q4/8/8/6K1 w - - 0 1",
    "r3k3/8/2n1b3/3N4/8/5n2/4Q3/4K2R w Kq - 0 1",
    // a Rook run for Tactical movements
    "6k1/8/1p6/8/8/1p6/1p6/R5K1 w - - 0 1",
    // check from the start
    "4k3/p7/8/1B6/8/8/8/6K1 b - - 0 1",
    // a middle game
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5",
];

/// A random position: each King, some pieces, pawns off the last ranks.
fn random_fen(rng: &mut GameRng) -> String {
    loop {
        let mut board = [' '; 64];
        let wk = rng.below(64) as usize;
        let bk = rng.below(64) as usize;
        let (fw, rw, fb, rb) = (wk % 8, wk / 8, bk % 8, bk / 8);
        if fw.abs_diff(fb) <= 1 && rw.abs_diff(rb) <= 1 {
            continue;
        }
        board[wk] = 'K';
        board[bk] = 'k';
        let n = 3 + rng.below(12) as usize;
        for _ in 0..n {
            let s = rng.below(64) as usize;
            if board[s] != ' ' {
                continue;
            }
            let c = b"PPPPNBRQppppnbrq"[rng.below(16) as usize] as char;
            if (c == 'P' || c == 'p') && !(8..56).contains(&s) {
                continue;
            }
            board[s] = c;
        }
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut e = 0;
            for f in 0..8 {
                let ch = board[r * 8 + f];
                if ch == ' ' {
                    e += 1;
                } else {
                    if e > 0 {
                        fen.push_str(&e.to_string());
                        e = 0;
                    }
                    fen.push(ch);
                }
            }
            if e > 0 {
                fen.push_str(&e.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        let side = if rng.below(2) == 0 { 'w' } else { 'b' };
        return format!("{fen} {side} - - 0 1");
    }
}

fn opts_for(seed: u64, rng: &mut GameRng) -> ROpts {
    let mut o = ROpts {
        advanced: !seed.is_multiple_of(2),
        ..ROpts::default()
    };
    // Every third game is the book's own game (defaults); the rest vary.
    if !seed.is_multiple_of(3) {
        o.bonus = [1, 0, -1, 2, 3, -3, 6, -6][rng.below(8) as usize];
        o.king_value = 1 + rng.below(9) as i32;
        if rng.below(4) == 0 {
            (o.dice_n, o.dice_s) = [(2, 6), (1, 4), (1, 20), (3, 2)][rng.below(4) as usize];
        }
        o.ties = [Ties::Defender, Ties::Attacker, Ties::Reroll][rng.below(3) as usize];
        o.king_skirmish = rng.below(3) == 0;
        o.strongest = rng.below(3) == 0;
        o.flat = rng.below(3) == 0;
        o.reachable = rng.below(3) == 0;
    }
    o
}

fn playout(seed: u64, start: &str, o: ROpts, max_plies: usize, seen: &mut Seen) {
    let mut rng = GameRng::from_seed(Seed(seed ^ 0x5c1a_3b11));
    let aggressive = seed % 4 != 3;
    let mut game = Skirmish::from_text(start, &options_of(&o))
        .unwrap_or_else(|e| panic!("engine refuses {start}: {e}"));
    let mut refg = RGame::from_fen(start, o);
    seen.games += 1;
    for ply in 0..max_plies {
        let context = format!("(seed {seed}, {o:?}, ply {ply}, from {start})");
        let by_text = compare(&game, &refg, &context);
        if let Some((_, why)) = refg.result() {
            *seen.ends.entry(why).or_default() += 1;
            return;
        }
        seen.positions += 1;
        let choices: Vec<RAction> = if refg.is_chance() {
            seen.chance_nodes += 1;
            refg.outcomes().into_iter().map(|(a, _, _)| a).collect()
        } else {
            refg.legal()
        };
        if ply % 13 == 5 || choices.len() <= 3 {
            for ra in &choices {
                let mut g2 = game.clone();
                g2.apply(&by_text[&ra.text()])
                    .unwrap_or_else(|e| panic!("engine refuses {} {context}: {e}", ra.text()));
                let mut r2 = refg.clone();
                r2.play(ra);
                let ctx = format!("{context} after {}", ra.text());
                assert_eq!(
                    g2.to_text(),
                    r2.text(),
                    "child text differs {ctx} from {}",
                    game.to_text()
                );
                let rres = r2.result().map(|(w, why)| (w, reason_word(why)));
                assert_eq!(engine_result(&g2), rres, "child outcome differs {ctx}");
                seen.children += 1;
            }
        }
        let ra = if refg.is_chance() {
            pick_outcome(&mut rng, &refg.outcomes())
        } else {
            pick_action(&mut rng, &refg, &choices, aggressive)
        };
        if ra == RAction::Given {
            seen.givens += 1;
        }
        *seen.played.entry(kind(&refg, &ra)).or_default() += 1;
        let parsed: SkirmishAction = ra
            .text()
            .parse()
            .unwrap_or_else(|_| panic!("engine cannot read {} {context}", ra.text()));
        assert_eq!(parsed, by_text[&ra.text()], "{context}");
        game.apply(&parsed)
            .unwrap_or_else(|e| panic!("engine refuses {} {context}: {e}", ra.text()));
        refg.play(&ra);
    }
    seen.unfinished += 1;
}

#[test]
fn reference_and_engine_agree_on_random_playouts() {
    let games: u64 = std::env::var("SKIRMISH_DIFF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let mut seen = Seen::default();
    let mut rng = GameRng::from_seed(Seed(0x5c1a));
    let t0 = std::time::Instant::now();
    for seed in 0..games {
        let o = opts_for(seed, &mut rng);
        let before = seen.positions;
        let start = match seed % 5 {
            0 | 1 => tabula_chess::START_FEN.to_owned(),
            2 | 3 => SPECIAL[(seed / 5) as usize % SPECIAL.len()].to_owned(),
            _ => random_fen(&mut rng),
        };
        playout(seed, &start, o, 400, &mut seen);
        if std::env::var("SKIRMISH_DIFF_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed}: {} positions, {:?} so far",
                seen.positions - before,
                t0.elapsed()
            );
        }
    }
    eprintln!("{seen:#?}\nin {:?}", t0.elapsed());
    assert!(seen.positions > 0);
}
