//! Chess as a [`tabula_core::Game`]: the position plus draw rules, repetition
//! history and the outcome.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding, Zone};
use tabula_core::{
    EndReason, Game, GameId, OptionError, OptionSpec, Options, Outcome, Player, Seating, Team,
    ToAct, Viewer,
};

use crate::{CastlingSide, Color, FenError, Move, Position, SanError, UciError, UciMove};

/// When repetition and the move-count rules end the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawRules {
    /// Threefold repetition and the fifty-move rule (halfmove clock 100) end
    /// the game at once, as most online play does.
    #[default]
    Automatic,
    /// FIDE Laws: fivefold repetition and the seventy-five-move rule (halfmove
    /// clock 150) end the game at once; at threefold repetition or a halfmove
    /// clock of 100 the player to move may claim a draw (`claim-draw`).
    Fide,
}

impl DrawRules {
    /// The option value: `automatic` or `fide`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            DrawRules::Automatic => "automatic",
            DrawRules::Fide => "fide",
        }
    }
}

/// Options for [`Chess`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ChessOptions {
    /// How repetition and the move-count rules end the game.
    pub draw_rules: DrawRules,
}

const DRAW_RULES_VALUES: &str = "automatic|fide";

static SPECS: [OptionSpec; 1] = [OptionSpec {
    key: "draw-rules",
    values: DRAW_RULES_VALUES,
    default: "automatic",
    help: "automatic: threefold repetition and the fifty-move rule end the game; fide: fivefold and seventy-five moves end it, threefold and fifty moves may be claimed with claim-draw",
}];

impl Options for ChessOptions {
    fn specs() -> &'static [OptionSpec] {
        &SPECS
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        match key {
            "draw_rules" | "draw-rules" => {
                self.draw_rules = match value.trim().to_ascii_lowercase().as_str() {
                    "automatic" => DrawRules::Automatic,
                    "fide" => DrawRules::Fide,
                    _ => {
                        return Err(OptionError::BadValue {
                            key: key.to_owned(),
                            value: value.to_owned(),
                            expected: DRAW_RULES_VALUES,
                        });
                    }
                };
                Ok(())
            }
            _ => Err(Self::unknown_key(GameId::Chess.as_str(), key)),
        }
    }

    fn to_pairs(&self) -> Vec<(String, String)> {
        if self.draw_rules == DrawRules::default() {
            Vec::new()
        } else {
            vec![("draw-rules".to_owned(), self.draw_rules.as_str().to_owned())]
        }
    }
}

/// One chess decision: a move, or (FIDE draw rules) a draw claim.
///
/// `Display`/`FromStr` use UCI (`e2e4`, `e7e8q`, castling `e1g1`) and the word
/// `claim-draw`; [`Game::action_notation`] gives SAN.
///
/// The JSON form is an object tagged by `kind`; squares are written as the
/// notation writes them (lower case, `"e4"`), promotion pieces by their UCI
/// letter:
///
/// | action | `kind` | fields | example |
/// |---|---|---|---|
/// | a move (any piece, captures and en passant included) | `move` | `from`, `to`: squares | `{"kind":"move","from":"g1","to":"f3"}` |
/// | a promotion | `move` | `from`, `to`, `promotion`: `"q"`, `"r"`, `"b"` or `"n"` | `{"kind":"move","from":"e7","to":"e8","promotion":"q"}` |
/// | castling, as the King's move | `move` | `from`: the King's square, `to`: its destination | `{"kind":"move","from":"e1","to":"g1"}` |
/// | a draw claim (FIDE draw rules: threefold repetition or fifty moves) | `claim-draw` | none | `{"kind":"claim-draw"}` |
///
/// Reading is strict: an unknown `kind` or field, a square that is not
/// `a1`..`h8`, or a promotion letter other than `q`, `r`, `b`, `n` (either
/// case) is a serde error. `to` may also name the castling Rook's square
/// (`e1h1`), as UCI input allows; the legal actions always use the King's
/// destination. Whether the move is legal is checked when it is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    into = "crate::protocol::ActionJson",
    try_from = "crate::protocol::ActionJson"
)]
pub enum ChessAction {
    /// A move, in its context-free UCI form.
    Move(UciMove),
    /// Claim a draw by threefold repetition or the fifty-move rule.
    ClaimDraw,
}

