//! The one-line position text.

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::position::{
    CASTLE_BLACK_EMPEROR, CASTLE_BLACK_MARSHAL, CASTLE_WHITE_EMPEROR, CASTLE_WHITE_MARSHAL,
    Position,
};
use crate::types::{Color, Piece, PieceKind, Square};

/// The fields of the position text, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// 1: the placement, rank 13 first.
    Placement,
    /// 2: `w` or `b`.
    SideToMove,
    /// 3: `KQkq` subset or `-`.
    Castling,
    /// 4: en passant target square or `-`.
    EnPassant,
    /// 5: `r` (the side to move holds the riposte) or `-`.
    Riposte,
    /// 6: awake Emperors, `Ee` subset or `-`.
    Emperors,
    /// 7: open promotion places, e.g. `Sc,te` or `-`.
    Slots,
    /// 8: plies since the last progress.
    NoProgress,
    /// 9: the full-move number.
    MoveNumber,
    /// 10: `s` swap still open, `x` swapped, `-` neither.
    Swap,
    /// 11 (optional): repetition keys of the earlier positions since the last progress.
    History,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Placement => "placement",
            Field::SideToMove => "side to move",
            Field::Castling => "castling rights",
            Field::EnPassant => "en passant square",
            Field::Riposte => "riposte right",
            Field::Emperors => "awake Emperors",
            Field::Slots => "promotion places",
            Field::NoProgress => "no-progress count",
            Field::MoveNumber => "move number",
            Field::Swap => "swap state",
            Field::History => "repetition history",
        })
    }
}

/// Why a position text is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Too few or too many fields.
    #[error("a position text has 10 or 11 space-separated fields, found {found}")]
    FieldCount {
        /// How many were given.
        found: usize,
    },
    /// One field is malformed or impossible.
    #[error("bad {field} '{value}': {reason}")]
    BadField {
        /// Which field.
        field: Field,
        /// The field's text.
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

/// The swap state carried by the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SwapState {
    pub right: bool,
    pub swapped: bool,
}

/// Writes the position text.
pub(crate) fn write_text(pos: &Position, swap: SwapState, earlier: &[u64]) -> String {
    let mut s = String::with_capacity(128);
    for rank in (0..13u8).rev() {
        let mut empty = 0;
        for file in 0..13u8 {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(s, "{empty}");
                        empty = 0;
                    }
                    s.push(p.letter());
                }
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.side == Color::White { 'w' } else { 'b' });
    s.push(' ');
    let castling: String = [
        (CASTLE_WHITE_MARSHAL, 'K'),
        (CASTLE_WHITE_EMPEROR, 'Q'),
        (CASTLE_BLACK_MARSHAL, 'k'),
        (CASTLE_BLACK_EMPEROR, 'q'),
    ]
    .iter()
    .filter(|(bit, _)| pos.castling & bit != 0)
    .map(|(_, c)| *c)
    .collect();
    s.push_str(if castling.is_empty() { "-" } else { &castling });
    s.push(' ');
    match pos.ep {
        Some(sq) => {
            let _ = write!(s, "{sq}");
        }
        None => s.push('-'),
    }
    s.push_str(if pos.riposte { " r " } else { " - " });
    let emperors: String = [(Color::White, 'E'), (Color::Black, 'e')]
        .iter()
        .filter(|(c, _)| pos.awake[c.index()])
        .map(|(_, l)| *l)
        .collect();
    s.push_str(if emperors.is_empty() { "-" } else { &emperors });
    s.push(' ');
    let slots = write_slots(pos);
    s.push_str(if slots.is_empty() { "-" } else { &slots });
    let _ = write!(
        s,
        " {} {} {}",
        pos.halfmoves,
        pos.fullmove,
        match (swap.right, swap.swapped) {
            (true, _) => 's',
            (false, true) => 'x',
            (false, false) => '-',
        }
    );
    if !earlier.is_empty() {
        s.push(' ');
        let keys: Vec<String> = earlier.iter().map(|k| format!("{k:016x}")).collect();
        s.push_str(&keys.join(","));
    }
    s
}

/// A parsed position text.
pub(crate) struct Parsed {
    pub pos: Position,
    pub swap: SwapState,
    pub earlier: Vec<u64>,
}

