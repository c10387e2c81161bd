//! The board and the rules of movement: the position without its history.

use crate::moves::{Move, Slot, Wing};
use crate::tables::{DIR_STEPS, OPPOSITE, TABLES, dir_positive};
use crate::types::{Bitboard, Color, Piece, PieceKind, SQUARES, Square};
use crate::zobrist::{self, ZOBRIST};

/// The eight directions (file step, rank step): four straight, then four diagonal.
pub(crate) const DIRS: [(i8, i8); 8] = DIR_STEPS;

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Whether the move counts as progress (capture, blast, Legionary move,
    /// promotion): the no-progress count restarts and no earlier position
    /// can repeat.
    pub progress: bool,
}

/// Everything on the board and every right, without the repetition history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [Option<Piece>; SQUARES],
    /// The squares of each colour's pieces.
    pub(crate) color_bb: [Bitboard; 2],
    /// The squares of each kind's pieces (both colours), by `PieceKind::index`.
    pub(crate) kind_bb: [Bitboard; 9],
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
    /// The repetition key as the book defines it (placement, side to move,
    /// castling, en passant and riposte rights), Zobrist, kept up to date
    /// by every change of those fields.
    pub(crate) key: u64,
    /// The Zobrist part of the rest the rules observe: awake Emperors and
    /// open promotion places.
    pub(crate) state_key: u64,
}

/// Whether the direction index is one of the four straight lines.
const fn straight(d: usize) -> bool {
    d < 4
}

/// The squares strictly before the first piece of `occ` from `from` along
/// direction `d`, and that piece's square.
#[inline]
fn slide(from: Square, d: usize, occ: Bitboard) -> (Bitboard, Option<Square>) {
    let ray = TABLES.ray[d][from.index()];
    let blockers = ray & occ;
    let first = if dir_positive(d) {
        blockers.first()
    } else {
        blockers.last()
    };
    match first {
        None => (ray, None),
        Some(b) => (
            ray ^ TABLES.ray[d][b.index()] ^ Bitboard::from_square(b),
            Some(b),
        ),
    }
}

/// The first piece of `occ` from `from` along direction `d`.
#[inline]
fn first_piece(from: Square, d: usize, occ: Bitboard) -> Option<Square> {
    let blockers = TABLES.ray[d][from.index()] & occ;
    if dir_positive(d) {
        blockers.first()
    } else {
        blockers.last()
    }
}

/// The neighbour of `sq` along direction `d`.
#[inline]
fn step(sq: Square, d: usize) -> Option<Square> {
    let (df, dr) = DIRS[d];
    sq.offset(df, dr)
}

/// What the legality filter needs to know about the mover's Pope, worked out
/// once per position.
struct Safety {
    /// Every move needs the full test (check, or a danger any move may set off).
    all: bool,
    /// The squares whose piece needs the full test when it moves.
    pinned: Bitboard,
}

