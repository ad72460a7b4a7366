//! `spawn_app()` (in process, manual clock) and `spawn_binary()` (the real executable, for
//! restarts and signals), with one helper per endpoint.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use awc::http::Method;
use pigeon::clock::ManualClock;
use pigeon::config::Settings;
use pigeon::startup::Application;
use pigeon_actors::webhook::PrivateNetworks;
use serde_json::{json, Value};

pub const ADMIN: &str = "test-admin-token-0123456789abcdef";

/// An answer: status, headers, parsed JSON body.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: awc::http::header::HeaderMap,
    pub body: Value,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
    /// Asserts the status and, for errors, the code; returns self for more checks.
    pub fn expect(self, status: u16, code: Option<&str>) -> Self {
        assert_eq!(self.status, status, "unexpected status; body: {}", self.body);
        if let Some(code) = code {
            assert_eq!(self.body["code"], code, "body: {}", self.body);
            assert!(self.body["error"].as_str().is_some_and(|e| !e.is_empty()), "error text: {}", self.body);
            assert!(self.body.get("data").is_none(), "errors carry no data: {}", self.body);
        }
        assert!(self.header("x-request-id").is_some(), "every answer carries X-Request-Id");
        self
    }
}

/// A client of one server.
#[derive(Clone)]
pub struct Api {
    pub base: String,
    pub client: awc::Client,
}

impl Api {
    pub fn new(base: String) -> Self {
        let client = awc::Client::builder().timeout(Duration::from_secs(30)).finish();
        Self { base, client }
    }

    /// Any request; `body` is sent as JSON when present.
    pub async fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Resp {
        let mut req = self
            .client
            .request(Method::from_bytes(method.as_bytes()).unwrap(), format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        let res = match body {
            Some(b) => req.send_json(&b).await,
            None => req.send().await,
        };
        read(res.expect("request sent")).await
    }

    /// A request with a raw body and content type.
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        ctype: &str,
        body: Vec<u8>,
    ) -> Resp {
        let mut req = self
            .client
            .request(Method::from_bytes(method.as_bytes()).unwrap(), format!("{}{path}", self.base))
            .insert_header(("Content-Type", ctype));
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        read(req.send_body(body).await.expect("request sent")).await
    }

    // ---- operator ----

    /// Creates a tenant with quiet hours off (so sends go out at any test hour); returns its
    /// `data` (with `keys.live.key` and `keys.test.key`).
    pub async fn create_tenant(&self, plan: &str) -> Tenant {
        let t = self.create_tenant_default(plan).await;
        let off = json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"}});
        self.patch_tenant(&t.id, off).await.expect(200, None);
        t
    }

    /// Creates a tenant with every default, quiet hours included.
    pub async fn create_tenant_default(&self, plan: &str) -> Tenant {
        let r = self
            .call("POST", "/admin/v1/tenants", Some(ADMIN), Some(json!({"name": "acme", "plan": plan})))
            .await
            .expect(201, None);
        let d = r.data().clone();
        Tenant {
            id: d["id"].as_str().unwrap().to_owned(),
            live: d["keys"]["live"]["key"].as_str().unwrap().to_owned(),
            test: d["keys"]["test"]["key"].as_str().unwrap().to_owned(),
            record: d,
        }
    }

    pub async fn patch_tenant(&self, id: &str, body: Value) -> Resp {
        self.call("PATCH", &format!("/admin/v1/tenants/{id}"), Some(ADMIN), Some(body)).await
    }

    pub async fn get_tenant(&self, id: &str) -> Resp {
        self.call("GET", &format!("/admin/v1/tenants/{id}"), Some(ADMIN), None).await
    }

    pub async fn set_key_active(&self, key_id: &str, active: bool) -> Resp {
        let verb = if active { "reactivate" } else { "deactivate" };
        self.call("POST", &format!("/admin/v1/api-keys/{key_id}/{verb}"), Some(ADMIN), None).await
    }

