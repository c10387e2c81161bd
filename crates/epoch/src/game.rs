//! [`Epoch`]: the [`tabula_core::Game`] of Chess 13: Epoch.

use serde::{Deserialize, Serialize};
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, Zone};
use tabula_core::{
    EndReason, Game, GameId, OptionError, OptionSpec, Options, Outcome, Player, Seating, Team,
    ToAct, Viewer,
};
use thiserror::Error;

use crate::moves::{Move, MoveParseError, Wing, take_slot, take_square};
use crate::position::Position;
use crate::text::{PositionError, SwapState, parse_text, write_text};
use crate::types::{Color, PieceKind, Square};
use crate::zobrist::ZOBRIST;

/// The options of Chess 13: Epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EpochOptions {
    /// Whether Black may take White's side on its first turn (the book's swap rule).
    pub swap: bool,
}

impl Default for EpochOptions {
    fn default() -> Self {
        EpochOptions { swap: true }
    }
}

const SPECS: &[OptionSpec] = &[OptionSpec {
    key: "swap",
    values: "on|off",
    default: "on",
    help: "Black may take White's side instead of its first move (the book's swap rule)",
}];

impl Options for EpochOptions {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key {
            "swap" => {
                self.swap = match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => {
                        return Err(OptionError::BadValue {
                            key: key.to_owned(),
                            value: value.to_owned(),
                            expected: "on|off",
                        });
                    }
                };
                Ok(())
            }
            _ => Err(Self::unknown_key("epoch", key)),
        }
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        if self.swap {
            Vec::new()
        } else {
            vec![("swap".to_owned(), "off".to_owned())]
        }
    }
}

/// Why an action cannot be parsed or played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The text is not in any notation this game reads.
    #[error("cannot read '{text}' as a move: {reason}")]
    Unreadable {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The move is well formed but not legal here.
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
    /// The text fits several legal moves.
    #[error("'{text}' could be any of: {candidates}")]
    Ambiguous {
        /// The text given.
        text: String,
        /// The moves it fits, canonical form, comma-separated.
        candidates: String,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl From<MoveParseError> for ActionError {
    fn from(e: MoveParseError) -> Self {
        ActionError::Unreadable {
            text: e.text,
            reason: e.reason.to_owned(),
        }
    }
}

/// A game of Chess 13: Epoch: the position, the swap state and the
/// repetition history since the last progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Epoch {
    pub(crate) pos: Position,
    pub(crate) options: EpochOptions,
    pub(crate) swap: SwapState,
    /// Repetition keys since the last progress, the current position last.
    history: Vec<u64>,
    pub(crate) outcome: Option<Outcome>,
}

/// One piece as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewPiece {
    /// Its square (`"g7"`).
    pub cell: Square,
    /// The seat that plays it (after a swap, White's pieces belong to seat 1).
    pub owner: Player,
    /// Its kind, as the catalog's piece id (`"sentinel"`).
    pub piece: PieceKind,
    /// Its colour, which is how it is drawn.
    pub color: Color,
    /// Whether its Marshal's command zone enhances it now (read when it
    /// next moves). Pope and Emperor: never, the zone does not touch them.
    pub enhanced: bool,
    /// Whether it is outside the zone (or its Marshal is gone). Pope and
    /// Emperor: never.
    pub restricted: bool,
    /// Whether it is a dormant Emperor (cannot move, capture, guard or be removed).
    pub dormant: bool,
}

/// Plies since the last progress and the limit at which the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NoProgress {
    /// Plies (half-moves) since the last capture, blast, Legionary step or promotion.
    pub plies: u16,
    /// The draw limit in plies: 2 x (60 + 2 x (52 - pieces on board)).
    pub limit: u32,
}

/// A place a Legionary can claim on the last rank: a piece its side lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenPlace {
    /// The side that lost the piece and may claim the place.
    pub color: Color,
    /// The seat playing that side.
    pub owner: Player,
    /// The lost piece's kind (catalog id).
    pub piece: PieceKind,
    /// The file it fell on (`"c"`); a Legionary arriving on that file or
    /// either neighbour claims it.
    pub file: char,
    /// How many such pieces fell on that file.
    pub count: u8,
}

