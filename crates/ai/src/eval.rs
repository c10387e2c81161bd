//! What each game knows about who is ahead.
//!
//! Every evaluation reads only the state it is given; the search hands it
//! determinized worlds in hidden-information games, never the real state.

use tabula_chess::{Chess, Color, Role};
use tabula_core::{Game, Team, ToAct};
use tabula_covenant::{Covenant, PieceTable};
use tabula_epoch::{Epoch, PieceKind};
use tabula_lytharia::Lytharia;
use tabula_skirmish::{Skirmish, piece_value};
use tabula_warrior::Warrior;

/// A game's evaluation and search settings.
///
/// Every game here has two teams; the evaluation is team 0's advantage.
pub trait Evaluate: Game {
    /// The medium level's iterations a decision for this game (easy and hard
    /// scale it, see [`crate::Level::budget`]); chosen so medium answers
    /// within about a second on a 2-core machine (docs/ai.md).
    const ITERATIONS: u32;
    /// Random plies played from a new leaf before it is evaluated.
    const ROLLOUT: u32 = 0;
    /// The advantage that makes team 0 about 73% to win (the logistic scale).
    const SCALE: f64;
    /// The exploration constant of the search's upper confidence bound.
    const EXPLORATION: f64 = 0.7;
    /// How many visits the evaluation of an action's result counts as
    /// (progressive bias).
    const PRIOR_WEIGHT: f64 = 2.0;
    /// Progressive widening (see [`crate::SearchConfig::widening`]); 0 is off.
    const WIDENING: f64 = 0.0;
    /// The weight of the implicit minimax value in the search's action
    /// values (see [`crate::SearchConfig::implicit_minimax`]); 0 is off.
    const IMPLICIT_MINIMAX: f64 = 0.0;
    /// Greedy decisions played from a new leaf (see
    /// [`crate::SearchConfig::greedy_rollout`]); 0 is none.
    const GREEDY_ROLLOUT: u32 = 0;
    /// How many teams' turns that greedy play may cover: 1 is the leaf's own
    /// team's turn only, 2 the other team's reply too.
    const GREEDY_TURNS: u32 = 1;
    /// How much a node continuing its team's turn is valued by its best
    /// action rather than its mean (see [`crate::SearchConfig::turn_max`]);
    /// 0 is off.
    const TURN_MAX: f64 = 0.0;
    /// Whether an action leading to a chance node with exact odds (a
    /// skirmish's roll) is judged by the expectation over its outcomes
    /// rather than by the state before the roll, in the search's priors and
    /// its greedy turn completion.
    const EXPECTED_CHANCE: bool = false;

    /// Team 0's advantage over team 1 in the game's own units (pawns,
    /// Grails): positive when team 0 is ahead.
    fn advantage(&self) -> f64;

    /// Hidden information: 0 is the information set search, k > 0 plain
    /// determinization over k worlds (see [`crate::SearchConfig::worlds`]).
    /// A method, not a constant, because a game's modes may differ.
    fn worlds(&self) -> u32 {
        0
    }
}

/// The expected score (1 a win, ½ a draw) of `team` here: exact when the
/// game is over, else the evaluation through a logistic curve.
pub fn score<G: Evaluate>(game: &G, team: Team) -> f64 {
    let zero = match game.to_act() {
        ToAct::Over { outcome } => match outcome.winner {
            None => 0.5,
            Some(Team(0)) => 1.0,
            Some(_) => 0.0,
        },
        _ => 1.0 / (1.0 + (-game.advantage() / G::SCALE).exp()),
    };
    if team.0 == 0 { zero } else { 1.0 - zero }
}

