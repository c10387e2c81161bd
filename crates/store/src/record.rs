//! The game record: PGN-like text for every game, plain PGN for chess.
//!
//! See `docs/records.md` for the format. [`Record::parse`] reads the text
//! (syntax and tags only), [`Record::replay`] plays every action through
//! [`AnyGame`] and checks it, [`Record::write`] renders a record in each
//! game's notation, and [`Record::write_for`] renders one player's record of
//! a hidden-information game.

use std::fmt::Write as _;

use tabula_core::{EndReason, GameId, GameRng, Outcome, Player, Seed, Team, ToAct, Viewer};
use tabula_games::AnyGame;
use thiserror::Error;

/// Why a record was refused. Every variant that comes from the text names
/// its line (counted from 1); replay errors also name the ply (from 1).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// Nothing but blank space and comments.
    #[error("the record is empty")]
    Empty,
    /// Text that is not a tag, a move, a comment or a result marker.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The text stops in the middle of something (a tag, a comment, a quoted
    /// action) or before the result marker that ends every record.
    #[error("line {line}: the record is truncated: {message}")]
    Truncated {
        /// The last line read.
        line: usize,
        /// What was left open.
        message: String,
    },
    /// A tag is malformed, repeated or has a value it cannot take (an
    /// unknown game, a bad option, a seed that is not a number).
    #[error("line {line}: bad tag {tag}: {reason}")]
    BadTag {
        /// The line.
        line: usize,
        /// The tag's name.
        tag: String,
        /// Why.
        reason: String,
    },
    /// An action that cannot be parsed or is not legal where it stands.
    #[error("line {line}: ply {ply}: illegal action '{text}': {reason}")]
    IllegalAction {
        /// The line of the action.
        line: usize,
        /// The ply, counted from 1.
        ply: usize,
        /// The action as written.
        text: String,
        /// The game's reason.
        reason: String,
    },
    /// A chance outcome differs from the one the record's seed draws.
    #[error(
        "line {line}: ply {ply}: chance outcome '{recorded}' is not what seed {seed} draws \
         ('{expected}'): wrong seed or altered record"
    )]
    ChanceMismatch {
        /// The line of the outcome.
        line: usize,
        /// The ply, counted from 1.
        ply: usize,
        /// The outcome written.
        recorded: String,
        /// The outcome the seed draws.
        expected: String,
        /// The seed tag.
        seed: u64,
    },
    /// The result tag or marker disagrees with how the replayed game ended.
    #[error("line {line}: result '{recorded}' does not match the game, which ended: {actual}")]
    ResultMismatch {
        /// The line of the result tag or marker.
        line: usize,
        /// The result written.
        recorded: String,
        /// How the game ended on replay.
        actual: String,
    },
    /// Actions continue after the game ended.
    #[error("line {line}: ply {ply}: the game is already over ({outcome})")]
    AfterEnd {
        /// The line.
        line: usize,
        /// The ply, counted from 1.
        ply: usize,
        /// How it ended.
        outcome: String,
    },
    /// A per-player record hides actions, so it cannot be replayed.
    #[error("this record is seat {seat}'s view: its hidden actions cannot be replayed")]
    PerPlayer {
        /// The seat, counted from 1.
        seat: u8,
    },
    /// A per-player record asked for a seat the game does not have.
    #[error("seat {seat} is not at this table ({seats} seats)")]
    NoSuchSeat {
        /// The seat, counted from 1.
        seat: u8,
        /// How many seats the game has.
        seats: usize,
    },
    /// A record (or one of its parts) is larger than a record may be: the
    /// caps keep a stranger's upload from costing unbounded time or memory.
    #[error("line {line}: the record is too large: {what} (the limit is {limit})")]
    TooLarge {
        /// The line where the limit was passed (1 for the whole text).
        line: usize,
        /// What is too large ("too many tags in one game"...).
        what: &'static str,
        /// The limit, with its unit.
        limit: String,
    },
    /// A ply beyond the last action.
    #[error("ply {ply} is past the end of the record ({plies} actions)")]
    PlyOutOfRange {
        /// The ply asked for.
        ply: usize,
        /// The number of actions.
        plies: usize,
    },
}

/// The most text a record file may hold (all its games together), in bytes.
pub const MAX_TEXT_BYTES: usize = 16 * 1024 * 1024;
/// The most tags one game may have.
pub const MAX_TAGS: usize = 1_000;
/// The longest tag value, in bytes.
pub const MAX_TAG_VALUE_BYTES: usize = 64 * 1024;
/// The most actions (chance outcomes included) one game may have.
pub const MAX_ACTIONS: usize = 100_000;
/// The longest comment, in bytes.
pub const MAX_COMMENT_BYTES: usize = 64 * 1024;

