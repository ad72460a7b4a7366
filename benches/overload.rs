//! Overload: what a node does when offered several times what it can take, and how it comes back.
//! Starts the bench-built server (as `dist`) with its defaults and measures, in order: its capacity (`pigeon
//! loadtest`, closed loop); half that rate, open loop; then twice, overload by wrk (1,024
//! connections of one tenant, first pausing between requests so that it offers about three times
//! capacity, then flat out) with a `pigeon loadtest` probe as another tenant (200 sends/s, 32
//! connections, open loop) measuring the sends taken meanwhile, a 3 s pause, and half rate again;
//! last, a burst of 2,000 connections opening at once. Samples the server's RSS, and reads the
//! node's own accept time of the sends taken from `/metrics`. wrk, not the harness, makes the
//! overload: the harness spends more CPU per request than the server's refusals do, and on a
//! 2-core machine it could not offer more than it takes.
//!
//! `cargo bench --bench overload [-- SECONDS]` (default 30); needs `wrk` (Debian's package). The
//! figures go in docs/operating.md ("Overload"); nothing here asserts a speed.
//!
//! `OVERLOAD_PIN=1` pins the server to the first CPU and the load (wrk, the probe, this program)
//! to the others (`taskset`), so a client's latency is not its turn for a core the server is
//! using. Capacity is then that of one core, and "3x" is three times that.

use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

const ADMIN: &str = "svc_admin_overload_bench_token_0123456789";

/// wrk's connections, all of one tenant.
const CONNS: usize = 1024;

/// wrk's script: every request a send to one of 5,000 numbers.
const SCRIPT: &str = include_str!("lib/send.lua");

/// Puts every thread of the server `pid` on CPU 0 and this process (whose children, wrk and the
/// harness, inherit it) on the rest.
fn pin(pid: u32) {
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    let rest = if cpus > 1 { format!("1-{}", cpus - 1) } else { "0".into() };
    for (cpu, target) in [("0", pid), (rest.as_str(), std::process::id())] {
        let ok = Command::new("taskset")
            .args(["-a", "-p", "-c", cpu, &target.to_string()])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "taskset could not pin {target} to {cpu}");
    }
    println!("pinned: server on CPU 0, load on CPUs {rest}");
}

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
    if all > refused {
        println!("  errors by code: {}", r["errors"]);
    }
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

/// The node's own histogram of sends taken (from body in to answer made): cumulative bucket counts
/// by upper bound, read from `/metrics`.
fn taken_buckets(url: &str) -> Vec<(f64, u64)> {
    let text = actix_rt::System::new().block_on(async {
        let mut res = awc::Client::new().get(format!("{url}/metrics")).send().await.expect("/metrics");
        String::from_utf8_lossy(&res.body().limit(1 << 24).await.expect("metrics body")).into_owned()
    });
    text.lines()
        .filter_map(|l| l.strip_prefix("pigeon_send_accept_seconds_bucket{le=\""))
        .filter_map(|l| {
            let (le, n) = l.split_once("\"} ")?;
            Some((if le == "+Inf" { f64::INFINITY } else { le.parse().ok()? }, n.trim().parse().ok()?))
        })
        .collect()
}

/// The share of the sends taken between two readings that took at most `le` seconds.
fn taken_share(before: &[(f64, u64)], after: &[(f64, u64)], le: f64) -> f64 {
    let count = |v: &[(f64, u64)], le: f64| v.iter().find(|b| b.0 == le).map_or(0, |b| b.1);
    let total = after.last().map_or(0, |b| b.1) - before.last().map_or(0, |b| b.1);
    (count(after, le) - count(before, le)) as f64 / total.max(1) as f64
}

