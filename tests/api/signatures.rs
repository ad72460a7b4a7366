//! Webhooks receivers can trust: every attempt carries the Standard Webhooks headers, checked here
//! with the scheme's own Rust library (`standardwebhooks`), across retries, a secret rotation (both
//! secrets during the 24 h overlap, across a restart; only the new one after it), test events, and
//! a plain tenant secret that gets only the spec's header.

use std::time::Duration;

use serde_json::{json, Value};
use standardwebhooks::Webhook;

use crate::helpers::*;

/// The hit's headers as the library takes them.
fn headers(hit: &Hit) -> http::HeaderMap {
    let mut h = http::HeaderMap::new();
    for (k, v) in &hit.headers {
        h.insert(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
    }
    h
}

/// Whether the library, keyed with `secret`, finds its signature among the hit's: the signing
/// step of `verify` alone, for attempts whose timestamp the test's clock moved a day ahead.
fn signed_with(secret: &str, hit: &Hit) -> bool {
    let (id, ts) = (&hit.headers["webhook-id"], hit.headers["webhook-timestamp"].parse::<i64>().unwrap());
    let ours = Webhook::new(secret).unwrap().sign(id, ts, &hit.body).unwrap();
    hit.headers["webhook-signature"].split(' ').any(|s| s == ours)
}

/// The API guide's Rust receiver (docs/api.md), as it is there.
fn handle(raw_body: &[u8], headers: &http::HeaderMap, secret: &str) -> bool {
    // Err on a bad signature, or a timestamp more than 5 minutes from now.
    Webhook::new(secret).and_then(|wh| wh.verify(raw_body, headers)).is_ok()
}

async fn register(app: &Api, key: &str, body: Value) -> Value {
    app.call("POST", "/v1/webhooks", Some(key), Some(body)).await.expect(201, None).data().clone()
}

async fn test_event(app: &Api, key: &str, webhook: &str) -> Value {
    let r = app.call("POST", &format!("/v1/webhooks/{webhook}/test"), Some(key), None).await;
    r.expect(202, None).data().clone()
}

#[actix_web::test]
async fn every_attempt_verifies_with_the_standard_webhooks_library_across_retries() {
    let app = spawn_app_at_real_time().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = register(&app, &t.live, json!({"url": rx.url, "events": ["message.delivered"]})).await;
    let secret = w["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"));
    let wid = w["id"].as_str().unwrap();
    app.send_ok(&t.test, "+14155550100").await;
    rx.wait_for(1).await;
    for n in 2..=4 {
        app.wait_attempts(&t.test, wid, n - 1).await;
        app.clock.advance(Duration::from_secs(1 << (n - 1)));
        rx.wait_for(n).await;
    }
    let hits = rx.hits();
    let verifier = Webhook::new(secret).unwrap();
    for h in &hits {
        assert!(handle(&h.body, &headers(h), secret), "the library accepts every attempt");
        assert_eq!(h.headers["x-service-signature"], sign(secret, &h.body), "the spec's header as before");
    }
    let event_id = hits[0].json()["event_id"].as_str().unwrap().to_owned();
    assert!(hits.iter().all(|h| h.headers["webhook-id"] == event_id), "one id across retries");
    let ts: Vec<i64> = hits.iter().map(|h| h.headers["webhook-timestamp"].parse().unwrap()).collect();
    assert_eq!(ts.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>(), [2, 4, 8], "each attempt's own time");
    let sigs: std::collections::HashSet<_> =
        hits.iter().map(|h| h.headers["webhook-signature"].clone()).collect();
    assert_eq!(sigs.len(), 4, "a new signature per attempt");
    // A captured request replayed later is refused by the library's 5-minute tolerance (the
    // receiver's side; see docs/api.md): tampering with the body is refused at once.
    let mut tampered = hits[0].clone();
    tampered.body = br#"{"event":"message.delivered","forged":true}"#.to_vec();
    assert!(!handle(&tampered.body, &headers(&tampered), secret));
    assert!(verifier.verify(&hits[0].body, &headers(&hits[0])).is_ok());
}

