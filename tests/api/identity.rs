//! Signing in with an identity provider: JWTs in place of API keys. The keys are made in the test
//! (RSA, EC P-256 and Ed25519 by `openssl`, a shared secret), the JWKS is served by a loopback
//! server the test starts, and tokens are signed with jsonwebtoken as a provider would.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use pigeon_actors::identity::{IdentityConfig, KeySource};
use serde_json::{json, Value};

use crate::helpers::*;

/// A provider's signing key: what signs, and what a JWKS or a PEM file publishes.
struct Signer {
    alg: Algorithm,
    kid: String,
    key: EncodingKey,
    jwk: Value,
    public_pem: String,
}

fn openssl(args: &[&str], input: Option<&[u8]>) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new("openssl")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("openssl runs");
    if let Some(i) = input {
        child.stdin.take().unwrap().write_all(i).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "openssl {args:?}");
    out.stdout
}

/// A new key pair: `algorithm` as `openssl genpkey` names it.
fn signer(alg: Algorithm, kid: &str) -> Signer {
    let gen: &[&str] = match alg {
        Algorithm::RS256 => &["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
        Algorithm::ES256 => &["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
        _ => &["genpkey", "-algorithm", "ED25519"],
    };
    let private = openssl(gen, None);
    let public_pem = String::from_utf8(openssl(&["pkey", "-pubout"], Some(&private))).unwrap();
    let spki = openssl(&["pkey", "-pubout", "-outform", "DER"], Some(&private));
    let (key, jwk) = match alg {
        Algorithm::RS256 => {
            let modulus = String::from_utf8(openssl(&["rsa", "-modulus", "-noout"], Some(&private))).unwrap();
            let hex = modulus.trim().trim_start_matches("Modulus=");
            let n: Vec<u8> =
                (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
            let jwk = json!({"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": B64.encode(n), "e": "AQAB"});
            (EncodingKey::from_rsa_pem(&private).unwrap(), jwk)
        }
        Algorithm::ES256 => {
            let point = &spki[spki.len() - 64..];
            let jwk = json!({"kty": "EC", "kid": kid, "crv": "P-256", "x": B64.encode(&point[..32]),
                "y": B64.encode(&point[32..])});
            (EncodingKey::from_ec_pem(&private).unwrap(), jwk)
        }
        _ => {
            let jwk = json!({"kty": "OKP", "kid": kid, "crv": "Ed25519", "x": B64.encode(&spki[spki.len() - 32..])});
            (EncodingKey::from_ed_pem(&private).unwrap(), jwk)
        }
    };
    Signer { alg, kid: kid.into(), key, jwk, public_pem }
}

fn sign(s: &Signer, claims: &Value) -> String {
    let mut h = Header::new(s.alg);
    h.kid = Some(s.kid.clone());
    jsonwebtoken::encode(&h, claims, &s.key).unwrap()
}

/// The in-process servers' clock at their start (tokens are judged by it, not by the real time).
fn now() -> i64 {
    START.parse::<chrono::DateTime<chrono::Utc>>().unwrap().timestamp()
}

/// The real executable's clock: the system's.
fn real_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// What a provider puts in a token for a user of `tenant`.
fn claims(tenant: &str) -> Value {
    json!({"sub": "user_1", "iss": "https://idp.example", "aud": "pigeon", "tenant_id": tenant,
        "iat": now(), "exp": now() + 3600})
}

/// A JWKS served on loopback; `set` replaces what it serves; `fetches` counts the GETs.
struct JwksServer {
    url: String,
    keys: Arc<Mutex<Value>>,
    fetches: Arc<std::sync::atomic::AtomicUsize>,
}

impl JwksServer {
    fn set(&self, jwks: &[&Signer]) {
        *self.keys.lock().unwrap() = json!({"keys": jwks.iter().map(|s| s.jwk.clone()).collect::<Vec<_>>()});
    }
    fn fetches(&self) -> usize {
        self.fetches.load(std::sync::atomic::Ordering::SeqCst)
    }
}

fn spawn_jwks(jwks: &[&Signer]) -> JwksServer {
    use actix_web::{web, App, HttpResponse, HttpServer};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let keys: Arc<Mutex<Value>> = Arc::default();
    let fetches: Arc<std::sync::atomic::AtomicUsize> = Arc::default();
    let (k, f) = (keys.clone(), fetches.clone());
    let server = HttpServer::new(move || {
        let (k, f) = (k.clone(), f.clone());
        App::new().route(
            "/.well-known/jwks.json",
            web::get().to(move || {
                let (k, f) = (k.clone(), f.clone());
                async move {
                    f.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let body = k.lock().unwrap().clone();
                    HttpResponse::Ok().json(body)
                }
            }),
        )
    })
    .workers(1)
    .listen(listener)
    .unwrap()
    .run();
    actix_web::rt::spawn(server);
    let s = JwksServer { url: format!("http://127.0.0.1:{port}/.well-known/jwks.json"), keys, fetches };
    s.set(jwks);
    s
}

fn provider(source: KeySource) -> IdentityConfig {
    IdentityConfig {
        source,
        issuer: Some("https://idp.example".into()),
        audience: Some("pigeon".into()),
        tenant_claim: "tenant_id".into(),
    }
}

/// Asserts a 401 `INVALID_API_KEY` whose text says `why`.
async fn refused(app: &Api, token: &str, why: &str) {
    let r = app.call("GET", "/v1/api-keys", Some(token), None).await.expect(401, Some("INVALID_API_KEY"));
    let text = r.body["error"].as_str().unwrap();
    assert!(text.contains(why), "wanted {why:?}, got {text:?}");
}

#[actix_web::test]
async fn jwks_tokens_act_for_their_tenant_and_every_bad_one_is_refused() {
    let (rsa, ec, ed) = (
        signer(Algorithm::RS256, "rsa-1"),
        signer(Algorithm::ES256, "ec-1"),
        signer(Algorithm::EdDSA, "ed-1"),
    );
    let jwks = spawn_jwks(&[&rsa, &ec, &ed]);
    let url = jwks.url.clone();
    let app = spawn_app_configured(move |s| s.identity = Some(provider(KeySource::Jwks(url)))).await;
    let a = app.create_tenant("starter").await;
    let b = app.create_tenant("starter").await;
    app.sim_phone(&a.id, "+15550100001", 0).await;

    // Each key type reads its tenant's keys, not another's.
    for s in [&rsa, &ec, &ed] {
        let token = sign(s, &claims(&a.id));
        let r = app.list_keys(&token).await.expect(200, None);
        assert_eq!(r.data().as_array().unwrap().len(), 2, "{:?}", s.alg);
        assert_eq!(r.header("x-ratelimit-limit"), Some("50"), "the plan's default rate, per sub");
    }
    assert_eq!(jwks.fetches(), 1, "fetched once, then cached");
    let token = sign(&ec, &claims(&a.id));
    let b_key = app.list_keys(&b.live).await.expect(200, None).data()[0]["id"].as_str().unwrap().to_owned();
    app.call("DELETE", &format!("/v1/api-keys/{b_key}"), Some(&token), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    // It may create keys (a live key's rights), and its send counts against the month.
    app.create_key(&token, json!({"name": "made by a token"})).await.expect(201, None);
    let before = app.get_tenant(&a.id).await.data()["usage"]["api_calls_this_month"].as_u64().unwrap();
    let id = app.send(&token, json!({"to": "+14155550100", "body": "hi"})).await.expect(202, None);
    let id = id.data()["message_id"].as_str().unwrap().to_owned();
    let after = app.get_tenant(&a.id).await.data()["usage"]["api_calls_this_month"].as_u64().unwrap();
    assert_eq!(after, before + 1, "the send counted against the month");
    app.wait_status(&token, &id, "delivered").await;

    // Refusals, each saying why.
    let mut c = claims(&a.id);
    c["exp"] = json!(now() - 120);
    refused(&app, &sign(&rsa, &c), "expired").await;
    let mut c = claims(&a.id);
    c["exp"] = json!(now() - 30);
    app.list_keys(&sign(&rsa, &c)).await.expect(200, None); // within the 60 s leeway
    let mut c = claims(&a.id);
    c["nbf"] = json!(now() + 600);
    refused(&app, &sign(&rsa, &c), "not yet valid").await;
    let mut c = claims(&a.id);
    c.as_object_mut().unwrap().remove("exp");
    refused(&app, &sign(&rsa, &c), "no exp").await;
    let mut c = claims(&a.id);
    c["iss"] = json!("https://evil.example");
    refused(&app, &sign(&rsa, &c), "wrong issuer").await;
    let mut c = claims(&a.id);
    c["aud"] = json!("someone-else");
    refused(&app, &sign(&rsa, &c), "wrong audience").await;
    refused(&app, &sign(&rsa, &claims("01ARZ3NDEKTSV4RRFFQ69G5FAV")), "unknown tenant").await;
    // Another key's signature under a known kid.
    let mut forged = signer(Algorithm::RS256, "x");
    forged.kid = "rsa-1".into();
    refused(&app, &sign(&forged, &claims(&a.id)), "bad signature").await;
    // alg none: a header and claims, no signature.
    let none = format!(
        "{}.{}.",
        B64.encode(r#"{"alg":"none","typ":"JWT","kid":"rsa-1"}"#),
        B64.encode(claims(&a.id).to_string())
    );
    refused(&app, &none, "malformed").await;
    // HS256 keyed with the RSA key's public PEM, under its kid.
    let mut h = Header::new(Algorithm::HS256);
    h.kid = Some("rsa-1".into());
    let confused =
        jsonwebtoken::encode(&h, &claims(&a.id), &EncodingKey::from_secret(rsa.public_pem.as_bytes()))
            .unwrap();
    refused(&app, &confused, "algorithm not allowed").await;
    for garbage in ["a.b.c", "eyJhbGciOiJSUzI1NiJ9.e30.AAAA", "..", "x.y."] {
        refused(&app, garbage, "").await;
    }

    // A key rotated into the JWKS (a new kid) is picked up; unknown kids are fetched for at most
    // every 30 s.
    let rotated = signer(Algorithm::RS256, "rsa-2");
    jwks.set(&[&rsa, &ec, &ed, &rotated]);
    app.clock.advance(Duration::from_secs(31));
    let fetched = jwks.fetches();
    app.list_keys(&sign(&rotated, &claims(&a.id))).await.expect(200, None);
    assert_eq!(jwks.fetches(), fetched + 1);
    let stranger = signer(Algorithm::RS256, "rsa-3");
    for _ in 0..5 {
        refused(&app, &sign(&stranger, &claims(&a.id)), "unknown signing key").await;
    }
    assert_eq!(jwks.fetches(), fetched + 1, "no fetch within 30 s of the last");

    // A suspended tenant's token: 403, as with keys.
    app.patch_tenant(&a.id, json!({"status": "suspended"})).await.expect(200, None);
    app.list_keys(&token).await.expect(403, Some("TENANT_SUSPENDED"));
}

#[actix_web::test]
async fn a_per_sub_rate_limit_and_an_unreachable_provider() {
    // The provider is down from the start: no key is known, 503.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/jwks.json", dead.local_addr().unwrap());
    drop(dead);
    let app = spawn_app_configured(move |s| s.identity = Some(provider(KeySource::Jwks(url)))).await;
    let t = app.create_tenant("starter").await;
    let rsa = signer(Algorithm::RS256, "k");
    app.call("GET", "/v1/api-keys", Some(&sign(&rsa, &claims(&t.id))), None)
        .await
        .expect(503, Some("IDENTITY_UNAVAILABLE"));

    // Per sub, at the plan's default (starter: 50 a minute), on the injectable clock.
    let app =
        spawn_app_configured(|s| s.identity = Some(provider(KeySource::Hs256("shh-a-secret".into())))).await;
    let t = app.create_tenant("starter").await;
    let hs = |sub: &str| {
        let mut c = claims(&t.id);
        c["sub"] = json!(sub);
        jsonwebtoken::encode(&Header::default(), &c, &EncodingKey::from_secret(b"shh-a-secret")).unwrap()
    };
    let (ann, bob) = (hs("ann"), hs("bob"));
    for _ in 0..50 {
        app.list_keys(&ann).await.expect(200, None);
    }
    let r = app.list_keys(&ann).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    assert!(r.header("retry-after").is_some());
    app.list_keys(&bob).await.expect(200, None);
    app.clock.advance(Duration::from_secs(61));
    app.list_keys(&ann).await.expect(200, None);
}

#[actix_web::test]
async fn pem_file_and_hs256_settings_of_the_binary_with_a_custom_claim() {
    let dir = tempfile::tempdir().unwrap();
    let ec = signer(Algorithm::ES256, "ignored");
    let pem = dir.path().join("idp.pem");
    std::fs::write(&pem, &ec.public_pem).unwrap();
    let log = dir.path().join("log");
    let app = spawn_binary_with(
        &dir.path().join("a"),
        Some(ADMIN),
        &log,
        &[("PIGEON_JWT_PUBLIC_KEY_FILE", pem.to_str().unwrap()), ("PIGEON_JWT_TENANT_CLAIM", "org_id")],
    );
    let t = app.create_tenant("starter").await;
    let mut c = json!({"sub": "u", "exp": real_now() + 600, "org_id": t.id});
    app.list_keys(&sign(&ec, &c)).await.expect(200, None);
    c["tenant_id"] = c["org_id"].take();
    refused(&app, &sign(&ec, &c), "unknown tenant").await;
    drop(app);

    let app = spawn_binary_with(
        &dir.path().join("b"),
        Some(ADMIN),
        &log,
        &[("PIGEON_JWT_HS256_SECRET", "supabase-like-secret"), ("PIGEON_JWT_TENANT_CLAIM", "org_id")],
    );
    let t = app.create_tenant("starter").await;
    let c = json!({"sub": "u", "exp": real_now() + 600, "org_id": t.id});
    let key = EncodingKey::from_secret(b"supabase-like-secret");
    app.list_keys(&jsonwebtoken::encode(&Header::default(), &c, &key).unwrap()).await.expect(200, None);
    let wrong = EncodingKey::from_secret(b"another-secret");
    refused(&app, &jsonwebtoken::encode(&Header::default(), &c, &wrong).unwrap(), "bad signature").await;
    drop(app);
    assert!(!std::fs::read_to_string(&log).unwrap().contains("supabase-like-secret"), "no secret in the log");
}

#[actix_web::test]
async fn with_no_provider_a_jwt_is_an_unknown_key() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let c = json!({"sub": "u", "exp": now() + 600, "tenant_id": t.id});
    let token = jsonwebtoken::encode(&Header::default(), &c, &EncodingKey::from_secret(b"x")).unwrap();
    let r = app.list_keys(&token).await.expect(401, Some("INVALID_API_KEY"));
    assert_eq!(r.body["error"], "The API key is missing, malformed or revoked.");
}
