//! A fleet: three real `pigeon serve` processes on one PostgreSQL database (a throwaway cluster),
//! each tenant owned by one node through its lease, every node answering for every tenant. Run in
//! both passes of `.ci/run` (they start their own databases); skipped where PostgreSQL is not
//! installed unless `PIGEON_REQUIRE_POSTGRES` is set.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::*;

/// `n` nodes on one fresh database, each with `env` besides.
pub fn fleet(n: usize, env: &[(&str, &str)]) -> (Vec<Binary>, tempfile::TempDir) {
    let url = pigeon_storage::pg::testing::database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let mut all = vec![("PIGEON_DATABASE_URL", url.as_str())];
    all.extend_from_slice(env);
    let nodes = (0..n)
        .map(|i| spawn_binary_with(&dir.path().join(format!("n{i}")), Some(ADMIN), &log, &all))
        .collect();
    (nodes, dir)
}

/// A tenant made on one node sends on a second and is read on a third; its operator calls,
/// idempotency keys, rate limit and key revocation behave as on one node, whichever node is
/// asked; the fleet lists its nodes; and nothing outside the fleet can pose as a node.
#[actix_web::test]
async fn three_nodes_answer_for_every_tenant_as_one() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (nodes, _dir) = fleet(3, &[]);
    let (a, b, c) = (&nodes[0], &nodes[1], &nodes[2]);
    let t = a.create_tenant("scale").await;
    // Operator calls naming the tenant, on other nodes: a phone added on b (its tenant in the
    // body), the tenant read on c.
    b.sim_phone(&t.id, "+14155550999", 0).await;
    c.get_tenant(&t.id).await.expect(200, None);
    let id = b.send_ok(&t.live, "+14155550100").await;
    let m = c.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(m["to"], "+14155550100");
    let listed = a.call("GET", "/v1/messages?limit=10", Some(&t.live), None).await.expect(200, None);
    assert_eq!(listed.data().as_array().unwrap().len(), 1);

    // The fleet: three live nodes, the tenant's owner (a, which made it) holding it.
    let nodes_seen = c.call("GET", "/admin/v1/fleet", Some(ADMIN), None).await.expect(200, None);
    let list = nodes_seen.data().as_array().unwrap().clone();
    assert_eq!(list.len(), 3, "{list:?}");
    let owner = list.iter().find(|n| n["advertise_url"] == a.base.as_str()).expect("a is listed");
    assert!(owner["tenants_owned"].as_i64().unwrap() >= 1, "{owner}");
    assert_eq!(list.iter().filter(|n| n["this_node"] == true).count(), 1);
    assert!(list.iter().any(|n| n["this_node"] == true && n["advertise_url"] == c.base.as_str()));

    // An idempotency key retried on another node returns the same message.
    let send = |node: &Binary, key: &str| {
        node.api
            .client
            .post(format!("{}/v1/messages", node.base))
            .insert_header(("Authorization", format!("Bearer {}", t.live)))
            .insert_header(("Idempotency-Key", key.to_owned()))
            .send_json(&json!({"to": "+14155550101", "body": "once"}))
    };
    let first: serde_json::Value = send(b, "k-1").await.unwrap().json().await.unwrap();
    let again: serde_json::Value = send(c, "k-1").await.unwrap().json().await.unwrap();
    assert_eq!(first["data"]["message_id"], again["data"]["message_id"], "{first} {again}");

    // A key's rate limit across the three is one node's: 10 a minute, 30 calls spread over the
    // nodes, 10 pass.
    let limited = a.create_key(&t.live, json!({"name": "limited", "rate_limit": 10})).await.expect(201, None);
    let key = limited.data()["key"].as_str().unwrap().to_owned();
    let mut passed = 0;
    let started = Instant::now();
    for i in 0..30 {
        let r = nodes[i % 3].call("GET", "/v1/phones", Some(&key), None).await;
        match r.status {
            200 => passed += 1,
            429 => assert_eq!(r.body["code"], "RATE_LIMIT_EXCEEDED"),
            s => panic!("unexpected {s}: {}", r.body),
        }
    }
    // One cell comes back every 6 s: a slow run may earn one more, three limiters would pass 30.
    let allowed = 10 + (started.elapsed().as_secs_f64() / 6.0) as usize;
    assert!((10..=allowed).contains(&passed), "{passed} passed, {allowed} allowed");

    // A key revoked on one node is refused by every node at once.
    let doomed = a.create_key(&t.live, json!({"name": "doomed"})).await.expect(201, None);
    let (doomed_key, doomed_id) =
        (doomed.data()["key"].as_str().unwrap().to_owned(), doomed.data()["id"].as_str().unwrap().to_owned());
    for n in &nodes {
        n.call("GET", "/v1/phones", Some(&doomed_key), None).await.expect(200, None);
    }
    c.revoke_key(&t.live, &doomed_id).await.expect(200, None);
    for n in &nodes {
        n.call("GET", "/v1/phones", Some(&doomed_key), None).await.expect(401, Some("INVALID_API_KEY"));
    }

    // A request posing as a node of the fleet, without its secret, is refused.
    let forged = b
        .api
        .client
        .get(format!("{}/v1/phones", b.base))
        .insert_header(("Authorization", format!("Bearer {}", t.live)))
        .insert_header(("x-pigeon-node", "01JAAAAAAAAAAAAAAAAAAAAAAA"))
        .insert_header(("x-pigeon-node-time", chrono::Utc::now().timestamp().to_string()))
        .insert_header(("x-pigeon-node-mac", "00".repeat(32)))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
}

