//! The storage trait every backend implements.

use serde::{Deserialize, Serialize};
use tabula_core::{EndReason, GameId, Outcome, Seed, Team};
use thiserror::Error;

use crate::record::{Record, RecordResult, RecordedAction};

/// A stored game's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameKey(pub i64);

impl std::fmt::Display for GameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a new game is created with.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NewGame {
    /// The game.
    pub game: Option<GameId>,
    /// Options differing from the default, as `(key, value)` text.
    pub options: Vec<(String, String)>,
    /// The seed of the chance stream, if chance is drawn from one.
    pub seed: Option<u64>,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// A start position text, if not the game's initial position.
    pub start: Option<String>,
    /// The date, `YYYY.MM.DD`.
    pub date: Option<String>,
    /// Other record tags (Event, Site, Round, ECO...), kept for export.
    pub tags: Vec<(String, String)>,
}

impl NewGame {
    /// A game of `game` with default options and nothing else set.
    pub fn of(game: GameId) -> Self {
        NewGame {
            game: Some(game),
            ..NewGame::default()
        }
    }

    /// The header of a record, without its actions.
    pub fn from_record(record: &Record) -> Self {
        NewGame {
            game: Some(record.game),
            options: record.options.clone(),
            seed: record.seed.map(|s| s.0),
            players: record.players.clone(),
            start: record.start.clone(),
            date: record.date.clone(),
            tags: record.tags.clone(),
        }
    }
}

/// One line of [`Store::list_games`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The id.
    pub key: GameKey,
    /// The game.
    pub game: GameId,
    /// How many actions are stored (the next ply to append).
    pub plies: u64,
    /// The result, once set.
    pub result: Option<Outcome>,
}

/// A game as stored: its header, every action, its result, and the table
/// metadata its server keeps with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    /// The id.
    pub key: GameKey,
    /// The header it was created with.
    pub header: NewGame,
    /// The actions in order, as appended (ply 0 first).
    pub actions: Vec<String>,
    /// When each action was appended, parallel to `actions`: the writing
    /// process's wall clock in milliseconds since the Unix epoch
    /// ([`now_ms`]), `None` for an imported action or one stored before
    /// the store kept times.
    pub times: Vec<Option<i64>>,
    /// The result, once set.
    pub result: Option<Outcome>,
    /// The table metadata last set with [`Store::set_meta`] (the server's
    /// own text, opaque to the store), if any.
    pub meta: Option<String>,
}

impl StoredGame {
    /// The game's record (actions as stored; [`Record::write`] renders them
    /// in the game's notation).
    pub fn record(&self) -> Record {
        let game = self.header.game.unwrap_or(GameId::Chess);
        let mut record = Record::new(game, self.header.options.clone());
        record.seed = self.header.seed.map(Seed);
        record.players = self.header.players.clone();
        record.start = self.header.start.clone();
        record.date = self.header.date.clone();
        record.result = self.result.map(RecordResult::from);
        record.actions = self.actions.iter().map(RecordedAction::new).collect();
        record.tags = self.header.tags.clone();
        if record.tag("Event").is_none() {
            record.set_tag("Event", &format!("tabula game {}", self.key));
        }
        if record.tag("Site").is_none() {
            record.set_tag("Site", "tabula");
        }
        record
    }
}

/// One append of a batch ([`Store::append_batch`]): the game, the ply the
/// writer expects to write, and the action text.
pub type Append<'a> = (GameKey, u64, &'a str);

/// Why a storage call failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Another writer appended this ply first (optimistic versioning): reload
    /// and retry on the new state, or give up.
    #[error(
        "conflict on game {game}: expected to append ply {expected}, but the game has {actual} actions"
    )]
    Conflict {
        /// The game.
        game: GameKey,
        /// The ply the caller expected to write.
        expected: u64,
        /// The number of actions actually stored.
        actual: u64,
    },
    /// No game has this id.
    #[error("no game {0} in the store")]
    NotFound(GameKey),
    /// The request itself is wrong (no game id, a bad header).
    #[error("invalid request: {0}")]
    Invalid(String),
    /// The stored data cannot be read back (a corrupt row, a future schema).
    #[error("corrupt store: {0}")]
    Corrupt(String),
    /// The database failed (I/O, locking, SQL).
    #[error("database error: {0}")]
    Database(String),
}

