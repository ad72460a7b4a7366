//! Per-key rate limits and the monthly call quota, driven by the manual clock.

use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn a_key_gets_its_rate_then_429_with_retry_after() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let r = app.create_key(&t.live, json!({"name": "two a minute", "rate_limit": 2})).await.expect(201, None);
    let key = r.data()["key"].as_str().unwrap().to_owned();

    let r = app.list_keys(&key).await.expect(200, None);
    assert_eq!(r.header("x-ratelimit-limit"), Some("2"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("1"));
    assert_eq!(r.header("x-ratelimit-reset"), Some("30"));
    let r = app.list_keys(&key).await.expect(200, None);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(r.header("x-ratelimit-reset"), Some("60"));

    let r = app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    assert_eq!(r.header("retry-after"), Some("30"), "one call comes back every 30 s");
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(r.header("x-ratelimit-limit"), Some("2"));

    // Other keys of the tenant have their own allowance.
    app.list_keys(&t.live).await.expect(200, None);

    app.clock.advance(Duration::from_secs(20));
    let r = app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    assert_eq!(r.header("retry-after"), Some("10"));
    app.clock.advance(Duration::from_secs(10));
    app.list_keys(&key).await.expect(200, None);
    app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
}

#[actix_web::test]
async fn test_keys_are_rate_limited_too() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let r = app.create_key(&t.test, json!({"name": "t", "rate_limit": 1})).await.expect(201, None);
    let key = r.data()["key"].as_str().unwrap().to_owned();
    app.list_keys(&key).await.expect(200, None);
    let r = app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    assert_eq!(r.header("retry-after"), Some("60"));
}

#[actix_web::test]
async fn the_monthly_quota_counts_live_calls_and_resets_with_the_month() {
    let app = spawn_app_at("2026-11-30T23:50:00Z").await;
    let t = app.create_tenant("growth").await;
    app.patch_tenant(&t.id, json!({"monthly_call_limit": 3})).await.expect(200, None);
    for _ in 0..3 {
        app.list_keys(&t.live).await.expect(200, None);
    }
    let r = app.list_keys(&t.live).await.expect(429, Some("QUOTA_EXCEEDED"));
    assert_eq!(r.header("retry-after"), Some("600"), "to the month's end");
    assert!(r.header("x-ratelimit-limit").is_some());

    // Test keys never count and are never refused for quota.
    for _ in 0..5 {
        app.list_keys(&t.test).await.expect(200, None);
    }
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["api_calls_this_month"], 3);
    assert_eq!(v.data()["monthly_call_limit"], 3);

    // Raising the limit lets calls through at once; null goes back to the plan's.
    app.patch_tenant(&t.id, json!({"monthly_call_limit": null})).await.expect(200, None);
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["monthly_call_limit"], 200_000);
    app.list_keys(&t.live).await.expect(200, None);
    app.patch_tenant(&t.id, json!({"monthly_call_limit": 4})).await.expect(200, None);
    app.list_keys(&t.live).await.expect(429, Some("QUOTA_EXCEEDED"));

    // A new UTC month starts from zero.
    app.clock.advance(Duration::from_secs(600));
    app.list_keys(&t.live).await.expect(200, None);
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["api_calls_this_month"], 1);
}

#[actix_web::test]
async fn calls_refused_before_the_quota_are_not_counted() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let r = app.create_key(&t.live, json!({"name": "k", "rate_limit": 1})).await.expect(201, None);
    let key = r.data()["key"].as_str().unwrap().to_owned();
    app.list_keys(&key).await.expect(200, None);
    app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    app.list_keys("svc_live_0123456789abcdef0123456789abcdef").await.expect(401, Some("INVALID_API_KEY"));
    let v = app.get_tenant(&t.id).await.expect(200, None);
    // create_key + one list by the new key; the rate-limited call does not count.
    assert_eq!(v.data()["usage"]["api_calls_this_month"], 2);
}

/// Sends take admission and the send in one turn of the tenant's actor; the order the answers
/// come in must stay auth → rate limit → quota → body.
#[actix_web::test]
async fn a_send_is_admitted_and_charged_before_its_body_is_judged() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+15550100001", 0).await;
    app.patch_tenant(&t.id, json!({"monthly_call_limit": 4})).await.expect(200, None);
    let r = app.create_key(&t.live, json!({"name": "k", "rate_limit": 3})).await.expect(201, None);
    let key = r.data()["key"].as_str().unwrap().to_owned();

    // A bad key with a bad body is a 401, not a 400.
    app.send("svc_live_0123456789abcdef0123456789abcdef", json!({"to": "nope"}))
        .await
        .expect(401, Some("INVALID_API_KEY"));
    // A bad body with a good key: 400, with the rate headers, and the call counts.
    let r =
        app.send(&key, json!({"to": "nope", "body": "x"})).await.expect(400, Some("INVALID_PHONE_NUMBER"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("2"));
    let r = app.send(&key, json!({"to": "+14155550123", "body": "hi"})).await.expect(202, None);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("1"));
    app.send(&key, json!({"to": "+14155550123"})).await.expect(400, Some("VALIDATION_ERROR"));
    // Out of rate: the body is not looked at.
    app.send(&key, json!({"to": "nope"})).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    // create_key and the three admitted sends; the month (4) is now used up, also for a bad body.
    app.send(&t.live, json!({"to": "nope"})).await.expect(429, Some("QUOTA_EXCEEDED"));
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["usage"]["api_calls_this_month"], 4);
}
