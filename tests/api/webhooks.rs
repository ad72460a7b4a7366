//! Webhooks: registration, signed payloads, only subscribed events, the 2/4/8 s retry schedule
//! (by the manual clock), the delivery log, manual retries, SSRF refusal, kill -9 between
//! attempts, and a backlog behind a slow endpoint (32 requests in flight, every delivery once).

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

#[actix_web::test]
async fn registration_list_and_delete() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered", "message.failed"])).await;
    let secret = w["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_") && secret.len() == 38, "{secret}");
    assert_eq!(w["url"], rx.url.as_str());
    assert_eq!(w["events"], json!(["message.delivered", "message.failed"]));
    assert!(w["created_at"].is_string());

    let r = app
        .call(
            "POST",
            "/v1/webhooks",
            Some(&t.live),
            Some(json!({"url": rx.url, "events": ["message.received"], "secret": "my-own-secret-1234"})),
        )
        .await
        .expect(201, None);
    assert_eq!(r.data()["secret"], "my-own-secret-1234");

    let list = app.call("GET", "/v1/webhooks", Some(&t.live), None).await.expect(200, None);
    let items = list.data().as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["secret_hint"], format!("...{}", &secret[secret.len() - 4..]));
    assert!(items[0].get("secret").is_none());
    assert!(!list.body.to_string().contains(secret));

    for (body, field) in [
        (json!({"url": "ftp://x.example/h", "events": ["message.failed"]}), "url"),
        (json!({"url": "not a url", "events": ["message.failed"]}), "url"),
        (json!({"url": rx.url, "events": []}), "events"),
        (json!({"url": rx.url, "events": ["message.bounced"]}), "events"),
        (json!({"url": rx.url}), "events"),
        (json!({"events": ["message.failed"]}), "url"),
        (json!({"url": rx.url, "events": ["message.failed"], "secret": "short"}), "secret"),
        (json!({"url": rx.url, "events": ["message.failed"], "extra": 1}), "extra"),
    ] {
        let r = app
            .call("POST", "/v1/webhooks", Some(&t.live), Some(body.clone()))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().contains(field), "{body}: {}", r.body);
    }
    // At most 10.
    for _ in 2..10 {
        app.register_webhook(&t.live, &rx.url, json!(["message.failed"])).await;
    }
    app.call(
        "POST",
        "/v1/webhooks",
        Some(&t.live),
        Some(json!({"url": rx.url, "events": ["message.failed"]})),
    )
    .await
    .expect(409, Some("LIMIT_REACHED"));

    let id = w["id"].as_str().unwrap();
    let other = app.create_tenant("starter").await;
    app.call("DELETE", &format!("/v1/webhooks/{id}"), Some(&other.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    app.call("GET", &format!("/v1/webhooks/{id}/deliveries"), Some(&other.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    let r = app.call("DELETE", &format!("/v1/webhooks/{id}"), Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data(), &json!({"id": id, "deleted": true}));
    app.call("DELETE", &format!("/v1/webhooks/{id}"), Some(&t.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn private_urls_are_refused_by_default() {
    let app = spawn_app_with("2026-11-22T12:00:00Z", false).await;
    let t = app.create_tenant("starter").await;
    for url in [
        "http://127.0.0.1:8080/h",
        "http://localhost/h",
        "http://10.0.0.1/h",
        "http://192.168.1.10/h",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/h",
        "http://[::1]/h",
        "http://[::ffff:127.0.0.1]/h",
        "http://[fd00::1]/h",
        "http://0.0.0.0/h",
        // Around a private IPv4: NAT64 (local use), 6to4; Teredo; the 6to4 relay anycast.
        "http://[64:ff9b:1::7f00:1]/h",
        "http://[2002:7f00:1::]/h",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h",
        "http://192.88.99.1/h",
    ] {
        let r = app
            .call(
                "POST",
                "/v1/webhooks",
                Some(&t.live),
                Some(json!({"url": url, "events": ["message.failed"]})),
            )
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with("url"), "{url}: {}", r.body);
    }
}

#[actix_web::test]
async fn events_are_signed_and_only_subscribers_get_them() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let all = spawn_receiver().await;
    let failed_only = spawn_receiver().await;
    let w = app
        .register_webhook(
            &t.live,
            &all.url,
            json!(["message.delivered", "message.failed", "message.received"]),
        )
        .await;
    let secret = w["secret"].as_str().unwrap().to_owned();
    app.register_webhook(&t.live, &failed_only.url, json!(["message.failed"])).await;

    // Delivered (test key: no phone needed).
    let id = app.send_ok(&t.test, "+14155550100").await;
    let hits = all.wait_for(1).await;
    let hit = &hits[0];
    assert_eq!(hit.headers["content-type"], "application/json");
    assert_eq!(hit.headers["x-service-signature"], sign(&secret, &hit.body), "signature over the raw body");
    let p = hit.json();
    assert_eq!(p["event"], "message.delivered");
    assert_eq!(p["message_id"], id.as_str());
    assert_eq!(p["to"], "+14155550100");
    assert_eq!(p["from"], "+15005550000");
    assert_eq!(p["channel"], "sms");
    assert_eq!(p["test"], true);
    assert_eq!(p["timestamp"], "2026-11-22T12:00:00.000Z");
    assert!(ulid::Ulid::from_string(p["event_id"].as_str().unwrap()).is_ok());
    assert_eq!(p["metadata"], serde_json::json!({}));
    assert_eq!(p["media"], serde_json::json!([]));
    let keys: Vec<_> = p.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys.len(), 10, "exactly the spec's fields plus event_id, test, metadata and media: {keys:?}");
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert!(failed_only.hits().is_empty(), "not subscribed to message.delivered");

    // Failed: both get it, with the same event_id, each signed with its own secret.
    let r = app.send(&t.test, json!({"to": "+15005550001", "body": "x"})).await.expect(202, None);
    let failed_id = r.data()["message_id"].as_str().unwrap().to_owned();
    let a = all.wait_for(2).await[1].json();
    let b = failed_only.wait_for(1).await[0].json();
    assert_eq!(a["event"], "message.failed");
    assert_eq!(a["message_id"], failed_id.as_str());
    assert_eq!(a["code"], "DELIVERY_FAILED");
    assert!(a["failure_reason"].as_str().unwrap().contains("rejected"));
    assert_eq!(a["event_id"], b["event_id"]);

    // Received: from is the recipient, to is the tenant's phone, body is the text.
    let (agent, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.inbound(&token, "+14155550123", "hello back").await.expect(201, None);
    let p = all.wait_for(3).await[2].json();
    assert_eq!(p["event"], "message.received");
    assert_eq!(p["from"], "+14155550123");
    assert_eq!(p["to"], "+14155550999");
    assert_eq!(p["body"], "hello back");
    assert_eq!(p["test"], false);

    // Live messages through a sim phone fire too (the agent, online since it called, steps aside).
    app.patch_phone(&agent, json!({"enabled": false})).await.expect(200, None);
    app.sim_phone(&t.id, "+14155550998", 5).await;
    let live = app.send_ok(&t.live, "+14155550124").await;
    let p = all.wait_for(4).await[3].json();
    assert_eq!(p["message_id"], live.as_str());
    assert_eq!(p["from"], "+14155550998");
    assert_eq!(p["test"], false);
}

async fn advance_and_wait(app: &TestApp, rx: &Receiver, secs: u64, hits: usize) {
    app.clock.advance(Duration::from_secs(secs));
    rx.wait_for(hits).await;
}

#[actix_web::test]
async fn retries_come_at_2_4_8_seconds_and_stop_on_success() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(503);
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let wid = w["id"].as_str().unwrap().to_owned();
    app.send_ok(&t.test, "+14155550100").await;

    rx.wait_for(1).await;
    let d = app.wait_attempts(&t.live, &wid, 1).await;
    assert_eq!(d["state"], "pending");
    assert_eq!(d["next_attempt_at"], "2026-11-22T12:00:02.000Z");
    // Not a moment early.
    app.clock.advance(Duration::from_millis(1900));
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.hits().len(), 1);
    advance_and_wait(&app, &rx, 1, 2).await; // at +2 s (clock now 12:00:02.9)
    app.wait_attempts(&t.live, &wid, 2).await;
    rx.set_status(200);
    advance_and_wait(&app, &rx, 4, 3).await; // 4 s after the second attempt
    let d = app.wait_attempts(&t.live, &wid, 3).await;
    assert_eq!(d["state"], "succeeded");
    assert_eq!(d["next_attempt_at"], Value::Null);
    let attempts = d["attempts"].as_array().unwrap();
    let at: Vec<_> = attempts.iter().map(|a| a["at"].as_str().unwrap()).collect();
    assert_eq!(at, ["2026-11-22T12:00:00.000Z", "2026-11-22T12:00:02.900Z", "2026-11-22T12:00:06.900Z"]);
    assert_eq!(attempts[0]["status_code"], 503);
    assert_eq!(attempts[2]["status_code"], 200);
    assert_eq!(attempts[2]["response_snippet"], "receiver says hi");
    assert!(attempts[0]["duration_ms"].is_u64());
    // The same event, the same bytes, every time.
    let hits = rx.hits();
    assert!(hits.windows(2).all(|w| w[0].body == w[1].body));

    let metrics = metrics_text(&app.api).await;
    assert!(metrics.contains(r#"pigeon_webhook_attempts_total{outcome="http_error"}"#), "{metrics}");

    // Success ends it: no more attempts however long we wait.
    app.clock.advance(Duration::from_secs(60));
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.hits().len(), 3);
}

#[actix_web::test]
async fn four_failures_mark_the_delivery_failed_and_a_retry_starts_a_new_cycle() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let wid = w["id"].as_str().unwrap().to_owned();
    app.send_ok(&t.test, "+14155550100").await;
    rx.wait_for(1).await;
    app.wait_attempts(&t.live, &wid, 1).await;
    for (secs, n) in [(2, 2), (4, 3), (8, 4)] {
        advance_and_wait(&app, &rx, secs, n).await;
        app.wait_attempts(&t.live, &wid, n).await;
    }
    let d = app.wait_attempts(&t.live, &wid, 4).await;
    assert_eq!(d["state"], "failed");
    let at: Vec<_> =
        d["attempts"].as_array().unwrap().iter().map(|a| a["at"].as_str().unwrap().to_owned()).collect();
    assert_eq!(
        at,
        [
            "2026-11-22T12:00:00.000Z",
            "2026-11-22T12:00:02.000Z",
            "2026-11-22T12:00:06.000Z",
            "2026-11-22T12:00:14.000Z"
        ]
    );
    app.clock.advance(Duration::from_secs(60));
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.hits().len(), 4, "three retries, then no more");

    rx.set_status(204);
    let did = d["id"].as_str().unwrap();
    let r = app
        .call("POST", &format!("/v1/webhooks/{wid}/deliveries/{did}/retry"), Some(&t.live), None)
        .await
        .expect(202, None);
    assert_eq!(r.data()["state"], "pending");
    assert_eq!(r.data()["cycle"], 1);
    rx.wait_for(5).await;
    let d = app.wait_attempts(&t.live, &wid, 5).await;
    assert_eq!(d["state"], "succeeded");
    assert_eq!(d["attempts"][4]["cycle"], 1);
    assert_eq!(rx.hits()[4].json()["event_id"], rx.hits()[0].json()["event_id"], "event_id is stable");
    app.call(
        "POST",
        &format!("/v1/webhooks/{wid}/deliveries/01ARZ3NDEKTSV4RRFFQ69G5FAV/retry"),
        Some(&t.live),
        None,
    )
    .await
    .expect(404, Some("NOT_FOUND"));
}

#[actix_web::test]
async fn a_dead_endpoint_does_not_delay_a_live_one() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // An endpoint that accepts connections and never answers.
    let black_hole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/h", black_hole.local_addr().unwrap());
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &dead, json!(["message.delivered"])).await;
    app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    for i in 0..5 {
        app.send_ok(&t.test, &format!("+1415555010{i}")).await;
    }
    let started = std::time::Instant::now();
    rx.wait_for(5).await;
    assert!(started.elapsed() < Duration::from_secs(3), "the live endpoint waited on the dead one");
    drop(black_hole);
}

