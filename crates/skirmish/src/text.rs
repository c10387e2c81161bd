//! The position text: a FEN followed by the skirmish state.
//!
//! Ten space-separated fields:
//!
//! 1–6. The FEN of the board: placement, whose turn (`w`/`b`), castling,
//!      the en-passant square usable this turn, the no-progress count (in
//!      turns), the move number.
//! 7.   Options: `-` for the defaults, else the non-default `key=value`
//!      pairs, comma-separated (`mode=advanced,attack-bonus=2`).
//! 8.   Phase: `act`; `roll:capture:UCI`; `roll:tactical:UCI:AT:TARGET`;
//!      `roll:divided:FROM:T1,T2+,T3-` (`+` won, `-` lost, bare: to roll);
//!      `roll:check:SQUARES`; `roll:mate:SQUARES`; `choice:SQUARE:DEFENDERS`;
//!      `place:FROM:SQUARES`; `tactical:UCI:AT`; `over:w|b|draw:REASON`.
//! 9.   This turn so far: `-` or comma-separated `acted`, `movement`,
//!      `progress`, `moved:SQ`, `att:SQ:N`, `ep:SQ` (the en-passant square
//!      this turn leaves the opponent), `ex:SQ` (an excused checker),
//!      `start:KEY` (the repetition key of this turn's start, when the board
//!      has changed since without progress).
//! 10.  Repetition keys (16 hex digits) of the earlier turn starts since the
//!      last progress, oldest first, comma-separated, or `-`.
//!
//! A bare FEN (4 to 6 fields) is also read: the start of the turn of the
//! side to move, under the options given.

use std::fmt::{self, Write as _};

use tabula_chess::{Bitboard, CastlingSide, Color, Move, Rank, Role, Setup, Square, UciMove};
use tabula_core::{EndReason, Options, Outcome, Team};

use crate::action::{parse_square, parse_squares, write_squares};
use crate::options::{Mode, SkirmishOptions};
use crate::state::{Pending, Phase, Skirmish, TacticalMove, TurnState, path};

/// A field of the position text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The text as a whole (wrong number of fields).
    Whole,
    /// Fields 1–6: the FEN.
    Fen,
    /// Field 1, as a position: kings, pawns.
    Placement,
    /// Field 3, as a position.
    Castling,
    /// Field 4, as a position.
    EnPassant,
    /// Field 7: options.
    Options,
    /// Field 8: the phase.
    Phase,
    /// Field 9: this turn so far.
    Turn,
    /// Field 10: repetition keys.
    History,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Whole => "text",
            Field::Fen => "FEN (fields 1-6)",
            Field::Placement => "placement (field 1)",
            Field::Castling => "castling (field 3)",
            Field::EnPassant => "en passant (field 4)",
            Field::Options => "options (field 7)",
            Field::Phase => "phase (field 8)",
            Field::Turn => "turn (field 9)",
            Field::History => "history (field 10)",
        })
    }
}

/// A position text that cannot be read, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad Skirmish chess position, {field}: '{value}': {reason}")]
pub struct PositionError {
    /// The field at fault.
    pub field: Field,
    /// Its text (or the part at fault).
    pub value: String,
    /// What is wrong.
    pub reason: String,
}

fn err(field: Field, value: &str, reason: impl Into<String>) -> PositionError {
    PositionError {
        field,
        value: value.to_owned(),
        reason: reason.into(),
    }
}

fn uci_of(m: Move) -> UciMove {
    UciMove::from(m)
}

