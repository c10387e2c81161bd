//! The table protocol of Chess 13: Epoch: how a person picks each move on
//! the board (gestures), what happened in words and data (events), what a
//! seat holds, the zones off the board, and the catalog.
//!
//! Epoch hides nothing, so every viewer gets the same answers.

use serde_json::{Value, json};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, Holding,
    PieceKind as CatalogPiece, Place, Zone, ZoneItem,
};
use tabula_core::{Game, GameId, Player};

use crate::game::{Epoch, EpochOptions};
use crate::moves::{Move, Slot, Wing};
use crate::position::{DIRS, Position};
use crate::types::{Color, Piece, PieceKind, Square};

/// The catalog's id of a kind (the same as its JSON form): `sentinel`.
pub(crate) const fn kind_id(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Sentinel => "sentinel",
        PieceKind::Templar => "templar",
        PieceKind::Herald => "herald",
        PieceKind::Mage => "mage",
        PieceKind::Assassin => "assassin",
        PieceKind::Emperor => "emperor",
        PieceKind::Pope => "pope",
        PieceKind::Marshal => "marshal",
        PieceKind::Legionary => "legionary",
    }
}

/// The book's "Piece Values" table: `(enhanced, restricted)`; one figure
/// for the Emperor and the Marshal, none for the Pope.
const fn value(kind: PieceKind) -> Option<(u8, u8)> {
    match kind {
        PieceKind::Pope => None,
        PieceKind::Emperor => Some((15, 15)),
        PieceKind::Marshal => Some((13, 13)),
        PieceKind::Assassin => Some((10, 7)),
        PieceKind::Sentinel => Some((9, 6)),
        PieceKind::Mage => Some((8, 5)),
        PieceKind::Herald => Some((7, 5)),
        PieceKind::Templar => Some((7, 5)),
        PieceKind::Legionary => Some((2, 2)),
    }
}

/// The id of an open place, shared by the `open-places` zone items and the
/// promotion choices: `sentinel-c`.
pub(crate) fn slot_id(slot: Slot) -> String {
    format!("{}-{}", kind_id(slot.kind), char::from(b'a' + slot.file))
}

fn file_letter(slot: Slot) -> char {
    char::from(b'a' + slot.file)
}

/// `"White's Sentinel"`.
fn owned(p: Piece) -> String {
    format!("{}'s {}", p.color, p.kind)
}

/// `"White's Sentinel on a1"`.
fn owned_on(p: Piece, sq: Square) -> String {
    format!("{}'s {} on {sq}", p.color, p.kind)
}

/// Castling's squares for `color` on `wing`: Pope from, Pope to, Sentinel
/// from, Sentinel to.
fn castle_squares(color: Color, wing: Wing) -> Option<(Square, Square, Square, Square)> {
    let rank = color.back_rank();
    let (pt, sf, st) = match wing {
        Wing::Marshal => (9, 12, 8),
        Wing::Emperor => (3, 0, 4),
    };
    Some((
        Square::new(6, rank)?,
        Square::new(pt, rank)?,
        Square::new(sf, rank)?,
        Square::new(st, rank)?,
    ))
}

/// The ring squares whose piece `before` had and `after` has not: what a
/// blast destroyed (the rules decide, not a second copy of them).
fn blast_victims(before: &Position, after: &Position, at: Square) -> Vec<(Square, Piece)> {
    DIRS.iter()
        .filter_map(|&(df, dr)| at.offset(df, dr))
        .filter_map(|sq| match (before.piece_at(sq), after.piece_at(sq)) {
            (Some(p), None) => Some((sq, p)),
            _ => None,
        })
        .collect()
}

