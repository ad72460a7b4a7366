//! Retention (DESIGN "Retention"): with a short window, final messages go with their delivery log
//! entries; queued ones stay and are still delivered; usage and campaign counts stay right; the
//! sweep shows on /metrics.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::*;

/// GETs `path` until it answers `status` (sweeps start every second), at most 10 s.
async fn wait_for(app: &TestApp, key: &str, path: &str, status: u16) -> Resp {
    for _ in 0..200 {
        let r = app.call("GET", path, Some(key), None).await;
        if r.status == status {
            return r;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("GET {path} never answered {status}");
}

async fn campaign(app: &TestApp, key: &str, id: &str) -> Value {
    app.call("GET", &format!("/v1/campaigns/{id}"), Some(key), None).await.expect(200, None).data().clone()
}

#[actix_web::test]
async fn final_messages_go_with_their_deliveries_and_queued_ones_stay() {
    let app = spawn_app_retaining(Duration::from_secs(3600)).await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let rx = spawn_receiver().await;
    let hook = app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;
    let hook = hook["id"].as_str().unwrap().to_owned();
    // A campaign of two, and two single sends: four delivered, four webhooks.
    let c = app
        .call(
            "POST",
            "/v1/campaigns",
            Some(&t.live),
            Some(json!({"name": "c", "body": "hi", "phones": ["+14155550101", "+14155550102"]})),
        )
        .await
        .expect(201, None);
    let cid = c.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{cid}/launch"), Some(&t.live), None).await.expect(202, None);
    let sent = [app.send_ok(&t.live, "+14155550103").await, app.send_ok(&t.live, "+14155550104").await];
    for id in &sent {
        app.wait_status(&t.live, id, "delivered").await;
    }
    rx.wait_for(4).await;
    for _ in 0..100 {
        if campaign(&app, &t.live, &cid).await["counts"]["delivered"] == 2 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let log = format!("/v1/webhooks/{hook}/deliveries");
    let r = app.call("GET", &log, Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 4);
    // From here the tenant's reads are counted calls: the month's count may only grow.
    let usage = app.get_tenant(&t.id).await.expect(200, None).data()["usage"].clone();

    // A second tenant whose agent took its message's lease and then went quiet: not final.
    let u = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&u.id, "+14155550998").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let queued = app.send_ok(&u.live, "+14155550105").await;

    // Half the window: nothing goes.
    app.clock.advance(Duration::from_secs(1800));
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    app.call("GET", &format!("/v1/messages/{}", sent[0]), Some(&t.live), None).await.expect(200, None);

    // Past the window: the final ones go, with their delivery log.
    app.clock.advance(Duration::from_secs(3600));
    for id in &sent {
        wait_for(&app, &t.live, &format!("/v1/messages/{id}"), 404).await.expect(404, Some("NOT_FOUND"));
    }
    let r = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data(), &json!([]), "lists skip pruned messages");
    for _ in 0..100 {
        let r = app.call("GET", &log, Some(&t.test), None).await.expect(200, None);
        if r.data().as_array().unwrap().is_empty() {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let r = app.call("GET", &log, Some(&t.test), None).await.expect(200, None);
    assert_eq!(r.data(), &json!([]), "the delivery log went with its messages");

    // Counters and campaign counts stay right.
    let after = app.get_tenant(&t.id).await.expect(200, None).data()["usage"].clone();
    assert_eq!(after["new_contacts_today"], usage["new_contacts_today"]);
    let calls = |u: &serde_json::Value| u["api_calls_this_month"].as_u64().unwrap();
    assert!(calls(&after) > calls(&usage), "counted on, not reset: {usage} then {after}");
    let c = campaign(&app, &t.test, &cid).await;
    assert_eq!(c["counts"]["delivered"], 2, "{c}");
    assert_eq!(c["processed"], 2);

    // The queued message stayed, and is still delivered.
    assert_eq!(app.message(&u.live, &queued).await["status"], "queued");
    let jobs = app.poll(&token, 0).await;
    assert_eq!(jobs.len(), 1);
    app.report(&token, &queued, json!({"status": "delivered"})).await.expect(200, None);
    assert_eq!(app.message(&u.live, &queued).await["status"], "delivered");

    let text = metrics_text(&app.api).await;
    let deleted = |kind: &str| -> u64 {
        let prefix = format!("pigeon_retention_deleted_total{{kind=\"{kind}\"}} ");
        text.lines().find_map(|l| l.strip_prefix(&prefix)).map_or(0, |v| v.trim().parse().unwrap())
    };
    assert!(deleted("message") >= 4, "{text}");
    assert!(deleted("delivery") >= 4, "{text}");
    assert!(text.contains("pigeon_retention_deleted_total{kind=\"idempotency_key\"}"), "{text}");
    assert!(text.contains("pigeon_retention_deleted_total{kind=\"counter\"}"), "{text}");
    let size = text.lines().find_map(|l| l.strip_prefix("pigeon_store_size_bytes ")).expect("store size");
    assert!(size.trim().parse::<f64>().unwrap() > 0.0);
}
