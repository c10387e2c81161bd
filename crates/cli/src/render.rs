//! Drawing boards in the terminal.

use tabula_core::{Game, Viewer};
use tabula_covenant::Covenant;
use tabula_epoch::{Epoch, PieceKind};
use tabula_games::AnyGame;
use tabula_lytharia::Lytharia;
use tabula_skirmish::Skirmish;
use tabula_warrior::Warrior;

/// The board of `game` as `viewer` may see it, drawn from the viewer's
/// side (its own pieces at the bottom), turned round when `flip`.
pub fn board(game: &AnyGame, viewer: Viewer, flip: bool) -> String {
    let upside = flip != from_far_side(game, viewer);
    let mut text = match game {
        AnyGame::Chess(_) => chess_board(&game.to_text(), upside),
        AnyGame::Epoch(g) => epoch_board(g, upside) + &piece_legend(game),
        AnyGame::Warrior(g) => warrior_board(g),
        AnyGame::Covenant(g) => covenant_field(g, game),
        AnyGame::Skirmish(g) => skirmish_board(g, upside),
        AnyGame::Lytharia(g) => lytharia_table(g, viewer, upside) + &duel_line(game, viewer),
    };
    // The side to move is said once, by the prompt or the computer's move.
    text.truncate(text.trim_end().len());
    text
}