fn write_phase(out: &mut String, phase: Phase) -> fmt::Result {
    match phase {
        Phase::Act => out.write_str("act"),
        Phase::Roll(p) => {
            out.write_str("roll:")?;
            match p {
                Pending::Capture(m) => write!(out, "capture:{}", uci_of(m)),
                Pending::Tactical {
                    tactical: t,
                    target,
                } => write!(out, "tactical:{}:{}:{target}", tactical_uci(t), t.at),
                Pending::Divided {
                    from,
                    targets,
                    won,
                    lost,
                } => {
                    write!(out, "divided:{from}:")?;
                    for (i, t) in targets.into_iter().enumerate() {
                        if i > 0 {
                            out.write_char(',')?;
                        }
                        write!(out, "{t}")?;
                        if won.contains(t) {
                            out.write_char('+')?;
                        } else if lost.contains(t) {
                            out.write_char('-')?;
                        }
                    }
                    Ok(())
                }
                Pending::Check(c) => {
                    out.write_str("check:")?;
                    write_squares(out, c)
                }
                Pending::Mate(c) => {
                    out.write_str("mate:")?;
                    write_squares(out, c)
                }
            }
        }
        Phase::Choice { square, defenders } => {
            write!(out, "choice:{square}:")?;
            write_squares(out, defenders)
        }
        Phase::Place { from, squares } => {
            write!(out, "place:{from}:")?;
            write_squares(out, squares)
        }
        Phase::Tactical(t) => write!(out, "tactical:{}:{}", tactical_uci(t), t.at),
        Phase::Over(o) => {
            let who = match o.winner {
                Some(Team(0)) => "w",
                Some(_) => "b",
                None => "draw",
            };
            write!(out, "over:{who}:{}", o.reason.id())
        }
    }
}

fn tactical_uci(t: TacticalMove) -> UciMove {
    UciMove {
        from: t.from,
        to: t.to,
        promotion: t.promotion,
    }
}

/// Whether the repetition key of this turn's start must be written: the
/// board has changed since (a movement) and no progress wiped the history.
fn needs_start(game: &Skirmish) -> bool {
    !game.ts.progress && game.ts.movement
}

pub(crate) fn to_text(game: &Skirmish) -> String {
    let mut out = game.setup().to_fen();
    out.push(' ');
    let pairs = game.options.to_pairs();
    if pairs.is_empty() {
        out.push('-');
    } else {
        let list: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&list.join(","));
    }
    out.push(' ');
    let _ = write_phase(&mut out, game.phase);
    out.push(' ');
    let ts = &game.ts;
    let mut tokens: Vec<String> = Vec::new();
    if ts.acted {
        tokens.push("acted".into());
    }
    if ts.movement {
        tokens.push("movement".into());
    }
    if ts.progress {
        tokens.push("progress".into());
    }
    tokens.extend(ts.moved.into_iter().map(|s| format!("moved:{s}")));
    tokens.extend(ts.attacks.iter().map(|(s, n)| format!("att:{s}:{n}")));
    if let Some(ep) = ts.new_ep {
        tokens.push(format!("ep:{ep}"));
    }
    tokens.extend(ts.excused.into_iter().map(|s| format!("ex:{s}")));
    let earlier: &[u64] = if ts.progress || game.history.is_empty() {
        &[]
    } else {
        &game.history[..game.history.len() - 1]
    };
    if needs_start(game)
        && let Some(h) = game.history.last()
    {
        tokens.push(format!("start:{h:016x}"));
    }
    if tokens.is_empty() {
        out.push('-');
    } else {
        out.push_str(&tokens.join(","));
    }
    out.push(' ');
    if earlier.is_empty() {
        out.push('-');
    } else {
        let list: Vec<String> = earlier.iter().map(|h| format!("{h:016x}")).collect();
        out.push_str(&list.join(","));
    }
    out
}

fn parse_key(s: &str) -> Option<u64> {
    (s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(s, 16).ok())
        .flatten()
}

