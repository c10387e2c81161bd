//! Position text (exact round trip, errors naming the field), action
//! notation, options, scenarios as data, the view.

mod common;

use common::*;
use tabula_core::{Game, OptionError, Options, Viewer};
use tabula_covenant::{
    Action, ActionError, Covenant, CovenantOptions, Field, Illegal, PieceTable, PositionError,
    Scenario, ScenarioError, ScenarioId, Side,
};

const CROSSROADS: &str = "crossroads g 1 0 3/4 - - gAr@c1,bLa@c9,gHe@d1,gMi@d2,bMi@d7,gKi@e1,gPk@e2,bPk@e8,bKi@e9,gMi@f2,bMi@f7,bHe@f8,gLa@g1,bAr@g9";

#[test]
fn the_starting_positions() {
    let start = |id| Covenant::new(&CovenantOptions::with_scenario(id)).to_text();
    assert_eq!(start(ScenarioId::Crossroads), CROSSROADS);
    assert_eq!(
        start(ScenarioId::Arena),
        "arena g 1 0 10/10 - - gKi@a1,bKi@i9"
    );
    let full = start(ScenarioId::Pilgrimage);
    assert!(full.starts_with("pilgrimage g 1 0 4/5 - - "));
    assert_eq!(full.matches(',').count(), 31);
    // The default is the full scenario.
    assert_eq!(Covenant::new(&CovenantOptions::default()).to_text(), full);
}

#[test]
fn position_text_round_trips_exactly() {
    for text in [
        CROSSROADS,
        "arena g 12 3* 0/9999 d3:2:5 - gKi@a9,gBl@d3=4:1c,gTe@d5=7:3x,gPh@f2:hc,gMi@g2:i,bKi@i9",
        "arena g 2 0 5/5 b2:2:0 Mi@b4 gKi@a9,gAp@b2:1,bKi@i9",
        "arena g 1 30 1/1 - - gKi@a9,bKi@i9",
        "arena b 1 0 1/1 - - bMi@a8,gKi@a9",
    ] {
        let game = Covenant::from_text(text, &options()).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(game.to_text(), text);
    }
    // Full Blood may be written; it is then left out.
    let g = Covenant::from_text("arena g 1 0 1/1 - - gKi@a9=15,bKi@i9", &options()).unwrap();
    assert_eq!(g.to_text(), "arena g 1 0 1/1 - - gKi@a9,bKi@i9");
    // The text names its scenario, whatever the options say.
    let g = Covenant::from_text(CROSSROADS, &CovenantOptions::default()).unwrap();
    assert_eq!(g.options().scenario, ScenarioId::Crossroads);
}

fn field_of(text: &str) -> Field {
    match Covenant::from_text(text, &options()).unwrap_err() {
        PositionError::BadField { field, .. } => field,
        other => panic!("{text}: {other}"),
    }
}