/// Durable game storage. Every method is one transaction; a method that
/// returns `Ok` has made its change durable.
///
/// Actions are appended with the ply the caller expects to write (the number
/// of actions it has seen): if another writer got there first the append
/// fails with [`StoreError::Conflict`] and nothing is written, so two server
/// instances can never interleave moves in one game.
///
/// Actions are stored as given: callers validate them (through `AnyGame`)
/// before appending, and store the canonical form or the game's notation.
pub trait Store {
    /// Creates a game and returns its id.
    fn create_game(&self, new: &NewGame) -> Result<GameKey, StoreError>;

    /// Appends `action` as ply `expected_ply` (0 for the first action).
    fn append_action(
        &self,
        game: GameKey,
        expected_ply: u64,
        action: &str,
    ) -> Result<(), StoreError>;

    /// Appends many actions in one transaction (group commit: one durable
    /// commit for the whole batch). Each append is checked on its own like
    /// [`Store::append_action`]; the answer says, in order, which succeeded,
    /// and only those are written. `Err` means the transaction itself
    /// failed and nothing was written.
    fn append_batch(&self, batch: &[Append<'_>])
    -> Result<Vec<Result<(), StoreError>>, StoreError>;

    /// Takes back the last actions of an unfinished game (an undo agreed at
    /// the table): keeps its first `keep` actions. Versioned like an append:
    /// the game must have exactly `expected_ply` actions, else
    /// [`StoreError::Conflict`] and nothing changes. A finished game cannot
    /// be taken back ([`StoreError::Invalid`]).
    fn take_back(&self, game: GameKey, expected_ply: u64, keep: u64) -> Result<(), StoreError>;

    /// Stores a whole game (an import) in one transaction: its header, its
    /// actions from ply 0, and its result if any. Either all of it is
    /// stored or, on any error or crash, nothing.
    fn import_game(
        &self,
        new: &NewGame,
        actions: &[String],
        result: Option<&Outcome>,
    ) -> Result<GameKey, StoreError>;

    /// Loads a game with all its actions.
    fn load_game(&self, game: GameKey) -> Result<StoredGame, StoreError>;

    /// Every game, oldest first.
    fn list_games(&self) -> Result<Vec<GameSummary>, StoreError>;

    /// Sets (or replaces) a game's result.
    fn set_result(&self, game: GameKey, outcome: &Outcome) -> Result<(), StoreError>;

    /// Replaces a game's table metadata: what its server keeps beside the
    /// record (seat kinds, hashes of seat secrets, claims, clock settings),
    /// as the server's own text (JSON), stored as given. A text with a NUL
    /// character is refused ([`StoreError::Invalid`]).
    fn set_meta(&self, game: GameKey, meta: &str) -> Result<(), StoreError>;

    /// A game's table metadata, `None` if none was ever set.
    fn meta(&self, game: GameKey) -> Result<Option<String>, StoreError>;

    /// The games with no result yet, oldest first: the tables a server
    /// resumes when it starts.
    fn unfinished_games(&self) -> Result<Vec<GameKey>, StoreError>;
}

/// A boxed store is a store (what [`crate::open`] returns), so it can go
/// behind a [`crate::GroupCommitter`].
impl<S: Store + ?Sized> Store for Box<S> {
    fn create_game(&self, new: &NewGame) -> Result<GameKey, StoreError> {
        (**self).create_game(new)
    }
    fn append_action(&self, game: GameKey, ply: u64, action: &str) -> Result<(), StoreError> {
        (**self).append_action(game, ply, action)
    }
    fn append_batch(
        &self,
        batch: &[Append<'_>],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        (**self).append_batch(batch)
    }
    fn take_back(&self, game: GameKey, expected_ply: u64, keep: u64) -> Result<(), StoreError> {
        (**self).take_back(game, expected_ply, keep)
    }
    fn import_game(
        &self,
        new: &NewGame,
        actions: &[String],
        result: Option<&Outcome>,
    ) -> Result<GameKey, StoreError> {
        (**self).import_game(new, actions, result)
    }
    fn load_game(&self, game: GameKey) -> Result<StoredGame, StoreError> {
        (**self).load_game(game)
    }
    fn list_games(&self) -> Result<Vec<GameSummary>, StoreError> {
        (**self).list_games()
    }
    fn set_result(&self, game: GameKey, outcome: &Outcome) -> Result<(), StoreError> {
        (**self).set_result(game, outcome)
    }
    fn set_meta(&self, game: GameKey, meta: &str) -> Result<(), StoreError> {
        (**self).set_meta(game, meta)
    }
    fn meta(&self, game: GameKey) -> Result<Option<String>, StoreError> {
        (**self).meta(game)
    }
    fn unfinished_games(&self) -> Result<Vec<GameKey>, StoreError> {
        (**self).unfinished_games()
    }
}

/// A metadata text both backends can store: PostgreSQL text cannot hold a
/// NUL, so neither takes one.
pub(crate) fn check_meta(game: GameKey, meta: &str) -> Result<(), StoreError> {
    if meta.contains('\0') {
        return Err(StoreError::Invalid(format!(
            "the metadata of game {game} contains a NUL character"
        )));
    }
    Ok(())
}

impl NewGame {
    /// The game id and the JSON of the options and tags, as both backends
    /// store them.
    pub(crate) fn columns(&self) -> Result<(GameId, String, String), StoreError> {
        let game = self
            .game
            .ok_or_else(|| StoreError::Invalid("a new game needs a game id".to_owned()))?;
        let json = |pairs: &Vec<(String, String)>| {
            serde_json::to_string(pairs).map_err(|e| StoreError::Invalid(e.to_string()))
        };
        Ok((game, json(&self.options)?, json(&self.tags)?))
    }
}

/// An end reason as stored and written in records: its kebab-case name.
/// A stored outcome, checked.
pub(crate) fn outcome_from(winner: Option<i64>, reason: &str) -> Result<Outcome, StoreError> {
    let reason = EndReason::from_id(reason)
        .ok_or_else(|| StoreError::Corrupt(format!("unknown end reason '{reason}'")))?;
    let winner = match winner {
        None => None,
        Some(w) => {
            Some(Team(u8::try_from(w).map_err(|_| {
                StoreError::Corrupt(format!("winner team {w}"))
            })?))
        }
    };
    Ok(Outcome { winner, reason })
}

/// The wall clock in milliseconds since the Unix epoch, as the store
/// records it beside each appended action ([`StoredGame::times`]); a clock
/// set before 1970 reads as 0.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A ply as both backends store it (a signed 64-bit integer).
pub(crate) fn ply_column(ply: u64) -> Result<i64, StoreError> {
    i64::try_from(ply).map_err(|_| StoreError::Invalid(format!("ply {ply} is out of range")))
}

/// A game's rows as either backend reads them, before checking.
pub(crate) struct GameRows {
    /// The `games` row: game id, options JSON, seed, start, date, tags
    /// JSON, next ply.
    pub game: String,
    pub options: String,
    pub seed: Option<String>,
    pub start: Option<String>,
    pub date: Option<String>,
    pub tags: String,
    pub next_ply: i64,
    /// The table metadata.
    pub meta: Option<String>,
    /// `(seat, name)` in seat order.
    pub seats: Vec<(i64, String)>,
    /// `(ply, text, appended at)` in ply order.
    pub actions: Vec<(i64, String, Option<i64>)>,
    /// `(winner, reason)`, if a result is stored.
    pub result: Option<(Option<i64>, String)>,
}

impl GameRows {
    /// Checks the rows (JSON columns, seed, contiguous plies agreeing with
    /// the game's next ply) and builds the stored game.
    pub(crate) fn into_game(self, key: GameKey) -> Result<StoredGame, StoreError> {
        let corrupt = |what: String| StoreError::Corrupt(format!("game {key}{what}"));
        let options: Vec<(String, String)> =
            serde_json::from_str(&self.options).map_err(|e| corrupt(format!(" options: {e}")))?;
        let tags: Vec<(String, String)> =
            serde_json::from_str(&self.tags).map_err(|e| corrupt(format!(" tags: {e}")))?;
        let seed = match self.seed {
            None => None,
            Some(s) => Some(
                s.parse::<u64>()
                    .map_err(|_| corrupt(format!(" seed '{s}'")))?,
            ),
        };
        let mut players = Vec::new();
        for (seat, name) in self.seats {
            let seat = usize::try_from(seat).map_err(|_| corrupt(format!(" seat {seat}")))?;
            if players.len() <= seat {
                players.resize(seat + 1, "?".to_owned());
            }
            players[seat] = name;
        }
        let mut actions = Vec::with_capacity(self.actions.len());
        let mut times = Vec::with_capacity(self.actions.len());
        for (ply, text, at) in self.actions {
            if ply != actions.len() as i64 {
                return Err(corrupt(format!(": ply {} is missing", actions.len())));
            }
            actions.push(text);
            times.push(at);
        }
        if actions.len() as i64 != self.next_ply {
            return Err(corrupt(format!(
                ": {} actions stored but next ply is {}",
                actions.len(),
                self.next_ply
            )));
        }
        let result = match self.result {
            None => None,
            Some((winner, reason)) => Some(outcome_from(winner, &reason)?),
        };
        Ok(StoredGame {
            key,
            header: NewGame {
                game: Some(game_from(&self.game)?),
                options,
                seed,
                players,
                start: self.start,
                date: self.date,
                tags,
            },
            actions,
            times,
            result,
            meta: self.meta,
        })
    }
}

/// A stored game id, checked.
pub(crate) fn game_from(text: &str) -> Result<GameId, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("unknown game '{text}'")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> GameRows {
        GameRows {
            game: "chess".into(),
            options: "[]".into(),
            seed: Some("7".into()),
            start: None,
            date: None,
            tags: r#"[["Event","x"]]"#.into(),
            next_ply: 2,
            meta: Some("{}".into()),
            seats: vec![(0, "Ada".into()), (1, "Bo".into())],
            actions: vec![
                (0, "e2e4".into(), None),
                (1, "e7e5".into(), Some(1_764_590_400_000)),
            ],
            result: Some((Some(1), "resignation".into())),
        }
    }

    #[test]
    fn rows_become_a_stored_game() {
        let g = rows().into_game(GameKey(3)).unwrap();
        assert_eq!(g.header.players, ["Ada", "Bo"]);
        assert_eq!(g.header.seed, Some(7));
        assert_eq!(g.actions, ["e2e4", "e7e5"]);
        assert_eq!(g.times, [None, Some(1_764_590_400_000)]);
        assert_eq!(
            g.result,
            Some(Outcome::win(Team(1), EndReason::Resignation))
        );
    }

    #[test]
    fn damaged_rows_are_corrupt_errors_naming_the_game() {
        let corrupt = |r: GameRows| match r.into_game(GameKey(3)) {
            Err(StoreError::Corrupt(m)) => m,
            other => panic!("{other:?}"),
        };
        let mut r = rows();
        r.actions.remove(0);
        assert_eq!(corrupt(r), "game 3: ply 0 is missing");
        let mut r = rows();
        r.next_ply = 5;
        assert_eq!(corrupt(r), "game 3: 2 actions stored but next ply is 5");
        let mut r = rows();
        r.seed = Some("x".into());
        assert_eq!(corrupt(r), "game 3 seed 'x'");
        let mut r = rows();
        r.options = "{".into();
        assert!(corrupt(r).starts_with("game 3 options: "));
        let mut r = rows();
        r.game = "go".into();
        assert_eq!(corrupt(r), "unknown game 'go'");
        let mut r = rows();
        r.result = Some((None, "bored".into()));
        assert_eq!(corrupt(r), "unknown end reason 'bored'");
    }
}