    // ---- tenant ----

    pub async fn create_key(&self, key: &str, body: Value) -> Resp {
        self.call("POST", "/v1/api-keys", Some(key), Some(body)).await
    }

    pub async fn list_keys(&self, key: &str) -> Resp {
        self.call("GET", "/v1/api-keys", Some(key), None).await
    }

    pub async fn revoke_key(&self, key: &str, id: &str) -> Resp {
        self.call("DELETE", &format!("/v1/api-keys/{id}"), Some(key), None).await
    }

    // ---- phones and messages ----

    pub async fn add_phone(&self, body: Value) -> Resp {
        self.call("POST", "/admin/v1/phones", Some(ADMIN), Some(body)).await
    }

    /// A sim phone with the given latency; returns its id.
    pub async fn sim_phone(&self, tenant_id: &str, number: &str, latency_ms: u64) -> String {
        let r = self
            .add_phone(json!({"tenant_id": tenant_id, "number": number, "driver": "sim", "sim": {"latency_ms": latency_ms}}))
            .await
            .expect(201, None);
        r.data()["id"].as_str().unwrap().to_owned()
    }

    /// An agent phone; returns `(id, token)`.
    pub async fn agent_phone(&self, tenant_id: &str, number: &str) -> (String, String) {
        let r = self
            .add_phone(json!({"tenant_id": tenant_id, "number": number, "driver": "agent"}))
            .await
            .expect(201, None);
        (r.data()["id"].as_str().unwrap().to_owned(), r.data()["agent_token"].as_str().unwrap().to_owned())
    }

    pub async fn patch_phone(&self, id: &str, body: Value) -> Resp {
        self.call("PATCH", &format!("/admin/v1/phones/{id}"), Some(ADMIN), Some(body)).await
    }

    /// A send with an `Idempotency-Key`: the status and the whole answer.
    pub async fn send_idem(&self, key: &str, idem: &str, body: Value) -> (u16, Value) {
        let mut res = self
            .client
            .post(format!("{}/v1/messages", self.base))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .insert_header(("Idempotency-Key", idem))
            .send_json(&body)
            .await
            .unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }

    pub async fn send(&self, key: &str, body: Value) -> Resp {
        self.call("POST", "/v1/messages", Some(key), Some(body)).await
    }

    /// Sends `body` to `to`, expecting 202; returns the message id.
    pub async fn send_ok(&self, key: &str, to: &str) -> String {
        let r = self.send(key, json!({"to": to, "body": "hello"})).await.expect(202, None);
        r.data()["message_id"].as_str().unwrap().to_owned()
    }

    pub async fn message(&self, key: &str, id: &str) -> Value {
        let r = self.call("GET", &format!("/v1/messages/{id}"), Some(key), None).await.expect(200, None);
        r.data().clone()
    }

    /// Polls the message until it has `status` (at most 5 s); returns the record.
    pub async fn wait_status(&self, key: &str, id: &str, status: &str) -> Value {
        self.wait_status_within(key, id, status, Duration::from_secs(5)).await
    }

