//! The `Game` contract, checked for every game through `AnyGame` with seeded
//! random play: whoever acts, the action lists, the notations, the position
//! text, the refusal of bad actions and the table protocol (views, gestures,
//! JSON actions, events, faults, table actions) behave the same way in all
//! six games.

use std::collections::HashSet;

use serde_json::json;
use tabula_core::protocol::{FaultKind, GestureKind, Place};
use tabula_core::{EndReason, GameId, GameRng, Player, Seed, ToAct, Viewer};
use tabula_games::{ActionInput, AnyGame, Table, TableAction, ToActView};

/// Option sets worth covering per game (the default first).
fn variants(id: GameId) -> Vec<Vec<(String, String)>> {
    let o = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
    match id {
        GameId::Chess => vec![vec![], o("draw-rules", "fide")],
        GameId::Epoch => vec![vec![], o("swap", "off")],
        GameId::Skirmish => vec![vec![], o("mode", "advanced")],
        GameId::Warrior => vec![vec![], o("players", "4")],
        GameId::Covenant => vec![
            o("scenario", "crossroads"),
            o("scenario", "arena"),
            o("scenario", "pilgrimage"),
        ],
        GameId::Lytharia => vec![
            vec![],
            o("mode", "pawn-wars"),
            o("mode", "duel"),
            o("mode", "chess"),
        ],
    }
}

/// Texts no game accepts as an action.
const GARBAGE: [&str; 6] = ["", " ", "zz9", "e2e9", "@@", "resign resign"];

/// Checks the table protocol at one decision: every viewer's view has the
/// envelope's shape, only the acting seat gets legal actions, and every
/// legal action has a gesture that names cells and zone items which exist,
/// no two alike, and a JSON form that reads back to the same action.
fn check_protocol(table: &Table, catalog_cells: &HashSet<String>, here: &str) {
    let game = table.game();
    let seating = game.seating();
    let acting = game.to_act().player();
    let viewers: Vec<Viewer> = seating
        .players()
        .map(Viewer::Player)
        .chain([Viewer::Public])
        .collect();
    for viewer in viewers {
        let view = table.view(viewer);
        let json = serde_json::to_value(&view).unwrap();
        // What the server sends is the typed view's encoding: the same JSON.
        let typed: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(&table.typed_view(viewer)).unwrap())
                .unwrap();
        assert_eq!(typed, json, "{here}: the typed view encodes differently");
        for field in [
            "game", "viewer", "ply", "seats", "to_act", "moves", "legal", "zones", "board",
        ] {
            assert!(json.get(field).is_some(), "{here}: view without '{field}'");
        }
        assert_eq!(view.seats.len(), seating.len(), "{here}");
        assert!(view.board.is_object(), "{here}: board {}", view.board);
        for gone in ["fen", "legal_actions", "to_move", "side_to_move", "outcome"] {
            assert!(
                view.board.get(gone).is_none(),
                "{here}: the board repeats the envelope's '{gone}'"
            );
        }
        if let Some(pieces) = view.board.get("pieces").and_then(|p| p.as_array()) {
            for piece in pieces {
                let cell = piece.get("cell").and_then(|c| c.as_str()).unwrap_or("");
                assert!(
                    catalog_cells.contains(cell),
                    "{here}: a piece on unknown cell {piece}"
                );
                assert!(
                    piece.get("owner").is_some() && piece.get("piece").is_some(),
                    "{here}: {piece}"
                );
            }
        }
        let mine = matches!((acting, viewer), (Some(p), Viewer::Player(v)) if p == v);
        if !mine {
            assert!(
                view.legal.is_empty(),
                "{here}: {viewer:?} sees another seat's actions"
            );
            continue;
        }
        assert!(
            !view.legal.is_empty(),
            "{here}: the acting seat has no actions"
        );
        let zone_items: HashSet<(String, Option<Player>, String)> = view
            .zones
            .iter()
            .flat_map(|z| {
                z.items
                    .iter()
                    .map(move |i| (z.zone.clone(), z.owner, i.item.clone()))
            })
            .collect();
        let mut seen = HashSet::new();
        for entry in &view.legal {
            let g = &entry.gesture;
            // The trait's placeholder: a Pass button named and labelled by
            // the action's text. Every game gives real gestures.
            if let Place::Button { button, label } = &g.from {
                assert!(
                    !(g.kind == GestureKind::Pass
                        && *button == entry.canonical
                        && *label == entry.canonical),
                    "{here}: '{}' has only the placeholder gesture",
                    entry.canonical
                );
            }
            assert!(
                seen.insert(format!("{:?}", g.identity())),
                "{here}: two actions share the gesture of '{}': {:?}",
                entry.canonical,
                g.identity()
            );
            for cell in g.cells() {
                assert!(
                    catalog_cells.contains(cell),
                    "{here}: '{}' names cell '{cell}' not on the board",
                    entry.canonical
                );
            }
            if let Place::Item { zone, owner, item } = &g.from {
                assert!(
                    zone_items.contains(&(zone.clone(), *owner, item.clone())),
                    "{here}: '{}' starts from {zone}/{owner:?}/{item}, not in the view's zones",
                    entry.canonical
                );
            }
            // The JSON form reads back to the same action.
            let back = game
                .read_action(&ActionInput::Json(entry.action.clone()))
                .unwrap_or_else(|e| panic!("{here}: JSON of '{}' refused: {e}", entry.canonical));
            assert_eq!(back.canonical, entry.canonical, "{here}: {}", entry.action);
        }
    }
}