/// `kill -9` of the node that owns a tenant while eight clients send through the two others, each
/// retrying every send with its `Idempotency-Key` until it is accepted (requests in flight to the
/// owner when it dies included): the tenant is served again within the lease and its rebuild (well
/// under 10 s), every acknowledged message is there once and delivered, and its webhook carries one
/// `event_id` per message, however often it was attempted.
#[actix_web::test]
async fn a_killed_owner_loses_nothing_and_its_tenants_move_within_seconds() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let rx = spawn_receiver().await;
    let (mut nodes, _dir) = fleet(3, &[("PIGEON_LEASE", "2s"), ("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true")]);
    let owner = nodes.remove(0);
    let t = owner.create_tenant("scale").await;
    owner.sim_phone(&t.id, "+14155550999", 20).await;
    owner.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let (b, c) = (nodes[0].api.clone(), nodes[1].api.clone());
    let killed_at: std::rc::Rc<std::cell::Cell<Option<Instant>>> = Default::default();
    let client = |n: usize| {
        let (node, key, killed_at) =
            (if n % 2 == 0 { b.clone() } else { c.clone() }, t.live.clone(), killed_at.clone());
        async move {
            let mut acked = Vec::new();
            let mut served_again = None;
            for i in 0..25 {
                let idem = format!("c{n}-{i}");
                let id = loop {
                    let r = node
                        .client
                        .post(format!("{}/v1/messages", node.base))
                        .insert_header(("Authorization", format!("Bearer {key}")))
                        .insert_header(("Idempotency-Key", idem.clone()))
                        .send_json(&json!({"to": format!("+14155{n:02}{i:04}"), "body": idem}))
                        .await;
                    if let Ok(mut r) = r {
                        if r.status() == 202 {
                            let v: serde_json::Value = r.json().await.unwrap();
                            break v["data"]["message_id"].as_str().unwrap().to_owned();
                        }
                        assert_eq!(r.status(), 503, "only a 503 while the tenant moves");
                        assert!(r.headers().contains_key("retry-after"));
                    }
                    actix_web::rt::time::sleep(Duration::from_millis(100)).await;
                };
                if let (Some(k), None) = (killed_at.get(), served_again) {
                    served_again = Some(k.elapsed());
                }
                acked.push((idem, id));
                actix_web::rt::time::sleep(Duration::from_millis(40)).await;
            }
            (acked, served_again)
        }
    };
    let clients = futures_util::future::join_all((0..8).map(client));
    let kill = async {
        actix_web::rt::time::sleep(Duration::from_millis(400)).await;
        owner.kill9();
        killed_at.set(Some(Instant::now()));
    };
    let (results, ()) = futures_util::future::join(clients, kill).await;
    let acked: Vec<(String, String)> = results.iter().flat_map(|(a, _)| a.clone()).collect();
    let took = results.iter().filter_map(|(_, s)| *s).max().expect("sends after the kill");
    eprintln!("kill -9 of the owner: every client served again within {took:?}");
    assert!(took < Duration::from_secs(10), "served again after {took:?}");
    // A retry of a send acknowledged before the kill returns the same message.
    let again = nodes[1].call("GET", &format!("/v1/messages/{}", acked[0].1), Some(&t.live), None).await;
    again.expect(200, None);
    for (_, id) in &acked {
        nodes[0].wait_status_within(&t.live, id, "delivered", Duration::from_secs(20)).await;
    }
    let mut all = Vec::new();
    let mut after = String::new();
    loop {
        let page = nodes[1].call("GET", &format!("/v1/messages?limit=100{after}"), Some(&t.live), None).await;
        let page = page.expect(200, None);
        all.extend(
            page.data().as_array().unwrap().iter().map(|m| m["message_id"].as_str().unwrap().to_owned()),
        );
        match page.body["next_cursor"].as_str() {
            Some(cursor) => after = format!("&after={cursor}"),
            None => break,
        }
    }
    assert_eq!(all.len(), 200, "each acknowledged message once");
    // One event per message, one event_id each, whatever the attempts.
    let hits = rx.wait_for(200).await;
    let mut events: std::collections::HashMap<String, std::collections::HashSet<String>> = Default::default();
    for h in &hits {
        let j = h.json();
        events
            .entry(j["message_id"].as_str().unwrap().to_owned())
            .or_default()
            .insert(j["event_id"].as_str().unwrap().to_owned());
    }
    assert_eq!(events.len(), 200, "an event for every message");
    assert!(events.values().all(|ids| ids.len() == 1), "one event_id per delivery");
}

