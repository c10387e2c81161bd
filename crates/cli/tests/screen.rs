//! What `tabula play` says happened (issue 17, "Say what happened"): the
//! table protocol's event sentences after each action, and a whole Battle
//! Duel round, played through the binary as a person at the keyboard
//! would, reading the prompts.

mod binary;

use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use binary::*;

/// A `tabula play` run driven prompt by prompt.
struct Screen {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Everything printed so far.
    seen: String,
}

impl Screen {
    fn start(args: &[&str]) -> Screen {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--computer", "none", "--no-save"]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(&all)
            .env("TABULA_DB", scratch_db())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tabula starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Screen {
            child,
            input,
            output,
            seen: String::new(),
        }
    }

    /// What is printed up to the next prompt (a line ending in "> " that
    /// waits for input), the prompt included; `None` once the game ended.
    fn until_prompt(&mut self) -> Option<String> {
        let mut text = Vec::new();
        let mut byte = [0u8];
        loop {
            if self.output.read(&mut byte).unwrap() == 0 {
                self.seen.push_str(&String::from_utf8_lossy(&text));
                return None;
            }
            text.push(byte[0]);
            if text.ends_with(b"> ") {
                let line_start = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
                let last = String::from_utf8_lossy(&text[line_start..]).into_owned();
                if last.ends_with("to move> ") || last.ends_with("press Enter> ") {
                    let text = String::from_utf8_lossy(&text).into_owned();
                    self.seen.push_str(&text);
                    return Some(text);
                }
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Waits at each handover, then types `action` at the next move prompt.
    /// `false` once the game ended.
    fn play(&mut self, action: &str) -> bool {
        loop {
            let Some(prompt) = self.until_prompt() else {
                return false;
            };
            if prompt.ends_with("press Enter> ") {
                self.send("");
                continue;
            }
            self.send(action);
            return true;
        }
    }

    /// The legal actions as `moves` lists them, one a line.
    fn moves(&mut self) -> Vec<String> {
        self.send("moves");
        let listed = self.until_prompt().expect("moves are listed");
        listed
            .lines()
            .filter_map(|l| l.strip_prefix("  "))
            .map(str::to_owned)
            .collect()
    }

    fn quit(mut self) -> String {
        // A prompt already answered by an earlier `quit` may still be
        // read here, after the game has gone: a closed pipe is the end.
        while writeln!(self.input, "quit").is_ok()
            && self.input.flush().is_ok()
            && self.until_prompt().is_some()
        {}
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        self.seen
    }
}

/// Whether a Lytharian action is an attack: `K d4xd5`.
fn attack(notation: &str) -> bool {
    notation
        .split_whitespace()
        .any(|w| w.len() == 5 && w.as_bytes()[2] == b'x')
}

#[test]
fn a_battle_duel_round_is_played_to_its_end_and_its_result_told() {
    let mut s = Screen::start(&["lytharia", "--mode", "duel", "--seed", "3"]);
    let mut played = 0;
    // The first prompt is a handover: wait it out, then act at each prompt.
    let first = s.until_prompt().unwrap();
    assert!(first.contains("each side picks 7 troops"), "{first}");
    s.send("");
    s.until_prompt().unwrap();
    while !s.seen.contains("wins round 1") && !s.seen.contains("Round 1 is a tie") {
        played += 1;
        assert!(played < 300, "the round does not end: {}", s.seen);
        let moves = s.moves();
        // Pick and place the first listed; in the round, attack, else end
        // the turn, else pass priority.
        let choice = moves
            .iter()
            .find(|m| attack(m))
            .or_else(|| moves.iter().find(|m| *m == "end"))
            .or_else(|| moves.iter().find(|m| *m == "pass"))
            .or(moves.first())
            .cloned()
            .unwrap_or_else(|| panic!("nothing to play: {}", s.seen));
        s.send(&choice);
        // Read on to the next move prompt, waiting at handovers.
        loop {
            match s.until_prompt() {
                Some(p) if p.ends_with("press Enter> ") => s.send(""),
                Some(_) => break,
                None => panic!("the game ended early: {}", s.seen),
            }
        }
    }
    let text = s.quit();
    // Seven troops a side were picked, each pick counted.
    assert!(
        text.contains("picks Vorzak the Hollow King (1 of 7)"),
        "{text}"
    );
    assert!(text.contains("(7 of 7)"), "{text}");
    // The fight that decided it, the fall, and who won with the score.
    assert!(text.contains(" attacks Player "), "{text}");
    assert!(text.contains(" dies"), "{text}");
    let said = text
        .lines()
        .find(|l| l.contains("wins round 1: "))
        .unwrap_or_else(|| panic!("no round result: {text}"));
    // "Player 2 wins round 1: 0 to 1"
    let words: Vec<&str> = said.split_whitespace().collect();
    let (winner, score) = (words[1], (words[5], words[7]));
    let expected_score = if winner == "1" {
        ("1", "0")
    } else {
        ("0", "1")
    };
    assert_eq!(score, expected_score, "{said}");
    // The duel line then says the round, the score and who won round 1.
    let line = format!(
        "Battle Duel: round 2; score Player 1 {}, Player 2 {} (round 1 won by Player {winner})",
        score.0, score.1
    );
    assert!(text.contains(&line), "expected '{line}' in: {text}");
}

/// The picks and placements of a Battle Duel with seed 3 (Player 2 picks
/// first), up to Player 2's first turn of round 1.
const DUEL_START: [&str; 16] = [
    "pick vorzak",
    "pick mother-of-gloom",
    "pick bonebreaker",
    "pick drowned-sentinel",
    "pick lurker-spider",
    "pick wolf-rider",
    "pick soulbinder",
    "pick thane-orvik",
    "pick warden-esselde",
    "pick bronn",
    "pick stoneborn-shieldwall",
    "pick stag-rider",
    "pick antlered-elk",
    "pick lightbinder",
    "place vorzak",
    "place thane-orvik",
];

#[test]
fn spells_leaving_the_stack_are_told() {
    let mut s = Screen::start(&["lytharia", "--mode", "duel", "--seed", "3"]);
    for action in DUEL_START {
        assert!(s.play(action), "{}", s.seen);
    }
    // Player 2 casts Wither, Player 1 answers with Counterspell, Player 2
    // lets it resolve: the Counterspell resolves and the Wither leaves
    // the stack countered. Then a spell that resolves on its target.
    for action in [
        "cast wither @d5",
        "cast counterspell",
        "pass",
        "cast frost-shard @d5",
        "pass",
    ] {
        assert!(s.play(action), "{}", s.seen);
    }
    let text = s.quit();
    assert!(text.contains("Player 1's Counterspell resolves"), "{text}");
    assert!(
        text.contains("Player 2's Wither is countered by Player 1's counter"),
        "{text}"
    );
    assert!(
        text.contains("Player 2's Frost Shard resolves on d5"),
        "{text}"
    );
    assert!(
        text.contains("Player 1's Thane Orvik Granitehand on d5 takes 2 damage"),
        "{text}"
    );
}

#[test]
fn covenant_blows_counter_blows_and_falls_are_told() {
    let start = "crossroads g 1 0 3/4 - - gKi@a1,gPk@e4,bMi@e5,bKi@i9";
    let mut s = Screen::start(&["covenant", "--position", start]);
    assert!(s.play("act@e4") && s.play("melee@e5"));
    let text = s.quit();
    assert!(
        text.contains("Gold activates the Pikeman on e4 (4 MP)"),
        "{text}"
    );
    assert!(
        text.contains(
            "Gold's Pikeman strikes Blue's Militia on e5 for 2 (10 Blood left); \
             the Militia strikes back for 3 (9 Blood left)"
        ),
        "{text}"
    );
    // A Militia with 2 Blood left falls to the same blow.
    let weak = "crossroads g 1 0 3/4 - - gKi@a1,gPk@e4,bMi@e5=2,bKi@i9";
    let mut s = Screen::start(&["covenant", "--position", weak]);
    assert!(s.play("act@e4") && s.play("melee@e5"));
    let text = s.quit();
    assert!(
        text.contains("Gold's Pikeman strikes Blue's Militia on e5 for 2 (0 Blood left)"),
        "{text}"
    );
    assert!(text.contains("Blue's Militia on e5 falls"), "{text}");
}

#[test]
fn a_skirmish_fight_is_told_with_its_dice_and_result() {
    let mut s = Screen::start(&["skirmish", "--seed", "3"]);
    for action in ["e2e4", "d7d5", "e4d5"] {
        assert!(s.play(action), "{}", s.seen);
    }
    let text = s.quit();
    // The odds before, the roll, then the fight with its totals and result.
    assert!(
        text.contains("Skirmish odds (attacker wins): e4xd5"),
        "{text}"
    );
    assert!(
        text.contains("White's Pawn on e4 attacks the Pawn on d5: White rolls"),
        "{text}"
    );
    let fight = text
        .lines()
        .find(|l| l.contains("attacks the Pawn on d5: White rolls"))
        .unwrap();
    // Both totals, then the result in words.
    assert!(
        fight.contains("Black rolls") && fight.matches(" = ").count() == 2,
        "{fight}"
    );
    assert!(fight.contains("; the attack "), "{fight}");
}

#[test]
fn the_epoch_swap_is_told() {
    let mut s = Screen::start(&["epoch"]);
    assert!(s.play("g3g7") && s.play("swap"));
    let text = s.quit();
    assert!(
        text.contains("Black takes White's side: the two players change places"),
        "{text}"
    );
}

#[test]
fn check_is_on_the_status_line_and_told() {
    let mut s = Screen::start(&["chess"]);
    for action in ["e4", "f6", "Qh5+"] {
        assert!(s.play(action), "{}", s.seen);
    }
    let text = s.quit();
    assert!(text.contains("Black to move, in check> "), "{text}");
    assert!(!text.contains("White to move, in check"), "{text}");
}
