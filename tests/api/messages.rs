//! `POST /v1/messages` and the message records: validation, phone choice, limits, lifecycle
//! through sim phones, test keys, cancellation, isolation.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

#[actix_web::test]
async fn a_send_is_accepted_then_delivered_by_a_sim_phone() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 20).await;
    let r = app
        .send(&t.live, json!({"to": "+14155550100", "body": "hi there", "channel": "imessage"}))
        .await
        .expect(202, None);
    let d = r.data();
    assert_eq!(d["status"], "queued");
    assert_eq!(d["to"], "+14155550100");
    assert_eq!(d["channel"], "imessage");
    assert_eq!(d["created_at"], "2026-11-22T12:00:00.000Z");
    let id = d["message_id"].as_str().unwrap();
    assert!(ulid::Ulid::from_string(id).is_ok());
    assert!(r.header("x-ratelimit-remaining").is_some());

    let m = app.wait_status(&t.live, id, "delivered").await;
    assert_eq!(m["message_id"], id);
    assert_eq!(m["direction"], "outbound");
    assert_eq!(m["from"], "+14155550999");
    assert_eq!(m["body"], "hi there");
    assert_eq!(m["channel_used"], "imessage", "sim rule: an even last digit has iMessage");
    assert_eq!(m["test"], false);
    assert!(m["sent_at"].is_string() && m["delivered_at"].is_string());
    for field in ["template", "campaign_id", "scheduled_at", "failed_at", "failure_reason", "error_code"] {
        assert!(m.get(field).is_some_and(Value::is_null), "{field} present and null: {m}");
    }
    // Default channel is auto; an odd last digit gets SMS from a sim phone.
    let id = app.send_ok(&t.live, "+14155550101").await;
    let m = app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(m["channel"], "auto");
    assert_eq!(m["channel_used"], "sms");
}

#[actix_web::test]
async fn every_field_is_validated_with_the_spec_codes() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 20).await;
    let cases = [
        (json!({"body": "x"}), "VALIDATION_ERROR", "to"),
        (json!({"to": "+14155550100"}), "VALIDATION_ERROR", "body"),
        (json!({"to": "+14155550100", "body": ""}), "VALIDATION_ERROR", "body"),
        (json!({"to": "+14155550100", "body": "x".repeat(10_001)}), "VALIDATION_ERROR", "body"),
        (json!({"to": "+14155550100", "body": "x", "channel": "fax"}), "VALIDATION_ERROR", "channel"),
        (json!({"to": "+14155550100", "body": "x", "colour": 1}), "VALIDATION_ERROR", "colour"),
        (json!({"to": 14155550100u64, "body": "x"}), "VALIDATION_ERROR", "to"),
        (json!({"to": "14155550100", "body": "x"}), "INVALID_PHONE_NUMBER", "to"),
        (json!({"to": "+123456789", "body": "x"}), "INVALID_PHONE_NUMBER", "to"),
        (json!({"to": "+1234567890123456", "body": "x"}), "INVALID_PHONE_NUMBER", "to"),
        (json!({"to": "+1 415 555 0100", "body": "x"}), "INVALID_PHONE_NUMBER", "to"),
        (json!({"to": "+1415555010a", "body": "x"}), "INVALID_PHONE_NUMBER", "to"),
    ];
    for (body, code, field) in cases {
        let r = app.send(&t.live, body.clone()).await.expect(400, Some(code));
        assert!(r.body["error"].as_str().unwrap().contains(field), "{body}: {}", r.body);
    }
    // A body of exactly 10,000 characters (multi-byte ones too) is fine.
    app.send(&t.live, json!({"to": "+14155550100", "body": "é".repeat(10_000)})).await.expect(202, None);
    app.send(&t.live, json!({"to": "+123456789012345", "body": "x"})).await.expect(202, None);
    // Refused sends left nothing behind.
    let r = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn no_phone_available_when_offline_disabled_or_full() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    let r = app
        .add_phone(json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim", "daily_limit": 2}))
        .await
        .expect(201, None);
    let phone = r.data()["id"].as_str().unwrap().to_owned();
    assert_eq!(r.data()["online"], true);
    app.send_ok(&t.live, "+14155550100").await;
    app.send_ok(&t.live, "+14155550100").await;
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["sent_today"], 2);
    assert_eq!(r.data()[0]["daily_limit"], 2);
    assert_eq!(r.data()[0]["number"], "+14155550999");

    // The daily counters reset at UTC midnight.
    app.clock.set("2026-11-23T00:00:00Z".parse().unwrap());
    app.send_ok(&t.live, "+14155550100").await;
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["sent_today"], 1);

    app.patch_phone(&phone, json!({"online": false})).await.expect(200, None);
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    app.patch_phone(&phone, json!({"online": true, "enabled": false})).await.expect(200, None);
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    app.patch_phone(&phone, json!({"enabled": true, "daily_limit": 10})).await.expect(200, None);
    app.send_ok(&t.live, "+14155550100").await;
}