/// One action of a record, as written, with its comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedAction {
    /// The action in any notation the game accepts.
    pub text: String,
    /// A `{comment}` written after it.
    pub comment: Option<String>,
    /// The line it was read from (0 for records built in code).
    pub line: usize,
}

impl RecordedAction {
    /// An action without a comment.
    pub fn new(text: impl Into<String>) -> Self {
        RecordedAction {
            text: text.into(),
            comment: None,
            line: 0,
        }
    }
}

/// A game record: who played what, with which options and seed, and how it
/// ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The game (a record without a `Game` tag is chess, as in PGN).
    pub game: GameId,
    /// Options that differ from the default, as `(key, value)` text.
    pub options: Vec<(String, String)>,
    /// The seed of the chance stream: the k-th chance outcome is the one
    /// `sample_chance` draws from `GameRng::from_seed(seed)` after k-1 draws.
    pub seed: Option<Seed>,
    /// Player names in seat order (`?` or missing for unknown).
    pub players: Vec<String>,
    /// The date, PGN style `YYYY.MM.DD` (`?` for unknown parts).
    pub date: Option<String>,
    /// A start position text (the `FEN` tag); `None` for the game's start.
    pub start: Option<String>,
    /// The result: `None` for a game still going (`*`).
    pub result: Option<RecordResult>,
    /// For a per-player record, whose view it is.
    pub viewer: Option<Player>,
    /// Any other tags (Event, Site, Round, ECO...), kept in order.
    pub tags: Vec<(String, String)>,
    /// A comment before the first action.
    pub comment: Option<String>,
    /// The actions, chance outcomes included, in the order played.
    pub actions: Vec<RecordedAction>,
    lines: TagLines,
}

/// How a game ended, as a record states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordResult {
    /// The winning team, or `None` for a draw.
    pub winner: Option<Team>,
    /// Why it ended, when the record says (the `Reason` tag).
    pub reason: Option<EndReason>,
}

impl From<Outcome> for RecordResult {
    fn from(o: Outcome) -> Self {
        RecordResult {
            winner: o.winner,
            reason: Some(o.reason),
        }
    }
}

/// Lines of the tags that replay errors point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct TagLines {
    start: usize,
    fen: usize,
    result: usize,
    end: usize,
}

impl Record {
    /// An empty record of a game with the given options.
    pub fn new(game: GameId, options: Vec<(String, String)>) -> Self {
        Record {
            game,
            options,
            seed: None,
            players: Vec::new(),
            date: None,
            start: None,
            result: None,
            viewer: None,
            tags: Vec::new(),
            comment: None,
            actions: Vec::new(),
            lines: TagLines::default(),
        }
    }

    /// The value of an extra tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets an extra tag (Event, Site, Round...), replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The game at its start: the `FEN` position if given, else the
    /// options' initial position.
    pub fn start_game(&self) -> Result<AnyGame, RecordError> {
        let made = match &self.start {
            Some(text) => AnyGame::from_text(self.game, text, &self.options),
            None => AnyGame::new(self.game, &self.options),
        };
        made.map_err(|e| {
            BadTagAt(
                self.lines.fen,
                if self.start.is_some() {
                    "FEN"
                } else {
                    "Options"
                },
            )
            .err(e)
        })
    }

    /// Replays every action, checking each one (and each chance outcome
    /// against the seed, if the record has one) and the result; returns
    /// the final state.
    pub fn replay(&self) -> Result<AnyGame, RecordError> {
        let game = self.play(self.actions.len())?;
        self.check_result(&game)?;
        Ok(game)
    }

    /// The state after the first `ply` actions (0: the start), every action
    /// up to there checked.
    pub fn replay_to(&self, ply: usize) -> Result<AnyGame, RecordError> {
        if ply > self.actions.len() {
            return Err(RecordError::PlyOutOfRange {
                ply,
                plies: self.actions.len(),
            });
        }
        self.play(ply)
    }

    /// Replays every action like [`Record::replay`] and returns each one in
    /// its canonical (context-free) form, for storing.
    pub fn canonical_actions(&self) -> Result<Vec<String>, RecordError> {
        let mut out = Vec::with_capacity(self.actions.len());
        self.play_with(self.actions.len(), &mut out)
            .and_then(|(game, _)| self.check_result(&game))?;
        Ok(out)
    }

