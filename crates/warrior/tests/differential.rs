//! The differential test: the engine in `src/` against the slow reference
//! written from the book (`tests/reference/`), over positions reached by
//! seeded random playouts, two-player and doubles, under every option, from
//! the start and from random positions (crowded boards, empty Banks, full
//! Reserves, money at the cap, the fifty-moves count near its limit), with
//! action choices biased so the rare rules come up (captures of armed pieces
//! and stacks, King captures, arming, buying reissued weapons, bonus drops,
//! passes, the fifty-moves draw and its claim).
//!
//! At every ply: the same legal actions (as sets of canonical texts, no
//! duplicates in the engine's list), the same position text (all nine
//! fields), the same player to act and the same outcome. On some plies
//! every legal action is played in both and the children compared too.
//!
//! `WARRIOR_DIFF_GAMES=n` changes the number of playouts (default below);
//! `WARRIOR_DIFF_VERBOSE=1` prints each game's count.

// Armies and weapons are plain indexes, as in the reference.
#![allow(clippy::needless_range_loop)]

mod reference;

use std::collections::{BTreeSet, HashMap};

use reference::{FACINGS, Fifty, RAction, RGame, RPhase, RPiece, RRules, WEAPON_STOCK};
use tabula_core::{Game, GameRng, Seed, ToAct};
use tabula_warrior::{Action, FiftyMoves, NoMovement, Players, Square, Warrior, WarriorOptions};

fn options_of(r: &RRules) -> WarriorOptions {
    WarriorOptions {
        players: if r.players == 2 {
            Players::Two
        } else {
            Players::Four
        },
        no_movement: if r.lose_without_movement {
            NoMovement::Lose
        } else {
            NoMovement::Pass
        },
        fifty_moves: match r.fifty {
            Fifty::Auto => FiftyMoves::Auto,
            Fifty::Claim => FiftyMoves::Claim,
            Fifty::Off => FiftyMoves::Off,
        },
        duplicate_weapons: r.duplicates,
    }
}

fn engine_result(g: &Warrior) -> Option<(Option<usize>, String)> {
    match g.to_act() {
        ToAct::Over { outcome } => Some((
            outcome.winner.map(|t| usize::from(t.0)),
            format!("{:?}", outcome.reason),
        )),
        _ => None,
    }
}

fn engine_actions(g: &Warrior) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Compares everything observable; panics with a readable difference.
fn compare(g: &Warrior, r: &RGame, context: &str) -> Vec<Action> {
    let et = g.to_text();
    let rt = r.text();
    assert_eq!(et, rt, "position text differs {context}");
    let actions = engine_actions(g);
    let mine: BTreeSet<String> = actions.iter().map(Action::to_string).collect();
    let theirs: BTreeSet<String> = r.legal().iter().map(RAction::text).collect();
    if mine != theirs {
        let only_engine: Vec<&String> = mine.difference(&theirs).collect();
        let only_reference: Vec<&String> = theirs.difference(&mine).collect();
        panic!(
            "legal actions differ {context}\n  position {et}\n  engine only: {only_engine:?}\n  reference only: {only_reference:?}"
        );
    }
    assert_eq!(
        mine.len(),
        actions.len(),
        "duplicate engine actions {context}: {et}"
    );
    let rres = r.result().map(|(w, why)| (w, why.to_owned()));
    assert_eq!(engine_result(g), rres, "outcomes differ {context}: {et}");
    if let ToAct::Player { player } = g.to_act() {
        assert_eq!(usize::from(player.0), r.to_act, "to act differs {context}");
    }
    // Every piece's reach, whoever's turn it is; every army's income; and
    // whether the player to act has a movement.
    for s in 0..64 {
        if r.board[s].is_some() {
            let sq = Square::from_index(s).unwrap();
            assert_eq!(
                g.reach(sq),
                r.reach_sets(s),
                "reach of {sq} differs {context}: {et}"
            );
        }
    }
    for (i, army) in g.armies().enumerate() {
        assert_eq!(
            u32::from(g.income(army)),
            r.income(i),
            "income of {army} differs {context}: {et}"
        );
    }
    if r.result().is_none() {
        assert_eq!(
            g.has_movement(),
            !r.movements().is_empty(),
            "has_movement differs {context}: {et}"
        );
    }
    actions
}

