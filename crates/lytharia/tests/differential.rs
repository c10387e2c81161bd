//! The differential test: the engine in `src/` against the slow reference
//! written from the book and the readings (`tests/reference/`), over seeded
//! random playouts of the full game and of Pawn Wars with every pairing of
//! the four starter decks, with both Knight readings and face-down troops on
//! and off, and choices biased so that attacks, promotion, the honor charge,
//! the draw phase at 10 cards, harnessing and the obelisk charge come up.
//!
//! At every ply: the same legal actions within the covered scope (canonical
//! texts: placements, moves, attacks, promotions, `end`, `keep`, `discard`,
//! `harness`, `charge`, and the `use` of abilities, which are listed but not
//! played), and after every action the same position fields (stage, active
//! seat, first player, turn, the attack flag, every troop's square, owner,
//! card, face, damage and equipment, each side's deck, hand, crypt, nether,
//! mana, obelisk, power, harness flag and pool, kills, points, Pawns to
//! place) and the same result. Chance (the shuffles, roll-offs) is drawn
//! through the engine's seeded chance and given to both.
//!
//! Not covered, and how the comparison is restricted: casting spells, the
//! stack, responses and dice of effects, equipping and reforging, and
//! playing abilities are never chosen (those actions are left out of the
//! compared sets: `cast`, `pass`, `equip`, `reforge`); temporary effects and
//! enchantments therefore never arise, and the per-troop bookkeeping (`mods`,
//! `used`, `uid`) is not compared. Battle Duels and Normal Chess are not
//! covered. See `docs/rules/lytharia.md`, "The differential test".
//!
//! `LYTHARIA_DIFF_GAMES=n` sets the number of playouts (default 120);
//! `LYTHARIA_DIFF_VERBOSE=1` prints each game's length and result.

mod reference;

use std::collections::BTreeSet;
use std::rc::Rc;

use reference::{Db, Mode, RGame, Sq, Stage};
use tabula_core::{Game, GameRng, Options, Seed, ToAct};
use tabula_lytharia::{Action, Lytharia, LythariaOptions};

const DECKS: [&str; 4] = ["good", "evil", "neutral-life", "neutral-death"];

fn covered(a: &str) -> bool {
    !(a.starts_with("cast ")
        || a == "pass"
        || a.starts_with("equip ")
        || a.starts_with("reforge ")
        || a.starts_with("d6 "))
}

fn playable(a: &str) -> bool {
    covered(a) && !a.starts_with("use ")
}

fn engine_table(g: &Lytharia) -> toml::Table {
    let t = g.to_text();
    let body = t.strip_prefix("lytharia ").unwrap();
    format!("x = {body}").parse::<toml::Table>().unwrap()["x"]
        .as_table()
        .unwrap()
        .clone()
}

fn strs(v: &toml::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// The compared fields of the engine's position, as text lines.
fn engine_fields(g: &Lytharia) -> Vec<String> {
    let t = engine_table(g);
    let mut v = vec![];
    for k in ["stage", "active", "first", "turn", "attacked"] {
        v.push(format!("{k} = {}", t[k]));
    }
    let mut units: Vec<String> = t["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let u = u.as_table().unwrap();
            let mut eq = strs(&u["equipment"]);
            eq.sort();
            format!(
                "unit {} owner {} {} up {} dmg {} eq {eq:?}",
                u["at"].as_str().unwrap(),
                u["owner"],
                // A promoted Pawn keeps its card and records the copy.
                u.get("copy").unwrap_or(&u["card"]).as_str().unwrap(),
                u["face_up"],
                u["damage"]
            )
        })
        .collect();
    units.sort();
    v.extend(units);
    for (i, s) in t["sides"].as_array().unwrap().iter().enumerate() {
        let s = s.as_table().unwrap();
        for k in [
            "list",
            "mana",
            "obelisk",
            "power",
            "harnessed",
            "spell_pool",
            "kills",
            "points",
        ] {
            v.push(format!("side {i} {k} = {}", s[k]));
        }
        for k in ["deck", "hand", "crypt", "nether", "to_place"] {
            v.push(format!("side {i} {k} = {:?}", strs(&s[k])));
        }
    }
    v
}

