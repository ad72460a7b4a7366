//! Passivation (issue 18): an idle tenant's actors stop and start again on its next call, and
//! nothing the tenant can observe changes. The idle time is the injectable clock's, so the tests
//! move the clock and give the real-time check (every 500 ms for a 2 s idle time) a moment.
//! Running actors are read from the operator's Node page (this app's own engine: `/metrics` is
//! process-wide in tests).

use std::time::Duration;

use pigeon::clock::Clock;
use serde_json::json;

use crate::helpers::*;

const IDLE: Duration = Duration::from_secs(2);

async fn app() -> TestApp {
    spawn_app_configured(|s| s.actor_idle = IDLE).await
}

/// `(running tenant actors, passivations since start)`, from the operator's Node page.
async fn actors(app: &TestApp) -> (u64, u64) {
    let client = awc::Client::builder().disable_redirects().finish();
    let (_, cookie, _) = dashboard_sign_in(&app.base, ADMIN).await;
    let cookie = cookie.expect("signed in").split(';').next().unwrap().to_owned();
    let mut r = client
        .get(format!("{}/dashboard/admin/node", app.base))
        .insert_header(("Cookie", cookie))
        .send()
        .await
        .unwrap();
    let page = String::from_utf8(r.body().await.unwrap().to_vec()).unwrap();
    let cell = |label: &str| -> u64 {
        let at = page.find(label).unwrap_or_else(|| panic!("{label}: {page}")) + label.len();
        page[at..].trim_start_matches("</th><td>").split('<').next().unwrap().parse().unwrap()
    };
    (cell("Running tenant actors"), cell("Tenants passivated since start"))
}

/// Waits (real time, at most 5 s) for the running actors and passivations to be `want`.
async fn wait_actors(app: &TestApp, want: (u64, u64)) {
    let mut seen = (0, 0);
    for _ in 0..50 {
        seen = actors(app).await;
        if seen == want {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("running and passivated actors: want {want:?}, saw {seen:?}");
}

/// Gives the periodic check a few rounds without moving the clock.
async fn a_few_checks() {
    actix_web::rt::time::sleep(Duration::from_millis(1_500)).await;
}

#[actix_web::test]
async fn an_idle_tenant_passivates_and_its_next_calls_see_the_same_state() {
    let app = app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+15550100001", 0).await;
    app.sim_phone(&t.id, "+15550100002", 0).await;
    let first = app.send_ok(&t.live, "+14155550100").await;
    let sent = app.wait_status(&t.live, &first, "delivered").await;
    let idem = send_once(&app, &t.live).await;
    // The test key's last use: kept in memory, written back within 5 s or when the actor stops.
    app.send(&t.test, json!({"to": "+14155550102", "body": "test"})).await.expect(202, None);
    let test_key = |keys: &Resp| {
        keys.data().as_array().unwrap().iter().find(|k| k["environment"] == "test").unwrap().clone()
    };
    let before = test_key(&app.list_keys(&t.live).await);
    assert!(before["last_used_at"].is_string(), "{before}");
    let usage_before = app.get_tenant(&t.id).await.data()["usage"].clone();
    assert_eq!(actors(&app).await, (1, 0));

    // Idle past both the idle time and the rate limiter's minute: it rests.
    app.clock.advance(Duration::from_secs(61));
    wait_actors(&app, (0, 1)).await;
    assert_eq!(app.get_tenant(&t.id).await.data()["usage"], usage_before, "operator reads wake no tenant");
    assert_eq!(actors(&app).await, (0, 1));

    // The next call starts it again, with everything as it was.
    let keys = app.list_keys(&t.live).await.expect(200, None);
    assert_eq!(actors(&app).await.0, 1, "the call woke it");
    assert_eq!(test_key(&keys), before, "the test key, last_used_at included");
    assert_eq!(keys.header("x-ratelimit-remaining"), Some("199"), "a whole minute's allowance, as before");
    let calls = |u: &serde_json::Value| u["api_calls_this_month"].as_u64().unwrap();
    assert_eq!(calls(&app.get_tenant(&t.id).await.data()["usage"]), calls(&usage_before) + 1);
    // The sticky sender holds: the same recipient gets the same phone.
    let again = app.send_ok(&t.live, "+14155550100").await;
    let again = app.wait_status(&t.live, &again, "delivered").await;
    assert_eq!(again["from"], sent["from"]);
    // The idempotency key still answers the first message.
    assert_eq!(send_once(&app, &t.live).await, idem);

    // /metrics carries both figures.
    let text = metrics_text(&app.api).await;
    assert!(
        text.contains("pigeon_tenant_actors ") && text.contains("pigeon_actor_passivations_total "),
        "{text}"
    );
}

/// A send with the idempotency key `order-7`: its message id.
async fn send_once(app: &TestApp, key: &str) -> serde_json::Value {
    let mut res = awc::Client::default()
        .post(format!("{}/v1/messages", app.base))
        .insert_header(("Authorization", format!("Bearer {key}")))
        .insert_header(("Idempotency-Key", "order-7"))
        .send_json(&json!({"to": "+14155550101", "body": "once"}))
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 202);
    let body: serde_json::Value = res.json().await.unwrap();
    body["data"]["message_id"].clone()
}

#[actix_web::test]
async fn a_tenant_rests_once_its_limiters_are_whole_not_a_minute_after_its_last_call() {
    let app = app().await;
    let t = app.create_tenant("starter").await;
    // Ten calls on a 50-a-minute key: its allowance is whole again 12 s after the last.
    for _ in 0..10 {
        app.list_keys(&t.live).await.expect(200, None);
    }
    let r = app.list_keys(&t.live).await.expect(200, None);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("39"));
    let reset: u64 = r.header("x-ratelimit-reset").unwrap().parse().unwrap();
    assert!((13..=14).contains(&reset), "reset {reset}");
    // Past the idle time, not past the reset: awake.
    app.clock.advance(IDLE + Duration::from_secs(1));
    a_few_checks().await;
    assert_eq!(actors(&app).await, (1, 0), "rested with a limiter not yet whole");
    // Past the reset, well inside the minute: it rests, and the key's allowance is whole.
    app.clock.advance(Duration::from_secs(reset));
    wait_actors(&app, (0, 1)).await;
    let r = app.list_keys(&t.live).await.expect(200, None);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("49"));
}

