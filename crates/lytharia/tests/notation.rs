//! The readable action notation, the per-viewer notation of a move list,
//! and hidden stack entries in views.

mod common;

use common::*;
use tabula_core::{Game, GameRng, Options, Player, Seed, Viewer};
use tabula_lytharia::Lytharia;
use tabula_lytharia::state::{Entry, Source, Stage};

/// The notation of a legal action, checked to parse back to it.
fn notation(g: &Lytharia, canonical: &str) -> String {
    let a = g
        .parse_action(canonical)
        .unwrap_or_else(|e| panic!("{canonical}: {e}"));
    let n = g.action_notation(&a);
    assert_eq!(g.parse_action(&n).unwrap(), a, "{n} reads back");
    n
}

#[test]
fn the_readable_notation_names_cards_roles_and_abilities_and_reads_back() {
    let mut g = blank();
    put(&mut g, 0, "bronn", "d4");
    put(&mut g, 0, "surictavi-scout", "f3");
    put(&mut g, 1, "deepdark-cultist", "d5");
    edit_unit(&mut g, "f3", |u| u.face_up = false);
    give(&mut g, 0, &["firebolt", "longsword", "mountain-strength"]);
    assert_eq!(notation(&g, "a1-a2"), "K a1-a2");
    assert_eq!(notation(&g, "d4xd5"), "R d4xd5");
    assert_eq!(notation(&g, "cast firebolt @d5"), "cast Firebolt @d5");
    assert_eq!(
        notation(&g, "cast mountain-strength @d4"),
        "cast Mountain's Strength @d4"
    );
    assert_eq!(notation(&g, "harness firebolt"), "harness Firebolt");
    assert_eq!(notation(&g, "equip longsword @d4"), "equip Longsword @d4");
    assert_eq!(notation(&g, "reforge longsword"), "reforge Longsword");
    // A face-down troop's ability keeps its index: its name would tell the card.
    assert_eq!(notation(&g, "use f3 0 @d5"), "use f3 0 @d5");
    let mut h = g.clone();
    put(&mut h, 0, "kevetni-archer", "c3");
    assert_eq!(notation(&h, "use c3 0 @d5"), "use c3 Reed Arrow @d5");
    // Names are read without regard to case; ids are read too.
    assert_eq!(
        g.parse_action("cast FIREBOLT @d5").unwrap(),
        g.parse_action("cast firebolt @d5").unwrap()
    );
    assert!(g.parse_action("cast Fire Bolt @d5").is_err());
    assert!(
        g.parse_action("Q a1-a2").is_ok(),
        "the role letter is not checked"
    );
    // Promotion and the Battle Duels actions.
    let p = put(&mut g, 0, "stoneborn-militia", "e7");
    let _ = p;
    act(&mut g, "e7-e8");
    assert_eq!(g.state().stage, Stage::Promote);
    assert_eq!(
        notation(&g, "promote bronn"),
        "promote Battle Brawler Bronn"
    );
    let mut o = options("neutral-life", "good");
    o.set("mode", "duel").unwrap();
    let mut d = Lytharia::new(&o);
    let mut rng = GameRng::from_seed(Seed(2));
    while d.state().stage == Stage::Shuffle {
        let a = d.sample_chance(&mut rng).unwrap();
        d.apply(&a).unwrap();
    }
    assert_eq!(
        notation(&d, "pick war-mammoth"),
        "pick Surictavi War Mammoth"
    );
}

#[test]
fn a_move_list_hides_from_each_viewer_what_they_may_not_know() {
    // Pawn placement of face-down troops.
    let mut g = Lytharia::new(&options("good", "evil"));
    let mut rng = GameRng::from_seed(Seed(3));
    while g.state().stage == Stage::Shuffle {
        let a = g.sample_chance(&mut rng).unwrap();
        assert!(
            g.notation_for(&a, Viewer::Player(Player(0)))
                .starts_with("shuffle deck "),
            "no one sees a deck's order"
        );
        g.apply(&a).unwrap();
    }
    let placer = g.to_act().player().unwrap();
    let place = g.parse_action(&legal(&g)[0]).unwrap();
    assert_eq!(
        g.notation_for(&place, Viewer::Player(placer)),
        g.action_notation(&place)
    );
    let other = Player(1 - placer.0);
    assert_eq!(
        g.notation_for(&place, Viewer::Player(other)),
        "place a Pawn"
    );
    assert_eq!(g.notation_for(&place, Viewer::Public), "place a Pawn");
    // Battle Duels: picks and the round's choice.
    let mut o = options("neutral-life", "good");
    o.set("mode", "duel").unwrap();
    let mut d = Lytharia::new(&o);
    while d.state().stage == Stage::Shuffle {
        let a = d.sample_chance(&mut rng).unwrap();
        d.apply(&a).unwrap();
    }
    let pick = d.parse_action("pick war-mammoth").unwrap();
    assert_eq!(
        d.notation_for(&pick, Viewer::Player(Player(1))),
        "pick a troop"
    );
    assert_eq!(
        d.notation_for(&pick, Viewer::Player(Player(0))),
        "pick Surictavi War Mammoth"
    );
    while d.state().stage == Stage::Pick {
        let a = d.parse_action(&legal(&d)[0]).unwrap();
        d.apply(&a).unwrap();
    }
    let choose = d.parse_action(&legal(&d)[0]).unwrap();
    assert_eq!(
        d.notation_for(&choose, Viewer::Player(Player(1))),
        "choose a troop"
    );
    // Public actions read the same for everyone.
    let mut b = blank();
    give(&mut b, 0, &["tailwind"]);
    let cast = b.parse_action("cast tailwind").unwrap();
    assert_eq!(
        b.notation_for(&cast, Viewer::Player(Player(1))),
        "cast Tailwind"
    );
}

#[test]
fn a_face_down_enemy_ability_on_the_stack_shows_as_hidden() {
    let mut g = blank();
    let spider = put(&mut g, 1, "lurker-spider", "c6");
    edit_unit(&mut g, "c6", |u| u.face_up = false);
    let entry = Entry {
        source: Source::Ability {
            uid: spider,
            card: id("lurker-spider"),
            index: 0,
        },
        controller: 1,
        target: None,
        roll: None,
    };
    g.edit(|st| st.stack.push(entry.clone()));
    let seen = |g: &Lytharia, v: Viewer| g.view(v).stack[0].source.clone();
    assert_eq!(
        seen(&g, Viewer::Player(Player(0))),
        Source::Hidden { uid: spider }
    );
    assert_eq!(seen(&g, Viewer::Public), Source::Hidden { uid: spider });
    assert_eq!(
        seen(&g, Viewer::Player(Player(1))),
        entry.source,
        "its owner sees it"
    );
    let text = g.view_text(Viewer::Player(Player(0)));
    let stack = &text[text.find("stack = ").unwrap()..];
    assert!(!stack.contains("lurker-spider"), "{stack}");
    assert!(stack.contains("hidden = { uid = "), "{stack}");
    // Face up, everyone sees it.
    edit_unit(&mut g, "c6", |u| u.face_up = true);
    assert_eq!(seen(&g, Viewer::Player(Player(0))), entry.source);
    // Hidden entries are for views only: a state text holding one is refused.
    let text = g.to_text().replace(
        &format!("ability = {{ uid = {spider}, card = \"lurker-spider\", index = 0 }}"),
        &format!("hidden = {{ uid = {spider} }}"),
    );
    assert!(text.contains("hidden"), "{text}");
    assert!(Lytharia::from_text(&text, g.options()).is_err());
}
