//! The game state and the rules: what may be done, and what it does.

use tabula_chess::attacks::{attacks, between, king_attacks, pawn_attacks, queen_attacks};
use tabula_chess::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, Move, Piece, Position, Rank, Role, Setup,
    Square, UciMove,
};
use tabula_core::{EndReason, Outcome, Team};

use crate::action::SkirmishAction;
use crate::odds::{Odds, piece_value, sequential_bonus};
use crate::options::{Checkers, KingCaptures, Mode, Relocation, SkirmishOptions};

/// A Tactical movement: the moving piece, its final square, and how far
/// along its path it has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TacticalMove {
    /// Point A: where the piece started (it stands there until it arrives).
    pub from: Square,
    /// Point B: the final square (`from` itself when attacking while
    /// remaining in the same spot).
    pub to: Square,
    /// The piece a pawn becomes on arriving on the last rank.
    pub promotion: Option<Role>,
    /// The index in [`path`] of the square the piece fights from now; its
    /// next targets must be adjacent to this square or a later one.
    pub at: u8,
}

impl TacticalMove {
    /// The path squares (see [`path`]).
    pub fn path(&self) -> Path {
        path(self.from, self.to)
    }

    /// The square the piece stands on while fighting now.
    pub fn square(&self) -> Square {
        self.path().get(self.at as usize).unwrap_or(self.from)
    }
}

/// The squares a piece passes "along the way from point A to point B",
/// final square excluded: A itself, then every square strictly between A
/// and B in order (a slider's run, a pawn's double step). A knight, a one
/// step move and remaining in the same spot have the path A alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Path {
    squares: [Square; 8],
    len: u8,
}

impl Path {
    /// The number of squares.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Never true: a path holds at least A.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th square, A first.
    pub fn get(&self, i: usize) -> Option<Square> {
        self.squares[..self.len()].get(i).copied()
    }

    /// The squares, A first.
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len()]
    }

    /// The squares adjacent (a King's step away, in the eight directions)
    /// to the path squares from index `from_index` on.
    pub fn adjacent_from(&self, from_index: usize) -> Bitboard {
        self.squares()
            .iter()
            .skip(from_index)
            .fold(Bitboard::EMPTY, |acc, &sq| acc | king_attacks(sq))
    }
}

/// The path of a movement from `from` to `to` (see [`Path`]).
pub fn path(from: Square, to: Square) -> Path {
    let mut squares = [from; 8];
    let mut len = 1usize;
    let mid = between(from, to);
    let mut push = |sq: Square| {
        if len < 8 {
            squares[len] = sq;
            len += 1;
        }
    };
    if to.index() > from.index() {
        mid.into_iter().for_each(&mut push);
    } else {
        let v: Vec<Square> = mid.into_iter().collect();
        v.into_iter().rev().for_each(&mut push);
    }
    Path {
        squares,
        len: len as u8,
    }
}

/// A skirmish (or check or checkmate roll) whose dice are to be rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pending {
    /// A capture attempt by a chess capture move (Basic move, or an Advanced
    /// skirmish by a piece in position, sequential or not).
    Capture(Move),
    /// A skirmish of a Tactical movement, at half value.
    Tactical {
        /// The movement.
        tactical: TacticalMove,
        /// The piece attacked.
        target: Square,
    },
    /// A divided skirmish: the targets, rolled lowest square first.
    Divided {
        /// The attacking piece's square.
        from: Square,
        /// Every announced target.
        targets: Bitboard,
        /// Targets beaten so far (already removed from the board).
        won: Bitboard,
        /// Targets that beat the attacker so far.
        lost: Bitboard,
    },
    /// The check roll: do the checking pieces force the King to respond?
    Check(Bitboard),
    /// The checkmate roll: win for the checking side, or the loss of the
    /// checking pieces.
    Mate(Bitboard),
}

/// Where the game stands: who must decide what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move chooses a move (Basic), or a movement, a skirmish
    /// or the end of the turn (Advanced).
    Act,
    /// Dice are to be rolled.
    Roll(Pending),
    /// The defender who won decides: stay, or take `square`.
    Choice {
        /// The defeated attacker's old square.
        square: Square,
        /// The defending pieces that won (any of them may take the square).
        defenders: Bitboard,
    },
    /// The piece on `from` won every divided skirmish: its player places it
    /// on one of `squares`.
    Place {
        /// The attacking piece's square.
        from: Square,
        /// The won squares.
        squares: Bitboard,
    },
    /// A Tactical movement is under way: the player names the next target
    /// or arrives.
    Tactical(TacticalMove),
    /// The game is over.
    Over(Outcome),
}

/// How many attacks the piece now on each square has made this turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AttackCounts([u8; 64]);

impl Default for AttackCounts {
    fn default() -> Self {
        AttackCounts([0; 64])
    }
}

impl std::fmt::Debug for AttackCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(sq, n)| (sq.to_string(), n)))
            .finish()
    }
}