    /// Polls the message until it has `status` (at most `within`); returns the record.
    pub async fn wait_status_within(&self, key: &str, id: &str, status: &str, within: Duration) -> Value {
        for _ in 0..within.as_millis() / 50 {
            let m = self.message(key, id).await;
            if m["status"] == status {
                return m;
            }
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("message {id} never reached {status}: {}", self.message(key, id).await);
    }

    pub async fn poll(&self, token: &str, wait: u64) -> Vec<Value> {
        let r = self
            .call("GET", &format!("/phone/v1/jobs?wait={wait}"), Some(token), None)
            .await
            .expect(200, None);
        r.data().as_array().unwrap().clone()
    }

    pub async fn report(&self, token: &str, message_id: &str, body: Value) -> Resp {
        self.call("POST", &format!("/phone/v1/messages/{message_id}/status"), Some(token), Some(body)).await
    }

    pub async fn inbound(&self, token: &str, from: &str, body: &str) -> Resp {
        self.call("POST", "/phone/v1/inbound", Some(token), Some(json!({"from": from, "body": body}))).await
    }

    /// Registers a webhook for `events` at `url`; its record (with the secret, shown once).
    pub async fn register_webhook(&self, key: &str, url: &str, events: Value) -> Value {
        let r =
            self.call("POST", "/v1/webhooks", Some(key), Some(json!({"url": url, "events": events}))).await;
        r.expect(201, None).data().clone()
    }

    /// A webhook's delivery log, newest first.
    pub async fn delivery_log(&self, key: &str, webhook: &str) -> Vec<Value> {
        let r = self
            .call("GET", &format!("/v1/webhooks/{webhook}/deliveries"), Some(key), None)
            .await
            .expect(200, None);
        r.data().as_array().unwrap().clone()
    }

    /// Polls the log until the newest delivery has `n` attempts recorded. A receiver has a
    /// request before its sender records the outcome and sets the next attempt's time, so a test
    /// that moves the clock for a retry waits for this first, not only for the receiver.
    pub async fn wait_attempts(&self, key: &str, webhook: &str, n: usize) -> Value {
        for _ in 0..100 {
            let l = self.delivery_log(key, webhook).await;
            if l.first().is_some_and(|d| d["attempts"].as_array().unwrap().len() >= n) {
                return l[0].clone();
            }
            actix_web::rt::time::sleep(Duration::from_millis(30)).await;
        }
        panic!("never saw {n} attempts: {:?}", self.delivery_log(key, webhook).await);
    }
}

async fn read<S>(mut res: awc::ClientResponse<S>) -> Resp
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, awc::error::PayloadError>> + Unpin,
{
    let bytes = res.body().limit(4 << 20).await.expect("body read");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("every answer is JSON, got: {}", String::from_utf8_lossy(&bytes)))
    };
    Resp { status: res.status().as_u16(), headers: res.headers().clone(), body }
}

/// A tenant made by the operator, with its first keys.
pub struct Tenant {
    pub id: String,
    pub live: String,
    pub test: String,
    pub record: Value,
}

/// The server in this process, on a free port, with a clock the test moves.
pub struct TestApp {
    pub api: Api,
    pub clock: Arc<ManualClock>,
    pub handle: ServerHandle,
    running: actix_web::rt::task::JoinHandle<Result<(), pigeon::startup::StartError>>,
    settings: Settings,
    dir: tempfile::TempDir,
}

/// `/metrics`: Prometheus text, not the JSON envelope.
pub async fn metrics_text(app: &Api) -> String {
    let mut res = awc::Client::new().get(format!("{}/metrics", app.base)).send().await.unwrap();
    String::from_utf8(res.body().await.unwrap().to_vec()).unwrap()
}

/// A gauge or counter from `/metrics` (0 when it is not there yet).
pub async fn metric(app: &Api, name: &str) -> f64 {
    let text = metrics_text(app).await;
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok()).unwrap_or(0.0)
}

impl TestApp {
    /// The server's data directory.
    pub fn data_dir(&self) -> &std::path::Path {
        &self.settings.data_dir
    }