#[actix_web::test]
async fn a_rotated_secret_signs_beside_the_new_one_for_24_hours_across_a_restart() {
    let app = spawn_app_at_real_time().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    let w = register(&app, &t.live, json!({"url": rx.url, "events": ["message.delivered"]})).await;
    let (id, old) = (w["id"].as_str().unwrap().to_owned(), w["secret"].as_str().unwrap().to_owned());
    let r = app.call("POST", &format!("/v1/webhooks/{id}/rotate-secret"), Some(&t.live), None).await;
    let r = r.expect(200, None);
    let new = r.data()["secret"].as_str().unwrap().to_owned();
    assert!(new.starts_with("whsec_") && new != old);
    assert!(r.data()["previous_secret_expires_at"].is_string());
    // The list shows the new secret's hint only.
    let l = app.call("GET", "/v1/webhooks", Some(&t.live), None).await.expect(200, None);
    assert_eq!(l.data()[0]["secret_hint"], format!("...{}", &new[new.len() - 4..]));

    test_event(&app, &t.live, &id).await;
    let h = rx.wait_for(1).await.remove(0);
    for secret in [&old, &new] {
        Webhook::new(secret).unwrap().verify(&h.body, &headers(&h)).expect("both verify during the overlap");
    }
    assert_eq!(h.headers["webhook-signature"].split(' ').count(), 2);
    assert_eq!(h.headers["x-service-signature"], sign(&new, &h.body), "the spec's header uses the new one");

    // A restart inside the 24 hours keeps both.
    let app = app.restart().await;
    app.clock.advance(Duration::from_secs(23 * 3600));
    let h = rx.wait_for_event(test_event(&app, &t.live, &id).await["event_id"].as_str().unwrap()).await;
    assert!(signed_with(&old, &h) && signed_with(&new, &h), "both, 23 h on, after a restart");
    // Then only the new one.
    app.clock.advance(Duration::from_secs(3600 + 1));
    let h = rx.wait_for_event(test_event(&app, &t.live, &id).await["event_id"].as_str().unwrap()).await;
    assert!(signed_with(&new, &h), "the new one signs");
    assert!(!signed_with(&old, &h), "the old one is dropped after 24 h");
    assert_eq!(h.headers["webhook-signature"].split(' ').count(), 1);
    // Another tenant cannot rotate it.
    let other = app.create_tenant("starter").await;
    app.call("POST", &format!("/v1/webhooks/{id}/rotate-secret"), Some(&other.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn a_test_event_arrives_signed_and_shows_in_the_log_and_a_plain_secret_gets_the_spec_header_only() {
    let app = spawn_app_at_real_time().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    let w = register(&app, &t.live, json!({"url": rx.url, "events": ["message.failed"]})).await;
    let id = w["id"].as_str().unwrap();
    let sent = test_event(&app, &t.live, id).await;
    assert_eq!(sent["event"], "webhook.test");
    let h = rx.wait_for(1).await.remove(0);
    Webhook::new(w["secret"].as_str().unwrap()).unwrap().verify(&h.body, &headers(&h)).unwrap();
    let body = h.json();
    assert_eq!(body["event"], "webhook.test");
    assert_eq!(body["webhook_id"], id);
    assert_eq!(body["event_id"], sent["event_id"]);
    assert_eq!(h.headers["webhook-id"], sent["event_id"].as_str().unwrap());
    // In the delivery log, with its attempt.
    let did = sent["delivery_id"].as_str().unwrap();
    let mut logged = Value::Null;
    for _ in 0..100 {
        let l = app.call("GET", &format!("/v1/webhooks/{id}/deliveries"), Some(&t.live), None).await;
        logged =
            l.expect(200, None).data().as_array().unwrap().iter().find(|d| d["id"] == did).cloned().unwrap();
        if logged["state"] == "succeeded" {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(30)).await;
    }
    assert_eq!(logged["event"], "webhook.test");
    assert_eq!(logged["attempts"][0]["status_code"], 200);

    // A tenant's own secret that is not `whsec_` + base64: the spec's header only.
    let plain = "a-plain-tenant-secret-0123";
    let w =
        register(&app, &t.live, json!({"url": rx.url, "events": ["message.failed"], "secret": plain})).await;
    test_event(&app, &t.live, w["id"].as_str().unwrap()).await;
    let h = rx.wait_for(2).await.remove(1);
    assert_eq!(h.headers["x-service-signature"], sign(plain, &h.body));
    for missing in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        assert!(!h.headers.contains_key(missing), "{missing} with a plain secret");
    }
    // Unknown webhook: 404.
    app.call("POST", "/v1/webhooks/01ARZ3NDEKTSV4RRFFQ69G5FAV/test", Some(&t.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
}