fn check_game(id: GameId, options: &[(String, String)], seed: u64, max_plies: usize) {
    let mut rng = GameRng::from_seed(Seed(seed));
    let game = AnyGame::new(id, options).unwrap_or_else(|e| panic!("{id} {options:?}: {e}"));
    let catalog_cells: HashSet<String> = game.catalog().board.cells().into_iter().collect();
    let mut table = Table::new(game);
    for ply in 0..max_plies {
        let here = format!("{id} {options:?} seed {seed} ply {ply}");
        let game = table.game().clone();
        // Position text round-trips exactly, and keeps the state key.
        let text = game.to_text();
        let again = AnyGame::from_text(id, &text, options)
            .unwrap_or_else(|e| panic!("{here}: own text refused: {e}\n{text}"));
        assert_eq!(again.to_text(), text, "{here}");
        assert_eq!(
            again.key(),
            game.key(),
            "{here}: equal states, different keys"
        );

        check_protocol(&table, &catalog_cells, &here);

        let actions = game.legal_actions();
        // Bad text is refused with a reason, changes nothing, and says why.
        for bad in GARBAGE {
            let mut probe = game.clone();
            let err = probe
                .apply(bad)
                .expect_err(&format!("{here}: garbage '{bad}' accepted"));
            assert!(
                matches!(
                    err.fault_kind(),
                    Some(FaultKind::Unreadable | FaultKind::Illegal)
                ),
                "{here}: '{bad}' refused as {:?}",
                err.fault_kind()
            );
            assert_eq!(
                probe.to_text(),
                text,
                "{here}: refused '{bad}' changed the state"
            );
        }
        // So is JSON that is no action of the game.
        for bad in [
            json!({"kind": "teleport"}),
            json!(42),
            json!({"kind": "move"}),
        ] {
            let mut probe = table.clone();
            if let Some(p) = game.to_act().player() {
                let fault = probe.act(p, &ActionInput::Json(bad.clone())).unwrap_err();
                assert_eq!(fault.kind, FaultKind::Unreadable, "{here}: {bad}: {fault}");
                assert_eq!(probe.game().to_text(), text, "{here}");
                assert_eq!(probe.ply(), table.ply(), "{here}");
            }
        }
        match game.to_act() {
            ToAct::Over { outcome } => {
                assert!(actions.is_empty(), "{here}: actions after the end");
                assert!(!game.describe_outcome(&outcome).is_empty());
                let view = table.view(Viewer::Public);
                let shown = view.outcome.expect("an outcome in the view");
                assert_eq!(shown.reason, outcome.reason, "{here}");
                assert!(!shown.text.is_empty(), "{here}");
                assert!(matches!(view.to_act, ToActView::Over), "{here}");
                return;
            }
            ToAct::Chance => {
                assert!(
                    actions.is_empty(),
                    "{here}: player actions at a chance node"
                );
                if let Some(list) = game.chance_outcomes() {
                    let total: tabula_core::Probability = list.iter().map(|(_, p)| *p).sum();
                    assert_eq!(total, tabula_core::Probability::ONE, "{here}");
                }
                // No seat may play for chance.
                for p in game.seating().players() {
                    let fault = table
                        .clone()
                        .act(p, &ActionInput::Text("pass".into()))
                        .unwrap_err();
                    assert_eq!(fault.kind, FaultKind::NotYourTurn, "{here}");
                }
                table
                    .play_chance(&mut rng)
                    .unwrap_or_else(|| panic!("{here}: chance node without an outcome"));
            }
            ToAct::Player { player } => {
                assert!(
                    !actions.is_empty(),
                    "{here}: a player to act with no action"
                );
                // Both notations parse back to the same action.
                for a in actions.iter().step_by(1 + actions.len() / 12) {
                    let by_notation = game
                        .parse_action(&a.notation)
                        .unwrap_or_else(|e| panic!("{here}: '{}' refused: {e}", a.notation));
                    assert_eq!(by_notation.canonical, a.canonical, "{here}");
                    let by_canonical = game
                        .parse_action(&a.canonical)
                        .unwrap_or_else(|e| panic!("{here}: '{}' refused: {e}", a.canonical));
                    assert_eq!(by_canonical.canonical, a.canonical, "{here}");
                }
                let pick = &actions[rng.below(actions.len() as u64) as usize];
                // Another seat may not play it.
                for other in game.seating().players().filter(|p| *p != player) {
                    let fault = table
                        .clone()
                        .act(other, &ActionInput::Text(pick.canonical.clone()))
                        .unwrap_err();
                    assert_eq!(fault.kind, FaultKind::NotYourTurn, "{here}");
                }
                // Half the time by its JSON form, as the page sends it.
                let input = if rng.below(2) == 0 {
                    ActionInput::Text(pick.canonical.clone())
                } else {
                    let entry = game
                        .legal_entries()
                        .into_iter()
                        .find(|e| e.canonical == pick.canonical)
                        .unwrap();
                    ActionInput::Json(entry.action)
                };
                let events = table
                    .act(player, &input)
                    .unwrap_or_else(|e| panic!("{here}: legal '{}' refused: {e}", pick.canonical));
                assert!(
                    !events.is_empty() && events.iter().all(|e| !e.text.is_empty()),
                    "{here}: '{}' happened silently: {events:?}",
                    pick.canonical
                );
                let last = table.view(Viewer::Player(player)).last.unwrap();
                assert_eq!(last.events, events, "{here}");
            }
        }
    }
}

