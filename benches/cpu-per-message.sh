#!/usr/bin/env bash
# CPU per message, variants alternating in one sitting. On a shared VM throughput moves by 20 %
# between minutes (the same build gave 14.2k and 17.5k accepted/s in one sitting), far more than
# most changes; the node's own CPU seconds per message move less, and at a fixed open-loop rate
# not at all with the VM's speed. So a change to the send path is judged here.
#
# For each round and each variant: `pigeon serve` (dist build, a fresh data directory, the variant's
# environment) driven by `pigeon loadtest --url` for 10 s after 2 s of warm-up, open loop at RATE
# (closed loop without it), webhooks to the harness's sink. Prints accepted/s, accept p50/p99, the
# node's CPU (user + system, all its threads) and the harness's per delivered message, group
# commit flushes per message, and the node's voluntary context switches per message (threads
# going to sleep: each is a wake-up somewhere, which is what sled's I/O pool wasted).
#
#   RATE=6000 benches/cpu-per-message.sh [path/to/pigeon] [ROUNDS] [name:VAR=value,VAR=value]...
#   e.g.  RATE=2000 benches/cpu-per-message.sh target/dist/pigeon 2 paced: unpaced:PIGEON_MIN_FLUSH_INTERVAL=0
set -euo pipefail
bin=$(realpath "${1:-target/dist/pigeon}")
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=("default:")
token=svc_admin_cpu_per_message
work=$(mktemp -d)
node=
cleanup() {
  [ -n "$node" ] && kill "$node" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=benches/lib/port.sh
source "$(dirname "$0")/lib/port.sh"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Voluntary context switches of all the node's threads (each one a thread that went to sleep).
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {s += $2} END {print s}'; }
hz=$(getconf CLK_TCK)

echo "| round | variant | accepted/s | accept p50 / p99 | node CPU per message | harness CPU per message | flushes per message | context switches per message |"
echo "|---|---|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
  for v in "${variants[@]}"; do
    name=${v%%:*}
    IFS=, read -r -a vars <<<"${v#*:}"
    port=$(free_port)
    rm -rf "$work/data"
    env "${vars[@]}" PIGEON_DATA_DIR="$work/data" PIGEON_ADMIN_TOKEN=$token PIGEON_LOG=warn \
      "$bin" serve --addr "127.0.0.1:$port" --bench-routes --webhook-allow-private >/dev/null 2>&1 &
    node=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
    before=$(ticks "$node") switched=$(switches "$node")
    /usr/bin/time -f "%U %S" -o "$work/harness" "$bin" loadtest --url "http://127.0.0.1:$port" \
      --admin-token $token --duration 10s ${RATE:+--rate "$RATE"} --quiet --json "$work/r.json" >/dev/null
    after=$(ticks "$node") switched=$(($(switches "$node") - switched))
    curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/metrics" >"$work/metrics"
    kill "$node"; wait "$node" 2>/dev/null || true; node=
    python3 - "$work" "$round" "$name" "$before" "$after" "$hz" "$switched" <<'EOF'
import json, re, sys
work, rnd, name, before, after, hz, switched = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])
r = json.load(open(f"{work}/r.json"))
metrics = open(f"{work}/metrics").read()
def metric(pattern):
    m = re.search(pattern + r"\s+([0-9.e+]+)", metrics)
    return float(m.group(1)) if m else 0.0
# Every message of the run, warm-up included, has one successful webhook attempt.
n = max(metric(r'pigeon_webhook_attempts_total\{outcome="success"\}'), 1)
flushes = metric(r"pigeon_store_flushes_total")
user, system = map(float, open(f"{work}/harness").read().split()[-2:])
lat = r["accept_latency_ms"]
print(f"| {rnd} | {name} | {r['accepted_per_s']:,.0f} | {lat['p50']:.2f} / {lat['p99']:.2f} ms "
      f"| {(after - before) / hz / n * 1e6:,.0f} µs | {(user + system) / n * 1e6:,.0f} µs | {flushes / n:.3f} "
      f"| {switched / n:.1f} |")
EOF
  done
done
