//! Every answer is the envelope: unknown routes, wrong methods, bad bodies, big bodies, probes.

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn probes_answer_in_the_envelope() {
    let app = spawn_app().await;
    let r = app.call("GET", "/healthz", None, None).await.expect(200, None);
    assert_eq!(r.data()["status"], "ok");
    let r = app.call("GET", "/readyz", None, None).await.expect(200, None);
    assert_eq!(r.data()["status"], "ready");
}

#[actix_web::test]
async fn unknown_routes_and_wrong_methods() {
    let app = spawn_app().await;
    app.call("GET", "/v1/nothing-here", None, None).await.expect(404, Some("NOT_FOUND"));
    app.call("GET", "/", None, None).await.expect(404, Some("NOT_FOUND"));
    app.call("PUT", "/v1/api-keys", None, None).await.expect(405, Some("METHOD_NOT_ALLOWED"));
    app.call("GET", "/admin/v1/api-keys/01ARZ3NDEKTSV4RRFFQ69G5FAV/deactivate", Some(ADMIN), None)
        .await
        .expect(405, Some("METHOD_NOT_ALLOWED"));
}

#[actix_web::test]
async fn bad_bodies_name_the_field() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let key = t.live.as_str();

    let r = app.raw("POST", "/v1/api-keys", Some(key), "application/json", b"{\"name\": ".to_vec()).await;
    let r = r.expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("JSON"), "{}", r.body);

    let r = app
        .create_key(key, json!({"name": "a", "colour": "red"}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("colour"), "{}", r.body);

    let r = app.create_key(key, json!({"rate_limit": 5})).await.expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("name"), "{}", r.body);

    let r = app
        .create_key(key, json!({"name": "a", "rate_limit": "5"}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().starts_with("rate_limit"), "{}", r.body);

    let r = app.create_key(key, json!({"name": 7})).await.expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().starts_with("name"), "{}", r.body);

    let r = app.raw("POST", "/v1/api-keys", Some(key), "text/plain", b"{\"name\":\"a\"}".to_vec()).await;
    let r = r.expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("Content-Type"), "{}", r.body);

    let mut big = br#"{"name":""#.to_vec();
    big.extend(std::iter::repeat_n(b'a', 1024 * 1024 + 10));
    big.extend(br#""}"#);
    app.raw("POST", "/v1/api-keys", Some(key), "application/json", big)
        .await
        .expect(413, Some("PAYLOAD_TOO_LARGE"));

    // Nothing was written half: the tenant still has only its two first keys.
    let r = app.list_keys(key).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 2);
}

#[actix_web::test]
async fn a_bad_key_is_reported_before_a_bad_body() {
    let app = spawn_app().await;
    app.raw("POST", "/v1/api-keys", Some("svc_live_nope"), "application/json", b"{".to_vec())
        .await
        .expect(401, Some("INVALID_API_KEY"));
}

#[actix_web::test]
async fn openapi_describes_every_route() {
    let app = spawn_app().await;
    let r = app.call("GET", "/openapi.json", None, None).await;
    assert_eq!(r.status, 200);
    let paths = &r.body["paths"];
    assert!(!pigeon::routes::ROUTES.is_empty());
    for (method, path) in pigeon::routes::ROUTES {
        let op = &paths[path][method.to_ascii_lowercase()];
        assert!(op.is_object(), "{method} {path} is missing from /openapi.json");
        assert!(op["responses"].is_object(), "{method} {path} documents no responses");
    }
    let documented: usize = paths.as_object().unwrap().values().map(|p| p.as_object().unwrap().len()).sum();
    assert_eq!(documented, pigeon::routes::ROUTES.len(), "the document lists a route the server lacks");
}

#[actix_web::test]
async fn metrics_count_requests_by_route_and_status() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    app.list_keys(&t.live).await.expect(200, None);
    app.list_keys("svc_live_0123456789abcdef0123456789abcdef").await.expect(401, None);
    let client = awc::Client::default();
    let mut res = client.get(format!("{}/metrics", app.base)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers().get("content-type").unwrap().to_str().unwrap().starts_with("text/plain"));
    let text = String::from_utf8(res.body().await.unwrap().to_vec()).unwrap();
    for needle in [
        r#"pigeon_http_requests_total{method="GET",route="/v1/api-keys",status="200"}"#,
        r#"pigeon_http_requests_total{method="GET",route="/v1/api-keys",status="401"}"#,
        r#"pigeon_http_requests_total{method="POST",route="/admin/v1/tenants",status="201"}"#,
        "pigeon_http_request_duration_seconds_bucket",
        "pigeon_store_flushes_total",
        "pigeon_store_writes_total",
        "pigeon_store_size_bytes",
        "pigeon_store_flush_microseconds_total",
        "pigeon_store_slow_flushes_total",
        "pigeon_tenant_actors",
    ] {
        assert!(text.contains(needle), "{needle} missing from /metrics:\n{text}");
    }
}

#[actix_web::test]
async fn the_baseline_route_is_off_unless_asked_for() {
    let app = spawn_app().await;
    app.call("POST", "/bench/noop", None, Some(json!({"to": "+14155550100", "body": "x"})))
        .await
        .expect(404, Some("NOT_FOUND"));
}