#[actix_web::test]
async fn a_key_at_its_limit_stays_limited_and_its_tenant_awake_until_the_minute_is_back() {
    let app = app().await;
    let t = app.create_tenant("starter").await;
    let k = app.create_key(&t.live, json!({"name": "two a minute", "rate_limit": 2})).await.expect(201, None);
    let key = k.data()["key"].as_str().unwrap().to_owned();
    app.list_keys(&key).await.expect(200, None);
    app.list_keys(&key).await.expect(200, None);
    app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    // Idle for longer than the idle time, but the key's allowance is not back: no rest.
    app.clock.advance(Duration::from_secs(10));
    a_few_checks().await;
    assert_eq!(actors(&app).await, (1, 0));
    let r = app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    // A minute after that last check, it rests; the key has its whole allowance again.
    app.clock.advance(Duration::from_secs(61));
    wait_actors(&app, (0, 1)).await;
    let r = app.list_keys(&key).await.expect(200, None);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("1"));
    app.list_keys(&key).await.expect(200, None);
    app.list_keys(&key).await.expect(429, Some("RATE_LIMIT_EXCEEDED"));
}

#[actix_web::test]
async fn queued_work_and_held_messages_pin_a_tenant_until_done() {
    let app = app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+15550100009").await;
    assert!(app.poll(&token, 0).await.is_empty(), "the agent is online");
    let queued = app.send_ok(&t.live, "+14155550100").await;
    // Held until tomorrow (send_at): the scheduler keeps it.
    let at = (app.clock.now() + chrono::Duration::hours(20)).to_rfc3339();
    let held = app.send(&t.test, json!({"to": "+14155550101", "body": "later", "send_at": at})).await;
    let held = held.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();

    // The agent goes quiet with the message queued for it; a minute and more passes.
    app.clock.advance(Duration::from_secs(120));
    a_few_checks().await;
    assert_eq!(actors(&app).await, (1, 0), "a queued message pins its tenant");
    // The agent comes back: the message is there.
    let jobs = app.poll(&token, 0).await;
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0]["message_id"], queued.as_str());
    app.report(&token, &queued, json!({"status": "delivered"})).await.expect(200, None);
    app.clock.advance(Duration::from_secs(120));
    a_few_checks().await;
    assert_eq!(actors(&app).await, (1, 0), "a held message pins its tenant");

    // Past send_at the held message goes out; then the tenant rests.
    app.clock.advance(Duration::from_secs(20 * 3600));
    app.wait_status(&t.test, &held, "delivered").await;
    app.clock.advance(Duration::from_secs(61));
    wait_actors(&app, (0, 1)).await;
}

#[actix_web::test]
async fn a_webhook_retry_due_after_the_idle_time_still_fires() {
    let app = app().await;
    let t = app.create_tenant("starter").await;
    let rx = spawn_receiver().await;
    rx.set_status(500);
    let w = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let wid = w["id"].as_str().unwrap().to_owned();
    app.send(&t.test, json!({"to": "+14155550100", "body": "hooked"})).await.expect(202, None);
    rx.wait_for(1).await;
    app.wait_attempts(&t.test, &wid, 1).await;
    // Beyond the idle time and the limiter's minute, the retries are still owed: no rest, and
    // each retry fires when due (2, 4 and 8 s apart).
    app.clock.advance(Duration::from_secs(61));
    rx.wait_for(2).await;
    app.wait_attempts(&t.test, &wid, 2).await;
    a_few_checks().await;
    assert_eq!(actors(&app).await, (1, 0));
    app.clock.advance(Duration::from_secs(4));
    rx.wait_for(3).await;
    app.wait_attempts(&t.test, &wid, 3).await;
    app.clock.advance(Duration::from_secs(8));
    rx.wait_for(4).await;
    app.wait_attempts(&t.test, &wid, 4).await;
    // Given up after four attempts: nothing is owed, and it rests.
    app.clock.advance(Duration::from_secs(61));
    wait_actors(&app, (0, 1)).await;
    assert_eq!(rx.hits().len(), 4);
}