#[test]
fn position_errors_name_the_field() {
    let k = "gKi@a9,bKi@i9";
    assert_eq!(
        Covenant::from_text("arena g 1 0", &options()).unwrap_err(),
        PositionError::FieldCount { found: 4 }
    );
    let cases: &[(&str, Field)] = &[
        ("atlantis g 1 0 1/1 - - gKi@a9,bKi@i9", Field::Scenario),
        ("Arena g 1 0 1/1 - - gKi@a9,bKi@i9", Field::Scenario),
        ("arena w 1 0 1/1 - - gKi@a9,bKi@i9", Field::Side),
        ("arena g 0 0 1/1 - - gKi@a9,bKi@i9", Field::Round),
        ("arena g x 0 1/1 - - gKi@a9,bKi@i9", Field::Round),
        ("arena g 1 31 1/1 - - gKi@a9,bKi@i9", Field::Quiet),
        ("arena g 1 -1 1/1 - - gKi@a9,bKi@i9", Field::Quiet),
        ("arena g 1 0 1 - - gKi@a9,bKi@i9", Field::Grails),
        ("arena g 1 0 1/10000 - - gKi@a9,bKi@i9", Field::Grails),
        ("arena g 1 0 1/1 a9 - gKi@a9,bKi@i9", Field::Active),
        ("arena g 1 0 1/1 i9:4:0 - gKi@a9,bKi@i9:1", Field::Active),
        ("arena g 1 0 1/1 a9:4:0 - gKi@a9,bKi@i9", Field::Active),
        (
            "arena g 1 0 1/1 a9:4:0 Mi@b4 gKi@a9:1,bKi@i9",
            Field::Convert,
        ),
        (
            "arena g 1 0 1/1 b2:4:0 Qu@b4 gKi@a9,gAp@b2:1,bKi@i9",
            Field::Convert,
        ),
        (
            "arena g 1 0 1/1 b2:4:0 Mi@i9 gKi@a9,gAp@b2:1,bKi@i9",
            Field::Convert,
        ),
        ("arena g 1 0 1/1 - - gKi@a9,bDr@i9", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@j9", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@a9", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9=0", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9=16", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9:ic", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9:2", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9:h", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9:1i", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9:", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,xKi@i9", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9,bKi@i8", Field::Pieces),
        ("arena g 1 0 1/1 - - gKi@a9,bHe@i9", Field::Pieces),
        ("arena g 1 0 1/1 - - gMi@a9,bMi@i9", Field::Pieces),
        (
            "arena g 1 0 1/1 - - gKi@a9,bKi@i9,gQu@a1,gQu@a2",
            Field::Pieces,
        ),
        ("arena g 1 0 1/1 - - gKi@a9,bKi@i9,gMi@d3:x", Field::Pieces),
    ];
    for (text, field) in cases {
        assert_eq!(field_of(text), *field, "{text}");
    }
    // The message quotes the piece at fault.
    let e =
        Covenant::from_text(&format!("arena g 1 0 1/1 - - {k},gMi@d3=13"), &options()).unwrap_err();
    assert!(e.to_string().contains("gMi@d3=13"), "{e}");
    assert!(e.to_string().contains("pieces"), "{e}");
}

#[test]
fn action_notation_reads_back_and_is_checked_in_context() {
    let g = arena(
        "g",
        &format!("{KINGS},gPh@c2,gMi@d3=3,gMa@b3,gPk@e2:1,gAp@g2,bMi@g4"),
    );
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    for a in &actions {
        let text = g.action_notation(a);
        assert_eq!(text, a.to_string());
        assert_eq!(g.parse_action(&text).as_ref(), Ok(a));
        assert_eq!(text.parse::<Action>().as_ref(), Ok(a));
    }
    // Case and piece names are forgiven.
    assert_eq!(
        g.parse_action("RECRUIT@B4:militia").unwrap().to_string(),
        "recruit@b4:Mi"
    );
    // A kind outside the table is refused, not a panic.
    let bogus = Action::Recruit {
        kind: tabula_covenant::Kind(200),
        at: h("b4"),
    };
    assert!(matches!(
        g.clone().apply(&bogus),
        Err(ActionError::Illegal {
            reason: Illegal::UnknownKind(200),
            ..
        })
    ));
    // Unreadable and illegal are told apart.
    assert!(matches!(
        g.parse_action("fly@d4"),
        Err(ActionError::Unreadable { .. })
    ));
    assert!(matches!(
        g.parse_action("act@h5"),
        Err(ActionError::Illegal {
            reason: Illegal::Empty(_),
            ..
        })
    ));
}

#[test]
fn a_path_is_a_run_of_moves() {
    let mut g = arena("g", &format!("{KINGS},gLa@d1"));
    let actions = g.parse_actions("act@d1 move@d2,d3,e3,e4").unwrap();
    assert_eq!(actions.len(), 5);
    assert_eq!(
        g.to_text(),
        arena("g", &format!("{KINGS},gLa@d1")).to_text()
    );
    for a in &actions {
        g.apply(a).unwrap();
    }
    let active = g.active().unwrap();
    // 3 open tiles and a hill: 5 MP, 4 tiles (a Charge of +3).
    assert_eq!((active.at, active.mp, active.tiles), (h("e4"), 3, 4));
    assert!(g.parse_actions("act@d1 move@d2,d9").is_err());
}

#[test]
fn options_are_set_by_key() {
    let mut o = CovenantOptions::default();
    assert_eq!(o.to_pairs(), Vec::<(String, String)>::new());
    o.set("scenario", "Crossroads").unwrap();
    o.set("wrath", "7").unwrap();
    o.set("curse-wall", "spares").unwrap();
    o.set("sacrifice", "spares").unwrap();
    let pairs = o.to_pairs();
    let mut again = CovenantOptions::default();
    for (k, v) in &pairs {
        again.set(k, v).unwrap();
    }
    assert_eq!(again, o);
    assert_eq!(pairs.len(), 4);
    assert!(matches!(
        o.set("wrath", "9"),
        Err(OptionError::BadValue { .. })
    ));
    assert!(matches!(
        o.set("scenario", "atlantis"),
        Err(OptionError::BadValue { .. })
    ));
    assert!(matches!(
        o.set("dice", "2"),
        Err(OptionError::UnknownKey { .. })
    ));
    let keys: Vec<&str> = CovenantOptions::specs().iter().map(|s| s.key).collect();
    assert_eq!(keys, ["scenario", "wrath", "curse-wall", "sacrifice"]);
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(serde_json::from_str::<CovenantOptions>(&json).unwrap(), o);
}

#[test]
fn the_view_shows_everything_as_json() {
    let mut g = Covenant::new(&CovenantOptions::with_scenario(ScenarioId::Crossroads));
    play(&mut g, "act@g1");
    let view = g.view(Viewer::Player(Side::Blue.player()));
    assert_eq!(view.pieces.len(), 14);
    let active = view.active.as_ref().unwrap();
    assert_eq!(active.mp, 10);
    assert!(!active.reachable.is_empty());
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["pieces"][0]["piece"], "Ar");
    assert_eq!(json["pieces"][0]["cell"], "c1");
    assert_eq!(json["pieces"][0]["owner"], 0);
    assert_eq!(json["active"]["cell"], "g1");
    // What the envelope and the catalog carry is not repeated here.
    for gone in [
        "position",
        "to_act",
        "side_to_move",
        "legal_actions",
        "hexes",
        "cities",
    ] {
        assert!(json.get(gone).is_none(), "{gone}");
    }
    let catalog = Covenant::catalog(g.options());
    assert_eq!(catalog.board.cells().len(), 9 * 9 - 4);
    assert_eq!(catalog.extra["cities"].as_array().unwrap().len(), 3);
    assert_eq!(
        g.determinize(
            Side::Gold.player(),
            &mut tabula_core::GameRng::from_seed(tabula_core::Seed(1))
        ),
        g
    );
}

