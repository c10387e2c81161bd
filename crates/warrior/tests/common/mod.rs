//! Helpers shared by the Warrior Chess tests.
#![allow(dead_code)]

use tabula_core::Game;
use tabula_warrior::{Action, Warrior, WarriorOptions};

/// Default two-player options.
pub fn two() -> WarriorOptions {
    WarriorOptions::default()
}

/// Doubles options.
pub fn four() -> WarriorOptions {
    WarriorOptions::doubles()
}

/// A position from text, panicking with the error if it is refused.
pub fn pos(text: &str, options: &WarriorOptions) -> Warrior {
    Warrior::from_text(text, options).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Plays one action given as text (any notation the game reads).
pub fn play(game: &mut Warrior, text: &str) {
    let action = game
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\nin {}", game.to_text()));
    game.apply(&action)
        .unwrap_or_else(|e| panic!("{text}: {e}\nin {}", game.to_text()));
}

/// Plays several actions given as text.
pub fn play_all(game: &mut Warrior, texts: &[&str]) {
    for t in texts {
        play(game, t);
    }
}

/// The legal actions in canonical text.
pub fn legal(game: &Warrior) -> Vec<String> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out.iter().map(Action::to_string).collect()
}

/// Whether `text` (canonical) is legal.
pub fn is_legal(game: &Warrior, text: &str) -> bool {
    legal(game).iter().any(|a| a == text)
}

/// The legal movement targets of the piece on `from` (moves and captures,
/// facing dropped, sorted, deduplicated), like `["d4", "xe5"]`.
pub fn targets(game: &Warrior, from: &str) -> Vec<String> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    let mut t: Vec<String> = out
        .iter()
        .filter_map(|a| match *a {
            Action::Move { from: f, to, .. } if f.to_string() == from => Some(to.to_string()),
            Action::Capture { from: f, to, .. } if f.to_string() == from => Some(format!("x{to}")),
            _ => None,
        })
        .collect();
    t.sort();
    t.dedup();
    t
}

/// An action that must be refused, leaving the state unchanged; returns the
/// error message.
pub fn refused(game: &mut Warrior, text: &str) -> String {
    let before = game.clone();
    let action: Action = match text.parse() {
        Ok(a) => a,
        Err(e) => return e.to_string(),
    };
    let e = game
        .apply(&action)
        .expect_err(&format!("{text} should be refused in {}", game.to_text()));
    assert_eq!(*game, before, "a refused action changed the state");
    e.to_string()
}

fn counts(text: &str, warriors: &mut u8, weapons: &mut [u8; 4]) {
    if text == "-" {
        return;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let n: u8 = chars[start..i].iter().collect::<String>().parse().unwrap();
        match c {
            'W' => *warriors += n,
            'r' => weapons[0] += n,
            'n' => weapons[1] += n,
            'b' => weapons[2] += n,
            's' => weapons[3] += n,
            _ => panic!("bad count letter {c}"),
        }
    }
}

fn army_index(c: char) -> usize {
    "RBGY".find(c).unwrap_or_else(|| panic!("bad army {c}"))
}

/// A position from its board and the fields that matter to a test; the
/// Bank's new stock is whatever completes each army's 8 Warriors and
/// weapons. `reserves` and `reissued` are in position-text form (`W1r2`,
/// `-`), one per army.
#[allow(clippy::too_many_arguments)]
pub fn setup_full(
    options: &WarriorOptions,
    board: &str,
    to_act: char,
    phase: &str,
    money: &[u8],
    reserves: &[&str],
    reissued: &[&str],
    dropped: &str,
    no_progress: u16,
) -> Warrior {
    let n = options.players.count() as usize;
    let mut warriors = [0u8; 4];
    let mut weapons = [[0u8; 4]; 4];
    // Count what the board holds.
    let chars: Vec<char> = board.chars().collect();
    let mut i = 0;
    let mut current = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'R' | 'B' | 'G' | 'Y' if chars.get(i + 1).is_some_and(|k| *k == 'K' || *k == 'W') => {
                current = army_index(c);
                if chars[i + 1] == 'W' {
                    warriors[current] += 1;
                }
                i += 2;
            }
            'r' | 'n' | 'b' | 's' => {
                weapons[current]["rnbs".find(c).unwrap()] += 1;
                i += 1;
            }
            '(' => {
                i += 1;
                while chars[i] != ')' {
                    let a = army_index(chars[i]);
                    i += 1;
                    let start = i;
                    while chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    warriors[a] += chars[start..i]
                        .iter()
                        .collect::<String>()
                        .parse::<u8>()
                        .unwrap();
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    for k in 0..n {
        counts(reserves[k], &mut warriors[k], &mut weapons[k]);
        let mut none = 0;
        counts(reissued[k], &mut none, &mut weapons[k]);
    }
    let full = [3u8, 2, 3, 4];
    let bank: Vec<String> = (0..n)
        .map(|k| {
            let mut s = String::new();
            let w = 8 - warriors[k];
            if w > 0 {
                s.push_str(&format!("W{w}"));
            }
            for (j, l) in ['r', 'n', 'b', 's'].iter().enumerate() {
                let c = full[j] - weapons[k][j];
                if c > 0 {
                    s.push_str(&format!("{l}{c}"));
                }
            }
            if s.is_empty() { "-".to_owned() } else { s }
        })
        .collect();
    let money: Vec<String> = money.iter().map(u8::to_string).collect();
    let text = format!(
        "{board} {to_act} {phase} {} {} {} {} {dropped} {no_progress}",
        money.join(","),
        reserves.join(","),
        bank.join(","),
        reissued.join(","),
    );
    pos(&text, options)
}

/// [`setup_full`] with nothing dropped and the fifty-moves count at 0.
pub fn setup(
    options: &WarriorOptions,
    board: &str,
    to_act: char,
    phase: &str,
    money: &[u8],
    reserves: &[&str],
    reissued: &[&str],
) -> Warrior {
    setup_full(
        options, board, to_act, phase, money, reserves, reissued, "-", 0,
    )
}

/// A two-player position in the movement phase, Red to move, empty Reserves
/// and reissue stock.
pub fn red_to_move(board: &str, money: u8) -> Warrior {
    setup(
        &two(),
        board,
        'R',
        "move",
        &[money, 0],
        &["-", "-"],
        &["-", "-"],
    )
}

/// A board field from `(square, piece token)` pairs, like
/// `board(&[("e1", "RK"), ("d8", "BK"), ("d4", "RWsN")])`.
pub fn board(pieces: &[(&str, &str)]) -> String {
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; 8]; 8];
    for (sq, token) in pieces {
        let b = sq.as_bytes();
        let f = (b[0] - b'a') as usize;
        let r = (b[1] - b'1') as usize;
        grid[r][f] = Some((*token).to_owned());
    }
    let mut ranks = Vec::new();
    for r in (0..8).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in &grid[r] {
            match cell {
                None => empty += 1,
                Some(t) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(t);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// Red to move (movement phase, two players) with the Kings on e1 and d8
/// plus `pieces`, Red holding `money`.
pub fn red_with(pieces: &[(&str, &str)], money: u8) -> Warrior {
    let mut all = vec![("e1", "RK"), ("d8", "BK")];
    all.extend_from_slice(pieces);
    red_to_move(&board(&all), money)
}
