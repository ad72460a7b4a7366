//! `pigeon loadtest`: drives `POST /v1/messages` against a server (one it starts itself on a temp
//! data dir, or `--url`), and reports accept throughput and latency percentiles, errors by code,
//! end-to-end latency to the signed `message.delivered` webhook at a built-in sink, lost messages,
//! and the server's RSS. With `--rate` it runs open loop: each request has an intended start time
//! and its latency counts from there, so a stalled server cannot hide behind a stalled client
//! (coordinated omission). `--baseline` first measures a no-op route of the same server.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::{json, Value};

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
    /// How long to wait for webhooks after sending stops.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub drain: Duration,
    /// Write the report as JSON here too.
    #[arg(long)]
    pub json: Option<PathBuf>,
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

/// Latency percentiles in milliseconds.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Percentiles {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50: f64,
    /// 90th.
    pub p90: f64,
    /// 99th.
    pub p99: f64,
    /// 99.9th.
    pub p999: f64,
    /// Maximum.
    pub max: f64,
}

impl Percentiles {
    fn of(h: &Histogram<u64>) -> Self {
        let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
        Self {
            count: h.len(),
            p50: ms(0.5),
            p90: ms(0.9),
            p99: ms(0.99),
            p999: ms(0.999),
            max: h.max() as f64 / 1000.0,
        }
    }
}

/// What a run measured.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Report {
    /// Seconds measured (after the warm-up).
    pub duration_s: f64,
    /// Seconds of warm-up before them.
    pub warmup_s: f64,
    /// Connections.
    pub connections: usize,
    /// Target rate, if open loop.
    pub rate: Option<u64>,
    /// 202 answers.
    pub accepted: u64,
    /// Accepted per second.
    pub accepted_per_s: f64,
    /// Non-202 answers and transport errors, by `status code` (or `transport`).
    pub errors: BTreeMap<String, u64>,
    /// Answers with a 5xx status.
    pub errors_5xx: u64,
    /// Accept latency (request start, or intended start when open loop, to the 202).
    pub accept_latency_ms: Percentiles,
    /// Signed `message.delivered` webhooks received for accepted messages.
    pub delivered: u64,
    /// Webhooks whose signature did not verify.
    pub bad_signatures: u64,
    /// Accepted messages with no `message.delivered` webhook by the end of the drain.
    pub lost: u64,
    /// Send start to webhook arrival.
    pub end_to_end_ms: Percentiles,
    /// End-to-end deliveries per second over the whole run.
    pub delivered_per_s: f64,
    /// Baseline route answers per second (with `--baseline`).
    pub baseline_per_s: Option<f64>,
    /// `accepted_per_s / baseline_per_s`.
    pub ratio_to_baseline: Option<f64>,
    /// Server resident memory at the end, MiB (a server this command started).
    pub server_rss_mib: Option<f64>,
    /// With `--backlog`: messages left queued (every one accepted, warm-up included).
    pub backlog: Option<u64>,
    /// With `--restart`: what the restart took.
    pub restart: Option<Restart>,
}

/// Timings of a restart after SIGKILL, from the new process's start.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Restart {
    /// Until `/readyz` answered 200.
    pub ready_s: f64,
    /// Until a new send was accepted (202).
    pub first_accept_s: f64,
    /// Until `/metrics` showed the whole backlog queued or in flight again (`--backlog`).
    pub backlog_back_s: Option<f64>,
    /// Resident memory once the backlog was back, MiB.
    pub rss_mib: Option<f64>,
}

/// Send times and webhook arrivals by message id.
#[derive(Default)]
struct Tracker {
    sent: HashMap<String, Instant>,
    arrived: HashMap<String, Instant>,
    bad_signatures: u64,
}

type Shared = Arc<Mutex<Tracker>>;

