//! Lists and queries: a query parameter a route does not take is refused on every route (after
//! the credential), a phone filter that is not E.164 is refused alike everywhere, and the message
//! list's order, time, campaign and sender filters.

use std::time::Duration;

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn a_query_parameter_a_route_does_not_take_is_refused_everywhere() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+14155550001", 0).await;
    let (_, agent) = app.agent_phone(&t.id, "+14155550002").await;
    let id = app.send_ok(&t.live, "+14155550100").await;
    for (method, path, key) in [
        ("GET", "/v1/messages?status=queued&colour=red".to_owned(), t.live.as_str()),
        ("GET", format!("/v1/messages/{id}?colour=red"), &t.live),
        ("GET", "/v1/webhooks?colour=red".to_owned(), &t.live),
        ("GET", "/admin/v1/tenants?colour=red".to_owned(), ADMIN),
        ("GET", "/phone/v1/jobs?wait=0&colour=red".to_owned(), &agent),
        ("GET", "/healthz?colour=red".to_owned(), ""),
    ] {
        let key = (!key.is_empty()).then_some(key);
        let r = app.call(method, &path, key, None).await.expect(400, Some("VALIDATION_ERROR"));
        assert!(
            r.body["error"].as_str().unwrap().starts_with("colour: unknown query parameter"),
            "{path}: {}",
            r.body
        );
    }
    let r = app.call("GET", "/v1/messages?colour=red", Some(&t.live), None).await;
    assert!(r.body["error"].as_str().unwrap().contains("status"), "names what it takes: {}", r.body);
    // A send with one is refused, and nothing is sent.
    let r = app
        .call(
            "POST",
            "/v1/messages?priority=high",
            Some(&t.live),
            Some(json!({"to": "+14155550101", "body": "x"})),
        )
        .await;
    r.expect(400, Some("VALIDATION_ERROR"));
    let all = app.call("GET", "/v1/messages", Some(&t.live), None).await.expect(200, None);
    assert_eq!(all.data().as_array().unwrap().len(), 1);
    // A bad credential is answered first; what a route takes passes.
    app.call("GET", "/v1/messages?colour=red", Some("svc_live_wrong"), None)
        .await
        .expect(401, Some("INVALID_API_KEY"));
    app.call("GET", "/v1/messages?limit=5&order=desc&status=delivered", Some(&t.live), None)
        .await
        .expect(200, None);
    app.call("GET", "/healthz", None, None).await.expect(200, None);
}

/// `to`, `from` and a contact's `phone` that are not E.164 (an unencoded `+` arrives as a space)
/// are one rule everywhere: 400 `INVALID_PHONE_NUMBER` naming the parameter.
#[actix_web::test]
async fn a_phone_filter_that_is_not_e164_is_refused_alike() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    for (path, name) in [
        ("/v1/messages?to=+14155550100", "to"),
        ("/v1/messages?from=+14155550100", "from"),
        ("/v1/messages?to=4155550100", "to"),
        ("/v1/contacts?phone=+14155550100", "phone"),
    ] {
        let r = app.call("GET", path, Some(&t.live), None).await.expect(400, Some("INVALID_PHONE_NUMBER"));
        assert!(r.body["error"].as_str().unwrap().starts_with(&format!("{name}:")), "{path}: {}", r.body);
    }
    app.call("GET", "/v1/messages?to=%2B14155550100", Some(&t.live), None).await.expect(200, None);
}

#[actix_web::test]
async fn the_message_list_orders_and_filters_by_time_campaign_and_sender() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+14155550001", 0).await;
    app.sim_phone(&t.id, "+14155550002", 0).await;
    let mut ids = Vec::new();
    for (n, from) in [(0, "+14155550001"), (1, "+14155550002"), (2, "+14155550001")] {
        let body = json!({"to": format!("+1415555010{n}"), "body": "x", "from": from});
        ids.push(
            app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned(),
        );
        app.clock.advance(Duration::from_secs(60));
    }
    let list = |q: &str| {
        let (api, key, q) = (app.api.clone(), t.live.clone(), q.to_owned());
        async move {
            let r = api.call("GET", &format!("/v1/messages{q}"), Some(&key), None).await.expect(200, None);
            r.data()
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["message_id"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(list("").await, ids);
    assert_eq!(list("?order=desc").await, [ids[2].clone(), ids[1].clone(), ids[0].clone()]);
    let page =
        app.call("GET", "/v1/messages?order=desc&limit=2", Some(&t.live), None).await.expect(200, None);
    let cursor = page.body["next_cursor"].as_str().unwrap().to_owned();
    assert_eq!(
        list(&format!("?order=desc&after={cursor}")).await,
        [ids[0].clone()],
        "desc pages go on backwards"
    );
    assert_eq!(list("?from=%2B14155550001").await, [ids[0].clone(), ids[2].clone()]);
    // Sent at 12:00, 12:01 and 12:02.
    assert_eq!(list("?created_after=2026-11-22T12:00:30Z").await, ids[1..]);
    assert_eq!(
        list("?created_before=2026-11-22T12:01:30Z&created_after=2026-11-22T12:00:30Z").await,
        [ids[1].clone()]
    );
    for q in ["?order=sideways", "?created_after=yesterday", "?campaign_id=nope"] {
        app.call("GET", &format!("/v1/messages{q}"), Some(&t.live), None)
            .await
            .expect(400, Some("VALIDATION_ERROR"));
    }
    let phones = ["+14155550110", "+14155550111"];
    let c = app
        .call(
            "POST",
            "/v1/campaigns",
            Some(&t.live),
            Some(json!({"name": "n", "body": "b", "phones": phones})),
        )
        .await
        .expect(201, None);
    let cid = c.data()["id"].as_str().unwrap().to_owned();
    app.call("POST", &format!("/v1/campaigns/{cid}/launch"), Some(&t.live), None).await.expect(202, None);
    for _ in 0..100 {
        if list(&format!("?campaign_id={cid}")).await.len() == 2 {
            return;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the campaign's two messages were never listed by campaign_id");
}
