//! Skirmish chess as a [`tabula_core::Game`]: errors, notation, view.

use serde::Serialize;
use tabula_chess::{Bitboard, CastlingSide, Move, Role, SanError, Setup, Square, UciMove};
use tabula_core::protocol::{Catalog, Event, FaultKind, Gesture, Holding};
use tabula_core::{ChanceModel, Game, GameId, Player, Probability, Seating, Team, ToAct, Viewer};

use crate::action::{ActionSyntaxError, SkirmishAction};
use crate::odds::Odds;
use crate::options::{Mode, SkirmishOptions};
use crate::protocol::{color_name, role_id, seat};
use crate::state::{Pending, Phase, Skirmish, interpret_in, target_square};
use crate::text::PositionError;

/// Why an action cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ActionError {
    /// The text is not an action in any notation this game reads.
    #[error(transparent)]
    Syntax(#[from] ActionSyntaxError),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A well-formed action that is not legal now.
    #[error("{action} is not legal now: {expected}")]
    Illegal {
        /// The action, as given.
        action: String,
        /// What the game is waiting for.
        expected: String,
    },
    /// A notation that fits several legal actions.
    #[error("'{text}' is ambiguous here: it could be any of {}", candidates.join(", "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// The canonical forms of the matching actions.
        candidates: Vec<String>,
    },
}

impl Skirmish {
    /// A sentence saying what the game waits for.
    pub fn expectation(&self) -> String {
        let mover = color_name(self.turn);
        let other = color_name(!self.turn);
        match self.phase {
            Phase::Act => match self.options.mode {
                Mode::Basic => format!("{mover} to move"),
                Mode::Advanced if self.ts.acted => format!(
                    "{mover} to make a {}skirmish, or end the turn",
                    if self.ts.movement {
                        ""
                    } else {
                        "movement or a "
                    }
                ),
                Mode::Advanced => format!("{mover} to make a movement or a skirmish"),
            },
            Phase::Roll(p) => {
                let what = match p {
                    Pending::Check(_) => "the check roll",
                    Pending::Mate(_) => "the checkmate roll",
                    _ => "a skirmish",
                };
                let odds = self.odds_of_pending(p);
                if odds.given().is_some() {
                    format!("{what} is a given: the only outcome is 'given'")
                } else {
                    format!(
                        "the dice of {what} (roll:A-D with totals {}..={})",
                        odds.dice.min_total(),
                        odds.dice.max_total()
                    )
                }
            }
            Phase::Choice { square, .. } => {
                format!("{other} to decide whether the winning defender stays or takes {square}")
            }
            Phase::Place { .. } => format!("{mover} to place the winning piece on a won square"),
            Phase::Tactical(t) => format!(
                "{mover} to name the next target of the Tactical movement to {} or arrive",
                t.to
            ),
            Phase::Over(o) => self.describe_outcome(&o),
        }
    }

    fn check_legal(&self, action: &SkirmishAction) -> Result<(), ActionError> {
        let illegal = || ActionError::Illegal {
            action: action.to_string(),
            expected: self.expectation(),
        };
        match self.phase {
            Phase::Over(o) => Err(ActionError::GameOver(self.describe_outcome(&o))),
            Phase::Roll(p) => {
                let odds = self.odds_of_pending(p);
                let ok = match (*action, odds.given()) {
                    (SkirmishAction::Given, Some(_)) => true,
                    (SkirmishAction::Roll { attacker, defender }, None) => {
                        let range = odds.dice.min_total()..=odds.dice.max_total();
                        range.contains(&attacker) && range.contains(&defender)
                    }
                    _ => false,
                };
                if ok { Ok(()) } else { Err(illegal()) }
            }
            _ => {
                let mut legal = Vec::new();
                self.gen_actions(&mut legal);
                if legal.contains(action) {
                    Ok(())
                } else {
                    Err(illegal())
                }
            }
        }
    }

    /// The letter of the piece on `sq` (none for a pawn), upper case.
    fn letter(&self, sq: Square) -> String {
        match self.board.role_at(sq) {
            Some(Role::Pawn) | None => String::new(),
            Some(r) => r.upper_char().to_string(),
        }
    }

    fn promo(p: Option<Role>) -> String {
        p.map(|r| format!("={}", r.upper_char()))
            .unwrap_or_default()
    }

