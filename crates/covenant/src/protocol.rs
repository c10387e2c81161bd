//! The table protocol for Covenant Chess: gestures, holdings, zones,
//! events, the catalog and the state key (`docs/rules/covenant.md`,
//! "Table protocol").

use std::hash::Hasher;

use serde_json::{Map, Value, json};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, HexCell, Holding, PieceKind,
    Place, StableHasher, Zone, ZoneItem,
};
use tabula_core::{Game, GameId, Player};

use crate::action::Action;
use crate::data::{Kind, PieceTable, PieceType, Powers};
use crate::hex::Hex;
use crate::options::CovenantOptions;
use crate::scenario::{Scenario, Terrain};
use crate::side::Side;
use crate::state::{Attack, Covenant, Piece, Record};

/// The id of each side's recruit offer zone.
pub const RECRUITS: &str = "recruits";

fn table() -> &'static PieceTable {
    PieceTable::builtin()
}

fn ty(kind: Kind) -> &'static PieceType {
    table().get(kind)
}

/// "1 Grail", "3 Grails".
fn grails(n: impl Into<u32>) -> String {
    match n.into() {
        1 => "1 Grail".to_owned(),
        n => format!("{n} Grails"),
    }
}

/// "Gold's Templar".
fn who(p: &Piece) -> String {
    format!("{}'s {}", p.side, ty(p.kind).name)
}

