//! Chess as a search node, and its evaluation: material, a phase-blended
//! piece placement written as formulas (centre, advance, king shelter),
//! mobility of the long-range pieces, pawn structure and the bishop pair.
//! Its weights are one table ([`Weights`]), so a tuner (the `texel`
//! example) can fit them; the engine plays with [`WEIGHTS`].

use tabula_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use tabula_chess::{Bitboard, Color, Move, Position, Role, Square};

use super::{Node, Repetition, Result3, Score};

/// A chess position for the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessNode(pub Position);

const VALUE: [Score; 6] = [100, 320, 330, 500, 950, 0];
/// How much each role counts towards the middlegame (24 at the start).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

fn value(role: Role) -> Score {
    VALUE[role.index()]
}

impl Node for ChessNode {
    type Move = Move;
    const NULL_MOVE: bool = true;
    const STATIC_PRUNING: bool = true;
    const REPETITION: Repetition = Repetition::Draw;
    const HISTORY: usize = 64 * 64;

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.0.legal_moves());
    }

    fn play(&self, mv: Move) -> (Self, bool) {
        let mut p = self.0;
        p.play_unchecked(mv);
        let irreversible =
            p.halfmove_clock() == 0 || p.castling_rights() != self.0.castling_rights();
        (ChessNode(p), irreversible)
    }

    fn pass(&self) -> Self {
        let mut p = self.0;
        p.play_null();
        ChessNode(p)
    }

    fn key(&self) -> u64 {
        self.0.hash()
    }

    fn repetition_key(&self) -> u64 {
        self.0.hash()
    }

    fn in_check(&self) -> bool {
        self.0.is_check()
    }

    fn no_moves(&self) -> Result3 {
        if self.0.is_check() {
            Result3::Loss
        } else {
            Result3::Draw
        }
    }

    fn drawn(&self) -> bool {
        self.0.halfmove_clock() >= 100 || self.0.is_insufficient_material()
    }

    fn evaluate(&self) -> Score {
        evaluate(&self.0)
    }

    fn tactical(&self, mv: Move) -> Option<Score> {
        let board = self.0.board();
        match mv {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let victim = board.role_at(to);
                if victim.is_none() && promotion.is_none() {
                    return None;
                }
                let attacker = board.role_at(from).map_or(0, value);
                let gain = victim.map_or(0, value) + promotion.map_or(0, |r| value(r) - 100);
                Some(gain * 16 - attacker / 10)
            }
            Move::EnPassant { .. } => Some(100 * 16 - 10),
            Move::Castle { .. } => None,
        }
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * 64 + mv.to().index()
    }

    fn has_pieces(&self) -> bool {
        let b = self.0.board();
        let us = b.by_color(self.0.turn());
        (us & !(b.pawns() | b.kings())).any()
    }

    fn losing_exchange(&self, mv: Move) -> bool {
        let b = self.0.board();
        let victim = b.role_at(mv.to()).map_or(0, value);
        let attacker = b.role_at(mv.from()).map_or(0, value);
        // Taking a piece worth at least the taker cannot lose material.
        victim < attacker && mv.promotion().is_none() && see(&self.0, mv) < 0
    }
}

/// Static exchange evaluation: what `mv` wins on its square once both
/// sides have recaptured there with their least valuable piece for as long
/// as it pays (pins are not considered).
pub(crate) fn see(pos: &Position, mv: Move) -> Score {
    let b = pos.board();
    let (from, to) = (mv.from(), mv.to());
    let Some(mut on_square) = b.role_at(from) else {
        return 0;
    };
    let mut occ = b.occupied().without(from);
    let mut gain = [0 as Score; 34];
    gain[0] = match mv {
        Move::Castle { .. } => return 0,
        Move::EnPassant { .. } => {
            // The captured pawn stands beside the landing square.
            if let Some(sq) = to.offset(0, if pos.turn() == Color::White { -1 } else { 1 }) {
                occ = occ.without(sq);
            }
            value(Role::Pawn)
        }
        Move::Normal { promotion, .. } => {
            let mut g = b.role_at(to).map_or(0, value);
            if let Some(r) = promotion {
                g += value(r) - value(Role::Pawn);
                on_square = r;
            }
            g
        }
    };
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = b.attackers_to(to, side, occ) & occ;
        let Some((sq, role)) = Role::ALL
            .iter()
            .find_map(|&r| (attackers & b.by_role(r)).first().map(|sq| (sq, r)))
        else {
            break;
        };
        if role == Role::King && (b.attackers_to(to, !side, occ) & occ).any() {
            // The king cannot take a defended piece.
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = value(on_square) - gain[d - 1];
        occ = occ.without(sq);
        on_square = role;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The distance from the four centre squares, 0 to 3.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
}

/// The evaluation from the side to move's view, with the kept weights.
pub(crate) fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, &WEIGHTS)
}