    /// Long algebraic notation for a chess move in this position.
    fn move_notation(&self, m: Move) -> String {
        match m {
            Move::Castle { king, rook } => match CastlingSide::from_squares(king, rook) {
                CastlingSide::KingSide => "O-O".to_owned(),
                CastlingSide::QueenSide => "O-O-O".to_owned(),
            },
            Move::EnPassant { from, to } => format!("{from}x{to}ep"),
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let capture = self.is_capture(m);
                let mut s = format!(
                    "{}{from}{}{to}{}",
                    self.letter(from),
                    if capture { 'x' } else { '-' },
                    Self::promo(promotion)
                );
                let k = u32::from(self.ts.attacks.get(from)) + 1;
                if capture && k > 1 {
                    s.push_str(&format!("/{k}"));
                }
                s
            }
        }
    }

    /// Every legal action (or, at a chance node, every outcome).
    fn candidates(&self) -> Vec<SkirmishAction> {
        match self.chance() {
            ChanceModel::Exact(list) => list.into_iter().map(|(a, _)| a).collect(),
            _ => {
                let mut v = Vec::new();
                self.gen_actions(&mut v);
                v
            }
        }
    }

    /// The winning probability of each skirmish an action starts, for the
    /// view and for computer players (see [`Skirmish::odds`]).
    fn odds_views(&self, action: &SkirmishAction) -> Vec<OddsView> {
        let targets: Vec<Square> = match (*action, self.phase) {
            (SkirmishAction::Move(uci), _) => vec![target_square(self.interpret(uci))],
            (SkirmishAction::Tactical { target, .. }, _) | (SkirmishAction::Hit(target), _) => {
                vec![target]
            }
            (SkirmishAction::Divided { targets, .. }, _) => targets.into_iter().collect(),
            _ => Vec::new(),
        };
        self.odds(action)
            .into_iter()
            .zip(targets)
            .map(|(odds, t)| {
                let from = action_from(action, self.phase);
                OddsView::new(
                    &odds,
                    (
                        self.describe(from),
                        from.map(|s| s.bitboard()).unwrap_or_default(),
                    ),
                    (self.describe(Some(t)), t),
                )
            })
            .collect()
    }

    fn describe(&self, sq: Option<Square>) -> String {
        match sq.and_then(|s| self.board.piece_at(s).map(|p| (s, p))) {
            Some((s, p)) => format!("{} {} on {s}", color_name(p.color).to_lowercase(), p.role),
            None => String::new(),
        }
    }

    fn pending_view(&self) -> Option<OddsView> {
        let Phase::Roll(p) = self.phase else {
            return None;
        };
        let odds = self.odds_of_pending(p);
        let squares = |bb: Bitboard| {
            bb.into_iter()
                .map(|s| self.describe(Some(s)))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let one = |sq: Square| (self.describe(Some(sq)), sq.bitboard());
        let (attacker, defender) = match p {
            Pending::Capture(m) => (one(m.from()), target_square(m)),
            Pending::Tactical { tactical, target } => (one(tactical.from), target),
            Pending::Divided {
                from,
                targets,
                won,
                lost,
            } => (one(from), (targets & !won & !lost).first().unwrap_or(from)),
            Pending::Check(c) | Pending::Mate(c) => (
                (squares(c), c),
                self.board.king_of(self.turn).unwrap_or(Square::ALL[0]),
            ),
        };
        Some(OddsView::new(
            &odds,
            attacker,
            (self.describe(Some(defender)), defender),
        ))
    }
}

/// Whether `text` is written like one of this game's notations (so that a
/// failure to match is an illegal action, not unreadable text).
fn looks_like_notation(text: &str) -> bool {
    if text == "take"
        || ["tac:", "hit:", "div:", "place:", "take:", "roll:"]
            .iter()
            .any(|p| text.starts_with(p))
    {
        return true;
    }
    let t = text.strip_prefix(['K', 'Q', 'R', 'B', 'N']).unwrap_or(text);
    let b = t.as_bytes();
    b.len() >= 5
        && Square::from_ascii(&b[0..2]).is_some()
        && matches!(b[2], b'-' | b'x')
        && Square::from_ascii(&b[3..5]).is_some()
}

fn action_from(action: &SkirmishAction, phase: Phase) -> Option<Square> {
    match (*action, phase) {
        (SkirmishAction::Move(m), _) => Some(m.from),
        (SkirmishAction::Tactical { from, .. } | SkirmishAction::Divided { from, .. }, _) => {
            Some(from)
        }
        (SkirmishAction::Hit(_), Phase::Tactical(t)) => Some(t.from),
        _ => None,
    }
}

