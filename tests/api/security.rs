//! The security defaults (DESIGN "Security defaults" and "Bounds every tenant lives within"),
//! tried as an attacker on loopback would: an empty or short operator token, sessions that must
//! end with the credential that opened them, sign-in guesses, the sign-in form's CSRF token,
//! webhooks aimed at cloud metadata, the console's headers, the data directory's permissions,
//! malformed requests in the log, and the records one tenant may pile up.

use std::io::{Read, Write};
use std::time::Duration;

use jsonwebtoken::{EncodingKey, Header};
use pigeon_actors::identity::{IdentityConfig, KeySource};
use pigeon_actors::webhook::PrivateNetworks;
use serde_json::json;

use crate::helpers::*;

/// GETs a dashboard page with the session cookie `cookie` (`name=value`): status and `Location`.
async fn page(base: &str, path: &str, cookie: &str) -> (u16, Option<String>) {
    let client = awc::Client::builder().disable_redirects().finish();
    let r = client.get(format!("{base}{path}")).insert_header(("Cookie", cookie)).send().await.unwrap();
    (r.status().as_u16(), r.headers().get("location").map(|v| v.to_str().unwrap().to_owned()))
}

/// Signs in and returns the session cookie (`name=value`), asserting it worked.
async fn session(base: &str, key: &str) -> String {
    let (status, cookie, body) = dashboard_sign_in(base, key).await;
    assert_eq!(status, 303, "{body}");
    cookie.expect("a session cookie").split(';').next().unwrap().to_owned()
}

/// `pigeon serve` over `dir` with `token` as `PIGEON_ADMIN_TOKEN`, expected to refuse to start:
/// its exit code and stderr.
fn refused_start(dir: &std::path::Path, token: &str) -> (Option<i32>, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"));
    cmd.args(["serve", "--addr", "127.0.0.1:0"]).env("PIGEON_DATA_DIR", dir).env("PIGEON_ADMIN_TOKEN", token);
    cmd.env_remove("PIGEON_DATABASE_URL");
    if on_postgres() {
        cmd.env("PIGEON_DATABASE_URL", database_for(dir));
    }
    let out = cmd.output().expect("pigeon runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[actix_web::test]
async fn an_empty_operator_token_is_unset_and_a_short_one_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    // Empty: a token is generated and printed, as if unset; the empty value opens nothing.
    let app = spawn_binary_with(&data, None, &log, &[("PIGEON_ADMIN_TOKEN", "")]);
    let printed =
        app.stdout.iter().find_map(|l| l.split("only its hash is stored): ").nth(1)).map(str::to_owned);
    let generated = printed.expect("a generated token is printed");
    for blank in ["", "   "] {
        let (status, cookie, body) = dashboard_sign_in(&app.base, blank).await;
        assert_eq!((status, cookie), (401, None), "{blank:?}: {body}");
        app.call("GET", "/admin/v1/tenants", Some(blank), None).await.expect(401, Some("INVALID_API_KEY"));
    }
    app.call("GET", "/admin/v1/tenants", Some(&generated), None).await.expect(200, None);
    let c = session(&app.base, &generated).await;
    assert_eq!(page(&app.base, "/dashboard/admin/tenants", &c).await.0, 200);
    drop(app);

    // Set but short: refused at start (exit 2, the reason on stderr), the stored token kept.
    for short in ["a", "only-twenty-three-chars"] {
        let (code, stderr) = refused_start(&data, short);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("at least 24 characters") && !stderr.contains("twenty-three"), "{stderr}");
    }
    let app = spawn_binary(&data, None, &log);
    app.call("GET", "/admin/v1/tenants", Some(&generated), None).await.expect(200, None);
    app.call("GET", "/admin/v1/tenants", Some("a"), None).await.expect(401, Some("INVALID_API_KEY"));
}

