//! `tabula play`: a game in the terminal.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};

use anyhow::{Result, bail};
use tabula_core::{GameRng, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionText, AnyGame};

use crate::render;

const HELP: &str = "\
Type a move in any notation the game accepts (chess: e4, Nf3, O-O, e7e8=Q or e2e4).
Commands:
  moves     list the legal moves
  board     draw the board again
  position  print the position text
  undo      take back your last move (and the computer's reply)
  help      this text
  quit      leave the game";

/// Plays `game` on stdin/stdout until it ends or the user quits.
pub fn run(game: AnyGame, computer: &str, seed: Option<u64>) -> Result<()> {
    let seats = parse_seats(computer, game.seating().len())?;
    let seed = Seed(seed.unwrap_or_else(time_seed));
    let mut rng = GameRng::from_seed(seed);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();

    writeln!(
        out,
        "{} (seed {seed}). Type 'help' for commands.",
        game.id()
    )?;
    let mut history: Vec<AnyGame> = Vec::new();
    let mut game = game;
    writeln!(out, "{}", render::board(&game, viewer_for(&game, &seats)))?;
    loop {
        match game.to_act() {
            ToAct::Over { outcome } => {
                writeln!(out, "Game over: {}.", game.describe_outcome(&outcome))?;
                writeln!(out, "Final position: {}", game.to_text())?;
                return Ok(());
            }
            ToAct::Chance => {
                // Listed outcomes (dice) are public; sampled ones (a shuffled
                // deck) would reveal hidden cards, so only their kind is shown.
                let public = game.chance_outcomes().is_some();
                let Some(action) = game.sample_chance(&mut rng) else {
                    bail!("the game waits for chance but offers no outcome");
                };
                game.apply(&action.canonical)?;
                if public {
                    writeln!(out, "Chance: {}", action.notation)?;
                } else {
                    let kind = action
                        .notation
                        .split_whitespace()
                        .next()
                        .unwrap_or("chance");
                    writeln!(out, "Chance: {kind} (outcome hidden)")?;
                }
                writeln!(out, "{}", render::board(&game, viewer_for(&game, &seats)))?;
            }
            ToAct::Player { player } if seats.contains(&player) => {
                let action = computer_choice(&game, player, &mut rng)?;
                // Named as the people at the table may know it, before it
                // changes the state the notation depends on.
                let shown = game.notation_for(&action.canonical, viewer_for(&game, &seats))?;
                history.push(game.clone());
                game.apply(&action.canonical)?;
                writeln!(out, "{} plays {shown}", game_player_name(&history, player))?;
                writeln!(out, "{}", render::board(&game, viewer_for(&game, &seats)))?;
            }
            ToAct::Player { player } => {
                write!(out, "{} to move> ", game.player_name(player))?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    return Ok(());
                }
                let line = line.trim();
                match line {
                    "" => {}
                    "quit" | "exit" | "q" => return Ok(()),
                    "help" | "?" => writeln!(out, "{HELP}")?,
                    "board" => {
                        writeln!(out, "{}", render::board(&game, viewer_for(&game, &seats)))?
                    }
                    "position" | "fen" => writeln!(out, "{}", game.to_text())?,
                    "moves" => {
                        let list: Vec<String> = game
                            .legal_actions()
                            .into_iter()
                            .map(|a| a.notation)
                            .collect();
                        writeln!(out, "{}", list.join(" "))?;
                    }
                    "undo" => {
                        // Back to the previous position where a person was to move.
                        let mut undone = false;
                        while let Some(previous) = history.pop() {
                            game = previous;
                            if game.to_act().player().is_some_and(|p| !seats.contains(&p)) {
                                undone = true;
                                break;
                            }
                        }
                        if !undone {
                            writeln!(out, "Nothing to undo.")?;
                        }
                        writeln!(out, "{}", render::board(&game, viewer_for(&game, &seats)))?;
                    }
                    text => {
                        let before = game.clone();
                        match game.apply(text) {
                            Ok(_) => {
                                history.push(before);
                                writeln!(
                                    out,
                                    "{}",
                                    render::board(&game, viewer_for(&game, &seats))
                                )?;
                            }
                            Err(e) => writeln!(out, "{e}")?,
                        }
                    }
                }
            }
        }
    }
}

/// Whose eyes the board is drawn for: the person deciding now; else the one
/// person at the table; else (all computers, or people waiting on chance or
/// a computer in hotseat) only what every player may see.
fn viewer_for(game: &AnyGame, computers: &BTreeSet<Player>) -> Viewer {
    if let Some(p) = game.to_act().player().filter(|p| !computers.contains(p)) {
        return Viewer::Player(p);
    }
    let people: Vec<Player> = game
        .seating()
        .players()
        .filter(|p| !computers.contains(p))
        .collect();
    match people.as_slice() {
        [one] => Viewer::Player(*one),
        _ => Viewer::Public,
    }
}

fn game_player_name(history: &[AnyGame], player: Player) -> String {
    history
        .last()
        .map(|g| g.player_name(player))
        .unwrap_or_else(|| format!("Player {}", player.0 + 1))
}

fn parse_seats(text: &str, players: usize) -> Result<BTreeSet<Player>> {
    let mut seats = BTreeSet::new();
    if text.eq_ignore_ascii_case("none") {
        return Ok(seats);
    }
    for part in text.split(',') {
        let n: usize = part
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--computer: '{part}' is not a seat number"))?;
        if n == 0 || n > players {
            bail!("--computer: seat {n} is not at this table (seats 1 to {players})");
        }
        seats.insert(Player((n - 1) as u8));
    }
    Ok(seats)
}

fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The built-in computer player: takes a win in one when it has one, avoids
/// actions that hand the opponent a win in one, and otherwise picks at random.
/// Real computer opponents (search) come with the AI crate.
pub fn computer_choice(game: &AnyGame, me: Player, rng: &mut GameRng) -> Result<ActionText> {
    let actions = game.legal_actions();
    if actions.is_empty() {
        bail!("the computer has no legal action");
    }
    let my_team = game.seating().team(me);
    // Look ahead only in a world drawn from what this player may see, so the
    // computer never uses hidden cards.
    let world = game.determinize(me, rng);
    let mut safe = Vec::new();
    for action in &actions {
        let mut child = world.clone();
        child.apply(&action.canonical)?;
        if let Some(outcome) = child.outcome() {
            if outcome.winner.is_some() && outcome.winner == my_team {
                return Ok(action.clone());
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
    Ok(rng
        .choose(pool)
        .cloned()
        .unwrap_or_else(|| actions[0].clone()))
}

fn opponent_wins_in_one(game: &AnyGame, my_team: Option<tabula_core::Team>) -> bool {
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