fn parse_placement(text: &str) -> Result<Position, PositionError> {
    let f = Field::Placement;
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 13 {
        return Err(bad(
            f,
            text,
            format!("13 ranks expected, found {}", ranks.len()),
        ));
    }
    let mut pos = Position::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 12 - i as u8;
        let mut file: u32 = 0;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut u32| -> Result<(), PositionError> {
            if !digits.is_empty() {
                let n: u32 = digits.parse().map_err(|_| bad(f, text, "bad number"))?;
                if n == 0 || digits.starts_with('0') {
                    return Err(bad(
                        f,
                        text,
                        format!("bad empty count '{digits}' on rank {}", rank + 1),
                    ));
                }
                *file += n;
                digits.clear();
            }
            Ok(())
        };
        for c in rank_text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                if digits.len() > 2 {
                    return Err(bad(
                        f,
                        text,
                        format!("bad empty count on rank {}", rank + 1),
                    ));
                }
                continue;
            }
            flush(&mut digits, &mut file)?;
            let piece = Piece::from_letter(c).ok_or_else(|| {
                bad(
                    f,
                    text,
                    format!("unknown piece letter '{c}' on rank {}", rank + 1),
                )
            })?;
            if file >= 13 {
                return Err(bad(
                    f,
                    text,
                    format!("rank {} is longer than 13 files", rank + 1),
                ));
            }
            if let Some(sq) = Square::new(file as u8, rank) {
                pos.put(sq, piece);
            }
            file += 1;
        }
        flush(&mut digits, &mut file)?;
        if file != 13 {
            return Err(bad(
                f,
                text,
                format!("rank {} covers {file} files instead of 13", rank + 1),
            ));
        }
    }
    // Material the rules can reach: one Pope each, never more of a kind than at the start.
    for color in Color::BOTH {
        let mut counts = [0u8; 9];
        let mut popes = 0;
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq)
                && p.color == color
            {
                counts[p.kind.index()] += 1;
                if p.kind == PieceKind::Pope {
                    popes += 1;
                }
                if p.kind == PieceKind::Legionary && color.relative_rank(sq.rank()) < 2 {
                    return Err(bad(
                        f,
                        text,
                        format!("{color} Legionary on {sq} is behind its start rank"),
                    ));
                }
            }
        }
        if popes != 1 {
            return Err(bad(
                f,
                text,
                format!("{color} has {popes} Popes, one expected"),
            ));
        }
        for kind in PieceKind::ALL {
            if counts[kind.index()] > kind.initial_count() {
                return Err(bad(
                    f,
                    text,
                    format!(
                        "{color} has {} of {kind}, more than it starts with",
                        counts[kind.index()]
                    ),
                ));
            }
        }
    }
    Ok(pos)
}

