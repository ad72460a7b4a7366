//! `POST /v1/detect`: answered by an online phone, cached 7 days, 503 when nobody can answer.

use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

async fn detect(app: &TestApp, key: &str, phone: &str) -> Resp {
    app.call("POST", "/v1/detect", Some(key), Some(json!({"phone": phone}))).await
}

#[actix_web::test]
async fn sim_phones_answer_by_rule_and_answers_are_cached_for_7_days() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    detect(&app, &t.live, "+14155550100").await.expect(503, Some("DETECTION_UNAVAILABLE"));
    detect(&app, &t.live, "415").await.expect(400, Some("INVALID_PHONE_NUMBER"));
    // Test keys: the sim rule, no phone needed.
    let r = detect(&app, &t.test, "+14155550100").await.expect(200, None);
    assert_eq!(r.data()["imessage"], true);

    app.sim_phone(&t.id, "+14155550999", 5).await;
    let r = detect(&app, &t.live, "+14155550100").await.expect(200, None);
    assert_eq!(r.data()["phone"], "+14155550100");
    assert_eq!(r.data()["imessage"], true, "even last digit");
    assert_eq!(r.data()["cached"], false);
    assert_eq!(r.data()["checked_at"], "2026-11-22T12:00:00.000Z");
    let r = detect(&app, &t.live, "+14155550101").await.expect(200, None);
    assert_eq!(r.data()["imessage"], false, "odd last digit");

    app.clock.advance(Duration::from_secs(6 * 86400));
    let r = detect(&app, &t.live, "+14155550100").await.expect(200, None);
    assert_eq!(r.data()["cached"], true);
    assert_eq!(r.data()["checked_at"], "2026-11-22T12:00:00.000Z");
    app.clock.advance(Duration::from_secs(86400));
    let r = detect(&app, &t.live, "+14155550100").await.expect(200, None);
    assert_eq!(r.data()["cached"], false, "older than 7 days: asked again");
}

#[actix_web::test]
async fn agents_answer_detect_jobs_and_auto_uses_what_is_known() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.poll(&token, 0).await;

    let asking = {
        let api = app.api.clone();
        let key = t.live.clone();
        actix_web::rt::spawn(async move {
            api.call("POST", "/v1/detect", Some(&key), Some(json!({"phone": "+14155550101"}))).await
        })
    };
    let jobs = app.poll(&token, 5).await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(jobs[0]["kind"], "detect");
    assert_eq!(jobs[0]["phone"], "+14155550101");
    assert!(jobs[0].get("message_id").is_none());
    let job = jobs[0]["job_id"].as_str().unwrap();
    let r = app
        .call("POST", &format!("/phone/v1/detections/{job}"), Some(&token), Some(json!({"imessage": true})))
        .await
        .expect(200, None);
    assert_eq!(r.data()["phone"], "+14155550101");
    let r = asking.await.unwrap().expect(200, None);
    assert_eq!(r.data()["imessage"], true);
    assert_eq!(r.data()["cached"], false);
    app.call("POST", &format!("/phone/v1/detections/{job}"), Some(&token), Some(json!({"imessage": true})))
        .await
        .expect(404, Some("NOT_FOUND"));

    // A send with channel auto now goes to the agent as imessage.
    app.send_ok(&t.live, "+14155550101").await;
    let jobs = app.poll(&token, 0).await;
    assert_eq!(jobs[0]["kind"], "send");
    assert_eq!(jobs[0]["channel"], "imessage");
}

#[actix_web::test]
async fn an_agent_that_never_answers_gives_503_after_10_s() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.poll(&token, 0).await;
    let started = std::time::Instant::now();
    detect(&app, &t.live, "+14155550100").await.expect(503, Some("DETECTION_UNAVAILABLE"));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(9500) && took < Duration::from_secs(15), "{took:?}");
}
