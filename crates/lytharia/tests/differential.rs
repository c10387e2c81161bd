//! The differential test: the engine in `src/` against the slow reference
//! written from the book, the readings and the card files
//! (`tests/reference/`), over seeded random playouts of the full game, Pawn
//! Wars, Battle Duels and Normal Chess with every pairing of the four starter
//! decks, with both Knight readings and face-down troops on and off, and
//! choices biased so that attacks, casting and responses, abilities,
//! equipping and reforging, promotion, the honor charge, the draw phase at 10
//! cards, harnessing and the obelisk charge come up.
//!
//! At every ply: the same legal actions (canonical texts, all of them: moves,
//! attacks, `cast`, `pass`, `use`, `equip`, `reforge`, `harness`, `charge`,
//! ...) and the same seat to act, and after every action the same position
//! fields (stage, active seat, first player, turn, the attack flag, every
//! troop's square, owner, card, face, damage, equipment and temporary
//! effects, the stack, each side's deck, hand, crypt and nether (multisets),
//! mana, obelisk, power, harness and reforge pools, `hold`, enchantments,
//! kills, points, Pawns to place) and the same result. Chance (the shuffles,
//! roll-offs and effect dice) is drawn through the engine's seeded chance and
//! given to both. Uids are numbered differently: troops are compared by
//! square.
//!
//! Battle Duels and Normal Chess are a sixth of the games each (their duel
//! and chess bookkeeping is compared too); `LYTHARIA_DIFF_MODE=full|
//! pawn-wars|duel|chess` plays only that mode, `LYTHARIA_DIFF_FROM=n` starts
//! at game n. See `docs/rules/lytharia.md`,
//! "The differential test".
//!
//! `LYTHARIA_DIFF_GAMES=n` sets the number of playouts (default 180);
//! `LYTHARIA_DIFF_VERBOSE=1` prints each game's length and result;
//! `LYTHARIA_DIFF_TRACE=1` prints the board part of every position.

mod reference;

use std::collections::BTreeSet;
use std::rc::Rc;

use reference::{Db, Mode, RGame, Sq, Stage};
use tabula_core::{Game, GameRng, Options, Seed, ToAct};
use tabula_lytharia::{Action, Lytharia, LythariaOptions};

const DECKS: [&str; 4] = ["good", "evil", "neutral-life", "neutral-death"];

fn covered(_a: &str) -> bool {
    true
}

