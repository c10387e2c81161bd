//! Seeded random playouts: no panic, position text round-trips every ply,
//! notation round-trips, every game ends with one of the book's results.

mod common;

use tabula_core::{EndReason, Game, GameRng, Seed, ToAct};
use tabula_epoch::{Epoch, EpochOptions, Move};

fn playout(seed: u64, max_plies: usize, stats: &mut [usize; 6]) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let options = EpochOptions::default();
    let mut game = Epoch::new(&options);
    let mut moves: Vec<Move> = Vec::new();
    for ply in 0..max_plies {
        let text = game.to_text();
        let back = Epoch::from_text(&text, &options)
            .unwrap_or_else(|e| panic!("seed {seed} ply {ply}: {e}\n{text}"));
        assert_eq!(back, game, "seed {seed} ply {ply}: {text}");
        assert_eq!(back.to_text(), text);
        game.legal_actions(&mut moves);
        match game.to_act() {
            ToAct::Over { outcome } => {
                assert!(moves.is_empty());
                let i = match outcome.reason {
                    EndReason::Checkmate => 0,
                    EndReason::Stalemate => 1,
                    EndReason::Repetition => 2,
                    EndReason::NoProgress => 3,
                    EndReason::InsufficientMaterial => 4,
                    other => panic!("seed {seed}: unexpected end {other}"),
                };
                stats[i] += 1;
                return;
            }
            ToAct::Player { .. } => assert!(!moves.is_empty(), "seed {seed} ply {ply}"),
            ToAct::Chance => panic!("no chance in Epoch"),
        }
        for m in &moves {
            assert_eq!(m.to_string().parse::<Move>().as_ref(), Ok(m));
        }
        // Parsing in context costs a move generation: check every move's
        // notations on some plies only.
        if ply % 16 == 0
            || moves
                .iter()
                .any(|m| !matches!(m, Move::Quiet { .. } | Move::Capture { .. }))
                && ply % 4 == 0
        {
            for m in &moves {
                assert_eq!(game.parse_action(&m.to_string()).as_ref(), Ok(m));
                let n = game.action_notation(m);
                assert_eq!(game.parse_action(&n).as_ref(), Ok(m), "{n} in {text}");
            }
        }
        // Captures are preferred half of the time so games reach endgames.
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !matches!(m, Move::Quiet { .. } | Move::Castle { .. } | Move::Swap))
            .collect();
        let pick = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        let mut checked = game.clone();
        checked.apply(&pick).unwrap();
        game.apply_unchecked(&pick);
        assert_eq!(checked, game);
    }
    stats[5] += 1;
}

#[test]
fn random_playouts_never_panic_and_round_trip() {
    let games: u64 = std::env::var("EPOCH_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut stats = [0usize; 6];
    for seed in 0..games {
        playout(seed, 2000, &mut stats);
    }
    eprintln!("mate, no-move win, repetition, no-progress, bare popes, unfinished: {stats:?}");
    assert_eq!(stats[5], 0, "every game ends");
}
