//! The table protocol for Lytharian Chess: gestures, holdings, zones,
//! events and the catalog, each cut to what its viewer may see.
//!
//! Zones (`owner` = the seat, all per seat):
//!
//! | zone | items | who sees the items |
//! |---|---|---|
//! | `hand` | spells and equipment in hand | the owner; others get `hidden: N` |
//! | `deck` | none: the order is never shown | nobody: `hidden` = its size, for the owner too |
//! | `crypt` | killed troops | everyone |
//! | `nether` | discarded spells and equipment | everyone |
//! | `enchants` | the enchantments in the 3 enchant spaces | everyone |
//! | `to-place` | Pawns still to place at setup | the owner (everyone when troops start face up) |
//! | `pick-offer` | Battle Duels, picking: the troops still to pick from | the owner |
//! | `picks` | Battle Duels: picked troops not yet sent into a round | the owner |
//! | `duel-choice` | Battle Duels: the troop chosen for the coming round | the owner |
//! | `duel-played` | Battle Duels: troops sent into rounds so far | everyone |
//! | `promotion` | while a Pawn promotes: the troops it may copy | everyone (the army is public) |
//!
//! Holdings (all public; none are private): `mana`, `obelisk`, `power`,
//! `hand-size`, `deck-size`, `kills`, `spell-pool`, `forge-pool`,
//! `harnessed`, and per mode `points` (Pawn Wars) or `round-wins` (Battle
//! Duels). Normal Chess has no mana or cards: only `power` and `kills`.
//!
//! Events and their `data` keys (cells are square names, seats 0 and 1,
//! `piece` is a catalog piece id as in the view: the card id when the
//! viewer may see it, else the role letters). The seat who did it, or whom
//! it concerns, is the event's `player`, not repeated in `data`:
//!
//! | kind | when | data |
//! |---|---|---|
//! | `dice` | a roll-off or an effect's d6 | `first`, `second` / `value`, `for` |
//! | `cards` | a shuffle, a draw, a discard | `count`; `cards` (draws: the owner only) |
//! | `enter` | a troop placed or sent into a round | `cell`, `owner`, `piece`, `face_up` |
//! | `move` | a troop moves | `cell`, `owner`, `piece`, `from`, `to` |
//! | `fight` | an attack's blows | `from`, `to`, `attacker`, `defender`, `dealt`, `taken` |
//! | `cast` | a spell cast or an ability used | `card` / `ability` (when seen), `target`; a use also `cell`, `piece` |
//! | `countered` | an entry countered or fizzled | `source`, `reason` (`countered`, `fizzled`) |
//! | `resolved` | an entry resolved | `source`, `target` |
//! | `damage` | damage from a spell or ability | `cell`, `owner`, `piece`, `amount`, `damage` (total) |
//! | `heal` | healing | `cell`, `owner`, `piece`, `amount`, `damage` |
//! | `state` | a change for some turns, a reveal, equipment lost, a Pawn to promote | `cell`, `owner`, `piece`, `op`, `amount`, `turns` |
//! | `fall` | a troop died | `cell`, `owner`, `piece` (the card: the crypt is public) |
//! | `capture` | Normal Chess: a piece captured (`player` the capturer) | `piece`, `from`, `to` (the capturer), `captured`, `captured_on`, `captured_owner`; `en_passant` |
//! | `promote` | a Pawn promoted | `cell`, `card` |
//! | `resource` | mana gained or lost, harness, reforge, charge | `change`, `mana`, `cause`; `card` |
//! | `buy` | equipment attached | `card`, `cell` |
//! | `score` | a Pawn Wars point; a Battle Duel round | `cell`, `owner`, `piece`, `points` / `round`, `winner`, `score` |
//! | `phase` | pass, keep, end, a turn begins, an enchantment expires | `turn`; `card` |
//! | `check` | Normal Chess: the side to move (`player`) is in check | `king`, `checkers` |
//! | `end` | the game ended | `winner` (team, `null` for none), `reason` |

use serde_json::{Value, json};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, Gesture, GestureKind, Holding, PieceKind, Place, Zone,
    ZoneItem,
};
use tabula_core::{Game, GameId, Player, Viewer};

use crate::action::{Action, Sq};
use crate::cards::{Card, CardId, Role, Target, card_db};
use crate::deck::starter_lists;
use crate::game::Lytharia;
use crate::options::{LythariaOptions, Mode};
use crate::state::{DUEL_SQUARES, Entry, Note, Source, Stage, State, Unit, dist};

const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Pawn,
];

/// The role's name in the book's words.
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::King => "King",
        Role::Queen => "Queen",
        Role::Rook => "Rook",
        Role::Knight => "Knight",
        Role::Bishop => "Bishop",
        Role::Pawn => "Pawn",
    }
}

fn seat_name(p: u8) -> String {
    format!("Player {}", p + 1)
}

fn sees_seat(viewer: Viewer, p: u8) -> bool {
    matches!(viewer, Viewer::Player(v) if v.0 == p)
}

fn name(c: CardId) -> &'static str {
    c.card().name()
}

/// The items of a list of cards, equal cards counted together, in order.
fn items(cards: &[CardId]) -> Vec<ZoneItem> {
    let mut out: Vec<ZoneItem> = Vec::new();
    for c in cards {
        match out.iter_mut().find(|i| i.item == c.name()) {
            Some(i) => i.count += 1,
            None => out.push(ZoneItem::new(c, name(*c), 1)),
        }
    }
    out
}

