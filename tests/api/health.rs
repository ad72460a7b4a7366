//! Phone health: `phone.offline` / `phone.online` once per change (across a restart too),
//! phone-scoped failures that move a message to another phone (never one sent with `from`), and
//! a phone that disables itself after five in a row.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

/// An agent phone that has polled once (online); its id and token.
async fn online_agent(app: &TestApp, tenant: &str, number: &str) -> (String, String) {
    let (id, token) = app.agent_phone(tenant, number).await;
    assert!(app.poll(&token, 0).await.is_empty());
    (id, token)
}

fn phone_scoped(reason: &str) -> Value {
    json!({"status": "failed", "failure_reason": reason, "failure_scope": "phone"})
}

/// The events a receiver got, as (event, phone_id).
fn phone_events(rx: &Receiver) -> Vec<(String, String)> {
    rx.hits()
        .iter()
        .map(|h| h.json())
        .map(|e| (e["event"].as_str().unwrap().to_owned(), e["phone_id"].as_str().unwrap_or("").to_owned()))
        .collect()
}

/// Waits up to 5 s until the receiver has `n` requests, then 1.5 s more (longer than the tenant's
/// look at its phones) for any that should not come.
async fn settle(rx: &Receiver, n: usize) -> Vec<(String, String)> {
    rx.wait_for(n).await;
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    phone_events(rx)
}

/// A phone-scoped failure moves the message to another phone that has not failed it, with the
/// recipient's sticky phone; at most three phones in all, then it fails with the last reason. A
/// message sent with `from` fails instead of moving.
#[actix_web::test]
async fn a_phone_scoped_failure_moves_the_message_but_never_one_sent_with_from() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let mut phones = Vec::new();
    for n in 1..=4 {
        phones.push(online_agent(&app, &t.id, &format!("+1415555000{n}")).await);
    }
    let to = "+14155550100";
    let id = app.send_ok(&t.live, to).await;
    let mut holders = Vec::new();
    for round in 0..3 {
        // Whichever phone was given it polls it, and cannot send it.
        let mut got = None;
        for (pid, token) in &phones {
            if app.poll(token, 0).await.iter().any(|j| j["message_id"] == id.as_str()) {
                got = Some((pid.clone(), token.clone()));
            }
        }
        let (pid, token) = got.unwrap_or_else(|| panic!("round {round}: no phone was given the message"));
        assert!(!holders.contains(&pid), "a phone that failed it is not given it again");
        holders.push(pid);
        let r = app.report(&token, &id, phone_scoped(&format!("signed out {round}"))).await.expect(200, None);
        if round < 2 {
            assert_eq!(r.data()["status"], "queued", "{}", r.body);
            let held_by = phones.iter().position(|(p, _)| *p == holders[round]).unwrap() + 1;
            assert_ne!(r.data()["from"], format!("+1415555000{held_by}"), "on another phone now");
            // The same report again is taken and changes nothing.
            app.report(&token, &id, phone_scoped("again")).await.expect(200, None);
        } else {
            assert_eq!(r.data()["status"], "failed");
            assert_eq!(r.data()["error_code"], "DELIVERY_FAILED");
            assert_eq!(r.data()["failure_reason"], "signed out 2", "the last reason");
        }
    }
    // The recipient's sticky phone moved to the last one that had it.
    let m = app.message(&t.live, &id).await;
    let last_number = m["from"].as_str().unwrap().to_owned();
    let next = app.send_ok(&t.live, to).await;
    assert_eq!(app.message(&t.live, &next).await["from"], last_number.as_str());

    // Sent with `from`: fails at once.
    let body = json!({"to": "+14155550101", "body": "pinned", "from": "+14155550001"});
    let pinned =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    assert!(app.poll(&phones[0].1, 0).await.iter().any(|j| j["message_id"] == pinned.as_str()));
    let r =
        app.report(&phones[0].1, &pinned, phone_scoped("Messages is not running")).await.expect(200, None);
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["error_code"].as_str()),
        (Some("failed"), Some("DELIVERY_FAILED"))
    );
    assert_eq!(r.data()["failure_reason"], "Messages is not running");

    // A scope belongs to a failure only.
    let body = json!({"to": "+14155550102", "body": "x", "from": "+14155550002"});
    let other =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    assert_eq!(app.poll(&phones[1].1, 0).await.len(), 1);
    let r = app.report(&phones[1].1, &other, json!({"status": "sent", "failure_scope": "phone"})).await;
    let e = r.expect(400, Some("VALIDATION_ERROR"));
    assert!(e.body["error"].as_str().unwrap().contains("failure_scope"), "{}", e.body);
}