/// What a viewer sees: the whole state (Epoch hides nothing). The envelope
/// carries the position text, who acts, the outcome and the legal actions.
#[derive(Debug, Clone, Serialize)]
pub struct EpochView {
    /// Every piece on the board, a1 first, rank by rank.
    pub pieces: Vec<ViewPiece>,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Whether the side to move holds the riposte right (its Marshal
    /// captures on its lines this move without support).
    pub riposte: bool,
    /// The en passant target square, if the last move was a full advance.
    pub en_passant: Option<Square>,
    /// The no-progress count and its limit.
    pub no_progress: NoProgress,
    /// The full-move number.
    pub move_number: u16,
    /// Whether Black may swap now (its first turn, the rule switched on).
    pub swap_available: bool,
    /// Whether the players have swapped sides (seat 0 plays Black).
    pub swapped: bool,
    /// The open promotion places of both sides.
    pub open_places: Vec<OpenPlace>,
}

/// The no-progress limit in plies: 2 x (60 + 2 x (52 - pieces)) full turns.
pub fn no_progress_limit(pieces: usize) -> u32 {
    let turns = 60i64 + 2 * (52 - pieces as i64);
    (turns.max(1) * 2) as u32
}

impl Epoch {
    /// The position (board and rights).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The colour `player` plays.
    pub fn color_of(&self, player: Player) -> Color {
        let white = if self.swap.swapped { 1 } else { 0 };
        if player.0 == white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The player playing `color`.
    pub fn player_of(&self, color: Color) -> Player {
        Player((color.index() as u8) ^ u8::from(self.swap.swapped))
    }

    fn team_of(&self, color: Color) -> Team {
        Team(self.player_of(color).0)
    }

    /// Whether the swap is offered now.
    pub fn swap_offered(&self) -> bool {
        self.options.swap
            && self.swap.right
            && self.pos.side == Color::Black
            && self.pos.fullmove == 1
    }

    /// The repetition keys ([`Position::key`]) of the positions since the
    /// last progress, oldest first, the current one last: what a search
    /// needs to apply the repetition rule along its own line.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Reads the results after a move (or a loaded text), in the order of
    /// the public app: mate and the no-legal-move win, the no-progress draw,
    /// the repetition loss, bare Popes.
    fn compute_outcome(&self) -> Option<Outcome> {
        let stm = self.pos.side;
        if !self.pos.has_legal_move() {
            return Some(if self.pos.in_check() {
                Outcome::win(self.team_of(!stm), EndReason::Checkmate)
            } else {
                Outcome::win(self.team_of(stm), EndReason::Stalemate)
            });
        }
        let pieces = self.pos.piece_count();
        if u32::from(self.pos.halfmoves) >= no_progress_limit(pieces) {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
        let key = self
            .history
            .last()
            .copied()
            .unwrap_or_else(|| self.pos.key());
        if self.history.iter().filter(|&&k| k == key).count() >= 3 {
            // The move that made it happen loses: the side now to move wins.
            return Some(Outcome::win(self.team_of(stm), EndReason::Repetition));
        }
        if pieces == 2 {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        None
    }

    /// The long algebraic notation of the public app for `mv` played here.
    pub fn notation(&self, mv: &Move) -> String {
        let letter = |sq: Square| -> String {
            match self.pos.piece_at(sq) {
                Some(p) if p.kind != PieceKind::Legionary => p.kind.letter().to_string(),
                _ => String::new(),
            }
        };
        match *mv {
            Move::Quiet { from, to } => format!("{}{from}-{to}", letter(from)),
            Move::Capture { from, to }
            | Move::AssassinCapture { from, to, .. }
            | Move::EnPassant { from, to } => format!("{}{from}x{to}", letter(from)),
            Move::Blast { at } => format!("G{at}x{at}"),
            Move::Promotion {
                from,
                to,
                capture,
                slot,
            } => {
                let sep = if capture { 'x' } else { '-' };
                format!("{from}{sep}{to}={}", self.slot_text(mv, slot))
            }
            Move::Trade { at, slot } => format!("{at}-{at}={}", self.slot_text(mv, slot)),
            Move::Castle {
                wing: Wing::Marshal,
            } => "O-O".to_owned(),
            Move::Castle {
                wing: Wing::Emperor,
            } => "O-O-O".to_owned(),
            Move::Swap => "swap".to_owned(),
        }
    }

    /// `S`, or `Sc` when another legal trade of the same Legionary takes the
    /// same kind from a different file.
    fn slot_text(&self, mv: &Move, slot: crate::moves::Slot) -> String {
        let mut legal = Vec::new();
        self.pos.legal_moves(&mut legal);
        let same = |m: &Move| m.from() == mv.from() && m.to() == mv.to();
        let ambiguous = legal.iter().any(|m| {
            same(m)
                && match *m {
                    Move::Promotion { slot: s, .. } | Move::Trade { slot: s, .. } => {
                        s.kind == slot.kind && s.file != slot.file
                    }
                    _ => false,
                }
        });
        if ambiguous {
            slot.to_string()
        } else {
            slot.kind.letter().to_string()
        }
    }

    fn all_legal(&self) -> Vec<Move> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }
}

impl Game for Epoch {
    type Action = Move;
    type Options = EpochOptions;
    type View = EpochView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Epoch;
    /// The book lists exactly five results (mate, the no-legal-move win,
    /// the repetition loss, the no-progress draw, bare Popes) and no
    /// agreed draw: see "Draw by agreement" in `docs/rules/epoch.md`.
    const DRAW_BY_AGREEMENT: bool = false;

    fn new(options: &EpochOptions) -> Self {
        let pos = Position::start();
        Epoch {
            history: vec![pos.key()],
            pos,
            options: *options,
            swap: SwapState {
                right: true,
                swapped: false,
            },
            outcome: None,
        }
    }

    fn options(&self) -> &EpochOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::two_players()
    }

    fn to_act(&self) -> ToAct {
        match self.outcome {
            Some(outcome) => ToAct::Over { outcome },
            None => ToAct::Player {
                player: self.player_of(self.pos.side),
            },
        }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        self.pos.legal_moves(out);
        if self.swap_offered() {
            out.push(Move::Swap);
        }
    }

    fn apply(&mut self, action: &Move) -> Result<(), ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.all_legal().contains(action) {
            return Err(ActionError::Illegal(action.to_string()));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &Move) {
        if *action == Move::Swap {
            self.swap = SwapState {
                right: false,
                swapped: !self.swap.swapped,
            };
            return;
        }
        if self.pos.side == Color::Black {
            self.swap.right = false;
        }
        let effect = self.pos.make(*action);
        if effect.progress {
            self.history.clear();
        }
        self.history.push(self.pos.key());
        self.outcome = self.compute_outcome();
    }

    fn parse_action(&self, text: &str) -> Result<Move, ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        let legal = self.all_legal();
        let t = text.trim();
        let canonical = t.parse::<Move>().ok();
        if let Some(m) = canonical
            && legal.contains(&m)
        {
            return Ok(m);
        }
        // A well-formed canonical move the loose forms cannot place is
        // readable, just not legal here (`e1xe5e6` where no such capture is).
        let unreadable = |reason: &str| match canonical {
            Some(_) => ActionError::Illegal(t.to_owned()),
            None => ActionError::Unreadable {
                text: t.to_owned(),
                reason: reason.to_owned(),
            },
        };
        // Loose forms: optional piece letter, from, '-' or 'x', to, '=K[f]',
        // '^', '+', '#' and 'ep' ignored.
        let cleaned: String = t
            .chars()
            .filter(|c| !matches!(c, '^' | '+' | '#' | '!' | '?'))
            .collect();
        match cleaned.as_str() {
            "0-0" | "O-O" => {
                return self.pick(t, &legal, |m| {
                    *m == Move::Castle {
                        wing: Wing::Marshal,
                    }
                });
            }
            "0-0-0" | "O-O-O" => {
                return self.pick(t, &legal, |m| {
                    *m == Move::Castle {
                        wing: Wing::Emperor,
                    }
                });
            }
            "swap" | "Swap" | "SWAP" => return self.pick(t, &legal, |m| *m == Move::Swap),
            _ => {}
        }
        let mut rest = cleaned.as_str();
        let mut kind = None;
        if let Some(c) = rest.chars().next()
            && c.is_ascii_uppercase()
        {
            kind =
                Some(PieceKind::from_letter(c).ok_or_else(|| unreadable("unknown piece letter"))?);
            rest = &rest[1..];
        }
        let (from, r) = take_square(rest).ok_or_else(|| unreadable("expected a start square"))?;
        rest = r;
        let mut to = None;
        if let Some(r) = rest.strip_prefix(['-', 'x']) {
            rest = r;
        }
        if let Some((sq, r)) = take_square(rest) {
            to = Some(sq);
            rest = r;
        }
        let rest = rest
            .strip_suffix("ep")
            .or(rest.strip_suffix("e.p."))
            .unwrap_or(rest);
        let mut promo = None;
        if !rest.is_empty() {
            let (k, f, r) =
                take_slot(rest).ok_or_else(|| unreadable("unexpected trailing text"))?;
            if !r.is_empty() {
                return Err(unreadable("unexpected trailing text"));
            }
            promo = Some((k, f));
        }
        let to = to.unwrap_or(from);
        let mover = self.pos.piece_at(from).map(|p| p.kind);
        if kind.is_some() && kind != mover && kind != Some(PieceKind::Legionary) {
            return Err(ActionError::Illegal(t.to_owned()));
        }
        self.pick(t, &legal, |m| {
            let (mf, mt) = match *m {
                Move::Castle { wing } => {
                    let rank = self.pos.side.back_rank();
                    let pt = if wing == Wing::Marshal { 9 } else { 3 };
                    (Square::new(6, rank), Square::new(pt, rank))
                }
                _ => (m.from(), m.to()),
            };
            if mf != Some(from) || mt != Some(to) {
                return false;
            }
            match (*m, promo) {
                (Move::Promotion { slot, .. } | Move::Trade { slot, .. }, Some((k, f))) => {
                    slot.kind == k && f.is_none_or(|f| f == slot.file)
                }
                (_, Some(_)) => false,
                _ => true,
            }
        })
    }

