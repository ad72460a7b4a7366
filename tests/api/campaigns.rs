//! Campaigns: drafts, launch (202), every recipient through the single-send rules, counts that
//! reach their totals, cancel, and a big launch that does not block other traffic.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::*;

async fn create(app: &TestApp, key: &str, body: Value) -> Resp {
    app.call("POST", "/v1/campaigns", Some(key), Some(body)).await
}

async fn wait_done(app: &TestApp, key: &str, id: &str) -> Value {
    for _ in 0..200 {
        let r = app.call("GET", &format!("/v1/campaigns/{id}"), Some(key), None).await.expect(200, None);
        let c = r.data().clone();
        let counts = &c["counts"];
        let settled = counts["queued"] == 0 && counts["sending"] == 0;
        if c["status"] == "completed" && settled {
            return c;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("campaign never completed");
}

#[actix_web::test]
async fn a_campaign_sends_every_recipient_under_the_single_send_rules() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.sim_phone(&t.id, "+14155550999", 2).await;
    app.patch_tenant(&t.id, json!({"new_contact_daily_limit": 3})).await.expect(200, None);
    // One recipient opted out, one is a contact (not new), the rest are new: 3 allowed.
    let (agent, token) = app.agent_phone(&t.id, "+14155550998").await;
    app.inbound(&token, "+14155550105", "STOP").await.expect(201, None);
    app.patch_phone(&agent, json!({"enabled": false})).await.expect(200, None);
    app.call("POST", "/v1/contacts", Some(&t.live), Some(json!({"phone": "+14155550100"})))
        .await
        .expect(201, None);
    let phones: Vec<String> = (100..106).map(|i| format!("+14155550{i}")).collect();
    let r = create(&app, &t.live, json!({"name": "launch day", "body": "We're live!", "phones": phones}))
        .await
        .expect(201, None);
    let c = r.data().clone();
    assert_eq!(c["status"], "draft");
    assert_eq!(c["audience"], json!({"phones": phones}));
    let id = c["id"].as_str().unwrap().to_owned();

    let r =
        app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.live), None).await.expect(202, None);
    assert_eq!(r.data()["status"], "running");
    assert_eq!(r.data()["total"], 6);
    let c = wait_done(&app, &t.live, &id).await;
    assert_eq!(c["processed"], 6);
    assert_eq!(c["counts"]["delivered"], 4, "{c}");
    assert_eq!(c["skipped"], json!({"NEW_CONTACT_LIMIT": 1, "RECIPIENT_OPTED_OUT": 1}), "{c}");
    assert!(c["finished_at"].is_string());
    let r = app.call("GET", "/v1/messages?status=delivered", Some(&t.live), None).await.expect(200, None);
    let ms = r.data().as_array().unwrap();
    assert_eq!(ms.len(), 4);
    assert!(ms.iter().all(|m| m["campaign_id"] == id.as_str() && m["body"] == "We're live!"));

    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
    app.call("POST", &format!("/v1/campaigns/{id}/cancel"), Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
}

