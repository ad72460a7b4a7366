# Shared by the shell benchmarks and drills that run PostgreSQL from Debian's package on loopback:
# source it, then `pg_work` (a scratch directory the postgres user can use, and `as_pg` to run its
# tools when we are root: PostgreSQL refuses root), `free_port`, and `pg_cluster_start` /
# `pg_cluster_stop` for a throwaway cluster with trust authentication (its port in `$pg_port`, the
# `sql` function runs a statement on it).
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

pg_work() {
  work=$(mktemp -d)
  chmod 755 "$work"
  as_pg=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$work"
    as_pg=(runuser -u postgres --)
  fi
}

# shellcheck source=benches/lib/port.sh
source "$(dirname "${BASH_SOURCE[0]}")/port.sh"

pg_cluster_start() {
  pg_port=$(free_port)
  "${as_pg[@]}" "$pgbin/initdb" -A trust -U pigeon -E UTF8 --locale=C -D "$work/data" >/dev/null
  "${as_pg[@]}" "$pgbin/pg_ctl" start -w -D "$work/data" -l "$work/pg.log" \
    -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c shared_buffers=1GB -c max_wal_size=4GB" >/dev/null
}

pg_cluster_stop() { "${as_pg[@]}" "$pgbin/pg_ctl" stop -m fast -D "$work/data" >/dev/null || true; }

sql() { psql -h 127.0.0.1 -p "$pg_port" -U pigeon -At -d postgres -c "$1"; }
