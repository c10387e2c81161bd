#!/usr/bin/env bash
# Regenerates the README's screenshots (docs/screenshots/<game>.png): runs
# the browser tests, which save a screenshot of every game's table in
# web/test/artifacts, and copies them. Needs Debian's chromium, node and a
# built binary (TABULA_BIN, else the release or debug build in
# ${CARGO_TARGET_DIR:-target}).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd web && npm ci --no-audit --no-fund --loglevel=error)
node --test --test-concurrency=1 web/test/games.test.mjs
mkdir -p docs/screenshots
for game in chess epoch skirmish warrior covenant lytharia; do
  cp "web/test/artifacts/game-$game.png" "docs/screenshots/$game.png"
done
echo "docs/screenshots: $(ls docs/screenshots | tr '\n' ' ')"