fn zone(id: &str, owner: u8, label: &str, cards: &[CardId], shown: bool) -> Zone {
    Zone {
        zone: id.to_owned(),
        owner: Some(Player(owner)),
        label: format!("{}'s {label}", seat_name(owner)),
        items: if shown { items(cards) } else { Vec::new() },
        hidden: if shown { 0 } else { cards.len() },
    }
}

// ---------------------------------------------------------------- zones

pub(crate) fn zones(g: &Lytharia, viewer: Viewer) -> Vec<Zone> {
    let st = g.state();
    let opts = g.options();
    let mut out = Vec::new();
    for p in 0..2u8 {
        let side = &st.sides[p as usize];
        let mine = sees_seat(viewer, p);
        if opts.mode != Mode::Chess {
            out.push(zone("hand", p, "hand", &side.hand, mine));
            out.push(zone("deck", p, "deck", &side.deck, false));
        }
        out.push(zone("crypt", p, "crypt", &side.crypt, true));
        if opts.mode != Mode::Chess {
            out.push(zone("nether", p, "nether", &side.nether, true));
            let mut z = zone("enchants", p, "enchant spaces", &[], true);
            for e in &side.enchants {
                let on = e
                    .target
                    .and_then(|uid| st.units.iter().find(|u| u.uid == uid))
                    .map(|u| format!(" (on {})", u.at))
                    .unwrap_or_default();
                z.items
                    .push(ZoneItem::new(e.card, format!("{}{on}", name(e.card)), 1));
            }
            out.push(z);
        }
        if opts.mode != Mode::Duel {
            out.push(zone(
                "to-place",
                p,
                "Pawns to place",
                &side.to_place,
                mine || !opts.face_down,
            ));
        }
        if let Some(d) = &st.duel {
            let ds = &d.sides[p as usize];
            if st.stage == Stage::Pick {
                // Every copy left, so that the count says nothing of which
                // troops were picked.
                let mut pool = side.army.clone();
                for c in &ds.picks {
                    if let Some(i) = pool.iter().position(|x| x == c) {
                        pool.remove(i);
                    }
                }
                out.push(zone("pick-offer", p, "troops to pick from", &pool, mine));
            }
            out.push(zone("picks", p, "picked troops", &ds.left, mine));
            let choice: Vec<CardId> = ds.choice.into_iter().collect();
            out.push(zone("duel-choice", p, "troop for the round", &choice, mine));
            out.push(zone("duel-played", p, "troops played", &ds.played, true));
        }
    }
    if st.stage == Stage::Promote {
        let mut offer = Vec::new();
        st.legal(opts, &mut offer);
        let cards: Vec<CardId> = offer
            .iter()
            .filter_map(|a| match a {
                Action::Promote(c) => Some(*c),
                _ => None,
            })
            .collect();
        out.push(zone(
            "promotion",
            st.active,
            "promotion choices",
            &cards,
            true,
        ));
    }
    out
}

// ---------------------------------------------------------------- holdings

pub(crate) fn holdings(g: &Lytharia, player: Player, _viewer: Viewer) -> Vec<Holding> {
    let st = g.state();
    let Some(s) = st.sides.get(player.0 as usize) else {
        return Vec::new();
    };
    let mode = g.options().mode;
    let mut out = Vec::new();
    if mode != Mode::Chess {
        out.push(Holding::new("mana", "Mana", s.mana));
        out.push(Holding::new("obelisk", "Obelisk", s.obelisk));
    }
    out.push(Holding::new("power", "Army power", s.power));
    if mode != Mode::Chess {
        out.push(Holding::new("hand-size", "Hand", s.hand.len()));
        out.push(Holding::new("deck-size", "Deck", s.deck.len()));
    }
    out.push(Holding::new("kills", "Power killed", s.kills));
    match mode {
        Mode::PawnWars => out.push(Holding::new("points", "Points", s.points)),
        Mode::Duel => out.push(Holding::new("round-wins", "Rounds won", s.points)),
        Mode::Full | Mode::Chess => {}
    }
    if mode != Mode::Chess {
        out.push(Holding::new("spell-pool", "Harnessed mana", s.spell_pool));
        out.push(Holding::new("forge-pool", "Reforged mana", s.forge_pool));
        out.push(Holding::new(
            "harnessed",
            "Harnessed this turn",
            s.harnessed,
        ));
    }
    out
}

// ---------------------------------------------------------------- gestures

fn cells_of<'a>(units: impl Iterator<Item = &'a Unit>) -> Vec<String> {
    units.map(|u| u.at.to_string()).collect()
}

/// The troops an untargeted spell or ability of `p` would touch.
fn spread(st: &State, p: u8, target: Target, source: Option<&Unit>) -> Vec<String> {
    let near = |u: &Unit| source.is_some_and(|s| s.uid != u.uid && dist(s.at.0, u.at.0) == 1);
    match target {
        Target::AllFriends => cells_of(st.units.iter().filter(|u| u.owner == p)),
        Target::AllEnemies => cells_of(st.units.iter().filter(|u| u.owner != p)),
        Target::AdjacentFriends => cells_of(st.units.iter().filter(|u| u.owner == p && near(u))),
        Target::AdjacentEnemies => cells_of(st.units.iter().filter(|u| u.owner != p && near(u))),
        _ => Vec::new(),
    }
}