#[actix_web::test]
async fn a_pending_delivery_survives_sigkill_between_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log_file = dir.path().join("log");
    let rx_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let rx = spawn_receiver_on(rx_listener);
    rx.set_status(500);
    let env = [("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true")];
    let server = spawn_binary_with(&data, Some(ADMIN), &log_file, &env);
    let t = server.create_tenant("starter").await;
    let w = server.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let secret = w["secret"].as_str().unwrap().to_owned();
    server.send_ok(&t.test, "+14155550100").await;
    rx.wait_for(1).await;
    // Let sled's background flush take the recorded attempt, then kill before the 2 s retry.
    actix_web::rt::time::sleep(Duration::from_millis(800)).await;
    server.kill9();
    rx.set_status(200);

    let server = spawn_binary_with(&data, Some(ADMIN), &log_file, &env);
    let hits = rx.wait_for(2).await;
    assert_eq!(hits[1].json()["event_id"], hits[0].json()["event_id"], "the same event resumes");
    assert_eq!(hits[1].headers["x-service-signature"], sign(&secret, &hits[1].body));
    let wid = w["id"].as_str().unwrap();
    let mut state = Value::Null;
    for _ in 0..50 {
        let r = server
            .call("GET", &format!("/v1/webhooks/{wid}/deliveries"), Some(&t.live), None)
            .await
            .expect(200, None);
        state = r.data()[0].clone();
        if state["state"] == "succeeded" {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state["state"], "succeeded", "{state}");
    assert_eq!(state["attempts"].as_array().unwrap().len(), 2);
    assert!(server.terminate().success());
}