/// What the counters saw.
#[derive(Debug, Default)]
struct Seen {
    games: usize,
    random_starts: usize,
    refused_random_starts: usize,
    positions: usize,
    children: usize,
    by_phase: [usize; 4],
    played: [usize; 7],
    armed_captures: usize,
    stack_captures: usize,
    capped_bonus: usize,
    reissued_buys: usize,
    second_weapons: usize,
    double_swords: usize,
    duplicate_weapons: usize,
    passes: usize,
    draw_offers: usize,
    ends: HashMap<&'static str, usize>,
    unfinished: usize,
}

const CAT_KING: usize = 0;
const CAT_CAPTURE: usize = 1;
const CAT_ECONOMY: usize = 2;
const CAT_DROP: usize = 3;
const CAT_MOVE: usize = 4;
const CAT_END: usize = 5;
const CAT_PASS: usize = 6;
/// The number of categories.
const CATS: usize = 7;

fn category(r: &RGame, a: RAction) -> usize {
    match a {
        RAction::Capture(_, to, _) if r.board[to].is_some_and(|p| p.king) => CAT_KING,
        RAction::Capture(..) => CAT_CAPTURE,
        RAction::Arm(..)
        | RAction::Bonus(_)
        | RAction::BuyWarrior
        | RAction::BuyNew(_)
        | RAction::BuyReissued(_) => CAT_ECONOMY,
        RAction::Drop(_) => CAT_DROP,
        RAction::Move(..) => CAT_MOVE,
        RAction::End => CAT_END,
        RAction::Pass | RAction::Draw => CAT_PASS,
    }
}

/// Action-choice styles.
#[derive(Debug, Clone, Copy)]
enum Style {
    /// Every action alike.
    Uniform,
    /// Captures, the King's above all.
    Aggressive,
    /// Arming, buying and bonus drops; captures when they come.
    Builder,
    /// Moves and `end`: long stretches without progress.
    Quiet,
}

fn pick(rng: &mut GameRng, style: Style, r: &RGame, actions: &[RAction]) -> RAction {
    // Weights for: King capture, capture, arm/buy/bonus, drop, move, end,
    // pass/draw.
    let weights: [u64; CATS] = match style {
        Style::Uniform => [0; CATS],
        Style::Aggressive => [40, 60, 30, 8, 10, 6, 5],
        Style::Builder => [10, 30, 60, 15, 10, 6, 5],
        Style::Quiet => [2, 2, 8, 1, 60, 25, 10],
    };
    let mut by_cat: [Vec<RAction>; CATS] = Default::default();
    for &a in actions {
        by_cat[category(r, a)].push(a);
    }
    let usable: Vec<usize> = (0..CATS).filter(|&c| !by_cat[c].is_empty()).collect();
    if let Style::Uniform = style {
        return actions[rng.below(actions.len() as u64) as usize];
    }
    let total: u64 = usable.iter().map(|&c| weights[c]).sum();
    let mut x = rng.below(total.max(1));
    for &c in &usable {
        if x < weights[c] || total == 0 {
            return by_cat[c][rng.below(by_cat[c].len() as u64) as usize];
        }
        x -= weights[c];
    }
    unreachable!()
}

/// Counts what the action played shows.
fn observe_play(r: &RGame, a: RAction, seen: &mut Seen) {
    seen.played[category(r, a)] += 1;
    match a {
        RAction::Capture(_, to, _) => {
            let v = r.board[to].unwrap();
            if v.weapons.iter().any(|&w| w > 0) {
                seen.armed_captures += 1;
                let bonus: u32 = (0..4)
                    .map(|w| u32::from(v.weapons[w]) * u32::from(reference::NEW_PRICE[w]))
                    .sum();
                if u32::from(r.money[r.to_act]) + bonus > u32::from(reference::CAP) {
                    seen.capped_bonus += 1;
                }
            }
            if v.stack.iter().any(|&c| c > 0) {
                seen.stack_captures += 1;
            }
        }
        RAction::BuyReissued(_) => seen.reissued_buys += 1,
        RAction::Arm(w, s, _) => {
            let p = r.board[s].unwrap();
            if p.weapons.iter().any(|&x| x > 0) {
                seen.second_weapons += 1;
                if w == 3 && p.weapons[3] == 1 {
                    seen.double_swords += 1;
                } else if p.weapons[w] > 0 {
                    seen.duplicate_weapons += 1;
                }
            }
        }
        RAction::Pass => seen.passes += 1,
        _ => {}
    }
}

