//! Chess 13: Epoch as a search node, and its evaluation in the book's
//! terms: the piece values, enhanced and restricted by the command zone;
//! the Marshal on the command square; the Emperor dormant or awake; the
//! Pope's safety; Legionaries by how far they have come. Its weights are
//! one table ([`Weights`]), as chess's are, so the `texel` example can tune
//! them; move ordering keeps the book's values ([`value`]).

use tabula_epoch::{Color, Move, Piece, PieceKind, Position, SQUARES, Square, no_progress_limit};

use super::{Node, Repetition, Result3, Score};

/// Black swaps when its best score after White's first move is below minus
/// this: the side White's move left better is the one to take (docs/ai.md).
/// Measured: the Texel fit (`texel fit ... epoch`, K = 0.159) puts Black's
/// expected score at 50% at a score of 0, its tempo fitted to 0, and the
/// offset B of that 50% point with the board nearly full, fitted over 174
/// self-play games, is +90 cp, 95% [−173, +388]: no offset shows, so 0.
pub const SWAP_MARGIN: Score = 0;

/// An Epoch position for the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EpochNode(pub Position);

/// The book's values (a chess pawn is 100): enhanced, restricted. Move
/// ordering reads these; the evaluation reads [`WEIGHTS`], which start from
/// them.
fn value(kind: PieceKind, enhanced: bool, awake: bool) -> Score {
    match (kind, enhanced) {
        (PieceKind::Pope, _) => 0,
        (PieceKind::Emperor, _) if awake => 1500,
        // Dormant: it cannot be lost, but it does nothing either.
        (PieceKind::Emperor, _) => 1100,
        (PieceKind::Marshal, _) => 1300,
        (PieceKind::Assassin, true) => 1000,
        (PieceKind::Assassin, false) => 700,
        (PieceKind::Sentinel, true) => 900,
        (PieceKind::Sentinel, false) => 600,
        (PieceKind::Mage, true) => 800,
        (PieceKind::Mage, false) => 500,
        (PieceKind::Herald | PieceKind::Templar, true) => 700,
        (PieceKind::Herald | PieceKind::Templar, false) => 500,
        (PieceKind::Legionary, _) => 200,
    }
}

/// What `piece` on `sq` is worth where it stands.
fn worth(pos: &Position, piece: Piece, sq: Square) -> Score {
    let zoned = !matches!(piece.kind, PieceKind::Pope | PieceKind::Emperor);
    value(
        piece.kind,
        zoned && pos.enhanced(piece.color, sq),
        pos.emperor_awake(piece.color),
    )
}

/// The worth of a piece of `kind` arriving by promotion (enhanced or not
/// is not known yet: the mean).
fn slot_worth(kind: PieceKind) -> Score {
    (value(kind, true, true) + value(kind, false, true)) / 2
}

impl Node for EpochNode {
    type Move = Move;
    // Passing is not a safe lower bound here: a side with no legal move
    // wins, so zugzwang cuts both ways and null-move pruning is off.
    const NULL_MOVE: bool = false;
    const STATIC_PRUNING: bool = true;
    const REPETITION: Repetition = Repetition::ThirdLoses;
    const HISTORY: usize = SQUARES * SQUARES;

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.0.legal_moves(out);
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        self.0.tactical_moves(out);
    }

    fn has_moves(&self) -> bool {
        self.0.has_legal_move()
    }

    fn play(&self, mv: Move) -> (Self, bool) {
        let mut p = self.0;
        let effect = p.make(mv);
        (EpochNode(p), effect.progress)
    }

    fn pass(&self) -> Self {
        *self
    }

    fn key(&self) -> u64 {
        self.0.full_key()
    }

    fn repetition_key(&self) -> u64 {
        self.0.key()
    }

    fn in_check(&self) -> bool {
        self.0.in_check()
    }

    fn no_moves(&self) -> Result3 {
        if self.0.in_check() {
            Result3::Loss
        } else {
            Result3::Win
        }
    }

    fn drawn(&self) -> bool {
        let pieces = self.0.piece_count();
        pieces == 2 || u32::from(self.0.halfmoves()) >= no_progress_limit(pieces)
    }

    fn evaluate(&self) -> Score {
        evaluate(&self.0)
    }

    fn tactical(&self, mv: Move) -> Option<Score> {
        let pos = &self.0;
        let at = |sq: Square| pos.piece_at(sq).map_or(0, |p| worth(pos, p, sq));
        let (gain, attacker) = match mv {
            Move::Capture { from, to } => (at(to), at(from)),
            Move::AssassinCapture { from, victim, .. } => (at(victim), at(from)),
            Move::EnPassant { .. } => (200, 200),
            Move::Blast { at: mage } => {
                let us = pos.side_to_move();
                let enhanced = pos.enhanced(us, mage);
                let mut gain = 0;
                for df in -1..=1 {
                    for dr in -1..=1 {
                        let Some(sq) = mage.offset(df, dr) else {
                            continue;
                        };
                        if sq == mage {
                            continue;
                        }
                        let Some(p) = pos.piece_at(sq) else {
                            continue;
                        };
                        if p.kind == PieceKind::Emperor && !pos.emperor_awake(p.color) {
                            continue;
                        }
                        if p.color != us {
                            gain += worth(pos, p, sq);
                        } else if !enhanced && p.kind != PieceKind::Pope {
                            gain -= worth(pos, p, sq);
                        }
                    }
                }
                (gain, 0)
            }
            Move::Promotion { from, to, slot, .. } => {
                (at(to) + slot_worth(slot.kind) - 200, at(from))
            }
            Move::Trade { slot, .. } => (slot_worth(slot.kind) - 200, 200),
            Move::Quiet { .. } | Move::Castle { .. } | Move::Swap => return None,
        };
        Some(gain * 16 - attacker / 10)
    }

    fn history_index(&self, mv: Move) -> usize {
        match (mv.from(), mv.to()) {
            (Some(f), Some(t)) => f.index() * SQUARES + t.index(),
            _ => 0,
        }
    }

    fn has_pieces(&self) -> bool {
        true
    }

    fn zugzwang_possible(&self, moves: usize) -> bool {
        moves <= ZUGZWANG_MOVES
    }
}

