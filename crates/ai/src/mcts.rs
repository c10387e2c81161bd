//! Monte Carlo tree search over a game's atomic actions.
//!
//! One iteration: draw a world the searcher may believe in (a determinization
//! for hidden-information games, the state itself otherwise); walk down the
//! tree choosing, at each player node, the action with the best upper
//! confidence bound for the deciding player's team among those legal in this
//! world; at chance nodes draw the outcome by its probability and follow the
//! child of the state it reaches (equal states share a child); add the first
//! new node, play a few random plies, evaluate, and back up the score of
//! team 0 (the other team's is its complement).

use std::time::Instant;

use tabula_core::{Game, GameRng, Player, Team, ToAct};

use crate::eval::{Evaluate, score};
use crate::level::Budget;

/// Search settings besides the budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchConfig {
    /// The budget.
    pub budget: Budget,
    /// Random plies from a new leaf before it is evaluated.
    pub rollout: u32,
    /// The exploration constant of the upper confidence bound.
    pub exploration: f64,
    /// How many visits the evaluation of an action's result counts as
    /// before the action is searched (progressive bias; 0 turns it off).
    pub prior_weight: f64,
}

impl SearchConfig {
    /// The settings for game `G` under `budget`.
    pub fn for_game<G: Evaluate>(budget: Budget) -> Self {
        SearchConfig {
            budget,
            rollout: G::ROLLOUT,
            exploration: 0.7,
            prior_weight: 2.0,
        }
    }
}

/// What a search did, for `tabula match` and `tabula bench`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SearchReport {
    /// Iterations run.
    pub iterations: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Calls of the evaluation.
    pub evaluations: u64,
    /// The chosen action's expected score for the searcher's team.
    pub value: f64,
}

const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct Edge<A> {
    action: A,
    /// For a chance node's children: the key of the state reached.
    key: u64,
    /// Whether this is a chance outcome's edge. In hidden-information games
    /// one tree node can be a chance node in one world and a player's
    /// decision in another, so the two kinds of edge are told apart.
    chance: bool,
    child: u32,
    /// The evaluation of the state this action reaches, for the deciding
    /// team (the progressive bias).
    prior: f64,
}

#[derive(Debug)]
struct Node<A> {
    visits: u32,
    /// The sum of team 0's backed-up scores.
    total: f64,
    edges: Vec<Edge<A>>,
    expanded: bool,
}

impl<A> Node<A> {
    fn new() -> Self {
        Node {
            visits: 0,
            total: 0.0,
            edges: Vec::new(),
            expanded: false,
        }
    }
}

/// One search tree for one decision.
#[derive(Debug)]
pub struct Search<G: Game> {
    config: SearchConfig,
    nodes: Vec<Node<G::Action>>,
    actions: Vec<G::Action>,
    evaluations: u64,
}

impl<G: Evaluate> Search<G> {
    /// A search with `config`.
    pub fn new(config: SearchConfig) -> Self {
        Search {
            config,
            nodes: Vec::new(),
            actions: Vec::new(),
            evaluations: 0,
        }
    }

    /// The action `me` should take in `game`, searching only worlds drawn
    /// from what `me` may see; `None` when `me` is not to act.
    pub fn choose(
        &mut self,
        game: &G,
        me: Player,
        rng: &mut GameRng,
    ) -> Option<(G::Action, SearchReport)> {
        if game.to_act().player() != Some(me) {
            return None;
        }
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        if legal.len() == 1 {
            return legal.pop().map(|a| (a, SearchReport::default()));
        }
        self.nodes.clear();
        self.nodes.push(Node::new());
        self.evaluations = 0;
        let start = Instant::now();
        let mut iterations = 0;
        while iterations < self.config.budget.iterations {
            if let Some(limit) = self.config.budget.time
                && iterations > 0
                && start.elapsed() >= limit
            {
                break;
            }
            let world = if G::HIDDEN_INFORMATION {
                game.determinize(me, rng)
            } else {
                game.clone()
            };
            self.iterate(world, rng);
            iterations += 1;
        }
        let team = game.seating().team(me)?;
        // The most searched action that is legal in the real state (every
        // world keeps `me`'s own options, but be sure).
        let root = &self.nodes[0];
        let mut best: Option<(&Edge<G::Action>, u32, f64)> = None;
        for edge in &root.edges {
            if edge.chance || !legal.contains(&edge.action) {
                continue;
            }
            let (visits, value) = match edge.child {
                NONE => (0, edge.prior),
                c => {
                    let n = &self.nodes[c as usize];
                    (n.visits, team_value(n.total, n.visits, team))
                }
            };
            let better = match best {
                None => true,
                Some((_, bv, bq)) => visits > bv || (visits == bv && value > bq),
            };
            if better {
                best = Some((edge, visits, value));
            }
        }
        let (action, value) = match best {
            Some((edge, _, value)) => (edge.action.clone(), value),
            None => (legal.first()?.clone(), 0.5),
        };
        Some((
            action,
            SearchReport {
                iterations,
                nodes: self.nodes.len(),
                evaluations: self.evaluations,
                value,
            },
        ))
    }

    fn evaluate(&mut self, game: &G, team: Team) -> f64 {
        self.evaluations += 1;
        score(game, team)
    }

