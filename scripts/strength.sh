#!/usr/bin/env bash
# The strength series of issue 15: for every game and mode, hard against
# random, hard against greedy, and each level against the one below, with
# `tabula match` (release build), one markdown row a pairing for docs/ai.md.
# A benchmark, not a CI step: at 200 games a pairing it takes many hours on
# a 2-core machine.
#
# Usage: scripts/strength.sh [GAMES] [THREADS] [FILTER]
#   GAMES    games a pairing (default 200; the full Lytharian game, whose
#            games take minutes, gets half)
#   THREADS  games at once (default 2)
#   FILTER   only the rows whose game and options contain this text
# Rows go to stdout; each match's JSON is kept in target/strength/.
# TABULA_BIN=PATH uses that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-200}"
threads="${2:-2}"
filter="${3:-}"
bin=${TABULA_BIN:-./target/release/tabula}
[[ -n "${TABULA_BIN:-}" ]] || cargo build --release -q -p tabula-cli
out=target/strength
mkdir -p "$out"

# game and options | the pairings ("A:B" each) | a game takes minutes |
# options of every match of the series
series=(
  "chess|hard:random hard:greedy hard:medium medium:easy|"
  "epoch|hard:random hard:greedy hard:medium medium:easy|"
  "skirmish|hard:random hard:greedy hard:medium medium:easy|"
  "skirmish --mode advanced|hard:random hard:greedy hard:medium medium:easy|"
  "warrior|hard:random hard:greedy hard:medium medium:easy|"
  "warrior --players 4|hard:random hard:greedy hard:medium medium:easy|"
  "covenant --scenario arena|hard:random hard:greedy hard:medium medium:easy||--max-plies 1500"
  "covenant --scenario crossroads|hard:random hard:greedy hard:medium medium:easy||--max-plies 1500"
  "covenant|hard:random hard:greedy hard:medium medium:easy||--max-plies 1500"
  "lytharia|hard:random hard:greedy hard:medium medium:easy|long|--max-plies 1500"
  "lytharia --mode duel|hard:random hard:greedy hard:medium medium:easy|"
  "lytharia --mode pawn-wars|hard:random hard:greedy hard:medium medium:easy|"
  "lytharia --mode chess|hard:random hard:greedy hard:medium medium:easy|"
)

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ), $(git rev-parse --short HEAD)"
echo "| game | a | b | games | W/D/L (a) | score | Elo [95%] | ms a decision a / b | actions a game | ended by |"
echo "|---|---|---|---:|---|---:|---|---|---:|---|"
for entry in "${series[@]}"; do
  IFS='|' read -r spec pairs long options <<<"$entry"
  [[ -z "$filter" || "$spec" == *"$filter"* ]] || continue
  n=$games
  [[ -z "$long" ]] || n=$(((games + 1) / 2))
  read -r -a extra <<<"$options"
  read -r -a words <<<"$spec"
  for pair in $pairs; do
    a=${pair%%:*}
    b=${pair#*:}
    # Two searches of a game without chance would replay one game per
    # seating: random opening plies make the games differ.
    opening=()
    [[ "$b" != random && "$b" != greedy ]] && opening=(--random-opening 4)
    file="$out/$(echo "$spec" | tr ' ' '_')-$a-$b.json"
    "$bin" match "${words[@]}" --a "$a" --b "$b" --games "$n" --threads "$threads" --seed 1 \
      "${opening[@]}" "${extra[@]}" --json >"$file"
    jq -r --arg spec "$spec" '
      "| \($spec) | \(.a) | \(.b) | \(.games) | \(.wins)/\(.draws)/\(.losses) | "
      + "\(.score * 1000 | round / 10)% | \(.elo | round) [\(.elo_low | round), \(.elo_high | round)] | "
      + "\(.a_ms_per_decision | round) / \(.b_ms_per_decision | round) | \(.plies_per_game | round) | "
      + ([.ended | to_entries[] | "\(.key) \(.value)"] | join(", ")) + " |"' "$file"
  done
done
