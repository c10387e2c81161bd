//! [`Warrior`]: the state of a game and every rule of the book.

use thiserror::Error;

use crate::action::{Action, Purchase};
use crate::options::{FiftyMoves, NoMovement, WarriorOptions};
use crate::types::{
    Army, Bank, Ending, Facing, Issue, Money, NewStock, Phase, Piece, PieceKind, Reserve, Square,
    Weapon, Weapons,
};

pub(crate) const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
pub(crate) const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
pub(crate) const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
pub(crate) const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A game of Warrior Chess: the board, each player's money and Reserve, the
/// Bank, whose turn it is and in which phase, the Warriors dropped this turn
/// and the fifty-moves counter.
///
/// Seat `i` plays [`Army`] `i`; money has already been collected for the
/// player to act when a turn's first decision is asked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Warrior {
    pub(crate) options: WarriorOptions,
    pub(crate) board: [Option<Piece>; 64],
    pub(crate) to_move: Army,
    pub(crate) phase: Phase,
    pub(crate) money: [Money; 4],
    pub(crate) reserve: [Reserve; 4],
    pub(crate) bank: Bank,
    pub(crate) dropped: u64,
    pub(crate) no_progress: u16,
}

/// Why a well-formed action cannot be played now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Illegal {
    /// The action belongs to another phase of the turn.
    #[error("this is not possible in the {phase} phase")]
    WrongPhase {
        /// The current phase.
        phase: Phase,
    },
    /// The movement is compulsory: it cannot be ended or passed while one is possible.
    #[error("a movement (drop, move or capture) is possible and compulsory")]
    MovementCompulsory,
    /// No Warrior of the player's colour is left in the Bank.
    #[error("no {0} Warrior is left in the Bank")]
    NoWarriorInBank(Army),
    /// The Reserve holds no Warrior.
    #[error("the Reserve holds no Warrior")]
    NoWarriorInReserve,
    /// Not enough money.
    #[error("it costs ${need} and the player holds ${have}")]
    NotEnoughMoney {
        /// The price.
        need: u8,
        /// The player's money.
        have: u8,
    },
    /// The square is not empty.
    #[error("{0} is not empty")]
    Occupied(Square),
    /// The square holds no piece of the player's.
    #[error("{0} holds no piece of the player's")]
    NoOwnPiece(Square),
    /// The piece cannot move (or capture) there.
    #[error("the piece on {from} cannot go to {to}")]
    Unreachable {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A capture needs an opponent's piece on the square.
    #[error("{0} holds no opponent's piece")]
    NothingToCapture(Square),
    /// A move must go to an empty square.
    #[error("{0} holds an opponent's piece: that is a capture, written with 'x'")]
    NotAMove(Square),
    /// The piece carries one Swords: the move must say which way it faces.
    #[error("the piece carries Swords: say which way they face (N, E, S or W)")]
    FacingNeeded,
    /// A facing was given where there is none to choose.
    #[error("there is no Swords facing to choose here")]
    FacingNotWanted,
    /// Weapons go on one's own Warriors only.
    #[error("{0} holds no Warrior of the player's")]
    NoOwnWarrior(Square),
    /// The Warrior was dropped this turn.
    #[error("the Warrior on {0} was dropped this turn and can be armed from next turn")]
    DroppedThisTurn(Square),
    /// Two weapons already.
    #[error("the Warrior on {0} already carries two weapons")]
    FullyArmed(Square),
    /// The book's combinations have no doubled Rook, Knight or Bishop.
    #[error("the Warrior on {0} already carries a {1} (only Swords may be doubled)")]
    SameWeapon(Square, Weapon),
    /// The Reserve lacks the weapon.
    #[error("the Reserve holds no {0}")]
    NotInReserve(Weapon),
    /// The Bank lacks the weapon of the player's colour in that issue.
    #[error("the Bank has no {} {weapon} of the player's colour", issue.word())]
    OutOfStock {
        /// The weapon.
        weapon: Weapon,
        /// New or reissued.
        issue: Issue,
    },
    /// The fifty-moves draw cannot be claimed now.
    #[error("the fifty-moves draw cannot be claimed now")]
    NoDrawToClaim,
    /// Not legal here, for a reason not listed above.
    #[error("not legal here")]
    NotLegal,
}

