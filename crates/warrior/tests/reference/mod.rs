//! A deliberately simple second rules engine for Warrior Chess, written
//! straight from the book's sentences (`shared/rules/warrior-chess.txt`) and
//! the readings recorded in `docs/rules/warrior.md` (D1-D24), to check the
//! fast engine in `src/` against.
//!
//! Nothing here is shared with `src/`: squares are plain indexes (a1 = 0,
//! b1 = 1, ..., h8 = 63), pieces are plain structs, the position text and
//! the canonical action texts are read and written here, and every phase of
//! the turn is written out in the book's order. It is slow on purpose (it
//! allocates, recomputes and scans the whole board for everything); its only
//! job is to read the book independently.
#![allow(dead_code)]
// Squares, armies and weapons are plain indexes here, on purpose.
#![allow(clippy::needless_range_loop)]

/// Army letters in seat order (D1): Red, Blue, Green, Yellow.
pub const ARMIES: [char; 4] = ['R', 'B', 'G', 'Y'];
/// Weapon letters, in the order the text writes them: Rook, Knight, Bishop,
/// Swords.
pub const WEAPONS: [char; 4] = ['r', 'n', 'b', 's'];
/// "Rooks (3 per army ...)", "Knights (2 ...)", "Bishops (3 ...)", "Swords (4 ...)".
pub const WEAPON_STOCK: [u8; 4] = [3, 2, 3, 4];
/// The "new" prices: $6, $5, $4, $2; "reissued" is twice that.
pub const NEW_PRICE: [u8; 4] = [6, 5, 4, 2];
/// "The maximum amount of dollars ($) that any player can hold at a time is $12."
pub const CAP: u8 = 12;
/// "The cost to buy a Warrior to place in Reserve ... is $5 per Warrior."
pub const RESERVE_WARRIOR_PRICE: u8 = 5;
/// Facing letters: toward rank 8, toward the h-file, toward rank 1, toward the a-file (D7).
pub const FACINGS: [char; 4] = ['N', 'E', 'S', 'W'];
const SWORDS: usize = 3;

/// A square's name, like `e4`.
pub fn sq_name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

fn sq_parse(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1'))
}

/// The square `d` = (files, ranks) away from `s`, if on the board.
fn step(s: usize, d: (i32, i32)) -> Option<usize> {
    let f = (s % 8) as i32 + d.0;
    let r = (s / 8) as i32 + d.1;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (f + 8 * r) as usize)
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The two diagonal squares a Swords facing `f` attacks: the two on that side.
fn facing_diagonals(f: usize) -> [(i32, i32); 2] {
    match f {
        0 => [(-1, 1), (1, 1)],
        1 => [(1, 1), (1, -1)],
        2 => [(-1, -1), (1, -1)],
        _ => [(-1, 1), (-1, -1)],
    }
}

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RPiece {
    /// Seat index of its army.
    pub army: usize,
    pub king: bool,
    /// How many Rooks, Knights, Bishops, Swords it carries.
    pub weapons: [u8; 4],
    /// The Swords facing (index into `FACINGS`) when it carries exactly one Swords.
    pub facing: Option<usize>,
    /// Captured Warriors under it, by army.
    pub stack: [u8; 4],
}

impl RPiece {
    fn warrior(army: usize) -> RPiece {
        RPiece {
            army,
            king: false,
            weapons: [0; 4],
            facing: None,
            stack: [0; 4],
        }
    }
    fn armed(&self) -> bool {
        self.weapons.iter().any(|&w| w > 0)
    }
}

/// How the fifty-moves draw applies (D17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fifty {
    Auto,
    Claim,
    Off,
}

/// The rules a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RRules {
    pub players: usize,
    /// `no-movement=lose` (D4).
    pub lose_without_movement: bool,
    pub fifty: Fifty,
    /// `duplicate-weapons=on` (D11).
    pub duplicates: bool,
}

