//! Micro-benchmarks of the pieces every request or delivery pays for: template rendering, the
//! webhook signature, the rate-limit check (bare, and as the whole key admission), the phone
//! choice, and the head-limit framing every byte read passes through. E.164 validation is in `send.rs` beside the send path it guards.
//!
//! `cargo bench --bench micro`.

// criterion's macros generate undocumented public items.
#![allow(missing_docs)]

use std::num::NonZeroU32;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use governor::{Quota, RateLimiter};
use pigeon_actors::domain::TemplateBody;
use pigeon_actors::storage::model::Plan;
use pigeon_actors::storage::Store;
use pigeon_actors::{choose_phone, Engine, EngineConfig};
use std::hint::black_box;
use ulid::Ulid;

/// A send as the load harness makes it (head and body in one read), through the head-limit framing.
fn framing(c: &mut Criterion) {
    let body = r#"{"to":"+15551234567","body":"Your code is 4821. It expires in ten minutes."}"#;
    let request = format!(
        "POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1:8080\r\nauthorization: Bearer svc_live_0123456789abcdef0123456789abcdef\r\n\
         content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut f = pigeon::server::framing::Framing::default();
    c.bench_function("framing_one_send", |b| b.iter(|| f.feed(black_box(request.as_bytes())).is_ok()));
}

fn template(c: &mut Criterion) {
    let src = "Hi {{ first_name }}, your order {{order.id}} ships {{ day }}. Reply STOP to opt out.";
    c.bench_function("template_parse", |b| b.iter(|| TemplateBody::parse(black_box(src)).is_ok()));
    let t = TemplateBody::parse(src).unwrap();
    let value = |name: &str| match name {
        "first_name" => Some("Ada".into()),
        "order.id" => Some("A-1042".into()),
        "day" => Some("Tuesday".into()),
        _ => None,
    };
    c.bench_function("template_render", |b| b.iter(|| black_box(&t).render(10_000, value).is_ok()));
}

fn signature(c: &mut Criterion) {
    let body = br#"{"event":"message.delivered","event_id":"01JDQ0000000000000000000","message_id":"01JDQ0000000000000000001","from":"+14155550100","to":"+14155550101","channel":"sms","timestamp":"2026-11-22T12:00:00.000Z","test":false}"#;
    c.bench_function("webhook_hmac_sign", |b| {
        b.iter(|| pigeon_actors::webhook::sign(black_box("whsec_0123456789abcdef0123456789abcdef"), body))
    });
}

fn rate_limit(c: &mut Criterion) {
    let limiter = RateLimiter::direct(Quota::per_minute(NonZeroU32::new(200).unwrap()));
    c.bench_function("rate_limit_check_bare", |b| b.iter(|| black_box(&limiter).check().is_ok()));

    // The whole admission of a request: key hash, key lookup, the tenant actor, the limiter.
    let dir = tempfile::tempdir().unwrap();
    let sys = actix_rt::System::new();
    let (engine, key) = sys.block_on(async {
        let store = Store::open(dir.path()).unwrap();
        let engine = Engine::start(store, EngineConfig::default()).unwrap();
        let t = engine.create_tenant("bench".into(), Plan::Growth).await.unwrap();
        (engine, t.live.key)
    });
    c.bench_function("key_admission", |b| {
        b.iter(|| sys.block_on(engine.authenticate(black_box(&key))).1.is_ok())
    });
}

fn phone_choice(c: &mut Criterion) {
    let mut g = c.benchmark_group("phone_choice");
    for n in [4usize, 100] {
        let phones: Vec<(Ulid, Option<u32>)> = (0..n)
            .map(|i| (Ulid::from_parts(i as u64, i as u128), (i % 5 != 0).then_some(1000 - i as u32)))
            .collect();
        let sticky = Some(phones[n - 1].0);
        g.bench_with_input(BenchmarkId::new("phones", n), &phones, |b, p| {
            b.iter(|| choose_phone(black_box(p).iter().copied(), black_box(None)))
        });
        g.bench_with_input(BenchmarkId::new("sticky_last_of", n), &phones, |b, p| {
            b.iter(|| choose_phone(black_box(p).iter().copied(), black_box(sticky)))
        });
    }
    g.finish();
}

criterion_group!(benches, template, signature, rate_limit, phone_choice, framing);
criterion_main!(benches);
