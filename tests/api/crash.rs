//! `kill -9` in the middle of traffic: every accepted message survives, resumes and is delivered
//! exactly once to the agent.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::*;

#[derive(Default)]
struct Seen {
    accepted: HashSet<String>,
    /// message id → times a job for it reached the agent.
    jobs: HashMap<String, u32>,
    /// Reports that did not get an answer (the server died): retried after the restart.
    unreported: Vec<String>,
}

/// Sends until the server stops answering; records each 202.
async fn sender(api: Api, key: String, seen: Rc<RefCell<Seen>>, n: usize) {
    for i in 0.. {
        let to = format!("+1415555{:04}", (n * 7 + i) % 40);
        let client = awc::Client::builder().timeout(Duration::from_secs(5)).finish();
        let res = client
            .post(format!("{}/v1/messages", api.base))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .send_json(&json!({"to": to, "body": format!("msg {n}/{i}")}))
            .await;
        let Ok(mut res) = res else { return };
        if res.status().as_u16() != 202 {
            return;
        }
        let Ok(body) = res.json::<serde_json::Value>().await else { return };
        seen.borrow_mut().accepted.insert(body["data"]["message_id"].as_str().unwrap().to_owned());
    }
}

/// Polls and reports `delivered` for every job until `until` or the server stops answering.
async fn agent(api: Api, token: String, seen: Rc<RefCell<Seen>>, until: Instant) {
    let client = awc::Client::builder().timeout(Duration::from_secs(5)).finish();
    while Instant::now() < until {
        let pending: Vec<String> = std::mem::take(&mut seen.borrow_mut().unreported);
        for id in pending {
            if !report(&client, &api, &token, &id).await {
                seen.borrow_mut().unreported.push(id);
                return;
            }
        }
        let res = client
            .get(format!("{}/phone/v1/jobs?wait=1", api.base))
            .insert_header(("Authorization", format!("Bearer {token}")))
            .send()
            .await;
        let Ok(mut res) = res else { return };
        let Ok(body) = res.json::<serde_json::Value>().limit(1 << 20).await else { return };
        for job in body["data"].as_array().cloned().unwrap_or_default() {
            let id = job["message_id"].as_str().unwrap().to_owned();
            *seen.borrow_mut().jobs.entry(id.clone()).or_default() += 1;
            if !report(&client, &api, &token, &id).await {
                seen.borrow_mut().unreported.push(id);
                return;
            }
        }
    }
}

async fn report(client: &awc::Client, api: &Api, token: &str, id: &str) -> bool {
    let res = client
        .post(format!("{}/phone/v1/messages/{id}/status", api.base))
        .insert_header(("Authorization", format!("Bearer {token}")))
        .send_json(&json!({"status": "delivered"}))
        .await;
    matches!(res, Ok(r) if r.status().as_u16() == 200)
}

#[actix_web::test]
async fn sigkill_mid_stream_loses_nothing_and_delivers_once() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = dir.path().join("log");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let env = [("PIGEON_ADDR", addr.as_str()), ("PIGEON_LOG", "warn")];

    let server = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let t = server.create_tenant("scale").await;
    let r = server
        .add_phone(
            json!({"tenant_id": t.id, "number": "+14155550999", "driver": "agent", "daily_limit": 1_000_000}),
        )
        .await
        .expect(201, None);
    let token = r.data()["agent_token"].as_str().unwrap().to_owned();
    server.poll(&token, 0).await;

    let seen = Rc::new(RefCell::new(Seen::default()));
    let mut tasks = vec![];
    for n in 0..8 {
        tasks.push(actix_web::rt::spawn(sender(server.api.clone(), t.live.clone(), seen.clone(), n)));
    }
    let agent_task = actix_web::rt::spawn(agent(
        server.api.clone(),
        token.clone(),
        seen.clone(),
        Instant::now() + Duration::from_secs(60),
    ));
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    let api = server.api.clone();
    server.kill9();
    for t in tasks {
        t.await.unwrap();
    }
    agent_task.await.unwrap();
    let accepted_before = seen.borrow().accepted.len();
    assert!(accepted_before > 20, "traffic flowed before the kill: {accepted_before}");

    // Restart on the same port; the agent carries on.
    let server = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    // Counters are written back once a second; each accepted message carries its own tally, so
    // none it counted is forgotten (the kill may have cut off answers to calls it also counted).
    let v = server.get_tenant(&t.id).await.expect(200, None);
    let calls = v.data()["usage"]["api_calls_this_month"].as_u64().unwrap();
    assert!(calls >= accepted_before as u64, "{calls} calls counted for {accepted_before} accepted");
    let p = server.call("GET", &format!("/admin/v1/phones?tenant_id={}", t.id), Some(ADMIN), None).await;
    let sent = p.expect(200, None).data()[0]["sent_today"].as_u64().unwrap();
    assert!(sent >= accepted_before as u64, "{sent} counted on the phone for {accepted_before} accepted");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let before = seen.borrow().jobs.len();
        agent(api.clone(), token.clone(), seen.clone(), Instant::now() + Duration::from_millis(1500)).await;
        let s = seen.borrow();
        // Done once a whole round brought nothing new and every report landed.
        if (s.jobs.len() == before && s.unreported.is_empty()) || Instant::now() > deadline {
            break;
        }
    }

    let s = std::mem::take(&mut *seen.borrow_mut());
    let dupes: Vec<_> = s.jobs.iter().filter(|(_, n)| **n > 1).collect();
    assert!(dupes.is_empty(), "handed to the phone twice: {dupes:?}");
    let mut lost_in_flight = 0;
    for id in &s.accepted {
        let m = server.message(&t.live, id).await;
        if s.jobs.contains_key(id) {
            assert_eq!(m["status"], "delivered", "{m}");
        } else {
            // Leased just before the kill, its job never reached the agent: it waits for its
            // lease to expire (60 s) and is not lost.
            assert_eq!(m["status"], "sending", "accepted but neither delivered nor leased: {m}");
            lost_in_flight += 1;
        }
    }
    assert!(lost_in_flight <= 10, "at most one poll's worth of jobs can be in flight: {lost_in_flight}");
    eprintln!(
        "crash test: {} accepted ({accepted_before} before the kill), {} delivered once, {lost_in_flight} leased in flight",
        s.accepted.len(),
        s.jobs.len()
    );
    assert!(server.terminate().success());
}

