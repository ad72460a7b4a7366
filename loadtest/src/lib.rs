//! `pigeon loadtest`: drives `POST /v1/messages` against a server (one it starts itself on a temp
//! data dir, or `--url`), and reports accept throughput and latency percentiles, errors by code,
//! end-to-end latency to the signed `message.delivered` webhook at a built-in sink, lost messages,
//! and the server's RSS. With `--rate` it runs open loop: each request has an intended start time
//! and its latency counts from there, so a stalled server cannot hide behind a stalled client
//! (coordinated omission). `--baseline` first measures a no-op route of the same server.
//!
//! The harness is a client: it lives in its own crate, outside the server library, and the
//! `pigeon` binary runs it as `pigeon loadtest`. It verifies webhook signatures with the engine's
//! own [`pigeon_actors::webhook::sign`].

mod client;
mod drive;
mod events;
mod report;
pub mod server;
mod sink;
mod soak;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::{poll_agents, restart, setup, Api};
use drive::{bar, drive};
pub use report::{EventsRead, Percentiles, Report, Restart};
use server::{start_server, OwnServer};
use sink::{start_sink, Shared};
pub use soak::{write_chart, Sample};

/// Options of `pigeon loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct LoadArgs {
    /// Server to load; by default one is started on a temp data dir.
    #[arg(long)]
    pub url: Option<String>,
    /// Operator token of `--url` (a started server gets a random one).
    #[arg(long, env = "PIGEON_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Concurrent connections.
    #[arg(long, default_value_t = 64)]
    pub connections: usize,
    /// How long to send, e.g. `10s`, `500ms`, `2m`.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Sending before the measured `--duration` starts, not counted in throughput or latency:
    /// connections open, caches fill and allocators grow first. Its messages still count as lost
    /// if their webhook never comes.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub warmup: Duration,
    /// Requests per second, open loop; without it, as fast as the server answers.
    #[arg(long)]
    pub rate: Option<u64>,
    /// Also measure the no-op baseline route and report throughput as a ratio of it.
    #[arg(long)]
    pub baseline: bool,
    /// Sim phones to create.
    #[arg(long, default_value_t = 4)]
    pub phones: usize,
    /// Send this many messages after the warm-up, then stop, even before `--duration` ends;
    /// e.g. `--messages 1000000 --duration 30m` to fill the store.
    #[arg(long)]
    pub messages: Option<u64>,
    /// Phones are agents the harness polls only every 10 s (10 jobs a poll), so accepted
    /// messages pile up queued instead of being delivered. No webhook, no end-to-end figures.
    #[arg(long)]
    pub backlog: bool,
    /// After the run, kill the server (SIGKILL), start it on the same data, and time `/readyz`,
    /// the first accepted send, and (with `--backlog`) every queued message back in its queue.
    /// Only for a server this command started.
    #[arg(long, conflicts_with = "url")]
    pub restart: bool,
    /// Sim phone latency, milliseconds.
    #[arg(long, default_value_t = 0)]
    pub sim_latency_ms: u64,
    /// Each text's length in characters (1–10,000), to load the store as long texts do: sled
    /// writes a leaf of long texts to a blob file of its own.
    #[arg(long, default_value_t = 17, value_parser = clap::value_parser!(u16).range(1..=10_000))]
    pub text_chars: u16,
    /// How long to wait for webhooks after sending stops.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub drain: Duration,
    /// Write the report as JSON here too; with two samples or more, the soak chart goes beside
    /// it (`report.json` → `report.svg`).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// How often the measured phase is sampled (RSS, store size, window latencies) for the
    /// report's `samples` and the chart.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub sample_every: Duration,
    /// One more client follows `GET /v1/events` (long polls) while the messages go in; the
    /// report gives how old events were when it read them and whether it kept up.
    #[arg(long)]
    pub events_reader: bool,
    /// No progress bar (CI, logs).
    #[arg(long)]
    pub quiet: bool,
}

