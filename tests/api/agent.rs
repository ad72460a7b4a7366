//! The phone agent protocol: long poll, leases, status reports, inbound texts and opt-outs.

use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn an_agent_pulls_jobs_and_reports_their_fate() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (phone_id, token) = app.agent_phone(&t.id, "+14155550999").await;
    assert!(token.starts_with("svc_agent_"));
    // Not polled yet: offline, so nothing can be sent.
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    assert!(app.poll(&token, 0).await.is_empty());
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["online"], true);
    assert_eq!(r.data()[0]["id"], phone_id.as_str());

    // A waiting poll is answered as soon as work arrives.
    let poller = {
        let api = app.api.clone();
        let token = token.clone();
        actix_web::rt::spawn(async move { api.poll(&token, 10).await })
    };
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    let jobs = poller.await.unwrap();
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let job = &jobs[0];
    assert_eq!(job["kind"], "send");
    assert_eq!(job["message_id"], id.as_str());
    assert_eq!(job["to"], "+14155550100");
    assert_eq!(job["body"], "hello");
    assert_eq!(job["channel"], "auto");
    assert!(job["job_id"].is_string());
    assert_eq!(app.message(&t.live, &id).await["status"], "sending");

    let r = app.report(&token, &id, json!({"status": "sent", "channel_used": "sms"})).await.expect(200, None);
    assert_eq!(r.data()["status"], "sent");
    // A retried report is harmless.
    app.report(&token, &id, json!({"status": "sent"})).await.expect(200, None);
    let r = app.report(&token, &id, json!({"status": "delivered"})).await.expect(200, None);
    assert_eq!(r.data()["status"], "delivered");
    let m = app.message(&t.live, &id).await;
    assert_eq!(m["channel_used"], "sms");
    assert!(m["sent_at"].is_string() && m["delivered_at"].is_string());
    // Illegal moves change nothing.
    app.report(&token, &id, json!({"status": "sent"})).await.expect(409, Some("INVALID_STATUS_TRANSITION"));
    app.report(&token, &id, json!({"status": "failed"})).await.expect(409, Some("INVALID_STATUS_TRANSITION"));
    assert_eq!(app.message(&t.live, &id).await["status"], "delivered");
    app.report(&token, &id, json!({"status": "queued"})).await.expect(400, Some("VALIDATION_ERROR"));

    // Failure with a reason.
    let id = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.poll(&token, 0).await.len(), 1);
    app.report(&token, &id, json!({"status": "failed", "failure_reason": "30007 carrier filtered"}))
        .await
        .expect(200, None);
    let m = app.message(&t.live, &id).await;
    assert_eq!(m["status"], "failed");
    assert_eq!(m["failure_reason"], "30007 carrier filtered");
    assert_eq!(m["error_code"], "DELIVERY_FAILED");
}

#[actix_web::test]
async fn agents_are_authenticated_and_confined_to_their_own_messages() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let other = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    let (_, other_token) = app.agent_phone(&other.id, "+14155550998").await;
    app.poll(&token, 0).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    app.call("GET", "/phone/v1/jobs", None, None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/phone/v1/jobs", Some(&t.live), None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/phone/v1/jobs", Some("svc_agent_0123456789abcdef0123456789abcdef"), None)
        .await
        .expect(401, Some("INVALID_API_KEY"));
    app.report(&other_token, &id, json!({"status": "sent"})).await.expect(404, Some("NOT_FOUND"));
    app.call("GET", "/phone/v1/jobs?wait=31", Some(&token), None).await.expect(400, Some("VALIDATION_ERROR"));
    assert_eq!(app.message(&t.live, &id).await["status"], "queued");
}

#[actix_web::test]
async fn an_unanswered_lease_returns_to_the_queue_after_60_s() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.poll(&token, 0).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    let first = app.poll(&token, 0).await;
    assert_eq!(first.len(), 1);
    app.clock.advance(Duration::from_secs(59));
    actix_web::rt::time::sleep(Duration::from_millis(700)).await;
    assert!(app.poll(&token, 0).await.is_empty(), "still leased at 59 s");
    app.clock.advance(Duration::from_secs(2));
    let mut again = vec![];
    for _ in 0..20 {
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        again = app.poll(&token, 0).await;
        if !again.is_empty() {
            break;
        }
    }
    assert_eq!(again.len(), 1, "the expired lease came back");
    assert_eq!(again[0]["message_id"], id.as_str());
    assert_ne!(again[0]["job_id"], first[0]["job_id"], "a new lease");
    app.report(&token, &id, json!({"status": "delivered"})).await.expect(200, None);
}

