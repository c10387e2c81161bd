//! Drawing boards in the terminal from the table protocol alone: each
//! game's JSON view (`AnyGame::view`), its catalog and its legal entries,
//! read as the page (`web/`) reads them, so the terminal knows no rules
//! crate (`docs/protocol.md`).

use serde_json::Value;
use tabula_core::protocol::{BoardShape, Catalog};
use tabula_core::{GameId, Viewer};
use tabula_games::AnyGame;

/// The board of `game` as `viewer` may see it, drawn from the viewer's
/// side (its own pieces at the bottom), turned round when `flip`.
pub fn board(game: &AnyGame, viewer: Viewer, flip: bool) -> String {
    let view = game.view(viewer);
    let catalog = game.catalog();
    let upside = flip != from_far_side(game.id(), &view, viewer);
    let mut text = match game.id() {
        GameId::Chess => chess_board(&view, upside),
        GameId::Epoch => epoch_board(&view, &catalog, upside) + &piece_legend(&catalog),
        GameId::Warrior => warrior_board(&view, &catalog),
        GameId::Covenant => covenant_field(game, &view, &catalog),
        GameId::Skirmish => skirmish_board(&view, upside),
        GameId::Lytharia => lytharia_table(&view, &catalog, upside) + &duel_line(&view),
    };
    // The side to move is said once, by the prompt or the computer's move.
    text.truncate(text.trim_end().len());
    text
}

/// The text of a JSON string, or "" when it is not one.
fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// A JSON number as a count, 0 when it is not one.
fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

/// The items of a JSON array, none when it is not one.
fn items(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

/// A square's (file, rank) from its name, both from 0: `b3` is (1, 2).
fn square(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: usize = chars.as_str().parse().ok()?;
    Some((usize::from(file as u8 - b'a'), rank.checked_sub(1)?))
}

/// The index of square `name` on a `size`-wide board, when it is on it.
fn square_index(name: &str, size: usize) -> Option<usize> {
    let (file, rank) = square(name)?;
    (file < size && rank < size).then_some(rank * size + file)
}

/// Whether `viewer`'s home is the board's top edge as drawn by default, so
/// the board is turned round for them: the second seat in chess, Skirmish
/// and Epoch; in Lytharian Chess whoever's troops stand higher up.
fn from_far_side(id: GameId, view: &Value, viewer: Viewer) -> bool {
    let Viewer::Player(me) = viewer else {
        return false;
    };
    match id {
        GameId::Chess | GameId::Skirmish | GameId::Epoch => me.0 == 1,
        GameId::Lytharia => {
            let (mut mine, mut theirs) = ((0, 0), (0, 0));
            for u in items(&view["pieces"]) {
                let Some((_, rank)) = square(text(&u["cell"])) else {
                    continue;
                };
                let side = if count(&u["owner"]) == me.index() as u64 {
                    &mut mine
                } else {
                    &mut theirs
                };
                side.0 += rank;
                side.1 += 1;
            }
            // Average ranks compared without division.
            mine.1 > 0 && theirs.1 > 0 && mine.0 * theirs.1 > theirs.0 * mine.1
        }
        _ => false,
    }
}

/// Ranks top to bottom and files left to right, as drawn.
fn order(size: usize, upside: bool) -> (Vec<usize>, Vec<usize>) {
    if upside {
        ((0..size).collect(), (0..size).rev().collect())
    } else {
        ((0..size).rev().collect(), (0..size).collect())
    }
}

/// Every piece letter the board shows, named from the game's catalog:
/// "Pieces: S Sentinel, T Templar...".
fn piece_legend(catalog: &Catalog) -> String {
    let parts: Vec<String> = catalog
        .pieces
        .iter()
        .map(|p| format!("{} {}", p.letter, p.name))
        .collect();
    wrap_items("   Pieces: ", &parts)
}

/// A Battle Duel's state from the view's `duel`: the round, the score, each
/// round's winner, and how many troops each side has picked of the seven a
/// side takes.
fn duel_line(view: &Value) -> String {
    let Some(duel) = view.get("duel").filter(|d| d.is_object()) else {
        return String::new();
    };
    // A round's result is the winning seat, or null for a tie.
    let results: Vec<Option<u64>> = items(&duel["results"]).iter().map(Value::as_u64).collect();
    let wins = |seat: u64| results.iter().filter(|r| **r == Some(seat)).count();
    let mut line = format!(
        "Battle Duel: round {}; score Player 1 {}, Player 2 {}",
        // Counted from 1 once rounds begin; 0 while troops are picked.
        count(&duel["round"]).max(1),
        wins(0),
        wins(1)
    );
    if !results.is_empty() {
        let said: Vec<String> = results
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                Some(seat @ (0 | 1)) => format!("round {} won by Player {}", i + 1, seat + 1),
                _ => format!("round {} tied", i + 1),
            })
            .collect();
        line.push_str(&format!(" ({})", said.join(", ")));
    }
    if view["stage"] == "pick" {
        let picked: Vec<String> = (0..2)
            .map(|i| {
                format!(
                    "Player {} {} of 7",
                    i + 1,
                    count(&duel["sides"][i]["picks_count"])
                )
            })
            .collect();
        line.push_str(&format!(
            "; each side picks 7 troops (picked: {})",
            picked.join(", ")
        ));
    }
    wrap(&line)
}

