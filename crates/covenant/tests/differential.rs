//! The differential test: the engine in `src/` against the slow reference
//! written from the book (`tests/reference/`), over positions reached by
//! seeded random playouts from each scenario's start and from random
//! positions (random armies of every kind, hurt pieces, full purses, a
//! no-capture count close to the draw), with action choices biased so that
//! the rare rules come up: conversions, sweeps, Fury, the Angel's wrath and
//! Grace, Sacrifice, the Maiden's extra acts, healing, the Curse, succession.
//!
//! At every ply: the same legal actions (as sets of canonical texts), the
//! same position text, the same result. On some plies every legal action is
//! played in both and the children compared too, and every verb on the
//! hexes around the side's pieces is put to the engine's `parse_action`
//! (its `check`, a separate path from its move generation), which must
//! accept exactly what the reference lists. The game has no chance nodes
//! (`to_act` is never `Chance`; checked). Differences found so far and how
//! they were settled: `docs/rules/covenant.md`, "The differential test".
//!
//! `COVENANT_DIFF_GAMES=n` changes the number of playouts (default below);
//! `COVENANT_DIFF_PLIES=n` the cap on plies a game;
//! `COVENANT_DIFF_VERBOSE=1` prints each game's size and time.

mod reference;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use reference::{ALL_KINDS, Hx, K, Land, RAct, REnd, RGame, ROpts, distance};
use tabula_core::{EndReason, Game, GameRng, Options, Seed, ToAct};
use tabula_covenant::{Action, Covenant, CovenantOptions};

fn engine_end(g: &Covenant) -> Option<REnd> {
    match g.to_act() {
        ToAct::Over { outcome } => Some(match (outcome.reason, outcome.winner) {
            (EndReason::KingCaptured, Some(t)) => REnd::Won(t.0),
            (EndReason::NoProgress, None) => REnd::Drawn,
            other => panic!("unexpected outcome {other:?}"),
        }),
        ToAct::Player { player } => {
            assert_eq!(player.index(), g.side_to_move().index());
            None
        }
        other => panic!("Covenant has no chance nodes: {other:?}"),
    }
}

fn engine_actions(g: &Covenant) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Compares everything observable; panics with a readable difference.
fn compare(g: &Covenant, r: &RGame, context: &str) -> (Vec<Action>, Vec<RAct>) {
    let et = g.to_text();
    let rt = r.text();
    assert_eq!(et, rt, "position text differs {context}");
    let actions = engine_actions(g);
    let mine: BTreeSet<String> = actions.iter().map(Action::to_string).collect();
    let ractions = r.legal();
    let theirs: BTreeSet<String> = ractions.iter().map(RAct::text).collect();
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
    assert_eq!(
        theirs.len(),
        ractions.len(),
        "duplicate reference actions {context}: {et}"
    );
    assert_eq!(engine_end(g), r.end(), "results differ {context}: {et}");
    (actions, ractions)
}

