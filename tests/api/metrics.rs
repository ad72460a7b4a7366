//! `/metrics` by Prometheus' conventions, read off the real executable (its own process, so the
//! counts are its alone): `promtool check metrics` finds nothing, and the families an operator
//! alerts on (messages by final status, phones online, the build, `process_*`) say what happened.

use serde_json::json;

use crate::helpers::*;

/// The value of the sample `series` (name and labels as written) in `text`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// `promtool check metrics` over `text`: its complaints, or None where promtool is missing (one
/// line says what to install) unless `PIGEON_REQUIRE_PROMTOOL` is set (`.ci/run`): then it fails.
fn promtool(text: &str) -> Option<String> {
    use std::io::Write;
    let child = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        assert!(
            std::env::var_os("PIGEON_REQUIRE_PROMTOOL").is_none(),
            "PIGEON_REQUIRE_PROMTOOL is set and promtool is missing (apt-get install prometheus)"
        );
        eprintln!("skipped: promtool check metrics (apt-get install prometheus to run it)");
        return None;
    };
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Some(if out.status.success() { said } else { format!("exit {:?}: {said}", out.status.code()) })
}

#[actix_web::test]
async fn metrics_follow_prometheus_conventions_and_count_every_fate() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_binary(&dir.path().join("data"), Some(ADMIN), &dir.path().join("log"));
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550990").await;
    app.agent_phone(&t.id, "+14155550991").await; // never polls: offline
    app.poll(&token, 0).await;

    let read = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    app.report(&token, &read, json!({"status": "delivered"})).await.expect(200, None);
    app.report(&token, &read, json!({"status": "read"})).await.expect(200, None);
    let failed = app.send_ok(&t.live, "+14155550101").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    app.report(&token, &failed, json!({"status": "failed", "failure_reason": "carrier"}))
        .await
        .expect(200, None);
    // Read without a delivery report: it passed `delivered` as well.
    let skipped = app.send_ok(&t.live, "+14155550104").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    app.report(&token, &skipped, json!({"status": "sent"})).await.expect(200, None);
    app.report(&token, &skipped, json!({"status": "read"})).await.expect(200, None);
    let cancelled = app.send_ok(&t.live, "+14155550102").await;
    app.call("DELETE", &format!("/v1/messages/{cancelled}"), Some(&t.live), None).await.expect(200, None);
    app.inbound(&token, "+14155550103", "hello").await.expect(201, None);

    let text = metrics_text(&app.api).await;
    for (status, n) in
        [("delivered", 2.0), ("read", 2.0), ("failed", 1.0), ("cancelled", 1.0), ("received", 1.0)]
    {
        let series = format!("pigeon_messages_total{{status=\"{status}\"}}");
        assert_eq!(sample(&text, &series), Some(n), "{series}:\n{text}");
    }
    assert_eq!(sample(&text, "pigeon_phones_online"), Some(1.0), "{text}");
    let build = format!("pigeon_build_info{{version=\"{}\"}}", env!("CARGO_PKG_VERSION"));
    assert_eq!(sample(&text, &build), Some(1.0), "{text}");
    assert!(sample(&text, "process_resident_memory_bytes").is_some_and(|b| b > 1e6), "{text}");
    assert!(sample(&text, "process_open_fds").is_some_and(|n| n >= 3.0), "{text}");
    assert!(sample(&text, "pigeon_store_flush_seconds_total").is_some_and(|s| s > 0.0 && s < 60.0), "{text}");
    assert!(!text.contains("microseconds"), "base units only:\n{text}");
    for family in text.lines().filter_map(|l| l.strip_prefix("# TYPE ")) {
        let name = family.split_whitespace().next().unwrap();
        assert!(text.contains(&format!("# HELP {name} ")), "{name} has no HELP:\n{text}");
    }
    if let Some(said) = promtool(&text) {
        assert!(said.trim().is_empty(), "promtool check metrics: {said}\n{text}");
    }
}
