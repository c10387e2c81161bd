//! A deliberately simple second rules engine for Skirmish chess, written
//! from the book (`shared/rules/skirmish-chess.txt`) and the readings
//! recorded in `docs/rules/skirmish.md`, to check the engine in `src/`
//! against.
//!
//! Nothing here comes from `src/`: the board is a plain 64-entry mailbox
//! (a1 = 0, b1 = 1, ..., h8 = 63), chess movement ("Movement and objectives
//! are as per the usual chess game") is generated here square by square,
//! legality is copy-make ("should its skirmishes all be won, is the mover's
//! King then attacked?"), and every skirmish's odds are counted from the
//! book's formula "Attacking Piece Value + Roll + Attack Bonus .versus.
//! Defending Piece Value + Roll". The only thing borrowed is
//! `tabula-chess`'s Zobrist key of a FEN, because the position text writes
//! those keys. It is slow on purpose.
#![allow(dead_code)]
// Squares are plain indexes into the mailbox, as in the book's diagrams.
#![allow(clippy::needless_range_loop)]

use tabula_chess::{Position, Setup};

/// A piece role. The order is the FEN letters `pnbrqk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    P,
    N,
    B,
    R,
    Q,
    K,
}

impl Role {
    pub fn letter(self) -> char {
        match self {
            Role::P => 'p',
            Role::N => 'n',
            Role::B => 'b',
            Role::R => 'r',
            Role::Q => 'q',
            Role::K => 'k',
        }
    }
}

/// A piece: colour (0 White, 1 Black) and role.
pub type Pc = (usize, Role);

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// The tie rule (decision 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    Defender,
    Attacker,
    Reroll,
}

/// The options, the book's two (Attack Bonus, King's value) and the house
/// rules of `docs/rules/skirmish.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ROpts {
    pub advanced: bool,
    pub bonus: i32,
    pub king_value: i32,
    pub dice_n: u32,
    pub dice_s: u32,
    pub ties: Ties,
    pub king_skirmish: bool,
    pub strongest: bool,
    pub flat: bool,
    pub reachable: bool,
}

impl Default for ROpts {
    fn default() -> Self {
        ROpts {
            advanced: false,
            bonus: 1,
            king_value: 4,
            dice_n: 1,
            dice_s: 6,
            ties: Ties::Defender,
            king_skirmish: false,
            strongest: false,
            flat: false,
            reachable: false,
        }
    }
}

impl ROpts {
    /// Field 7: the non-default `key=value` pairs, or `-`.
    pub fn text(&self) -> String {
        let d = ROpts::default();
        let mut v: Vec<String> = Vec::new();
        if self.advanced {
            v.push("mode=advanced".into());
        }
        if self.bonus != d.bonus {
            v.push(format!("attack-bonus={}", self.bonus));
        }
        if self.king_value != d.king_value {
            v.push(format!("king-value={}", self.king_value));
        }
        if (self.dice_n, self.dice_s) != (1, 6) {
            v.push(format!("dice={}d{}", self.dice_n, self.dice_s));
        }
        match self.ties {
            Ties::Defender => {}
            Ties::Attacker => v.push("ties=attacker".into()),
            Ties::Reroll => v.push("ties=reroll".into()),
        }
        if self.king_skirmish {
            v.push("king-captures=skirmish".into());
        }
        if self.strongest {
            v.push("checkers=strongest".into());
        }
        if self.flat {
            v.push("sequential=flat".into());
        }
        if self.reachable {
            v.push("relocation=reachable".into());
        }
        if v.is_empty() {
            "-".into()
        } else {
            v.join(",")
        }
    }

    /// Book note *: "Pawn:1, Bishop:3, Knight:3, Rook:5, Queen:9, King:4",
    /// the King's value set by footnote ***.
    pub fn value(&self, r: Role) -> i32 {
        match r {
            Role::P => 1,
            Role::N | Role::B => 3,
            Role::R => 5,
            Role::Q => 9,
            Role::K => self.king_value,
        }
    }

    /// How many ways the dice of one player make each total (index = total).
    pub fn ways(&self) -> Vec<u64> {
        let mut w = vec![1u64];
        for _ in 0..self.dice_n {
            let mut next = vec![0u64; w.len() + self.dice_s as usize];
            for (t, &c) in w.iter().enumerate() {
                for f in 1..=self.dice_s as usize {
                    next[t + f] += c;
                }
            }
            w = next;
        }
        w
    }
}

pub fn sq_name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

fn file(s: usize) -> i32 {
    (s % 8) as i32
}
fn rank(s: usize) -> i32 {
    (s / 8) as i32
}
fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
}
fn step(s: usize, df: i32, dr: i32) -> Option<usize> {
    at(file(s) + df, rank(s) + dr)
}

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
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

pub type Board = [Option<Pc>; 64];

/// The squares the piece on `s` attacks (could capture on), as in chess.
pub fn attacks(b: &Board, s: usize) -> Vec<usize> {
    let Some((c, r)) = b[s] else { return vec![] };
    let mut v = Vec::new();
    let slide = |dirs: &[(i32, i32)], v: &mut Vec<usize>| {
        for &(df, dr) in dirs {
            let mut t = s;
            while let Some(n) = step(t, df, dr) {
                v.push(n);
                if b[n].is_some() {
                    break;
                }
                t = n;
            }
        }
    };
    match r {
        Role::P => {
            let dr = if c == WHITE { 1 } else { -1 };
            v.extend([step(s, -1, dr), step(s, 1, dr)].into_iter().flatten());
        }
        Role::N => v.extend(KNIGHT.iter().filter_map(|&(f, r)| step(s, f, r))),
        Role::K => v.extend(KING.iter().filter_map(|&(f, r)| step(s, f, r))),
        Role::B => slide(&DIAG, &mut v),
        Role::R => slide(&ORTHO, &mut v),
        Role::Q => {
            slide(&DIAG, &mut v);
            slide(&ORTHO, &mut v);
        }
    }
    v
}

