#!/bin/bash
# What a message costs on disk: starts `serve` on a fresh data dir, sends N messages at a steady
# rate through sim phones with one webhook, then prints the data directory's size, the writes
# counted by the store, and the live size that `pigeon compact` leaves.
#
#   benches/disk-per-message.sh [pigeon binary] [messages] [rate]
#   benches/disk-per-message.sh target/dist/pigeon 150000 10000
set -euo pipefail
bin=${1:-target/dist/pigeon}
n=${2:-150000}
rate=${3:-10000}
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PIGEON_ADMIN_TOKEN=svc_admin_bench_0123456789abcdef PIGEON_LOG=warn PIGEON_WEBHOOK_ALLOW_PRIVATE=true \
  "$bin" serve --data-dir "$dir/data" --addr "127.0.0.1:$port" >"$dir/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
sleep 1.5
"$bin" loadtest --url "http://127.0.0.1:$port" --admin-token svc_admin_bench_0123456789abcdef --messages "$n" --warmup 0s --duration 30m \
  --rate "$rate" --quiet | grep -E "accepted|lost|store"
curl -s "127.0.0.1:$port/metrics" | grep -E "^pigeon_store_(size_bytes|writes_total)"
kill $pid; wait $pid 2>/dev/null || true
size=$(du -sb "$dir/data" | cut -f1)
echo "data dir after stop: $size bytes, $((size / n)) per message"
"$bin" compact --data-dir "$dir/data" | tail -1
live=$(du -sb "$dir/data" | cut -f1)
echo "live after compaction: $live bytes, $((live / n)) per message"
