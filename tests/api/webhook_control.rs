//! A tenant in control of its webhooks: read one, change its URL, events or switch in place
//! (the secret stays), turn it off (no deliveries, the pending ones stop) and on again, and
//! recover what failed in a window.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

async fn webhook(app: &TestApp, key: &str, id: &str) -> Resp {
    app.call("GET", &format!("/v1/webhooks/{id}"), Some(key), None).await
}

async fn patch(app: &TestApp, key: &str, id: &str, body: Value) -> Resp {
    app.call("PATCH", &format!("/v1/webhooks/{id}"), Some(key), Some(body)).await
}

async fn recover(app: &TestApp, key: &str, id: &str, body: Value) -> Resp {
    app.call("POST", &format!("/v1/webhooks/{id}/recover"), Some(key), Some(body)).await
}

/// Retries by the manual clock until the newest delivery has failed its four attempts.
async fn fail_four_times(app: &TestApp, key: &str, wid: &str) -> Value {
    app.wait_attempts(key, wid, 1).await;
    for (secs, n) in [(2, 2), (4, 3), (8, 4)] {
        app.clock.advance(Duration::from_secs(secs));
        app.wait_attempts(key, wid, n).await;
    }
    let d = app.wait_attempts(key, wid, 4).await;
    assert_eq!(d["state"], "failed", "{d}");
    d
}

#[actix_web::test]
async fn a_webhook_reads_back_and_changes_in_place() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (first, second) = (spawn_receiver().await, spawn_receiver().await);
    let w = app.register_webhook(&t.live, &first.url, json!(["message.failed"])).await;
    let id = w["id"].as_str().unwrap().to_owned();
    let got = webhook(&app, &t.live, &id).await.expect(200, None).data().clone();
    assert_eq!((got["url"].as_str(), got["enabled"].as_bool()), (Some(first.url.as_str()), Some(true)));
    assert!(got.get("secret").is_none() && got["secret_hint"].is_string(), "{got}");

    let body = json!({"url": second.url, "events": ["message.delivered", "message.delivered"]});
    let r = patch(&app, &t.live, &id, body).await.expect(200, None);
    assert_eq!(
        (r.data()["url"].as_str(), &r.data()["events"]),
        (Some(second.url.as_str()), &json!(["message.delivered"]))
    );
    assert_eq!(r.data()["secret_hint"], got["secret_hint"], "the secret stays");
    app.send_ok(&t.test, "+14155550100").await;
    let hit = second.wait_for(1).await[0].clone();
    let secret = w["secret"].as_str().unwrap();
    assert_eq!(hit.headers["x-service-signature"], pigeon_actors::webhook::sign(secret, &hit.body));
    assert!(first.hits().is_empty());
    let list = app.call("GET", "/v1/webhooks", Some(&t.live), None).await.expect(200, None);
    assert_eq!(list.data()[0]["enabled"], true);

    for (body, field) in [
        (json!({"events": []}), "events"),
        (json!({"events": ["message.bounced"]}), "events"),
        (json!({"url": "ftp://x.example/h"}), "url"),
        (json!({"secret": "a-new-secret-1234"}), "secret"),
        (json!({"enabled": "no"}), "enabled"),
    ] {
        let r = patch(&app, &t.live, &id, body.clone()).await.expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().contains(field), "{body}: {}", r.body);
    }
    let other = app.create_tenant("starter").await;
    webhook(&app, &other.live, &id).await.expect(404, Some("NOT_FOUND"));
    patch(&app, &other.live, &id, json!({"enabled": false})).await.expect(404, Some("NOT_FOUND"));
    recover(&app, &other.live, &id, json!({"since": "2026-11-22T00:00:00Z"}))
        .await
        .expect(404, Some("NOT_FOUND"));
    webhook(&app, &t.live, "nope").await.expect(404, Some("NOT_FOUND"));
}