/// A skirmish's numbers as the view shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsView {
    /// The attacking piece(s), e.g. "white knight on f3".
    pub attacker: String,
    /// The attacking pieces' squares.
    pub attacker_cells: Vec<String>,
    /// The defending piece.
    pub defender: String,
    /// The defending piece's square.
    pub defender_cell: String,
    /// The attacking value used.
    pub attack_value: i64,
    /// The attack bonus used.
    pub bonus: i64,
    /// The defending value.
    pub defence_value: i64,
    /// Each side's dice, e.g. "1d6".
    pub dice: String,
    /// The attacker's exact chance of winning.
    pub win_probability: Probability,
    /// The same, as a number between 0 and 1.
    pub win_chance: f64,
    /// `Some(true)`/`Some(false)` for a certain win/loss (no dice).
    pub given: Option<bool>,
}

impl OddsView {
    fn new(
        odds: &Odds,
        (attacker, attacker_cells): (String, Bitboard),
        (defender, defender_cell): (String, Square),
    ) -> OddsView {
        let p = odds.win_probability();
        OddsView {
            attacker,
            attacker_cells: attacker_cells.into_iter().map(|s| s.to_string()).collect(),
            defender,
            defender_cell: defender_cell.to_string(),
            attack_value: odds.attack_value,
            bonus: odds.bonus,
            defence_value: odds.defence_value,
            dice: odds.dice.to_string(),
            win_probability: p,
            win_chance: p.to_f64(),
            given: odds.given(),
        }
    }
}

/// A legal action that starts skirmishes, with their odds, so that a
/// player sees them before committing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OfferView {
    /// Canonical text (as the envelope's legal actions list it).
    pub action: String,
    /// The game's notation.
    pub notation: String,
    /// The skirmishes it starts, with their odds.
    pub odds: Vec<OddsView>,
}

/// One piece on the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PieceView {
    /// Its square (`e4`).
    pub cell: String,
    /// Its seat: 0 White, 1 Black.
    pub owner: Player,
    /// The catalog's piece id: `K`, `Q`, `R`, `B`, `N`, `P`, as in chess.
    pub piece: &'static str,
    /// The attacks it has made this turn (Advanced: its next is a
    /// sequential attack, at a lower Attack Bonus); left out when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub attacks: u8,
    /// Whether it made this turn's movement (Advanced: it is not "already
    /// in position" and may not skirmish again); left out when not.
    #[serde(skip_serializing_if = "is_false")]
    pub moved: bool,
    /// Whether it is a checking piece the King need not respond to this
    /// turn; left out when not.
    #[serde(skip_serializing_if = "is_false")]
    pub excused: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a viewer sees (everything: Skirmish chess hides nothing). The
/// table's envelope carries the position text, who acts, the legal actions
/// and the outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkirmishView {
    /// `basic` or `advanced`.
    pub mode: Mode,
    /// Every piece on the board, a1 first.
    pub pieces: Vec<PieceView>,
    /// The phase: `act`, `roll`, `choice` (the defender decides), `place`
    /// (a divided skirmish's winner is placed), `tactical` (a Tactical
    /// movement under way) or `over`.
    pub phase: &'static str,
    /// What the game waits for, in words.
    pub waiting_for: String,
    /// The roll about to be made, with its exact odds.
    pub pending: Option<OddsView>,
    /// The legal actions that start skirmishes, with the odds of each.
    pub offers: Vec<OfferView>,
    /// Whether the King of the side whose turn it is stands attacked.
    pub in_check: bool,
    /// The checking pieces the King need not respond to this turn.
    pub excused: Vec<String>,
}

impl Skirmish {
    fn phase_word(&self) -> &'static str {
        match self.phase {
            Phase::Act => "act",
            Phase::Roll(_) => "roll",
            Phase::Choice { .. } => "choice",
            Phase::Place { .. } => "place",
            Phase::Tactical(_) => "tactical",
            Phase::Over(_) => "over",
        }
    }

    fn piece_views(&self) -> Vec<PieceView> {
        self.board
            .iter()
            .map(|(sq, p)| PieceView {
                cell: sq.to_string(),
                owner: seat(p.color),
                piece: role_id(p.role),
                attacks: self.ts.attacks.get(sq),
                moved: self.ts.moved.contains(sq),
                excused: self.ts.excused.contains(sq),
            })
            .collect()
    }
}

impl Game for Skirmish {
    type Action = SkirmishAction;
    type Options = SkirmishOptions;
    type View = SkirmishView;
    type ActionError = ActionError;
    type PositionError = PositionError;

