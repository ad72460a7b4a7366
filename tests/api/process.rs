//! The real executable: restarts (graceful and SIGKILL), the operator-token bootstrap, exit
//! codes, and no secrets in the logs.

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn keys_revocations_and_counters_survive_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = dir.path().join("log");

    let app = spawn_binary(&data, Some(ADMIN), &log);
    let t = app.create_tenant("starter").await;
    let k = app.create_key(&t.live, json!({"name": "kept", "rate_limit": 7})).await.expect(201, None);
    let kept = k.data()["key"].as_str().unwrap().to_owned();
    let r = app.create_key(&t.live, json!({"name": "gone"})).await.expect(201, None);
    let (gone_id, gone) =
        (r.data()["id"].as_str().unwrap().to_owned(), r.data()["key"].as_str().unwrap().to_owned());
    app.revoke_key(&t.live, &gone_id).await.expect(200, None);
    let off = app.create_key(&t.live, json!({"name": "off"})).await.expect(201, None);
    let off_key = off.data()["key"].as_str().unwrap().to_owned();
    app.set_key_active(off.data()["id"].as_str().unwrap(), false).await.expect(200, None);
    app.patch_tenant(&t.id, json!({"monthly_call_limit": 1000})).await.expect(200, None);
    for _ in 0..4 {
        app.list_keys(&kept).await.expect(200, None);
    }
    // 3 creates + 1 revoke + 4 lists.
    let calls = 8;
    // Counters are written back within a second; calls that sent nothing and came in the last
    // second before a `kill -9` may go uncounted (docs/operating.md "Durability").
    std::thread::sleep(std::time::Duration::from_millis(1500));
    app.kill9();

    // SIGKILL: every acknowledged write is there.
    let app = spawn_binary(&data, Some(ADMIN), &log);
    let r = app.list_keys(&kept).await.expect(200, None);
    let names: Vec<_> =
        r.data().as_array().unwrap().iter().map(|k| k["name"].as_str().unwrap().to_owned()).collect();
    assert_eq!(names, ["default live key", "default test key", "kept", "off"]);
    assert_eq!(r.data()[2]["rate_limit"], 7);
    app.list_keys(&gone).await.expect(401, Some("INVALID_API_KEY"));
    app.list_keys(&off_key).await.expect(403, Some("KEY_INACTIVE"));
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["monthly_call_limit"], 1000);
    let counted = v.data()["usage"]["api_calls_this_month"].as_u64().unwrap();
    // The list since the restart counts too.
    assert_eq!(counted, calls + 1, "counter kept across SIGKILL");

    // Graceful stop: exit 0, counters and last_used_at written back.
    let status = app.terminate();
    assert!(status.success(), "SIGTERM exits 0, got {status:?}");
    let app = spawn_binary(&data, Some(ADMIN), &log);
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["api_calls_this_month"].as_u64().unwrap(), counted);
    let r = app.list_keys(&t.live).await.expect(200, None);
    assert!(r.data()[2]["last_used_at"].is_string(), "last_used_at survives a restart: {}", r.body);
    assert!(app.terminate().success());
}

#[actix_web::test]
async fn a_fresh_store_prints_a_generated_operator_token_once() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = dir.path().join("log");

    let app = spawn_binary(&data, None, &log);
    let line = app.stdout.iter().find(|l| l.contains("svc_admin_")).expect("token printed").clone();
    let token = line.split_whitespace().last().unwrap().to_owned();
    assert!(token.starts_with("svc_admin_") && token.len() == 42, "{token}");
    let t = app.create_tenant_with(&token).await;
    app.list_keys(&t).await.expect(200, None);
    assert!(app.terminate().success());

    let app = spawn_binary(&data, None, &log);
    assert!(app.stdout.iter().all(|l| !l.contains("svc_admin_")), "shown once: {:?}", app.stdout);
    app.call("GET", "/admin/v1/tenants", Some(&token), None).await.expect(200, None);
    assert!(app.terminate().success());

    // A configured token replaces the stored one.
    let rotated = "rotated-operator-token-0123456789";
    let app = spawn_binary(&data, Some(rotated), &log);
    app.call("GET", "/admin/v1/tenants", Some(&token), None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/admin/v1/tenants", Some(rotated), None).await.expect(200, None);
    drop(app);

    let logs = std::fs::read_to_string(&log).unwrap();
    assert!(logs.contains("answered"), "requests are logged");
    assert!(!logs.contains(&token), "the operator token never reaches a log line");
    assert!(!logs.contains(&t), "API keys never reach a log line");
}

