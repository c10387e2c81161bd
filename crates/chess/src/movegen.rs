//! Move generation.
//!
//! Two layers. The pseudo-legal layer ([`Position::pseudo_legal_moves`],
//! [`Board::attackers_to`](crate::Board::attackers_to)) follows piece movement
//! only and ignores whether the mover's king ends up attacked. The legal layer
//! ([`Position::legal_moves`]) computes checkers, a check mask and pin rays
//! once per position and filters every piece's targets through them (no
//! make-and-test, except for the rare en-passant capture). Both work on any
//! board, valid or not, and never panic.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Square};

/// Receives generated moves grouped by origin square.
pub(crate) trait Sink {
    /// Non-promoting moves of the piece on `from` to each of `targets`.
    fn normal(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves from `from` to each of `targets`, each with four promotions.
    fn promotions(&mut self, from: Square, targets: Bitboard);
    /// One en-passant or castling move.
    fn special(&mut self, m: Move);
    /// Pawn moves to each of `targets`, each from the square `delta` behind it.
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// Like [`Sink::pawns`], each with four promotions.
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i32);
}

#[inline(always)]
fn pawn_from(to: Square, delta: i32) -> Square {
    Square::new_masked((to as i32 - delta) as u32)
}

impl Sink for MoveList {
    #[inline]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            // A list only fills up on boards far beyond any chess material;
            // the extra moves are then dropped rather than panicking.
            let _ = self.try_push(Move::Normal {
                from,
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for role in Role::PROMOTIONS {
                let _ = self.try_push(Move::Normal {
                    from,
                    to,
                    promotion: Some(role),
                });
            }
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        let _ = self.try_push(m);
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let _ = self.try_push(Move::Normal {
                from: pawn_from(to, delta),
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            for role in Role::PROMOTIONS {
                let _ = self.try_push(Move::Normal {
                    from: pawn_from(to, delta),
                    to,
                    promotion: Some(role),
                });
            }
        }
    }
}

/// Counts moves without listing them (perft bulk counting).
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline]
    fn normal(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn promotions(&mut self, _from: Square, targets: Bitboard) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += 4 * u64::from(targets.count());
    }
}

/// Calls a closure for every move.
struct Each<F>(F);

impl<F: FnMut(Move)> Sink for Each<F> {
    #[inline]
    fn normal(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            (self.0)(Move::Normal {
                from,
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for role in Role::PROMOTIONS {
                (self.0)(Move::Normal {
                    from,
                    to,
                    promotion: Some(role),
                });
            }
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        (self.0)(m);
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            (self.0)(Move::Normal {
                from: pawn_from(to, delta),
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            for role in Role::PROMOTIONS {
                (self.0)(Move::Normal {
                    from: pawn_from(to, delta),
                    to,
                    promotion: Some(role),
                });
            }
        }
    }
}

/// Whether any move was seen.
struct Any(bool);

impl Sink for Any {
    #[inline]
    fn normal(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn promotions(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn special(&mut self, _m: Move) {
        self.0 = true;
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) {
        self.0 |= targets.any();
    }

    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, _delta: i32) {
        self.0 |= targets.any();
    }
}

impl Position {
    /// All legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        list
    }

    /// Calls `f` with every legal move (no list, no capacity limit).
    pub fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        self.gen_legal(&mut Each(f));
    }

    /// The number of legal moves, counted without listing them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.gen_legal(&mut c);
        c.0
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        let mut a = Any(false);
        self.gen_legal(&mut a);
        a.0
    }

    /// Whether `m` is legal here.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        let mut found = false;
        let from = m.from();
        // Only generate for the moving piece's square, via a filtering sink.
        struct Find {
            m: Move,
            found: bool,
        }
        impl Sink for Find {
            fn normal(&mut self, from: Square, targets: Bitboard) {
                if let Move::Normal {
                    from: f,
                    to,
                    promotion: None,
                } = self.m
                {
                    self.found |= f == from && targets.contains(to);
                }
            }
            fn promotions(&mut self, from: Square, targets: Bitboard) {
                if let Move::Normal {
                    from: f,
                    to,
                    promotion: Some(role),
                } = self.m
                {
                    self.found |= f == from && targets.contains(to) && role.is_promotion_target();
                }
            }
            fn special(&mut self, m: Move) {
                self.found |= m == self.m;
            }
            fn pawns(&mut self, targets: Bitboard, delta: i32) {
                if let Move::Normal {
                    from,
                    to,
                    promotion: None,
                } = self.m
                {
                    self.found |= targets.contains(to) && pawn_from(to, delta) == from;
                }
            }
            fn pawn_promotions(&mut self, targets: Bitboard, delta: i32) {
                if let Move::Normal {
                    from,
                    to,
                    promotion: Some(role),
                } = self.m
                {
                    self.found |= targets.contains(to)
                        && pawn_from(to, delta) == from
                        && role.is_promotion_target();
                }
            }
        }
        if self.board.by_color(self.turn).contains(from) {
            let mut sink = Find { m, found: false };
            self.gen_legal(&mut sink);
            found = sink.found;
        }
        found
    }

