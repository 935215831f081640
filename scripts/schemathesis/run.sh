#!/usr/bin/env bash
# Schemathesis (the real tool, pinned, from PyPI into its own venv) against the demo server:
# every check on every operation of /openapi.json, positive and negative data. Needs dist/
# (npm run build). Usage: scripts/schemathesis/run.sh [max examples per operation, default 300]
#
# The server runs with RATE_LIMIT_RPS=1000000 so that 429s do not drown the run (429 stays
# documented and tested in test/api). Every check runs, unsupported_method included.
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=4.32.5
EXAMPLES=${1:-300}
VENV=${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/route-quoting-service/schemathesis-$VERSION}
if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi
"$VENV/bin/schemathesis" --version

DATA=$(mktemp -d)
OUT=$(mktemp)
LOG=$(mktemp)
cleanup() {
  # Wait for the server to exit (it writes its journal index as it stops) before removing its data.
  if [ -n "${SERVER:-}" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  fi
  rm -rf "$DATA" "$OUT" "$LOG"
}
trap cleanup EXIT
DATA_DIR=$DATA RATE_LIMIT_RPS=1000000 RECEIPTS=true node dist/apps/api/src/start.js --replay replay-data/ --speed max --port 0 >"$LOG" 2>&1 &
SERVER=$!
for _ in $(seq 1 600); do
  PORT=$(sed -n 's/.*"message":"listening","port":\([0-9]*\).*/\1/p' "$LOG" | head -1)
  [ -n "$PORT" ] && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$LOG" >&2; exit 1; }
  sleep 0.1
done
[ -n "${PORT:-}" ] || { echo "the demo server did not start" >&2; exit 1; }

# The recording's time span: asOf must lie within it (hooks.py rule 3); the replay clock ends at its last record.
FIRST=$(head -1 replay-data/synthetic-60-venues.jsonl | sed -n 's/.*"receivedAt":\([0-9]*\).*/\1/p')
NOW=$(node -e 'fetch(process.argv[1]).then((r) => r.json()).then((b) => console.log(b.calculatedAt))' \
  "http://127.0.0.1:$PORT/route?from=USDT&to=BTC&amountIn=1")
set +e
SCHEMATHESIS_HOOKS=hooks PYTHONPATH=scripts/schemathesis ST_ASOF_MIN=$FIRST ST_ASOF_MAX=$NOW \
  "$VENV/bin/schemathesis" --config-file scripts/schemathesis/schemathesis.toml run \
  "http://127.0.0.1:$PORT/openapi.json" --checks all --mode all \
  --max-examples "$EXAMPLES" --workers 1 --seed 20261124 --no-color >"$OUT" 2>&1
STATUS=$?
set -e
# The whole report on failure; on success its phase lines and the count (the full report repeats
# pytest-like banners that CI tools may mistake for a test runner's own summary).
if [ "$STATUS" -ne 0 ]; then cat "$OUT"; else grep -E '^ +(✅|❌|🚫|⏭)|Operations:' "$OUT" || true; fi
COUNT=$(sed -n 's/^ *\([0-9]*\) generated.*/\1/p' "$OUT" | tail -1)
FAILURES=$(sed -n 's/^ *[0-9]* generated, \([0-9]*\) found.*/\1/p' "$OUT" | tail -1)
echo "schemathesis $VERSION against the demo server: ${COUNT:-?} test cases, ${FAILURES:-0} failures (exit status $STATUS)"
exit "$STATUS"
