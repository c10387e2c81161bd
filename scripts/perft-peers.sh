#!/usr/bin/env bash
# Measures standard-chess perft speed for tabula and its peers in one run:
#   tabula perft chess DEPTH (release binary, through the Game trait),
#   tabula-chess vs cozy-chess (crates/chess/examples/perft_compare.rs),
#   Fairy-Stockfish `go perft DEPTH` (Debian package fairy-stockfish).
# Usage: scripts/perft-peers.sh [DEPTH] [ROUNDS]. Figures go to docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-6}"
rounds="${2:-3}"
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$fsf" ] || { echo "install fairy-stockfish: apt-get install fairy-stockfish" >&2; exit 1; }

cargo build --release -q -p tabula-cli
cargo build --release -q -p tabula-chess --example perft_compare

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  echo "--- round $r"
  ./target/release/tabula perft chess "$depth" 2>&1 >/dev/null | sed 's/^/tabula cli:     /'
  ./target/release/examples/perft_compare "$depth" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 1 | sed 's/^/lib vs cozy:    /'
  start=$(date +%s.%N)
  nodes=$(printf 'position startpos\ngo perft %s\nquit\n' "$depth" | "$fsf" | awk '/Nodes searched/ {print $3}')
  end=$(date +%s.%N)
  awk -v n="$nodes" -v s="$start" -v e="$end" \
    'BEGIN { t = e - s; printf "fairy-stockfish: %d nodes in %.3f s (%.1f M nodes/s, includes ~0.1 s start-up)\n", n, t, n / t / 1e6 }'
done