#[test]
fn every_game_keeps_the_contract_in_random_play() {
    for id in GameId::ALL {
        for (i, options) in variants(id).iter().enumerate() {
            for seed in 0..3u64 {
                check_game(id, options, seed * 7 + i as u64, 120);
            }
        }
    }
}

/// Resigning and agreeing a draw are table actions: they end every game the
/// same way, for the whole team, and a finished table refuses everything.
#[test]
fn resignation_and_draw_offers_work_at_every_table() {
    for id in GameId::ALL {
        for options in variants(id) {
            let game = AnyGame::new(id, &options).unwrap();
            let seating = game.seating();
            let last = Player(seating.len() as u8 - 1);
            let mut table = Table::new(game.clone());
            assert!(
                table
                    .view(Viewer::Player(last))
                    .table_actions
                    .contains(&TableAction::Resign)
            );
            assert!(table.view(Viewer::Public).table_actions.is_empty());
            table.resign(last).unwrap();
            let outcome = table.outcome().unwrap();
            assert_eq!(outcome.reason, EndReason::Resignation, "{id}");
            assert_ne!(outcome.winner, seating.team(last), "{id}: the resigner won");
            assert!(outcome.winner.is_some());
            let view = table.view(Viewer::Player(Player(0)));
            assert!(
                view.legal.is_empty() && view.table_actions.is_empty(),
                "{id}"
            );
            assert!(matches!(view.to_act, ToActView::Over));
            assert_eq!(
                table.resign(Player(0)).unwrap_err().kind,
                FaultKind::GameOver
            );
            if let Some(entry) = game.legal_entries().first() {
                let p = game.to_act().player().unwrap();
                let fault = table
                    .act(p, &ActionInput::Text(entry.canonical.clone()))
                    .unwrap_err();
                assert_eq!(fault.kind, FaultKind::GameOver, "{id}");
            }

            let mut table = Table::new(game.clone());
            if game.draw_by_agreement() {
                table.offer_draw(Player(0)).unwrap();
                assert_eq!(
                    table.view(Viewer::Public).draw_offer,
                    seating.team(Player(0))
                );
                let other = seating
                    .players()
                    .find(|p| seating.team(*p) != seating.team(Player(0)))
                    .unwrap();
                assert!(
                    table
                        .view(Viewer::Player(other))
                        .table_actions
                        .contains(&TableAction::AcceptDraw)
                );
                assert_eq!(
                    table.accept_draw(Player(0)).unwrap_err().kind,
                    FaultKind::Illegal
                );
                table.accept_draw(other).unwrap();
                assert_eq!(
                    table.outcome(),
                    Some(tabula_core::Outcome::draw(EndReason::Agreement))
                );
            } else {
                let fault = table.offer_draw(Player(0)).unwrap_err();
                assert_eq!(fault.kind, FaultKind::Illegal, "{id}");
                assert!(fault.message.contains("no draw by agreement"), "{fault}");
                assert!(table.outcome().is_none());
            }
        }
    }
}

