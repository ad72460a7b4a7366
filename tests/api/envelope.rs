//! Every answer is the envelope: unknown routes, wrong methods, bad bodies, big bodies, probes.

use std::time::Duration;

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
    let r = app.call("PUT", "/v1/api-keys", None, None).await.expect(405, Some("METHOD_NOT_ALLOWED"));
    assert_eq!(r.header("allow"), Some("POST, GET"), "RFC 9110: a 405 names the allowed methods");
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
    // SDK generators make method names of operation ids: each names its noun where the tag does
    // not (the operator's phone calls, a tenant's phones, a webhook's deliveries and test event).
    let id = |method: &str, path: &str| paths[path][method]["operationId"].as_str().unwrap().to_owned();
    for (method, path, want) in [
        ("post", "/admin/v1/phones", "operator_create_phone"),
        ("get", "/admin/v1/phones", "operator_list_phones"),
        ("patch", "/admin/v1/phones/{id}", "operator_patch_phone"),
        ("delete", "/admin/v1/phones/{id}", "operator_delete_phone"),
        ("get", "/admin/v1/tenants", "operator_list_tenants"),
        ("get", "/v1/phones", "messages_list_phones"),
        ("get", "/v1/webhooks/{id}/deliveries", "webhooks_list_deliveries"),
        ("post", "/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "webhooks_retry_delivery"),
        ("post", "/v1/webhooks/{id}/test", "webhooks_send_test_event"),
    ] {
        assert_eq!(id(method, path), want, "{method} {path}");
    }
}

