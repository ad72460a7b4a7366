#!/usr/bin/env bash
# The database's own failover under a pigeon fleet, on loopback, from Debian's packages:
#   - etcd (etcd-server), the store Patroni keeps its leader key in;
#   - two PostgreSQL members under Patroni (patroni), synchronous replication (synchronous_mode:
#     a commit returns once the standby has it, so the standby Patroni promotes has every commit);
#   - two pigeon nodes on the Patroni-managed primary, through a connection string that lists both
#     members with target_session_attrs=read-write (whichever is primary takes the writes).
# It drives sends through both nodes (each send retried with its Idempotency-Key until accepted),
# then kills the primary member with `kill -9`: its postmaster and its Patroni (the machine's loss;
# a Patroni left alive would restart its own postmaster instead of failing over). It reports when
# sends were first refused, how long until they flowed again, and how many acknowledged messages
# are present once Patroni has promoted the standby.
#
#   deploy/fleet/failover.sh [path/to/pigeon]      (run as root or as a user that can run initdb)
#
# Needs: apt-get install postgresql patroni etcd-server python3.
set -euo pipefail
bin=$(realpath "${1:-target/release/pigeon}")
# shellcheck source=benches/lib/pg.sh
source "$(dirname "$0")/../../benches/lib/pg.sh"
pg_work
ec=$(free_port); ep=$(free_port)
p1=$(free_port); p2=$(free_port); r1=$(free_port); r2=$(free_port)
pids=()
# Stops what this script started and nothing else (it may share the machine): the processes it
# recorded (etcd, the Patroni members through runuser, which passes the signal on, the nodes),
# then any postmaster a member left behind, named by its data directory's postmaster.pid.
postmasters() { for m in pg1 pg2; do head -n 1 "$work/$m/postmaster.pid" 2>/dev/null || true; done; }
cleanup() {
  local left
  left=$(postmasters)
  for p in "${pids[@]}" $left; do kill "$p" 2>/dev/null || true; done
  # Up to 10 s to stop cleanly (Patroni stops its PostgreSQL first), then SIGKILL.
  for _ in $(seq 20); do
    local alive=0
    for p in "${pids[@]}" $left; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  for p in "${pids[@]}" $left; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
say() { printf '%s %s\n' "$(date -u +%H:%M:%S.%3N)" "$*" >&2; }

etcd --name e1 --data-dir "$work/etcd" \
  --listen-client-urls "http://127.0.0.1:$ec" --advertise-client-urls "http://127.0.0.1:$ec" \
  --listen-peer-urls "http://127.0.0.1:$ep" --initial-advertise-peer-urls "http://127.0.0.1:$ep" \
  --initial-cluster "e1=http://127.0.0.1:$ep" >"$work/etcd.log" 2>&1 &
pids+=($!)

member() { # name pg-port rest-port
  cat >"$work/$1.yml" <<EOF
scope: pigeon
name: $1
restapi:
  listen: 127.0.0.1:$3
  connect_address: 127.0.0.1:$3
etcd3:
  hosts: 127.0.0.1:$ec
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 200
        wal_log_hints: "on"
  initdb:
    - encoding: UTF8
    - locale: C
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$2
  connect_address: 127.0.0.1:$2
  data_dir: $work/$1
  bin_dir: $pgbin
  pgpass: $work/$1.pgpass
  authentication:
    replication: {username: replicator, password: rep}
    superuser: {username: postgres, password: pg}
    rewind: {username: postgres, password: pg}
  parameters:
    unix_socket_directories: $work
EOF
  chmod 644 "$work/$1.yml"
  "${as_pg[@]}" patroni "$work/$1.yml" >"$work/$1.log" 2>&1 &
  pids+=($!)
}
member pg1 "$p1" "$r1"
sleep 2
member pg2 "$p2" "$r2"

role() { curl -s "http://127.0.0.1:$1/patroni" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("role",""), d.get("state",""))' 2>/dev/null || true; }
say "waiting for a primary and a synchronous standby"
for _ in $(seq 120); do
  if curl -sf "http://127.0.0.1:$r1/primary" >/dev/null || curl -sf "http://127.0.0.1:$r2/primary" >/dev/null; then
    if curl -sf "http://127.0.0.1:$r1/sync" >/dev/null || curl -sf "http://127.0.0.1:$r2/sync" >/dev/null; then break; fi
  fi
  sleep 1
done
if curl -sf "http://127.0.0.1:$r1/primary" >/dev/null; then primary=(pg1 "$p1" "$r1"); else primary=(pg2 "$p2" "$r2"); fi
say "primary ${primary[0]}: pg1 $(role "$r1"), pg2 $(role "$r2")"
psql "postgres://postgres@127.0.0.1:${primary[1]}/postgres" -Atqc "CREATE DATABASE pigeon" >/dev/null

url="postgres://postgres:pg@127.0.0.1:$p1,127.0.0.1:$p2/pigeon?target_session_attrs=read-write&connect_timeout=2"
node() { # port dir
  PIGEON_DATABASE_URL="$url" PIGEON_ADMIN_TOKEN=svc_admin_drill_0123456789abcdef PIGEON_LOG=warn \
    "$bin" serve --addr "127.0.0.1:$1" --data-dir "$work/$2" --webhook-allow-private >"$work/$2.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return; sleep 0.1; done
  say "node $2 did not start"; cat "$work/$2.log" >&2; exit 1
}
na=$(free_port); nb=$(free_port)
node "$na" a
node "$nb" b
say "two pigeon nodes up on the primary"

python3 - "$na" "$nb" "${primary[@]}" "$r1" "$r2" "$work" <<'EOF'
import http.client, json, os, signal, subprocess, sys, threading, time

na, nb, name, pgport, rest, r1, r2, work = sys.argv[1:9]
H = {"Authorization": "Bearer svc_admin_drill_0123456789abcdef", "Content-Type": "application/json"}

def call(port, method, path, body=None, headers=None, timeout=10):
    c = http.client.HTTPConnection("127.0.0.1", int(port), timeout=timeout)
    try:
        c.request(method, path, json.dumps(body) if body is not None else None, headers or H)
        r = c.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        c.close()

s, t = call(na, "POST", "/admin/v1/tenants", {"name": "drill", "plan": "scale"})
tenant, key = t["data"]["id"], t["data"]["keys"]["live"]["key"]
call(na, "PATCH", f"/admin/v1/tenants/{tenant}", {"quiet_hours": {"enabled": False}})
call(na, "POST", "/admin/v1/phones", {"tenant_id": tenant, "number": "+14155550999", "driver": "sim",
                                      "daily_limit": 10_000_000, "sim": {"latency_ms": 0}})
K = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

acked, refused, lock = {}, [], threading.Lock()
stop_at = [None]
def client(i):
    n = 0
    port = na if i % 2 == 0 else nb
    while stop_at[0] is None or time.time() < stop_at[0]:
        idem = f"c{i}-{n}"
        body = {"to": f"+1415555{i:02d}{n % 100:02d}", "body": f"drill {idem}"}
        while True:
            try:
                s, r = call(port, "POST", "/v1/messages", body, {**K, "Idempotency-Key": idem}, timeout=15)
            except Exception as e:
                s, r = 0, {"error": str(e)}
            now = time.time()
            if s == 202:
                with lock:
                    acked[idem] = (r["data"]["message_id"], now)
                break
            with lock:
                refused.append((now, s, r.get("code")))
            time.sleep(0.2)
        n += 1
        time.sleep(0.02)

threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
[t.start() for t in threads]
time.sleep(10)
before = len(acked)
def pids_of(pattern):
    out = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]