/// The spelling of [`ChessAction::ClaimDraw`].
pub const CLAIM_DRAW: &str = "claim-draw";

impl ChessAction {
    /// The action for a move.
    #[must_use]
    pub fn from_move(m: Move) -> ChessAction {
        ChessAction::Move(UciMove::from(m))
    }
}

impl From<Move> for ChessAction {
    fn from(m: Move) -> ChessAction {
        ChessAction::from_move(m)
    }
}

impl fmt::Display for ChessAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChessAction::Move(m) => write!(f, "{m}"),
            ChessAction::ClaimDraw => f.write_str(CLAIM_DRAW),
        }
    }
}

impl FromStr for ChessAction {
    type Err = ChessActionError;
    fn from_str(s: &str) -> Result<ChessAction, ChessActionError> {
        let s = s.trim();
        if s.eq_ignore_ascii_case(CLAIM_DRAW) {
            return Ok(ChessAction::ClaimDraw);
        }
        s.parse::<UciMove>()
            .map(ChessAction::Move)
            .map_err(ChessActionError::Uci)
    }
}

/// Why a chess action cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChessActionError {
    /// A UCI move that cannot be read or is illegal here.
    #[error(transparent)]
    Uci(UciError),
    /// A SAN move that cannot be read, is illegal or is ambiguous here.
    #[error(transparent)]
    San(SanError),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A draw claim when none is allowed.
    #[error("no draw can be claimed now: {0}")]
    CannotClaimDraw(&'static str),
}

/// What a viewer sees of a chess game (everything: chess has no hidden
/// information). The position text, who moves, the legal actions and the
/// outcome travel in the table's envelope, not here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessView {
    /// Every piece on the board, from a1 to h8 rank by rank.
    pub pieces: Vec<ChessPieceView>,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// How many times the current position has occurred (FIDE 9.2).
    pub repetitions: u32,
    /// The castling rights left (a right, not whether castling is legal now).
    pub castling: Vec<CastlingRightView>,
    /// The square an en-passant capture can land on this turn, when one is
    /// legal.
    pub en_passant: Option<String>,
    /// Half-moves since the last capture or pawn move (fifty-move rule: 100).
    pub halfmove_clock: u32,
    /// The move number: 1 at the start, incremented after each Black move.
    pub fullmove_number: u32,
}

/// One piece of a [`ChessView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessPieceView {
    /// Its square (`e4`).
    pub cell: String,
    /// Its owner's seat: 0 White, 1 Black.
    pub owner: Player,
    /// Its catalog id: `K`, `Q`, `R`, `B`, `N` or `P`.
    pub piece: String,
}

/// One castling right of a [`ChessView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastlingRightView {
    /// Whose right: 0 White, 1 Black.
    pub owner: Player,
    /// `kingside` or `queenside`.
    pub side: String,
}

/// A game of chess: the position, the options, the hashes of the positions
/// so far (for repetition) and the outcome once decided.
///
/// Position text (`to_text`/`from_text`) is the FEN and nothing else, so the
/// repetition history and a claimed draw are not carried by it: a game read
/// from FEN counts repetitions from that position on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chess {
    options: ChessOptions,
    position: Position,
    history: Vec<u64>,
    outcome: Option<Outcome>,
}

fn team(color: Color) -> Team {
    Team(color as u8)
}

impl Chess {
    /// A game starting from `position` (repetitions counted from here).
    #[must_use]
    pub fn from_position(position: Position, options: ChessOptions) -> Chess {
        let mut game = Chess {
            options,
            position,
            history: vec![position.hash()],
            outcome: None,
        };
        game.outcome = game.rule_outcome();
        game
    }