impl Binary {
    /// Creates a tenant with an explicit operator token; returns its live key.
    async fn create_tenant_with(&self, token: &str) -> String {
        let r = self
            .call("POST", "/admin/v1/tenants", Some(token), Some(json!({"name": "boot"})))
            .await
            .expect(201, None);
        r.data()["keys"]["live"]["key"].as_str().unwrap().to_owned()
    }
}

#[actix_web::test]
async fn json_logs_are_one_object_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let app =
        spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &[("PIGEON_LOG_FORMAT", "json")]);
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    assert!(app.terminate().success());
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["message"] == "answered" && l["status"] == 200 && l["span"]["path"] == "/healthz"),
        "{text}"
    );
}

/// The purge delay the "listening" line reports for a node started with `env`.
async fn purge_delay_of(env: &[(&str, &str)]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [&[("PIGEON_LOG_FORMAT", "json")], env].concat();
    let app = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &env);
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    assert!(app.terminate().success());
    let text = std::fs::read_to_string(&log).unwrap();
    let line = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|l| l["message"] == "listening")
        .unwrap_or_else(|| panic!("no listening line: {text}"));
    line["purge_delay_ms"].clone()
}

#[actix_web::test]
async fn the_node_keeps_freed_memory_unless_the_operator_sets_mimallocs_purge_delay() {
    // pigeon's default: mimalloc never hands freed pages back (-1); its own default is 1,000 ms.
    assert_eq!(purge_delay_of(&[]).await, -1);
    // mimalloc's variable, under its new and its old name, wins.
    assert_eq!(purge_delay_of(&[("MIMALLOC_PURGE_DELAY", "250")]).await, 250);
    assert_eq!(purge_delay_of(&[("MIMALLOC_RESET_DELAY", "0")]).await, 0);
}

#[actix_web::test]
async fn the_demo_prints_keys_and_a_curl_line_that_delivers() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = dir.path().join("log");
    let env = [("PIGEON_DEMO", "true")];
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let out = app.stdout.join("\n");
    let live =
        out.lines().find_map(|l| l.trim().strip_prefix("live key: ")).expect("live key printed").to_owned();
    assert!(out.lines().any(|l| l.trim().starts_with("test key: svc_test_")), "{out}");
    assert!(
        out.contains(&format!("curl -s {}/v1/messages -H 'Authorization: Bearer {live}'", app.base)),
        "{out}"
    );
    // Run what the curl line sends.
    let body =
        out.split("-d '").nth(1).and_then(|s| s.split('\'').next()).expect("a JSON body in the curl line");
    let r = app.send(&live, serde_json::from_str(body).unwrap()).await.expect(202, None);
    app.wait_status(&live, r.data()["message_id"].as_str().unwrap(), "delivered").await;
    assert!(app.terminate().success());

    // Once only.
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    assert!(app.stdout.iter().any(|l| l.starts_with("Demo tenant exists")), "{:?}", app.stdout);
    assert!(!app.stdout.join("\n").contains("svc_live_"));
    let r = app.call("GET", "/admin/v1/tenants", Some(ADMIN), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
    app.list_keys(&live).await.expect(200, None);
    assert!(app.terminate().success());
}

/// Runs `pigeon loadtest` with `args` plus `--quiet --json`; the table it printed and its report.
fn loadtest(args: &[&str]) -> (String, serde_json::Value) {
    let (stdout, report, _) = loadtest_chart(args);
    (stdout, report)
}

