#!/usr/bin/env bash
# Runs every shell block of README.md marked `<!-- tour -->`, in order, as written, against a
# fresh server on a fresh SQLite database, so the README's tour cannot rot. The only change
# made to the commands is the address: http://localhost:3000 becomes the fresh server's.
# First steps' step 1 (the owner account, made in the browser) is done here through the same
# API. Any command that fails (a curl answered 4xx/5xx included) stops the tour with its status.
#   bash scripts/tour.sh          (test/docs/readme-tour.test.ts runs it; TOUR_README=file tours another file)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
README="${TOUR_README:-$ROOT/README.md}"
# TOUR_README is relative to the caller's folder; everything else runs from the project's
# (node resolves `--import tsx` from the working folder), wherever the script is called from.
case "$README" in /*) ;; *) README="$PWD/$README" ;; esac
cd "$ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/qrtrack-tour-XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The tour's commands run in a folder of their own (they write item.json, menu.png, …) that
# still looks like the project to `npm run`.
# (`npm run qrtrack` runs bin/qrtrack.js, which finds the build from its real location.)
for f in package.json node_modules src tsconfig.json bin; do ln -s "$ROOT/$f" "$WORK/$f"; done

# Extract the marked blocks.
awk '
  /^<!-- tour -->$/ { marked = 1; next }
  marked && /^```sh$/ { inside = 1; marked = 0; blocks++; next }
  inside && /^```$/ { inside = 0; next }
  inside { print }
  END { if (blocks < 1) { print "scripts/tour.sh: no tour blocks found" > "/dev/stderr"; exit 1 } }
' "$README" > "$WORK/tour.raw"

PORT="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
BASE="http://127.0.0.1:$PORT"
sed "s#http://localhost:3000#$BASE#g" "$WORK/tour.raw" > "$WORK/tour-commands.sh"

export DATABASE_URL="sqlite:$WORK/tour.db" HOST=127.0.0.1 PORT PUBLIC_BASE_URL="$BASE" LOG_LEVEL=warn
node --import tsx "$ROOT/src/server.ts" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 300); do
  curl -sf "$BASE/healthz" > /dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.2
done
curl -sf "$BASE/healthz" > /dev/null || { echo "scripts/tour.sh: the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }

# Step 1 of the first steps, as the setup page does it: the owner and their account.
SETUP_URL="$(node --import tsx "$ROOT/src/cli.ts" setup-link 2>/dev/null)"
curl -sf -o /dev/null -H 'Content-Type: application/json' "$BASE/v1/setup" \
  -d "{\"token\":\"${SETUP_URL##*/}\",\"accountName\":\"Tour\",\"email\":\"owner@example.com\",\"password\":\"a tour of qrtrack\"}" \
  || { echo "scripts/tour.sh: the owner account could not be made" >&2; exit 1; }

echo "== README tour against $BASE"
mkdir "$WORK/scratch"
(
  cd "$WORK"
  # Commands are echoed as they run. Through this .curlrc, curl fails on any 4xx/5xx (still
  # showing the body); the newline after each answer is the README's own (-w '\n').
  printf '%s\n' '--fail-with-body' > .curlrc
  CURL_HOME="$WORK" TMPDIR="$WORK/scratch" PS4='$ ' bash -x -e -u -o pipefail ./tour-commands.sh
)
# What the tour made must be what the README says it makes, in the scratch folder it made.
if [ -z "${TOUR_README:-}" ]; then
  [ ! -e "$WORK/item.json" ] || { echo "scripts/tour.sh: the tour wrote its files into the project folder" >&2; exit 1; }
  MADE="$(dirname "$(find "$WORK/scratch" -name menu.png | head -n 1)")"
  node -e '
    const fs = require("fs");
    const png = fs.readFileSync(process.argv[1]);
    if (!png.subarray(1, 4).equals(Buffer.from("PNG")) || png.readUInt32BE(16) !== 1000) throw new Error("menu.png is not a 1000 px PNG");
    if (!fs.readFileSync(process.argv[2], "utf8").startsWith("<svg")) throw new Error("menu.svg is not an SVG");
  ' "$MADE/menu.png" "$MADE/menu.svg"
fi
echo "== README tour: every command succeeded"