/// At most this many legal moves (a Pope and one more piece, say), the side
/// to move may be in zugzwang: each move may worsen its position while a
/// pass would hold (test `epoch_the_engine_sees_a_zugzwang`).
const ZUGZWANG_MOVES: usize = 16;

weights! {
    /// Epoch's evaluation weights (centipawns, a chess pawn 100): the
    /// pieces' values, enhanced (in the command zone) and restricted, and
    /// the terms a player names. Texel-tuned from the book's values
    /// (`texel fit ... signs epoch`: 174 self-play games at 5,000 nodes a
    /// move, no weight allowed across zero); `in_check` is not fitted
    /// (quiet positions are not in check), `legionary_advance` set by hand.
    Weights, WEIGHTS;
    /// The Emperor, awake.
    emperor_awake: 1590,
    /// The Emperor, dormant: it cannot be lost, but it does nothing either.
    emperor_dormant: 1010,
    /// The Marshal.
    marshal: 1210,
    /// An Assassin, enhanced.
    assassin_enhanced: 1004,
    /// An Assassin, restricted.
    assassin: 790,
    /// A Sentinel, enhanced.
    sentinel_enhanced: 990,
    /// A Sentinel, restricted.
    sentinel: 690,
    /// A Mage, enhanced.
    mage_enhanced: 710,
    /// A Mage, restricted.
    mage: 505,
    /// A Herald, enhanced.
    herald_enhanced: 790,
    /// A Herald, restricted.
    herald: 590,
    /// A Templar, enhanced.
    templar_enhanced: 761,
    /// A Templar, restricted.
    templar: 410,
    /// A Legionary.
    legionary: 186,
    /// A Legionary's advance, a rank from its third. Not the fit's: it took
    /// this to 0, the bound of its signs constraint, and with nothing to
    /// choose between quiet moves a shallow search shuffled its Pope and
    /// never ended a game (depth 2 against 1: 2/198/0). At 2 it plays
    /// forward and keeps the fit's strength (docs/ai.md, "Texel tuning of
    /// the Epoch evaluation").
    legionary_advance: 2,
    /// A Legionary on its 9th rank or beyond, more by (rank − 8)².
    legionary_last_ranks: 14,
    /// The Marshal on the command square.
    marshal_command: 86,
    /// An own piece next to the Pope (four at most), scaled by how full
    /// the board is (pieces / 52).
    pope_shield: 4,
    /// An enemy piece near the Pope, by 4 − its distance (3 at most),
    /// a penalty, scaled the same way.
    pope_danger: 99,
    /// The side to move's tempo.
    tempo: 0,
    /// The side to move in check, a penalty.
    in_check: 30,
}