#[actix_web::test]
async fn a_receiver_that_stalls_its_answer_body_times_out_and_the_attempt_is_recorded() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // Answers its headers and 1 byte of a 100-byte body, then holds the connection.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/h", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        let mut held = Vec::new();
        for mut conn in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = conn.read(&mut buf);
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nx");
            held.push(conn);
        }
    });
    let w = app.register_webhook(&t.live, &url, json!(["message.delivered"])).await;
    app.send_ok(&t.test, "+14155550100").await;
    let wid = w["id"].as_str().unwrap();
    let started = std::time::Instant::now();
    let mut first = Value::Null;
    while started.elapsed() < Duration::from_secs(20) {
        let r = app.call("GET", &format!("/v1/webhooks/{wid}/deliveries"), Some(&t.live), None).await;
        first = r.expect(200, None).data()[0]["attempts"][0].clone();
        if !first.is_null() {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(1000)).await;
    }
    // The 10 s limit covers the body too: the attempt ends as a time-out, not a 200.
    assert_eq!(first["error"], "timeout", "{first}");
    assert!(first["status_code"].is_null(), "{first}");
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(9) && took < Duration::from_secs(15), "{took:?}");
}

/// An `https://` endpoint gets a TLS handshake offering HTTP/1.1 (every client shares one set of
/// TLS settings, read once per process); one whose answer is not TLS is a `tls` failure, retried.
#[actix_web::test]
async fn an_https_endpoint_gets_a_tls_handshake_and_a_failed_one_is_recorded_as_tls() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // Keeps the first bytes of each connection, then answers in plain HTTP.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}/h", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for mut conn in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let n = conn.read(&mut buf).unwrap_or(0);
            let _ = tx.send(buf[..n].to_vec());
            let _ = conn.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let w = app.register_webhook(&t.live, &url, json!(["message.delivered"])).await;
    app.send_ok(&t.test, "+14155550100").await;
    let d = app.wait_attempts(&t.live, w["id"].as_str().unwrap(), 1).await;
    let hello = rx.recv_timeout(Duration::from_secs(10)).expect("a connection to the endpoint");
    // A TLS handshake record holding a ClientHello, whose ALPN names HTTP/1.1 only.
    assert_eq!((hello.first(), hello.get(5)), (Some(&0x16), Some(&0x01)), "{hello:?}");
    let alpn = [&[0x00, 0x10, 0x00, 0x0b, 0x00, 0x09, 0x08][..], b"http/1.1"].concat();
    assert!(hello.windows(alpn.len()).any(|w| w == alpn), "ALPN is not [http/1.1]: {hello:?}");
    let first = &d["attempts"][0];
    assert_eq!(first["error"], "tls", "{first}");
    assert!(first["status_code"].is_null(), "{first}");
    assert_eq!(d["state"], "pending", "retried: {d}");
}

