//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tabula_core::GameId;

/// Play and inspect the tabula chess variants.
#[derive(Debug, Parser)]
#[command(name = "tabula", version, about, long_about = None)]
pub struct Cli {
    /// What to do; without one, `serve` on its defaults (so `cargo run
    /// --release` from the repository root starts the server).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games: id, title and the options each takes.
    Games {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the Lytharian Chess card set, or the cards matching a search.
    Cards {
        /// Only cards whose id, name, text or stats contain this (case-insensitive).
        search: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the starting position of a game.
    New {
        #[command(flatten)]
        game: GameArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the legal actions, one a line.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        /// Start from this position text instead of the initial position.
        #[arg(long, short = 'p', value_name = "TEXT")]
        position: Option<String>,
        /// Which notation to print.
        #[arg(long, value_enum, default_value_t = Notation::Game)]
        notation: Notation,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the table protocol's view of a game as JSON (docs/protocol.md).
    View {
        #[command(flatten)]
        game: GameArgs,
        /// Start from this position text instead of the initial position.
        #[arg(long, short = 'p', value_name = "TEXT")]
        position: Option<String>,
        /// Whose view: a seat counted from 1, or `spectator`; default the
        /// seat to act (the spectator when chance decides or the game is over).
        #[arg(long, value_name = "SEAT|spectator")]
        viewer: Option<String>,
        /// Draw chance outcomes (dice, shuffles) from this seed whenever
        /// chance decides, before and after the actions.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the game's catalog (board, pieces, cards) instead.
        #[arg(long)]
        catalog: bool,
        /// Actions to play first, in any notation the game accepts.
        #[arg(value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// Play actions and print the resulting position (and the outcome, if the game ended).
    Apply {
        #[command(flatten)]
        game: GameArgs,
        /// Start from this position text instead of the initial position.
        #[arg(long, short = 'p', value_name = "TEXT")]
        position: Option<String>,
        /// The actions, in any notation the game accepts.
        #[arg(value_name = "MOVE")]
        moves: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the game tree to a depth (node count alone on the last line).
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// How many decisions deep to count.
        depth: u32,
        /// Start from this position text instead of the initial position.
        #[arg(long, short = 'p', value_name = "TEXT")]
        position: Option<String>,
        /// Also print the count below each first action.
        #[arg(long)]
        divide: bool,
        /// Draw the opening chance outcomes (a shuffled deck) from this
        /// seed before counting.
        #[arg(long)]
        seed: Option<u64>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal, hotseat or against the built-in computer player.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Start from this position text instead of the initial position.
        #[arg(long, short = 'p', value_name = "TEXT")]
        position: Option<String>,
        /// Seats the computer plays, counted from 1 (`2`, `1,2`), or `none` for hotseat
        /// [default: the seats not on seat 1's team; when resuming, the seats it had].
        #[arg(long, value_name = "SEATS")]
        computer: Option<String>,
        /// Seed for chance (dice, shuffles) and the computer player, so the game can be replayed.
        #[arg(long)]
        seed: Option<u64>,
        /// Wait this many milliseconds after each computer or chance action
        /// (a pace for watching `--computer 1,2`).
        #[arg(long, value_name = "MS")]
        delay: Option<u64>,
        /// The computer's strength: random, greedy, easy, medium, hard, expert (docs/ai.md).
        #[arg(long, default_value = "medium", value_name = "LEVEL")]
        level: tabula_ai::Level,
        /// Threads for each of the computer's tree searches (root parallel:
        /// the level's iterations shared by T trees, so it answers sooner on
        /// a machine with T free cores; the alpha-beta engine ignores it).
        #[arg(long, default_value_t = 1, value_name = "T",
              value_parser = clap::value_parser!(u32).range(1..=64))]
        search_threads: u32,
        #[command(flatten)]
        db: DbArgs,
        /// Do not save the game.
        #[arg(long, conflicts_with = "resume")]
        no_save: bool,
        /// Continue a saved, unfinished game (its id, as the game's start or `tabula record list` shows it).
        #[arg(long, value_name = "ID", conflicts_with = "position")]
        resume: Option<i64>,
    },
    /// Play computer players against each other and sum up the result (docs/ai.md).
    Match {
        #[command(flatten)]
        game: GameArgs,
        /// The first player: a level (random, greedy, easy, medium, hard, expert),
        /// optionally with an iteration budget (`medium:500`; nodes for
        /// chess and Epoch at hard and expert) or a depth (`expert:d3`),
        /// and the tree search's choice replaced by `@TEMPERATURE/MARGIN`
        /// (`medium@0/0` plays the most searched action).
        #[arg(long, value_name = "SPEC")]
        a: crate::arena::Spec,
        /// The second player, as `--a`.
        #[arg(long, value_name = "SPEC")]
        b: crate::arena::Spec,
        /// Games to play; seats alternate between games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Threads for each decision of the tree search (root parallel:
        /// independent trees sharing the budget, their root statistics
        /// summed). Results depend on this number, not on the machine.
        #[arg(long, default_value_t = 1, value_name = "T",
              value_parser = clap::value_parser!(u32).range(1..=64))]
        search_threads: u32,
        /// The series seed: the same seed replays the same games (under
        /// iteration budgets).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A time limit per decision for the searching levels, in
        /// milliseconds (then results depend on the machine's speed).
        #[arg(long, value_name = "MS")]
        time_per_move: Option<u64>,
        /// Stop early by a sequential probability ratio test between two
        /// Elo differences, as fishtest does (`0,50`).
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<String>,
        /// Save every game's record in this directory.
        #[arg(long, value_name = "DIR")]
        records: Option<PathBuf>,
        /// A game still going after this many actions counts as a draw.
        #[arg(long, default_value_t = 3000)]
        max_plies: usize,
        /// Play the first N decisions of every game at random (from the
        /// game's seed), so two searches do not replay the same game.
        #[arg(long, default_value_t = 0, value_name = "N")]
        random_opening: usize,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Measure random playouts, search iterations and evaluations per second for every game.
    Bench {
        /// Only this game (default: every game and mode).
        game: Option<GameId>,
        /// About how long to measure each figure, in seconds.
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// Print JSON lines instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Serve every game over HTTP and WebSocket until Ctrl-C (docs/api.md).
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
        addr: std::net::SocketAddr,
        #[command(flatten)]
        store: ServeStoreArgs,
    },
    /// Load a server with many concurrent tables of every game played by
    /// seeded random clients over WebSocket; report throughput, latency and
    /// memory, then check every table's stored record.
    Loadtest(crate::loadtest::LoadtestArgs),
    /// Speak UCI on stdin/stdout with the alpha-beta engine: standard UCI
    /// for chess, the Epoch dialect of docs/ai.md for Epoch.
    Uci {
        /// The game: chess or epoch.
        #[arg(long, value_enum, default_value = "chess")]
        game: crate::uci::UciGame,
    },
    /// Game records: replay a record file, import it into the database, export a stored game.
    Record {
        /// What to do with records.
        #[command(subcommand)]
        command: RecordCommand,
    },
}

/// The `record` subcommands.
#[derive(Debug, Subcommand)]
pub enum RecordCommand {
    /// Check a record and print the position at a ply (default: the end).
    Replay {
        /// The record file (`-` for stdin).
        file: PathBuf,
        /// The ply to stop at: 0 is the start, 1 after the first action.
        #[arg(long)]
        ply: Option<usize>,
        /// Which game of a file of several, counted from 1.
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Validate every action of a record and store it; prints the new game id.
    Import {
        /// The record file (`-` for stdin).
        file: PathBuf,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Print a stored game's record.
    Export {
        /// The game id, as `import` or `list` print it.
        id: i64,
        #[command(flatten)]
        db: DbArgs,
        /// Only what this seat (1, 2...) saw: hidden cards and shuffles left out.
        #[arg(long, value_name = "SEAT")]
        viewer: Option<u8>,
    },
    /// List the stored games: id, game, actions, result.
    List {
        #[command(flatten)]
        db: DbArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// The database `tabula play` and `tabula record` use unless told otherwise.
pub const DEFAULT_DB: &str = "tabula.db";

/// The game store: `--db PATH`, else `$TABULA_DB`, else `tabula.db`.
#[derive(Debug, Args)]
pub struct DbArgs {
    /// The game store, an SQLite file (`play` and `record import` create it).
    #[arg(long = "db", env = "TABULA_DB", default_value = DEFAULT_DB, value_name = "PATH")]
    pub path: PathBuf,
}

/// The server's game store: `--database-url URL` or `--db PATH` (not
/// both), else `$TABULA_DATABASE_URL`, else `$TABULA_DB`, else the SQLite
/// file in the per-user data directory. The variables are read by hand, not
/// by clap, so that a flag always beats a variable: `TABULA_DB` set for
/// `tabula play` does not stop `--database-url` (clap would call the two a
/// conflict).
#[derive(Debug, Args)]
pub struct ServeStoreArgs {
    /// The game store, an SQLite file, created if missing [env: TABULA_DB]
    /// [default: tabula/tabula.db in the user's data directory, e.g.
    /// ~/.local/share].
    #[arg(long = "db", value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// A PostgreSQL database instead (`postgres://USER:PASSWORD@HOST/DBNAME`
    /// or `host=... user=... dbname=...`), which several servers may share;
    /// needs a build with `--features postgres` [env: TABULA_DATABASE_URL].
    #[arg(long, value_name = "URL", conflicts_with = "path")]
    pub database_url: Option<String>,
}

impl ServeStoreArgs {
    /// The SQLite path and PostgreSQL URL to open, at most one of them set.
    pub fn resolve(&self) -> (Option<PathBuf>, Option<String>) {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        match (&self.path, &self.database_url) {
            (Some(path), _) => (Some(path.clone()), None),
            (None, Some(url)) => (None, Some(url.clone())),
            (None, None) => match var("TABULA_DATABASE_URL") {
                Some(url) => (None, Some(url)),
                None => (var("TABULA_DB").map(PathBuf::from), None),
            },
        }
    }
}

/// Which notation `moves` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// The game's own notation (chess: SAN).
    Game,
    /// The context-free canonical form (chess: UCI).
    Canonical,
}

/// The game and its options, accepted by every subcommand that takes a game.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game id: chess, epoch, skirmish, warrior, covenant, lytharia.
    pub game: GameId,
    /// Game mode (skirmish: basic|advanced; lytharia: full|duel|pawn-wars|chess).
    #[arg(long)]
    pub mode: Option<String>,
    /// Number of players (warrior: 2|4).
    #[arg(long)]
    pub players: Option<String>,
    /// Scenario name (covenant).
    #[arg(long)]
    pub scenario: Option<String>,
    /// Attack bonus (skirmish).
    #[arg(long, allow_hyphen_values = true)]
    pub attack_bonus: Option<String>,
    /// The King's value (skirmish).
    #[arg(long)]
    pub king_value: Option<String>,
    /// Decks, comma-separated (lytharia).
    #[arg(long)]
    pub decks: Option<String>,
    /// Draw rules (chess: automatic|fide).
    #[arg(long)]
    pub draw_rules: Option<String>,
    /// Any other option as KEY=VALUE; repeatable.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl GameArgs {
    /// The options given, as `(key, value)` pairs in a fixed order.
    pub fn option_pairs(&self) -> anyhow::Result<Vec<(String, String)>> {
        let mut pairs = Vec::new();
        let named = [
            ("mode", &self.mode),
            ("players", &self.players),
            ("scenario", &self.scenario),
            ("attack-bonus", &self.attack_bonus),
            ("king-value", &self.king_value),
            ("decks", &self.decks),
            ("draw-rules", &self.draw_rules),
        ];
        for (key, value) in named {
            if let Some(value) = value {
                pairs.push((key.to_owned(), value.clone()));
            }
        }
        for item in &self.options {
            let Some((key, value)) = item.split_once('=') else {
                anyhow::bail!("option '{item}' is not KEY=VALUE");
            };
            let key = key.trim().replace('_', "-");
            // `--mode advanced -o mode=basic`: two answers to one question.
            if let Some((_, earlier)) = pairs.iter().find(|(k, _)| *k == key) {
                anyhow::bail!(
                    "option '{key}' is given twice ('{earlier}' and '{}'): give it once",
                    value.trim()
                );
            }
            pairs.push((key, value.trim().to_owned()));
        }
        Ok(pairs)
    }
}