    /// The hashes of the media files the node keeps, sorted: a sled node's media directory
    /// (spools left out), or a PostgreSQL node's `media_files` rows.
    pub fn stored_media(&self) -> Vec<String> {
        if let Some(db) = &self.settings.database {
            let out = pigeon_storage::pg::testing::psql_output(
                &db.url,
                "SELECT sha256 FROM pigeon.media_files ORDER BY sha256",
            );
            return out.lines().map(str::to_owned).collect();
        }
        let mut names: Vec<String> = std::fs::read_dir(self.data_dir().join("media"))
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_file())
            .map(|e| e.file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    /// Stops the server gracefully and starts a new one on the same data and clock (a restart
    /// with the injectable clock still in the test's hands).
    pub async fn restart(self) -> TestApp {
        self.handle.stop(true).await;
        self.running.await.unwrap().expect("clean stop");
        // A restart takes time on a real clock too: ids made after it sort after those before.
        self.clock.advance(Duration::from_millis(1));
        start(self.dir, self.clock, self.settings).await
    }

    /// Stops the server, leaves its port closed for `pause`, then starts it again on the same
    /// port, data and clock: a node that was down, as its clients see it.
    pub async fn restart_after(self, pause: Duration) -> TestApp {
        let port: u16 = self.api.base.rsplit(':').next().unwrap().parse().unwrap();
        self.handle.stop(true).await;
        self.running.await.unwrap().expect("clean stop");
        actix_web::rt::time::sleep(pause).await;
        self.clock.advance(Duration::from_millis(1));
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("the port is free again");
        start_on(listener, self.dir, self.clock, self.settings).await
    }
}

impl std::ops::Deref for TestApp {
    type Target = Api;
    fn deref(&self) -> &Api {
        &self.api
    }
}

/// Where the manual clock of every in-process server starts: noon UTC, as far from a day's end as
/// can be, so no test crosses midnight unless it moves the clock there. The engine reads no other
/// time (record ids carry this clock's time too), so a test passes at any hour of the real day.
pub const START: &str = "2026-11-22T12:00:00Z";

/// Starts at [`START`]; webhooks may reach loopback (the test receivers live there).
pub async fn spawn_app() -> TestApp {
    spawn_app_at(START).await
}

pub async fn spawn_app_at(at: &str) -> TestApp {
    spawn_app_with(at, true).await
}

pub async fn spawn_app_with(at: &str, allow_private: bool) -> TestApp {
    let allowed = if allow_private { PrivateNetworks::Allowed } else { PrivateNetworks::Refused };
    configured(at.parse().unwrap(), |s| s.webhook_allow_private = allowed).await
}

/// Keeps final messages for `retention` only; starts at [`START`].
pub async fn spawn_app_retaining(retention: Duration) -> TestApp {
    spawn_app_configured(|s| s.retention = retention).await
}

/// On a sled directory whatever the run: for what only sled has (its files on disk).
pub async fn spawn_app_on_sled() -> TestApp {
    spawn_app_configured(|s| s.database = None).await
}

/// Starts at the real time, for tests whose other party reads the system clock (a Standard
/// Webhooks verifier refuses a timestamp five minutes from its now). Such a test must not depend
/// on the day: nothing it asserts may change at midnight.
pub async fn spawn_app_at_real_time() -> TestApp {
    configured(chrono::Utc::now(), |_| {}).await
}

/// A server with settings of the test's choosing; starts at [`START`].
pub async fn spawn_app_configured(configure: impl FnOnce(&mut Settings)) -> TestApp {
    configured(START.parse().unwrap(), configure).await
}

/// Whether this run of the suite keeps its servers' data in PostgreSQL (`PIGEON_TEST_STORE=postgres`,
/// which `.ci/run` sets for its second run of the suite) instead of sled directories.
pub fn on_postgres() -> bool {
    std::env::var("PIGEON_TEST_STORE").is_ok_and(|v| v == "postgres")
}

/// The database standing for the data directory `dir` on a PostgreSQL run: a fresh one on the
/// throwaway cluster the first time, the same one again for a restart over the same directory.
pub fn database_for(dir: &Path) -> String {
    static DATABASES: std::sync::Mutex<Vec<(std::path::PathBuf, String)>> = std::sync::Mutex::new(Vec::new());
    let mut known = DATABASES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, url)) = known.iter().find(|(d, _)| d == dir) {
        return url.clone();
    }
    let url = pigeon_storage::pg::testing::database_url();
    known.push((dir.to_owned(), url.clone()));
    url
}