/// The pieces of `by` (except those on `ignore`) attacking `s`.
pub fn attackers(b: &Board, s: usize, by: usize, ignore: u64) -> Vec<usize> {
    (0..64)
        .filter(|&a| {
            ignore & (1 << a) == 0 && b[a].is_some_and(|p| p.0 == by) && attacks(b, a).contains(&s)
        })
        .collect()
}

pub fn king_of(b: &Board, c: usize) -> Option<usize> {
    (0..64).find(|&s| b[s] == Some((c, Role::K)))
}

/// A chess move: UCI squares, promotion, and what kind it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RMove {
    pub from: usize,
    pub to: usize,
    pub promo: Option<Role>,
    pub ep: bool,
    pub castle: bool,
}

impl RMove {
    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", sq_name(self.from), sq_name(self.to));
        if let Some(p) = self.promo {
            s.push(p.letter());
        }
        s
    }
}

/// The board after a chess move (a capture succeeding).
pub fn make(b: &Board, m: RMove) -> Board {
    let mut n = *b;
    let p = n[m.from].take().unwrap();
    if m.ep {
        let behind = if p.0 == WHITE { m.to - 8 } else { m.to + 8 };
        n[behind] = None;
    }
    if m.castle {
        let (rf, rt) = if m.to > m.from {
            (m.from + 3, m.from + 1)
        } else {
            (m.from - 4, m.from - 1)
        };
        n[rt] = n[rf].take();
    }
    n[m.to] = Some(m.promo.map_or(p, |r| (p.0, r)));
    n
}

const PROMOS: [Role; 4] = [Role::Q, Role::R, Role::B, Role::N];

/// The way of a Tactical movement from `a` to `b` (decision 23): A and every
/// square strictly between A and B; a leap, a step or remaining in place
/// has A alone.
pub fn way(board: &Board, a: usize, b: usize) -> Vec<usize> {
    let mut w = vec![a];
    if a == b {
        return w;
    }
    let (df, dr) = (file(b) - file(a), rank(b) - rank(a));
    let is_line = df == 0 || dr == 0 || df.abs() == dr.abs();
    let knight = board[a].is_some_and(|p| p.1 == Role::N);
    if is_line && !knight {
        let (sf, sr) = (df.signum(), dr.signum());
        let mut t = step(a, sf, sr).unwrap();
        while t != b {
            w.push(t);
            t = step(t, sf, sr).unwrap();
        }
    }
    w
}

/// Decision 6: a pawn promotes on its last rank only (a defender's pawn
/// taking backwards onto its own first rank stays a pawn).
fn last_rank(c: usize, s: usize) -> bool {
    rank(s) == if c == WHITE { 7 } else { 0 }
}

fn adjacent(a: usize, b: usize) -> bool {
    a != b && (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

/// A Tactical movement under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tac {
    pub from: usize,
    pub to: usize,
    pub promo: Option<Role>,
    pub at: usize,
}

impl Tac {
    fn uci(&self) -> String {
        RMove {
            from: self.from,
            to: self.to,
            promo: self.promo,
            ep: false,
            castle: false,
        }
        .uci()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RPhase {
    Act,
    RollCapture(RMove),
    RollTactical(Tac, usize),
    RollDivided {
        from: usize,
        targets: Vec<usize>,
        won: Vec<usize>,
        lost: Vec<usize>,
    },
    RollCheck(Vec<usize>),
    RollMate(Vec<usize>),
    Choice(usize, Vec<usize>),
    Place(usize, Vec<usize>),
    Tactical(Tac),
    /// Winner (None: a draw) and the reason's word.
    Over(Option<usize>, &'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RAction {
    Move(RMove),
    Tac(Tac, usize),
    Hit(usize),
    Arrive,
    Div(usize, Vec<usize>),
    Place(usize, Option<Role>),
    Stay,
    Take(usize, usize, Option<Role>),
    End,
    Roll(u32, u32),
    Given,
}

impl RAction {
    /// The canonical text.
    pub fn text(&self) -> String {
        let promo = |p: &Option<Role>| p.map(|r| r.letter().to_string()).unwrap_or_default();
        match self {
            RAction::Move(m) => m.uci(),
            RAction::Tac(t, target) => format!("tac:{}:{}", t.uci(), sq_name(*target)),
            RAction::Hit(s) => format!("hit:{}", sq_name(*s)),
            RAction::Arrive => "arrive".into(),
            RAction::Div(from, ts) => format!("div:{}:{}", sq_name(*from), squares(ts)),
            RAction::Place(s, p) => format!("place:{}{}", sq_name(*s), promo(p)),
            RAction::Stay => "stay".into(),
            RAction::Take(f, t, p) => format!("take:{}{}{}", sq_name(*f), sq_name(*t), promo(p)),
            RAction::End => "end".into(),
            RAction::Roll(a, d) => format!("roll:{a}-{d}"),
            RAction::Given => "given".into(),
        }
    }
}

fn squares(v: &[usize]) -> String {
    let mut v = v.to_vec();
    v.sort_unstable();
    v.iter().map(|&s| sq_name(s)).collect::<Vec<_>>().join(",")
}

/// What has happened so far this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RTurn {
    pub acted: bool,
    pub movement: bool,
    pub progress: bool,
    pub moved: u64,
    pub att: [u8; 64],
    pub new_ep: Option<usize>,
    pub excused: u64,
}

impl Default for RTurn {
    fn default() -> Self {
        RTurn {
            acted: false,
            movement: false,
            progress: false,
            moved: 0,
            att: [0; 64],
            new_ep: None,
            excused: 0,
        }
    }
}

/// One skirmish's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fight {
    pub attack: i32,
    pub bonus: i32,
    pub defence: i32,
}

#[derive(Debug, Clone)]
pub struct RGame {
    pub o: ROpts,
    pub board: Board,
    pub turn: usize,
    /// K, Q, k, q.
    pub castle: [bool; 4],
    pub ep: Option<usize>,
    pub half: u32,
    pub full: u32,
    pub phase: RPhase,
    pub ts: RTurn,
    /// Repetition keys of the turn starts since the last progress, this
    /// turn's last.
    pub history: Vec<u64>,
}

fn parse_fen_board(s: &str) -> Option<Board> {
    let mut b: Board = [None; 64];
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 8 {
        return None;
    }
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i as i32;
        let mut f = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                f += d as i32;
                continue;
            }
            let c = if ch.is_ascii_uppercase() {
                WHITE
            } else {
                BLACK
            };
            let role = match ch.to_ascii_lowercase() {
                'p' => Role::P,
                'n' => Role::N,
                'b' => Role::B,
                'r' => Role::R,
                'q' => Role::Q,
                'k' => Role::K,
                _ => return None,
            };
            b[at(f, r)?] = Some((c, role));
            f += 1;
        }
    }
    Some(b)
}