    /// Replays every action like [`Record::replay_to`] its end, and returns
    /// the state with the chance stream where the game left it: the seed's
    /// stream after the draws the record's chance outcomes used (`None`
    /// without a seed). A game continued from here keeps the record's
    /// promise that its k-th chance outcome is the stream's k-th draw.
    pub fn resume(&self) -> Result<(AnyGame, Option<GameRng>), RecordError> {
        self.play_with(self.actions.len(), &mut Vec::new())
    }

    fn play(&self, plies: usize) -> Result<AnyGame, RecordError> {
        Ok(self.play_with(plies, &mut Vec::new())?.0)
    }

    fn play_with(
        &self,
        plies: usize,
        canonical: &mut Vec<String>,
    ) -> Result<(AnyGame, Option<GameRng>), RecordError> {
        if let Some(p) = self.viewer {
            return Err(RecordError::PerPlayer { seat: p.0 + 1 });
        }
        let mut game = self.start_game()?;
        let mut rng = self.seed.map(GameRng::from_seed);
        for (i, action) in self.actions.iter().take(plies).enumerate() {
            let ply = i + 1;
            let illegal = |reason: String| RecordError::IllegalAction {
                line: action.line,
                ply,
                text: action.text.clone(),
                reason: null_move(&action.text).map_or(reason, str::to_owned),
            };
            match game.to_act() {
                ToAct::Over { outcome } => {
                    return Err(RecordError::AfterEnd {
                        line: action.line,
                        ply,
                        outcome: game.describe_outcome(&outcome),
                    });
                }
                ToAct::Chance => {
                    let recorded = game
                        .parse_action(&action.text)
                        .map_err(|e| illegal(reason_of(&e)))?;
                    if let (Some(rng), Some(seed)) = (rng.as_mut(), self.seed)
                        && let Some(expected) = game.sample_chance(rng)
                        && expected.canonical != recorded.canonical
                    {
                        return Err(RecordError::ChanceMismatch {
                            line: action.line,
                            ply,
                            recorded: action.text.clone(),
                            expected: expected.notation,
                            seed: seed.0,
                        });
                    }
                }
                ToAct::Player { .. } => {}
            }
            let shown = game
                .apply(&action.text)
                .map_err(|e| illegal(reason_of(&e)))?;
            canonical.push(shown.canonical);
        }
        Ok((game, rng))
    }

    /// A stated winner must be a team at the table.
    fn check_teams(&self, game: &AnyGame) -> Result<(), RecordError> {
        let teams = game.seating().team_count();
        match self.result.and_then(|r| r.winner) {
            Some(team) if team.index() >= teams => Err(RecordError::BadTag {
                line: self.lines.result.max(self.lines.end),
                tag: "Result".to_owned(),
                reason: format!("team {} is not at this table ({teams} teams)", team.0 + 1),
            }),
            _ => Ok(()),
        }
    }

    fn check_result(&self, game: &AnyGame) -> Result<(), RecordError> {
        self.check_teams(game)?;
        let Some(outcome) = game.outcome() else {
            // A game the rules did not end: any result (resignation, time,
            // agreement) or none.
            return Ok(());
        };
        let line = if self.lines.result > 0 {
            self.lines.result
        } else {
            self.lines.end
        };
        let mismatch = |recorded: String| RecordError::ResultMismatch {
            line,
            recorded,
            actual: game.describe_outcome(&outcome),
        };
        let teams = game.seating().team_count();
        match self.result {
            // `*` states nothing: the rules' outcome stands (a store may
            // crash between the last action and setting the result).
            None => Ok(()),
            Some(r) if r.winner != outcome.winner => {
                Err(mismatch(result_marker(Some(r.winner), teams)))
            }
            Some(RecordResult {
                reason: Some(reason),
                ..
            }) if reason != outcome.reason => Err(mismatch(format!(
                "{} by {reason}",
                result_marker(Some(outcome.winner), teams)
            ))),
            Some(_) => Ok(()),
        }
    }

    /// The full record as text, in each game's notation. Replays the actions
    /// (they may be in any notation the game accepts) to write them.
    pub fn write(&self) -> Result<String, RecordError> {
        self.render(None)
    }

    /// The record as seat `viewer` may know it: every action written with
    /// `notation_for(action, Viewer::Player(viewer))`, so cards and
    /// shuffles that player did not see stay unnamed; no `Seed` and no `FEN`
    /// tag (both could reveal hidden cards). Such a record can be read but
    /// not replayed.
    pub fn write_for(&self, viewer: Player) -> Result<String, RecordError> {
        let seats = self.start_game()?.seating().len();
        if viewer.index() >= seats {
            return Err(RecordError::NoSuchSeat {
                seat: viewer.0 + 1,
                seats,
            });
        }
        self.render(Some(viewer))
    }