#[actix_web::test]
async fn operator_sessions_end_when_the_operator_token_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let (old, new) = ("svc_admin_the_old_token_0123456789", "svc_admin_the_new_token_0123456789");
    let app = spawn_binary(&data, Some(old), &log);
    let c = session(&app.base, old).await;
    assert_eq!(page(&app.base, "/dashboard/admin/tenants", &c).await.0, 200);
    drop(app);
    // The answer to a leak: a restart with a new token. The old cookie opens nothing.
    let app = spawn_binary(&data, Some(new), &log);
    app.call("GET", "/admin/v1/tenants", Some(old), None).await.expect(401, Some("INVALID_API_KEY"));
    let (status, to) = page(&app.base, "/dashboard/admin/tenants", &c).await;
    assert_eq!((status, to.as_deref()), (303, Some("/dashboard/login")));
    let c = session(&app.base, new).await;
    assert_eq!(page(&app.base, "/dashboard/admin/tenants", &c).await.0, 200);
}

const SECRET: &[u8] = b"security-test-shared-secret";

fn hs256(claims: &serde_json::Value) -> String {
    jsonwebtoken::encode(&Header::default(), claims, &EncodingKey::from_secret(SECRET)).unwrap()
}

#[actix_web::test]
async fn a_jwt_session_ends_when_its_token_does() {
    let app = spawn_app_configured(|s| {
        s.identity = Some(IdentityConfig {
            source: KeySource::Hs256(String::from_utf8(SECRET.to_vec()).unwrap()),
            issuer: None,
            audience: None,
            tenant_claim: "tenant_id".into(),
        })
    })
    .await;
    let t = app.create_tenant("starter").await;
    let now = START.parse::<chrono::DateTime<chrono::Utc>>().unwrap().timestamp();
    let token = hs256(&json!({"sub": "ann", "tenant_id": t.id, "exp": now + 120}));
    let c = session(&app.base, &token).await;
    assert_eq!(page(&app.base, "/dashboard/keys", &c).await.0, 200);
    // Within the API's 60 s of leeway past `exp` both still work; past it neither does.
    app.clock.advance(Duration::from_secs(120 + 59));
    app.list_keys(&token).await.expect(200, None);
    assert_eq!(page(&app.base, "/dashboard/keys", &c).await.0, 200);
    app.clock.advance(Duration::from_secs(2));
    app.list_keys(&token).await.expect(401, Some("INVALID_API_KEY"));
    let (status, to) = page(&app.base, "/dashboard/keys", &c).await;
    assert_eq!((status, to.as_deref()), (303, Some("/dashboard/login")));
    let created = app.create_key(&token, json!({"name": "after expiry"})).await;
    assert_eq!(created.status, 401);

    // An `exp` at the edge of i64 is far off, not an overflow.
    let far = hs256(&json!({"sub": "ann", "tenant_id": t.id, "exp": i64::MAX}));
    app.list_keys(&far).await.expect(200, None);
    // A header naming critical extensions is refused (RFC 7515 §4.1.11): none is understood.
    use base64::Engine as _;
    let b64 = |v: serde_json::Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let input = format!(
        "{}.{}",
        b64(json!({"alg": "HS256", "typ": "JWT", "crit": ["x-bank"], "x-bank": true})),
        b64(json!({"sub": "ann", "tenant_id": t.id, "exp": now + 3600}))
    );
    let sig = jsonwebtoken::crypto::sign(
        input.as_bytes(),
        &EncodingKey::from_secret(SECRET),
        jsonwebtoken::Algorithm::HS256,
    )
    .unwrap();
    let r = app.list_keys(&format!("{input}.{sig}")).await.expect(401, Some("INVALID_API_KEY"));
    assert!(r.body["error"].as_str().unwrap().contains("critical"), "{}", r.body);
}

