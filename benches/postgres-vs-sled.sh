#!/usr/bin/env bash
# The PostgreSQL store against sled, alternating in one sitting: `pigeon loadtest --url` (closed
# loop, 64 connections, 10 s after a 2 s warm-up) against a node on a fresh PostgreSQL database and
# against a node on a fresh sled directory, ROUNDS times each. PostgreSQL runs on the same cores, from
# Debian's package, in a throwaway cluster with its durability settings at their defaults (fsync,
# synchronous_commit and full_page_writes on). For each run: accepted/s, accept p99, delivered/s,
# lost, the node's peak RSS, and for PostgreSQL its CPU and WAL bytes per accepted message.
#
#   benches/postgres-vs-sled.sh [path/to/pigeon (dist)] [ROUNDS]
set -euo pipefail
bin=$(realpath "${1:-target/dist/pigeon}")
rounds=${2:-2}
# shellcheck source=benches/lib/pg.sh
source "$(dirname "$0")/lib/pg.sh"
pg_work
pg_cluster_start
port=$pg_port
node=
cleanup() {
  [ -n "$node" ] && kill "$node" 2>/dev/null || true
  pg_cluster_stop
  rm -rf "$work"
}
trap cleanup EXIT

# CPU seconds of the whole cluster: the postmaster, the children it reaped, and the live ones.
pg_cpu() {
  local pm
  pm=$(head -n 1 "$work/data/postmaster.pid")
  { awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat"
    for c in $(pgrep -P "$pm"); do awk '{print $14 + $15}' "/proc/$c/stat" 2>/dev/null || true; done
  } | awk -v hz="$(getconf CLK_TCK)" '{s += $1} END {printf "%.3f", s / hz}'
}
wal() { sql "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"; }

run() { # backend round
  local backend=$1 round=$2 p url env=()
  p=$(free_port)
  if [ "$backend" = postgres ]; then
    sql "CREATE DATABASE b$round" >/dev/null
    env=(PIGEON_DATABASE_URL="postgres://pigeon@127.0.0.1:$port/b$round")
  fi
  env "${env[@]}" PIGEON_ADMIN_TOKEN=svc_admin_bench_0123456789abcdef PIGEON_LOG=warn "$bin" serve --addr "127.0.0.1:$p" \
    --data-dir "$work/sled-$round" --bench-routes --webhook-allow-private >"$work/node.log" 2>&1 &
  node=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
  local cpu0 wal0 cpu1 wal1
  cpu0=$(pg_cpu); wal0=$(wal)
  "$bin" loadtest --url "http://127.0.0.1:$p" --admin-token svc_admin_bench_0123456789abcdef --duration 10s --quiet \
    --json "$work/r.json" >/dev/null
  cpu1=$(pg_cpu); wal1=$(wal)
  local hwm
  hwm=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$node/status")
  kill "$node"; wait "$node" 2>/dev/null || true; node=
  python3 - "$work/r.json" "$backend" "$round" "$hwm" "$cpu0" "$cpu1" "$wal0" "$wal1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
backend, rnd, hwm = sys.argv[2], sys.argv[3], sys.argv[4]
cpu = float(sys.argv[6]) - float(sys.argv[5])
wal = int(sys.argv[8]) - int(sys.argv[7])
n = max(r["accepted"], 1)
extra = f"| {cpu / n * 1e6:,.0f} µs | {wal / n:,.0f} B" if backend == "postgres" else "| | "
print(f"| {backend} {rnd} | {r['accepted_per_s']:,.0f} | {r['accept_latency_ms']['p50']:.1f} / "
      f"{r['accept_latency_ms']['p99']:.1f} ms | {r['delivered_per_s']:,.0f} | {r['lost']} | {hwm} MiB {extra} |")
EOF
}

echo "| node, round | accepted/s | accept p50 / p99 | delivered/s | lost | peak RSS | PostgreSQL CPU per message | WAL per message |"
echo "|---|---|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
  run postgres "$round"
  run sled "$round"
done