/// `10s`, `500ms`, `2m`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let (n, unit) = s.find(|c: char| !c.is_ascii_digit()).map_or((s, "s"), |i| s.split_at(i));
    let n: u64 = n.parse().map_err(|_| format!("not a duration: {s:?}"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "s" => Ok(Duration::from_secs(n)),
        "m" => Ok(Duration::from_secs(n * 60)),
        _ => Err(format!("not a duration: {s:?} (use ms, s or m)")),
    }
}

/// Runs the whole load test and returns its report.
pub async fn run(args: LoadArgs) -> Result<Report, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let (mut server, base, admin) = match &args.url {
        Some(u) => (
            None,
            u.trim_end_matches('/').to_owned(),
            args.admin_token.clone().ok_or("--url needs --admin-token")?,
        ),
        None => {
            let token = pigeon_actors::credentials::generate("svc_admin_");
            let (s, url) = start_server(&token)?;
            (Some(s), url, token)
        }
    };
    let client = awc::Client::builder()
        .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
        .timeout(Duration::from_secs(30))
        .finish();
    let mut api = Api { base: base.clone(), client };
    let tracker: Shared = Arc::default();
    let secret = Arc::new(Mutex::new(String::new()));
    let sink =
        start_sink(tracker.clone(), secret.clone()).map_err(|e| format!("cannot start the sink: {e}"))?;
    let (key, agents) = setup(&api, &admin, &args, &sink, &secret).await?;
    // The slow carrier of `--backlog`: online, polling every 10 s.
    poll_agents(&api, &agents).await?;
    if !agents.is_empty() {
        let poller = Api { base: base.clone(), client: api.client.clone() };
        let agents = agents.clone();
        actix_web::rt::spawn(async move {
            loop {
                actix_web::rt::time::sleep(Duration::from_secs(10)).await;
                let _ = poll_agents(&poller, &agents).await;
            }
        });
    }

    let mut report = Report { connections: args.connections, rate: args.rate, ..Report::default() };
    if args.baseline {
        let pb = bar(&args, "baseline");
        let b = drive(&base, "/bench/noop", &key, &args, None, pb.clone()).await;
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        if b.accepted == 0 {
            return Err(format!("the baseline route answered nothing (errors: {:?}); does the server run with --bench-routes?", b.errors));
        }
        report.baseline_per_s = Some(b.accepted as f64 / b.elapsed.as_secs_f64());
    }
    let pb = bar(&args, "messages");
    let track = (!args.backlog).then(|| tracker.clone());
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = actix_web::rt::spawn(soak::sample(
        Api { base: base.clone(), client: api.client.clone() },
        server.as_ref().map(OwnServer::pid),
        tracker.clone(),
        args.sample_every,
        Instant::now() + args.warmup,
        done.clone(),
    ));
    let reader = args
        .events_reader
        .then(|| events::start(Api { base: base.clone(), client: api.client.clone() }, key.clone()));
    let p = drive(&base, "/v1/messages", &key, &args, track, pb.clone()).await;
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    if !args.backlog {
        drain(&tracker, Instant::now() + args.drain).await;
    }
    if let Some(r) = reader {
        report.events = Some(r.finish(&api, &key).await);
    }
    let measured = p.measured.expect("set by drive");
    // Before the sampler is awaited: it may sleep out its interval, which is not delivery time.
    let all_done = measured.elapsed();
    report.samples = sampler.await.unwrap_or_default();
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    report.server_rss_mib = server.as_ref().and_then(OwnServer::rss_mib);
    report.duration_s = p.elapsed.as_secs_f64();
    report.warmup_s = args.warmup.as_secs_f64();
    report.accepted = p.accepted;
    report.accepted_per_s = p.accepted as f64 / p.elapsed.as_secs_f64();
    report.errors = p.errors;
    report.errors_5xx = p.errors_5xx;
    report.accept_latency_ms = p.latency.as_ref().map(Percentiles::of).unwrap_or_default();
    // A block, so the lock is gone before the restart's awaits.
    {
        let t = tracker.lock().unwrap();
        let delivered = t.delivered;
        report.delivered = delivered;
        report.lost = t.outstanding() as u64;
        report.bad_signatures = t.bad_signatures;
        report.end_to_end_ms = Percentiles::of(&t.end_to_end);
        report.delivered_per_s = delivered as f64 / all_done.as_secs_f64().max(1e-3);
        report.ratio_to_baseline = report.baseline_per_s.map(|b| report.accepted_per_s / b);
    }
    report.backlog = args.backlog.then_some(p.accepted_all);
    // What the messages cost the store: writes (sled inserts and removes) and bytes on disk, over
    // every message accepted in the run, warm-up included.
    if let (Some(text), true) = (client::metrics(&api).await, p.accepted_all > 0) {
        let per = |name| client::value(&text, name).map(|v| v / p.accepted_all as f64);
        report.store_writes_per_message = per("pigeon_store_writes_total");
        report.store_bytes_per_message = per("pigeon_store_size_bytes");
    }
    if args.restart {
        let s = server.as_mut().ok_or("--restart needs a server this command starts (no --url)")?;
        report.restart = Some(restart(s, &mut api, &key, &agents, report.backlog).await?);
    }
    Ok(report)
}

