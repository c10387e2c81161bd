//! Card files and deck lists are refused with errors naming what is wrong.

use tabula_lytharia::cards::{CardDb, CardError, Role};
use tabula_lytharia::deck::parse_lists;
use tabula_lytharia::{DeckError, DeckList, card_db, starter_list};

fn load_err(text: &str) -> String {
    let e = CardDb::load(&[("test.toml", text)]).unwrap_err();
    e.to_string()
}

const TROOP: &str = r#"id = "t", name = "T", clan = "kevetni", alignment = "good", kind = "humanoid", role = "P", att = 2, def = 3, power = 3"#;

#[test]
fn card_errors_name_the_file_the_card_and_the_field() {
    let ok = format!("troop = [{{ {TROOP} }}]");
    assert!(CardDb::load(&[("test.toml", &ok)]).is_ok());
    let e = load_err(&format!("troop = [{{ {TROOP}, speed = 3 }}]"));
    assert!(
        e.contains("test.toml") && e.contains("'t'") && e.contains("speed"),
        "{e}"
    );
    let e = load_err(&ok.replace("\"P\"", "\"X\""));
    assert!(e.contains("'t'") && e.contains("X"), "{e}");
    let e = load_err(&ok.replace("def = 3", "def = 0"));
    assert!(e.contains("field 'def'"), "{e}");
    let e = load_err(&ok.replace("id = \"t\"", "id = \"Bad Id\""));
    assert!(e.contains("field 'id'"), "{e}");
    let e = load_err(&format!("troop = [{{ {TROOP} }}, {{ {TROOP} }}]"));
    assert!(e.contains("already used"), "{e}");
    // Names are unique too (the readable notation names cards).
    let e = load_err(&format!(
        "troop = [{{ {TROOP} }}, {{ {} }}]",
        TROOP.replace("id = \"t\"", "id = \"u\"")
    ));
    assert!(e.contains("'u'") && e.contains("field 'name'"), "{e}");
    let e = load_err(&format!(
        "troop = [{{ {TROOP}, abilities = [{{ name = \"A\", phase = \"main\", target = \"self\", effects = [{{ op = \"heal\", amount = 1 }}] }}, {{ name = \"a\", phase = \"main\", target = \"self\", effects = [{{ op = \"heal\", amount = 2 }}] }}] }}]"
    ));
    assert!(e.contains("abilities[1].name"), "{e}");
    let e = load_err(&format!(
        "troop = [{{ {TROOP}, abilities = [{{ name = \"A\", phase = \"main\", target = \"enemy\", effects = [{{ op = \"att\", amount = 2 }}] }}] }}]"
    ));
    assert!(e.contains("abilities[0].effects[0].turns"), "{e}");
    let e = load_err(&format!(
        "troop = [{{ {TROOP}, abilities = [{{ name = \"A\", phase = \"passive\", target = \"self\", effects = [{{ op = \"damage\", amount = 2 }}] }}] }}]"
    ));
    assert!(e.contains("abilities[0].effects[0].op"), "{e}");
    let e = load_err(
        r#"spell = [{ id = "s", name = "S", school = "fire", cost = 2, speed = "normal", kind = "instant", quality = 1, target = "enemy", effects = [{ op = "damage", amount = 2, roll = "7+" }] }]"#,
    );
    assert!(e.contains("effects[0].roll"), "{e}");
    let e = load_err(
        r#"spell = [{ id = "s", name = "S", school = "arcane", cost = 2, speed = "normal", kind = "instant", quality = 1, target = "spell", effects = [{ op = "counter" }] }]"#,
    );
    assert!(e.contains("field 'speed'"), "{e}");
    let e = load_err(
        r#"spell = [{ id = "s", name = "S", school = "fire", cost = 2, speed = "normal", kind = "instant", quality = 9, target = "none", effects = [{ op = "draw", amount = 1 }] }]"#,
    );
    assert!(e.contains("field 'quality'"), "{e}");
    let e = load_err(
        r#"equipment = [{ id = "e", name = "E", slot = "armor", att = 2, cost = 2, reforge = 1 }]"#,
    );
    assert!(e.contains("field 'def'"), "{e}");
    let e = load_err(
        r#"equipment = [{ id = "e", name = "E", slot = "weapon", att = 2, cost = 2, reforge = 3 }]"#,
    );
    assert!(e.contains("field 'reforge'"), "{e}");
    assert!(matches!(
        CardDb::load(&[("x.toml", "troop = [")]),
        Err(CardError::Syntax { .. })
    ));
    assert!(load_err("dragon = [{ id = \"d\" }]").contains("unknown section"));
}