#[actix_web::test]
async fn requests_that_meet_a_passivating_actor_are_answered_once() {
    let app = app().await;
    let t = app.create_tenant("scale").await;
    let mut ids = std::collections::HashSet::new();
    let mut sends = 0;
    for round in 0..16u64 {
        // Idle enough to rest; the burst lands before, during or after the actor stops.
        app.clock.advance(Duration::from_secs(61));
        actix_web::rt::time::sleep(Duration::from_millis(round * 37 % 600)).await;
        let burst = (0..8).map(|i| {
            let app = &app;
            let key = t.test.clone();
            async move {
                if i % 2 == 0 {
                    app.send(&key, json!({"to": "+14155550100", "body": format!("r{round} i{i}")})).await
                } else {
                    app.list_keys(&key).await
                }
            }
        });
        for r in futures_util::future::join_all(burst).await {
            assert_eq!(r.status, if r.data()["message_id"].is_string() { 202 } else { 200 }, "{:?}", r.body);
            if let Some(id) = r.data()["message_id"].as_str() {
                ids.insert(id.to_owned());
                sends += 1;
            }
        }
    }
    assert_eq!(ids.len(), sends, "one message per send");
    let (_, passivated) = actors(&app).await;
    assert!(passivated >= 4, "the rounds met resting actors: {passivated}");
    // Every message was made exactly once: the tenant's list holds each id once.
    let list = app.call("GET", "/v1/messages?limit=100", Some(&t.test), None).await.expect(200, None);
    let listed: Vec<&str> =
        list.data().as_array().unwrap().iter().map(|m| m["message_id"].as_str().unwrap()).collect();
    assert_eq!(listed.len(), sends);
    assert!(listed.iter().all(|id| ids.contains(*id)));
}

#[actix_web::test]
async fn operator_calls_racing_passivation_are_rerouted_and_answered() {
    let app = app().await;
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+15550100001", 0).await;
    app.clock.advance(Duration::from_secs(61));
    // Operator reads are not tenant work: the tenant keeps resting and waking under them, and
    // some land on an actor that is stopping.
    let until = std::time::Instant::now() + Duration::from_secs(3);
    let readers = (0..4).map(|_| {
        let (app, id) = (&app, t.id.clone());
        async move {
            let mut n = 0;
            while std::time::Instant::now() < until {
                let r = app.call("GET", &format!("/admin/v1/phones?tenant_id={id}"), Some(ADMIN), None).await;
                assert_eq!(r.status, 200, "{:?}", r.body);
                assert_eq!(r.data().as_array().unwrap().len(), 1);
                n += 1;
            }
            n
        }
    });
    let clock = async {
        while std::time::Instant::now() < until {
            actix_web::rt::time::sleep(Duration::from_millis(400)).await;
            app.clock.advance(Duration::from_secs(61));
        }
    };
    let (calls, ()) = futures_util::future::join(futures_util::future::join_all(readers), clock).await;
    let calls: usize = calls.into_iter().sum();
    let (_, passivated) = actors(&app).await;
    assert!(passivated >= 3, "{passivated} passivations under {calls} calls");
}

#[actix_web::test]
async fn a_tenant_rests_once_its_campaign_has_finished() {
    let app = app().await;
    let t = app.create_tenant("scale").await;
    let phones: Vec<String> = (0..20).map(|i| format!("+1415{:07}", 6_000_000 + i)).collect();
    let r = app
        .call(
            "POST",
            "/v1/campaigns",
            Some(&t.test),
            Some(json!({"name": "c", "body": "hi", "phones": phones})),
        )
        .await
        .expect(201, None);
    let id = r.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.test), None).await.expect(202, None);
    for _ in 0..100 {
        let c = app.call("GET", &format!("/v1/campaigns/{id}"), Some(&t.test), None).await.expect(200, None);
        if c.data()["status"] == "completed" {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    // The finished runner no longer pins the tenant.
    app.clock.advance(Duration::from_secs(61));
    wait_actors(&app, (0, 1)).await;
    let c = app.call("GET", &format!("/v1/campaigns/{id}"), Some(&t.test), None).await.expect(200, None);
    assert_eq!(c.data()["status"], "completed");
    assert_eq!(c.data()["counts"]["delivered"], 20, "{}", c.data());
}