#[actix_web::test]
async fn failed_sign_ins_are_throttled_by_address_for_every_attempt() {
    let app = spawn_app().await;
    // The form: ten wrong values in a minute, then 429 even for the right one.
    for i in 0..10 {
        let (status, _, _) = dashboard_sign_in(&app.base, &format!("guess-{i}")).await;
        assert_eq!(status, 401, "guess {i}");
    }
    let (status, cookie, body) = dashboard_sign_in(&app.base, ADMIN).await;
    assert_eq!((status, cookie), (429, None), "{body}");
    assert!(body.contains("Too many failed sign-ins"), "{body}");
    // The operator API shares the count, with the envelope and Retry-After.
    let r = app
        .call("GET", "/admin/v1/tenants", Some(ADMIN), None)
        .await
        .expect(429, Some("RATE_LIMIT_EXCEEDED"));
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Tenant keys on /v1 are not throttled this way.
    let app2 = spawn_app().await;
    let t = app2.create_tenant("starter").await;
    for _ in 0..12 {
        app2.call("GET", "/v1/api-keys", Some("svc_live_00000000000000000000000000000000"), None)
            .await
            .expect(401, Some("INVALID_API_KEY"));
    }
    app2.list_keys(&t.live).await.expect(200, None);
    // Once the minute that began with the first failure is over, the right token passes.
    app.clock.advance(Duration::from_secs(61));
    app.call("GET", "/admin/v1/tenants", Some(ADMIN), None).await.expect(200, None);
    assert_eq!(dashboard_sign_in(&app.base, ADMIN).await.0, 303);

    // Operator bearers alone. A request with no bearer guesses nothing: 401, not counted.
    for _ in 0..12 {
        app2.call("GET", "/admin/v1/tenants", None, None).await.expect(401, Some("INVALID_API_KEY"));
    }
    app2.call("GET", "/admin/v1/tenants", Some(ADMIN), None).await.expect(200, None);
    for i in 0..10 {
        let token = format!("svc_admin_guess_{i}");
        app2.call("GET", "/admin/v1/tenants", Some(&token), None).await.expect(401, Some("INVALID_API_KEY"));
    }
    app2.call("GET", "/admin/v1/tenants", Some(ADMIN), None).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
}

#[actix_web::test]
async fn the_sign_in_form_carries_a_csrf_token_bound_to_its_pre_session() {
    let app = spawn_app().await;
    let (pre, csrf) = sign_in_form(&app.base).await;
    let (_, other_csrf) = sign_in_form(&app.base).await;
    // No cookie, another form's token, no token: refused before the value is tried.
    for (cookie, token) in
        [(None, csrf.as_str()), (Some(pre.as_str()), other_csrf.as_str()), (Some(pre.as_str()), "")]
    {
        let (status, session, body) = dashboard_post_sign_in(&app.base, ADMIN, cookie, token).await;
        assert_eq!((status, session), (403, None), "{body}");
        assert!(body.contains("name=\"csrf\""), "the form again, with a fresh token: {body}");
    }
    // A form older than an hour is stale too.
    let (old_pre, old_csrf) = sign_in_form(&app.base).await;
    app.clock.advance(Duration::from_secs(3601));
    assert_eq!(dashboard_post_sign_in(&app.base, ADMIN, Some(&old_pre), &old_csrf).await.0, 403);
    let (pre, csrf) = sign_in_form(&app.base).await;
    let (status, session, _) = dashboard_post_sign_in(&app.base, ADMIN, Some(&pre), &csrf).await;
    assert_eq!(status, 303);
    assert!(session.is_some());
}