/// How a stack entry is named for `viewer`; `st` decides whether its troop
/// is still face down (after an action: a troop it revealed is named).
fn stack_label(st: &State, e: &Entry, viewer: Viewer) -> String {
    let who = seat_name(e.controller);
    match &e.source {
        Source::Spell(c) => format!("{who}'s {}", name(*c)),
        Source::Ability { uid, card, index } => {
            let hidden = st
                .units
                .iter()
                .find(|u| u.uid == *uid)
                .is_some_and(|u| !u.face_up && !sees_seat(viewer, u.owner));
            if hidden {
                format!("an ability of {who}'s face-down troop")
            } else {
                let ab = card
                    .card()
                    .troop()
                    .and_then(|t| t.abilities.get(*index as usize))
                    .map_or("an ability", |a| a.name.as_str());
                format!("the {ab} of {who}'s {}", name(*card))
            }
        }
        Source::Hidden { .. } => format!("an ability of {who}'s face-down troop"),
    }
}

pub(crate) fn gesture(g: &Lytharia, a: &Action) -> Gesture {
    let st = g.state();
    let me = st.player_to_act().unwrap_or(st.active);
    let hand = |c: &CardId| Place::item("hand", Some(Player(me)), c);
    match a {
        Action::Move(f, t) if st.chess.is_some() => {
            let df = t.0.file() as i32 - f.0.file() as i32;
            let castle = st
                .unit_at(f.0)
                .is_some_and(|u| u.troop().role == Role::King)
                && df.abs() == 2;
            if castle {
                // The Rook of that side and where it lands.
                let file = f.0.file() as i32;
                let (rf, rt) = if df > 0 { (7, 5) } else { (0, 3) };
                let rook = f.0.offset(rf - file, 0);
                let to = f.0.offset(rt - file, 0);
                Gesture::to(GestureKind::Castle, Place::cell(f), t)
                    .touching(rook.into_iter().chain(to))
            } else {
                Gesture::to(GestureKind::Move, Place::cell(f), t)
            }
        }
        Action::Attack(f, t) if st.chess.is_some() => {
            let g = Gesture::to(GestureKind::Capture, Place::cell(f), t);
            if st.unit_at(t.0).is_none() {
                // En passant: the Pawn taken stands beside the mover.
                let beside = f.0.offset(t.0.file() as i32 - f.0.file() as i32, 0);
                g.touching(beside)
            } else {
                g
            }
        }
        Action::Move(f, t) => Gesture::to(GestureKind::Move, Place::cell(f), t),
        Action::Attack(f, t) => Gesture::to(GestureKind::Attack, Place::cell(f), t),
        Action::Cast(c, Some(t)) => Gesture::to(GestureKind::Cast, hand(c), t),
        Action::Cast(c, None) => {
            let g = Gesture::click(GestureKind::Cast, hand(c));
            match c.card().spell().map(|s| s.target) {
                Some(Target::Spell) => match st.stack.last() {
                    Some(e) => g.choosing("stack", stack_label(st, e, Viewer::Player(Player(me)))),
                    None => g,
                },
                Some(t) => g.touching(spread(st, me, t, None)),
                None => g,
            }
        }
        Action::Harness(c) => {
            let q = c.card().spell().map_or(0, |s| s.quality);
            Gesture::click(GestureKind::Spend, hand(c))
                .choosing("harness", format!("Harness for {q} mana"))
        }
        Action::Equip(c, t) => Gesture::to(GestureKind::Arm, hand(c), t),
        Action::Reforge(c, None) => {
            let v = c.card().equipment().map_or(0, |e| e.reforge);
            Gesture::click(GestureKind::Spend, hand(c))
                .choosing("reforge", format!("Reforge for {v} mana"))
        }
        Action::Reforge(c, Some(t)) => {
            let v = c.card().equipment().map_or(0, |e| e.reforge);
            Gesture::click(GestureKind::Spend, Place::cell(t)).choosing(
                format!("reforge-{c}"),
                format!("Reforge {} for {v} mana", name(*c)),
            )
        }
        Action::Use(sq, i, t) => {
            let u = st.unit_at(sq.0);
            let ab = u.and_then(|u| u.troop().abilities.get(*i as usize));
            let label = ab.map_or_else(|| format!("ability {i}"), |a| a.name.clone());
            let g = match t {
                Some(t) => Gesture::to(GestureKind::Ability, Place::cell(sq), t),
                None => Gesture::click(GestureKind::Ability, Place::cell(sq))
                    .touching(ab.map_or_else(Vec::new, |a| spread(st, me, a.target, u))),
            };
            g.choosing(i.to_string(), label)
        }
        Action::Discard(c) => {
            Gesture::click(GestureKind::Discard, hand(c)).choosing("discard", "Discard")
        }
        Action::Keep => Gesture::button(GestureKind::EndPhase, "keep", "Keep the hand"),
        Action::Charge => Gesture::button(GestureKind::Spend, "charge", "Charge the obelisk"),
        Action::Pass => Gesture::button(GestureKind::Pass, "pass", "Pass"),
        Action::End if st.stage == Stage::Effects => {
            Gesture::button(GestureKind::EndPhase, "end", "End the effects phase")
        }
        Action::End => Gesture::button(GestureKind::EndTurn, "end", "End the turn"),
        Action::Place(c) if st.stage == Stage::Place => Gesture::to(
            GestureKind::Place,
            Place::item("to-place", Some(Player(me)), c),
            st.next_pawn_square(me),
        ),
        Action::Place(c) => {
            let at = if me == st.first {
                DUEL_SQUARES[0]
            } else {
                DUEL_SQUARES[1]
            };
            Gesture::to(
                GestureKind::Place,
                Place::item("picks", Some(Player(me)), c),
                at,
            )
        }
        Action::Pick(c) => Gesture::click(
            GestureKind::Pick,
            Place::item("pick-offer", Some(Player(me)), c),
        ),
        Action::Promote(c) => {
            let at = match st.chess.as_ref().and_then(|ch| ch.pending) {
                Some([_, to]) => Some(to),
                None => st
                    .promoting
                    .and_then(|uid| st.units.iter().find(|u| u.uid == uid))
                    .map(|u| u.at),
            };
            let from = Place::item("promotion", Some(Player(me)), c);
            match at {
                Some(at) => Gesture::to(GestureKind::Pick, from, at),
                None => Gesture::click(GestureKind::Pick, from),
            }
        }
        // Chance outcomes are nobody's gesture; named for completeness.
        Action::RollOff(..) | Action::Die(_) | Action::Shuffle(..) => {
            Gesture::button(GestureKind::Pass, "chance", "Chance decides")
        }
    }
}