fn parse_sq(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    at(
        i32::from(b[0]) - i32::from(b'a'),
        i32::from(b[1]) - i32::from(b'1'),
    )
}

impl RGame {
    /// A bare FEN: the start of the turn of the side to move.
    pub fn from_fen(fen: &str, o: ROpts) -> RGame {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let board = parse_fen_board(f[0]).expect("placement");
        let turn = if f[1] == "w" { WHITE } else { BLACK };
        let castle = [
            f[2].contains('K'),
            f[2].contains('Q'),
            f[2].contains('k'),
            f[2].contains('q'),
        ];
        let ep = parse_sq(f[3]);
        let half = f.get(4).map_or(0, |s| s.parse().unwrap());
        let full = f.get(5).map_or(1, |s| s.parse().unwrap());
        let mut g = RGame {
            o,
            board,
            turn,
            castle,
            ep,
            half,
            full,
            phase: RPhase::Act,
            ts: RTurn::default(),
            history: Vec::new(),
        };
        g.history.push(g.key());
        g.settle_turn_start();
        g
    }

    pub fn fen(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.board[r * 8 + f] {
                    None => empty += 1,
                    Some((c, role)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = role.letter();
                        s.push(if c == WHITE {
                            l.to_ascii_uppercase()
                        } else {
                            l
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        let mut cs = String::new();
        for (i, ch) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.castle[i] {
                cs.push(ch);
            }
        }
        if cs.is_empty() {
            cs.push('-');
        }
        format!(
            "{s} {} {cs} {} {} {}",
            if self.turn == WHITE { 'w' } else { 'b' },
            self.ep.map_or("-".into(), sq_name),
            self.half,
            self.full
        )
    }

    /// The repetition key: `tabula-chess`'s Zobrist key of the FEN.
    pub fn key(&self) -> u64 {
        let setup = Setup::from_fen(&self.fen()).expect("own FEN");
        Position::from_setup_unchecked(setup).hash()
    }

    /// The whole position text (ten fields).
    pub fn text(&self) -> String {
        let phase = match &self.phase {
            RPhase::Act => "act".to_string(),
            RPhase::RollCapture(m) => format!("roll:capture:{}", m.uci()),
            RPhase::RollTactical(t, target) => {
                format!("roll:tactical:{}:{}:{}", t.uci(), t.at, sq_name(*target))
            }
            RPhase::RollDivided {
                from,
                targets,
                won,
                lost,
            } => {
                let mut ts = targets.clone();
                ts.sort_unstable();
                let list: Vec<String> = ts
                    .iter()
                    .map(|&t| {
                        let mark = if won.contains(&t) {
                            "+"
                        } else if lost.contains(&t) {
                            "-"
                        } else {
                            ""
                        };
                        format!("{}{mark}", sq_name(t))
                    })
                    .collect();
                format!("roll:divided:{}:{}", sq_name(*from), list.join(","))
            }
            RPhase::RollCheck(c) => format!("roll:check:{}", squares(c)),
            RPhase::RollMate(c) => format!("roll:mate:{}", squares(c)),
            RPhase::Choice(s, d) => format!("choice:{}:{}", sq_name(*s), squares(d)),
            RPhase::Place(f, s) => format!("place:{}:{}", sq_name(*f), squares(s)),
            RPhase::Tactical(t) => format!("tactical:{}:{}", t.uci(), t.at),
            RPhase::Over(w, why) => format!(
                "over:{}:{why}",
                match w {
                    Some(0) => "w",
                    Some(_) => "b",
                    None => "draw",
                }
            ),
        };
        let ts = &self.ts;
        let mut tok: Vec<String> = Vec::new();
        if ts.acted {
            tok.push("acted".into());
        }
        if ts.movement {
            tok.push("movement".into());
        }
        if ts.progress {
            tok.push("progress".into());
        }
        for s in 0..64 {
            if ts.moved & (1 << s) != 0 {
                tok.push(format!("moved:{}", sq_name(s)));
            }
        }
        for s in 0..64 {
            if ts.att[s] > 0 {
                tok.push(format!("att:{}:{}", sq_name(s), ts.att[s]));
            }
        }
        if let Some(e) = ts.new_ep {
            tok.push(format!("ep:{}", sq_name(e)));
        }
        for s in 0..64 {
            if ts.excused & (1 << s) != 0 {
                tok.push(format!("ex:{}", sq_name(s)));
            }
        }
        if !ts.progress
            && ts.movement
            && let Some(h) = self.history.last()
        {
            tok.push(format!("start:{h:016x}"));
        }
        let earlier: Vec<String> = if ts.progress || self.history.is_empty() {
            vec![]
        } else {
            self.history[..self.history.len() - 1]
                .iter()
                .map(|h| format!("{h:016x}"))
                .collect()
        };
        format!(
            "{} {} {phase} {} {}",
            self.fen(),
            self.o.text(),
            if tok.is_empty() {
                "-".into()
            } else {
                tok.join(",")
            },
            if earlier.is_empty() {
                "-".into()
            } else {
                earlier.join(",")
            }
        )
    }

    // ----- who acts -----

    /// `Some(colour)` for a player to act, `None` for dice or the end.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            RPhase::Act | RPhase::Place(..) | RPhase::Tactical(_) => Some(self.turn),
            RPhase::Choice(..) => Some(1 - self.turn),
            _ => None,
        }
    }

    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            RPhase::RollCapture(_)
                | RPhase::RollTactical(..)
                | RPhase::RollDivided { .. }
                | RPhase::RollCheck(_)
                | RPhase::RollMate(_)
        )
    }

    pub fn result(&self) -> Option<(Option<usize>, &'static str)> {
        match self.phase {
            RPhase::Over(w, why) => Some((w, why)),
            _ => None,
        }
    }

    // ----- chess movement -----

    fn ep_usable(&self) -> Option<usize> {
        let e = self.ep?;
        let behind = if self.turn == WHITE { e - 8 } else { e + 8 };
        (self.board[e].is_none() && self.board[behind] == Some((1 - self.turn, Role::P)))
            .then_some(e)
    }

    /// Whether `c`'s King is attacked by no enemy piece except those on
    /// `ignore` (decision 13).
    fn safe(b: &Board, c: usize, ignore: u64) -> bool {
        match king_of(b, c) {
            Some(k) => attackers(b, k, 1 - c, ignore).is_empty(),
            None => true,
        }
    }

    /// Every chess move of the side to move by the piece on `s`, never onto
    /// a King (decision 8), without the King-safety test.
    fn piece_moves(&self, s: usize) -> Vec<RMove> {
        let b = &self.board;
        let Some((c, r)) = b[s] else { return vec![] };
        let mut out = Vec::new();
        let push = |to: usize, ep: bool, castle: bool, out: &mut Vec<RMove>| {
            if r == Role::P && last_rank(c, to) {
                for p in PROMOS {
                    out.push(RMove {
                        from: s,
                        to,
                        promo: Some(p),
                        ep,
                        castle,
                    });
                }
            } else {
                out.push(RMove {
                    from: s,
                    to,
                    promo: None,
                    ep,
                    castle,
                });
            }
        };
        if r == Role::P {
            let dr = if c == WHITE { 1 } else { -1 };
            if let Some(one) = step(s, 0, dr)
                && b[one].is_none()
            {
                push(one, false, false, &mut out);
                let home = if c == WHITE { 1 } else { 6 };
                if rank(s) == home
                    && let Some(two) = step(s, 0, 2 * dr)
                    && b[two].is_none()
                {
                    push(two, false, false, &mut out);
                }
            }
            for t in attacks(b, s) {
                match b[t] {
                    Some((tc, tr)) if tc != c && tr != Role::K => push(t, false, false, &mut out),
                    None if Some(t) == self.ep_usable() => push(t, true, false, &mut out),
                    _ => {}
                }
            }
        } else {
            for t in attacks(b, s) {
                match b[t] {
                    None => push(t, false, false, &mut out),
                    Some((tc, tr)) if tc != c && tr != Role::K => push(t, false, false, &mut out),
                    _ => {}
                }
            }
        }
        if r == Role::K {
            // Castling as in chess: King and Rook home, the squares between
            // empty, the King not attacked on its square, the one it passes
            // or the one it reaches. Decision 10: "castling out of, through
            // or into check stays illegal", excused checkers included.
            let home = if c == WHITE { 4 } else { 60 };
            let ex = 0;
            if s == home {
                for (i, kingside) in [(0, true), (1, false)] {
                    if !self.castle[c * 2 + i] {
                        continue;
                    }
                    let rook = if kingside { home + 3 } else { home - 4 };
                    if b[rook] != Some((c, Role::R)) {
                        continue;
                    }
                    let between: Vec<usize> = if kingside {
                        vec![home + 1, home + 2]
                    } else {
                        vec![home - 1, home - 2, home - 3]
                    };
                    if between.iter().any(|&t| b[t].is_some()) {
                        continue;
                    }
                    let pass = if kingside {
                        [home, home + 1, home + 2]
                    } else {
                        [home, home - 1, home - 2]
                    };
                    if pass.iter().any(|&t| !attackers(b, t, 1 - c, ex).is_empty()) {
                        continue;
                    }
                    let to = if kingside { home + 2 } else { home - 2 };
                    push(to, false, true, &mut out);
                }
            }
        }
        out
    }

    fn is_capture(&self, m: &RMove) -> bool {
        m.ep || self.board[m.to].is_some()
    }

    /// The side to move's chess moves that leave its King safe if won.
    fn chess_moves(&self) -> Vec<RMove> {
        let us = self.turn;
        let mut v = Vec::new();
        for s in 0..64 {
            if self.board[s].is_some_and(|p| p.0 == us) {
                for m in self.piece_moves(s) {
                    if Self::safe(&make(&self.board, m), us, self.ts.excused) {
                        v.push(m);
                    }
                }
            }
        }
        v
    }

    // ----- the odds -----

    fn seq_bonus(&self, v: i32, k: u8) -> i32 {
        let half_up = (v + 1) / 2;
        if k == 0 {
            self.o.bonus
        } else if self.o.flat {
            self.o.bonus - half_up
        } else {
            self.o.bonus - i32::from(k) * half_up
        }
    }

    /// The numbers of the roll about to be made.
    pub fn fight(&self) -> Option<Fight> {
        let b = &self.board;
        let v = |s: usize| self.o.value(b[s].unwrap().1);
        Some(match &self.phase {
            RPhase::RollCapture(m) => {
                let def = if m.ep {
                    if self.turn == WHITE {
                        m.to - 8
                    } else {
                        m.to + 8
                    }
                } else {
                    m.to
                };
                let a = v(m.from);
                Fight {
                    attack: a,
                    bonus: if self.o.advanced {
                        self.seq_bonus(a, self.ts.att[m.from])
                    } else {
                        self.o.bonus
                    },
                    defence: v(def),
                }
            }
            RPhase::RollTactical(t, target) => Fight {
                attack: v(t.from) / 2,
                bonus: self.o.bonus,
                defence: v(*target),
            },
            RPhase::RollDivided {
                from,
                targets,
                won,
                lost,
            } => {
                let cur = *targets
                    .iter()
                    .find(|t| !won.contains(t) && !lost.contains(t))?;
                let a = v(*from);
                Fight {
                    attack: a / targets.len() as i32,
                    bonus: self.seq_bonus(a, self.ts.att[*from]),
                    defence: v(cur),
                }
            }
            RPhase::RollCheck(c) | RPhase::RollMate(c) => {
                let vals: Vec<i32> = c.iter().map(|&s| v(s)).collect();
                Fight {
                    attack: if self.o.strongest {
                        *vals.iter().max().unwrap()
                    } else {
                        vals.iter().sum()
                    },
                    bonus: self.o.bonus,
                    defence: self.o.king_value,
                }
            }
            _ => return None,
        })
    }

    /// Who wins with these dice totals: `Some(true)` the attacker,
    /// `Some(false)` the defender, `None` a tie to roll again.
    fn verdict(&self, f: Fight, a: u32, d: u32) -> Option<bool> {
        let at = f.attack + a as i32 + f.bonus;
        let dt = f.defence + d as i32;
        if at != dt {
            return Some(at > dt);
        }
        match self.o.ties {
            Ties::Defender => Some(false),
            Ties::Attacker => Some(true),
            Ties::Reroll => None,
        }
    }

    /// The chance outcomes with their exact probabilities as
    /// (numerator, denominator), or one `given`.
    pub fn outcomes(&self) -> Vec<(RAction, u64, u64)> {
        let f = self.fight().expect("a roll is pending");
        let ways = self.o.ways();
        let den = ways.iter().sum::<u64>().pow(2);
        let mut all = Vec::new();
        let (mut att_can, mut def_can) = (false, false);
        for (a, &wa) in ways.iter().enumerate() {
            for (d, &wd) in ways.iter().enumerate() {
                if wa == 0 || wd == 0 {
                    continue;
                }
                match self.verdict(f, a as u32, d as u32) {
                    Some(true) => att_can = true,
                    Some(false) => def_can = true,
                    None => {}
                }
                all.push((RAction::Roll(a as u32, d as u32), wa * wd, den));
            }
        }
        if !att_can || !def_can {
            return vec![(RAction::Given, 1, 1)];
        }
        all
    }

    // ----- the legal actions -----

    pub fn legal(&self) -> Vec<RAction> {
        match &self.phase {
            RPhase::Act => self.act_actions(),
            RPhase::Choice(sq, defenders) => {
                let mut v = vec![RAction::Stay];
                for d in self.takers(defenders, *sq) {
                    let p = self.board[d].unwrap();
                    if p.1 == Role::P && last_rank(p.0, *sq) {
                        for r in PROMOS {
                            v.push(RAction::Take(d, *sq, Some(r)));
                        }
                    } else {
                        v.push(RAction::Take(d, *sq, None));
                    }
                }
                v
            }
            RPhase::Place(from, squares) => self.place_actions(*from, squares),
            RPhase::Tactical(t) => {
                let mut v: Vec<RAction> =
                    self.hit_targets(*t).into_iter().map(RAction::Hit).collect();
                v.push(RAction::Arrive);
                v
            }
            _ => vec![],
        }
    }

    fn place_actions(&self, from: usize, squares: &[usize]) -> Vec<RAction> {
        let mut v = Vec::new();
        let p = self.board[from].unwrap();
        for &s in squares {
            let promos: Vec<Option<Role>> = if p.1 == Role::P && last_rank(p.0, s) {
                PROMOS.iter().map(|&r| Some(r)).collect()
            } else {
                vec![None]
            };
            for pr in promos {
                let mut b = self.board;
                b[from] = None;
                b[s] = Some(pr.map_or(p, |r| (p.0, r)));
                if Self::safe(&b, self.turn, self.ts.excused) {
                    v.push(RAction::Place(s, pr));
                }
            }
        }
        v
    }

    /// The enemy pieces (not Kings) beside a square of the way from index
    /// `t.at` on, each allowed only if the King is safe once it is beaten
    /// and the piece has arrived.
    fn hit_targets(&self, t: Tac) -> Vec<usize> {
        let w = way(&self.board, t.from, t.to);
        let them = 1 - self.turn;
        (0..64)
            .filter(|&x| {
                self.board[x].is_some_and(|p| p.0 == them && p.1 != Role::K)
                    && w[t.at..].iter().any(|&s| adjacent(s, x))
                    && {
                        let mut b = self.board;
                        b[x] = None;
                        let b = make(
                            &b,
                            RMove {
                                from: t.from,
                                to: t.to,
                                promo: t.promo,
                                ep: false,
                                castle: false,
                            },
                        );
                        Self::safe(&b, self.turn, self.ts.excused)
                    }
            })
            .collect()
    }

    fn act_actions(&self) -> Vec<RAction> {
        let us = self.turn;
        let moves = self.chess_moves();
        if !self.o.advanced {
            return moves.into_iter().map(RAction::Move).collect();
        }
        let ts = &self.ts;
        let mut v = Vec::new();
        for m in &moves {
            let piece = self.board[m.from].unwrap();
            if self.is_capture(m) {
                // A skirmish by a piece already in position.
                if ts.moved & (1 << m.from) != 0 {
                    continue;
                }
                if piece.1 == Role::K && !self.o.king_skirmish && ts.att[m.from] > 0 {
                    continue;
                }
                v.push(RAction::Move(*m));
            } else if !ts.movement && ts.att[m.from] == 0 {
                v.push(RAction::Move(*m));
            }
        }
        // Tactical movements: the quiet destinations and the piece's own
        // square, never castling, the King only when it skirmishes.
        if !ts.movement {
            for s in 0..64 {
                let Some(p) = self.board[s] else { continue };
                if p.0 != us || ts.att[s] > 0 || (p.1 == Role::K && !self.o.king_skirmish) {
                    continue;
                }
                let mut dests: Vec<(usize, Option<Role>)> = vec![(s, None)];
                for m in self.piece_moves(s) {
                    if !m.castle && !self.is_capture(&m) {
                        dests.push((m.to, m.promo));
                    }
                }
                for (to, promo) in dests {
                    let t = Tac {
                        from: s,
                        to,
                        promo,
                        at: 0,
                    };
                    for x in self.hit_targets(t) {
                        v.push(RAction::Tac(t, x));
                    }
                }
            }
        }
        // Divided skirmishes: two or more targets the piece could capture
        // by a chess move (not en passant), all beaten, and some won square
        // to stand on safely.
        for s in 0..64 {
            let Some(p) = self.board[s] else { continue };
            if p.0 != us || ts.moved & (1 << s) != 0 || (p.1 == Role::K && !self.o.king_skirmish) {
                continue;
            }
            let mut targets: Vec<usize> = self
                .piece_moves(s)
                .into_iter()
                .filter(|m| !m.ep && self.board[m.to].is_some())
                .map(|m| m.to)
                .collect();
            targets.sort_unstable();
            targets.dedup();
            let n = targets.len();
            for mask in 0u32..(1 << n) {
                if mask.count_ones() < 2 {
                    continue;
                }
                let chosen: Vec<usize> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| targets[i])
                    .collect();
                let mut b = self.board;
                for &t in &chosen {
                    b[t] = None;
                }
                let g = RGame {
                    board: b,
                    ..self.clone()
                };
                if !g.place_actions(s, &chosen).is_empty() {
                    v.push(RAction::Div(s, chosen));
                }
            }
        }
        if ts.acted {
            v.push(RAction::End);
        }
        v
    }

    // ----- playing -----

    /// Plays a legal action or a chance outcome.
    pub fn play(&mut self, a: &RAction) {
        let before = self.board;
        match a.clone() {
            RAction::Roll(x, y) => {
                let f = self.fight().unwrap();
                // A tie under `ties=reroll` leaves the roll pending.
                if let Some(w) = self.verdict(f, x, y) {
                    self.resolve(w);
                }
            }
            RAction::Given => {
                let f = self.fight().unwrap();
                let ways = self.o.ways();
                let lo = ways.iter().position(|&w| w > 0).unwrap() as u32;
                // Any totals give the same verdict (ties rolled again
                // aside).
                let hi = ways.len() as u32 - 1;
                let w = [(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
                    .into_iter()
                    .find_map(|(x, y)| self.verdict(f, x, y))
                    .unwrap();
                self.resolve(w);
            }
            RAction::Move(m) => {
                self.ts.acted = true;
                let mover = self.board[m.from].unwrap();
                if self.is_capture(&m) {
                    if mover.1 == Role::K && !self.o.king_skirmish {
                        // "the King captures pieces in the normal chess
                        // manner": no roll.
                        self.board = make(&self.board, m);
                        self.ts.progress = true;
                        if self.o.advanced {
                            self.ts.att[m.to] = self.ts.att[m.from] + 1;
                            self.ts.att[m.from] = 0;
                        }
                        self.touch(&before);
                        self.after_action();
                    } else {
                        self.phase = RPhase::RollCapture(m);
                    }
                } else {
                    self.board = make(&self.board, m);
                    if mover.1 == Role::P {
                        self.ts.progress = true;
                        if (rank(m.to) - rank(m.from)).abs() == 2 {
                            self.ts.new_ep = Some((m.from + m.to) / 2);
                        }
                    }
                    self.ts.movement = true;
                    self.ts.moved = 1 << m.to;
                    if m.castle {
                        let rt = if m.to > m.from {
                            m.from + 1
                        } else {
                            m.from - 1
                        };
                        self.ts.moved |= 1 << rt;
                    }
                    self.touch(&before);
                    self.after_action();
                }
            }
            RAction::Tac(t, x) => {
                self.ts.acted = true;
                self.ts.movement = true;
                self.ts.moved = 1 << t.from;
                self.start_hit(t, x);
            }
            RAction::Hit(x) => {
                let RPhase::Tactical(t) = self.phase else {
                    unreachable!()
                };
                self.start_hit(t, x);
            }
            RAction::Arrive => {
                let RPhase::Tactical(t) = self.phase else {
                    unreachable!()
                };
                self.arrive(t);
            }
            RAction::Div(from, targets) => {
                self.ts.acted = true;
                self.phase = RPhase::RollDivided {
                    from,
                    targets,
                    won: vec![],
                    lost: vec![],
                };
            }
            RAction::Place(s, promo) => {
                let RPhase::Place(from, _) = self.phase else {
                    unreachable!()
                };
                self.place(from, s, promo);
            }
            RAction::Stay => self.after_action(),
            RAction::Take(f, t, promo) => {
                let p = self.board[f].take().unwrap();
                self.board[t] = Some(promo.map_or(p, |r| (p.0, r)));
                self.ts.progress = true;
                let was_excused = self.ts.excused & (1 << f) != 0;
                self.touch(&before);
                // The excuse is the piece's, wherever it goes.
                if was_excused {
                    self.ts.excused |= 1 << t;
                }
                self.after_action();
            }
            RAction::End => self.end_turn(),
        }
    }

    /// Castling rights go with the pieces (decision 19): a right is lost
    /// once anything leaves or arrives on its King's or Rook's home square.
    /// An excused checker that leaves its square (captured) is excused no
    /// more: the excuse is for that piece.
    fn touch(&mut self, before: &Board) {
        for s in 0..64 {
            if before[s] != self.board[s] {
                self.ts.excused &= !(1u64 << s);
            }
        }
        for (i, (k, r)) in [(4, 7), (4, 0), (60, 63), (60, 56)].into_iter().enumerate() {
            if before[k] != self.board[k] || before[r] != self.board[r] {
                self.castle[i] = false;
            }
        }
    }

    fn start_hit(&mut self, mut t: Tac, x: usize) {
        let w = way(&self.board, t.from, t.to);
        t.at = (t.at..w.len()).find(|&i| adjacent(w[i], x)).unwrap();
        self.phase = RPhase::RollTactical(t, x);
    }

    fn arrive(&mut self, t: Tac) {
        let before = self.board;
        let p = self.board[t.from].unwrap();
        if t.from != t.to {
            self.board = make(
                &self.board,
                RMove {
                    from: t.from,
                    to: t.to,
                    promo: t.promo,
                    ep: false,
                    castle: false,
                },
            );
            if p.1 == Role::P {
                self.ts.progress = true;
                if (rank(t.to) - rank(t.from)).abs() == 2 {
                    self.ts.new_ep = Some((t.from + t.to) / 2);
                }
            }
        }
        self.ts.moved = 1 << t.to;
        self.touch(&before);
        self.after_action();
    }

    fn place(&mut self, from: usize, s: usize, promo: Option<Role>) {
        let before = self.board;
        let p = self.board[from].take().unwrap();
        self.board[s] = Some(promo.map_or(p, |r| (p.0, r)));
        self.ts.att[s] = self.ts.att[from] + 1;
        self.ts.att[from] = 0;
        self.touch(&before);
        self.after_action();
    }

    /// The defenders among `cands` that may take the attacker's old square
    /// `sq` (decisions 3-4).
    fn takers(&self, cands: &[usize], sq: usize) -> Vec<usize> {
        let them = 1 - self.turn;
        cands
            .iter()
            .copied()
            .filter(|&d| {
                if self.o.reachable && !attacks(&self.board, d).contains(&sq) {
                    return false;
                }
                let mut b = self.board;
                b[sq] = b[d].take();
                Self::safe(&b, them, 0)
            })
            .collect()
    }

    /// The attacker lost: its piece on `from` leaves the board, and the
    /// defenders that beat it may take `sq`.
    fn attacker_lost(&mut self, from: usize, sq: usize, defenders: &[usize]) {
        let before = self.board;
        let p = self.board[from].take().unwrap();
        self.ts.att[from] = 0;
        self.ts.progress = true;
        self.touch(&before);
        if p.1 == Role::K {
            self.phase = RPhase::Over(Some(1 - self.turn), "king-captured");
            return;
        }
        // The phase names every defender that beat it; those that may take
        // are offered the taking.
        if self.takers(defenders, sq).is_empty() {
            self.after_action();
        } else {
            self.phase = RPhase::Choice(sq, defenders.to_vec());
        }
    }

    fn resolve(&mut self, attacker_wins: bool) {
        let before = self.board;
        match self.phase.clone() {
            RPhase::RollCapture(m) => {
                if attacker_wins {
                    self.board = make(&self.board, m);
                    self.ts.progress = true;
                    if self.o.advanced {
                        self.ts.att[m.to] = self.ts.att[m.from] + 1;
                        self.ts.att[m.from] = 0;
                    }
                    self.touch(&before);
                    self.after_action();
                } else {
                    let def = if m.ep {
                        if self.turn == WHITE {
                            m.to - 8
                        } else {
                            m.to + 8
                        }
                    } else {
                        m.to
                    };
                    self.attacker_lost(m.from, m.from, &[def]);
                }
            }
            RPhase::RollTactical(t, x) => {
                if attacker_wins {
                    self.board[x] = None;
                    self.ts.progress = true;
                    self.touch(&before);
                    if self.hit_targets(t).is_empty() {
                        self.arrive(t);
                    } else {
                        self.phase = RPhase::Tactical(t);
                    }
                } else {
                    self.ts.moved = 0;
                    let w = way(&self.board, t.from, t.to);
                    self.attacker_lost(t.from, w[t.at], &[x]);
                }
            }
            RPhase::RollDivided {
                from,
                targets,
                mut won,
                mut lost,
            } => {
                let cur = *targets
                    .iter()
                    .find(|t| !won.contains(t) && !lost.contains(t))
                    .unwrap();
                if attacker_wins {
                    self.board[cur] = None;
                    self.ts.progress = true;
                    self.touch(&before);
                    won.push(cur);
                } else {
                    lost.push(cur);
                }
                if won.len() + lost.len() < targets.len() {
                    self.phase = RPhase::RollDivided {
                        from,
                        targets,
                        won,
                        lost,
                    };
                } else if lost.is_empty() {
                    let acts = self.place_actions(from, &won);
                    if acts.len() == 1 {
                        let RAction::Place(s, p) = acts[0] else {
                            unreachable!()
                        };
                        self.place(from, s, p);
                    } else {
                        self.phase = RPhase::Place(from, won);
                    }
                } else {
                    self.attacker_lost(from, from, &lost);
                }
            }
            RPhase::RollCheck(c) => {
                if !attacker_wins {
                    // The King need not respond to these pieces this turn.
                    for s in c {
                        self.ts.excused |= 1 << s;
                    }
                }
                self.phase = RPhase::Act;
            }
            RPhase::RollMate(c) => {
                if attacker_wins {
                    self.phase = RPhase::Over(Some(1 - self.turn), "checkmate");
                } else {
                    // "the loss of the checking piece(s)"
                    for s in c {
                        self.board[s] = None;
                    }
                    self.touch(&before);
                    // The turn start is read again (decision 15): a piece
                    // left the board before the turn's first action, so
                    // the count starts afresh from here and the new start
                    // is the first of a new repetition history.
                    self.half = 0;
                    self.history.clear();
                    self.history.push(self.key());
                    self.settle_turn_start();
                }
            }
            _ => unreachable!(),
        }
    }

    /// After an action of the player: the Basic turn is over; the Advanced
    /// turn goes on, ending by itself when `end` is all that is left.
    fn after_action(&mut self) {
        if !self.o.advanced {
            self.end_turn();
            return;
        }
        self.phase = RPhase::Act;
        let left = self.act_actions();
        if left == [RAction::End] {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.half = if self.ts.progress { 0 } else { self.half + 1 };
        if self.turn == BLACK {
            self.full += 1;
        }
        self.turn = 1 - self.turn;
        self.ep = self.ts.new_ep;
        if self.ts.progress {
            self.history.clear();
        }
        self.ts = RTurn::default();
        self.history.push(self.key());
        self.settle_turn_start();
    }

    fn insufficient(&self) -> bool {
        let pieces: Vec<(usize, Pc)> = (0..64)
            .filter_map(|s| self.board[s].map(|p| (s, p)))
            .filter(|(_, p)| p.1 != Role::K)
            .collect();
        if self.o.king_skirmish {
            return pieces.is_empty();
        }
        if pieces
            .iter()
            .any(|(_, p)| matches!(p.1, Role::P | Role::R | Role::Q))
        {
            return false;
        }
        if pieces.len() <= 1 {
            return true;
        }
        let colour = |s: usize| (file(s) + rank(s)) % 2;
        pieces.iter().all(|(_, p)| p.1 == Role::B)
            && pieces
                .iter()
                .all(|(s, _)| colour(*s) == colour(pieces[0].0))
    }

    /// The start of a turn: a checkmate or check roll, stalemate, a draw,
    /// or the player acts.
    fn settle_turn_start(&mut self) {
        let us = self.turn;
        self.phase = RPhase::Act;
        let checkers = match king_of(&self.board, us) {
            Some(k) => attackers(&self.board, k, 1 - us, 0),
            None => vec![],
        };
        let none = self.act_actions().is_empty();
        let repeated = !self.ts.progress
            && self
                .history
                .iter()
                .filter(|&&h| Some(&h) == self.history.last())
                .count()
                >= 3;
        // Draws come "at once" (decision 16), before any roll, except that a
        // checkmate roll is made first (as chess's mate beats its draws; a
        // mate position is never dead nor a third repetition).
        if !checkers.is_empty() && none {
            self.phase = RPhase::RollMate(checkers);
        } else if self.insufficient() {
            self.phase = RPhase::Over(None, "insufficient-material");
        } else if repeated {
            self.phase = RPhase::Over(None, "repetition");
        } else if none {
            self.phase = RPhase::Over(None, "stalemate");
        } else if self.half >= 100 {
            self.phase = RPhase::Over(None, "no-progress");
        } else if !checkers.is_empty() {
            self.phase = RPhase::RollCheck(checkers);
        }
    }

    /// Perft with chance outcomes as branches.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.result().is_some() {
            return 1;
        }
        let acts: Vec<RAction> = if self.is_chance() {
            self.outcomes().into_iter().map(|(a, _, _)| a).collect()
        } else {
            self.legal()
        };
        if depth == 1 {
            return acts.len() as u64;
        }
        acts.iter()
            .map(|a| {
                let mut g = self.clone();
                g.play(a);
                g.perft(depth - 1)
            })
            .sum()
    }
}
