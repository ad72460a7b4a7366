//! `pigeon agent` draining a backlog: the bench-built server (as `dist`) with one agent phone holding N queued
//! sends (default 10,000), then one `pigeon agent --connector command --send-command true
//! --command-delivers` started against it; reports jobs/s until the last is `delivered`, and the
//! agent's peak RSS. The agent forks a process per job, syncs its journal once per poll and once
//! per batch of outcomes, and reports each job in its own call, as it would in production.
//!
//! `cargo bench --bench agent [-- JOBS]`. The figures go in docs/agent.md; nothing here asserts a
//! speed.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const ADMIN: &str = "svc_admin_agent_bench_token_0123456789";

/// An operator or tenant call; its `data`.
async fn call(client: &awc::Client, url: &str, token: &str, method: &str, path: &str, body: Value) -> Value {
    let req = client.request(method.parse().unwrap(), format!("{url}{path}")).bearer_auth(token);
    let mut res = req.send_json(&body).await.expect("call");
    let status = res.status();
    let v: Value = res.json().limit(1 << 20).await.expect("JSON");
    assert!(status.is_success(), "{method} {path}: {status} {v}");
    v["data"].clone()
}

/// A gauge of `/metrics`.
async fn gauge(client: &awc::Client, url: &str, name: &str) -> f64 {
    let mut res = client.get(format!("{url}/metrics")).send().await.expect("metrics");
    let text = String::from_utf8(res.body().limit(1 << 22).await.unwrap().to_vec()).unwrap();
    text.lines().find_map(|l| l.strip_prefix(name)?.trim().parse().ok()).unwrap_or(0.0)
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let jobs: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pigeon"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--log", "warn"])
        .env("PIGEON_DATA_DIR", dir.path().join("node"))
        .env("PIGEON_ADMIN_TOKEN", ADMIN);
    let mut server = pigeon_loadtest::server::spawn_listening(cmd).expect("server starts");
    let url = server.url.clone();

    let sys = actix_rt::System::new();
    let client = awc::Client::builder().timeout(Duration::from_secs(60)).finish();
    let token = sys.block_on(async {
        let t = call(&client, &url, ADMIN, "POST", "/admin/v1/tenants", json!({"name": "agent-bench", "plan": "scale"})).await;
        let id = t["id"].as_str().unwrap().to_owned();
        let key = t["keys"]["live"]["key"].as_str().unwrap().to_owned();
        let patch = json!({"quiet_hours": {"enabled": false}, "new_contact_daily_limit": 1_000_000});
        call(&client, &url, ADMIN, "PATCH", &format!("/admin/v1/tenants/{id}"), patch).await;
        let phone = json!({"tenant_id": id, "number": "+15550100001", "driver": "agent", "daily_limit": 100_000_000u64});
        let token = call(&client, &url, ADMIN, "POST", "/admin/v1/phones", phone).await["agent_token"]
            .as_str()
            .unwrap()
            .to_owned();
        // One poll puts the phone online (30 s); the backlog is queued within that window.
        call(&client, &url, &token, "GET", "/phone/v1/jobs?wait=0", Value::Null).await;
        let started = Instant::now();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let senders = (0..32).map(|_| async {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= jobs {
                    break;
                }
                let body = json!({"to": format!("+1415555{:04}", n % 1000), "body": "bench"});
                call(&client, &url, &key, "POST", "/v1/messages", body).await;
            }
        });
        futures_util::future::join_all(senders).await;
        println!("queued {jobs} sends in {:.1} s", started.elapsed().as_secs_f64());
        token
    });

    let state = dir.path().join("agent");
    let started = Instant::now();
    let mut agent = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["agent", "--server", &url, "--token", &token, "--connector", "command"])
        .args(["--send-command", "true", "--command-delivers", "--poll-wait", "1s"])
        .arg("--state-dir")
        .arg(&state)
        .env("PIGEON_AGENT_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("agent starts");
    let pid = agent.id();
    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let drained = sys.block_on(async {
        loop {
            let left = gauge(&client, &url, "pigeon_messages_queued").await
                + gauge(&client, &url, "pigeon_messages_in_flight").await;
            if left == 0.0 {
                return started.elapsed();
            }
            if started.elapsed() > Duration::from_secs(600) {
                panic!("{left} jobs left after 10 minutes");
            }
            actix_rt::time::sleep(Duration::from_millis(100)).await;
        }
    });
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let _ = agent.kill();
    let _ = agent.wait();
    let journal = std::fs::metadata(state.join("journal")).map(|m| m.len()).unwrap_or(0);
    println!(
        "drained {jobs} jobs in {:.2} s: {:.0} jobs/s; agent RSS peak {:.1} MiB; journal left {} bytes",
        drained.as_secs_f64(),
        jobs as f64 / drained.as_secs_f64(),
        peak.load(Ordering::Relaxed) as f64 / 1024.0,
        journal
    );
    let _ = server.child.kill();
    let _ = server.child.wait();
}