/// One poll through `node`; an empty list while the tenant changes hands (503) or the node is
/// gone.
async fn poll_jobs(node: &Binary, token: &str) -> Vec<serde_json::Value> {
    let r = node.call("GET", "/phone/v1/jobs?wait=1", Some(token), None).await;
    match r.status {
        200 => r.data().as_array().unwrap().clone(),
        503 => {
            actix_web::rt::time::sleep(Duration::from_millis(200)).await;
            Vec::new()
        }
        s => panic!("poll answered {s}: {}", r.body),
    }
}

/// Reports `id` delivered through `node`, retrying through a change of hands; the status.
async fn report_delivered(node: &Binary, token: &str, id: &str) -> u16 {
    let started = Instant::now();
    loop {
        let r = node.report(token, id, json!({"status": "delivered"})).await;
        if r.status != 503 || started.elapsed() > Duration::from_secs(15) {
            return r.status;
        }
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

/// An agent polls and reports through every node while the tenant's owner is killed: no job is
/// ever handed out twice, the jobs leased before the kill are honoured (their reports accepted by
/// the new owner, never handed out again), and every message ends delivered.
#[actix_web::test]
async fn an_agent_across_the_fleet_never_gets_a_job_twice_through_a_kill() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (mut nodes, _dir) = fleet(3, &[("PIGEON_LEASE", "2s")]);
    let owner = nodes.remove(0);
    let t = owner.create_tenant("scale").await;
    let (_, token) = owner.agent_phone(&t.id, "+14155550999").await;
    poll_jobs(&nodes[0], &token).await;
    let mut sent = Vec::new();
    for i in 0..30 {
        sent.push(nodes[i % 2].send_ok(&t.live, &format!("+1415555{:04}", 1000 + i)).await);
    }
    let mut handed: std::collections::HashMap<String, usize> = Default::default();
    // Before the kill: jobs taken through b and c, half of them reported, the rest still leased.
    let mut leased = Vec::new();
    while leased.len() < 10 {
        for job in poll_jobs(&nodes[leased.len() % 2], &token).await {
            let id = job["message_id"].as_str().unwrap().to_owned();
            *handed.entry(id.clone()).or_default() += 1;
            leased.push(id);
        }
    }
    let (reported, kept) = leased.split_at(leased.len() / 2);
    for id in reported {
        assert_eq!(report_delivered(&nodes[1], &token, id).await, 200);
    }
    owner.kill9();
    // The jobs leased before the kill are the agent's still: reported through the survivors.
    for (i, id) in kept.iter().enumerate() {
        assert_eq!(report_delivered(&nodes[i % 2], &token, id).await, 200, "{id}");
    }
    // The rest come through polls on both survivors, each once.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut round = 0;
    while handed.len() < sent.len() {
        assert!(Instant::now() < deadline, "{} of {} jobs handed out", handed.len(), sent.len());
        for job in poll_jobs(&nodes[round % 2], &token).await {
            let id = job["message_id"].as_str().unwrap().to_owned();
            *handed.entry(id.clone()).or_default() += 1;
            assert_eq!(report_delivered(&nodes[(round + 1) % 2], &token, &id).await, 200);
        }
        round += 1;
    }
    let twice: Vec<_> = handed.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "jobs handed out twice: {twice:?}");
    for id in &sent {
        nodes[round % 2].wait_status_within(&t.live, id, "delivered", Duration::from_secs(10)).await;
    }
}

