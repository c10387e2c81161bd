//! A deliberately simple second rules engine for Chess 13: Epoch, written
//! straight from the book's sentences (`shared/rules/chess13-epoch.txt`) and
//! the readings recorded in `docs/rules/epoch.md`, to check the fast engine
//! in `src/` against.
//!
//! Nothing here is shared with `src/` except the public `Color`, `Piece` and
//! `PieceKind` types: the board is a plain `[[Option<Piece>; 13]; 13]`
//! mailbox, squares are `(file, rank)` pairs, the position text is parsed
//! and written here, every "attack" is answered by asking each piece in turn
//! which squares it could take a piece on (the book's definition of check:
//! "A piece attacks the Pope ... the Pope falls"), and legality is
//! copy-make. It is slow on purpose; its only job is to read the book
//! independently.
#![allow(dead_code)]

use tabula_epoch::{Color, Piece, PieceKind};

/// A square as (file 0..13 = a..m, rank 0..13 = 1..13).
pub type Sq = (i8, i8);

const ORTHO: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ALL8: [Sq; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// "three squares one way and two the other".
fn leaps_32() -> Vec<Sq> {
    let mut v = Vec::new();
    for (a, b) in [(3, 2), (2, 3)] {
        for sa in [-1, 1] {
            for sb in [-1, 1] {
                v.push((a * sa, b * sb));
            }
        }
    }
    v
}

/// "two squares one way and one the other, which is the knight leap of chess".
fn leaps_21() -> Vec<Sq> {
    let mut v = Vec::new();
    for (a, b) in [(2, 1), (1, 2)] {
        for sa in [-1, 1] {
            for sb in [-1, 1] {
                v.push((a * sa, b * sb));
            }
        }
    }
    v
}

/// Whether a square is on the 13x13 board.
pub fn on(s: Sq) -> bool {
    (0..13).contains(&s.0) && (0..13).contains(&s.1)
}

fn add(s: Sq, d: Sq, k: i8) -> Sq {
    (s.0 + d.0 * k, s.1 + d.1 * k)
}

/// King distance ("one diagonal step counts as one square").
fn king_distance(a: Sq, b: Sq) -> i8 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// Whether a piece on `s` is enhanced by its Marshal standing on `marshal`.
fn zone(marshal: Option<Sq>, s: Sq) -> bool {
    match marshal {
        None => false,
        Some(m) => m == (6, 6) || king_distance(m, s) <= 4,
    }
}

fn is_corner(s: Sq) -> bool {
    (s.0 == 0 || s.0 == 12) && (s.1 == 0 || s.1 == 12)
}

/// The square's name, e.g. `g7`.
pub fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

fn parse_sq(t: &str) -> Option<Sq> {
    let mut c = t.chars();
    let f = c.next()?;
    if !('a'..='m').contains(&f) {
        return None;
    }
    let r: i8 = c.as_str().parse().ok()?;
    let s = (f as i8 - 'a' as i8, r - 1);
    on(s).then_some(s)
}

fn opp(c: Color) -> Color {
    match c {
        Color::White => Color::Black,
        Color::Black => Color::White,
    }
}

fn ci(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Ranks counted from `c`'s own side: 0 is its back rank, 12 the last rank.
fn rel(c: Color, rank: i8) -> i8 {
    match c {
        Color::White => rank,
        Color::Black => 12 - rank,
    }
}

fn forward(c: Color) -> i8 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

fn letter(k: PieceKind) -> char {
    match k {
        PieceKind::Sentinel => 'S',
        PieceKind::Templar => 'T',
        PieceKind::Herald => 'H',
        PieceKind::Mage => 'G',
        PieceKind::Assassin => 'A',
        PieceKind::Emperor => 'E',
        PieceKind::Pope => 'P',
        PieceKind::Marshal => 'M',
        PieceKind::Legionary => 'L',
    }
}

fn kind_of(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'S' => PieceKind::Sentinel,
        'T' => PieceKind::Templar,
        'H' => PieceKind::Herald,
        'G' => PieceKind::Mage,
        'A' => PieceKind::Assassin,
        'E' => PieceKind::Emperor,
        'P' => PieceKind::Pope,
        'M' => PieceKind::Marshal,
        'L' => PieceKind::Legionary,
        _ => return None,
    })
}

/// The order promotion places are written in: `S T H G A E M`.
const PLACE_ORDER: [PieceKind; 7] = [
    PieceKind::Sentinel,
    PieceKind::Templar,
    PieceKind::Herald,
    PieceKind::Mage,
    PieceKind::Assassin,
    PieceKind::Emperor,
    PieceKind::Marshal,
];