/// A random position of the kind a game could reach: every army keeps its
/// King, 8 Warriors (Bank, Reserve, board, stacks under any piece) and its
/// weapons (new, reissue, Reserve, on its own Warriors). Crowded boards and
/// empty Banks are frequent, so that passes and "no movement" come up.
fn random_position(rng: &mut GameRng, rules: RRules) -> String {
    let n = rules.players;
    let mut g = RGame::start(rules);
    g.board = vec![None; 64];
    let crowded = rng.below(3) == 0;
    let free = |g: &RGame, rng: &mut GameRng| loop {
        let s = rng.below(64) as usize;
        if g.board[s].is_none() {
            break s;
        }
    };
    let mut stacked = vec![0u8; n];
    for a in 0..n {
        let s = free(&g, rng);
        g.board[s] = Some(RPiece {
            army: a,
            king: true,
            weapons: [0; 4],
            facing: None,
            stack: [0; 4],
        });
        let on_board = if crowded {
            5 + rng.below(4) as u8
        } else {
            rng.below(7) as u8
        };
        let bank = if crowded || rng.below(3) == 0 {
            0
        } else {
            rng.below(u64::from(8 - on_board) + 1) as u8
        };
        let reserve = rng.below(u64::from(8 - on_board - bank) + 1) as u8;
        stacked[a] = 8 - on_board - bank - reserve;
        g.bank_new[a][0] = bank;
        g.reserve[a][0] = reserve;
        let mut mine = Vec::new();
        for _ in 0..on_board {
            let s = free(&g, rng);
            g.board[s] = Some(RPiece {
                army: a,
                king: false,
                weapons: [0; 4],
                facing: None,
                stack: [0; 4],
            });
            mine.push(s);
        }
        // weapons: each one to the board, the Reserve, the reissue stock or
        // new stock
        for w in 0..4 {
            g.bank_new[a][w + 1] = 0;
            g.reissue[a][w] = 0;
            for _ in 0..WEAPON_STOCK[w] {
                let place = rng.below(5);
                let on = if place < 2 && !mine.is_empty() {
                    let s = mine[rng.below(mine.len() as u64) as usize];
                    let p = g.board[s].unwrap();
                    let total: u8 = p.weapons.iter().sum();
                    let ok = total < 2 && (w == 3 || p.weapons[w] == 0 || rules.duplicates);
                    ok.then_some(s)
                } else {
                    None
                };
                if let Some(s) = on {
                    g.board[s].as_mut().unwrap().weapons[w] += 1;
                } else {
                    match place {
                        0 | 2 => g.reserve[a][w + 1] += 1,
                        3 => g.reissue[a][w] += 1,
                        _ => g.bank_new[a][w + 1] += 1,
                    }
                }
            }
        }
        for &s in &mine {
            let p = g.board[s].as_mut().unwrap();
            if p.weapons[3] == 1 {
                p.facing = Some(rng.below(4) as usize);
            }
        }
    }
    // captured Warriors under random pieces
    let squares: Vec<usize> = (0..64).filter(|&s| g.board[s].is_some()).collect();
    for (a, &k) in stacked.iter().enumerate() {
        for _ in 0..k {
            let s = squares[rng.below(squares.len() as u64) as usize];
            g.board[s].as_mut().unwrap().stack[a] += 1;
        }
    }
    for a in 0..n {
        g.money[a] = if rng.below(3) == 0 {
            12
        } else {
            rng.below(13) as u8
        };
    }
    g.to_act = rng.below(n as u64) as usize;
    let limit = rules.fifty_limit();
    g.no_progress = match rng.below(4) {
        0 => limit - 1 - rng.below(6) as u32,
        1 if rules.fifty != Fifty::Auto => limit + rng.below(4) as u32,
        _ => rng.below(40) as u32,
    };
    // a later phase of the turn, with some of the unarmed Warriors dropped
    // this turn
    g.phase = [RPhase::Move, RPhase::Bonus, RPhase::Arm, RPhase::Buy][rng.below(4) as usize];
    if g.phase != RPhase::Move {
        for s in 0..64 {
            if g.board[s].is_some_and(|p| p.army == g.to_act && !p.king && p.weapons == [0; 4])
                && rng.below(3) == 0
            {
                g.dropped.push(s);
            }
        }
        // a phase offering nothing but `end` would have been skipped
        let offers = g.legal().len() > 2;
        if !offers {
            g.phase = RPhase::Move;
            g.dropped.clear();
        }
    }
    g.text()
}

