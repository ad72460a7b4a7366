//! Webhook deliveries per second to a local sink: test-key sends complete at once, each makes a
//! signed `message.delivered` delivery, and the iteration ends when the sink has answered 200 to
//! it. So one iteration = accept + complete + outbox write + signed HTTP POST + log update.
//!
//! `cargo bench --bench webhooks`.

// criterion's macros generate undocumented public items.
#![allow(missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::{web, App, HttpResponse, HttpServer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pigeon_actors::domain::PhoneNumber;
use pigeon_actors::storage::model::{Channel, Plan};
use pigeon_actors::storage::Store;
use pigeon_actors::{Engine, EngineConfig, SendRequest};

fn deliveries(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let sys = actix_rt::System::new();
    let received = Arc::new(AtomicU64::new(0));
    let tenant = sys.block_on(async {
        let count = received.clone();
        let sink = HttpServer::new(move || {
            let count = count.clone();
            App::new().default_service(web::to(move || {
                count.fetch_add(1, Ordering::Relaxed);
                async { HttpResponse::Ok().finish() }
            }))
        })
        .workers(1)
        .bind("127.0.0.1:0")
        .unwrap();
        let url = format!("http://{}/hook", sink.addrs()[0]);
        actix_rt::spawn(sink.run());
        let store = Store::open(dir.path()).unwrap();
        let config = EngineConfig {
            webhook_allow_private: pigeon_actors::webhook::PrivateNetworks::Allowed,
            ..EngineConfig::default()
        };
        let engine = Engine::start(store, config).unwrap();
        let t = engine.create_tenant("bench".into(), Plan::Scale).await.unwrap();
        let h = engine.tenant(t.tenant.id).unwrap();
        h.create_webhook(url, vec!["message.delivered".into()], None).await.unwrap();
        h
    });

    let mut g = c.benchmark_group("webhooks");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    g.bench_function("delivered_to_local_sink", |b| {
        b.iter_custom(|iters| {
            sys.block_on(async {
                let target = received.load(Ordering::Relaxed) + iters;
                let start = Instant::now();
                let senders: Vec<_> = (0..32u64)
                    .map(|s| {
                        let t = tenant.clone();
                        actix_rt::spawn(async move {
                            for i in (s..iters).step_by(32) {
                                let to = PhoneNumber::parse(&format!("+1415555{:04}", i % 1000)).unwrap();
                                let req = SendRequest {
                                    to,
                                    channel: Channel::Auto,
                                    body: "hi".into(),
                                    test: true,
                                    idempotency_key: None,
                                    template: None,
                                    send_at: None,
                                    campaign_id: None,
                                    from: None,
                                    metadata: Default::default(),
                                    valid_for: None,
                                    media: Vec::new(),
                                };
                                t.send(req).await.unwrap();
                            }
                        })
                    })
                    .collect();
                for s in senders {
                    s.await.unwrap();
                }
                while received.load(Ordering::Relaxed) < target {
                    actix_rt::time::sleep(Duration::from_millis(1)).await;
                }
                start.elapsed()
            })
        })
    });
    g.finish();
}

criterion_group!(benches, deliveries);
criterion_main!(benches);
