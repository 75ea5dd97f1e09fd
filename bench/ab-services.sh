#!/usr/bin/env bash
# Before and after one change: two servers (A and B) of the same machine, each read by uid
# under wrk (bench/wrk/reads.lua, 1 thread, 50 connections), in alternating 3 s rounds, so
# drift on the machine hits both; prints each side's rounds and median CPU µs per request
# (the server's utime + stime over its responses). The harness compares the service with
# raw baselines; this compares two builds or settings of the service, e.g.:
#
#   npm run build && node dist/bench/ab-setup.js /tmp/ab
#   cp -r dist /tmp/before  # then change the code (or the copy) and build again
#   bench/ab-services.sh 6 \
#     "DATABASE_URL=sqlite:/tmp/ab/users.db AUTH_MODE=api-key API_KEYS_FILE=/tmp/ab/keys.json node /tmp/before/bundle/server.mjs" \
#     "DATABASE_URL=sqlite:/tmp/ab/users.db AUTH_MODE=api-key API_KEYS_FILE=/tmp/ab/keys.json node dist/bundle/server.mjs"
#
# (A copy of dist/ run from outside the checkout needs node_modules beside it: ln -s.)
# Each command gets HOST=127.0.0.1 and PORT; AB_DIR (default /tmp/ab) holds key.txt and paths.txt.
set -euo pipefail
ROUNDS=$1; A=$2; B=$3
AB_DIR=${AB_DIR:-/tmp/ab}
LUA="$(cd "$(dirname "$0")" && pwd)/wrk/reads.lua"
PORT_A=${AB_PORT_A:-18301}; PORT_B=${AB_PORT_B:-18302}
OUT=$(mktemp -d)
trap 'kill $PA $PB 2>/dev/null || true; rm -rf "$OUT"' EXIT
env HOST=127.0.0.1 PORT=$PORT_A bash -c "exec env $A" > "$OUT/a.log" 2>&1 & PA=$!
env HOST=127.0.0.1 PORT=$PORT_B bash -c "exec env $B" > "$OUT/b.log" 2>&1 & PB=$!
until curl -sf "http://127.0.0.1:$PORT_A/readyz" > /dev/null && curl -sf "http://127.0.0.1:$PORT_B/readyz" > /dev/null; do sleep 0.1; done
export WRK_HEADERS="Authorization: Bearer $(cat "$AB_DIR/key.txt")"
run() { wrk -t1 -c50 -d"$2"s -s "$LUA" "http://127.0.0.1:$1" -- "$AB_DIR/paths.txt" | sed -n 's/^wrk-result //p'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run $PORT_A 2 > /dev/null; run $PORT_B 2 > /dev/null
measure() { # pid port side
  local before after result
  before=$(ticks "$1"); result=$(run "$2" 3); after=$(ticks "$1")
  node -e '
    const r = JSON.parse(process.argv[1]); const ok = r.requests - r.status_errors;
    const ticks = Number(process.argv[2]) * 1e6 / Number(process.argv[3]);
    console.log(`${Math.round(ok / (r.duration_us / 1e6))} ${Math.round(ticks / ok)} ${(r.p99_us / 1000).toFixed(1)}`);
  ' "$result" $((after - before)) "$(getconf CLK_TCK)" >> "$OUT/$3"
}
for _ in $(seq "$ROUNDS"); do measure $PA $PORT_A a; measure $PB $PORT_B b; done
for side in a b; do
  sort -n -k2 "$OUT/$side" | awk -v side="$(echo $side | tr ab AB)" '{ rps[NR] = $1; cpu[NR] = $2; p99[NR] = $3 } END {
    printf "%s: median %d CPU µs/req (%d–%d); req/s by round:", side, cpu[int((NR + 1) / 2)], cpu[1], cpu[NR]
    for (i = 1; i <= NR; i++) printf " %d", rps[i]; printf "\n" }'
done