    /// The current position.
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// The outcome, once the game is over.
    #[must_use]
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The Zobrist hashes of every position so far, oldest first, current last.
    #[must_use]
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current position has occurred (at least 1). Only
    /// positions since the last capture, pawn move or loss of castling rights
    /// can match, so only those are scanned.
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        repetitions(&self.position, &self.history)
    }

    /// Whether the player to move may claim a draw now (FIDE draw rules only):
    /// the current position has occurred three times, or the halfmove clock is
    /// at least 100.
    #[must_use]
    pub fn can_claim_draw(&self) -> bool {
        self.outcome.is_none() && claimable(&self.position, &self.history, self.options.draw_rules)
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        rule_outcome(&self.position, &self.history, self.options.draw_rules)
    }

    fn play_move(&mut self, m: Move) {
        self.position.play_unchecked(m);
        self.history.push(self.position.hash());
        self.outcome = self.rule_outcome();
    }
}

fn repetitions(pos: &Position, history: &[u64]) -> u32 {
    let window = (pos.halfmove_clock() as usize)
        .saturating_add(1)
        .min(history.len());
    let hash = pos.hash();
    history[history.len() - window..]
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&h| h == hash)
        .count() as u32
}

fn claimable(pos: &Position, history: &[u64], rules: DrawRules) -> bool {
    rules == DrawRules::Fide && (pos.halfmove_clock() >= 100 || repetitions(pos, history) >= 3)
}