/// Hand-made starts for the rarest rules.
const SPECIAL_STARTS: &[(&str, usize)] = &[
    // Blue moves; then Red, hemmed in a1 with no Warrior in the Bank, has no
    // movement: pass (then bonus drops and arming), or lose.
    (
        "3BK4/8/8/8/8/BWBWBW5/RWRWBW5/RKRWBW5 B move 3,1 W5r1s2,- r2n2b3s2,W3r3n2b3s4 -,- - 0",
        2,
    ),
    // The same in doubles, Green to act, Yellow at h5 and Blue at h8.
    (
        "7BK/8/8/7YK/8/BWBWBW5/RWRWBW2GK2/RKRWBW5 G move 3,1,2,1 W5s1,-,-,- r3n2b3s3,W3r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4 -,-,-,- - 0",
        4,
    ),
    // The fifty-moves count at the limit's edge.
    (
        "3BK4/8/2BWrsN5/8/3RWnb4/8/8/4RK3 R move 5,5 -,- W7r3n1b2s4,W7r2n2b3s3 -,- - 99",
        2,
    ),
];

/// Plays one seeded game in both, comparing every ply.
fn playout(seed: u64, start: &str, rules: RRules, style: Style, max_plies: usize, seen: &mut Seen) {
    let mut rng = GameRng::from_seed(Seed(seed ^ 0x3a11_0d1f));
    let options = options_of(&rules);
    let mut game = Warrior::from_text(start, &options)
        .unwrap_or_else(|e| panic!("engine refuses {start}: {e}"));
    let mut refg =
        RGame::parse(start, rules).unwrap_or_else(|e| panic!("reference refuses {start}: {e}"));
    seen.games += 1;
    for ply in 0..max_plies {
        let context = format!("(seed {seed}, {style:?}, {rules:?}, ply {ply})");
        let actions = compare(&game, &refg, &context);
        if let Some((_, _)) = refg.result() {
            let RPhase::Over(word) = refg.phase else {
                unreachable!()
            };
            *seen.ends.entry(word).or_default() += 1;
            return;
        }
        seen.positions += 1;
        match refg.phase {
            RPhase::Move => seen.by_phase[0] += 1,
            RPhase::Bonus => seen.by_phase[1] += 1,
            RPhase::Arm => seen.by_phase[2] += 1,
            RPhase::Buy => seen.by_phase[3] += 1,
            RPhase::Over(_) => {}
        }
        let ractions = refg.legal();
        if ractions.contains(&RAction::Draw) {
            seen.draw_offers += 1;
        }
        let by_text: HashMap<String, Action> =
            actions.iter().map(|a| (a.to_string(), *a)).collect();
        // Now and then, every child too.
        if ply % 17 == 5 || ractions.len() <= 4 {
            for &ra in &ractions {
                let mut g2 = game.clone();
                g2.apply(&by_text[&ra.text()])
                    .unwrap_or_else(|e| panic!("engine refuses {} {context}: {e}", ra.text()));
                let mut r2 = refg.clone();
                r2.play(ra);
                let ctx = format!("{context} after {}", ra.text());
                assert_eq!(g2.to_text(), r2.text(), "child text differs {ctx}");
                let rres = r2.result().map(|(w, why)| (w, why.to_owned()));
                assert_eq!(engine_result(&g2), rres, "child outcome differs {ctx}");
                seen.children += 1;
            }
        }
        let ra = pick(&mut rng, style, &refg, &ractions);
        observe_play(&refg, ra, seen);
        // The engine reads the reference's canonical text, and plays it.
        let parsed: Action = ra
            .text()
            .parse()
            .unwrap_or_else(|_| panic!("engine cannot read {} {context}", ra.text()));
        assert_eq!(parsed, by_text[&ra.text()], "{context}");
        game.apply(&parsed)
            .unwrap_or_else(|e| panic!("engine refuses {} {context}: {e}", ra.text()));
        refg.play(ra);
    }
    seen.unfinished += 1;
}

