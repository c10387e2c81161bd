//! The board and the rules of movement: the position without its history.

use crate::moves::{Move, Slot, Wing};
use crate::types::{Bitboard, Color, Piece, PieceKind, SQUARES, Square};

/// The eight directions (file step, rank step): four straight, then four diagonal.
pub(crate) const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The Templar's long leap, three one way and two the other.
const LEAP_32: [(i8, i8); 8] = [
    (3, 2),
    (2, 3),
    (-2, 3),
    (-3, 2),
    (-3, -2),
    (-2, -3),
    (2, -3),
    (3, -2),
];

/// The knight leap, gained by an enhanced Templar.
const LEAP_21: [(i8, i8); 8] = [
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];

/// Unlimited reach: more than any line on the board.
const FAR: u8 = 12;
/// The reach the book gives restricted lines.
const SIX: u8 = 6;

/// Castling right bits.
pub(crate) const CASTLE_WHITE_MARSHAL: u8 = 1;
pub(crate) const CASTLE_WHITE_EMPEROR: u8 = 2;
pub(crate) const CASTLE_BLACK_MARSHAL: u8 = 4;
pub(crate) const CASTLE_BLACK_EMPEROR: u8 = 8;

pub(crate) const fn castle_bit(color: Color, wing: Wing) -> u8 {
    match (color, wing) {
        (Color::White, Wing::Marshal) => CASTLE_WHITE_MARSHAL,
        (Color::White, Wing::Emperor) => CASTLE_WHITE_EMPEROR,
        (Color::Black, Wing::Marshal) => CASTLE_BLACK_MARSHAL,
        (Color::Black, Wing::Emperor) => CASTLE_BLACK_EMPEROR,
    }
}

/// The back rank from a to m.
pub const BACK_RANK: [PieceKind; 13] = [
    PieceKind::Sentinel,
    PieceKind::Templar,
    PieceKind::Herald,
    PieceKind::Mage,
    PieceKind::Assassin,
    PieceKind::Emperor,
    PieceKind::Pope,
    PieceKind::Marshal,
    PieceKind::Assassin,
    PieceKind::Mage,
    PieceKind::Herald,
    PieceKind::Templar,
    PieceKind::Sentinel,
];

/// What a move did, for the rules that look back at it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MoveEffect {
    /// Whether the move counts as progress (capture, blast, Legionary move, promotion).
    pub progress: bool,
}

/// Everything on the board and every right, without the repetition history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [Option<Piece>; SQUARES],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) riposte: bool,
    pub(crate) awake: [bool; 2],
    /// `slots[color][slot kind index][file]`: lost pieces open for promotion.
    pub(crate) slots: [[[u8; 13]; 7]; 2],
    pub(crate) halfmoves: u16,
    pub(crate) fullmove: u16,
    pub(crate) pope: [Option<Square>; 2],
    pub(crate) marshal: [Option<Square>; 2],
    pub(crate) emperor: [Option<Square>; 2],
}