weights! {
    /// The chess evaluation's weights (centipawns, or a factor where
    /// said), `mg` in the middlegame and `eg` in the endgame; the
    /// evaluation blends the two by the pieces left.
    Weights, WEIGHTS;
    /// A pawn, middlegame.
    pawn_mg: 80,
    /// A knight, middlegame.
    knight_mg: 374,
    /// A bishop, middlegame.
    bishop_mg: 433,
    /// A rook, middlegame.
    rook_mg: 543,
    /// A queen, middlegame.
    queen_mg: 1100,
    /// A pawn, endgame.
    pawn_eg: 93,
    /// A knight, endgame.
    knight_eg: 294,
    /// A bishop, endgame.
    bishop_eg: 277,
    /// A rook, endgame.
    rook_eg: 554,
    /// A queen, endgame.
    queen_eg: 1099,
    /// A pawn's advance, a rank (middlegame).
    pawn_advance_mg: 2,
    /// A centre-file pawn's advance, a rank (middlegame).
    pawn_central_mg: 8,
    /// A pawn's advance, by ranks squared (endgame).
    pawn_advance_eg: 2,
    /// A doubled pawn, a penalty (middlegame).
    doubled_mg: -3,
    /// A doubled pawn, a penalty (endgame).
    doubled_eg: 17,
    /// An isolated pawn, a penalty (middlegame).
    isolated_mg: 15,
    /// An isolated pawn, a penalty (endgame).
    isolated_eg: 3,
    /// A passed pawn, by its rank squared (middlegame).
    passed_mg: 3,
    /// A passed pawn, by its rank squared (endgame).
    passed_eg: 4,
    /// A passed pawn with nothing before it, more by rank squared (middlegame).
    free_path_mg: 0,
    /// A passed pawn with nothing before it, more by rank squared (endgame).
    free_path_eg: 1,
    /// The kings' race to a passed pawn's stop square: the enemy king's
    /// distance, a square, by the pawn's rank (endgame).
    race_theirs: 7,
    /// The same, the own king's distance, a penalty.
    race_ours: 5,
    /// A knight's closeness to the centre (0 to 3), a step (middlegame).
    knight_centre_mg: 16,
    /// A knight's closeness to the centre, a step (endgame).
    knight_centre_eg: 19,
    /// A bishop's closeness to the centre, a step (middlegame).
    bishop_centre_mg: 3,
    /// A queen's closeness to the centre, a step (middlegame).
    queen_centre_mg: 0,
    /// A queen's closeness to the centre, a step (endgame).
    queen_centre_eg: 37,
    /// The queen off its first rank with most pieces on, a penalty.
    queen_early: 2,
    /// The king's closeness to the centre, a step (endgame).
    king_centre_eg: 5,
    /// A knight's mobility, a square (not own pieces, not attacked by an
    /// enemy pawn), middlegame.
    knight_mobility_mg: 6,
    /// A knight's mobility, a square, endgame.
    knight_mobility_eg: 3,
    /// A bishop's mobility, a square, middlegame.
    bishop_mobility_mg: 8,
    /// A bishop's mobility, a square, endgame.
    bishop_mobility_eg: 5,
    /// A rook's mobility, a square, middlegame.
    rook_mobility_mg: 7,
    /// A rook's mobility, a square, endgame.
    rook_mobility_eg: 0,
    /// A queen's mobility, a square, middlegame.
    queen_mobility_mg: 3,
    /// A queen's mobility, a square, endgame.
    queen_mobility_eg: -11,
    /// A rook on a file without pawns (middlegame).
    rook_open: 46,
    /// A rook on a file without own pawns (middlegame).
    rook_half_open: 25,
    /// A rook on the 7th rank (middlegame).
    rook_seventh_mg: 114,
    /// A rook on the 7th rank (endgame).
    rook_seventh_eg: -8,
    /// The king on a wing (middlegame).
    king_wing: 17,
    /// The king off its first rank, a rank, a penalty (middlegame).
    king_rank: 19,
    /// An own pawn in front of the king (middlegame).
    king_shield: 20,
    /// King attack: a knight's units a square of the enemy king's zone.
    attack_knight: 4,
    /// King attack: a bishop's units a square.
    attack_bishop: 2,
    /// King attack: a rook's units a square.
    attack_rook: 4,
    /// King attack: a queen's units a square.
    attack_queen: 5,
    /// King attack with two or more pieces: 96ths of the units squared.
    attack_scale: 15,
    /// King attack: at most this (middlegame).
    attack_cap: 468,
    /// The bishop pair (middlegame).
    bishop_pair_mg: 4,
    /// The bishop pair (endgame).
    bishop_pair_eg: 104,
    /// The side to move's tempo.
    tempo: -3,
}