impl Position {
    /// An empty board, White to move, nothing else set.
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; SQUARES],
            color_bb: [Bitboard::EMPTY; 2],
            kind_bb: [Bitboard::EMPTY; 9],
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
            key: 0,
            state_key: 0,
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
        p.key ^= ZOBRIST.castling[15];
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
        self.color_bb[color.index()]
    }

    /// Every occupied square.
    #[inline]
    fn occ(&self) -> Bitboard {
        self.color_bb[0] | self.color_bb[1]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.color_bb[color.index()] & self.kind_bb[kind.index()]
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.occ().count() as usize
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
        if self.board[sq.index()].is_some() {
            self.take(sq);
        }
        self.board[sq.index()] = Some(piece);
        self.key ^= zobrist::piece(piece, sq);
        let bit = Bitboard::from_square(sq);
        self.color_bb[piece.color.index()] |= bit;
        self.kind_bb[piece.kind.index()] |= bit;
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
        self.key ^= zobrist::piece(piece, sq);
        let keep = !Bitboard::from_square(sq);
        self.color_bb[piece.color.index()] &= keep;
        self.kind_bb[piece.kind.index()] &= keep;
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
        self.zone(color).contains(sq)
    }

    /// The squares `color`'s command zone enhances.
    #[inline]
    fn zone(&self, color: Color) -> Bitboard {
        zone_of(self.marshal[color.index()])
    }

    /// Whether `piece` may be captured or destroyed at all (a dormant Emperor may not).
    fn removable(&self, piece: Piece) -> bool {
        piece.kind != PieceKind::Emperor || self.awake[piece.color.index()]
    }

    /// The pieces of `color` that can be captured or destroyed.
    #[inline]
    fn removable_of(&self, color: Color) -> Bitboard {
        let all = self.color_bb[color.index()];
        if self.awake[color.index()] {
            all
        } else {
            all & !self.kind_bb[PieceKind::Emperor.index()]
        }
    }

    fn is(&self, sq: Square, color: Color, kind: PieceKind) -> bool {
        self.board[sq.index()] == Some(Piece::new(color, kind))
    }

    /// The "attack" of the Marshal's support, the Emperor's waking and the
    /// Assassin's landing square: some piece of `by` other than its Marshal
    /// and a dormant Emperor could take a piece standing on `sq`. A Mage
    /// attacks its whole ring; an Assassin attacks when the square behind is
    /// empty and in reach (attacked or not); pinned pieces count.
    pub fn support_attacked(&self, by: Color, sq: Square) -> bool {
        self.watched_in(by, sq, self.occ())
    }

    /// [`Position::support_attacked`] on a board whose occupied squares are
    /// `occ` (a subset of the real ones, plus perhaps `sq` itself): the
    /// pieces of `by` missing from `occ` are gone, the piece on `sq` (if
    /// any) is the one being asked about.
    fn watched_in(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let t = &TABLES;
        let i = sq.index();
        let mine = self.color_bb[by.index()] & occ & !Bitboard::from_square(sq);
        let zone = match self.marshal[by.index()] {
            Some(m) if mine.contains(m) => zone_of(Some(m)),
            _ => Bitboard::EMPTY,
        };
        let k = &self.kind_bb;
        let kind = |p: PieceKind| k[p.index()] & mine;
        if (t.king[i] & (kind(PieceKind::Pope) | kind(PieceKind::Mage))).any()
            || (t.ortho1[i] & kind(PieceKind::Herald) & zone).any()
            || (t.pawn_from[by.index()][i] & kind(PieceKind::Legionary)).any()
            || ((t.leap32[i] | (t.leap21[i] & zone)) & kind(PieceKind::Templar)).any()
        {
            return true;
        }
        self.line_attack(by, sq, occ, mine, zone, false)
    }

    /// The line attacks on `sq` by `mine` (pieces of `by`) on a board with
    /// occupancy `occ`. With `check` the Marshal counts and the Assassin's
    /// landing square must also be unwatched by the other side.
    #[inline]
    fn line_attack(
        &self,
        by: Color,
        sq: Square,
        occ: Bitboard,
        mine: Bitboard,
        zone: Bitboard,
        check: bool,
    ) -> bool {
        let t = &TABLES;
        let i = sq.index();
        let k = &self.kind_bb;
        let any_line = k[PieceKind::Assassin.index()]
            | if self.awake[by.index()] {
                k[PieceKind::Emperor.index()]
            } else {
                Bitboard::EMPTY
            }
            | if check {
                k[PieceKind::Marshal.index()]
            } else {
                Bitboard::EMPTY
            };
        let straight_line = (any_line | k[PieceKind::Sentinel.index()]) & mine & t.rook[i];
        let diagonal_line = (any_line | k[PieceKind::Herald.index()]) & mine & t.bishop[i];
        if straight_line.is_empty() && diagonal_line.is_empty() {
            return false;
        }
        for (d, &back) in OPPOSITE.iter().enumerate() {
            let candidates = if straight(d) {
                straight_line
            } else {
                diagonal_line
            };
            if (candidates & t.ray[d][i]).is_empty() {
                continue;
            }
            let Some(b) = first_piece(sq, d, occ) else {
                continue;
            };
            if !candidates.contains(b) {
                continue;
            }
            let Some(p) = self.board[b.index()] else {
                continue;
            };
            let dist = sq.distance(b);
            let enh = zone.contains(b);
            let reach = if enh { FAR } else { SIX };
            let hit = match p.kind {
                PieceKind::Sentinel | PieceKind::Herald => dist <= reach,
                PieceKind::Emperor | PieceKind::Marshal => true,
                PieceKind::Assassin => match step(sq, back) {
                    // The Assassin on b travels towards sq and lands beyond it.
                    Some(land) => {
                        dist < reach
                            && !occ.contains(land)
                            && (!check || !self.landing_watched_in(b, sq, land, !by, occ))
                    }
                    None => {
                        sq.is_corner()
                            && dist <= reach
                            && (!check || !self.landing_watched_in(b, sq, sq, !by, occ))
                    }
                },
                _ => false,
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether, after an Assassin on `from` takes the piece on `victim` and
    /// lands on `land` (the victim's square on a corner), `watcher` attacks
    /// the landing square; `occ` is the board's occupancy before the capture.
    fn landing_watched_in(
        &self,
        from: Square,
        victim: Square,
        land: Square,
        watcher: Color,
        occ: Bitboard,
    ) -> bool {
        let after = (occ & !Bitboard::from_square(from) & !Bitboard::from_square(victim))
            | Bitboard::from_square(land);
        self.watched_in(watcher, land, after)
    }

    /// The "attack" of check: `color`'s Pope standing on `sq` could be taken
    /// by the opponent now. A Mage checks only if its blast is allowed, an
    /// Assassin only through an empty, unwatched square behind, the Marshal on
    /// any clear line, a dormant Emperor never.
    pub fn pope_attacked(&self, color: Color, sq: Square) -> bool {
        self.pope_attacked_by(color, sq, self.color_bb[(!color).index()])
    }

    /// [`Position::pope_attacked`] counting only the opponent's pieces in
    /// `theirs` as attackers (the board, the command zone and the Mage's
    /// rule stay as they are).
    #[inline]
    fn pope_attacked_by(&self, color: Color, sq: Square, theirs: Bitboard) -> bool {
        let t = &TABLES;
        let by = !color;
        let i = sq.index();
        let zone = self.zone(by);
        let k = &self.kind_bb;
        let kind = |p: PieceKind| k[p.index()] & theirs;
        if (t.king[i] & kind(PieceKind::Pope)).any()
            || (t.ortho1[i] & kind(PieceKind::Herald) & zone).any()
            || (t.pawn_from[by.index()][i] & kind(PieceKind::Legionary)).any()
            || ((t.leap32[i] | (t.leap21[i] & zone)) & kind(PieceKind::Templar)).any()
        {
            return true;
        }
        let mages = t.king[i] & kind(PieceKind::Mage);
        if mages.any() {
            let their_pope = k[PieceKind::Pope.index()] & self.color_bb[by.index()];
            for m in mages.iter() {
                if zone.contains(m) || (t.king[m.index()] & their_pope).is_empty() {
                    return true;
                }
            }
        }
        self.line_attack(by, sq, self.occ(), theirs, zone, true)
    }

    /// The opponent's pieces that attack `color`'s Pope on `sq` (as
    /// [`Position::pope_attacked`] counts attacks), in square order.
    pub fn pope_checkers(&self, color: Color, sq: Square) -> Vec<Square> {
        self.color_bb[(!color).index()]
            .iter()
            .filter(|&b| self.pope_attacked_by(color, sq, Bitboard::from_square(b)))
            .collect()
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
        let Some(d) = DIRS.iter().position(|&x| x == (df.signum(), dr.signum())) else {
            return false;
        };
        let ray = TABLES.ray[d][from.index()];
        let between = ray ^ TABLES.ray[d][to.index()] ^ Bitboard::from_square(to);
        (between & self.occ()).is_empty()
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
    fn push_legionary(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        capture: bool,
        quiets: bool,
    ) {
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
        if !capture && !quiets {
            return;
        }
        out.push(if capture {
            Move::Capture { from, to }
        } else {
            Move::Quiet { from, to }
        });
    }

    /// Every move of the side to move that the pieces allow, before the Pope's safety.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.generate(out, true);
    }

    /// The pseudo-legal moves; with `quiets` false only the tactical ones
    /// (captures, Assassin captures, en passant, blasts, promotions, trades).
    fn generate(&self, out: &mut Vec<Move>, quiets: bool) {
        let t = &TABLES;
        let us = self.side;
        let them = !us;
        let occ = self.occ();
        let empty = !occ;
        let capturable = self.removable_of(them);
        let zone = self.zone(us);
        let push_set = |out: &mut Vec<Move>, from: Square, quiet: Bitboard, takes: Bitboard| {
            if quiets {
                for to in quiet.iter() {
                    out.push(Move::Quiet { from, to });
                }
            }
            for to in takes.iter() {
                out.push(Move::Capture { from, to });
            }
        };
        // Pope.
        if let Some(from) = self.pope[us.index()]
            && self.is(from, us, PieceKind::Pope)
        {
            let ring = t.king[from.index()];
            push_set(out, from, ring & empty, ring & capturable);
            for wing in [Wing::Marshal, Wing::Emperor] {
                if quiets && self.can_castle(wing) {
                    out.push(Move::Castle { wing });
                }
            }
        }
        // Templars.
        for from in self.pieces(us, PieceKind::Templar).iter() {
            let i = from.index();
            let mut leaps = t.leap32[i];
            if zone.contains(from) {
                leaps |= t.leap21[i];
            }
            push_set(out, from, leaps & empty, leaps & capturable);
        }
        // Heralds.
        for from in self.pieces(us, PieceKind::Herald).iter() {
            let enh = zone.contains(from);
            let reach = if enh {
                Bitboard::FULL
            } else {
                t.ball[SIX as usize][from.index()]
            };
            for d in 4..8 {
                let (before, blocker) = slide(from, d, occ);
                let takes = match blocker {
                    Some(b) if capturable.contains(b) => Bitboard::from_square(b) & reach,
                    _ => Bitboard::EMPTY,
                };
                push_set(out, from, before & reach, takes);
            }
            let steps = t.ortho1[from.index()];
            let takes = if enh {
                steps & capturable
            } else {
                Bitboard::EMPTY
            };
            push_set(out, from, steps & empty, takes);
        }
        // Sentinels.
        let own = self.color_bb[us.index()];
        let enemy = self.color_bb[them.index()];
        for from in self.pieces(us, PieceKind::Sentinel).iter() {
            let enh = zone.contains(from);
            let i = from.index();
            let (quiet_reach, take_reach) = if enh {
                (t.ball[6][i], Bitboard::FULL)
            } else {
                (t.ball[3][i], t.ball[SIX as usize][i])
            };
            let marshal = self.marshal[us.index()];
            for (d, &(df, dr)) in DIRS.iter().enumerate().take(4) {
                let towards = enh
                    && marshal.is_some_and(|m| {
                        if df != 0 {
                            (m.file() as i8 - from.file() as i8).signum() == df
                        } else {
                            (m.rank() as i8 - from.rank() as i8).signum() == dr
                        }
                    });
                let (before, blocker) = slide(from, d, if towards { enemy } else { occ });
                let passed = (before & own).any();
                let takes = match blocker {
                    Some(b) if !passed && capturable.contains(b) => {
                        Bitboard::from_square(b) & take_reach
                    }
                    _ => Bitboard::EMPTY,
                };
                push_set(out, from, before & empty & quiet_reach, takes);
            }
        }
        // Legionaries.
        for from in self.pieces(us, PieceKind::Legionary).iter() {
            self.legionary_moves(out, from, zone.contains(from), quiets);
        }
        // Mages.
        for from in self.pieces(us, PieceKind::Mage).iter() {
            let i = from.index();
            let enh = zone.contains(from);
            let mut to = t.king[i];
            if enh {
                to |= t.mage2[i];
            }
            push_set(out, from, to & empty, Bitboard::EMPTY);
            if (t.king[i] & capturable).any()
                && (enh || (t.king[i] & self.pieces(us, PieceKind::Pope)).is_empty())
            {
                out.push(Move::Blast { at: from });
            }
        }
        // Assassins.
        for from in self.pieces(us, PieceKind::Assassin).iter() {
            let enh = zone.contains(from);
            let reach = if enh { FAR } else { SIX };
            let reach_set = t.ball[reach as usize][from.index()];
            for d in 0..8 {
                let (before, blocker) = slide(from, d, occ);
                push_set(out, from, before & reach_set, Bitboard::EMPTY);
                let Some(b) = blocker else { continue };
                if !capturable.contains(b) {
                    continue;
                }
                let dist = from.distance(b);
                match step(b, d) {
                    Some(land) => {
                        if dist < reach
                            && !occ.contains(land)
                            && !self.landing_watched_in(from, b, land, them, occ)
                        {
                            out.push(Move::AssassinCapture {
                                from,
                                victim: b,
                                to: land,
                            });
                        }
                    }
                    None => {
                        if b.is_corner()
                            && dist <= reach
                            && !self.landing_watched_in(from, b, b, them, occ)
                        {
                            out.push(Move::Capture { from, to: b });
                        }
                    }
                }
            }
        }
        // Marshal and awake Emperor: queen lines.
        for kind in [PieceKind::Marshal, PieceKind::Emperor] {
            if kind == PieceKind::Emperor && !self.awake[us.index()] {
                continue;
            }
            for from in self.pieces(us, kind).iter() {
                for d in 0..8 {
                    let (before, blocker) = slide(from, d, occ);
                    let takes = match blocker {
                        Some(b)
                            if capturable.contains(b)
                                && (kind == PieceKind::Emperor
                                    || self.riposte
                                    || self.kind_bb[PieceKind::Pope.index()].contains(b)
                                    || self.support_attacked(us, b)) =>
                        {
                            Bitboard::from_square(b)
                        }
                        _ => Bitboard::EMPTY,
                    };
                    push_set(out, from, before, takes);
                }
            }
        }
    }

    fn legionary_moves(&self, out: &mut Vec<Move>, from: Square, enh: bool, quiets: bool) {
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
            self.push_legionary(out, from, to, false, quiets);
            cur = to;
        }
        // Captures, one square diagonally forward.
        for df in [-1, 1] {
            let Some(to) = from.offset(df, fwd) else {
                continue;
            };
            match self.board[to.index()] {
                Some(p) if p.color != us && self.removable(p) => {
                    self.push_legionary(out, from, to, true, quiets)
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

    /// Plays `mv` (one of [`Position::legal_moves`]), then opens the
    /// opponent's turn (Emperor waking), keeping both Zobrist keys up to
    /// date. The swap does nothing here. No result is decided: the game's
    /// results (a side without a legal move, repetition, no progress) are
    /// the caller's to read when it needs them, which is what lets a search
    /// copy and make a position for a few hundred nanoseconds. A move that
    /// is not legal here leaves a meaningless but safe position.
    pub fn make(&mut self, mv: Move) -> MoveEffect {
        let us = self.side;
        let them = !us;
        let (old_castling, old_ep, old_riposte) = (self.castling, self.ep, self.riposte);
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
                let f = sq.file() as usize;
                let n = &mut self.slots[p.color.index()][k][f];
                let before = *n;
                *n = n.saturating_add(1);
                self.state_key ^=
                    zobrist::slot(p.color, k, f, before) ^ zobrist::slot(p.color, k, f, *n);
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
        self.key ^= ZOBRIST.black
            ^ ZOBRIST.castling[(old_castling & 15) as usize]
            ^ ZOBRIST.castling[(self.castling & 15) as usize]
            ^ zobrist::ep(old_ep)
            ^ zobrist::ep(self.ep);
        if old_riposte != self.riposte {
            self.key ^= ZOBRIST.riposte;
        }
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
            self.state_key ^= ZOBRIST.awake[us.index()];
        }
    }

    fn fill_slot(&mut self, color: Color, at: Square, slot: Slot) {
        if let Some(k) = slot.kind.slot_index() {
            let f = slot.file as usize;
            let n = &mut self.slots[color.index()][k][f];
            let before = *n;
            *n = n.saturating_sub(1);
            self.state_key ^= zobrist::slot(color, k, f, before) ^ zobrist::slot(color, k, f, *n);
        }
        self.put(at, Piece::new(color, slot.kind));
        if slot.kind == PieceKind::Emperor && !self.awake[color.index()] {
            self.awake[color.index()] = true;
            self.state_key ^= ZOBRIST.awake[color.index()];
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

    /// What the legality filter must test: everything when in check or when
    /// a danger any move may set off exists (an enemy Assassin with a clear
    /// line to the Pope and an empty square behind it, a dormant enemy
    /// Emperor with a clear line to it); otherwise the moves of the pieces
    /// that stand between the Pope and an enemy line piece, or on the
    /// square an Assassin would land on.
    fn safety(&self) -> Safety {
        let t = &TABLES;
        let us = self.side;
        let them = !us;
        let everything = Safety {
            all: true,
            pinned: Bitboard::EMPTY,
        };
        let Some(p) = self.pope[us.index()] else {
            return everything;
        };
        if self.pope_attacked(us, p) {
            return everything;
        }
        let occ = self.occ();
        let own = self.color_bb[us.index()];
        let enemy = self.color_bb[them.index()];
        let k = &self.kind_bb;
        let any_line = (k[PieceKind::Emperor.index()]
            | k[PieceKind::Marshal.index()]
            | k[PieceKind::Assassin.index()])
            & enemy;
        let straight_line = any_line | (k[PieceKind::Sentinel.index()] & enemy);
        let diagonal_line = any_line | (k[PieceKind::Herald.index()] & enemy);
        let mut pinned = Bitboard::EMPTY;
        for (d, &back) in OPPOSITE.iter().enumerate() {
            let sliders = if straight(d) {
                straight_line
            } else {
                diagonal_line
            };
            let ray = t.ray[d][p.index()];
            if (sliders & ray).is_empty() {
                continue;
            }
            let Some(b1) = first_piece(p, d, occ) else {
                continue;
            };
            if enemy.contains(b1) {
                match self.board[b1.index()].map(|x| x.kind) {
                    Some(PieceKind::Emperor) if !self.awake[them.index()] => return everything,
                    Some(PieceKind::Assassin) => match step(p, back) {
                        Some(land) if !occ.contains(land) => return everything,
                        Some(land) if own.contains(land) => pinned |= Bitboard::from_square(land),
                        Some(_) => {}
                        None if p.is_corner() => return everything,
                        None => {}
                    },
                    _ => {}
                }
                continue;
            }
            if let Some(b2) = first_piece(b1, d, occ)
                && sliders.contains(b2)
            {
                pinned |= Bitboard::from_square(b1);
            }
        }
        Safety { all: false, pinned }
    }

    /// Whether `mv` needs the full make-and-test legality check.
    #[inline]
    fn needs_test(&self, mv: Move, safety: &Safety) -> bool {
        if safety.all {
            return true;
        }
        let pope = self.pope[self.side.index()];
        let their_marshal = self.marshal[(!self.side).index()];
        match mv {
            Move::Quiet { from, .. } => Some(from) == pope || safety.pinned.contains(from),
            Move::Capture { from, to } => {
                Some(from) == pope || safety.pinned.contains(from) || Some(to) == their_marshal
            }
            Move::Promotion { from, to, .. } => {
                safety.pinned.contains(from) || Some(to) == their_marshal
            }
            Move::Trade { .. } => false,
            Move::AssassinCapture { .. }
            | Move::EnPassant { .. }
            | Move::Blast { .. }
            | Move::Castle { .. }
            | Move::Swap => true,
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
        let safety = self.safety();
        out.retain(|&m| !self.needs_test(m, &safety) || self.is_legal_after(m));
    }

    /// The legal tactical moves of the side to move: captures (the riposte
    /// and the Assassin's included), en passant, blasts, promotions and
    /// trades; exactly the legal moves of those kinds, generated without
    /// the quiet ones (for a search's quiescence).
    pub fn tactical_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate(out, false);
        let safety = self.safety();
        out.retain(|&m| !self.needs_test(m, &safety) || self.is_legal_after(m));
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut buf = Vec::with_capacity(128);
        self.pseudo_moves(&mut buf);
        let safety = self.safety();
        buf.into_iter()
            .any(|m| !self.needs_test(m, &safety) || self.is_legal_after(m))
    }

    /// The repetition key, as the book counts a position repeated: "every
    /// piece stands where it stood, the same side is on move, and the same
    /// castling, en passant and riposte rights are still open" (decision
    /// 26). A Zobrist key kept up to date by every move: reading it is free.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key of everything about the position the rules observe: the
    /// repetition key's fields plus the awake Emperors and the open
    /// promotion places (not the no-progress count and move number).
    #[inline]
    pub fn full_key(&self) -> u64 {
        self.key ^ self.state_key
    }

    /// [`Position::key`] worked out from the fields, for checking the
    /// incremental key.
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece(p, sq);
            }
        }
        k ^ zobrist::side(self.side)
            ^ ZOBRIST.castling[(self.castling & 15) as usize]
            ^ zobrist::ep(self.ep)
            ^ if self.riposte { ZOBRIST.riposte } else { 0 }
    }

    /// [`Position::full_key`] worked out from the fields.
    pub fn full_key_from_scratch(&self) -> u64 {
        self.key_from_scratch() ^ self.state_key_from_scratch()
    }

    fn state_key_from_scratch(&self) -> u64 {
        let mut k = 0;
        for color in Color::BOTH {
            if self.awake[color.index()] {
                k ^= ZOBRIST.awake[color.index()];
            }
            for (kind, files) in self.slots[color.index()].iter().enumerate() {
                for (file, &n) in files.iter().enumerate() {
                    k ^= zobrist::slot(color, kind, file, n);
                }
            }
        }
        k
    }

    /// Sets both keys from the fields, after they were written directly
    /// (the position text reader).
    pub(crate) fn rehash(&mut self) {
        self.key = self.key_from_scratch();
        self.state_key = self.state_key_from_scratch();
    }
}

/// The squares a Marshal on `marshal` enhances.
#[inline]
fn zone_of(marshal: Option<Square>) -> Bitboard {
    match marshal {
        None => Bitboard::EMPTY,
        Some(m) if m == Square::G7 => Bitboard::FULL,
        Some(m) => TABLES.ball[4][m.index()],
    }
}
