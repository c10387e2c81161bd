//! The table protocol, Warrior Chess's side: gestures, holdings, zones,
//! events and the catalog.
//!
//! Zones: each player's `reserve` (owner set; items `warrior`, `rook`,
//! `knight`, `bishop`, `swords`) and the shared `bank` (no owner; items
//! `<army>-warrior`, `<army>-new-<weapon>` and `<army>-reissued-<weapon>`,
//! such as `red-warrior`, `blue-new-rook`, `red-reissued-swords`). Only
//! items the zone holds are listed. Nothing is hidden: every viewer sees the
//! same.
//!
//! Gestures, by action:
//!
//! | action | kind | from | to | touches | choice |
//! |---|---|---|---|---|---|
//! | drop | `drop` | Bank item `<army>-warrior` | the square | | |
//! | move | `move` | the piece's square | the square | | facing, for one Swords |
//! | capture | `capture` | the piece's square | the victim's square | the victim's square | facing, for one Swords |
//! | pass | `pass` | button `pass-movement` | | | |
//! | bonus drop | `drop` | Reserve item `warrior` | the square | | |
//! | arm | `arm` | Reserve item of the weapon | the Warrior's square | | facing, for a first Swords |
//! | buy | `buy` | Bank item (`<army>-warrior`, `<army>-new-rook`...) | | | |
//! | end bonus drops | `end-phase` | button `end-bonus-drops` | | | |
//! | end placing weapons | `end-phase` | button `end-arming` | | | |
//! | end buying | `end-turn` | button `end-turn` | | | |
//! | claim the draw | `claim` | button `claim-draw` | | | |
//!
//! A facing choice has the id `north`, `east`, `south` or `west`.
//!
//! Events and their `data` keys (seats are numbers, cells strings, pieces
//! and weapons catalog ids):
//!
//! | kind | when | data |
//! |---|---|---|
//! | `enter` | a drop or bonus drop | `piece` (`warrior`), `to`, `from` (`bank` or `reserve`), `price` |
//! | `move` | a move | `from`, `to`, `piece`, `weapons`, `facing` (one Swords) |
//! | `capture` | a capture | `from`, `to`, `piece`, `weapons`, `facing`, `captured`, `captured_on` (`to`), `captured_owner`, `captured_weapons`, `stack_taken` (Warriors added under the capturer), `stack` (Warriors under it now) |
//! | `resource` | money paid or received | `payer`, `payee` (a seat or `bank`), `amount`, `reason` (`drop`, `buy`, `capture-bonus`, `collect`), `money` (the player's money after); a capture bonus or collection held back by the $12 limit also has `due` |
//! | `buy` | a weapon placed on a Warrior | `weapon`, `on`, `weapons` (after), `facing` (one Swords) |
//! | `buy` | a purchase | `item` (`warrior` or a weapon), `issue` (weapons), `price` |
//! | `phase` | a pass, an optional phase ended, the turn passing | `phase` (the phase ended or passed), `next` (the seat whose turn begins) |
//! | `check` | a King newly attacked (`player` its owner) | `king` (its cell), `checkers` (the attacking cells) |
//! | `end` | the game ended | `winner` (team or null), `reason` (end reason id) |
//!
//! The book has no check rule ("Warrior Chess does not require players to
//! call Check"); the `check` event only says that a King can be captured.

use serde_json::{Value, json};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, Holding, Place, Zone, ZoneItem,
};
use tabula_core::{Game, GameId, Player};

use crate::action::{Action, Purchase};
use crate::options::WarriorOptions;
use crate::state::Warrior;
use crate::types::{Army, Facing, Issue, Phase, Piece, PieceKind, Square, Weapon};

/// The Reserve's zone id.
pub const RESERVE: &str = "reserve";
/// The Bank's zone id.
pub const BANK: &str = "bank";

/// The seat playing `army`.
pub(crate) fn seat(army: Army) -> Player {
    Player(army.index() as u8)
}

