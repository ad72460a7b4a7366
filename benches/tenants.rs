//! Memory against tenants: the real server (bench-built, as `dist`) on a fresh store, N tenants each
//! with one sim phone and one text sent, then an idle period. Prints the server's RSS empty,
//! with every tenant active, after the idle period; then every tenant woken once more by an
//! operator call and idle again (memory is reused, not added to); then a fresh process on the
//! same store with every tenant's record read (the store's own share).
//!
//! `cargo bench --bench tenants [-- N [IDLE] [--webhooks]]` (default 100,000 tenants,
//! `--actor-idle 5s`; `150s` keeps every tenant made running until all are made, the worst case
//! for the memory after the peak; `1000h` shows the behaviour without passivation). With
//! `--webhooks` each tenant also has one endpoint (for inbound texts, so none is posted), whose
//! actor starts at every wake: each wake prints the time it took and the server's CPU seconds.

#![allow(missing_docs)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};

const ADMIN: &str = "svc_admin_bench000000000000000000000000";
const CONCURRENCY: usize = 64;

fn rss_mib(child: &Child) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

async fn call(client: &awc::Client, base: &str, method: &str, path: &str, token: &str, body: Value) -> Value {
    for _ in 0..5 {
        let req = client
            .request(method.parse().unwrap(), format!("{base}{path}"))
            .insert_header(("Authorization", format!("Bearer {token}")));
        if let Ok(mut r) = req.send_json(&body).await {
            let status = r.status().as_u16();
            let v: Value = r.json().limit(1 << 20).await.unwrap_or(Value::Null);
            assert!(status < 300, "{method} {path}: {status} {v}");
            return v;
        }
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{method} {path}: no answer");
}

/// One tenant: made, quiet hours off, a sim phone, one text.
async fn one_tenant(client: &awc::Client, base: &str, i: usize, webhook: bool) {
    let t = call(
        client,
        base,
        "POST",
        "/admin/v1/tenants",
        ADMIN,
        json!({"name": format!("t{i}"), "plan": "starter"}),
    )
    .await;
    let id = t["data"]["id"].as_str().unwrap().to_owned();
    let key = t["data"]["keys"]["live"]["key"].as_str().unwrap().to_owned();
    let off = json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"}});
    call(client, base, "PATCH", &format!("/admin/v1/tenants/{id}"), ADMIN, off).await;
    let phone = json!({"tenant_id": id, "number": format!("+1555{:07}", i), "driver": "sim", "sim": {"latency_ms": 0}});
    call(client, base, "POST", "/admin/v1/phones", ADMIN, phone).await;
    if webhook {
        let hook = json!({"url": "http://127.0.0.1:9/hook", "events": ["message.received"]});
        call(client, base, "POST", "/v1/webhooks", &key, hook).await;
    }
    call(
        client,
        base,
        "POST",
        "/v1/messages",
        &key,
        json!({"to": format!("+1415{:07}", i), "body": "hello"}),
    )
    .await;
}

/// The process's CPU time so far (user and system), in seconds.
fn cpu_s(child: &Child) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest.split_whitespace().map(|v| v.parse().unwrap_or(0.0)).collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

async fn running_actors(client: &awc::Client, base: &str) -> u64 {
    let Ok(mut r) = client.get(format!("{base}/metrics")).send().await else { return u64::MAX };
    let text =
        String::from_utf8(r.body().limit(8 << 20).await.unwrap_or_default().to_vec()).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("pigeon_tenant_actors "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map_or(u64::MAX, |v| v as u64)
}

/// Starts `pigeon serve` on `port` over `dir`; waits until it answers.
async fn serve(dir: &std::path::Path, port: u16, idle: &str, client: &awc::Client) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--actor-idle", idle])
        // The benches' endpoints are on loopback.
        .arg("--webhook-allow-private")
        .env("PIGEON_DATA_DIR", dir)
        .env("PIGEON_ADMIN_TOKEN", ADMIN)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while client.get(format!("http://127.0.0.1:{port}/readyz")).send().await.is_err() {
        actix_rt::time::sleep(Duration::from_millis(50)).await;
    }
    child
}

/// Waits (at most the idle time, up to 5 minutes of it, and 2 minutes) until no tenant actor
/// runs; returns how many still do.
async fn rested(client: &awc::Client, base: &str, idle: Duration) -> u64 {
    let from = Instant::now();
    let mut running = u64::MAX;
    let most = idle.min(Duration::from_secs(300)) + Duration::from_secs(120);
    while from.elapsed() < most && running > 0 {
        actix_rt::time::sleep(Duration::from_secs(2)).await;
        running = running_actors(client, base).await;
    }
    // A little longer, for the allocator to hand back what it can.
    actix_rt::time::sleep(Duration::from_secs(5)).await;
    running
}

/// Every tenant's id, through the operator's list.
async fn tenant_ids(client: &awc::Client, base: &str) -> Vec<String> {
    let (mut ids, mut after) = (Vec::new(), None::<String>);
    loop {
        let q = after.as_ref().map(|a| format!("&after={a}")).unwrap_or_default();
        let v =
            call(client, base, "GET", &format!("/admin/v1/tenants?limit=100{q}"), ADMIN, Value::Null).await;
        let items = v["data"].as_array().cloned().unwrap_or_default();
        let Some(last) = items.last() else { return ids };
        after = last["id"].as_str().map(str::to_owned);
        ids.extend(items.iter().filter_map(|t| t["id"].as_str().map(str::to_owned)));
    }
}

/// Wakes every tenant with an operator call that starts its actors (its phones' list); prints
/// how long it took and the server's CPU time for it.
async fn wake_all(client: &awc::Client, base: &str, child: &Child) {
    let ids = tenant_ids(client, base).await;
    let (n, from, cpu) = (ids.len(), Instant::now(), cpu_s(child));
    futures_util::stream::iter(ids)
        .map(|id| async move {
            let path = format!("/admin/v1/phones?tenant_id={id}");
            call(client, base, "GET", &path, ADMIN, Value::Null).await;
        })
        .buffer_unordered(CONCURRENCY)
        .collect::<Vec<()>>()
        .await;
    let answered = from.elapsed().as_secs_f64();
    // Actors started on a wake finish starting after its answer: let the server settle.
    let mut last = cpu_s(child);
    loop {
        actix_rt::time::sleep(Duration::from_millis(500)).await;
        let now = cpu_s(child);
        if now - last < 0.05 {
            break;
        }
        last = now;
    }
    println!("  woken: {n} tenants answered in {answered:.2} s; the server's CPU for it {:.2} s", last - cpu);
}

fn main() {
    let webhooks = std::env::args().any(|a| a == "--webhooks");
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with('-'));
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let idle = args.next().unwrap_or_else(|| "5s".into());
    let idle_for = humantime::parse_duration(&idle).expect("IDLE: a duration like 5s");
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    actix_rt::System::new().block_on(async {
        let client = awc::Client::builder().timeout(Duration::from_secs(30)).finish();
        let mut child = serve(dir.path(), port, &idle, &client).await;
        let empty = rss_mib(&child);
        println!("server empty: RSS {empty:.0} MiB");
        let per_tenant = |rss: f64| (rss - empty) * 1024.0 / n as f64;
        let started = Instant::now();
        futures_util::stream::iter(0..n)
            .map(|i| {
                let (client, base) = (&client, &base);
                async move { one_tenant(client, base, i, webhooks).await }
            })
            .buffer_unordered(CONCURRENCY)
            .collect::<Vec<()>>()
            .await;
        let rss = rss_mib(&child);
        println!(
            "{n} tenants made, each with a sim phone and one text, in {:.0} s: RSS {rss:.0} MiB \
             ({:.1} KB per tenant over empty), {} tenant actors running",
            started.elapsed().as_secs_f64(),
            per_tenant(rss),
            running_actors(&client, &base).await
        );
        let running = rested(&client, &base, idle_for).await;
        let rss = rss_mib(&child);
        println!(
            "idle (--actor-idle {idle}): RSS {rss:.0} MiB ({:.1} KB per tenant), {running} tenant actors running",
            per_tenant(rss)
        );

        wake_all(&client, &base, &child).await;
        println!(
            "every tenant woken again: RSS {:.0} MiB, {} running",
            rss_mib(&child),
            running_actors(&client, &base).await
        );
        let running = rested(&client, &base, idle_for).await;
        let rss = rss_mib(&child);
        println!("idle again: RSS {rss:.0} MiB ({:.1} KB per tenant), {running} running", per_tenant(rss));
        let _ = child.kill();
        let _ = child.wait();

        let mut child = serve(dir.path(), port, &idle, &client).await;
        let opened = rss_mib(&child);
        tenant_ids(&client, &base).await;
        println!(
            "a fresh process on the same store: RSS {opened:.0} MiB opened, {:.0} MiB with every tenant read",
            rss_mib(&child)
        );
        wake_all(&client, &base, &child).await;
        let running = rested(&client, &base, idle_for).await;
        println!("  every tenant woken there, then idle: RSS {:.0} MiB, {running} running", rss_mib(&child));
        let _ = child.kill();
        let _ = child.wait();
    });
}
