//! The record format: round trips for every game, chess PGN, malformed
//! records, per-player records, and a parser that never panics.

mod common;

use proptest::prelude::*;
use tabula_core::{EndReason, GameId, Player, Seed, Team};
use tabula_store::{Record, RecordError, RecordedAction};

use common::{option_sets, random_game};

fn record_of(id: GameId, options: &[(String, String)], seed: u64, max: usize) -> (Record, String) {
    let (actions, game) = random_game(id, options, seed, max);
    let mut record = Record::new(id, options.to_vec());
    record.seed = Some(Seed(seed));
    record.players = vec!["Ada".to_owned(), "Bo \"B\" Bell".to_owned()];
    record.date = Some("2026.11.30".to_owned());
    record.actions = actions.into_iter().map(RecordedAction::new).collect();
    if let Some(first) = record.actions.get_mut(0) {
        first.comment = Some("opening {ply} one".to_owned());
    }
    (record, game.to_text())
}

#[test]
fn every_game_round_trips_through_its_record() {
    let mut finished = std::collections::BTreeMap::new();
    for id in GameId::ALL {
        for options in option_sets(id) {
            for seed in 1..=3u64 {
                let (record, final_text) = record_of(id, &options, seed, 1500);
                let text = record
                    .write()
                    .unwrap_or_else(|e| panic!("{id} seed {seed}: {e}"));
                let (read, game) =
                    Record::read(&text).unwrap_or_else(|e| panic!("{id} seed {seed}: {e}\n{text}"));
                assert_eq!(game.to_text(), final_text, "{id} {options:?} seed {seed}");
                assert_eq!(read.game, id);
                assert_eq!(read.options, options);
                assert_eq!(read.seed, Some(Seed(seed)));
                assert_eq!(read.players[1], "Bo \"B\" Bell");
                assert_eq!(read.actions.len(), record.actions.len());
                assert_eq!(
                    read.actions[0].comment.as_deref(),
                    Some("opening (ply) one")
                );
                // Writing what was read gives the same text.
                assert_eq!(read.write().unwrap(), text, "{id} seed {seed}");
                if let Some(outcome) = game.outcome() {
                    *finished.entry(id.as_str()).or_insert(0) += 1;
                    assert_eq!(read.result.map(|r| r.winner), Some(outcome.winner));
                } else {
                    assert!(read.result.is_none());
                    assert!(text.contains("[Result \"*\"]"));
                }
            }
        }
    }
    // Finished games are covered too, not only games cut short.
    assert_eq!(
        finished.len(),
        6,
        "games that ended by the rules: {finished:?}"
    );
}

#[test]
fn every_game_replays_to_any_ply() {
    for id in GameId::ALL {
        let (record, _) = record_of(id, &[], 7, 40);
        let text = record.write().unwrap();
        let read = Record::parse(&text).unwrap();
        let (actions, _) = random_game(id, &[], 7, 40);
        for ply in [0, 1, actions.len() / 2, actions.len()] {
            let (_, expected) = random_game(id, &[], 7, ply);
            assert_eq!(
                read.replay_to(ply).unwrap().to_text(),
                expected.to_text(),
                "{id} ply {ply}"
            );
        }
        let err = read.replay_to(actions.len() + 1).unwrap_err();
        assert!(matches!(err, RecordError::PlyOutOfRange { .. }), "{err}");
    }
}

#[test]
fn chess_records_are_plain_pgn() {
    let mut record = Record::new(GameId::Chess, vec![]);
    record.players = vec!["Morphy".into(), "Duke".into()];
    for m in [
        "e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g4f3",
    ] {
        record.actions.push(RecordedAction::new(m));
    }
    let text = record.write().unwrap();
    let tags: Vec<&str> = text.lines().take(7).collect();
    assert_eq!(
        tags,
        [
            "[Event \"?\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"Morphy\"]",
            "[Black \"Duke\"]",
            "[Result \"*\"]"
        ]
    );
    assert!(!text.contains("[Game "), "{text}");
    assert!(
        text.contains("\n1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 Bxf3 *\n"),
        "{text}"
    );
}

