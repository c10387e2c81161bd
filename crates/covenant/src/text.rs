//! The one-line position text.
//!
//! ```text
//! <scenario> <side> <round> <quiet>[*] <gold>/<blue> <active> <convert> <pieces>
//! crossroads g 1 0 3/4 - - gAr@c1,gHe@d1,gMi@d2,...
//! ```
//!
//! The fields are described in `docs/rules/covenant.md`.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use thiserror::Error;

use crate::data::{Kind, PieceTable};
use crate::hex::Hex;
use crate::options::CovenantOptions;
use crate::scenario::{Scenario, ScenarioId};
use crate::side::Side;
use crate::state::{Active, Covenant, MAX_GRAILS, Piece};

/// The fields of the position text, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// 1: the scenario id.
    Scenario,
    /// 2: the side to move, `g` or `b`.
    Side,
    /// 3: the round, from 1.
    Round,
    /// 4: complete rounds without a capture, `*` if a piece fell this round.
    Quiet,
    /// 5: Grails, `gold/blue`.
    Grails,
    /// 6: the active piece `hex:mp:tiles`, or `-`.
    Active,
    /// 7: the foe the active Apostle may convert, `Code@hex`, or `-`.
    Convert,
    /// 8: the pieces, comma-separated.
    Pieces,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Scenario => "scenario",
            Field::Side => "side to move",
            Field::Round => "round",
            Field::Quiet => "no-capture count",
            Field::Grails => "Grails",
            Field::Active => "active piece",
            Field::Convert => "pending conversion",
            Field::Pieces => "pieces",
        })
    }
}

/// Why a position text is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Not 8 fields.
    #[error("a position text has 8 space-separated fields, found {found}")]
    FieldCount {
        /// How many were given.
        found: usize,
    },
    /// One field is malformed or impossible.
    #[error("bad {field} '{value}': {reason}")]
    BadField {
        /// Which field.
        field: Field,
        /// The field's text (for pieces: the one piece at fault).
        value: String,
        /// What is wrong.
        reason: String,
    },
}

fn bad(field: Field, value: &str, reason: impl Into<String>) -> PositionError {
    PositionError::BadField {
        field,
        value: value.to_owned(),
        reason: reason.into(),
    }
}

fn write_piece(out: &mut String, p: &Piece) {
    let t = PieceTable::builtin().get(p.kind);
    let _ = write!(out, "{}{}@{}", p.side.letter(), t.code, p.at);
    if p.blood != t.blood {
        let _ = write!(out, "={}", p.blood);
    }
    if p.acts > 0 || p.extra || p.healed || p.countered || p.idle {
        out.push(':');
        if p.acts > 0 {
            let _ = write!(out, "{}", p.acts);
        }
        for (on, c) in [
            (p.extra, 'x'),
            (p.healed, 'h'),
            (p.countered, 'c'),
            (p.idle, 'i'),
        ] {
            if on {
                out.push(c);
            }
        }
    }
}

/// Writes the position text.
pub fn write_text(game: &Covenant) -> String {
    let mut out = String::with_capacity(32 + game.pieces.len() * 10);
    let _ = write!(
        out,
        "{} {} {} {}{} {}/{} ",
        game.scenario.id,
        game.side.letter(),
        game.round,
        game.quiet,
        if game.captured { "*" } else { "" },
        game.grails[0],
        game.grails[1],
    );
    match game.active {
        Some(a) => {
            let _ = write!(out, "{}:{}:{}", a.at, a.mp, a.tiles);
        }
        None => out.push('-'),
    }
    out.push(' ');
    match game.convertible {
        Some((kind, at)) => {
            let _ = write!(out, "{kind}@{at}");
        }
        None => out.push('-'),
    }
    out.push(' ');
    for (i, p) in game.pieces.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_piece(&mut out, p);
    }
    out
}

fn number<T: std::str::FromStr>(field: Field, text: &str, what: &str) -> Result<T, PositionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(field, text, format!("{what} is not a number")));
    }
    text.parse()
        .map_err(|_| bad(field, text, format!("{what} is out of range")))
}

fn kind(field: Field, token: &str, code: &str) -> Result<Kind, PositionError> {
    let table = PieceTable::builtin();
    table
        .kinds()
        .find(|&k| table.get(k).code == code)
        .ok_or_else(|| bad(field, token, format!("no piece has the code '{code}'")))
}