/// "a Militia", "an Archer".
fn article(kind: Kind) -> String {
    let name = &ty(kind).name;
    let vowel = name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

fn code(kind: Kind) -> String {
    ty(kind).code.clone()
}

fn seat(side: Side) -> u8 {
    side.player().0
}

impl Covenant {
    // ----- gestures ------------------------------------------------------------

    /// How a person picks `action` (legal here) on the board.
    pub(crate) fn gesture_of(&self, action: &Action) -> Gesture {
        // Every action that needs an active piece starts from its hex; an
        // action given out of turn still gets a gesture, from its own hex.
        let from = |fallback: Hex| Place::cell(self.active.map_or(fallback, |a| a.at));
        match *action {
            Action::Activate(h) => Gesture::click(GestureKind::Activate, Place::cell(h)),
            Action::Extra(h) => {
                let price = self
                    .piece_at(h)
                    .and_then(|p| self.extra_price(p))
                    .unwrap_or(0);
                Gesture::click(GestureKind::Activate, Place::cell(h)).choosing(
                    "extra",
                    format!("For the Kingdom! an extra act for {price} Blood"),
                )
            }
            Action::Move(to) => {
                let path = self.active_path(to).unwrap_or_default();
                let g = Gesture::to(GestureKind::Move, from(to), to)
                    .touching(path.iter().filter(|&&h| h != to));
                // A foe just felled there may be raised instead.
                if self.check(&Action::Convert(to)).is_ok() {
                    g.choosing("move", "walk there")
                } else {
                    g
                }
            }
            Action::Melee(t) => {
                let g = Gesture::to(GestureKind::Attack, from(t), t);
                if self.sweeps_from(t) {
                    g.choosing("melee", format!("strike {t} alone"))
                } else if self.check(&Action::Shoot(t)).is_ok()
                    || self.check(&Action::Holy(t)).is_ok()
                {
                    g.choosing("melee", "melee blow")
                } else {
                    g
                }
            }
            Action::Shoot(t) => {
                let g = Gesture::to(GestureKind::Shoot, from(t), t);
                if self.check(&Action::Melee(t)).is_ok() || self.check(&Action::Holy(t)).is_ok() {
                    let cost = self
                        .active_powers()
                        .and_then(|p| p.ranged)
                        .map_or(0, |r| r.cost);
                    g.choosing("shoot", format!("shoot ({cost} MP)"))
                } else {
                    g
                }
            }
            Action::Holy(t) => {
                let g = Gesture::to(GestureKind::Holy, from(t), t);
                if self.check(&Action::Melee(t)).is_ok() || self.check(&Action::Shoot(t)).is_ok() {
                    let cost = self
                        .active_powers()
                        .and_then(|p| p.holy_strike)
                        .map_or(0, |h| h.cost);
                    g.choosing("holy", format!("holy strike ({cost} MP)"))
                } else {
                    g
                }
            }
            Action::Sweep(targets) => {
                let first = targets.first();
                let others = &targets.as_slice()[1..];
                let names: Vec<String> = others.iter().map(ToString::to_string).collect();
                Gesture::to(GestureKind::Sweep, from(first), first)
                    .touching(others)
                    .choosing(names.join(","), format!("also strike {}", names.join(", ")))
            }
            Action::Heal { healer, target } => {
                Gesture::to(GestureKind::Heal, Place::cell(healer), target)
            }
            Action::Recruit { kind, at } => Gesture::to(
                GestureKind::Recruit,
                Place::item(RECRUITS, Some(self.side.player()), code(kind)),
                at,
            ),
            Action::Convert(h) => {
                let label = match self.convertible {
                    Some((kind, _)) => {
                        let cost = self.active_powers().and_then(|p| p.convert).unwrap_or(0);
                        format!("raise the {} for {}", ty(kind).name, grails(cost))
                    }
                    None => "raise the fallen".to_owned(),
                };
                Gesture::to(GestureKind::Convert, from(h), h).choosing("convert", label)
            }
            // Button ids differ from the canonical texts, which the table's
            // contract test reserves for the placeholder gesture.
            Action::EndAct => Gesture::button(GestureKind::EndPhase, "finish-act", "End the act"),
            Action::EndTurn => Gesture::button(GestureKind::EndTurn, "finish-turn", "End the turn"),
        }
    }

    fn active_piece_now(&self) -> Option<&Piece> {
        self.active.and_then(|a| self.piece_at(a.at))
    }

    fn active_powers(&self) -> Option<&'static Powers> {
        self.active_piece_now().map(|p| &ty(p.kind).powers)
    }

    /// The path the active piece walks to `to`: the hexes entered, `to` last.
    pub fn active_path(&self, to: Hex) -> Option<Vec<Hex>> {
        let a = self.active?;
        let p = self.piece_at(a.at)?;
        self.path(a.at, to, a.mp, ty(p.kind).powers.pass_through)
    }

    /// Whether the active piece may also sweep with `t` as its first target.
    fn sweeps_from(&self, t: Hex) -> bool {
        let Some(p) = self.active_piece_now() else {
            return false;
        };
        let foes = self
            .pieces
            .iter()
            .filter(|q| q.side != p.side && q.at.is_adjacent(p.at))
            .count();
        ty(p.kind).powers.sweep.is_some() && foes >= 2 && self.check(&Action::Melee(t)).is_ok()
    }

    // ----- holdings and zones --------------------------------------------------

    /// What `side` holds: Grails, the income its turn would bring, pieces.
    pub(crate) fn holdings_of(&self, side: Side) -> Vec<Holding> {
        let pieces = self.pieces.iter().filter(|p| p.side == side).count();
        vec![
            Holding::new("grails", "Grails", self.grails[side.index()]),
            Holding::new("income", "Income", self.income(side)),
            Holding::new("pieces", "Pieces", pieces),
        ]
    }

    /// A side's recruit offer: every kind it may still have more of, its
    /// price in the label, and how many its Grails buy now as the count.
    pub(crate) fn recruit_zone(&self, side: Side) -> Zone {
        let have = self.grails[side.index()];
        let items = table()
            .kinds()
            .filter_map(|k| {
                let t = ty(k);
                let price = t.price?;
                let room = match t.limit {
                    Some(limit) => usize::from(limit).checked_sub(self.count_of(side, k))?,
                    None => usize::MAX,
                };
                if room == 0 {
                    return None;
                }
                let affordable = usize::from(have / u16::from(price.max(1)));
                let count = affordable.min(room) as u32;
                Some(ZoneItem::new(
                    &t.code,
                    format!("{} ({})", t.name, grails(price)),
                    count,
                ))
            })
            .collect();
        Zone {
            zone: RECRUITS.to_owned(),
            owner: Some(side.player()),
            label: format!("{side}'s recruits"),
            items,
            hidden: 0,
        }
    }

    // ----- the key -------------------------------------------------------------

    /// A stable 64-bit hash of every field the rules observe, written field
    /// by field in little-endian so it does not depend on the platform.
    pub(crate) fn state_key(&self) -> u64 {
        let mut h = StableHasher::default();
        h.write(self.scenario.id.as_bytes());
        h.write_u8(0xff);
        h.write_u8(self.side as u8);
        h.write(&self.round.to_le_bytes());
        h.write(&self.quiet.to_le_bytes());
        h.write_u8(u8::from(self.captured));
        for g in self.grails {
            h.write(&g.to_le_bytes());
        }
        match self.active {
            Some(a) => h.write(&[1, a.at.col, a.at.row, a.mp, a.tiles]),
            None => h.write_u8(0),
        }
        match self.convertible {
            Some((k, at)) => h.write(&[1, k.0, at.col, at.row]),
            None => h.write_u8(0),
        }
        h.write(&(self.pieces.len() as u32).to_le_bytes());
        for p in &self.pieces {
            let flags = u8::from(p.extra)
                | u8::from(p.healed) << 1
                | u8::from(p.countered) << 2
                | u8::from(p.idle) << 3;
            h.write(&[
                p.kind.0,
                p.side as u8,
                p.at.col,
                p.at.row,
                p.blood,
                p.acts,
                flags,
            ]);
        }
        h.finish()
    }

    // ----- events --------------------------------------------------------------

    /// The events of `action` taking `self` to `after`. The action is
    /// replayed with a log so that every blow, counter, fall, refund and
    /// start-of-turn effect is reported as the engine did it.
    pub(crate) fn events_of(&self, action: &Action, after: &Covenant) -> Vec<Event> {
        let side = self.side;
        let player = side.player();
        let mut replay = self.clone();
        let mut log: Vec<Record> = Vec::new();
        if self.check(action).is_ok() && self.outcome().is_none() {
            replay.play_with(action, &mut log);
        }
        if replay != *after {
            // `after` did not come from `action` here: say only what was played.
            return vec![
                Event::new(
                    EventKind::Phase,
                    format!("{side} plays {}", self.action_notation(action)),
                )
                .by(player)
                .with("action", action.to_string()),
            ];
        }
        let mut out: Vec<Event> = Vec::new();
        match *action {
            Action::Activate(h) | Action::Extra(h) => {
                if let (Some(p), Some(q)) = (self.piece_at(h), after.piece_at(h)) {
                    let mp = after.active.map_or(0, |a| a.mp);
                    let t = ty(p.kind);
                    let mut e = if matches!(action, Action::Extra(_)) {
                        let paid = p.blood - q.blood;
                        Event::new(
                            EventKind::Phase,
                            format!(
                                "{side} buys the {} on {h} an extra act for {paid} Blood (For the Kingdom!): {} Blood left, {mp} MP",
                                t.name, q.blood
                            ),
                        )
                        .with("paid", paid)
                        .with("blood_left", q.blood)
                    } else {
                        Event::new(
                            EventKind::Phase,
                            format!("{side} activates the {} on {h} ({mp} MP)", t.name),
                        )
                    };
                    e = e
                        .by(player)
                        .at([h])
                        .with("cell", h.to_string())
                        .with("piece", code(p.kind))
                        .with("mp", mp)
                        .with("act", q.acts);
                    out.push(e);
                }
            }
            Action::Move(to) => {
                if let (Some(a), Some(b)) = (self.active, after.active)
                    && let Some(p) = self.piece_at(a.at)
                {
                    let path = self.active_path(to).unwrap_or_default();
                    let cost = a.mp - b.mp;
                    let mut cells = vec![a.at];
                    cells.extend(&path);
                    out.push(
                        Event::new(
                            EventKind::Move,
                            format!(
                                "{} walks from {} to {to} ({cost} MP, {} left)",
                                who(p),
                                a.at,
                                b.mp
                            ),
                        )
                        .by(player)
                        .at(&cells)
                        .with("from", a.at.to_string())
                        .with("to", to.to_string())
                        .with("piece", code(p.kind))
                        .with(
                            "path",
                            path.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        )
                        .with("cost", cost)
                        .with("mp_left", b.mp)
                        .with("tiles", b.tiles),
                    );
                }
            }
            Action::Heal { healer, target } => {
                if let (Some(p), Some(q)) = (self.piece_at(target), after.piece_at(target)) {
                    let gained = q.blood - p.blood;
                    let whom = if healer == target {
                        "himself".to_owned()
                    } else {
                        format!("the {} on {target}", ty(p.kind).name)
                    };
                    out.push(
                        Event::new(
                            EventKind::Heal,
                            format!(
                                "{side}'s Prophet on {healer} heals {whom} to full Blood: +{gained}, {} Blood",
                                q.blood
                            ),
                        )
                        .by(player)
                        .at([healer, target])
                        .with("healer", healer.to_string())
                        .with("cell", target.to_string())
                        .with("piece", code(p.kind))
                        .with("amount", gained)
                        .with("blood", q.blood)
                        .with("cause", "healing"),
                    );
                }
            }
            Action::Recruit { kind, at } => {
                let price = self.grails[side.index()] - after.grails[side.index()];
                let left = after.grails[side.index()];
                out.push(
                    Event::new(
                        EventKind::Enter,
                        format!(
                            "{side} recruits {} on {at} for {} ({} left)",
                            article(kind),
                            grails(price),
                            grails(left)
                        ),
                    )
                    .by(player)
                    .at([at])
                    .with("cell", at.to_string())
                    .with("piece", code(kind))
                    .with("paid", price)
                    .with("grails_left", left),
                );
            }
            Action::Convert(h) => {
                if let Some(q) = after.piece_at(h) {
                    let cost = self.grails[side.index()] - after.grails[side.index()];
                    let left = after.grails[side.index()];
                    let by = self.active_piece_now().map_or_else(
                        || format!("{side}'s Apostle"),
                        |p| format!("{} on {}", who(p), p.at),
                    );
                    out.push(
                        Event::new(
                            EventKind::Convert,
                            format!(
                                "{by} raises the fallen {} on {h} under {side}'s banner for {} ({} left); it stands idle this turn",
                                ty(q.kind).name,
                                grails(cost),
                                grails(left)
                            ),
                        )
                        .by(player)
                        .at([h])
                        .with("cell", h.to_string())
                        .with("piece", code(q.kind))
                        .with("paid", cost)
                        .with("grails_left", left),
                    );
                }
            }
            Action::EndAct | Action::EndTurn => {
                if let Some(p) = self.active_piece_now() {
                    out.push(
                        Event::new(
                            EventKind::Phase,
                            format!("{} on {} ends its act", who(p), p.at),
                        )
                        .by(player)
                        .at([p.at])
                        .with("cell", p.at.to_string())
                        .with("piece", code(p.kind))
                        .with("ended", "act"),
                    );
                }
            }
            Action::Melee(_) | Action::Shoot(_) | Action::Holy(_) | Action::Sweep(_) => {}
        }
        let mut turn_told = false;
        // Index of the last event, if it is the blow a counter may answer.
        let mut last_blow: Option<(usize, Hex, Hex)> = None;
        for record in &log {
            let answered = last_blow.take();
            match *record {
                Record::Blow {
                    by,
                    target,
                    damage,
                    attack,
                    blow,
                } => {
                    let left = target.blood.saturating_sub(damage);
                    let verb = match (attack, blow) {
                        (Attack::Melee, 1) => "strikes",
                        (Attack::Melee, _) => "strikes again",
                        (Attack::Sweep, _) => "sweeps",
                        (Attack::Shot, _) => "shoots",
                        (Attack::Holy, _) => "casts a holy strike on",
                    };
                    let kind = match attack {
                        Attack::Melee => "melee",
                        Attack::Sweep => "sweep",
                        Attack::Shot => "shot",
                        Attack::Holy => "holy",
                    };
                    out.push(
                        Event::new(
                            EventKind::Damage,
                            format!(
                                "{} {verb} {} on {} for {damage} ({left} Blood left)",
                                who(&by),
                                who(&target),
                                target.at
                            ),
                        )
                        .by(by.side.player())
                        .at([by.at, target.at])
                        .with("attack", kind)
                        .with("blow", blow)
                        .with("attacker", by.at.to_string())
                        .with("attacker_piece", code(by.kind))
                        .with("target", target.at.to_string())
                        .with("target_piece", code(target.kind))
                        .with("target_owner", seat(target.side))
                        .with("damage", damage)
                        .with("blood_left", left),
                    );
                    last_blow = Some((out.len() - 1, by.at, target.at));
                }
                Record::Counter {
                    by,
                    target,
                    damage,
                    wrath,
                } => {
                    let left = target.blood.saturating_sub(damage);
                    let name = &ty(by.kind).name;
                    match answered {
                        Some((i, attacker, struck)) if attacker == target.at && struck == by.at => {
                            let e = &mut out[i];
                            if wrath {
                                e.text.push_str(&format!(
                                    "; the {name} answers with holy wrath for {damage} ({left} Blood left)"
                                ));
                            } else {
                                e.text.push_str(&format!(
                                    "; the {name} strikes back for {damage} ({left} Blood left)"
                                ));
                            }
                            e.data.insert(
                                "counter".to_owned(),
                                json!({
                                    "by": by.at.to_string(),
                                    "piece": code(by.kind),
                                    "damage": damage,
                                    "blood_left": left,
                                    "wrath": wrath,
                                }),
                            );
                        }
                        _ => {
                            let how = if wrath {
                                "answers with holy wrath"
                            } else {
                                "strikes back"
                            };
                            out.push(
                                Event::new(
                                    EventKind::Damage,
                                    format!(
                                        "{} on {} {how} at {} on {} for {damage} ({left} Blood left)",
                                        who(&by),
                                        by.at,
                                        who(&target),
                                        target.at
                                    ),
                                )
                                .by(by.side.player())
                                .at([by.at, target.at])
                                .with("attack", if wrath { "wrath" } else { "counter" })
                                .with("blow", 1)
                                .with("attacker", by.at.to_string())
                                .with("attacker_piece", code(by.kind))
                                .with("target", target.at.to_string())
                                .with("target_piece", code(target.kind))
                                .with("target_owner", seat(target.side))
                                .with("damage", damage)
                                .with("blood_left", left),
                            );
                        }
                    }
                }
                Record::Fell { piece, by_enemy } => {
                    let how = if by_enemy {
                        String::new()
                    } else {
                        " to its Sacrifice".to_owned()
                    };
                    out.push(
                        Event::new(
                            EventKind::Fall,
                            format!("{} on {} falls{how}", who(&piece), piece.at),
                        )
                        .by(piece.side.player())
                        .at([piece.at])
                        .with("cell", piece.at.to_string())
                        .with("piece", code(piece.kind))
                        .with("owner", seat(piece.side))
                        .with("by_foe", by_enemy),
                    );
                }
                Record::Grace { piece, grails: n } => {
                    out.push(
                        Event::new(
                            EventKind::Resource,
                            format!(
                                "Grace: the Angel refunds {} the {}'s price, {}",
                                piece.side,
                                ty(piece.kind).name,
                                grails(n)
                            ),
                        )
                        .by(piece.side.player())
                        .at([piece.at])
                        .with("grails", n)
                        .with("piece", code(piece.kind))
                        .with("cause", "grace"),
                    );
                }
                Record::Crowned { heir } => {
                    out.push(
                        Event::new(
                            EventKind::Promote,
                            format!("{} on {} takes the crown", who(&heir), heir.at),
                        )
                        .by(heir.side.player())
                        .at([heir.at])
                        .with("cell", heir.at.to_string())
                        .with("piece", code(heir.kind))
                        .with("becomes", code(table().king())),
                    );
                }
                Record::Sacrifice { piece, blood } => {
                    let left = piece.blood - blood;
                    out.push(
                        Event::new(
                            EventKind::Damage,
                            format!(
                                "{} on {} pays {blood} Blood for its second act ({left} Blood left)",
                                who(&piece),
                                piece.at
                            ),
                        )
                        .by(piece.side.player())
                        .at([piece.at])
                        .with("attack", "sacrifice")
                        .with("target", piece.at.to_string())
                        .with("target_piece", code(piece.kind))
                        .with("target_owner", seat(piece.side))
                        .with("damage", blood)
                        .with("blood_left", left),
                    );
                }
                Record::TurnBegins { side: next } => {
                    self.turn_ended(after, &mut out);
                    turn_told = true;
                    out.push(
                        Event::new(EventKind::Phase, format!("{next}'s turn begins"))
                            .by(next.player())
                            .with("begins", "turn")
                            .with("side", next.name().to_ascii_lowercase()),
                    );
                }
                Record::Income { side: s, grails: n } => {
                    let total = after.grails[s.index()];
                    out.push(
                        Event::new(
                            EventKind::Resource,
                            format!(
                                "{s} collects {} from its Holy Cities ({} in all)",
                                grails(n),
                                grails(total)
                            ),
                        )
                        .by(s.player())
                        .with("grails", n)
                        .with("total", total)
                        .with("cause", "income"),
                    );
                }
                Record::Recovery { piece, blood } => {
                    let now = piece.blood + blood;
                    out.push(
                        Event::new(
                            EventKind::Heal,
                            format!(
                                "{} on {} recovers {blood} Blood by the Princess's aura ({now} Blood)",
                                who(&piece),
                                piece.at
                            ),
                        )
                        .by(piece.side.player())
                        .at([piece.at])
                        .with("cell", piece.at.to_string())
                        .with("piece", code(piece.kind))
                        .with("amount", blood)
                        .with("blood", now)
                        .with("cause", "recovery"),
                    );
                }
            }
        }
        if matches!(action, Action::EndTurn) && !turn_told {
            self.turn_ended(after, &mut out);
        }
        if let Some((kind, at)) = after.convertible
            && self.convertible != after.convertible
        {
            let cost = after.active_powers().and_then(|p| p.convert).unwrap_or(0);
            out.push(
                Event::new(
                    EventKind::State,
                    format!(
                        "{side} may raise the fallen {} on {at} for {}",
                        ty(kind).name,
                        grails(cost)
                    ),
                )
                .by(player)
                .at([at])
                .with("cell", at.to_string())
                .with("piece", code(kind))
                .with("cost", cost),
            );
        }
        if let Some(outcome) = after.outcome()
            && self.outcome().is_none()
        {
            let mut e = Event::new(EventKind::End, after.describe_outcome(&outcome))
                .with("reason", outcome.reason.id());
            e.data.insert(
                "winner".to_owned(),
                outcome.winner.map_or(Value::Null, |t| Value::from(t.0)),
            );
            out.push(e);
        }
        out
    }

    /// "Gold ends its turn", and the new round if Blue's turn ended.
    fn turn_ended(&self, after: &Covenant, out: &mut Vec<Event>) {
        let side = self.side;
        out.push(
            Event::new(EventKind::Phase, format!("{side} ends its turn"))
                .by(side.player())
                .with("ended", "turn"),
        );
        if after.round != self.round {
            out.push(
                Event::new(
                    EventKind::Phase,
                    format!(
                        "Round {} begins ({} of {} rounds without a capture)",
                        after.round,
                        after.quiet,
                        table().rules.draw_rounds
                    ),
                )
                .with("begins", "round")
                .with("round", after.round)
                .with("quiet_rounds", after.quiet),
            );
        }
    }
}