/// Texts of actions near the legal ones (every verb on the hexes around the
/// side's pieces), legal or not: the engine's `parse_action` (its `check`)
/// must accept exactly those the reference lists. Returns how many probed.
fn probe(g: &Covenant, r: &RGame, legal: &BTreeSet<String>, context: &str) -> usize {
    let mut around: BTreeSet<Hx> = BTreeSet::new();
    for p in r.pieces.iter().filter(|p| p.side == r.side) {
        for h in r.field.hexes() {
            if distance(h, p.at) <= 1 {
                around.insert(h);
            }
        }
    }
    if let Some(a) = r.active {
        for h in r.field.hexes() {
            if distance(h, a.at) <= 5 {
                around.insert(h);
            }
        }
    }
    let mut texts: Vec<String> = vec!["end-act".into(), "end-turn".into()];
    for &h in &around {
        let t = reference::hex_text(h);
        for verb in ["act", "extra", "move", "melee", "shoot", "holy", "convert"] {
            texts.push(format!("{verb}@{t}"));
        }
        for k in [K::Militia, K::Heir, K::Maiden, K::Angel, K::King, K::Levite] {
            texts.push(format!("recruit@{t}:{}", k.code()));
        }
        for p in r.pieces.iter().filter(|p| p.kind == K::Prophet) {
            texts.push(format!("heal@{}:{t}", reference::hex_text(p.at)));
        }
    }
    if let Some(a) = r.active {
        let near: Vec<Hx> = reference::neighbours(a.at)
            .into_iter()
            .filter(|&h| r.field.on(h))
            .collect();
        for &x in &near {
            for &y in &near {
                if x != y {
                    texts.push(format!(
                        "sweep@{},{}",
                        reference::hex_text(x),
                        reference::hex_text(y)
                    ));
                }
            }
        }
    }
    for t in &texts {
        // Some probes do not even read (no such hex, a sweep of one); they
        // must then not be legal either.
        let accepted = g.parse_action(t).is_ok();
        let canonical = t
            .parse::<Action>()
            .map(|a| a.to_string())
            .unwrap_or_default();
        assert_eq!(
            accepted,
            legal.contains(&canonical),
            "the engine's check and the reference disagree on {t} {context}: {}",
            r.text()
        );
    }
    texts.len()
}

/// What the playouts saw, to show the rare rules came up.
#[derive(Debug, Default)]
struct Seen {
    games: usize,
    positions: usize,
    children: usize,
    probes: usize,
    perfts: usize,
    /// Actions played, by verb.
    played: BTreeMap<&'static str, usize>,
    falls: usize,
    successions: usize,
    wraths: usize,
    counters: usize,
    grace_refunds: usize,
    sacrifice_falls: usize,
    cursed_targets: usize,
    fury_double_blows: usize,
    /// Archer shots at range 5 (beside a Bastion).
    height_shots: usize,
    /// Wayfarer moves only pass-through makes possible.
    pass_through: usize,
    holy_on_bastion: usize,
    /// Wrath against an attacker 2 or more tiles away.
    distant_wraths: usize,
    /// Charge blows (Pikeman, Lancer) after walking 2 tiles or more.
    charge_blows: usize,
    /// Blows by a piece on a hill on one below.
    hill_blows: usize,
    /// Activations with the Heir's +2.
    heir_boosts: usize,
    /// Turns that began with Holy City income.
    income_turns: usize,
    /// Positions with a conversion pending that cannot be paid or placed.
    convert_refused: usize,
    /// Extra acts bought by a piece with two acts of its own.
    third_acts: usize,
    wins: usize,
    draws: usize,
    unfinished: usize,
}

fn verb(a: &RAct) -> &'static str {
    match a {
        RAct::Act(_) => "act",
        RAct::Extra(_) => "extra",
        RAct::Move(_) => "move",
        RAct::Melee(_) => "melee",
        RAct::Shoot(_) => "shoot",
        RAct::Holy(_) => "holy",
        RAct::Sweep(v) if v.len() == 3 => "sweep3",
        RAct::Sweep(_) => "sweep2",
        RAct::Heal(..) => "heal",
        RAct::Recruit(..) => "recruit",
        RAct::Convert(_) => "convert",
        RAct::EndAct => "end-act",
        RAct::EndTurn => "end-turn",
    }
}