impl RRules {
    /// "the players move 50 times each": turns, all players counted.
    pub fn fifty_limit(&self) -> u32 {
        50 * self.players as u32
    }
    /// Team of an army: the seat itself with two players; Red and Green
    /// against Blue and Yellow in doubles.
    pub fn team(&self, army: usize) -> usize {
        if self.players == 2 { army } else { army % 2 }
    }
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RPhase {
    Move,
    Bonus,
    Arm,
    Buy,
    /// Over, with the position text's word for why.
    Over(&'static str),
}

const ENDINGS: [&str; 4] = [
    "king-captured",
    "fifty-moves",
    "draw-claimed",
    "no-movement",
];

/// One action, as the canonical text names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RAction {
    Drop(usize),
    Move(usize, usize, Option<usize>),
    Capture(usize, usize, Option<usize>),
    Pass,
    Bonus(usize),
    Arm(usize, usize, Option<usize>),
    BuyWarrior,
    BuyNew(usize),
    BuyReissued(usize),
    End,
    Draw,
}

impl RAction {
    /// The canonical text.
    pub fn text(&self) -> String {
        let fc = |f: Option<usize>| f.map(|f| FACINGS[f].to_string()).unwrap_or_default();
        match *self {
            RAction::Drop(s) => format!("W@{}", sq_name(s)),
            RAction::Move(a, b, f) => format!("{}-{}{}", sq_name(a), sq_name(b), fc(f)),
            RAction::Capture(a, b, f) => format!("{}x{}{}", sq_name(a), sq_name(b), fc(f)),
            RAction::Pass => "pass".into(),
            RAction::Bonus(s) => format!("+W@{}", sq_name(s)),
            RAction::Arm(w, s, f) => format!(
                "{}@{}{}",
                WEAPONS[w].to_ascii_uppercase(),
                sq_name(s),
                fc(f)
            ),
            RAction::BuyWarrior => "buy-W".into(),
            RAction::BuyNew(w) => format!("buy-new-{}", WEAPONS[w].to_ascii_uppercase()),
            RAction::BuyReissued(w) => {
                format!("buy-reissued-{}", WEAPONS[w].to_ascii_uppercase())
            }
            RAction::End => "end".into(),
            RAction::Draw => "draw".into(),
        }
    }
}

/// The whole game state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RGame {
    pub rules: RRules,
    pub board: Vec<Option<RPiece>>,
    pub to_act: usize,
    pub phase: RPhase,
    pub money: Vec<u8>,
    /// Per army: Warriors, then Rooks, Knights, Bishops, Swords.
    pub reserve: Vec<[u8; 5]>,
    /// Per army: Warriors in the Bank, then new Rooks, Knights, Bishops, Swords.
    pub bank_new: Vec<[u8; 5]>,
    /// Per army: captured weapons for reissue.
    pub reissue: Vec<[u8; 4]>,
    /// Squares of the Warriors dropped this turn.
    pub dropped: Vec<usize>,
    pub no_progress: u32,
}

fn counts_text(counts: &[(char, u8)]) -> String {
    let s: String = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| format!("{c}{n}"))
        .collect();
    if s.is_empty() { "-".into() } else { s }
}

/// Reads `W1n1`-like text into counts for the letters of `letters`.
fn counts_parse(t: &str, letters: &[char]) -> Option<Vec<u8>> {
    let mut out = vec![0u8; letters.len()];
    if t == "-" {
        return Some(out);
    }
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let k = letters.iter().position(|&c| c == chars[i])?;
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let n: String = chars[start..i].iter().collect();
        out[k] = n.parse().ok()?;
    }
    Some(out)
}

