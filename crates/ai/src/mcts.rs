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

use tabula_core::{ChanceModel, Game, GameRng, Player, Team, ToAct};

use crate::eval::{Evaluate, score};
use crate::level::{Budget, Choice};

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
    /// Independent trees searched at once (root parallelism): each runs
    /// its share of the iterations from its own seed drawn from the
    /// seat's stream, and their root statistics are summed.
    pub threads: u32,
    /// Progressive widening: a node visited `n` times lets only its
    /// `widening × √(n + 1)` best actions by their evaluation compete
    /// (0 lets every action compete from the start).
    pub widening: f64,
    /// How much of an action's value is the implicit minimax value of its
    /// result (the evaluations below it backed up by minimax) rather than
    /// the mean of its visits: 0 is plain UCT.
    pub implicit_minimax: f64,
    /// From a new leaf, the most decisions of the team to act there played
    /// by the greedy policy (the best action by the evaluation) before it
    /// is evaluated; the team's turn ends them sooner.
    pub greedy_rollout: u32,
    /// How many teams' turns the greedy completion may play (1: only the
    /// leaf's own team's).
    pub greedy_turns: u32,
    /// Hidden information: 0 searches one tree in which every iteration
    /// draws a fresh world from what the seat may see (single-observer
    /// information set MCTS); k > 0 is plain determinization: k trees (or
    /// `threads`, if more), each searching one world drawn at its start
    /// with its share of the iterations, their root visits summed. Games
    /// without hidden information ignore it.
    pub worlds: u32,
    /// At a node that continues its team's turn (the parent's decider is of
    /// the same team), how much of its value is the best of its actions'
    /// values rather than the mean of its visits: a turn of many decisions
    /// is one choice, so its later decisions are a max, not an average of
    /// the explored ones (0: plain mean).
    pub turn_max: f64,
    /// How the action played is picked from the root's searched actions.
    pub choice: Choice,
}