/// The same, with the soak chart's SVG if one was written.
fn loadtest_chart(args: &[&str]) -> (String, serde_json::Value, Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .arg("loadtest")
        .args(args)
        .args(["--quiet", "--json"])
        .arg(&json)
        .env_remove("PIGEON_ADMIN_TOKEN")
        .output()
        .expect("loadtest runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let chart = std::fs::read_to_string(json.with_extension("svg")).ok();
    (stdout, serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap(), chart)
}

#[actix_web::test]
async fn a_loadtest_smoke_run_completes_with_nothing_lost() {
    let args =
        ["--duration", "3s", "--warmup", "1s", "--connections", "4", "--baseline", "--sample-every", "1s"];
    let (stdout, r, chart) = loadtest_chart(&args);
    assert!(stdout.contains("accept") && stdout.contains("end to end"), "prints the table: {stdout}");
    assert!(r["accepted"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["lost"], 0, "{r}");
    assert_eq!(r["errors_5xx"], 0, "{r}");
    assert_eq!(r["bad_signatures"], 0, "{r}");
    assert_eq!(r["delivered"], r["accepted"], "{r}");
    assert!(r["baseline_per_s"].as_f64().unwrap() > 0.0, "{r}");
    for field in ["p50", "p90", "p99", "p999", "max"] {
        assert!(r["accept_latency_ms"][field].is_number() && r["end_to_end_ms"][field].is_number(), "{r}");
    }
    assert!(r["server_rss_mib"].as_f64().unwrap() > 0.0, "{r}");
    // Each message is accepted, delivered and reported by webhook: several writes, a few KB.
    let writes = r["store_writes_per_message"].as_f64().unwrap();
    assert!((2.0..40.0).contains(&writes), "{r}");
    assert!(r["store_bytes_per_message"].as_f64().unwrap() > 0.0, "{r}");
    assert!(stdout.contains("writes and"), "{stdout}");
    // Soak mode: a sample a second, each with its window's figures, drawn beside the report.
    let samples = r["samples"].as_array().unwrap();
    assert!((2..=3).contains(&samples.len()), "{r}");
    let accepted: u64 = samples.iter().map(|s| s["accepted"].as_u64().unwrap()).sum();
    assert!(accepted > 0 && accepted <= r["accepted"].as_u64().unwrap(), "{r}");
    for s in samples {
        assert!(s["rss_mib"].as_f64().unwrap() > 0.0 && s["store_mib"].as_f64().unwrap() > 0.0, "{s}");
        assert!(s["accept_p99_ms"].as_f64().unwrap() >= s["accept_p50_ms"].as_f64().unwrap(), "{s}");
        // The log's syncs are timed inside the flushes that contain them.
        let (sync, wait) = (s["log_sync_ms"].as_f64().unwrap(), s["flush_wait_ms"].as_f64().unwrap());
        assert!((0.0..=wait).contains(&sync), "{s}");
        assert!(s["probe_us"].as_f64().unwrap() > 0.0, "{s}");
    }
    // The node's CPU by thread group, from its own counters: every part a send goes through.
    let cpu = |group: &str| samples.iter().map(|s| s["cpu_ms"][group].as_f64().unwrap_or(0.0)).sum::<f64>();
    for group in ["pigeon-http", "pigeon-tenants", "pigeon-work", "pigeon-commit", "sled-io"] {
        assert!(cpu(group) > 0.0, "{group}: {r}");
    }
    assert!(samples.iter().all(|s| s["wait_ms"].is_object()), "{r}");
    let synced: f64 = samples.iter().map(|s| s["log_sync_ms"].as_f64().unwrap()).sum();
    assert!(synced > 0.0, "every flush syncs the log: {r}");
    let chart = chart.expect("the chart is written beside the report");
    assert!(
        chart.contains("<svg")
            && chart.contains("server RSS")
            && chart.contains("accept p99")
            && chart.contains("machine probe"),
        "{chart}"
    );
}

/// An open loop sends what its rate asks for over the run and no more: each connection used to
/// send once more after the run's end (one send a connection, counted as accepted), which at
/// 40 connections each sending once a second overstated this run's rate by half.
#[actix_web::test]
async fn an_open_loop_run_sends_its_rate_times_its_duration() {
    let (_, r) = loadtest(&["--rate", "40", "--connections", "40", "--duration", "2s", "--warmup", "0s"]);
    let accepted = r["accepted"].as_u64().unwrap();
    assert!((72..=80).contains(&accepted), "40/s for 2 s: {r}");
    assert_eq!(r["lost"], 0, "{r}");
}

/// The harness's backlog and restart: every message accepted stays queued, survives SIGKILL, and
/// is back in the phones' queues (as `/metrics` counts them) after the restart.
#[actix_web::test]
async fn a_loadtest_backlog_survives_a_kill_and_comes_back_in_the_queue_gauges() {
    let (_, r) =
        // Long texts, as a tenant's may be: each one 1,500 characters.
        loadtest(&["--warmup", "0s", "--messages", "300", "--connections", "4", "--backlog", "--restart", "--text-chars", "1500"]);
    assert_eq!(r["accepted"], 300, "--messages stops at 300: {r}");
    assert_eq!(r["backlog"], 300, "{r}");
    assert_eq!(r["errors_5xx"], 0, "{r}");
    let restart = &r["restart"];
    let (ready, first, back) = (
        restart["ready_s"].as_f64().unwrap(),
        restart["first_accept_s"].as_f64().unwrap(),
        restart["backlog_back_s"].as_f64().expect("the backlog came back"),
    );
    assert!(ready > 0.0 && first >= ready && back >= ready, "{r}");
}

/// `pigeon compact` over `data`: its exit status and what it printed (stdout, then stderr).
fn compact(data: &std::path::Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["compact", "--data-dir"])
        .arg(data)
        .env_remove("PIGEON_DATA_DIR")
        .output()
        .expect("pigeon compact runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[actix_web::test]
async fn compaction_refuses_a_running_node_and_keeps_everything_of_a_stopped_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = dir.path().join("log");
    let app = spawn_binary_on_sled(&data, Some(ADMIN), &log);
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let ids: Vec<String> = futures_util::future::join_all((0..20).map(|i| {
        let (app, key) = (&app, t.live.clone());
        async move { app.send_ok(&key, &format!("+141555501{i:02}")).await }
    }))
    .await;
    for id in &ids {
        app.wait_status(&t.live, id, "delivered").await;
    }

    let (ok, text) = compact(&data);
    assert!(!ok, "a running node's store is refused: {text}");
    let holder = format!("another pigeon process (pid {}) is using {}", app.child.id(), data.display());
    assert!(text.contains(&holder), "{text}");

    assert!(app.terminate().success());
    let (ok, text) = compact(&data);
    assert!(ok, "{text}");
    // 20 messages, none deleted: little or nothing to give back, so the copy may not be smaller
    // (then the store stays as it was; storage's unit tests pin down both outcomes).
    assert!(text.contains("MiB ->") || text.contains("as it was"), "{text}");
    assert!(!dir.path().join("data.compacting").exists(), "{text}");

    // The same node, with everything it had.
    let app = spawn_binary_on_sled(&data, Some(ADMIN), &log);
    for id in &ids {
        assert_eq!(app.message(&t.live, id).await["status"], "delivered");
    }
    let after = app.send_ok(&t.live, "+14155550199").await;
    app.wait_status(&t.live, &after, "delivered").await;
    assert!(app.terminate().success());
}

/// A second node on a data directory in use says so in plain words and exits 2 (a setting to
/// change), naming the process that holds it.
#[actix_web::test]
async fn a_data_directory_in_use_is_refused_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let first = spawn_binary_on_sled(&data, Some(ADMIN), &log);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("PIGEON_DATA_DIR", &data)
        .env("PIGEON_ADMIN_TOKEN", ADMIN)
        .env_remove("PIGEON_DATABASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let holder = format!("another pigeon process (pid {}) is using {}", first.child.id(), data.display());
    assert!(stderr.contains(&holder) && !stderr.contains("WouldBlock"), "{stderr}");
    first.call("GET", "/readyz", None, None).await.expect(200, None);
}

/// Off a terminal the log is plain text; a request line names its tenant and a duration rounded
/// to the microsecond; `--addr` takes a host name.
#[actix_web::test]
async fn logs_off_a_terminal_are_plain_and_name_the_tenant() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let app =
        spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &[("PIGEON_ADDR", "localhost:0")]);
    let t = app.create_tenant("starter").await;
    app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert!(app.terminate().success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains('\u{1b}'), "no colour codes in a file: {text}");
    let line = text
        .lines()
        .find(|l| l.contains("answered") && l.contains("path=/v1/messages"))
        .unwrap_or_else(|| panic!("a request line for /v1/messages: {text}"));
    assert!(line.contains(&format!("tenant_id={}", t.id)), "{line}");
    let ms = line.split("ms=").nth(1).and_then(|r| r.split_whitespace().next()).expect("ms=");
    let decimals = ms.split('.').nth(1).map_or(0, str::len);
    assert!(ms.parse::<f64>().is_ok() && decimals <= 3, "{line}");
}