/// One action, in the reference's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RMove {
    /// To an empty square.
    Step { from: Sq, to: Sq },
    /// Ends on the square of the piece it takes.
    Take { from: Sq, to: Sq },
    /// The Assassin passes over `victim` and lands on `to`.
    Pass { from: Sq, victim: Sq, to: Sq },
    /// The Mage blasts its ring.
    Blast { at: Sq },
    /// A Legionary takes the advanced Legionary beside it.
    EnPassant { from: Sq, to: Sq },
    /// A Legionary arrives on the last rank and is traded in the same move.
    Promote {
        from: Sq,
        to: Sq,
        take: bool,
        kind: PieceKind,
        file: i8,
    },
    /// A waiting Legionary is traded: the whole move.
    Trade { at: Sq, kind: PieceKind, file: i8 },
    /// Castling: `left` is towards file a (the Emperor's side).
    Castle { left: bool },
    /// Black takes White's side.
    Swap,
}

impl RMove {
    /// The canonical text documented in `docs/rules/epoch.md`.
    pub fn text(&self) -> String {
        let place = |k: PieceKind, f: i8| format!("{}{}", letter(k), (b'a' + f as u8) as char);
        match *self {
            RMove::Step { from, to } => format!("{}{}", name(from), name(to)),
            RMove::Take { from, to } => format!("{}x{}", name(from), name(to)),
            RMove::Pass { from, victim, to } => {
                format!("{}x{}{}", name(from), name(victim), name(to))
            }
            RMove::Blast { at } => format!("{}x{}", name(at), name(at)),
            RMove::EnPassant { from, to } => format!("{}x{}ep", name(from), name(to)),
            RMove::Promote {
                from,
                to,
                take,
                kind,
                file,
            } => format!(
                "{}{}{}={}",
                name(from),
                if take { "x" } else { "" },
                name(to),
                place(kind, file)
            ),
            RMove::Trade { at, kind, file } => format!("{}={}", name(at), place(kind, file)),
            RMove::Castle { left: false } => "O-O".to_owned(),
            RMove::Castle { left: true } => "O-O-O".to_owned(),
            RMove::Swap => "swap".to_owned(),
        }
    }
}

/// Which "attack" is asked: whether the piece could really take the Pope
/// standing there (check), or whether it watches the square (the Marshal's
/// support, the Emperor's waking, the Assassin's landing square).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Check,
    Watch,
}

/// The board and every right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RPos {
    /// `board[file][rank]`.
    pub board: [[Option<Piece>; 13]; 13],
    pub side: Color,
    /// `castle[colour][0]` the right (Marshal's) wing `O-O`, `[1]` the left `O-O-O`.
    pub castle: [[bool; 2]; 2],
    pub ep: Option<Sq>,
    pub riposte: bool,
    pub awake: [bool; 2],
    /// Lost pieces: (colour, kind, file it was lost on), one entry per piece.
    pub places: Vec<(Color, PieceKind, i8)>,
    pub plies: u32,
    pub fullmove: u32,
}

impl RPos {
    pub fn at(&self, s: Sq) -> Option<Piece> {
        if on(s) {
            self.board[s.0 as usize][s.1 as usize]
        } else {
            None
        }
    }

    fn set(&mut self, s: Sq, p: Option<Piece>) {
        self.board[s.0 as usize][s.1 as usize] = p;
    }

    fn empty_sq(&self, s: Sq) -> bool {
        on(s) && self.at(s).is_none()
    }

    fn find(&self, c: Color, k: PieceKind) -> Option<Sq> {
        for f in 0..13 {
            for r in 0..13 {
                if self.at((f, r)) == Some(Piece::new(c, k)) {
                    return Some((f, r));
                }
            }
        }
        None
    }

    fn pieces_of(&self, c: Color) -> Vec<(Sq, PieceKind)> {
        let mut v = Vec::new();
        for f in 0..13 {
            for r in 0..13 {
                if let Some(p) = self.at((f, r))
                    && p.color == c
                {
                    v.push(((f, r), p.kind));
                }
            }
        }
        v
    }

    pub fn piece_count(&self) -> usize {
        self.board.iter().flatten().flatten().count()
    }

    /// The command square: "Marshal on g7. Your whole army is enhanced ...
    /// Every piece within four squares of it is enhanced ... Marshal
    /// captured. Your whole army is restricted".
    fn enhanced(&self, c: Color, s: Sq) -> bool {
        zone(self.find(c, PieceKind::Marshal), s)
    }

    /// "nothing on the board can remove it": a dormant Emperor.
    fn removable(&self, p: Piece) -> bool {
        p.kind != PieceKind::Emperor || self.awake[ci(p.color)]
    }

    fn is_enemy_removable(&self, s: Sq, us: Color) -> bool {
        self.at(s)
            .is_some_and(|p| p.color != us && self.removable(p))
    }

    /// Whether the piece on `from` could take a piece standing on `target`,
    /// in `mode`.
    fn hits_square(&self, from: Sq, target: Sq, mode: Mode, enh: bool) -> bool {
        self.hits(from, mode, Some(target), enh).contains(&target)
    }