fn validate_board(setup: &Setup, over: bool, fen: &str) -> Result<(), PositionError> {
    let b = &setup.board;
    if !over {
        for color in Color::ALL {
            let n = b.pieces(color, Role::King).count();
            if n != 1 {
                return Err(err(
                    Field::Placement,
                    fen,
                    format!("{color} has {n} kings; a game in progress has exactly one each"),
                ));
            }
        }
    }
    for color in Color::ALL {
        let last = Bitboard::from_rank(Rank::Eighth.relative_to(color));
        if let Some(sq) = (b.pieces(color, Role::Pawn) & last).first() {
            return Err(err(
                Field::Placement,
                fen,
                format!("a {color} pawn stands on {sq}, its last rank (it would have promoted)"),
            ));
        }
    }
    for (right, color, side) in [
        ('K', Color::White, CastlingSide::KingSide),
        ('Q', Color::White, CastlingSide::QueenSide),
        ('k', Color::Black, CastlingSide::KingSide),
        ('q', Color::Black, CastlingSide::QueenSide),
    ] {
        let king = CastlingSide::king_from(color);
        let rook = side.rook_from(color);
        if setup.castling.has(color, side)
            && !(b.pieces(color, Role::King).contains(king)
                && b.pieces(color, Role::Rook).contains(rook))
        {
            return Err(err(
                Field::Castling,
                &setup.castling.to_string(),
                format!("right {right} needs the King on {king} and a Rook on {rook}"),
            ));
        }
    }
    if let Some(ep) = setup.ep_square
        && ep.rank() != Rank::Sixth.relative_to(setup.turn)
    {
        return Err(err(
            Field::EnPassant,
            &ep.to_string(),
            "the en-passant square must be on the sixth rank of the side to move",
        ));
    }
    Ok(())
}

struct Parsed {
    phase: Phase,
}