// ----- the catalog -------------------------------------------------------------

/// The powers a piece has, as a JSON object without the ones it lacks.
fn powers_json(powers: &Powers) -> Value {
    let mut map = Map::new();
    if let Ok(Value::Object(all)) = serde_json::to_value(powers) {
        for (k, v) in all {
            if !(v.is_null() || v == Value::Bool(false)) {
                map.insert(k, v);
            }
        }
    }
    Value::Object(map)
}

fn piece_kind(t: &PieceType) -> PieceKind {
    PieceKind {
        id: t.code.clone(),
        name: t.name.clone(),
        letter: t.code.clone(),
        stats: json!({
            "attack": t.attack,
            "defence": t.defence,
            "blood": t.blood,
            "speed": t.speed,
            "price": t.price,
            "limit": t.limit,
            "acts": t.base_acts(),
            "king": t.king,
            "royal": t.royal,
            "legend": t.legend,
            "rider": t.rider,
            "powers": powers_json(&t.powers),
        }),
    }
}

/// The hex field of `scenario`: every hex with its land and Holy City marks.
pub(crate) fn board(scenario: &Scenario) -> BoardShape {
    let cells = scenario
        .hexes()
        .map(|hex| {
            let terrain = scenario.terrain(hex).unwrap_or(Terrain::Open);
            let mut features = vec![terrain.name().to_owned()];
            if terrain.is_rough() {
                features.push("rough".to_owned());
            }
            if scenario.city(hex).is_some() {
                features.push("holy-city".to_owned());
            }
            if scenario.cities.contains(&hex) {
                features.push("holy-city-mark".to_owned());
            }
            HexCell {
                cell: hex.to_string(),
                col: i32::from(hex.col),
                row: i32::from(hex.row),
                features,
            }
        })
        .collect();
    BoardShape::Hexes { cells }
}

