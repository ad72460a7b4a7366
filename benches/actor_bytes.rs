//! What one running tenant holds in memory: the engine in-process on a real store, N tenants
//! each with a sim phone and one text, a counting allocator. Prints the live heap with every
//! tenant's actors running and with every tenant at rest, the difference per tenant, and which
//! allocation sizes make it up (the biggest first).
//!
//! `cargo bench --bench actor_bytes [-- N]` (default 5,000).

#![allow(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::time::Duration;

use pigeon_actors::clock::ManualClock;
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Channel, PhoneDriver, Plan, SimSettings};
use pigeon_actors::storage::Store;
use pigeon_actors::{Engine, EngineConfig, QuietHoursPatch, SendRequest, TenantPatch};

/// Live allocations by size: bucket `i` holds sizes in `(16 i, 16 (i + 1)]`, the last one all
/// larger ones.
const BUCKETS: usize = 257;
static LIVE: [AtomicI64; BUCKETS] = [const { AtomicI64::new(0) }; BUCKETS];
static LIVE_BYTES: AtomicI64 = AtomicI64::new(0);

struct Counting;

fn bucket(size: usize) -> usize {
    (size.saturating_sub(1) / 16).min(BUCKETS - 1)
}

#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE[bucket(l.size())].fetch_add(1, Relaxed);
        LIVE_BYTES.fetch_add(l.size() as i64, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE[bucket(l.size())].fetch_sub(1, Relaxed);
        LIVE_BYTES.fetch_sub(l.size() as i64, Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE[bucket(l.size())].fetch_sub(1, Relaxed);
        LIVE[bucket(new)].fetch_add(1, Relaxed);
        LIVE_BYTES.fetch_add(new as i64 - l.size() as i64, Relaxed);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

struct Snapshot {
    bytes: i64,
    live: Vec<i64>,
}

fn snapshot() -> Snapshot {
    Snapshot { bytes: LIVE_BYTES.load(Relaxed), live: LIVE.iter().map(|c| c.load(Relaxed)).collect() }
}

async fn rested(engine: &Engine, clock: &ManualClock) {
    clock.advance(Duration::from_secs(120));
    while engine.running_tenants() > 0 {
        actix_rt::time::sleep(Duration::from_millis(100)).await;
    }
    actix_rt::time::sleep(Duration::from_millis(500)).await;
}

fn report(what: &str, running: &Snapshot, rest: &Snapshot, n: usize) {
    println!(
        "{what}: live heap {:.1} MiB running, {:.1} MiB at rest: {:.0} bytes per running tenant",
        running.bytes as f64 / 1048576.0,
        rest.bytes as f64 / 1048576.0,
        (running.bytes - rest.bytes) as f64 / n as f64
    );
    let mut by: Vec<(usize, f64, f64)> = (0..BUCKETS)
        .map(|i| {
            let count = (running.live[i] - rest.live[i]) as f64 / n as f64;
            (i, count, count * 16.0 * (i + 1) as f64)
        })
        .filter(|(_, c, _)| *c >= 0.05)
        .collect();
    by.sort_by(|a, b| b.2.total_cmp(&a.2));
    for (i, count, bytes) in by.iter().take(16) {
        let size =
            if *i == BUCKETS - 1 { "larger".to_owned() } else { format!("{}..{}", 16 * i + 1, 16 * (i + 1)) };
        println!("  {size:>12} B: {count:5.2} allocations per tenant, up to {bytes:6.0} bytes");
    }
}

fn main() {
    let n: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(5_000);
    let dir = tempfile::tempdir().unwrap();
    actix_rt::System::new().block_on(async move {
        let clock = ManualClock::new(chrono::Utc::now());
        let store =
            Store::open_with(dir.path(), pigeon_actors::storage::DEFAULT_CACHE_MB, clock.clone()).unwrap();
        let config = EngineConfig { actor_idle: Duration::from_secs(1), ..EngineConfig::default() };
        let engine = Engine::start(store, config).unwrap();
        let mut ids = Vec::with_capacity(n);
        for i in 0..n {
            let t = engine.create_tenant(format!("t{i}"), Plan::Starter).await.unwrap();
            let handle = engine.tenant(t.tenant.id).unwrap();
            let off = QuietHoursPatch { enabled: Some(false), ..Default::default() };
            handle.patch(TenantPatch { quiet_hours: Some(off), ..Default::default() }).await.unwrap();
            let number = PhoneNumber::parse(&format!("+1555{i:07}")).unwrap();
            let sim = SimSettings { latency_ms: 0, ..SimSettings::default() };
            handle.add_phone(number, 300, PhoneDriver::Sim, sim).await.unwrap();
            let key = engine.locate_key(&t.live.key).unwrap();
            let req = SendRequest {
                to: PhoneNumber::parse(&format!("+1415{i:07}")).unwrap(),
                channel: Channel::Auto,
                body: "hello".into(),
                test: false,
                idempotency_key: None,
                template: None,
                send_at: None,
                campaign_id: None,
                from: None,
                metadata: Default::default(),
                valid_for: None,
                media: Vec::new(),
            };
            engine.send_with_key(key, Some(req)).await.1.unwrap();
            ids.push(t.tenant.id);
        }
        actix_rt::time::sleep(Duration::from_secs(1)).await;
        let made = snapshot();
        rested(&engine, &clock).await;
        let rest = snapshot();
        report(&format!("{n} tenants made, one text each"), &made, &rest, n);
        for id in &ids {
            engine.tenant(*id).unwrap().phones().await.unwrap();
        }
        let woken = snapshot();
        rested(&engine, &clock).await;
        let rest = snapshot();
        report("every tenant woken by a call", &woken, &rest, n);
        engine.shutdown().await.unwrap();
    });
}