/// A message's final state, polled until it has one (at most 10 s).
async fn final_status(api: &Api, key: &str, id: &str) -> String {
    for _ in 0..200 {
        let m = api.message(key, id).await;
        let s = m["status"].as_str().unwrap().to_owned();
        if s == "delivered" || s == "failed" {
            return s;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("message {id} never settled");
}

/// A webhook announces only a state that is on disk. Each round sends one message with every
/// commit held back (`PIGEON_TEST_COMMIT_DELAY_MS`): its 202 comes once it is on disk; the sim
/// settles it at once, and that write waits for the next commit, inside which the node is killed.
/// Nothing may have been announced then (the state it would announce is lost); after the restart
/// the message is sent again and settles for good, and the receiver hears of it once, with one
/// `event_id`, and never of a fate other than the one the store keeps.
#[actix_web::test]
async fn a_webhook_announces_only_what_is_on_disk_across_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let allow = [("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true")];
    let held = [("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true"), ("PIGEON_TEST_COMMIT_DELAY_MS", "1500")];
    let rx = spawn_receiver().await;
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &allow);
    let t = app.create_tenant("starter").await;
    // Half the sends fail, so both fates are announced and redone.
    let phone = json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim",
        "sim": {"latency_ms": 0, "failure_rate": 0.5}});
    app.add_phone(phone).await.expect(201, None);
    let events = json!(["message.delivered", "message.failed"]);
    let hook = json!({"url": rx.url, "events": events});
    app.call("POST", "/v1/webhooks", Some(&t.live), Some(hook)).await.expect(201, None);
    assert!(app.terminate().success());

    let mut fates = HashMap::new();
    for round in 0..4 {
        let app = spawn_binary_with(&data, Some(ADMIN), &log, &held);
        let id = app.send_ok(&t.live, &format!("+1415555010{round}")).await;
        // The sim settled it at once; that write now waits for the held commit.
        actix_web::rt::time::sleep(Duration::from_millis(500)).await;
        let heard = rx.hits().len();
        app.kill9();
        assert_eq!(heard, round, "round {round}: an event went out before its state was on disk");

        let app = spawn_binary_with(&data, Some(ADMIN), &log, &allow);
        fates.insert(id.clone(), final_status(&app, &t.live, &id).await);
        rx.wait_for(round + 1).await;
        assert!(app.terminate().success());
    }

    // Every event: one per message, one event_id, the fate the store kept.
    let hits: Vec<serde_json::Value> = rx.hits().iter().map(Hit::json).collect();
    assert_eq!(hits.len(), fates.len(), "one event per message: {hits:?}");
    for (id, fate) in &fates {
        let mine: Vec<_> = hits.iter().filter(|h| h["message_id"] == id.as_str()).collect();
        assert_eq!(mine.len(), 1, "{id}: {mine:?}");
        assert_eq!(mine[0]["event"], format!("message.{fate}"), "{id} is {fate}: {mine:?}");
    }
}