/// Off: the pending delivery stops (`failed`, `webhook_disabled`), events meanwhile make no
/// delivery, retries and test events are refused; on again: the events that follow arrive, and
/// `recover` brings back the one stopped, once.
#[actix_web::test]
async fn a_webhook_turned_off_gets_nothing_and_its_pending_stop() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let id = w["id"].as_str().unwrap().to_owned();
    app.send_ok(&t.test, "+14155550100").await;
    let pending = app.wait_attempts(&t.live, &id, 1).await;
    assert_eq!(pending["state"], "pending");

    let r = patch(&app, &t.live, &id, json!({"enabled": false})).await.expect(200, None);
    assert_eq!(r.data()["enabled"], false);
    let log = app.delivery_log(&t.live, &id).await;
    assert_eq!(log[0]["state"], "failed");
    assert_eq!(log[0]["attempts"].as_array().unwrap().last().unwrap()["error"], "webhook_disabled");
    rx.set_status(200);
    app.clock.advance(Duration::from_secs(30));
    app.send_ok(&t.test, "+14155550101").await;
    actix_web::rt::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(rx.hits().len(), 1, "no retry and no new delivery while off");
    assert_eq!(app.delivery_log(&t.live, &id).await.len(), 1);
    let did = log[0]["id"].as_str().unwrap();
    let retry = format!("/v1/webhooks/{id}/deliveries/{did}/retry");
    app.call("POST", &retry, Some(&t.live), None).await.expect(409, Some("INVALID_STATUS_TRANSITION"));
    app.call("POST", &format!("/v1/webhooks/{id}/test"), Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
    recover(&app, &t.live, &id, json!({"since": "2026-11-22T00:00:00Z"}))
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));

    patch(&app, &t.live, &id, json!({"enabled": true})).await.expect(200, None);
    let later = app.send_ok(&t.test, "+14155550102").await;
    let hits = rx.wait_for(2).await;
    assert_eq!(hits[1].json()["message_id"], later.as_str(), "the events that follow");
    let r = recover(&app, &t.live, &id, json!({"since": "2026-11-22T00:00:00Z"})).await.expect(202, None);
    assert_eq!(r.data()["recovering"], 1);
    let hits = rx.wait_for(3).await;
    assert_eq!(hits[2].json()["event_id"], pending["event_id"], "the stopped one, with its event id");
    let r = recover(&app, &t.live, &id, json!({"since": "2026-11-22T00:00:00Z"})).await.expect(202, None);
    assert_eq!(r.data()["recovering"], 0, "delivered now: nothing to recover");
}

/// `recover` takes what failed within `[since, until]`, by the time of its last attempt; a
/// pending one is skipped, so asking twice adds nothing; `since` is required and `until` not
/// before it.
#[actix_web::test]
async fn recover_brings_back_what_failed_in_its_window() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let id = w["id"].as_str().unwrap().to_owned();
    app.send_ok(&t.test, "+14155550100").await;
    // Attempts at 12:00:00, :02, :06 and :14: it failed at 12:00:14.
    let failed = fail_four_times(&app, &t.live, &id).await;
    for (body, n) in [
        (json!({"since": "2026-11-22T12:00:15Z"}), 0),
        (json!({"since": "2026-11-22T11:00:00Z", "until": "2026-11-22T12:00:13Z"}), 0),
    ] {
        let r = recover(&app, &t.live, &id, body.clone()).await.expect(202, None);
        assert_eq!(r.data()["recovering"], n, "{body}");
    }
    for body in [
        json!({}),
        json!({"since": "yesterday"}),
        json!({"since": "2026-11-22T12:00:00Z", "until": "2026-11-22T11:00:00Z"}),
    ] {
        recover(&app, &t.live, &id, body).await.expect(400, Some("VALIDATION_ERROR"));
    }
    rx.hold();
    let window = json!({"since": "2026-11-22T12:00:14Z", "until": "2026-11-22T12:00:14Z"});
    let r = recover(&app, &t.live, &id, window.clone()).await.expect(202, None);
    assert_eq!(r.data()["recovering"], 1);
    let r = recover(&app, &t.live, &id, window).await.expect(202, None);
    assert_eq!(r.data()["recovering"], 0, "pending again: skipped");
    rx.set_status(200);
    rx.release();
    let hits = rx.wait_for(5).await;
    assert_eq!(hits[4].json()["event_id"], failed["event_id"]);
    let d = app.wait_attempts(&t.live, &id, 5).await;
    assert_eq!((d["state"].as_str(), d["cycle"].as_u64()), (Some("succeeded"), Some(1)));
}
