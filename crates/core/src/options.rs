//! Game options: house rules, variants and scenarios as typed values.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// One option a game takes, described for help text and the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// The key, as written on the command line (`--mode`) and in records.
    pub key: &'static str,
    /// The accepted values, for help: `basic|advanced`, `integer`, `1..=9`.
    pub values: &'static str,
    /// The default, as text.
    pub default: &'static str,
    /// One line saying what the option changes.
    pub help: &'static str,
}

/// An option that could not be set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    /// The game has no such option.
    #[error("{game} has no option '{key}' (it takes: {known})")]
    UnknownKey {
        /// The game's id.
        game: &'static str,
        /// The key given.
        key: String,
        /// The keys the game takes, comma-separated, or `none`.
        known: String,
    },
    /// The value is not one the option takes.
    #[error("option '{key}' cannot be '{value}': expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: &'static str,
    },
}

/// A game's options: a typed, serializable value whose `Default` is the book's
/// default game, settable key by key from text.
pub trait Options:
    Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Every option this game takes.
    fn specs() -> &'static [OptionSpec];

    /// Sets one option from its text form.
    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError>;

    /// The options that differ from the default, as `(key, value)` text pairs,
    /// for records and position listings. Setting them on a default value
    /// reproduces `self`.
    fn to_pairs(&self) -> Vec<(String, String)>;

    /// The error for a key this game does not take.
    fn unknown_key(game: &'static str, key: &str) -> OptionError {
        let known: Vec<&str> = Self::specs().iter().map(|s| s.key).collect();
        OptionError::UnknownKey {
            game,
            key: key.to_owned(),
            known: if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            },
        }
    }
}
