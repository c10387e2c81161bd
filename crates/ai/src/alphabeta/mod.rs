//! Alpha-beta search for the deterministic two-player games (chess and
//! Chess 13: Epoch): principal variation search under iterative deepening
//! with aspiration windows, a Zobrist-keyed transposition table, quiescence
//! over the tactical moves, check extensions, null-move pruning where the
//! game allows it and late-move reductions.
//!
//! The search is generic over [`Node`]: a position that copies cheaply and
//! knows its moves, its keys and its evaluation. Each game's rules that
//! search must respect (what a side with no legal move gets, what a
//! repetition means) are [`Node`] constants and methods, so nothing here
//! knows a chess rule.

/// Declares an evaluation's weights once: the struct, the kept values and
/// the names a tuner reads and writes them by (the `texel` example).
macro_rules! weights {
    ($(#[doc = $what:literal])* $struct:ident, $kept:ident;
     $($(#[doc = $doc:literal])* $name:ident: $value:expr,)*) => {
        $(#[doc = $what])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $struct {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        /// The weights the engine plays with.
        pub const $kept: $struct = $struct { $($name: $value,)* };

        impl $struct {
            /// Every weight's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Every weight, in the order of `NAMES`, for a tuner.
            pub fn values_mut(&mut self) -> Vec<&mut i32> {
                vec![$(&mut self.$name),*]
            }
        }
    };
}

pub mod chess;
pub mod epd;
pub mod epoch;
mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use chess::ChessNode;
pub use epoch::{EpochNode, SWAP_MARGIN};
use tt::{Bound, Table};

/// A score: centipawns from the side to move's view, or a win in so many
/// plies near [`MATE`].
pub type Score = i32;

/// The score of a win on the spot; a win in `n` plies is `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores beyond this are wins or losses found by search.
pub const MATE_BOUND: Score = MATE - 1_000;
const INF: Score = MATE + 1;
const MAX_PLY: usize = 128;

/// What the side to move gets when it has no legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result3 {
    /// It loses (chess and Epoch mate).
    Loss,
    /// Drawn (chess stalemate).
    Draw,
    /// It wins (Epoch's "no legal move wins").
    Win,
}

/// What a repeated position means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repetition {
    /// A repetition is a draw: search scores the first repetition along
    /// its line as one, as chess engines do (the opponent can repeat again).
    Draw,
    /// The move that makes a position occur the third time loses (Epoch).
    ThirdLoses,
}

/// A position as the search sees it.
pub trait Node: Copy {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug;
    /// Whether null-move pruning is sound: passing must never be worse than
    /// the best move, which Epoch's "no legal move wins" rule breaks.
    const NULL_MOVE: bool;
    /// Whether the shallow static prunings (reverse futility, razoring,
    /// futility and late-move pruning) are used (measured with `ab_match` for both games).
    const STATIC_PRUNING: bool;
    /// The repetition rule.
    const REPETITION: Repetition;
    /// The size of the history table ([`Node::history_index`] stays below it).
    const HISTORY: usize;

    /// Every legal move of the side to move into `out` (cleared first).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// The legal tactical moves (those [`Node::tactical`] names) into `out`:
    /// a game may generate them without the quiet ones.
    fn tactical_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&mv| self.tactical(mv).is_some());
    }
    /// Whether the side to move has a legal move.
    fn has_moves(&self) -> bool {
        let mut out = Vec::new();
        self.legal_moves(&mut out);
        !out.is_empty()
    }
    /// The position after `mv`, and whether the move was irreversible (no
    /// earlier position can come back).
    fn play(&self, mv: Self::Move) -> (Self, bool);
    /// The position after passing, for null-move pruning (only called when
    /// [`Node::NULL_MOVE`]).
    fn pass(&self) -> Self;
    /// The transposition key.
    fn key(&self) -> u64;
    /// The key positions are compared by for repetition.
    fn repetition_key(&self) -> u64;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// What the side to move gets with no legal move.
    fn no_moves(&self) -> Result3;
    /// Whether the game is drawn here whatever is played (no-progress
    /// limit, bare material).
    fn drawn(&self) -> bool;
    /// The static evaluation, centipawns, from the side to move's view.
    fn evaluate(&self) -> Score;
    /// `Some(gain)` for a tactical move (captures, blasts, promotions):
    /// most valuable victim first, least valuable attacker next.
    fn tactical(&self, mv: Self::Move) -> Option<Score>;
    /// The move's slot in the history table.
    fn history_index(&self, mv: Self::Move) -> usize;
    /// Whether the side to move has more than pawns and its king, so a pass
    /// is unlikely to be its best move.
    fn has_pieces(&self) -> bool;
    /// Whether the side to move, with `moves` legal moves, may be in
    /// zugzwang (every move worse than a pass): reverse futility, which
    /// assumes it holds its static score as a pass would, is then off.
    fn zugzwang_possible(&self, _moves: usize) -> bool {
        false
    }
    /// Whether a tactical move loses material once the exchange on its
    /// square is played out (static exchange evaluation); a game without one
    /// answers `false`, so no capture is taken for a losing one.
    fn losing_exchange(&self, _mv: Self::Move) -> bool {
        false
    }
}