fn playable(a: &str) -> bool {
    covered(a)
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
            let mut mods: Vec<String> = u["mods"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| format!("{} {} {}", m["op"], m["amount"], m["until"]))
                .collect();
            mods.sort();
            format!(
                "unit {} owner {} {} up {} dmg {} eq {eq:?} mods {mods:?}",
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
    let t_units = t["units"].as_array().unwrap().clone();
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
        for k in ["deck", "hand", "to_place"] {
            v.push(format!("side {i} {k} = {:?}", strs(&s[k])));
        }
        // The crypt and the nether as multisets: the order in which
        // simultaneous losses (several troops dying at once, their equipment
        // and enchantments) arrive there is representation only, and no rule
        // reads it.
        for k in ["crypt", "nether"] {
            let mut c = strs(&s[k]);
            c.sort();
            v.push(format!("side {i} {k} = {c:?}"));
        }
        v.push(format!("side {i} hold = {}", s["hold"]));
        v.push(format!("side {i} forge_pool = {}", s["forge_pool"]));
        let fu = s.get("forge_uid").map(|x| {
            t_units
                .iter()
                .find(|u| u["uid"].as_integer() == x.as_integer())
                .map(|u| u["at"].as_str().unwrap().to_string())
                .unwrap_or_else(|| "gone".into())
        });
        v.push(format!("side {i} forge_uid = {fu:?}"));
        let mut en: Vec<String> = s["enchants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let e = e.as_table().unwrap();
                let on = e.get("target").map(|t| {
                    let uid = t.as_integer().unwrap();
                    t_units
                        .iter()
                        .find(|u| u["uid"].as_integer() == Some(uid))
                        .map(|u| u["at"].as_str().unwrap().to_string())
                        .unwrap_or_else(|| "gone".into())
                });
                let rest: Vec<String> = e
                    .iter()
                    .filter(|(k, _)| *k != "card" && *k != "target")
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                format!("{} on {on:?} {rest:?}", e["card"].as_str().unwrap())
            })
            .collect();
        en.sort();
        v.push(format!("side {i} enchants = {en:?}"));
    }
    let stack: Vec<String> = t
        .get("stack")
        .and_then(|s| s.as_array())
        .map(|a| {
            a.iter()
                .map(|e| {
                    let at = e
                        .get("target")
                        .and_then(|t| t.get("at"))
                        .map(|a| a.as_str().unwrap().to_string());
                    // Uids are numbered differently: compare card and index.
                    let src = match e["source"].get("ability") {
                        Some(a) => {
                            format!("ability {} {}", a["card"].as_str().unwrap(), a["index"])
                        }
                        None => format!("spell {}", e["source"]["spell"].as_str().unwrap()),
                    };
                    format!("{src} by {} at {at:?}", e["controller"])
                })
                .collect()
        })
        .unwrap_or_default();
    v.push(format!("stack = {stack:?}"));
    if let Some(c) = t.get("chess") {
        let c = c.as_table().unwrap();
        for k in ["castling", "halfmove", "fullmove"] {
            v.push(format!("chess {k} = {}", c[k]));
        }
        v.push(format!(
            "chess ep = {:?}",
            c.get("ep").map(|x| x.to_string())
        ));
        v.push(format!(
            "chess history = {}",
            c["history"].as_array().unwrap().len()
        ));
    }
    if let Some(d) = t.get("duel") {
        for k in ["round", "attacker", "turns", "results"] {
            v.push(format!("duel {k} = {}", d[k]));
        }
        for (i, s) in d["sides"].as_array().unwrap().iter().enumerate() {
            for k in ["picks", "left", "played"] {
                v.push(format!("duel {i} {k} = {:?}", strs(&s[k])));
            }
            for k in ["choice", "fighting"] {
                v.push(format!(
                    "duel {i} {k} = {:?}",
                    s.get(k).map(|x| x.as_str().unwrap().to_string())
                ));
            }
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
            let mut mods: Vec<String> = u
                .mods
                .iter()
                .map(|(o, a, t)| format!("\"{o}\" {a} {t}"))
                .collect();
            mods.sort();
            format!(
                "unit {} owner {} {} up {} dmg {} eq {eq:?} mods {mods:?}",
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
        v.push(format!("side {i} to_place = {:?}", s.to_place));
        for (k, c) in [("crypt", &s.crypt), ("nether", &s.nether)] {
            let mut c = c.clone();
            c.sort();
            v.push(format!("side {i} {k} = {c:?}"));
        }
        v.push(format!("side {i} hold = {}", s.hold));
        v.push(format!("side {i} forge_pool = {}", s.forge_pool));
        let fu = s.forge_uid.map(|x| {
            r.units
                .iter()
                .find(|u| u.uid == x)
                .map(|u| u.at.text())
                .unwrap_or_else(|| "gone".into())
        });
        v.push(format!("side {i} forge_uid = {fu:?}"));
        let mut en: Vec<String> = s
            .enchants
            .iter()
            .map(|e| {
                let on = e.on.map(|uid| {
                    r.units
                        .iter()
                        .find(|u| u.uid == uid)
                        .map(|u| u.at.text())
                        .unwrap_or_else(|| "gone".into())
                });
                let rest: Vec<String> = e
                    .until
                    .map(|u| format!("until = {u}"))
                    .into_iter()
                    .collect();
                format!("{} on {on:?} {rest:?}", e.card)
            })
            .collect();
        en.sort();
        v.push(format!("side {i} enchants = {en:?}"));
    }
    let stack: Vec<String> = r
        .stack
        .iter()
        .map(|e| {
            let src = match (&e.spell, &e.ability) {
                (Some(c), _) => format!("spell {c}"),
                (_, Some((_, i, card))) => format!("ability {card} {i}"),
                _ => unreachable!(),
            };
            let at = e.target.map(|t| t.0.text());
            format!("{src} by {} at {at:?}", e.controller)
        })
        .collect();
    v.push(format!("stack = {stack:?}"));
    if r.mode == Mode::Chess {
        let c = &r.chess;
        v.push(format!("chess castling = \"{}\"", c.castling));
        v.push(format!("chess halfmove = {}", c.halfmove));
        v.push(format!("chess fullmove = {}", c.fullmove));
        v.push(format!(
            "chess ep = {:?}",
            c.ep.map(|s| format!("\"{}\"", s.text()))
        ));
        v.push(format!("chess history = {}", c.history.len()));
    }
    if r.mode == Mode::Duel {
        let d = &r.duel;
        let res: Vec<String> = d
            .results
            .iter()
            .map(|w| w.map_or("2".to_string(), |w| w.to_string()))
            .collect();
        v.push(format!("duel round = {}", d.round));
        v.push(format!("duel attacker = {}", d.attacker));
        v.push(format!("duel turns = {}", d.turns));
        v.push(format!("duel results = [{}]", res.join(", ")));
        for (i, s) in d.sides.iter().enumerate() {
            v.push(format!("duel {i} picks = {:?}", s.picks));
            v.push(format!("duel {i} left = {:?}", s.left));
            v.push(format!("duel {i} played = {:?}", s.played));
            v.push(format!("duel {i} choice = {:?}", s.choice));
            v.push(format!("duel {i} fighting = {:?}", s.fighting));
        }
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
    /// Played actions by their first word (`cast`, `use`, `d6`, ...).
    kinds: std::collections::BTreeMap<String, u64>,
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
    let only = std::env::var("LYTHARIA_DIFF_MODE").unwrap_or_default();
    let mode = match (only.as_str(), n % 6) {
        ("duel", _) | ("", 5) => Mode::Duel,
        ("chess", _) | ("", 4) => Mode::Chess,
        ("full", _) => Mode::Full,
        ("pawn-wars", _) | ("", 2) => Mode::PawnWars,
        _ => Mode::Full,
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
        match mode {
            Mode::Full => "full",
            Mode::PawnWars => "pawn-wars",
            Mode::Duel => "duel",
            Mode::Chess => "chess",
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
        if std::env::var("LYTHARIA_DIFF_TRACE").is_ok() {
            eprintln!(
                "TRACE {ply} {last} :: {}",
                g.to_text().split("units =").nth(1).unwrap_or("")
            );
        }
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
                assert_eq!(player.index(), r.to_move(), "player to act {ctx}");
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
        let kind = if text.starts_with("cast counterspell") || text.starts_with("cast nullify") {
            "counter"
        } else {
            text.split(' ').next().unwrap()
        };
        *stats.kinds.entry(kind.to_string()).or_default() += 1;
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
    if roll % 10 >= 7
        && let Some(a) = pick(
            &|a| matches!(a, Action::Cast(..) | Action::Use(..) | Action::Equip(..)),
            rng,
        )
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
        .unwrap_or(180);
    let mut stats = Stats {
        kinds: Default::default(),
        positions: 0,
        plies: 0,
        stopped: 0,
    };
    let from: u64 = std::env::var("LYTHARIA_DIFF_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for n in from..games {
        play_one(&db, n, &mut stats);
    }
    eprintln!(
        "lytharia differential: {games} games, {} positions compared, {} plies, {} stopped early",
        stats.positions, stats.plies, stats.stopped
    );
    let k = |w: &str| stats.kinds.get(w).copied().unwrap_or(0);
    eprintln!(
        "  played: cast {} (counter spells {}), pass {}, use {}, d6 {}, harness {}, charge {}, equip {}, reforge {}",
        k("cast"),
        k("counter"),
        k("pass"),
        k("use"),
        k("d6"),
        k("harness"),
        k("charge"),
        k("equip"),
        k("reforge")
    );
    let _ = Sq(0, 0);
}
