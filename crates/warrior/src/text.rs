//! The one-line position text.
//!
//! Nine fields separated by single spaces:
//!
//! ```text
//! board to-act phase money reserves bank-new bank-reissued dropped no-progress
//! 3BK4/8/8/8/8/8/8/4RK3 R move 1,1 -,- W8r3n2b3s4,W8r3n2b3s4 -,- - 0
//! ```
//!
//! - **board**: ranks 8 to 1 separated by `/`, files a to h; a digit counts
//!   empty squares; a piece is its army letter (`R` Red, `B` Blue, `G` Green,
//!   `Y` Yellow), then `K` (King) or `W` (Warrior), then the Warrior's weapons
//!   in lowercase in the order `r n b s` (Rook, Knight, Bishop, Swords), then
//!   the Swords facing `N`/`E`/`S`/`W` when it carries exactly one Swords,
//!   then the captured Warriors under it in parentheses, by army with counts:
//!   `RWrsN(B2G1)` is a Red Rook/Swords facing north holding two Blue
//!   Warriors and one Green.
//! - **to-act**: the army letter of the player whose turn it is.
//! - **phase**: `move`, `bonus`, `arm` or `buy`; once the game is over,
//!   `king-captured`, `fifty-moves`, `draw-claimed` or
//!   `no-movement` (the to-act player is then the one whose turn ended it).
//! - **money**: dollars per army in seat order, comma-separated.
//! - **reserves**, **bank-new**, **bank-reissued**: per army in seat order,
//!   comma-separated; each lists `W` (Warriors) and `r n b s` with counts,
//!   zero counts left out, `-` when empty.
//! - **dropped**: the squares of Warriors dropped this turn, comma-separated,
//!   or `-`.
//! - **no-progress**: turns in a row (all players) without a drop or capture.

use std::fmt::{self, Write};

use thiserror::Error;

use crate::options::WarriorOptions;
use crate::state::Warrior;
use crate::types::{
    Army, Facing, NewStock, Phase, Piece, PieceKind, Reserve, Square, Stack, Weapon, Weapons,
};

/// A field of the position text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The text as a whole (wrong number of fields).
    Whole,
    /// Field 1: the board.
    Board,
    /// Field 2: whose turn.
    ToAct,
    /// Field 3: the phase.
    Phase,
    /// Field 4: money.
    Money,
    /// Field 5: Reserves.
    Reserves,
    /// Field 6: the Bank's new stock.
    BankNew,
    /// Field 7: the Bank's reissue stock.
    BankReissued,
    /// Field 8: Warriors dropped this turn.
    Dropped,
    /// Field 9: the fifty-moves counter.
    NoProgress,
    /// The totals over board, Reserves and Bank (8 Warriors and a full set
    /// of weapons per army).
    Totals,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Whole => "text",
            Field::Board => "board (field 1)",
            Field::ToAct => "to-act (field 2)",
            Field::Phase => "phase (field 3)",
            Field::Money => "money (field 4)",
            Field::Reserves => "reserves (field 5)",
            Field::BankNew => "bank-new (field 6)",
            Field::BankReissued => "bank-reissued (field 7)",
            Field::Dropped => "dropped (field 8)",
            Field::NoProgress => "no-progress (field 9)",
            Field::Totals => "totals of board, Reserves and Bank",
        })
    }
}