impl Position {
    /// An empty board, White to move, nothing else set.
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; SQUARES],
            side: Color::White,
            castling: 0,
            ep: None,
            riposte: false,
            awake: [false; 2],
            slots: [[[0; 13]; 7]; 2],
            halfmoves: 0,
            fullmove: 1,
            pope: [None; 2],
            marshal: [None; 2],
            emperor: [None; 2],
        }
    }

    /// The book's start position.
    pub fn start() -> Position {
        let mut p = Position::empty();
        for color in Color::BOTH {
            let back = color.back_rank();
            let legion = color.relative_rank(2);
            for (file, kind) in BACK_RANK.iter().enumerate() {
                if let Some(sq) = Square::new(file as u8, back) {
                    p.put(sq, Piece::new(color, *kind));
                }
                if let Some(sq) = Square::new(file as u8, legion) {
                    p.put(sq, Piece::new(color, PieceKind::Legionary));
                }
            }
        }
        p.castling = 15;
        p
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The squares holding pieces of `color`.
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in Square::all() {
            if self.board[sq.index()].is_some_and(|p| p.color == color) {
                b = b.with(sq);
            }
        }
        b
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.board.iter().flatten().count()
    }

    /// Whether `color`'s Emperor is awake (in play).
    pub fn emperor_awake(&self, color: Color) -> bool {
        self.awake[color.index()]
    }

    /// Whether the side to move holds the riposte right.
    pub fn riposte(&self) -> bool {
        self.riposte
    }

    /// The en passant target square, if the last move was a full advance.
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last progress.
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// The open promotion places of `color`.
    pub fn slots(&self, color: Color) -> Vec<(Slot, u8)> {
        let mut out = Vec::new();
        for (k, kind) in PieceKind::SLOT_KINDS.iter().enumerate() {
            for file in 0..13u8 {
                let n = self.slots[color.index()][k][file as usize];
                if n > 0 {
                    out.push((Slot { kind: *kind, file }, n));
                }
            }
        }
        out
    }

    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        let c = piece.color.index();
        match piece.kind {
            PieceKind::Pope => self.pope[c] = Some(sq),
            PieceKind::Marshal => self.marshal[c] = Some(sq),
            PieceKind::Emperor => self.emperor[c] = Some(sq),
            _ => {}
        }
    }

    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        let c = piece.color.index();
        match piece.kind {
            PieceKind::Pope if self.pope[c] == Some(sq) => self.pope[c] = None,
            PieceKind::Marshal if self.marshal[c] == Some(sq) => self.marshal[c] = None,
            PieceKind::Emperor if self.emperor[c] == Some(sq) => self.emperor[c] = None,
            _ => {}
        }
        Some(piece)
    }

    /// Whether `color`'s piece on `sq` is enhanced (the command zone).
    pub fn enhanced(&self, color: Color, sq: Square) -> bool {
        match self.marshal[color.index()] {
            None => false,
            Some(m) => m == Square::G7 || m.distance(sq) <= 4,
        }
    }

    /// Whether `piece` may be captured or destroyed at all (a dormant Emperor may not).
    fn removable(&self, piece: Piece) -> bool {
        piece.kind != PieceKind::Emperor || self.awake[piece.color.index()]
    }

    fn is(&self, sq: Square, color: Color, kind: PieceKind) -> bool {
        self.board[sq.index()] == Some(Piece::new(color, kind))
    }

    /// The first piece from `sq` (excluded) along `(df, dr)`: its square and distance.
    fn first_along(&self, sq: Square, df: i8, dr: i8) -> Option<(Square, u8)> {
        let mut cur = sq;
        let mut d = 0;
        while let Some(next) = cur.offset(df, dr) {
            d += 1;
            if self.board[next.index()].is_some() {
                return Some((next, d));
            }
            cur = next;
        }
        None
    }

    /// The "attack" of the Marshal's support, the Emperor's waking and the
    /// Assassin's landing square: some piece of `by` other than its Marshal
    /// and a dormant Emperor could take a piece standing on `sq`. A Mage
    /// attacks its whole ring; an Assassin attacks when the square behind is
    /// empty and in reach (attacked or not); pinned pieces count.
    pub fn support_attacked(&self, by: Color, sq: Square) -> bool {
        for (i, &(df, dr)) in DIRS.iter().enumerate() {
            if let Some(t) = sq.offset(df, dr)
                && let Some(p) = self.board[t.index()]
                && p.color == by
            {
                match p.kind {
                    PieceKind::Pope | PieceKind::Mage => return true,
                    PieceKind::Herald if i < 4 && self.enhanced(by, t) => return true,
                    _ => {}
                }
            }
        }
        self.common_attacks(by, sq, false)
    }

    /// Attacks shared by every meaning: Legionary, Templar and line pieces
    /// (Sentinel, Herald diagonals, awake Emperor, Assassin). With `check`
    /// the Marshal's clear lines count and the Assassin's landing square must
    /// also be unwatched; without it the Marshal never counts and the landing
    /// square need only be empty and in reach.
    fn common_attacks(&self, by: Color, sq: Square, check: bool) -> bool {
        let back = -by.forward();
        for df in [-1, 1] {
            if let Some(t) = sq.offset(df, back)
                && self.is(t, by, PieceKind::Legionary)
            {
                return true;
            }
        }
        for &(df, dr) in &LEAP_32 {
            if let Some(t) = sq.offset(df, dr)
                && self.is(t, by, PieceKind::Templar)
            {
                return true;
            }
        }
        for &(df, dr) in &LEAP_21 {
            if let Some(t) = sq.offset(df, dr)
                && self.is(t, by, PieceKind::Templar)
                && self.enhanced(by, t)
            {
                return true;
            }
        }
        for (i, &(df, dr)) in DIRS.iter().enumerate() {
            let Some((t, d)) = self.first_along(sq, df, dr) else {
                continue;
            };
            let Some(p) = self.board[t.index()] else {
                continue;
            };
            if p.color != by {
                continue;
            }
            let reach = if self.enhanced(by, t) { FAR } else { SIX };
            let hit = match p.kind {
                PieceKind::Emperor => self.awake[by.index()],
                PieceKind::Marshal => check,
                PieceKind::Sentinel => i < 4 && d <= reach,
                PieceKind::Herald => i >= 4 && d <= reach,
                PieceKind::Assassin => {
                    // The Assassin at t travels towards sq and lands beyond it.
                    match sq.offset(-df, -dr) {
                        Some(land) => {
                            d < reach
                                && self.board[land.index()].is_none()
                                && (!check || !self.landing_watched(t, sq, land, !by))
                        }
                        None => {
                            sq.is_corner()
                                && d <= reach
                                && (!check || !self.landing_watched(t, sq, sq, !by))
                        }
                    }
                }
                _ => false,
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether, after an Assassin on `from` takes the piece on `victim` and
    /// lands on `land`, `watcher` attacks the landing square.
    pub(crate) fn landing_watched(
        &self,
        from: Square,
        victim: Square,
        land: Square,
        watcher: Color,
    ) -> bool {
        let mut after = *self;
        let assassin = after.take(from);
        after.take(victim);
        if let Some(a) = assassin {
            after.put(land, a);
        }
        after.support_attacked(watcher, land)
    }

    /// The "attack" of check: `color`'s Pope standing on `sq` could be taken
    /// by the opponent now. A Mage checks only if its blast is allowed, an
    /// Assassin only through an empty, unwatched square behind, the Marshal on
    /// any clear line, a dormant Emperor never.
    pub fn pope_attacked(&self, color: Color, sq: Square) -> bool {
        let by = !color;
        for (i, &(df, dr)) in DIRS.iter().enumerate() {
            if let Some(t) = sq.offset(df, dr)
                && let Some(p) = self.board[t.index()]
                && p.color == by
            {
                let hit = match p.kind {
                    PieceKind::Pope => true,
                    PieceKind::Mage => {
                        self.enhanced(by, t)
                            || self.pope[by.index()].is_none_or(|own| own.distance(t) != 1)
                    }
                    PieceKind::Herald => i < 4 && self.enhanced(by, t),
                    _ => false,
                };
                if hit {
                    return true;
                }
            }
        }
        self.common_attacks(by, sq, true)
    }

    /// Whether the side to move's Pope is attacked (check).
    pub fn in_check(&self) -> bool {
        match self.pope[self.side.index()] {
            Some(sq) => self.pope_attacked(self.side, sq),
            None => false,
        }
    }

    /// Whether the Marshal on `from` has a clear line to `to`.
    pub(crate) fn clear_line(&self, from: Square, to: Square) -> bool {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return false;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut cur = from;
        loop {
            let Some(next) = cur.offset(sf, sr) else {
                return false;
            };
            if next == to {
                return true;
            }
            if self.board[next.index()].is_some() {
                return false;
            }
            cur = next;
        }
    }

    fn open_slots(&self, color: Color, file: u8, mut f: impl FnMut(Slot)) {
        for (k, kind) in PieceKind::SLOT_KINDS.iter().enumerate() {
            for sf in file.saturating_sub(1)..=(file + 1).min(12) {
                if self.slots[color.index()][k][sf as usize] > 0 {
                    f(Slot {
                        kind: *kind,
                        file: sf,
                    });
                }
            }
        }
    }

    /// Adds a Legionary's move to `to`: the trade when a place is open, else
    /// the plain move.
    fn push_legionary(&self, out: &mut Vec<Move>, from: Square, to: Square, capture: bool) {
        let color = self.side;
        if color.relative_rank(to.rank()) == 12 {
            let before = out.len();
            self.open_slots(color, to.file(), |slot| {
                out.push(Move::Promotion {
                    from,
                    to,
                    capture,
                    slot,
                })
            });
            if out.len() > before {
                return;
            }
        }
        out.push(if capture {
            Move::Capture { from, to }
        } else {
            Move::Quiet { from, to }
        });
    }

    /// Every move of the side to move that the pieces allow, before the Pope's safety.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let them = !us;
        let capturable = |sq: Square| -> bool {
            self.board[sq.index()].is_some_and(|p| p.color == them && self.removable(p))
        };
        for from in Square::all() {
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            let enh = self.enhanced(us, from);
            let reach = if enh { FAR } else { SIX };
            match piece.kind {
                PieceKind::Pope => {
                    for &(df, dr) in &DIRS {
                        if let Some(to) = from.offset(df, dr) {
                            match self.board[to.index()] {
                                None => out.push(Move::Quiet { from, to }),
                                Some(_) if capturable(to) => out.push(Move::Capture { from, to }),
                                Some(_) => {}
                            }
                        }
                    }
                    for wing in [Wing::Marshal, Wing::Emperor] {
                        if self.can_castle(wing) {
                            out.push(Move::Castle { wing });
                        }
                    }
                }
                PieceKind::Emperor | PieceKind::Marshal => {
                    if piece.kind == PieceKind::Emperor && !self.awake[us.index()] {
                        continue;
                    }
                    for &(df, dr) in &DIRS {
                        let mut cur = from;
                        while let Some(to) = cur.offset(df, dr) {
                            match self.board[to.index()] {
                                None => out.push(Move::Quiet { from, to }),
                                Some(p) => {
                                    if capturable(to)
                                        && (piece.kind == PieceKind::Emperor
                                            || p.kind == PieceKind::Pope
                                            || self.riposte
                                            || self.support_attacked(us, to))
                                    {
                                        out.push(Move::Capture { from, to });
                                    }
                                    break;
                                }
                            }
                            cur = to;
                        }
                    }
                }
                PieceKind::Herald => {
                    for (i, &(df, dr)) in DIRS.iter().enumerate() {
                        let limit = if i < 4 { 1 } else { reach };
                        let mut cur = from;
                        for _ in 0..limit {
                            let Some(to) = cur.offset(df, dr) else {
                                break;
                            };
                            match self.board[to.index()] {
                                None => out.push(Move::Quiet { from, to }),
                                Some(_) => {
                                    if capturable(to) && (i >= 4 || enh) {
                                        out.push(Move::Capture { from, to });
                                    }
                                    break;
                                }
                            }
                            cur = to;
                        }
                    }
                }
                PieceKind::Sentinel => {
                    let quiet = if enh { 6 } else { 3 };
                    let marshal = self.marshal[us.index()];
                    for &(df, dr) in &DIRS[..4] {
                        let towards = enh
                            && marshal.is_some_and(|m| {
                                if df != 0 {
                                    (m.file() as i8 - from.file() as i8).signum() == df
                                } else {
                                    (m.rank() as i8 - from.rank() as i8).signum() == dr
                                }
                            });
                        let mut passed = false;
                        let mut cur = from;
                        let mut d = 0;
                        while let Some(to) = cur.offset(df, dr) {
                            d += 1;
                            match self.board[to.index()] {
                                None => {
                                    if d <= quiet {
                                        out.push(Move::Quiet { from, to });
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
                                Some(_) => {
                                    if !passed && d <= reach && capturable(to) {
                                        out.push(Move::Capture { from, to });
                                    }
                                    break;
                                }
                            }
                            cur = to;
                        }
                    }
                }
                PieceKind::Templar => {
                    let leaps: &[(i8, i8)] = if enh { &LEAP_21 } else { &[] };
                    for &(df, dr) in LEAP_32.iter().chain(leaps) {
                        if let Some(to) = from.offset(df, dr) {
                            match self.board[to.index()] {
                                None => out.push(Move::Quiet { from, to }),
                                Some(_) if capturable(to) => out.push(Move::Capture { from, to }),
                                Some(_) => {}
                            }
                        }
                    }
                }
                PieceKind::Legionary => self.legionary_moves(out, from, enh),
                PieceKind::Mage => {
                    for &(df, dr) in &DIRS {
                        if let Some(to) = from.offset(df, dr)
                            && self.board[to.index()].is_none()
                        {
                            out.push(Move::Quiet { from, to });
                        }
                        if enh
                            && let Some(to) = from.offset(2 * df, 2 * dr)
                            && self.board[to.index()].is_none()
                        {
                            out.push(Move::Quiet { from, to });
                        }
                    }
                    if self.blast_allowed(from) {
                        out.push(Move::Blast { at: from });
                    }
                }
                PieceKind::Assassin => {
                    for &(df, dr) in &DIRS {
                        let mut cur = from;
                        let mut d = 0;
                        while let Some(to) = cur.offset(df, dr) {
                            d += 1;
                            if d > reach {
                                break;
                            }
                            if self.board[to.index()].is_none() {
                                out.push(Move::Quiet { from, to });
                                cur = to;
                                continue;
                            }
                            if capturable(to) {
                                match to.offset(df, dr) {
                                    Some(land) => {
                                        if d < reach
                                            && self.board[land.index()].is_none()
                                            && !self.landing_watched(from, to, land, them)
                                        {
                                            out.push(Move::AssassinCapture {
                                                from,
                                                victim: to,
                                                to: land,
                                            });
                                        }
                                    }
                                    None => {
                                        if to.is_corner()
                                            && !self.landing_watched(from, to, to, them)
                                        {
                                            out.push(Move::Capture { from, to });
                                        }
                                    }
                                }
                            }
                            break;
                        }
                    }
                }
            }
        }
    }

    fn legionary_moves(&self, out: &mut Vec<Move>, from: Square, enh: bool) {
        let us = self.side;
        let fwd = us.forward();
        let rel = us.relative_rank(from.rank());
        if rel == 12 {
            // Waiting on the last rank: a trade is the whole move.
            self.open_slots(us, from.file(), |slot| {
                out.push(Move::Trade { at: from, slot })
            });
            return;
        }
        // Forward moves.
        let steps = if rel < 6 {
            6 - rel
        } else if enh {
            2
        } else {
            1
        };
        let mut cur = from;
        for _ in 0..steps {
            let Some(to) = cur.offset(0, fwd) else { break };
            if self.board[to.index()].is_some() {
                break;
            }
            self.push_legionary(out, from, to, false);
            cur = to;
        }
        // Captures, one square diagonally forward.
        for df in [-1, 1] {
            let Some(to) = from.offset(df, fwd) else {
                continue;
            };
            match self.board[to.index()] {
                Some(p) if p.color != us && self.removable(p) => {
                    self.push_legionary(out, from, to, true)
                }
                Some(_) => {}
                None => {
                    if self.ep == Some(to)
                        && let Some(victim) = to.offset(0, -fwd)
                        && self.is(victim, !us, PieceKind::Legionary)
                    {
                        out.push(Move::EnPassant { from, to });
                    }
                }
            }
        }
    }

    /// Whether the Mage on `at` may blast: an enemy piece that can be removed
    /// stands in its ring, and a restricted Mage's own Pope does not.
    fn blast_allowed(&self, at: Square) -> bool {
        let Some(mage) = self.board[at.index()] else {
            return false;
        };
        let enh = self.enhanced(mage.color, at);
        let mut enemy = false;
        for &(df, dr) in &DIRS {
            if let Some(t) = at.offset(df, dr)
                && let Some(p) = self.board[t.index()]
            {
                if p.color != mage.color {
                    enemy |= self.removable(p);
                } else if p.kind == PieceKind::Pope && !enh {
                    return false;
                }
            }
        }
        enemy
    }

    fn can_castle(&self, wing: Wing) -> bool {
        let us = self.side;
        if self.castling & castle_bit(us, wing) == 0 {
            return false;
        }
        let rank = us.back_rank();
        let (corner, between, path): (u8, std::ops::RangeInclusive<u8>, [u8; 3]) = match wing {
            Wing::Marshal => (12, 7..=11, [7, 8, 9]),
            Wing::Emperor => (0, 1..=5, [5, 4, 3]),
        };
        let (Some(home), Some(corner_sq)) = (Square::new(6, rank), Square::new(corner, rank))
        else {
            return false;
        };
        if !self.is(home, us, PieceKind::Pope) || !self.is(corner_sq, us, PieceKind::Sentinel) {
            return false;
        }
        for f in between {
            if Square::new(f, rank).is_some_and(|s| self.board[s.index()].is_some()) {
                return false;
            }
        }
        if self.pope_attacked(us, home) {
            return false;
        }
        for f in path {
            let Some(sq) = Square::new(f, rank) else {
                return false;
            };
            let mut moved = *self;
            moved.take(home);
            moved.put(sq, Piece::new(us, PieceKind::Pope));
            if moved.pope_attacked(us, sq) {
                return false;
            }
        }
        true
    }

    /// Plays `mv` (pseudo-legal for the side to move), then opens the
    /// opponent's turn (Emperor waking). The swap does nothing here.
    pub(crate) fn make(&mut self, mv: Move) -> MoveEffect {
        let us = self.side;
        let them = !us;
        let mut victims: [Option<(Square, Piece)>; 8] = [None; 8];
        let mut nv = 0;
        let mut progress = false;
        let mut new_ep = None;
        let mut moved_from = None;
        let mut record = |sq: Square, p: Option<Piece>| {
            if let Some(p) = p
                && nv < victims.len()
            {
                victims[nv] = Some((sq, p));
                nv += 1;
            }
        };
        match mv {
            Move::Quiet { from, to } => {
                moved_from = Some(from);
                if let Some(p) = self.take(from) {
                    if p.kind == PieceKind::Legionary {
                        progress = true;
                        if us.relative_rank(from.rank()) == 2 && us.relative_rank(to.rank()) == 6 {
                            new_ep = to.offset(0, -us.forward());
                        }
                    }
                    self.put(to, p);
                }
            }
            Move::Capture { from, to } => {
                moved_from = Some(from);
                progress = true;
                record(to, self.take(to));
                if let Some(p) = self.take(from) {
                    self.put(to, p);
                }
            }
            Move::AssassinCapture { from, victim, to } => {
                moved_from = Some(from);
                progress = true;
                record(victim, self.take(victim));
                if let Some(p) = self.take(from) {
                    self.put(to, p);
                }
            }
            Move::EnPassant { from, to } => {
                moved_from = Some(from);
                progress = true;
                if let Some(victim) = to.offset(0, -us.forward()) {
                    record(victim, self.take(victim));
                }
                if let Some(p) = self.take(from) {
                    self.put(to, p);
                }
            }
            Move::Blast { at } => {
                progress = true;
                let enh = self.enhanced(us, at);
                for &(df, dr) in &DIRS {
                    if let Some(t) = at.offset(df, dr)
                        && let Some(p) = self.board[t.index()]
                        && self.removable(p)
                        && (p.color == them || (!enh && p.kind != PieceKind::Pope))
                    {
                        record(t, self.take(t));
                    }
                }
            }
            Move::Promotion { from, to, slot, .. } => {
                moved_from = Some(from);
                progress = true;
                record(to, self.take(to));
                self.take(from);
                self.fill_slot(us, to, slot);
            }
            Move::Trade { at, slot } => {
                moved_from = Some(at);
                progress = true;
                self.take(at);
                self.fill_slot(us, at, slot);
            }
            Move::Castle { wing } => {
                let rank = us.back_rank();
                let (sf, st, pt) = match wing {
                    Wing::Marshal => (12, 8, 9),
                    Wing::Emperor => (0, 4, 3),
                };
                if let (Some(home), Some(s_from), Some(s_to), Some(p_to)) = (
                    Square::new(6, rank),
                    Square::new(sf, rank),
                    Square::new(st, rank),
                    Square::new(pt, rank),
                ) {
                    moved_from = Some(home);
                    let pope = self.take(home);
                    let sentinel = self.take(s_from);
                    if let Some(p) = pope {
                        self.put(p_to, p);
                    }
                    if let Some(s) = sentinel {
                        self.put(s_to, s);
                    }
                }
            }
            Move::Swap => return MoveEffect { progress: false },
        }
        // Lost pieces open promotion places on the file they fell on.
        for (sq, p) in victims.iter().flatten() {
            if let Some(k) = p.kind.slot_index() {
                let n = &mut self.slots[p.color.index()][k][sq.file() as usize];
                *n = n.saturating_add(1);
            }
        }
        // Castling rights.
        self.update_castling(moved_from);
        // The riposte: an opponent's piece lost on a square its Marshal sees.
        self.riposte = match self.marshal[them.index()] {
            Some(m) => victims
                .iter()
                .flatten()
                .any(|(sq, p)| p.color == them && self.clear_line(m, *sq)),
            None => false,
        };
        self.ep = new_ep;
        self.halfmoves = if progress {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.open_turn();
        MoveEffect { progress }
    }

    /// The start of the side to move's turn: its dormant Emperor wakes if its
    /// Marshal is gone or the Emperor stands attacked.
    pub(crate) fn open_turn(&mut self) {
        let us = self.side;
        if self.awake[us.index()] {
            return;
        }
        if let Some(e) = self.emperor[us.index()]
            && (self.marshal[us.index()].is_none() || self.support_attacked(!us, e))
        {
            self.awake[us.index()] = true;
        }
    }

    fn fill_slot(&mut self, color: Color, at: Square, slot: Slot) {
        if let Some(k) = slot.kind.slot_index() {
            let n = &mut self.slots[color.index()][k][slot.file as usize];
            *n = n.saturating_sub(1);
        }
        self.put(at, Piece::new(color, slot.kind));
        if slot.kind == PieceKind::Emperor {
            self.awake[color.index()] = true;
        }
    }

    fn update_castling(&mut self, moved_from: Option<Square>) {
        for color in Color::BOTH {
            let rank = color.back_rank();
            for (wing, corner) in [(Wing::Marshal, 12u8), (Wing::Emperor, 0u8)] {
                let bit = castle_bit(color, wing);
                if self.castling & bit == 0 {
                    continue;
                }
                let (Some(home), Some(c)) = (Square::new(6, rank), Square::new(corner, rank))
                else {
                    continue;
                };
                if moved_from == Some(home)
                    || moved_from == Some(c)
                    || !self.is(home, color, PieceKind::Pope)
                    || !self.is(c, color, PieceKind::Sentinel)
                {
                    self.castling &= !bit;
                }
            }
        }
    }

    /// Whether `mv` leaves the mover's Pope safe, the opponent's turn opened.
    pub(crate) fn is_legal_after(&self, mv: Move) -> bool {
        let us = self.side;
        let mut next = *self;
        next.make(mv);
        match next.pope[us.index()] {
            Some(sq) => !next.pope_attacked(us, sq),
            None => false,
        }
    }

    /// Every legal move of the side to move (the swap excluded).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_moves(out);
        out.retain(|&m| self.is_legal_after(m));
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut buf = Vec::with_capacity(128);
        self.pseudo_moves(&mut buf);
        buf.into_iter().any(|m| self.is_legal_after(m))
    }

    /// The repetition key: placement, side to move, castling, en passant and
    /// riposte rights (FNV-1a over those fields).
    pub fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        for sq in &self.board {
            eat(match sq {
                None => 0,
                Some(p) => 1 + p.kind.index() as u8 + 9 * p.color.index() as u8,
            });
        }
        eat(self.side.index() as u8);
        eat(self.castling);
        eat(self.ep.map_or(255, |s| s.index() as u8));
        eat(u8::from(self.riposte));
        h
    }
}
