//! Backups of a node while it serves, their restore, and a move from sled to PostgreSQL: the
//! real binary, `pigeon backup`, `pigeon restore` and `pigeon migrate` as an operator runs them.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::*;

/// Runs `pigeon <args>`: whether it succeeded, and what it printed (stdout, then stderr).
fn pigeon(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(args)
        .env_remove("PIGEON_DATA_DIR")
        .env_remove("PIGEON_ADMIN_TOKEN")
        .output()
        .expect("pigeon runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// Webhooks may reach the test's receiver on loopback.
const PRIVATE: &[(&str, &str)] = &[("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true")];

/// A `send_at` the binary (on the real clock) holds a message for.
fn in_ten_days() -> String {
    (chrono::Utc::now() + chrono::Duration::days(10)).to_rfc3339()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Sends from one task until `stop`, noting each message's id and when its 202 came.
fn sender(
    app: Api,
    key: String,
    stop: Arc<AtomicBool>,
) -> actix_web::rt::task::JoinHandle<Vec<(String, Instant)>> {
    actix_web::rt::spawn(async move {
        let mut acked = Vec::new();
        let mut i = 0u32;
        while !stop.load(Ordering::SeqCst) {
            let r = app
                .send(&key, json!({"to": format!("+14155550{:03}", i % 20), "body": format!("m{i}")}))
                .await;
            if r.status == 202 {
                acked.push((r.data()["message_id"].as_str().unwrap().to_owned(), Instant::now()));
            }
            i += 1;
        }
        acked
    })
}

#[actix_web::test]
async fn a_backup_taken_while_sends_go_on_restores_every_message_acknowledged_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log, archive) = (dir.path().join("data"), dir.path().join("log"), dir.path().join("node.tar"));
    let app = spawn_binary_on_sled_with(&data, Some(ADMIN), &log, PRIVATE);
    let receiver = spawn_receiver().await;
    let t = app.create_tenant("scale").await;
    let phone = json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim", "daily_limit": 100_000, "sim": {"latency_ms": 0}});
    app.add_phone(phone).await.expect(201, None);
    let hook = app.register_webhook(&t.live, &receiver.url, json!(["message.delivered"])).await;
    let later = app.send(&t.live, json!({"to": "+14155550001", "body": "later", "send_at": in_ten_days()}));
    let later = later.await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let held = app.message(&t.live, &later).await;

    let stop = Arc::new(AtomicBool::new(false));
    let senders: Vec<_> = (0..4).map(|_| sender(app.api.clone(), t.live.clone(), stop.clone())).collect();
    actix_web::rt::time::sleep(Duration::from_millis(1_500)).await;
    let began = Instant::now();
    let (server, token, out) = (app.api.base.clone(), ADMIN.to_owned(), archive.clone());
    let (ok, said) = actix_web::rt::task::spawn_blocking(move || {
        pigeon(&["backup", "--server", &server, "--admin-token", &token, "--out", path(&out)])
    })
    .await
    .unwrap();
    let ended = Instant::now();
    assert!(ok && said.starts_with(&format!("saved {}", archive.display())), "{said}");
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::SeqCst);
    let mut acked = Vec::new();
    for s in senders {
        acked.extend(s.await.unwrap());
    }
    let before: Vec<&String> = acked.iter().filter(|(_, at)| *at < began).map(|(id, _)| id).collect();
    let after: Vec<&String> = acked.iter().filter(|(_, at)| *at > ended).map(|(id, _)| id).collect();
    assert!(
        before.len() >= 50 && !after.is_empty(),
        "sends on both sides: {} and {}",
        before.len(),
        after.len()
    );
    assert!(!data.join("backup.partial").exists(), "the node's copy is removed once sent");

    // An archive cut short is refused, and leaves nothing behind.
    let cut = dir.path().join("cut.tar");
    let bytes = std::fs::read(&archive).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let half = dir.path().join("half");
    let (ok, said) = pigeon(&["restore", path(&cut), "--data-dir", path(&half)]);
    assert!(!ok && said.contains("cut short"), "{said}");
    assert!(!half.exists(), "{said}");

    let restored = dir.path().join("restored");
    let (ok, said) = pigeon(&["restore", path(&archive), "--data-dir", path(&restored)]);
    assert!(ok && said.starts_with(&format!("restored {}", restored.display())), "{said}");
    let (ok, said) = pigeon(&["restore", path(&archive), "--data-dir", path(&restored)]);
    assert!(!ok && said.contains("is not empty"), "only into an empty directory: {said}");

    let copy = spawn_binary_on_sled(&restored, Some(ADMIN), &dir.path().join("log2"));
    let missing: Vec<_> = futures_util::future::join_all(before.iter().map(|id| {
        let (copy, key) = (&copy, &t.live);
        async move { (copy.call("GET", &format!("/v1/messages/{id}"), Some(key), None).await.status, *id) }
    }))
    .await
    .into_iter()
    .filter(|(status, _)| *status != 200)
    .collect();
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged before the backup: {missing:?}",
        missing.len(),
        before.len()
    );
    let last = after.last().unwrap();
    copy.call("GET", &format!("/v1/messages/{last}"), Some(&t.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    assert_eq!(copy.message(&t.live, &later).await, held, "the schedule");
    let hooks = copy.call("GET", "/v1/webhooks", Some(&t.live), None).await.expect(200, None);
    assert_eq!(hooks.data()[0]["id"], hook["id"], "its webhooks");
    let fresh = copy.send_ok(&t.live, "+14155550002").await;
    copy.wait_status(&t.live, &fresh, "delivered").await;
    assert!(copy.terminate().success());
    assert!(app.terminate().success());
}

#[actix_web::test]
async fn a_node_on_postgres_points_to_pg_dump() {
    if !on_postgres() {
        return;
    }
    let app = spawn_app().await;
    app.api
        .call("GET", "/admin/v1/backup", Some(ADMIN), None)
        .await
        .expect(409, Some("BACKUP_NOT_SUPPORTED"));
}

#[actix_web::test]
async fn a_backup_needs_the_operator_token() {
    let app = spawn_app().await;
    let t = app.api.create_tenant("starter").await;
    app.api.call("GET", "/admin/v1/backup", Some(&t.live), None).await.expect(401, Some("INVALID_API_KEY"));
    app.api.call("GET", "/admin/v1/backup", None, None).await.expect(401, Some("INVALID_API_KEY"));
}

#[actix_web::test]
async fn a_stopped_sled_store_moves_to_postgres_and_serves_the_same_tenants() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let app = spawn_binary_on_sled_with(&data, Some(ADMIN), &log, PRIVATE);
    let receiver = spawn_receiver().await;
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let hook = app.register_webhook(&t.live, &receiver.url, json!(["message.delivered"])).await;
    let later = app.send(&t.live, json!({"to": "+14155550001", "body": "later", "send_at": in_ten_days()}));
    let later = later.await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let held = app.message(&t.live, &later).await;
    let sent: Vec<String> = futures_util::future::join_all((0..30).map(|i| {
        let (app, key) = (&app, t.live.clone());
        async move { app.send_ok(&key, &format!("+141555501{i:02}")).await }
    }))
    .await;
    for id in &sent {
        app.wait_status(&t.live, id, "delivered").await;
    }
    let pdf = [&b"%PDF-1.4\n"[..], &[42u8; 400_000]].concat();
    let media =
        app.raw("POST", "/v1/media", Some(&t.live), "application/pdf", pdf.clone()).await.expect(201, None);
    let media = media.data()["media_id"].as_str().unwrap().to_owned();
    let url = pigeon_storage::pg::testing::database_url();
    let (ok, said) = pigeon(&["migrate", "--data-dir", path(&data), "--to", &url]);
    assert!(!ok && said.contains("another pigeon process"), "a running node's store is refused: {said}");
    assert!(app.terminate().success());

    let (ok, said) = pigeon(&["migrate", "--data-dir", path(&data), "--to", &url]);
    assert!(ok, "{said}");
    let count = |table: &str| -> u64 {
        let line = said
            .lines()
            .find(|l| l.split_whitespace().next() == Some(table))
            .unwrap_or_else(|| panic!("{said}"));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(count("tenants"), 1, "{said}");
    assert_eq!(count("messages"), 31, "{said}");
    assert_eq!(count("webhooks"), 1, "{said}");
    assert_eq!((count("media"), count("media_files")), (1, 1), "{said}");
    assert!(count("keys") >= 2 && count("total") > 31, "{said}");
    let (ok, again) = pigeon(&["migrate", "--data-dir", path(&data), "--to", &url]);
    assert!(!ok && again.contains("not empty"), "only into an empty database: {again}");

    let node = spawn_binary_with(&dir.path().join("pg"), Some(ADMIN), &log, &[("PIGEON_DATABASE_URL", &url)]);
    for id in &sent {
        assert_eq!(node.message(&t.live, id).await["status"], "delivered");
    }
    assert_eq!(node.message(&t.live, &later).await, held, "the schedule");
    let hooks = node.call("GET", "/v1/webhooks", Some(&t.live), None).await.expect(200, None);
    assert_eq!(hooks.data()[0]["id"], hook["id"]);
    let mut bytes = node.client.get(format!("{}/v1/media/{media}/content", node.base));
    bytes = bytes.insert_header(("Authorization", format!("Bearer {}", t.live)));
    let bytes = bytes.send().await.unwrap().body().limit(1 << 20).await.unwrap();
    assert!(bytes == pdf, "the file moved with its record");
    let fresh = node.send_ok(&t.live, "+14155550002").await;
    node.wait_status(&t.live, &fresh, "delivered").await;
    assert!(node.terminate().success());
}