fn reference_fields(r: &RGame) -> Vec<String> {
    let mut v = vec![];
    v.push(format!("stage = \"{}\"", r.stage.text()));
    v.push(format!("active = {}", r.active));
    v.push(format!("first = {}", r.first));
    v.push(format!("turn = {}", r.turn));
    v.push(format!("attacked = {}", r.attacked));
    let mut units: Vec<String> = r
        .units
        .iter()
        .map(|u| {
            let mut eq = u.equipment.clone();
            eq.sort();
            format!(
                "unit {} owner {} {} up {} dmg {} eq {eq:?}",
                u.at.text(),
                u.owner,
                u.card,
                u.face_up,
                u.damage
            )
        })
        .collect();
    units.sort();
    v.extend(units);
    for (i, s) in r.sides.iter().enumerate() {
        v.push(format!("side {i} list = \"{}\"", s.list));
        v.push(format!("side {i} mana = {}", s.mana));
        v.push(format!("side {i} obelisk = {}", s.obelisk));
        v.push(format!("side {i} power = {}", s.power));
        v.push(format!("side {i} harnessed = {}", s.harnessed));
        v.push(format!("side {i} spell_pool = {}", s.spell_pool));
        v.push(format!("side {i} kills = {}", s.kills));
        v.push(format!("side {i} points = {}", s.points));
        v.push(format!("side {i} deck = {:?}", s.deck));
        v.push(format!("side {i} hand = {:?}", s.hand));
        v.push(format!("side {i} crypt = {:?}", s.crypt));
        v.push(format!("side {i} nether = {:?}", s.nether));
        v.push(format!("side {i} to_place = {:?}", s.to_place));
    }
    v
}

fn engine_end(g: &Lytharia) -> Option<(Option<usize>, String)> {
    match g.to_act() {
        ToAct::Over { outcome } => Some((
            outcome.winner.map(|t| t.index()),
            outcome.reason.to_string(),
        )),
        _ => None,
    }
}

struct Stats {
    positions: u64,
    plies: u64,
    stopped: u64,
}

fn compare_position(g: &Lytharia, r: &RGame, ctx: &str) {
    let (e, m) = (engine_fields(g), reference_fields(r));
    // The engine's stage while over is whatever it was; compare the result.
    let skip_stage = r.stage == Stage::Over;
    let keep = |v: &[String]| -> Vec<String> {
        v.iter()
            .filter(|l| !(skip_stage && l.starts_with("stage")))
            .cloned()
            .collect()
    };
    let (e, m) = (keep(&e), keep(&m));
    if e != m {
        let only_e: Vec<&String> = e.iter().filter(|l| !m.contains(l)).collect();
        let only_m: Vec<&String> = m.iter().filter(|l| !e.contains(l)).collect();
        panic!(
            "position differs {ctx}\n  engine only: {only_e:#?}\n  reference only: {only_m:#?}\n{}",
            g.to_text()
        );
    }
    let re = r.end.as_ref().map(|e| (e.winner, e.reason.clone()));
    assert_eq!(engine_end(g), re, "results differ {ctx}\n{}", g.to_text());
}

