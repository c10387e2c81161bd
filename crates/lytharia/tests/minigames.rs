//! The mini-games Battle Duels (`mode=duel`) and Normal Chess with troop
//! cards (`mode=chess`), from the book's wording. (Pawn Wars is in
//! mechanics.rs.)

mod common;

use common::*;
use tabula_core::{
    ChanceModel, EndReason, Game, GameRng, Options, Outcome, Player, Probability, Seed, Team,
    ToAct, Viewer,
};
use tabula_lytharia::Lytharia;
use tabula_lytharia::state::{DUEL_ROUND_TURNS, Stage};

// ---------------------------------------------------------------- Battle Duels

const PICKS_0: [&str; 7] = [
    "brudakian-deckhand",
    "brudakian-deckhand",
    "reedling",
    "war-mammoth",
    "river-lancer",
    "dune-strider",
    "tidecaller",
];
const PICKS_1: [&str; 7] = [
    "stoneborn-militia",
    "stoneborn-militia",
    "stoneborn-pikeman",
    "bronn",
    "stag-rider",
    "antlered-elk",
    "kevetni-archer",
];

/// A duel of Tideborn Kin (seat 0, power 113: goes first) and the
/// Stoneborn Vanguard (seat 1, power 121), decks shuffled.
fn duel_game() -> Lytharia {
    let mut o = options("neutral-life", "good");
    o.set("mode", "duel").unwrap();
    let mut g = Lytharia::new(&o);
    let mut rng = GameRng::from_seed(Seed(7));
    while g.state().stage == Stage::Shuffle {
        let a = g.sample_chance(&mut rng).unwrap();
        g.apply(&a).unwrap();
    }
    g
}

/// `duel_game` with both players' seven picked: round 1, seat 0 to choose.
fn duel_picked() -> Lytharia {
    let mut g = duel_game();
    for c in PICKS_0.iter().chain(&PICKS_1) {
        act(&mut g, &format!("pick {c}"));
    }
    g
}

/// Both players choose their troop for the round, attacker first.
fn send(g: &mut Lytharia, attacker: &str, defender: &str) {
    act(g, &format!("place {attacker}"));
    act(g, &format!("place {defender}"));
}

fn duel_of(g: &Lytharia) -> &tabula_lytharia::state::Duel {
    g.state().duel.as_ref().unwrap()
}

fn points(g: &Lytharia) -> [i32; 2] {
    [g.state().sides[0].points, g.state().sides[1].points]
}

#[test]
fn duel_players_pick_seven_troops_from_their_army_unseen_by_the_opponent() {
    let mut g = duel_game();
    assert_eq!(g.state().first, 0, "the lower army power goes first");
    assert_eq!(g.state().sides[0].mana, 1, "no bonus mana in a duel");
    assert_eq!(g.state().stage, Stage::Pick);
    assert_eq!(g.to_act().player(), Some(Player(0)));
    assert!(
        is_legal(&g, "pick matriarch-ysolde"),
        "any troop, the King too"
    );
    for c in &PICKS_0[..6] {
        act(&mut g, &format!("pick {c}"));
    }
    assert!(
        !is_legal(&g, "pick brudakian-deckhand"),
        "the army has two Deckhands, both picked"
    );
    act(&mut g, &format!("pick {}", PICKS_0[6]));
    assert_eq!(
        g.to_act().player(),
        Some(Player(1)),
        "then the other player"
    );
    let v = g.view(Viewer::Player(Player(1)));
    let d = v.duel.unwrap();
    assert_eq!(d.sides[0].picks_count, 7);
    assert!(d.sides[0].picks.is_none() && d.sides[0].left.is_none());
    let own = g.view(Viewer::Player(Player(0))).duel.unwrap();
    assert_eq!(own.sides[0].picks.as_ref().map(Vec::len), Some(7));
    for c in &PICKS_1 {
        act(&mut g, &format!("pick {c}"));
    }
    assert_eq!(g.state().stage, Stage::Choose);
    assert_eq!(duel_of(&g).round, 1);
}

#[test]
fn duel_rounds_start_with_full_mana_and_a_full_hand() {
    let g = duel_picked();
    for s in &g.state().sides {
        assert_eq!(s.mana, 15, "full mana");
        assert_eq!(s.hand.len(), 10, "a full hand");
        assert_eq!(s.deck.len(), 51 - 10);
    }
}