/// A fresh data dir (or, on a PostgreSQL run, a fresh database), webhooks allowed to reach
/// loopback, then the test's settings; the manual clock starts at `at`.
async fn configured(at: chrono::DateTime<chrono::Utc>, configure: impl FnOnce(&mut Settings)) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::new(dir.path());
    if on_postgres() {
        // A small pool: a run holds a server per test, and the cluster's connections are finite.
        settings.database = Some(pigeon::config::Database::new(database_for(dir.path()), 2));
    }
    settings.webhook_allow_private = PrivateNetworks::Allowed;
    configure(&mut settings);
    start(dir, ManualClock::new(at), settings).await
}

async fn start(dir: tempfile::TempDir, clock: Arc<ManualClock>, settings: Settings) -> TestApp {
    start_on(TcpListener::bind("127.0.0.1:0").unwrap(), dir, clock, settings).await
}

async fn start_on(
    listener: TcpListener,
    dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    mut settings: Settings,
) -> TestApp {
    settings.admin_token = Some(ADMIN.into());
    settings.workers = Some(1);
    // A previous server on this directory may still be letting go of the store.
    let mut tries = 0;
    let app = loop {
        match Application::build(settings.clone(), listener.try_clone().unwrap(), clock.clone()).await {
            Ok(app) => break app,
            Err(e) if tries < 40 => {
                tries += 1;
                let _ = e;
                actix_web::rt::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("app builds: {e}"),
        }
    };
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    let running = actix_web::rt::spawn(app.run_until_stopped());
    TestApp { api: Api::new(base), clock, handle, running, settings, dir }
}

/// The real executable.
pub struct Binary {
    pub api: Api,
    pub child: Child,
    /// What it printed to stdout up to the "listening" line.
    pub stdout: Vec<String>,
}

impl std::ops::Deref for Binary {
    type Target = Api;
    fn deref(&self) -> &Api {
        &self.api
    }
}

/// Runs `pigeon serve` on a free port over `dir`. `admin`: the operator token to configure.
pub fn spawn_binary(dir: &Path, admin: Option<&str>, log_file: &Path) -> Binary {
    spawn_binary_with(dir, admin, log_file, &[])
}

/// The same with extra environment variables.
pub fn spawn_binary_with(dir: &Path, admin: Option<&str>, log_file: &Path, env: &[(&str, &str)]) -> Binary {
    binary(dir, admin, log_file, env, on_postgres())
}

/// `pigeon serve` on a sled directory whatever the run: for what only sled has (its files on
/// disk, offline compaction).
pub fn spawn_binary_on_sled(dir: &Path, admin: Option<&str>, log_file: &Path) -> Binary {
    binary(dir, admin, log_file, &[], false)
}

/// The same with extra environment variables.
pub fn spawn_binary_on_sled_with(
    dir: &Path,
    admin: Option<&str>,
    log_file: &Path,
    env: &[(&str, &str)],
) -> Binary {
    binary(dir, admin, log_file, env, false)
}

fn binary(dir: &Path, admin: Option<&str>, log_file: &Path, env: &[(&str, &str)], postgres: bool) -> Binary {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pigeon"));
    cmd.arg("serve");
    if !env.iter().any(|(k, _)| *k == "PIGEON_ADDR") {
        cmd.args(["--addr", "127.0.0.1:0"]);
    }
    cmd.env("PIGEON_DATA_DIR", dir).env("PIGEON_LOG", "debug").env_remove("PIGEON_ADMIN_TOKEN");
    cmd.env_remove("PIGEON_DATABASE_URL");
    if postgres && !env.iter().any(|(k, _)| *k == "PIGEON_DATABASE_URL") {
        cmd.env("PIGEON_DATABASE_URL", database_for(dir));
    }
    if let Some(a) = admin {
        cmd.env("PIGEON_ADMIN_TOKEN", a);
    }
    cmd.envs(env.iter().copied());
    spawn_command(cmd, log_file)
}

/// Runs a command that ends in `pigeon serve` (a wrapper that sets up its disk, say), its
/// stderr appended to `log_file`.
pub fn spawn_command(mut cmd: Command, log_file: &Path) -> Binary {
    cmd.stderr(std::fs::OpenOptions::new().create(true).append(true).open(log_file).unwrap());
    let s = pigeon_loadtest::server::spawn_listening(cmd).expect("pigeon starts and prints its address");
    Binary { api: Api::new(s.url), child: s.child, stdout: s.stdout }
}

/// Waits until `/readyz` answers 200, through a restart that drops the connections (a reset one
/// is "not ready yet"); fails after `within`.
pub async fn wait_ready_again(api: &Api, within: Duration) {
    let started = std::time::Instant::now();
    let probe = awc::Client::builder().timeout(Duration::from_secs(2)).finish();
    let ready = format!("{}/readyz", api.base);
    while !probe.get(&ready).send().await.is_ok_and(|r| r.status() == 200) {
        assert!(started.elapsed() < within, "not ready again within {within:?}");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

impl Binary {
    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill").args([sig, &self.child.id().to_string()]).status().unwrap().success();
        assert!(ok, "kill {sig}");
    }

    /// SIGKILL: no chance to flush anything.
    pub fn kill9(mut self) {
        self.signal("-KILL");
        self.child.wait().unwrap();
    }

    /// SIGTERM, then the exit status (within 30 s).
    pub fn terminate(mut self) -> std::process::ExitStatus {
        self.signal("-TERM");
        for _ in 0..300 {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("pigeon did not stop within 30 s of SIGTERM");
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request a receiver got.
#[derive(Debug, Clone)]
pub struct Hit {
    pub headers: std::collections::HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Hit {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("webhook bodies are JSON")
    }
}

/// A local webhook endpoint that records what it gets and answers the status it is told; it can
/// also hold requests unanswered, as a slow endpoint does.
pub struct Receiver {
    pub url: String,
    pub hits: Arc<std::sync::Mutex<Vec<Hit>>>,
    pub status: Arc<std::sync::atomic::AtomicU16>,
    gate: Arc<Gate>,
}

/// Requests arriving while `closed` wait (counted in `held`) and are recorded once it opens.
#[derive(Default)]
struct Gate {
    closed: std::sync::atomic::AtomicBool,
    held: std::sync::atomic::AtomicUsize,
}

impl Receiver {
    pub fn set_status(&self, s: u16) {
        self.status.store(s, std::sync::atomic::Ordering::SeqCst);
    }
    /// From now on, requests wait unanswered (and unrecorded) until `release`.
    pub fn hold(&self) {
        self.gate.closed.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    pub fn release(&self) {
        self.gate.closed.store(false, std::sync::atomic::Ordering::SeqCst);
    }
    /// How many requests are waiting at the gate now.
    pub fn held(&self) -> usize {
        self.gate.held.load(std::sync::atomic::Ordering::SeqCst)
    }
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }
    /// Waits (up to 5 s) until at least `n` requests arrived.
    pub async fn wait_for(&self, n: usize) -> Vec<Hit> {
        for _ in 0..100 {
            let h = self.hits();
            if h.len() >= n {
                return h;
            }
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("receiver got {} requests, expected {n}", self.hits().len());
    }

    /// Waits (up to 5 s) for the first request that carried the event `id` (its `webhook-id`):
    /// found by its id, not its place, since delivery is at least once (a restart may cut short
    /// the record of a success, and the event then comes again beside the next one).
    pub async fn wait_for_event(&self, id: &str) -> Hit {
        for _ in 0..100 {
            if let Some(h) = self.hits().into_iter().find(|h| h.headers["webhook-id"] == id) {
                return h;
            }
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no request carried event {id}: {} in all", self.hits().len());
    }
}

pub async fn spawn_receiver() -> Receiver {
    spawn_receiver_on(TcpListener::bind("127.0.0.1:0").unwrap())
}

pub fn spawn_receiver_on(listener: TcpListener) -> Receiver {
    use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
    let port = listener.local_addr().unwrap().port();
    let hits: Arc<std::sync::Mutex<Vec<Hit>>> = Arc::default();
    let status = Arc::new(std::sync::atomic::AtomicU16::new(200));
    let gate = Arc::new(Gate::default());
    let (h, s, g) = (hits.clone(), status.clone(), gate.clone());
    let server = HttpServer::new(move || {
        let (h, s, g) = (h.clone(), s.clone(), g.clone());
        App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
            let (h, s, g) = (h.clone(), s.clone(), g.clone());
            async move {
                use std::sync::atomic::Ordering::SeqCst;
                if g.closed.load(SeqCst) {
                    g.held.fetch_add(1, SeqCst);
                    while g.closed.load(SeqCst) {
                        actix_web::rt::time::sleep(Duration::from_millis(10)).await;
                    }
                    g.held.fetch_sub(1, SeqCst);
                }
                let headers = req
                    .headers()
                    .iter()
                    .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
                    .collect();
                h.lock().unwrap().push(Hit { headers, body: body.to_vec() });
                let code = s.load(std::sync::atomic::Ordering::SeqCst);
                HttpResponse::build(actix_web::http::StatusCode::from_u16(code).unwrap())
                    .body("receiver says hi")
            }
        }))
    })
    .workers(1)
    .listen(listener)
    .unwrap()
    .run();
    actix_web::rt::spawn(server);
    Receiver { url: format!("http://127.0.0.1:{port}/hooks"), hits, status, gate }
}

/// The webhook signature, the one function the engine and the harness sign with (pinned to
/// RFC 4231's test vector in its own unit test).
pub use pigeon_actors::webhook::sign;

/// Signs in to the dashboard at `base` as a browser does: GETs the form (its pre-session cookie
/// and CSRF token), then posts `key` with them. The answer's status, its session `Set-Cookie`
/// (if any), and the body.
pub async fn dashboard_sign_in(base: &str, key: &str) -> (u16, Option<String>, String) {
    let (pre, csrf) = sign_in_form(base).await;
    dashboard_post_sign_in(base, key, Some(&pre), &csrf).await
}

/// The sign-in form's pre-session cookie (`name=value`) and its CSRF token.
pub async fn sign_in_form(base: &str) -> (String, String) {
    let client = awc::Client::builder().disable_redirects().finish();
    let mut r = client.get(format!("{base}/dashboard/login")).send().await.unwrap();
    let pre = set_cookie_named(r.headers(), "pigeon_sign_in").expect("a pre-session cookie");
    let page = String::from_utf8_lossy(&r.body().await.unwrap()).into_owned();
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + "name=\"csrf\" value=\"".len();
    (pre.split(';').next().unwrap().to_owned(), page[at..].split('"').next().unwrap().to_owned())
}

/// Posts the sign-in form with `key`, the pre-session cookie `pre` (`name=value`) and `csrf`.
pub async fn dashboard_post_sign_in(
    base: &str,
    key: &str,
    pre: Option<&str>,
    csrf: &str,
) -> (u16, Option<String>, String) {
    let client = awc::Client::builder().disable_redirects().finish();
    let mut req = client.post(format!("{base}/dashboard/login"));
    if let Some(pre) = pre {
        req = req.insert_header(("Cookie", pre.to_owned()));
    }
    let mut r = req.send_form(&[("key", key), ("csrf", csrf)]).await.unwrap();
    let cookie = set_cookie_named(r.headers(), "pigeon_session");
    let body = String::from_utf8_lossy(&r.body().await.unwrap()).into_owned();
    (r.status().as_u16(), cookie, body)
}

/// The `Set-Cookie` header that sets `name`, whole.
pub fn set_cookie_named(headers: &awc::http::header::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}