/// The catalog's entry for a Lytharian card id (`extra.cards`).
fn card<'a>(catalog: &'a Catalog, id: &str) -> Option<&'a Value> {
    items(&catalog.extra["cards"])
        .iter()
        .find(|c| c["id"] == id)
}

/// A Lytharian card's name from the catalog, or its id when unknown.
fn card_name(catalog: &Catalog, id: &Value) -> String {
    let id = text(id);
    card(catalog, id)
        .and_then(|c| c["name"].as_str())
        .unwrap_or(id)
        .to_owned()
}

/// An action as `moves` lists it, with the name of a Lytharian troop's
/// ability where the notation numbers it (`use f8 0 @g8 (Shield Bash)`).
pub fn action_line(game: &AnyGame, viewer: Viewer, notation: &str) -> String {
    if game.id() != GameId::Lytharia {
        return notation.to_owned();
    }
    let mut words = notation.split_whitespace();
    let (Some("use"), Some(cell), Some(index)) = (words.next(), words.next(), words.next()) else {
        return notation.to_owned();
    };
    let Ok(index) = index.parse::<usize>() else {
        return notation.to_owned();
    };
    let catalog = game.catalog();
    let view = game.view(viewer);
    let name = items(&view["pieces"])
        .iter()
        .find(|u| u["cell"] == cell)
        .and_then(|u| card(&catalog, u["card"].as_str()?))
        .and_then(|c| c["card"]["abilities"].get(index)?["name"].as_str());
    match name {
        Some(name) => format!("{notation} ({name})"),
        None => notation.to_owned(),
    }
}

