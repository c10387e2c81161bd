//! Reading records from strangers: files of several games, size caps with
//! a clear error, null moves named.

use tabula_core::GameId;
use tabula_store::record::{MAX_ACTIONS, MAX_TAGS, MAX_TEXT_BYTES};
use tabula_store::{Record, RecordError};

const MATE: &str = "[Event \"one\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
const SCHOLAR: &str =
    "[Event \"two\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

#[test]
fn a_file_of_several_games_reads_game_by_game_with_their_lines() {
    let text = format!("{MATE}\n{SCHOLAR}\n[Game \"epoch\"]\n\n1. Pg1-f2 *\n");
    let records = Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0].tag("Event"), Some("one"));
    assert_eq!(records[1].tag("Event"), Some("two"));
    assert_eq!(records[2].game, GameId::Epoch);
    assert_eq!(records[0].first_line(), 1);
    assert_eq!(records[1].first_line(), 6);
    // Actions keep their line in the file.
    assert_eq!(records[1].actions[0].line, 9);
    assert!(records[1].replay().unwrap().outcome().is_some());
    // One game per record for `parse`, with a pointer to the way out.
    match Record::parse(&text) {
        Err(RecordError::Syntax { line: 6, message }) => {
            assert!(message.contains("game by game"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    // A broken second game names its line in the file.
    let broken = format!("{MATE}\n[Event \"x\n");
    assert!(matches!(
        Record::parse_all(&broken),
        Err(RecordError::BadTag { line: 6, .. })
    ));
}

#[test]
fn many_tags_are_refused_past_the_cap_with_their_line() {
    let tags = |n: usize| -> String {
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("[T{i} \"v\"]\n"));
        }
        text.push_str("\n*\n");
        text
    };
    let ok = Record::parse(&tags(MAX_TAGS)).unwrap();
    assert_eq!(ok.tags.len(), MAX_TAGS);
    match Record::parse(&tags(20_000)) {
        Err(RecordError::TooLarge { line, what, .. }) => {
            assert_eq!(line, MAX_TAGS + 1);
            assert!(what.contains("tags"), "{what}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn too_many_actions_or_too_much_text_are_refused() {
    let mut text = String::from("[Game \"epoch\"]\n\n");
    for _ in 0..=MAX_ACTIONS {
        text.push_str("x ");
    }
    text.push('*');
    let e = Record::parse(&text).unwrap_err();
    assert!(
        matches!(e, RecordError::TooLarge { what, .. } if what.contains("actions")),
        "{e}"
    );
    let huge = format!("{{{}}} *", " ".repeat(MAX_TEXT_BYTES));
    let e = Record::parse_all(&huge).unwrap_err();
    assert!(
        e.to_string()
            .contains("too much text (the limit is 16 MiB)"),
        "{e}"
    );
    let comment = format!("{{{}}} *", "c".repeat(100_000));
    let e = Record::parse(&comment).unwrap_err();
    assert!(e.to_string().contains("comment"), "{e}");
}

#[test]
fn a_null_move_is_named_as_such() {
    for null in ["--", "Z0"] {
        let record = Record::parse(&format!("1. e4 {null} 2. d4 *\n")).unwrap();
        let e = record.replay().unwrap_err().to_string();
        assert!(e.contains("ply 2") && e.contains("null move"), "{e}");
    }
}
