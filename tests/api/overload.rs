//! Overload: past what the gate lets into the accept path (`--max-pending-sends`, four times that
//! for a burst), a tenant holding its share is refused at once with 503 `OVERLOADED`, `Retry-After`
//! and the envelope, before its body is parsed; a tenant holding less still gets in; the sends taken
//! are unaffected, and the node takes sends again as soon as they are answered.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn past_the_bound_a_flooding_tenant_is_refused_at_once_and_a_quiet_one_still_gets_in() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let app = spawn_binary(&data, Some(ADMIN), &log);
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let quiet = app.create_tenant("scale").await;
    app.sim_phone(&quiet.id, "+14155550998", 0).await;
    assert!(app.terminate().success());

    // A bound of 2, so a burst may take 8 places; every commit takes three seconds, so the sends
    // taken stay in the accept path that long.
    let env = [("PIGEON_MAX_PENDING_SENDS", "2"), ("PIGEON_TEST_COMMIT_DELAY_MS", "3000")];
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    // The burst must arrive within one of the gate's 100 ms windows. On a loaded machine its sends
    // may straggle; the gate then sheds, as it should, and the burst is sent again once the gate
    // is quiet. What those tries took and refused is counted below.
    let (mut refused, mut taken_before) = (3.0, 0);
    let mut tries = 0;
    let burst = loop {
        tries += 1;
        let burst: Vec<_> = (0..8)
            .map(|i| {
                let (api, key) = (app.api.clone(), t.live.clone());
                actix_web::rt::spawn(async move {
                    api.send(&key, json!({"to": format!("+1415555010{i}"), "body": "b"})).await
                })
            })
            .collect();
        // A send taken waits three seconds for its commit; one that ends sooner was refused.
        let deadline = Instant::now() + Duration::from_secs(20);
        while metric(&app, "pigeon_sends_pending").await < 8.0 && !burst.iter().any(|s| s.is_finished()) {
            assert!(Instant::now() < deadline, "the burst never filled the accept path");
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        if !burst.iter().any(|s| s.is_finished()) {
            break burst;
        }
        assert!(tries < 5, "the gate refused part of a burst in {tries} tries");
        for s in burst {
            let r = s.await.unwrap();
            match r.status {
                202 => taken_before += 1,
                503 => refused += 1.0,
                other => panic!("a send of the burst answered {other}: {}", r.body),
            }
        }
        while metric(&app, "pigeon_sends_pending").await > 0.0
            || metric(&app, "pigeon_sends_shedding").await > 0.0
        {
            assert!(Instant::now() < deadline + Duration::from_secs(20), "the gate never calmed down");
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    };

    let asked = Instant::now();
    let r = app.send(&t.live, json!({"to": "+14155550120", "body": "9"})).await;
    let r = r.expect(503, Some("OVERLOADED"));
    // Not after the 3 s commit, nor after the 1 s a refusal may wait behind the worker's other work.
    assert!(asked.elapsed() < Duration::from_millis(500), "refused at once: {:?}", asked.elapsed());
    assert_eq!(r.headers.get("retry-after").unwrap(), "1");
    // The body was read and dropped, so the connection stays open for the client's next request.
    assert!(r.headers.get("connection").is_none_or(|v| v != "close"), "{:?}", r.headers);
    assert!(r.headers.contains_key("x-request-id"));
    // Refused before the body is parsed; a key that names no tenant takes no one's share.
    app.raw("POST", "/v1/messages", Some(&t.live), "application/json", b"{not json".to_vec())
        .await
        .expect(503, Some("OVERLOADED"));
    app.send("svc_live_nope", json!({"to": "+14155550103", "body": "4"}))
        .await
        .expect(503, Some("OVERLOADED"));
    // Other routes are not bounded.
    app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    // Arrivals finding the bound full make the gate shed (the bound itself, not the burst's
    // allowance, applies); the gauge says so.
    while metric(&app, "pigeon_sends_shedding").await < 1.0 {
        app.send(&t.live, json!({"to": "+14155550121", "body": "more"}))
            .await
            .expect(503, Some("OVERLOADED"));
        refused += 1.0;
    }
    // A tenant holding no place still gets in past the bound.
    let r = app.send(&quiet.live, json!({"to": "+14155550200", "body": "quiet"})).await;
    let quiet_id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();

    // The burst is accepted, and then there is room again.
    let mut ids = Vec::new();
    for r in burst {
        ids.push(r.await.unwrap().expect(202, None).data()["message_id"].as_str().unwrap().to_owned());
    }
    app.send_ok(&t.live, "+14155550104").await;
    for id in &ids {
        app.wait_status(&t.live, id, "delivered").await;
    }
    app.wait_status(&quiet.live, &quiet_id, "delivered").await;
    assert_eq!(metric(&app, "pigeon_sends_refused_total{reason=\"overloaded\"}").await, refused);
    assert_eq!(metric(&app, "pigeon_sends_shedding").await, 0.0, "a quiet gate does not shed");
    let r = app.call("GET", "/v1/messages?limit=100", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 9 + taken_before, "the refused sends made nothing");
    assert!(app.terminate().success());
}