    fn render(&self, viewer: Option<Player>) -> Result<String, RecordError> {
        let start = {
            let mut r = self.clone();
            r.viewer = None;
            r.start_game()?
        };
        // Notation, move numbers and the final state come from a replay.
        let mut game = start.clone();
        let mut tokens: Vec<String> = Vec::new();
        let mut number = start_number(&start);
        let mut last: Option<Player> = None;
        if let Some(c) = &self.comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        for (i, action) in self.actions.iter().enumerate() {
            let ply = i + 1;
            let illegal = |reason: String| RecordError::IllegalAction {
                line: action.line,
                ply,
                text: action.text.clone(),
                reason,
            };
            let actor = game.to_act().player();
            let new_turn = actor.is_some() && actor != last;
            // A move number stays on the line of its action.
            let mut prefix = String::new();
            if i == 0 {
                prefix = match actor {
                    Some(p) if p.0 != 0 => format!("{number}... "),
                    _ => format!("{number}. "),
                };
            } else if new_turn && actor == Some(Player(0)) {
                number += 1;
                prefix = format!("{number}. ");
            }
            if actor.is_some() {
                last = actor;
            }
            let shown = game
                .parse_action(&action.text)
                .map_err(|e| illegal(reason_of(&e)))?;
            let text = match viewer {
                None => shown.notation.clone(),
                Some(p) => game
                    .notation_for(&shown.canonical, Viewer::Player(p))
                    .map_err(|e| illegal(reason_of(&e)))?,
            };
            game.apply(&shown.canonical)
                .map_err(|e| illegal(reason_of(&e)))?;
            tokens.push(format!("{prefix}{}", quote_action(&text)));
            if let Some(c) = &action.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
            }
        }
        self.check_teams(&game)?;
        // The result: the game's own if it ended, else the record's.
        let result = match game.outcome() {
            Some(o) => Some(RecordResult::from(o)),
            None => self.result,
        };
        let teams = game.seating().team_count();
        let marker = result_marker(result.map(|r| r.winner), teams);
        tokens.push(marker.clone());

        let mut out = String::new();
        let mut tag = |k: &str, v: &str| {
            let _ = writeln!(out, "[{k} \"{}\"]", escape_tag(v));
        };
        let seats = game.seating().len();
        let name = |i: usize| {
            self.players
                .get(i)
                .filter(|n| !n.is_empty())
                .cloned()
                .unwrap_or_else(|| "?".to_owned())
        };
        let extra = |k: &str| self.tag(k).unwrap_or("?").to_owned();
        let date = self.date.clone().unwrap_or_else(|| "????.??.??".to_owned());
        if self.game == GameId::Chess {
            // The Seven Tag Roster, in its order, so any PGN reader takes it.
            tag("Event", &extra("Event"));
            tag("Site", &extra("Site"));
            tag("Date", &date);
            tag("Round", &extra("Round"));
            tag("White", &name(0));
            tag("Black", &name(1));
            tag("Result", &marker);
        } else {
            tag("Game", self.game.as_str());
            tag("Event", &extra("Event"));
            tag("Site", &extra("Site"));
            tag("Date", &date);
            tag("Round", &extra("Round"));
            for seat in 0..seats {
                tag(&format!("Seat{}", seat + 1), &name(seat));
            }
            tag("Result", &marker);
        }
        if let Some(reason) = result.and_then(|r| r.reason) {
            tag("Reason", reason.id());
        }
        tag(
            "Termination",
            match result {
                None => "unterminated",
                Some(RecordResult {
                    reason: Some(EndReason::Timeout),
                    ..
                }) => "time forfeit",
                Some(_) => "normal",
            },
        );
        if !self.options.is_empty() {
            let pairs: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            tag("Options", &pairs.join("; "));
        }
        if viewer.is_none() {
            if let Some(seed) = self.seed {
                tag("Seed", &seed.to_string());
            }
            if let Some(fen) = &self.start {
                tag("SetUp", "1");
                tag("FEN", fen);
            }
        }
        if let Some(p) = viewer {
            tag("Viewer", &(p.0 + 1).to_string());
        }
        for (k, v) in &self.tags {
            if !matches!(k.as_str(), "Event" | "Site" | "Round") {
                tag(k, v);
            }
        }
        out.push('\n');
        // Movetext, wrapped before 80 columns.
        let mut width = 0;
        for t in tokens {
            if width > 0 && width + 1 + t.len() > 79 {
                out.push('\n');
                width = 0;
            }
            if width > 0 {
                out.push(' ');
                width += 1;
            }
            out.push_str(&t);
            width += t.len();
        }
        out.push('\n');
        Ok(out)
    }

    /// Reads a record's text: tags and movetext, with typed errors naming
    /// the line. Checks the tags (game, options, seed, result) but not the
    /// actions: [`Record::replay`] does that.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        check_size(text)?;
        Parser::new(text).record_from_here(false)
    }

    /// Reads a file of one or more games, as a PGN database holds them
    /// (each game's tags, movetext and result marker, one after another).
    /// Every game is read like [`Record::parse`]; the first error stops the
    /// reading and names its line in the file. Each record's actions keep
    /// their line in the file, so replay errors point into it too.
    pub fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
        check_size(text)?;
        let mut parser = Parser::new(text);
        let mut records = Vec::new();
        loop {
            parser.skip_space();
            if parser.peek().is_none() && !records.is_empty() {
                return Ok(records);
            }
            records.push(parser.record_from_here(true)?);
        }
    }

    /// The line the record starts on in its file (its first tag, else its
    /// first action; 0 for a record built in code).
    pub fn first_line(&self) -> usize {
        self.lines.start
    }

    /// Parses and replays: the record and its final state.
    pub fn read(text: &str) -> Result<(Record, AnyGame), RecordError> {
        let record = Record::parse(text)?;
        let game = record.replay()?;
        Ok((record, game))
    }
}