impl RGame {
    /// The start: the Kings alone on E1 and D8 (doubles: E1, A4, D8, H5);
    /// the first player (partner) with no money, the others with $1; the
    /// first player then collects $1 for the King.
    pub fn start(rules: RRules) -> RGame {
        let n = rules.players;
        let kings: &[&str] = if n == 2 {
            &["e1", "d8"]
        } else {
            &["e1", "a4", "d8", "h5"]
        };
        let mut board = vec![None; 64];
        for (a, k) in kings.iter().enumerate() {
            board[sq_parse(k).unwrap()] = Some(RPiece {
                king: true,
                ..RPiece::warrior(a)
            });
        }
        let mut g = RGame {
            rules,
            board,
            to_act: 0,
            phase: RPhase::Move,
            money: (0..n)
                .map(|a| u8::from(rules.team(a) != rules.team(0)))
                .collect(),
            reserve: vec![[0; 5]; n],
            bank_new: vec![[8, 3, 2, 3, 4]; n],
            reissue: vec![[0; 4]; n],
            dropped: Vec::new(),
            no_progress: 0,
        };
        g.collect();
        g
    }

    fn team(&self, army: usize) -> usize {
        self.rules.team(army)
    }

    /// "Beginning each turn a player receives from the Bank: One Dollar ($1)
    /// for each square occupied by one of his pieces" and "$1 per capture"
    /// for each Warrior stacked underneath, never above $12.
    fn collect(&mut self) {
        let me = self.to_act;
        let income = self.income(me);
        self.money[me] = (u32::from(self.money[me]) + income).min(u32::from(CAP)) as u8;
    }

    /// What `army` collects at the start of its turn, before the cap.
    pub fn income(&self, army: usize) -> u32 {
        self.board
            .iter()
            .flatten()
            .filter(|p| p.army == army)
            .map(|p| 1 + p.stack.iter().map(|&c| u32::from(c)).sum::<u32>())
            .sum()
    }

    /// The squares the piece on `from` can move to and capture on, as sets
    /// (bit `i` for square `i`).
    pub fn reach_sets(&self, from: usize) -> (u64, u64) {
        let (mut quiet, mut capture) = (0, 0);
        for (to, c) in self.reach(from) {
            if c {
                capture |= 1u64 << to;
            } else {
                quiet |= 1u64 << to;
            }
        }
        (quiet, capture)
    }