/// The built-in webhook receiver: checks the signature, notes when each delivery arrived.
fn start_sink(tracker: Shared, secret: Arc<Mutex<String>>) -> std::io::Result<String> {
    let server = HttpServer::new(move || {
        let (tracker, secret) = (tracker.clone(), secret.clone());
        App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
            let (tracker, secret) = (tracker.clone(), secret.clone());
            async move {
                let now = Instant::now();
                let sig =
                    req.headers().get("x-service-signature").and_then(|v| v.to_str().ok()).unwrap_or("");
                let ok = sig == sign(&secret.lock().unwrap(), &body);
                let id = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["message_id"].as_str().map(str::to_owned));
                let mut t = tracker.lock().unwrap();
                match (ok, id) {
                    (true, Some(id)) => {
                        t.arrived.entry(id).or_insert(now);
                    }
                    _ => t.bad_signatures += 1,
                }
                HttpResponse::Ok().finish()
            }
        }))
    })
    .workers(1)
    .bind("127.0.0.1:0")?;
    let url = format!("http://{}/hook", server.addrs()[0]);
    actix_web::rt::spawn(server.run());
    Ok(url)
}

fn sign(secret: &str, body: &[u8]) -> String {
    use hmac::{KeyInit, Mac};
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// A server this command started, killed when dropped.
struct OwnServer {
    child: Child,
    dir: tempfile::TempDir,
    token: String,
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl OwnServer {
    fn rss_mib(&self) -> Option<f64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb: f64 =
            status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    }
}

fn start_server(token: &str) -> Result<(OwnServer, String), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (child, url) = spawn_server(dir.path(), token)?;
    Ok((OwnServer { child, dir, token: token.to_owned() }, url))
}

impl OwnServer {
    /// SIGKILL, then the same data dir again; returns the new URL and when the process started.
    fn kill_and_restart(&mut self) -> Result<(String, Instant), String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let started = Instant::now();
        let (child, url) = spawn_server(self.dir.path(), &self.token)?;
        self.child = child;
        Ok((url, started))
    }
}

fn spawn_server(dir: &std::path::Path, token: &str) -> Result<(Child, String), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--bench-routes", "--webhook-allow-private"])
        .env("PIGEON_DATA_DIR", dir)
        .env("PIGEON_ADMIN_TOKEN", token)
        .env("PIGEON_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let mut url = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(u) = line.strip_prefix("pigeon listening on ") {
            url = Some(u.to_owned());
            break;
        }
    }
    let url = url.ok_or("the server exited before listening")?;
    Ok((child, url))
}

struct Api {
    base: String,
    client: awc::Client,
}

impl Api {
    async fn call(&self, method: &str, path: &str, token: &str, body: Value) -> Result<Value, String> {
        let req = self
            .client
            .request(
                awc::http::Method::from_bytes(method.as_bytes()).expect("method"),
                format!("{}{path}", self.base),
            )
            .insert_header(("Authorization", format!("Bearer {token}")));
        let mut res = req.send_json(&body).await.map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = res.json().limit(1 << 20).await.map_err(|e| format!("{method} {path}: {e}"))?;
        if !res.status().is_success() {
            return Err(format!("{method} {path}: {} {v}", res.status()));
        }
        Ok(v["data"].clone())
    }
}

