#!/usr/bin/env python3
"""What the disk alone does: appends and fdatasyncs at a steady pace, as a group committer would,
and prints each 10 s window's p50, p99 and longest sync. With nothing else running it is the
floor under pigeon's accept tail on that machine (issue 26). The file is removed at the end.

    benches/disk-sync-probe.py [MB/s] [seconds] [syncs/s] [dir]
    benches/disk-sync-probe.py 50 300 1200 /var/lib/pigeon
"""
import os
import sys
import time

mb_s = float(sys.argv[1]) if len(sys.argv) > 1 else 50
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 300
per_s = int(sys.argv[3]) if len(sys.argv) > 3 else 1200
path = os.path.join(sys.argv[4] if len(sys.argv) > 4 else '.', 'disk-sync-probe.dat')
chunk = os.urandom(int(mb_s * 1048576 / per_s))
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
try:
    start = window_start = time.monotonic()
    syncs, n = [], 0
    while time.monotonic() - start < seconds:
        t = time.monotonic()
        os.write(fd, chunk)
        os.fdatasync(fd)
        syncs.append((time.monotonic() - t) * 1000)
        n += 1
        time.sleep(max(0.0, start + n / per_s - time.monotonic()))
        if time.monotonic() - window_start >= 10:
            syncs.sort()
            print(f'{time.monotonic() - start:5.0f} s  syncs {len(syncs)}  p50 {syncs[len(syncs) // 2]:.2f}  '
                  f'p99 {syncs[int(len(syncs) * 0.99)]:.2f}  max {syncs[-1]:.1f} ms', flush=True)
            syncs, window_start = [], time.monotonic()
            if os.fstat(fd).st_size > 4 << 30:  # stay under 4 GiB
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
finally:
    os.close(fd)
    os.unlink(path)