// ----- scenarios as data -------------------------------------------------------

fn scenario_error(from: &str, to: &str) -> ScenarioError {
    let source = ScenarioId::Crossroads.source();
    assert!(source.contains(from), "{from}");
    Scenario::from_toml(&source.replacen(from, to, 1), PieceTable::builtin()).unwrap_err()
}

fn names_scenario_field(e: &ScenarioError, field: &str) {
    match e {
        ScenarioError::Field { field: f, .. } => assert_eq!(f, field, "{e}"),
        other => panic!("{other}"),
    }
}

#[test]
fn every_built_in_scenario_reads_and_is_fair() {
    for id in ScenarioId::ALL {
        let s = Scenario::from_toml(id.source(), PieceTable::builtin()).unwrap();
        assert_eq!(s.id, id.as_str());
        // Both armies have a King and the same pieces.
        let mut gold: Vec<_> = s.armies[0].pieces.iter().map(|(k, _)| *k).collect();
        let mut blue: Vec<_> = s.armies[1].pieces.iter().map(|(k, _)| *k).collect();
        gold.sort();
        blue.sort();
        assert_eq!(gold, blue, "{id}");
        assert!(s.armies[1].grails >= s.armies[0].grails);
    }
}

#[test]
fn bad_scenarios_are_refused_with_the_field_named() {
    names_scenario_field(
        &scenario_error("id = \"crossroads\"", "id = \"Cross Roads\""),
        "id",
    );
    names_scenario_field(
        &scenario_error(". . f . d . . . .", ". . f . x . . . ."),
        "map",
    );
    names_scenario_field(
        &scenario_error(". . f . d . . . .", ". . f . d . . ."),
        "map",
    );
    names_scenario_field(
        &scenario_error(
            "holy-cities = [\"c3\", \"e5\", \"g7\"]",
            "holy-cities = [\"c3\", \"d4\"]",
        ),
        "holy-cities",
    );
    names_scenario_field(
        &scenario_error(
            "holy-cities = [\"c3\", \"e5\", \"g7\"]",
            "holy-cities = [\"z3\"]",
        ),
        "holy-cities",
    );
    names_scenario_field(
        &scenario_error("\"King e1\"", "\"Dragon e1\""),
        "gold.pieces",
    );
    names_scenario_field(&scenario_error("\"King e1\"", "\"King\""), "gold.pieces");
    names_scenario_field(&scenario_error("\"King e1\"", "\"King b9\""), "gold.pieces");
    names_scenario_field(
        &scenario_error("\"King e1\"", "\"Militia e1\""),
        "gold.pieces",
    );
    names_scenario_field(&scenario_error("\"Heir f8\"", "\"King f8\""), "blue.pieces");
    names_scenario_field(&scenario_error("\"Heir f8\"", "\"Heir e8\""), "blue.pieces");
    names_scenario_field(&scenario_error("grails = 4", "grails = -4"), "blue.grails");
    let e = scenario_error("[blue]", "[bleu]");
    assert!(matches!(e, ScenarioError::Toml(_)), "{e}");
}
