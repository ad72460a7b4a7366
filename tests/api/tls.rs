//! HTTPS without a proxy: `--tls-cert`/`--tls-key` on the node and `--ca-file` on the agent, with
//! the certificates of tests/fixtures/tls, made by `openssl` (a private P-256 authority and a leaf
//! for `IP:127.0.0.1` it signed; see `webhooks.rs` for how).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;

use crate::agent_program::agent_cli;
use crate::helpers::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls").join(name)
}

/// A client that trusts the fixtures' authority alone.
fn trusting_the_authority() -> awc::Client {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(fixture("ca.pem")).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let config =
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
    awc::Client::builder()
        .connector(awc::Connector::new().rustls_0_23(Arc::new(config)))
        .timeout(Duration::from_secs(30))
        .finish()
}

#[actix_web::test]
async fn the_node_serves_https_and_an_agent_trusting_its_authority_delivers() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (fixture("leaf.pem"), fixture("leaf.key"));
    let env = [("PIGEON_TLS_CERT", cert.to_str().unwrap()), ("PIGEON_TLS_KEY", key.to_str().unwrap())];
    let node = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &dir.path().join("log"), &env);
    assert!(node.base.starts_with("https://127.0.0.1:"), "the banner says https: {}", node.base);
    let api = Api { base: node.base.clone(), client: trusting_the_authority() };

    // The API over TLS: the operator makes a tenant and an agent phone.
    let t = api.create_tenant("starter").await;
    let (_, token) = api.agent_phone(&t.id, "+14155550999").await;

    // Plain HTTP on the HTTPS port gets no HTTP answer, and the node carries on.
    let addr = node.base.trim_start_matches("https://").to_owned();
    let answer = actix_web::rt::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        got
    })
    .await
    .unwrap();
    assert!(!answer.starts_with(b"HTTP/"), "{}", String::from_utf8_lossy(&answer));
    // A client with only the system's roots refuses the private authority's certificate.
    let system = awc::Client::builder().timeout(Duration::from_secs(10)).finish();
    let refused = system.get(format!("{}/healthz", node.base)).send().await;
    assert!(refused.is_err(), "an unknown authority is refused: {:?}", refused.map(|r| r.status()));
    api.call("GET", "/healthz", None, None).await.expect(200, None);

    // The agent: without --ca-file its check fails on the certificate; with it, ok.
    let state = tempfile::tempdir().unwrap();
    let args = |ca: bool| {
        let mut a: Vec<String> =
            ["--check", "--connector", "command", "--send-command", "true {to}"].map(String::from).to_vec();
        a.extend(["--server".into(), node.base.clone(), "--token".into(), token.clone()]);
        a.extend(["--state-dir".into(), state.path().to_str().unwrap().to_owned()]);
        if ca {
            a.extend(["--ca-file".into(), fixture("ca.pem").to_str().unwrap().to_owned()]);
        }
        a
    };
    let (without, with) = (args(false), args(true));
    let (without, with) =
        actix_web::rt::task::spawn_blocking(move || (agent_cli(without), agent_cli(with))).await.unwrap();
    assert_eq!(without.0, Some(1), "{}", without.1);
    assert!(
        without.1.contains("FAIL cannot reach the node") && without.1.contains("UnknownIssuer"),
        "{}",
        without.1
    );
    assert!(without.1.contains("needs --ca-file"), "the check says what to do: {}", without.1);
    assert_eq!(with.0, Some(0), "{}{}", with.1, with.2);
    assert!(with.1.contains("ok   the node at"), "{}", with.1);

    // Running, it polls over TLS (the phone comes online), takes a send and reports it delivered.
    let mut agent = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .arg("agent")
        .args(args(true).into_iter().skip(1))
        .arg("--command-delivers")
        .stderr(std::fs::File::create(dir.path().join("agent.log")).unwrap())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while api.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None).data()[0]["online"]
        != true
    {
        assert!(started.elapsed() < Duration::from_secs(20), "the agent never polled");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let id = api.send_ok(&t.live, "+14155550100").await;
    let delivered = api.wait_status_within(&t.live, &id, "delivered", Duration::from_secs(20)).await;
    let _ = agent.kill();
    let _ = agent.wait();
    assert_eq!(delivered["status"], "delivered");
}

#[test]
fn a_key_that_is_not_one_is_refused_at_start_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tls-cert"])
        .arg(fixture("leaf.pem"))
        .arg("--tls-key")
        .arg(fixture("ca.pem"))
        .env("PIGEON_DATA_DIR", dir.path().join("data"))
        .env_remove("PIGEON_DATABASE_URL")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot read the private key") && err.contains("ca.pem"), "{err}");
    assert!(!dir.path().join("data").exists(), "nothing touched: the store was not opened");

    let agent = agent_cli(
        ["--check", "--connector", "command", "--send-command", "true", "--server", "https://127.0.0.1:9"]
            .map(String::from)
            .into_iter()
            .chain(["--token".into(), "svc_agent_x".into(), "--ca-file".into()])
            .chain([fixture("leaf.key").to_str().unwrap().to_owned()])
            .collect(),
    );
    assert_eq!(agent.0, Some(2), "{}", agent.2);
    assert!(agent.2.contains("holds no PEM certificate"), "{}", agent.2);
}