pub(crate) fn parse_text(text: &str) -> Result<Parsed, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(10..=11).contains(&fields.len()) {
        return Err(PositionError::FieldCount {
            found: fields.len(),
        });
    }
    let mut pos = parse_placement(fields[0])?;
    pos.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(bad(Field::SideToMove, other, "expected w or b")),
    };
    let c = fields[2];
    if c != "-" {
        let mut seen = 0u8;
        for ch in c.chars() {
            let bit = match ch {
                'K' => CASTLE_WHITE_MARSHAL,
                'Q' => CASTLE_WHITE_EMPEROR,
                'k' => CASTLE_BLACK_MARSHAL,
                'q' => CASTLE_BLACK_EMPEROR,
                _ => return Err(bad(Field::Castling, c, format!("unknown letter '{ch}'"))),
            };
            if seen & bit != 0 || bit < seen {
                return Err(bad(
                    Field::Castling,
                    c,
                    "letters repeated or out of KQkq order",
                ));
            }
            seen |= bit;
        }
        for (bit, color, corner) in [
            (CASTLE_WHITE_MARSHAL, Color::White, 12u8),
            (CASTLE_WHITE_EMPEROR, Color::White, 0),
            (CASTLE_BLACK_MARSHAL, Color::Black, 12),
            (CASTLE_BLACK_EMPEROR, Color::Black, 0),
        ] {
            if seen & bit == 0 {
                continue;
            }
            let rank = color.back_rank();
            let ok = Square::new(6, rank)
                .and_then(|s| pos.piece_at(s))
                .is_some_and(|p| p == Piece::new(color, PieceKind::Pope))
                && Square::new(corner, rank)
                    .and_then(|s| pos.piece_at(s))
                    .is_some_and(|p| p == Piece::new(color, PieceKind::Sentinel));
            if !ok {
                return Err(bad(
                    Field::Castling,
                    c,
                    format!("{color}'s Pope and Sentinel are not on their home squares"),
                ));
            }
        }
        pos.castling = seen;
    }
    let e = fields[3];
    if e != "-" {
        let sq: Square = e
            .parse()
            .map_err(|_| bad(Field::EnPassant, e, "not a square"))?;
        // The advance just played was by the side not to move.
        let mover = !pos.side;
        let ok = mover.relative_rank(sq.rank()) == 5
            && sq
                .offset(0, mover.forward())
                .and_then(|s| pos.piece_at(s))
                .is_some_and(|p| p == Piece::new(mover, PieceKind::Legionary))
            && pos.piece_at(sq).is_none();
        if !ok {
            return Err(bad(
                Field::EnPassant,
                e,
                "no Legionary of the side that just moved stands past it on rank 7",
            ));
        }
        pos.ep = Some(sq);
    }
    pos.riposte = match fields[4] {
        "-" => false,
        "r" => {
            if pos.marshal[pos.side.index()].is_none() {
                return Err(bad(Field::Riposte, "r", "the side to move has no Marshal"));
            }
            true
        }
        other => return Err(bad(Field::Riposte, other, "expected r or -")),
    };
    let em = fields[5];
    if em != "-" {
        for (i, ch) in em.chars().enumerate() {
            match (i, ch) {
                (0, 'E') => pos.awake[0] = true,
                (0, 'e') | (1, 'e') if !pos.awake[1] => pos.awake[1] = true,
                _ => return Err(bad(Field::Emperors, em, "expected E, e, Ee or -")),
            }
        }
    }
    let sl = fields[6];
    if sl != "-" {
        for item in sl.split(',') {
            let mut chars = item.chars();
            let (Some(k), Some(fc), None) = (chars.next(), chars.next(), chars.next()) else {
                return Err(bad(
                    Field::Slots,
                    sl,
                    format!("'{item}' is not a piece letter and a file"),
                ));
            };
            let piece = Piece::from_letter(k)
                .ok_or_else(|| bad(Field::Slots, sl, format!("unknown piece letter '{k}'")))?;
            let idx = piece
                .kind
                .slot_index()
                .ok_or_else(|| bad(Field::Slots, sl, "Popes and Legionaries open no place"))?;
            if !('a'..='m').contains(&fc) {
                return Err(bad(Field::Slots, sl, format!("'{fc}' is not a file")));
            }
            let n = &mut pos.slots[piece.color.index()][idx][(fc as u8 - b'a') as usize];
            *n = n.saturating_add(1);
        }
        for color in Color::BOTH {
            for kind in PieceKind::SLOT_KINDS {
                let on_board = Square::all()
                    .filter(|&s| pos.piece_at(s) == Some(Piece::new(color, kind)))
                    .count();
                let lost: usize = kind
                    .slot_index()
                    .map(|k| {
                        pos.slots[color.index()][k]
                            .iter()
                            .map(|&n| n as usize)
                            .sum()
                    })
                    .unwrap_or(0);
                if on_board + lost > kind.initial_count() as usize {
                    return Err(bad(
                        Field::Slots,
                        sl,
                        format!(
                            "{color} would own more than {} {kind}",
                            kind.initial_count()
                        ),
                    ));
                }
            }
        }
        if write_slots(&pos) != sl {
            return Err(bad(
                Field::Slots,
                sl,
                format!("write them in order: {}", write_slots(&pos)),
            ));
        }
    }
    let hm = fields[7];
    pos.halfmoves = hm
        .parse()
        .map_err(|_| bad(Field::NoProgress, hm, "not a number of plies"))?;
    let fm = fields[8];
    pos.fullmove = fm
        .parse()
        .ok()
        .filter(|&n: &u16| n >= 1)
        .ok_or_else(|| bad(Field::MoveNumber, fm, "not a positive number"))?;
    let sw = fields[9];
    let swap = match sw {
        "s" if pos.fullmove == 1 => SwapState {
            right: true,
            swapped: false,
        },
        "s" => return Err(bad(Field::Swap, sw, "the swap is only open on move 1")),
        "x" => SwapState {
            right: false,
            swapped: true,
        },
        "-" => SwapState {
            right: false,
            swapped: false,
        },
        other => return Err(bad(Field::Swap, other, "expected s, x or -")),
    };
    let mut earlier = Vec::new();
    if let Some(h) = fields.get(10) {
        for item in h.split(',') {
            if item.len() != 16 {
                return Err(bad(
                    Field::History,
                    h,
                    format!("'{item}' is not 16 hex digits"),
                ));
            }
            earlier.push(
                u64::from_str_radix(item, 16).map_err(|_| {
                    bad(Field::History, h, format!("'{item}' is not 16 hex digits"))
                })?,
            );
        }
        if earlier.len() > pos.halfmoves as usize {
            return Err(bad(
                Field::History,
                h,
                "more positions than plies since the last progress",
            ));
        }
    }
    // The start of the side to move's turn: its Emperor's wake is read first,
    // since the move just made had to leave the mover's Pope safe from an
    // Emperor it woke (decision 20).
    pos.open_turn();
    pos.rehash();
    // The side that just moved may not have left its Pope attacked.
    let mover = !pos.side;
    if let Some(sq) = pos.pope[mover.index()]
        && pos.pope_attacked(mover, sq)
    {
        return Err(bad(
            Field::Placement,
            fields[0],
            format!(
                "{mover}'s Pope on {sq} is attacked with {} to move",
                pos.side
            ),
        ));
    }
    Ok(Parsed { pos, swap, earlier })
}

fn write_slots(pos: &Position) -> String {
    let mut slots = Vec::new();
    for color in Color::BOTH {
        for (slot, n) in pos.slots(color) {
            for _ in 0..n {
                let piece = Piece::new(color, slot.kind);
                slots.push(format!("{}{}", piece.letter(), (b'a' + slot.file) as char));
            }
        }
    }
    slots.join(",")
}
