//! What only the PostgreSQL store has: a database that cannot be reached at start, and one lost
//! while the node runs. The rest of the suite runs on PostgreSQL too (`PIGEON_TEST_STORE=postgres`,
//! `.ci/run`'s second pass); these run in both passes, each on a throwaway cluster of its own.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pigeon_storage::pg::testing::Cluster;

use crate::helpers::*;

#[actix_web::test]
async fn an_unreachable_database_stops_the_start_and_is_named_without_its_password() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let said = refused_start(dir.path(), &format!("postgres://pigeon:hunter2@127.0.0.1:{port}/pigeon"));
    assert!(
        said.contains(&format!("postgres://pigeon@127.0.0.1:{port}/pigeon")),
        "names the database: {said}"
    );
    assert!(!said.contains("hunter2"), "the password: {said}");
}

/// Runs `pigeon serve` on the database at `url` and waits (30 s at most) for it to give up, as it
/// must; what it printed.
fn refused_start(data: &std::path::Path, url: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pigeon"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("PIGEON_DATA_DIR", data)
        .env("PIGEON_DATABASE_URL", url)
        .env_remove("PIGEON_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "still starting after 30 s");
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!status.success(), "{said}");
    assert!(!said.contains("listening"), "{said}");
    said
}

/// The database goes away while a send waits for its commit (each commit held 1 s, so the stop
/// lands inside one every time): that send is refused, never committed, and the node refuses
/// writes until the database is back, then restarts itself and goes on with everything it
/// acknowledged.
#[actix_web::test]
async fn a_lost_database_refuses_writes_within_seconds_and_the_node_heals_when_it_returns() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let cluster = Cluster::start();
    // Trust authentication takes any password: the log must not show this one.
    let url = cluster.database_url().replace("pigeon@", "pigeon:s3cret@");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [("PIGEON_DATABASE_URL", url.as_str()), ("PIGEON_TEST_COMMIT_DELAY_MS", "1000")];
    let app = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &env);
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    // Twenty sends share a held commit.
    let accepted: Vec<String> = futures_util::future::join_all((0..20).map(|i| {
        let (app, key) = (&app, t.live.clone());
        async move { app.send_ok(&key, &format!("+141555501{i:02}")).await }
    }))
    .await;

    let in_flight = app.send(&t.live, serde_json::json!({"to": "+14155550150", "body": "in flight"}));
    let stop = async {
        actix_web::rt::time::sleep(Duration::from_millis(400)).await;
        cluster.stop();
    };
    let (refused, ()) = futures_util::future::join(in_flight, stop).await;
    let refused = refused.expect(503, Some("STORAGE_UNAVAILABLE"));
    assert!(refused.header("retry-after").is_some(), "Retry-After");
    // Every later write is refused at once, and no request hangs.
    let asked = Instant::now();
    app.send(&t.live, serde_json::json!({"to": "+14155550151", "body": "later"}))
        .await
        .expect(503, Some("STORAGE_UNAVAILABLE"));
    assert!(asked.elapsed() < Duration::from_secs(12), "a send waited {:?}", asked.elapsed());
    app.call("GET", "/readyz", None, None).await.expect(503, None);

    // The database returns: the node restarts itself on the same address and takes sends again.
    cluster.start_again();
    wait_ready_again(&app.api, Duration::from_secs(60)).await;
    let id = app.send_ok(&t.live, "+14155550199").await;
    app.wait_status(&t.live, &id, "delivered").await;

    // Nothing acknowledged was lost, what was owed is delivered, and the refused send never was.
    for id in &accepted {
        app.wait_status(&t.live, id, "delivered").await;
    }
    let all = app.call("GET", "/v1/messages?limit=100", Some(&t.live), None).await.expect(200, None);
    let to: Vec<&str> = all.data().as_array().unwrap().iter().map(|m| m["to"].as_str().unwrap()).collect();
    assert_eq!(to.len(), 21, "{to:?}");
    assert!(!to.contains(&"+14155550150"), "the refused send was committed after all");
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(said.matches("the database cannot commit").count(), 1, "said once:\n{said}");
    assert_eq!(said.matches("restarting to open the store again").count(), 1, "{said}");
    assert!(!said.contains("s3cret"), "the password is in the log");
}

/// `sslmode=require` with the authority that signed the database's certificate: every connection
/// of the node is encrypted. Without that authority the start fails on the certificate, naming
/// the database.
#[actix_web::test]
async fn sslmode_require_encrypts_and_verifies_the_database_certificate() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let cluster = Cluster::start_with_tls();
    let url = cluster.database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");

    let unverified = format!("{url}?sslmode=require");
    let said = refused_start(&dir.path().join("a"), &unverified);
    assert!(said.contains("certificate"), "{said}");

    let verified = format!("{url}?sslmode=verify-full&sslrootcert={}", cluster.ca_file().display());
    let app =
        spawn_binary_with(&dir.path().join("b"), Some(ADMIN), &log, &[("PIGEON_DATABASE_URL", &verified)]);
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    app.wait_status(&t.live, &id, "delivered").await;
    let db = url.rsplit('/').next().unwrap();
    let plain = pigeon_storage::pg::testing::psql_output(
        &url,
        &format!(
            "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl) FROM pg_stat_ssl s \
             JOIN pg_stat_activity a USING (pid) WHERE a.datname = '{db}' AND a.application_name = 'pigeon'"
        ),
    );
    let (tls, not): (u32, u32) = match plain.trim().split_once('|') {
        Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
        None => panic!("{plain}"),
    };
    assert!(tls >= 2, "the node's connections over TLS: {tls}");
    assert_eq!(not, 0, "plain connections of the node");
}

/// `--single-node`: the node has its database alone, like a sled directory. It is no fleet (it
/// lists no nodes), keeps a fleet's node out while it runs, and after `kill -9` resumes at start
/// what it had accepted, with no lease to take first. Only in the PostgreSQL pass.
#[actix_web::test]
async fn a_single_node_has_its_database_alone_and_resumes_its_work_at_start() {
    if !on_postgres() {
        return;
    }
    let url = pigeon_storage::pg::testing::database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [("PIGEON_DATABASE_URL", url.as_str()), ("PIGEON_SINGLE_NODE", "true")];
    let node = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &env);
    let t = node.create_tenant("scale").await;
    let (_, token) = node.agent_phone(&t.id, "+14155550999").await;
    assert!(node.poll(&token, 0).await.is_empty(), "the phone comes online");
    let id = node.send_ok(&t.live, "+14155550100").await;
    let fleet = node.call("GET", "/admin/v1/fleet", Some(ADMIN), None).await.expect(200, None);
    assert_eq!(fleet.data(), &serde_json::json!([]), "a node on its own is no fleet");

    let said = refused_start(&dir.path().join("other"), &url);
    assert!(said.contains("--single-node uses this database"), "a fleet's node is kept out: {said}");

    node.kill9();
    let node = spawn_binary_with(&dir.path().join("data"), Some(ADMIN), &log, &env);
    let jobs = node.poll(&token, 5).await;
    assert_eq!(jobs.len(), 1, "the accepted message is resumed at start: {jobs:?}");
    assert_eq!(jobs[0]["message_id"], id.as_str());
    node.report(&token, &id, serde_json::json!({"status": "delivered"})).await.expect(200, None);
    node.wait_status(&t.live, &id, "delivered").await;
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.contains("took a tenant"), "a node on its own takes no tenant over: {logged}");
}