#[test]
fn pgn_from_other_programs_is_read() {
    // Lichess style: clock comments, NAGs, annotations, a variation, a
    // game ending in mate with its result marker.
    let pgn = r#"[Event "Casual game"]
[Site "https://lichess.org/abcdefgh"]
[Date "2026.11.30"]
[White "a"]
[Black "b"]
[Result "0-1"]
[Variant "Standard"]
[ECO "C20"]

1. f3 { [%clk 0:03:00] } 1... e5 $2 2. g4?? (2. e4 Qh4+ 3. g3) 2... Qh4# 0-1
"#;
    let (record, game) = Record::read(pgn).unwrap();
    assert_eq!(record.actions.len(), 4);
    assert_eq!(record.tag("ECO"), Some("C20"));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Team(1)));
    assert_eq!(outcome.reason, EndReason::Checkmate);
    let out = record.write().unwrap();
    assert!(out.contains("[Reason \"checkmate\"]"), "{out}");
    assert!(
        out.contains("1. f3 {[%clk 0:03:00]} e5 2. g4 Qh4# 0-1"),
        "{out}"
    );
}

#[test]
fn chess_from_a_set_up_position() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
    let pgn = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"*\"]\n\n40... Kd7 41. e4 *\n");
    let (record, game) = Record::read(&pgn).unwrap();
    assert_eq!(record.start.as_deref(), Some(fen));
    assert!(game.to_text().starts_with("8/3k4/8/8/4P3/8/8/4K3 b"));
    let out = record.write().unwrap();
    assert!(out.contains("40... Kd7 41. e4 *"), "{out}");
    assert!(
        out.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"),
        "{out}"
    );
}