#[actix_web::test]
async fn phones_are_chosen_sticky_then_by_capacity() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let a = app.sim_phone(&t.id, "+14155550001", 10).await;
    let r = app
        .add_phone(json!({"tenant_id": t.id, "number": "+14155550002", "driver": "sim", "daily_limit": 500}))
        .await
        .expect(201, None);
    let b = r.data()["id"].as_str().unwrap().to_owned();
    // b has the most capacity left (500 vs 300).
    let id = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.message(&t.live, &id).await["from"], "+14155550002");
    // The recipient sticks to b while b can take it...
    app.patch_phone(&b, json!({"daily_limit": 2})).await.expect(200, None);
    let id = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.message(&t.live, &id).await["from"], "+14155550002", "sticky although a has more room");
    // ...and moves when b is full.
    let id = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.message(&t.live, &id).await["from"], "+14155550001");
    let id = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.message(&t.live, &id).await["from"], "+14155550001", "now sticky to a");
    let _ = a;
}

#[actix_web::test]
async fn the_new_contact_limit_counts_first_time_recipients_per_day() {
    let app = spawn_app_at("2026-11-22T23:00:00Z").await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 10).await;
    app.patch_tenant(&t.id, json!({"new_contact_daily_limit": 2})).await.expect(200, None);
    app.send_ok(&t.live, "+14155550100").await;
    app.send_ok(&t.live, "+14155550101").await;
    let r = app
        .send(&t.live, json!({"to": "+14155550102", "body": "x"}))
        .await
        .expect(429, Some("NEW_CONTACT_LIMIT"));
    assert_eq!(r.header("retry-after"), Some("3600"), "to UTC midnight");
    // Known recipients are unlimited.
    for _ in 0..3 {
        app.send_ok(&t.live, "+14155550100").await;
    }
    // Test keys use no allowance.
    app.send(&t.test, json!({"to": "+14155550103", "body": "x"})).await.expect(202, None);
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["new_contacts_today"], 2);
    app.clock.advance(Duration::from_secs(3600));
    app.send_ok(&t.live, "+14155550102").await;
}

#[actix_web::test]
async fn test_keys_never_reach_a_phone_and_magic_numbers_fail() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    // No phone at all: test sends still complete.
    let id = app.send_ok(&t.test, "+14155550100").await;
    let m = app.wait_status(&t.test, &id, "delivered").await;
    assert_eq!(m["test"], true);
    assert_eq!(m["from"], "+15005550000", "the documented test sender");
    let r = app.send(&t.test, json!({"to": "+15005550001", "body": "x"})).await.expect(202, None);
    let m = app.wait_status(&t.test, r.data()["message_id"].as_str().unwrap(), "failed").await;
    assert_eq!(m["error_code"], "DELIVERY_FAILED");
    assert!(m["failure_reason"].as_str().unwrap().contains("rejected"));
    assert!(m["failed_at"].is_string());
    let r = app.send(&t.test, json!({"to": "+15005550002", "body": "x"})).await.expect(202, None);
    app.wait_status(&t.test, r.data()["message_id"].as_str().unwrap(), "failed").await;
    let r = app
        .send(&t.test, json!({"to": "+15005550003", "body": "x", "channel": "imessage"}))
        .await
        .expect(202, None);
    let m = app.wait_status(&t.test, r.data()["message_id"].as_str().unwrap(), "delivered").await;
    assert_eq!(m["channel_used"], "sms");
    // Validation still applies, and no quota was used.
    app.send(&t.test, json!({"to": "12", "body": "x"})).await.expect(400, Some("INVALID_PHONE_NUMBER"));
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["api_calls_this_month"], 0);
    // A live key of a tenant without phones still gets 503.
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
}

