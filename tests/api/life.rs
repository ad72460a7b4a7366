//! More of a message's life: `sent` and `read`, their events, and the order a message's events
//! reach a webhook in.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

const ALL_MESSAGE_EVENTS: [&str; 5] =
    ["message.sent", "message.delivered", "message.read", "message.failed", "message.received"];

/// An agent phone, online (it has polled once).
async fn online_agent(app: &TestApp, tenant: &str) -> String {
    let (_, token) = app.agent_phone(tenant, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    token
}

/// The events a receiver got, in the order they arrived.
fn events(rx: &Receiver) -> Vec<String> {
    rx.hits().iter().map(|h| h.json()["event"].as_str().unwrap().to_owned()).collect()
}

async fn leased(app: &TestApp, token: &str, key: &str, to: &str) -> String {
    let id = app.send_ok(key, to).await;
    let jobs = app.poll(token, 5).await;
    assert_eq!(jobs[0]["message_id"], id.as_str());
    id
}

/// An agent's `sent`, `delivered` and `read` each make their event with the message's metadata;
/// the record carries `read_at`; repeating `read` changes nothing; nothing moves out of `read`;
/// `?status=read` finds it.
#[actix_web::test]
async fn sent_delivered_and_read_each_make_their_event() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let token = online_agent(&app, &t.id).await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(ALL_MESSAGE_EVENTS)).await;
    let body = json!({"to": "+14155550100", "body": "hi", "metadata": {"order_id": "A-1"}});
    let id =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    app.poll(&token, 5).await;

    app.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    let sent = rx.wait_for(1).await[0].json();
    assert_eq!((sent["event"].as_str(), sent["message_id"].as_str()), (Some("message.sent"), Some(&*id)));
    assert_eq!(sent["metadata"], json!({"order_id": "A-1"}));
    app.clock.advance(Duration::from_secs(5));
    app.report(&token, &id, json!({"status": "delivered"})).await.expect(200, None);
    rx.wait_for(2).await;
    app.clock.advance(Duration::from_secs(5));
    let r = app.report(&token, &id, json!({"status": "read"})).await.expect(200, None);
    assert_eq!(r.data()["status"], "read");
    let hits = rx.wait_for(3).await;
    assert_eq!(events(&rx), ["message.sent", "message.delivered", "message.read"]);
    let read = hits[2].json();
    assert_eq!(read["metadata"], json!({"order_id": "A-1"}));
    assert!(read.get("failure_reason").is_none() && read.get("body").is_none(), "{read}");

    let m = app.message(&t.live, &id).await;
    assert_eq!(m["status"], "read");
    let at = |f: &str| chrono::DateTime::parse_from_rfc3339(m[f].as_str().unwrap()).unwrap();
    assert!(at("sent_at") < at("delivered_at") && at("delivered_at") < at("read_at"), "{m}");
    assert_eq!(read["timestamp"], m["read_at"]);

    app.report(&token, &id, json!({"status": "read"})).await.expect(200, None);
    for status in ["delivered", "sent", "failed"] {
        app.report(&token, &id, json!({"status": status}))
            .await
            .expect(409, Some("INVALID_STATUS_TRANSITION"));
    }
    assert_eq!(app.message(&t.live, &id).await, m, "a repeat and refused moves change nothing");
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(rx.hits().len(), 3, "a repeated read makes no event");
    let r = app.call("GET", "/v1/messages?status=read", Some(&t.live), None).await.expect(200, None);
    let ids: Vec<&str> =
        r.data().as_array().unwrap().iter().map(|m| m["message_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [id.as_str()]);
}

/// Every message that reaches `delivered` passes `sent`: reported `delivered` straight away,
/// `sent_at` is the same instant and `message.sent` comes first; `read` straight from `sent`
/// implies delivery. A message still with its phone cannot be `read`.
#[actix_web::test]
async fn skipped_states_are_passed_in_order() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let token = online_agent(&app, &t.id).await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(ALL_MESSAGE_EVENTS)).await;

    let a = leased(&app, &token, &t.live, "+14155550100").await;
    app.report(&token, &a, json!({"status": "read"})).await.expect(409, Some("INVALID_STATUS_TRANSITION"));
    let m = app.report(&token, &a, json!({"status": "delivered"})).await.expect(200, None).data().clone();
    assert_eq!(m["sent_at"], m["delivered_at"]);
    rx.wait_for(2).await;
    assert_eq!(events(&rx), ["message.sent", "message.delivered"]);

    let b = leased(&app, &token, &t.live, "+14155550101").await;
    app.report(&token, &b, json!({"status": "sent"})).await.expect(200, None);
    rx.wait_for(3).await;
    app.clock.advance(Duration::from_secs(3));
    let m = app.report(&token, &b, json!({"status": "read"})).await.expect(200, None).data().clone();
    assert_eq!(m["delivered_at"], m["read_at"]);
    assert_ne!(m["sent_at"], m["read_at"]);
    let hits = rx.wait_for(5).await;
    assert_eq!(events(&rx)[2..], ["message.sent", "message.delivered", "message.read"]);
    assert!(hits[2..].iter().all(|h| h.json()["message_id"] == b.as_str()));

    // A test key's message passes `sent` too.
    let c = app.send_ok(&t.test, "+14155550102").await;
    app.wait_status(&t.test, &c, "delivered").await;
    let hits = rx.wait_for(7).await;
    let last: Vec<Value> = hits[5..].iter().map(|h| h.json()).collect();
    assert_eq!(
        last.iter().map(|e| e["event"].as_str().unwrap()).collect::<Vec<_>>(),
        ["message.sent", "message.delivered"]
    );
    assert!(last.iter().all(|e| e["test"] == true && e["message_id"] == c.as_str()));
}