fn err(text: &str) -> RecordError {
    match Record::read(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

#[test]
fn malformed_records_give_errors_naming_the_line() {
    // Bad tags.
    let e = err("[Event \"x\"]\n[Date 2026]\n\n1. e4 *\n");
    assert!(matches!(e, RecordError::BadTag { line: 2, .. }), "{e}");
    assert!(e.to_string().starts_with("line 2: bad tag Date"), "{e}");
    let e = err("[Event \"x\"]\n[Result \"2-0\"]\n\n*\n");
    assert!(matches!(e, RecordError::BadTag { line: 2, .. }), "{e}");
    let e = err("[Event \"x\"]\n[Event \"y\"]\n*\n");
    assert!(e.to_string().contains("given twice"), "{e}");
    let e = err("[Game \"skirmish\"]\n[Options \"mode=expert\"]\n*\n");
    assert!(matches!(e, RecordError::BadTag { line: 2, .. }), "{e}");
    assert!(e.to_string().contains("mode"), "{e}");
    let e = err("[Reason \"boredom\"]\n[Result \"1-0\"]\n1-0\n");
    assert!(e.to_string().contains("line 1: bad tag Reason"), "{e}");
    // Unknown game.
    let e = err("[Event \"x\"]\n[Game \"go\"]\n\n*\n");
    assert_eq!(
        e.to_string(),
        "line 2: bad tag Game: unknown game 'go' (known: chess, epoch, skirmish, warrior, covenant, lytharia)"
    );
    // An illegal action: its line, ply and the game's reason.
    let e = err("[Result \"*\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n");
    match &e {
        RecordError::IllegalAction {
            line, ply, text, ..
        } => {
            assert_eq!((*line, *ply, text.as_str()), (4, 3, "Ke3"));
        }
        other => panic!("{other}"),
    }
    assert!(
        e.to_string()
            .starts_with("line 4: ply 3: illegal action 'Ke3': "),
        "{e}"
    );
    // Truncated files.
    let e = err("[Event \"x\"]\n\n1. e4 e5 2. Nf3");
    assert!(matches!(e, RecordError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("no result marker"), "{e}");
    let e = err("[Event \"x\"]\n[Site \"some wh");
    assert!(matches!(e, RecordError::Truncated { line: 2, .. }), "{e}");
    let e = err("[Event \"x\"]\n\n1. e4 { a comment that never\nends");
    assert!(matches!(e, RecordError::Truncated { line: 3, .. }), "{e}");
    let e = err("[Game \"lytharia\"]\n\n1. \"shuffle 0 1.2");
    assert!(matches!(e, RecordError::Truncated { line: 3, .. }), "{e}");
    assert!(matches!(err(""), RecordError::Empty));
    assert!(matches!(err("\n  \n"), RecordError::Empty));
    // Structure.
    let e = err("1. e4 * 2. e5\n");
    assert!(e.to_string().contains("after the result marker"), "{e}");
    let e = err("[Result \"1-0\"]\n1. e4 0-1\n");
    assert!(e.to_string().contains("differs from the Result tag"), "{e}");
    let e = err("1. e4 } *\n");
    assert!(matches!(e, RecordError::Syntax { line: 1, .. }), "{e}");
    // A winner who is not at the table (found by cargo-fuzz).
    let e = err("1. e4 0-0-1\n");
    assert!(
        e.to_string()
            .contains("team 3 is not at this table (2 teams)"),
        "{e}"
    );
    // A result the replay contradicts.
    let e = err("[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert!(
        matches!(e, RecordError::ResultMismatch { line: 1, .. }),
        "{e}"
    );
    // Actions after the end.
    let e = err("1. f3 e5 2. g4 Qh4# 3. e4 0-1\n");
    assert!(matches!(e, RecordError::AfterEnd { ply: 5, .. }), "{e}");
}

#[test]
fn a_wrong_seed_is_caught_at_the_first_chance_outcome() {
    for id in [GameId::Skirmish, GameId::Lytharia] {
        let (mut record, _) = record_of(id, &[], 11, 200);
        let text = record.write().unwrap();
        assert!(Record::read(&text).is_ok());
        record.seed = Some(Seed(12));
        let text = record.write().unwrap();
        let e = err(&text);
        assert!(
            matches!(e, RecordError::ChanceMismatch { seed: 12, .. }),
            "{id}: {e}"
        );
        assert!(
            e.to_string().contains("wrong seed or altered record"),
            "{e}"
        );
        // A seed that is not a number.
        let bad = text.replace("[Seed \"12\"]", "[Seed \"twelve\"]");
        let e = err(&bad);
        assert!(
            matches!(e, RecordError::BadTag { ref tag, .. } if tag == "Seed"),
            "{e}"
        );
        // Without a seed the outcomes are taken as written.
        record.seed = None;
        assert!(Record::read(&record.write().unwrap()).is_ok());
    }
}

#[test]
fn per_player_records_hide_what_the_player_did_not_see() {
    let (record, _) = record_of(GameId::Lytharia, &[], 5, 120);
    let full = record.write().unwrap();
    assert!(full.contains("[Seed \"5\"]"));
    assert!(full.contains("\"shuffle 0 "), "{full}");
    for seat in [Player(0), Player(1)] {
        let mine = record.write_for(seat).unwrap();
        assert!(!mine.contains("[Seed "), "{mine}");
        assert!(
            mine.contains(&format!("[Viewer \"{}\"]", seat.0 + 1)),
            "{mine}"
        );
        // Shuffles are written without their order.
        assert!(!mine.contains("\"shuffle 0 "), "{mine}");
        assert!(mine.contains("\"shuffle deck 1\""), "{mine}");
        assert_ne!(mine, full);
        let read = Record::parse(&mine).unwrap();
        assert_eq!(read.viewer, Some(seat));
        assert_eq!(read.actions.len(), record.actions.len());
        let e = read.replay().unwrap_err();
        assert!(matches!(e, RecordError::PerPlayer { .. }), "{e}");
    }
    let e = record.write_for(Player(2)).unwrap_err();
    assert!(
        e.to_string()
            .contains("seat 3 is not at this table (2 seats)"),
        "{e}"
    );
    // The two players' records differ: each names its own cards only.
    assert_ne!(
        record.write_for(Player(0)).unwrap(),
        record.write_for(Player(1)).unwrap()
    );
    // Perfect-information games: a player's record shows every action.
    let (chess, _) = record_of(GameId::Chess, &[], 5, 30);
    let full = chess.write().unwrap();
    let mine = chess.write_for(Player(0)).unwrap();
    let moves = |t: &str| t.split("\n\n").nth(1).unwrap_or("").to_owned();
    assert_eq!(moves(&full), moves(&mine));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn the_parser_never_panics_on_any_text(text in "\\PC{0,300}") {
        let _ = Record::read(&text);
    }

    #[test]
    fn the_parser_never_panics_on_record_like_text(
        text in "(\\[[A-Za-z]{1,6} \"[a-z0-9 .=;*/-]{0,12}\"\\]\n){0,5}([0-9]{1,2}\\.{1,3} |[a-hNBRQKx1-8+#=-]{1,5} |\\{[a-z ]{0,5}\\} |\\( |\\) |\"[a-z ]{0,6}\" |1-0|0-1|1/2-1/2|\\*|\n){0,30}"
    ) {
        let _ = Record::read(&text);
    }

    #[test]
    fn mutated_records_never_panic(cut in 0usize..4000, insert in "\\PC{0,3}", id in 0usize..6) {
        let id = GameId::ALL[id];
        let (record, _) = record_of(id, &[], 3, 30);
        let text = record.write().unwrap();
        let mut cut = cut.min(text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let truncated = &text[..cut];
        let _ = Record::read(truncated);
        let mutated = format!("{truncated}{insert}{}", &text[cut..]);
        if let Ok((record, game)) = Record::read(&mutated) {
            // Whatever replays writes a record that replays the same.
            let again = Record::read(&record.write().unwrap()).unwrap().1;
            prop_assert_eq!(again.to_text(), game.to_text());
        }
    }
}