#[test]
fn duel_troops_are_chosen_unseen_then_shown_face_to_face() {
    let mut g = duel_picked();
    assert_eq!(
        duel_of(&g).attacker,
        0,
        "the first player attacks in round 1"
    );
    let before = legal(&{
        let mut h = g.clone();
        act(&mut h, "place war-mammoth");
        h
    });
    act(&mut g, "place reedling");
    assert_eq!(
        legal(&g),
        before,
        "the defender's choices do not depend on the attacker's"
    );
    let d = g.view(Viewer::Player(Player(1))).duel.unwrap();
    assert!(d.sides[0].chosen && d.sides[0].choice.is_none());
    assert!(g.state().units.is_empty(), "nothing shown yet");
    act(&mut g, "place bronn");
    let (a, b) = (unit(&g, "d4").unwrap(), unit(&g, "d5").unwrap());
    assert_eq!((a.owner, a.card), (0, id("reedling")));
    assert_eq!((b.owner, b.card), (1, id("bronn")));
    assert!(a.face_up && b.face_up);
    assert_eq!(g.state().stage, Stage::Main, "no mana or draw phase");
    assert_eq!(g.to_act().player(), Some(Player(0)), "the attacker's turn");
    assert_eq!(duel_of(&g).sides[0].left.len(), 6);
}

#[test]
fn duel_troops_attack_each_other_whatever_their_role_and_never_move() {
    let mut g = duel_picked();
    send(&mut g, "tidecaller", "stag-rider");
    // A Bishop attacking straight ahead: legal in a duel.
    assert!(is_legal(&g, "d4xd5"));
    assert!(
        !legal(&g)
            .iter()
            .any(|a| a.len() == 5 && a.as_bytes()[2] == b'-'),
        "no moves"
    );
    assert!(is_legal(&g, "end"), "no move is required");
    assert!(!is_legal(&g, "charge"), "the obelisk counts wins");
    act(&mut g, "end");
    assert_eq!(g.to_act().player(), Some(Player(1)));
    assert!(
        is_legal(&g, "d5xd4"),
        "the defender attacks on its own turn"
    );
}

#[test]
fn a_duel_round_is_won_by_defeating_the_enemy_troop_and_surviving() {
    let mut g = duel_picked();
    send(&mut g, "war-mammoth", "stoneborn-militia");
    act(&mut g, "d4xd5");
    assert_eq!(points(&g), [1, 0]);
    assert_eq!(duel_of(&g).results, [0]);
    assert_eq!(duel_of(&g).round, 2);
    assert_eq!(duel_of(&g).attacker, 1, "attacker and defender alternate");
    assert!(g.state().units.is_empty(), "the battlefield is cleared");
    assert_eq!(g.state().stage, Stage::Choose);
    assert_eq!(g.to_act().player(), Some(Player(1)));
    assert!(g.state().sides[1].crypt.contains(&id("stoneborn-militia")));
    assert!(
        g.state()
            .sides
            .iter()
            .all(|s| s.mana == 15 && s.hand.len() == 10),
        "mana and hand filled again"
    );
    let d1 = &duel_of(&g).sides[1];
    assert_eq!(d1.played, [id("stoneborn-militia")]);
    assert_eq!(d1.left.len(), 6, "each troop is played in one round");
}

#[test]
fn if_both_duel_troops_die_the_lower_power_troop_wins_the_round_and_equal_power_ties() {
    let mut g = duel_picked();
    send(&mut g, "dune-strider", "bronn");
    edit_unit(&mut g, "d5", |u| u.damage = 4);
    act(&mut g, "d4xd5");
    assert!(g.state().units.is_empty());
    assert_eq!(
        points(&g),
        [1, 0],
        "Dune Strider (power 9) beats Bronn (14)"
    );
    let mut h = duel_picked();
    send(&mut h, "dune-strider", "stag-rider");
    act(&mut h, "d4xd5");
    assert!(h.state().units.is_empty(), "6 Att against 6 Def both ways");
    assert_eq!(points(&h), [0, 0], "equal power: a tie");
    assert_eq!(duel_of(&h).results, [2]);
    assert_eq!(duel_of(&h).round, 2);
}