/// A webhook to an `https://` receiver whose certificate a private authority signed is delivered
/// when the operator points `SSL_CERT_FILE` at that authority (the system's roots otherwise).
/// The fixtures in tests/fixtures/tls were made under `faketime "2020-01-01"` (valid to 2129, so
/// the suite's faked clock is inside them) with `openssl`: a P-256 authority, and a leaf for
/// `IP:127.0.0.1` it signed (`serverAuth`).
#[actix_web::test]
async fn a_webhook_is_delivered_over_tls_to_a_receiver_the_operators_authority_vouches_for() {
    use actix_web::rt::net::TcpListener;
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls");
    let certs: Vec<CertificateDer> =
        CertificateDer::pem_file_iter(fixtures.join("leaf.pem")).unwrap().map(Result::unwrap).collect();
    let key = PrivateKeyDer::from_pem_file(fixtures.join("leaf.key")).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}/hook", listener.local_addr().unwrap());
    // Each request's head and body, read in TLS; answered 200.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    actix_web::rt::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, tx) = (acceptor.clone(), tx.clone());
            actix_web::rt::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                let mut got = Vec::new();
                let mut buf = [0u8; 8192];
                loop {
                    let text = String::from_utf8_lossy(&got).into_owned();
                    if let Some((head, body)) = text.split_once("\r\n\r\n") {
                        let len = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase().strip_prefix("content-length:").map(str::to_owned)
                            })
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        if body.len() >= len {
                            let _ = tx.send(text.clone());
                            let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                            if tls.write_all(ok).await.is_err() {
                                return;
                            }
                            got.clear();
                            continue;
                        }
                    }
                    match tls.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                    }
                }
            });
        }
    });

    let dir = tempfile::tempdir().unwrap();
    let ca = fixtures.join("ca.pem");
    let env = [("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true"), ("SSL_CERT_FILE", ca.to_str().unwrap())];
    let server = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &dir.path().join("log"), &env);
    let t = server.create_tenant("starter").await;
    let w = server.register_webhook(&t.live, &url, json!(["message.delivered"])).await;
    let id = server.send_ok(&t.test, "+14155550100").await;
    let d = server.wait_attempts(&t.live, w["id"].as_str().unwrap(), 1).await;
    let first = &d["attempts"][0];
    assert_eq!(first["status_code"], 200, "{d}");
    assert_eq!(d["state"], "succeeded", "{d}");
    let request = rx.recv_timeout(Duration::from_secs(5)).expect("the receiver got the delivery");
    assert!(request.starts_with("POST /hook HTTP/1.1\r\n"), "{request}");
    let body: Value = serde_json::from_str(request.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["event"], "message.delivered");
    assert_eq!(body["message_id"], id.as_str(), "{body}");
}

