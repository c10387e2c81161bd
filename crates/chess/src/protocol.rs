//! Chess's side of the table protocol: the JSON action form, gestures,
//! events, holdings and the catalog. [`crate::Chess`]'s `Game` impl
//! delegates here so that `game.rs` keeps to the rules.

use serde::{Deserialize, Serialize};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, Holding, PieceKind, Place,
};
use tabula_core::{EndReason, Game, GameId, Outcome, Player};

use crate::{
    CastlingSide, Chess, ChessAction, Color, Move, Piece, Position, Role, Square, UciMove,
};

/// The rule book's name of a role, capitalised as the sentences write it.
pub(crate) const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "Pawn",
        Role::Knight => "Knight",
        Role::Bishop => "Bishop",
        Role::Rook => "Rook",
        Role::Queen => "Queen",
        Role::King => "King",
    }
}

/// The catalog id of a role: its upper-case letter (`K`, `Q`... `P`).
pub(crate) fn role_id(role: Role) -> String {
    role.upper_char().to_string()
}

/// The conventional value in pawns; the King has none.
const fn role_value(role: Role) -> Option<u32> {
    match role {
        Role::Pawn => Some(1),
        Role::Knight | Role::Bishop => Some(3),
        Role::Rook => Some(5),
        Role::Queen => Some(9),
        Role::King => None,
    }
}

/// Seat of a colour: White sits first.
pub(crate) const fn seat(color: Color) -> Player {
    Player(color as u8)
}

pub(crate) const fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

const fn side_word(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

// ---------------------------------------------------------------- JSON form

/// The wire shape of [`ChessAction`]; see its doc comment for the table.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum ActionJson {
    Move {
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
    },
    // A struct variant, so that `deny_unknown_fields` refuses extra fields.
    ClaimDraw {},
}

/// Why a JSON action object is not a chess action (a serde error message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ActionJsonError {
    #[error("{0:?} is not a square (expected a file a-h and a rank 1-8, like \"e4\")")]
    Square(String),
    #[error("{0:?} is not a promotion piece (expected \"q\", \"r\", \"b\" or \"n\")")]
    Promotion(String),
}

fn square(text: &str) -> Result<Square, ActionJsonError> {
    // Only the lower-case spelling the notation writes, so one action has one JSON form.
    if text.len() == 2
        && text.bytes().all(|b| !b.is_ascii_uppercase())
        && let Ok(sq) = text.parse::<Square>()
    {
        return Ok(sq);
    }
    Err(ActionJsonError::Square(text.to_owned()))
}

fn promotion(text: &str) -> Result<Role, ActionJsonError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Role::from_char(c.to_ascii_lowercase())
            .filter(|r| r.is_promotion_target())
            .ok_or_else(|| ActionJsonError::Promotion(text.to_owned())),
        _ => Err(ActionJsonError::Promotion(text.to_owned())),
    }
}

impl TryFrom<ActionJson> for ChessAction {
    type Error = ActionJsonError;
    fn try_from(json: ActionJson) -> Result<ChessAction, ActionJsonError> {
        match json {
            ActionJson::ClaimDraw {} => Ok(ChessAction::ClaimDraw),
            ActionJson::Move {
                from,
                to,
                promotion: promo,
            } => Ok(ChessAction::Move(UciMove {
                from: square(&from)?,
                to: square(&to)?,
                promotion: promo.as_deref().map(promotion).transpose()?,
            })),
        }
    }
}

impl From<ChessAction> for ActionJson {
    fn from(action: ChessAction) -> ActionJson {
        match action {
            ChessAction::ClaimDraw => ActionJson::ClaimDraw {},
            ChessAction::Move(m) => ActionJson::Move {
                from: m.from.to_string(),
                to: m.to.to_string(),
                promotion: m.promotion.map(|r| r.char().to_string()),
            },
        }
    }
}

// ---------------------------------------------------------------- gestures

/// The label of the claim button.
const CLAIM_LABEL: &str = "Claim a draw";

pub(crate) fn gesture(pos: &Position, action: &ChessAction) -> Gesture {
    let uci = match action {
        ChessAction::ClaimDraw => {
            return Gesture::button(GestureKind::Claim, crate::CLAIM_DRAW, CLAIM_LABEL);
        }
        ChessAction::Move(uci) => uci,
    };
    match uci.interpret(pos) {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_squares(king, rook);
            let us = pos.turn();
            Gesture::to(GestureKind::Castle, Place::cell(king), side.king_to(us))
                .touching([rook, side.rook_to(us)])
        }
        Move::EnPassant { from, to } => {
            Gesture::to(GestureKind::Capture, Place::cell(from), to).touching([ep_victim(from, to)])
        }
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            let kind = if pos.board().occupied().contains(to) {
                GestureKind::Capture
            } else {
                GestureKind::Move
            };
            let g = Gesture::to(kind, Place::cell(from), to);
            match promotion {
                Some(role) => g.choosing(role.char().to_string(), role_name(role)),
                None => g,
            }
        }
    }
}