/// The list in words: "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Epoch {
    /// How a person picks `mv`: the piece's cell, then where it lands.
    pub(crate) fn gesture_of(&self, mv: Move) -> Gesture {
        let pos = &self.pos;
        let us = pos.side;
        match mv {
            Move::Quiet { from, to } => Gesture::to(GestureKind::Move, Place::cell(from), to),
            Move::Capture { from, to } => Gesture::to(GestureKind::Capture, Place::cell(from), to),
            Move::AssassinCapture { from, victim, to } => {
                Gesture::to(GestureKind::Capture, Place::cell(from), to).touching([victim])
            }
            Move::EnPassant { from, to } => {
                let g = Gesture::to(GestureKind::Capture, Place::cell(from), to);
                match to.offset(0, -us.forward()) {
                    Some(victim) => g.touching([victim]),
                    None => g,
                }
            }
            Move::Blast { at } => {
                // The Mage is clicked twice: it stays where it is.
                let mut after = *pos;
                after.make(mv);
                let struck = blast_victims(pos, &after, at);
                Gesture::to(GestureKind::Blast, Place::cell(at), at)
                    .touching(struck.iter().map(|(sq, _)| *sq))
            }
            Move::Promotion {
                from,
                to,
                capture,
                slot,
            } => {
                let kind = if capture {
                    GestureKind::Capture
                } else {
                    GestureKind::Move
                };
                Gesture::to(kind, Place::cell(from), to)
                    .choosing(slot_id(slot), self.slot_label(mv, slot))
            }
            Move::Trade { at, slot } => {
                // The waiting Legionary is clicked twice, then the piece picked.
                Gesture::to(GestureKind::Pick, Place::cell(at), at)
                    .choosing(slot_id(slot), self.slot_label(mv, slot))
            }
            Move::Castle { wing } => match castle_squares(us, wing) {
                Some((pf, pt, sf, st)) => {
                    Gesture::to(GestureKind::Castle, Place::cell(pf), pt).touching([sf, st])
                }
                None => Gesture::button(GestureKind::Castle, "castle", mv.to_string()),
            },
            Move::Swap => Gesture::button(GestureKind::Swap, "swap", "Swap sides"),
        }
    }

    /// "Sentinel", or "Sentinel lost on file c" when another place of the
    /// same kind on another file is open to the same move.
    fn slot_label(&self, mv: Move, slot: Slot) -> String {
        let mut legal = Vec::new();
        self.pos.legal_moves(&mut legal);
        let twin = legal.iter().any(|m| {
            m.from() == mv.from()
                && m.to() == mv.to()
                && matches!(*m, Move::Promotion { slot: s, .. } | Move::Trade { slot: s, .. }
                    if s.kind == slot.kind && s.file != slot.file)
        });
        if twin {
            format!("{} lost on file {}", slot.kind, file_letter(slot))
        } else {
            slot.kind.to_string()
        }
    }

    /// What `player` holds: its colour, its pieces on the board, its open
    /// promotion places and its Emperor's state.
    pub(crate) fn holdings_of(&self, player: Player) -> Vec<Holding> {
        let color = self.color_of(player);
        let pos = &self.pos;
        let places: u32 = pos.slots(color).iter().map(|(_, n)| u32::from(*n)).sum();
        let emperor = match (pos.emperor[color.index()], pos.emperor_awake(color)) {
            (None, _) => "lost",
            (Some(_), true) => "in play",
            (Some(_), false) => "dormant",
        };
        vec![
            Holding::new("color", "Colour", color.to_string()),
            Holding::new(
                "pieces",
                "Pieces on the board",
                pos.occupied_by(color).count(),
            ),
            Holding::new("open-places", "Open promotion places", places),
            Holding::new("emperor", "Emperor", emperor),
        ]
    }

    /// One zone per seat: `open-places`, the pieces it lost that a
    /// Legionary on the last rank may claim (item ids as promotion choices).
    pub(crate) fn zones_all(&self) -> Vec<Zone> {
        (0..2u8)
            .map(|seat| {
                let player = Player(seat);
                let color = self.color_of(player);
                let items = self
                    .pos
                    .slots(color)
                    .into_iter()
                    .map(|(slot, n)| {
                        ZoneItem::new(
                            slot_id(slot),
                            format!("{} lost on file {}", slot.kind, file_letter(slot)),
                            u32::from(n),
                        )
                    })
                    .collect();
                Zone {
                    zone: "open-places".to_owned(),
                    owner: Some(player),
                    label: format!("{color}'s open promotion places"),
                    items,
                    hidden: 0,
                }
            })
            .collect()
    }

    /// What `mv` did when it took `self` to `after`.
    pub(crate) fn events_of(&self, mv: Move, after: &Epoch) -> Vec<Event> {
        let pos = &self.pos;
        let us = pos.side;
        let me = self.player_of(us);
        let mut out = Vec::new();
        let piece_at = |sq: Square| {
            pos.piece_at(sq)
                .unwrap_or(Piece::new(us, PieceKind::Legionary))
        };
        let capture = |from: Square, victim_sq: Square, to: Square, text: String| {
            let mover = piece_at(from);
            let victim = pos.piece_at(victim_sq);
            let mut e = Event::new(EventKind::Capture, text)
                .by(me)
                .at([from, to])
                .with("piece", kind_id(mover.kind))
                .with("from", from.to_string())
                .with("to", to.to_string())
                .with("captured_on", victim_sq.to_string());
            if victim_sq != to {
                e.cells.push(victim_sq.to_string());
            }
            if let Some(v) = victim {
                e = e
                    .with("captured", kind_id(v.kind))
                    .with("captured_owner", self.player_of(v.color).0);
            }
            e
        };
        let victim_name = |sq: Square| match pos.piece_at(sq) {
            Some(v) => owned_on(v, sq),
            None => format!("the piece on {sq}"),
        };
        match mv {
            Move::Swap => {
                // The seat that played Black now plays White.
                let seat = self.player_of(Color::Black);
                out.push(
                    Event::new(
                        EventKind::Swap,
                        "Black takes White's side: the two players change places, and the game \
                         goes on from the move White already played",
                    )
                    .by(seat)
                    .with("white", after.player_of(Color::White).0)
                    .with("black", after.player_of(Color::Black).0),
                );
                return out;
            }
            Move::Quiet { from, to } => {
                let p = piece_at(from);
                out.push(
                    Event::new(
                        EventKind::Move,
                        format!("{} moves from {from} to {to}", owned(p)),
                    )
                    .by(me)
                    .at([from, to])
                    .with("piece", kind_id(p.kind))
                    .with("from", from.to_string())
                    .with("to", to.to_string()),
                );
            }
            Move::Capture { from, to } => {
                let text = format!(
                    "{} on {from} takes {}",
                    owned(piece_at(from)),
                    victim_name(to)
                );
                out.push(capture(from, to, to, text));
            }
            Move::AssassinCapture { from, victim, to } => {
                let text = format!(
                    "{} on {from} passes over {} and lands on {to}, capturing it",
                    owned(piece_at(from)),
                    victim_name(victim)
                );
                out.push(capture(from, victim, to, text));
            }
            Move::EnPassant { from, to } => {
                let victim = to.offset(0, -us.forward()).unwrap_or(to);
                let text = format!(
                    "{} on {from} takes {} en passant, landing on {to}",
                    owned(piece_at(from)),
                    victim_name(victim)
                );
                out.push(capture(from, victim, to, text).with("en_passant", true));
            }
            Move::Blast { at } => {
                let struck = blast_victims(pos, &after.pos, at);
                let names: Vec<String> = struck.iter().map(|(sq, p)| owned_on(*p, *sq)).collect();
                let victims: Vec<Value> = struck
                    .iter()
                    .map(|(sq, p)| {
                        json!({
                            "cell": sq.to_string(),
                            "piece": kind_id(p.kind),
                            "owner": self.player_of(p.color).0,
                            "color": p.color,
                        })
                    })
                    .collect();
                out.push(
                    Event::new(
                        EventKind::Capture,
                        format!(
                            "{}'s Mage on {at} blasts its ring and destroys {}",
                            us,
                            and_list(&names)
                        ),
                    )
                    .by(me)
                    .at(std::iter::once(at).chain(struck.iter().map(|(sq, _)| *sq)))
                    .with("piece", "mage")
                    .with("from", at.to_string())
                    .with("to", at.to_string())
                    .with("blast", at.to_string())
                    .with("victims", victims),
                );
                for (sq, p) in &struck {
                    out.push(
                        Event::new(
                            EventKind::Fall,
                            format!("{} is destroyed by the blast", owned_on(*p, *sq)),
                        )
                        .by(self.player_of(p.color))
                        .at([*sq])
                        .with("piece", kind_id(p.kind))
                        .with("cell", sq.to_string())
                        .with("owner", self.player_of(p.color).0)
                        .with("blast", at.to_string()),
                    );
                }
            }
            Move::Promotion {
                from,
                to,
                capture: takes,
                slot,
            } => {
                if takes {
                    let text = format!("{}'s Legionary on {from} takes {}", us, victim_name(to));
                    out.push(capture(from, to, to, text));
                }
                out.push(self.promote_event(me, us, from, to, slot));
            }
            Move::Trade { at, slot } => out.push(self.promote_event(me, us, at, at, slot)),
            Move::Castle { wing } => {
                if let Some((pf, pt, sf, st)) = castle_squares(us, wing) {
                    let side = match wing {
                        Wing::Marshal => "Marshal's",
                        Wing::Emperor => "Emperor's",
                    };
                    out.push(
                        Event::new(
                            EventKind::Castle,
                            format!(
                                "{us} castles on the {side} wing: the Pope goes from {pf} to \
                                 {pt}, the Sentinel from {sf} to {st}"
                            ),
                        )
                        .by(me)
                        .at([pf, pt, sf, st])
                        .with(
                            "wing",
                            if wing == Wing::Marshal {
                                "marshal"
                            } else {
                                "emperor"
                            },
                        )
                        .with("pope_from", pf.to_string())
                        .with("pope_to", pt.to_string())
                        .with("sentinel_from", sf.to_string())
                        .with("sentinel_to", st.to_string()),
                    );
                }
            }
        }
        self.state_events(mv, after, &mut out);
        out
    }

    fn promote_event(&self, me: Player, us: Color, from: Square, to: Square, slot: Slot) -> Event {
        let text = if from == to {
            format!(
                "{us}'s Legionary on {to} is traded for the {} lost on file {}",
                slot.kind,
                file_letter(slot)
            )
        } else {
            format!(
                "{us}'s Legionary reaches {to} and is traded for the {} lost on file {}",
                slot.kind,
                file_letter(slot)
            )
        };
        let text = if slot.kind == PieceKind::Emperor {
            format!("{text}; the Emperor skips its dormancy")
        } else {
            text
        };
        let mut cells = vec![to];
        if from != to {
            cells.insert(0, from);
        }
        Event::new(EventKind::Promote, text)
            .by(me)
            .at(cells)
            .with("from", from.to_string())
            .with("to", to.to_string())
            .with("piece", kind_id(slot.kind))
            .with("file", file_letter(slot).to_string())
    }

    /// The Emperors that woke, the riposte armed, the pieces the move made
    /// enhanced or restricted, check and the end of the game.
    fn state_events(&self, mv: Move, after: &Epoch, out: &mut Vec<Event>) {
        let (pos, next) = (&self.pos, &after.pos);
        let us = pos.side;
        for color in Color::BOTH {
            let promoted_emperor = color == us
                && matches!(mv, Move::Promotion { slot, .. } | Move::Trade { slot, .. }
                    if slot.kind == PieceKind::Emperor);
            if !pos.emperor_awake(color) && next.emperor_awake(color) && !promoted_emperor {
                let Some(sq) = next.emperor[color.index()] else {
                    continue;
                };
                let (reason, why) = if next.marshal[color.index()].is_none() {
                    ("marshal-lost", "its Marshal is gone")
                } else {
                    (
                        "attacked",
                        "it stands under attack as its side's turn begins",
                    )
                };
                out.push(
                    Event::new(
                        EventKind::State,
                        format!("{color}'s Emperor on {sq} comes into play: {why}"),
                    )
                    .by(after.player_of(color))
                    .at([sq])
                    .with("change", "awake")
                    .with("piece", "emperor")
                    .with("cell", sq.to_string())
                    .with("reason", reason),
                );
            }
        }
        if next.riposte()
            && let Some(m) = next.marshal[next.side.index()]
        {
            out.push(
                Event::new(
                    EventKind::State,
                    format!(
                        "{}'s Marshal on {m} holds the riposte: on the next move it captures \
                         on its lines with nothing else attacking",
                        next.side
                    ),
                )
                .by(after.player_of(next.side))
                .at([m])
                .with("change", "riposte")
                .with("marshal", m.to_string()),
            );
        }
        self.zone_events(mv, after, out);
        if next.in_check()
            && let Some(p) = next.pope[next.side.index()]
        {
            let checkers: Vec<String> = next
                .pope_checkers(next.side, p)
                .iter()
                .map(ToString::to_string)
                .collect();
            out.push(
                Event::new(
                    EventKind::Check,
                    format!("{}'s Pope on {p} is in check", next.side),
                )
                .by(after.player_of(next.side))
                .at([p])
                .with("king", p.to_string())
                .with("pope", p.to_string())
                .with("checkers", checkers),
            );
        }
        if self.outcome.is_none()
            && let Some(outcome) = after.outcome
        {
            let mut e = Event::new(EventKind::End, after.describe_outcome(&outcome))
                .with("reason", outcome.reason.id());
            e = match outcome.winner {
                Some(team) => e.by(Player(team.0)).with("winner", team.0),
                None => e.with("winner", Value::Null),
            };
            out.push(e);
        }
    }

    /// One event per side and direction for the pieces whose version
    /// changed: moved out of or into the zone, or the zone moved, was lost
    /// or came back. A moved piece is compared with the square it left;
    /// a piece new on the board (a promotion) is not reported here.
    fn zone_events(&self, mv: Move, after: &Epoch, out: &mut Vec<Event>) {
        let (pos, next) = (&self.pos, &after.pos);
        let us = pos.side;
        let mut moved: [Option<(Square, Square)>; 2] = [None; 2];
        match mv {
            Move::Quiet { from, to }
            | Move::Capture { from, to }
            | Move::AssassinCapture { from, to, .. }
            | Move::EnPassant { from, to } => moved[0] = Some((from, to)),
            Move::Castle { wing } => {
                if let Some((pf, pt, sf, st)) = castle_squares(us, wing) {
                    moved = [Some((pf, pt)), Some((sf, st))];
                }
            }
            _ => {}
        }
        for color in Color::BOTH {
            let mut gained = Vec::new();
            let mut lost = Vec::new();
            for sq in next.occupied_by(color).iter() {
                let Some(p) = next.piece_at(sq) else { continue };
                if matches!(p.kind, PieceKind::Pope | PieceKind::Emperor) {
                    continue;
                }
                let prev = moved
                    .iter()
                    .flatten()
                    .find(|(_, to)| *to == sq)
                    .map_or(sq, |(from, _)| *from);
                if pos.piece_at(prev) != Some(p) {
                    continue;
                }
                match (pos.enhanced(color, prev), next.enhanced(color, sq)) {
                    (false, true) => gained.push((sq, p)),
                    (true, false) => lost.push((sq, p)),
                    _ => {}
                }
            }
            for (list, word) in [(gained, "enhanced"), (lost, "restricted")] {
                if list.is_empty() {
                    continue;
                }
                let names: Vec<String> = list
                    .iter()
                    .map(|(sq, p)| format!("{} on {sq}", p.kind))
                    .collect();
                let verb = if list.len() == 1 { "becomes" } else { "become" };
                let pieces: Vec<Value> = list
                    .iter()
                    .map(|(sq, p)| json!({"cell": sq.to_string(), "piece": kind_id(p.kind)}))
                    .collect();
                out.push(
                    Event::new(
                        EventKind::State,
                        format!("{color}'s {} {verb} {word}", and_list(&names)),
                    )
                    .by(after.player_of(color))
                    .at(list.iter().map(|(sq, _)| *sq))
                    .with("change", word)
                    .with("color", json!(color))
                    .with("pieces", pieces),
                );
            }
        }
    }
}