impl AttackCounts {
    /// The count for the piece on `sq`.
    pub fn get(&self, sq: Square) -> u8 {
        self.0[sq.index()]
    }

    pub(crate) fn set(&mut self, sq: Square, n: u8) {
        self.0[sq.index()] = n;
    }

    /// Every square with a non-zero count, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, u8)> + '_ {
        Square::ALL
            .into_iter()
            .map(|sq| (sq, self.0[sq.index()]))
            .filter(|(_, n)| *n > 0)
    }
}

/// What has happened so far in the current turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TurnState {
    /// Whether the player has done anything this turn (Advanced: `end` is
    /// then allowed).
    pub acted: bool,
    /// Whether the turn's movement (Strategic or Tactical) has been made.
    pub movement: bool,
    /// Whether a pawn moved or a piece left the board this turn (resets the
    /// no-progress count).
    pub progress: bool,
    /// The squares of the pieces that made the movement (they may not
    /// skirmish afterwards: they were not "already in position").
    pub moved: Bitboard,
    /// The attacks made this turn by the piece now on each square.
    pub attacks: AttackCounts,
    /// The en-passant square this turn's double step leaves the opponent.
    pub new_ep: Option<Square>,
    /// Checking pieces the King beat in this turn's check roll: the King
    /// need not respond to them.
    pub excused: Bitboard,
}

/// A game of Skirmish chess. See the crate documentation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Skirmish {
    pub(crate) options: SkirmishOptions,
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) phase: Phase,
    pub(crate) ts: TurnState,
    /// Repetition keys of the turn starts since the last progress, the
    /// current turn's start last; empty once this turn has made progress.
    pub(crate) history: Vec<u64>,
}

/// The mover's King and what threatens it, for quick legality tests.
struct Safety {
    king: Option<Square>,
    /// Whether the King is attacked now (excused checkers aside).
    attacked: bool,
    /// Every square on a line (rank, file, diagonal) through the King.
    rays: Bitboard,
}

pub(crate) fn team(color: Color) -> Team {
    Team(color as u8)
}

/// The board after `m`, played without any check (a capture takes).
pub(crate) fn board_after(board: &Board, m: Move) -> Board {
    let mut b = *board;
    match m {
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            if let Some(p) = b.remove_piece_at(from) {
                let placed = promotion.map_or(p, |r| Piece::new(p.color, r));
                b.set_piece_at(to, placed);
            }
        }
        Move::EnPassant { from, to } => {
            b.remove_piece_at(Square::from_coords(to.file(), from.rank()));
            if let Some(p) = b.remove_piece_at(from) {
                b.set_piece_at(to, p);
            }
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_squares(king, rook);
            let k = b.remove_piece_at(king);
            let r = b.remove_piece_at(rook);
            if let Some(k) = k {
                b.set_piece_at(Square::from_coords(side.king_to_file(), king.rank()), k);
            }
            if let Some(r) = r {
                b.set_piece_at(Square::from_coords(side.rook_to_file(), king.rank()), r);
            }
        }
    }
    b
}

/// The move of `moves` that `uci` names, or a plain move.
pub(crate) fn interpret_in(moves: &[Move], uci: UciMove) -> Move {
    moves
        .iter()
        .copied()
        .find(|&m| UciMove::from(m) == uci)
        .unwrap_or(Move::Normal {
            from: uci.from,
            to: uci.to,
            promotion: uci.promotion,
        })
}

/// The square of the piece a capture move attacks.
pub(crate) fn target_square(m: Move) -> Square {
    match m {
        Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
        _ => m.to(),
    }
}

fn promotions_for(piece: Piece, to: Square) -> &'static [Option<Role>] {
    const NONE: [Option<Role>; 1] = [None];
    const ALL: [Option<Role>; 4] = [
        Some(Role::Queen),
        Some(Role::Rook),
        Some(Role::Bishop),
        Some(Role::Knight),
    ];
    if piece.role == Role::Pawn && to.rank() == Rank::Eighth.relative_to(piece.color) {
        &ALL
    } else {
        &NONE
    }
}

impl Skirmish {
    /// A game from `setup` under `options`, at the start of the turn of
    /// `setup.turn` (a check or checkmate roll comes first if that side's
    /// King is attacked).
    pub fn from_setup(setup: Setup, options: SkirmishOptions) -> Skirmish {
        let mut game = Skirmish {
            options,
            board: setup.board,
            turn: setup.turn,
            castling: setup.castling,
            ep: setup.ep_square,
            halfmove: setup.halfmove_clock,
            fullmove: setup.fullmove_number,
            phase: Phase::Act,
            ts: TurnState::default(),
            history: Vec::new(),
        };
        game.begin_turn();
        game
    }

    /// The placement.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is (the attacker in every skirmish of the turn).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The phase: who decides what next.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// What has happened so far this turn.
    pub fn turn_state(&self) -> &TurnState {
        &self.ts
    }