    fn action_notation(&self, action: &Move) -> String {
        self.notation(action)
    }

    /// The same count as `tabula_core::perft` (game-over nodes count 0, the
    /// swap is a branch), without cloning the game per node: positions are
    /// copied and made, the results read directly, the repetition history
    /// kept only when a repetition can happen within `depth` plies.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome.is_some() {
            return 0;
        }
        // A third occurrence needs at least eight plies without progress.
        let track = self.history.len() - 1 + depth as usize >= 8;
        let mut walk = PerftWalk {
            history: if track {
                self.history.clone()
            } else {
                Vec::new()
            },
            track,
            buffers: vec![Vec::with_capacity(160); depth as usize],
        };
        walk.count(&self.pos, depth, 0, self.options.swap && self.swap.right)
    }

    fn to_text(&self) -> String {
        let earlier = &self.history[..self.history.len().saturating_sub(1)];
        write_text(&self.pos, self.swap, earlier)
    }

    fn from_text(text: &str, options: &EpochOptions) -> Result<Self, PositionError> {
        let parsed = parse_text(text)?;
        let mut history = parsed.earlier;
        history.push(parsed.pos.key());
        let mut game = Epoch {
            pos: parsed.pos,
            options: *options,
            swap: parsed.swap,
            history,
            outcome: None,
        };
        game.outcome = game.compute_outcome();
        Ok(game)
    }

    fn view(&self, _viewer: Viewer) -> EpochView {
        let pos = &self.pos;
        let pieces = Square::all()
            .filter_map(|sq| {
                pos.piece_at(sq).map(|p| {
                    let zoned = !matches!(p.kind, PieceKind::Pope | PieceKind::Emperor);
                    let enhanced = zoned && pos.enhanced(p.color, sq);
                    ViewPiece {
                        cell: sq,
                        owner: self.player_of(p.color),
                        piece: p.kind,
                        color: p.color,
                        enhanced,
                        restricted: zoned && !enhanced,
                        dormant: p.kind == PieceKind::Emperor && !pos.emperor_awake(p.color),
                    }
                })
            })
            .collect();
        let mut open_places = Vec::new();
        for color in Color::BOTH {
            for (slot, count) in pos.slots(color) {
                open_places.push(OpenPlace {
                    color,
                    owner: self.player_of(color),
                    piece: slot.kind,
                    file: char::from(b'a' + slot.file),
                    count,
                });
            }
        }
        EpochView {
            pieces,
            in_check: pos.in_check(),
            riposte: pos.riposte(),
            en_passant: pos.en_passant(),
            no_progress: NoProgress {
                plies: pos.halfmoves(),
                limit: no_progress_limit(pos.piece_count()),
            },
            move_number: pos.fullmove,
            swap_available: self.swap_offered(),
            swapped: self.swap.swapped,
            open_places,
        }
    }

    /// The position's Zobrist key (kept up to date by every move, see
    /// [`Position::full_key`]) with the swap state folded in: placement,
    /// side to move, castling, en passant and riposte rights, awake
    /// Emperors, open promotion places, whether the swap is still open and
    /// whether it was taken; and the no-progress count, which the
    /// no-progress limit observes (a table must not carry a drawn score to
    /// a live position). Not the move number (no rule observes it) or the
    /// repetition history: search handles repetitions along its own line,
    /// as chess engines do, and a key holding the history would never let
    /// two move orders meet.
    fn key(&self) -> u64 {
        // A multiplicative mix spreads the small count over all 64 bits.
        let count = u64::from(self.pos.halfmoves).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut k = self.pos.full_key() ^ count.rotate_left(29);
        if self.options.swap && self.swap.right {
            k ^= ZOBRIST.swap_open;
        }
        if self.swap.swapped {
            k ^= ZOBRIST.swapped;
        }
        k
    }

    fn gesture(&self, action: &Move) -> Gesture {
        self.gesture_of(*action)
    }

    fn holdings(&self, player: Player, _viewer: Viewer) -> Vec<Holding> {
        self.holdings_of(player)
    }

    fn zones(&self, _viewer: Viewer) -> Vec<Zone> {
        self.zones_all()
    }

    fn events(&self, action: &Move, after: &Self, _viewer: Viewer) -> Vec<Event> {
        self.events_of(*action, after)
    }

    fn catalog(options: &EpochOptions) -> Catalog {
        crate::table::catalog(options)
    }

    fn fault_kind(error: &ActionError) -> FaultKind {
        match error {
            ActionError::Unreadable { .. } => FaultKind::Unreadable,
            ActionError::Illegal(_) => FaultKind::Illegal,
            ActionError::Ambiguous { .. } => FaultKind::Ambiguous,
            ActionError::GameOver => FaultKind::GameOver,
        }
    }

    fn player_name(&self, player: Player) -> String {
        self.color_of(player).to_string()
    }

    fn team_name(&self, team: Team) -> String {
        self.color_of(Player(team.0)).to_string()
    }
}

