//! `tabula loadtest` through the real binary: a small run plays tables of
//! every game over WebSocket and finds every acknowledged action stored.

use std::process::Command;

use serde_json::Value;

#[test]
fn a_small_load_loses_no_action() {
    let db = std::env::temp_dir().join(format!("tabula-cli-loadtest-{}.db", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["loadtest", "--tables", "7", "--actions-per-table", "10"])
        .args(["--seed", "3", "--json", "--db"])
        .arg(&db)
        .output()
        .expect("the tabula binary runs");
    for suffix in ["", "-wal", "-shm"] {
        let mut name = db.clone().into_os_string();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    // Seven tables: one of every game id, and four-seat Warrior Chess.
    assert_eq!(report["tables"], 7, "{report}");
    assert_eq!(report["connections"], 2 * 6 + 4, "{report}");
    for game in [
        "chess", "epoch", "skirmish", "warrior", "covenant", "lytharia",
    ] {
        let played = report["actions_per_game"][game].as_u64().unwrap_or(0);
        assert!(played > 0, "no {game} action acknowledged: {report}");
    }
    // No game of these ends within ten actions, so each table plays all ten.
    assert_eq!(report["acknowledged_actions"], 70, "{report}");
    assert_eq!(report["tables_checked"], 7, "{report}");
    assert_eq!(report["lost_actions"], 0, "{report}");
    assert_eq!(report["mismatched_tables"], 0, "{report}");
    assert!(
        report["faults"].as_object().is_some_and(|f| f.is_empty()),
        "{report}"
    );
    let p99 = report["latency_ms"]["p99"].as_f64().unwrap_or(0.0);
    assert!(p99 > 0.0, "no latency measured: {report}");
}

#[test]
fn bad_options_are_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["loadtest", "--tables", "0"])
        .output()
        .expect("the tabula binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--tables"));
    let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["loadtest", "--url", "http://127.0.0.1:9"])
        .output()
        .expect("the tabula binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--db"));
}
