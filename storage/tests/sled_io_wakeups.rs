//! Guards the one change pigeon makes to sled 0.34.7 (vendor/sled/PIGEON.md): handing a log
//! buffer to sled's I/O pool wakes one idle thread, not all seven. Unpatched, every group commit's
//! flush woke every idle `sled-io` thread, and all but one went back to sleep: 8 context switches
//! per flush against 2, and ~12 % more of a node's CPU per message at 2,000 sends a second.
//!
//! Its own test binary: sled's pool is process-wide, so no other test may flush meanwhile.

#![cfg(target_os = "linux")]

use std::time::Duration;

use pigeon_storage::Store;
use ulid::Ulid;

/// Voluntary context switches of this process's `sled-io` threads so far.
fn sled_io_switches() -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").unwrap() {
        let dir = task.unwrap().path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        if !name.starts_with("sled-io") {
            continue;
        }
        let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
        total += status
            .lines()
            .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0);
    }
    total
}

#[tokio::test]
async fn a_flush_wakes_one_sled_io_thread_not_every_idle_one() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(dir.path()).unwrap();
    let t = Ulid::generate();
    // Warm up, then let the pool's threads all go idle.
    // Each commit follows a real write (a flush with nothing new writes no buffer).
    let write = |n: u64| s.numbers().set_opted_out(t, "+15550100", n % 2 == 0).unwrap();
    for n in 0..20 {
        write(n);
        s.commit().await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let flushes_before = s.commit_stats().flushes;
    let before = sled_io_switches();
    for n in 0..200 {
        write(n);
        s.commit().await.unwrap();
        // Idle between flushes, as on a quiet node: every thread of the pool waits again.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let flushes = s.commit_stats().flushes - flushes_before;
    let per_flush = (sled_io_switches() - before) as f64 / flushes as f64;
    assert!(flushes >= 200, "each commit flushed alone: {flushes}");
    // Measured here: 2.0 with the change (the one thread that writes the buffer blocks on its
    // write and waits again), 8.0 without it (every idle thread woke for each).
    assert!(per_flush < 4.0, "{per_flush:.1} sled-io context switches per flush");
}