#[actix_web::test]
async fn dashboard_pages_carry_security_headers() {
    let app = spawn_app().await;
    let c = session(&app.base, ADMIN).await;
    let client = awc::Client::builder().disable_redirects().finish();
    for (path, cookie) in [("/dashboard/login", ""), ("/dashboard/admin/tenants", c.as_str())] {
        let r =
            client.get(format!("{}{path}", app.base)).insert_header(("Cookie", cookie)).send().await.unwrap();
        let h = |n: &str| r.headers().get(n).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        assert!(h("content-security-policy").contains("frame-ancestors 'none'"), "{path}");
        assert!(h("content-security-policy").contains("default-src 'none'"), "{path}");
        assert_eq!(h("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(h("referrer-policy"), "same-origin", "{path}");
        assert_eq!(h("cache-control"), "no-store", "{path}");
    }
}

#[actix_web::test]
async fn webhooks_may_reach_private_networks_only_as_the_operator_says() {
    // `true`: private and loopback, never link-local (cloud metadata).
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let hook = |url: &str| json!({"url": url, "events": ["message.delivered"]});
    for metadata in
        ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/x", "http://[::ffff:169.254.169.254]/"]
    {
        let r = app.call("POST", "/v1/webhooks", Some(&t.live), Some(hook(metadata))).await;
        let r = r.expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with("url:"), "{metadata}: {}", r.body);
    }
    app.call("POST", "/v1/webhooks", Some(&t.live), Some(hook("http://127.0.0.1:9/x")))
        .await
        .expect(201, None);

    // A list of networks: those alone beside public addresses.
    let only = "127.0.0.2/32".parse::<PrivateNetworks>().unwrap();
    let app = spawn_app_configured(move |s| s.webhook_allow_private = only).await;
    let t = app.create_tenant("starter").await;
    app.call("POST", "/v1/webhooks", Some(&t.live), Some(hook("http://127.0.0.2:9/x")))
        .await
        .expect(201, None);
    app.call("POST", "/v1/webhooks", Some(&t.live), Some(hook("http://127.0.0.1:9/x")))
        .await
        .expect(400, Some("VALIDATION_ERROR"));

    // `--demo` allows private networks the same way, so it refuses metadata too.
    let dir = tempfile::tempdir().unwrap();
    let demo = spawn_binary_with(
        &dir.path().join("d"),
        Some(ADMIN),
        &dir.path().join("log"),
        &[("PIGEON_DEMO", "true")],
    );
    let live = demo.stdout.iter().find_map(|l| l.trim().strip_prefix("live key: ")).unwrap().to_owned();
    demo.call("POST", "/v1/webhooks", Some(&live), Some(hook("http://169.254.169.254/")))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    demo.call("POST", "/v1/webhooks", Some(&live), Some(hook("http://127.0.0.1:9/x")))
        .await
        .expect(201, None);
    // A value that is none of the three is refused at start.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("PIGEON_DATA_DIR", dir.path().join("e"))
        .env("PIGEON_WEBHOOK_ALLOW_PRIVATE", "10.0.0.0/33")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every path under `dir` whose permissions let group or others in.
#[cfg(unix)]
fn open_to_others(dir: &std::path::Path) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut open = Vec::new();
    let mode = std::fs::metadata(dir).unwrap().permissions().mode();
    if mode & 0o077 != 0 {
        open.push(format!("{} {:o}", dir.display(), mode & 0o777));
    }
    if dir.is_dir() {
        for e in std::fs::read_dir(dir).unwrap() {
            open.extend(open_to_others(&e.unwrap().path()));
        }
    }
    open
}

#[cfg(unix)]
#[actix_web::test]
async fn the_data_directory_and_its_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Made earlier under a loose umask, as a package's post-install might.
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let app = spawn_binary_on_sled(&data, Some(ADMIN), &dir.path().join("log"));
    let t = app.create_tenant("starter").await;
    app.call(
        "POST",
        "/v1/webhooks",
        Some(&t.live),
        Some(json!({"url": "https://example.com/h", "events": ["message.delivered"]})),
    )
    .await;
    drop(app);
    let app = spawn_binary_on_sled(&data, Some(ADMIN), &dir.path().join("log"));
    app.create_tenant("starter").await;
    drop(app);
    assert_eq!(open_to_others(&data), Vec::<String>::new());
}

