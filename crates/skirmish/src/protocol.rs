//! The table protocol for Skirmish chess: how each action is clicked
//! (gestures), what happened (events, in the book's words), what a seat
//! holds, what never changes (the catalog), and the state key.

use std::hash::{Hash, Hasher};

use serde_json::{Value, json};
use tabula_chess::attacks::king_attacks;
use tabula_chess::{Bitboard, CastlingSide, Color, Move, Role, Square, UciMove};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, Holding, PieceKind, Place,
    StableHasher,
};
use tabula_core::{Game, GameId, Player};

use crate::action::SkirmishAction;
use crate::odds::{Odds, Verdict, piece_value};
use crate::options::{KingCaptures, Mode, SkirmishOptions};
use crate::state::{Pending, Phase, Skirmish, TacticalMove, path, target_square};

/// The catalog id of a piece kind, as views and event data write it: its
/// upper-case letter, as in chess (`K`, `Q`... `P`).
pub(crate) const fn role_id(role: Role) -> &'static str {
    match role {
        Role::Pawn => "P",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// The piece's name as the book writes it.
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

pub(crate) const fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(crate) fn seat(c: Color) -> Player {
    Player(c as u8)
}

fn with_article(role: Role) -> String {
    format!("a {}", role_name(role))
}

fn cells(bb: Bitboard) -> Vec<String> {
    bb.into_iter().map(|s| s.to_string()).collect()
}

/// "1 + 5 + 1 = 7", "3 + 4 - 2 = 5", "3 + 4 = 7" (no bonus for a defender).
fn sum(value: i64, roll: u32, bonus: Option<i64>) -> String {
    let total = value + i64::from(roll) + bonus.unwrap_or(0);
    match bonus {
        Some(b) if b < 0 => format!("{value} + {roll} - {} = {total}", -b),
        Some(b) => format!("{value} + {roll} + {b} = {total}"),
        None => format!("{value} + {roll} = {total}"),
    }
}

/// "5 + 1", "5 - 2": a value with the attack bonus.
fn with_bonus(value: i64, bonus: i64) -> String {
    if bonus < 0 {
        format!("{value} - {}", -bonus)
    } else {
        format!("{value} + {bonus}")
    }
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn promotion_choice(g: Gesture, promotion: Option<Role>) -> Gesture {
    match promotion {
        // The choice is the JSON action's promotion letter, lower case.
        Some(r) => g.choosing(r.char().to_string(), role_name(r)),
        None => g,
    }
}

fn odds_data(e: Event, odds: &Odds) -> Event {
    e.with("attack_value", odds.attack_value)
        .with("bonus", odds.bonus)
        .with("defence_value", odds.defence_value)
        .with("dice", odds.dice.to_string())
        .with(
            "win_probability",
            serde_json::to_value(odds.win_probability()).unwrap_or(Value::Null),
        )
        .with("given", odds.given().map_or(Value::Null, Value::from))
}

/// "wins with probability 7/12 (58%)", "wins for certain (a given)".
fn chance_words(odds: &Odds) -> String {
    match odds.given() {
        Some(true) => "the attacker wins for certain (a given, no dice)".to_owned(),
        Some(false) => "the attacker cannot win (a given, no dice)".to_owned(),
        None => {
            let p = odds.win_probability();
            format!(
                "the attacker wins with probability {p} ({:.0}%)",
                p.to_f64() * 100.0
            )
        }
    }
}

impl Skirmish {
    /// "White's Knight on e4".
    fn owned(&self, sq: Square) -> String {
        match self.board.piece_at(sq) {
            Some(p) => format!("{}'s {} on {sq}", color_name(p.color), role_name(p.role)),
            None => format!("the piece on {sq}"),
        }
    }

    /// "the Bishop on f6".
    fn the(&self, sq: Square) -> String {
        match self.board.role_at(sq) {
            Some(r) => format!("the {} on {sq}", role_name(r)),
            None => format!("the piece on {sq}"),
        }
    }

    /// "Knight".
    fn name_at(&self, sq: Square) -> &'static str {
        self.board.role_at(sq).map_or("piece", role_name)
    }

    fn id_at(&self, sq: Square) -> &'static str {
        self.board.role_at(sq).map_or("", role_id)
    }

    fn king_captures_normally(&self, from: Square) -> bool {
        self.options.king_captures == KingCaptures::Normal
            && self.board.pieces(self.turn, Role::King).contains(from)
    }

    // ----- gestures -------------------------------------------------------

    /// How a person picks `action` (see `docs/rules/skirmish.md`, "Table
    /// protocol").
    pub(crate) fn gesture_of(&self, action: &SkirmishAction) -> Gesture {
        match (*action, self.phase) {
            (SkirmishAction::Move(uci), _) => self.move_gesture(uci),
            (
                SkirmishAction::Tactical {
                    from,
                    to,
                    promotion,
                    target,
                },
                _,
            ) => {
                if from == to {
                    // Attacking while remaining in the same spot: the
                    // piece, then the target; the choice tells it from a
                    // full-value skirmish on the same target.
                    Gesture::to(GestureKind::Attack, Place::cell(from), target).choosing(
                        "tactical",
                        format!(
                            "Attack {} at half value, remaining on {from}",
                            self.the(target)
                        ),
                    )
                } else {
                    let mut id = format!("tactical:{target}");
                    let mut label = format!(
                        "Tactical movement to {to}, attacking {} first at half value",
                        self.the(target)
                    );
                    if let Some(r) = promotion {
                        id.push(':');
                        id.push(r.char());
                        label.push_str(&format!(", promoting to {}", with_article(r)));
                    }
                    let way = path(from, to);
                    let walked = way.squares().iter().skip(1).copied();
                    Gesture::to(GestureKind::Attack, Place::cell(from), to)
                        .touching([target])
                        .touching(walked)
                        .choosing(id, label)
                }
            }
            (SkirmishAction::Hit(target), Phase::Tactical(t)) => {
                let g = Gesture::to(GestureKind::Attack, Place::cell(t.from), target);
                match fighting_square(t, target) {
                    Some(sq) if sq != t.from => g.touching([sq]),
                    _ => g,
                }
            }
            (SkirmishAction::Arrive, Phase::Tactical(t)) => {
                if t.from == t.to {
                    Gesture::button(GestureKind::EndPhase, "arrive", "End the Tactical movement")
                } else {
                    Gesture::to(GestureKind::Move, Place::cell(t.from), t.to)
                }
            }
            (SkirmishAction::Divided { from, targets }, _) => {
                let first = targets.first().unwrap_or(from);
                let names: Vec<String> = targets.into_iter().map(|t| self.the(t)).collect();
                let n = i64::from(targets.count().max(1));
                let v = self.value_at(from);
                let mut list = String::new();
                let _ = crate::action::write_squares(&mut list, targets);
                Gesture::to(GestureKind::Attack, Place::cell(from), first)
                    .touching(targets.without(first))
                    .choosing(
                        format!("divided:{list}"),
                        format!(
                            "Divided skirmish against {} (value {v} / {n} = {} each)",
                            join_and(&names),
                            v.div_euclid(n)
                        ),
                    )
            }
            (SkirmishAction::Place { to, promotion }, Phase::Place { from, .. }) => {
                promotion_choice(
                    Gesture::to(GestureKind::Move, Place::cell(from), to),
                    promotion,
                )
            }
            (SkirmishAction::Stay, _) => Gesture::button(
                GestureKind::Decide,
                "stay",
                "Stay: keep the defending piece where it stands",
            ),
            (
                SkirmishAction::Take {
                    from,
                    to,
                    promotion,
                },
                _,
            ) => promotion_choice(
                Gesture::to(GestureKind::Decide, Place::cell(from), to),
                promotion,
            ),
            (SkirmishAction::End, _) => {
                Gesture::button(GestureKind::EndTurn, "end-turn", "End the turn")
            }
            // Chance outcomes and actions not legal here: no player clicks
            // them; a plain button keeps the function total.
            _ => Gesture::button(GestureKind::Pass, &action.to_string(), action.to_string()),
        }
    }

    fn move_gesture(&self, uci: UciMove) -> Gesture {
        match self.interpret(uci) {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
                Gesture::to(GestureKind::Castle, Place::cell(king), king_to)
                    .touching([rook, rook_to])
            }
            m @ Move::EnPassant { from, to } => {
                Gesture::to(GestureKind::Capture, Place::cell(from), to)
                    .touching([target_square(m)])
            }
            m @ Move::Normal {
                from,
                to,
                promotion,
            } => {
                let kind = if self.is_capture(m) {
                    GestureKind::Capture
                } else {
                    GestureKind::Move
                };
                promotion_choice(Gesture::to(kind, Place::cell(from), to), promotion)
            }
        }
    }

    // ----- holdings and catalog --------------------------------------------

    /// Material (the book's values, the King left out) and the number of
    /// pieces on the board: all public.
    pub(crate) fn holdings_of(&self, player: Player) -> Vec<Holding> {
        let color = match player.0 {
            0 => Color::White,
            1 => Color::Black,
            _ => return Vec::new(),
        };
        let mine = self.board.by_color(color);
        let material: i64 = (mine & !self.board.kings())
            .into_iter()
            .map(|sq| self.value_at(sq))
            .sum();
        vec![
            Holding::new("material", "Material", material),
            Holding::new("pieces", "Pieces", mine.count()),
        ]
    }

    // ----- events -----------------------------------------------------------

    /// What happened when `action` took `self` to `after`.
    pub(crate) fn events_of(&self, action: &SkirmishAction, after: &Skirmish) -> Vec<Event> {
        let mut ev = Vec::new();
        let us = self.turn;
        let me = seat(us);
        match (self.phase, *action) {
            (Phase::Act, SkirmishAction::Move(uci)) => {
                let m = self.interpret(uci);
                if !self.is_capture(m) {
                    self.quiet_events(m, &mut ev);
                } else if self.king_captures_normally(m.from()) {
                    let (from, target) = (m.from(), target_square(m));
                    ev.push(
                        Event::new(
                            EventKind::Capture,
                            format!(
                                "{} captures {} in the normal chess manner, no skirmish",
                                self.owned(from),
                                self.the(target)
                            ),
                        )
                        .by(me)
                        .at([from, target])
                        .with("piece", self.id_at(from))
                        .with("from", from.to_string())
                        .with("to", m.to().to_string())
                        .with("captured", self.id_at(target))
                        .with("captured_on", target.to_string())
                        .with("captured_owner", seat(!us).0),
                    );
                } else {
                    let (from, target) = (m.from(), target_square(m));
                    let odds = self.odds_of_pending(Pending::Capture(m));
                    let k = u32::from(self.ts.attacks.get(from)) + 1;
                    let sequential = if k > 1 {
                        format!(
                            ", its {} attack this turn (Attack Bonus now {})",
                            ordinal(k),
                            odds.bonus
                        )
                    } else {
                        String::new()
                    };
                    ev.push(odds_data(
                        Event::new(
                            EventKind::Attack,
                            format!(
                                "{} attacks {}{sequential}: {}",
                                self.owned(from),
                                self.the(target),
                                chance_words(&odds)
                            ),
                        )
                        .by(me)
                        .at([from, target])
                        .with("skirmish", "capture")
                        .with("attacker", from.to_string())
                        .with("defender", target.to_string())
                        .with("attack_number", k),
                        &odds,
                    ));
                }
            }
            (
                Phase::Act,
                SkirmishAction::Tactical {
                    from,
                    to,
                    promotion,
                    target,
                },
            ) => {
                let odds = self.odds_of_pending(Pending::Tactical {
                    tactical: TacticalMove {
                        from,
                        to,
                        promotion,
                        at: 0,
                    },
                    target,
                });
                let how = if from == to {
                    format!("remaining on {from}")
                } else {
                    format!("to {to}")
                };
                ev.push(odds_data(
                    Event::new(
                        EventKind::Attack,
                        format!(
                            "{} announces a Tactical movement {how} and attacks {} at half value: {}",
                            self.owned(from),
                            self.the(target),
                            chance_words(&odds)
                        ),
                    )
                    .by(me)
                    .at([from, target])
                    .with("skirmish", "tactical")
                    .with("attacker", from.to_string())
                    .with("defender", target.to_string())
                    .with("to", to.to_string()),
                    &odds,
                ));
            }
            (Phase::Tactical(t), SkirmishAction::Hit(target)) => {
                let odds = self.odds_of_pending(Pending::Tactical {
                    tactical: t,
                    target,
                });
                ev.push(odds_data(
                    Event::new(
                        EventKind::Attack,
                        format!(
                            "{}, on its Tactical movement to {}, attacks {} at half value: {}",
                            self.owned(t.from),
                            t.to,
                            self.the(target),
                            chance_words(&odds)
                        ),
                    )
                    .by(me)
                    .at([t.from, target])
                    .with("skirmish", "tactical")
                    .with("attacker", t.from.to_string())
                    .with("defender", target.to_string())
                    .with("to", t.to.to_string()),
                    &odds,
                ));
            }
            (Phase::Tactical(t), SkirmishAction::Arrive) => self.arrival_events(t, &mut ev),
            (Phase::Act, SkirmishAction::Divided { from, targets }) => {
                let v = self.value_at(from);
                let n = i64::from(targets.count().max(1));
                let names: Vec<String> = targets.into_iter().map(|t| self.the(t)).collect();
                let odds = self.odds(action);
                let chances: Vec<Value> = odds
                    .iter()
                    .map(|o| serde_json::to_value(o.win_probability()).unwrap_or(Value::Null))
                    .collect();
                ev.push(
                    Event::new(
                        EventKind::Attack,
                        format!(
                            "{} announces a divided skirmish against {} (value {v} / {n} = {} each)",
                            self.owned(from),
                            join_and(&names),
                            v.div_euclid(n)
                        ),
                    )
                    .by(me)
                    .at(std::iter::once(from).chain(targets))
                    .with("skirmish", "divided")
                    .with("attacker", from.to_string())
                    .with("defenders", cells(targets))
                    .with("attack_value", v.div_euclid(n))
                    .with("win_probabilities", chances),
                );
            }
            (Phase::Place { from, .. }, SkirmishAction::Place { to, promotion }) => {
                self.placement_events(from, to, promotion, &mut ev);
            }
            (Phase::Choice { defenders, .. }, SkirmishAction::Stay) => {
                let names: Vec<String> = defenders.into_iter().map(|d| self.owned(d)).collect();
                ev.push(
                    Event::new(
                        EventKind::Phase,
                        format!("{} {}", join_and(&names), stay_words(names.len())),
                    )
                    .by(seat(!us))
                    .at(defenders)
                    .with("decision", "stay")
                    .with("defenders", cells(defenders)),
                );
            }
            (
                Phase::Choice { .. },
                SkirmishAction::Take {
                    from,
                    to,
                    promotion,
                },
            ) => {
                ev.push(
                    Event::new(
                        EventKind::Move,
                        format!(
                            "{} takes the defunct attacker's old square {to}",
                            self.owned(from)
                        ),
                    )
                    .by(seat(!us))
                    .at([from, to])
                    .with("decision", "take")
                    .with("piece", self.id_at(from))
                    .with("from", from.to_string())
                    .with("to", to.to_string()),
                );
                if let Some(r) = promotion {
                    ev.push(promote_event(!us, to, r));
                }
            }
            (Phase::Act, SkirmishAction::End) => {
                ev.push(
                    Event::new(
                        EventKind::Phase,
                        format!("{} ends the turn", color_name(us)),
                    )
                    .by(me),
                );
            }
            (Phase::Roll(p), SkirmishAction::Roll { .. } | SkirmishAction::Given) => {
                self.resolution_events(p, action, after, &mut ev);
            }
            _ => ev.push(Event::new(EventKind::Move, self.action_notation(action)).by(me)),
        }
        // What the new state starts with: a check or checkmate roll to come,
        // or the end of the game.
        if after.phase != self.phase
            && let Phase::Roll(Pending::Check(c) | Pending::Mate(c)) = after.phase
        {
            ev.push(after.check_event(c, matches!(after.phase, Phase::Roll(Pending::Mate(_)))));
        }
        if let Phase::Over(o) = after.phase
            && !matches!(self.phase, Phase::Over(_))
        {
            ev.push(
                Event::new(EventKind::End, after.describe_outcome(&o))
                    .with("winner", o.winner.map_or(Value::Null, |t| Value::from(t.0)))
                    .with("reason", o.reason.id()),
            );
        }
        ev
    }

    /// The check (or checkmate) about to be rolled, in the state that has it.
    fn check_event(&self, checkers: Bitboard, mate: bool) -> Event {
        let king = self.board.king_of(self.turn);
        let names: Vec<String> = checkers.into_iter().map(|c| self.owned(c)).collect();
        let king_name = king.map_or_else(|| "the King".to_owned(), |k| self.owned(k));
        let text = if mate {
            format!(
                "{king_name} is checkmated by {}: a checkmate roll decides between a win for {} and the loss of the checking piece{}",
                join_and(&names),
                color_name(!self.turn),
                if checkers.more_than_one() { "s" } else { "" }
            )
        } else {
            format!(
                "{king_name} is in check from {}: a check roll decides whether it has to respond",
                join_and(&names)
            )
        };
        Event::new(EventKind::Check, text)
            .by(seat(self.turn))
            .at(king.into_iter().chain(checkers))
            .with(
                "king",
                king.map_or(Value::Null, |k| Value::from(k.to_string())),
            )
            .with("checkers", cells(checkers))
            .with("roll", if mate { "checkmate" } else { "check" })
    }

    /// A move without a skirmish: the Basic game's move, a Strategic
    /// movement, castling.
    fn quiet_events(&self, m: Move, ev: &mut Vec<Event>) {
        let us = self.turn;
        match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
                let side_word = match side {
                    CastlingSide::KingSide => "kingside",
                    CastlingSide::QueenSide => "queenside",
                };
                ev.push(
                    Event::new(
                        EventKind::Castle,
                        format!(
                            "{} castles {side_word}: King {king} to {king_to}, Rook {rook} to {rook_to}",
                            color_name(us)
                        ),
                    )
                    .by(seat(us))
                    .at([king, king_to, rook, rook_to])
                    .with("side", side_word)
                    .with("king_from", king.to_string())
                    .with("king_to", king_to.to_string())
                    .with("rook_from", rook.to_string())
                    .with("rook_to", rook_to.to_string()),
                );
            }
            _ => {
                let (from, to) = (m.from(), m.to());
                let verb = match self.options.mode {
                    Mode::Basic => "moves",
                    Mode::Advanced => "makes a Strategic movement",
                };
                ev.push(
                    Event::new(
                        EventKind::Move,
                        format!(
                            "{}'s {} {verb} from {from} to {to}",
                            color_name(us),
                            self.name_at(from)
                        ),
                    )
                    .by(seat(us))
                    .at([from, to])
                    .with("piece", self.id_at(from))
                    .with("from", from.to_string())
                    .with("to", to.to_string()),
                );
                if let Some(r) = m.promotion() {
                    ev.push(promote_event(us, to, r));
                }
            }
        }
    }

    fn arrival_events(&self, t: TacticalMove, ev: &mut Vec<Event>) {
        let us = self.turn;
        if t.from == t.to {
            ev.push(
                Event::new(
                    EventKind::Phase,
                    format!(
                        "{} ends its Tactical movement where it stands",
                        self.owned(t.from)
                    ),
                )
                .by(seat(us))
                .at([t.from]),
            );
            return;
        }
        ev.push(
            Event::new(
                EventKind::Move,
                format!(
                    "{} ends its Tactical movement on {}",
                    self.owned(t.from),
                    t.to
                ),
            )
            .by(seat(us))
            .at([t.from, t.to])
            .with("piece", self.id_at(t.from))
            .with("from", t.from.to_string())
            .with("to", t.to.to_string()),
        );
        if let Some(r) = t.promotion {
            ev.push(promote_event(us, t.to, r));
        }
    }

    fn placement_events(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        ev: &mut Vec<Event>,
    ) {
        let us = self.turn;
        ev.push(
            Event::new(
                EventKind::Move,
                format!(
                    "{}, having won every skirmish, is placed on {to}",
                    self.owned(from)
                ),
            )
            .by(seat(us))
            .at([from, to])
            .with("piece", self.id_at(from))
            .with("from", from.to_string())
            .with("to", to.to_string()),
        );
        if let Some(r) = promotion {
            ev.push(promote_event(us, to, r));
        }
    }

    /// The piece on `sq` leaves the board, taken by `by`'s piece that
    /// stands on `capturer.0` and ends on `capturer.1` (`None`: no single
    /// capturer, as when a divided skirmish is lost).
    fn captured_event(
        &self,
        by: Color,
        sq: Square,
        how: &str,
        capturer: Option<(Square, Square)>,
    ) -> Event {
        let owner = self.board.color_at(sq).unwrap_or(!by);
        let mut e =
            Event::new(EventKind::Capture, format!("{} {how}", self.owned(sq))).by(seat(by));
        if let Some((from, to)) = capturer {
            let mut at = vec![from];
            for c in [to, sq] {
                if !at.contains(&c) {
                    at.push(c);
                }
            }
            e = e
                .at(at)
                .with("piece", self.id_at(from))
                .with("from", from.to_string())
                .with("to", to.to_string());
        } else {
            e = e.at([sq]);
        }
        e.with("captured", self.id_at(sq))
            .with("captured_on", sq.to_string())
            .with("captured_owner", seat(owner).0)
    }

    /// The dice (or the given) of the pending roll `p`, the skirmish's
    /// result, and what it led to.
    fn resolution_events(
        &self,
        p: Pending,
        action: &SkirmishAction,
        after: &Skirmish,
        ev: &mut Vec<Event>,
    ) {
        let us = self.turn;
        let odds = self.odds_of_pending(p);
        let (verdict, rolls) = match *action {
            SkirmishAction::Roll { attacker, defender } => {
                (odds.verdict(attacker, defender), Some((attacker, defender)))
            }
            _ => match odds.given() {
                Some(true) => (Verdict::Attacker, None),
                _ => (Verdict::Defender, None),
            },
        };
        // Who attacks: the player whose turn it is, except in the check
        // and checkmate rolls, where the checking side attacks the King.
        let (attacker_side, attackers, defender, kind, head) = match p {
            Pending::Capture(m) => (
                us,
                m.from().bitboard(),
                target_square(m),
                "capture",
                format!(
                    "{} attacks {}",
                    self.owned(m.from()),
                    self.the(target_square(m))
                ),
            ),
            Pending::Tactical { tactical, target } => (
                us,
                tactical.from.bitboard(),
                target,
                "tactical",
                format!(
                    "{}, on its Tactical movement, attacks {} at half value",
                    self.owned(tactical.from),
                    self.the(target)
                ),
            ),
            Pending::Divided {
                from,
                targets,
                won,
                lost,
            } => {
                let next = (targets & !won & !lost).first().unwrap_or(from);
                (
                    us,
                    from.bitboard(),
                    next,
                    "divided",
                    format!(
                        "{}, in its divided skirmish, attacks {}",
                        self.owned(from),
                        self.the(next)
                    ),
                )
            }
            Pending::Check(c) | Pending::Mate(c) => {
                let king = self.board.king_of(us).unwrap_or(Square::ALL[0]);
                let names: Vec<String> = c.into_iter().map(|s| self.owned(s)).collect();
                let (kind, word) = match p {
                    Pending::Mate(_) => ("checkmate", "Checkmate roll"),
                    _ => ("check", "Check roll"),
                };
                (
                    !us,
                    c,
                    king,
                    kind,
                    format!("{word}: {} against {}", join_and(&names), self.owned(king)),
                )
            }
        };
        let defender_side = !attacker_side;
        let mut all_cells: Vec<Square> = attackers.into_iter().collect();
        all_cells.push(defender);
        let numbers = match rolls {
            Some((a, d)) => {
                ev.push(
                    Event::new(
                        EventKind::Dice,
                        format!(
                            "{} rolls {a}, {} rolls {d}{}",
                            color_name(attacker_side),
                            color_name(defender_side),
                            if odds.dice == crate::Dice::D6 {
                                String::new()
                            } else {
                                format!(" (each on {})", odds.dice)
                            }
                        ),
                    )
                    .by(seat(attacker_side))
                    .at(all_cells.iter())
                    .with("dice", odds.dice.to_string())
                    .with("attacker_roll", a)
                    .with("defender_roll", d),
                );
                format!(
                    "{} rolls {a} ({}), {} rolls {d} ({})",
                    color_name(attacker_side),
                    sum(odds.attack_value, a, Some(odds.bonus)),
                    color_name(defender_side),
                    sum(odds.defence_value, d, None)
                )
            }
            None => format!(
                "a given, no dice needed ({} against {} + {})",
                with_bonus(odds.attack_value, odds.bonus),
                odds.defence_value,
                odds.dice
            ),
        };
        let attacker_name = self.name_at(attackers.first().unwrap_or(defender));
        let (result, words) = match (p, verdict) {
            (_, Verdict::Reroll) => ("reroll", "a tie: both roll again".to_owned()),
            (Pending::Capture(m), Verdict::Attacker) => (
                "captured",
                format!(
                    "the {} is captured and {}'s {attacker_name} takes {}",
                    self.name_at(defender),
                    color_name(us),
                    m.to()
                ),
            ),
            (Pending::Tactical { .. } | Pending::Divided { .. }, Verdict::Attacker) => (
                "captured",
                format!("the {} is captured", self.name_at(defender)),
            ),
            (Pending::Capture(_) | Pending::Tactical { .. }, Verdict::Defender) => (
                "repelled",
                format!(
                    "the attack is repelled and the {attacker_name} is captured by the defender"
                ),
            ),
            (Pending::Divided { .. }, Verdict::Defender) => {
                ("repelled", format!("the {} holds", self.name_at(defender)))
            }
            (Pending::Check(_), Verdict::Attacker) => (
                "must-respond",
                "the King has to respond to the check".to_owned(),
            ),
            (Pending::Check(_), Verdict::Defender) => (
                "excused",
                "the King need not respond to the check this turn".to_owned(),
            ),
            (Pending::Mate(_), Verdict::Attacker) => (
                "checkmate",
                format!("checkmate, {} wins", color_name(attacker_side)),
            ),
            (Pending::Mate(_), Verdict::Defender) => (
                "checkers-lost",
                format!(
                    "the King holds and the checking piece{} lost",
                    if attackers.more_than_one() {
                        "s are"
                    } else {
                        " is"
                    }
                ),
            ),
        };
        let mut fight = odds_data(
            Event::new(EventKind::Fight, format!("{head}: {numbers}; {words}"))
                .by(seat(attacker_side))
                .at(all_cells.iter())
                .with("skirmish", kind)
                .with("attackers", cells(attackers))
                .with("defender", defender.to_string())
                .with("result", result)
                .with(
                    "winner",
                    match verdict {
                        Verdict::Attacker => json!("attacker"),
                        Verdict::Defender => json!("defender"),
                        Verdict::Reroll => Value::Null,
                    },
                ),
            &odds,
        );
        if let Some((a, d)) = rolls {
            fight = fight
                .with("attacker_roll", a)
                .with("defender_roll", d)
                .with("attacker_total", odds.attack_total(a))
                .with("defender_total", odds.defence_total(d));
        }
        ev.push(fight);
        if verdict == Verdict::Reroll {
            return;
        }
        // The pieces that leave the board, and what follows by itself.
        match (p, verdict) {
            (Pending::Capture(m), Verdict::Attacker) => {
                let mut e =
                    self.captured_event(us, defender, "is captured", Some((m.from(), m.to())));
                if matches!(m, Move::EnPassant { .. }) {
                    e = e.with("en_passant", true);
                }
                ev.push(e);
                if let Some(r) = m.promotion() {
                    ev.push(promote_event(us, m.to(), r));
                }
            }
            (Pending::Tactical { tactical, .. }, Verdict::Attacker) => {
                // The moving piece stays on A until it arrives (a `move`).
                let a = tactical.from;
                ev.push(self.captured_event(us, defender, "is captured", Some((a, a))));
                if !matches!(after.phase, Phase::Tactical(_)) {
                    // No target left: the movement arrives by itself.
                    self.arrival_events(tactical, ev);
                }
            }
            (Pending::Capture(m), Verdict::Defender) => {
                ev.push(self.captured_event(
                    !us,
                    m.from(),
                    "is captured by the defender",
                    Some((defender, defender)),
                ));
                self.stay_by_itself(after, defender.bitboard(), m.from(), ev);
            }
            (Pending::Tactical { tactical, target }, Verdict::Defender) => {
                ev.push(self.captured_event(
                    !us,
                    tactical.from,
                    "is captured by the defender",
                    Some((target, target)),
                ));
                let square = fighting_square(tactical, target).unwrap_or(tactical.from);
                self.stay_by_itself(after, target.bitboard(), square, ev);
            }
            (
                Pending::Divided {
                    from,
                    targets,
                    won,
                    lost,
                },
                v,
            ) => {
                let (won, lost) = match v {
                    Verdict::Attacker => {
                        // The attacker stays on its square until placed.
                        ev.push(self.captured_event(
                            us,
                            defender,
                            "is captured",
                            Some((from, from)),
                        ));
                        (won.with(defender), lost)
                    }
                    _ => (won, lost.with(defender)),
                };
                if (targets & !won & !lost).any() {
                    return;
                }
                if lost.any() {
                    // No single capturer: every defender that held.
                    ev.push(
                        self.captured_event(
                            !us,
                            from,
                            "lost a divided skirmish and is given to the defender",
                            None,
                        )
                        .with("defenders", cells(lost)),
                    );
                    self.stay_by_itself(after, lost, from, ev);
                } else if !matches!(after.phase, Phase::Place { .. }) {
                    // One square to go to: placed there by itself.
                    if let Some(to) = (won & after.board.by_color(us)).first() {
                        let promotion = after
                            .board
                            .role_at(to)
                            .filter(|r| Some(*r) != self.board.role_at(from));
                        self.placement_events(from, to, promotion, ev);
                    }
                }
            }
            (Pending::Mate(c), Verdict::Defender) => {
                // The King held: it stays where it stands.
                for sq in c {
                    ev.push(self.captured_event(us, sq, "is lost", Some((defender, defender))));
                }
            }
            _ => {}
        }
    }

    /// After a defender won: when it could not take the attacker's square,
    /// it stayed without being asked.
    fn stay_by_itself(
        &self,
        after: &Skirmish,
        defenders: Bitboard,
        square: Square,
        ev: &mut Vec<Event>,
    ) {
        if matches!(after.phase, Phase::Choice { .. } | Phase::Over(_)) {
            return;
        }
        let names: Vec<String> = defenders.into_iter().map(|d| self.owned(d)).collect();
        ev.push(
            Event::new(
                EventKind::Phase,
                format!(
                    "{} {} (taking {square} is not possible)",
                    join_and(&names),
                    stay_words(names.len())
                ),
            )
            .by(seat(!self.turn))
            .at(defenders)
            .with("decision", "stay")
            .with("defenders", cells(defenders)),
        );
    }
}