/// The database stops under two nodes: both refuse writes with 503 `STORAGE_UNAVAILABLE`; it
/// comes back and both heal on their own (each restarts itself in place) and serve every tenant.
#[actix_web::test]
async fn a_stopped_database_stops_every_node_and_all_heal_together() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let cluster = pigeon_storage::pg::testing::Cluster::start();
    let url = cluster.database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [("PIGEON_DATABASE_URL", url.as_str())];
    let a = spawn_binary_with(&dir.path().join("a"), Some(ADMIN), &log, &env);
    let b = spawn_binary_with(&dir.path().join("b"), Some(ADMIN), &log, &env);
    let t = a.create_tenant("scale").await;
    a.sim_phone(&t.id, "+14155550999", 0).await;
    let before = b.send_ok(&t.live, "+14155550100").await;
    a.wait_status(&t.live, &before, "delivered").await;

    cluster.stop();
    for node in [&a, &b] {
        let r = node.send(&t.live, json!({"to": "+14155550101", "body": "while the database is away"})).await;
        let r = r.expect(503, Some("STORAGE_UNAVAILABLE"));
        assert!(r.header("retry-after").is_some());
    }
    cluster.start_again();
    for node in [&a, &b] {
        wait_ready_again(&node.api, Duration::from_secs(60)).await;
    }
    // Both serve the tenant again, whichever owns it now.
    let deadline = Instant::now() + Duration::from_secs(20);
    for node in [&a, &b] {
        let id = loop {
            let r = node.send(&t.live, json!({"to": "+14155550102", "body": "after"})).await;
            if r.status == 202 {
                break r.data()["message_id"].as_str().unwrap().to_owned();
            }
            assert!(Instant::now() < deadline, "not serving again: {} {}", r.status, r.body);
            actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        };
        node.wait_status(&t.live, &id, "delivered").await;
    }
    let all = a.call("GET", "/v1/messages?limit=10", Some(&t.live), None).await.expect(200, None);
    assert_eq!(all.data().as_array().unwrap().len(), 3, "the refused sends never were");
}

/// Sends `body` through `node` every `every_ms` until it is accepted, within `within` (else fails
/// saying `why`); every refusal meanwhile is a 503 (the tenant moving, or the node coming back).
/// Answers the message's id.
async fn send_until_taken(
    node: &Binary,
    key: &str,
    body: serde_json::Value,
    within: Duration,
    every_ms: u64,
    why: &str,
) -> String {
    let started = Instant::now();
    loop {
        let r = node.send(key, body.clone()).await;
        if r.status == 202 {
            return r.data()["message_id"].as_str().unwrap().to_owned();
        }
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(started.elapsed() < within, "{why}");
        actix_web::rt::time::sleep(Duration::from_millis(every_ms)).await;
    }
}