impl Warrior {
    /// The starting position: only the Kings on the board; the first player
    /// (Red) has collected $1 for the King and is to move; everyone else holds
    /// the book's starting money.
    pub fn start(options: &WarriorOptions) -> Warrior {
        let mut game = Warrior::empty(options);
        for army in game.armies() {
            game.board[army.king_square(options.players.count()).index()] = Some(Piece::king(army));
            game.bank.new[army.index()] = NewStock::FULL;
            // The first player and partner start with nothing; the opponents $1.
            game.money[army.index()] = Money(army.team());
        }
        game.collect();
        game
    }

    /// An empty board with no equipment anywhere (for position text).
    pub(crate) fn empty(options: &WarriorOptions) -> Warrior {
        Warrior {
            options: *options,
            board: [None; 64],
            to_move: Army::Red,
            phase: Phase::Movement,
            money: [Money(0); 4],
            reserve: [Reserve::default(); 4],
            bank: Bank {
                new: [NewStock {
                    warriors: 0,
                    weapons: Weapons::NONE,
                }; 4],
                reissue: [Weapons::NONE; 4],
            },
            dropped: 0,
            no_progress: 0,
        }
    }

    /// The options of this game.
    pub fn warrior_options(&self) -> &WarriorOptions {
        &self.options
    }

    /// The number of players (2 or 4).
    pub fn player_count(&self) -> u8 {
        self.options.players.count()
    }

    /// The armies in play, in seat (turn) order.
    pub fn armies(&self) -> impl Iterator<Item = Army> + use<> {
        let n = self.player_count() as usize;
        Army::ALL.into_iter().take(n)
    }

    /// The piece on `square`, if any.
    pub fn piece(&self, square: Square) -> Option<&Piece> {
        self.board[square.index()].as_ref()
    }