fn stay_words(defenders: usize) -> &'static str {
    if defenders > 1 {
        "stay where they stand"
    } else {
        "stays where it stands"
    }
}

fn promote_event(color: Color, sq: Square, role: Role) -> Event {
    Event::new(
        EventKind::Promote,
        format!(
            "{}'s Pawn on {sq} is promoted to {}",
            color_name(color),
            with_article(role)
        ),
    )
    .by(seat(color))
    .at([sq])
    .with("cell", sq.to_string())
    .with("piece", role_id(role))
}

/// The path square a Tactical movement fights `target` from: the first one
/// from its current index that stands next to the target.
fn fighting_square(t: TacticalMove, target: Square) -> Option<Square> {
    let p = t.path();
    let near = king_attacks(target);
    (t.at as usize..p.len())
        .filter_map(|i| p.get(i))
        .find(|sq| near.contains(*sq))
}

/// The 8x8 board and the six pieces with the book's values.
pub(crate) fn catalog(options: &SkirmishOptions) -> Catalog {
    let king_value = options.king_value.get();
    let pieces = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .map(|r| PieceKind {
        id: role_id(r).to_owned(),
        name: role_name(r).to_owned(),
        letter: r.upper_char().to_string(),
        stats: json!({ "value": piece_value(r, king_value) }),
    })
    .collect();
    Catalog {
        game: GameId::Skirmish,
        title: GameId::Skirmish.title().to_owned(),
        board: BoardShape::squares(8, 8),
        pieces,
        extra: json!({
            "skirmish": "Attacking Piece Value + Roll + Attack Bonus versus Defending Piece Value + Roll",
            "attack_bonus": options.attack_bonus,
            "dice": options.dice.to_string(),
            "ties": options.ties,
        }),
    }
}

/// The state key: every field the rules observe, hashed stably.
pub(crate) fn key(game: &Skirmish) -> u64 {
    let mut h = StableHasher::default();
    game.hash(&mut h);
    h.finish()
}