// ---------------------------------------------------------------- catalog

pub(crate) fn catalog(options: &LythariaOptions) -> Catalog {
    let db = card_db();
    let mut pieces: Vec<PieceKind> = ROLES
        .iter()
        .map(|r| PieceKind {
            id: r.letters().to_owned(),
            name: format!("{} (face down)", role_name(*r)),
            letter: r.letters().to_owned(),
            stats: Value::Null,
        })
        .collect();
    let mut cards = Vec::new();
    for (id, card) in db.iter() {
        let data = serde_json::to_value(card).unwrap_or(Value::Null);
        let (kind, cost, stats, text) = match card {
            Card::Troop(t) => {
                pieces.push(PieceKind {
                    id: id.to_string(),
                    name: t.name.clone(),
                    letter: t.role.letters().to_owned(),
                    stats: json!({
                        "role": t.role, "att": t.att, "def": t.def, "power": t.power,
                        "clan": t.clan, "alignment": t.alignment, "kind": t.kind,
                        "damage": t.damage, "unique": t.unique,
                    }),
                });
                (
                    "troop",
                    Value::Null,
                    json!({"role": t.role, "att": t.att, "def": t.def, "power": t.power}),
                    &t.text,
                )
            }
            Card::Spell(s) => (
                "spell",
                json!(s.cost),
                json!({"school": s.school, "speed": s.speed, "type": s.kind, "quality": s.quality, "target": s.target}),
                &s.text,
            ),
            Card::Equipment(e) => (
                "equipment",
                json!(e.cost),
                json!({"slot": e.slot, "att": e.att, "def": e.def, "reforge": e.reforge}),
                &e.text,
            ),
        };
        let mut entry = json!({
            "id": id.to_string(), "name": card.name(), "kind": kind, "stats": stats,
            "text": text, "art": id.to_string(), "card": data,
        });
        if !cost.is_null()
            && let Some(m) = entry.as_object_mut()
        {
            m.insert("cost".to_owned(), cost);
        }
        cards.push(entry);
    }
    let decks: Vec<Value> = starter_lists()
        .iter()
        .map(|l| {
            json!({
                "id": l.id, "name": l.name,
                "army": l.army.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "deck": l.cards.iter().map(|(c, n)| json!({"card": c.to_string(), "copies": n})).collect::<Vec<_>>(),
            })
        })
        .collect();
    Catalog {
        game: GameId::Lytharia,
        title: GameId::Lytharia.title().to_owned(),
        board: BoardShape::squares(8, 8),
        pieces,
        extra: json!({
            "mode": options.mode,
            "decks": options.decks,
            "cards": cards,
            "starter_decks": decks,
            "roles": ROLES.iter().map(|r| json!({"id": r.letters(), "name": role_name(*r)})).collect::<Vec<_>>(),
            "duel_squares": DUEL_SQUARES.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        }),
    }
}

// ---------------------------------------------------------------- events

/// How a viewer may name a troop: its card when they may see it.
struct Namer<'a> {
    after: &'a State,
    viewer: Viewer,
}

impl Namer<'_> {
    /// Whether the viewer may know the troop's card: their own, face up
    /// then or now, or gone from the board (to the public crypt).
    fn sees(&self, u: &Unit) -> bool {
        sees_seat(self.viewer, u.owner)
            || u.face_up
            || self
                .after
                .units
                .iter()
                .find(|x| x.uid == u.uid)
                .is_none_or(|x| x.face_up)
    }

    fn piece(&self, u: &Unit) -> String {
        if self.sees(u) {
            u.identity().to_string()
        } else {
            u.troop().role.letters().to_owned()
        }
    }

    /// "Bronn" or "face-down Knight".
    fn what(&self, u: &Unit) -> String {
        if self.sees(u) {
            match u.copy {
                Some(c) => format!("{} (as {})", name(u.card), name(c)),
                None => name(u.card).to_owned(),
            }
        } else {
            format!("face-down {}", role_name(u.troop().role))
        }
    }

    /// "Player 2's Bronn on d5".
    fn full(&self, u: &Unit) -> String {
        format!("{}'s {} on {}", seat_name(u.owner), self.what(u), u.at)
    }

    fn event(&self, kind: EventKind, u: &Unit, text: String) -> Event {
        Event::new(kind, text)
            .by(Player(u.owner))
            .at([u.at])
            .with("cell", u.at.to_string())
            .with("owner", u.owner)
            .with("piece", self.piece(u))
    }
}