fn chess_material(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.0,
        Role::Bishop => 3.2,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// Signed material plus a little for advanced pawns and central pieces,
/// from White's side, on a chess board.
fn chess_board_advantage(board: &tabula_chess::Board, value: impl Fn(Role) -> f64) -> f64 {
    let mut total = 0.0;
    for (sq, piece) in board.iter() {
        let white = piece.color == Color::White;
        let rank = sq.rank() as u8 as f64;
        let file = sq.file() as u8 as f64;
        let mut v = value(piece.role);
        let centre = 3.5 - ((file - 3.5).abs().max((rank - 3.5).abs()));
        match piece.role {
            // Pawns gain as they near promotion.
            Role::Pawn => {
                let advance = if white { rank - 1.0 } else { 6.0 - rank };
                v += 0.04 * advance * advance / 2.0;
            }
            Role::Knight | Role::Bishop => v += 0.06 * centre,
            _ => {}
        }
        total += if white { v } else { -v };
    }
    total
}

impl Evaluate for Chess {
    const ITERATIONS: u32 = 15000;
    const SCALE: f64 = 2.5;

    fn advantage(&self) -> f64 {
        let pos = self.position();
        let mut adv = chess_board_advantage(pos.board(), chess_material);
        // Being in check is a small liability for the side to move.
        if pos.is_check() {
            adv += if pos.turn() == Color::White {
                -0.3
            } else {
                0.3
            };
        }
        adv
    }
}

impl Evaluate for Skirmish {
    const ITERATIONS: u32 = 6000;
    const SCALE: f64 = 3.0;
    // A capture is an attempt: before the roll the board is unchanged, so
    // without the odds every attempt would look like a quiet move.
    const EXPECTED_CHANCE: bool = true;

    fn advantage(&self) -> f64 {
        // The book's own values (the King's is an option) are what the dice
        // odds depend on, so they are the natural material count.
        let king = self.options().king_value.get();
        chess_board_advantage(self.board(), |r| {
            if r == Role::King {
                // The King can fall to dice: it counts, but not as material
                // to trade.
                piece_value(r, king) as f64 * 0.5
            } else {
                piece_value(r, king) as f64
            }
        })
    }
}

fn epoch_value(kind: PieceKind, awake: bool) -> f64 {
    match kind {
        PieceKind::Sentinel => 5.0,
        PieceKind::Templar => 3.0,
        PieceKind::Herald => 3.5,
        PieceKind::Mage => 4.0,
        PieceKind::Assassin => 4.0,
        PieceKind::Emperor if awake => 10.0,
        PieceKind::Emperor => 6.0,
        PieceKind::Pope => 0.0,
        PieceKind::Marshal => 4.0,
        PieceKind::Legionary => 1.0,
    }
}

impl Evaluate for Epoch {
    const ITERATIONS: u32 = 4500;
    const SCALE: f64 = 3.0;

    fn advantage(&self) -> f64 {
        let pos = self.position();
        let mut adv = 0.0;
        for color in [tabula_epoch::Color::White, tabula_epoch::Color::Black] {
            let awake = pos.emperor_awake(color);
            let mut side = 0.0;
            for sq in pos.occupied_by(color).iter() {
                if let Some(piece) = pos.piece_at(sq) {
                    side += epoch_value(piece.kind, awake);
                    // Legionaries gain as they advance.
                    if piece.kind == PieceKind::Legionary {
                        let rank = f64::from(sq.rank());
                        let advance = if color == tabula_epoch::Color::White {
                            rank
                        } else {
                            12.0 - rank
                        };
                        side += 0.03 * advance;
                    }
                }
            }
            if self.player_of(color).0 == 0 {
                adv += side;
            } else {
                adv -= side;
            }
        }
        if pos.in_check() {
            let mover = self.player_of(pos.side_to_move()).0;
            adv += if mover == 0 { -0.4 } else { 0.4 };
        }
        adv
    }
}

impl Evaluate for Warrior {
    // Each iteration plays the rest of a turn and the next army's reply
    // greedily, so far fewer are needed (and affordable) than with bare
    // leaves; a turn's phases are one choice, so they back up by their best
    // (docs/ai.md: doubles vs greedy 53% without either, 75% with both on
    // the tuning seed).
    const ITERATIONS: u32 = 1000;
    const ROLLOUT: u32 = 0;
    const SCALE: f64 = 6.0;
    const EXPLORATION: f64 = 0.25;
    const GREEDY_ROLLOUT: u32 = 16;
    const GREEDY_TURNS: u32 = 2;
    const TURN_MAX: f64 = 1.0;

    fn advantage(&self) -> f64 {
        let mut team = [0.0f64; 2];
        for (_, piece) in self.pieces() {
            let v = match piece.kind {
                tabula_warrior::PieceKind::King => 0.0,
                // A Warrior, its weapons and the Warriors it holds captive
                // (who return to play if it falls).
                tabula_warrior::PieceKind::Warrior => {
                    3.0 + 2.0 * f64::from(piece.weapons.total())
                        + 0.5 * f64::from(piece.stack.total())
                }
            };
            team[usize::from(piece.army.team())] += v;
        }
        for army in self.armies() {
            let reserve = self.reserve(army);
            let t = usize::from(army.team());
            team[t] += 0.3 * f64::from(self.money(army).0)
                + 3.0 * f64::from(reserve.warriors)
                + 1.5 * f64::from(reserve.weapons.total())
                + 0.5 * f64::from(self.income(army));
        }
        let threats = warrior_king_threats(self);
        team[0] += threats[0];
        team[1] += threats[1];
        team[0] - team[1]
    }
}

/// Each team's bonus for attacking the other team's Kings: decisive when
/// the attacker's army is the next to make its movement (the King falls
/// then unless the game ends first), a lesser pressure otherwise. There is
/// no check in Warrior Chess, so nothing else warns a search that stops
/// before the next army's movement.
fn warrior_king_threats(game: &Warrior) -> [f64; 2] {
    use tabula_warrior::{Army, Phase, PieceKind};
    let players = usize::from(game.player_count()).max(1);
    let mover = game.to_move();
    let next = if game.phase() == Phase::Movement {
        mover
    } else {
        Army::ALL[(mover as usize + 1) % players]
    };
    let mut kings = [0u64; 2];
    let mut king_of = [0u64; 4];
    for (sq, p) in game.pieces() {
        if p.kind == PieceKind::King {
            kings[usize::from(p.army.team())] |= sq.bit();
            king_of[p.army.index()] |= sq.bit();
        }
    }
    let mut bonus = [0.0f64; 2];
    let mut decisive = [false; 2];
    for (sq, p) in game.pieces() {
        let t = usize::from(p.army.team());
        let reach = game.reach(sq).1;
        if reach & kings[1 - t] == 0 {
            continue;
        }
        if p.army == next {
            decisive[t] = true;
        } else {
            // Counting the armies' movements from the next one: an attacker
            // that moves before the attacked King's own army leaves that
            // King no flight, only its partner's help (doubles only: with
            // two armies the attacker is then the next one).
            let order = |a: Army| (a.index() + players - next.index()) % players;
            let cornered = (0..players).filter_map(Army::from_index).any(|victim| {
                victim.team() != p.army.team()
                    && order(p.army) < order(victim)
                    && reach & king_of[victim.index()] != 0
            });
            bonus[t] += if cornered {
                WARRIOR_CORNERED
            } else {
                WARRIOR_PRESSURE
            };
        }
    }
    for t in 0..2 {
        if decisive[t] {
            bonus[t] += WARRIOR_KING_TAKEN;
        }
    }
    bonus
}

/// A King the next movement captures: as good as won (logistic 0.96).
const WARRIOR_KING_TAKEN: f64 = 20.0;
/// A King attacked by an army that moves later: it may still flee.
const WARRIOR_PRESSURE: f64 = 1.5;
/// A King attacked by an army that moves before the King's own: only its
/// partner can still save it.
const WARRIOR_CORNERED: f64 = 6.0;

impl Evaluate for Covenant {
    // A turn is many activations, each a few actions: every leaf plays the
    // rest of its side's turn greedily, and an action's value leans on the
    // best line below it (implicit minimax), since an activation or a step
    // is only as good as the blow it leads to. Hard is 150 iterations: at
    // 450 it scored worse against greedy on the same seed (docs/ai.md).
    const ITERATIONS: u32 = 50;
    const SCALE: f64 = 4.0;
    const EXPLORATION: f64 = 0.25;
    const IMPLICIT_MINIMAX: f64 = 0.5;
    const GREEDY_ROLLOUT: u32 = 12;

    fn advantage(&self) -> f64 {
        let table = PieceTable::builtin();
        let mover = self.side_to_move();
        let mut side = [0.0f64; 2];
        for p in self.pieces() {
            let ty = table.get(p.kind);
            let health = f64::from(p.blood) / f64::from(ty.blood.max(1));
            // The King's Blood is the game: its loss ends it.
            let worth = if ty.king {
                // Blood the foes can strike next: all of it when they are
                // to act, a part when the King's side may still answer first.
                let threat = covenant_threat(self, p);
                let weight = if p.side == mover { 0.4 } else { 1.0 };
                let left = (f64::from(p.blood) - weight * threat).max(0.0);
                let safe = left / f64::from(ty.blood.max(1));
                8.0 * safe + 4.0 * health + if left <= 0.0 { -8.0 } else { 0.0 }
            } else {
                (f64::from(ty.price.unwrap_or(2)) + 1.0) * (0.5 + 0.5 * health)
            };
            side[p.side.index()] += worth;
        }
        for s in [tabula_covenant::Side::Gold, tabula_covenant::Side::Blue] {
            side[s.index()] += 0.5 * f64::from(self.grails(s)) + 1.0 * f64::from(self.income(s));
        }
        side[0] - side[1]
    }
}

/// The Blood the King `king` may lose to one round of the foes' blows:
/// every foe whose Speed (plus its shot's range) reaches the King's hex
/// strikes once with its plain Attack.
fn covenant_threat(game: &Covenant, king: &tabula_covenant::Piece) -> f64 {
    let table = PieceTable::builtin();
    let defence = game.defence(king);
    let mut threat = 0.0;
    for q in game.pieces() {
        if q.side == king.side || q.idle {
            continue;
        }
        let ty = table.get(q.kind);
        let d = q.at.distance(king.at);
        let speed = ty.speed;
        let blow = if d <= speed.saturating_add(1) {
            Covenant::damage(i16::from(ty.attack), defence)
        } else if let Some(r) = ty.powers.ranged
            && d <= speed.saturating_add(r.range)
        {
            Covenant::damage(i16::from(r.attack), defence)
        } else {
            0
        };
        threat += f64::from(blow);
    }
    threat
}

impl Evaluate for Lytharia {
    const ITERATIONS: u32 = 5000;
    const SCALE: f64 = 8.0;

    /// The duel and Pawn Wars search 4 determinized worlds: there they beat
    /// the information set search at equal iterations (57% and 59% of 100
    /// games against its one tree, 67% and 63% against four); in the full
    /// game they did not (42.5% and 47.5% of 40), so it keeps the one tree
    /// (docs/ai.md, "Determinization against the information set search").
    fn worlds(&self) -> u32 {
        match self.options().mode {
            tabula_lytharia::Mode::Duel | tabula_lytharia::Mode::PawnWars => 4,
            _ => 0,
        }
    }

    fn advantage(&self) -> f64 {
        let st = self.state();
        let mut side = [0.0f64; 2];
        for u in &st.units {
            let t = u.troop();
            let alive = (t.def - u.damage).max(0) as f64 / f64::from(t.def.max(1) as u16);
            let worth = if t.role == tabula_lytharia::cards::Role::King {
                10.0 * alive
            } else {
                (f64::from(t.power.max(1) as u16) + 1.0) * (0.5 + 0.5 * alive)
            };
            if let Some(s) = side.get_mut(usize::from(u.owner)) {
                *s += worth;
            }
        }
        // Pawn Wars is a race: a Pawn that scores leaves the board, so a
        // point must outweigh the Pawn it was, and a Pawn gains as it nears
        // the far rank (the first evaluation counted a point as less than a
        // Pawn on the board, so scoring looked like a loss).
        let race = self.options().mode == tabula_lytharia::Mode::PawnWars;
        let point = if race { 9.0 } else { 2.0 };
        if race {
            for u in &st.units {
                let rank = f64::from(u.at.0.relative_to(st.color(u.owner)).rank() as u8);
                if let Some(s) = side.get_mut(usize::from(u.owner)) {
                    *s += 0.12 * rank * rank;
                }
            }
        }
        for (i, s) in st.sides.iter().enumerate() {
            side[i] += 0.8 * s.hand.len() as f64
                + 0.2 * f64::from(s.mana.clamp(0, 15) as u16)
                + 0.3 * f64::from(s.obelisk.clamp(0, 6) as u16)
                + point * f64::from(s.points.clamp(0, 1000) as u16);
        }
        side[0] - side[1]
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::Player;

    use super::*;

    #[test]
    fn a_queen_up_is_nearly_won_and_the_start_is_even() {
        let start = Chess::new(&Default::default());
        assert!((score(&start, Team(0)) - 0.5).abs() < 0.05);
        let up = Chess::from_text(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &Default::default(),
        )
        .unwrap();
        assert!(score(&up, Team(0)) > 0.95);
        assert!(score(&up, Team(1)) < 0.05);
        let _ = Player(0);
    }

    #[test]
    fn a_doubles_king_attacked_by_an_army_moving_before_its_own_is_in_danger() {
        use tabula_warrior::WarriorOptions;
        // The Red King on e1 is attacked by a Yellow Rook on e4. With Red to
        // move it can flee; with Blue to move, Yellow moves before Red and
        // only Green can still save it.
        let position = |to_act: &str| {
            let text = format!(
                "3GK4/8/8/7YK/BK3YWr3/8/8/4RK3 {to_act} move 1,1,0,1 -,-,-,- \
                 W8r3n2b3s4,W8r3n2b3s4,W8r3n2b3s4,W7r2n2b3s4 -,-,-,- - 0"
            );
            Warrior::from_position_text(&text, &WarriorOptions::doubles()).unwrap()
        };
        let free = score(&position("R"), Team(0));
        let cornered = score(&position("B"), Team(0));
        assert!(
            cornered < free - 0.05,
            "cornered {cornered} against free {free}"
        );
        // Once Yellow is the next to move, the King is as good as lost.
        let taken = score(&position("Y"), Team(0));
        assert!(
            taken < cornered,
            "taken {taken} against cornered {cornered}"
        );
    }

    #[test]
    fn the_search_settings_take_the_lytharian_modes_worlds() {
        use tabula_lytharia::{LythariaOptions, Mode};
        let budget = crate::Budget {
            iterations: 100,
            time: None,
            depth: None,
        };
        let worlds = |mode| {
            let game = Lytharia::new(&LythariaOptions {
                mode,
                ..Default::default()
            });
            crate::SearchConfig::for_game(&game, budget).worlds
        };
        assert_eq!(worlds(Mode::Duel), 4);
        assert_eq!(worlds(Mode::PawnWars), 4);
        assert_eq!(worlds(Mode::Full), 0);
    }
}