fn parse_piece(token: &str, scenario: &Scenario) -> Result<Piece, PositionError> {
    let f = Field::Pieces;
    let err = |reason: String| bad(f, token, reason);
    let mut chars = token.chars();
    let side = match chars.next() {
        Some('g') => Side::Gold,
        Some('b') => Side::Blue,
        _ => return Err(err("a piece starts with g (Gold) or b (Blue)".to_owned())),
    };
    let rest = chars.as_str();
    let (code, rest) = rest
        .split_once('@')
        .ok_or_else(|| err("expected <g|b><Code>@<hex>".to_owned()))?;
    let kind = kind(f, token, code)?;
    let t = PieceTable::builtin().get(kind);
    let (place, flags) = match rest.split_once(':') {
        Some((p, fl)) => (p, Some(fl)),
        None => (rest, None),
    };
    let (hex_text, blood) = match place.split_once('=') {
        Some((h, b)) => (
            h,
            number::<u8>(f, b, "Blood").map_err(|_| err(format!("Blood '{b}' is not a number")))?,
        ),
        None => (place, t.blood),
    };
    let at: Hex = hex_text
        .parse()
        .map_err(|e: crate::hex::BadHex| err(e.to_string()))?;
    if !scenario.contains(at) {
        return Err(err(format!("{at} is not on the field")));
    }
    if blood == 0 || blood > t.blood {
        return Err(err(format!(
            "Blood {blood} is not in 1..={} for a {}",
            t.blood, t.name
        )));
    }
    let mut piece = Piece {
        kind,
        side,
        at,
        blood,
        acts: 0,
        extra: false,
        healed: false,
        countered: false,
        idle: false,
    };
    if let Some(flags) = flags {
        if flags.is_empty() {
            return Err(err("empty flags after ':'".to_owned()));
        }
        let mut chars = flags.chars().peekable();
        if let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            chars.next();
            if d == 0 {
                return Err(err(
                    "an act count of 0 is written by leaving it out".to_owned()
                ));
            }
            piece.acts = d as u8;
        }
        let mut last = 0;
        for c in chars {
            let (slot, order) = match c {
                'x' => (&mut piece.extra, 1),
                'h' => (&mut piece.healed, 2),
                'c' => (&mut piece.countered, 3),
                'i' => (&mut piece.idle, 4),
                other => {
                    return Err(err(format!(
                        "unknown flag '{other}' (acts digit, then x, h, c, i in that order)"
                    )));
                }
            };
            if order <= last {
                return Err(err(
                    "flags go once each, in the order: acts digit, x, h, c, i".to_owned(),
                ));
            }
            last = order;
            *slot = true;
        }
    }
    let max_acts = t.base_acts() + u8::from(piece.extra);
    if piece.acts > max_acts {
        return Err(err(format!(
            "{} acts; a {} has at most {max_acts} this turn",
            piece.acts, t.name
        )));
    }
    if piece.extra && piece.acts <= t.base_acts() {
        return Err(err(
            "an extra act bought (x) means all its own acts are used".to_owned(),
        ));
    }
    if piece.healed && t.powers.healing.is_none() {
        return Err(err(format!("a {} does not heal (flag h)", t.name)));
    }
    if piece.idle && (piece.acts > 0 || piece.healed || piece.extra) {
        return Err(err("an idle piece has not acted".to_owned()));
    }
    Ok(piece)
}