/// Counts what an action did, comparing the reference before and after.
fn observe(before: &RGame, act: &RAct, after: &RGame, seen: &mut Seen) {
    *seen.played.entry(verb(act)).or_default() += 1;
    let gone = before.pieces.len()
        + usize::from(matches!(act, RAct::Recruit(..) | RAct::Convert(_)))
        - after.pieces.len();
    seen.falls += gone;
    for s in 0..2u8 {
        let heir_before = before
            .pieces
            .iter()
            .any(|p| p.side == s && p.kind == K::Heir);
        let heir_now = after
            .pieces
            .iter()
            .any(|p| p.side == s && p.kind == K::Heir);
        let king_now = after
            .pieces
            .iter()
            .any(|p| p.side == s && p.kind == K::King);
        if heir_before && !heir_now && king_now {
            seen.successions += 1;
        }
    }
    let countered = |g: &RGame| g.pieces.iter().filter(|p| p.countered).count();
    if countered(after) > countered(before) {
        seen.counters += 1;
        if after
            .pieces
            .iter()
            .any(|p| p.kind == K::Angel && p.countered)
            && !before
                .pieces
                .iter()
                .any(|p| p.kind == K::Angel && p.countered)
        {
            seen.wraths += 1;
        }
    }
    if gone > 0
        && act.is_attack()
        && (after.grails[0] > before.grails[0] || after.grails[1] > before.grails[1])
    {
        seen.grace_refunds += 1;
    }
    if let Some(a) = before.active
        && matches!(act, RAct::EndAct | RAct::EndTurn)
        && before.at(a.at).is_some_and(|p| p.kind.sacrifice())
        && after.at(a.at).is_none()
    {
        seen.sacrifice_falls += 1;
    }
    if let RAct::Melee(t) | RAct::Shoot(t) | RAct::Holy(t) = act
        && let Some(p) = before.at(*t)
    {
        if before.cursed(p) {
            seen.cursed_targets += 1;
        }
        if let Some(a) = before.active
            && let Some(ap) = before.at(a.at)
        {
            if ap.kind == K::Berserker && after.at(*t).is_some() && after.at(a.at).is_some() {
                seen.fury_double_blows += 1;
            }
            if ap.kind == K::Archer && distance(a.at, *t) == 5 {
                seen.height_shots += 1;
            }
            if p.kind == K::Bastion && matches!(act, RAct::Holy(_)) {
                seen.holy_on_bastion += 1;
            }
            if p.kind == K::Angel
                && distance(a.at, *t) >= 2
                && after.at(*t).is_some_and(|q| q.countered)
                && !p.countered
            {
                seen.distant_wraths += 1;
            }
            if matches!(act, RAct::Melee(_)) {
                if ap.kind.charge_max().is_some() && a.tiles >= 2 {
                    seen.charge_blows += 1;
                }
                if before.field.land(a.at) == Land::Hill && before.field.land(*t) != Land::Hill {
                    seen.hill_blows += 1;
                }
            }
        }
    }
    match act {
        RAct::Move(to) => {
            if let Some(a) = before.active
                && before.at(a.at).is_some_and(|p| p.kind == K::Wayfarer)
                && !before
                    .reach(a.at, a.mp, false)
                    .iter()
                    .any(|&(h, _, _)| h == *to)
            {
                seen.pass_through += 1;
            }
        }
        RAct::Act(h) | RAct::Extra(h) => {
            let p = before.at(*h).unwrap();
            if after.active.is_some_and(|a| a.mp == p.kind.row().speed + 2) {
                seen.heir_boosts += 1;
            }
            if matches!(act, RAct::Extra(_)) && p.kind.base_acts() == 2 {
                seen.third_acts += 1;
            }
        }
        RAct::EndTurn => {
            let s = after.side as usize;
            if after.end().is_none() && after.grails[s] > before.grails[s] {
                seen.income_turns += 1;
            }
        }
        _ => {}
    }
}

/// Action-choice styles.
#[derive(Debug, Clone, Copy)]
enum Style {
    Uniform,
    /// Attacks first, moves toward the foe.
    Hunt,
    /// Recruits of every kind, extra acts, healing, then attacks.
    Court,
}

/// 0 convert, 1 attack, 2 extra or heal, 3 recruit, 4 activate, 5 move,
/// 6 end-act, 7 end-turn.
fn category(a: &RAct) -> usize {
    match a {
        RAct::Convert(_) => 0,
        RAct::Melee(_) | RAct::Shoot(_) | RAct::Holy(_) | RAct::Sweep(_) => 1,
        RAct::Extra(_) | RAct::Heal(..) => 2,
        RAct::Recruit(..) => 3,
        RAct::Act(_) => 4,
        RAct::Move(_) => 5,
        RAct::EndAct => 6,
        RAct::EndTurn => 7,
    }
}

