#!/usr/bin/env bash
# A fleet against one node, on one PostgreSQL database, alternating in one sitting: `pigeon loadtest
# --url` (closed loop, 10 s after a 2 s warm-up) against one node with 64 connections, then against
# two nodes at once, 32 connections each, each load test making its own tenant on the node it drives
# (so each node owns the tenant it is sent; forwarding is measured apart, below). Everything runs
# on the same cores: PostgreSQL (Debian's package, a throwaway cluster, durability settings at their
# defaults), the nodes and the load tests. For each run: accepted/s in all, accept p99 (the worse of
# the two for two nodes), delivered/s, lost.
#
# Then forwarding: one node's tenant driven through the other node (every request forwarded, one hop
# over a kept-alive connection) against the same tenant driven directly, 16 connections each.
#
#   benches/fleet.sh [path/to/pigeon (dist)] [ROUNDS]
set -euo pipefail
bin=$(realpath "${1:-target/dist/pigeon}")
rounds=${2:-2}
# shellcheck source=benches/lib/pg.sh
source "$(dirname "$0")/lib/pg.sh"
pg_work
pg_cluster_start
port=$pg_port
nodes=()
cleanup() {
  for n in "${nodes[@]}"; do kill "$n" 2>/dev/null || true; done
  pg_cluster_stop
  rm -rf "$work"
}
trap cleanup EXIT

start_node() { # db name → sets $url
  local p
  p=$(free_port)
  PIGEON_DATABASE_URL="postgres://pigeon@127.0.0.1:$port/$1" PIGEON_ADMIN_TOKEN=svc_admin_bench_0123456789abcdef PIGEON_LOG=warn \
    "$bin" serve --addr "127.0.0.1:$p" --data-dir "$work/node-$p" --webhook-allow-private >"$work/node-$p.log" 2>&1 &
  nodes+=($!)
  url="http://127.0.0.1:$p"
  for _ in $(seq 100); do curl -sf "$url/readyz" >/dev/null && break; sleep 0.1; done
}
stop_nodes() {
  for n in "${nodes[@]}"; do kill "$n" 2>/dev/null || true; wait "$n" 2>/dev/null || true; done
  nodes=()
}
load() { # url connections json
  "$bin" loadtest --url "$1" --admin-token svc_admin_bench_0123456789abcdef --connections "$2" --duration 10s --quiet --json "$3" >/dev/null
}
report() { # label json...
  python3 - "$@" <<'EOF'
import json, sys
label, runs = sys.argv[1], [json.load(open(p)) for p in sys.argv[2:]]
acc = sum(r["accepted_per_s"] for r in runs)
p99 = max(r["accept_latency_ms"]["p99"] for r in runs)
dlv = sum(r["delivered_per_s"] for r in runs)
lost = sum(r["lost"] for r in runs)
print(f"| {label} | {acc:,.0f} | {p99:.1f} ms | {dlv:,.0f} | {lost} |")
EOF
}

echo "| run | accepted/s | accept p99 | delivered/s | lost |"
echo "|---|---|---|---|---|"
for round in $(seq "$rounds"); do
  sql "CREATE DATABASE one$round" >/dev/null
  start_node "one$round"
  load "$url" 64 "$work/one.json"
  stop_nodes
  report "one node, round $round" "$work/one.json"

  sql "CREATE DATABASE two$round" >/dev/null
  start_node "two$round"; a=$url
  start_node "two$round"; b=$url
  load "$a" 32 "$work/a.json" & la=$!
  load "$b" 32 "$work/b.json" & lb=$!
  wait "$la" "$lb"
  stop_nodes
  report "two nodes, round $round" "$work/a.json" "$work/b.json"
done

# Forwarding: a tenant made on node a, its sends driven through b, then through a.
sql "CREATE DATABASE fwd" >/dev/null
start_node fwd; a=$url
start_node fwd; b=$url
tenant=$(curl -sf "$a/admin/v1/tenants" -H 'Authorization: Bearer svc_admin_bench_0123456789abcdef' -H 'Content-Type: application/json' \
  -d '{"name":"fwd","plan":"scale"}')
key=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["keys"]["live"]["key"])' <<<"$tenant")
tid=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])' <<<"$tenant")
curl -sf "$a/admin/v1/tenants/$tid" -X PATCH -H 'Authorization: Bearer svc_admin_bench_0123456789abcdef' -H 'Content-Type: application/json' \
  -d '{"quiet_hours":{"enabled":false}}' >/dev/null
curl -sf "$a/admin/v1/phones" -H 'Authorization: Bearer svc_admin_bench_0123456789abcdef' -H 'Content-Type: application/json' \
  -d "{\"tenant_id\":\"$tid\",\"number\":\"+14155550999\",\"driver\":\"sim\",\"daily_limit\":10000000,\"sim\":{\"latency_ms\":0}}" >/dev/null
wrk_like() { # url label: 16 connections, 10 s, GET /v1/messages/{id} and POST /v1/messages alternately
  python3 - "$1" "$key" "$2" <<'EOF'
import http.client, json, sys, threading, time, urllib.parse
base, key, label = sys.argv[1], sys.argv[2], sys.argv[3]
u = urllib.parse.urlparse(base)
lat, stop = [], time.time() + 10
def worker(i):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    n = 0
    while time.time() < stop:
        body = json.dumps({"to": f"+1415555{i:02d}{n % 100:02d}", "body": "fwd"})
        t = time.perf_counter()
        c.request("POST", "/v1/messages", body, {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        r = c.getresponse(); r.read()
        lat.append(time.perf_counter() - t)
        n += 1
threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
[t.start() for t in threads]; [t.join() for t in threads]
lat.sort()
print(f"| sends {label} | {len(lat) / 10:,.0f} | p50 {lat[len(lat) // 2] * 1e3:.1f} ms, p99 {lat[int(len(lat) * 0.99)] * 1e3:.1f} ms | | |")
EOF
}
wrk_like "$a" "to the tenant's node"
wrk_like "$b" "through the other node (forwarded)"
stop_nodes