#[actix_web::test]
async fn templates_and_contacts_fill_each_recipient() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    app.call(
        "POST",
        "/v1/templates",
        Some(&t.test),
        Some(json!({"name": "hi", "body": "Hi {{name}}, {{offer}}"})),
    )
    .await
    .expect(201, None);
    let mut ids = vec![];
    for (phone, name) in
        [("+14155550100", Some("Ada")), ("+14155550101", Some("Grace")), ("+14155550102", None)]
    {
        let mut body = json!({"phone": phone});
        if let Some(n) = name {
            body["attributes"] = json!({"name": n});
        }
        let r = app.call("POST", "/v1/contacts", Some(&t.test), Some(body)).await.expect(201, None);
        ids.push(r.data()["id"].as_str().unwrap().to_owned());
    }
    let r = create(
        &app,
        &t.test,
        json!({"name": "promo", "template": "hi", "data": {"offer": "20% off"}, "all_contacts": true}),
    )
    .await
    .expect(201, None);
    let id = r.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.test), None).await.expect(202, None);
    let c = wait_done(&app, &t.test, &id).await;
    assert_eq!(c["total"], 3);
    assert_eq!(c["counts"]["delivered"], 2);
    assert_eq!(c["skipped"], json!({"MISSING_TEMPLATE_VAR": 1}));
    let r = app.call("GET", "/v1/messages", Some(&t.test), None).await.expect(200, None);
    let mut bodies: Vec<_> =
        r.data().as_array().unwrap().iter().map(|m| m["body"].as_str().unwrap().to_owned()).collect();
    bodies.sort();
    assert_eq!(bodies, ["Hi Ada, 20% off", "Hi Grace, 20% off"]);

    // contact_ids, and bad input.
    let r = create(&app, &t.test, json!({"name": "two", "body": "x", "contact_ids": &ids[..2]}))
        .await
        .expect(201, None);
    assert_eq!(r.data()["audience"]["contact_ids"].as_array().unwrap().len(), 2);
    create(&app, &t.test, json!({"name": "x", "body": "x", "contact_ids": ["01ARZ3NDEKTSV4RRFFQ69G5FAV"]}))
        .await
        .expect(404, Some("CONTACT_NOT_FOUND"));
    create(&app, &t.test, json!({"name": "x", "template": "nope", "phones": ["+14155550100"]}))
        .await
        .expect(400, Some("INVALID_TEMPLATE"));
    // A template that passes a message's length with the shared data alone would skip everyone.
    app.call(
        "POST",
        "/v1/templates",
        Some(&t.test),
        Some(json!({"name": "long", "body": "{{x}}".repeat(2_000)})),
    )
    .await
    .expect(201, None);
    let long = create(
        &app,
        &t.test,
        json!({"name": "x", "template": "long", "data": {"x": "abcdef"}, "phones": ["+14155550100"]}),
    )
    .await
    .expect(400, Some("VALIDATION_ERROR"));
    assert!(long.body["error"].as_str().unwrap().contains("10000"), "{}", long.body);
    create(
        &app,
        &t.test,
        json!({"name": "x", "template": "long", "data": {"x": "abcde"}, "phones": ["+14155550100"]}),
    )
    .await
    .expect(201, None);
    create(&app, &t.test, json!({"name": "x", "body": "x", "phones": ["555"]}))
        .await
        .expect(400, Some("INVALID_PHONE_NUMBER"));
    create(&app, &t.test, json!({"name": "x", "body": "x", "template": "hi", "phones": ["+14155550100"]}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    create(
        &app,
        &t.test,
        json!({"name": "x", "body": "x", "phones": ["+14155550100"], "all_contacts": true}),
    )
    .await
    .expect(400, Some("VALIDATION_ERROR"));
    create(&app, &t.test, json!({"name": "x", "body": "x"})).await.expect(400, Some("VALIDATION_ERROR"));
    let other = app.create_tenant("starter").await;
    app.call("GET", &format!("/v1/campaigns/{id}"), Some(&other.test), None)
        .await
        .expect(404, Some("CAMPAIGN_NOT_FOUND"));
    app.call("POST", "/v1/campaigns/nope/launch", Some(&t.test), None)
        .await
        .expect(404, Some("CAMPAIGN_NOT_FOUND"));
    // A draft can be cancelled, once.
    let d = r.data()["id"].as_str().unwrap().to_owned();
    let r =
        app.call("POST", &format!("/v1/campaigns/{d}/cancel"), Some(&t.test), None).await.expect(200, None);
    assert_eq!(r.data()["status"], "cancelled");
    app.call("POST", &format!("/v1/campaigns/{d}/launch"), Some(&t.test), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));
    let r = app.call("GET", "/v1/campaigns", Some(&t.test), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 3, "two drafts and the long template that fits");
}

#[actix_web::test]
async fn a_big_launch_does_not_block_the_tenants_other_traffic() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let phones: Vec<String> = (0..3000).map(|i| format!("+1415{:07}", 5_000_000 + i)).collect();
    let r = create(&app, &t.test, json!({"name": "big", "body": "hello", "phones": phones}))
        .await
        .expect(201, None);
    let id = r.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.test), None).await.expect(202, None);
    // While it runs, single sends still answer promptly.
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        let started = Instant::now();
        app.send(&t.test, json!({"to": "+14155550100", "body": "meanwhile"})).await.expect(202, None);
        worst = worst.max(started.elapsed());
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    // A band wide enough for a loaded CI on PostgreSQL (a send there once took 0.73 s while the
    // suite ran beside it); a send queued behind the launch would wait for all of it, and the
    // campaign would no longer be running below.
    assert!(worst < Duration::from_secs(2), "a send waited {worst:?} behind the campaign");
    let r = app.call("GET", &format!("/v1/campaigns/{id}"), Some(&t.test), None).await.expect(200, None);
    assert_eq!(
        r.data()["status"],
        "running",
        "still running while the sends went through: {}",
        r.data()["processed"]
    );
    let c = wait_done(&app, &t.test, &id).await;
    assert_eq!(c["counts"]["delivered"], 3000);
    assert_eq!(c["processed"], 3000);
}

#[actix_web::test]
async fn a_running_campaign_resumes_after_a_restart_without_sending_twice() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let phones: Vec<String> = (0..3000).map(|i| format!("+1415{:07}", 5_000_000 + i)).collect();
    let r = create(&app, &t.test, json!({"name": "big", "body": "hello", "phones": phones}))
        .await
        .expect(201, None);
    let id = r.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{id}/launch"), Some(&t.test), None).await.expect(202, None);
    actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    let app = app.restart().await;
    let r = app.call("GET", &format!("/v1/campaigns/{id}"), Some(&t.test), None).await.expect(200, None);
    let before = r.data()["processed"].as_u64().unwrap();
    assert!(before < 3000, "the restart came mid-campaign ({before} done)");
    let c = wait_done(&app, &t.test, &id).await;
    assert_eq!(c["processed"], 3000);
    assert_eq!(c["counts"]["delivered"], 3000, "every recipient exactly once: {}", c["counts"]);
}