/// The catalog id of a weapon: `rook`, `knight`, `bishop`, `swords`.
pub fn weapon_id(w: Weapon) -> &'static str {
    match w {
        Weapon::Rook => "rook",
        Weapon::Knight => "knight",
        Weapon::Bishop => "bishop",
        Weapon::Swords => "swords",
    }
}

/// The catalog id of a piece kind: `king`, `warrior`.
pub fn piece_id(k: PieceKind) -> &'static str {
    match k {
        PieceKind::King => "king",
        PieceKind::Warrior => "warrior",
    }
}

/// A facing's id: `north`, `east`, `south`, `west`.
pub fn facing_id(f: Facing) -> &'static str {
    match f {
        Facing::North => "north",
        Facing::East => "east",
        Facing::South => "south",
        Facing::West => "west",
    }
}

fn army_id(a: Army) -> &'static str {
    match a {
        Army::Red => "red",
        Army::Blue => "blue",
        Army::Green => "green",
        Army::Yellow => "yellow",
    }
}

/// The Bank item id of what `army` buys or drops from the Bank.
pub fn bank_item(army: Army, item: Purchase) -> String {
    match item {
        Purchase::Warrior => format!("{}-warrior", army_id(army)),
        Purchase::Weapon(w, issue) => {
            format!("{}-{}-{}", army_id(army), issue.word(), weapon_id(w))
        }
    }
}

/// "a Rook", "Swords": a weapon as a sentence names one.
fn a_weapon(w: Weapon) -> String {
    match w {
        Weapon::Swords => "Swords".to_owned(),
        _ => format!("a {}", w.name()),
    }
}

/// "Rook", "Swords piece": a weapon as a noun.
fn weapon_noun(w: Weapon) -> &'static str {
    match w {
        Weapon::Swords => "Swords piece",
        _ => w.name(),
    }
}

/// "Rook/Swords": a Warrior's weapons as the book names the combination.
fn combination(p: &Piece) -> String {
    p.weapons
        .iter()
        .map(Weapon::name)
        .collect::<Vec<_>>()
        .join("/")
}

/// The piece in the book's words: "King", "Warrior", "Warrior with a Rook",
/// "Warrior with Swords", "Warrior with Rook/Swords".
pub(crate) fn piece_name(p: &Piece) -> String {
    match p.kind {
        PieceKind::King => "King".to_owned(),
        PieceKind::Warrior => {
            let weapons: Vec<Weapon> = p.weapons.iter().collect();
            match weapons[..] {
                [] => "Warrior".to_owned(),
                [w] => format!("Warrior with {}", a_weapon(w)),
                _ => format!("Warrior with {}", combination(p)),
            }
        }
    }
}

fn weapons_json(p: &Piece) -> Value {
    Value::from(p.weapons.iter().map(weapon_id).collect::<Vec<_>>())
}

impl Warrior {
    /// How a person picks `action` (see the module documentation).
    pub(crate) fn gesture_of(&self, action: &Action) -> Gesture {
        let army = self.to_move;
        let owner = Some(seat(army));
        let faced = |g: Gesture, facing: Option<Facing>| match facing {
            Some(f) => g.choosing(facing_id(f), format!("Swords facing {}", facing_id(f))),
            None => g,
        };
        match *action {
            Action::Drop { to } => Gesture::to(
                GestureKind::Drop,
                Place::item(BANK, None, bank_item(army, Purchase::Warrior)),
                to,
            ),
            Action::Move { from, to, facing } => faced(
                Gesture::to(GestureKind::Move, Place::cell(from), to),
                facing,
            ),
            Action::Capture { from, to, facing } => faced(
                Gesture::to(GestureKind::Capture, Place::cell(from), to).touching([to]),
                facing,
            ),
            Action::Pass => Gesture::button(
                GestureKind::Pass,
                "pass-movement",
                "Pass: no movement possible",
            ),
            Action::BonusDrop { to } => Gesture::to(
                GestureKind::Drop,
                Place::item(RESERVE, owner, piece_id(PieceKind::Warrior)),
                to,
            ),
            Action::Arm { weapon, on, facing } => faced(
                Gesture::to(
                    GestureKind::Arm,
                    Place::item(RESERVE, owner, weapon_id(weapon)),
                    on,
                ),
                facing,
            ),
            Action::Buy { item } => Gesture::click(
                GestureKind::Buy,
                Place::item(BANK, None, bank_item(army, item)),
            ),
            Action::End => match self.phase {
                Phase::BonusDrops => {
                    Gesture::button(GestureKind::EndPhase, "end-bonus-drops", "End bonus drops")
                }
                Phase::Arming => {
                    Gesture::button(GestureKind::EndPhase, "end-arming", "End placing weapons")
                }
                _ => Gesture::button(GestureKind::EndTurn, "end-turn", "End the turn"),
            },
            Action::ClaimDraw => Gesture::button(
                GestureKind::Claim,
                "claim-draw",
                "Claim the draw (fifty movements each)",
            ),
        }
    }