    fn iterate(&mut self, mut world: G, rng: &mut GameRng) {
        let mut path: Vec<u32> = vec![0];
        let mut node = 0u32;
        let leaf_score = loop {
            match world.to_act() {
                ToAct::Over { .. } => break self.evaluate(&world, Team(0)),
                ToAct::Chance => {
                    let Some(outcome) = world.sample_chance(rng) else {
                        break self.evaluate(&world, Team(0));
                    };
                    world.apply_unchecked(&outcome);
                    // Hidden-information trees follow what the searcher
                    // sees, so a draw it cannot see is one child.
                    let key = if G::HIDDEN_INFORMATION {
                        0
                    } else {
                        world.key()
                    };
                    let found = self.nodes[node as usize]
                        .edges
                        .iter()
                        .find(|e| e.chance && e.key == key)
                        .map(|e| e.child);
                    node = match found {
                        Some(child) => child,
                        None => {
                            let child = self.push_node();
                            self.nodes[node as usize].edges.push(Edge {
                                action: outcome,
                                key,
                                chance: true,
                                child,
                                prior: 0.5,
                            });
                            child
                        }
                    };
                    path.push(node);
                }
                ToAct::Player { player } => {
                    let team = world.seating().team(player).unwrap_or(Team(0));
                    if self.nodes[node as usize].visits == 0 && node != 0 {
                        break self.leaf(world, rng);
                    }
                    let Some(pick) = self.select(&world, node, team) else {
                        break self.evaluate(&world, Team(0));
                    };
                    let action = self.nodes[node as usize].edges[pick].action.clone();
                    world.apply_unchecked(&action);
                    let child = match self.nodes[node as usize].edges[pick].child {
                        NONE => {
                            let child = self.push_node();
                            self.nodes[node as usize].edges[pick].child = child;
                            child
                        }
                        c => c,
                    };
                    node = child;
                    path.push(node);
                }
            }
        };
        for &n in &path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            n.total += leaf_score;
        }
    }

    fn push_node(&mut self) -> u32 {
        self.nodes.push(Node::new());
        (self.nodes.len() - 1) as u32
    }

    /// Plays the rollout from a new leaf and evaluates it for team 0.
    fn leaf(&mut self, mut world: G, rng: &mut GameRng) -> f64 {
        for _ in 0..self.config.rollout {
            match world.to_act() {
                ToAct::Over { .. } => break,
                ToAct::Chance => match world.sample_chance(rng) {
                    Some(a) => world.apply_unchecked(&a),
                    None => break,
                },
                ToAct::Player { .. } => {
                    world.legal_actions(&mut self.actions);
                    let Some(a) = rng.choose(&self.actions).cloned() else {
                        break;
                    };
                    world.apply_unchecked(&a);
                }
            }
        }
        self.evaluate(&world, Team(0))
    }

    /// Adds edges for the legal actions of `world` not yet in `node` (all of
    /// them on the first visit), and picks the edge with the best bound.
    fn select(&mut self, world: &G, node: u32, team: Team) -> Option<usize> {
        let needs_legal = G::HIDDEN_INFORMATION || !self.nodes[node as usize].expanded;
        let mut legal = std::mem::take(&mut self.actions);
        if needs_legal {
            world.legal_actions(&mut legal);
            for action in &legal {
                let known = self.nodes[node as usize]
                    .edges
                    .iter()
                    .any(|e| !e.chance && &e.action == action);
                if !known {
                    let prior = if self.config.prior_weight > 0.0 {
                        let mut after = world.clone();
                        after.apply_unchecked(action);
                        self.evaluate(&after, team)
                    } else {
                        0.5
                    };
                    self.nodes[node as usize].edges.push(Edge {
                        action: action.clone(),
                        key: 0,
                        chance: false,
                        child: NONE,
                        prior,
                    });
                }
            }
            self.nodes[node as usize].expanded = true;
        }
        let n = &self.nodes[node as usize];
        let parent = f64::from(n.visits.max(1)).ln();
        let w = self.config.prior_weight;
        let c = self.config.exploration;
        let mut best = (None, f64::NEG_INFINITY);
        for (i, edge) in n.edges.iter().enumerate() {
            if edge.chance || (G::HIDDEN_INFORMATION && !legal.contains(&edge.action)) {
                continue;
            }
            let (visits, total) = match edge.child {
                NONE => (0.0, 0.0),
                ch => {
                    let child = &self.nodes[ch as usize];
                    let v = f64::from(child.visits);
                    (v, team_total(child.total, child.visits, team))
                }
            };
            let q = (total + w * edge.prior) / (visits + w).max(1e-9);
            let bound = q + c * ((parent + 1.0) / (visits + 1.0)).sqrt();
            // Ties break by a tiny jitter so equal actions are not always
            // tried in list order.
            let bound = bound + 1e-9 * (i as f64 * 0.618_033_988_75).fract();
            if bound > best.1 {
                best = (Some(i), bound);
            }
        }
        self.actions = legal;
        best.0
    }
}

fn team_total(total0: f64, visits: u32, team: Team) -> f64 {
    if team.0 == 0 {
        total0
    } else {
        f64::from(visits) - total0
    }
}

fn team_value(total0: f64, visits: u32, team: Team) -> f64 {
    if visits == 0 {
        0.5
    } else {
        team_total(total0, visits, team) / f64::from(visits)
    }
}