/// What never changes under `options`: the field, the piece table, the
/// scenario and the rule numbers.
pub(crate) fn catalog(options: &CovenantOptions) -> Catalog {
    let scenario = Scenario::builtin(options.scenario);
    let s = &*scenario;
    let cities: Vec<Value> = s
        .cities
        .iter()
        .map(|&mark| {
            json!({
                "mark": mark.to_string(),
                "hexes": s.city_area(mark).map(|h| h.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Catalog {
        game: GameId::Covenant,
        title: GameId::Covenant.title().to_owned(),
        board: board(s),
        pieces: table().pieces.iter().map(piece_kind).collect(),
        extra: json!({
            "scenario": {
                "id": s.id,
                "name": s.name,
                "about": s.about,
                "width": s.width,
                "height": s.height,
            },
            "cities": cities,
            "orientation": "flat-top",
            "layout": "columns lettered from a at the left, rows numbered from 1 at the bottom (Gold's edge); col and row count from 0 (a1 is col 0, row 0); odd columns (b, d, f..., col 1, 3, 5...) stand half a hex higher than even ones, so a1 touches a2 and b1, and b1 touches a1, a2, b2, c1, c2",
            "rules": table().rules,
            "seats": [Side::Gold.name(), Side::Blue.name()],
        }),
    }
}

/// The player's side, if the seat is at the table.
pub(crate) fn side_of(player: Player) -> Option<Side> {
    Side::of_index(player.index())
}