/// A node paused past its lease (`SIGSTOP`, as a long stall or a partition would) loses its
/// tenants to another node; resumed, it commits nothing for them (its leases are gone: fenced),
/// restarts itself as a new node, and then serves them through their new owner. Nothing
/// acknowledged is lost and nothing is written twice.
#[actix_web::test]
async fn a_paused_node_loses_its_tenants_and_comes_back_without_them() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (nodes, dir) = fleet(2, &[("PIGEON_LEASE", "2s")]);
    let (a, b) = (&nodes[0], &nodes[1]);
    let t = a.create_tenant("scale").await;
    a.sim_phone(&t.id, "+14155550999", 0).await;
    let mut sent = vec![a.send_ok(&t.live, "+14155550100").await];
    a.signal("-STOP");
    // b takes the tenant once a's lease has run out.
    let send = json!({"to": "+14155550101", "body": "while a sleeps"});
    let id =
        send_until_taken(b, &t.live, send, Duration::from_secs(15), 200, "b never took the tenant").await;
    sent.push(id);
    a.signal("-CONT");
    // a finds its lease gone, stops writing, restarts, and answers for the tenant through b.
    let send = json!({"to": "+14155550102", "body": "through a again"});
    let id =
        send_until_taken(a, &t.live, send, Duration::from_secs(60), 300, "a never served the tenant again")
            .await;
    sent.push(id);
    for id in &sent {
        a.wait_status(&t.live, id, "delivered").await;
    }
    let all = b.call("GET", "/v1/messages?limit=10", Some(&t.live), None).await.expect(200, None);
    assert_eq!(all.data().as_array().unwrap().len(), 3);
    // a may have forwarded the sends before its renewal found the lease gone: wait for it to say so.
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while !std::fs::read_to_string(dir.path().join("log")).unwrap().contains("no longer this node's") {
        assert!(std::time::Instant::now() < deadline, "a said why it stopped writing");
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A node killed and started again in its own directory joins the fleet again and takes back its
/// tenants at once, not when their (here 30 s) leases run out: it knows the node that ran there
/// before is dead. The other node forwards to it at its new address.
#[actix_web::test]
async fn a_node_started_again_in_its_directory_joins_and_takes_its_tenants_at_once() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let url = pigeon_storage::pg::testing::database_url();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let env = [("PIGEON_DATABASE_URL", url.as_str()), ("PIGEON_LEASE", "30s")];
    let a = spawn_binary_with(&dir.path().join("a"), Some(ADMIN), &log, &env);
    let b = spawn_binary_with(&dir.path().join("b"), Some(ADMIN), &log, &env);
    let t = a.create_tenant("scale").await;
    a.sim_phone(&t.id, "+14155550999", 0).await;
    let before = b.send_ok(&t.live, "+14155550100").await;
    a.kill9();
    let a = spawn_binary_with(&dir.path().join("a"), Some(ADMIN), &log, &env);
    let send = json!({"to": "+14155550101", "body": "after a's restart"});
    let id =
        send_until_taken(&b, &t.live, send, Duration::from_secs(10), 100, "the tenant waited for its lease")
            .await;
    for id in [&before, &id] {
        a.wait_status(&t.live, id, "delivered").await;
    }
    let nodes = b.call("GET", "/admin/v1/fleet", Some(ADMIN), None).await.expect(200, None);
    let list = nodes.data().as_array().unwrap().clone();
    let owner = list.iter().find(|n| n["advertise_url"] == a.base.as_str()).expect("a is listed again");
    assert_eq!(owner["tenants_owned"], 1, "{list:?}");
}

/// The choices a send carries (`from`, `metadata`, `valid_for`) hold whichever node the request
/// lands on, and through a `kill -9` of the tenant's owner: the node that takes the tenant keeps
/// them and carries out the expiry.
#[actix_web::test]
async fn a_sends_choices_and_its_expiry_survive_the_owner_moving() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (mut nodes, _dir) = fleet(2, &[("PIGEON_LEASE", "2s")]);
    let owner = nodes.remove(0);
    let other = &nodes[0];
    let t = owner.create_tenant("scale").await;
    let (_, token) = other.agent_phone(&t.id, "+14155550999").await;
    poll_jobs(other, &token).await;
    let body = json!({"to": "+14155550100", "body": "code 123456", "from": "+14155550999",
        "metadata": {"order": "A-1"}, "valid_for": 10});
    let r = other.send(&t.live, body).await.expect(202, None);
    let id = r.data()["message_id"].as_str().unwrap().to_owned();
    let m = owner.message(&t.live, &id).await;
    assert_eq!((m["from"].as_str(), &m["metadata"]), (Some("+14155550999"), &json!({"order": "A-1"})));
    let expires: chrono::DateTime<chrono::Utc> = m["expires_at"].as_str().unwrap().parse().unwrap();
    owner.kill9();
    // The survivor takes the tenant (within a lease) and fails the message at its expiry.
    let deadline = Instant::now() + Duration::from_secs(20);
    let m = loop {
        let r = other.call("GET", &format!("/v1/messages/{id}"), Some(&t.live), None).await;
        if r.status == 200 && r.data()["status"] == "failed" {
            break r.data().clone();
        }
        assert!(r.status == 200 || r.status == 503, "{}: {}", r.status, r.body);
        assert!(Instant::now() < deadline, "not failed within 20 s: {}", r.body);
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!((m["error_code"].as_str(), &m["metadata"]), (Some("EXPIRED"), &json!({"order": "A-1"})));
    let failed_at: chrono::DateTime<chrono::Utc> = m["failed_at"].as_str().unwrap().parse().unwrap();
    assert!(failed_at >= expires, "not before its time: {failed_at} < {expires}");
    assert!(poll_jobs(other, &token).await.is_empty(), "the expired message never reaches the phone");
}

