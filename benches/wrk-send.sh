#!/usr/bin/env bash
# Sends under wrk, closed loop: `pigeon serve` (dist build, defaults, a fresh data directory) with a
# scale tenant and 4 sim phones, no webhook; wrk holds 50 connections sending `POST /v1/messages`
# (one of 5,000 numbers each) as fast as they are answered, three runs of 10 s after 2 s of
# warm-up. Prints, per run, answers/s, p50/p99/max as wrk counts them, and non-2xx answers. wrk
# and the node share the machine's cores.
#
#   benches/wrk-send.sh [path/to/pigeon (dist)] [RUNS]      # needs Debian's `wrk`
set -euo pipefail
bin=$(realpath "${1:-target/dist/pigeon}")
runs=${2:-3}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=benches/lib/port.sh
source "$(dirname "$0")/lib/port.sh"

port=$(free_port)
url="http://127.0.0.1:$port"
PIGEON_ADMIN_TOKEN=svc_admin_bench_0123456789abcdef PIGEON_LOG=warn "$bin" serve --addr "127.0.0.1:$port" --data-dir "$work/data" \
  >"$work/node.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "$url/readyz" >/dev/null && break; sleep 0.1; done

admin() { curl -sf "$url$2" -X "$1" -H 'Authorization: Bearer svc_admin_bench_0123456789abcdef' -H 'Content-Type: application/json' -d "$3"; }
tenant=$(admin POST /admin/v1/tenants '{"name":"wrk","plan":"scale"}')
key=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["keys"]["live"]["key"])' <<<"$tenant")
tid=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])' <<<"$tenant")
admin PATCH "/admin/v1/tenants/$tid" '{"quiet_hours":{"enabled":false},"new_contact_daily_limit":1000000}' >/dev/null
for p in 1 2 3 4; do
  admin POST /admin/v1/phones "{\"tenant_id\":\"$tid\",\"number\":\"+1555010000$p\",\"driver\":\"sim\",\"daily_limit\":100000000,\"sim\":{\"latency_ms\":0}}" >/dev/null
done
script="$(dirname "$0")/lib/send.lua"
PIGEON_KEY=$key wrk -t 2 -c 50 -d 2s -s "$script" "$url" >/dev/null
echo "| run | answers/s | p50 | p99 | max | non-2xx |"
echo "|---|---|---|---|---|---|"
for r in $(seq "$runs"); do
  out=$(PIGEON_KEY=$key wrk -t 2 -c 50 -d 10s --latency -s "$script" "$url")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  max=$(awk '$1 == "Latency" {print $4}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  echo "| $r | $rps | $p50 | $p99 | $max | ${bad:-0} |"
done