#[actix_web::test]
async fn stop_opts_out_and_start_opts_back_in() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.poll(&token, 0).await;
    // Queued before the STOP: never handed to the phone afterwards.
    let queued = app.send_ok(&t.live, "+14155550100").await;

    let r = app.inbound(&token, "+14155550100", "  Stop ").await.expect(201, None);
    let inbound = r.data().clone();
    assert_eq!(inbound["direction"], "inbound");
    assert_eq!(inbound["status"], "received");
    assert_eq!(inbound["from"], "+14155550100");
    assert_eq!(inbound["to"], "+14155550999");
    assert_eq!(inbound["body"], "  Stop ");

    let jobs = app.poll(&token, 0).await;
    assert_eq!(jobs.len(), 1, "only the STOP's confirmation, not the queued message: {jobs:?}");
    assert_ne!(jobs[0]["message_id"].as_str(), Some(queued.as_str()));
    let m = app.message(&t.live, &queued).await;
    assert_eq!(m["status"], "failed");
    assert_eq!(m["error_code"], "RECIPIENT_OPTED_OUT");

    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(400, Some("RECIPIENT_OPTED_OUT"));
    app.send(&t.test, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(400, Some("RECIPIENT_OPTED_OUT"));
    // Another tenant is not affected.
    let other = app.create_tenant("starter").await;
    app.send(&other.test, json!({"to": "+14155550100", "body": "x"})).await.expect(202, None);
    // A plain text does not opt back in; START does.
    app.inbound(&token, "+14155550100", "why?").await.expect(201, None);
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(400, Some("RECIPIENT_OPTED_OUT"));
    app.inbound(&token, "+14155550100", "start").await.expect(201, None);
    app.send_ok(&t.live, "+14155550100").await;

    let r = app.call("GET", "/v1/messages?direction=inbound", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 3);
    app.inbound(&token, "4155550100", "hi").await.expect(400, Some("INVALID_PHONE_NUMBER"));
}

#[actix_web::test]
async fn deleting_a_phone_fails_what_it_still_owed() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (phone, token) = app.agent_phone(&t.id, "+14155550999").await;
    app.poll(&token, 0).await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    let r =
        app.call("DELETE", &format!("/admin/v1/phones/{phone}"), Some(ADMIN), None).await.expect(200, None);
    assert_eq!(r.data()["deleted"], true);
    let m = app.wait_status(&t.live, &id, "failed").await;
    assert_eq!(m["error_code"], "NO_PHONE_AVAILABLE");
    app.call("GET", "/phone/v1/jobs", Some(&token), None).await.expect(401, Some("INVALID_API_KEY"));
    app.call("DELETE", &format!("/admin/v1/phones/{phone}"), Some(ADMIN), None)
        .await
        .expect(404, Some("NOT_FOUND"));
    let r = app
        .call("GET", &format!("/admin/v1/phones?tenant_id={}", t.id), Some(ADMIN), None)
        .await
        .expect(200, None);
    assert!(r.data().as_array().unwrap().is_empty());
}

/// A restart, even `kill -9`, keeps an agent that was polling online for the rest of its window:
/// sends to a tenant whose phones are all agents are taken at once after it, not refused until the
/// agent polls again. An agent that never polled stays offline. What the restart read back goes
/// out before what was sent after it, and each message once.
#[actix_web::test]
async fn agents_polling_before_a_kill_9_are_online_right_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let app = spawn_binary(&data, Some(ADMIN), &log);
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550998").await;
    let quiet = app.create_tenant("starter").await;
    app.agent_phone(&quiet.id, "+14155550997").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let first = app.send_ok(&t.live, "+14155550100").await;
    // The poll is saved with the counters, written back within a second.
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    app.kill9();

    // Recovery, which runs beside new sends, is held back so that it finds the second send in
    // the `pending` index too: the phone must still queue it once, behind the first.
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &[("PIGEON_TEST_RECOVERY_DELAY_MS", "500")]);
    let second = app.send_ok(&t.live, "+14155550101").await;
    app.send(&quiet.live, json!({"to": "+14155550102", "body": "hi"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(&log).unwrap().matches("recovery done").count() < 2 {
        assert!(std::time::Instant::now() < deadline, "the restart's recovery did not finish");
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let jobs = app.poll(&token, 0).await;
    let ids: Vec<_> = jobs.iter().map(|j| j["message_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [first.as_str(), second.as_str()]);
    assert!(app.terminate().success());
}

/// What a restart keeps is the last poll, not "online": the agent is offline once its 30 s
/// window has passed with no poll.
#[actix_web::test]
async fn after_a_restart_a_silent_agent_goes_offline_when_its_window_ends() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550998").await;
    assert!(app.poll(&token, 0).await.is_empty());
    app.clock.advance(Duration::from_secs(20));
    let app = app.restart().await;
    app.send_ok(&t.live, "+14155550100").await;
    app.clock.advance(Duration::from_secs(11));
    app.send(&t.live, json!({"to": "+14155550101", "body": "hi"}))
        .await
        .expect(503, Some("NO_PHONE_AVAILABLE"));
}

/// An agent that retries a forward (after a crash, say) with the same `Idempotency-Key` records
/// the text once; the key with another text is refused.
#[actix_web::test]
async fn an_inbound_text_with_a_key_is_recorded_once() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550999").await;
    let post = |key: &'static str, body: &'static str| {
        let (base, token) = (app.base.clone(), token.clone());
        async move {
            let mut res = awc::Client::new()
                .post(format!("{base}/phone/v1/inbound"))
                .bearer_auth(&token)
                .insert_header(("Idempotency-Key", key))
                .send_json(&json!({"from": "+14155550123", "body": body}))
                .await
                .unwrap();
            let v: serde_json::Value = res.json().await.unwrap();
            (res.status().as_u16(), v)
        }
    };
    let (s1, first) = post("messages:ABC-1", "hello").await;
    let (s2, again) = post("messages:ABC-1", "hello").await;
    assert_eq!((s1, s2), (201, 201));
    assert_eq!(first["data"]["message_id"], again["data"]["message_id"]);
    let (s3, other) = post("messages:ABC-1", "another text").await;
    assert_eq!((s3, other["code"].as_str()), (409, Some("IDEMPOTENCY_KEY_REUSED")));
    let (s4, _) = post("messages:ABC-2", "hello").await;
    assert_eq!(s4, 201);
    let r = app.call("GET", "/v1/messages?direction=inbound", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 2);
}