    /// The squares the piece on `from` could take a piece on, in `mode`
    /// (only `target` is examined in full when given: the Assassin's landing
    /// test is costly).
    fn hits(&self, from: Sq, mode: Mode, target: Option<Sq>, enh: bool) -> Vec<Sq> {
        let Some(p) = self.at(from) else {
            return Vec::new();
        };
        let c = p.color;
        let mut out = Vec::new();
        // Every square along a line up to `reach`, the first piece included.
        let line = |out: &mut Vec<Sq>, dirs: &[Sq], reach: i8| {
            for &d in dirs {
                for k in 1..=reach {
                    let s = add(from, d, k);
                    if !on(s) {
                        break;
                    }
                    out.push(s);
                    if self.at(s).is_some() {
                        break;
                    }
                }
            }
        };
        match p.kind {
            PieceKind::Pope => {
                for d in ALL8 {
                    out.push(add(from, d, 1));
                }
            }
            PieceKind::Legionary => {
                for df in [-1, 1] {
                    out.push((from.0 + df, from.1 + forward(c)));
                }
            }
            PieceKind::Templar => {
                for d in leaps_32() {
                    out.push(add(from, d, 1));
                }
                if enh {
                    for d in leaps_21() {
                        out.push(add(from, d, 1));
                    }
                }
            }
            PieceKind::Herald => {
                line(&mut out, &DIAG, if enh { 12 } else { 6 });
                if enh {
                    for d in ORTHO {
                        out.push(add(from, d, 1));
                    }
                }
            }
            PieceKind::Sentinel => line(&mut out, &ORTHO, if enh { 12 } else { 6 }),
            PieceKind::Emperor => {
                if self.awake[ci(c)] {
                    line(&mut out, &ALL8, 12);
                }
            }
            PieceKind::Marshal => {
                if mode == Mode::Check {
                    line(&mut out, &ALL8, 12);
                }
            }
            PieceKind::Mage => {
                let own_pope_in_ring = ALL8
                    .iter()
                    .any(|&d| self.at(add(from, d, 1)) == Some(Piece::new(c, PieceKind::Pope)));
                if mode == Mode::Watch || enh || !own_pope_in_ring {
                    for d in ALL8 {
                        out.push(add(from, d, 1));
                    }
                }
            }
            PieceKind::Assassin => {
                let reach = if enh { 12 } else { 6 };
                for d in ALL8 {
                    for k in 1..=reach {
                        let x = add(from, d, k);
                        if !on(x) {
                            break;
                        }
                        if target.is_some_and(|t| t != x) {
                            if self.at(x).is_some() {
                                break;
                            }
                            continue;
                        }
                        let beyond = add(x, d, 1);
                        if on(beyond) {
                            if k < reach
                                && self.at(beyond).is_none()
                                && (mode == Mode::Watch || !self.landing_watched(from, x, beyond))
                            {
                                out.push(x);
                            }
                        } else if is_corner(x)
                            && (mode == Mode::Watch || !self.landing_watched(from, x, x))
                        {
                            out.push(x);
                        }
                        if self.at(x).is_some() {
                            break;
                        }
                    }
                }
            }
        }
        out.retain(|&s| on(s));
        out
    }

    /// "the square behind must be empty and must not be attacked": after the
    /// Assassin on `from` took the piece on `victim` and landed on `land`,
    /// does the victim's side watch `land`?
    fn landing_watched(&self, from: Sq, victim: Sq, land: Sq) -> bool {
        let Some(a) = self.at(from) else {
            return false;
        };
        let mut after = self.clone();
        after.set(victim, None);
        after.set(from, None);
        after.set(land, Some(a));
        after.watched_by(opp(a.color), land)
    }

    /// Some piece of `by` other than its Marshal watches `s`.
    fn watched_by(&self, by: Color, s: Sq) -> bool {
        let marshal = self.find(by, PieceKind::Marshal);
        self.pieces_of(by)
            .into_iter()
            .any(|(from, _)| self.hits_square(from, s, Mode::Watch, zone(marshal, from)))
    }

    /// `c`'s Pope could be taken by the opponent now.
    pub fn in_check(&self, c: Color) -> bool {
        let Some(pope) = self.find(c, PieceKind::Pope) else {
            return false;
        };
        let marshal = self.find(opp(c), PieceKind::Marshal);
        self.pieces_of(opp(c))
            .into_iter()
            .any(|(from, _)| self.hits_square(from, pope, Mode::Check, zone(marshal, from)))
    }

