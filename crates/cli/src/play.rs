//! `tabula play`: a game in the terminal, saved to the game store as it is
//! played (every action appended before the next one is asked for), so a
//! game survives a closed terminal and `--resume` continues it.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tabula_core::protocol::Event;
use tabula_core::{GameRng, Outcome, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionInput, ActionText, AnyGame};
use tabula_store::{GameKey, NewGame, SqliteStore, Store};

use crate::render;

const COMMANDS: &str = "\
Commands:
  moves     list the legal moves, one a line
  board     draw the board again
  flip      turn the board round
  info WHAT what a piece (its letter or name) or card is, with its moves and stats
  cards [SEARCH]  the cards of Lytharian Chess, or those matching SEARCH
  position  print the position text
  undo      take back your last move (and the computer's reply)
  resign    give up the game (two-sided games; asks first)
  help      this text
  quit      leave the game (a saved game can be resumed)";

/// How actions are typed in this game, in its own words, with examples
/// taken from the actions legal now.
fn help(game: &AnyGame) -> String {
    use tabula_core::GameId;
    let how = match game.id() {
        GameId::Chess => "Type a move in SAN (e4, Nf3, O-O, e8=Q) or UCI (e2e4, e7e8q).",
        GameId::Skirmish => {
            "Type a chess move in SAN (e4, Nf3, exd5) or UCI (e2e4); a capture starts a \
             skirmish whose odds are shown first, then the dice decide."
        }
        GameId::Epoch => {
            "Type a move as piece letter, from and to (Pg1-f2, Ae1xe5); 'swap' and \
             castling (O-O, O-O-O) where the rules allow."
        }
        GameId::Warrior => {
            "Type an action as 'moves' lists it: movements, drops from the Reserve, \
             purchases and 'end' to finish the turn."
        }
        GameId::Covenant => {
            "Type an action as 'moves' lists it: activate a piece, move or attack with \
             it, recruit, and 'end-turn' to finish the turn."
        }
        GameId::Lytharia => {
            "Type an action as 'moves' lists it: place, use, attack, cast, and pass or \
             end the stage; a chess move also in standard notation (e4, e2e4, Nf3, \
             O-O); 'cards' lists every card, 'info NAME' tells one."
        }
    };
    let examples: Vec<String> = game
        .legal_actions()
        .into_iter()
        .take(4)
        .map(|a| a.notation)
        .collect();
    let examples = if examples.is_empty() {
        String::new()
    } else {
        format!("\nLegal now, for example: {}", examples.join(", "))
    };
    format!("{how}{examples}\n{COMMANDS}")
}

/// The name the built-in computer plays under in saved games; `--resume`
/// gives it those seats again.
pub const COMPUTER_NAME: &str = "tabula computer";

/// Where a game is saved as it is played.
pub enum Saving {
    /// Not saved (`--no-save`).
    Off,
    /// A new game in the database at this path.
    New(PathBuf),
    /// Continue this stored game.
    Resume(PathBuf, GameKey),
}

/// How `tabula play` was asked to run.
pub struct PlayOptions {
    /// `--computer`: seats the computer plays; `None` for the default (seat
    /// 2 in a new game, the stored computer seats when resuming).
    pub computer: Option<String>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--delay`: milliseconds to wait after each computer or chance action.
    pub delay: Option<u64>,
    /// `--level`: the computer's strength.
    pub level: tabula_ai::Level,
    /// `--search-threads`: trees each tree search is split over.
    pub search_threads: u32,
    /// Whether and where to save.
    pub saving: Saving,
    /// Whether the game was started from a position text (stored as the
    /// record's start).
    pub from_position: bool,
}

/// The store a game is written to as it is played, and how far it is.
struct Saved {
    store: SqliteStore,
    key: GameKey,
    db: PathBuf,
    /// Actions stored so far: the next ply to append.
    ply: u64,
}

impl Saved {
    fn append(&mut self, canonical: &str) -> Result<()> {
        self.store
            .append_action(self.key, self.ply, canonical)
            .with_context(|| format!("saving game {} in {}", self.key, self.db.display()))?;
        self.ply += 1;
        Ok(())
    }

    fn take_back(&mut self, keep: u64) -> Result<()> {
        self.store
            .take_back(self.key, self.ply, keep)
            .with_context(|| format!("saving game {} in {}", self.key, self.db.display()))?;
        self.ply = keep;
        Ok(())
    }

    fn finish(&self, outcome: &Outcome) -> Result<()> {
        self.store
            .set_result(self.key, outcome)
            .with_context(|| format!("saving game {} in {}", self.key, self.db.display()))
    }
}

/// A state the game can go back to with `undo`: the position, the chance
/// stream there (so a take-back never re-rolls the dice), and the ply.
struct Snapshot {
    game: AnyGame,
    chance: Option<GameRng>,
    ply: u64,
}

/// Plays `game` on stdin/stdout until it ends or the user quits. With
/// [`Saving::Resume`], `game` only names the game expected; the stored one
/// is played.
pub fn run(game: AnyGame, options: PlayOptions) -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();

    let (mut game, mut chance, seats, mut saved, seed) = match options.saving {
        Saving::Resume(db, key) => resume(&game, db, key, options.computer.as_deref())?,
        saving => {
            let seats = match options.computer.as_deref() {
                Some(text) => parse_seats(text, game.seating().len())?,
                None => other_team(&game),
            };
            let seed = Seed(options.seed.unwrap_or_else(time_seed));
            let saved = match saving {
                Saving::New(db) => Some(create(&game, &db, &seats, seed, options.from_position)?),
                _ => None,
            };
            (game, Some(GameRng::from_seed(seed)), seats, saved, seed)
        }
    };
    // The computer draws from its own stream, never the chance stream: a
    // record's seed promises its chance outcomes and nothing else.
    let mut computer_rng =
        GameRng::from_seed(Seed(options.seed.unwrap_or(seed.0) ^ 0x5eed_c0ff_ee00_0001));

    writeln!(
        out,
        "{} (seed {seed}). Type 'help' for commands.",
        game.id()
    )?;
    if seats.is_empty() {
        writeln!(out, "Every seat is played at this keyboard.")?;
    } else {
        writeln!(out, "The computer plays {}.", seat_names(&game, &seats))?;
    }
    // Hotseat with hidden hands: the screen is cleared between people, so
    // one player's hand is not left in view of the next.
    let people = game
        .seating()
        .players()
        .filter(|p| !seats.contains(p))
        .count();
    let screen_between = game.hidden_information() && people > 1;
    let mut at_keyboard: Option<Player> = None;
    let pause = || {
        if let Some(ms) = options.delay {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
    };
    if let Some(s) = &saved {
        writeln!(
            out,
            "Saved as game {} in {} as you play; 'tabula play {} --resume {}{}' continues it.",
            s.key,
            s.db.display(),
            game.id(),
            s.key,
            db_flag(&s.db)
        )?;
    }
    let mut history: Vec<Snapshot> = Vec::new();
    // `flip` turns the board round from its default, the viewer's side.
    let mut flipped = false;
    if !screen_between {
        writeln!(
            out,
            "{}",
            render::board(&game, viewer_for(&game, &seats), flipped)
        )?;
    }
    loop {
        let ply = saved.as_ref().map_or(0, |s| s.ply);
        match game.to_act() {
            ToAct::Over { outcome } => {
                if let Some(s) = &saved {
                    s.finish(&outcome)?;
                }
                writeln!(out, "Game over: {}.", game.describe_outcome(&outcome))?;
                writeln!(out, "Final position: {}", game.to_text())?;
                return Ok(());
            }
            ToAct::Chance => {
                // Listed outcomes (dice) are public; sampled ones (a shuffled
                // deck) would reveal hidden cards, so only their kind is shown.
                let public = game.chance_outcomes().is_some();
                let Some(stream) = chance.as_mut() else {
                    bail!("this stored game has no seed: its chance outcomes cannot be drawn");
                };
                let Some(action) = game.sample_chance(stream) else {
                    bail!("the game waits for chance but offers no outcome");
                };
                // Between people with hidden hands, only the public view is
                // shown until the next one takes the keyboard.
                let viewer = if screen_between {
                    Viewer::Public
                } else {
                    viewer_for(&game, &seats)
                };
                let events = tell(&mut game, &action.canonical, viewer)?;
                if let Some(s) = saved.as_mut() {
                    s.append(&action.canonical)?;
                }
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
                write_events(&mut out, &events)?;
                let viewer = if screen_between {
                    Viewer::Public
                } else {
                    viewer_for(&game, &seats)
                };
                writeln!(out, "{}", render::board(&game, viewer, flipped))?;
                pause();
            }
            ToAct::Player { player } if seats.contains(&player) => {
                let action = computer_choice(
                    &game,
                    player,
                    options.level,
                    options.search_threads,
                    &mut computer_rng,
                )?;
                // Named as the people at the table may know it, before it
                // changes the state the notation depends on.
                let shown = game.notation_for(&action.canonical, viewer_for(&game, &seats))?;
                let name = game.player_name(player);
                history.push(Snapshot {
                    game: game.clone(),
                    chance: chance.clone(),
                    ply,
                });
                let viewer = viewer_for(&game, &seats);
                let events = tell(&mut game, &action.canonical, viewer)?;
                if let Some(s) = saved.as_mut() {
                    s.append(&action.canonical)?;
                }
                writeln!(out, "{name} plays {shown}")?;
                write_events(&mut out, &events)?;
                writeln!(
                    out,
                    "{}",
                    render::board(&game, viewer_for(&game, &seats), flipped)
                )?;
                pause();
            }
            ToAct::Player { player } => {
                if screen_between && at_keyboard != Some(player) {
                    if at_keyboard.is_some() {
                        // Clear the screen and home the cursor (ANSI).
                        write!(out, "\x1b[2J\x1b[H")?;
                    }
                    write!(
                        out,
                        "Pass the keyboard to {}, then press Enter> ",
                        game.player_name(player)
                    )?;
                    out.flush()?;
                    let mut ignored = Vec::new();
                    if input.read_until(b'\n', &mut ignored)? == 0 {
                        writeln!(out)?;
                        left(&mut out, &game, saved.as_ref())?;
                        return Ok(());
                    }
                    at_keyboard = Some(player);
                    writeln!(
                        out,
                        "{}",
                        render::board(&game, Viewer::Player(player), flipped)
                    )?;
                }
                let prompt = render::status(&game)
                    .unwrap_or_else(|| format!("{} to move", game.player_name(player)));
                write!(out, "{prompt}> ")?;
                out.flush()?;
                let mut bytes = Vec::new();
                if input.read_until(b'\n', &mut bytes)? == 0 {
                    writeln!(out)?;
                    left(&mut out, &game, saved.as_ref())?;
                    return Ok(());
                }
                // A line that is not UTF-8 is refused like any bad move.
                let Ok(line) = String::from_utf8(bytes) else {
                    writeln!(out, "That line is not UTF-8 text; type a move or 'help'.")?;
                    continue;
                };
                let line = line.trim();
                match line {
                    "" => {}
                    "quit" | "exit" | "q" => {
                        left(&mut out, &game, saved.as_ref())?;
                        return Ok(());
                    }
                    "help" | "?" => writeln!(out, "{}", help(&game))?,
                    "board" => writeln!(
                        out,
                        "{}",
                        render::board(&game, viewer_for(&game, &seats), flipped)
                    )?,
                    "position" | "fen" => writeln!(out, "{}", game.to_text())?,
                    _ if line == "cards" || line.starts_with("cards ") => {
                        let search = line["cards".len()..].trim();
                        writeln!(out, "{}", render::game_cards(&game, search))?;
                    }
                    _ if line.starts_with("info ") => {
                        writeln!(out, "{}", render::info(&game, line["info".len()..].trim()))?;
                    }
                    "flip" => {
                        flipped = !flipped;
                        writeln!(
                            out,
                            "{}",
                            render::board(&game, viewer_for(&game, &seats), flipped)
                        )?;
                    }
                    "moves" => {
                        // One a line: actions of several words stay readable.
                        let viewer = viewer_for(&game, &seats);
                        for a in game.legal_actions() {
                            writeln!(out, "  {}", render::action_line(&game, viewer, &a.notation))?;
                        }
                    }
                    "resign" => {
                        let Some(outcome) = resignation(&game, player) else {
                            writeln!(out, "Resigning needs exactly two sides at the table.")?;
                            continue;
                        };
                        write!(out, "Resign the game? Type 'yes' to resign> ")?;
                        out.flush()?;
                        let mut answer = Vec::new();
                        input.read_until(b'\n', &mut answer)?;
                        let answer = String::from_utf8_lossy(&answer).trim().to_ascii_lowercase();
                        if !matches!(answer.as_str(), "yes" | "y") {
                            writeln!(out, "Not resigned; play on.")?;
                            continue;
                        }
                        if let Some(s) = &saved {
                            s.finish(&outcome)?;
                        }
                        writeln!(out, "Game over: {}.", game.describe_outcome(&outcome))?;
                        return Ok(());
                    }
                    "undo" => {
                        // Back to the previous position where a person was to move.
                        let mut back = None;
                        while let Some(previous) = history.pop() {
                            let person = previous
                                .game
                                .to_act()
                                .player()
                                .is_some_and(|p| !seats.contains(&p));
                            back = Some(previous);
                            if person {
                                break;
                            }
                        }
                        match back {
                            Some(snapshot)
                                if snapshot
                                    .game
                                    .to_act()
                                    .player()
                                    .is_some_and(|p| !seats.contains(&p)) =>
                            {
                                if let Some(s) = saved.as_mut() {
                                    s.take_back(snapshot.ply)?;
                                }
                                game = snapshot.game;
                                chance = snapshot.chance;
                            }
                            other => {
                                // Nothing a person played: put it back.
                                history.extend(other);
                                writeln!(out, "Nothing to undo.")?;
                            }
                        }
                        writeln!(
                            out,
                            "{}",
                            render::board(&game, viewer_for(&game, &seats), flipped)
                        )?;
                    }
                    text => {
                        let before = Snapshot {
                            game: game.clone(),
                            chance: chance.clone(),
                            ply,
                        };
                        let viewer = viewer_for(&game, &seats);
                        // Lytharian Chess writes `P e2-e4`; standard chess
                        // notation (e4, e2e4, Nf3, O-O) names the same move.
                        let text = match game.parse_action(text) {
                            Err(_) => {
                                standard_chess_move(&game, text).unwrap_or_else(|| text.to_owned())
                            }
                            Ok(_) => text.to_owned(),
                        };
                        match game.play(&ActionInput::Text(text), &[viewer]) {
                            Ok(played) => {
                                history.push(before);
                                if let Some(s) = saved.as_mut() {
                                    s.append(&played.text.canonical)?;
                                }
                                let events = played.seen.into_iter().flat_map(|(_, e)| e);
                                write_events(&mut out, &events.collect::<Vec<_>>())?;
                                // The next person's hand waits for the handover.
                                let handover = screen_between
                                    && game
                                        .to_act()
                                        .player()
                                        .is_some_and(|p| p != player && !seats.contains(&p));
                                if !handover {
                                    writeln!(
                                        out,
                                        "{}",
                                        render::board(&game, viewer_for(&game, &seats), flipped)
                                    )?;
                                }
                            }
                            Err(e) => writeln!(out, "{e}")?,
                        }
                    }
                }
            }
        }
    }
}

/// In Lytharian Chess, the legal move that standard chess notation names:
/// SAN (`e4`, `exd5`, `Nf3`, `Rad1`, `e8=Q`), UCI (`e2e4`) or castling
/// (`O-O`, `O-O-O`), matched against moves written `ROLE from-to` or
/// `ROLE fromxto`. `None` unless exactly one legal move matches.
fn standard_chess_move(game: &AnyGame, text: &str) -> Option<String> {
    if game.id() != tabula_core::GameId::Lytharia {
        return None;
    }
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?'))
        .collect();
    // (role, from file, from rank, to) wanted; None = any.
    let square = |s: &str| -> Option<(u8, u8)> {
        let b = s.as_bytes();
        (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
            .then(|| (b[0], b[1]))
    };
    type Want = (
        Option<&'static str>,
        Option<u8>,
        Option<u8>,
        Option<(u8, u8)>,
        Option<u8>,
    );
    let want: Want = match t.as_str() {
        "O-O" | "0-0" => (Some("K"), Some(b'e'), None, None, Some(b'g')),
        "O-O-O" | "0-0-0" => (Some("K"), Some(b'e'), None, None, Some(b'c')),
        _ if t.len() >= 4 && square(&t[..2]).is_some() && square(&t[2..4]).is_some() => {
            let (ff, fr) = square(&t[..2])?;
            (None, Some(ff), Some(fr), square(&t[2..4]), None)
        }
        _ => {
            let body = t.split('=').next().unwrap_or("");
            let (role, rest) = match body.chars().next()? {
                'N' => (Some("KN"), &body[1..]),
                'K' => (Some("K"), &body[1..]),
                'Q' => (Some("Q"), &body[1..]),
                'R' => (Some("R"), &body[1..]),
                'B' => (Some("B"), &body[1..]),
                _ => (Some("P"), body),
            };
            let rest = rest.replace('x', "");
            if rest.len() < 2 || !rest.is_char_boundary(rest.len() - 2) {
                return None;
            }
            let to = square(&rest[rest.len() - 2..])?;
            let mut from_file = None;
            let mut from_rank = None;
            for b in rest[..rest.len() - 2].bytes() {
                match b {
                    b'a'..=b'h' => from_file = Some(b),
                    b'1'..=b'8' => from_rank = Some(b),
                    _ => return None,
                }
            }
            (role, from_file, from_rank, Some(to), None)
        }
    };
    let (role, from_file, from_rank, to, to_file) = want;
    let found: Vec<String> = game
        .legal_actions()
        .into_iter()
        .map(|a| a.notation)
        .filter(|n| {
            let Some((r, squares)) = n.split_once(' ') else {
                return false;
            };
            let b = squares.as_bytes();
            if b.len() != 5 || !matches!(b[2], b'-' | b'x') {
                return false;
            }
            role.is_none_or(|want| want == r)
                && from_file.is_none_or(|f| f == b[0])
                && from_rank.is_none_or(|x| x == b[1])
                && to.is_none_or(|(f, x)| f == b[3] && x == b[4])
                && to_file.is_none_or(|f| f == b[3])
        })
        .collect();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// ` --db PATH` unless the path is the default.
fn db_flag(db: &std::path::Path) -> String {
    if db == std::path::Path::new(crate::args::DEFAULT_DB) {
        String::new()
    } else {
        format!(" --db {}", db.display())
    }
}

/// Said when a person leaves an unfinished game.
fn left(out: &mut impl Write, game: &AnyGame, saved: Option<&Saved>) -> Result<()> {
    if let Some(s) = saved {
        writeln!(
            out,
            "Game {} is saved unfinished; 'tabula play {} --resume {}{}' continues it.",
            s.key,
            game.id(),
            s.key,
            db_flag(&s.db)
        )?;
    }
    Ok(())
}

/// The outcome of `player` resigning: the other team wins.
fn resignation(game: &AnyGame, player: Player) -> Option<Outcome> {
    Outcome::resignation(&game.seating(), player)
}

/// Plays an action known to be legal and returns what `viewer` saw happen.
fn tell(game: &mut AnyGame, canonical: &str, viewer: Viewer) -> Result<Vec<Event>> {
    let played = game.play(&ActionInput::Text(canonical.to_owned()), &[viewer])?;
    Ok(played.seen.into_iter().flat_map(|(_, e)| e).collect())
}

/// What happened, one sentence a line, under the action that did it.
fn write_events(out: &mut impl Write, events: &[Event]) -> Result<()> {
    for event in events {
        writeln!(out, "  {}", event.text)?;
    }
    Ok(())
}

/// Creates the stored game for a new game.
fn create(
    game: &AnyGame,
    db: &std::path::Path,
    computers: &BTreeSet<Player>,
    seed: Seed,
    from_position: bool,
) -> Result<Saved> {
    let store = crate::record::open(db, true)?;
    let mut new = NewGame::of(game.id());
    new.options = game.option_pairs();
    new.seed = Some(seed.0);
    new.players = game
        .seating()
        .players()
        .map(|p| {
            if computers.contains(&p) {
                COMPUTER_NAME.to_owned()
            } else {
                format!("Player {}", p.0 + 1)
            }
        })
        .collect();
    new.start = from_position.then(|| game.to_text());
    new.date = Some(today());
    let key = store
        .create_game(&new)
        .with_context(|| format!("saving a new game in {}", db.display()))?;
    Ok(Saved {
        store,
        key,
        db: db.to_owned(),
        ply: 0,
    })
}

type Resumed = (
    AnyGame,
    Option<GameRng>,
    BTreeSet<Player>,
    Option<Saved>,
    Seed,
);

/// Loads a stored, unfinished game and replays it to where it stopped.
fn resume(
    expected: &AnyGame,
    db: PathBuf,
    key: GameKey,
    computer: Option<&str>,
) -> Result<Resumed> {
    let store = crate::record::open(&db, false)?;
    let stored = store.load_game(key)?;
    let id = stored.header.game.unwrap_or(expected.id());
    if id != expected.id() {
        bail!("game {key} is {id}, not {}", expected.id());
    }
    if let Some(outcome) = stored.result {
        bail!("game {key} is over ({outcome}); 'tabula record export {key}' prints its record");
    }
    let record = stored.record();
    let (game, chance) = record
        .resume()
        .with_context(|| format!("replaying game {key}"))?;
    let seats = match computer {
        Some(text) => parse_seats(text, game.seating().len())?,
        None => stored
            .header
            .players
            .iter()
            .enumerate()
            .filter(|(_, name)| *name == COMPUTER_NAME)
            .map(|(i, _)| Player(i as u8))
            .collect(),
    };
    let seed = Seed(stored.header.seed.unwrap_or(0));
    let saved = Saved {
        store,
        key,
        db,
        ply: stored.actions.len() as u64,
    };
    Ok((game, chance, seats, Some(saved), seed))
}

/// Today's date as records write it (`YYYY.MM.DD`, UTC).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
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

/// The computer's seats by default: every seat not on seat 1's team (seat
/// 2 of a two-player game; both of the other team's in doubles).
fn other_team(game: &AnyGame) -> BTreeSet<Player> {
    let seating = game.seating();
    let first = seating.team(Player(0));
    seating
        .players()
        .filter(|p| seating.team(*p) != first)
        .collect()
}

/// "Player 2 (Black)" for each computer seat, joined.
fn seat_names(game: &AnyGame, seats: &BTreeSet<Player>) -> String {
    let names: Vec<String> = seats
        .iter()
        .map(|p| format!("seat {} ({})", p.0 + 1, game.player_name(*p)))
        .collect();
    names.join(", ")
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

/// The computer player's action at `level` (`tabula_ai`), its tree search
/// split over `search_threads` root-parallel trees.
pub fn computer_choice(
    game: &AnyGame,
    me: Player,
    level: tabula_ai::Level,
    search_threads: u32,
    rng: &mut GameRng,
) -> Result<ActionText> {
    tabula_ai::choose_on_threads(game, me, level, None, None, search_threads, rng)
        .map(|(action, _)| action)
        .ok_or_else(|| anyhow::anyhow!("the computer has no legal action"))
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, standard_chess_move};
    use tabula_core::{GameId, GameRng, Seed, ToAct};
    use tabula_games::AnyGame;

    #[test]
    fn lytharias_chess_mode_takes_standard_chess_notation() {
        let mut g = AnyGame::new(GameId::Lytharia, &[("mode".into(), "chess".into())]).unwrap();
        let mut rng = GameRng::from_seed(Seed(3));
        // Deal and place troops until the first chess move.
        while !g
            .legal_actions()
            .iter()
            .any(|a| a.notation.starts_with("P "))
        {
            let next = match g.to_act() {
                ToAct::Chance => g.sample_chance(&mut rng).unwrap(),
                _ => g.legal_actions().remove(0),
            };
            g.apply(&next.canonical).unwrap();
        }
        let named = |t: &str| standard_chess_move(&g, t);
        assert_eq!(named("e4").as_deref(), Some("P e2-e4"));
        assert_eq!(named("e2e4").as_deref(), Some("P e2-e4"));
        assert_eq!(named("Nc3").as_deref(), Some("KN b1-c3"));
        assert_eq!(named("Nc6"), None);
        assert_eq!(named("O-O"), None);
        // Other games keep their own notation.
        let chess = AnyGame::new(GameId::Chess, &[]).unwrap();
        assert_eq!(standard_chess_move(&chess, "e4"), None);
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
