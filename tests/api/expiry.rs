//! `valid_for`: a message no phone has taken by its `expires_at` fails `EXPIRED` at that moment,
//! whether it waits in its phone's queue or is held; a leased one is not recalled, and fails
//! instead of going back if its lease runs out; a restart and `kill -9` change none of it.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

/// Waits (5 s at most) until the message's status is `status`; the record.
async fn settled(app: &Api, key: &str, id: &str, status: &str) -> Value {
    app.wait_status_within(key, id, status, Duration::from_secs(5)).await
}

fn expired(m: &Value) {
    assert_eq!((m["status"].as_str(), m["error_code"].as_str()), (Some("failed"), Some("EXPIRED")), "{m}");
}

async fn send_valid_for(app: &Api, key: &str, to: &str, valid_for: u64) -> String {
    let body = json!({"to": to, "body": "your code is 123456", "valid_for": valid_for});
    let r = app.send(key, body).await.expect(202, None);
    r.data()["message_id"].as_str().unwrap().to_owned()
}

/// Queued for an agent that does not poll: at `expires_at` it fails `EXPIRED`, `message.failed`
/// says so, and the phone never gets it. A message with time left is handed out as usual.
#[actix_web::test]
async fn a_queued_message_expires_at_its_time_and_never_reaches_the_phone() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let receiver = spawn_receiver().await;
    app.register_webhook(&t.live, &receiver.url, json!(["message.failed"])).await;
    let id = send_valid_for(&app, &t.live, "+14155550100", 60).await;
    let keep = send_valid_for(&app, &t.live, "+14155550102", 600).await;
    let m = app.message(&t.live, &id).await;
    assert_eq!(m["expires_at"], "2026-11-22T12:01:00.000Z", "created_at + valid_for");
    assert_eq!(
        app.message(&t.live, &app.send_ok(&t.live, "+14155550104").await).await["expires_at"],
        Value::Null
    );

    app.clock.advance(Duration::from_secs(59));
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.message(&t.live, &id).await["status"], "queued", "not before its time");
    app.clock.advance(Duration::from_secs(2));
    expired(&settled(&app, &t.live, &id, "failed").await);
    let event = receiver.wait_for(1).await[0].json();
    assert_eq!((event["message_id"].as_str(), event["code"].as_str()), (Some(id.as_str()), Some("EXPIRED")));
    let jobs = app.poll(&token, 1).await;
    let handed: Vec<_> = jobs.iter().map(|j| j["message_id"].as_str().unwrap()).collect();
    assert!(!handed.contains(&id.as_str()) && handed.contains(&keep.as_str()), "{handed:?}");
}

/// Leased before its expiry, a message is not recalled: the phone's report counts. One whose
/// lease runs out after its expiry fails `EXPIRED` instead of going back to the queue.
#[actix_web::test]
async fn a_leased_message_is_not_recalled_but_does_not_go_back_once_expired() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let reported = send_valid_for(&app, &t.live, "+14155550100", 30).await;
    let dropped = send_valid_for(&app, &t.live, "+14155550102", 30).await;
    assert_eq!(app.poll(&token, 0).await.len(), 2);
    app.clock.advance(Duration::from_secs(31));
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    app.report(&token, &reported, json!({"status": "delivered"})).await.expect(200, None);
    settled(&app, &t.live, &reported, "delivered").await;
    assert_eq!(app.message(&t.live, &dropped).await["status"], "sending", "a lease is not recalled");
    // The lease (60 s) runs out: past its expiry, the message fails rather than requeue.
    app.clock.advance(Duration::from_secs(61));
    expired(&settled(&app, &t.live, &dropped, "failed").await);
    assert!(app.poll(&token, 0).await.is_empty());
}