/// Whether `viewer`'s home is the board's top edge as drawn by default, so
/// the board is turned round for them: the second seat in chess, Skirmish
/// and Epoch; in Lytharian Chess whoever's troops stand higher up.
fn from_far_side(game: &AnyGame, viewer: Viewer) -> bool {
    let Viewer::Player(me) = viewer else {
        return false;
    };
    match game {
        AnyGame::Chess(_) | AnyGame::Skirmish(_) | AnyGame::Epoch(_) => me.0 == 1,
        AnyGame::Lytharia(g) => {
            let view = g.view(viewer);
            let (mut mine, mut theirs) = ((0, 0), (0, 0));
            for u in &view.pieces {
                let rank = u.cell.0.index() / 8;
                let side = if usize::from(u.owner) == me.index() {
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
fn piece_legend(game: &AnyGame) -> String {
    let parts: Vec<String> = game
        .catalog()
        .pieces
        .iter()
        .map(|p| format!("{} {}", p.letter, p.name))
        .collect();
    wrap_items("   Pieces: ", &parts)
}

/// A Battle Duel's state from the table view's `duel`: the round, the
/// score, each round's winner, and how many troops each side has picked
/// of the seven a side takes.
fn duel_line(game: &AnyGame, viewer: Viewer) -> String {
    use serde_json::Value;
    let view = game.view(viewer);
    let Some(duel) = view.get("duel").filter(|d| d.is_object()) else {
        return String::new();
    };
    let number = |v: &Value| v.as_u64().unwrap_or(0);
    let results: Vec<u64> = duel["results"]
        .as_array()
        .map(|r| r.iter().map(number).collect())
        .unwrap_or_default();
    let wins = |seat: u64| results.iter().filter(|r| **r == seat).count();
    let mut text = format!(
        "Battle Duel: round {}; score Player 1 {}, Player 2 {}",
        number(&duel["round"]) + 1,
        wins(0),
        wins(1)
    );
    if !results.is_empty() {
        let said: Vec<String> = results
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                0 | 1 => format!("round {} won by Player {}", i + 1, r + 1),
                _ => format!("round {} tied", i + 1),
            })
            .collect();
        text.push_str(&format!(" ({})", said.join(", ")));
    }
    if view["stage"] == "pick" {
        let picked: Vec<String> = (0..2)
            .map(|i| {
                format!(
                    "Player {} {} of 7",
                    i + 1,
                    number(&duel["sides"][i]["picks_count"])
                )
            })
            .collect();
        text.push_str(&format!(
            "; each side picks 7 troops (picked: {})",
            picked.join(", ")
        ));
    }
    wrap(&text)
}

/// An action as `moves` lists it, with the name of a Lytharian troop's
/// ability where the notation numbers it (`use f8 0 @g8 (Shield Bash)`).
pub fn action_line(game: &AnyGame, viewer: Viewer, notation: &str) -> String {
    let AnyGame::Lytharia(g) = game else {
        return notation.to_owned();
    };
    let mut words = notation.split_whitespace();
    let (Some("use"), Some(cell), Some(index)) = (words.next(), words.next(), words.next()) else {
        return notation.to_owned();
    };
    let Ok(index) = index.parse::<usize>() else {
        return notation.to_owned();
    };
    let name = g.view(viewer).pieces.iter().find_map(|u| {
        if u.cell.to_string() != cell {
            return None;
        }
        match u.card?.card() {
            tabula_lytharia::cards::Card::Troop(t) => Some(t.abilities.get(index)?.name.clone()),
            _ => None,
        }
    });
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
                serde_json::Value::Object(map) => map
                    .iter()
                    .map(|(k, v)| match v {
                        serde_json::Value::String(text) => format!("{k}: {text}"),
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
    if matches!(game, AnyGame::Lytharia(_)) {
        let cards = cards(game, what);
        if !cards.is_empty() {
            return cards;
        }
    }
    format!("No piece or card called '{what}' here; the board's legend lists the letters.")
}

/// The Lytharian Chess cards matching `search` (all when empty), one a line.
pub fn cards(game: &AnyGame, search: &str) -> String {
    if !matches!(game, AnyGame::Lytharia(_)) {
        return "This game has no cards.".to_owned();
    }
    let db = tabula_lytharia::card_db();
    let found = if search.is_empty() {
        db.iter().collect()
    } else {
        db.search(search)
    };
    let lines: Vec<String> = found.iter().map(|(_, c)| c.summary()).collect();
    lines.join("\n")
}

/// Who is to act, and whether that side is in check (the table view's
/// `in_check`): "White to move, in check".
pub fn status(game: &AnyGame) -> Option<String> {
    let player = game.to_act().player()?;
    let in_check = game.view(Viewer::Public)["in_check"] == serde_json::Value::Bool(true);
    Some(format!(
        "{} to move{}",
        game.player_name(player),
        if in_check { ", in check" } else { "" }
    ))
}

/// An 8x8 board from the placement field of a FEN, White at the bottom.
fn chess_board(fen: &str, upside: bool) -> String {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut grid = [None; 64];
    for (row, rank) in placement.split('/').enumerate().take(8) {
        let rank_index = 7 - row;
        let mut file = 0;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    if file < 8 {
                        grid[rank_index * 8 + file] = Some(c);
                    }
                    file += 1;
                }
            }
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

/// The 13x13 Epoch board, White at the bottom: each piece's letter (upper
/// case White, lower case Black) followed by `+` when the command zone
/// enhances it and `~` for a dormant Emperor.
fn epoch_board(game: &Epoch, upside: bool) -> String {
    const SIZE: usize = 13;
    let view = game.view(Viewer::Public);
    let mut cells = vec![[' '; 2]; SIZE * SIZE];
    for piece in &view.pieces {
        let (file, rank) = (piece.cell.file() as usize, piece.cell.rank() as usize);
        let letter = piece.piece.letter();
        let letter = match piece.color {
            tabula_epoch::Color::White => letter,
            tabula_epoch::Color::Black => letter.to_ascii_lowercase(),
        };
        let mark = if piece.dormant && piece.piece == PieceKind::Emperor {
            '~'
        } else if piece.enhanced {
            '+'
        } else {
            ' '
        };
        if let Some(cell) = cells.get_mut(rank * SIZE + file) {
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
/// and the phase.
fn warrior_board(game: &Warrior) -> String {
    use tabula_warrior::{Facing, PieceKind as Kind};
    const WIDTH: usize = 6;
    let view = game.view(Viewer::Public);
    let mut cells = vec![String::new(); 64];
    let mut stacks = Vec::new();
    for sq in &view.pieces {
        let mut cell = String::new();
        let army = view.players.iter().find(|p| p.seat == sq.owner);
        cell.push(army.map_or('?', |p| p.army.letter()));
        cell.push(match sq.piece {
            Kind::King => 'K',
            Kind::Warrior => 'W',
        });
        for w in &sq.weapons {
            cell.push(w.letter().to_ascii_lowercase());
        }
        if let Some(f) = sq.facing {
            cell.push(match f {
                Facing::North => '↑',
                Facing::East => '→',
                Facing::South => '↓',
                Facing::West => '←',
            });
        }
        if sq.dropped_this_turn {
            cell.push('°');
        }
        if !sq.stack.is_empty() {
            cell.push('*');
            let held: Vec<String> = view
                .players
                .iter()
                .filter(|p| sq.stacked(p.seat) > 0)
                .map(|p| format!("{} {}", sq.stacked(p.seat), p.name))
                .collect();
            stacks.push(format!("{} holds {}", sq.cell, held.join(", ")));
        }
        if let Some(slot) = cells.get_mut(sq.cell.index()) {
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
    let armies: Vec<String> = view
        .players
        .iter()
        .map(|p| format!("{} {}", p.army.letter(), p.name))
        .collect();
    out.push_str(&wrap(&format!(
        "   A piece is its army's letter ({}), then K King or W Warrior, then its weapons in lower case: r Rook, n Knight, b Bishop, s Swords (arrow: facing); ° dropped this turn, * holds captured Warriors",
        armies.join(", ")
    )));
    for line in stacks {
        out.push_str(&format!("   {line}\n"));
    }
    for p in &view.players {
        let r = p.reserve;
        let weapons: Vec<String> = r.weapons.iter().map(|w| w.name().to_owned()).collect();
        out.push_str(&format!(
            "{:<7} {:>4}  income {}  Reserve: {} Warrior(s){}{}\n",
            p.name,
            p.money.to_string(),
            p.income,
            r.warriors,
            if weapons.is_empty() { "" } else { ", " },
            weapons.join(", ")
        ));
    }
    for b in &view.bank {
        out.push_str(&format!(
            "Bank {:<7} {} Warrior(s); new {}; reissued {}\n",
            b.army.name(),
            b.new.warriors,
            weapon_counts(b.new.weapons),
            weapon_counts(b.reissued)
        ));
    }
    out.push_str(&format!(
        "Phase: {}; {} of {} turns without a drop or capture\n",
        view.phase.word(),
        view.no_progress,
        view.fifty_moves_limit
    ));
    out
}

/// The Skirmish chess board, what the game waits for, the roll about to be
/// made with its exact odds, and the odds of every skirmish the player to
/// move could start, so a player sees them before committing.
fn skirmish_board(game: &Skirmish, upside: bool) -> String {
    let view = game.view(Viewer::Public);
    let mut out = chess_board(&game.setup().to_fen(), upside);
    if !view.excused.is_empty() {
        out.push_str(&format!(
            "The King need not answer the check of: {}\n",
            view.excused.join(", ")
        ));
    }
    if let Some(roll) = &view.pending {
        out.push_str(&format!("Skirmish: {}\n", odds_line(roll)));
    }
    let offers: Vec<String> = view
        .offers
        .iter()
        .map(|l| {
            let parts: Vec<String> = l.odds.iter().map(chance_text).collect();
            format!("{} {}", l.notation, parts.join(" + "))
        })
        .collect();
    if !offers.is_empty() {
        out.push_str(&format!(
            "Skirmish odds (attacker wins): {}\n",
            offers.join(", ")
        ));
    }
    // "White to move" is the prompt's to say; anything else is news.
    if !view.waiting_for.is_empty() && !view.waiting_for.ends_with("to move") {
        out.push_str(&format!("Waiting for: {}\n", view.waiting_for));
    }
    out
}

fn odds_line(o: &tabula_skirmish::OddsView) -> String {
    format!(
        "{} ({} + {} bonus + {}) against {} ({} + {}): attacker wins {}",
        o.attacker,
        o.attack_value,
        o.bonus,
        o.dice,
        o.defender,
        o.defence_value,
        o.dice,
        chance_text(o)
    )
}

fn chance_text(o: &tabula_skirmish::OddsView) -> String {
    match o.given {
        Some(true) => "certainly".to_owned(),
        Some(false) => "never".to_owned(),
        None => format!("{:.0}% ({})", o.win_chance * 100.0, o.win_probability),
    }
}

/// The Lytharian table as `viewer` sees it: troops on the board (role letter,
/// upper case for the first seat, `?` while face down, damage taken), then
/// each player's mana, obelisk, power, deck and hand (names only for the
/// viewer's own hand), enchantments and the stack.
fn lytharia_table(game: &Lytharia, viewer: Viewer, upside: bool) -> String {
    let view = game.view(viewer);
    let mut cells = vec![String::new(); 64];
    let mut troops = Vec::new();
    for u in &view.pieces {
        let role = u.role.to_string();
        let mut cell = if u.owner == 0 {
            role.to_ascii_uppercase()
        } else {
            role.to_ascii_lowercase()
        };
        if !u.face_up {
            cell.push('?');
        }
        if u.damage > 0 {
            cell.push_str(&u.damage.to_string());
        }
        if let Some(slot) = cells.get_mut(u.cell.0.index()) {
            *slot = cell;
        }
        if let Some(card) = u.card {
            let name = u.copy.map_or_else(
                || card.card().name().to_owned(),
                |c| format!("{} (as {})", card.card().name(), c.card().name()),
            );
            let gear: Vec<&str> = u.equipment.iter().map(|e| e.card().name()).collect();
            troops.push(format!(
                "{} {}{}{}",
                u.cell,
                name,
                if u.damage > 0 {
                    format!(", {} damage", u.damage)
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
    for (seat, side) in view.sides.iter().enumerate() {
        let hand = match &side.hand {
            Some(cards) => {
                let names: Vec<&str> = cards.iter().map(|c| c.card().name()).collect();
                format!("hand {}: {}", cards.len(), names.join(", "))
            }
            None => format!("hand {} (hidden)", side.hand_size),
        };
        let enchants: Vec<&str> = side.enchants.iter().map(|e| e.card.card().name()).collect();
        out.push_str(&format!(
            "Player {} ({}): mana {}, obelisk {}, power {}, deck {}, {}{}\n",
            seat + 1,
            side.list,
            side.mana,
            side.obelisk,
            side.power,
            side.deck_size,
            hand,
            if enchants.is_empty() {
                String::new()
            } else {
                format!("; enchantments: {}", enchants.join(", "))
            }
        ));
    }
    if !view.stack.is_empty() {
        let entries: Vec<String> = view
            .stack
            .iter()
            .map(|e| match e.source {
                tabula_lytharia::state::Source::Spell(card) => card.card().name().to_owned(),
                tabula_lytharia::state::Source::Ability { card, .. } => {
                    format!("ability of {}", card.card().name())
                }
                tabula_lytharia::state::Source::Hidden { .. } => {
                    "ability of a face-down troop".to_owned()
                }
            })
            .collect();
        out.push_str(&format!("Stack (bottom first): {}\n", entries.join(" <- ")));
    }
    out.push_str(&format!("Turn {}, {:?}\n", view.turn_number, view.stage));
    out
}

/// The Covenant hex field, flat-top, odd columns half a hex higher, row 1
/// (Gold's edge) at the bottom. A piece shows its code (upper case Gold,
/// lower case Blue) and its Blood; an empty hex its land (`.` open, `f`
/// forest, `h` hill, `d` desert), with `*` on a Holy City's marked hex and
/// `+` on the six around it. Below: Grails, round, and the active piece's
/// reachable hexes and targets.
fn covenant_field(game: &Covenant, any: &AnyGame) -> String {
    const PITCH: usize = 5;
    let view = game.view(Viewer::Public);
    // The field is static: the scenario holds it (the catalog sends it).
    let field = game.scenario();
    let (width, height) = (usize::from(field.width), usize::from(field.height));
    let mut cells = vec![String::new(); width * height];
    for hex in field.hexes() {
        let mut cell = String::new();
        cell.push(
            field
                .terrain(hex)
                .unwrap_or(tabula_covenant::Terrain::Open)
                .token(),
        );
        if field.cities.contains(&hex) {
            cell.push('*');
        } else if field.city(hex).is_some() {
            cell.push('+');
        }
        if let Some(c) = cells.get_mut(usize::from(hex.row) * width + usize::from(hex.col)) {
            *c = cell;
        }
    }
    for p in &view.pieces {
        // Seat 0 is Gold.
        let code = if p.owner == 0 {
            p.piece.to_ascii_uppercase()
        } else {
            p.piece.to_ascii_lowercase()
        };
        if let Some(c) = cells.get_mut(usize::from(p.cell.row) * width + usize::from(p.cell.col)) {
            *c = format!("{code}{}", p.blood);
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
    let codes = view
        .pieces
        .iter()
        .map(|p| p.piece.to_ascii_uppercase())
        .collect();
    out.push_str(&covenant_legend(any, codes));
    out.push_str(&format!(
        "{}, round {} ({}/{} without a capture); Grails Gold {} (+{}), Blue {} (+{})\n",
        field.name,
        view.round,
        view.quiet_rounds,
        tabula_covenant::PieceTable::builtin().rules.draw_rounds,
        view.grails[0],
        view.income[0],
        view.grails[1],
        view.income[1]
    ));
    if let Some(active) = &view.active {
        let reach: Vec<String> = active
            .reachable
            .iter()
            .map(|s| format!("{}({})", s.to, s.cost))
            .collect();
        let targets: Vec<String> = active.targets.iter().map(|h| h.to_string()).collect();
        out.push_str(&wrap(&format!(
            "Active: {} with {} MP. Reachable (MP): {}. Targets: {}",
            active.cell,
            active.mp,
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
fn covenant_legend(game: &AnyGame, mut codes: Vec<String>) -> String {
    let catalog = game.catalog();
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

fn weapon_counts(w: tabula_warrior::Weapons) -> String {
    use tabula_warrior::Weapon;
    let parts: Vec<String> = Weapon::ALL
        .into_iter()
        .filter(|&k| w.count(k) > 0)
        .map(|k| format!("{} {}", w.count(k), k.name()))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::GameId;

    #[test]
    fn the_start_position_draws_white_at_the_bottom() {
        let board = chess_board(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        );
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜");
        assert_eq!(lines[7], "1  ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖");
        assert_eq!(lines[8], "   a b c d e f g h");
        // a1 is a dark square, shown with a dot when empty.
        let empty = chess_board("8/8/8/8/8/8/8/8 w - - 0 1", false);
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