/// An endpoint slower than the sends: 32 requests in flight, the rest of the backlog waiting in
/// its actor. Every delivery arrives, once, with its own message's event, and is recorded.
#[actix_web::test]
async fn a_backlog_behind_a_slow_endpoint_is_delivered_whole_and_once() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    // Holds every request until released: 32 in flight, the rest queued in the actor.
    let rx = spawn_receiver().await;
    rx.hold();
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;

    // 320 deliveries: 32 in flight, 288 waiting.
    let mut sent = std::collections::BTreeSet::new();
    for i in 0..320 {
        sent.insert(app.send_ok(&t.test, &format!("+1415556{i:04}")).await);
    }
    for _ in 0..100 {
        if rx.held() >= 32 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(rx.held(), 32, "32 requests in flight to one endpoint, no more");
    assert!(rx.hits().is_empty(), "the gate holds every request");
    rx.release();

    let started = std::time::Instant::now();
    while rx.hits().len() < 320 && started.elapsed() < Duration::from_secs(20) {
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let got: Vec<Value> = rx.hits().iter().map(Hit::json).collect();
    assert_eq!(got.len(), 320, "every delivery once, none twice");
    let ids: std::collections::BTreeSet<String> =
        got.iter().map(|p| p["message_id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids, sent, "each message's own event");
    for p in &got {
        assert_eq!(p["event"], "message.delivered");
        let n: u32 = p["to"].as_str().unwrap()["+1415556".len()..].parse().unwrap();
        assert!(n < 320, "{p}");
    }
    let wid = w["id"].as_str().unwrap();
    let mut succeeded = 0;
    let mut after: Option<String> = None;
    loop {
        let q = after.as_ref().map_or(String::new(), |a| format!("&after={a}"));
        let r = app
            .call("GET", &format!("/v1/webhooks/{wid}/deliveries?limit=100{q}"), Some(&t.live), None)
            .await;
        let r = r.expect(200, None);
        succeeded += r.data().as_array().unwrap().iter().filter(|d| d["state"] == "succeeded").count();
        match r.body["next_cursor"].as_str() {
            Some(c) => after = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(succeeded, 320, "every delivery recorded as succeeded");
}