/// The evaluation from the side to move's view, with weights `w`.
#[inline(always)]
pub fn evaluate_with(pos: &Position, w: &Weights) -> Score {
    let b = pos.board();
    let occ = b.occupied();
    let mut phase = 0;
    for role in Role::ALL {
        phase += PHASE[role.index()] * b.by_role(role).count() as i32;
    }
    let phase = phase.min(24);
    let material_mg = [
        w.pawn_mg,
        w.knight_mg,
        w.bishop_mg,
        w.rook_mg,
        w.queen_mg,
        0,
    ];
    let material_eg = [
        w.pawn_eg,
        w.knight_eg,
        w.bishop_eg,
        w.rook_eg,
        w.queen_eg,
        0,
    ];
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    // Per side: the squares its pawns attack, and the ring around its king
    // with the squares in front of it (where attackers count).
    let mut pawn_cover = [Bitboard::EMPTY; 2];
    let mut king_zone = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        for sq in b.pieces(color, Role::Pawn) {
            pawn_cover[color.index()] |= pawn_attacks(color, sq);
        }
        if let Some(k) = b.king_of(color) {
            let ring = king_attacks(k) | Bitboard::from_square(k);
            king_zone[color.index()] = ring | ring.forward(color);
        }
    }
    for color in Color::ALL {
        let c = color.index();
        let own_pawns = b.pieces(color, Role::Pawn);
        let their_pawns = b.pieces(!color, Role::Pawn);
        // Where mobility counts: not on own pieces, not where an enemy pawn takes.
        let area = !b.by_color(color) & !pawn_cover[(!color).index()];
        let their_zone = king_zone[(!color).index()];
        let (mut attackers, mut units) = (0, 0);
        let mut near_king = |reach: Bitboard, weight: i32| {
            let hits = (reach & their_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += weight * hits;
            }
        };
        for (sq, piece) in b.iter().filter(|(_, p)| p.color == color) {
            mg[c] += material_mg[piece.role.index()];
            eg[c] += material_eg[piece.role.index()];
            let rel = sq.relative_to(color);
            let rank = rel.rank().index() as i32;
            let file = sq.file().index() as i32;
            let centre = 3 - centre_distance(sq);
            match piece.role {
                Role::Pawn => {
                    let central = i32::from(file == 3 || file == 4);
                    mg[c] += (rank - 1) * w.pawn_advance_mg + central * rank * w.pawn_central_mg;
                    eg[c] += (rank - 1) * (rank - 1) * w.pawn_advance_eg;
                    let file_bb = Bitboard::from_file(sq.file());
                    // Doubled: another own pawn ahead on the file.
                    if (own_pawns & file_bb).count() > 1 {
                        mg[c] -= w.doubled_mg;
                        eg[c] -= w.doubled_eg;
                    }
                    let mut sides = Bitboard::EMPTY;
                    for df in [-1, 1] {
                        if let Some(f) = sq.file().offset(df) {
                            sides |= Bitboard::from_file(f);
                        }
                    }
                    if (own_pawns & sides).is_empty() {
                        mg[c] -= w.isolated_mg;
                        eg[c] -= w.isolated_eg;
                    }
                    // Passed: no enemy pawn ahead on its file or beside it.
                    let ahead = (file_bb | sides) & ahead_of(sq, color);
                    if (their_pawns & ahead).is_empty() {
                        mg[c] += rank * rank * w.passed_mg;
                        eg[c] += rank * rank * w.passed_eg;
                        let path = file_bb & ahead_of(sq, color);
                        if (path & occ).is_empty() {
                            // A free path: nothing stands before it.
                            mg[c] += rank * rank * w.free_path_mg;
                            eg[c] += rank * rank * w.free_path_eg;
                        }
                        // Endgame: the kings' race to the square in front.
                        if let Some(stop) = sq.forward(color)
                            && let (Some(ours), Some(theirs)) =
                                (b.king_of(color), b.king_of(!color))
                        {
                            eg[c] += (distance(theirs, stop) * w.race_theirs
                                - distance(ours, stop) * w.race_ours)
                                * rank;
                        }
                    }
                }
                Role::Knight => {
                    mg[c] += centre * w.knight_centre_mg - 10;
                    eg[c] += centre * w.knight_centre_eg - 8;
                    let reach = knight_attacks(sq);
                    let mob = (reach & area).count() as i32 - 4;
                    mg[c] += mob * w.knight_mobility_mg;
                    eg[c] += mob * w.knight_mobility_eg;
                    near_king(reach, w.attack_knight);
                }
                Role::Bishop => {
                    let reach = bishop_attacks(sq, occ);
                    near_king(reach, w.attack_bishop);
                    let mob = (reach & area).count() as i32 - 4;
                    mg[c] += mob * w.bishop_mobility_mg + centre * w.bishop_centre_mg;
                    eg[c] += mob * w.bishop_mobility_eg;
                }
                Role::Rook => {
                    let reach = rook_attacks(sq, occ);
                    near_king(reach, w.attack_rook);
                    let mob = (reach & area).count() as i32 - 5;
                    mg[c] += mob * w.rook_mobility_mg;
                    eg[c] += mob * w.rook_mobility_eg;
                    let file_bb = Bitboard::from_file(sq.file());
                    if (own_pawns & file_bb).is_empty() {
                        mg[c] += if (their_pawns & file_bb).is_empty() {
                            w.rook_open
                        } else {
                            w.rook_half_open
                        };
                    }
                    if rank == 6 {
                        mg[c] += w.rook_seventh_mg;
                        eg[c] += w.rook_seventh_eg;
                    }
                }
                Role::Queen => {
                    mg[c] += centre * w.queen_centre_mg
                        - if rank > 1 && phase > 18 {
                            w.queen_early
                        } else {
                            0
                        };
                    eg[c] += centre * w.queen_centre_eg;
                    let reach = queen_attacks(sq, occ);
                    near_king(reach, w.attack_queen);
                    let mob = (reach & area).count() as i32 - 12;
                    mg[c] += mob * w.queen_mobility_mg;
                    eg[c] += mob * w.queen_mobility_eg;
                }
                Role::King => {
                    // Middlegame: home, on a wing, behind its pawns.
                    let wing = if file <= 2 || file >= 5 {
                        w.king_wing
                    } else {
                        0
                    };
                    mg[c] += wing - rank * w.king_rank;
                    let shield = shield(sq, color) & own_pawns;
                    mg[c] += shield.count() as i32 * w.king_shield;
                    // Endgame: to the centre.
                    eg[c] += centre * w.king_centre_eg - 20;
                }
            }
        }
        // King safety: two or more pieces bearing on the enemy king's
        // zone, worth more the more squares they reach (a middlegame term).
        if attackers >= 2 {
            mg[c] += (units * units * w.attack_scale / 96).min(w.attack_cap);
        }
        if b.pieces(color, Role::Bishop).count() >= 2 {
            mg[c] += w.bishop_pair_mg;
            eg[c] += w.bishop_pair_eg;
        }
    }
    let white = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (24 - phase)) / 24;
    if pos.turn() == Color::White {
        white + w.tempo
    } else {
        -white + w.tempo
    }
}