/// The catalog: the 13x13 board, the nine kinds with the book's names,
/// letters and values, and the command zone's facts.
pub(crate) fn catalog(options: &EpochOptions) -> Catalog {
    let pieces = PieceKind::ALL
        .iter()
        .map(|&kind| {
            let stats = match value(kind) {
                None => json!({"value": "infinite", "zone": false}),
                Some((e, r)) if kind == PieceKind::Emperor => {
                    debug_assert_eq!(e, r);
                    json!({"value": e, "zone": false})
                }
                Some((e, r)) if e == r => json!({"value": e, "zone": true}),
                Some((e, r)) => json!({"enhanced": e, "restricted": r, "zone": true}),
            };
            CatalogPiece {
                id: kind_id(kind).to_owned(),
                name: kind.to_string(),
                letter: kind.letter().to_string(),
                stats,
            }
        })
        .collect();
    Catalog {
        game: GameId::Epoch,
        title: GameId::Epoch.title().to_owned(),
        board: BoardShape::squares(13, 13),
        pieces,
        extra: json!({
            "command_square": Square::G7.to_string(),
            "zone_radius": 4,
            "zone": "A Marshal on g7 enhances its whole army; anywhere else it enhances its \
                     own pieces within four squares (king distance, a 9 by 9 block). Every \
                     other piece is restricted, and all are once the Marshal is captured. \
                     The Pope and the Emperor ignore the zone. A piece is read on the square \
                     it starts its move from.",
            "stats": "value: the book's piece value (one figure); enhanced/restricted: its two \
                      figures; zone: whether the command zone changes the piece",
            "swap": options.swap,
            "no_progress_limit": "2 x (60 + 2 x (52 - pieces on board)) plies",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_sentences() {
        let s = |v: &[&str]| and_list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["a"]), "a");
        assert_eq!(s(&["a", "b"]), "a and b");
        assert_eq!(s(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn kind_ids_are_the_json_names() {
        for k in PieceKind::ALL {
            assert_eq!(
                serde_json::to_value(k).ok(),
                Some(Value::String(kind_id(k).to_owned()))
            );
        }
    }
}
