//! Thousands of seeded random games with the four preconstructed decks.

mod common;

use std::collections::BTreeMap;

use common::{DECKS, options, play};
use tabula_core::{EndReason, Game, Options, Outcome, Team, ToAct};
use tabula_lytharia::{Action, Lytharia};

/// What a player would notice over many games of one mode: every end is
/// one the mode allows, and each seat wins some games.
fn assert_ends(
    mode: &str,
    ends: &BTreeMap<String, usize>,
    outcomes: &[Outcome],
    allowed: &[EndReason],
) {
    for o in outcomes {
        assert!(
            allowed.contains(&o.reason),
            "{mode}: a game ended by {} ({ends:?})",
            o.reason
        );
    }
    for seat in [0, 1] {
        let wins = outcomes
            .iter()
            .filter(|o| o.winner == Some(Team(seat)))
            .count();
        assert!(
            wins * 20 > outcomes.len(),
            "{mode}: seat {seat} won only {wins} of {} ({ends:?})",
            outcomes.len()
        );
    }
}

/// 16 pairings x 125 = 2000 games.
const PER_PAIRING: u64 = 125;

#[test]
fn random_games_with_every_pairing_end_without_panic() {
    let mut ends = BTreeMap::new();
    let mut outcomes = Vec::new();
    let mut seed = 0;
    for a in DECKS {
        for b in DECKS {
            let opts = options(a, b);
            for _ in 0..PER_PAIRING {
                seed += 1;
                let g = play(&opts, seed, seed % 4 == 0, |_, _| {});
                let ToAct::Over { outcome } = g.to_act() else {
                    panic!("not over")
                };
                *ends.entry(format!("{outcome}")).or_insert(0) += 1;
                outcomes.push(outcome);
            }
        }
    }
    // Kings fall; both Kings falling goes to points; the house turn limit
    // draws the rest.
    assert_ends(
        "full",
        &ends,
        &outcomes,
        &[
            EndReason::KingCaptured,
            EndReason::Points,
            EndReason::NoProgress,
        ],
    );
    let kings = outcomes
        .iter()
        .filter(|o| o.reason == EndReason::KingCaptured)
        .count();
    assert!(kings * 4 > outcomes.len(), "few Kings fall: {ends:?}");
}

/// Also checks that every action played reads back from its text (the
/// canonical form and the readable notation), in every mode.
#[test]
fn state_text_round_trips_every_ply() {
    for seed in 0..12 {
        let mut opts = options(common::DECKS[seed % 4], common::DECKS[(seed + 1) % 4]);
        opts.set("mode", ["full", "duel", "chess", "pawn-wars"][seed / 3])
            .unwrap();
        play(&opts, 1000 + seed as u64, true, |g, a| {
            let text = a.to_string();
            assert_eq!(&text.parse::<Action>().unwrap(), a, "{text}");
            assert_eq!(&g.parse_action(&g.action_notation(a)).unwrap(), a, "{text}");
            let text = g.to_text();
            let back =
                Lytharia::from_text(&text, g.options()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(&back, g);
            assert_eq!(back.to_text(), text);
        });
    }
}

#[test]
fn pawn_wars_games_end() {
    let mut ends = BTreeMap::new();
    let mut outcomes = Vec::new();
    for seed in 0..1000 {
        let mut opts = options(common::DECKS[seed % 4], common::DECKS[(seed / 4) % 4]);
        opts.set("mode", "pawn-wars").unwrap();
        let g = play(&opts, 5000 + seed as u64, seed % 3 == 0, |_, _| {});
        let outcome = g.to_act().outcome().expect("over");
        // The winner has more points, or as many and more Pawn power killed.
        let s = &g.state().sides;
        if let Some(Team(w)) = outcome.winner {
            let (me, them) = (&s[w as usize], &s[1 - w as usize]);
            assert!(
                (me.points, me.kills) > (them.points, them.kills),
                "seed {seed}: {outcome} with {} points and {} kills against {} and {}",
                me.points,
                me.kills,
                them.points,
                them.kills
            );
        }
        *ends.entry(format!("{outcome}")).or_insert(0) += 1;
        outcomes.push(outcome);
    }
    assert_ends("pawn-wars", &ends, &outcomes, &[EndReason::Points]);
}

/// Battle Duels: 16 pairings x 63 games (1,008), every fourth with checked `apply`.
#[test]
fn duel_games_end_without_panic() {
    let mut ends = BTreeMap::new();
    let mut outcomes = Vec::new();
    let mut seed = 20_000;
    for a in DECKS {
        for b in DECKS {
            let mut opts = options(a, b);
            opts.set("mode", "duel").unwrap();
            for _ in 0..63 {
                seed += 1;
                let g = play(&opts, seed, seed % 4 == 0, |_, _| {});
                let ToAct::Over { outcome } = g.to_act() else {
                    panic!("not over")
                };
                let wins: Vec<i32> = g.state().sides.iter().map(|s| s.points).collect();
                let sudden = g.state().duel.as_ref().is_some_and(|d| d.round > 7);
                let how = if sudden { " after sudden death" } else { "" };
                // A match is taken by 4 round wins, by more wins after 7
                // rounds, or by the first win in sudden death.
                if outcome.reason == EndReason::Points
                    && let Some(Team(w)) = outcome.winner
                {
                    let (me, them) = (wins[w as usize], wins[1 - w as usize]);
                    assert!(me > them, "seed {seed}: {outcome} with {wins:?}");
                }
                *ends.entry(format!("{outcome} {wins:?}{how}")).or_insert(0) += 1;
                outcomes.push(outcome);
            }
        }
    }
    assert_ends(
        "duel",
        &ends,
        &outcomes,
        &[EndReason::Points, EndReason::NoProgress],
    );
}

/// Normal Chess: 16 pairings x 63 games (1,008; face up and face down).
#[test]
fn chess_games_end_without_panic() {
    let mut ends = BTreeMap::new();
    let mut outcomes = Vec::new();
    let mut seed = 30_000;
    for a in DECKS {
        for b in DECKS {
            let mut opts = options(a, b);
            opts.set("mode", "chess").unwrap();
            for k in 0..63 {
                seed += 1;
                opts.set("face-down", if k % 2 == 0 { "on" } else { "off" })
                    .unwrap();
                let g = play(&opts, seed, seed % 4 == 0, |_, _| {});
                let ToAct::Over { outcome } = g.to_act() else {
                    panic!("not over")
                };
                *ends.entry(format!("{outcome}")).or_insert(0) += 1;
                outcomes.push(outcome);
            }
        }
    }
    // Random chess rarely mates; both colours must, now and then.
    for o in &outcomes {
        assert!(
            [
                EndReason::Checkmate,
                EndReason::Stalemate,
                EndReason::InsufficientMaterial,
                EndReason::Repetition,
                EndReason::NoProgress,
            ]
            .contains(&o.reason),
            "a chess game ended by {} ({ends:?})",
            o.reason
        );
        assert_eq!(o.winner.is_some(), o.reason == EndReason::Checkmate, "{o}");
    }
    for seat in [0, 1] {
        assert!(
            outcomes.iter().any(|o| o.winner == Some(Team(seat))),
            "seat {seat} never mates: {ends:?}"
        );
    }
}