fn parse_phase(game: &Skirmish, s: &str) -> Result<Parsed, PositionError> {
    let bad = |reason: &str| err(Field::Phase, s, reason);
    let us = game.turn;
    let them = !us;
    let b = &game.board;
    let advanced_only = || {
        if game.options.mode == Mode::Advanced {
            Ok(())
        } else {
            Err(bad("only the Advanced game has this phase"))
        }
    };
    let ours = |sq: Square| b.by_color(us).contains(sq);
    let theirs = |sq: Square| b.by_color(them).contains(sq) && !b.kings().contains(sq);
    let parts: Vec<&str> = s.split(':').collect();
    let tactical = |uci: &str, at: &str| -> Result<TacticalMove, PositionError> {
        let m: UciMove = uci.parse().map_err(|_| bad("expected a UCI movement"))?;
        if m.to_string() != uci {
            return Err(bad("expected a UCI movement"));
        }
        let at: u8 = at.parse().map_err(|_| bad("expected the path index"))?;
        let t = TacticalMove {
            from: m.from,
            to: m.to,
            promotion: m.promotion,
            at,
        };
        if !ours(t.from) {
            return Err(bad("the moving piece is not on its square"));
        }
        if at as usize >= path(t.from, t.to).len() {
            return Err(bad("the path index is past the path"));
        }
        let legal_dest = t.from == t.to
            || game.pseudo_moves().into_iter().any(|mv| {
                mv == Move::Normal {
                    from: t.from,
                    to: t.to,
                    promotion: t.promotion,
                } && !b.occupied().contains(t.to)
            });
        if !legal_dest || (t.from == t.to && t.promotion.is_some()) {
            return Err(bad("not a movement the piece can make"));
        }
        Ok(t)
    };
    let squares =
        |text: &str| parse_squares(text).ok_or_else(|| bad("expected squares like c5,e5"));
    let square = |text: &str| parse_square(text).ok_or_else(|| bad("expected a square"));
    let phase = match parts.as_slice() {
        ["act"] => Phase::Act,
        ["roll", "capture", uci] => {
            let m: UciMove = uci.parse().map_err(|_| bad("expected a UCI capture"))?;
            let mv = game.interpret(m);
            let ok = game.pseudo_moves().contains(&mv)
                && game.is_capture(mv)
                && UciMove::from(mv).to_string() == *uci;
            if !ok {
                return Err(bad("not a capture the piece can attempt here"));
            }
            Phase::Roll(Pending::Capture(mv))
        }
        ["roll", "tactical", uci, at, target] => {
            advanced_only()?;
            let tactical = tactical(uci, at)?;
            let target = square(target)?;
            if !theirs(target) {
                return Err(bad("the target is not an enemy piece"));
            }
            Phase::Roll(Pending::Tactical { tactical, target })
        }
        ["roll", "divided", from, list] => {
            advanced_only()?;
            let from = square(from)?;
            if !ours(from) {
                return Err(bad("the attacking piece is not on its square"));
            }
            let (mut targets, mut won, mut lost) =
                (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
            for item in list.split(',') {
                let (sq, mark) = match item.strip_suffix('+') {
                    Some(sq) => (sq, 1),
                    None => match item.strip_suffix('-') {
                        Some(sq) => (sq, 2),
                        None => (item, 0),
                    },
                };
                let sq = square(sq)?;
                if targets.contains(sq) {
                    return Err(bad("a target is listed twice"));
                }
                targets = targets.with(sq);
                match mark {
                    1 => won = won.with(sq),
                    2 => lost = lost.with(sq),
                    _ => {}
                }
            }
            let pending = targets & !won & !lost;
            if targets.count() < 2 || pending.is_empty() {
                return Err(bad(
                    "a divided skirmish has two or more targets, one still to roll",
                ));
            }
            if !(pending | lost).into_iter().all(theirs) || (won & b.occupied()).any() {
                return Err(bad(
                    "targets to roll (and lost ones) must be enemy pieces, won squares empty",
                ));
            }
            Phase::Roll(Pending::Divided {
                from,
                targets,
                won,
                lost,
            })
        }
        ["roll", kind @ ("check" | "mate"), list] => {
            let c = squares(list)?;
            let king = b.king_of(us);
            let all = king.map_or(Bitboard::EMPTY, |k| b.attackers_to(k, them, b.occupied()));
            if c != all {
                return Err(bad(
                    "the checkers must be exactly the pieces attacking the King",
                ));
            }
            if *kind == "check" {
                Phase::Roll(Pending::Check(c))
            } else {
                Phase::Roll(Pending::Mate(c))
            }
        }
        ["choice", sq, list] => {
            let square = square(sq)?;
            let defenders = squares(list)?;
            if b.occupied().contains(square) || !defenders.into_iter().all(theirs) {
                return Err(bad(
                    "the square must be empty and the defenders enemy pieces",
                ));
            }
            Phase::Choice { square, defenders }
        }
        ["place", from, list] => {
            advanced_only()?;
            let from = square(from)?;
            let squares = squares(list)?;
            if !ours(from) || (squares & b.occupied()).any() {
                return Err(bad(
                    "the piece must stand on its square and the won squares be empty",
                ));
            }
            Phase::Place { from, squares }
        }
        ["tactical", uci, at] => {
            advanced_only()?;
            Phase::Tactical(tactical(uci, at)?)
        }
        ["over", who, reason] => {
            let winner = match *who {
                "w" => Some(Team(0)),
                "b" => Some(Team(1)),
                "draw" => None,
                _ => return Err(bad("expected over:w|b|draw:REASON")),
            };
            let reason = EndReason::from_id(reason).ok_or_else(|| bad("unknown end reason"))?;
            Phase::Over(Outcome { winner, reason })
        }
        _ => {
            return Err(bad(
                "expected act, roll:..., choice:..., place:..., tactical:... or over:...",
            ));
        }
    };
    Ok(Parsed { phase })
}

fn parse_turn(s: &str) -> Result<(TurnState, Option<u64>), PositionError> {
    let mut ts = TurnState::default();
    let mut start = None;
    if s == "-" {
        return Ok((ts, start));
    }
    for token in s.split(',') {
        let bad = || {
            err(
                Field::Turn,
                token,
                "expected acted, movement, progress, moved:SQ, att:SQ:N, ep:SQ, ex:SQ or start:KEY",
            )
        };
        let parts: Vec<&str> = token.split(':').collect();
        match parts.as_slice() {
            ["acted"] => ts.acted = true,
            ["movement"] => ts.movement = true,
            ["progress"] => ts.progress = true,
            ["moved", sq] => ts.moved = ts.moved.with(parse_square(sq).ok_or_else(bad)?),
            ["att", sq, n] => {
                let sq = parse_square(sq).ok_or_else(bad)?;
                let n: u8 = n.parse().map_err(|_| bad())?;
                if n == 0 {
                    return Err(bad());
                }
                ts.attacks.set(sq, n);
            }
            ["ep", sq] => ts.new_ep = Some(parse_square(sq).ok_or_else(bad)?),
            ["ex", sq] => ts.excused = ts.excused.with(parse_square(sq).ok_or_else(bad)?),
            ["start", key] => start = Some(parse_key(key).ok_or_else(bad)?),
            _ => return Err(bad()),
        }
    }
    Ok((ts, start))
}

pub(crate) fn from_text(text: &str, options: &SkirmishOptions) -> Result<Skirmish, PositionError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    match fields.len() {
        4..=6 => {
            let setup = Setup::from_fen(text).map_err(|e| err(Field::Fen, text, e.to_string()))?;
            validate_board(&setup, false, fields[0])?;
            Ok(Skirmish::from_setup(setup, *options))
        }
        10 => from_full(&fields, options),
        n => Err(err(
            Field::Whole,
            text,
            format!("{n} fields; expected 10 (FEN, options, phase, turn, history) or a bare FEN"),
        )),
    }
}