fn nearest_foe(r: &RGame, h: Hx, side: u8) -> i32 {
    r.pieces
        .iter()
        .filter(|p| p.side != side)
        .map(|p| distance(p.at, h))
        .min()
        .unwrap_or(0)
}

fn pick(rng: &mut GameRng, style: Style, r: &RGame, acts: &[RAct]) -> RAct {
    let weights: [u64; 8] = match style {
        Style::Uniform => return acts[rng.below(acts.len() as u64) as usize].clone(),
        Style::Hunt => [60, 40, 6, 3, 12, 14, 2, 1],
        Style::Court => [60, 25, 25, 10, 12, 10, 3, 2],
    };
    let mut by_cat: [Vec<&RAct>; 8] = Default::default();
    for a in acts {
        by_cat[category(a)].push(a);
    }
    let total: u64 = (0..8)
        .filter(|&c| !by_cat[c].is_empty())
        .map(|c| weights[c])
        .sum();
    let mut x = rng.below(total);
    let mut cat = 7;
    for c in 0..8 {
        if by_cat[c].is_empty() {
            continue;
        }
        if x < weights[c] {
            cat = c;
            break;
        }
        x -= weights[c];
    }
    let options = &by_cat[cat];
    match cat {
        // Recruits: a kind first, so the rare kinds come as often as Militia.
        3 => {
            let kinds: BTreeSet<K> = options
                .iter()
                .map(|a| match a {
                    RAct::Recruit(_, k) => *k,
                    _ => unreachable!(),
                })
                .collect();
            let kinds: Vec<K> = kinds.into_iter().collect();
            let k = kinds[rng.below(kinds.len() as u64) as usize];
            let spots: Vec<&&RAct> = options
                .iter()
                .filter(|a| matches!(a, RAct::Recruit(_, kk) if *kk == k))
                .collect();
            (*spots[rng.below(spots.len() as u64) as usize]).clone()
        }
        // Moves: toward the nearest foe, most of the time.
        5 if rng.below(3) != 0 => {
            let side = r.side;
            let best = options
                .iter()
                .map(|a| match a {
                    RAct::Move(h) => nearest_foe(r, *h, side),
                    _ => unreachable!(),
                })
                .min()
                .unwrap();
            let near: Vec<&&RAct> = options
                .iter()
                .filter(|a| matches!(a, RAct::Move(h) if nearest_foe(r, *h, side) == best))
                .collect();
            (*near[rng.below(near.len() as u64) as usize]).clone()
        }
        _ => options[rng.below(options.len() as u64) as usize].clone(),
    }
}

