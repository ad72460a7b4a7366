#!/usr/bin/env bash
# Where a send's CPU goes: `perf record` of the node for SECS seconds of a closed-loop
# `pigeon loadtest` (its own server, webhooks to its sink), then the node's samples by thread and
# the inclusive share of the frames that make a send. Shares are of the node's samples; the
# harness's own CPU is not in them. A profile names candidates; only an A/B of CPU per message
# (`benches/cpu-per-message.sh`, binaries alternating) says what removing one buys.
#
#   benches/send-profile.sh [path/to/pigeon] [SECS]      (needs `perf`; run as root)
set -euo pipefail
bin=$(realpath "${1:-target/dist/pigeon}")
secs=${2:-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" loadtest --duration $((secs + 12))s --quiet --json "$work/r.json" >/dev/null 2>&1 &
harness=$!
sleep 6
node=$(awk '{print $1}' "/proc/$harness/task/$harness/children")
perf record -q -F 299 --call-graph dwarf,32768 -p "$node" -o "$work/perf.data" -- sleep "$secs" >/dev/null 2>&1
wait $harness
perf script -i "$work/perf.data" -F comm,tid,ip,sym >"$work/stacks" 2>/dev/null
python3 - "$work/r.json" "$work/stacks" <<'EOF'
import collections, json, re, sys
# Frames whose inclusive share is reported: (label, patterns a sample's frames must all match).
FRAMES = [
    ("HTTP: the edge middleware and the handler", r"^pigeon::edge::edge::\{\{closure"),
    ("tenant: admit and accept a send", r"Handler<pigeon_actors::tenant::send::AdmitSend>.*::handle$"),
    ("  Messages::accept (its writes)", r"^pigeon_storage::store::messages::Messages::accept$"),
    ("phone: take, send (sim), save", r"^pigeon_actors::phone::PhoneActor::dispatch$"),
    ("  write_with_events (message + delivery)", r"^pigeon_actors::webhook::outbox::write_with_events$"),
    ("webhook: the HTTP attempt (awc)", r"WebhookActor::attempt|^<?awc::"),
    ("webhook: record the attempt (put_delivery)", r"Webhooks::put_delivery$", r"ContextFut<pigeon_actors::webhook"),
    ("webhook: read the delivery back", r"^pigeon_storage::store::webhooks::Webhooks::delivery$"),
    ("sled: every insert", r"^sled::tree::Tree::insert_inner$"),
    ("  of which node splits", r"^sled::tree::Tree::split_node$"),
    ("sled: segment cleaning (rewrite_page)", r"^sled::pagecache::PageCache::rewrite_page$"),
    ("sled: every read", r"^sled::tree::Tree::get_inner$"),
    ("sled I/O: write_to_log (pwrite, sync_file_range)", r"^sled::pagecache::iobuf::IoBufs::write_to_log$"),
    ("committer: fdatasync", r"fdatasync"),
    ("allocator (mimalloc)", r"^_?mi_"),
    ("kernel: task switching", r"^finish_task_switch"),
]
# What a thread runs, by the outermost frame that names it.
ROLES = [
    ("webhooks", "ContextFut<pigeon_actors::webhook"),
    ("phones", "ContextFut<pigeon_actors::phone"),
    ("tenants", "ContextFut<pigeon_actors::tenant"),
    ("HTTP", "h1::dispatcher"),
]
threads = collections.Counter()
roles = collections.defaultdict(collections.Counter)
frames = collections.Counter()
total = 0
def done(head, stack):
    global total
    if head is None:
        return
    comm, tid = head
    total += 1
    threads[(comm, tid)] += 1
    role = next((r for f in reversed(stack) for r, key in ROLES if key in f), None)
    if role:
        roles[(comm, tid)][role] += 1
    for label, *pats in FRAMES:
        if all(any(re.search(p, f) for f in stack) for p in pats):
            frames[label] += 1
head, stack = None, []
for line in open(sys.argv[2]):
    if not line.strip():
        done(head, stack); head, stack = None, []
    elif not line.startswith("\t"):
        done(head, stack)
        m = re.match(r"^\s*(.*?)\s+(\d+)\s*$", line.rstrip("\n"))
        head, stack = ((m.group(1), m.group(2)) if m else ("?", "?")), []
    else:
        parts = line.strip().split(None, 1)
        if len(parts) == 2:
            stack.append(re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r" \(\S+\)$", "", parts[1])))
done(head, stack)
r = json.load(open(sys.argv[1]))
print(f"closed loop: {r['accepted_per_s']:,.0f} sends/s; {total} samples of the node")
print("\n| node thread | share |\n|---|---:|")
for (comm, tid), n in threads.most_common(14):
    role = ", ".join(k for k, _ in roles[(comm, tid)].most_common(2)) or comm
    role = role if role == comm else f"{role} ({comm})"
    print(f"| {role} | {100 * n / total:.1f} % |")
print("\n| frames (inclusive) | share |\n|---|---:|")
for label, *_ in FRAMES:
    print(f"| {label} | {100 * frames[label] / total:.1f} % |")
EOF