    /// What `army` holds, in public: money, income, Reserve, captured
    /// Warriors, Warriors left in the Bank.
    pub(crate) fn holdings_of(&self, army: Army) -> Vec<Holding> {
        let i = army.index();
        let reserve = self.reserve[i];
        let mut items: Vec<Value> = Vec::new();
        for _ in 0..reserve.warriors {
            items.push("Warrior".into());
        }
        for w in reserve.weapons.iter() {
            items.push(w.name().into());
        }
        let size = items.len();
        let captured: u32 = self
            .pieces()
            .filter(|(_, p)| p.army == army)
            .map(|(_, p)| u32::from(p.stack.total()))
            .sum();
        vec![
            Holding::new("money", "Money", self.money[i].0),
            Holding::new("income", "Income per turn", self.income(army)),
            Holding::new("reserve", "Reserve", items),
            Holding::new("reserve-size", "Reserve size", size),
            Holding::new("captured", "Captured Warriors", captured),
            Holding::new(
                "bank-warriors",
                "Warriors in the Bank",
                self.bank.new[i].warriors,
            ),
        ]
    }

    /// Each player's Reserve, then the Bank.
    pub(crate) fn zones_of(&self) -> Vec<Zone> {
        let mut zones = Vec::new();
        for army in self.armies() {
            let r = self.reserve[army.index()];
            let mut items = Vec::new();
            if r.warriors > 0 {
                items.push(ZoneItem::new(
                    piece_id(PieceKind::Warrior),
                    "Warrior",
                    r.warriors.into(),
                ));
            }
            for w in Weapon::ALL {
                if r.weapons.has(w) {
                    items.push(ZoneItem::new(weapon_id(w), w.name(), r.weapons[w].into()));
                }
            }
            zones.push(Zone {
                zone: RESERVE.to_owned(),
                owner: Some(seat(army)),
                label: format!("{army}'s Reserve"),
                items,
                hidden: 0,
            });
        }
        let mut items = Vec::new();
        for army in self.armies() {
            let stock = self.bank.new[army.index()];
            if stock.warriors > 0 {
                items.push(ZoneItem::new(
                    bank_item(army, Purchase::Warrior),
                    format!("{army} Warrior"),
                    stock.warriors.into(),
                ));
            }
            for issue in [Issue::New, Issue::Reissued] {
                for w in Weapon::ALL {
                    let n = self.bank.stock(army, w, issue);
                    if n > 0 {
                        items.push(ZoneItem::new(
                            bank_item(army, Purchase::Weapon(w, issue)),
                            format!("{army} {w}, {} (${})", issue.word(), w.cost(issue)),
                            n.into(),
                        ));
                    }
                }
            }
        }
        zones.push(Zone {
            zone: BANK.to_owned(),
            owner: None,
            label: "Bank".to_owned(),
            items,
            hidden: 0,
        });
        zones
    }

    /// Every King attacked by a piece of the other team, with the
    /// attackers' squares.
    pub(crate) fn attacked_kings(&self) -> Vec<(Square, Army, Vec<Square>)> {
        let mut out = Vec::new();
        for (ksq, king) in self.pieces().filter(|(_, p)| p.kind == PieceKind::King) {
            let attackers: Vec<Square> = self
                .pieces()
                .filter(|(_, p)| p.army.team() != king.army.team())
                .filter(|(sq, _)| self.reach(*sq).1 & ksq.bit() != 0)
                .map(|(sq, _)| sq)
                .collect();
            if !attackers.is_empty() {
                out.push((ksq, king.army, attackers));
            }
        }
        out
    }