/// A random position the engine accepts: on a random field, random armies
/// of every kind (limits kept, often an Heir), hurt pieces, purses, the
/// no-capture count sometimes close to 30. `dense` packs both armies within
/// a few tiles of one hex, with acts, extra acts, healing, counter and idle
/// marks set at random and often a piece in the middle of its act.
fn random_position(rng: &mut GameRng, dense: bool) -> String {
    let id = ["arena", "crossroads", "pilgrimage"][rng.below(3) as usize];
    let field = reference::field(id);
    let hexes: Vec<Hx> = field.hexes().collect();
    let centre = hexes[rng.below(hexes.len() as u64) as usize];
    let mut taken: Vec<Hx> = Vec::new();
    let mut pieces = Vec::new();
    let free = |rng: &mut GameRng, taken: &mut Vec<Hx>, side: u8| loop {
        let h = hexes[rng.below(hexes.len() as u64) as usize];
        let fits = if dense {
            distance(h, centre) <= 3
        } else if side == 0 {
            // keep the armies apart at first: Gold low, Blue high, often
            h.1 < field.rows / 2 + 1
        } else {
            h.1 >= field.rows / 2 - 1
        };
        if !taken.contains(&h) && (fits || rng.below(6) == 0) {
            taken.push(h);
            break h;
        }
    };
    let side_to_move = rng.below(2) as u8;
    let n = if dense {
        2 + rng.below(8)
    } else {
        3 + rng.below(10)
    } as usize;
    for side in 0..2u8 {
        let mut kinds = vec![K::King];
        if rng.below(2) == 0 {
            kinds.push(K::Heir);
        }
        for _ in 0..n {
            let k = ALL_KINDS[1 + rng.below(22) as usize];
            if k.row()
                .limit
                .is_some_and(|l| kinds.iter().filter(|&&x| x == k).count() >= l)
            {
                continue;
            }
            kinds.push(k);
        }
        for k in kinds {
            // Kings away from the melee half the time, so games last.
            let at = if k == K::King && dense && rng.below(2) == 0 {
                loop {
                    let h = hexes[rng.below(hexes.len() as u64) as usize];
                    if !taken.contains(&h) {
                        taken.push(h);
                        break h;
                    }
                }
            } else {
                free(rng, &mut taken, side)
            };
            let mut p = reference::RP::new(side, k, at);
            if rng.below(3) == 0 {
                p.blood = 1 + rng.below(p.blood as u64) as i32;
            }
            if dense {
                if side == side_to_move {
                    p.acts = rng.below(u64::from(k.base_acts()) + 1) as u8;
                    if p.acts == k.base_acts() && rng.below(4) == 0 {
                        p.extra = true;
                        p.acts += 1;
                    }
                    p.healed = k == K::Prophet && rng.below(3) == 0;
                    p.idle = p.acts == 0 && !p.healed && rng.below(6) == 0;
                }
                p.countered = rng.below(5) == 0;
            }
            pieces.push(p);
        }
    }
    let mut active = None;
    if dense && rng.below(2) == 0 {
        let ours: Vec<usize> = (0..pieces.len())
            .filter(|&i| pieces[i].side == side_to_move && !pieces[i].idle)
            .collect();
        if !ours.is_empty() {
            let i = ours[rng.below(ours.len() as u64) as usize];
            let p = &mut pieces[i];
            p.acts = p.acts.max(1);
            active = Some(reference::RActive {
                at: p.at,
                mp: rng.below(p.kind.row().speed as u64 + 3) as i32,
                tiles: rng.below(9) as i32,
            });
        }
    }
    let r = RGame {
        field,
        opts: ROpts::default(),
        side: side_to_move,
        round: 1 + rng.below(40) as u32,
        quiet: if rng.below(4) == 0 {
            27 + rng.below(3) as u32
        } else {
            rng.below(10) as u32
        },
        captured: rng.below(5) == 0,
        grails: [rng.below(25) as u32, rng.below(25) as u32],
        active,
        convert: None,
        pieces,
    };
    r.text()
}

fn engine_options(o: ROpts) -> CovenantOptions {
    let mut options = CovenantOptions::default();
    if o.wrath_flat7 {
        options.set("wrath", "7").unwrap();
    }
    if o.curse_spares_wall {
        options.set("curse-wall", "spares").unwrap();
    }
    if o.sacrifice_spares {
        options.set("sacrifice", "spares").unwrap();
    }
    options
}

