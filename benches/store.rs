//! Durable writes per second through the store: group commit (writers share flushes) against one
//! unshared flush per write, with 1, 16 and 256 concurrent writers.
//!
//! `cargo bench --bench store`. Each iteration is one record written and on disk.

// criterion's macros generate undocumented public items.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use chrono::Utc;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pigeon_storage::model::{Plan, QuietHours, TenantRecord, TenantStatus};
use pigeon_storage::Store;

fn record(store: &Store) -> TenantRecord {
    let now = Utc::now();
    TenantRecord {
        id: store.new_id(),
        name: "bench tenant".into(),
        plan: Plan::Growth,
        status: TenantStatus::Active,
        subscription_active: true,
        trial_ends_at: now,
        new_contact_daily_limit: None,
        monthly_call_limit: None,
        quiet_hours: QuietHours::default(),
        replies: Default::default(),
        media_bytes_limit: None,
        created_at: now,
    }
}

/// Runs `total` durable writes spread over `writers` tasks; returns the elapsed time.
async fn run(store: &Store, writers: u64, total: u64, shared: bool) -> Duration {
    let per = total.div_ceil(writers);
    let start = Instant::now();
    let tasks: Vec<_> = (0..writers)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                for _ in 0..per {
                    store.tenants().put(&record(&store)).unwrap();
                    if shared {
                        store.commit().await.unwrap();
                    } else {
                        let s = store.clone();
                        tokio::task::spawn_blocking(move || s.flush_unshared().unwrap()).await.unwrap();
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    start.elapsed()
}

fn durable_writes(c: &mut Criterion) {
    let rt =
        tokio::runtime::Builder::new_multi_thread().enable_all().max_blocking_threads(512).build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut g = c.benchmark_group("durable_writes");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for writers in [1u64, 16, 256] {
        for (name, shared) in [("group_commit", true), ("flush_per_write", false)] {
            g.bench_with_input(BenchmarkId::new(name, writers), &writers, |b, &w| {
                b.to_async(&rt).iter_custom(|iters| {
                    let store = store.clone();
                    async move {
                        run(&store, w, iters.max(w), shared).await.mul_f64(iters as f64 / iters.max(w) as f64)
                    }
                })
            });
        }
    }
    g.finish();
    let s = store.commit_stats();
    println!("group commit: {} commits served by {} flushes", s.commits, s.flushes);
}

criterion_group!(benches, durable_writes);
criterion_main!(benches);