/// The square of the pawn an en-passant capture from `from` to `to` takes.
fn ep_victim(from: Square, to: Square) -> Square {
    Square::from_coords(to.file(), from.rank())
}

// ---------------------------------------------------------------- events

fn owned(color: Color, role: Role) -> String {
    format!("{}'s {}", color_name(color), role_name(role))
}

pub(crate) fn events(before: &Chess, action: &ChessAction, after: &Chess) -> Vec<Event> {
    let pos = before.position();
    let us = pos.turn();
    let mut out = Vec::new();
    match action {
        ChessAction::ClaimDraw => {
            let mut rules = Vec::new();
            let mut words = Vec::new();
            if before.repetitions() >= 3 {
                rules.push(EndReason::Repetition.id());
                words.push("threefold repetition");
            }
            if pos.halfmove_clock() >= 100 {
                rules.push(EndReason::NoProgress.id());
                words.push("the fifty-move rule");
            }
            let text = if words.is_empty() {
                format!("{} claims a draw", color_name(us))
            } else {
                format!(
                    "{} claims a draw by {}",
                    color_name(us),
                    words.join(" and ")
                )
            };
            out.push(
                Event::new(EventKind::End, text)
                    .by(seat(us))
                    .with("reason", EndReason::DrawClaimed.id())
                    .with("winner", serde_json::Value::Null)
                    .with("rules", rules),
            );
            return out;
        }
        ChessAction::Move(uci) => out.extend(move_events(pos, uci.interpret(pos))),
    }
    let next = after.position();
    if let Some(outcome) = after.outcome() {
        out.push(end_event(next, &outcome, after));
    } else if next.is_check() {
        out.push(check_event(next));
    }
    out
}

/// The move itself: a move, a capture or castling, then a promotion.
fn move_events(pos: &Position, m: Move) -> Vec<Event> {
    let us = pos.turn();
    let board = pos.board();
    let from = m.from();
    let Some(piece) = board.piece_at(from) else {
        // Not a move of this position (events are only asked of legal ones).
        return vec![Event::new(EventKind::Move, m.to_string()).by(seat(us))];
    };
    let mut out = Vec::new();
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_squares(king, rook);
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            out.push(
                Event::new(
                    EventKind::Castle,
                    format!("{} castles {}", color_name(us), side_word(side)),
                )
                .by(seat(us))
                .at([king, king_to, rook, rook_to])
                .with("side", side_word(side))
                .with("king_from", king.to_string())
                .with("king_to", king_to.to_string())
                .with("rook_from", rook.to_string())
                .with("rook_to", rook_to.to_string()),
            );
        }
        Move::EnPassant { from, to } => {
            let victim = ep_victim(from, to);
            out.push(
                Event::new(
                    EventKind::Capture,
                    format!(
                        "{} takes the Pawn on {victim} en passant and lands on {to}",
                        owned(us, Role::Pawn)
                    ),
                )
                .by(seat(us))
                .at([from, to, victim])
                .with("piece", role_id(Role::Pawn))
                .with("from", from.to_string())
                .with("to", to.to_string())
                .with("captured", role_id(Role::Pawn))
                .with("captured_on", victim.to_string())
                .with("captured_owner", seat(!us).0)
                .with("en_passant", true),
            );
        }
        Move::Normal { to, promotion, .. } => {
            let mover = owned(us, piece.role);
            let event = match board.piece_at(to) {
                Some(Piece {
                    role: captured,
                    color: owner,
                }) => Event::new(
                    EventKind::Capture,
                    format!("{mover} takes the {} on {to}", role_name(captured)),
                )
                .by(seat(us))
                .at([from, to])
                .with("piece", role_id(piece.role))
                .with("from", from.to_string())
                .with("to", to.to_string())
                .with("captured", role_id(captured))
                .with("captured_on", to.to_string())
                .with("captured_owner", seat(owner).0),
                None => Event::new(EventKind::Move, format!("{mover} from {from} to {to}"))
                    .by(seat(us))
                    .at([from, to])
                    .with("piece", role_id(piece.role))
                    .with("from", from.to_string())
                    .with("to", to.to_string()),
            };
            out.push(event);
            if let Some(role) = promotion {
                out.push(
                    Event::new(
                        EventKind::Promote,
                        format!("{mover} promotes to a {} on {to}", role_name(role)),
                    )
                    .by(seat(us))
                    .at([to])
                    .with("piece", role_id(piece.role))
                    .with("promotion", role_id(role))
                    .with("on", to.to_string()),
                );
            }
        }
    }
    out
}