fn play_one(db: &Rc<Db>, n: u64, stats: &mut Stats) {
    let mode = if n % 3 == 2 {
        Mode::PawnWars
    } else {
        Mode::Full
    };
    let decks = [DECKS[(n % 4) as usize], DECKS[((n / 4) % 4) as usize]];
    let face_down = n % 5 != 4;
    let leap = n % 7 != 3;
    let limit = [200, 40, 0, 120][(n % 4) as usize] as u32;
    let mut o = LythariaOptions::default();
    o.set("decks", &format!("{},{}", decks[0], decks[1]))
        .unwrap();
    o.set(
        "mode",
        if mode == Mode::Full {
            "full"
        } else {
            "pawn-wars"
        },
    )
    .unwrap();
    o.set("face-down", if face_down { "on" } else { "off" })
        .unwrap();
    o.set("knight-attack", if leap { "leap" } else { "adjacent" })
        .unwrap();
    o.set("turn-limit", &limit.to_string()).unwrap();
    let mut g = Lytharia::new(&o);
    let mut r = RGame::new(db.clone(), mode, decks, face_down, leap, limit);
    let mut rng = GameRng::from_seed(Seed(0x1a7_0000 + n));
    let mut buf = Vec::new();
    // Per-game temperament: how eager to attack, to harness, to discard.
    let eager = rng.below(100);
    let mut last = String::new();
    for ply in 0..4000u32 {
        let ctx = format!("(game {n}, ply {ply}, after {last:?}, mode {mode:?}, decks {decks:?})");
        compare_position(&g, &r, &ctx);
        stats.positions += 1;
        let action: Action = match g.to_act() {
            ToAct::Over { .. } => break,
            ToAct::Chance => {
                assert!(r.is_chance(), "engine at chance, reference not {ctx}");
                g.sample_chance(&mut rng).unwrap()
            }
            ToAct::Player { player } => {
                assert!(!r.is_chance(), "reference at chance, engine not {ctx}");
                assert_eq!(player.index(), r.active, "player to act {ctx}");
                g.legal_actions(&mut buf);
                let mine: BTreeSet<String> = buf
                    .iter()
                    .map(Action::to_string)
                    .filter(|a| covered(a))
                    .collect();
                let theirs: BTreeSet<String> = r.legal().into_iter().collect();
                if mine != theirs {
                    panic!(
                        "legal actions differ {ctx}\n  position {}\n  engine only: {:?}\n  reference only: {:?}",
                        g.to_text(),
                        mine.difference(&theirs).collect::<Vec<_>>(),
                        theirs.difference(&mine).collect::<Vec<_>>()
                    );
                }
                let options: Vec<&Action> =
                    buf.iter().filter(|a| playable(&a.to_string())).collect();
                if options.is_empty() {
                    stats.stopped += 1;
                    break;
                }
                choose(&options, &mut rng, eager)
            }
        };
        let text = action.to_string();
        g.apply(&action)
            .unwrap_or_else(|e| panic!("engine refused {text} {ctx}: {e}"));
        r.apply(&text);
        last = text;
        stats.plies += 1;
    }
    if std::env::var("LYTHARIA_DIFF_VERBOSE").is_ok() {
        eprintln!("game {n}: {:?} turn {} {:?}", mode, r.turn, r.end);
    }
}

fn choose(options: &[&Action], rng: &mut GameRng, eager: u64) -> Action {
    let pick = |f: &dyn Fn(&Action) -> bool, rng: &mut GameRng| -> Option<Action> {
        let v: Vec<&&Action> = options.iter().filter(|a| f(a)).collect();
        rng.choose(&v).map(|a| (**a).clone())
    };
    let roll = rng.below(100);
    if roll < 30 + eager / 2
        && let Some(a) = pick(&|a| matches!(a, Action::Attack(..)), rng)
    {
        return a;
    }
    if roll % 10 < 3
        && let Some(a) = pick(&|a| matches!(a, Action::Charge | Action::Harness(_)), rng)
    {
        return a;
    }
    if roll.is_multiple_of(4)
        && let Some(a) = pick(&|a| matches!(a, Action::End), rng)
    {
        return a;
    }
    // Prefer moves over ending once a move is possible.
    if let Some(a) = pick(&|a| matches!(a, Action::Move(..)), rng)
        && !roll.is_multiple_of(3)
    {
        return a;
    }
    (*rng.choose(options).unwrap()).clone()
}

#[test]
fn engine_and_reference_agree_on_random_playouts() {
    let db = Rc::new(Db::load());
    let games: u64 = std::env::var("LYTHARIA_DIFF_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let mut stats = Stats {
        positions: 0,
        plies: 0,
        stopped: 0,
    };
    for n in 0..games {
        play_one(&db, n, &mut stats);
    }
    eprintln!(
        "lytharia differential: {games} games, {} positions compared, {} plies, {} stopped early",
        stats.positions, stats.plies, stats.stopped
    );
    let _ = Sq(0, 0);
}