    /// A payment between `army` and the Bank: `paid` true when the player
    /// pays.
    fn money_event(
        &self,
        army: Army,
        amount: u8,
        paid: bool,
        reason: &str,
        text: String,
        after: &Warrior,
    ) -> Event {
        let me = Value::from(seat(army).0);
        let bank = Value::from(BANK);
        let (payer, payee) = if paid { (me, bank) } else { (bank, me) };
        Event::new(EventKind::Resource, text)
            .by(seat(army))
            .with("payer", payer)
            .with("payee", payee)
            .with("amount", amount)
            .with("reason", reason)
            .with("money", after.money(army).0)
    }

    /// What happened when `action` took `self` to `after` (see the module
    /// documentation).
    pub(crate) fn events_of(&self, action: &Action, after: &Warrior) -> Vec<Event> {
        let army = self.to_move;
        let me = seat(army);
        let name = army.name();
        let mut out = Vec::new();
        match *action {
            Action::Drop { to } => {
                out.push(
                    Event::new(
                        EventKind::Enter,
                        format!("{name} drops a Warrior from the Bank on {to}"),
                    )
                    .by(me)
                    .at([to])
                    .with("piece", "warrior")
                    .with("to", to.to_string())
                    .with("from", BANK)
                    .with("price", 1),
                );
                out.push(self.money_event(
                    army,
                    1,
                    true,
                    "drop",
                    format!("{name} pays the Bank $1 for the drop"),
                    after,
                ));
            }
            Action::BonusDrop { to } => out.push(
                Event::new(
                    EventKind::Enter,
                    format!("{name} drops a Reserve Warrior on {to} (a free bonus drop)"),
                )
                .by(me)
                .at([to])
                .with("piece", "warrior")
                .with("to", to.to_string())
                .with("from", RESERVE)
                .with("price", 0),
            ),
            Action::Move { from, to, .. } => {
                if let Some(p) = self.piece(from) {
                    let moved = after.piece(to).copied().unwrap_or(*p);
                    let mut text = format!("{name}'s {} moves from {from} to {to}", piece_name(p));
                    let mut e = Event::new(EventKind::Move, String::new())
                        .by(me)
                        .at([from, to])
                        .with("from", from.to_string())
                        .with("to", to.to_string())
                        .with("piece", piece_id(p.kind))
                        .with("weapons", weapons_json(p));
                    if let Some(f) = moved.facing {
                        text.push_str(&format!(", its Swords facing {}", facing_id(f)));
                        e = e.with("facing", facing_id(f));
                    }
                    e.text = text;
                    out.push(e);
                }
            }
            Action::Capture { from, to, .. } => {
                if let (Some(p), Some(v)) = (self.piece(from), self.piece(to)) {
                    out.extend(self.capture_events(p, v, from, to, after));
                }
            }
            Action::Pass => out.push(
                Event::new(
                    EventKind::Phase,
                    format!("{name} has no drop, move or capture and passes the movement"),
                )
                .by(me)
                .with("phase", Phase::Movement.word()),
            ),
            Action::Arm { weapon, on, .. } => {
                if let (Some(p), Some(armed)) = (self.piece(on), after.piece(on)) {
                    let mut text = format!(
                        "{name} places {} on the {} on {on}",
                        a_weapon(weapon),
                        piece_name(p)
                    );
                    let mut e = Event::new(EventKind::Buy, String::new())
                        .by(me)
                        .at([on])
                        .with("weapon", weapon_id(weapon))
                        .with("on", on.to_string())
                        .with("weapons", weapons_json(armed));
                    if let Some(f) = armed.facing {
                        if weapon == Weapon::Swords {
                            text.push_str(&format!(", facing {}", facing_id(f)));
                        }
                        e = e.with("facing", facing_id(f));
                    }
                    if armed.weapons.total() == 2 {
                        text.push_str(&format!(": it is now a {}", combination(armed)));
                    }
                    e.text = text;
                    out.push(e);
                }
            }
            Action::Buy { item } => {
                let price = item.price();
                let (what, e) = match item {
                    Purchase::Warrior => (
                        "a Warrior for the Reserve".to_owned(),
                        Event::new(EventKind::Buy, String::new()).with("item", "warrior"),
                    ),
                    Purchase::Weapon(w, issue) => (
                        match w {
                            Weapon::Swords => format!("a {} Swords piece", issue.word()),
                            _ => format!("a {} {}", issue.word(), w.name()),
                        },
                        Event::new(EventKind::Buy, String::new())
                            .with("item", weapon_id(w))
                            .with("issue", issue.word()),
                    ),
                };
                let mut e = e.by(me).with("price", price);
                e.text = format!("{name} buys {what} for ${price}");
                out.push(e);
                out.push(self.money_event(
                    army,
                    price,
                    true,
                    "buy",
                    format!("{name} pays the Bank ${price}"),
                    after,
                ));
            }
            Action::End => {
                let what = match self.phase {
                    Phase::BonusDrops => "the bonus drops",
                    Phase::Arming => "placing weapons",
                    _ => "buying",
                };
                out.push(
                    Event::new(EventKind::Phase, format!("{name} ends {what}"))
                        .by(me)
                        .with("phase", self.phase.word()),
                );
            }
            // The claim is the game's end: the end event below says it.
            Action::ClaimDraw => {}
        }

        if after.outcome().is_none() {
            let before: Vec<Army> = self.attacked_kings().iter().map(|k| k.1).collect();
            for (ksq, owner, attackers) in after.attacked_kings() {
                if before.contains(&owner) {
                    continue;
                }
                let from: Vec<String> = attackers.iter().map(Square::to_string).collect();
                out.push(
                    Event::new(
                        EventKind::Check,
                        format!(
                            "{owner}'s King on {ksq} can be captured from {}",
                            from.join(" and ")
                        ),
                    )
                    .by(seat(owner))
                    .at(std::iter::once(ksq).chain(attackers.iter().copied()))
                    .with("king", ksq.to_string())
                    .with("checkers", from),
                );
            }
        }

        if after.to_move != army {
            let next = after.to_move;
            out.push(
                Event::new(
                    EventKind::Phase,
                    format!("{name}'s turn ends; {next}'s turn"),
                )
                .by(me)
                .with("phase", self.phase.word())
                .with("next", seat(next).0),
            );
            let got = after.money(next).0.saturating_sub(self.money(next).0);
            let due = after.income(next);
            let text = if got == due {
                format!("{next} collects ${got} from the Bank")
            } else if got == 0 {
                format!("{next} collects nothing: nobody holds more than $12")
            } else {
                format!(
                    "{next} collects ${got} of ${due} from the Bank: nobody holds more than $12"
                )
            };
            let mut e = self.money_event(next, got, false, "collect", text, after);
            if got != due {
                e = e.with("due", due);
            }
            out.push(e);
        }

        if let Some(outcome) = after.outcome() {
            out.push(
                Event::new(EventKind::End, after.describe_outcome(&outcome))
                    .by(me)
                    .with("winner", outcome.winner.map(|t| t.0))
                    .with("reason", outcome.reason.id()),
            );
        }
        out
    }