/// Creates the tenant (scale plan, quiet hours off), phones (sim, or agents with `--backlog`) and
/// the webhook; returns the key and the agent tokens.
async fn setup(
    api: &Api,
    admin: &str,
    args: &LoadArgs,
    sink: &str,
    secret: &Arc<Mutex<String>>,
) -> Result<(String, Vec<String>), String> {
    let t =
        api.call("POST", "/admin/v1/tenants", admin, json!({"name": "loadtest", "plan": "scale"})).await?;
    let tenant = t["id"].as_str().ok_or("no tenant id")?.to_owned();
    let key = t["keys"]["live"]["key"].as_str().ok_or("no key")?.to_owned();
    let quiet_off = json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"}, "new_contact_daily_limit": 1_000_000});
    api.call("PATCH", &format!("/admin/v1/tenants/{tenant}"), admin, quiet_off).await?;
    let mut agents = Vec::new();
    for i in 0..args.phones.max(1) {
        let mut phone = json!({
            "tenant_id": tenant, "number": format!("+1555010{:04}", i), "driver": "sim",
            "daily_limit": 100_000_000u64, "sim": {"latency_ms": args.sim_latency_ms}
        });
        if args.backlog {
            phone = json!({
                "tenant_id": tenant, "number": format!("+1555010{:04}", i), "driver": "agent",
                "daily_limit": 100_000_000u64
            });
        }
        let p = api.call("POST", "/admin/v1/phones", admin, phone).await?;
        if let Some(t) = p["agent_token"].as_str() {
            agents.push(t.to_owned());
        }
    }
    if !args.backlog {
        let w = api
            .call("POST", "/v1/webhooks", &key, json!({"url": sink, "events": ["message.delivered"]}))
            .await?;
        *secret.lock().unwrap() = w["secret"].as_str().ok_or("no secret")?.to_owned();
    }
    Ok((key, agents))
}

/// A slow carrier: one poll per agent phone, which keeps it online and takes at most 10 jobs.
async fn poll_agents(api: &Api, agents: &[String]) -> Result<(), String> {
    for t in agents {
        let res = api
            .client
            .get(format!("{}/phone/v1/jobs?wait=0", api.base))
            .insert_header(("Authorization", format!("Bearer {t}")))
            .send()
            .await
            .map_err(|e| format!("GET /phone/v1/jobs: {e}"))?;
        if !res.status().is_success() {
            return Err(format!("GET /phone/v1/jobs: {}", res.status()));
        }
    }
    Ok(())
}