/// The state of a perft walk: the repetition history along the path and
/// one move buffer per depth.
struct PerftWalk {
    history: Vec<u64>,
    track: bool,
    buffers: Vec<Vec<Move>>,
}

impl PerftWalk {
    /// The leaves `depth` plies below `pos`, a position whose game goes on;
    /// `start` is where its history since the last progress begins, `swap`
    /// whether Black's swap right is still open.
    fn count(&mut self, pos: &Position, depth: u32, start: usize, swap: bool) -> u64 {
        let mut total = 0;
        if swap && pos.side == Color::Black && pos.fullmove == 1 {
            // The swap changes the players, not the position: the game goes on.
            total += if depth == 1 {
                1
            } else {
                self.count(pos, depth - 1, start, false)
            };
        }
        let child_swap = swap && pos.side == Color::White;
        let level = self.buffers.len() - depth as usize;
        let mut moves = std::mem::take(&mut self.buffers[level]);
        pos.legal_moves(&mut moves);
        if depth == 1 {
            total += moves.len() as u64;
        } else {
            for &mv in &moves {
                let mut child = *pos;
                let effect = child.make(mv);
                // A child with no legal move counts 0 by itself below.
                let pieces = child.piece_count();
                if u32::from(child.halfmoves) >= no_progress_limit(pieces) {
                    continue;
                }
                if self.track {
                    let key = child.key();
                    let child_start = if effect.progress {
                        self.history.len()
                    } else {
                        start
                    };
                    self.history.push(key);
                    let repeated = self.history[child_start..]
                        .iter()
                        .filter(|&&k| k == key)
                        .count()
                        >= 3;
                    if !repeated && pieces != 2 {
                        total += self.count(&child, depth - 1, child_start, child_swap);
                    }
                    self.history.pop();
                } else if pieces != 2 {
                    total += self.count(&child, depth - 1, 0, child_swap);
                }
            }
        }
        self.buffers[level] = moves;
        total
    }
}

impl Epoch {
    fn pick(
        &self,
        text: &str,
        legal: &[Move],
        fits: impl Fn(&Move) -> bool,
    ) -> Result<Move, ActionError> {
        let found: Vec<Move> = legal.iter().copied().filter(|m| fits(m)).collect();
        match found.as_slice() {
            [] => Err(ActionError::Illegal(text.to_owned())),
            [one] => Ok(*one),
            many => Err(ActionError::Ambiguous {
                text: text.to_owned(),
                candidates: many
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }
}