/// Plays one seeded game in both engines, comparing every ply.
fn playout(seed: u64, start: &str, opts: ROpts, style: Style, max_plies: usize, seen: &mut Seen) {
    let mut rng = GameRng::from_seed(Seed(seed ^ 0xc0de_0a47));
    let options = engine_options(opts);
    let mut game = Covenant::from_text(start, &options).expect("engine reads the start");
    assert_eq!(game.to_text(), start, "the start round-trips");
    let mut refg = RGame::from_text(start, opts).expect("reference reads the start");
    seen.games += 1;
    for ply in 0..max_plies {
        let context = format!("(seed {seed}, {style:?}, {opts:?}, ply {ply})");
        let (actions, ractions) = compare(&game, &refg, &context);
        seen.positions += 1;
        if let Some(end) = refg.end() {
            match end {
                REnd::Won(_) => seen.wins += 1,
                REnd::Drawn => seen.draws += 1,
            }
            return;
        }
        if ply % 13 == 2 {
            let legal: BTreeSet<String> = ractions.iter().map(RAct::text).collect();
            seen.probes += probe(&game, &refg, &legal, &context);
        }
        if refg.convert.is_some() && !ractions.iter().any(|a| matches!(a, RAct::Convert(_))) {
            seen.convert_refused += 1;
        }
        let by_text: HashMap<String, Action> =
            actions.iter().map(|a| (a.to_string(), *a)).collect();
        // Now and then, every child too.
        if ply % 17 == 5 || (ractions.len() <= 12 && ply % 3 == 0) {
            for ra in &ractions {
                let mut g2 = game.clone();
                g2.apply_unchecked(&by_text[&ra.text()]);
                let mut r2 = refg.clone();
                r2.play(ra);
                let ctx = format!("{context} after {} from {}", ra.text(), refg.text());
                assert_eq!(g2.to_text(), r2.text(), "child text differs {ctx}");
                assert_eq!(engine_end(&g2), r2.end(), "child result differs {ctx}");
                seen.children += 1;
            }
        }
        // The engine's own perft against the generic count, and the
        // reference's count, on small trees.
        if ply % 97 == 11 && ractions.len() <= 40 {
            let n = game.perft(2);
            assert_eq!(n, tabula_core::perft::perft(&game, 2), "perft {context}");
            assert_eq!(
                n,
                refg.perft(2),
                "reference perft(2) {context}: {}",
                refg.text()
            );
            seen.perfts += 1;
        }
        let ra = pick(&mut rng, style, &refg, &ractions);
        let before = refg.clone();
        game.apply(&by_text[&ra.text()])
            .unwrap_or_else(|e| panic!("engine refused {} {context}: {e}", ra.text()));
        refg.play(&ra);
        observe(&before, &ra, &refg, seen);
    }
    seen.unfinished += 1;
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn reference_and_engine_agree_on_random_playouts() {
    let games = env("COVENANT_DIFF_GAMES", 300);
    let max_plies = env("COVENANT_DIFF_PLIES", 600) as usize;
    let styles = [Style::Hunt, Style::Court, Style::Uniform];
    let scenarios = ["pilgrimage", "crossroads", "arena"];
    let mut seen = Seen::default();
    let mut rng = GameRng::from_seed(Seed(2026));
    let t0 = std::time::Instant::now();
    for seed in 0..games {
        let style = styles[(seed / 3 % 3) as usize];
        // The non-default readings one game in five, in every combination.
        let opts = if seed % 5 == 4 {
            let bits = 1 + seed / 5 % 7;
            ROpts {
                wrath_flat7: bits & 1 != 0,
                curse_spares_wall: bits & 2 != 0,
                sacrifice_spares: bits & 4 != 0,
            }
        } else {
            ROpts::default()
        };
        let start = match seed % 4 {
            0 | 2 => reference::start_text(scenarios[(seed / 4 % 3) as usize]),
            1 => random_position(&mut rng, false),
            _ => random_position(&mut rng, true),
        };
        let before = seen.positions;
        let t = std::time::Instant::now();
        playout(seed, &start, opts, style, max_plies, &mut seen);
        if std::env::var("COVENANT_DIFF_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed}: {} positions in {:?}",
                seen.positions - before,
                t.elapsed()
            );
        }
    }
    eprintln!("{seen:#?}\nin {:?}", t0.elapsed());
}

/// The reference's own start texts are the engine's.
#[test]
fn the_starting_positions_agree() {
    for (id, scenario) in [
        ("arena", "arena"),
        ("crossroads", "crossroads"),
        ("pilgrimage", "pilgrimage"),
    ] {
        let mut options = CovenantOptions::default();
        options.set("scenario", scenario).unwrap();
        assert_eq!(Covenant::new(&options).to_text(), reference::start_text(id));
    }
}

/// The reference alone confirms the engine's perft figures from the
/// crossroads start (`tests/perft.rs`), which were the engine's own.
#[test]
fn reference_perft_from_the_crossroads_start() {
    let r = RGame::from_text(&reference::start_text("crossroads"), ROpts::default()).unwrap();
    assert_eq!(r.perft(1), 36);
    assert_eq!(r.perft(2), 687);
    assert_eq!(r.perft(3), 14_391);
    assert_eq!(r.perft(4), 257_805);
}