/// The outcome the rules impose on this position, with no move or claim.
fn rule_outcome(pos: &Position, history: &[u64], rules: DrawRules) -> Option<Outcome> {
    if !pos.has_legal_moves() {
        return Some(if pos.is_check() {
            Outcome::win(team(!pos.turn()), EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        });
    }
    immediate_draw(pos, history, rules)
}

/// Draws that end the game at once, other than stalemate.
fn immediate_draw(pos: &Position, history: &[u64], rules: DrawRules) -> Option<Outcome> {
    if pos.is_insufficient_material() {
        return Some(Outcome::draw(EndReason::InsufficientMaterial));
    }
    let (repeats, moves) = match rules {
        DrawRules::Automatic => (3, 100),
        DrawRules::Fide => (5, 150),
    };
    if repetitions(pos, history) >= repeats {
        return Some(Outcome::draw(EndReason::Repetition));
    }
    if pos.halfmove_clock() >= moves {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    None
}

impl Game for Chess {
    type Action = ChessAction;
    type Options = ChessOptions;
    type View = ChessView;
    type ActionError = ChessActionError;
    type PositionError = FenError;

    const ID: GameId = GameId::Chess;
    /// FIDE Laws 9.1: a draw may be agreed (see `docs/rules/chess.md`).
    const DRAW_BY_AGREEMENT: bool = true;

    fn new(options: &ChessOptions) -> Chess {
        Chess::from_position(Position::start(), *options)
    }

    fn options(&self) -> &ChessOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::two_players()
    }

    /// FIDE Laws 6.9: the player whose flag falls loses, unless the opponent
    /// cannot checkmate by any series of legal moves: then it is a draw.
    /// Counted as unable: a lone King, and every position dead by material.
    fn timeout_outcome(&self, player: Player) -> Outcome {
        let flagged = if player.index() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let opponent = !flagged;
        let board = self.position.board();
        let lone_king = board.by_color(opponent) == (board.by_color(opponent) & board.kings());
        if lone_king || self.position.is_insufficient_material() {
            Outcome::draw(EndReason::Timeout)
        } else {
            Outcome::win(team(opponent), EndReason::Timeout)
        }
    }

    fn to_act(&self) -> ToAct {
        match self.outcome {
            Some(outcome) => ToAct::Over { outcome },
            None => ToAct::Player {
                player: Player(self.position.turn() as u8),
            },
        }
    }

    fn legal_actions(&self, out: &mut Vec<ChessAction>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        self.position
            .for_each_legal_move(|m| out.push(ChessAction::from_move(m)));
        if self.can_claim_draw() {
            out.push(ChessAction::ClaimDraw);
        }
    }

    fn apply(&mut self, action: &ChessAction) -> Result<(), ChessActionError> {
        if let Some(outcome) = self.outcome {
            return Err(ChessActionError::GameOver(self.describe_outcome(&outcome)));
        }
        match action {
            ChessAction::ClaimDraw => {
                if self.options.draw_rules != DrawRules::Fide {
                    return Err(ChessActionError::CannotClaimDraw(
                        "draws are only claimed under the fide draw rules; automatic rules end the game by themselves",
                    ));
                }
                if !self.can_claim_draw() {
                    return Err(ChessActionError::CannotClaimDraw(
                        "the position has not occurred three times and the halfmove clock is below 100",
                    ));
                }
                self.outcome = Some(Outcome::draw(EndReason::DrawClaimed));
            }
            ChessAction::Move(uci) => {
                let m = uci.to_move(&self.position).map_err(ChessActionError::Uci)?;
                self.play_move(m);
            }
        }
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &ChessAction) {
        match action {
            ChessAction::ClaimDraw => self.outcome = Some(Outcome::draw(EndReason::DrawClaimed)),
            ChessAction::Move(uci) => {
                let m = uci.interpret(&self.position);
                self.play_move(m);
            }
        }
    }

    /// Reads `claim-draw`, a UCI move (`e2e4`, `e1g1`, `e1h1`) or a SAN move
    /// (`e4`, `Nf3`, `O-O`, leniently), checks it is legal now, and returns
    /// the canonical action.
    fn parse_action(&self, text: &str) -> Result<ChessAction, ChessActionError> {
        if let Some(outcome) = self.outcome {
            return Err(ChessActionError::GameOver(self.describe_outcome(&outcome)));
        }
        let text = text.trim();
        if text.eq_ignore_ascii_case(CLAIM_DRAW) {
            return if self.can_claim_draw() {
                Ok(ChessAction::ClaimDraw)
            } else if self.options.draw_rules != DrawRules::Fide {
                Err(ChessActionError::CannotClaimDraw(
                    "draws are only claimed under the fide draw rules; automatic rules end the game by themselves",
                ))
            } else {
                Err(ChessActionError::CannotClaimDraw(
                    "the position has not occurred three times and the halfmove clock is below 100",
                ))
            };
        }
        match text.parse::<UciMove>() {
            Ok(uci) => uci
                .to_move(&self.position)
                .map(ChessAction::from_move)
                .map_err(ChessActionError::Uci),
            Err(_) => self
                .position
                .parse_san(text)
                .map(ChessAction::from_move)
                .map_err(ChessActionError::San),
        }
    }

    /// SAN with check and mate marks; `claim-draw` for a claim.
    fn action_notation(&self, action: &ChessAction) -> String {
        match action {
            ChessAction::ClaimDraw => CLAIM_DRAW.to_owned(),
            ChessAction::Move(uci) => {
                let m = uci.interpret(&self.position);
                if self.position.is_legal(m) {
                    self.position.san(m)
                } else {
                    uci.to_string()
                }
            }
        }
    }

    fn to_text(&self) -> String {
        self.position.fen()
    }

    fn from_text(text: &str, options: &ChessOptions) -> Result<Chess, FenError> {
        Ok(Chess::from_position(
            Position::from_fen(text.trim())?,
            *options,
        ))
    }

    fn view(&self, _viewer: Viewer) -> ChessView {
        let pos = &self.position;
        let pieces = pos
            .board()
            .iter()
            .map(|(sq, p)| ChessPieceView {
                cell: sq.to_string(),
                owner: crate::protocol::seat(p.color),
                piece: crate::protocol::role_id(p.role),
            })
            .collect();
        let mut castling = Vec::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if pos.castling_rights().has(color, side) {
                    castling.push(CastlingRightView {
                        owner: crate::protocol::seat(color),
                        side: match side {
                            CastlingSide::KingSide => "kingside",
                            CastlingSide::QueenSide => "queenside",
                        }
                        .to_owned(),
                    });
                }
            }
        }
        let mut en_passant = None;
        pos.for_each_legal_move(|m| {
            if m.is_en_passant() {
                en_passant = Some(m.to().to_string());
            }
        });
        ChessView {
            pieces,
            in_check: pos.is_check(),
            repetitions: self.repetitions(),
            castling,
            en_passant,
            halfmove_clock: pos.halfmove_clock(),
            fullmove_number: pos.fullmove_number(),
        }
    }

    /// The position's Zobrist key, [`Position::hash`]: piece placement,
    /// side to move, castling rights, and the en-passant file only when a
    /// pawn of the side to move attacks the en-passant square. The
    /// repetition rule compares positions by this very hash (FIDE 9.2.3; see
    /// "Same position" in `docs/rules/chess.md`), so equal positions reached
    /// by different move orders share the key.
    ///
    /// The halfmove clock is folded in too: the fifty- and seventy-five-move
    /// draws observe it, so two states one move from such a draw and two
    /// states far from it must not share a key (a transposition table would
    /// otherwise carry a drawn score into a live position). Search code that
    /// wants the placement-only hash has `Position::hash`.
    ///
    /// Not included: the repetition history (not in the position text; the
    /// table keeps it), the move number (no rule observes it) and a claimed
    /// draw. FEN texts differing only in the move number, or in an
    /// en-passant square no pawn can use, share a key.
    fn key(&self) -> u64 {
        // A multiplicative mix spreads the small clock over all 64 bits.
        let clock = u64::from(self.position.halfmove_clock()).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.position.hash() ^ clock.rotate_left(29)
    }

    /// From the moving piece's square to its landing square (castling:
    /// from the King's square to its destination, touching the Rook's
    /// squares; en passant touches the captured pawn); a promotion has one
    /// gesture per piece, chosen by its UCI letter; `claim-draw` is a button.
    fn gesture(&self, action: &ChessAction) -> Gesture {
        crate::protocol::gesture(&self.position, action)
    }

    /// `captured`: the letters of the opponent's pieces this side has taken,
    /// most valuable first, reckoned from the board (see
    /// `docs/rules/chess.md`). Public: chess hides nothing.
    fn holdings(&self, player: Player, _viewer: Viewer) -> Vec<Holding> {
        crate::protocol::holdings(&self.position, player)
    }

    /// Chess has nothing off the board.
    fn zones(&self, _viewer: Viewer) -> Vec<Zone> {
        Vec::new()
    }

    /// A move, a capture or castling; a promotion; then check, or the end of
    /// the game. `data` keys are listed in `docs/rules/chess.md`.
    fn events(&self, action: &ChessAction, after: &Chess, _viewer: Viewer) -> Vec<Event> {
        crate::protocol::events(self, action, after)
    }

    fn catalog(_options: &ChessOptions) -> Catalog {
        crate::protocol::catalog()
    }

    /// Unreadable: neither UCI nor SAN. Ambiguous: SAN matching several
    /// moves. Game over: the game has ended. Illegal: anything else.
    fn fault_kind(error: &ChessActionError) -> FaultKind {
        match error {
            ChessActionError::Uci(UciError::Syntax(_))
            | ChessActionError::San(SanError::Syntax(_)) => FaultKind::Unreadable,
            ChessActionError::San(SanError::Ambiguous { .. }) => FaultKind::Ambiguous,
            ChessActionError::GameOver(_) => FaultKind::GameOver,
            _ => FaultKind::Illegal,
        }
    }

    /// Perft as every chess program and the published tables define it: the
    /// number of legal move sequences of length `depth` from this position,
    /// with draws by rule (repetition, move counts, dead positions) and draw
    /// claims not treated as endings. Bulk counting at the last ply. The
    /// game-tree count that stops at those endings is
    /// `tabula_core::perft::perft`.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft(&self.position, depth)
    }

    fn player_name(&self, player: Player) -> String {
        match player.0 {
            0 => "White".to_owned(),
            1 => "Black".to_owned(),
            n => format!("Player {}", n + 1),
        }
    }

    fn team_name(&self, team: Team) -> String {
        self.player_name(Player(team.0))
    }
}