/// A phone-scoped failure heard by a node that does not own the tenant moves the message; the
/// move survives the owner's `kill -9`, and the survivor takes the new phone's `sent` and `read`.
#[actix_web::test]
async fn a_moved_message_and_its_read_survive_the_owner_moving() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (mut nodes, _dir) = fleet(2, &[("PIGEON_LEASE", "2s")]);
    let owner = nodes.remove(0);
    let other = &nodes[0];
    let t = owner.create_tenant("scale").await;
    let (_, a) = other.agent_phone(&t.id, "+14155550901").await;
    let (_, b) = other.agent_phone(&t.id, "+14155550902").await;
    poll_jobs(other, &a).await;
    poll_jobs(other, &b).await;
    let id = other.send_ok(&t.live, "+14155550100").await;
    assert_eq!(poll_jobs(other, &a).await[0]["message_id"], id.as_str(), "the older phone, on a tie");
    let fail = json!({"status": "failed", "failure_reason": "signed out", "failure_scope": "phone"});
    let r = other.report(&a, &id, fail).await.expect(200, None);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["from"].as_str()),
        (Some("queued"), Some("+14155550902"))
    );
    owner.kill9();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if poll_jobs(other, &b).await.iter().any(|j| j["message_id"] == id.as_str()) {
            break;
        }
        assert!(Instant::now() < deadline, "the moved message never reached its new phone");
    }
    other.report(&b, &id, json!({"status": "sent"})).await.expect(200, None);
    let m = other.report(&b, &id, json!({"status": "read"})).await.expect(200, None).data().clone();
    assert_eq!((m["status"].as_str(), m["from"].as_str()), (Some("read"), Some("+14155550902")));
    assert!(m["read_at"].is_string() && m["delivered_at"] == m["read_at"], "{m}");
}

/// The event log across a fleet: a stream opened on a node that does not own the tenant carries
/// the owner's events as they happen (passed through, not held), and after the owner's `kill -9`
/// the survivor's log is the same log, read on without a hole or a repeat. Settings and
/// opt-outs made through the node that does not own the tenant hold on the survivor, whose
/// keyword replies use them.
#[actix_web::test]
async fn the_event_log_settings_and_opt_outs_are_one_whichever_node_serves_them() {
    use crate::events::{ids, page, sse};
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let (mut nodes, _dir) = fleet(2, &[("PIGEON_LEASE", "2s")]);
    let owner = nodes.remove(0);
    let other = &nodes[0];
    let t = owner.create_tenant("scale").await;
    let (_, token) = other.agent_phone(&t.id, "+14155550901").await;
    poll_jobs(other, &token).await;
    let mut stream = sse(other, &t.live, "", None).await;
    let id = other.send_ok(&t.live, "+14155550100").await;
    assert_eq!(poll_jobs(other, &token).await[0]["message_id"], id.as_str());
    other.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    let streamed = stream.next_frames(1).await;
    assert_eq!(streamed[0].1["event"], "message.sent", "the forwarded stream carries the event at once");
    drop(stream);
    other.report(&token, &id, json!({"status": "delivered"})).await.expect(200, None);
    // Settings and opt-outs through the node that does not own the tenant.
    let help = json!({"help_reply": "Acme help"});
    other.call("PATCH", "/v1/settings", Some(&t.live), Some(help)).await.expect(200, None);
    let api_out = json!({"phone": "+14155550177"});
    other.call("POST", "/v1/opt-outs", Some(&t.live), Some(api_out)).await.expect(201, None);
    other.inbound(&token, "+14155550178", "STOP").await.expect(201, None);
    let reply = poll_jobs(other, &token).await;
    assert_eq!(reply[0]["to"], "+14155550178", "{reply:?}");
    let reply_id = reply[0]["message_id"].as_str().unwrap();
    other.report(&token, reply_id, json!({"status": "delivered"})).await.expect(200, None);
    let (before, cursor) = page(other, &t.live, "").await;
    assert_eq!(ids(&before)[0], streamed[0].0);

    owner.kill9();
    let deadline = Instant::now() + Duration::from_secs(20);
    while other.report(&token, &id, json!({"status": "read"})).await.status != 200 {
        assert!(Instant::now() < deadline, "the survivor never took the tenant");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    // The survivor has the settings and the opt-outs, and answers with them.
    let settings = other.call("GET", "/v1/settings", Some(&t.live), None).await.expect(200, None);
    assert_eq!(settings.data()["help_reply"], "Acme help");
    let outs = other.call("GET", "/v1/opt-outs", Some(&t.live), None).await.expect(200, None);
    let phones: Vec<_> = outs.data().as_array().unwrap().iter().map(|o| o["phone"].clone()).collect();
    assert_eq!(phones, [json!("+14155550177"), json!("+14155550178")]);
    other.inbound(&token, "+14155550179", "help").await.expect(201, None);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let jobs = poll_jobs(other, &token).await;
        if jobs.iter().any(|j| j["to"] == "+14155550179" && j["body"] == "Acme help") {
            break;
        }
        assert!(Instant::now() < deadline, "no help reply from the survivor: {jobs:?}");
    }
    let (after, _) = page(other, &t.live, &format!("?after={cursor}")).await;
    let names: Vec<_> = after.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(names, ["message.read", "message.received"], "read on from the cursor: only what followed");
    let (whole, _) = page(other, &t.live, "").await;
    assert_eq!(ids(&whole), [ids(&before), ids(&after)].concat());
}

