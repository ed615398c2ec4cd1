#!/usr/bin/env bash
# The README's quick start on the Node first on PATH, as a newcomer runs it: a copy of the
# checkout's tracked files in DIR, `npm install` (which must print no warning), `npm start`, the
# README's first request (/v1/me with the key the first start saved) and a scrape of a page on
# this machine (the README's "Scraping a page on your own machine"). Then the smoke subset
# (.ci/smoke-files) against that install, its Vitest report in DIR/.vitest-results.json.
#
# usage: .ci/quickstart.sh DIR
# Exit status: 0 when the quick start worked (the smoke subset's result is in its report).
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1
service=
site=
# The service runs in a session of its own (setsid): npm, its shell and node end together.
stop() {
  [ -n "$service" ] && kill -- "-$service" 2>/dev/null && wait "$service" 2>/dev/null
  [ -n "$site" ] && kill "$site" 2>/dev/null
  service= site=
}
fail() { echo "quick start failed: $*"; stop; exit 1; }

echo "Node $(node -v), npm $(npm -v)"
rm -rf "$dir" && mkdir -p "$dir"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$dir" || fail "could not copy the checkout"
cd "$dir"

npm install --no-audit --no-fund >npm-install.log 2>&1 || { cat npm-install.log; fail "npm install"; }
if grep -E '^npm (warn|WARN|error|ERR)' npm-install.log; then fail "npm install printed warnings (above)"; fi
tail -n 1 npm-install.log

# A page to scrape, on a free port of this machine.
node -e "require('node:http').createServer((q, s) => s.end('<!doctype html><title>Quick start</title><h1>Hello from this machine</h1><p>It works.</p>')).listen(0, '127.0.0.1', function () { console.log(this.address().port); })" >site.port &
site=$!
for _ in $(seq 1 50); do [ -s site.port ] && break; sleep 0.1; done
site_port=$(cat site.port)
[ -n "$site_port" ] || fail "the local page did not start"

PORT=0 OUTBOUND_ALLOW_ADDRESSES="127.0.0.1:$site_port" setsid npm start >start.log 2>start.err &
service=$!
port=
for _ in $(seq 1 240); do
  port=$(grep '"msg":"listening"' start.log 2>/dev/null | grep -o '"port":[0-9]*' | grep -o '[0-9]*$' | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$service" 2>/dev/null || { cat start.log start.err; fail "npm start exited"; }
  sleep 0.5
done
[ -n "$port" ] || { cat start.log start.err; fail "npm start did not listen within 120 s"; }
grep -o '"msg":"markdown converter[^"]*"' start.log

key=$(cat data/api-key) || fail "npm start saved no key in data/api-key"
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://localhost:$port/v1/me")
[ "$status" = 200 ] || fail "GET /v1/me answered $status"
echo "GET /v1/me: 200"
answer=$(curl -s "http://localhost:$port/v1/scrapes" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d "{\"url_to_scrape\": \"http://127.0.0.1:$site_port/\", \"formats\": [\"markdown\"]}")
echo "$answer" | grep -q '# Hello from this machine' || fail "the scrape answered: ${answer:0:500}"
echo "POST /v1/scrapes: the page's markdown"

stop

# The smoke subset against this install (the report is read by .ci/summary.mjs).
mapfile -t smoke < .ci/smoke-files
npx vitest run "${smoke[@]}" --reporter=default --reporter=json --outputFile.json=.vitest-results.json
exit 0