postmaster = int(open(f"{work}/{name}/postmaster.pid").readline())
patroni = [p for p in pids_of(f"patroni {work}/{name}.yml")]
killed = time.time()
for p in patroni + [postmaster]:
    os.kill(p, signal.SIGKILL)
print(f"killed the primary {name} (postmaster {postmaster}, patroni {patroni}) with {before} messages acknowledged", file=sys.stderr)

# Until the standby is primary, then 20 s more of sends.
promoted = None
while promoted is None and time.time() - killed < 120:
    other = r2 if rest == r1 else r1
    try:
        c = http.client.HTTPConnection("127.0.0.1", int(other), timeout=2)
        c.request("GET", "/primary")
        if c.getresponse().status == 200:
            promoted = time.time()
    except Exception:
        pass
    time.sleep(0.2)
stop_at[0] = time.time() + 20
[t.join() for t in threads]

after = [r for r in refused if r[0] >= killed]
first_refused = min((r[0] for r in after), default=None)
last_refused = max((r[0] for r in after), default=None)
flowing = min((a[1] for a in acked.values() if last_refused and a[1] > last_refused), default=None)
present = 0
missing = []
for idem, (mid, _) in acked.items():
    s, r = call(nb, "GET", f"/v1/messages/{mid}", headers=K)
    if s == 200:
        present += 1
    else:
        missing.append((idem, mid, s))
codes = sorted({f"{r[1]} {r[2]}" for r in after})
print(json.dumps({
    "acknowledged": len(acked), "present": present, "missing": missing[:5],
    "acknowledged_before_kill": before,
    "promoted_after_s": round(promoted - killed, 1) if promoted else None,
    "first_refusal_after_s": round(first_refused - killed, 1) if first_refused else None,
    "refused_for_s": round(last_refused - first_refused, 1) if first_refused else 0,
    "flowing_again_after_s": round(flowing - killed, 1) if flowing else None,
    "refusals": len(after), "refusal_codes": codes,
}, indent=2))
EOF