fn rules_for(seed: u64) -> RRules {
    RRules {
        players: if seed.is_multiple_of(2) { 2 } else { 4 },
        lose_without_movement: seed % 5 == 3,
        fifty: match seed % 7 {
            2 => Fifty::Claim,
            5 => Fifty::Off,
            _ => Fifty::Auto,
        },
        duplicates: seed % 3 == 1,
    }
}

#[test]
fn reference_and_engine_agree_on_random_playouts() {
    let games: u64 = std::env::var("WARRIOR_DIFF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let styles = [
        Style::Aggressive,
        Style::Builder,
        Style::Uniform,
        Style::Quiet,
    ];
    let mut seen = Seen::default();
    let mut rng = GameRng::from_seed(Seed(0x0057_4152));
    let t0 = std::time::Instant::now();
    for seed in 0..games {
        let rules = rules_for(seed);
        let style = styles[(seed / 2 % 4) as usize];
        let before = seen.positions;
        match seed % 8 {
            // from the start
            0 | 1 | 4 | 5 => {
                let start = RGame::start(rules).text();
                playout(seed, &start, rules, style, 800, &mut seen);
            }
            // a hand-made start
            2 if seed % 16 == 2 => {
                for &(text, players) in SPECIAL_STARTS {
                    let mut r = rules;
                    r.players = players;
                    playout(seed, text, r, style, 300, &mut seen);
                }
            }
            // a random position the engine accepts
            _ => {
                let text = loop {
                    let t = random_position(&mut rng, rules);
                    RGame::parse(&t, rules).expect("reference reads its own text");
                    if Warrior::from_text(&t, &options_of(&rules)).is_ok() {
                        break t;
                    }
                    seen.refused_random_starts += 1;
                    assert!(
                        seen.refused_random_starts < 1000,
                        "the engine refuses random positions such as {t}: {}",
                        Warrior::from_text(&t, &options_of(&rules)).unwrap_err()
                    );
                };
                seen.random_starts += 1;
                playout(seed, &text, rules, style, 400, &mut seen);
            }
        }
        if std::env::var("WARRIOR_DIFF_VERBOSE").is_ok() {
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

/// The reference alone confirms the perft figures counted by hand.
#[test]
fn reference_perft_from_the_start() {
    let two = RRules {
        players: 2,
        lose_without_movement: false,
        fifty: Fifty::Auto,
        duplicates: false,
    };
    let g = RGame::start(two);
    assert_eq!(
        g.text(),
        "3BK4/8/8/8/8/8/8/4RK3 R move 1,1 -,- W8r3n2b3s4,W8r3n2b3s4 -,- - 0"
    );
    assert_eq!(g.perft(1), 67);
    assert_eq!(g.perft(2), 4_427);
    assert_eq!(g.perft(3), 291_213);
    let engine = Warrior::new(&WarriorOptions::default());
    assert_eq!(engine.perft(3), 291_213);
    assert_eq!(g.perft(4), 17_404_795);
    assert_eq!(engine.perft(4), 17_404_795);
    let four = RRules { players: 4, ..two };
    let g4 = RGame::start(four);
    assert_eq!(
        g4.text(),
        "3GK4/8/8/7YK/BK7/8/8/4RK3 R move 1,1,0,1 -,-,-,- W8r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4 -,-,-,- - 0"
    );
    assert_eq!(g4.perft(1), 65);
    assert_eq!(g4.perft(2), 4_165);
    assert_eq!(g4.perft(3), 242_575);
    let engine4 = Warrior::new(&WarriorOptions::doubles());
    assert_eq!(engine4.perft(3), 242_575);
    // Facing letters as the text writes them.
    assert_eq!(FACINGS, ['N', 'E', 'S', 'W']);
}
