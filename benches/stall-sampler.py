#!/usr/bin/env python3
"""Where a process's threads wait on the kernel, second by second (issue 26).

Every 10 ms it reads the state of each thread of PID; for a thread in uninterruptible sleep (D)
it records the top of its kernel stack. Once a second it writes a JSON line: those stacks by
thread name with their sample counts (one sample is ~10 ms of waiting), the page cache's Dirty
and Writeback, the disk's reads, writes, device flushes and busy time over that second, and the
machine's CPU time stolen by its hypervisor and spent waiting for I/O.
Needs root (kernel stacks). Align its seconds with `pigeon loadtest --json`'s 10 s windows.

    benches/stall-sampler.py PID out.jsonl [disk]        # disk: a name in /proc/diskstats, vda
"""
import collections
import json
import os
import sys
import time


def disk(name):
    for line in open('/proc/diskstats'):
        f = line.split()
        if f[2] == name:
            # Fields after the name: reads, merged, sectors, ms; writes, merged, sectors, ms;
            # in flight, busy ms, weighted ms; discards (4); flushes, flush ms.
            return {'rd_sec': int(f[5]), 'rd_ms': int(f[6]), 'wr_ios': int(f[7]), 'wr_sec': int(f[9]),
                    'wr_ms': int(f[10]), 'busy_ms': int(f[12]), 'flushes': int(f[18]), 'flush_ms': int(f[19])}
    sys.exit(f'no disk {name} in /proc/diskstats')


def cpu():
    # user nice system idle iowait irq softirq steal, in clock ticks (USER_HZ, 100 a second).
    f = open('/proc/stat').readline().split()
    return {'iowait': int(f[5]), 'steal': int(f[8])}


def meminfo():
    out = {}
    for line in open('/proc/meminfo'):
        key, value = line.split(':')
        if key in ('Dirty', 'Writeback'):
            out[key + '_mib'] = int(value.split()[0]) // 1024
    return out


def waiting(pid, counts):
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            stat = open(f'/proc/{pid}/task/{tid}/stat').read()
            if stat[stat.rindex(')') + 2] != 'D':
                continue
            name = stat[stat.index('(') + 1:stat.rindex(')')].rstrip('0123456789')
            frames = [line.split()[1].split('+')[0] for line in open(f'/proc/{pid}/task/{tid}/stack')]
            counts[(name, '<'.join(frames[:6]))] += 1
        except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
            pass  # the thread ended between the listing and the read


def main():
    pid, path = int(sys.argv[1]), sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else 'vda'
    out = open(path, 'w')
    start = time.monotonic()
    tick, before, cpu_before = start + 1, disk(name), cpu()
    counts = collections.Counter()
    while os.path.exists(f'/proc/{pid}'):
        waiting(pid, counts)
        now = time.monotonic()
        if now >= tick:
            after, cpu_after = disk(name), cpu()
            d = {k: after[k] - before[k] for k in after}
            ticks = {k: (cpu_after[k] - cpu_before[k]) * 10 for k in cpu_after}
            line = {'t': round(now - start, 1), **meminfo(),
                    'read_mib': round(d['rd_sec'] / 2048, 1), 'written_mib': round(d['wr_sec'] / 2048, 1),
                    'writes': d['wr_ios'], 'write_ms': d['wr_ms'], 'read_ms': d['rd_ms'],
                    'busy_ms': d['busy_ms'], 'flushes': d['flushes'], 'flush_ms': d['flush_ms'],
                    'steal_ms': ticks['steal'], 'iowait_ms': ticks['iowait'],
                    'waiting': [[thread, stack, n] for (thread, stack), n in counts.most_common(8)]}
            out.write(json.dumps(line) + '\n')
            out.flush()
            before, cpu_before, tick = after, cpu_after, tick + 1
            counts.clear()
        time.sleep(0.01)


if __name__ == '__main__':
    main()