fn from_full(fields: &[&str], given: &SkirmishOptions) -> Result<Skirmish, PositionError> {
    let fen = fields[..6].join(" ");
    let setup = Setup::from_fen(&fen).map_err(|e| err(Field::Fen, &fen, e.to_string()))?;
    // Options: the text's rule; the options passed must be the default
    // (take them from the text) or the same.
    let mut options = SkirmishOptions::default();
    if fields[6] != "-" {
        for pair in fields[6].split(',') {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| err(Field::Options, pair, "expected key=value"))?;
            options
                .set(k, v)
                .map_err(|e| err(Field::Options, pair, e.to_string()))?;
        }
    }
    if *given != SkirmishOptions::default() && *given != options {
        return Err(err(
            Field::Options,
            fields[6],
            format!(
                "the text is for other options than those given ({})",
                given
                    .to_pairs()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ));
    }
    let over = fields[7].starts_with("over:");
    validate_board(&setup, over, fields[0])?;
    let (ts, start) = parse_turn(fields[8])?;
    let mut game = Skirmish {
        options,
        board: setup.board,
        turn: setup.turn,
        castling: setup.castling,
        ep: setup.ep_square,
        halfmove: setup.halfmove_clock,
        fullmove: setup.fullmove_number,
        phase: Phase::Act,
        ts,
        history: Vec::new(),
    };
    if let Some(ep) = ts.new_ep
        && ep.rank() != Rank::Third.relative_to(game.turn)
    {
        return Err(err(
            Field::Turn,
            &ep.to_string(),
            "a double step of the side to move passes its third rank",
        ));
    }
    game.phase = parse_phase(&game, fields[7])?.phase;
    let earlier: Vec<u64> = if fields[9] == "-" {
        Vec::new()
    } else {
        fields[9]
            .split(',')
            .map(|k| parse_key(k).ok_or_else(|| err(Field::History, k, "expected 16 hex digits")))
            .collect::<Result<_, _>>()?
    };
    if ts.progress {
        if !earlier.is_empty() || start.is_some() {
            return Err(err(
                Field::History,
                fields[9],
                "after progress this turn the repetition history is empty",
            ));
        }
    } else {
        if start.is_some() != ts.movement {
            return Err(err(
                Field::Turn,
                fields[8],
                "start:KEY is written exactly when a movement was made without progress",
            ));
        }
        game.history = earlier;
        game.history
            .push(start.unwrap_or_else(|| game.repetition_key()));
    }
    Ok(game)
}
