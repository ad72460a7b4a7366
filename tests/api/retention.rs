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

/// Media (DESIGN "Attachments"): an upload goes with the last message that holds it, once a day
/// old; one that no message holds goes after its day; one a message still to send holds, or a
/// campaign not yet launched, stays; the bytes go with the last record that holds them.
#[actix_web::test]
async fn media_goes_with_the_last_message_holding_it_and_unused_uploads_after_a_day() {
    use crate::media::{fetch, png, sha, upload};
    use pigeon::clock::Clock as _;
    let app = spawn_app_retaining(Duration::from_secs(3600)).await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let up = |bytes: Vec<u8>| {
        let (app, key) = (&app, &t.live);
        async move {
            let r = upload(app, key, "", "image/png", bytes).await.expect(201, None);
            r.data()["media_id"].as_str().unwrap().to_owned()
        }
    };
    let (held_bytes, drafted_bytes) = (png(5_000, 3), png(5_000, 7));
    let sent = up(png(5_000, 1)).await;
    let held = up(held_bytes.clone()).await;
    let unused = up(png(5_000, 5)).await;
    // The same bytes as `held`, under a record of their own that nothing holds.
    let twin = up(held_bytes.clone()).await;
    let drafted = up(drafted_bytes.clone()).await;

    let delivered = app.send(&t.live, json!({"to": "+14155550101", "media": [sent]})).await.expect(202, None);
    let delivered = delivered.data()["message_id"].as_str().unwrap().to_owned();
    app.wait_status(&t.live, &delivered, "delivered").await;
    let send_at = (app.clock.now() + chrono::Duration::days(10)).to_rfc3339();
    let later = json!({"to": "+14155550102", "media": [held], "send_at": send_at});
    app.send(&t.live, later).await.expect(202, None);
    let draft = json!({"name": "d", "body": "hi", "phones": ["+14155550103"], "media": [drafted]});
    app.call("POST", "/v1/campaigns", Some(&t.live), Some(draft)).await.expect(201, None);

    // The message goes after its hour; its upload, not a day old, stays.
    app.clock.advance(Duration::from_secs(2 * 3600));
    wait_for(&app, &t.live, &format!("/v1/messages/{delivered}"), 404).await;
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    for id in [&sent, &held, &unused, &twin, &drafted] {
        app.call("GET", &format!("/v1/media/{id}"), Some(&t.live), None).await.expect(200, None);
    }

    // A day on: what nothing holds goes, record and (once no record holds them) bytes.
    app.clock.advance(Duration::from_secs(23 * 3600));
    for id in [&sent, &unused, &twin] {
        wait_for(&app, &t.live, &format!("/v1/media/{id}"), 404).await.expect(404, Some("NOT_FOUND"));
    }
    for (id, bytes) in [(&held, &held_bytes), (&drafted, &drafted_bytes)] {
        app.call("GET", &format!("/v1/media/{id}"), Some(&t.live), None).await.expect(200, None);
        let (status, body, _, _) = fetch(&app, &format!("/v1/media/{id}/content"), Some(&t.live)).await;
        assert_eq!((status, &body), (200, bytes), "the bytes of a held upload stay");
    }
    let mut kept = vec![sha(&held_bytes), sha(&drafted_bytes)];
    kept.sort();
    for _ in 0..100 {
        if app.stored_media() == kept {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(app.stored_media(), kept, "the files no record holds are gone, the held ones stay");
    // Counted once the pass's turn ends; the counters are the process's, shared with other
    // tests' servers: at least this one's.
    let deleted = |text: &str, kind: &str| -> u64 {
        let prefix = format!("pigeon_retention_deleted_total{{kind=\"{kind}\"}} ");
        text.lines().find_map(|l| l.strip_prefix(&prefix)).map_or(0, |v| v.trim().parse().unwrap())
    };
    let mut text = String::new();
    for _ in 0..100 {
        text = metrics_text(&app.api).await;
        if deleted(&text, "media") >= 3 && deleted(&text, "media_file") >= 2 {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("three records and two files counted as deleted: {text}");
}