#[test]
fn four_round_wins_take_the_duel() {
    let mut g = duel_picked();
    g.edit(|st| st.sides[0].points = 3);
    send(&mut g, "war-mammoth", "stoneborn-militia");
    act(&mut g, "d4xd5");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::Points))
    );
}

#[test]
fn duel_round_without_a_death_after_the_turn_limit_is_a_tie() {
    let mut g = duel_picked();
    send(&mut g, "reedling", "stoneborn-pikeman");
    for _ in 0..DUEL_ROUND_TURNS {
        assert!(!g.state().units.is_empty());
        act(&mut g, "end");
    }
    assert_eq!(duel_of(&g).results, [2]);
    assert_eq!(points(&g), [0, 0]);
    assert_eq!(duel_of(&g).round, 2);
}

/// Round 7 about to be chosen, at `wins` round wins (the other rounds tied),
/// one troop left each: River Lancer and Antlered Elk.
fn at_round_seven(wins: [i32; 2]) -> Lytharia {
    let mut g = duel_picked();
    g.edit(|st| {
        st.sides[0].points = wins[0];
        st.sides[1].points = wins[1];
        let d = st.duel.as_mut().unwrap();
        d.round = 7;
        d.attacker = 0;
        d.results = (0..6)
            .map(|i| {
                if i < wins[0] {
                    0
                } else if i < wins[0] + wins[1] {
                    1
                } else {
                    2
                }
            })
            .collect();
        for (side, last) in d.sides.iter_mut().zip(["river-lancer", "antlered-elk"]) {
            side.left = vec![id(last)];
            side.played = side
                .picks
                .iter()
                .copied()
                .filter(|c| *c != id(last))
                .collect();
        }
    });
    g
}

#[test]
fn after_seven_rounds_more_wins_take_the_duel() {
    let mut g = at_round_seven([3, 2]);
    // The last troops are forced: chosen without a decision.
    act(&mut g, "place river-lancer");
    assert_eq!(
        g.state().stage,
        Stage::Main,
        "the defender's only troop goes by itself"
    );
    for _ in 0..DUEL_ROUND_TURNS {
        act(&mut g, "end");
    }
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(0), EndReason::Points)),
        "3 wins to 2 after 7 rounds"
    );
}

#[test]
fn equal_wins_after_seven_rounds_go_to_sudden_death_with_troops_drawn_at_random() {
    let mut g = at_round_seven([2, 2]);
    act(&mut g, "place river-lancer");
    for _ in 0..DUEL_ROUND_TURNS {
        act(&mut g, "end");
    }
    assert_eq!(g.to_act(), ToAct::Chance, "a lot, not a choice");
    assert_eq!(duel_of(&g).round, 8);
    let ChanceModel::Exact(lot) = g.chance() else {
        panic!("the lot is an exact chance node")
    };
    // Round 8: seat 1 attacks (rounds alternate), so seat 1 draws first.
    assert_eq!(duel_of(&g).attacker, 1);
    let two = Probability::new(2, 7).unwrap();
    let one = Probability::new(1, 7).unwrap();
    for (a, p) in &lot {
        let want = if a.to_string() == "place stoneborn-militia" {
            two
        } else {
            one
        };
        assert_eq!(*p, want, "{a}: drawn from the seven picked");
    }
    assert_eq!(lot.len(), 6, "seven troops, two of them alike");
    act(&mut g, "place bronn");
    assert_eq!(g.to_act(), ToAct::Chance, "then the other player's lot");
    act(&mut g, "place reedling");
    assert_eq!(unit(&g, "d5").unwrap().card, id("bronn"));
    act(&mut g, "d5xd4");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(1), EndReason::Points)),
        "the first round won takes the match"
    );
    assert_eq!(points(&g), [2, 3]);
}

// ---------------------------------------------------------------- Normal Chess

/// A chess game (seat 0 White, moves first), Pawns placed.
fn chess_game(face_down: bool) -> Lytharia {
    let mut o = options("good", "evil");
    o.set("mode", "chess").unwrap();
    o.set("face-down", if face_down { "on" } else { "off" })
        .unwrap();
    let mut g = Lytharia::new(&o);
    while g.state().stage == Stage::Place {
        let first = legal(&g)[0].clone();
        act(&mut g, &first);
    }
    g
}