/// Check on the side now to move: the event's `player` is the side in
/// check, `checkers` the squares of the pieces giving it.
fn check_event(next: &Position) -> Event {
    let checked = next.turn();
    let checkers: Vec<String> = next.checkers().into_iter().map(|s| s.to_string()).collect();
    let mut event = Event::new(EventKind::Check, "Check")
        .by(seat(checked))
        .with("checkers", checkers);
    if let Some(king) = next.our_king() {
        event = event.at([king]).with("king", king.to_string());
    }
    event
}

/// The end of the game, in chess's words.
fn end_event(next: &Position, outcome: &Outcome, after: &Chess) -> Event {
    let fide = after.options().draw_rules == crate::DrawRules::Fide;
    let winner = outcome.winner.map(|t| Player(t.0));
    let text = match (outcome.reason, winner) {
        (EndReason::Checkmate, Some(w)) => {
            format!("Checkmate: {} wins", color_name(color_of(w)))
        }
        (EndReason::Stalemate, _) => format!(
            "Draw by stalemate: {} has no legal move and is not in check",
            color_name(next.turn())
        ),
        (EndReason::Repetition, _) => format!(
            "Draw by {} repetition",
            if fide { "fivefold" } else { "threefold" }
        ),
        (EndReason::NoProgress, _) => format!(
            "Draw by the {} rule",
            if fide {
                "seventy-five-move"
            } else {
                "fifty-move"
            }
        ),
        (EndReason::InsufficientMaterial, _) => {
            "Draw: neither side can checkmate (insufficient material)".to_owned()
        }
        _ => after.describe_outcome(outcome),
    };
    let mut event = Event::new(EventKind::End, text)
        .with("reason", outcome.reason.id())
        .with("winner", outcome.winner.map(|t| t.0));
    if let Some(w) = winner {
        event = event.by(w);
    }
    if outcome.reason == EndReason::Checkmate
        && let Some(king) = next.our_king()
    {
        event = event.at([king]).with("king", king.to_string());
    }
    event
}

const fn color_of(player: Player) -> Color {
    if player.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

// ---------------------------------------------------------------- holdings

/// The pieces of `color`'s opponent missing from the opponent's starting
/// set, most valuable first: what `color` has captured, reckoned from the
/// board (a promoted piece beyond the starting count stands for a pawn that
/// left the board by promoting, not by capture).
pub(crate) fn captured_by(pos: &Position, color: Color) -> Vec<String> {
    let them = !color;
    let board = pos.board();
    let count = |role: Role| board.pieces(them, role).count();
    let start = |role: Role| match role {
        Role::Pawn => 8,
        Role::Knight | Role::Bishop | Role::Rook => 2,
        Role::Queen | Role::King => 1,
    };
    let promoted: u32 = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        .into_iter()
        .map(|r| count(r).saturating_sub(start(r)))
        .sum();
    let mut out = Vec::new();
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        for _ in count(role)..start(role) {
            out.push(role_id(role));
        }
    }
    let pawns_gone = start(Role::Pawn).saturating_sub(count(Role::Pawn));
    for _ in 0..pawns_gone.saturating_sub(promoted) {
        out.push(role_id(Role::Pawn));
    }
    out
}

pub(crate) fn holdings(pos: &Position, player: Player) -> Vec<Holding> {
    let color = color_of(player);
    if player.0 > 1 {
        return Vec::new();
    }
    vec![Holding::new(
        "captured",
        "Captured",
        captured_by(pos, color),
    )]
}

// ---------------------------------------------------------------- catalog

pub(crate) fn catalog() -> Catalog {
    let pieces = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .map(|role| PieceKind {
        id: role_id(role),
        name: role_name(role).to_owned(),
        letter: role_id(role),
        stats: match role_value(role) {
            Some(v) => serde_json::json!({ "value": v }),
            None => serde_json::Value::Null,
        },
    })
    .collect();
    Catalog {
        game: GameId::Chess,
        title: GameId::Chess.title().to_owned(),
        board: BoardShape::squares(8, 8),
        pieces,
        extra: serde_json::Value::Null,
    }
}