/// A position text that cannot be read, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad Warrior Chess position, {field}: '{value}': {reason}")]
pub struct PositionError {
    /// The field at fault.
    pub field: Field,
    /// Its text (or the part of it at fault).
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

fn write_counts(out: &mut String, warriors: Option<u8>, weapons: Weapons) {
    let start = out.len();
    if let Some(n) = warriors.filter(|n| *n > 0) {
        let _ = write!(out, "W{n}");
    }
    for w in Weapon::ALL {
        let n = weapons.count(w);
        if n > 0 {
            let _ = write!(out, "{}{n}", w.letter().to_ascii_lowercase());
        }
    }
    if out.len() == start {
        out.push('-');
    }
}

fn write_piece(out: &mut String, p: &Piece) {
    out.push(p.army.letter());
    match p.kind {
        PieceKind::King => out.push('K'),
        PieceKind::Warrior => {
            out.push('W');
            for w in p.weapons.iter() {
                out.push(w.letter().to_ascii_lowercase());
            }
            if p.has_single_swords()
                && let Some(f) = p.facing
            {
                out.push(f.letter());
            }
        }
    }
    if !p.stack.is_empty() {
        out.push('(');
        for a in Army::ALL {
            let n = p.stack.count(a);
            if n > 0 {
                let _ = write!(out, "{}{n}", a.letter());
            }
        }
        out.push(')');
    }
}

impl Warrior {
    /// The position text (see the module documentation of `text`).
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match Square::at(file, rank).and_then(|sq| self.piece(sq)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        write_piece(&mut out, p);
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let _ = write!(out, " {} {} ", self.to_move.letter(), self.phase.word());
        let armies: Vec<Army> = self.armies().collect();
        for (k, a) in armies.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", self.money(*a).0);
        }
        out.push(' ');
        for (k, a) in armies.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let r = self.reserve(*a);
            write_counts(&mut out, Some(r.warriors), r.weapons);
        }
        out.push(' ');
        for (k, a) in armies.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let s = self.bank.new[a.index()];
            write_counts(&mut out, Some(s.warriors), s.weapons);
        }
        out.push(' ');
        for (k, a) in armies.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_counts(&mut out, None, self.bank.reissue[a.index()]);
        }
        out.push(' ');
        let dropped = self.dropped_this_turn();
        if dropped.is_empty() {
            out.push('-');
        }
        for (k, sq) in dropped.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "{sq}");
        }
        let _ = write!(out, " {}", self.no_progress);
        out
    }

    /// Reads a position text for a game played with `options`.
    pub fn from_position_text(
        text: &str,
        options: &WarriorOptions,
    ) -> Result<Warrior, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(err(
                Field::Whole,
                text,
                format!(
                    "expected 9 fields separated by spaces (board to-act phase money reserves \
                     bank-new bank-reissued dropped no-progress), found {}",
                    fields.len()
                ),
            ));
        }
        let mut game = Warrior::empty(options);
        let n = game.player_count() as usize;
        let active = |a: Army| a.index() < n;

        parse_board(fields[0], &mut game, n)?;

        let to_act = fields[1];
        game.to_move = match to_act.chars().collect::<Vec<_>>()[..] {
            [c] => Army::from_letter(c).filter(|a| active(*a)),
            _ => None,
        }
        .ok_or_else(|| {
            err(
                Field::ToAct,
                to_act,
                format!("expected the letter of an army in play ({})", letters(n)),
            )
        })?;

        game.phase = Phase::from_word(fields[2]).ok_or_else(|| {
            err(
                Field::Phase,
                fields[2],
                "expected move, bonus, arm, buy, king-captured, fifty-moves, \
                 draw-claimed or no-movement",
            )
        })?;

        let money = per_army(fields[3], Field::Money, n)?;
        for (k, m) in money.iter().enumerate() {
            let v: u8 = m
                .parse()
                .ok()
                .filter(|v| *v <= crate::Money::CAP)
                .ok_or_else(|| {
                    err(
                        Field::Money,
                        m,
                        "expected a whole number of dollars, 0 to 12",
                    )
                })?;
            game.money[k] = crate::Money(v);
        }

        for (k, r) in per_army(fields[4], Field::Reserves, n)?.iter().enumerate() {
            let (warriors, weapons) = parse_counts(r, Field::Reserves, true)?;
            game.reserve[k] = Reserve { warriors, weapons };
        }
        for (k, r) in per_army(fields[5], Field::BankNew, n)?.iter().enumerate() {
            let (warriors, weapons) = parse_counts(r, Field::BankNew, true)?;
            game.bank.new[k] = NewStock { warriors, weapons };
        }
        for (k, r) in per_army(fields[6], Field::BankReissued, n)?
            .iter()
            .enumerate()
        {
            let (_, weapons) = parse_counts(r, Field::BankReissued, false)?;
            game.bank.reissue[k] = weapons;
        }

        let dropped = fields[7];
        if dropped != "-" {
            for part in dropped.split(',') {
                let sq: Square = part
                    .parse()
                    .map_err(|_| err(Field::Dropped, part, "expected squares like e4,d5 or -"))?;
                let ok = matches!(game.piece(sq), Some(p) if p.army == game.to_move
                    && p.kind == PieceKind::Warrior && !p.is_armed());
                if !ok {
                    return Err(err(
                        Field::Dropped,
                        part,
                        "a Warrior dropped this turn is an unarmed Warrior of the player to act",
                    ));
                }
                game.dropped |= sq.bit();
            }
            if game.phase == Phase::Movement {
                return Err(err(
                    Field::Dropped,
                    dropped,
                    "nothing has been dropped yet in the movement phase",
                ));
            }
        }

        game.no_progress = fields[8].parse().map_err(|_| {
            err(
                Field::NoProgress,
                fields[8],
                "expected a whole number of turns",
            )
        })?;

        check_kings(&game, n, fields[0])?;

        for a in game.armies() {
            let (warriors, weapons) = game.equipment(a);
            if warriors != 8 {
                return Err(err(
                    Field::Totals,
                    a.name(),
                    format!(
                        "{a} has {warriors} Warriors in Bank, Reserve, board and stacks; every army has 8"
                    ),
                ));
            }
            for w in Weapon::ALL {
                if weapons.count(w) != w.per_army() {
                    return Err(err(
                        Field::Totals,
                        a.name(),
                        format!(
                            "{a} has {} {w} weapons in Bank, Reserve and board; every army has {}",
                            weapons.count(w),
                            w.per_army()
                        ),
                    ));
                }
            }
        }
        Ok(game)
    }
}

