//! `Game::key` over many states of seeded random games of every game: equal
//! states have equal keys, and two states that share a key have the same
//! position text (less the fields no rule observes, per game below).
//!
//! CI visits about 1.9 million states; `cargo test --release -p tabula-games
//! --test keys -- --ignored` visits ten times as many (docs/protocol.md has
//! the figures).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{DefaultHasher, Hash, Hasher};

use tabula_core::{Game, GameRng, Options, Seed, ToAct};
use tabula_games::{Chess, Covenant, Epoch, Lytharia, Skirmish, Warrior};

/// The position text less what the game's key leaves out on purpose.
/// Chess: the move number (no rule observes it) and the en-passant square
/// (in the key only when a pawn can take there, a subset the test does not
/// rebuild). Epoch: the move number and the repetition history (search
/// tracks repetitions along its own line; see `Epoch::key`).
fn observed(game: &str, text: &str) -> String {
    let f: Vec<&str> = text.split(' ').collect();
    match game {
        "chess" => format!("{} {} {} {}", f[0], f[1], f[2], f[4]),
        "epoch" => format!("{} {}", f[..8].join(" "), f[9]),
        _ => text.to_owned(),
    }
}

/// A 64-bit hash of the text independent of the key (std's SipHash).
fn text_hash(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

struct Tally {
    states: usize,
    distinct: usize,
}

/// Plays seeded random games of `G` until `states` states were visited
/// (each game at most `max_plies` long), checking the key at each.
fn visit<G: Game>(options: &G::Options, states: usize, max_plies: usize, seed0: u64) -> Tally {
    let name = G::ID.as_str();
    let mut by_key: HashMap<u64, u64> = HashMap::new();
    let mut texts: HashMap<u64, String> = HashMap::new();
    let mut actions = Vec::new();
    let mut visited = 0;
    let mut seed = seed0;
    while visited < states {
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut game = G::new(options);
        for ply in 0..max_plies {
            let text = game.to_text();
            let key = game.key();
            visited += 1;
            let observed = observed(name, &text);
            let hash = text_hash(&observed);
            match by_key.entry(key) {
                Entry::Vacant(v) => {
                    v.insert(hash);
                    // Keep a few texts to explain a failure.
                    if texts.len() < 50_000 {
                        texts.insert(key, observed);
                    }
                }
                Entry::Occupied(o) => assert_eq!(
                    *o.get(),
                    hash,
                    "{name} seed {seed} ply {ply}: two positions share key {key:#x}:\n{observed}\n{}",
                    texts.get(&key).map_or("(text not kept)", String::as_str)
                ),
            }
            // Reading the text back gives an equal state: an equal key.
            if ply % 17 == 0 {
                let back = G::from_text(&text, options).expect("own text");
                assert_eq!(
                    back.key(),
                    key,
                    "{name} seed {seed} ply {ply}: text round trip"
                );
            }
            match game.to_act() {
                ToAct::Over { .. } => break,
                ToAct::Chance => {
                    let outcome = game.sample_chance(&mut rng).expect("a chance outcome");
                    game.apply_unchecked(&outcome);
                }
                ToAct::Player { .. } => {
                    game.legal_actions(&mut actions);
                    let pick = &actions[rng.below(actions.len() as u64) as usize];
                    game.apply_unchecked(pick);
                }
            }
            if visited >= states {
                break;
            }
        }
        seed += 1;
    }
    Tally {
        states: visited,
        distinct: by_key.len(),
    }
}

fn options<G: Game>(pairs: &[(&str, &str)]) -> G::Options {
    let mut o = G::Options::default();
    for (k, v) in pairs {
        o.set(k, v).expect("a valid option");
    }
    o
}

fn run_all(scale: usize) {
    let mut report = Vec::new();
    let mut run = |name: &str, t: Tally| {
        assert!(
            t.distinct * 10 > t.states,
            "{name}: only {} distinct states of {}",
            t.distinct,
            t.states
        );
        report.push(format!(
            "{name}: {} states, {} distinct keys",
            t.states, t.distinct
        ));
    };
    run(
        "chess",
        visit::<Chess>(&options::<Chess>(&[]), 300_000 * scale, 400, 1),
    );
    run(
        "epoch",
        visit::<Epoch>(&options::<Epoch>(&[]), 150_000 * scale, 400, 1),
    );
    run(
        "skirmish advanced",
        visit::<Skirmish>(
            &options::<Skirmish>(&[("mode", "advanced")]),
            150_000 * scale,
            400,
            1,
        ),
    );
    run(
        "warrior",
        visit::<Warrior>(&options::<Warrior>(&[]), 100_000 * scale, 600, 1),
    );
    run(
        "warrior doubles",
        visit::<Warrior>(
            &options::<Warrior>(&[("players", "4")]),
            50_000 * scale,
            600,
            1,
        ),
    );
    run(
        "covenant crossroads",
        visit::<Covenant>(
            &options::<Covenant>(&[("scenario", "crossroads")]),
            100_000 * scale,
            300,
            1,
        ),
    );
    run(
        "lytharia",
        visit::<Lytharia>(&options::<Lytharia>(&[]), 60_000 * scale, 300, 1),
    );
    run(
        "lytharia duel",
        visit::<Lytharia>(
            &options::<Lytharia>(&[("mode", "duel")]),
            20_000 * scale,
            300,
            1,
        ),
    );
    eprintln!("{}", report.join("\n"));
}

#[test]
fn no_two_positions_share_a_key_in_random_games() {
    run_all(2);
}

#[test]
#[ignore = "eighteen million states: a benchmark-length run"]
fn no_two_positions_share_a_key_in_ten_times_as_many_states() {
    run_all(20);
}