/// How long a search may run. Every bound given applies; none at all means
/// until [`Limits::stop`] is raised (`go infinite`).
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most nodes (checked every few hundred nodes, so a search may
    /// overrun it a little; the same count gives the same move).
    pub nodes: Option<u64>,
    /// Stop at once past this.
    pub hard_time: Option<Duration>,
    /// Start no new iteration past this (time management's target).
    pub soft_time: Option<Duration>,
    /// Raised from another thread to stop the search: it answers within a
    /// few milliseconds with the best move so far.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Search exactly `depth` plies (plus extensions and quiescence).
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed time a move, all of it used: time not spent on this move is
    /// not saved for a later one, so iterations go on until it is up (an
    /// interrupted iteration still counts where it changed the best move).
    pub fn move_time(time: Duration) -> Limits {
        // A little is kept back for the answer to travel.
        let t = time
            .saturating_sub(Duration::from_millis(10))
            .max(Duration::from_millis(1));
        Limits {
            hard_time: Some(t),
            soft_time: None,
            ..Limits::default()
        }
    }

    /// A clock with `remaining` time and `increment` a move; `moves_to_go`
    /// moves to the next time control, if any.
    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
        let left = remaining.saturating_sub(Duration::from_millis(30));
        let parts = moves_to_go.map_or(30, |m| m.clamp(1, 30) + 1);
        let target = left / parts + increment.mul_f64(0.8);
        let hard = (target * 3).min(left / 3).max(Duration::from_millis(1));
        Limits {
            hard_time: Some(hard),
            soft_time: Some(target.min(hard)),
            ..Limits::default()
        }
    }
}

/// What one completed iteration found (the `info` line of UCI).
#[derive(Debug, Clone)]
pub struct Info<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<M>,
}

impl<M> Info<M> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }

    /// Plies to the win (positive) or loss (negative) the score announces,
    /// if it is one.
    pub fn mate_in_plies(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }
}

/// Where a search starts: the position and the repetition keys of the
/// positions before it that can still repeat (oldest first, the root's own
/// key last).
#[derive(Debug, Clone)]
pub struct Root<N> {
    /// The position to move from.
    pub node: N,
    /// Earlier keys since the last irreversible move, the root's last.
    pub history: Vec<u64>,
}

