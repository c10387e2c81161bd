//! `tabula uci` as a chess GUI or match tool drives it: a scripted session
//! through the binary's stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tabula_core::GameId;
use tabula_games::AnyGame;

struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Session {
    fn start(game: &str) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["uci", "--game", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("tabula starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "the engine ended before '{prefix}': {lines:?}");
            let line = line.trim_end().to_owned();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn best_move(&mut self) -> String {
        let lines = self.until("bestmove");
        let last = lines.last().unwrap();
        last.split_whitespace().nth(1).unwrap().to_owned()
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// Whether `best` (UCI text, the chess canonical form) is legal after
/// `moves` from `fen`.
fn chess_legal(fen: &str, moves: &[&str], best: &str) -> bool {
    let mut game = AnyGame::from_text(GameId::Chess, fen, &[]).unwrap();
    for m in moves {
        game.apply(m).unwrap();
    }
    game.legal_actions().iter().any(|a| a.canonical == best)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn a_chess_gui_session_gets_legal_moves_and_mates() {
    let mut s = Session::start("chess");
    s.send("uci");
    let hello = s.until("uciok");
    assert!(
        hello.iter().any(|l| l.starts_with("id name tabula")),
        "{hello:?}"
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    s.send("setoption name Hash value 16");
    s.send("isready");
    s.until("readyok");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5 g1f3");
    s.send("go depth 4");
    let lines = s.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4"))
        .unwrap();
    for field in ["score cp", "nodes", "nps", "time", "pv"] {
        assert!(info.contains(field), "{info}");
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(
        chess_legal(START, &["e2e4", "e7e5", "g1f3"], best),
        "{best}"
    );

    // Mate in one is found and announced.
    s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.send("go movetime 200");
    let lines = s.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove d1d8");

    // Clock time: the engine answers with a legal move.
    s.send("position startpos moves d2d4");
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let best = s.best_move();
    assert!(chess_legal(START, &["d2d4"], &best), "{best}");
    s.quit();
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let mut s = Session::start("chess");
    s.send("position startpos moves e2e4");
    s.send("go infinite");
    // Once it reports, it is searching: stop it.
    s.until("info depth");
    s.send("stop");
    let best = s.best_move();
    assert!(chess_legal(START, &["e2e4"], &best), "{best}");
    s.quit();
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut s = Session::start("chess");
    s.send("position startpos moves e2e4");
    s.send("position startpos moves e2e5");
    s.until("info string error");
    s.send("setoption name Hash value 0");
    s.until("info string error");
    s.send("go depth 2");
    let best = s.best_move();
    // Still the position after e2e4: Black answers.
    assert!(chess_legal(START, &["e2e4"], &best), "{best}");
    s.quit();
}

#[test]
fn the_epoch_dialect_reads_position_text_and_epoch_moves() {
    let mut s = Session::start("epoch");
    s.send("uci");
    s.until("uciok");
    let mut game = AnyGame::new(GameId::Epoch, &[]).unwrap();
    game.apply("g3g7").unwrap();
    s.send(&format!("position text {}", game.to_text()));
    s.send("go depth 2");
    let best = s.best_move();
    let mv = game.parse_action(&best).unwrap();
    assert!(game.legal_actions().contains(&mv), "{best}");

    // A new game forgets the table, so the same search repeats exactly.
    s.send("ucinewgame");
    s.send("position startpos moves g3g7");
    s.send("go depth 2");
    let again = s.best_move();
    assert_eq!(again, best, "the same position either way");
    s.quit();
}

/// Debian's Stockfish, where `.ci/run` installs it, or `TABULA_STOCKFISH`.
fn stockfish() -> String {
    std::env::var("TABULA_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into())
}

#[test]
fn a_short_match_against_stockfish_through_uci() {
    // CI installs Stockfish and sets TABULA_REQUIRE_STOCKFISH, so the test
    // cannot pass there by skipping; a developer without it is told.
    let program = stockfish();
    if !std::path::Path::new(&program).exists() {
        assert!(
            std::env::var_os("TABULA_REQUIRE_STOCKFISH").is_none(),
            "Stockfish is required (TABULA_REQUIRE_STOCKFISH) but {program} is not there"
        );
        eprintln!("skipped: no Stockfish at {program} (TABULA_STOCKFISH names one)");
        return;
    }
    let mut other = Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("stockfish starts");
    let mut sf = Session {
        input: other.stdin.take().unwrap(),
        output: BufReader::new(other.stdout.take().unwrap()),
        child: other,
    };
    sf.send("uci");
    sf.until("uciok");
    // The weakest level: the match tests the protocol both ways and that
    // tabula converts a won game, not who is stronger.
    sf.send("setoption name Skill Level value 0");
    sf.send("setoption name Threads value 1");
    sf.send("isready");
    sf.until("readyok");
    let mut tabula = Session::start("chess");
    tabula.send("uci");
    tabula.until("uciok");
    tabula.send("isready");
    tabula.until("readyok");

    let mut points = 0.0;
    for game_number in 0..2 {
        // tabula has White in the first game, Black in the second.
        let tabula_side = game_number;
        let mut game = AnyGame::from_text(GameId::Chess, START, &[]).unwrap();
        let mut moves: Vec<String> = Vec::new();
        tabula.send("ucinewgame");
        sf.send("ucinewgame");
        while game.outcome().is_none() && moves.len() < 300 {
            let engine = if moves.len() % 2 == tabula_side {
                &mut tabula
            } else {
                &mut sf
            };
            engine.send(&format!("position startpos moves {}", moves.join(" ")));
            engine.send("go movetime 30");
            let best = engine.best_move();
            let played = game
                .apply(&best)
                .unwrap_or_else(|e| panic!("{best} after {moves:?}: {e}"));
            moves.push(played.canonical);
        }
        let outcome = game.outcome();
        match outcome.as_ref().and_then(|o| o.winner) {
            Some(t) if usize::from(t.0) == tabula_side => points += 1.0,
            Some(_) => {}
            None => points += 0.5,
        }
        eprintln!(
            "game {}: {outcome:?} after {} plies",
            game_number + 1,
            moves.len()
        );
    }
    assert!(
        points >= 1.0,
        "tabula scored {points} of 2 against Skill Level 0"
    );
    tabula.quit();
    sf.quit();
}