    fn capture_events(
        &self,
        p: &Piece,
        v: &Piece,
        from: Square,
        to: Square,
        after: &Warrior,
    ) -> Vec<Event> {
        let army = p.army;
        let name = army.name();
        let taken = u32::from(v.stack.total()) + u32::from(v.kind == PieceKind::Warrior);
        let now = after.piece(to).copied().unwrap_or(*p);
        let mut text = format!(
            "{name}'s {} on {from} captures {}'s {} on {to}",
            piece_name(p),
            v.army,
            piece_name(v)
        );
        match v.stack.total() {
            0 => {}
            1 => text.push_str(" and the Warrior stacked under it"),
            n => text.push_str(&format!(" and the {n} Warriors stacked under it")),
        }
        if v.is_armed() {
            let names: Vec<&str> = v.weapons.iter().map(weapon_noun).collect();
            let verb = if names.len() == 1 { "goes" } else { "go" };
            text.push_str(&format!(
                "; the {} {verb} to the Bank for reissue",
                names.join(" and the ")
            ));
        }
        if let Some(f) = now.facing {
            text.push_str(&format!("; its Swords now face {}", facing_id(f)));
        }
        let mut e = Event::new(EventKind::Capture, text)
            .by(seat(army))
            .at([from, to])
            .with("from", from.to_string())
            .with("to", to.to_string())
            .with("piece", piece_id(p.kind))
            .with("weapons", weapons_json(p))
            .with("captured", piece_id(v.kind))
            .with("captured_on", to.to_string())
            .with("captured_owner", seat(v.army).0)
            .with("captured_weapons", weapons_json(v))
            .with("stack_taken", taken)
            .with("stack", now.stack.total());
        if let Some(f) = now.facing {
            e = e.with("facing", facing_id(f));
        }
        let mut out = vec![e];
        let due = v.weapons.new_value();
        if due > 0 {
            let got = after.money(army).0.saturating_sub(self.money(army).0);
            let what = v
                .weapons
                .iter()
                .map(weapon_noun)
                .collect::<Vec<_>>()
                .join(" and ");
            let text = if got == due {
                format!("The Bank pays {name} ${got} for the captured {what}")
            } else if got == 0 {
                format!(
                    "The Bank pays {name} nothing for the captured {what} (${due}): nobody holds more than $12"
                )
            } else {
                format!(
                    "The Bank pays {name} ${got} of the ${due} for the captured {what}: nobody holds more than $12"
                )
            };
            let mut m = self.money_event(army, got, false, "capture-bonus", text, after);
            if got != due {
                m = m.with("due", due);
            }
            out.push(m);
        }
        out
    }

