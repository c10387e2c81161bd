//! Nodes a second of the alpha-beta engine at a fixed node budget, from
//! chess's and Epoch's start and a position after a few moves. For Epoch it
//! also searches with quiescence generating every legal move and keeping
//! the tactical ones (what it did before the tactical generator), so the
//! two are measured in the same run under the same load.
//!
//! `cargo run --release -p tabula-ai --example nps -- [NODES]`

use std::time::Instant;

use tabula_ai::alphabeta::{
    Engine, EpochNode, Limits, Node, Repetition, Result3, Root, Score, chess_root, epoch_root,
};
use tabula_chess::Chess;
use tabula_core::Game;
use tabula_epoch::{Epoch, EpochOptions, Move};

/// Epoch with the trait's default quiescence generator: every legal move,
/// then the tactical ones kept.
#[derive(Clone, Copy)]
struct FullGeneration(EpochNode);

impl Node for FullGeneration {
    type Move = Move;
    const NULL_MOVE: bool = EpochNode::NULL_MOVE;
    const STATIC_PRUNING: bool = EpochNode::STATIC_PRUNING;
    const REPETITION: Repetition = EpochNode::REPETITION;
    const HISTORY: usize = EpochNode::HISTORY;
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.0.legal_moves(out)
    }
    fn play(&self, mv: Move) -> (Self, bool) {
        let (n, irreversible) = self.0.play(mv);
        (FullGeneration(n), irreversible)
    }
    fn pass(&self) -> Self {
        FullGeneration(self.0.pass())
    }
    fn key(&self) -> u64 {
        self.0.key()
    }
    fn repetition_key(&self) -> u64 {
        self.0.repetition_key()
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn no_moves(&self) -> Result3 {
        self.0.no_moves()
    }
    fn drawn(&self) -> bool {
        self.0.drawn()
    }
    fn evaluate(&self) -> Score {
        self.0.evaluate()
    }
    fn tactical(&self, mv: Move) -> Option<Score> {
        self.0.tactical(mv)
    }
    fn history_index(&self, mv: Move) -> usize {
        self.0.history_index(mv)
    }
    fn has_pieces(&self) -> bool {
        self.0.has_pieces()
    }
    fn zugzwang_possible(&self, moves: usize) -> bool {
        self.0.zugzwang_possible(moves)
    }
}

fn run<N: Node>(label: &str, root: &Root<N>, nodes: u64) {
    let mut engine = Engine::<N>::new(64);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let t = Instant::now();
    let out = engine.search(root, limits, |_| {});
    let s = t.elapsed().as_secs_f64();
    println!(
        "{label}: depth {}, {} nodes in {:.2} s, {:.0} nodes/s",
        out.info.depth,
        out.info.nodes,
        s,
        out.info.nodes as f64 / s
    );
}

fn main() {
    let nodes = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    for line in ["", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"] {
        let mut game = Chess::new(&Default::default());
        for m in line.split_whitespace() {
            let a = game.parse_action(m).expect("a legal move");
            game.apply(&a).expect("a legal move");
        }
        run(&format!("chess [{line}]"), &chess_root(&game), nodes);
    }
    for line in ["", "g3g7 g11g8 f3f6 f11f7"] {
        let mut game = Epoch::new(&EpochOptions::default());
        for m in line.split_whitespace() {
            let a = game.parse_action(m).expect("a legal move");
            game.apply(&a).expect("a legal move");
        }
        let root = epoch_root(&game);
        run(&format!("epoch [{line}], tactical generator"), &root, nodes);
        let full = Root {
            node: FullGeneration(root.node),
            history: root.history.clone(),
        };
        run(&format!("epoch [{line}], all moves filtered"), &full, nodes);
    }
}