impl<N: Node> Root<N> {
    /// A root with no history.
    pub fn new(node: N) -> Root<N> {
        Root {
            history: vec![node.repetition_key()],
            node,
        }
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome<M> {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<M>,
    /// The last completed iteration.
    pub info: Info<M>,
}

/// The search and its tables, kept between moves of one game.
pub struct Engine<N: Node> {
    table: Table<N::Move>,
    killers: Vec<[Option<N::Move>; 2]>,
    /// The reply that refuted each move last (by the move's history slot).
    counters: Vec<Option<N::Move>>,
    /// The move played at each ply of the current line (`None`: a pass).
    line: Vec<Option<N::Move>>,
    history: Vec<i32>,
    buffers: Vec<Vec<N::Move>>,
    keys: Vec<u64>,
    /// Where the reversible stretch of `keys` begins, per ply.
    starts: Vec<usize>,
    nodes: u64,
    seldepth: u32,
    started: Instant,
    limits: Limits,
    stopped: bool,
    pv: Vec<Vec<N::Move>>,
    /// The static evaluation along the line, per ply (for `improving`).
    evals: Vec<Score>,
}

/// Nodes between looks at the clock and the stop flag.
const POLL: u64 = 512;

impl<N: Node> Engine<N> {
    /// An engine with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine<N> {
        Engine {
            table: Table::new(hash_mb),
            killers: vec![[None; 2]; MAX_PLY + 1],
            counters: vec![None; N::HISTORY],
            line: vec![None; MAX_PLY + 1],
            history: vec![0; N::HISTORY],
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            keys: Vec::new(),
            starts: Vec::new(),
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            limits: Limits::default(),
            stopped: false,
            pv: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![0; MAX_PLY + 1],
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.counters.iter_mut().for_each(|c| *c = None);
    }

    /// Resizes the transposition table (and clears it).
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.table = Table::new(hash_mb);
    }

    /// The quiescence score of `node` alone (a full window, no history):
    /// its static evaluation once the tactical moves are played out. A
    /// tuner keeps the positions where the two agree (quiet positions).
    pub fn quiescence(&mut self, node: &N) -> Score {
        self.started = Instant::now();
        self.limits = Limits::default();
        self.nodes = 0;
        self.stopped = false;
        self.keys.clear();
        self.starts.clear();
        self.keys.push(node.repetition_key());
        self.starts.push(0);
        self.quiesce(node, -INF, INF, 0, 0)
    }

    /// Searches `root` within `limits`, calling `report` after each
    /// completed iteration.
    pub fn search(
        &mut self,
        root: &Root<N>,
        limits: Limits,
        mut report: impl FnMut(&Info<N::Move>),
    ) -> Outcome<N::Move> {
        self.started = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.stopped = false;
        self.table.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for h in &mut self.history {
            *h /= 8;
        }
        self.keys.clear();
        self.keys.extend_from_slice(&root.history);
        if self.keys.last() != Some(&root.node.repetition_key()) {
            self.keys.push(root.node.repetition_key());
        }
        self.starts.clear();
        self.starts.push(0);

        self.evals[0] = if root.node.in_check() {
            -INF
        } else {
            root.node.evaluate()
        };
        let mut moves = Vec::new();
        root.node.legal_moves(&mut moves);
        let mut info = Info {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        };
        let Some(&first) = moves.first() else {
            return Outcome { best: None, info };
        };
        let mut best = first;
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .min(MAX_PLY as u32 - 8);
        let mut score: Score = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            // Aspiration: a narrow window around the last score, widened on failure.
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 4 && score.abs() < MATE_BOUND {
                (score - delta, score + delta)
            } else {
                (-INF, INF)
            };
            let found = loop {
                let s = self.search_root(&root.node, &mut moves, depth as i32, alpha, beta);
                if self.stopped {
                    break None;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-INF);
                    delta *= 3;
                } else if s >= beta {
                    beta = (beta + delta).min(INF);
                    delta *= 3;
                } else {
                    break Some(s);
                }
            };
            let Some(s) = found else {
                // An interrupted iteration searched the previous best move
                // first; a move moved to the front since then beat it.
                best = moves[0];
                break;
            };
            score = s;
            best = moves[0];
            info = Info {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes,
                time: self.started.elapsed(),
                pv: self.pv[0].clone(),
            };
            if info.pv.first() != Some(&best) {
                info.pv = vec![best];
            }
            report(&info);
            if moves.len() == 1 && self.limits.depth.is_none() {
                break;
            }
            if let Some(soft) = self.limits.soft_time
                && self.started.elapsed() > soft.mul_f64(0.55)
            {
                break;
            }
            if score.abs() > MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 2 {
                // A proven result: deeper iterations only confirm it.
                if self.limits.depth.is_none() {
                    break;
                }
            }
        }
        info.nodes = self.nodes;
        info.time = self.started.elapsed();
        Outcome {
            best: Some(best),
            info,
        }
    }

    fn poll(&mut self) {
        if !self.nodes.is_multiple_of(POLL) {
            return;
        }
        if let Some(stop) = &self.limits.stop
            && stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
        if let Some(t) = self.limits.hard_time
            && self.started.elapsed() >= t
        {
            self.stopped = true;
        }
    }

    /// The root: moves ordered by the last iteration (best first), the
    /// best moved to the front as soon as it is found.
    fn search_root(
        &mut self,
        node: &N,
        moves: &mut [N::Move],
        depth: i32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        let mut best = -INF;
        self.pv[0].clear();
        for i in 0..moves.len() {
            let mv = moves[i];
            let (child, irreversible) = node.play(mv);
            self.nodes += 1;
            self.line[0] = Some(mv);
            let gives_check = child.in_check();
            let ext = i32::from(gives_check);
            self.push(child.repetition_key(), irreversible);
            let s = if i == 0 {
                -self.pvs(&child, depth - 1 + ext, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.pvs(&child, depth - 1 + ext, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.pvs(&child, depth - 1 + ext, -beta, -alpha, 1, true);
                }
                s
            };
            self.pop();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    // Best first for the next iteration.
                    moves[..=i].rotate_right(1);
                    self.set_pv(0, mv);
                }
                if s >= beta {
                    break;
                }
            }
        }
        if !self.stopped && best > -INF {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table
                .store(node.key(), Some(moves[0]), to_tt(best, 0), depth, bound);
        }
        best
    }

    fn push(&mut self, key: u64, irreversible: bool) {
        let start = if irreversible {
            self.keys.len()
        } else {
            *self.starts.last().unwrap_or(&0)
        };
        self.keys.push(key);
        self.starts.push(start);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.starts.pop();
    }

    /// The repetition verdict for the position just pushed: `Some(score)`
    /// from its side to move's view.
    fn repetition(&self, ply: usize) -> Option<Score> {
        let start = *self.starts.last()?;
        let (&key, earlier) = self.keys[start..].split_last()?;
        match N::REPETITION {
            Repetition::Draw => earlier
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&k| k == key)
                .then_some(0),
            Repetition::ThirdLoses => {
                // The mover made the third occurrence: the side now to move wins.
                (earlier.iter().filter(|&&k| k == key).count() >= 2).then_some(MATE - ply as Score)
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: N::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = tail.first() {
            line.extend_from_slice(child);
        }
    }

    fn pvs(
        &mut self,
        node: &N,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv: bool,
    ) -> Score {
        self.pv[ply].clear();
        self.poll();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(s) = self.repetition(ply) {
            // The no-progress draw is read before the repetition (the rules' order).
            return if node.drawn() { 0 } else { s };
        }
        if ply >= MAX_PLY - 1 {
            return node.evaluate();
        }
        if depth <= 0 {
            return self.quiesce(node, alpha, beta, ply, 0);
        }
        // Mate distance pruning: no line from here beats a win already in hand.
        alpha = alpha.max(-MATE + ply as Score);
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = node.key();
        let mut tt_move = None;
        if let Some(e) = self.table.probe(key) {
            tt_move = e.mv;
            let s = from_tt(e.score, ply);
            if !pv && e.depth >= depth {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        // Internal iterative reduction: no move from the table, so this
        // node was not searched before; a shallower look costs less.
        let depth = if tt_move.is_none() && depth >= 4 {
            depth - 1
        } else {
            depth
        };

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        node.legal_moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return terminal(node.no_moves(), ply);
        }
        if node.drawn() {
            self.buffers[ply] = moves;
            return 0;
        }
        let in_check = node.in_check();
        let eval = if in_check { -INF } else { node.evaluate() };
        self.evals[ply] = eval;
        // Better than two plies ago: cuts are likelier, so prune harder.
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let prune = N::STATIC_PRUNING && !pv && !in_check;

        // Reverse futility: so far above beta that a shallow search will not fall below it.
        if prune
            && depth <= 6
            && !node.zugzwang_possible(moves.len())
            && beta.abs() < MATE_BOUND
            && eval - 90 * depth + 40 * Score::from(improving) >= beta
        {
            self.buffers[ply] = moves;
            return eval;
        }
        // Razoring: so far below alpha that only a capture can save it.
        if prune && depth <= 2 && alpha.abs() < MATE_BOUND && eval + 250 * depth <= alpha {
            self.buffers[ply] = moves;
            let s = self.quiesce(node, alpha, alpha + 1, ply, 0);
            if self.stopped {
                return 0;
            }
            if s <= alpha {
                return s;
            }
            moves = std::mem::take(&mut self.buffers[ply]);
            node.legal_moves(&mut moves);
        }

        // Null move: if passing still holds beta, a real move will too.
        if N::NULL_MOVE
            && !pv
            && !in_check
            && depth >= 3
            && node.has_pieces()
            && beta.abs() < MATE_BOUND
            && eval >= beta
        {
            let r = 2 + depth / 4;
            let child = node.pass();
            self.line[ply] = None;
            self.push(child.repetition_key(), true);
            let s = -self.pvs(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.pop();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if s >= beta {
                self.buffers[ply] = moves;
                return if s > MATE_BOUND { beta } else { s };
            }
        }

        self.order(node, &mut moves, tt_move, ply);
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Futility: quiet moves cannot lift a position this far below alpha.
        let futile =
            prune && depth <= 3 && alpha.abs() < MATE_BOUND && eval + 60 + 110 * depth <= alpha;
        // Late-move pruning: at shallow depth the late quiet moves are not searched.
        let late = (3 + depth * depth) as usize * if improving { 2 } else { 1 };
        let mut quiets = 0usize;
        // The quiet moves searched here, to lower their history on a cut.
        let mut tried = [0usize; 32];
        let mut tried_len = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let tactical = node.tactical(mv).is_some();
            let (child, irreversible) = node.play(mv);
            let gives_check = child.in_check();
            if !tactical && !gives_check {
                quiets += 1;
                if i > 0 && prune && best > -MATE_BOUND && (futile || (depth <= 3 && quiets > late))
                {
                    continue;
                }
            }
            self.nodes += 1;
            self.line[ply] = Some(mv);
            // Check extension, bounded so checks cannot run the line forever.
            let ext = i32::from(gives_check && ply < 2 * depth as usize + 8);
            self.push(child.repetition_key(), irreversible);
            let new_depth = depth - 1 + ext;
            let s = if i == 0 {
                -self.pvs(&child, new_depth, -beta, -alpha, ply + 1, pv)
            } else {
                // Late quiet moves are searched shallower first.
                let reduce = if depth >= 3 && i >= 3 && !tactical && !in_check && !gives_check {
                    let r = 1 + i32::from(i >= 8) + i32::from(depth >= 6 && i >= 16);
                    r.min(new_depth - 1).max(0)
                } else {
                    0
                };
                let mut s = -self.pvs(
                    &child,
                    new_depth - reduce,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if s > alpha && reduce > 0 && !self.stopped {
                    s = -self.pvs(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv && !self.stopped {
                    s = -self.pvs(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.pop();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if !tactical && tried_len < tried.len() && s < beta {
                tried[tried_len] = node.history_index(mv);
                tried_len += 1;
            }
            if s > best {
                best = s;
                best_move = Some(mv);
                if s > alpha {
                    alpha = s;
                    if pv {
                        self.set_pv(ply, mv);
                    }
                    if s >= beta {
                        if !tactical {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[node.history_index(mv)];
                            *h = (*h + depth * depth).min(1 << 20);
                            for &slot in &tried[..tried_len] {
                                let h = &mut self.history[slot];
                                *h = (*h - depth * depth).max(-(1 << 20));
                            }
                            if let Some(prev) = self.line[ply - 1] {
                                self.counters[node.history_index(prev)] = Some(mv);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    fn order(&self, node: &N, moves: &mut [N::Move], tt_move: Option<N::Move>, ply: usize) {
        let killers = self.killers[ply];
        let counter = ply
            .checked_sub(1)
            .and_then(|p| self.line[p])
            .and_then(|prev| self.counters[node.history_index(prev)]);
        let mut scored: Vec<(Score, N::Move)> = moves
            .iter()
            .map(|&mv| {
                let s = if Some(mv) == tt_move {
                    i32::MAX
                } else if let Some(gain) = node.tactical(mv) {
                    if node.losing_exchange(mv) {
                        // After the quiet moves: it gives material away.
                        gain.clamp(-(1 << 20), 1 << 20) - (1 << 24)
                    } else {
                        1 << 28 | (gain + (1 << 20)).clamp(0, 1 << 27)
                    }
                } else if Some(mv) == killers[0] {
                    1 << 27
                } else if Some(mv) == killers[1] {
                    (1 << 27) - 1
                } else if Some(mv) == counter {
                    1 << 26
                } else {
                    self.history[node.history_index(mv)]
                };
                (s, mv)
            })
            .collect();
        scored.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (slot, (_, mv)) in moves.iter_mut().zip(scored) {
            *slot = mv;
        }
    }

    /// Tactical moves only, until the position is quiet; every move when
    /// in check (a few plies deep at most).
    fn quiesce(&mut self, node: &N, mut alpha: Score, beta: Score, ply: usize, qply: u32) -> Score {
        self.pv[ply].clear();
        self.poll();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return node.evaluate();
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let check = node.in_check();
        if check {
            node.legal_moves(&mut moves);
        } else {
            // Out of check only the tactical moves are searched; whether
            // there is any move at all is asked only when none is tactical.
            node.tactical_moves(&mut moves);
        }
        if moves.is_empty() && (check || !node.has_moves()) {
            self.buffers[ply] = moves;
            return terminal(node.no_moves(), ply);
        }
        if node.drawn() {
            self.buffers[ply] = moves;
            return 0;
        }
        let in_check = check && qply < 4;
        let mut best = -INF;
        if !in_check {
            let stand = node.evaluate();
            if stand >= beta {
                self.buffers[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut scored: Vec<(Score, N::Move)> = moves
            .iter()
            .filter_map(|&mv| match node.tactical(mv) {
                // A capture that loses material is no way out of a quiet position.
                Some(_) if !in_check && node.losing_exchange(mv) => None,
                Some(g) => Some((g, mv)),
                None if in_check => Some((-(1 << 20), mv)),
                None => None,
            })
            .collect();
        self.buffers[ply] = moves;
        scored.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (_, mv) in scored {
            let (child, irreversible) = node.play(mv);
            self.nodes += 1;
            self.push(child.repetition_key(), irreversible);
            let s = match self.repetition(ply + 1) {
                Some(r) => -r,
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1),
            };
            self.pop();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

fn terminal(result: Result3, ply: usize) -> Score {
    match result {
        Result3::Loss => -MATE + ply as Score,
        Result3::Draw => 0,
        Result3::Win => MATE - ply as Score,
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(s: Score, ply: usize) -> Score {
    if s > MATE_BOUND {
        s + ply as Score
    } else if s < -MATE_BOUND {
        s - ply as Score
    } else {
        s
    }
}

fn from_tt(s: Score, ply: usize) -> Score {
    if s > MATE_BOUND {
        s - ply as Score
    } else if s < -MATE_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// The root of a chess game: its position and the positions since the last
/// irreversible move.
pub fn chess_root(game: &tabula_chess::Chess) -> Root<ChessNode> {
    let pos = *game.position();
    let history = game.history();
    let window = (pos.halfmove_clock() as usize + 1).min(history.len());
    Root {
        node: ChessNode(pos),
        history: history[history.len() - window..].to_vec(),
    }
}

/// The root of an Epoch game: its position and the positions since the
/// last progress.
pub fn epoch_root(game: &tabula_epoch::Epoch) -> Root<EpochNode> {
    Root {
        node: EpochNode(*game.position()),
        history: game.history().to_vec(),
    }
}

/// The engine's move in an Epoch game, the swap included: offered the
/// swap, Black takes White's side when its own best score is below
/// `-SWAP_MARGIN` (White's first move left White better), measured by the
/// same search that would pick its move.
pub fn epoch_decision(
    engine: &mut Engine<EpochNode>,
    game: &tabula_epoch::Epoch,
    limits: Limits,
    report: impl FnMut(&Info<tabula_epoch::Move>),
) -> Outcome<tabula_epoch::Move> {
    let mut out = engine.search(&epoch_root(game), limits, report);
    if game.swap_offered() && out.best.is_some() && out.info.score < -SWAP_MARGIN {
        out.info.score = -out.info.score;
        out.best = Some(tabula_epoch::Move::Swap);
        out.info.pv = vec![tabula_epoch::Move::Swap];
    }
    out
}
