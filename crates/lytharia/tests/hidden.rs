//! Hidden information: nothing hidden can be recovered from a player's view
//! or from the actions offered to them.

mod common;

use common::{DECKS, options, random_step};
use tabula_core::{Game, GameRng, Options, Player, Seed, Viewer};
use tabula_lytharia::{Action, Lytharia};

#[test]
fn views_and_legal_actions_do_not_depend_on_what_the_viewer_cannot_see() {
    let mut changed = 0;
    let mut checked = 0;
    for seed in 0..18u64 {
        let mut opts = options(DECKS[seed as usize % 4], DECKS[(seed as usize + 2) % 4]);
        // Full games, then Battle Duels (hidden picks and choices), then
        // Normal Chess with face-down troops.
        opts.set("mode", ["full", "duel", "chess"][seed as usize / 6])
            .unwrap();
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut det_rng = GameRng::from_seed(Seed(seed + 99));
        let mut g = Lytharia::new(&opts);
        let mut buf = Vec::new();
        let mut ply = 0;
        while let Some(a) = random_step(&g, &mut rng, &mut buf) {
            if ply % 3 == 0 {
                for p in [0u8, 1] {
                    let obs = Player(p);
                    let d = g.determinize(obs, &mut det_rng);
                    assert_eq!(
                        d.view_text(Viewer::Player(obs)),
                        g.view_text(Viewer::Player(obs))
                    );
                    if g.to_act().player() == Some(obs) {
                        let (mut x, mut y) = (Vec::<Action>::new(), Vec::<Action>::new());
                        g.legal_actions(&mut x);
                        d.legal_actions(&mut y);
                        assert_eq!(x, y, "seed {seed} ply {ply}");
                    }
                    if d.state() != g.state() {
                        changed += 1;
                    }
                    checked += 1;
                }
            }
            g.apply_unchecked(&a);
            ply += 1;
        }
    }
    assert!(
        changed * 2 > checked,
        "determinize rarely changed anything: {changed}/{checked}"
    );
}

#[test]
fn a_view_holds_own_hand_sizes_and_roles_only() {
    let mut rng = GameRng::from_seed(Seed(4));
    let mut g = Lytharia::new(&options("good", "evil"));
    let mut buf = Vec::new();
    for _ in 0..80 {
        let Some(a) = random_step(&g, &mut rng, &mut buf) else {
            break;
        };
        g.apply_unchecked(&a);
    }
    let st = g.state();
    for p in [0u8, 1] {
        let v = g.view(Viewer::Player(Player(p)));
        let me = p as usize;
        assert_eq!(v.sides[me].hand.as_ref(), Some(&st.sides[me].hand));
        assert!(v.sides[1 - me].hand.is_none());
        assert_eq!(v.sides[1 - me].hand_size, st.sides[1 - me].hand.len());
        assert_eq!(v.sides[me].deck_size, st.sides[me].deck.len());
        for (u, uv) in st.units.iter().zip(&v.pieces) {
            assert_eq!(uv.role, u.troop().role);
            if u.owner != p && !u.face_up {
                assert!(uv.card.is_none());
            }
        }
        // Neither the deck order nor the opponent's hand is anywhere in the text.
        let text = g.view_text(Viewer::Player(Player(p)));
        assert!(!text.contains("deck = ["));
    }
    let public = g.view(Viewer::Public);
    assert!(
        public.sides.iter().all(|s| s.hand.is_none()),
        "spectators see no hand"
    );
    for (u, uv) in st.units.iter().zip(&public.pieces) {
        assert_eq!(uv.card.is_some(), u.face_up);
    }
}