/// A webhook that names the spec's events gets exactly those: no `sent`, no `read`.
#[actix_web::test]
async fn a_webhook_gets_only_the_events_it_names() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let token = online_agent(&app, &t.id).await;
    let spec = spawn_receiver().await;
    app.register_webhook(
        &t.live,
        &spec.url,
        json!(["message.delivered", "message.failed", "message.received"]),
    )
    .await;
    let reads = spawn_receiver().await;
    app.register_webhook(&t.live, &reads.url, json!(["message.read"])).await;
    let id = leased(&app, &token, &t.live, "+14155550100").await;
    app.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    app.report(&token, &id, json!({"status": "read"})).await.expect(200, None);
    reads.wait_for(1).await;
    spec.wait_for(1).await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(events(&spec), ["message.delivered"]);
    assert_eq!(events(&reads), ["message.read"]);
}

/// A later event of one message is not sent before the earlier one's first attempt is answered:
/// while the receiver holds `message.sent`, `message.delivered` waits; another message's events
/// do not.
#[actix_web::test]
async fn a_messages_events_wait_for_the_earlier_ones_first_answer() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let token = online_agent(&app, &t.id).await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(ALL_MESSAGE_EVENTS)).await;
    let a = app.send_ok(&t.live, "+14155550100").await;
    let b = app.send_ok(&t.live, "+14155550101").await;
    assert_eq!(app.poll(&token, 5).await.len(), 2);
    rx.hold();
    app.report(&token, &a, json!({"status": "sent"})).await.expect(200, None);
    app.report(&token, &a, json!({"status": "delivered"})).await.expect(200, None);
    app.report(&token, &b, json!({"status": "delivered"})).await.expect(200, None);
    // a's sent and b's sent are held; a's delivered and b's delivered wait behind them.
    for _ in 0..100 {
        if rx.held() >= 2 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.held(), 2, "one first attempt per message at a time");
    rx.release();
    let hits = rx.wait_for(4).await;
    for m in [&a, &b] {
        let of: Vec<String> = hits
            .iter()
            .map(|h| h.json())
            .filter(|e| e["message_id"] == m.as_str())
            .map(|e| e["event"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(of, ["message.sent", "message.delivered"], "{m}");
    }
}

/// A sim phone with `read_after_ms` has its messages read; a campaign counts them as `read`.
#[actix_web::test]
async fn a_sim_recipient_reads_and_a_campaign_counts_it() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let sim = json!({"latency_ms": 0, "read_after_ms": 10});
    let r = app
        .add_phone(json!({"tenant_id": t.id, "number": "+14155550001", "driver": "sim", "sim": sim}))
        .await;
    assert_eq!(r.expect(201, None).data()["sim"]["read_after_ms"], 10);
    let bad = json!({"tenant_id": t.id, "number": "+14155550002", "driver": "sim", "sim": {"read_after_ms": 86_400_001}});
    let e = app.add_phone(bad).await.expect(400, Some("VALIDATION_ERROR"));
    assert!(e.body["error"].as_str().unwrap().contains("read_after_ms"), "{}", e.body);

    let id = app.send_ok(&t.live, "+14155550100").await;
    let m = app.wait_status(&t.live, &id, "read").await;
    assert!(m["read_at"].is_string() && m["delivered_at"].is_string(), "{m}");
    let phones = ["+14155550101", "+14155550102"];
    let c = app
        .call(
            "POST",
            "/v1/campaigns",
            Some(&t.live),
            Some(json!({"name": "n", "body": "b", "phones": phones})),
        )
        .await
        .expect(201, None);
    let cid = c.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{cid}/launch"), Some(&t.live), None).await.expect(202, None);
    for _ in 0..100 {
        let r = app.call("GET", &format!("/v1/campaigns/{cid}"), Some(&t.live), None).await.expect(200, None);
        if r.data()["counts"]["read"] == 2 {
            assert_eq!(r.data()["counts"]["delivered"], 0, "{}", r.body);
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the campaign never counted two reads");
}