/// What `piece` on `sq` is worth where it stands, by the weights `w`.
#[inline(always)]
fn weighted_worth(pos: &Position, piece: Piece, sq: Square, w: &Weights) -> Score {
    let enhanced = || pos.enhanced(piece.color, sq);
    match piece.kind {
        PieceKind::Pope => 0,
        PieceKind::Emperor if pos.emperor_awake(piece.color) => w.emperor_awake,
        PieceKind::Emperor => w.emperor_dormant,
        PieceKind::Marshal => w.marshal,
        PieceKind::Assassin if enhanced() => w.assassin_enhanced,
        PieceKind::Assassin => w.assassin,
        PieceKind::Sentinel if enhanced() => w.sentinel_enhanced,
        PieceKind::Sentinel => w.sentinel,
        PieceKind::Mage if enhanced() => w.mage_enhanced,
        PieceKind::Mage => w.mage,
        PieceKind::Herald if enhanced() => w.herald_enhanced,
        PieceKind::Herald => w.herald,
        PieceKind::Templar if enhanced() => w.templar_enhanced,
        PieceKind::Templar => w.templar,
        PieceKind::Legionary => w.legionary,
    }
}

/// The evaluation from the side to move's view, with the kept weights.
pub(crate) fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation from the side to move's view, with weights `w`.
#[inline(always)]
pub fn evaluate_with(pos: &Position, w: &Weights) -> Score {
    let mut side = [0i32; 2];
    let mut popes = [None; 2];
    let mut material = [0i32; 2];
    let pieces = pos.piece_count() as i32;
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let mut total = 0;
        let mut total_material = 0;
        let pope = pos
            .occupied_by(color)
            .iter()
            .find(|&sq| pos.piece_at(sq).is_some_and(|p| p.kind == PieceKind::Pope));
        for sq in pos.occupied_by(color).iter() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let worth = weighted_worth(pos, piece, sq, w);
            total += worth;
            total_material += worth;
            match piece.kind {
                PieceKind::Legionary => {
                    // From rank 3 (2 counted from 0); the last ranks pay most.
                    let rank = i32::from(color.relative_rank(sq.rank()));
                    let advance = (rank - 2).max(0);
                    total += advance * w.legionary_advance
                        + if rank >= 8 {
                            (rank - 7) * (rank - 7) * w.legionary_last_ranks
                        } else {
                            0
                        };
                }
                PieceKind::Marshal if sq == Square::G7 => total += w.marshal_command,
                _ => {}
            }
        }
        // The Pope: enemies close by are a danger, own pieces a shield.
        if let Some(p) = pope {
            let mut danger = 0;
            let mut shield = 0;
            for sq in pos.occupied_by(!color).iter() {
                let d = sq.distance(p);
                if d <= 3 {
                    danger += 4 - i32::from(d);
                }
            }
            for df in -1..=1 {
                for dr in -1..=1 {
                    if let Some(sq) = p.offset(df, dr)
                        && sq != p
                        && pos.piece_at(sq).is_some_and(|x| x.color == color)
                    {
                        shield += 1;
                    }
                }
            }
            // Danger matters while the board is full; it fades as it empties.
            total += (shield.min(4) * w.pope_shield - danger * w.pope_danger) * pieces / 52;
        }
        side[c] = total;
        popes[c] = pope;
        material[c] = total_material;
    }
    let white = side[0] - side[1] + mop_up(material, popes);
    let mut s = if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    if pos.in_check() {
        s -= w.in_check;
    }
    s + w.tempo
}

/// White's mop-up bonus (negative for Black): when one side is clearly
/// ahead and the other has almost nothing left, the mate needs the weaker
/// Pope driven to an edge and the stronger Pope brought up to it. A search
/// a few plies deep sees neither on a 13-square board, and the no-progress
/// limit then draws a won game. Only then: while the weaker side still has
/// an army, walking the Pope up to the enemy's lost games.
fn mop_up(material: [Score; 2], popes: [Option<Square>; 2]) -> Score {
    let lead = material[0] - material[1];
    let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
    if lead.abs() < MOP_UP_LEAD || material[weak] > MOP_UP_WEAK {
        return 0;
    }
    let (Some(hunter), Some(prey)) = (popes[strong], popes[weak]) else {
        return 0;
    };
    let centre = |sq: Square| {
        let d = |x: u8| (i32::from(x) - 6).abs();
        d(sq.file()).max(d(sq.rank()))
    };
    let near = 12 - i32::from(hunter.distance(prey));
    let bonus = 12 * centre(prey) + 6 * near;
    if strong == 0 { bonus } else { -bonus }
}

/// The material lead (the book's values, a Legionary 200) from which the
/// mop-up bonus applies...
const MOP_UP_LEAD: Score = 500;
/// ...and the most the weaker side may have left besides its Pope (one
/// enhanced Herald or Templar, or three Legionaries).
const MOP_UP_WEAK: Score = 700;