    /// Every piece on the board with its square, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, &Piece)> {
        Square::all().filter_map(|sq| self.piece(sq).map(|p| (sq, p)))
    }

    /// The army whose turn it is (the last to act once the game is over).
    pub fn to_move(&self) -> Army {
        self.to_move
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// An army's money.
    pub fn money(&self, army: Army) -> Money {
        self.money[army.index()]
    }

    /// An army's Reserve.
    pub fn reserve(&self, army: Army) -> Reserve {
        self.reserve[army.index()]
    }

    /// The Bank.
    pub fn bank(&self) -> &Bank {
        &self.bank
    }

    /// The Warriors dropped this turn (they cannot be armed until a later turn).
    pub fn dropped_this_turn(&self) -> Vec<Square> {
        Square::all()
            .filter(|sq| self.dropped & sq.bit() != 0)
            .collect()
    }

    /// Turns in a row (all players counted) without a drop or a capture.
    pub fn no_progress(&self) -> u16 {
        self.no_progress
    }

    /// What `army` collects at the start of its turn, before the cap: $1 per
    /// square its pieces occupy and $1 per captured Warrior stacked under them.
    pub fn income(&self, army: Army) -> u8 {
        let total: u32 = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.army == army)
            .map(|p| 1 + u32::from(p.stack.total()))
            .sum();
        u8::try_from(total).unwrap_or(u8::MAX)
    }

    /// All of an army's Warriors and weapons, wherever they are: Bank (new
    /// and reissue stock), Reserve, board, and (Warriors) stacked under any
    /// piece. The book fixes these at 8 Warriors and 3 Rooks, 2 Knights,
    /// 3 Bishops and 4 Swords.
    pub fn equipment(&self, army: Army) -> (u8, Weapons) {
        let i = army.index();
        // Saturating: a hand-written position text may hold anything.
        let mut warriors = self.bank.new[i]
            .warriors
            .saturating_add(self.reserve[i].warriors);
        let mut weapons = Weapons::NONE;
        for w in Weapon::ALL {
            weapons[w] = self.bank.new[i].weapons[w]
                .saturating_add(self.bank.reissue[i][w])
                .saturating_add(self.reserve[i].weapons[w]);
        }
        for p in self.board.iter().flatten() {
            warriors = warriors.saturating_add(p.stack.count(army));
            if p.army == army && p.kind == PieceKind::Warrior {
                warriors = warriors.saturating_add(1);
                for w in Weapon::ALL {
                    weapons[w] = weapons[w].saturating_add(p.weapons[w]);
                }
            }
        }
        (warriors, weapons)
    }

    pub(crate) fn is_opponent(&self, sq: Square, army: Army) -> bool {
        matches!(self.piece(sq), Some(p) if p.army.team() != army.team())
    }

    fn is_empty(&self, sq: Square) -> bool {
        self.board[sq.index()].is_none()
    }

    /// The squares the piece on `from` can move to (empty) and capture on
    /// (an opponent's piece), as 64-bit sets.
    pub fn reach(&self, from: Square) -> (u64, u64) {
        let Some(piece) = self.piece(from) else {
            return (0, 0);
        };
        let army = piece.army;
        let mut quiet = 0u64;
        let mut capture = 0u64;
        let step = |quiet: &mut u64, capture: &mut u64, d: (i8, i8), can_capture: bool| {
            if let Some(to) = from.offset(d.0, d.1) {
                if self.is_empty(to) {
                    *quiet |= to.bit();
                } else if can_capture && self.is_opponent(to, army) {
                    *capture |= to.bit();
                }
            }
        };
        let slide = |quiet: &mut u64, capture: &mut u64, d: (i8, i8)| {
            let mut at = from;
            while let Some(to) = at.offset(d.0, d.1) {
                if self.is_empty(to) {
                    *quiet |= to.bit();
                    at = to;
                } else {
                    if self.is_opponent(to, army) {
                        *capture |= to.bit();
                    }
                    break;
                }
            }
        };
        match piece.kind {
            PieceKind::King => {
                for d in KING_STEPS {
                    step(&mut quiet, &mut capture, d, true);
                }
            }
            PieceKind::Warrior if !piece.is_armed() => {
                for d in KING_STEPS {
                    step(&mut quiet, &mut capture, d, false);
                }
            }
            PieceKind::Warrior => {
                let w = piece.weapons;
                if w.has(Weapon::Rook) {
                    for d in ORTHOGONAL {
                        slide(&mut quiet, &mut capture, d);
                    }
                }
                if w.has(Weapon::Bishop) {
                    for d in DIAGONAL {
                        slide(&mut quiet, &mut capture, d);
                    }
                }
                if w.has(Weapon::Knight) {
                    for d in KNIGHT_JUMPS {
                        step(&mut quiet, &mut capture, d, true);
                    }
                }
                match w.count(Weapon::Swords) {
                    0 => {}
                    1 => {
                        for d in ORTHOGONAL {
                            step(&mut quiet, &mut capture, d, false);
                        }
                        if let Some(facing) = piece.facing {
                            for d in facing.diagonals() {
                                if let Some(to) = from.offset(d.0, d.1)
                                    && self.is_opponent(to, army)
                                {
                                    capture |= to.bit();
                                }
                            }
                        }
                    }
                    _ => {
                        for d in ORTHOGONAL {
                            if let Some(one) = from.offset(d.0, d.1)
                                && self.is_empty(one)
                            {
                                quiet |= one.bit();
                                // Two squares, never over a piece: the Knight
                                // is the only weapon that jumps.
                                if let Some(two) = one.offset(d.0, d.1)
                                    && self.is_empty(two)
                                {
                                    quiet |= two.bit();
                                }
                            }
                        }
                        for d in DIAGONAL {
                            if let Some(to) = from.offset(d.0, d.1)
                                && self.is_opponent(to, army)
                            {
                                capture |= to.bit();
                            }
                        }
                    }
                }
            }
        }
        (quiet, capture)
    }

    /// Whether the player to move has any drop, move or capture.
    pub fn has_movement(&self) -> bool {
        let army = self.to_move;
        if self.bank.new[army.index()].warriors > 0 && self.money[army.index()].0 >= 1 {
            // 64 squares and at most 36 pieces: an empty square always exists.
            return true;
        }
        Square::all().any(|sq| {
            matches!(self.piece(sq), Some(p) if p.army == army) && {
                let (q, c) = self.reach(sq);
                q | c != 0
            }
        })
    }

    fn push_movements(&self, out: &mut Vec<Action>) {
        let army = self.to_move;
        if self.bank.new[army.index()].warriors > 0 && self.money[army.index()].0 >= 1 {
            for to in Square::all().filter(|sq| self.is_empty(*sq)) {
                out.push(Action::Drop { to });
            }
        }
        for from in Square::all() {
            let Some(piece) = self.piece(from) else {
                continue;
            };
            if piece.army != army {
                continue;
            }
            let (quiet, capture) = self.reach(from);
            let facings: &[Option<Facing>] = if piece.has_single_swords() {
                &[
                    Some(Facing::North),
                    Some(Facing::East),
                    Some(Facing::South),
                    Some(Facing::West),
                ]
            } else {
                &[None]
            };
            for to in Square::all() {
                if quiet & to.bit() != 0 {
                    for &facing in facings {
                        out.push(Action::Move { from, to, facing });
                    }
                } else if capture & to.bit() != 0 {
                    for &facing in facings {
                        out.push(Action::Capture { from, to, facing });
                    }
                }
            }
        }
    }

    /// Whether `weapon` may go on `piece` (ignoring the Reserve).
    fn may_carry(&self, piece: &Piece, weapon: Weapon) -> bool {
        piece.kind == PieceKind::Warrior
            && piece.weapons.total() < 2
            && (!piece.weapons.has(weapon)
                || weapon == Weapon::Swords
                || self.options.duplicate_weapons)
    }

    fn push_armings(&self, out: &mut Vec<Action>) {
        let army = self.to_move;
        let reserve = self.reserve[army.index()].weapons;
        if reserve.total() == 0 {
            return;
        }
        for on in Square::all() {
            let Some(piece) = self.piece(on) else {
                continue;
            };
            if piece.army != army || self.dropped & on.bit() != 0 {
                continue;
            }
            for weapon in Weapon::ALL {
                if !reserve.has(weapon) || !self.may_carry(piece, weapon) {
                    continue;
                }
                if weapon == Weapon::Swords && !piece.weapons.has(Weapon::Swords) {
                    for facing in Facing::ALL {
                        out.push(Action::Arm {
                            weapon,
                            on,
                            facing: Some(facing),
                        });
                    }
                } else {
                    out.push(Action::Arm {
                        weapon,
                        on,
                        facing: None,
                    });
                }
            }
        }
    }

    fn can_arm(&self) -> bool {
        let army = self.to_move;
        let reserve = self.reserve[army.index()].weapons;
        reserve.total() > 0
            && Square::all().any(|on| {
                self.dropped & on.bit() == 0
                    && matches!(self.piece(on), Some(p) if p.army == army
                        && Weapon::ALL.iter().any(|&w| reserve.has(w) && self.may_carry(p, w)))
            })
    }

    fn purchases(&self) -> impl Iterator<Item = Purchase> + '_ {
        let army = self.to_move;
        let money = self.money[army.index()].0;
        let warrior = (self.bank.new[army.index()].warriors > 0
            && money >= Purchase::Warrior.price())
        .then_some(Purchase::Warrior);
        let weapons = Weapon::ALL.into_iter().flat_map(move |w| {
            [Issue::New, Issue::Reissued]
                .into_iter()
                .filter(move |&issue| self.bank.stock(army, w, issue) > 0 && money >= w.cost(issue))
                .map(move |issue| Purchase::Weapon(w, issue))
        });
        warrior.into_iter().chain(weapons)
    }

    /// The fifty-moves draw can be claimed (option `fifty-moves=claim`).
    fn draw_claimable(&self) -> bool {
        self.options.fifty_moves == FiftyMoves::Claim
            && self.phase == Phase::Movement
            && self.no_progress >= self.options.fifty_moves_limit()
    }

    /// Every legal action of the player to act, `out` cleared first.
    pub(crate) fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let army = self.to_move;
        match self.phase {
            Phase::Over(_) => {}
            Phase::Movement => {
                self.push_movements(out);
                if out.is_empty() && self.options.no_movement == NoMovement::Pass {
                    out.push(Action::Pass);
                }
                if self.draw_claimable() {
                    out.push(Action::ClaimDraw);
                }
            }
            Phase::BonusDrops => {
                if self.reserve[army.index()].warriors > 0 {
                    for to in Square::all().filter(|sq| self.is_empty(*sq)) {
                        out.push(Action::BonusDrop { to });
                    }
                }
                out.push(Action::End);
            }
            Phase::Arming => {
                self.push_armings(out);
                out.push(Action::End);
            }
            Phase::Buying => {
                out.extend(self.purchases().map(|item| Action::Buy { item }));
                out.push(Action::End);
            }
        }
    }

    /// Plays `action`, assumed legal. Never panics, whatever the action.
    pub(crate) fn play(&mut self, action: &Action) {
        let army = self.to_move;
        let i = army.index();
        match *action {
            Action::Drop { to } => {
                let stock = &mut self.bank.new[i].warriors;
                *stock = stock.saturating_sub(1);
                self.money[i] = self.money[i].pay(1).unwrap_or_default();
                self.board[to.index()] = Some(Piece::warrior(army));
                self.dropped |= to.bit();
                self.no_progress = 0;
                self.enter(Phase::BonusDrops);
            }
            Action::Move { from, to, facing } => {
                if let Some(mut piece) = self.board[from.index()].take() {
                    if piece.has_single_swords() {
                        piece.facing = facing.or(piece.facing);
                    }
                    self.board[to.index()] = Some(piece);
                }
                self.no_progress = self.no_progress.saturating_add(1);
                self.enter(Phase::BonusDrops);
            }
            Action::Capture { from, to, facing } => {
                let Some(mut piece) = self.board[from.index()].take() else {
                    return;
                };
                if piece.has_single_swords() {
                    piece.facing = facing.or(piece.facing);
                }
                let victim = self.board[to.index()].take();
                let mut king_taken = false;
                if let Some(victim) = victim {
                    // The capturer stacks on the captured Warrior and on
                    // everything already under it.
                    piece.stack = piece.stack.plus(victim.stack);
                    match victim.kind {
                        PieceKind::King => king_taken = true,
                        PieceKind::Warrior => {
                            let v = victim.army.index();
                            piece.stack.0[v] = piece.stack.0[v].saturating_add(1);
                            // Weapons go back to the Bank as reissue stock; the
                            // capturer is paid their "new" cost, within the cap.
                            for w in Weapon::ALL {
                                self.bank.reissue[v][w] =
                                    self.bank.reissue[v][w].saturating_add(victim.weapons[w]);
                            }
                            self.money[i] = self.money[i].receive(victim.weapons.new_value());
                        }
                    }
                }
                self.board[to.index()] = Some(piece);
                self.no_progress = 0;
                if king_taken {
                    self.phase = Phase::Over(Ending::KingCaptured);
                } else {
                    self.enter(Phase::BonusDrops);
                }
            }
            Action::Pass => {
                self.no_progress = self.no_progress.saturating_add(1);
                self.enter(Phase::BonusDrops);
            }
            Action::BonusDrop { to } => {
                let r = &mut self.reserve[i].warriors;
                *r = r.saturating_sub(1);
                self.board[to.index()] = Some(Piece::warrior(army));
                self.dropped |= to.bit();
                self.no_progress = 0;
                self.enter(Phase::BonusDrops);
            }
            Action::Arm { weapon, on, facing } => {
                let r = &mut self.reserve[i].weapons[weapon];
                *r = r.saturating_sub(1);
                if let Some(piece) = self.board[on.index()].as_mut() {
                    piece.weapons[weapon] = piece.weapons[weapon].saturating_add(1);
                    if weapon == Weapon::Swords {
                        // A first Swords takes the facing chosen; a second
                        // covers all four diagonals and has none.
                        piece.facing = if piece.weapons[Weapon::Swords] == 1 {
                            facing.or(Some(Facing::North))
                        } else {
                            None
                        };
                    }
                }
                self.enter(Phase::Arming);
            }
            Action::Buy { item } => {
                self.money[i] = self.money[i].pay(item.price()).unwrap_or_default();
                match item {
                    Purchase::Warrior => {
                        let s = &mut self.bank.new[i].warriors;
                        *s = s.saturating_sub(1);
                        self.reserve[i].warriors = self.reserve[i].warriors.saturating_add(1);
                    }
                    Purchase::Weapon(w, issue) => {
                        let s = match issue {
                            Issue::New => &mut self.bank.new[i].weapons[w],
                            Issue::Reissued => &mut self.bank.reissue[i][w],
                        };
                        *s = s.saturating_sub(1);
                        self.reserve[i].weapons[w] = self.reserve[i].weapons[w].saturating_add(1);
                    }
                }
                self.enter(Phase::Buying);
            }
            Action::End => match self.phase {
                Phase::BonusDrops => self.enter(Phase::Arming),
                Phase::Arming => self.enter(Phase::Buying),
                Phase::Buying => self.end_turn(),
                Phase::Movement | Phase::Over(_) => {}
            },
            Action::ClaimDraw => self.phase = Phase::Over(Ending::DrawClaimed),
        }
    }

    /// Enters `phase`, skipping every optional phase that offers nothing
    /// but ending it; past buying, the turn passes.
    fn enter(&mut self, mut phase: Phase) {
        loop {
            let i = self.to_move.index();
            let skip = match phase {
                Phase::BonusDrops => self.reserve[i].warriors == 0,
                Phase::Arming => !self.can_arm(),
                Phase::Buying => self.purchases().next().is_none(),
                Phase::Movement | Phase::Over(_) => false,
            };
            if !skip {
                self.phase = phase;
                return;
            }
            phase = match phase {
                Phase::BonusDrops => Phase::Arming,
                Phase::Arming => Phase::Buying,
                _ => return self.end_turn(),
            };
        }
    }

    /// Passes the turn clockwise; the next player collects money.
    fn end_turn(&mut self) {
        self.dropped = 0;
        if self.options.fifty_moves == FiftyMoves::Auto
            && self.no_progress >= self.options.fifty_moves_limit()
        {
            self.phase = Phase::Over(Ending::FiftyMoves);
            return;
        }
        let next = (self.to_move.index() + 1) % self.player_count() as usize;
        self.to_move = Army::from_index(next).unwrap_or(Army::Red);
        self.phase = Phase::Movement;
        self.collect();
        if self.options.no_movement == NoMovement::Lose && !self.has_movement() {
            self.phase = Phase::Over(Ending::NoMovement);
        }
    }

    /// The player to move collects $1 per occupied square and $1 per stacked
    /// Warrior, up to the cap.
    fn collect(&mut self) {
        let army = self.to_move;
        let income = self.income(army);
        self.money[army.index()] = self.money[army.index()].receive(income);
    }

    /// Why `action` is not legal here (called once it is known not to be).
    pub(crate) fn explain(&self, action: &Action) -> Illegal {
        let army = self.to_move;
        let i = army.index();
        let money = self.money[i].0;
        let phase = self.phase;
        let wrong = Illegal::WrongPhase { phase };
        match *action {
            Action::Drop { to } => {
                if phase != Phase::Movement {
                    wrong
                } else if self.bank.new[i].warriors == 0 {
                    Illegal::NoWarriorInBank(army)
                } else if money < 1 {
                    Illegal::NotEnoughMoney {
                        need: 1,
                        have: money,
                    }
                } else if !self.is_empty(to) {
                    Illegal::Occupied(to)
                } else {
                    Illegal::NotLegal
                }
            }
            Action::Move { from, to, facing } | Action::Capture { from, to, facing } => {
                let capture = matches!(action, Action::Capture { .. });
                if phase != Phase::Movement {
                    return wrong;
                }
                let Some(piece) = self.piece(from).filter(|p| p.army == army) else {
                    return Illegal::NoOwnPiece(from);
                };
                let (quiet, captures) = self.reach(from);
                if capture && !self.is_opponent(to, army) {
                    Illegal::NothingToCapture(to)
                } else if !capture && self.is_opponent(to, army) {
                    Illegal::NotAMove(to)
                } else if !capture && !self.is_empty(to) {
                    Illegal::Occupied(to)
                } else if (if capture { captures } else { quiet }) & to.bit() == 0 {
                    Illegal::Unreachable { from, to }
                } else if piece.has_single_swords() && facing.is_none() {
                    Illegal::FacingNeeded
                } else if !piece.has_single_swords() && facing.is_some() {
                    Illegal::FacingNotWanted
                } else {
                    Illegal::NotLegal
                }
            }
            Action::Pass | Action::End if phase == Phase::Movement => {
                if self.has_movement() {
                    Illegal::MovementCompulsory
                } else {
                    Illegal::NotLegal
                }
            }
            Action::Pass | Action::End => wrong,
            Action::BonusDrop { to } => {
                if phase != Phase::BonusDrops {
                    wrong
                } else if self.reserve[i].warriors == 0 {
                    Illegal::NoWarriorInReserve
                } else if !self.is_empty(to) {
                    Illegal::Occupied(to)
                } else {
                    Illegal::NotLegal
                }
            }
            Action::Arm { weapon, on, facing } => {
                if phase != Phase::Arming {
                    return wrong;
                }
                let Some(piece) = self
                    .piece(on)
                    .filter(|p| p.army == army && p.kind == PieceKind::Warrior)
                else {
                    return Illegal::NoOwnWarrior(on);
                };
                let wants_facing = weapon == Weapon::Swords && !piece.weapons.has(Weapon::Swords);
                if !self.reserve[i].weapons.has(weapon) {
                    Illegal::NotInReserve(weapon)
                } else if self.dropped & on.bit() != 0 {
                    Illegal::DroppedThisTurn(on)
                } else if piece.weapons.total() >= 2 {
                    Illegal::FullyArmed(on)
                } else if !self.may_carry(piece, weapon) {
                    Illegal::SameWeapon(on, weapon)
                } else if wants_facing && facing.is_none() {
                    Illegal::FacingNeeded
                } else if !wants_facing && facing.is_some() {
                    Illegal::FacingNotWanted
                } else {
                    Illegal::NotLegal
                }
            }
            Action::Buy { item } => {
                if phase != Phase::Buying {
                    return wrong;
                }
                let in_stock = match item {
                    Purchase::Warrior => self.bank.new[i].warriors > 0,
                    Purchase::Weapon(w, issue) => self.bank.stock(army, w, issue) > 0,
                };
                if !in_stock {
                    match item {
                        Purchase::Warrior => Illegal::NoWarriorInBank(army),
                        Purchase::Weapon(weapon, issue) => Illegal::OutOfStock { weapon, issue },
                    }
                } else if money < item.price() {
                    Illegal::NotEnoughMoney {
                        need: item.price(),
                        have: money,
                    }
                } else {
                    Illegal::NotLegal
                }
            }
            Action::ClaimDraw => Illegal::NoDrawToClaim,
        }
    }
}