    /// What never changes in a game under `options`.
    pub fn catalog_of(options: &WarriorOptions) -> Catalog {
        use tabula_core::protocol::PieceKind as Kind;
        let kind = |id: &str, name: &str, letter: &str, stats: Value| Kind {
            id: id.to_owned(),
            name: name.to_owned(),
            letter: letter.to_owned(),
            stats,
        };
        let mut pieces = vec![
            kind(
                "king",
                "King",
                "K",
                json!({ "per_army": 1, "moves": "one square in any direction; captures" }),
            ),
            kind(
                "warrior",
                "Warrior",
                "W",
                json!({
                    "per_army": 8,
                    "drop_price": 1,
                    "reserve_price": 5,
                    "max_weapons": 2,
                    "moves": "as a King, without capturing, until armed; armed, as its weapons",
                }),
            ),
        ];
        for w in Weapon::ALL {
            let letter = w.letter().to_string();
            pieces.push(kind(
                weapon_id(w),
                w.name(),
                &letter,
                json!({
                    "weapon": true,
                    "per_army": w.per_army(),
                    "new_price": w.new_cost(),
                    "reissued_price": w.reissued_cost(),
                    "capture_bonus": w.new_cost(),
                }),
            ));
        }
        let players = options.players.count();
        let armies: Vec<Value> = Army::ALL
            .iter()
            .take(players as usize)
            .map(|a| {
                json!({
                    "seat": a.index(),
                    "army": army_id(*a),
                    "name": a.name(),
                    "colour": army_id(*a),
                    "letter": a.letter().to_string(),
                    "team": a.team(),
                    "king_square": a.king_square(players).to_string(),
                })
            })
            .collect();
        Catalog {
            game: GameId::Warrior,
            title: GameId::Warrior.title().to_owned(),
            board: BoardShape::squares(8, 8),
            pieces,
            extra: json!({
                "armies": armies,
                "money_cap": crate::Money::CAP,
                "facings": Facing::ALL.iter().map(|f| facing_id(*f)).collect::<Vec<_>>(),
                "fifty_moves_limit": options.fifty_moves_limit(),
                "duplicate_weapons": options.duplicate_weapons,
            }),
        }
    }
}
