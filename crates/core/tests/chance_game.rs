//! The generic machinery (perft over chance nodes, chance sampling, replay)
//! exercised on a tiny dice race: each turn a player rolls one die and adds it
//! to their score; the first to reach 10 wins.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabula_core::protocol::{
    BoardShape, Catalog, Event, EventKind, FaultKind, Gesture, GestureKind,
};
use tabula_core::{
    ChanceModel, EndReason, Game, GameId, GameRng, OptionError, OptionSpec, Options, Outcome,
    Player, Probability, Seating, Seed, Team, ToAct, Viewer, perft,
};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct RaceOptions;

impl Options for RaceOptions {
    fn specs() -> &'static [OptionSpec] {
        &[]
    }
    fn set(&mut self, key: &str, _value: &str) -> Result<(), OptionError> {
        Err(Self::unknown_key("race", key))
    }
    fn to_pairs(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum RaceAction {
    Roll,
    Die(u8),
}

impl fmt::Display for RaceAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceAction::Roll => f.write_str("roll"),
            RaceAction::Die(n) => write!(f, "d{n}"),
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
enum RaceError {
    #[error("'{0}' is not an action")]
    Unparsable(String),
    #[error("{0} is not legal now")]
    Illegal(RaceAction),
}

impl FromStr for RaceAction {
    type Err = RaceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "roll" => Ok(RaceAction::Roll),
            _ => s
                .strip_prefix('d')
                .and_then(|n| n.parse().ok())
                .filter(|n| (1..=6).contains(n))
                .map(RaceAction::Die)
                .ok_or_else(|| RaceError::Unparsable(s.to_owned())),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Race {
    options: RaceOptions,
    scores: [u8; 2],
    mover: u8,
    rolling: bool,
}

impl Game for Race {
    type Action = RaceAction;
    type Options = RaceOptions;
    type View = [u8; 2];
    type ActionError = RaceError;
    type PositionError = RaceError;
    const ID: GameId = GameId::Skirmish;

    fn gesture(&self, _action: &RaceAction) -> Gesture {
        Gesture::button(GestureKind::Pass, "roll", "Roll the die")
    }

    fn events(&self, action: &RaceAction, _after: &Self, _viewer: Viewer) -> Vec<Event> {
        vec![Event::new(EventKind::Dice, action.to_string())]
    }

    fn catalog(_options: &RaceOptions) -> Catalog {
        Catalog {
            game: Self::ID,
            title: "Race".to_owned(),
            board: BoardShape::squares(1, 12),
            pieces: Vec::new(),
            extra: serde_json::Value::Null,
        }
    }

    fn fault_kind(error: &RaceError) -> FaultKind {
        match error {
            RaceError::Unparsable(_) => FaultKind::Unreadable,
            RaceError::Illegal(_) => FaultKind::Illegal,
        }
    }

    fn new(options: &RaceOptions) -> Self {
        Race {
            options: options.clone(),
            scores: [0, 0],
            mover: 0,
            rolling: false,
        }
    }
    fn options(&self) -> &RaceOptions {
        &self.options
    }
    fn seating(&self) -> Seating {
        Seating::two_players()
    }
    fn to_act(&self) -> ToAct {
        if let Some(i) = self.scores.iter().position(|&s| s >= 10) {
            ToAct::Over {
                outcome: Outcome::win(Team(i as u8), EndReason::Points),
            }
        } else if self.rolling {
            ToAct::Chance
        } else {
            ToAct::Player {
                player: Player(self.mover),
            }
        }
    }
    fn legal_actions(&self, out: &mut Vec<RaceAction>) {
        out.clear();
        if matches!(self.to_act(), ToAct::Player { .. }) {
            out.push(RaceAction::Roll);
        }
    }
    fn chance(&self) -> ChanceModel<RaceAction> {
        if self.to_act() != ToAct::Chance {
            return ChanceModel::NotChance;
        }
        let sixth = Probability::new(1, 6).unwrap();
        ChanceModel::Exact((1..=6).map(|n| (RaceAction::Die(n), sixth)).collect())
    }
    fn apply(&mut self, action: &RaceAction) -> Result<(), RaceError> {
        let ok = matches!(
            (self.to_act(), action),
            (ToAct::Player { .. }, RaceAction::Roll) | (ToAct::Chance, RaceAction::Die(_))
        );
        if !ok {
            return Err(RaceError::Illegal(*action));
        }
        self.apply_unchecked(action);
        Ok(())
    }
    fn apply_unchecked(&mut self, action: &RaceAction) {
        match action {
            RaceAction::Roll => self.rolling = true,
            RaceAction::Die(n) => {
                self.scores[self.mover as usize] += n;
                self.rolling = false;
                self.mover ^= 1;
            }
        }
    }
    fn parse_action(&self, text: &str) -> Result<RaceAction, RaceError> {
        text.parse()
    }
    fn to_text(&self) -> String {
        format!(
            "{} {} {} {}",
            self.scores[0], self.scores[1], self.mover, self.rolling
        )
    }
    fn from_text(text: &str, options: &RaceOptions) -> Result<Self, RaceError> {
        let bad = || RaceError::Unparsable(text.to_owned());
        let f: Vec<&str> = text.split(' ').collect();
        if f.len() != 4 {
            return Err(bad());
        }
        Ok(Race {
            options: options.clone(),
            scores: [
                f[0].parse().map_err(|_| bad())?,
                f[1].parse().map_err(|_| bad())?,
            ],
            mover: f[2].parse().map_err(|_| bad())?,
            rolling: f[3].parse().map_err(|_| bad())?,
        })
    }
    fn view(&self, _viewer: Viewer) -> [u8; 2] {
        self.scores
    }
}

#[test]
fn perft_expands_every_die_face_as_a_branch() {
    let race = Race::new(&RaceOptions);
    // roll, face, roll, face: 1 * 6 * 1 * 6.
    assert_eq!(perft::perft(&race, 1), 1);
    assert_eq!(perft::perft(&race, 2), 6);
    assert_eq!(perft::perft(&race, 4), 36);
    let divide = perft::divide(&race, 2);
    assert_eq!(divide, vec![("roll".to_owned(), 6)]);
}

#[test]
fn finished_games_are_leaves_with_no_actions() {
    let race = Race::from_text("10 3 1 false", &RaceOptions).unwrap();
    assert_eq!(
        race.to_act(),
        ToAct::Over {
            outcome: Outcome::win(Team(0), EndReason::Points)
        }
    );
    let mut actions = vec![RaceAction::Roll];
    race.legal_actions(&mut actions);
    assert!(actions.is_empty());
    assert_eq!(perft::perft(&race, 3), 0);
}

#[test]
fn sampled_dice_follow_the_listed_probabilities_and_replay_from_the_seed() {
    let mut race = Race::new(&RaceOptions);
    race.apply(&RaceAction::Roll).unwrap();
    let mut rng = GameRng::from_seed(Seed(11));
    let mut counts = [0u32; 6];
    for _ in 0..6000 {
        match race.sample_chance(&mut rng) {
            Some(RaceAction::Die(n)) => counts[n as usize - 1] += 1,
            other => panic!("expected a die face, got {other:?}"),
        }
    }
    assert!(
        counts.iter().all(|&c| (850..1150).contains(&c)),
        "{counts:?}"
    );

    let play = |seed| {
        let mut rng = GameRng::from_seed(Seed(seed));
        let mut game = Race::new(&RaceOptions);
        let mut record = Vec::new();
        while game.to_act().outcome().is_none() {
            let action = match game.to_act() {
                ToAct::Chance => game.sample_chance(&mut rng).unwrap(),
                _ => RaceAction::Roll,
            };
            game.apply(&action).unwrap();
            record.push(action);
        }
        (record, game.to_text())
    };
    assert_eq!(play(5), play(5));
    // Replaying the record without any RNG reaches the same end.
    let (record, end) = play(5);
    let mut replay = Race::new(&RaceOptions);
    for action in &record {
        replay.apply(action).unwrap();
    }
    assert_eq!(replay.to_text(), end);
}

#[test]
fn outcomes_give_each_player_their_result() {
    let outcome = Outcome::win(Team(1), EndReason::Checkmate);
    let results = outcome.results(&Seating::two_players());
    assert_eq!(results[0].1, tabula_core::GameResult::Loss);
    assert_eq!(results[1].1, tabula_core::GameResult::Win);
    let doubles = Seating::with_teams(vec![Team(0), Team(1), Team(0), Team(1)]);
    assert_eq!(doubles.team_count(), 2);
    let draw = Outcome::draw(EndReason::Stalemate);
    assert!(
        draw.results(&doubles)
            .iter()
            .all(|(_, r)| *r == tabula_core::GameResult::Draw)
    );
    assert_eq!(outcome.to_string(), "team 2 wins by checkmate");
}

#[test]
fn illegal_actions_change_nothing() {
    let mut race = Race::new(&RaceOptions);
    let before = race.clone();
    assert_eq!(
        race.apply(&RaceAction::Die(3)),
        Err(RaceError::Illegal(RaceAction::Die(3)))
    );
    assert_eq!(race, before);
}

tabula_core::serde_as_text!(RaceAction);