/// Five phone-scoped failures in a row disable the phone (`enabled: false`, `disabled_reason`,
/// `phone.disabled`); any other report breaks the run; enabling it clears the reason.
#[actix_web::test]
async fn five_phone_scoped_failures_in_a_row_disable_the_phone() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["phone.disabled"])).await;
    let (a, token) = online_agent(&app, &t.id, "+14155550001").await;
    let fail_one = |n: u32, report: Value| {
        let (api, live, token) = (app.api.clone(), t.live.clone(), token.clone());
        async move {
            let body = json!({"to": format!("+1415555{:04}", 100 + n), "body": "x", "from": "+14155550001"});
            let r = api.send(&live, body).await.expect(202, None);
            let id = r.data()["message_id"].as_str().unwrap().to_owned();
            assert_eq!(api.poll(&token, 0).await.len(), 1);
            api.report(&token, &id, report).await.expect(200, None);
        }
    };
    for n in 0..4 {
        fail_one(n, phone_scoped("not signed in to iMessage")).await;
    }
    fail_one(4, json!({"status": "failed", "failure_reason": "unknown buddy"})).await;
    for n in 5..9 {
        fail_one(n, phone_scoped("not signed in to iMessage")).await;
    }
    let path = format!("/admin/v1/phones?tenant_id={}", t.id);
    let phone = |api: Api| {
        let path = path.clone();
        async move {
            let r = api.call("GET", &path, Some(ADMIN), None).await.expect(200, None);
            r.data().as_array().unwrap()[0].clone()
        }
    };
    let p = phone(app.api.clone()).await;
    assert_eq!(
        (p["enabled"].as_bool(), &p["disabled_reason"]),
        (Some(true), &Value::Null),
        "the run was broken"
    );
    fail_one(9, phone_scoped("Messages got an error: not signed in (-1719)")).await;
    let hit = rx.wait_for(1).await[0].json();
    assert_eq!((hit["event"].as_str(), hit["phone_id"].as_str()), (Some("phone.disabled"), Some(a.as_str())));
    assert_eq!(hit["number"], "+14155550001");
    assert!(hit["reason"].as_str().unwrap().contains("not signed in (-1719)"), "{hit}");
    assert!(hit["last_poll_at"].is_string() && hit["timestamp"].is_string(), "{hit}");
    let p = phone(app.api.clone()).await;
    assert_eq!(p["enabled"], false);
    assert_eq!(p["disabled_reason"], hit["reason"]);
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["disabled_reason"], hit["reason"]);
    app.send(&t.live, json!({"to": "+14155550200", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));

    let r = app.patch_phone(&a, json!({"enabled": true})).await.expect(200, None);
    assert_eq!((r.data()["enabled"].as_bool(), &r.data()["disabled_reason"]), (Some(true), &Value::Null));
    app.send_ok(&t.live, "+14155550200").await;
    assert_eq!(settle(&rx, 1).await.len(), 1, "disabled once");
}

/// An agent that stops polling is announced offline once its 30 s window has passed, and online
/// when it polls again; its first poll is not news. A sim's switch is announced too, once per
/// change.
#[actix_web::test]
async fn phones_going_offline_and_back_are_announced_once() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["phone.offline", "phone.online"])).await;
    let (a, token) = online_agent(&app, &t.id, "+14155550001").await;
    let sim = app.sim_phone(&t.id, "+14155550002", 0).await;
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    assert!(rx.hits().is_empty(), "a first poll is not announced");

    app.clock.advance(Duration::from_secs(31));
    let got = settle(&rx, 1).await;
    assert_eq!(got, [("phone.offline".to_owned(), a.clone())]);
    let e = rx.hits()[0].json();
    assert_eq!(e["number"], "+14155550001");
    assert!(e["last_poll_at"].is_string() && e["event_id"].is_string(), "{e}");
    app.poll(&token, 0).await;
    let got = settle(&rx, 2).await;
    assert_eq!(got[1], ("phone.online".to_owned(), a.clone()));

    for on in [false, false, true] {
        app.patch_phone(&sim, json!({"online": on})).await.expect(200, None);
    }
    let got = settle(&rx, 4).await;
    assert_eq!(
        got[2..],
        [("phone.offline".to_owned(), sim.clone()), ("phone.online".to_owned(), sim.clone())]
    );
}

/// A phone that went quiet while the node was down is announced once after the restart, when its
/// window has passed; a further restart announces nothing.
#[actix_web::test]
async fn a_phone_that_went_quiet_while_the_node_was_down_is_announced_once() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["phone.offline", "phone.online"])).await;
    let (a, _) = online_agent(&app, &t.id, "+14155550001").await;
    // Its first poll is recorded (not announced) by the tenant's next look.
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    let app = app.restart().await;
    app.clock.advance(Duration::from_secs(60));
    let got = settle(&rx, 1).await;
    assert_eq!(got, [("phone.offline".to_owned(), a.clone())]);
    let app = app.restart().await;
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rx.hits().len(), 1, "announced once");
    drop(app);
}

/// `kill -9` after an agent's first poll was recorded, down longer than its window: the
/// restarted node announces it offline once, and a second `kill -9` and restart announce nothing
/// more. Real binary on the real clock (a restarted process under `.ci/at-hour`'s fake clock
/// would start its clock again).
#[actix_web::test]
async fn a_phone_that_went_quiet_during_a_kill_9_is_announced_once() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let env = [("PIGEON_WEBHOOK_ALLOW_PRIVATE", "true"), ("LD_PRELOAD", "")];
    let rx = spawn_receiver().await;
    let node = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let t = node.create_tenant("growth").await;
    let hook = json!({"url": rx.url, "events": ["phone.offline", "phone.online"]});
    node.call("POST", "/v1/webhooks", Some(&t.live), Some(hook)).await.expect(201, None);
    let (a, token) = node.agent_phone(&t.id, "+14155550001").await;
    assert!(node.poll(&token, 0).await.is_empty());
    // The tenant's next look records the first poll (and asks for the flush).
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    node.kill9();
    std::thread::sleep(Duration::from_secs(31));
    let node = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let got = settle(&rx, 1).await;
    assert_eq!(got, [("phone.offline".to_owned(), a.clone())]);
    node.kill9();
    let node = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    wait_ready_again(&node, Duration::from_secs(10)).await;
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rx.hits().len(), 1, "announced once: {:?}", phone_events(&rx));
    drop(node);
}