    /// All pseudo-legal moves: piece movement only, without asking whether the
    /// mover's king is left attacked. Castling needs the right, king and rook
    /// on their home squares and the squares between them empty; whether the
    /// king is in check or passes an attacked square is not considered here.
    #[must_use]
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        list
    }

    /// Calls `f` with every pseudo-legal move (no list, no capacity limit).
    pub fn for_each_pseudo_legal_move(&self, f: impl FnMut(Move)) {
        self.gen_pseudo(&mut Each(f));
    }

    /// The en-passant square if it is usable: on the mover's sixth rank, empty,
    /// with an enemy pawn in front of it. Returns it with that pawn's square.
    #[inline]
    fn usable_ep(&self) -> Option<(Square, Square)> {
        let ep = self.ep_square?;
        let us = self.turn;
        let captured = ep.forward(!us)?;
        let ok = ep.rank() == Rank::Sixth.relative_to(us)
            && !self.board.occupied().contains(ep)
            && self.board.pieces(!us, Role::Pawn).contains(captured);
        ok.then_some((ep, captured))
    }

    #[inline]
    fn castling_candidates(&self) -> impl Iterator<Item = (CastlingSide, Square, Square)> + '_ {
        let us = self.turn;
        let king = CastlingSide::king_from(us);
        let has_king = self.board.pieces(us, Role::King).contains(king);
        CastlingSide::ALL.into_iter().filter_map(move |side| {
            let rook = side.rook_from(us);
            let ok = has_king
                && self.castling.has(us, side)
                && self.board.pieces(us, Role::Rook).contains(rook)
                && (between(king, rook) & self.board.occupied()).is_empty();
            ok.then_some((side, king, rook))
        })
    }

    fn gen_pseudo<S: Sink>(&self, sink: &mut S) {
        let b = &self.board;
        let us = self.turn;
        let ours = b.by_color(us);
        let theirs = b.by_color(!us);
        let occ = ours | theirs;
        let target = !ours;
        for from in b.pieces(us, Role::Pawn) {
            let (pushes, caps) = pawn_targets(us, from, occ, theirs);
            let t = pushes | caps;
            if promotes(us, from) {
                sink.promotions(from, t);
            } else {
                sink.normal(from, t);
            }
        }
        for from in b.pieces(us, Role::Knight) {
            sink.normal(from, knight_attacks(from) & target);
        }
        for from in b.pieces(us, Role::Bishop) {
            sink.normal(from, bishop_attacks(from, occ) & target);
        }
        for from in b.pieces(us, Role::Rook) {
            sink.normal(from, rook_attacks(from, occ) & target);
        }
        for from in b.pieces(us, Role::Queen) {
            sink.normal(
                from,
                (rook_attacks(from, occ) | bishop_attacks(from, occ)) & target,
            );
        }
        for from in b.pieces(us, Role::King) {
            sink.normal(from, king_attacks(from) & target);
        }
        if let Some((ep, _)) = self.usable_ep() {
            for from in pawn_attacks(!us, ep) & b.pieces(us, Role::Pawn) {
                sink.special(Move::EnPassant { from, to: ep });
            }
        }
        for (_, king, rook) in self.castling_candidates() {
            sink.special(Move::Castle { king, rook });
        }
    }

    #[inline]
    pub(crate) fn gen_legal<S: Sink>(&self, sink: &mut S) {
        match self.our_king() {
            Some(king) => self.gen_legal_with_king(sink, king),
            None => self.gen_pseudo(sink),
        }
    }

    #[inline(always)]
    fn gen_legal_with_king<S: Sink>(&self, sink: &mut S, king: Square) {
        let b = &self.board;
        let us = self.turn;
        let them = !us;
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = ours | theirs;
        let their_rq = b.rooks_and_queens() & theirs;
        let their_bq = b.bishops_and_queens() & theirs;

        let their_knights = b.knights() & theirs;
        let their_pawns = b.pawns() & theirs;
        let their_king = b.kings() & theirs;
        let attackers = |sq: Square, occ: Bitboard| {
            (knight_attacks(sq) & their_knights)
                | (pawn_attacks(us, sq) & their_pawns)
                | (king_attacks(sq) & their_king)
                | (bishop_attacks(sq, occ) & their_bq)
                | (rook_attacks(sq, occ) & their_rq)
        };

        let checkers = attackers(king, occ);

        // King moves: each target tested with the king lifted off the board,
        // so sliders see through the square it leaves.
        let occ_no_king = occ.without(king);
        let mut king_targets = Bitboard::EMPTY;
        for to in king_attacks(king) & !ours {
            if attackers(to, occ_no_king).is_empty() {
                king_targets = king_targets.with(to);
            }
        }
        // Any extra kings of ours move pseudo-legally (variants only).
        for other in b.pieces(us, Role::King).without(king) {
            sink.normal(other, king_attacks(other) & !ours);
        }
        sink.normal(king, king_targets);

        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        };

        let snipers =
            (rook_attacks(king, theirs) & their_rq) | (bishop_attacks(king, theirs) & their_bq);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(king, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }

        let target = !ours & check_mask;
        let free = !pinned;

        // Pawns: unpinned ones set-wise, pinned ones one by one.
        let pawns = b.pieces(us, Role::Pawn);
        let last_rank = Bitboard::from_rank(Rank::Eighth.relative_to(us));
        let free_pawns = pawns & free;
        let empty = !occ;
        let (push, east, west) = match us {
            Color::White => (8, 9, 7),
            Color::Black => (-8, -7, -9),
        };
        let single = free_pawns.forward(us) & empty;
        let double = (single & Bitboard::from_rank(Rank::Third.relative_to(us))).forward(us)
            & empty
            & check_mask;
        let single = single & check_mask;
        let east_caps = free_pawns.forward(us).east() & theirs & check_mask;
        let west_caps = free_pawns.forward(us).west() & theirs & check_mask;
        sink.pawns(single & !last_rank, push);
        sink.pawns(double, 2 * push);
        sink.pawns(east_caps & !last_rank, east);
        sink.pawns(west_caps & !last_rank, west);
        if (free_pawns.forward(us) & last_rank).any() {
            sink.pawn_promotions(single & last_rank, push);
            sink.pawn_promotions(east_caps & last_rank, east);
            sink.pawn_promotions(west_caps & last_rank, west);
        }
        for from in pawns & pinned {
            let (pushes, caps) = pawn_targets(us, from, occ, theirs);
            let t = (pushes | caps) & check_mask & line(king, from);
            if promotes(us, from) {
                sink.promotions(from, t);
            } else {
                sink.normal(from, t);
            }
        }

        for from in b.pieces(us, Role::Knight) & free {
            sink.normal(from, knight_attacks(from) & target);
        }
        for from in b.pieces(us, Role::Bishop) {
            let mut t = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.normal(from, t);
        }
        for from in b.pieces(us, Role::Rook) {
            let mut t = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.normal(from, t);
        }
        for from in b.pieces(us, Role::Queen) {
            let mut t = (rook_attacks(from, occ) | bishop_attacks(from, occ)) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.normal(from, t);
        }

        // En passant: rare, so tested by making it (this also covers the
        // captured and capturing pawns both leaving a rank the king is on).
        if let Some((ep, captured)) = self.usable_ep() {
            for from in pawn_attacks(them, ep) & pawns {
                let occ_after = (occ ^ from.bitboard() ^ captured.bitboard()) | ep.bitboard();
                if attackers(king, occ_after).without(captured).is_empty() {
                    sink.special(Move::EnPassant { from, to: ep });
                }
            }
        }

        if checkers.is_empty() {
            for (side, king_from, rook) in self.castling_candidates() {
                if king_from != king {
                    continue;
                }
                let king_to = side.king_to(us);
                let path = between(king, king_to).with(king_to);
                if path
                    .iter()
                    .all(|sq| b.attackers_to(sq, them, occ).is_empty())
                {
                    sink.special(Move::Castle { king, rook });
                }
            }
        }
    }
}

/// A pawn's pushes (single, and double from its start rank) and captures.
#[inline(always)]
fn pawn_targets(us: Color, from: Square, occ: Bitboard, theirs: Bitboard) -> (Bitboard, Bitboard) {
    let bb = from.bitboard();
    let single = bb.forward(us) & !occ;
    let start = Bitboard::from_rank(Rank::Third.relative_to(us));
    let double = (single & start).forward(us) & !occ;
    (single | double, pawn_attacks(us, from) & theirs)
}

#[inline(always)]
fn promotes(us: Color, from: Square) -> bool {
    from.rank() == Rank::Seventh.relative_to(us)
}