/// `info WHAT` in play: the pieces of the game's catalog whose letter or
/// name is WHAT (or, in Lytharian Chess, the cards matching it), each with
/// every stat the catalog gives.
pub fn info(game: &AnyGame, what: &str) -> String {
    let catalog = game.catalog();
    let found: Vec<String> = catalog
        .pieces
        .iter()
        .filter(|p| {
            p.letter.eq_ignore_ascii_case(what)
                || p.name.eq_ignore_ascii_case(what)
                || p.id.eq_ignore_ascii_case(what)
        })
        .map(|p| {
            let stats: Vec<String> = match &p.stats {
                Value::Object(map) => map
                    .iter()
                    .map(|(k, v)| match v {
                        Value::String(text) => format!("{k}: {text}"),
                        other => format!("{k}: {other}"),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            wrap_items(&format!("{} ({}): ", p.name, p.letter), &stats)
        })
        .collect();
    if !found.is_empty() {
        return found.concat().trim_end().to_owned();
    }
    if game.id() == GameId::Lytharia {
        let cards = cards(&catalog, what);
        if !cards.is_empty() {
            return cards;
        }
    }
    format!("No piece or card called '{what}' here; the board's legend lists the letters.")
}

/// `cards` in play: the Lytharian Chess cards matching `search`.
pub fn game_cards(game: &AnyGame, search: &str) -> String {
    if game.id() != GameId::Lytharia {
        return "This game has no cards.".to_owned();
    }
    cards(&game.catalog(), search)
}

/// The Lytharian Chess cards of `catalog` whose line contains `search`
/// (any case; all when empty), one a line.
pub fn cards(catalog: &Catalog, search: &str) -> String {
    card_lines(catalog, search)
        .into_iter()
        .map(|(_, line)| line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each catalog card matching `search` with its line: id, role or kind,
/// name, and the numbers and text of the whole card (`extra.cards[].card`).
pub fn card_lines<'a>(catalog: &'a Catalog, search: &str) -> Vec<(&'a Value, String)> {
    let needle = search.to_lowercase();
    items(&catalog.extra["cards"])
        .iter()
        .map(|entry| (entry, card_summary(&entry["card"])))
        .filter(|(_, line)| line.to_lowercase().contains(&needle))
        .collect()
}

/// One card's line: "thane-orvik [K] Thane Orvik Granitehand Stoneborn Good
/// Humanoid 6/12 power 15 unique - Adjacent friendly troops get +1 Def.".
fn card_summary(c: &Value) -> String {
    let word = |key: &str| title_word(text(&c[key]));
    match text(&c["type"]) {
        "troop" => format!(
            "{} [{}] {} {} {} {} {}/{} power {}{} - {}",
            text(&c["id"]),
            text(&c["role"]),
            text(&c["name"]),
            word("clan"),
            word("alignment"),
            word("kind"),
            c["att"],
            c["def"],
            c["power"],
            if c["unique"] == true { " unique" } else { "" },
            text(&c["text"])
        ),
        "spell" => format!(
            "{} {} {} {} {} cost {} quality {} - {}",
            text(&c["id"]),
            text(&c["name"]),
            word("school"),
            word("speed"),
            word("kind"),
            c["cost"],
            c["quality"],
            text(&c["text"])
        ),
        _ => format!(
            "{} {} {} +{}/+{} cost {} reforge {} - {}",
            text(&c["id"]),
            text(&c["name"]),
            word("slot"),
            c["att"],
            c["def"],
            c["cost"],
            c["reforge"],
            text(&c["text"])
        ),
    }
}

/// A catalog word as a title: `zuk-gar` is "ZukGar", `life` "Life".
fn title_word(id: &str) -> String {
    id.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

/// Who is to act, and whether that side is in check (the view's
/// `in_check`): "White to move, in check".
pub fn status(game: &AnyGame) -> Option<String> {
    let player = game.to_act().player()?;
    let in_check = game.view(Viewer::Public)["in_check"] == Value::Bool(true);
    Some(format!(
        "{} to move{}",
        game.player_name(player),
        if in_check { ", in check" } else { "" }
    ))
}

/// An 8x8 board from the view's `pieces` (`cell`, `owner`, `piece` a
/// letter), White at the bottom.
fn chess_board(view: &Value, upside: bool) -> String {
    let mut grid = [None; 64];
    for p in items(&view["pieces"]) {
        let Some(letter) = text(&p["piece"]).chars().next() else {
            continue;
        };
        let letter = if count(&p["owner"]) == 0 {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        };
        if let Some(i) = square_index(text(&p["cell"]), 8) {
            grid[i] = Some(letter);
        }
    }
    let (ranks, files) = order(8, upside);
    let mut out = String::new();
    for &rank in &ranks {
        out.push_str(&format!("{} ", rank + 1));
        for &file in &files {
            match grid[rank * 8 + file] {
                Some(c) => {
                    out.push(' ');
                    out.push(glyph(c));
                }
                None if (file + rank) % 2 == 0 => out.push_str(" ·"),
                None => out.push_str("  "),
            }
        }
        out.push('\n');
    }
    out.push_str(&file_labels(&files, 2, "   "));
    out
}

/// The file letters under a board, in the order drawn.
fn file_labels(files: &[usize], pitch: usize, lead: &str) -> String {
    let mut line = lead.to_owned();
    for &file in files {
        line.push_str(&format!("{:<pitch$}", char::from(b'a' + file as u8)));
    }
    format!("{}\n", line.trim_end())
}

fn glyph(c: char) -> char {
    match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        other => other,
    }
}

/// The catalog's letter for piece id `id`, or `?` when it names none.
fn letter_of(catalog: &Catalog, id: &str) -> char {
    catalog
        .pieces
        .iter()
        .find(|p| p.id == id)
        .and_then(|p| p.letter.chars().next())
        .unwrap_or('?')
}

/// The 13x13 Epoch board, White at the bottom: each piece's catalog letter
/// (upper case White, lower case Black) followed by `+` when the command
/// zone enhances it and `~` for a dormant Emperor.
fn epoch_board(view: &Value, catalog: &Catalog, upside: bool) -> String {
    const SIZE: usize = 13;
    let mut cells = vec![[' '; 2]; SIZE * SIZE];
    for piece in items(&view["pieces"]) {
        let id = text(&piece["piece"]);
        let letter = letter_of(catalog, id);
        let letter = if piece["color"] == "black" {
            letter.to_ascii_lowercase()
        } else {
            letter.to_ascii_uppercase()
        };
        let mark = if piece["dormant"] == true && id == "emperor" {
            '~'
        } else if piece["enhanced"] == true {
            '+'
        } else {
            ' '
        };
        if let Some(cell) = square_index(text(&piece["cell"]), SIZE).and_then(|i| cells.get_mut(i))
        {
            *cell = [letter, mark];
        }
    }
    let (ranks, files) = order(SIZE, upside);
    let mut out = String::new();
    for &rank in &ranks {
        out.push_str(&format!("{:>2} ", rank + 1));
        for &file in &files {
            let [letter, mark] = cells[rank * SIZE + file];
            let letter = if letter == ' ' {
                if (file + rank) % 2 == 0 { '·' } else { ' ' }
            } else {
                letter
            };
            out.push(' ');
            out.push(letter);
            out.push(mark);
        }
        out.push('\n');
    }
    out.push_str(&file_labels(&files, 3, "    "));
    out.push_str("   upper case White, lower case Black; + enhanced, ~ dormant Emperor\n");
    out
}

/// The Warrior Chess board and table: each piece as army letter, `K` or `W`,
/// its weapons (r Rook, n Knight, b Bishop, s Swords) and the Swords facing as
/// an arrow; then captured stacks, each player's money and Reserve, the Bank,
/// and the phase. Armies, letters and names come from the catalog.
fn warrior_board(view: &Value, catalog: &Catalog) -> String {
    const WIDTH: usize = 6;
    let armies = items(&catalog.extra["armies"]);
    let army_of = |seat: &Value| armies.iter().find(|a| a["seat"] == *seat);
    let army_name = |seat: &Value| army_of(seat).map_or("", |a| text(&a["name"])).to_owned();
    // The weapons in the catalog's order: rook, knight, bishop, swords.
    let weapons: Vec<(&str, &str, char)> = catalog
        .pieces
        .iter()
        .filter(|p| p.stats["weapon"] == true)
        .map(|p| {
            let letter = p.letter.chars().next().unwrap_or('?');
            (p.id.as_str(), p.name.as_str(), letter.to_ascii_lowercase())
        })
        .collect();
    let mut cells = vec![String::new(); 64];
    let mut stacks = Vec::new();
    for sq in items(&view["pieces"]) {
        let mut cell = String::new();
        cell.push(
            army_of(&sq["owner"])
                .and_then(|a| text(&a["letter"]).chars().next())
                .unwrap_or('?'),
        );
        cell.push(letter_of(catalog, text(&sq["piece"])));
        for w in items(&sq["weapons"]) {
            let letter = weapons
                .iter()
                .find(|(id, ..)| w == *id)
                .map_or('?', |w| w.2);
            cell.push(letter);
        }
        match text(&sq["facing"]) {
            "north" => cell.push('↑'),
            "east" => cell.push('→'),
            "south" => cell.push('↓'),
            "west" => cell.push('←'),
            _ => {}
        }
        if sq["dropped_this_turn"] == true {
            cell.push('°');
        }
        let stack = items(&sq["stack"]);
        if !stack.is_empty() {
            cell.push('*');
            let held: Vec<String> = stack
                .iter()
                .filter(|s| count(&s["count"]) > 0)
                .map(|s| format!("{} {}", count(&s["count"]), army_name(&s["owner"])))
                .collect();
            stacks.push(format!("{} holds {}", text(&sq["cell"]), held.join(", ")));
        }
        if let Some(slot) = square_index(text(&sq["cell"]), 8).and_then(|i| cells.get_mut(i)) {
            *slot = cell;
        }
    }
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let cell = &cells[rank * 8 + file];
            let shown = if cell.is_empty() {
                if (file + rank) % 2 == 0 { "·" } else { "" }.to_owned()
            } else {
                cell.clone()
            };
            out.push_str(&format!(" {shown:<WIDTH$}"));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("   a      b      c      d      e      f      g      h\n");
    let named: Vec<String> = items(&view["players"])
        .iter()
        .filter_map(|p| army_of(&p["seat"]))
        .map(|a| format!("{} {}", text(&a["letter"]), text(&a["name"])))
        .collect();
    out.push_str(&wrap(&format!(
        "   A piece is its army's letter ({}), then K King or W Warrior, then its weapons in lower case: r Rook, n Knight, b Bishop, s Swords (arrow: facing); ° dropped this turn, * holds captured Warriors",
        named.join(", ")
    )));
    for line in stacks {
        out.push_str(&format!("   {line}\n"));
    }
    for p in items(&view["players"]) {
        let reserve = &p["reserve"];
        let held: Vec<&str> = weapons
            .iter()
            .flat_map(|(id, name, _)| {
                std::iter::repeat_n(*name, count(&reserve["weapons"][*id]) as usize)
            })
            .collect();
        out.push_str(&format!(
            "{:<7} {:>4}  income {}  Reserve: {} Warrior(s){}{}\n",
            army_name(&p["seat"]),
            format!("${}", count(&p["money"])),
            p["income"],
            count(&reserve["warriors"]),
            if held.is_empty() { "" } else { ", " },
            held.join(", ")
        ));
    }
    let counts = |stock: &Value| {
        let parts: Vec<String> = weapons
            .iter()
            .filter(|(id, ..)| count(&stock[*id]) > 0)
            .map(|(id, name, _)| format!("{} {name}", count(&stock[*id])))
            .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    };
    for b in items(&view["bank"]) {
        let name = armies
            .iter()
            .find(|a| a["army"] == b["army"])
            .map_or("", |a| text(&a["name"]));
        out.push_str(&format!(
            "Bank {:<7} {} Warrior(s); new {}; reissued {}\n",
            name,
            count(&b["new"]["warriors"]),
            counts(&b["new"]["weapons"]),
            counts(&b["reissued"])
        ));
    }
    out.push_str(&format!(
        "Phase: {}; {} of {} turns without a drop or capture\n",
        text(&view["phase"]),
        view["no_progress"],
        view["fifty_moves_limit"]
    ));
    out
}

/// The Skirmish chess board, what the game waits for, the roll about to be
/// made with its exact odds, and the odds of every skirmish the player to
/// move could start, so a player sees them before committing.
fn skirmish_board(view: &Value, upside: bool) -> String {
    let mut out = chess_board(view, upside);
    let excused: Vec<&str> = items(&view["excused"]).iter().map(text).collect();
    if !excused.is_empty() {
        out.push_str(&format!(
            "The King need not answer the check of: {}\n",
            excused.join(", ")
        ));
    }
    if view["pending"].is_object() {
        out.push_str(&format!("Skirmish: {}\n", odds_line(&view["pending"])));
    }
    let offers: Vec<String> = items(&view["offers"])
        .iter()
        .map(|l| {
            let parts: Vec<String> = items(&l["odds"]).iter().map(chance_text).collect();
            format!("{} {}", text(&l["notation"]), parts.join(" + "))
        })
        .collect();
    if !offers.is_empty() {
        out.push_str(&format!(
            "Skirmish odds (attacker wins): {}\n",
            offers.join(", ")
        ));
    }
    // "White to move" is the prompt's to say; anything else is news.
    let waiting = text(&view["waiting_for"]);
    if !waiting.is_empty() && !waiting.ends_with("to move") {
        out.push_str(&format!("Waiting for: {waiting}\n"));
    }
    out
}

fn odds_line(o: &Value) -> String {
    format!(
        "{} ({} + {} bonus + {}) against {} ({} + {}): attacker wins {}",
        text(&o["attacker"]),
        o["attack_value"],
        o["bonus"],
        text(&o["dice"]),
        text(&o["defender"]),
        o["defence_value"],
        text(&o["dice"]),
        chance_text(o)
    )
}

/// An attack's chance of winning: "58% (7/12)", or certainly or never.
fn chance_text(o: &Value) -> String {
    match o["given"].as_bool() {
        Some(true) => "certainly".to_owned(),
        Some(false) => "never".to_owned(),
        None => {
            let p = &o["win_probability"];
            let chance = o["win_chance"].as_f64().unwrap_or(0.0);
            format!("{:.0}% ({}/{})", chance * 100.0, p[0], p[1])
        }
    }
}

/// The Lytharian table from the view: troops on the board (role letter,
/// upper case for the first seat, `?` while face down, damage taken), then
/// each player's mana, obelisk, power, deck and hand (names only for the
/// viewer's own hand), enchantments and the stack; card names from the
/// catalog.
fn lytharia_table(view: &Value, catalog: &Catalog, upside: bool) -> String {
    let name = |id: &Value| card_name(catalog, id);
    let mut cells = vec![String::new(); 64];
    let mut troops = Vec::new();
    for u in items(&view["pieces"]) {
        let role = text(&u["role"]);
        let mut cell = if count(&u["owner"]) == 0 {
            role.to_ascii_uppercase()
        } else {
            role.to_ascii_lowercase()
        };
        if u["face_up"] != true {
            cell.push('?');
        }
        let damage = count(&u["damage"]);
        if damage > 0 {
            cell.push_str(&damage.to_string());
        }
        if let Some(slot) = square_index(text(&u["cell"]), 8).and_then(|i| cells.get_mut(i)) {
            *slot = cell;
        }
        if u["card"].is_string() {
            let called = if u["copy"].is_string() {
                format!("{} (as {})", name(&u["card"]), name(&u["copy"]))
            } else {
                name(&u["card"])
            };
            let gear: Vec<String> = items(&u["equipment"]).iter().map(name).collect();
            troops.push(format!(
                "{} {}{}{}",
                text(&u["cell"]),
                called,
                if damage > 0 {
                    format!(", {damage} damage")
                } else {
                    String::new()
                },
                if gear.is_empty() {
                    String::new()
                } else {
                    format!(", with {}", gear.join(", "))
                }
            ));
        }
    }
    let (ranks, files) = order(8, upside);
    let mut out = String::new();
    for &rank in &ranks {
        out.push_str(&format!("{} ", rank + 1));
        for &file in &files {
            let cell = &cells[rank * 8 + file];
            let shown = if cell.is_empty() {
                if (file + rank) % 2 == 0 { "·" } else { "" }
            } else {
                cell.as_str()
            };
            out.push_str(&format!(" {shown:<3}"));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str(&file_labels(&files, 4, "   "));
    out.push_str("   upper case Player 1, lower case Player 2; ? face down; number = damage\n");
    if !troops.is_empty() {
        out.push_str(&format!("Troops you can see: {}\n", troops.join("; ")));
    }
    for (seat, side) in items(&view["sides"]).iter().enumerate() {
        let hand = match side["hand"].as_array() {
            Some(cards) => {
                let names: Vec<String> = cards.iter().map(name).collect();
                format!("hand {}: {}", cards.len(), names.join(", "))
            }
            None => format!("hand {} (hidden)", count(&side["hand_size"])),
        };
        let enchants: Vec<String> = items(&side["enchants"])
            .iter()
            .map(|e| name(&e["card"]))
            .collect();
        out.push_str(&format!(
            "Player {} ({}): mana {}, obelisk {}, power {}, deck {}, {}{}\n",
            seat + 1,
            text(&side["list"]),
            side["mana"],
            side["obelisk"],
            side["power"],
            side["deck_size"],
            hand,
            if enchants.is_empty() {
                String::new()
            } else {
                format!("; enchantments: {}", enchants.join(", "))
            }
        ));
    }
    let stack: Vec<String> = items(&view["stack"])
        .iter()
        .map(|e| {
            let source = &e["source"];
            if source["spell"].is_string() {
                name(&source["spell"])
            } else if source["ability"]["card"].is_string() {
                format!("ability of {}", name(&source["ability"]["card"]))
            } else {
                "ability of a face-down troop".to_owned()
            }
        })
        .collect();
    if !stack.is_empty() {
        out.push_str(&format!("Stack (bottom first): {}\n", stack.join(" <- ")));
    }
    out.push_str(&format!(
        "Turn {}, {}\n",
        view["turn_number"],
        title_word(text(&view["stage"]))
    ));
    out
}

/// The Covenant hex field, flat-top, odd columns half a hex higher, row 1
/// (Gold's edge) at the bottom. A piece shows its code (upper case Gold,
/// lower case Blue) and its Blood; an empty hex its land (`.` open, `f`
/// forest, `h` hill, `d` desert), with `*` on a Holy City's marked hex and
/// `+` on the six around it. Below: Grails, round, and the active piece's
/// reachable hexes and targets. The field is the catalog's.
fn covenant_field(game: &AnyGame, view: &Value, catalog: &Catalog) -> String {
    const PITCH: usize = 5;
    let scenario = &catalog.extra["scenario"];
    let (width, height) = (
        count(&scenario["width"]) as usize,
        count(&scenario["height"]) as usize,
    );
    let at = |col: usize, row: usize| (col < width && row < height).then_some(row * width + col);
    let mut cells = vec![String::new(); width * height];
    if let BoardShape::Hexes { cells: hexes } = &catalog.board {
        for hex in hexes {
            let has = |f: &str| hex.features.iter().any(|h| h == f);
            let mut cell = String::new();
            cell.push(if has("forest") {
                'f'
            } else if has("hill") {
                'h'
            } else if has("desert") {
                'd'
            } else {
                '.'
            });
            if has("holy-city-mark") {
                cell.push('*');
            } else if has("holy-city") {
                cell.push('+');
            }
            let (Ok(col), Ok(row)) = (usize::try_from(hex.col), usize::try_from(hex.row)) else {
                continue;
            };
            if let Some(c) = at(col, row).and_then(|i| cells.get_mut(i)) {
                *c = cell;
            }
        }
    }
    for p in items(&view["pieces"]) {
        let code = text(&p["piece"]);
        // Seat 0 is Gold.
        let code = if count(&p["owner"]) == 0 {
            code.to_ascii_uppercase()
        } else {
            code.to_ascii_lowercase()
        };
        let Some((col, row)) = square(text(&p["cell"])) else {
            continue;
        };
        if let Some(c) = at(col, row).and_then(|i| cells.get_mut(i)) {
            *c = format!("{code}{}", p["blood"]);
        }
    }
    // One line a row, so the field fits a 24-line terminal: an odd
    // column's hex stands half a row higher than its even neighbours.
    let mut out = String::new();
    for row in (0..height).rev() {
        let mut line = format!("{:>3} ", row + 1);
        for col in 0..width {
            line.push_str(&format!("{:<PITCH$}", cells[row * width + col]));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("    ");
    for col in 0..width {
        out.push_str(&format!("{:<PITCH$}", char::from(b'a' + col as u8)));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out.push_str(&wrap(
        "    UPPER Gold, lower Blue, number Blood left; . open f forest h hill d desert; * Holy City, + its hexes; odd columns stand half a hex up",
    ));
    let codes = items(&view["pieces"])
        .iter()
        .map(|p| text(&p["piece"]).to_ascii_uppercase())
        .collect();
    out.push_str(&covenant_legend(game, catalog, codes));
    out.push_str(&format!(
        "{}, round {} ({}/{} without a capture); Grails Gold {} (+{}), Blue {} (+{})\n",
        text(&scenario["name"]),
        view["round"],
        view["quiet_rounds"],
        catalog.extra["rules"]["draw-rounds"],
        view["grails"][0],
        view["income"][0],
        view["grails"][1],
        view["income"][1]
    ));
    let active = &view["active"];
    if active.is_object() {
        let reach: Vec<String> = items(&active["reachable"])
            .iter()
            .map(|s| format!("{}({})", text(&s["to"]), s["cost"]))
            .collect();
        let targets: Vec<&str> = items(&active["targets"]).iter().map(text).collect();
        out.push_str(&wrap(&format!(
            "Active: {} with {} MP. Reachable (MP): {}. Targets: {}",
            text(&active["cell"]),
            active["mp"],
            if reach.is_empty() {
                "none".to_owned()
            } else {
                reach.join(" ")
            },
            if targets.is_empty() {
                "none".to_owned()
            } else {
                targets.join(" ")
            },
        )));
    }
    out
}

/// Each piece code on the field named, with its full Blood; and, when a
/// recruit may be taken, each recruit's price in Grails.
fn covenant_legend(game: &AnyGame, catalog: &Catalog, mut codes: Vec<String>) -> String {
    let named = |code: &str| {
        catalog
            .pieces
            .iter()
            .find(|p| p.letter.eq_ignore_ascii_case(code))
    };
    codes.sort();
    codes.dedup();
    let parts: Vec<String> = codes
        .iter()
        .filter_map(|code| {
            let kind = named(code)?;
            Some(format!(
                "{} {} {}",
                kind.letter, kind.name, kind.stats["blood"]
            ))
        })
        .collect();
    let mut text = wrap_items("    Pieces (full Blood): ", &parts);
    let mut recruits: Vec<String> = game
        .legal_actions()
        .iter()
        .filter_map(|a| a.canonical.strip_prefix("recruit@"))
        .filter_map(|rest| rest.split_once(':').map(|(_, code)| code.to_owned()))
        .collect();
    recruits.sort();
    recruits.dedup();
    if !recruits.is_empty() {
        let priced: Vec<String> = recruits
            .iter()
            .filter_map(|code| {
                let kind = named(code)?;
                Some(format!(
                    "{} {} {}",
                    kind.letter, kind.name, kind.stats["price"]
                ))
            })
            .collect();
        text.push_str(&wrap_items("    Recruits, price in Grails: ", &priced));
    }
    text
}

/// `prefix` and the items, comma-separated, wrapped before 80 columns
/// between items (an item is never split).
fn wrap_items(prefix: &str, items: &[String]) -> String {
    let indent = " ".repeat(prefix.len() - prefix.trim_start().len() + 2);
    let mut out = String::new();
    let mut line = prefix.to_owned();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let fresh = line.trim().is_empty() || line == prefix;
        if !fresh && line.len() + 1 + piece.len() > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.clone();
        } else if !fresh {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// Text wrapped before 80 columns, continuation lines indented.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    for paragraph in text.lines() {
        let indent = paragraph.len() - paragraph.trim_start().len();
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line = " ".repeat(indent + 2);
            } else if !line.is_empty() && !line.ends_with(' ') {
                line.push(' ');
            } else if line.is_empty() {
                line = " ".repeat(indent);
            }
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::GameId;

    #[test]
    fn the_start_position_draws_white_at_the_bottom() {
        let game = AnyGame::new(GameId::Chess, &[]).unwrap();
        let board = chess_board(&game.view(Viewer::Public), false);
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜");
        assert_eq!(lines[7], "1  ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖");
        assert_eq!(lines[8], "   a b c d e f g h");
        // a1 is a dark square, shown with a dot when empty.
        let empty = chess_board(&serde_json::json!({ "pieces": [] }), false);
        assert!(empty.lines().nth(7).unwrap().starts_with("1  ·"));
    }

    #[test]
    fn the_covenant_field_staggers_odd_columns_and_shows_blood() {
        let game = AnyGame::new(
            GameId::Covenant,
            &[("scenario".into(), "crossroads".into())],
        )
        .unwrap();
        let text = board(&game, Viewer::Public, false);
        let lines: Vec<&str> = text.lines().collect();
        // Row 1 (Gold's edge) is the bottom labelled line, with the Gold King's
        // code and full Blood; Blue's pieces are lower case at the top.
        let row1 = lines.iter().position(|l| l.starts_with("  1 ")).unwrap();
        assert!(lines[row1].contains("KI15"), "{text}");
        assert!(lines[0].contains("ki15"), "{text}");
        assert!(lines[row1 + 1].trim_start().starts_with("a    b    c"));
        assert!(text.contains("Ki King 15"), "{text}");
        // Everything fits 80 columns.
        assert!(lines.iter().all(|l| l.chars().count() < 80), "{text}");
        assert!(text.contains("Grails Gold 3"), "{text}");
    }

    #[test]
    fn lytharian_abilities_are_named_in_the_move_list() {
        use tabula_core::{GameRng, Seed, ToAct};
        let mut g = AnyGame::new(GameId::Lytharia, &[]).unwrap();
        let mut rng = GameRng::from_seed(Seed(5));
        for ply in 0..2000usize {
            let legal = g.legal_actions();
            if let Some(use_) = legal.iter().find(|a| a.notation.starts_with("use ")) {
                let viewer = Viewer::Player(g.to_act().player().unwrap());
                let line = action_line(&g, viewer, &use_.notation);
                assert!(
                    line.starts_with(&use_.notation) && line.ends_with(')'),
                    "{line}"
                );
                assert!(line.len() > use_.notation.len() + 3, "{line}");
                return;
            }
            let next = match g.to_act() {
                ToAct::Chance => g.sample_chance(&mut rng).unwrap(),
                // A fixed spread of choices, so the game goes somewhere.
                ToAct::Player { .. } => legal[(ply * 7919) % legal.len()].clone(),
                ToAct::Over { .. } => break,
            };
            g.apply(&next.canonical).unwrap();
        }
        panic!("no troop ability came up");
    }

    #[test]
    fn the_epoch_board_marks_enhanced_pieces_and_the_dormant_emperor() {
        let game = AnyGame::new(GameId::Epoch, &[]).unwrap();
        let text = board(&game, Viewer::Public, false);
        let lines: Vec<&str> = text.lines().collect();
        // Rank 1 from a to m: Sentinel, Templar, Herald, Mage, Assassin,
        // Emperor, Pope, Marshal, Assassin, Mage, Herald, Templar, Sentinel.
        // The Marshal on h1 enhances what stands within four squares (d..l).
        assert_eq!(lines[12], " 1  S  T  H  G+ A+ E~ P  M+ A+ G+ H+ T+ S ");
        assert!(lines[0].starts_with("13  s  t  h  g+"), "{}", lines[0]);
        assert!(text.contains("~ dormant Emperor"), "{text}");
        assert!(text.contains("P Pope"), "{text}");
        assert_eq!(status(&game).as_deref(), Some("White to move"));
    }
}