/// A draw offer lapses when the other side plays on instead of accepting.
#[test]
fn a_draw_offer_lapses_when_the_opponent_moves() {
    let mut table = Table::new(AnyGame::new(GameId::Chess, &[]).unwrap());
    table
        .act(Player(0), &ActionInput::Text("e4".into()))
        .unwrap();
    table.offer_draw(Player(0)).unwrap();
    assert!(
        table
            .view(Viewer::Player(Player(1)))
            .table_actions
            .contains(&TableAction::DeclineDraw)
    );
    table
        .act(Player(1), &ActionInput::Text("e5".into()))
        .unwrap();
    assert_eq!(table.view(Viewer::Public).draw_offer, None);
    assert_eq!(
        table.accept_draw(Player(1)).unwrap_err().kind,
        FaultKind::Illegal
    );
}

/// Faults say why, machine-readably.
#[test]
fn faults_name_their_kind() {
    let mut table = Table::new(AnyGame::new(GameId::Chess, &[]).unwrap());
    let kind = |t: &mut Table, p: u8, text: &str| {
        t.act(Player(p), &ActionInput::Text(text.into()))
            .unwrap_err()
            .kind
    };
    assert_eq!(kind(&mut table, 1, "e5"), FaultKind::NotYourTurn);
    assert_eq!(kind(&mut table, 0, "e5"), FaultKind::Illegal);
    assert_eq!(kind(&mut table, 0, "hello"), FaultKind::Unreadable);
    assert_eq!(kind(&mut table, 7, "e4"), FaultKind::NotYourTurn);
    // Knights on a1 and c1 both reach b3.
    let two_knights =
        AnyGame::from_text(GameId::Chess, "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", &[]).unwrap();
    let mut table = Table::new(two_knights);
    assert_eq!(kind(&mut table, 0, "Nb3"), FaultKind::Ambiguous);
    assert_eq!(table.ply(), 0);
    table
        .act(Player(0), &ActionInput::Text("Nab3".into()))
        .unwrap();
}
