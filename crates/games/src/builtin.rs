//! The built-in computer player, shared by `tabula play` and the server:
//! takes a win in one when it has one, avoids actions that hand an opponent
//! a win in one, and otherwise picks at random. Real computer opponents
//! (search) come with the AI crate.

use tabula_core::{GameRng, Player, Team, ToAct};

use crate::{ActionText, AnyGame};

/// The built-in player's choice for seat `me`, or `None` when `me` has no
/// legal action. It looks ahead only in a world drawn from what `me` may
/// see ([`AnyGame::determinize`]), so it never uses hidden cards; `rng`
/// should be the computer's own stream, never the table's chance stream.
pub fn choose(game: &AnyGame, me: Player, rng: &mut GameRng) -> Option<ActionText> {
    let actions = game.legal_actions();
    let first = actions.first()?.clone();
    let my_team = game.seating().team(me);
    let world = game.determinize(me, rng);
    let mut safe = Vec::new();
    for action in &actions {
        let mut child = world.clone();
        if child.apply(&action.canonical).is_err() {
            // Legal in the real state but not in the drawn world: it cannot
            // be judged, so it is neither a win nor safe.
            continue;
        }
        if let Some(outcome) = child.outcome() {
            if outcome.winner.is_some() && outcome.winner == my_team {
                return Some(action.clone());
            }
            if outcome.winner.is_none() {
                safe.push(action.clone());
            }
            continue;
        }
        if !opponent_wins_in_one(&child, my_team) {
            safe.push(action.clone());
        }
    }
    let pool = if safe.is_empty() { &actions } else { &safe };
    Some(rng.choose(pool).cloned().unwrap_or(first))
}

fn opponent_wins_in_one(game: &AnyGame, my_team: Option<Team>) -> bool {
    let ToAct::Player { player } = game.to_act() else {
        return false;
    };
    if game.seating().team(player) == my_team {
        return false;
    }
    game.legal_actions().iter().any(|reply| {
        let mut child = game.clone();
        child.apply(&reply.canonical).is_ok()
            && child
                .outcome()
                .is_some_and(|o| o.winner.is_some() && o.winner != my_team)
    })
}

#[cfg(test)]
mod tests {
    use tabula_core::{GameId, Seed};

    use super::*;

    #[test]
    fn takes_a_mate_in_one() {
        // Black to move, Qh4# available (fool's mate).
        let game = AnyGame::from_text(
            GameId::Chess,
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            &[],
        )
        .unwrap();
        for seed in 0..5 {
            let mut rng = GameRng::from_seed(Seed(seed));
            let choice = choose(&game, Player(1), &mut rng).unwrap();
            assert_eq!(choice.canonical, "d8h4");
        }
    }

    #[test]
    fn avoids_handing_over_a_mate_in_one() {
        // White to move after 1. f3 e5: g4 allows Qh4#; never chosen.
        let game = AnyGame::from_text(
            GameId::Chess,
            "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
            &[],
        )
        .unwrap();
        for seed in 0..40 {
            let mut rng = GameRng::from_seed(Seed(seed));
            let choice = choose(&game, Player(0), &mut rng).unwrap();
            assert_ne!(choice.canonical, "g2g4");
        }
    }

    #[test]
    fn none_when_the_game_is_over() {
        let game = AnyGame::from_text(
            GameId::Chess,
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            &[],
        )
        .unwrap();
        let mut rng = GameRng::from_seed(Seed(1));
        assert!(choose(&game, Player(0), &mut rng).is_none());
    }
}