/// Waits for the webhooks of everything accepted, or `deadline`.
async fn drain(tracker: &Shared, deadline: Instant) {
    loop {
        let done = {
            let t = tracker.lock().unwrap();
            t.outstanding() == 0
        };
        if done || Instant::now() > deadline {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The report as a table.
pub fn table(r: &Report) -> String {
    let mut s = String::new();
    let p = |x: &Percentiles| {
        format!("{:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2}", x.p50, x.p90, x.p99, x.p999, x.max)
    };
    s += &format!(
        "pigeon loadtest: {} connections, {:.1} s after {:.1} s of warm-up, {}\n",
        r.connections,
        r.duration_s,
        r.warmup_s,
        r.rate.map_or("closed loop".into(), |r| format!("open loop at {r}/s"))
    );
    s += &format!("  accepted            {:>10}   {:>10.0}/s\n", r.accepted, r.accepted_per_s);
    if let Some(e) = &r.events {
        s += &format!(
            "  event reader: {} read, lag ms p50 {:.1} p99 {:.1} max {:.1}, last {:.1}, {} behind at the end\n",
            e.read, e.lag_ms.p50, e.lag_ms.p99, e.lag_ms.max, e.last_lag_ms, e.behind_at_end
        );
    }
    if let (Some(b), Some(ratio)) = (r.baseline_per_s, r.ratio_to_baseline) {
        s += &format!("  baseline (no-op)                {:>10.0}/s   ratio {:.2}\n", b, ratio);
    }
    match r.backlog {
        Some(n) => s += &format!("  left queued (backlog) {n:>8}\n"),
        None => {
            s += &format!(
                "  delivered (webhook) {:>10}   {:>10.0}/s   lost {}   bad signatures {}\n",
                r.delivered, r.delivered_per_s, r.lost, r.bad_signatures
            )
        }
    }
    s += "  latency (ms)             p50      p90      p99    p99.9      max\n";
    s += &format!("  accept             {}\n", p(&r.accept_latency_ms));
    if r.backlog.is_none() {
        s += &format!("  end to end         {}\n", p(&r.end_to_end_ms));
    }
    for (k, v) in &r.errors {
        s += &format!("  error {k:<30} {v}\n");
    }
    if let Some(rss) = r.server_rss_mib {
        s += &format!("  server RSS          {rss:.0} MiB\n");
    }
    if let (Some(w), Some(b)) = (r.store_writes_per_message, r.store_bytes_per_message) {
        s += &format!("  store               {w:.1} writes and {b:.0} bytes on disk per message\n");
    }
    if let Some(x) = &r.restart {
        s += &format!("  restart (SIGKILL)   ready {:.2} s   first 202 {:.2} s", x.ready_s, x.first_accept_s);
        if let Some(b) = x.backlog_back_s {
            s += &format!("   backlog back {b:.2} s");
        }
        if let Some(rss) = x.rss_mib {
            s += &format!("   RSS {rss:.0} MiB");
        }
        s += "\n";
    }
    s
}

/// Writes the report as JSON to `path` and, with two samples or more, the soak chart beside it.
pub fn write_files(report: &Report, path: &std::path::Path) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).expect("report serializes");
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if report.samples.len() >= 2 {
        write_chart(&soak::chart_path(path), &report.samples)?;
    }
    Ok(())
}