    /// Where the piece on `from` may go: (square, whether a capture).
    fn reach(&self, from: usize) -> Vec<(usize, bool)> {
        let p = self.board[from].expect("a piece");
        let mut out = Vec::new();
        let enemy =
            |s: usize| self.board[s].is_some_and(|q| self.team(q.army) != self.team(p.army));
        let empty = |s: usize| self.board[s].is_none();
        if p.king || !p.armed() {
            // King: one square any direction, moves and captures; an unarmed
            // Warrior: the same, but "cannot capture".
            for d in ORTHO.iter().chain(DIAG.iter()) {
                if let Some(t) = step(from, *d) {
                    if empty(t) {
                        out.push((t, false));
                    } else if p.king && enemy(t) {
                        out.push((t, true));
                    }
                }
            }
            return out;
        }
        let slide = |dirs: &[(i32, i32)], out: &mut Vec<(usize, bool)>| {
            for d in dirs {
                let mut s = from;
                while let Some(t) = step(s, *d) {
                    if empty(t) {
                        out.push((t, false));
                        s = t;
                        continue;
                    }
                    if enemy(t) {
                        out.push((t, true));
                    }
                    break;
                }
            }
        };
        if p.weapons[0] > 0 {
            slide(&ORTHO, &mut out);
        }
        if p.weapons[2] > 0 {
            slide(&DIAG, &mut out);
        }
        if p.weapons[1] > 0 {
            for d in KNIGHT {
                if let Some(t) = step(from, d) {
                    if empty(t) {
                        out.push((t, false));
                    } else if enemy(t) {
                        out.push((t, true));
                    }
                }
            }
        }
        match p.weapons[SWORDS] {
            0 => {}
            1 => {
                // "a non-capturing move one square horizontally or vertically"
                for d in ORTHO {
                    if let Some(t) = step(from, d).filter(|&t| empty(t)) {
                        out.push((t, false));
                    }
                }
                // "capture ... either of the two adjacent diagonal squares
                // that the Swords piece faces"
                for d in facing_diagonals(p.facing.expect("one Swords has a facing")) {
                    if let Some(t) = step(from, d).filter(|&t| enemy(t)) {
                        out.push((t, true));
                    }
                }
            }
            _ => {
                // Swords/Swords: "1 or 2 squares" (D6: nothing jumped) and
                // "any of the 4 adjacent diagonal squares".
                for d in ORTHO {
                    if let Some(t) = step(from, d).filter(|&t| empty(t)) {
                        out.push((t, false));
                        if let Some(t2) = step(t, d).filter(|&t2| empty(t2)) {
                            out.push((t2, false));
                        }
                    }
                }
                for d in DIAG {
                    if let Some(t) = step(from, d).filter(|&t| enemy(t)) {
                        out.push((t, true));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every drop, move and capture of the player to act (the movement).
    pub fn movements(&self) -> Vec<RAction> {
        let me = self.to_act;
        let mut v = Vec::new();
        // "Drop one of his Warriors held by the Bank on to an empty square"
        // for "$1".
        if self.bank_new[me][0] > 0 && self.money[me] >= 1 {
            for s in 0..64 {
                if self.board[s].is_none() {
                    v.push(RAction::Drop(s));
                }
            }
        }
        for from in 0..64 {
            let Some(p) = self.board[from] else { continue };
            if p.army != me {
                continue;
            }
            let facings: Vec<Option<usize>> = if p.weapons[SWORDS] == 1 {
                (0..4).map(Some).collect()
            } else {
                vec![None]
            };
            for (to, capture) in self.reach(from) {
                for &f in &facings {
                    v.push(if capture {
                        RAction::Capture(from, to, f)
                    } else {
                        RAction::Move(from, to, f)
                    });
                }
            }
        }
        v
    }

    fn bonus_drops(&self) -> Vec<RAction> {
        if self.reserve[self.to_act][0] == 0 {
            return Vec::new();
        }
        (0..64)
            .filter(|&s| self.board[s].is_none())
            .map(RAction::Bonus)
            .collect()
    }

    fn armings(&self) -> Vec<RAction> {
        let me = self.to_act;
        let mut v = Vec::new();
        for s in 0..64 {
            let Some(p) = self.board[s] else { continue };
            if p.army != me || p.king || self.dropped.contains(&s) {
                continue;
            }
            let total: u8 = p.weapons.iter().sum();
            if total >= 2 {
                continue;
            }
            for w in 0..4 {
                if self.reserve[me][w + 1] == 0 {
                    continue;
                }
                if w != SWORDS && p.weapons[w] > 0 && !self.rules.duplicates {
                    continue;
                }
                if w == SWORDS && p.weapons[SWORDS] == 0 {
                    for f in 0..4 {
                        v.push(RAction::Arm(w, s, Some(f)));
                    }
                } else {
                    v.push(RAction::Arm(w, s, None));
                }
            }
        }
        v
    }

    fn buys(&self) -> Vec<RAction> {
        let me = self.to_act;
        let m = self.money[me];
        let mut v = Vec::new();
        if self.bank_new[me][0] > 0 && m >= RESERVE_WARRIOR_PRICE {
            v.push(RAction::BuyWarrior);
        }
        for w in 0..4 {
            if self.bank_new[me][w + 1] > 0 && m >= NEW_PRICE[w] {
                v.push(RAction::BuyNew(w));
            }
            if self.reissue[me][w] > 0 && m >= 2 * NEW_PRICE[w] {
                v.push(RAction::BuyReissued(w));
            }
        }
        v
    }

    /// The legal actions of the player to act.
    pub fn legal(&self) -> Vec<RAction> {
        let mut v = match self.phase {
            RPhase::Over(_) => return Vec::new(),
            RPhase::Move => {
                let mut v = Vec::new();
                if self.rules.fifty == Fifty::Claim && self.no_progress >= self.rules.fifty_limit()
                {
                    v.push(RAction::Draw);
                }
                let m = self.movements();
                if m.is_empty() {
                    v.push(RAction::Pass);
                }
                v.extend(m);
                v
            }
            RPhase::Bonus => self.bonus_drops(),
            RPhase::Arm => self.armings(),
            RPhase::Buy => self.buys(),
        };
        if self.phase != RPhase::Move {
            v.push(RAction::End);
        }
        v
    }

    /// Skips the optional phases that offer nothing but `end` (D2), passing
    /// the turn after the last.
    fn settle(&mut self) {
        loop {
            match self.phase {
                RPhase::Bonus if self.bonus_drops().is_empty() => self.phase = RPhase::Arm,
                RPhase::Arm if self.armings().is_empty() => self.phase = RPhase::Buy,
                RPhase::Buy if self.buys().is_empty() => {
                    self.end_turn();
                    return;
                }
                _ => return,
            }
        }
    }

    fn end_turn(&mut self) {
        if self.rules.fifty == Fifty::Auto && self.no_progress >= self.rules.fifty_limit() {
            self.phase = RPhase::Over("fifty-moves");
            return;
        }
        self.to_act = (self.to_act + 1) % self.rules.players;
        self.dropped.clear();
        self.collect();
        self.phase = RPhase::Move;
        if self.rules.lose_without_movement && self.movements().is_empty() {
            self.phase = RPhase::Over("no-movement");
        }
    }

    fn after_movement(&mut self) {
        self.phase = RPhase::Bonus;
        self.settle();
    }

    fn put_dropped(&mut self, s: usize) {
        self.board[s] = Some(RPiece::warrior(self.to_act));
        self.dropped.push(s);
        self.dropped.sort_unstable();
        self.no_progress = 0;
    }

    /// Plays a legal action.
    pub fn play(&mut self, a: RAction) {
        let me = self.to_act;
        match a {
            RAction::Draw => self.phase = RPhase::Over("draw-claimed"),
            RAction::Drop(s) => {
                self.money[me] -= 1;
                self.bank_new[me][0] -= 1;
                self.put_dropped(s);
                self.after_movement();
            }
            RAction::Move(from, to, f) => {
                let mut p = self.board[from].take().unwrap();
                if f.is_some() {
                    p.facing = f;
                }
                self.board[to] = Some(p);
                self.no_progress += 1;
                self.after_movement();
            }
            RAction::Capture(from, to, f) => {
                let mut p = self.board[from].take().unwrap();
                let victim = self.board[to].take().unwrap();
                if f.is_some() {
                    p.facing = f;
                }
                for a in 0..4 {
                    p.stack[a] += victim.stack[a];
                }
                if !victim.king {
                    p.stack[victim.army] += 1;
                }
                let bonus: u32 = (0..4)
                    .map(|w| u32::from(victim.weapons[w]) * u32::from(NEW_PRICE[w]))
                    .sum();
                self.money[me] = (u32::from(self.money[me]) + bonus).min(u32::from(CAP)) as u8;
                for w in 0..4 {
                    self.reissue[victim.army][w] += victim.weapons[w];
                }
                self.board[to] = Some(p);
                self.no_progress = 0;
                if victim.king {
                    self.phase = RPhase::Over("king-captured");
                } else {
                    self.after_movement();
                }
            }
            RAction::Pass => {
                self.no_progress += 1;
                self.after_movement();
            }
            RAction::Bonus(s) => {
                self.reserve[me][0] -= 1;
                self.put_dropped(s);
                self.settle();
            }
            RAction::Arm(w, s, f) => {
                self.reserve[me][w + 1] -= 1;
                let p = self.board[s].as_mut().unwrap();
                p.weapons[w] += 1;
                if w == SWORDS {
                    p.facing = if p.weapons[SWORDS] == 1 { f } else { None };
                }
                self.settle();
            }
            RAction::BuyWarrior => {
                self.money[me] -= RESERVE_WARRIOR_PRICE;
                self.bank_new[me][0] -= 1;
                self.reserve[me][0] += 1;
                self.settle();
            }
            RAction::BuyNew(w) => {
                self.money[me] -= NEW_PRICE[w];
                self.bank_new[me][w + 1] -= 1;
                self.reserve[me][w + 1] += 1;
                self.settle();
            }
            RAction::BuyReissued(w) => {
                self.money[me] -= 2 * NEW_PRICE[w];
                self.reissue[me][w] -= 1;
                self.reserve[me][w + 1] += 1;
                self.settle();
            }
            RAction::End => {
                match self.phase {
                    RPhase::Bonus => self.phase = RPhase::Arm,
                    RPhase::Arm => self.phase = RPhase::Buy,
                    RPhase::Buy => {
                        self.end_turn();
                        return;
                    }
                    _ => unreachable!("end outside an optional phase"),
                }
                self.settle();
            }
        }
    }

    /// The winning team and the engine's end reason word, once over.
    pub fn result(&self) -> Option<(Option<usize>, &'static str)> {
        let RPhase::Over(word) = self.phase else {
            return None;
        };
        let me = self.team(self.to_act);
        // Two teams in both games: seat 0 against seat 1, or Red and Green
        // against Blue and Yellow.
        let other = 1 - me;
        Some(match word {
            "king-captured" => (Some(me), "KingCaptured"),
            "no-movement" => (Some(other), "Stalemate"),
            "fifty-moves" => (None, "NoProgress"),
            "draw-claimed" => (None, "DrawClaimed"),
            _ => unreachable!(),
        })
    }

    /// Every Warrior of each army: Bank + Reserve + board + stacks.
    pub fn warrior_count(&self, army: usize) -> u32 {
        let mut n = u32::from(self.bank_new[army][0]) + u32::from(self.reserve[army][0]);
        for p in self.board.iter().flatten() {
            if p.army == army && !p.king {
                n += 1;
            }
            n += u32::from(p.stack[army]);
        }
        n
    }

    /// The position text.
    pub fn text(&self) -> String {
        let n = self.rules.players;
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..8 {
                match self.board[f + 8 * r] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(ARMIES[p.army]);
                        s.push(if p.king { 'K' } else { 'W' });
                        for w in 0..4 {
                            for _ in 0..p.weapons[w] {
                                s.push(WEAPONS[w]);
                            }
                        }
                        if let Some(fc) = p.facing {
                            s.push(FACINGS[fc]);
                        }
                        if p.stack.iter().any(|&c| c > 0) {
                            s.push('(');
                            for a in 0..n {
                                if p.stack[a] > 0 {
                                    s.push_str(&format!("{}{}", ARMIES[a], p.stack[a]));
                                }
                            }
                            s.push(')');
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            ranks.push(s);
        }
        let letters5 = |c: &[u8; 5]| {
            counts_text(&[
                ('W', c[0]),
                ('r', c[1]),
                ('n', c[2]),
                ('b', c[3]),
                ('s', c[4]),
            ])
        };
        let join = |v: Vec<String>| v.join(",");
        let phase = match self.phase {
            RPhase::Move => "move",
            RPhase::Bonus => "bonus",
            RPhase::Arm => "arm",
            RPhase::Buy => "buy",
            RPhase::Over(w) => w,
        };
        format!(
            "{} {} {} {} {} {} {} {} {}",
            ranks.join("/"),
            ARMIES[self.to_act],
            phase,
            join(self.money.iter().map(u8::to_string).collect()),
            join(self.reserve.iter().map(letters5).collect()),
            join(self.bank_new.iter().map(letters5).collect()),
            join(
                self.reissue
                    .iter()
                    .map(|c| counts_text(&[('r', c[0]), ('n', c[1]), ('b', c[2]), ('s', c[3])]))
                    .collect()
            ),
            if self.dropped.is_empty() {
                "-".to_owned()
            } else {
                self.dropped
                    .iter()
                    .map(|&s| sq_name(s))
                    .collect::<Vec<_>>()
                    .join(",")
            },
            self.no_progress
        )
    }

    /// Reads a position text (only what a well-formed text holds; the
    /// engine is the judge of what it accepts).
    pub fn parse(text: &str, rules: RRules) -> Result<RGame, String> {
        let f: Vec<&str> = text.split(' ').collect();
        if f.len() != 9 {
            return Err("nine fields".into());
        }
        let n = rules.players;
        let mut board = vec![None; 64];
        let ranks: Vec<&str> = f[0].split('/').collect();
        if ranks.len() != 8 {
            return Err("eight ranks".into());
        }
        for (i, rank) in ranks.iter().enumerate() {
            let r = 7 - i;
            let c: Vec<char> = rank.chars().collect();
            let mut file = 0usize;
            let mut k = 0;
            while k < c.len() {
                if let Some(d) = c[k].to_digit(10) {
                    file += d as usize;
                    k += 1;
                    continue;
                }
                let army = ARMIES[..n]
                    .iter()
                    .position(|&a| a == c[k])
                    .ok_or("army letter")?;
                k += 1;
                let king = match c.get(k) {
                    Some('K') => true,
                    Some('W') => false,
                    _ => return Err("K or W".into()),
                };
                k += 1;
                let mut p = RPiece {
                    king,
                    ..RPiece::warrior(army)
                };
                while let Some(w) = c.get(k).and_then(|ch| WEAPONS.iter().position(|x| x == ch)) {
                    p.weapons[w] += 1;
                    k += 1;
                }
                if p.weapons[SWORDS] == 1 {
                    let fc = c
                        .get(k)
                        .and_then(|ch| FACINGS.iter().position(|x| x == ch))
                        .ok_or("facing")?;
                    p.facing = Some(fc);
                    k += 1;
                }
                if c.get(k) == Some(&'(') {
                    let close = c[k..].iter().position(|&x| x == ')').ok_or("stack")? + k;
                    let inner: String = c[k + 1..close].iter().collect();
                    let counts = counts_parse(&inner, &ARMIES[..n]).ok_or("stack counts")?;
                    p.stack[..n].copy_from_slice(&counts[..n]);
                    k = close + 1;
                }
                if file >= 8 {
                    return Err("rank too long".into());
                }
                board[file + 8 * r] = Some(p);
                file += 1;
            }
            if file != 8 {
                return Err("rank length".into());
            }
        }
        let to_act = ARMIES[..n]
            .iter()
            .position(|&a| f[1] == a.to_string())
            .ok_or("to act")?;
        let phase = match f[2] {
            "move" => RPhase::Move,
            "bonus" => RPhase::Bonus,
            "arm" => RPhase::Arm,
            "buy" => RPhase::Buy,
            w => RPhase::Over(ENDINGS.iter().find(|&&e| e == w).ok_or("phase")?),
        };
        let money: Vec<u8> = f[3]
            .split(',')
            .map(|m| m.parse().map_err(|_| "money".to_owned()))
            .collect::<Result<_, _>>()?;
        let five = |t: &str| -> Result<Vec<[u8; 5]>, String> {
            t.split(',')
                .map(|x| {
                    let c = counts_parse(x, &['W', 'r', 'n', 'b', 's']).ok_or("counts")?;
                    Ok([c[0], c[1], c[2], c[3], c[4]])
                })
                .collect()
        };
        let reserve = five(f[4])?;
        let bank_new = five(f[5])?;
        let reissue: Vec<[u8; 4]> = f[6]
            .split(',')
            .map(|x| {
                let c = counts_parse(x, &WEAPONS).ok_or("reissue")?;
                Ok::<_, String>([c[0], c[1], c[2], c[3]])
            })
            .collect::<Result<_, _>>()?;
        let dropped = if f[7] == "-" {
            Vec::new()
        } else {
            f[7].split(',')
                .map(|s| sq_parse(s).ok_or("dropped".to_owned()))
                .collect::<Result<_, _>>()?
        };
        let no_progress = f[8].parse().map_err(|_| "no-progress")?;
        if money.len() != n || reserve.len() != n || bank_new.len() != n || reissue.len() != n {
            return Err("one entry per army".into());
        }
        Ok(RGame {
            rules,
            board,
            to_act,
            phase,
            money,
            reserve,
            bank_new,
            reissue,
            dropped,
            no_progress,
        })
    }

    /// Action sequences of length `depth` from here.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut g = self.clone();
                g.play(m);
                g.perft(depth - 1)
            })
            .sum()
    }
}