/// Until `check` holds (polled every 10 ms) or `limit` passes; the time it took, if it held.
async fn time_until<F, Fut>(started: Instant, limit: Duration, mut check: F) -> Option<f64>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    while started.elapsed() < limit {
        if check().await {
            return Some(started.elapsed().as_secs_f64());
        }
        actix_web::rt::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

/// Messages queued or in flight, from `/metrics`.
async fn waiting_work(api: &Api) -> Option<u64> {
    let mut res = api.client.get(format!("{}/metrics", api.base)).send().await.ok()?;
    let body = res.body().limit(16 << 20).await.ok()?;
    let text = std::str::from_utf8(&body).ok()?;
    let gauge = |name: &str| -> Option<f64> {
        text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
    };
    Some((gauge("pigeon_messages_queued")? + gauge("pigeon_messages_in_flight")?) as u64)
}

/// Kills the server and starts it again on the same data; times readiness, the first accepted
/// send and, with a backlog, every queued message back in a queue.
async fn restart(
    server: &mut OwnServer,
    api: &mut Api,
    key: &str,
    agents: &[String],
    backlog: Option<u64>,
) -> Result<Restart, String> {
    let (url, started) = server.kill_and_restart()?;
    api.base = url;
    let limit = Duration::from_secs(120);
    let ready_url = format!("{}/readyz", api.base);
    let ready_s = time_until(started, limit, || async {
        api.client.get(&ready_url).send().await.is_ok_and(|r| r.status().is_success())
    })
    .await
    .ok_or("the restarted server never became ready")?;
    // Agents come back online by polling; sim phones are online already.
    poll_agents(api, agents).await?;
    let first_accept_s = time_until(started, limit, || async {
        api.call("POST", "/v1/messages", key, json!({"to": "+14155550199", "body": "after restart"}))
            .await
            .is_ok()
    })
    .await
    .ok_or("the restarted server accepted no message")?;
    let backlog_back_s = match backlog {
        Some(n) => Some(
            time_until(started, limit, || async { waiting_work(api).await.is_some_and(|w| w >= n) })
                .await
                .ok_or("the backlog did not come back within 120 s")?,
        ),
        None => None,
    };
    Ok(Restart { ready_s, first_accept_s, backlog_back_s, rss_mib: server.rss_mib() })
}

#[derive(Default)]
struct Phase {
    /// Accepted while measuring.
    accepted: u64,
    /// Accepted in all, warm-up included.
    accepted_all: u64,
    errors: BTreeMap<String, u64>,
    errors_5xx: u64,
    latency: Option<Histogram<u64>>,
    /// When measuring began (after the warm-up).
    measured: Option<Instant>,
    elapsed: Duration,
}

/// One connection's loop: sends until `end`, at `interval` when open loop.
#[allow(clippy::too_many_arguments)]
async fn connection(
    c: usize,
    conns: usize,
    base: String,
    path: &'static str,
    key: String,
    interval: Option<Duration>,
    started: Instant,
    measured: Instant,
    end: Instant,
    budget: Option<Budget>,
    tracker: Option<Shared>,
    progress: Option<indicatif::ProgressBar>,
) -> Phase {
    let client = awc::Client::builder().timeout(Duration::from_secs(30)).finish();
    let mut p = Phase { latency: Some(histogram()), ..Phase::default() };
    let mut intended = started + interval.map_or(Duration::ZERO, |i| i.mul_f64(c as f64 / conns as f64));
    let mut n = 0u64;
    while Instant::now() < end {
        if Instant::now() >= measured && budget.as_ref().is_some_and(Budget::spent) {
            break;
        }
        if interval.is_some() {
            let now = Instant::now();
            if intended > now {
                actix_web::rt::time::sleep(intended - now).await;
            }
        } else {
            intended = Instant::now();
        }
        let to = format!("+1415555{:04}", (c as u64 * 7919 + n) % 5000);
        n += 1;
        let body = json!({"to": to, "body": "load test message"});
        let res = client
            .post(format!("{base}{path}"))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .send_json(&body)
            .await;
        let took = intended.elapsed();
        match res {
            Ok(mut r) if r.status().as_u16() == 202 => {
                let v: Value = r.json().await.unwrap_or(Value::Null);
                if let (Some(t), Some(id)) = (&tracker, v["data"]["message_id"].as_str()) {
                    t.lock().unwrap().sent.insert(id.to_owned(), intended);
                }
                p.accepted_all += 1;
                if intended >= measured {
                    p.accepted += 1;
                    let _ = p.latency.as_mut().expect("set").record(took.as_micros().max(1) as u64);
                }
            }
            // Errors count in the warm-up too: nothing may fail, measured or not.
            Ok(mut r) => {
                let status = r.status().as_u16();
                let v: Value = r.json().await.unwrap_or(Value::Null);
                let code = v["code"].as_str().unwrap_or("");
                *p.errors.entry(format!("{status} {code}").trim().to_owned()).or_default() += 1;
                if status >= 500 {
                    p.errors_5xx += 1;
                }
            }
            Err(e) => *p.errors.entry(format!("transport {e}")).or_default() += 1,
        }
        if let Some(pb) = &progress {
            pb.set_position(match &budget {
                Some(b) => b.claimed.load(Ordering::Relaxed),
                None => started.elapsed().as_millis() as u64,
            });
        }
        if let Some(i) = interval {
            intended += i;
        }
    }
    p
}

/// `--messages`: requests claimed so far against the total.
#[derive(Clone)]
struct Budget {
    claimed: Arc<AtomicU64>,
    total: u64,
}

impl Budget {
    /// Claims one request; true when none is left.
    fn spent(&self) -> bool {
        self.claimed.fetch_add(1, Ordering::Relaxed) >= self.total
    }
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("bounds")
}

/// Sends for `duration` over `connections` connections; closed loop, or open loop at `rate`. The
/// connections are spread over one client thread per core, so the client is not the bottleneck.
async fn drive(
    base: &str,
    path: &'static str,
    key: &str,
    args: &LoadArgs,
    tracker: Option<Shared>,
    progress: Option<indicatif::ProgressBar>,
) -> Phase {
    let started = Instant::now();
    let measured = started + args.warmup;
    let end = measured + args.duration;
    let conns = args.connections.max(1);
    let interval = args.rate.map(|r| Duration::from_secs_f64(conns as f64 / r.max(1) as f64));
    let budget = args.messages.map(|total| Budget { claimed: Arc::default(), total });
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(conns);
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let (base, key, tracker, progress, budget) =
                (base.to_owned(), key.to_owned(), tracker.clone(), progress.clone(), budget.clone());
            std::thread::spawn(move || {
                actix_web::rt::System::new().block_on(async move {
                    let tasks: Vec<_> = (w..conns)
                        .step_by(threads)
                        .map(|c| {
                            actix_web::rt::spawn(connection(
                                c,
                                conns,
                                base.clone(),
                                path,
                                key.clone(),
                                interval,
                                started,
                                measured,
                                end,
                                budget.clone(),
                                tracker.clone(),
                                progress.clone(),
                            ))
                        })
                        .collect();
                    let mut out = Vec::new();
                    for t in tasks {
                        if let Ok(p) = t.await {
                            out.push(p);
                        }
                    }
                    out
                })
            })
        })
        .collect();
    let phases = actix_web::rt::task::spawn_blocking(move || {
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    let mut total = Phase { latency: Some(histogram()), ..Phase::default() };
    for p in phases {
        total.accepted += p.accepted;
        total.accepted_all += p.accepted_all;
        total.errors_5xx += p.errors_5xx;
        for (k, v) in p.errors {
            *total.errors.entry(k).or_default() += v;
        }
        if let (Some(a), Some(b)) = (total.latency.as_mut(), p.latency.as_ref()) {
            let _ = a.add(b);
        }
    }
    total.measured = Some(measured);
    // With `--messages` the run may end before `--duration`: measure to its real end.
    total.elapsed = measured.elapsed().min(end.saturating_duration_since(measured));
    total.elapsed = total.elapsed.max(Duration::from_millis(1));
    total
}

fn bar(args: &LoadArgs, what: &str) -> Option<indicatif::ProgressBar> {
    if args.quiet {
        return None;
    }
    let (len, template) = match args.messages {
        Some(n) => (n, "{msg:10} [{bar:40}] {pos}/{len} {elapsed_precise}"),
        None => (
            (args.warmup + args.duration).as_millis() as u64,
            "{msg:10} [{bar:40}] {elapsed_precise}/{duration_precise}",
        ),
    };
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(indicatif::ProgressStyle::with_template(template).expect("template").progress_chars("=> "));
    pb.set_message(what.to_owned());
    Some(pb)
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
    let mut api =
        Api { base: base.clone(), client: awc::Client::builder().timeout(Duration::from_secs(30)).finish() };
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
    let p = drive(&base, "/v1/messages", &key, &args, track, pb.clone()).await;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if !args.backlog {
        drain(&tracker, Instant::now() + args.drain).await;
    }
    let measured = p.measured.expect("set by drive");
    let all_done = measured.elapsed();
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
        let mut e2e = Histogram::<u64>::new_with_bounds(1, 600_000_000, 3).expect("bounds");
        let (mut delivered, mut arrived_all) = (0, 0);
        for (id, sent) in &t.sent {
            if let Some(arrived) = t.arrived.get(id) {
                arrived_all += 1;
                if *sent >= measured {
                    delivered += 1;
                    let _ = e2e.record(arrived.saturating_duration_since(*sent).as_micros().max(1) as u64);
                }
            }
        }
        report.delivered = delivered;
        report.lost = t.sent.len() as u64 - arrived_all;
        report.bad_signatures = t.bad_signatures;
        report.end_to_end_ms = Percentiles::of(&e2e);
        report.delivered_per_s = delivered as f64 / all_done.as_secs_f64().max(1e-3);
        report.ratio_to_baseline = report.baseline_per_s.map(|b| report.accepted_per_s / b);
    }
    report.backlog = args.backlog.then_some(p.accepted_all);
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
            t.arrived.len() >= t.sent.len() && t.sent.keys().all(|id| t.arrived.contains_key(id))
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