fn source_json(st: &State, e: &Entry, viewer: Viewer) -> Value {
    match &e.source {
        Source::Spell(c) => json!({"card": c.to_string()}),
        Source::Ability { uid, card, index } => {
            let hidden = st
                .units
                .iter()
                .find(|u| u.uid == *uid)
                .is_some_and(|u| !u.face_up && !sees_seat(viewer, u.owner));
            if hidden {
                json!({"ability_of": uid})
            } else {
                json!({"card": card.to_string(), "ability": index, "ability_of": uid})
            }
        }
        Source::Hidden { uid } => json!({"ability_of": uid}),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn count_words(n: usize) -> String {
    if n == 1 {
        "a card".to_owned()
    } else {
        format!("{n} cards")
    }
}

/// The event of the action itself, as `viewer` may know it.
fn action_event(b: &Lytharia, a: &Action, after: &State, viewer: Viewer) -> Option<Event> {
    let st = b.state();
    let nm = Namer { after, viewer };
    let actor = st.player_to_act().unwrap_or(st.active);
    let who = seat_name(actor);
    let by = |e: Event| e.by(Player(actor));
    Some(match a {
        Action::RollOff(x, y) => {
            let result = if x == y {
                "a tie: they roll again".to_owned()
            } else {
                let w = if x > y { 0 } else { 1 };
                match st.stage {
                    Stage::RollOff => format!("{} goes first", seat_name(w)),
                    _ => format!("{} wins the tie-break", seat_name(w)),
                }
            };
            Event::new(
                EventKind::Dice,
                format!("Player 1 rolls {x}, Player 2 rolls {y}: {result}"),
            )
            .with("first", *x)
            .with("second", *y)
        }
        Action::Die(n) => {
            let what = st
                .stack
                .last()
                .map(|e| stack_label(after, e, viewer))
                .unwrap_or_else(|| "the effect".to_owned());
            Event::new(EventKind::Dice, format!("A d6 rolls {n} for {what}"))
                .with("value", *n)
                .with("for", what)
        }
        Action::Shuffle(p, perm) => Event::new(
            EventKind::Cards,
            format!(
                "{}'s deck ({}) is shuffled and cut",
                seat_name(*p),
                count_words(perm.len())
            ),
        )
        .by(Player(*p))
        .with("count", perm.len()),
        // Placements are told from the troops that appear (see `events`).
        Action::Place(_) if st.stage == Stage::Place => return None,
        Action::Place(c) => {
            let round = st.duel.as_ref().map_or(0, |d| d.round);
            let lot = st.stage == Stage::Lot;
            let verb = if lot { "draws by lot" } else { "chooses" };
            let text = if sees_seat(viewer, actor) {
                format!("{who} {verb} {} for round {round}", name(*c))
            } else {
                format!("{who} {verb} a troop for round {round}")
            };
            let e = by(Event::new(EventKind::Cards, text)).with("round", round);
            if sees_seat(viewer, actor) {
                e.with("card", c.to_string())
            } else {
                e
            }
        }
        Action::Pick(c) => {
            let n = st
                .duel
                .as_ref()
                .map_or(0, |d| d.sides[actor as usize].picks.len())
                + 1;
            if sees_seat(viewer, actor) {
                by(Event::new(
                    EventKind::Cards,
                    format!("{who} picks {} ({n} of 7)", name(*c)),
                ))
                .with("card", c.to_string())
                .with("count", n)
            } else {
                by(Event::new(
                    EventKind::Cards,
                    format!("{who} picks a troop ({n} of 7)"),
                ))
                .with("count", n)
            }
        }
        Action::Move(f, t) | Action::Attack(f, t) => {
            let u = st.unit_at(f.0)?;
            let chess_capture = st.chess.is_some() && matches!(a, Action::Attack(..));
            if matches!(a, Action::Attack(..)) && !chess_capture {
                // The blows are told by the fight note.
                return None;
            }
            let pending = after.chess.as_ref().is_some_and(|c| c.pending.is_some());
            if chess_capture && !pending {
                // The capture note tells it, mover and victim in one event.
                return None;
            }
            let text = if chess_capture {
                format!("{who}'s {} takes on {t} ({f}-{t})", nm.what(u))
            } else {
                format!("{who}'s {} moves {f}-{t}", nm.what(u))
            };
            nm.event(EventKind::Move, u, text)
                .at([t])
                .with("from", f.to_string())
                .with("to", t.to_string())
        }
        Action::Promote(c) => {
            let u = st
                .promoting
                .and_then(|uid| st.units.iter().find(|u| u.uid == uid));
            let cell = match (st.chess.as_ref().and_then(|ch| ch.pending), u) {
                (Some([_, to]), _) => Some(to),
                (None, Some(u)) => Some(u.at),
                _ => None,
            };
            let on = cell.map(|c| format!(" on {c}")).unwrap_or_default();
            let e = by(Event::new(
                EventKind::Promote,
                format!("{who}'s Pawn{on} is promoted to {}", name(*c)),
            ))
            .with("card", c.to_string());
            match cell {
                Some(c) => e.at([c]).with("cell", c.to_string()),
                None => e,
            }
        }
        Action::Cast(c, t) => {
            let on = t
                .and_then(|t| st.unit_at(t.0))
                .map(|u| format!(" on {}", nm.full(u)))
                .unwrap_or_default();
            let e = by(Event::new(
                EventKind::Cast,
                format!("{who} casts {}{on}", name(*c)),
            ))
            .with("card", c.to_string());
            match t {
                Some(t) => e.at([t]).with("target", t.to_string()),
                None => e,
            }
        }
        Action::Pass => by(Event::new(EventKind::Phase, format!("{who} passes"))),
        Action::Harness(c) => {
            let q = c.card().spell().map_or(0, |s| s.quality);
            by(Event::new(
                EventKind::Resource,
                format!("{who} harnesses {} for {q} mana", name(*c)),
            ))
            .with("card", c.to_string())
            .with("change", q)
            .with("cause", "harness")
        }
        Action::Equip(c, t) => {
            let u = st.unit_at(t.0)?;
            let mut shown = u.clone();
            shown.face_up = true;
            by(Event::new(
                EventKind::Buy,
                format!("{who} equips {} to {}", name(*c), nm.full(&shown)),
            ))
            .at([t])
            .with("card", c.to_string())
            .with("cell", t.to_string())
        }
        Action::Reforge(c, t) => {
            let v = c.card().equipment().map_or(0, |e| e.reforge);
            let from = t.map(|t| format!(" from {t}")).unwrap_or_default();
            let e = by(Event::new(
                EventKind::Resource,
                format!("{who} reforges {}{from} for {v} mana", name(*c)),
            ))
            .with("card", c.to_string())
            .with("change", v)
            .with("cause", "reforge");
            match t {
                Some(t) => e.at([t]).with("cell", t.to_string()),
                None => e,
            }
        }
        Action::Use(sq, i, t) => {
            let u = st.unit_at(sq.0)?;
            // Revealed by the use, or already visible: the ability is named.
            let mut now = u.clone();
            now.face_up = after
                .units
                .iter()
                .find(|x| x.uid == u.uid)
                .is_none_or(|x| x.face_up)
                || u.face_up;
            let seen = nm.sees(&now);
            let ab = u.troop().abilities.get(*i as usize);
            let what = match (seen, ab) {
                (true, Some(ab)) => ab.name.clone(),
                _ => "an ability".to_owned(),
            };
            let on = t
                .and_then(|t| st.unit_at(t.0))
                .map(|x| format!(" on {}", nm.full(x)))
                .unwrap_or_default();
            let mut e = by(Event::new(
                EventKind::Cast,
                format!("{} uses {what}{on}", nm.full(&now)),
            ))
            .at([sq])
            .with("cell", sq.to_string())
            .with("piece", nm.piece(&now));
            if seen {
                e = e.with("ability", *i);
            }
            match t {
                Some(t) => e.at([t]).with("target", t.to_string()),
                None => e,
            }
        }
        Action::Discard(c) => by(Event::new(
            EventKind::Cards,
            format!("{who} discards {}", name(*c)),
        ))
        .with("card", c.to_string())
        .with("count", 1),
        Action::Keep => by(Event::new(
            EventKind::Phase,
            format!("{who} keeps their hand and does not draw"),
        )),
        Action::Charge => {
            let o = after.sides[actor as usize].obelisk;
            by(Event::new(
                EventKind::Resource,
                format!("{who} charges the obelisk: {o} mana a turn, the counter back to 1"),
            ))
            .with("cause", "charge")
            .with("obelisk", o)
        }
        Action::End => {
            let what = match st.stage {
                Stage::Effects => "the effects phase",
                _ => "the turn",
            };
            by(Event::new(EventKind::Phase, format!("{who} ends {what}")))
        }
    })
}

/// A Normal Chess capturer as it stood before the action: the troop, its
/// cell and the cell it moves to.
type Capturer<'a> = Option<(&'a Unit, Sq, Sq)>;

fn note_event(after: &State, n: &Note, viewer: Viewer, capturer: Capturer) -> Option<Event> {
    let nm = Namer { after, viewer };
    Some(match n {
        Note::Resolved(e) => {
            let what = stack_label(after, e, viewer);
            let target = e
                .target
                .map(|t| format!(" on {}", t.at))
                .unwrap_or_default();
            let ev = Event::new(
                EventKind::Resolved,
                capitalized(&format!("{what} resolves{target}")),
            )
            .by(Player(e.controller))
            .with("source", source_json(after, e, viewer));
            match e.target {
                Some(t) => ev.at([t.at]).with("target", t.at.to_string()),
                None => ev,
            }
        }
        Note::Fizzled(e) => Event::new(
            EventKind::Countered,
            capitalized(&format!(
                "{} has no effect: its target left its square",
                stack_label(after, e, viewer)
            )),
        )
        .by(Player(e.controller))
        .with("source", source_json(after, e, viewer))
        .with("reason", "fizzled"),
        Note::Countered { entry, by } => Event::new(
            EventKind::Countered,
            capitalized(&format!(
                "{} is countered by {}'s counter",
                stack_label(after, entry, viewer),
                seat_name(*by)
            )),
        )
        .by(Player(entry.controller))
        .with("source", source_json(after, entry, viewer))
        .with("reason", "countered"),
        Note::Fight {
            attacker,
            defender,
            dealt,
            taken,
        } => Event::new(
            EventKind::Fight,
            format!(
                "{} attacks {}: deals {dealt} damage ({} in all), takes {taken} ({} in all)",
                nm.full(attacker),
                nm.full(defender),
                defender.damage,
                attacker.damage
            ),
        )
        .by(Player(attacker.owner))
        .at([attacker.at, defender.at])
        .with("from", attacker.at.to_string())
        .with("to", defender.at.to_string())
        .with("attacker", nm.piece(attacker))
        .with("defender", nm.piece(defender))
        .with("dealt", *dealt)
        .with("taken", *taken),
        Note::Damage { unit, amount } => nm
            .event(
                EventKind::Damage,
                unit,
                format!(
                    "{} takes {amount} damage ({} in all)",
                    nm.full(unit),
                    unit.damage
                ),
            )
            .with("amount", *amount)
            .with("damage", unit.damage),
        // Healing an unhurt troop changes nothing: no event.
        Note::Heal { amount: 0, .. } => return None,
        Note::Heal { unit, amount } => nm
            .event(
                EventKind::Heal,
                unit,
                format!(
                    "{} is healed of {amount} damage ({} left)",
                    nm.full(unit),
                    unit.damage
                ),
            )
            .with("amount", *amount)
            .with("damage", unit.damage),
        Note::Modified {
            unit,
            op,
            amount,
            turns,
        } => {
            let op_name = serde_json::to_value(op)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let change = if *op == crate::cards::Op::Root {
                "is rooted".to_owned()
            } else {
                format!("gets {amount:+} {op_name}")
            };
            let span = if *turns == 1 {
                "this turn".to_owned()
            } else {
                format!("for {turns} turns")
            };
            nm.event(
                EventKind::State,
                unit,
                format!("{} {change} {span}", nm.full(unit)),
            )
            .with("op", op_name)
            .with("amount", *amount)
            .with("turns", *turns)
        }
        Note::Unequipped { unit, cards } => {
            let names: Vec<&str> = cards.iter().map(|c| name(*c)).collect();
            nm.event(
                EventKind::State,
                unit,
                format!("{} loses {}", nm.full(unit), names.join(", ")),
            )
            .with("op", "unequip")
            .with(
                "cards",
                cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            )
        }
        Note::Destroyed { unit } => nm
            .event(
                EventKind::Damage,
                unit,
                format!("{} is destroyed", nm.full(unit)),
            )
            .with("op", "destroy"),
        Note::Died { unit } => nm.event(EventKind::Fall, unit, format!("{} dies", nm.full(unit))),
        Note::Captured { unit } => match capturer {
            Some((c, from, to)) => {
                let e = Event::new(
                    EventKind::Capture,
                    format!(
                        "{}'s {} takes {} ({from}x{to})",
                        seat_name(c.owner),
                        nm.what(c),
                        nm.full(unit)
                    ),
                )
                .by(Player(c.owner))
                .at([from, to])
                .with("piece", nm.piece(c))
                .with("from", from.to_string())
                .with("to", to.to_string())
                .with("captured", nm.piece(unit))
                .with("captured_on", unit.at.to_string())
                .with("captured_owner", unit.owner);
                if unit.at == to {
                    e
                } else {
                    e.at([unit.at]).with("en_passant", true)
                }
            }
            // Captures come only from a chess move, whose capturer is known.
            None => Event::new(EventKind::Capture, format!("{} is captured", nm.full(unit)))
                .at([unit.at])
                .with("captured", nm.piece(unit))
                .with("captured_on", unit.at.to_string())
                .with("captured_owner", unit.owner),
        },
        Note::Scored { unit, points } => nm
            .event(
                EventKind::Score,
                unit,
                format!(
                    "{} reaches the far rank and scores a point ({points} in all)",
                    nm.full(unit)
                ),
            )
            .with("points", *points),
        Note::Drew { player, cards } => {
            if cards.is_empty() {
                return None;
            }
            let who = seat_name(*player);
            let e = if sees_seat(viewer, *player) {
                let names: Vec<&str> = cards.iter().map(|c| name(*c)).collect();
                Event::new(
                    EventKind::Cards,
                    format!("{who} draws {}", names.join(", ")),
                )
                .with(
                    "cards",
                    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                )
            } else {
                Event::new(
                    EventKind::Cards,
                    format!("{who} draws {}", count_words(cards.len())),
                )
            };
            e.by(Player(*player)).with("count", cards.len())
        }
        Note::Mana {
            player,
            change,
            total,
            cause,
        } => {
            if *change == 0 {
                return None;
            }
            let verb = if *change > 0 { "gains" } else { "loses" };
            Event::new(
                EventKind::Resource,
                format!(
                    "{} {verb} {} mana ({total} now)",
                    seat_name(*player),
                    change.abs()
                ),
            )
            .by(Player(*player))
            .with("change", *change)
            .with("mana", *total)
            .with("cause", *cause)
        }
        Note::Round {
            round,
            result,
            score,
        } => {
            let how = match result {
                0 | 1 => format!("{} wins round {round}", seat_name(*result)),
                _ => format!("Round {round} is a tie"),
            };
            let e = Event::new(
                EventKind::Score,
                format!("{how}: {} to {}", score[0], score[1]),
            )
            .with("round", *round)
            .with("score", score.to_vec());
            if *result < 2 {
                e.by(Player(*result)).with("winner", *result)
            } else {
                e.with("winner", Value::Null)
            }
        }
        Note::Expired { player, card } => Event::new(
            EventKind::Phase,
            format!(
                "{}'s {} ends and goes to the nether",
                seat_name(*player),
                name(*card)
            ),
        )
        .by(Player(*player))
        .with("card", card.to_string()),
        Note::Turn { player, turn } => Event::new(
            EventKind::Phase,
            format!("{}'s turn begins (turn {turn})", seat_name(*player)),
        )
        .by(Player(*player))
        .with("turn", *turn),
    })
}

pub(crate) fn events(b: &Lytharia, a: &Action, after: &Lytharia, viewer: Viewer) -> Vec<Event> {
    let (st, at) = (b.state(), after.state());
    let mut replay = st.clone();
    let notes = replay.play_noting(a, b.options());
    // Notes only describe `after` if `after` is where the action led.
    let notes = if replay == *at { notes } else { Vec::new() };
    let nm = Namer { after: at, viewer };
    let mut out: Vec<Event> = action_event(b, a, at, viewer).into_iter().collect();
    // Troops that appeared: placed Pawns, Battle Duel troops sent in (before
    // the turn their arrival starts).
    for u in &at.units {
        if st.units.iter().any(|x| x.uid == u.uid) {
            continue;
        }
        let how = if u.face_up {
            format!("{}'s {} enters on {}", seat_name(u.owner), nm.what(u), u.at)
        } else {
            format!(
                "{} places {} on {}",
                seat_name(u.owner),
                if nm.sees(u) {
                    format!("{} face down", name(u.card))
                } else {
                    "a Pawn face down".to_owned()
                },
                u.at
            )
        };
        out.push(
            nm.event(EventKind::Enter, u, how)
                .with("face_up", u.face_up),
        );
    }
    let capturer: Capturer = match a {
        Action::Attack(f, t) if st.chess.is_some() => st.unit_at(f.0).map(|u| (u, *f, *t)),
        Action::Promote(_) => st
            .chess
            .as_ref()
            .and_then(|c| c.pending)
            .and_then(|[f, t]| st.unit_at(f.0).map(|u| (u, f, t))),
        _ => None,
    };
    for n in &notes {
        out.extend(note_event(at, n, viewer, capturer));
    }
    // Troops turned face up by combat, a spell or an ability.
    for u in &at.units {
        let was_down = st.units.iter().any(|x| x.uid == u.uid && !x.face_up);
        if was_down && u.face_up {
            out.push(
                nm.event(
                    EventKind::State,
                    u,
                    format!(
                        "{}'s {} on {} is revealed: {}",
                        seat_name(u.owner),
                        role_name(u.troop().role),
                        u.at,
                        nm.what(u)
                    ),
                )
                .with("op", "reveal"),
            );
        }
    }
    if at.stage == Stage::Promote
        && st.stage != Stage::Promote
        && let Some(u) = at
            .promoting
            .and_then(|uid| at.units.iter().find(|u| u.uid == uid))
    {
        let cell = at
            .chess
            .as_ref()
            .and_then(|c| c.pending)
            .map_or(u.at, |[_, to]| to);
        out.push(
            Event::new(
                EventKind::State,
                format!(
                    "{}'s Pawn reaches {cell} and is to be promoted",
                    seat_name(u.owner)
                ),
            )
            .by(Player(u.owner))
            .at([cell])
            .with("cell", cell.to_string())
            .with("owner", u.owner)
            .with("op", "promote"),
        );
    }
    if at.stage == Stage::TieBreak && st.stage != Stage::TieBreak {
        out.push(Event::new(
            EventKind::Phase,
            "Still equal: a d6 roll-off decides the winner",
        ));
    }
    if at.outcome.is_none() && at.chess.is_some() && at.player_to_act().is_some() {
        let pos = at.chess_position();
        if pos.is_check() {
            // `player` is the side in check: the side to move.
            let checkers: Vec<String> = pos
                .checkers()
                .into_iter()
                .map(|s| Sq(s).to_string())
                .collect();
            let mut e = Event::new(
                EventKind::Check,
                format!("{} is in check", seat_name(at.active)),
            )
            .by(Player(at.active))
            .with("checkers", checkers);
            if let Some(k) = pos.our_king() {
                e = e.at([Sq(k)]).with("king", Sq(k).to_string());
            }
            out.push(e);
        }
    }
    if let (None, Some(o)) = (st.outcome, at.outcome) {
        let mut e =
            Event::new(EventKind::End, after.describe_outcome(&o)).with("reason", o.reason.id());
        e = match o.winner {
            Some(t) => e.with("winner", t.0),
            None => e.with("winner", Value::Null),
        };
        out.push(e);
    }
    if out.is_empty() {
        out.push(Event::new(
            EventKind::Phase,
            b.action_notation_for(a, viewer),
        ));
    }
    out
}