fn good() -> DeckList {
    starter_list("good").unwrap().clone()
}

fn swap_army(l: &mut DeckList, from: &str, to: &str) {
    let (f, t) = (
        card_db().lookup(from).unwrap(),
        card_db().lookup(to).unwrap(),
    );
    let i = l.army.iter().position(|c| *c == f).unwrap();
    l.army[i] = t;
}

fn set_cards(l: &mut DeckList, card: &str, n: u32) {
    let c = card_db().lookup(card).unwrap();
    l.cards.retain(|(x, _)| *x != c);
    l.cards.push((c, n));
}

#[test]
fn army_limits_each_have_their_error() {
    let mut l = good();
    l.army.pop();
    assert!(matches!(
        l.validate(),
        Err(DeckError::ArmySize { found: 15, .. })
    ));
    let mut l = good();
    swap_army(&mut l, "bronn", "stoneborn-militia");
    assert!(matches!(
        l.validate(),
        Err(DeckError::RoleCount {
            role: Role::Rook,
            found: 1,
            ..
        })
    ));
    let mut l = good();
    swap_army(&mut l, "stoneborn-pikeman", "stoneborn-militia");
    assert!(matches!(
        l.validate(),
        Err(DeckError::PawnCopies { found: 3, .. })
    ));
    let mut l = good();
    swap_army(&mut l, "stoneborn-shieldwall", "bronn");
    assert!(matches!(
        l.validate(),
        Err(DeckError::UniqueCopies { found: 2, .. })
    ));
    let mut l = good();
    swap_army(&mut l, "stoneborn-militia", "deepdark-cultist");
    assert!(matches!(l.validate(), Err(DeckError::GoodWithEvil { .. })));
    let mut l = good();
    swap_army(&mut l, "stoneborn-militia", "firebolt");
    assert!(matches!(l.validate(), Err(DeckError::NotATroop { .. })));
    // Neutral troops may join a good army.
    let mut l = good();
    swap_army(&mut l, "stoneborn-militia", "brudakian-deckhand");
    l.validate().unwrap();
}

#[test]
fn deck_limits_each_have_their_error() {
    let mut l = good();
    l.cards.truncate(10);
    assert!(matches!(l.validate(), Err(DeckError::DeckSize { .. })));
    let mut l = good();
    set_cards(&mut l, "firebolt", 4);
    assert!(matches!(
        l.validate(),
        Err(DeckError::DeckCopies { found: 4, .. })
    ));
    let mut l = good();
    set_cards(&mut l, "frost-shard", 1);
    assert!(
        matches!(l.validate(), Err(DeckError::Opposites { .. })),
        "{:?}",
        l.validate()
    );
    let mut l = good();
    set_cards(&mut l, "soul-rot", 1);
    assert!(matches!(l.validate(), Err(DeckError::DeathInGood { .. })));
    let mut l = starter_list("evil").unwrap().clone();
    set_cards(&mut l, "renewal", 1);
    assert!(matches!(l.validate(), Err(DeckError::LifeInEvil { .. })));
    let mut l = starter_list("neutral-life").unwrap().clone();
    set_cards(&mut l, "soul-rot", 1);
    assert!(matches!(l.validate(), Err(DeckError::LifeAndDeath { .. })));
    let mut l = good();
    set_cards(&mut l, "bronn", 1);
    assert!(matches!(
        l.validate(),
        Err(DeckError::NotSpellOrEquipment { .. })
    ));
    // Arcane is for every army.
    let mut l = starter_list("evil").unwrap().clone();
    set_cards(&mut l, "nullify", 1);
    l.validate().unwrap();
    let e = parse_lists(
        "x.toml",
        "[[list]]\nid = \"a\"\nname = \"A\"\narmy = [\"nobody\"]\ncards = {}\n",
    )
    .unwrap_err();
    assert!(matches!(e, DeckError::UnknownCard { .. }), "{e}");
    assert!(e.to_string().contains("nobody"));
}