#[actix_web::test]
async fn queued_messages_can_be_cancelled_and_sent_ones_cannot() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // An agent phone holds messages in its queue until it polls.
    let (_, token) = app.agent_phone(&t.id, "+14155550997").await;
    app.poll(&token, 0).await;
    let held = app.send_ok(&t.live, "+14155550101").await;
    let r = app.call("DELETE", &format!("/v1/messages/{held}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()["status"], "cancelled");
    assert_eq!(app.message(&t.live, &held).await["status"], "cancelled");
    assert!(app.poll(&token, 0).await.is_empty(), "a cancelled message never reaches the phone");
    app.call("DELETE", &format!("/v1/messages/{held}"), Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
    // Leased: too late.
    let leased = app.send_ok(&t.live, "+14155550101").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    assert_eq!(app.message(&t.live, &leased).await["status"], "sending");
    app.call("DELETE", &format!("/v1/messages/{leased}"), Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
    // Test messages once complete cannot be cancelled either.
    let tm = app.send_ok(&t.test, "+14155550100").await;
    app.wait_status(&t.test, &tm, "delivered").await;
    app.call("DELETE", &format!("/v1/messages/{tm}"), Some(&t.test), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
}

#[actix_web::test]
async fn other_tenants_messages_answer_404_and_lists_filter() {
    let app = spawn_app().await;
    let a = app.create_tenant("starter").await;
    let b = app.create_tenant("starter").await;
    app.sim_phone(&a.id, "+14155550999", 5).await;
    let id = app.send_ok(&a.live, "+14155550100").await;
    app.call("GET", &format!("/v1/messages/{id}"), Some(&b.live), None).await.expect(404, Some("NOT_FOUND"));
    app.call("DELETE", &format!("/v1/messages/{id}"), Some(&b.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    app.call("GET", "/v1/messages/nope", Some(&a.live), None).await.expect(404, Some("NOT_FOUND"));
    let r = app.call("GET", "/v1/messages", Some(&b.live), None).await.expect(200, None);
    assert!(r.data().as_array().unwrap().is_empty());

    app.wait_status(&a.live, &id, "delivered").await;
    let other = app.send_ok(&a.live, "+14155550101").await;
    app.wait_status(&a.live, &other, "delivered").await;
    let r = app.call("GET", "/v1/messages?to=%2B14155550101", Some(&a.live), None).await.expect(200, None);
    let ids: Vec<_> = r.data().as_array().unwrap().iter().map(|m| m["message_id"].clone()).collect();
    assert_eq!(ids, vec![json!(other)]);
    let r = app
        .call("GET", "/v1/messages?status=delivered&direction=outbound&limit=1", Some(&a.live), None)
        .await;
    let r = r.expect(200, None);
    assert_eq!(r.data()[0]["message_id"], id.as_str());
    let cursor = r.body["next_cursor"].as_str().unwrap();
    let r = app
        .call("GET", &format!("/v1/messages?status=delivered&limit=1&after={cursor}"), Some(&a.live), None)
        .await
        .expect(200, None);
    assert_eq!(r.data()[0]["message_id"], other.as_str());
    let r = app.call("GET", "/v1/messages?status=queued", Some(&a.live), None).await.expect(200, None);
    assert!(r.data().as_array().unwrap().is_empty());
    app.call("GET", "/v1/messages?status=lost", Some(&a.live), None)
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    app.call("GET", "/v1/messages?direction=up", Some(&a.live), None)
        .await
        .expect(400, Some("VALIDATION_ERROR"));
}

#[actix_web::test]
async fn sim_failures_carry_a_reason() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.add_phone(json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim", "sim": {"latency_ms": 5, "failure_rate": 1.0}}))
        .await
        .expect(201, None);
    let id = app.send_ok(&t.live, "+14155550100").await;
    let m = app.wait_status(&t.live, &id, "failed").await;
    assert_eq!(m["error_code"], "DELIVERY_FAILED");
    assert!(m["failure_reason"].is_string());
    for bad in [
        json!({"tenant_id": t.id, "number": "+14155550998", "driver": "sim", "sim": {"failure_rate": 2}}),
        json!({"tenant_id": t.id, "number": "+14155550998", "driver": "agent", "sim": {"latency_ms": 5}}),
        json!({"tenant_id": t.id, "number": "+14155550998", "driver": "pigeon"}),
        json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim"}),
    ] {
        app.add_phone(bad).await.expect(400, Some("VALIDATION_ERROR"));
    }
    app.add_phone(json!({"tenant_id": t.id, "number": "555", "driver": "sim"}))
        .await
        .expect(400, Some("INVALID_PHONE_NUMBER"));
    app.add_phone(
        json!({"tenant_id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "number": "+14155550998", "driver": "sim"}),
    )
    .await
    .expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn an_idempotency_key_replays_the_first_answer_for_24_hours() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 5).await;
    let body = json!({"to": "+14155550100", "body": "once only"});
    let (s1, first) = app.send_idem(&t.live, "order-42", body.clone()).await;
    assert_eq!(s1, 202);
    let id = first["data"]["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &id, "delivered").await;
    let (s2, again) = app.send_idem(&t.live, "order-42", body.clone()).await;
    assert_eq!(s2, 202);
    assert_eq!(again["data"], first["data"], "the first answer, word for word");
    let r = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1, "nothing sent twice");
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["sent_today"], 1);

    let (s3, reused) =
        app.send_idem(&t.live, "order-42", json!({"to": "+14155550100", "body": "other"})).await;
    assert_eq!(s3, 409);
    assert_eq!(reused["code"], "IDEMPOTENCY_KEY_REUSED");
    // Another tenant's key space is its own.
    let other = app.create_tenant("starter").await;
    let (s4, _) = app.send_idem(&other.test, "order-42", body.clone()).await;
    assert_eq!(s4, 202);
    // After 24 h the key is free again.
    app.clock.advance(Duration::from_secs(24 * 3600));
    let (s5, later) = app.send_idem(&t.live, "order-42", body.clone()).await;
    assert_eq!(s5, 202);
    assert_ne!(later["data"]["message_id"], first["data"]["message_id"]);
    let (s6, bad) = app.send_idem(&t.live, &"k".repeat(256), body).await;
    assert_eq!(s6, 400);
    assert_eq!(bad["code"], "VALIDATION_ERROR");
    assert!(bad["error"].as_str().unwrap().contains("Idempotency-Key"));
}

/// A filter that matches few messages answers within a bounded read (5,000 messages a call, see
/// docs/api.md "Lists"): a short page and a cursor, never one walk over every message.
#[actix_web::test]
async fn a_sparse_filter_answers_short_pages_with_a_cursor() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let rare = "+14155559999";
    let send = |to: String| {
        let app = &app;
        let key = t.test.clone();
        async move { app.send(&key, json!({"to": to, "body": "hi"})).await.expect(202, None) }
    };
    send(rare.into()).await;
    let others: Vec<String> = (0..5_100).map(|i| format!("+1415555{:04}", i % 9_000)).collect();
    for chunk in others.chunks(100) {
        futures_util::future::join_all(chunk.iter().cloned().map(send)).await;
    }
    let last = send(rare.into()).await.data()["message_id"].as_str().unwrap().to_owned();

    let path = "/v1/messages?to=%2B14155559999&limit=10";
    let first = app.call("GET", path, Some(&t.test), None).await.expect(200, None);
    assert_eq!(first.data().as_array().unwrap().len(), 1, "the first rare message, then the read limit");
    let cursor = first.body["next_cursor"].as_str().expect("a cursor to go on from").to_owned();
    let second =
        app.call("GET", &format!("{path}&after={cursor}"), Some(&t.test), None).await.expect(200, None);
    let items = second.data().as_array().unwrap();
    assert_eq!(items.len(), 1, "the rest of the tenant holds the other one");
    assert_eq!(items[0]["message_id"], last.as_str());
    assert!(second.body["next_cursor"].is_null(), "the end: {}", second.body);
    // Unfiltered, a page is full.
    let all = app.call("GET", "/v1/messages?limit=100", Some(&t.test), None).await.expect(200, None);
    assert_eq!(all.data().as_array().unwrap().len(), 100);
}

/// A leaf of long texts is too large for sled's log: it goes to a blob file of its own, which
/// sled never syncs. The commit before each 202 syncs it, and the texts read back whole.
#[actix_web::test]
async fn long_texts_go_to_disk_whole_before_their_202() {
    let app = spawn_app_on_sled().await;
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let body = "é".repeat(10_000);
    let mut ids = Vec::new();
    for _ in 0..40 {
        let r = app.send(&t.live, json!({"to": "+14155550100", "body": body})).await.expect(202, None);
        ids.push(r.data()["message_id"].as_str().unwrap().to_owned());
    }
    let blobs = std::fs::read_dir(app.data_dir().join("blobs")).map_or(0, |d| d.count()) as f64;
    assert!(blobs > 0.0, "40 texts of 20,000 bytes made no blob file: the test no longer tests anything");
    // Each file there now was synced (sled's cleaning may have removed others since).
    let synced = metric(&app.api, "pigeon_store_blobs_synced_total").await;
    assert!(synced >= blobs, "{synced} blob files synced, {blobs} in the directory");
    let app = app.restart().await;
    for id in &ids {
        let r = app.call("GET", &format!("/v1/messages/{id}"), Some(&t.live), None).await.expect(200, None);
        assert_eq!(r.data()["body"].as_str().unwrap().len(), body.len());
    }
}