/// Held by quiet hours past its expiry, a message fails at its expiry, not at the release;
/// `send_at` at or after the expiry is refused, naming `valid_for`; the bounds are checked.
#[actix_web::test]
async fn a_held_message_expires_while_held_and_the_fields_are_checked() {
    let app = spawn_app().await;
    // Quiet hours on (21:00–08:00 in the recipient's zone): at 12:00 UTC it is 04:00 in San
    // Francisco, so a send there is held until 16:00 UTC.
    let t = app.create_tenant_default("growth").await;
    app.add_phone(json!({"tenant_id": t.id, "number": "+14155550001", "driver": "sim"}))
        .await
        .expect(201, None);
    let body = json!({"to": "+14155550100", "body": "x", "valid_for": 3600});
    let r = app.send(&t.live, body).await.expect(202, None);
    assert_eq!(r.data()["scheduled_at"], "2026-11-22T16:00:00.000Z");
    let id = r.data()["message_id"].as_str().unwrap().to_owned();
    app.clock.set("2026-11-22T13:00:01Z".parse().unwrap());
    let m = settled(&app, &t.live, &id, "failed").await;
    expired(&m);
    assert_eq!(m["failed_at"], "2026-11-22T13:00:01.000Z", "failed when it expired, while held");

    let late = json!({"to": "+14155550100", "body": "x", "valid_for": 60, "send_at": "2026-11-22T13:05:00Z"});
    let e = app.send(&t.live, late).await.expect(400, Some("VALIDATION_ERROR"));
    assert!(e.body["error"].as_str().unwrap().starts_with("valid_for"), "{}", e.body);
    for valid_for in [json!(9), json!(259_201), json!("60"), json!(-1), json!(1.5)] {
        let body = json!({"to": "+14155550100", "body": "x", "valid_for": valid_for});
        let e = app.send(&t.live, body).await.expect(400, Some("VALIDATION_ERROR"));
        assert!(e.body["error"].as_str().unwrap().contains("valid_for"), "{valid_for}: {}", e.body);
    }
    let edge = json!({"to": "+14155550100", "body": "x", "valid_for": 259_200});
    app.send(&t.live, edge).await.expect(202, None);
    let campaign = json!({"name": "codes", "body": "hi", "phones": ["+14155550102"], "valid_for": 5});
    let r = app.call("POST", "/v1/campaigns", Some(&t.live), Some(campaign)).await;
    r.expect(400, Some("VALIDATION_ERROR"));
}

/// Across a restart: a queued message's expiry still falls after it, and one that fell while the
/// node was down is carried out as the node starts; a held one too.
#[actix_web::test]
async fn expiries_survive_a_restart_and_one_due_while_down_happens_at_start() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let later = send_valid_for(&app, &t.live, "+14155550100", 120).await;
    let while_down = send_valid_for(&app, &t.live, "+14155550102", 30).await;
    let held = json!({"to": "+14155550104", "body": "x", "valid_for": 90, "send_at": "2026-11-22T12:01:00Z"});
    let held =
        app.send(&t.live, held).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.clock.advance(Duration::from_secs(31));
    let app = app.restart().await;
    expired(&settled(&app, &t.live, &while_down, "failed").await);
    assert_eq!(app.message(&t.live, &later).await["status"], "queued");
    app.clock.advance(Duration::from_secs(90));
    expired(&settled(&app, &t.live, &later, "failed").await);
    // Released at 12:01 to an agent that stopped polling, it expired at 12:01:30 in the queue.
    expired(&settled(&app, &t.live, &held, "failed").await);
}

/// `kill -9` while a message waits: its expiry falls while the node is down, and the restarted
/// node fails it as it starts, before any phone can take it. Real binary on the real clock: under
/// `.ci/at-hour`'s fake clock each process would start its own clock again at the faked time, so
/// a restarted node would be earlier than the one before it.
#[actix_web::test]
async fn an_expiry_that_falls_during_a_kill_9_happens_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let real_clock = [("LD_PRELOAD", "")];
    let node = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &real_clock);
    let t = node.create_tenant("growth").await;
    let (_, token) = node.agent_phone(&t.id, "+14155550001").await;
    assert!(node.poll(&token, 0).await.is_empty());
    let id = send_valid_for(&node, &t.live, "+14155550100", 10).await;
    // The 202 comes after the message's `created_at`: 10 s from now, it has expired.
    let expired_by = std::time::Instant::now() + Duration::from_millis(10_300);
    let keep = send_valid_for(&node, &t.live, "+14155550102", 600).await;
    node.kill9();
    std::thread::sleep(expired_by.saturating_duration_since(std::time::Instant::now()));
    let node = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &real_clock);
    let jobs = node.poll(&token, 2).await;
    let handed: Vec<_> = jobs.iter().map(|j| j["message_id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(handed, vec![keep], "the expired message never reaches the phone");
    expired(&settled(&node, &t.live, &id, "failed").await);
}