impl SearchConfig {
    /// The settings for `game` (its type's constants, and its mode's
    /// [`Evaluate::worlds`]) under `budget`.
    pub fn for_game<G: Evaluate>(game: &G, budget: Budget) -> Self {
        SearchConfig {
            budget,
            rollout: G::ROLLOUT,
            exploration: G::EXPLORATION,
            prior_weight: G::PRIOR_WEIGHT,
            threads: 1,
            widening: G::WIDENING,
            implicit_minimax: G::IMPLICIT_MINIMAX,
            greedy_rollout: G::GREEDY_ROLLOUT,
            greedy_turns: G::GREEDY_TURNS,
            worlds: game.worlds(),
            turn_max: G::TURN_MAX,
            choice: Choice::BEST,
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

/// One root action's statistics, for the final choice and for merging the
/// trees of a parallel search.
#[derive(Debug, Clone)]
struct RootStat<A> {
    action: A,
    visits: u32,
    /// The searcher's team's summed score over the visits.
    total: f64,
    /// The evaluation of the action's result (its value before any visit).
    prior: f64,
}

impl<A> RootStat<A> {
    fn value(&self) -> f64 {
        if self.visits == 0 {
            self.prior
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

/// A searched root action legal in the real state, drawn by `choice`;
/// `None` when none was searched.
fn draw<'s, A: PartialEq>(
    stats: &'s [RootStat<A>],
    legal: &[A],
    choice: Choice,
    rng: &mut GameRng,
) -> Option<&'s RootStat<A>> {
    let searched = || {
        stats
            .iter()
            .filter(|s| s.visits > 0 && legal.contains(&s.action))
    };
    // The best by visits, as the plain choice; its value sets the bar. An
    // action whose every visit was a win (a win on the spot, in every
    // world searched) is never passed up for a merely near one: the
    // search's own evidence, so nothing hidden is read.
    let top = searched().max_by_key(|s| s.visits)?;
    let sure = searched().any(|s| s.total >= f64::from(s.visits));
    let bar = if sure {
        1.0
    } else {
        top.value() - choice.margin
    };
    let near = || searched().filter(move |s| s.value() >= bar);
    // Relative to the most visits, so the powers stay within range.
    let most = f64::from(top.visits);
    let weight = |s: &RootStat<A>| (f64::from(s.visits) / most).powf(1.0 / choice.temperature);
    let total: f64 = near().map(weight).sum();
    let mut left = rng.unit_f64() * total;
    let mut last = None;
    for stat in near() {
        left -= weight(stat);
        last = Some(stat);
        if left < 0.0 {
            break;
        }
    }
    last.or(Some(top))
}

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
    /// Team 0's score by the evaluations below this node backed up by
    /// minimax (each decider takes its team's best; chance by the visits'
    /// mean): the implicit minimax value.
    minimax: f64,
    /// The team deciding here (player nodes), for the minimax backup.
    team: Option<Team>,
    /// Whether the parent's decider is of the same team (this node
    /// continues that team's turn).
    continues: bool,
    /// Team 0's value of this node for its parent: the mean of its visits,
    /// or at a node that continues a turn, mixed with its best action's.
    value: f64,
}

impl<A> Node<A> {
    fn new() -> Self {
        Node {
            visits: 0,
            total: 0.0,
            edges: Vec::new(),
            expanded: false,
            minimax: 0.5,
            team: None,
            continues: false,
            value: 0.5,
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
        let team = game.seating().team(me)?;
        let (stats, report) = if self.trees() > 1 {
            self.grow_parallel(game, me, team, rng)
        } else {
            let iterations = self.grow(game, me, rng);
            let report = SearchReport {
                iterations,
                nodes: self.nodes.len(),
                evaluations: self.evaluations,
                value: 0.5,
            };
            (self.root_stats(team), report)
        };
        if self.config.choice.temperature > 0.0
            && let Some(stat) = draw(&stats, &legal, self.config.choice, rng)
        {
            let (action, value) = (stat.action.clone(), stat.value());
            return Some((action, SearchReport { value, ..report }));
        }
        // The most searched action that is legal in the real state (every
        // world keeps `me`'s own options, but be sure).
        let mut best: Option<&RootStat<G::Action>> = None;
        for stat in &stats {
            if !legal.contains(&stat.action) {
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => {
                    stat.visits > b.visits || (stat.visits == b.visits && stat.value() > b.value())
                }
            };
            if better {
                best = Some(stat);
            }
        }
        let (action, value) = match best {
            Some(stat) => (stat.action.clone(), stat.value()),
            None => (legal.first()?.clone(), 0.5),
        };
        Some((action, SearchReport { value, ..report }))
    }

    /// How many trees a decision searches: `threads`, or under
    /// determinization one a world if there are more worlds.
    fn trees(&self) -> u32 {
        let worlds = if G::HIDDEN_INFORMATION {
            self.config.worlds
        } else {
            0
        };
        self.config.threads.max(worlds).max(1)
    }

    /// Runs the iterations of one tree from `game`; returns how many ran.
    fn grow(&mut self, game: &G, me: Player, rng: &mut GameRng) -> u32 {
        self.nodes.clear();
        self.nodes.push(Node::new());
        self.evaluations = 0;
        let start = Instant::now();
        let fixed =
            (G::HIDDEN_INFORMATION && self.config.worlds > 0).then(|| game.determinize(me, rng));
        let mut iterations = 0;
        while iterations < self.config.budget.iterations {
            if let Some(limit) = self.config.budget.time
                && iterations > 0
                && start.elapsed() >= limit
            {
                break;
            }
            let world = match &fixed {
                Some(world) => world.clone(),
                None if G::HIDDEN_INFORMATION => game.determinize(me, rng),
                None => game.clone(),
            };
            self.iterate(world, rng);
            iterations += 1;
        }
        iterations
    }

    /// The root's player edges: visits and `team`'s summed score.
    fn root_stats(&self, team: Team) -> Vec<RootStat<G::Action>> {
        let root = &self.nodes[0];
        root.edges
            .iter()
            .filter(|e| !e.chance)
            .map(|edge| match edge.child {
                NONE => RootStat {
                    action: edge.action.clone(),
                    visits: 0,
                    total: 0.0,
                    prior: edge.prior,
                },
                c => {
                    let n = &self.nodes[c as usize];
                    RootStat {
                        action: edge.action.clone(),
                        visits: n.visits,
                        total: team_total(n.total, n.visits, team),
                        prior: edge.prior,
                    }
                }
            })
            .collect()
    }

    /// Root parallelism: `threads` trees, each with its share of the
    /// iterations and a seed drawn in order from `rng`, searched at once;
    /// their root statistics are summed in tree order, so the result
    /// depends only on the seed, the thread count and the budget.
    fn grow_parallel(
        &mut self,
        game: &G,
        me: Player,
        team: Team,
        rng: &mut GameRng,
    ) -> (Vec<RootStat<G::Action>>, SearchReport) {
        let threads = self.trees();
        let share = self.config.budget.iterations.div_ceil(threads);
        let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
        let config = SearchConfig {
            threads: 1,
            budget: Budget {
                iterations: share,
                ..self.config.budget
            },
            ..self.config
        };
        let results: Vec<(Vec<RootStat<G::Action>>, SearchReport)> = std::thread::scope(|scope| {
            let handles: Vec<_> = seeds
                .iter()
                .map(|&seed| {
                    scope.spawn(move || {
                        let mut tree = Search::<G>::new(config);
                        let mut rng = GameRng::from_seed(tabula_core::Seed(seed));
                        let iterations = tree.grow(game, me, &mut rng);
                        let report = SearchReport {
                            iterations,
                            nodes: tree.nodes.len(),
                            evaluations: tree.evaluations,
                            value: 0.5,
                        };
                        (tree.root_stats(team), report)
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut merged: Vec<RootStat<G::Action>> = Vec::new();
        let mut report = SearchReport::default();
        for (stats, r) in results {
            report.iterations += r.iterations;
            report.nodes += r.nodes;
            report.evaluations += r.evaluations;
            for stat in stats {
                match merged.iter_mut().find(|m| m.action == stat.action) {
                    Some(m) => {
                        m.visits += stat.visits;
                        m.total += stat.total;
                    }
                    None => merged.push(stat),
                }
            }
        }
        (merged, report)
    }

    fn evaluate(&mut self, game: &G, team: Team) -> f64 {
        self.evaluations += 1;
        score(game, team)
    }

    /// The value for `team` of the state an action led to: where that is a
    /// roll with exact odds and the game asks for it
    /// ([`Evaluate::EXPECTED_CHANCE`]), the expectation over the outcomes,
    /// each distinct result (by key) evaluated once.
    fn judge(&mut self, after: &G, team: Team) -> f64 {
        if G::EXPECTED_CHANCE
            && let ChanceModel::Exact(outcomes) = after.chance()
        {
            let mut seen: Vec<(u64, f64)> = Vec::new();
            let mut sum = 0.0;
            for (outcome, p) in &outcomes {
                let mut next = after.clone();
                next.apply_unchecked(outcome);
                let key = next.key();
                let v = match seen.iter().find(|(k, _)| *k == key) {
                    Some(&(_, v)) => v,
                    None => {
                        let v = self.evaluate(&next, team);
                        seen.push((key, v));
                        v
                    }
                };
                sum += p.to_f64() * v;
            }
            return sum;
        }
        self.evaluate(after, team)
    }

    fn iterate(&mut self, mut world: G, rng: &mut GameRng) {
        let mut path: Vec<u32> = vec![0];
        let mut node = 0u32;
        // The team that decided at the parent node (none after chance).
        let mut parent_team: Option<Team> = None;
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
                    parent_team = None;
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
                    if node != 0 && parent_team == Some(team) {
                        self.nodes[node as usize].continues = true;
                    }
                    parent_team = Some(team);
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
        if let Some(&last) = path.last() {
            let leaf = &mut self.nodes[last as usize];
            if leaf.edges.is_empty() {
                leaf.minimax = leaf_score;
            }
        }
        let implicit = self.config.implicit_minimax > 0.0;
        for &n in path.iter().rev() {
            {
                let node = &mut self.nodes[n as usize];
                node.visits += 1;
                node.total += leaf_score;
            }
            if implicit {
                self.back_up_minimax(n);
            }
            self.back_up_value(n);
        }
    }

    /// Recomputes `n`'s value for its parent: the mean of its visits, mixed
    /// at a node continuing its team's turn with its best visited action's
    /// value (by `turn_max`).
    fn back_up_value(&mut self, n: u32) {
        let node = &self.nodes[n as usize];
        let mean = node.total / f64::from(node.visits.max(1));
        let beta = self.config.turn_max;
        let value = match node.team {
            Some(team) if node.continues && beta > 0.0 => {
                let best = node
                    .edges
                    .iter()
                    .filter(|e| !e.chance && e.child != NONE)
                    .map(|e| &self.nodes[e.child as usize])
                    .filter(|c| c.visits > 0)
                    .map(|c| team_of(c.value, team))
                    .fold(None, |b: Option<f64>, v| Some(b.map_or(v, |b| b.max(v))));
                match best {
                    Some(b) => team_of((1.0 - beta) * team_of(mean, team) + beta * b, team),
                    None => mean,
                }
            }
            _ => mean,
        };
        self.nodes[n as usize].value = value;
    }

    /// Recomputes `n`'s minimax value from its children's (an unvisited
    /// action counts as its evaluation).
    fn back_up_minimax(&mut self, n: u32) {
        let node = &self.nodes[n as usize];
        let mut best: Option<f64> = None;
        let (mut weighted, mut weight) = (0.0, 0.0);
        for edge in &node.edges {
            let child = (edge.child != NONE).then(|| &self.nodes[edge.child as usize]);
            if edge.chance {
                if let Some(c) = child.filter(|c| c.visits > 0) {
                    weighted += f64::from(c.visits) * c.minimax;
                    weight += f64::from(c.visits);
                }
                continue;
            }
            let Some(team) = node.team else { continue };
            let mine = match child {
                Some(c) if c.visits > 0 => team_of(c.minimax, team),
                _ => edge.prior,
            };
            best = Some(best.map_or(mine, |b: f64| b.max(mine)));
        }
        let value = match (best, node.team) {
            (Some(b), Some(team)) => team_of(b, team),
            _ if weight > 0.0 => weighted / weight,
            _ => return,
        };
        self.nodes[n as usize].minimax = value;
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
        // Finish the turn of the team at the leaf with the greedy policy, so
        // a leaf in the middle of a many-decision turn is judged by the turn
        // played on sensibly, not by its half-played state.
        let mut current = match world.to_act() {
            ToAct::Player { player } => world.seating().team(player),
            _ => None,
        };
        let mut turns = 1;
        let mut actions = std::mem::take(&mut self.actions);
        for _ in 0..self.config.greedy_rollout {
            let ToAct::Player { player } = world.to_act() else {
                break;
            };
            let Some(team) = world.seating().team(player) else {
                break;
            };
            if Some(team) != current {
                if turns >= self.config.greedy_turns {
                    break;
                }
                turns += 1;
                current = Some(team);
            }
            world.legal_actions(&mut actions);
            let mut best: Option<(usize, f64)> = None;
            for (i, a) in actions.iter().enumerate() {
                let mut after = world.clone();
                after.apply_unchecked(a);
                let v = self.judge(&after, team);
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
            let Some((i, _)) = best else { break };
            let a = actions[i].clone();
            world.apply_unchecked(&a);
        }
        self.actions = actions;
        self.evaluate(&world, Team(0))
    }

    /// Adds edges for the legal actions of `world` not yet in `node` (all of
    /// them on the first visit), and picks the edge with the best bound.
    fn select(&mut self, world: &G, node: u32, team: Team) -> Option<usize> {
        self.nodes[node as usize].team = Some(team);
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
                        self.judge(&after, team)
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
            if self.config.widening > 0.0 {
                // Best first, so widening admits actions in that order.
                self.nodes[node as usize]
                    .edges
                    .sort_by(|a, b| a.chance.cmp(&b.chance).then(b.prior.total_cmp(&a.prior)));
            }
        }
        let n = &self.nodes[node as usize];
        let admitted = if self.config.widening > 0.0 {
            (self.config.widening * f64::from(n.visits + 1).sqrt()).ceil() as usize
        } else {
            usize::MAX
        };
        let mut competing = 0usize;
        let alpha = self.config.implicit_minimax;
        let parent = f64::from(n.visits.max(1)).ln();
        let w = self.config.prior_weight;
        let c = self.config.exploration;
        let mut best = (None, f64::NEG_INFINITY);
        for (i, edge) in n.edges.iter().enumerate() {
            if edge.chance || (G::HIDDEN_INFORMATION && !legal.contains(&edge.action)) {
                continue;
            }
            if competing >= admitted {
                break;
            }
            competing += 1;
            let (visits, total, minimax) = match edge.child {
                NONE => (0.0, 0.0, edge.prior),
                ch => {
                    let child = &self.nodes[ch as usize];
                    let v = f64::from(child.visits);
                    let minimax = if child.visits > 0 {
                        team_of(child.minimax, team)
                    } else {
                        edge.prior
                    };
                    (v, v * team_of(child.value, team), minimax)
                }
            };
            let mean = (total + w * edge.prior) / (visits + w).max(1e-9);
            let q = (1.0 - alpha) * mean + alpha * minimax;
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

/// Team 0's score `zero` as `team`'s.
fn team_of(zero: f64, team: Team) -> f64 {
    if team.0 == 0 { zero } else { 1.0 - zero }
}

fn team_total(total0: f64, visits: u32, team: Team) -> f64 {
    if team.0 == 0 {
        total0
    } else {
        f64::from(visits) - total0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(action: u8, visits: u32, value: f64) -> RootStat<u8> {
        RootStat {
            action,
            visits,
            total: value * f64::from(visits),
            prior: 0.5,
        }
    }

    /// How often each of the actions 0..4 is drawn over 2,000 draws.
    fn counts(stats: &[RootStat<u8>], legal: &[u8], temperature: f64, margin: f64) -> [u32; 4] {
        let choice = Choice {
            temperature,
            margin,
        };
        let mut rng = GameRng::from_seed(tabula_core::Seed(9));
        let mut counts = [0; 4];
        for _ in 0..2000 {
            let drawn = draw(stats, legal, choice, &mut rng).unwrap();
            counts[usize::from(drawn.action)] += 1;
        }
        counts
    }

    #[test]
    fn a_drawn_action_is_near_the_best_and_drawn_by_its_visits() {
        // 0 is the most searched; 1 is nearly as good; 2 is searched
        // almost as much but clearly worse; 3 was never searched.
        let stats = [
            stat(0, 400, 0.70),
            stat(1, 200, 0.66),
            stat(2, 380, 0.50),
            stat(3, 0, 0.99),
        ];
        let legal = [0, 1, 2, 3];
        let c = counts(&stats, &legal, 1.0, 0.08);
        assert_eq!((c[2], c[3]), (0, 0), "{c:?}");
        // Visits 400 : 200, so about two to one.
        assert!((1250..1420).contains(&c[0]), "{c:?}");
        // A lower temperature sharpens it: 400² : 200², four to one.
        let sharp = counts(&stats, &legal, 0.5, 0.08);
        assert!((1520..1680).contains(&sharp[0]), "{sharp:?}");
        // With a wide margin the worse action is drawn by its visits too.
        let wide = counts(&stats, &legal, 1.0, 0.3);
        assert!((700..850).contains(&wide[2]), "{wide:?}");
        // An action that won every visit is the only kind drawn.
        let won = [stat(0, 400, 0.97), stat(1, 30, 1.0), stat(2, 300, 0.95)];
        let sure = counts(&won, &legal, 1.0, 0.2);
        assert_eq!(sure[1], 2000, "{sure:?}");
        // An action not legal in the real state is never drawn.
        let only = counts(&stats, &[1, 2], 1.0, 0.3);
        assert_eq!((only[0], only[3]), (0, 0), "{only:?}");
    }
}