/// The bucket bound (ms) under which a share `q` of the sends taken between two readings fell.
fn taken_quantile(before: &[(f64, u64)], after: &[(f64, u64)], q: f64) -> f64 {
    let count = |v: &[(f64, u64)], le: f64| v.iter().find(|b| b.0 == le).map_or(0, |b| b.1);
    let total = after.last().map_or(0, |b| b.1) - before.last().map_or(0, |b| b.1);
    let want = (total as f64 * q).ceil() as u64;
    after.iter().find(|b| b.1 - count(before, b.0) >= want).map_or(f64::NAN, |b| b.0 * 1000.0)
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
    if std::env::var("OVERLOAD_PIN").is_ok_and(|v| v == "1") {
        pin(pid);
    }
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
    let wrk = |secs: u64, delay_ms: f64| {
        Command::new("wrk")
            .args(["-t2", &format!("-c{CONNS}"), &format!("-d{secs}s"), "--latency", "-s"])
            .args([script.path().to_str().unwrap(), &url])
            .env("PIGEON_KEY", &key)
            .env("WRK_DELAY_MS", format!("{delay_ms:.1}"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("wrk starts")
    };
    let rate_of = |text: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix("Requests/sec:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0)
    };
    // wrk offers a rate by pausing each connection between its requests; one short run measures
    // what an answer adds to the pause, and the pause is set so the offer is three times capacity.
    let target = 3.0 * cap["accepted_per_s"].as_f64().unwrap();
    let first = CONNS as f64 * 1000.0 / target;
    let trial = String::from_utf8_lossy(&wrk(3, first).wait_with_output().unwrap().stdout).into_owned();
    let answer_ms = (CONNS as f64 * 1000.0 / rate_of(&trial).max(1.0) - first).max(0.0);
    let delay = (CONNS as f64 * 1000.0 / target - answer_ms).max(0.0);
    std::thread::sleep(Duration::from_secs(3));
    let _ = phase_peak();
    for (name, delay) in [("3x: probe (200/s, 32)", delay), ("flat out: probe (200/s, 32)", 0.0)] {
        let flood = wrk(secs, delay);
        std::thread::sleep(Duration::from_secs(2));
        let before = taken_buckets(&url);
        let probe = load(
            &url,
            &[
                "--rate",
                "200",
                "--connections",
                "32",
                "--duration",
                &format!("{}s", secs.saturating_sub(5).max(5)),
            ],
        );
        let after = taken_buckets(&url);
        let flood = flood.wait_with_output().unwrap();
        row(name, &probe, phase_peak());
        let text = String::from_utf8_lossy(&flood.stdout);
        let pick =
            |p: &str| text.lines().find(|l| l.trim_start().starts_with(p)).unwrap_or("").trim().to_owned();
        let non2xx: f64 = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Non-2xx or 3xx responses:"))
            .map_or(0.0, |v| v.trim().parse().unwrap_or(0.0));
        let total: f64 = text
            .lines()
            .find_map(|l| l.split_once(" requests in "))
            .map_or(0.0, |(n, _)| n.trim().parse().unwrap_or(0.0));
        let rate = rate_of(&text);
        println!(
            "  wrk, {CONNS} connections, one tenant: offered {rate:.0}/s ({:.1}x capacity), {:.0} % refused; latency of every answer {}, {}",
            rate / cap["accepted_per_s"].as_f64().unwrap(),
            100.0 * non2xx / total.max(1.0),
            pick("50%"),
            pick("99%")
        );
        println!(
            "  the node's accept time of every send taken meanwhile (body in to answer): p50 <= {} ms, p99 <= {} ms",
            taken_quantile(&before, &after, 0.5),
            taken_quantile(&before, &after, 0.99)
        );
        println!(
            "  of them within 10 ms {:.1} %, 25 ms {:.1} %, 50 ms {:.1} %",
            100.0 * taken_share(&before, &after, 0.01),
            100.0 * taken_share(&before, &after, 0.025),
            100.0 * taken_share(&before, &after, 0.05)
        );
        std::thread::sleep(Duration::from_secs(3));
        let _ = phase_peak();
        row("half rate, 3 s after", &load(&url, &["--rate", &half, "--duration", "10s"]), phase_peak());
    }
    // A burst on a quiet node: 2,000 connections open at once, each sending every 3 s.
    let burst = load(&url, &["--rate", "667", "--connections", "2000", "--duration", "10s"]);
    row("burst: 2,000 conn at once", &burst, phase_peak());
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let _ = server.child.kill();
    let _ = server.child.wait();
}