fn letters(n: usize) -> String {
    Army::ALL[..n]
        .iter()
        .map(|a| a.letter().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn per_army(field: &str, which: Field, n: usize) -> Result<Vec<&str>, PositionError> {
    let parts: Vec<&str> = field.split(',').collect();
    if parts.len() != n {
        return Err(err(
            which,
            field,
            format!(
                "expected {n} entries separated by commas, one per army ({})",
                letters(n)
            ),
        ));
    }
    Ok(parts)
}

/// Reads `W8r3n2b3s4`-style counts (`-` for none).
fn parse_counts(
    text: &str,
    field: Field,
    warriors_allowed: bool,
) -> Result<(u8, Weapons), PositionError> {
    let mut warriors = 0u8;
    let mut weapons = Weapons::NONE;
    if text == "-" {
        return Ok((warriors, weapons));
    }
    let expected = if warriors_allowed {
        "expected W, r, n, b, s each followed by a count (like W2r1s1), or -"
    } else {
        "expected r, n, b, s each followed by a count (like r1s2), or -"
    };
    let mut seen = [false; 5];
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    if chars.is_empty() {
        return Err(err(field, text, expected));
    }
    while k < chars.len() {
        let c = chars[k];
        let slot = match c {
            'W' if warriors_allowed => 4,
            'r' | 'n' | 'b' | 's' => Weapon::from_letter(c).map_or(0, |w| w.index()),
            _ => return Err(err(field, text, expected)),
        };
        k += 1;
        let digits_start = k;
        while k < chars.len() && chars[k].is_ascii_digit() {
            k += 1;
        }
        let digits: String = chars[digits_start..k].iter().collect();
        let limit = if slot == 4 {
            8
        } else {
            Weapon::ALL[slot].per_army()
        };
        let count: u8 = digits.parse().ok().filter(|v| *v <= limit).ok_or_else(|| {
            err(
                field,
                text,
                format!("the count after '{c}' must be 0 to {limit}"),
            )
        })?;
        if seen[slot] {
            return Err(err(field, text, format!("'{c}' is given twice")));
        }
        seen[slot] = true;
        if slot == 4 {
            warriors = count;
        } else {
            weapons.0[slot] = count;
        }
    }
    Ok((warriors, weapons))
}

fn parse_board(board: &str, game: &mut Warrior, n: usize) -> Result<(), PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(
            Field::Board,
            board,
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    for (k, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - k as i8;
        let chars: Vec<char> = rank_text.chars().collect();
        let mut file: i8 = 0;
        let mut i = 0;
        let bad = |why: String| err(Field::Board, rank_text, format!("rank {}: {why}", rank + 1));
        while i < chars.len() {
            let c = chars[i];
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(bad("empty squares are counted 1 to 8".into()));
                }
                file += d as i8;
                i += 1;
                if file > 8 {
                    return Err(bad("more than 8 squares".into()));
                }
                continue;
            }
            let army = Army::from_letter(c)
                .filter(|a| a.index() < n)
                .ok_or_else(|| {
                    bad(format!(
                        "'{c}' is neither a count of empty squares nor an army in play ({})",
                        letters(n)
                    ))
                })?;
            i += 1;
            let kind = match chars.get(i) {
                Some('K') => PieceKind::King,
                Some('W') => PieceKind::Warrior,
                _ => return Err(bad(format!("after '{c}' comes K (King) or W (Warrior)"))),
            };
            i += 1;
            let mut piece = match kind {
                PieceKind::King => Piece::king(army),
                PieceKind::Warrior => Piece::warrior(army),
            };
            while let Some(w) = chars
                .get(i)
                .filter(|c| matches!(c, 'r' | 'n' | 'b' | 's'))
                .and_then(|c| Weapon::from_letter(*c))
            {
                if kind == PieceKind::King {
                    return Err(bad("a King carries no weapons".into()));
                }
                piece.weapons[w] += 1;
                i += 1;
                if piece.weapons.total() > 2 {
                    return Err(bad("a Warrior carries at most two weapons".into()));
                }
            }
            for w in [Weapon::Rook, Weapon::Knight, Weapon::Bishop] {
                if piece.weapons.count(w) > 1 && !game.options.duplicate_weapons {
                    return Err(bad(format!(
                        "two {w}s on one Warrior need the option duplicate-weapons=on"
                    )));
                }
            }
            if piece.has_single_swords() {
                piece.facing = chars.get(i).and_then(|c| {
                    if c.is_ascii_uppercase() {
                        Facing::from_letter(*c)
                    } else {
                        None
                    }
                });
                if piece.facing.is_none() {
                    return Err(bad(
                        "a Warrior with one Swords is followed by its facing N, E, S or W".into(),
                    ));
                }
                i += 1;
            }
            if chars.get(i) == Some(&'(') {
                i += 1;
                let mut stack = Stack::default();
                let mut seen = [false; 4];
                loop {
                    match chars.get(i) {
                        Some(')') => {
                            i += 1;
                            break;
                        }
                        Some(&l) => {
                            let a = Army::from_letter(l).filter(|a| a.index() < n).ok_or_else(
                                || bad(format!("'{l}' in a stack is not an army in play")),
                            )?;
                            i += 1;
                            let start = i;
                            while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                                i += 1;
                            }
                            let digits: String = chars[start..i].iter().collect();
                            let count: u8 = digits.parse().ok().filter(|v| (1..=8).contains(v))
                                .ok_or_else(|| bad(format!("a stack gives each army's captured Warriors as a count 1 to 8 after its letter (like ({l}2))")))?;
                            if seen[a.index()] {
                                return Err(bad(format!("'{l}' is given twice in one stack")));
                            }
                            seen[a.index()] = true;
                            stack.0[a.index()] = count;
                        }
                        None => return Err(bad("a stack is closed by ')'".into())),
                    }
                }
                if stack.is_empty() {
                    return Err(bad("an empty stack is written by leaving it out".into()));
                }
                piece.stack = stack;
            }
            if file >= 8 {
                return Err(bad("more than 8 squares".into()));
            }
            if let Some(sq) = Square::at(file, rank) {
                game.board[sq.index()] = Some(piece);
            }
            file += 1;
        }
        if file != 8 {
            return Err(bad(format!("{file} squares instead of 8")));
        }
    }
    Ok(())
}

fn check_kings(game: &Warrior, n: usize, board: &str) -> Result<(), PositionError> {
    let mut kings = [0u8; 4];
    for (_, p) in game.pieces() {
        if p.kind == PieceKind::King {
            kings[p.army.index()] += 1;
        }
    }
    let missing: Vec<Army> = Army::ALL[..n]
        .iter()
        .copied()
        .filter(|a| kings[a.index()] == 0)
        .collect();
    if let Some(a) = Army::ALL[..n].iter().find(|a| kings[a.index()] > 1) {
        return Err(err(
            Field::Board,
            board,
            format!("{a} has more than one King"),
        ));
    }
    if game.phase == Phase::Over(crate::Ending::KingCaptured) {
        match missing[..] {
            [a] if a.team() != game.to_move.team() => Ok(()),
            _ => Err(err(
                Field::Board,
                board,
                "after a King capture exactly one King, of the other team than the player \
                 to act, is off the board",
            )),
        }
    } else if let Some(a) = missing.first() {
        Err(err(
            Field::Board,
            board,
            format!("{a} has no King (only the phase king-captured allows that)"),
        ))
    } else {
        Ok(())
    }
}
