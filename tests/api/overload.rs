//! Overload: past `--max-pending-sends` sends in the accept path, a send is refused at once with
//! 503 `OVERLOADED`, `Retry-After` and the envelope, before its body is parsed or its key looked up;
//! the sends taken are unaffected, and the node takes sends again as soon as they are answered.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn past_the_bound_a_send_is_refused_at_once_and_the_others_go_through() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let app = spawn_binary(&data, Some(ADMIN), &log);
    let t = app.create_tenant("scale").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    assert!(app.terminate().success());

    // Every commit takes a second, so two sends stay in the accept path that long.
    let env = [("PIGEON_MAX_PENDING_SENDS", "2"), ("PIGEON_TEST_COMMIT_DELAY_MS", "1000")];
    let app = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let (a, b) = (app.api.clone(), app.api.clone());
    let (key_a, key_b) = (t.live.clone(), t.live.clone());
    let first =
        actix_web::rt::spawn(async move { a.send(&key_a, json!({"to": "+14155550100", "body": "1"})).await });
    let second =
        actix_web::rt::spawn(async move { b.send(&key_b, json!({"to": "+14155550101", "body": "2"})).await });
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;

    let asked = Instant::now();
    let r = app.send(&t.live, json!({"to": "+14155550102", "body": "3"})).await;
    let r = r.expect(503, Some("OVERLOADED"));
    assert!(asked.elapsed() < Duration::from_millis(500), "refused at once, not after the commit");
    assert_eq!(r.headers.get("retry-after").unwrap(), "1");
    // The body was read and dropped, so the connection stays open for the client's next request.
    assert!(r.headers.get("connection").is_none_or(|v| v != "close"), "{:?}", r.headers);
    assert!(r.headers.contains_key("x-request-id"));
    // Refused before the body is parsed and before the key is looked up.
    app.raw("POST", "/v1/messages", Some(&t.live), "application/json", b"{not json".to_vec())
        .await
        .expect(503, Some("OVERLOADED"));
    app.send("svc_live_nope", json!({"to": "+14155550103", "body": "4"}))
        .await
        .expect(503, Some("OVERLOADED"));
    // Other routes are not bounded.
    app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);

    // The two taken are accepted, and then there is room again.
    let ids: Vec<String> = [first.await.unwrap(), second.await.unwrap()]
        .into_iter()
        .map(|r| r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned())
        .collect();
    app.send_ok(&t.live, "+14155550104").await;
    for id in &ids {
        app.wait_status(&t.live, id, "delivered").await;
    }
    let mut res = awc::Client::new().get(format!("{}/metrics", app.base)).send().await.unwrap();
    let text = String::from_utf8(res.body().await.unwrap().to_vec()).unwrap();
    assert!(text.contains("pigeon_sends_refused_total{reason=\"overloaded\"} 3"), "{text}");
    let r = app.call("GET", "/v1/messages?limit=100", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data().as_array().unwrap().len(), 3, "the refused sends made nothing");
    assert!(app.terminate().success());
}
