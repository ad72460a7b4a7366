//! A full disk: the real executable on a small tmpfs of its own (a private mount namespace, so
//! no privilege is needed beyond what `unshare` grants). Writes answer 503, reads go on, the node
//! says so once, and it heals by itself when space is freed, losing nothing it acknowledged.

use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

/// Mounts a 16 MiB tmpfs on `$1`, fills 12 MiB of it with a ballast file that is removed once
/// `$2` exists (or after two minutes), and runs `$3 serve` on it.
const ON_A_SMALL_DISK: &str = r#"mount -t tmpfs -o size=16m tmpfs "$1" || exit 97
fallocate -l 12m "$1/ballast" || exit 98
(for i in $(seq 1200); do [ -e "$2" ] && break; sleep 0.1; done; rm -f "$1/ballast") &
exec "$3" serve --addr 127.0.0.1:0"#;

#[actix_web::test]
async fn a_full_disk_answers_503_keeps_reads_and_heals_when_space_is_freed() {
    let dir = tempfile::tempdir().unwrap();
    let (disk, free_it, log) = (dir.path().join("disk"), dir.path().join("free-it"), dir.path().join("log"));
    std::fs::create_dir(&disk).unwrap();
    let mut cmd = Command::new("unshare");
    if !rustix::process::geteuid().is_root() {
        cmd.args(["--user", "--map-root-user"]);
    }
    cmd.args(["--mount", "sh", "-c", ON_A_SMALL_DISK, "sh"])
        .arg(&disk)
        .arg(&free_it)
        .arg(env!("CARGO_BIN_EXE_pigeon"))
        .env("PIGEON_DATA_DIR", disk.join("data"))
        .env("PIGEON_ADMIN_TOKEN", ADMIN)
        .env("PIGEON_LOG", "info");
    let app = spawn_command(cmd, &log);
    let t = app.create_tenant("scale").await;
    let phone = json!({"tenant_id": t.id, "number": "+15550100001", "driver": "sim", "daily_limit": 100000,
        "sim": {"latency_ms": 0}});
    app.add_phone(phone).await.expect(201, None);

    // Fill the disk.
    let text = "x".repeat(1500);
    let mut accepted = Vec::new();
    let full = loop {
        let r = app.send(&t.live, json!({"to": "+14155550100", "body": text})).await;
        if r.status != 202 {
            break r;
        }
        accepted.push(r.data()["message_id"].as_str().unwrap().to_owned());
        assert!(accepted.len() < 20_000, "4 MiB of disk never filled up");
    };
    assert!(accepted.len() > 100, "only {} messages fit", accepted.len());
    full.expect(503, Some("STORAGE_UNAVAILABLE"));
    let again = app.send(&t.live, json!({"to": "+14155550100", "body": "hi"})).await;
    let again = again.expect(503, Some("STORAGE_UNAVAILABLE"));
    assert_eq!(again.header("retry-after"), Some("30"));
    app.call("GET", "/readyz", None, None).await.expect(503, Some("STORAGE_UNAVAILABLE"));
    // Reads go on.
    app.call("GET", &format!("/v1/messages/{}", accepted[0]), Some(&t.live), None).await.expect(200, None);
    app.list_keys(&t.live).await.expect(200, None);
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(said.matches("the store cannot write").count(), 1, "said once:\n{said}");
    // A request's own line stays at info: the warning is the one above (this check only held
    // while colour codes split `status=503` in the log).
    let warned = said.lines().any(|l| l.contains(" WARN ") && l.contains("answered status=503"));
    assert!(!warned, "no warning per refused request:\n{said}");

    // Free the space: the node restarts itself on the same address and takes writes again.
    std::fs::write(&free_it, b"").unwrap();
    wait_ready_again(&app.api, Duration::from_secs(60)).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    app.wait_status(&t.live, &id, "delivered").await;
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(said.matches("restarting to open the store again").count(), 1, "{said}");

    // Nothing acknowledged was lost, and what was owed is delivered.
    for id in &accepted {
        app.call("GET", &format!("/v1/messages/{id}"), Some(&t.live), None).await.expect(200, None);
    }
    app.wait_status(&t.live, accepted.last().unwrap(), "delivered").await;
}
