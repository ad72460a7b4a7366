//! Overload: what a node does when offered several times what it can take, and how it comes back.
//! Starts the release server with its defaults and measures, in order: its capacity (`pigeon
//! loadtest`, closed loop); half that rate, open loop; overload by wrk (1,024 connections, closed
//! loop, 30 s: it answers ~3–4× the node's capacity) with a light `pigeon loadtest` probe (200
//! sends/s, 8 connections, open loop) measuring the sends taken meanwhile; a 3 s pause; half rate
//! again. Samples the server's RSS. wrk, not the harness, makes the overload: the harness spends
//! more CPU per request than the server's refusals do, and on a 2-core machine it could not offer
//! more than it takes.
//!
//! `cargo bench --bench overload [-- SECONDS]` (default 30); needs `wrk` (Debian's package). The
//! figures go in the README ("Overload"); nothing here asserts a speed.

use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

const ADMIN: &str = "svc_admin_overload_bench_token_0123456789";

/// wrk's script: every request a send to one of 5,000 numbers; counts answers by status.
const SCRIPT: &str = r#"
local n = 0
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("PIGEON_KEY")
end
function request()
  n = n + 1
  return wrk.format(nil, "/v1/messages", nil, string.format('{"to":"+1415555%04d","body":"overload"}', n % 5000))
end
"#;

/// One `pigeon loadtest --url` run; its JSON report.
fn load(url: &str, extra: &[&str]) -> Value {
    let out = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args([
            "loadtest",
            "--url",
            url,
            "--admin-token",
            ADMIN,
            "--quiet",
            "--warmup",
            "1s",
            "--drain",
            "5s",
        ])
        .args(["--json", out.path().to_str().unwrap()])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("pigeon loadtest runs");
    assert!(status.success(), "loadtest failed");
    serde_json::from_slice(&std::fs::read(out.path()).unwrap()).unwrap()
}

fn row(name: &str, r: &Value, rss: f64) {
    let refused = r["errors"].get("503 OVERLOADED").and_then(Value::as_u64).unwrap_or(0);
    let all: u64 = r["errors"].as_object().map_or(0, |e| e.values().filter_map(Value::as_u64).sum());
    let lat = &r["accept_latency_ms"];
    println!(
        "{name:<28} {:>8} {:>8.0} {:>8} {:>6} {:>7.1} {:>7.1} {:>7.1} {:>5} {:>7.0}",
        r["rate"].as_u64().map_or("closed".into(), |x| x.to_string()),
        r["accepted_per_s"].as_f64().unwrap_or(0.0),
        refused,
        all - refused,
        lat["p50"].as_f64().unwrap_or(0.0),
        lat["p99"].as_f64().unwrap_or(0.0),
        lat["max"].as_f64().unwrap_or(0.0),
        r["lost"].as_u64().unwrap_or(0),
        rss,
    );
}

/// An operator call; its `data`.
async fn admin(client: &awc::Client, url: &str, method: &str, path: &str, body: Value) -> Value {
    let req = client.request(method.parse().unwrap(), format!("{url}{path}")).bearer_auth(ADMIN);
    let mut res = req.send_json(&body).await.expect("operator call");
    let v: Value = res.json().await.expect("JSON");
    v["data"].clone()
}

/// A tenant for wrk (scale plan, no quiet hours or new-contact cap) with four sim phones; its key.
fn wrk_tenant(url: &str) -> String {
    actix_rt::System::new().block_on(async {
        let c = awc::Client::new();
        let t = admin(&c, url, "POST", "/admin/v1/tenants", json!({"name": "wrk", "plan": "scale"})).await;
        let id = t["id"].as_str().unwrap().to_owned();
        let patch = json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"},
            "new_contact_daily_limit": 1_000_000});
        admin(&c, url, "PATCH", &format!("/admin/v1/tenants/{id}"), patch).await;
        for p in 1..=4 {
            let phone = json!({"tenant_id": id, "number": format!("+1555010000{p}"), "driver": "sim",
                "daily_limit": 100_000_000u64, "sim": {"latency_ms": 0}});
            admin(&c, url, "POST", "/admin/v1/phones", phone).await;
        }
        t["keys"]["live"]["key"].as_str().unwrap().to_owned()
    })
}

fn main() {
    let secs: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(30);
    if Command::new("wrk").arg("--version").output().is_err() {
        eprintln!("the overload bench needs wrk: apt-get install wrk");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pigeon"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--log", "warn"])
        .env("PIGEON_DATA_DIR", dir.path())
        .env("PIGEON_ADMIN_TOKEN", ADMIN)
        .env("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true");
    let mut server = pigeon_loadtest::server::spawn_listening(cmd).expect("server starts");
    let pid = server.child.id();
    // The highest RSS of each phase, sampled every 100 ms.
    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                let kib: u64 = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0);
                peak.fetch_max(kib, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let phase_peak = || peak.swap(0, Ordering::Relaxed) as f64 / 1024.0;
    let url = server.url.clone();
    println!(
        "{:<28} {:>8} {:>8} {:>8} {:>6} {:>7} {:>7} {:>7} {:>5} {:>7}",
        "phase", "offered", "taken/s", "refused", "other", "p50 ms", "p99 ms", "max ms", "lost", "RSS MiB"
    );
    let cap = load(&url, &["--duration", "10s"]);
    row("capacity (closed, 64 conn)", &cap, phase_peak());
    let half = ((cap["accepted_per_s"].as_f64().unwrap() / 2.0) as u64).max(50).to_string();
    row("half rate, before", &load(&url, &["--rate", &half, "--duration", "10s"]), phase_peak());

    let key = wrk_tenant(&url);
    let script = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(script.path(), SCRIPT).unwrap();
    let wrk = Command::new("wrk")
        .args([
            "-t2",
            "-c1024",
            &format!("-d{secs}s"),
            "--latency",
            "-s",
            script.path().to_str().unwrap(),
            &url,
        ])
        .env("PIGEON_KEY", &key)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("wrk starts");
    std::thread::sleep(Duration::from_secs(2));
    let probe = load(
        &url,
        &[
            "--rate",
            "200",
            "--connections",
            "8",
            "--duration",
            &format!("{}s", secs.saturating_sub(5).max(5)),
        ],
    );
    let wrk = wrk.wait_with_output().unwrap();
    row("overload: probe (200/s, 8)", &probe, phase_peak());
    let text = String::from_utf8_lossy(&wrk.stdout);
    let pick = |p: &str| text.lines().find(|l| l.trim_start().starts_with(p)).unwrap_or("").trim().to_owned();
    println!(
        "  wrk, 1024 connections: {}; latency of every answer {}, {}",
        pick("Requests/sec"),
        pick("50%"),
        pick("99%")
    );
    std::thread::sleep(Duration::from_secs(3));
    let _ = phase_peak();
    row("half rate, 3 s after", &load(&url, &["--rate", &half, "--duration", "10s"]), phase_peak());
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let _ = server.child.kill();
    let _ = server.child.wait();
}
