#!/usr/bin/env bash
# The PostgreSQL store against sled, alternating in one sitting: `pigeon loadtest --url` (closed
# loop, 64 connections, 10 s after a 2 s warm-up) against a node on a fresh PostgreSQL database and
# against a node on a fresh sled directory, ROUNDS times each. PostgreSQL runs on the same cores, from
# Debian's package, in a throwaway cluster with its durability settings at their defaults (fsync,
# synchronous_commit and full_page_writes on). For each run: accepted/s, accept p99, delivered/s,
# lost, the node's peak RSS, and for PostgreSQL its CPU and WAL bytes per accepted message.
#
#   benches/postgres-vs-sled.sh [path/to/pigeon (release)] [ROUNDS]
set -euo pipefail
bin=$(realpath "${1:-target/release/pigeon}")
rounds=${2:-2}
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
work=$(mktemp -d)
chmod 755 "$work"
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$work"
  as_pg=(runuser -u postgres --)
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
"${as_pg[@]}" "$pgbin/initdb" -A trust -U pigeon -E UTF8 --locale=C -D "$work/data" >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" start -w -D "$work/data" -l "$work/pg.log" \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c shared_buffers=1GB -c max_wal_size=4GB" >/dev/null
node=
cleanup() {
  [ -n "$node" ] && kill "$node" 2>/dev/null || true
  "${as_pg[@]}" "$pgbin/pg_ctl" stop -m fast -D "$work/data" >/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
sql() { psql -h 127.0.0.1 -p "$port" -U pigeon -At -d postgres -c "$1"; }

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
  env "${env[@]}" PIGEON_ADMIN_TOKEN=bench PIGEON_LOG=warn "$bin" serve --addr "127.0.0.1:$p" \
    --data-dir "$work/sled-$round" --bench-routes --webhook-allow-private >"$work/node.log" 2>&1 &
  node=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
  local cpu0 wal0 cpu1 wal1
  cpu0=$(pg_cpu); wal0=$(wal)
  "$bin" loadtest --url "http://127.0.0.1:$p" --admin-token bench --duration 10s --quiet \
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