    /// The Marshal has a clear line to `to`: same rank, file or diagonal and
    /// nothing standing between.
    fn clear_line(&self, from: Sq, to: Sq) -> bool {
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return false;
        }
        let d = (df.signum(), dr.signum());
        let n = df.abs().max(dr.abs());
        (1..n).all(|k| self.at(add(from, d, k)).is_none())
    }

    /// Every move of the side to move that obeys the pieces' own rules,
    /// before the Pope's safety is asked.
    fn candidate_moves(&self) -> Vec<RMove> {
        let us = self.side;
        let mut out = Vec::new();
        for (from, kind) in self.pieces_of(us) {
            let enh = self.enhanced(us, from);
            match kind {
                PieceKind::Herald => self.herald(&mut out, from, enh),
                PieceKind::Sentinel => self.sentinel(&mut out, from, enh),
                PieceKind::Templar => self.templar(&mut out, from, enh),
                PieceKind::Legionary => self.legionary(&mut out, from, enh),
                PieceKind::Mage => self.mage(&mut out, from, enh),
                PieceKind::Assassin => self.assassin(&mut out, from, enh),
                PieceKind::Marshal => self.marshal(&mut out, from),
                PieceKind::Emperor => {
                    if self.awake[ci(us)] {
                        self.queen_like(&mut out, from);
                    }
                }
                PieceKind::Pope => self.pope(&mut out, from),
            }
        }
        out
    }

    /// Herald: "Diagonals with no limit, for moving and for capturing. The
    /// straight step can capture as well." / "Diagonals up to six squares,
    /// for moving and for capturing. The straight step is still there, but
    /// it cannot capture."
    fn herald(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        let reach = if enh { 12 } else { 6 };
        for d in DIAG {
            for k in 1..=reach {
                let to = add(from, d, k);
                if !on(to) {
                    break;
                }
                match self.at(to) {
                    None => out.push(RMove::Step { from, to }),
                    Some(_) => {
                        if self.is_enemy_removable(to, us) {
                            out.push(RMove::Take { from, to });
                        }
                        break;
                    }
                }
            }
        }
        for d in ORTHO {
            let to = add(from, d, 1);
            if !on(to) {
                continue;
            }
            if self.at(to).is_none() {
                out.push(RMove::Step { from, to });
            } else if enh && self.is_enemy_removable(to, us) {
                out.push(RMove::Take { from, to });
            }
        }
    }

    /// Sentinel: "Six squares on a quiet move, no limit when it captures, and
    /// it passes through your own pieces towards your Marshal." / "Three
    /// squares on a quiet move, six when it captures, and any piece blocks
    /// it." "Towards is measured one axis at a time." "Once it has passed
    /// through it can no longer capture."
    fn sentinel(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        let (quiet, capture) = if enh { (6, 12) } else { (3, 6) };
        let marshal = self.find(us, PieceKind::Marshal);
        for d in ORTHO {
            let towards = enh
                && marshal.is_some_and(|m| {
                    if d.0 != 0 {
                        (m.0 - from.0).signum() == d.0
                    } else {
                        (m.1 - from.1).signum() == d.1
                    }
                });
            let mut passed = false;
            for k in 1..=12 {
                let to = add(from, d, k);
                if !on(to) {
                    break;
                }
                match self.at(to) {
                    None => {
                        if k <= quiet {
                            out.push(RMove::Step { from, to });
                        } else if passed {
                            break;
                        }
                    }
                    Some(p) if p.color == us => {
                        if towards {
                            passed = true;
                        } else {
                            break;
                        }
                    }
                    Some(p) => {
                        if !passed && k <= capture && self.removable(p) {
                            out.push(RMove::Take { from, to });
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Templar: "Two leap shapes, three squares one way and two the other,
    /// or two squares one way and one the other" / "One leap shape only,
    /// three squares one way and two the other."
    fn templar(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        let mut shapes = leaps_32();
        if enh {
            shapes.extend(leaps_21());
        }
        for d in shapes {
            let to = add(from, d, 1);
            if !on(to) {
                continue;
            }
            if self.at(to).is_none() {
                out.push(RMove::Step { from, to });
            } else if self.is_enemy_removable(to, us) {
                out.push(RMove::Take { from, to });
            }
        }
    }

    /// A Legionary's move to `to` on the last rank trades on the spot when a
    /// place is open on its file or either side ("If two places are open
    /// across its three files, you choose"); otherwise it is an ordinary move.
    fn legionary_arrival(&self, out: &mut Vec<RMove>, from: Sq, to: Sq, take: bool) {
        let us = self.side;
        if rel(us, to.1) == 12 {
            let options = self.open_places(us, to.0);
            if !options.is_empty() {
                for (kind, file) in options {
                    out.push(RMove::Promote {
                        from,
                        to,
                        take,
                        kind,
                        file,
                    });
                }
                return;
            }
        }
        out.push(if take {
            RMove::Take { from, to }
        } else {
            RMove::Step { from, to }
        });
    }

    /// The distinct (kind, file) places of `c` on `file` or either side.
    fn open_places(&self, c: Color, file: i8) -> Vec<(PieceKind, i8)> {
        let mut v: Vec<(PieceKind, i8)> = Vec::new();
        for &(pc, k, f) in &self.places {
            if pc == c && (f - file).abs() <= 1 && !v.contains(&(k, f)) {
                v.push((k, f));
            }
        }
        v
    }

    /// Legionary: "Below rank 7 a Legionary moves straight forward to any
    /// empty square up to rank 7 and no further" / "From rank 7 onward, one
    /// or two squares forward each move" (enhanced) / "one square" /
    /// "capturing is one square diagonally forward" / en passant / promotion.
    fn legionary(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        let fwd = forward(us);
        let r = rel(us, from.1);
        if r == 12 {
            for (kind, file) in self.open_places(us, from.0) {
                out.push(RMove::Trade {
                    at: from,
                    kind,
                    file,
                });
            }
            return;
        }
        let max_steps = if r < 6 {
            6 - r
        } else if enh {
            2
        } else {
            1
        };
        for k in 1..=max_steps {
            let to = (from.0, from.1 + fwd * k);
            if !self.empty_sq(to) {
                break;
            }
            self.legionary_arrival(out, from, to, false);
        }
        for df in [-1, 1] {
            let to = (from.0 + df, from.1 + fwd);
            if !on(to) {
                continue;
            }
            if self.is_enemy_removable(to, us) {
                self.legionary_arrival(out, from, to, true);
            } else if self.at(to).is_none()
                && self.ep == Some(to)
                && self.at((to.0, from.1)) == Some(Piece::new(opp(us), PieceKind::Legionary))
            {
                out.push(RMove::EnPassant { from, to });
            }
        }
    }

    /// Mage: "Moves one square in any of the eight directions, and two
    /// squares while enhanced. The two-square move is a leap ... The square
    /// it lands on must be empty." The blast: "at least one enemy piece in
    /// the ring"; restricted, not with its own Pope in the ring (Check).
    fn mage(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        for d in ALL8 {
            for k in 1..=(if enh { 2 } else { 1 }) {
                let to = add(from, d, k);
                if self.empty_sq(to) {
                    out.push(RMove::Step { from, to });
                }
            }
        }
        let ring: Vec<Sq> = ALL8.iter().map(|&d| add(from, d, 1)).collect();
        let enemy = ring.iter().any(|&s| self.is_enemy_removable(s, us));
        let own_pope = ring
            .iter()
            .any(|&s| self.at(s) == Some(Piece::new(us, PieceKind::Pope)));
        if enemy && (enh || !own_pope) {
            out.push(RMove::Blast { at: from });
        }
    }

    /// Assassin: queen lines, the capture passes over the piece onto the
    /// empty, unattacked square beyond; six squares restricted "the whole
    /// capture stays inside those six"; no square behind on the edge, the
    /// corner captured by ending on it.
    fn assassin(&self, out: &mut Vec<RMove>, from: Sq, enh: bool) {
        let us = self.side;
        let reach = if enh { 12 } else { 6 };
        for d in ALL8 {
            for k in 1..=reach {
                let x = add(from, d, k);
                if !on(x) {
                    break;
                }
                if self.at(x).is_none() {
                    out.push(RMove::Step { from, to: x });
                    continue;
                }
                if self.is_enemy_removable(x, us) {
                    let beyond = add(x, d, 1);
                    if on(beyond) {
                        if k < reach
                            && self.at(beyond).is_none()
                            && !self.landing_watched(from, x, beyond)
                        {
                            out.push(RMove::Pass {
                                from,
                                victim: x,
                                to: beyond,
                            });
                        }
                    } else if is_corner(x) && !self.landing_watched(from, x, x) {
                        out.push(RMove::Take { from, to: x });
                    }
                }
                break;
            }
        }
    }

    /// Marshal: queen moves; "only captures a piece one of your other pieces
    /// is already attacking", the Pope exempt, anything on its lines during
    /// the riposte.
    fn marshal(&self, out: &mut Vec<RMove>, from: Sq) {
        let us = self.side;
        for d in ALL8 {
            for k in 1..=12 {
                let to = add(from, d, k);
                if !on(to) {
                    break;
                }
                match self.at(to) {
                    None => out.push(RMove::Step { from, to }),
                    Some(p) => {
                        if p.color != us
                            && self.removable(p)
                            && (self.riposte
                                || p.kind == PieceKind::Pope
                                || self.watched_by(us, to))
                        {
                            out.push(RMove::Take { from, to });
                        }
                        break;
                    }
                }
            }
        }
    }

    /// The awake Emperor: "the queen of this game".
    fn queen_like(&self, out: &mut Vec<RMove>, from: Sq) {
        let us = self.side;
        for d in ALL8 {
            for k in 1..=12 {
                let to = add(from, d, k);
                if !on(to) {
                    break;
                }
                match self.at(to) {
                    None => out.push(RMove::Step { from, to }),
                    Some(_) => {
                        if self.is_enemy_removable(to, us) {
                            out.push(RMove::Take { from, to });
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Pope: one square; castling "the Pope travels three files", the
    /// Sentinel finishing on e1 / i1, squares between empty, the Pope not
    /// starting, crossing or finishing on an attacked square.
    fn pope(&self, out: &mut Vec<RMove>, from: Sq) {
        let us = self.side;
        for d in ALL8 {
            let to = add(from, d, 1);
            if !on(to) {
                continue;
            }
            if self.at(to).is_none() {
                out.push(RMove::Step { from, to });
            } else if self.is_enemy_removable(to, us) {
                out.push(RMove::Take { from, to });
            }
        }
        let back = if us == Color::White { 0 } else { 12 };
        if from != (6, back) {
            return;
        }
        for left in [false, true] {
            if !self.castle[ci(us)][usize::from(left)] {
                continue;
            }
            let corner = if left { 0 } else { 12 };
            if self.at((corner, back)) != Some(Piece::new(us, PieceKind::Sentinel)) {
                continue;
            }
            let between: Vec<i8> = if left {
                (1..=5).collect()
            } else {
                (7..=11).collect()
            };
            if between.iter().any(|&f| self.at((f, back)).is_some()) {
                continue;
            }
            if self.in_check(us) {
                continue;
            }
            let path: [i8; 3] = if left { [5, 4, 3] } else { [7, 8, 9] };
            let safe = path.iter().all(|&f| {
                let mut there = self.clone();
                there.set(from, None);
                there.set((f, back), Some(Piece::new(us, PieceKind::Pope)));
                !there.in_check(us)
            });
            if safe {
                out.push(RMove::Castle { left });
            }
        }
    }

    /// Plays `m` for the side to move and opens the opponent's turn.
    /// Returns whether it was progress.
    pub fn make(&mut self, m: RMove) -> bool {
        let us = self.side;
        let them = opp(us);
        let mut lost: Vec<(Sq, Piece)> = Vec::new();
        let mut progress = false;
        let mut new_ep = None;
        let lift = |pos: &mut RPos, s: Sq, lost: &mut Vec<(Sq, Piece)>| {
            if let Some(p) = pos.at(s) {
                lost.push((s, p));
            }
            pos.set(s, None);
        };
        match m {
            RMove::Step { from, to } => {
                let p = self.at(from);
                if p.is_some_and(|p| p.kind == PieceKind::Legionary) {
                    progress = true;
                    if rel(us, from.1) == 2 && rel(us, to.1) == 6 {
                        new_ep = Some((to.0, to.1 - forward(us)));
                    }
                }
                self.set(from, None);
                self.set(to, p);
            }
            RMove::Take { from, to } => {
                progress = true;
                lift(self, to, &mut lost);
                let p = self.at(from);
                self.set(from, None);
                self.set(to, p);
            }
            RMove::Pass { from, victim, to } => {
                progress = true;
                lift(self, victim, &mut lost);
                let p = self.at(from);
                self.set(from, None);
                self.set(to, p);
            }
            RMove::EnPassant { from, to } => {
                progress = true;
                lift(self, (to.0, from.1), &mut lost);
                let p = self.at(from);
                self.set(from, None);
                self.set(to, p);
            }
            RMove::Blast { at } => {
                progress = true;
                let enh = self.enhanced(us, at);
                for d in ALL8 {
                    let s = add(at, d, 1);
                    if let Some(p) = self.at(s)
                        && self.removable(p)
                        && (p.color == them || !enh)
                    {
                        lift(self, s, &mut lost);
                    }
                }
            }
            RMove::Promote {
                from,
                to,
                take,
                kind,
                file,
            } => {
                progress = true;
                if take {
                    lift(self, to, &mut lost);
                }
                self.set(from, None);
                self.fill_place(to, kind, file);
            }
            RMove::Trade { at, kind, file } => {
                progress = true;
                self.fill_place(at, kind, file);
            }
            RMove::Castle { left } => {
                let back = if us == Color::White { 0 } else { 12 };
                let (s_from, s_to, p_to) = if left { (0, 4, 3) } else { (12, 8, 9) };
                let pope = self.at((6, back));
                let sentinel = self.at((s_from, back));
                self.set((6, back), None);
                self.set((s_from, back), None);
                self.set((p_to, back), pope);
                self.set((s_to, back), sentinel);
            }
            RMove::Swap => return false,
        }
        // "A captured piece counts on the file it stood on."
        for &(s, p) in &lost {
            if PLACE_ORDER.contains(&p.kind) {
                self.places.push((p.color, p.kind, s.0));
            }
        }
        // Castling: "Neither piece may have moved earlier."
        for c in [Color::White, Color::Black] {
            let back = if c == Color::White { 0 } else { 12 };
            let pope_home = self.at((6, back)) == Some(Piece::new(c, PieceKind::Pope));
            for (wing, corner) in [(0usize, 12i8), (1, 0)] {
                if !pope_home || self.at((corner, back)) != Some(Piece::new(c, PieceKind::Sentinel))
                {
                    self.castle[ci(c)][wing] = false;
                }
            }
        }
        // Riposte: the opponent lost a piece on a square its Marshal has a
        // clear line to.
        self.riposte = match self.find(them, PieceKind::Marshal) {
            Some(m) => lost
                .iter()
                .any(|&(s, p)| p.color == them && self.clear_line(m, s)),
            None => false,
        };
        self.ep = new_ep;
        self.plies = if progress { 0 } else { self.plies + 1 };
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        self.open_turn();
        progress
    }

    fn fill_place(&mut self, at: Sq, kind: PieceKind, file: i8) {
        let us = self.side;
        if let Some(i) = self.places.iter().position(|&x| x == (us, kind, file)) {
            self.places.remove(i);
        }
        self.set(at, Some(Piece::new(us, kind)));
        if kind == PieceKind::Emperor {
            // "trading into an Emperor skips the dormancy"
            self.awake[ci(us)] = true;
        }
    }

    /// "Two things bring it into play: your Marshal is captured, or the
    /// Emperor stands under attack when your turn begins."
    pub fn open_turn(&mut self) {
        let us = self.side;
        if self.awake[ci(us)] {
            return;
        }
        if let Some(e) = self.find(us, PieceKind::Emperor)
            && (self.find(us, PieceKind::Marshal).is_none() || self.watched_by(opp(us), e))
        {
            self.awake[ci(us)] = true;
        }
    }

    /// "may never be left under attack": the move is legal when, after it
    /// and the opponent's turn opening, the Pope cannot be taken.
    pub fn legal_moves(&self) -> Vec<RMove> {
        let us = self.side;
        self.candidate_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = self.clone();
                after.make(m);
                after.find(us, PieceKind::Pope).is_some() && !after.in_check(us)
            })
            .collect()
    }

    /// Placement, side, castling, en passant, riposte: what makes a
    /// position "the same" for repetition.
    pub fn key(&self) -> String {
        let t = self.text_fields();
        t[..5].join(" ")
    }

    /// The first ten fields of the position text (swap written by the game).
    fn text_fields(&self) -> Vec<String> {
        let mut placement = String::new();
        for r in (0..13).rev() {
            let mut empty = 0;
            for f in 0..13 {
                match self.at((f, r)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = letter(p.kind);
                        placement.push(if p.color == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if r > 0 {
                placement.push('/');
            }
        }
        let mut castle = String::new();
        for (c, w, l) in [(0, 0, 'K'), (0, 1, 'Q'), (1, 0, 'k'), (1, 1, 'q')] {
            if self.castle[c][w] {
                castle.push(l);
            }
        }
        if castle.is_empty() {
            castle.push('-');
        }
        let mut awake = String::new();
        if self.awake[0] {
            awake.push('E');
        }
        if self.awake[1] {
            awake.push('e');
        }
        if awake.is_empty() {
            awake.push('-');
        }
        let mut places = Vec::new();
        for c in [Color::White, Color::Black] {
            for k in PLACE_ORDER {
                for f in 0..13 {
                    for &(pc, pk, pf) in &self.places {
                        if (pc, pk, pf) == (c, k, f) {
                            let l = letter(k);
                            places.push(format!(
                                "{}{}",
                                if c == Color::White {
                                    l
                                } else {
                                    l.to_ascii_lowercase()
                                },
                                (b'a' + f as u8) as char
                            ));
                        }
                    }
                }
            }
        }
        vec![
            placement,
            if self.side == Color::White { "w" } else { "b" }.to_owned(),
            castle,
            self.ep.map_or("-".to_owned(), name),
            if self.riposte { "r" } else { "-" }.to_owned(),
            awake,
            if places.is_empty() {
                "-".to_owned()
            } else {
                places.join(",")
            },
            self.plies.to_string(),
            self.fullmove.to_string(),
        ]
    }

    /// Reads the first nine fields of a position text (no validation beyond
    /// what the reference needs), then reads the start-of-turn wake.
    pub fn parse(text: &str) -> Option<RPos> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 9 {
            return None;
        }
        let mut board = [[None; 13]; 13];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 13 {
            return None;
        }
        for (i, rt) in ranks.iter().enumerate() {
            let r = 12 - i as i8;
            let mut f = 0i8;
            let mut num = 0i8;
            for ch in rt.chars() {
                if let Some(d) = ch.to_digit(10) {
                    num = num * 10 + d as i8;
                    continue;
                }
                f += num;
                num = 0;
                let k = kind_of(ch)?;
                let c = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if !on((f, r)) {
                    return None;
                }
                board[f as usize][r as usize] = Some(Piece::new(c, k));
                f += 1;
            }
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return None,
        };
        let c = fields[2];
        let castle = [
            [c.contains('K'), c.contains('Q')],
            [c.contains('k'), c.contains('q')],
        ];
        let ep = if fields[3] == "-" {
            None
        } else {
            Some(parse_sq(fields[3])?)
        };
        let riposte = fields[4] == "r";
        let awake = [fields[5].contains('E'), fields[5].contains('e')];
        let mut places = Vec::new();
        if fields[6] != "-" {
            for item in fields[6].split(',') {
                let mut chs = item.chars();
                let kc = chs.next()?;
                let fc = chs.next()?;
                let color = if kc.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                places.push((color, kind_of(kc)?, fc as i8 - 'a' as i8));
            }
        }
        let mut pos = RPos {
            board,
            side,
            castle,
            ep,
            riposte,
            awake,
            places,
            plies: fields[7].parse().ok()?,
            fullmove: fields[8].parse().ok()?,
        };
        pos.open_turn();
        Some(pos)
    }
}

/// How a game ended, in the reference's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum REnd {
    /// The side in check with no legal move loses.
    Mated { winner: Color },
    /// "A side has no legal move and is not in check. That side wins."
    NoMove { winner: Color },
    /// "Whoever plays that move loses."
    Repetition { winner: Color },
    /// The no-progress limit.
    NoProgress,
    /// Bare Popes.
    BarePopes,
}

/// A game: position, swap state, repetition history since the last
/// progress, result.
#[derive(Debug, Clone)]
pub struct RGame {
    pub pos: RPos,
    pub swap_option: bool,
    pub swap_open: bool,
    pub swapped: bool,
    pub history: Vec<String>,
    pub end: Option<REnd>,
    /// The legal moves of the position (the swap excluded), worked out once.
    moves: Vec<RMove>,
}

impl RGame {
    /// A game from a position text (its fields 1-10; the optional history
    /// of field 11 is not read, so give texts without it).
    pub fn from_text(text: &str, swap_option: bool) -> Option<RGame> {
        let pos = RPos::parse(text)?;
        let swap_field = text.split_whitespace().nth(9)?;
        let mut g = RGame {
            history: vec![pos.key()],
            pos,
            swap_option,
            swap_open: swap_field == "s",
            swapped: swap_field == "x",
            end: None,
            moves: Vec::new(),
        };
        g.judge();
        Some(g)
    }

    /// The first ten fields of the position text.
    pub fn text(&self) -> String {
        let mut f = self.pos.text_fields();
        f.push(
            if self.swap_open {
                "s"
            } else if self.swapped {
                "x"
            } else {
                "-"
            }
            .to_owned(),
        );
        f.join(" ")
    }

    fn swap_offered(&self) -> bool {
        self.swap_option
            && self.swap_open
            && self.pos.side == Color::Black
            && self.pos.fullmove == 1
    }

    /// Every legal action, the swap included when it is offered.
    pub fn legal(&self) -> Vec<RMove> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut v = self.moves.clone();
        if self.swap_offered() {
            v.push(RMove::Swap);
        }
        v
    }

    /// Plays a legal action.
    pub fn play(&mut self, m: RMove) {
        if m == RMove::Swap {
            self.swap_open = false;
            self.swapped = !self.swapped;
            return;
        }
        if self.pos.side == Color::Black {
            self.swap_open = false;
        }
        if self.pos.make(m) {
            self.history.clear();
        }
        self.history.push(self.pos.key());
        self.judge();
    }

    /// The number of action sequences of length `depth` (a finished game
    /// has none; the swap is an action).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.end.is_some() {
            return 0;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// The results, in the order recorded in `docs/rules/epoch.md` (D22).
    fn judge(&mut self) {
        self.moves = self.pos.legal_moves();
        self.end = self.result();
    }

    fn result(&self) -> Option<REnd> {
        let side = self.pos.side;
        if self.moves.is_empty() {
            return Some(if self.pos.in_check(side) {
                REnd::Mated { winner: opp(side) }
            } else {
                REnd::NoMove { winner: side }
            });
        }
        let pieces = self.pos.piece_count() as i64;
        let limit_turns = 60 + 2 * (52 - pieces);
        if i64::from(self.pos.plies) >= 2 * limit_turns {
            return Some(REnd::NoProgress);
        }
        let key = self.pos.key();
        if self.history.iter().filter(|k| **k == key).count() >= 3 {
            return Some(REnd::Repetition { winner: side });
        }
        if pieces == 2 {
            return Some(REnd::BarePopes);
        }
        None
    }
}