fn fen(g: &Lytharia) -> String {
    // The roles as a FEN; the view carries the rest of it.
    let c = g.view(Viewer::Public).chess.unwrap();
    let fen = g.state().chess_position().fen();
    // The rights as tabula-chess lists them: `{owner, side}`, White's first.
    let first = g.state().first;
    let rights: String = c
        .castling
        .iter()
        .map(|r| match (r.owner.0 == first, r.side.as_str()) {
            (true, "kingside") => 'K',
            (true, _) => 'Q',
            (false, "kingside") => 'k',
            (false, _) => 'q',
        })
        .collect();
    let rights = if rights.is_empty() {
        "-".into()
    } else {
        rights
    };
    assert!(fen.contains(&format!(" {rights} ")), "{fen}");
    let clocks = format!(" {} {}", c.halfmove_clock, c.fullmove_number);
    assert!(fen.ends_with(&clocks), "{fen}");
    fen
}

#[test]
fn chess_is_played_from_the_standard_position_without_decks_or_mana() {
    let g = chess_game(true);
    assert_eq!(
        fen(&g),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(g.to_act().player(), Some(Player(0)), "White moves first");
    assert_eq!(g.state().stage, Stage::Main);
    for s in &g.state().sides {
        assert!(s.deck.is_empty() && s.hand.is_empty() && s.mana == 0);
    }
    // Face down: the opponent sees roles only.
    let v = g.view(Viewer::Player(Player(1)));
    assert!(
        v.pieces
            .iter()
            .filter(|u| u.owner == 0)
            .all(|u| u.card.is_none() && u.piece == u.role.letters())
    );
    let g = chess_game(false);
    assert!(g.state().units.iter().all(|u| u.face_up), "or face up");
}

#[test]
fn chess_moves_are_chess_moves_and_captures_ignore_att_and_def() {
    let mut g = chess_game(false);
    assert_eq!(legal(&g).len(), 20, "the twenty first moves of chess");
    assert!(is_legal(&g, "e2-e4") && is_legal(&g, "g1-f3"));
    assert!(!is_legal(&g, "e2-e5") && !is_legal(&g, "end"));
    act(&mut g, "e2-e4");
    assert_eq!(g.to_act().player(), Some(Player(1)), "one move per turn");
    act(&mut g, "d7-d5");
    let queen = id("mother-of-gloom");
    act(&mut g, "d1-h5");
    act(&mut g, "d8-d6");
    act(&mut g, "e4xd5");
    assert_eq!(
        unit(&g, "d5").unwrap().owner,
        0,
        "a Pawn takes: no combat, no damage"
    );
    assert_eq!(unit(&g, "d5").unwrap().damage, 0);
    assert_eq!(g.state().sides[1].crypt.len(), 1, "the Pawn taken");
    act(&mut g, "d6xd5");
    assert_eq!(unit(&g, "d5").unwrap().card, queen);
    act(&mut g, "h5xf7");
    assert_eq!(
        fen(&g),
        "rnb1kbnr/ppp1pQpp/8/3q4/8/8/PPPP1PPP/RNB1KBNR b KQkq - 0 4"
    );
    assert!(g.view(Viewer::Public).in_check == Some(true), "check");
    assert!(is_legal(&g, "e8xf7"));
    assert!(!is_legal(&g, "a7-a6"), "check must be answered");
}

#[test]
fn chess_castling_en_passant_and_promotion_to_a_troop_card() {
    let mut g = chess_game(false);
    for m in ["e2-e4", "a7-a6", "e4-e5", "d7-d5"] {
        act(&mut g, m);
    }
    act(&mut g, "e5xd6");
    assert!(unit(&g, "d5").is_none(), "en passant");
    for m in ["a6-a5", "g1-f3", "a5-a4", "f1-c4", "a4-a3"] {
        act(&mut g, m);
    }
    act(&mut g, "e1-g1");
    assert_eq!(unit(&g, "g1").unwrap().troop().role.letters(), "K");
    assert_eq!(unit(&g, "f1").unwrap().troop().role.letters(), "R");
    act(&mut g, "a3xb2");
    act(&mut g, "d6xc7");
    act(&mut g, "b2xa1");
    assert_eq!(g.state().stage, Stage::Promote);
    assert!(is_legal(&g, "promote mother-of-gloom"));
    assert!(!is_legal(&g, "promote vorzak") && !is_legal(&g, "promote bog-ghoul"));
    // The capture is told when the promotion completes the move.
    let a = g.parse_action("promote lurker-spider").unwrap();
    let mut after = g.clone();
    after.apply(&a).unwrap();
    let evs = g.events(&a, &after, Viewer::Public);
    let c = evs
        .iter()
        .find(|e| e.kind == tabula_core::protocol::EventKind::Capture)
        .expect("a capture event");
    assert_eq!(c.player, Some(Player(1)));
    assert_eq!(
        (&c.data["from"], &c.data["to"]),
        (&"b2".into(), &"a1".into())
    );
    assert_eq!(c.data["captured_on"], "a1");
    assert_eq!(c.data["captured_owner"], 0);
    assert_eq!(
        c.data["captured"],
        unit(&g, "a1").unwrap().card.to_string().as_str()
    );
    act(&mut g, "promote lurker-spider");
    let u = unit(&g, "a1").unwrap();
    assert_eq!(u.troop().id, "lurker-spider", "a copy of a friendly Knight");
    assert_eq!(u.troop().role.letters(), "KN");
    assert!(fen(&g).split(' ').next().unwrap().ends_with("/nNBQ1RK1"));
    assert_eq!(g.to_act().player(), Some(Player(0)));
}

#[test]
fn chess_ends_by_checkmate_stalemate_and_repetition() {
    let mut g = chess_game(true);
    for m in ["f2-f3", "e7-e5", "g2-g4", "d8-h4"] {
        act(&mut g, m);
    }
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::win(Team(1), EndReason::Checkmate))
    );
    // Repetition: the knights go out and back twice.
    let mut g = chess_game(true);
    for m in [
        "g1-f3", "g8-f6", "f3-g1", "f6-g8", "g1-f3", "g8-f6", "f3-g1", "f6-g8",
    ] {
        assert!(g.to_act().outcome().is_none());
        act(&mut g, m);
    }
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::draw(EndReason::Repetition))
    );
    // Stalemate: White Queen c5-c7 against a lone Black King on a8.
    let mut g = chess_game(false);
    g.edit(|st| {
        st.units.clear();
        st.chess.as_mut().unwrap().castling = "-".to_owned();
        st.chess.as_mut().unwrap().history.clear();
    });
    put(&mut g, 0, "thane-orvik", "b6");
    put(&mut g, 0, "warden-esselde", "c5");
    put(&mut g, 1, "vorzak", "a8");
    act(&mut g, "c5-c7");
    assert_eq!(
        g.to_act().outcome(),
        Some(Outcome::draw(EndReason::Stalemate))
    );
}

// ---------------------------------------------------------------- robustness

/// Position texts of both mini-games with one number changed at a time are
/// read or refused, never a panic, and a state read answers every query.
#[test]
fn altered_mini_game_texts_are_refused_or_played_without_panic() {
    let mut duel = duel_picked();
    send(&mut duel, "river-lancer", "bronn");
    let mut chess = chess_game(true);
    for m in ["e2-e4", "d7-d5", "e4xd5"] {
        act(&mut chess, m);
    }
    for g in [duel, chess] {
        let text = g.to_text();
        let digits: Vec<usize> = text
            .char_indices()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i)
            .collect();
        let mut read = 0;
        for (&i, new) in digits.iter().flat_map(|i| [(i, "0"), (i, "9"), (i, "2")]) {
            let mut t = text.clone();
            t.replace_range(i..i + 1, new);
            if let Ok(h) = Lytharia::from_text(&t, g.options()) {
                read += 1;
                let mut v = Vec::new();
                h.legal_actions(&mut v);
                let _ = (h.to_act(), h.chance(), h.view(Viewer::Public));
                if let Some(a) = v.first() {
                    let mut h = h.clone();
                    let _ = h.apply(a);
                }
            }
        }
        assert!(read > 0);
    }
}