/// The king's distance between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// The squares ahead of `sq` from `color`'s side, every file.
fn ahead_of(sq: Square, color: Color) -> Bitboard {
    let rank = sq.rank().index() as u32;
    let mut bb = Bitboard::EMPTY;
    for r in 0..8u32 {
        let ahead = match color {
            Color::White => r > rank,
            Color::Black => r < rank,
        };
        if ahead && let Some(rk) = tabula_chess::Rank::new(r) {
            bb |= Bitboard::from_rank(rk);
        }
    }
    bb
}

/// The three squares in front of the king and the three beyond them.
fn shield(sq: Square, color: Color) -> Bitboard {
    let dir = if color == Color::White { 1 } else { -1 };
    let mut bb = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in [dir, 2 * dir] {
            if let Some(s) = sq.offset(df, dr) {
                bb |= Bitboard::from_square(s);
            }
        }
    }
    bb
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> Score {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|&m| tabula_chess::UciMove::from(m).to_string() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal in {fen}"));
        see(&pos, mv)
    }

    #[test]
    fn the_exchange_counts_recaptures_and_x_rays() {
        // A rook takes a pawn a pawn defends: a rook for a pawn.
        assert_eq!(
            see_of("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            100 - 500
        );
        // Undefended: the pawn for nothing.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Two rooks behind each other against one defender: the second
        // recaptures through the first (an x-ray), so the pawn is won.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // A knight takes a pawn twice defended, twice attacked (the rook
        // behind it): the knight goes for a pawn, the pawn for the knight.
        assert_eq!(
            see_of("4k3/8/2p5/3p4/8/4N3/8/3RK3 w - - 0 1", "e3d5"),
            100 - 320 + 100
        );
    }
}