/// Builds a `BadTag` error for a tag at a line from any displayable error.
struct BadTagAt(usize, &'static str);

impl BadTagAt {
    fn err(self, e: impl std::fmt::Display) -> RecordError {
        RecordError::BadTag {
            line: self.0,
            tag: self.1.to_owned(),
            reason: e.to_string(),
        }
    }
}

/// What to say of a null move (`--`, `Z0`, `0000`, `@@@@`): database
/// programs write them for a side passing in an analysis, but no game here
/// lets a side pass, so a record holding one cannot be replayed.
fn null_move(text: &str) -> Option<&'static str> {
    matches!(text, "--" | "Z0" | "0000" | "@@@@" | "null")
        .then_some("a null move (a side passing its turn) is not a move in this game")
}

fn reason_of(e: &tabula_games::AnyError) -> String {
    match e {
        tabula_games::AnyError::Position(source) => source.to_string(),
        other => other.reason(),
    }
}

/// The move number of the first action: the FEN's full-move counter for
/// chess, else 1.
fn start_number(start: &AnyGame) -> u32 {
    if start.id() == GameId::Chess {
        start
            .to_text()
            .split_whitespace()
            .nth(5)
            .and_then(|n| n.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(1)
    } else {
        1
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, `*`; for more than two teams one score per team
/// (`0-1-0`, `1/2-1/2-1/2`). `None`: unfinished.
fn result_marker(result: Option<Option<Team>>, teams: usize) -> String {
    let Some(winner) = result else {
        return "*".to_owned();
    };
    let teams = teams.max(2);
    let scores: Vec<&str> = (0..teams)
        .map(|t| match winner {
            None => "1/2",
            Some(w) if w.index() == t => "1",
            Some(_) => "0",
        })
        .collect();
    scores.join("-")
}

/// Reads a result marker: `Some(None)` is `*`, `Some(Some(winner))` a
/// result; `None` if the token is not a result marker.
fn parse_marker(token: &str) -> Option<Option<Option<Team>>> {
    if token == "*" {
        return Some(None);
    }
    let parts: Vec<&str> = token.split('-').collect();
    if parts.len() < 2 || !parts.iter().all(|p| matches!(*p, "0" | "1" | "1/2")) {
        return None;
    }
    if parts.iter().all(|p| *p == "1/2") {
        return Some(Some(None));
    }
    let winners: Vec<usize> = (0..parts.len()).filter(|i| parts[*i] == "1").collect();
    let losers = parts.iter().filter(|p| **p == "0").count();
    if winners.len() == 1 && losers == parts.len() - 1 {
        return Some(Some(Some(Team(winners[0] as u8))));
    }
    None
}

fn parse_reason(text: &str) -> Option<EndReason> {
    let t = text.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    EndReason::from_id(&t)
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

fn clean_comment(c: &str) -> String {
    c.replace('{', "(").replace('}', ")")
}

/// Whether a token could be read as something other than an action.
fn needs_quotes(text: &str) -> bool {
    text.is_empty()
        || text.chars().any(|c| {
            c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '"' | '[' | ']' | '\\')
        })
        || text.starts_with('$')
        || parse_marker(text).is_some()
        || split_move_number(text).0
}

fn quote_action(text: &str) -> String {
    if needs_quotes(text) {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        text.to_owned()
    }
}

/// Splits a leading move number (`12.`, `12...`, `12.e4`): whether there
/// was one, and the rest.
fn split_move_number(token: &str) -> (bool, &str) {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (false, token);
    }
    let rest = &token[digits..];
    let dots = rest.bytes().take_while(|b| *b == b'.').count();
    if dots == 0 {
        return (false, token);
    }
    (true, &rest[dots..])
}

/// A hand-written reader over the text, tracking the line.
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.chars().peekable(),
            line: 1,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c == Some('\n') {
            self.line += 1;
        }
        c
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn truncated(&self, message: impl Into<String>) -> RecordError {
        RecordError::Truncated {
            line: self.line,
            message: message.into(),
        }
    }

    fn syntax(&self, message: impl Into<String>) -> RecordError {
        RecordError::Syntax {
            line: self.line,
            message: message.into(),
        }
    }

    /// `[Name "value"]`, the `[` not yet read.
    fn tag(&mut self) -> Result<(String, String, usize), RecordError> {
        let line = self.line;
        self.bump();
        self.skip_space();
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return match self.peek() {
                None => Err(self.truncated("a tag is cut off")),
                Some(c) => Err(self.syntax(format!("a tag needs a name, found '{c}'"))),
            };
        }
        self.skip_space();
        match self.bump() {
            Some('"') => {}
            None => return Err(self.truncated(format!("tag {name} is cut off"))),
            Some(c) => {
                return Err(RecordError::BadTag {
                    line: self.line,
                    tag: name,
                    reason: format!("expected a quoted value, found '{c}'"),
                });
            }
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None => return Err(self.truncated(format!("tag {name}'s value is cut off"))),
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => return Err(self.truncated(format!("tag {name}'s value is cut off"))),
                },
                Some('\n') => {
                    return Err(RecordError::BadTag {
                        line: line.max(self.line - 1),
                        tag: name,
                        reason: "the value runs past the end of the line".to_owned(),
                    });
                }
                Some(c) => value.push(c),
            }
            if value.len() > MAX_TAG_VALUE_BYTES {
                return Err(RecordError::TooLarge {
                    line,
                    what: "a tag value is too long",
                    limit: format!("{MAX_TAG_VALUE_BYTES} bytes"),
                });
            }
        }
        self.skip_space_inline();
        match self.bump() {
            Some(']') => Ok((name, value, line)),
            None => Err(self.truncated(format!("tag {name} is cut off"))),
            Some(c) => Err(RecordError::BadTag {
                line: self.line,
                tag: name,
                reason: format!("expected ']' after the value, found '{c}'"),
            }),
        }
    }

    fn skip_space_inline(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// One game from where the reader stands; with `multi`, text after its
    /// result marker is left for the next game.
    fn record_from_here(&mut self, multi: bool) -> Result<Record, RecordError> {
        // Tag pairs. Names seen go in a set: a linear scan per tag made
        // reading quadratic in the number of tags.
        let mut tags: Vec<(String, String, usize)> = Vec::new();
        let mut names = std::collections::HashSet::new();
        self.skip_space();
        let start = self.line;
        loop {
            self.skip_space();
            match self.peek() {
                Some('[') => {
                    let tag = self.tag()?;
                    if !names.insert(tag.0.clone()) {
                        return Err(RecordError::BadTag {
                            line: tag.2,
                            tag: tag.0,
                            reason: "given twice".to_owned(),
                        });
                    }
                    if tags.len() == MAX_TAGS {
                        return Err(RecordError::TooLarge {
                            line: tag.2,
                            what: "too many tags in one game",
                            limit: format!("{MAX_TAGS} tags"),
                        });
                    }
                    tags.push(tag);
                }
                Some(';') | Some('%') => self.skip_line(),
                _ => break,
            }
        }
        let mut record = build_header(&tags)?;
        record.lines.start = start;

        // Movetext.
        let mut saw_anything = !tags.is_empty();
        loop {
            self.skip_space();
            let Some(c) = self.peek() else {
                return Err(if saw_anything {
                    self.truncated("no result marker (1-0, 0-1, 1/2-1/2 or *) at the end")
                } else {
                    RecordError::Empty
                });
            };
            saw_anything = true;
            let line = self.line;
            match c {
                '{' => {
                    self.bump();
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            None => {
                                return Err(RecordError::Truncated {
                                    line,
                                    message: "a {comment} is never closed".to_owned(),
                                });
                            }
                            Some('}') => break,
                            Some(c) => text.push(c),
                        }
                        if text.len() > MAX_COMMENT_BYTES {
                            return Err(RecordError::TooLarge {
                                line,
                                what: "a {comment} is too long",
                                limit: format!("{MAX_COMMENT_BYTES} bytes"),
                            });
                        }
                    }
                    let text = text.trim().to_owned();
                    match record.actions.last_mut() {
                        Some(a) => append_comment(&mut a.comment, text),
                        None => append_comment(&mut record.comment, text),
                    }
                }
                ';' => self.skip_line(),
                '(' => self.variation()?,
                '[' => {
                    return Err(self.syntax(
                        "a tag after the moves (one game per record; is the result marker missing?)",
                    ));
                }
                '}' | ')' | ']' => {
                    self.bump();
                    return Err(RecordError::Syntax {
                        line,
                        message: format!("unexpected '{c}'"),
                    });
                }
                '"' => {
                    self.bump();
                    let mut text = String::new();
                    loop {
                        match self.bump() {
                            None => {
                                return Err(RecordError::Truncated {
                                    line,
                                    message: "a quoted action is never closed".to_owned(),
                                });
                            }
                            Some('"') => break,
                            Some('\\') => match self.bump() {
                                Some(c) => text.push(c),
                                None => {
                                    return Err(RecordError::Truncated {
                                        line,
                                        message: "a quoted action is never closed".to_owned(),
                                    });
                                }
                            },
                            Some(c) => text.push(c),
                        }
                    }
                    push_action(&mut record, text, line)?;
                }
                _ => {
                    let mut token = String::new();
                    while let Some(c) = self.peek() {
                        if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '"' | '[')
                        {
                            break;
                        }
                        token.push(c);
                        self.bump();
                    }
                    if token.starts_with('$') {
                        continue; // a NAG
                    }
                    if let Some(result) = parse_marker(&token) {
                        record.lines.end = line;
                        self.finish(&mut record, result, &token, line, multi)?;
                        return Ok(record);
                    }
                    let (_, rest) = split_move_number(&token);
                    let mut rest = rest;
                    if record.game == GameId::Chess {
                        rest = rest.trim_end_matches(['!', '?']);
                    }
                    if !rest.is_empty() {
                        push_action(&mut record, rest.to_owned(), line)?;
                    }
                }
            }
        }
    }

    /// After the result marker: only blank space and comments may follow.
    fn finish(
        &mut self,
        record: &mut Record,
        marker: Option<Option<Team>>,
        token: &str,
        line: usize,
        multi: bool,
    ) -> Result<(), RecordError> {
        match (record.result, marker) {
            (None, None) => {}
            (Some(r), Some(w)) if r.winner == w => {}
            (None, Some(w)) if record.lines.result == 0 => {
                record.result = Some(RecordResult {
                    winner: w,
                    reason: None,
                });
            }
            _ => {
                return Err(RecordError::Syntax {
                    line,
                    message: format!("the result marker '{token}' differs from the Result tag"),
                });
            }
        }
        loop {
            self.skip_space();
            match self.peek() {
                None => return Ok(()),
                Some('{') => {
                    while let Some(c) = self.bump() {
                        if c == '}' {
                            break;
                        }
                    }
                }
                Some(';') => self.skip_line(),
                Some(_) if multi => return Ok(()),
                Some(_) => {
                    return Err(self.syntax(
                        "text after the result marker (a record holds one game; \
                         a file of several games is read game by game)",
                    ));
                }
            }
        }
    }

    /// Skips a `( variation )`, nested ones and comments inside included.
    fn variation(&mut self) -> Result<(), RecordError> {
        let line = self.line;
        let mut depth = 0usize;
        loop {
            match self.bump() {
                None => {
                    return Err(RecordError::Truncated {
                        line,
                        message: "a (variation) is never closed".to_owned(),
                    });
                }
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some('{') => {
                    while let Some(c) = self.bump() {
                        if c == '}' {
                            break;
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
}

/// Refuses a text longer than any record may be, before reading it.
fn check_size(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(RecordError::TooLarge {
            line: 1,
            what: "too much text",
            limit: format!("{} MiB", MAX_TEXT_BYTES / (1024 * 1024)),
        });
    }
    Ok(())
}

fn push_action(record: &mut Record, text: String, line: usize) -> Result<(), RecordError> {
    if record.actions.len() == MAX_ACTIONS {
        return Err(RecordError::TooLarge {
            line,
            what: "too many actions in one game",
            limit: format!("{MAX_ACTIONS} actions"),
        });
    }
    record.actions.push(RecordedAction {
        text,
        comment: None,
        line,
    });
    Ok(())
}

fn append_comment(slot: &mut Option<String>, text: String) {
    match slot {
        Some(c) => {
            c.push(' ');
            c.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// Builds the record's header from its tags, checking each known tag.
fn build_header(tags: &[(String, String, usize)]) -> Result<Record, RecordError> {
    let find = |name: &str| tags.iter().find(|(k, _, _)| k == name);
    let bad = |(k, _, line): &(String, String, usize), reason: String| RecordError::BadTag {
        line: *line,
        tag: k.clone(),
        reason,
    };
    let game = match find("Game") {
        None => GameId::Chess,
        Some(t) => t.1.parse::<GameId>().map_err(|e| bad(t, e.to_string()))?,
    };
    let mut options = Vec::new();
    if let Some(t) = find("Options") {
        for item in t.1.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((k, v)) = item.split_once('=') else {
                return Err(bad(t, format!("'{item}' is not key=value")));
            };
            options.push((k.trim().to_owned(), v.trim().to_owned()));
        }
        AnyGame::new(game, &options).map_err(|e| bad(t, e.to_string()))?;
    }
    let mut record = Record::new(game, options);
    if let Some(t) = find("Seed") {
        let seed: Seed = t.1.parse().map_err(|_| {
            bad(
                t,
                format!(
                    "'{}' is not a seed (a number 0..=18446744073709551615)",
                    t.1
                ),
            )
        })?;
        record.seed = Some(seed);
    }
    if let Some(t) = find("Variant") {
        let v = t.1.to_ascii_lowercase();
        if game == GameId::Chess && !matches!(v.as_str(), "standard" | "chess" | "from position") {
            return Err(bad(t, format!("chess variant '{}' is not supported", t.1)));
        }
    }
    if let Some(t) = find("FEN") {
        record.start = Some(t.1.clone());
        record.lines.fen = t.2;
    }
    if let Some(t) = find("SetUp")
        && t.1.trim() == "1"
        && record.start.is_none()
    {
        return Err(bad(t, "SetUp \"1\" without a FEN tag".to_owned()));
    }
    if let Some(t) = find("Date") {
        record.date = Some(t.1.clone());
    }
    if let Some(t) = find("Viewer") {
        let seat: u8 =
            t.1.trim()
                .parse()
                .ok()
                .filter(|s| *s >= 1)
                .ok_or_else(|| bad(t, format!("'{}' is not a seat number (1, 2...)", t.1)))?;
        record.viewer = Some(Player(seat - 1));
    }
    let mut reason = None;
    if let Some(t) = find("Reason") {
        reason = Some(
            parse_reason(&t.1)
                .ok_or_else(|| bad(t, format!("'{}' is not a known end reason", t.1)))?,
        );
    }
    if let Some(t) = find("Result") {
        let marker = parse_marker(t.1.trim()).ok_or_else(|| {
            bad(
                t,
                format!("'{}' is not a result (1-0, 0-1, 1/2-1/2, *)", t.1),
            )
        })?;
        record.lines.result = t.2;
        record.result = marker.map(|winner| RecordResult { winner, reason });
    }
    // Players: White/Black for chess, Seat1, Seat2... for every game.
    let mut players: Vec<(usize, String)> = Vec::new();
    for (k, v, line) in tags {
        let seat = match k.as_str() {
            "White" if game == GameId::Chess => Some(1),
            "Black" if game == GameId::Chess => Some(2),
            _ => k
                .strip_prefix("Seat")
                .map(|n| {
                    n.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=16).contains(n))
                        .ok_or_else(|| RecordError::BadTag {
                            line: *line,
                            tag: k.clone(),
                            reason: "seats are Seat1 to Seat16".to_owned(),
                        })
                })
                .transpose()?,
        };
        if let Some(seat) = seat {
            players.push((seat - 1, v.clone()));
        }
    }
    for (seat, name) in players {
        if record.players.len() <= seat {
            record.players.resize(seat + 1, "?".to_owned());
        }
        record.players[seat] = name;
    }
    // Everything else is kept as it is.
    let known = [
        "Game",
        "Options",
        "Seed",
        "FEN",
        "SetUp",
        "Date",
        "Viewer",
        "Reason",
        "Result",
        "Termination",
    ];
    for (k, v, _) in tags {
        let seat_tag = k.starts_with("Seat")
            || (game == GameId::Chess && matches!(k.as_str(), "White" | "Black"));
        if !known.contains(&k.as_str()) && !seat_tag {
            record.tags.push((k.clone(), v.clone()));
        }
    }
    Ok(record)
}