/// Webhook control, key scopes, strict queries and the test wall hold through a node that does not
/// own the tenant as on its owner; after the owner's `kill -9` the survivor turns the webhook back
/// on and recovers through it.
#[actix_web::test]
async fn webhook_control_scopes_and_queries_hold_on_either_node() {
    if !pigeon_storage::pg::testing::available() {
        return;
    }
    let rx = spawn_receiver().await;
    let (mut nodes, _dir) = fleet(2, &[("PIGEON_LEASE", "2s"), ("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true")]);
    let owner = nodes.remove(0);
    let other = &nodes[0];
    let t = owner.create_tenant("scale").await;
    let hook = other.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let path = format!("/v1/webhooks/{}", hook["id"].as_str().unwrap());
    let off = json!({"enabled": false});
    let r = other.call("PATCH", &path, Some(&t.live), Some(off)).await.expect(200, None);
    assert_eq!(r.data()["enabled"], false);
    assert_eq!(
        owner.call("GET", &path, Some(&t.live), None).await.expect(200, None).data()["enabled"],
        false
    );
    let recover = format!("{path}/recover");
    let since = json!({"since": "2026-01-01T00:00:00Z"});
    other
        .call("POST", &recover, Some(&t.live), Some(since.clone()))
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));

    let reader = other.create_key(&t.live, json!({"name": "r", "scopes": ["read"]})).await.expect(201, None);
    let reader = reader.data()["key"].as_str().unwrap().to_owned();
    let on = json!({"enabled": true});
    other.call("PATCH", &path, Some(&reader), Some(on.clone())).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    other
        .send(&reader, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(403, Some("INSUFFICIENT_SCOPE"));
    for bad in ["/v1/messages?colour=red", "/v1/messages?order=sideways", "/v1/messages?to=+14155550100"] {
        other.call("GET", bad, Some(&reader), None).await.expect(400, None);
    }
    let test = other.send(&t.test, json!({"to": "+14155550100", "body": "x"})).await.expect(202, None);
    let test = format!("/v1/messages/{}", test.data()["message_id"].as_str().unwrap());
    other.call("GET", &test, Some(&t.test), None).await.expect(200, None);
    other.call("GET", &test, Some(&t.live), None).await.expect(404, None);

    owner.kill9();
    let deadline = Instant::now() + Duration::from_secs(20);
    while other.call("PATCH", &path, Some(&t.live), Some(on.clone())).await.status != 200 {
        assert!(Instant::now() < deadline, "the survivor never took the tenant");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    let r = other.call("POST", &recover, Some(&t.live), Some(since)).await.expect(202, None);
    assert_eq!(r.data()["recovering"], 0);
    other.call("GET", &test, Some(&t.live), None).await.expect(404, None);
}