/// Reads a position text on `scenario` (its id must match the text's).
pub fn parse_text(
    text: &str,
    options: &CovenantOptions,
    scenario: Option<Arc<Scenario>>,
) -> Result<Covenant, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 8 {
        return Err(PositionError::FieldCount {
            found: fields.len(),
        });
    }
    let mut options = options.clone();
    let scenario = match scenario {
        Some(s) if s.id == fields[0] => s,
        Some(s) => {
            return Err(bad(
                Field::Scenario,
                fields[0],
                format!("this game is played on '{}'", s.id),
            ));
        }
        None => {
            let id: ScenarioId =
                fields[0]
                    .parse()
                    .map_err(|e: crate::scenario::UnknownScenario| {
                        bad(Field::Scenario, fields[0], e.to_string())
                    })?;
            if id.as_str() != fields[0] {
                return Err(bad(
                    Field::Scenario,
                    fields[0],
                    "scenario ids are lower-case",
                ));
            }
            options.scenario = id;
            Scenario::builtin(id)
        }
    };
    let side = match fields[1] {
        "g" => Side::Gold,
        "b" => Side::Blue,
        other => return Err(bad(Field::Side, other, "expected g (Gold) or b (Blue)")),
    };
    let round: u16 = number(Field::Round, fields[2], "the round")?;
    if round == 0 {
        return Err(bad(Field::Round, fields[2], "rounds count from 1"));
    }
    let (quiet_text, captured) = match fields[3].strip_suffix('*') {
        Some(q) => (q, true),
        None => (fields[3], false),
    };
    let quiet: u16 = number(Field::Quiet, quiet_text, "the count")?;
    let limit = PieceTable::builtin().rules.draw_rounds;
    if quiet > limit {
        return Err(bad(
            Field::Quiet,
            fields[3],
            format!("the game is drawn at {limit}"),
        ));
    }
    let (g, b) = fields[4]
        .split_once('/')
        .ok_or_else(|| bad(Field::Grails, fields[4], "expected gold/blue, like 3/4"))?;
    let grails = [
        number::<u16>(Field::Grails, g, "Gold's Grails")
            .map_err(|_| bad(Field::Grails, fields[4], "Gold's Grails are not a number"))?,
        number::<u16>(Field::Grails, b, "Blue's Grails")
            .map_err(|_| bad(Field::Grails, fields[4], "Blue's Grails are not a number"))?,
    ];
    if grails.iter().any(|&n| n > MAX_GRAILS) {
        return Err(bad(
            Field::Grails,
            fields[4],
            format!("at most {MAX_GRAILS} Grails"),
        ));
    }

    let mut pieces: Vec<Piece> = Vec::new();
    for token in fields[7].split(',') {
        let piece = parse_piece(token, &scenario)?;
        if pieces.iter().any(|p| p.at == piece.at) {
            return Err(bad(
                Field::Pieces,
                token,
                format!("two pieces stand on {}", piece.at),
            ));
        }
        pieces.push(piece);
    }
    pieces.sort_by_key(|p| p.at);
    let table = PieceTable::builtin();
    for s in Side::BOTH {
        for k in table.kinds() {
            let t = table.get(k);
            let n = pieces.iter().filter(|p| p.side == s && p.kind == k).count();
            if let Some(limit) = t.limit
                && n > usize::from(limit)
            {
                return Err(bad(
                    Field::Pieces,
                    fields[7],
                    format!("{} has {n} {}s; the limit is {limit}", s.name(), t.name),
                ));
            }
        }
        let has_king = pieces.iter().any(|p| p.side == s && table.get(p.kind).king);
        let heir = pieces
            .iter()
            .any(|p| p.side == s && table.get(p.kind).powers.succession);
        if !has_king && heir {
            return Err(bad(
                Field::Pieces,
                fields[7],
                format!(
                    "{} has an Heir but no King: the Heir takes the crown when the King falls",
                    s.name()
                ),
            ));
        }
    }
    if !pieces.iter().any(|p| table.get(p.kind).king) {
        return Err(bad(Field::Pieces, fields[7], "neither side has a King"));
    }

    let active = match fields[5] {
        "-" => None,
        t => {
            let parts: Vec<&str> = t.split(':').collect();
            let [h, mp, tiles] = parts[..] else {
                return Err(bad(Field::Active, t, "expected <hex>:<mp>:<tiles> or -"));
            };
            let at: Hex = h
                .parse()
                .map_err(|e: crate::hex::BadHex| bad(Field::Active, t, e.to_string()))?;
            let mp: u8 = number(Field::Active, mp, "MP")
                .map_err(|_| bad(Field::Active, t, "MP is not a number 0-255"))?;
            let tiles: u8 = number(Field::Active, tiles, "tiles")
                .map_err(|_| bad(Field::Active, t, "tiles is not a number 0-255"))?;
            let Some(p) = pieces.iter().find(|p| p.at == at) else {
                return Err(bad(Field::Active, t, format!("no piece stands on {at}")));
            };
            if p.side != side || p.acts == 0 || p.idle {
                return Err(bad(
                    Field::Active,
                    t,
                    "the active piece belongs to the side to move and has begun an act",
                ));
            }
            Some(Active { at, mp, tiles })
        }
    };
    let convertible = match fields[6] {
        "-" => None,
        t => {
            let (code, h) = t
                .split_once('@')
                .ok_or_else(|| bad(Field::Convert, t, "expected <Code>@<hex> or -"))?;
            let k = kind(Field::Convert, t, code)?;
            let at: Hex = h
                .parse()
                .map_err(|e: crate::hex::BadHex| bad(Field::Convert, t, e.to_string()))?;
            let apostle = active
                .and_then(|a| pieces.iter().find(|p| p.at == a.at))
                .is_some_and(|p| table.get(p.kind).powers.convert.is_some());
            if !apostle {
                return Err(bad(
                    Field::Convert,
                    t,
                    "only an active piece with Convert can have a conversion pending",
                ));
            }
            if !scenario.contains(at) || pieces.iter().any(|p| p.at == at) {
                return Err(bad(
                    Field::Convert,
                    t,
                    format!("{at} must be a free hex of the field"),
                ));
            }
            if !table.get(k).convertible() {
                return Err(bad(
                    Field::Convert,
                    t,
                    "royals and Legends are never converted",
                ));
            }
            Some((k, at))
        }
    };
    Ok(Covenant {
        options,
        scenario,
        side,
        round,
        quiet,
        captured,
        grails,
        pieces,
        active,
        convertible,
    })
}