/// The SDKs in `clients/` are generated from `clients/openapi.json`; the document the server
/// serves must be that one (`clients/generate --check` then checks the generated code).
#[actix_web::test]
async fn the_sdks_are_generated_from_the_served_document() {
    let app = spawn_app().await;
    let served = app.call("GET", "/openapi.json", None, None).await.body;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/clients/openapi.json");
    let checked_in: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(
        served == checked_in,
        "clients/openapi.json is not the document the server serves: run clients/generate and commit the result"
    );
    assert_eq!(
        pigeon::routes::health::document().trim_end(),
        std::fs::read_to_string(path).unwrap().trim_end()
    );
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
        "pigeon_store_cold_pages_deferred_total",
        "pigeon_store_cold_pages_waiting",
        r#"pigeon_store_segments{state="free"}"#,
        r#"pigeon_store_segments{state="draining"}"#,
        "pigeon_store_live_bytes",
        "pigeon_store_pages",
        "pigeon_store_flush_seconds_total",
        "pigeon_store_slow_flushes_total",
        "pigeon_store_flushes_over_50ms_total",
        "pigeon_store_flushes_over_250ms_total",
        "pigeon_store_blobs_synced_total",
        "pigeon_store_log_sync_seconds_total",
        "pigeon_store_log_syncs_over_50ms_total",
        "pigeon_sends_pending",
        "pigeon_sends_shedding",
        "pigeon_sends_bound",
        "pigeon_tenant_actors",
        r#"pigeon_thread_cpu_seconds_total{thread="pigeon-http"}"#,
        r#"pigeon_thread_cpu_seconds_total{thread="pigeon-tenants"}"#,
        r#"pigeon_thread_wait_seconds_total{thread="pigeon-commit"}"#,
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

#[actix_web::test]
async fn a_body_is_one_json_object_and_nothing_after_it() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let key = t.test.as_str();
    let json = "application/json";
    // Text after the object.
    let r = app
        .raw(
            "POST",
            "/v1/messages",
            Some(key),
            json,
            br#"{"to":"+14155550100","body":"hi"} GARBAGE"#.to_vec(),
        )
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("JSON"), "{}", r.body);
    // An array would fill the fields by position.
    let r = app
        .raw("POST", "/v1/messages", Some(key), json, br#"["+14155550100","auto","hi"]"#.to_vec())
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("object"), "{}", r.body);
    let tpl = app
        .call("POST", "/v1/templates", Some(key), Some(json!({"name": "n", "body": "b"})))
        .await
        .expect(201, None);
    let path = format!("/v1/templates/{}", tpl.data()["id"].as_str().unwrap());
    app.raw("PATCH", &path, Some(key), json, br#"["renamed","x"]"#.to_vec())
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    let r = app.call("GET", &path, Some(key), None).await.expect(200, None);
    assert_eq!((r.data()["name"].as_str(), r.data()["body"].as_str()), (Some("n"), Some("b")));
    // Nor is a nested object given as an array (schemathesis found this one).
    let r = app
        .patch_tenant(&t.id, json!({"quiet_hours": [false, "22:00", "07:00", null]}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().contains("quiet_hours"), "{}", r.body);
    let v = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(v.data()["quiet_hours"]["start"], "21:00", "unchanged");
    let phone = json!({"tenant_id": t.id, "number": "+15550100009", "driver": "sim", "sim": [10, 0.0]});
    app.add_phone(phone).await.expect(400, Some("VALIDATION_ERROR"));
    // Whitespace around the object is fine.
    app.raw(
        "POST",
        "/v1/messages",
        Some(key),
        json,
        b" {\"to\":\"+14155550100\",\"body\":\"hi\"}\n ".to_vec(),
    )
    .await
    .expect(202, None);
    // No message came of the refused ones.
    let r = app.call("GET", "/v1/messages", Some(key), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
}

/// Opens a connection that sends a request head announcing a 1,000-byte body, then one byte of
/// it, and stops.
fn stalled_body(addr: &str, key: Option<&str>) -> std::net::TcpStream {
    use std::io::Write;
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    let head = format!(
        "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}Content-Length: 1000\r\n\r\n{{"
    );
    c.write_all(head.as_bytes()).unwrap();
    c
}

/// Everything the server sends on `c` until it closes it or `wait` passes, and whether it closed.
fn read_answer(mut c: std::net::TcpStream, wait: std::time::Duration) -> (String, bool) {
    use std::io::Read;
    c.set_read_timeout(Some(wait)).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = loop {
        match c.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(_) => break false,
        }
    };
    (String::from_utf8_lossy(&out).into_owned(), closed)
}

#[actix_web::test]
async fn a_body_that_never_ends_times_out_and_slow_clients_stall_no_one() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let addr = app.api.base.trim_start_matches("http://").to_owned();
    let key = t.test.clone();
    // Hundreds of clients that never finish their bodies, with a key and without.
    let (slow, watched) = actix_web::rt::task::spawn_blocking(move || {
        let slow: Vec<_> =
            (0..300).map(|i| stalled_body(&addr, (i % 2 == 0).then_some(key.as_str()))).collect();
        (slow, stalled_body(&addr, Some(&key)))
    })
    .await
    .unwrap();
    // Everyone else is served meanwhile.
    let started = std::time::Instant::now();
    app.send_ok(&t.test, "+14155550100").await;
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    // The stalled body is answered with the envelope once its time is up, and the connection ends.
    let answer = actix_web::rt::task::spawn_blocking(move || read_answer(watched, Duration::from_secs(20)))
        .await
        .unwrap();
    let waited = started.elapsed();
    let (answer, closed) = answer;
    assert!(closed, "the connection ends with the answer");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"REQUEST_TIMEOUT""#), "{answer}");
    assert!(waited >= Duration::from_secs(8) && waited < Duration::from_secs(15), "{waited:?}");
    // The keyless ones were refused at once and do not hold their connections either.
    let ends = actix_web::rt::task::spawn_blocking(move || {
        slow.into_iter()
            .skip(1)
            .step_by(2)
            .take(5)
            .map(|c| read_answer(c, Duration::from_secs(5)))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    for (a, closed) in ends {
        assert!(a.starts_with("HTTP/1.1 401") && closed, "{a}");
    }
    // Nothing half-read became a message.
    let r = app.call("GET", "/v1/messages", Some(&t.test), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 1);
}

/// Sends `bytes` on a new connection and reads the answer (until the server closes or `wait`).
fn exchange(addr: &str, bytes: &[u8], wait: Duration) -> (String, bool) {
    use std::io::Write;
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.write_all(bytes).unwrap();
    read_answer(c, wait)
}

/// The answer's status line, `x-request-id` and envelope code.
fn parts(answer: &str) -> (&str, Option<&str>, serde_json::Value) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let id = head.lines().find_map(|l| l.strip_prefix("x-request-id: "));
    (head.lines().next().unwrap_or(""), id, serde_json::from_str(body).unwrap_or_default())
}

/// The answers actix-http's dispatcher makes itself (before any of our code runs) carry the
/// envelope and a request id too.
#[actix_web::test]
async fn errors_the_http_layer_makes_itself_carry_the_envelope() {
    let app = spawn_app().await;
    let addr = app.api.base.trim_start_matches("http://").to_owned();
    let (bad, big, slow) = actix_web::rt::task::spawn_blocking(move || {
        let wait = Duration::from_secs(10);
        let bad = exchange(&addr, b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", wait);
        let headers: String = (0..100).map(|i| format!("X-H{i}: v\r\n")).collect();
        let huge = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{headers}\r\n");
        let big = exchange(&addr, huge.as_bytes(), wait);
        // A head that never ends: the 5 s head time-out.
        let slow = exchange(&addr, b"GET /healthz HTTP/1.1\r\nHost: x\r\n", wait);
        (bad, big, slow)
    })
    .await
    .unwrap();
    for ((answer, closed), status, code) in [
        (&bad, "400", "VALIDATION_ERROR"),
        (&big, "431", "HEADERS_TOO_LARGE"),
        (&slow, "408", "REQUEST_TIMEOUT"),
    ] {
        let (line, id, body) = parts(answer);
        assert!(line.starts_with(&format!("HTTP/1.1 {status} ")), "wanted {status}: {answer}");
        assert!(id.is_some_and(|id| id.len() == 26), "x-request-id: {answer}");
        assert_eq!(body["code"], code, "{answer}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{answer}");
        assert!(*closed, "the connection ends: {answer}");
    }
    // Ordinary answers are untouched.
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    app.call("GET", "/nope", None, None).await.expect(404, Some("NOT_FOUND"));
}

/// A request head may be 32 KiB (`limits::MAX_HEAD`), not actix-http's 128 KiB: one byte more is
/// a 431 in the envelope. Bodies in between do not count, on a kept-alive connection too.
#[actix_web::test]
async fn a_head_past_32_kib_is_refused_in_the_envelope_and_bodies_do_not_count() {
    let app = spawn_app().await;
    let addr = app.api.base.trim_start_matches("http://").to_owned();
    let head = |size: usize, last: bool| {
        let mut h = format!(
            "GET /healthz HTTP/1.1\r\nHost: x\r\n{}X-Pad: ",
            if last { "Connection: close\r\n" } else { "" }
        );
        let pad = size - h.len() - 4;
        h.push_str(&"a".repeat(pad));
        h.push_str("\r\n\r\n");
        assert_eq!(h.len(), size);
        h
    };
    let max = pigeon::limits::MAX_HEAD;
    let (kept_alive, over) = actix_web::rt::task::spawn_blocking(move || {
        let wait = Duration::from_secs(10);
        // One connection: a 100 KiB body the handler reads (and refuses), a head of exactly the
        // limit, and a last request, all sent at once.
        let name = "n".repeat(100 * 1024);
        let body = format!("{{\"name\":\"{name}\"}}");
        let mut stream = format!(
            "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.push_str(&head(max, false));
        stream.push_str(&head(200, true));
        let kept_alive = exchange(&addr, stream.as_bytes(), wait);
        let over = exchange(&addr, head(max + 1, false).as_bytes(), wait);
        (kept_alive, over)
    })
    .await
    .unwrap();

    let (text, closed) = kept_alive;
    let statuses: Vec<_> = text.match_indices("HTTP/1.1 ").map(|(i, _)| &text[i..i + 13]).collect();
    assert_eq!(statuses.len(), 3, "{text}");
    assert!(statuses[0].starts_with("HTTP/1.1 400 "), "the long name is refused: {text}");
    assert!(statuses[1..].iter().all(|s| s.starts_with("HTTP/1.1 200 ")), "{text}");
    assert!(closed);

    let (answer, closed) = over;
    let (line, id, body) = parts(&answer);
    assert!(line.starts_with("HTTP/1.1 431 "), "{answer}");
    assert!(id.is_some_and(|id| id.len() == 26), "x-request-id: {answer}");
    assert_eq!(body["code"], "HEADERS_TOO_LARGE", "{answer}");
    assert!(body["error"].as_str().unwrap().contains("32 KiB"), "{answer}");
    assert!(closed, "the connection ends: {answer}");
    // The node still answers.
    app.call("GET", "/healthz", None, None).await.expect(200, None);
}