    /// The castling rights.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square usable this turn, as recorded.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Turns since the last turn in which a pawn moved or a piece left the
    /// board.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, from 1, incremented after Black's turn.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The outcome, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// The FEN fields of the current board (side to move = whose turn).
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep,
            halfmove_clock: self.halfmove,
            fullmove_number: self.fullmove,
        }
    }

    /// The chess position of the current board (unchecked).
    pub fn position(&self) -> Position {
        Position::from_setup_unchecked(self.setup())
    }

    /// The repetition key of the current board (placement, side, castling,
    /// usable en passant).
    pub fn repetition_key(&self) -> u64 {
        self.position().hash()
    }

    /// How many times the position at the start of this turn has occurred
    /// at a turn start since the last progress.
    pub fn repetitions(&self) -> usize {
        match self.history.last() {
            Some(&h) => self.history.iter().filter(|&&x| x == h).count(),
            None => 0,
        }
    }

    /// The enemy pieces attacking the King of the side whose turn it is.
    pub fn checkers(&self) -> Bitboard {
        match self.board.king_of(self.turn) {
            Some(k) => self
                .board
                .attackers_to(k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the King of the side whose turn it is stands attacked.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The value of the piece on `sq` (0 on an empty square).
    pub fn value_at(&self, sq: Square) -> i64 {
        self.board
            .role_at(sq)
            .map_or(0, |r| piece_value(r, self.options.king_value.get()))
    }

    // ----- legality -------------------------------------------------------

    /// Whether the mover's King is safe on `board`: attacked by no enemy
    /// piece except the checkers it was excused from this turn.
    fn king_safe_on(&self, board: &Board) -> bool {
        match board.king_of(self.turn) {
            None => true,
            Some(k) => {
                (board.attackers_to(k, !self.turn, board.occupied()) & !self.ts.excused).is_empty()
            }
        }
    }

    /// What the quick safety test needs, computed once per generation.
    fn safety(&self) -> Safety {
        match self.board.king_of(self.turn) {
            None => Safety {
                king: None,
                attacked: false,
                rays: Bitboard::EMPTY,
            },
            Some(k) => Safety {
                king: Some(k),
                attacked: !self.king_safe_on(&self.board),
                rays: queen_attacks(k, Bitboard::EMPTY),
            },
        }
    }

    /// Whether the mover's King is safe after the piece on `from` moves to
    /// `to` (as `m`), the pieces on `removed` having left the board. Skips
    /// the full test when nothing can change: the King is safe now, does not
    /// move, and neither the mover's square nor a removed square lies on a
    /// line through the King (only a slider's line can open).
    fn safe_after(&self, s: &Safety, m: Move, removed: Bitboard) -> bool {
        let Some(king) = s.king else {
            return true;
        };
        let quick = !s.attacked
            && m.from() != king
            && !m.is_en_passant()
            && !m.is_castle()
            && !s.rays.contains(m.from())
            && (removed & s.rays).is_empty();
        if quick {
            return true;
        }
        let mut b = self.board;
        for sq in removed {
            b.remove_piece_at(sq);
        }
        self.king_safe_on(&board_after(&b, m))
    }

    /// Pseudo-legal chess moves of the mover, never onto an enemy King.
    pub(crate) fn pseudo_moves(&self) -> Vec<Move> {
        let kings = self.board.pieces(!self.turn, Role::King);
        let mut v = Vec::with_capacity(64);
        self.position().for_each_pseudo_legal_move(|m| {
            if m.is_castle() || !kings.contains(m.to()) {
                v.push(m);
            }
        });
        v
    }

    pub(crate) fn is_capture(&self, m: Move) -> bool {
        match m {
            Move::EnPassant { .. } => true,
            Move::Normal { to, .. } => self.board.by_color(!self.turn).contains(to),
            Move::Castle { .. } => false,
        }
    }

    /// Castling as in chess: not out of, through or into an attacked square.
    fn castle_ok(&self, m: Move) -> bool {
        let Move::Castle { king, rook } = m else {
            return true;
        };
        let them = !self.turn;
        let occ = self.board.occupied();
        let side = CastlingSide::from_squares(king, rook);
        let king_to = Square::from_coords(side.king_to_file(), king.rank());
        between(king, king_to)
            .with(king_to)
            .with(king)
            .into_iter()
            .all(|sq| self.board.attackers_to(sq, them, occ).is_empty())
    }

    /// The move a canonical UCI move means here (castling as the King's
    /// two-square step).
    pub(crate) fn interpret(&self, uci: UciMove) -> Move {
        interpret_in(&self.pseudo_moves(), uci)
    }

    fn king_normal(&self) -> bool {
        self.options.king_captures == KingCaptures::Normal
    }

    /// Every legal action of the player to act (empty at chance nodes and
    /// when the game is over).
    pub(crate) fn gen_actions(&self, out: &mut Vec<SkirmishAction>) {
        out.clear();
        match self.phase {
            Phase::Act => match self.options.mode {
                Mode::Basic => self.gen_basic(out),
                Mode::Advanced => self.gen_advanced(out),
            },
            Phase::Choice { square, defenders } => self.gen_choice(square, defenders, out),
            Phase::Place { from, squares } => self.gen_place(from, squares, out),
            Phase::Tactical(t) => self.gen_tactical_next(t, out),
            Phase::Roll(_) | Phase::Over(_) => {}
        }
    }

    fn gen_basic(&self, out: &mut Vec<SkirmishAction>) {
        let safety = self.safety();
        for m in self.pseudo_moves() {
            if m.is_castle() && !self.castle_ok(m) {
                continue;
            }
            if self.safe_after(&safety, m, Bitboard::EMPTY) {
                out.push(SkirmishAction::Move(UciMove::from(m)));
            }
        }
    }

    fn gen_advanced(&self, out: &mut Vec<SkirmishAction>) {
        let us = self.turn;
        let b = &self.board;
        let ts = &self.ts;
        let enemies = b.by_color(!us) & !b.kings();
        let moves = self.pseudo_moves();
        let safety = self.safety();
        // Chess moves: skirmishes by pieces in position, and the Strategic
        // movement.
        for &m in &moves {
            let from = m.from();
            let is_king = b.pieces(us, Role::King).contains(from);
            if self.is_capture(m) {
                if ts.moved.contains(from)
                    || (is_king && self.king_normal() && ts.attacks.get(from) > 0)
                {
                    continue;
                }
            } else {
                if ts.movement || ts.attacks.get(from) > 0 {
                    continue;
                }
                if m.is_castle() && !self.castle_ok(m) {
                    continue;
                }
            }
            if self.safe_after(&safety, m, Bitboard::EMPTY) {
                out.push(SkirmishAction::Move(UciMove::from(m)));
            }
        }
        // Tactical movements: each quiet move, and remaining in the same
        // spot, with each first target.
        if !ts.movement {
            for from in b.by_color(us) {
                let Some(piece) = b.piece_at(from) else {
                    continue;
                };
                if ts.attacks.get(from) > 0 || (piece.role == Role::King && self.king_normal()) {
                    continue;
                }
                let mut dests: Vec<(Square, Option<Role>)> = vec![(from, None)];
                for &m in &moves {
                    if let Move::Normal {
                        from: f,
                        to,
                        promotion,
                    } = m
                        && f == from
                        && !b.occupied().contains(to)
                    {
                        dests.push((to, promotion));
                    }
                }
                for (to, promotion) in dests {
                    let p = path(from, to);
                    let targets = p.adjacent_from(0) & enemies;
                    for target in targets {
                        let m = Move::Normal {
                            from,
                            to,
                            promotion,
                        };
                        if self.safe_after(&safety, m, target.bitboard()) {
                            out.push(SkirmishAction::Tactical {
                                from,
                                to,
                                promotion,
                                target,
                            });
                        }
                    }
                }
            }
        }
        // Divided skirmishes: two or more targets reachable from the square.
        for from in b.by_color(us) {
            let Some(piece) = b.piece_at(from) else {
                continue;
            };
            if ts.moved.contains(from) || (piece.role == Role::King && self.king_normal()) {
                continue;
            }
            let reach: Bitboard = moves
                .iter()
                .filter(|m| matches!(m, Move::Normal { from: f, .. } if *f == from))
                .map(|m| m.to())
                .filter(|&to| enemies.contains(to))
                .collect();
            if reach.count() < 2 {
                continue;
            }
            let mask = reach.0;
            let mut sub = mask;
            let mut found = Vec::new();
            while sub != 0 {
                let targets = Bitboard(sub);
                if targets.more_than_one() && self.divided_safe(&safety, from, targets) {
                    found.push(targets);
                }
                sub = (sub - 1) & mask;
            }
            found.sort();
            for targets in found {
                out.push(SkirmishAction::Divided { from, targets });
            }
        }
        if ts.acted {
            out.push(SkirmishAction::End);
        }
    }

    /// Whether a Tactical movement that beats `target` and arrives leaves
    /// the mover's King safe.
    fn tactical_safe(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        target: Square,
    ) -> bool {
        let mut b = self.board;
        b.remove_piece_at(target);
        let b = board_after(
            &b,
            Move::Normal {
                from,
                to,
                promotion,
            },
        );
        self.king_safe_on(&b)
    }

    /// Whether a divided skirmish that wins everything has a safe placement.
    fn divided_safe(&self, safety: &Safety, from: Square, targets: Bitboard) -> bool {
        targets.into_iter().any(|to| {
            self.safe_after(
                safety,
                Move::Normal {
                    from,
                    to,
                    promotion: None,
                },
                targets,
            )
        })
    }

    fn gen_tactical_next(&self, t: TacticalMove, out: &mut Vec<SkirmishAction>) {
        let enemies = self.board.by_color(!self.turn) & !self.board.kings();
        let targets = t.path().adjacent_from(t.at as usize) & enemies;
        for target in targets {
            if self.tactical_safe(t.from, t.to, t.promotion, target) {
                out.push(SkirmishAction::Hit(target));
            }
        }
        out.push(SkirmishAction::Arrive);
    }

    fn gen_place(&self, from: Square, squares: Bitboard, out: &mut Vec<SkirmishAction>) {
        let Some(piece) = self.board.piece_at(from) else {
            return;
        };
        for to in squares {
            if self.board.occupied().contains(to) {
                continue;
            }
            for &promotion in promotions_for(piece, to) {
                let b = board_after(
                    &self.board,
                    Move::Normal {
                        from,
                        to,
                        promotion,
                    },
                );
                if self.king_safe_on(&b) {
                    out.push(SkirmishAction::Place { to, promotion });
                }
            }
        }
    }

    fn gen_choice(&self, square: Square, defenders: Bitboard, out: &mut Vec<SkirmishAction>) {
        out.push(SkirmishAction::Stay);
        let them = !self.turn;
        if self.board.occupied().contains(square) {
            return;
        }
        for from in defenders {
            let Some(piece) = self.board.piece_at(from) else {
                continue;
            };
            if piece.color != them {
                continue;
            }
            if self.options.relocation == Relocation::Reachable {
                let reach = match piece.role {
                    Role::Pawn => pawn_attacks(piece.color, from),
                    _ => attacks(piece, from, self.board.occupied()),
                };
                if !reach.contains(square) {
                    continue;
                }
            }
            for &promotion in promotions_for(piece, square) {
                let b = board_after(
                    &self.board,
                    Move::Normal {
                        from,
                        to: square,
                        promotion,
                    },
                );
                // The defender may not leave its own King attacked.
                let safe = match b.king_of(them) {
                    Some(k) => b.attackers_to(k, self.turn, b.occupied()).is_empty(),
                    None => true,
                };
                if safe {
                    out.push(SkirmishAction::Take {
                        from,
                        to: square,
                        promotion,
                    });
                }
            }
        }
    }

    fn has_any_action(&self) -> bool {
        let mut v = Vec::new();
        self.gen_actions(&mut v);
        !v.is_empty()
    }

    // ----- odds -----------------------------------------------------------

    /// The numbers of the skirmish (or check/checkmate roll) now pending.
    pub fn pending_odds(&self) -> Option<Odds> {
        match self.phase {
            Phase::Roll(p) => Some(self.odds_of_pending(p)),
            _ => None,
        }
    }

    fn attack_number(&self, from: Square) -> u32 {
        u32::from(self.ts.attacks.get(from)) + 1
    }

    pub(crate) fn odds_of_pending(&self, p: Pending) -> Odds {
        let o = &self.options;
        match p {
            Pending::Capture(m) => {
                let from = m.from();
                let v = self.value_at(from);
                let mut odds = Odds::new(o, v, self.value_at(target_square(m)));
                odds.bonus = sequential_bonus(o, self.attack_number(from), v);
                odds
            }
            Pending::Tactical { tactical, target } => {
                let v = self.value_at(tactical.from);
                Odds::new(o, v.div_euclid(2), self.value_at(target))
            }
            Pending::Divided {
                from,
                targets,
                won,
                lost,
            } => {
                let v = self.value_at(from);
                let n = i64::from(targets.count().max(1));
                let next = (targets & !won & !lost).first();
                let mut odds =
                    Odds::new(o, v.div_euclid(n), next.map_or(0, |sq| self.value_at(sq)));
                odds.bonus = sequential_bonus(o, self.attack_number(from), v);
                odds
            }
            Pending::Check(c) | Pending::Mate(c) => {
                let values = c.into_iter().map(|sq| self.value_at(sq));
                let v = match o.checkers {
                    Checkers::Sum => values.sum(),
                    Checkers::Strongest => values.max().unwrap_or(0),
                };
                Odds::new(o, v, i64::from(o.king_value.get()))
            }
        }
    }

    /// The skirmishes an action would start, with their numbers: one for a
    /// capture attempt or a Tactical target, one per target for a divided
    /// skirmish, none for anything else (a King's normal capture included:
    /// it needs no roll).
    pub fn odds(&self, action: &SkirmishAction) -> Vec<Odds> {
        let o = &self.options;
        match (*action, self.phase) {
            (SkirmishAction::Move(uci), Phase::Act) => {
                let m = self.interpret(uci);
                if !self.is_capture(m)
                    || (self.board.pieces(self.turn, Role::King).contains(m.from())
                        && self.king_normal())
                {
                    return Vec::new();
                }
                vec![self.odds_of_pending(Pending::Capture(m))]
            }
            (
                SkirmishAction::Tactical {
                    from,
                    to,
                    promotion,
                    target,
                },
                Phase::Act,
            ) => vec![self.odds_of_pending(Pending::Tactical {
                tactical: TacticalMove {
                    from,
                    to,
                    promotion,
                    at: 0,
                },
                target,
            })],
            (SkirmishAction::Hit(target), Phase::Tactical(t)) => {
                vec![self.odds_of_pending(Pending::Tactical {
                    tactical: t,
                    target,
                })]
            }
            (SkirmishAction::Divided { from, targets }, Phase::Act) => {
                let v = self.value_at(from);
                let n = i64::from(targets.count().max(1));
                targets
                    .into_iter()
                    .map(|t| {
                        let mut odds = Odds::new(o, v.div_euclid(n), self.value_at(t));
                        odds.bonus = sequential_bonus(o, self.attack_number(from), v);
                        odds
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    // ----- playing --------------------------------------------------------

    /// Plays `action`, assumed legal here.
    pub(crate) fn play(&mut self, action: &SkirmishAction) {
        match (self.phase, *action) {
            (Phase::Act, SkirmishAction::Move(uci)) => self.play_move(uci),
            (
                Phase::Act,
                SkirmishAction::Tactical {
                    from,
                    to,
                    promotion,
                    target,
                },
            ) => {
                self.ts.acted = true;
                self.ts.movement = true;
                self.ts.moved = from.bitboard();
                let t = TacticalMove {
                    from,
                    to,
                    promotion,
                    at: 0,
                };
                self.aim(t, target);
            }
            (Phase::Act, SkirmishAction::Divided { from, targets }) => {
                self.ts.acted = true;
                self.phase = Phase::Roll(Pending::Divided {
                    from,
                    targets,
                    won: Bitboard::EMPTY,
                    lost: Bitboard::EMPTY,
                });
            }
            (Phase::Act, SkirmishAction::End) => self.end_turn(),
            (Phase::Roll(p), SkirmishAction::Roll { attacker, defender }) => {
                let odds = self.odds_of_pending(p);
                match odds.verdict(attacker, defender) {
                    crate::Verdict::Attacker => self.attacker_won(p),
                    crate::Verdict::Defender => self.defender_won(p),
                    crate::Verdict::Reroll => {}
                }
            }
            (Phase::Roll(p), SkirmishAction::Given) => match self.odds_of_pending(p).given() {
                Some(true) => self.attacker_won(p),
                Some(false) => self.defender_won(p),
                None => {}
            },
            (Phase::Choice { .. }, SkirmishAction::Stay) => self.continue_turn(),
            (
                Phase::Choice { .. },
                SkirmishAction::Take {
                    from,
                    to,
                    promotion,
                },
            ) => {
                self.relocate(from, to, promotion);
                self.continue_turn();
            }
            (Phase::Place { from, .. }, SkirmishAction::Place { to, promotion }) => {
                self.place(from, to, promotion);
            }
            (Phase::Tactical(t), SkirmishAction::Hit(target)) => self.aim(t, target),
            (Phase::Tactical(t), SkirmishAction::Arrive) => self.arrive(t),
            _ => {}
        }
    }

    fn mark_progress(&mut self) {
        self.ts.progress = true;
        self.history.clear();
    }

    fn play_move(&mut self, uci: UciMove) {
        let m = self.interpret(uci);
        self.ts.acted = true;
        if self.is_capture(m) {
            let is_king = self.board.pieces(self.turn, Role::King).contains(m.from());
            if is_king && self.king_normal() {
                // "The King captures pieces in the normal chess manner."
                self.capture_wins(m);
                self.continue_turn();
            } else {
                self.phase = Phase::Roll(Pending::Capture(m));
            }
        } else {
            self.quiet(m);
            self.continue_turn();
        }
    }

    /// A move with no skirmish: the Basic game's quiet move, the Strategic
    /// movement, or a Tactical movement's arrival.
    fn quiet(&mut self, m: Move) {
        let us = self.turn;
        let from = m.from();
        let is_pawn = self.board.pieces(us, Role::Pawn).contains(from);
        self.board = board_after(&self.board, m);
        self.ts.movement = true;
        match m {
            Move::Castle { king, rook } => {
                self.castling = self.castling.without_color(us);
                let side = CastlingSide::from_squares(king, rook);
                self.ts.moved = Square::from_coords(side.king_to_file(), king.rank()).bitboard()
                    | Square::from_coords(side.rook_to_file(), king.rank()).bitboard();
            }
            _ => {
                let to = m.to();
                self.castling = self.castling.after_touching(from).after_touching(to);
                self.ts.moved = to.bitboard();
                if is_pawn {
                    if from.index().abs_diff(to.index()) == 16 {
                        self.ts.new_ep = Square::new((from.index() as u32 + to.index() as u32) / 2);
                    }
                    self.mark_progress();
                }
            }
        }
    }

    fn capture_wins(&mut self, m: Move) {
        let from = m.from();
        let k = self.ts.attacks.get(from).saturating_add(1);
        let target = target_square(m);
        self.board = board_after(&self.board, m);
        self.castling = self.castling.after_touching(from).after_touching(target);
        self.ts.attacks.set(from, 0);
        self.ts.attacks.set(m.to(), k);
        self.ts.excused = self.ts.excused.without(target);
        self.mark_progress();
    }

    /// Removes a beaten attacker; true if it was a King (the game is over).
    fn lose_attacker(&mut self, sq: Square) -> bool {
        let piece = self.board.remove_piece_at(sq);
        self.castling = self.castling.after_touching(sq);
        self.ts.attacks.set(sq, 0);
        self.ts.moved = self.ts.moved.without(sq);
        self.mark_progress();
        if piece.is_some_and(|p| p.role == Role::King) {
            self.phase = Phase::Over(Outcome::win(team(!self.turn), EndReason::KingCaptured));
            return true;
        }
        false
    }

    fn remove_target(&mut self, sq: Square) {
        self.board.remove_piece_at(sq);
        self.castling = self.castling.after_touching(sq);
        self.ts.excused = self.ts.excused.without(sq);
        self.mark_progress();
    }

    fn attacker_won(&mut self, p: Pending) {
        match p {
            Pending::Capture(m) => {
                self.capture_wins(m);
                self.continue_turn();
            }
            Pending::Tactical { tactical, target } => {
                self.remove_target(target);
                self.phase = Phase::Tactical(tactical);
                self.normalize();
            }
            Pending::Divided {
                from,
                targets,
                won,
                lost,
            } => {
                if let Some(next) = (targets & !won & !lost).first() {
                    self.remove_target(next);
                    self.divided_next(from, targets, won.with(next), lost);
                }
            }
            Pending::Check(_) => {
                self.ts.excused = Bitboard::EMPTY;
                self.finish_turn_start();
            }
            Pending::Mate(_) => {
                self.phase = Phase::Over(Outcome::win(team(!self.turn), EndReason::Checkmate));
            }
        }
    }

    fn defender_won(&mut self, p: Pending) {
        match p {
            Pending::Capture(m) => {
                if !self.lose_attacker(m.from()) {
                    self.offer_choice(m.from(), target_square(m).bitboard());
                }
            }
            Pending::Tactical { tactical, target } => {
                let square = tactical.square();
                if !self.lose_attacker(tactical.from) {
                    self.offer_choice(square, target.bitboard());
                }
            }
            Pending::Divided {
                from,
                targets,
                won,
                lost,
            } => {
                if let Some(next) = (targets & !won & !lost).first() {
                    self.divided_next(from, targets, won, lost.with(next));
                }
            }
            Pending::Check(checkers) => {
                self.ts.excused = checkers;
                self.finish_turn_start();
            }
            Pending::Mate(checkers) => {
                // "... or the loss of the checking piece(s)."
                for sq in checkers {
                    self.board.remove_piece_at(sq);
                    self.castling = self.castling.after_touching(sq);
                }
                self.halfmove = 0;
                self.history.clear();
                self.history.push(self.repetition_key());
                self.evaluate_turn_start();
            }
        }
    }

    fn divided_next(&mut self, from: Square, targets: Bitboard, won: Bitboard, lost: Bitboard) {
        if (targets & !won & !lost).any() {
            self.phase = Phase::Roll(Pending::Divided {
                from,
                targets,
                won,
                lost,
            });
        } else if lost.any() {
            if !self.lose_attacker(from) {
                self.offer_choice(from, lost);
            }
        } else {
            self.phase = Phase::Place { from, squares: won };
            self.normalize();
        }
    }

    fn aim(&mut self, t: TacticalMove, target: Square) {
        let p = t.path();
        let near = king_attacks(target);
        let at = (t.at as usize..p.len())
            .find(|&i| p.get(i).is_some_and(|sq| near.contains(sq)))
            .unwrap_or(t.at as usize);
        let tactical = TacticalMove { at: at as u8, ..t };
        self.phase = Phase::Roll(Pending::Tactical { tactical, target });
    }

    fn arrive(&mut self, t: TacticalMove) {
        if t.from != t.to {
            self.quiet(Move::Normal {
                from: t.from,
                to: t.to,
                promotion: t.promotion,
            });
        } else {
            self.ts.moved = t.from.bitboard();
        }
        self.continue_turn();
    }

    fn place(&mut self, from: Square, to: Square, promotion: Option<Role>) {
        let k = self.ts.attacks.get(from).saturating_add(1);
        self.board = board_after(
            &self.board,
            Move::Normal {
                from,
                to,
                promotion,
            },
        );
        self.castling = self.castling.after_touching(from);
        self.ts.attacks.set(from, 0);
        self.ts.attacks.set(to, k);
        self.continue_turn();
    }

    fn relocate(&mut self, from: Square, to: Square, promotion: Option<Role>) {
        self.board = board_after(
            &self.board,
            Move::Normal {
                from,
                to,
                promotion,
            },
        );
        self.castling = self.castling.after_touching(from).after_touching(to);
        if self.ts.excused.contains(from) {
            self.ts.excused = self.ts.excused.without(from).with(to);
        }
    }

    fn offer_choice(&mut self, square: Square, defenders: Bitboard) {
        self.phase = Phase::Choice { square, defenders };
        let mut v = Vec::new();
        self.gen_actions(&mut v);
        if v.len() <= 1 {
            // Taking is not possible: the defender stays, no question asked.
            self.continue_turn();
        }
    }

    /// After a decision or a resolved skirmish: the Basic turn ends; the
    /// Advanced turn goes on.
    fn continue_turn(&mut self) {
        match self.options.mode {
            Mode::Basic => self.end_turn(),
            Mode::Advanced => {
                self.phase = Phase::Act;
                self.normalize();
            }
        }
    }

    /// Takes decisions that have a single option: an Advanced turn with
    /// nothing left but `end` ends; a Tactical movement with no target left
    /// arrives; a divided-skirmish winner with one possible square is placed
    /// there.
    fn normalize(&mut self) {
        let mut v = Vec::new();
        self.gen_actions(&mut v);
        match (self.phase, v.as_slice()) {
            (Phase::Act, [SkirmishAction::End]) => self.end_turn(),
            (Phase::Tactical(t), [SkirmishAction::Arrive]) => self.arrive(t),
            (Phase::Place { from, .. }, [SkirmishAction::Place { to, promotion }]) => {
                self.place(from, *to, *promotion)
            }
            (Phase::Place { from, .. }, []) => {
                // Cannot happen (a divided skirmish is only legal with a safe
                // square); the piece then stays where it is.
                let _ = from;
                self.continue_turn();
            }
            _ => {}
        }
    }

    fn end_turn(&mut self) {
        self.halfmove = if self.ts.progress {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.ep = self.ts.new_ep;
        self.turn = !self.turn;
        self.ts = TurnState::default();
        self.begin_turn();
    }

    pub(crate) fn begin_turn(&mut self) {
        self.history.push(self.repetition_key());
        self.evaluate_turn_start();
    }

    /// Whether neither side can ever win: the chess dead positions, when the
    /// King captures in the normal manner; bare Kings otherwise (a King that
    /// skirmishes can be lost).
    pub fn is_dead_position(&self) -> bool {
        if self.king_normal() {
            self.position().is_insufficient_material()
        } else {
            self.board.occupied() == self.board.kings()
        }
    }

    fn evaluate_turn_start(&mut self) {
        self.ts.excused = Bitboard::EMPTY;
        if self.is_dead_position() {
            self.phase = Phase::Over(Outcome::draw(EndReason::InsufficientMaterial));
            return;
        }
        if self.repetitions() >= 3 {
            self.phase = Phase::Over(Outcome::draw(EndReason::Repetition));
            return;
        }
        let checkers = self.checkers();
        if checkers.any() {
            self.phase = Phase::Act;
            let can_respond = self.has_any_action();
            // Fifty moves draw at once (decision 16): no check roll first,
            // whose result could change nothing. A checkmate roll still
            // comes first, as chess's mate beats the fifty-move rule.
            if can_respond && self.halfmove >= 100 {
                self.phase = Phase::Over(Outcome::draw(EndReason::NoProgress));
                return;
            }
            self.phase = Phase::Roll(if can_respond {
                Pending::Check(checkers)
            } else {
                Pending::Mate(checkers)
            });
            return;
        }
        self.finish_turn_start();
    }

    fn finish_turn_start(&mut self) {
        self.phase = Phase::Act;
        if !self.has_any_action() {
            self.phase = Phase::Over(if self.is_check() && self.ts.excused.is_empty() {
                Outcome::win(team(!self.turn), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
            return;
        }
        if self.halfmove >= 100 {
            self.phase = Phase::Over(Outcome::draw(EndReason::NoProgress));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Game, GameRng, Seed, ToAct};

    /// The quick legality test agrees with making every move and looking,
    /// in every position of some random games (tactical removals included).
    #[test]
    fn quick_safety_test_agrees_with_make_and_test() {
        for (seed, options) in [
            (1, SkirmishOptions::default()),
            (2, SkirmishOptions::advanced()),
        ] {
            let mut rng = GameRng::from_seed(Seed(seed));
            for _ in 0..40 {
                let mut g = Skirmish::new(&options);
                for _ in 0..300 {
                    if g.phase == Phase::Act {
                        let safety = g.safety();
                        let enemies = g.board.by_color(!g.turn) & !g.board.kings();
                        for m in g.pseudo_moves() {
                            for removed in [Bitboard::EMPTY, (king_attacks(m.from()) & enemies)] {
                                let mut b = g.board;
                                for sq in removed {
                                    b.remove_piece_at(sq);
                                }
                                let full = g.king_safe_on(&board_after(&b, m));
                                assert_eq!(g.safe_after(&safety, m, removed), full, "{m:?}");
                            }
                        }
                    }
                    let a = match g.to_act() {
                        ToAct::Over { .. } => break,
                        ToAct::Chance => g.sample_chance(&mut rng).unwrap(),
                        ToAct::Player { .. } => {
                            let mut v = Vec::new();
                            g.legal_actions(&mut v);
                            *rng.choose(&v).unwrap()
                        }
                    };
                    g.apply(&a).unwrap();
                }
            }
        }
    }
}