    const ID: GameId = GameId::Skirmish;
    /// The book: "Movement and objectives are as per the usual chess
    /// game", and chess draws by agreement (`docs/rules/skirmish.md`).
    const DRAW_BY_AGREEMENT: bool = true;

    fn new(options: &SkirmishOptions) -> Skirmish {
        Skirmish::from_setup(Setup::start(), *options)
    }

    fn options(&self) -> &SkirmishOptions {
        &self.options
    }

    fn seating(&self) -> Seating {
        Seating::two_players()
    }

    fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::Over(outcome) => ToAct::Over { outcome },
            Phase::Roll(_) => ToAct::Chance,
            Phase::Choice { .. } => ToAct::Player {
                player: Player(!self.turn as u8),
            },
            _ => ToAct::Player {
                player: Player(self.turn as u8),
            },
        }
    }

    fn legal_actions(&self, out: &mut Vec<SkirmishAction>) {
        self.gen_actions(out);
    }

    /// Every dice outcome `roll:A-D` (attacker's total, defender's total)
    /// with its exact probability; a given has the single outcome `given`.
    fn chance(&self) -> ChanceModel<SkirmishAction> {
        let Phase::Roll(p) = self.phase else {
            return ChanceModel::NotChance;
        };
        let odds = self.odds_of_pending(p);
        if odds.given().is_some() {
            return ChanceModel::Exact(vec![(SkirmishAction::Given, Probability::ONE)]);
        }
        ChanceModel::Exact(
            odds.rolls()
                .into_iter()
                .map(|(attacker, defender, p)| (SkirmishAction::Roll { attacker, defender }, p))
                .collect(),
        )
    }

    fn apply(&mut self, action: &SkirmishAction) -> Result<(), ActionError> {
        self.check_legal(action)?;
        self.play(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &SkirmishAction) {
        self.play(action);
    }

    /// Reads the canonical form (`e2e4`, `tac:a1a5:b3`, `roll:5-3`...), the
    /// game notation (`Ng1-f3`, `Nf3xe5/2`, `tac:Ra1-a5:xb3`...), chess SAN
    /// for moves (`Nf3`, `exd5`, `O-O`), and `take` alone when only one
    /// piece can take; checks that the action is legal now.
    fn parse_action(&self, text: &str) -> Result<SkirmishAction, ActionError> {
        if let Phase::Over(o) = self.phase {
            return Err(ActionError::GameOver(self.describe_outcome(&o)));
        }
        let text = text.trim();
        if let Ok(a) = text.parse::<SkirmishAction>() {
            self.check_legal(&a)?;
            return Ok(a);
        }
        let candidates = self.candidates();
        let pseudo = self.pseudo_moves();
        let norm = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).to_owned();
        let wanted = norm(text);
        let mut found: Vec<SkirmishAction> = candidates
            .iter()
            .copied()
            .filter(|a| norm(&self.notation_with(a, &pseudo)) == wanted)
            .collect();
        if found.is_empty() && text == "take" {
            found = candidates
                .iter()
                .copied()
                .filter(|a| matches!(a, SkirmishAction::Take { .. }))
                .collect();
        }
        let mut san_ambiguous = None;
        let mut san_readable = false;
        if found.is_empty() {
            match self.position().parse_san(text) {
                Ok(m) => {
                    san_readable = true;
                    let a = SkirmishAction::Move(UciMove::from(m));
                    if candidates.contains(&a) {
                        found.push(a);
                    }
                }
                Err(SanError::Ambiguous { candidates, .. }) => san_ambiguous = Some(candidates),
                Err(SanError::Illegal { .. }) => san_readable = true,
                Err(_) => {}
            }
        }
        if found.is_empty() {
            let position = self.position();
            // SAN read against the board alone (chess legality may differ).
            found = candidates
                .iter()
                .copied()
                .filter(|a| match a {
                    SkirmishAction::Move(uci) => {
                        let m = interpret_in(&pseudo, *uci);
                        norm(&position.san_without_suffix(m)) == wanted
                    }
                    _ => false,
                })
                .collect();
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => {
                if let Some(candidates) = san_ambiguous {
                    return Err(ActionError::Ambiguous {
                        text: text.to_owned(),
                        candidates,
                    });
                }
                match text.parse::<SkirmishAction>() {
                    Ok(a) => Err(ActionError::Illegal {
                        action: a.to_string(),
                        expected: self.expectation(),
                    }),
                    Err(_) if san_readable || looks_like_notation(text) => {
                        Err(ActionError::Illegal {
                            action: text.to_owned(),
                            expected: self.expectation(),
                        })
                    }
                    Err(e) => Err(ActionError::Syntax(e)),
                }
            }
            _ => Err(ActionError::Ambiguous {
                text: text.to_owned(),
                candidates: found.iter().map(|a| a.to_string()).collect(),
            }),
        }
    }

    /// Long algebraic with piece letters: `e2-e4`, `Ng1-f3`, `Nf3xe5`,
    /// `Ne5xf7/2` (the piece's second attack this turn), `e5xd6ep`,
    /// `e7-e8=Q`, `O-O`; `tac:Ra1-a5:xb3`, `hit:xc4`, `arrive`,
    /// `div:Qd4:xc5,xe5`, `place:e8=Q`, `stay`, `take:Nd5-e4`, `end`,
    /// `roll:5-3`, `given`.
    fn action_notation(&self, action: &SkirmishAction) -> String {
        match *action {
            SkirmishAction::Move(uci) => self.move_notation(self.interpret(uci)),
            _ => self.notation_with(action, &[]),
        }
    }

    fn to_text(&self) -> String {
        crate::text::to_text(self)
    }

    fn from_text(text: &str, options: &SkirmishOptions) -> Result<Skirmish, PositionError> {
        crate::text::from_text(text, options)
    }

    fn view(&self, _viewer: Viewer) -> SkirmishView {
        let mut legal = Vec::new();
        self.gen_actions(&mut legal);
        let pseudo = self.pseudo_moves();
        SkirmishView {
            mode: self.options.mode,
            pieces: self.piece_views(),
            phase: self.phase_word(),
            waiting_for: self.expectation(),
            pending: self.pending_view(),
            offers: legal
                .iter()
                .map(|a| OfferView {
                    action: a.to_string(),
                    notation: self.notation_with(a, &pseudo),
                    odds: self.odds_views(a),
                })
                .filter(|o| !o.odds.is_empty())
                .collect(),
            in_check: self.is_check(),
            excused: self.ts.excused.into_iter().map(|s| s.to_string()).collect(),
        }
    }

    fn key(&self) -> u64 {
        crate::protocol::key(self)
    }

    fn gesture(&self, action: &SkirmishAction) -> Gesture {
        self.gesture_of(action)
    }

    fn holdings(&self, player: Player, _viewer: Viewer) -> Vec<Holding> {
        self.holdings_of(player)
    }

    fn events(&self, action: &SkirmishAction, after: &Skirmish, _viewer: Viewer) -> Vec<Event> {
        self.events_of(action, after)
    }

    fn catalog(options: &SkirmishOptions) -> Catalog {
        crate::protocol::catalog(options)
    }

    fn fault_kind(error: &ActionError) -> FaultKind {
        match error {
            ActionError::Syntax(_) => FaultKind::Unreadable,
            ActionError::GameOver(_) => FaultKind::GameOver,
            ActionError::Illegal { .. } => FaultKind::Illegal,
            ActionError::Ambiguous { .. } => FaultKind::Ambiguous,
        }
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

impl Skirmish {
    /// The game notation of `action`, reading moves against `pseudo` (this
    /// position's pseudo-legal moves).
    fn notation_with(&self, action: &SkirmishAction, pseudo: &[Move]) -> String {
        match *action {
            SkirmishAction::Move(uci) => self.move_notation(interpret_in(pseudo, uci)),
            SkirmishAction::Tactical {
                from,
                to,
                promotion,
                target,
            } => format!(
                "tac:{}{from}-{to}{}:x{target}",
                self.letter(from),
                Self::promo(promotion)
            ),
            SkirmishAction::Hit(t) => format!("hit:x{t}"),
            SkirmishAction::Divided { from, targets } => {
                let list: Vec<String> = targets.into_iter().map(|t| format!("x{t}")).collect();
                format!("div:{}{from}:{}", self.letter(from), list.join(","))
            }
            SkirmishAction::Place { to, promotion } => {
                format!("place:{to}{}", Self::promo(promotion))
            }
            SkirmishAction::Take {
                from,
                to,
                promotion,
            } => format!(
                "take:{}{from}-{to}{}",
                self.letter(from),
                Self::promo(promotion)
            ),
            SkirmishAction::Stay
            | SkirmishAction::Arrive
            | SkirmishAction::End
            | SkirmishAction::Roll { .. }
            | SkirmishAction::Given => action.to_string(),
        }
    }
}