#[actix_web::test]
async fn malformed_requests_are_logged_below_error() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let app = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &[("NO_COLOR", "1")]);
    let addr = app.base.trim_start_matches("http://").to_owned();
    for garbage in [&b"GARBAGE\r\n\r\n"[..], b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n"] {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(garbage).unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    }
    app.call("GET", "/healthz", None, None).await.expect(200, None);
    drop(app);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("answered before routing"), "the malformed requests are logged: {text}");
    let errors: Vec<&str> = text.lines().filter(|l| l.split_whitespace().nth(1) == Some("ERROR")).collect();
    assert!(errors.is_empty(), "no ERROR line for a client's fault: {errors:#?}");
}

#[actix_web::test]
async fn a_tenants_records_are_bounded_whatever_key_makes_them() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    // Templates through the test key: they count like any others.
    for i in 0..1000 {
        let body = json!({"name": format!("t{i}"), "body": "Hi {{ name }}"});
        app.call("POST", "/v1/templates", Some(&t.test), Some(body)).await.expect(201, None);
    }
    let r = app
        .call("POST", "/v1/templates", Some(&t.live), Some(json!({"name": "one more", "body": "x"})))
        .await;
    let r = r.expect(409, Some("LIMIT_REACHED"));
    let error = r.body["error"].as_str().unwrap();
    assert!(error.contains("templates") && error.contains("1000"), "{error}");
    // After a restart (the count read again from the store) it holds; a delete makes room.
    let app = app.restart().await;
    app.call("POST", "/v1/templates", Some(&t.test), Some(json!({"name": "again", "body": "x"})))
        .await
        .expect(409, Some("LIMIT_REACHED"));
    let first = app.call("GET", "/v1/templates?limit=1", Some(&t.live), None).await.expect(200, None);
    let id = first.data()[0]["id"].as_str().unwrap().to_owned();
    app.call("DELETE", &format!("/v1/templates/{id}"), Some(&t.live), None).await.expect(200, None);
    app.call("POST", "/v1/templates", Some(&t.test), Some(json!({"name": "again", "body": "x"})))
        .await
        .expect(201, None);

    // Campaigns: 1,000.
    for i in 0..1000 {
        let body = json!({"name": format!("c{i}"), "body": "Hi", "phones": ["+14155550100"]});
        app.call("POST", "/v1/campaigns", Some(&t.test), Some(body)).await.expect(201, None);
    }
    let body = json!({"name": "one more", "body": "Hi", "phones": ["+14155550100"]});
    let r =
        app.call("POST", "/v1/campaigns", Some(&t.live), Some(body)).await.expect(409, Some("LIMIT_REACHED"));
    assert!(r.body["error"].as_str().unwrap().contains("campaigns"), "{}", r.body);
    // Keys (50) and webhooks (10) answer the same 409: `keys.rs`, `webhooks.rs`.
}

#[actix_web::test]
async fn contact_attributes_hold_at_most_4_kib() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    // 4,096 bytes of names and values together: accepted; one more byte (or a multi-byte
    // character over the line): refused, naming `attributes`, and nothing stored.
    let four = |v: &str, n: usize| {
        (0..4).map(|i| (format!("{i}"), json!(v.repeat(n)))).collect::<serde_json::Map<_, _>>()
    };
    let mut fits = four("x", 999);
    fits.insert("e".into(), json!("x".repeat(95)));
    let fits = json!({"phone": "+14155550100", "attributes": fits});
    app.call("POST", "/v1/contacts", Some(&t.test), Some(fits)).await.expect(201, None);
    let mut one_more = four("x", 999);
    one_more.insert("e".into(), json!("x".repeat(96)));
    for over in [one_more, four("é", 520)] {
        let body = json!({"phone": "+14155550101", "attributes": over});
        let r = app
            .call("POST", "/v1/contacts", Some(&t.test), Some(body))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with("attributes"), "{}", r.body);
    }
    let list = app.call("GET", "/v1/contacts", Some(&t.live), None).await.expect(200, None);
    assert_eq!(list.data().as_array().unwrap().len(), 1);
}
