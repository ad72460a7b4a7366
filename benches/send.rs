//! The in-process send path: E.164 validation → tenant actor (opt-out, new-contact limit, phone
//! choice) → durable write with group commit → phone actor, at 1 and 64 concurrent senders.
//!
//! `cargo bench --bench send`. Each iteration is one message accepted and on disk.

// criterion's macros generate undocumented public items.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Channel, PhoneDriver, Plan, SimSettings};
use pigeon_actors::storage::Store;
use pigeon_actors::{Engine, EngineConfig, SendRequest, TenantHandle};

fn request(i: u64) -> SendRequest {
    let to = format!("+1415555{:04}", i % 500);
    SendRequest {
        to: PhoneNumber::parse(&to).expect("valid"),
        channel: Channel::Auto,
        body: "Your code is 123456".into(),
        test: false,
        idempotency_key: None,
        template: None,
        send_at: None,
        campaign_id: None,
        from: None,
        metadata: Default::default(),
        valid_for: None,
        media: Vec::new(),
    }
}

async fn run(tenant: &TenantHandle, senders: u64, total: u64) -> Duration {
    let per = total.div_ceil(senders);
    let start = Instant::now();
    let tasks: Vec<_> = (0..senders)
        .map(|s| {
            let t = tenant.clone();
            actix_rt::spawn(async move {
                for i in 0..per {
                    t.send(request(s * per + i)).await.expect("accepted");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    start.elapsed().mul_f64(total as f64 / (per * senders) as f64)
}

fn send_path(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let sys = actix_rt::System::new();
    let tenant = sys.block_on(async {
        let store = Store::open(dir.path()).unwrap();
        let engine = Engine::start(store, EngineConfig::default()).unwrap();
        let t = engine.create_tenant("bench".into(), Plan::Scale).await.unwrap();
        let h = engine.tenant(t.tenant.id).unwrap();
        let sim = SimSettings { latency_ms: 0, ..SimSettings::default() };
        h.add_phone(PhoneNumber::parse("+14155550999").unwrap(), u32::MAX, PhoneDriver::Sim, sim)
            .await
            .unwrap();
        // Every recipient known already, so the new-contact limit stays out of the way.
        run(&h, 1, 500).await;
        h
    });

    let mut g = c.benchmark_group("send_path");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for senders in [1u64, 64] {
        g.bench_with_input(BenchmarkId::new("senders", senders), &senders, |b, &n| {
            b.iter_custom(|iters| {
                sys.block_on(run(&tenant, n, iters.max(n))).mul_f64(iters as f64 / iters.max(n) as f64)
            })
        });
    }
    g.finish();

    c.bench_function("e164_parse", |b| {
        b.iter(|| PhoneNumber::parse(std::hint::black_box("+14155550100")).is_some())
    });
}

criterion_group!(benches, send_path);
criterion_main!(benches);
