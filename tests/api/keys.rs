//! `/v1/api-keys`: shapes, defaults, the plan ceiling, environments, paging, the 50-key cap.

use serde_json::json;

use crate::helpers::*;

#[actix_web::test]
async fn a_key_is_shown_once_and_listed_by_hint() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    assert!(t.live.starts_with("svc_live_") && t.live.len() == 41, "{}", t.live);
    assert!(t.test.starts_with("svc_test_") && t.test.len() == 41, "{}", t.test);

    let r = app.create_key(&t.live, json!({"name": "backend"})).await.expect(201, None);
    let d = r.data();
    let key = d["key"].as_str().unwrap();
    assert!(
        key.starts_with("svc_live_")
            && key[9..].chars().all(|c| c.is_ascii_alphanumeric())
            && key.len() == 41
    );
    assert_eq!(d["name"], "backend");
    assert_eq!(d["rate_limit"], 50, "defaults to the plan's rate");
    assert!(d["created_at"].as_str().unwrap().ends_with(".000Z"));
    assert!(ulid::Ulid::from_string(d["id"].as_str().unwrap()).is_ok());

    let list = app.list_keys(&t.live).await.expect(200, None);
    assert_eq!(list.body["next_cursor"], serde_json::Value::Null);
    let item = list.data().as_array().unwrap().iter().find(|k| k["id"] == d["id"]).unwrap().clone();
    assert_eq!(item["key_hint"], format!("...{}", &key[key.len() - 4..]));
    assert!(item.get("key").is_none(), "the list never shows the key");
    assert_eq!(item["last_used_at"], serde_json::Value::Null);
    assert_eq!(item["rate_limit"], 50);
    assert_eq!(item["name"], "backend");
    assert_eq!(item["created_at"], d["created_at"]);
    // The secret appears nowhere in the list answer.
    assert!(!list.body.to_string().contains(&key[9..]));

    // Using the key sets last_used_at.
    app.clock.advance(std::time::Duration::from_secs(5));
    app.list_keys(key).await.expect(200, None);
    let list = app.list_keys(&t.live).await.expect(200, None);
    let item = list.data().as_array().unwrap().iter().find(|k| k["id"] == d["id"]).unwrap().clone();
    assert_eq!(item["last_used_at"], "2026-11-22T12:00:05.000Z");
}

#[actix_web::test]
async fn custom_rates_stay_within_the_plan_ceiling() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let r = app.create_key(&t.live, json!({"name": "slow", "rate_limit": 10})).await.expect(201, None);
    assert_eq!(r.data()["rate_limit"], 10);
    for bad in [json!(51), json!(0), json!(-1), json!(1.5), json!("10"), json!(1e12)] {
        let r = app
            .create_key(&t.live, json!({"name": "x", "rate_limit": bad}))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
        let msg = r.body["error"].as_str().unwrap();
        assert!(msg.contains("rate_limit"), "{bad}: {msg}");
    }
    let r = app.create_key(&t.live, json!({"name": "x", "rate_limit": 51})).await;
    assert!(r.body["error"].as_str().unwrap().contains("50"), "names the ceiling: {}", r.body);
    app.create_key(&t.live, json!({"name": "x", "rate_limit": 50})).await.expect(201, None);
    app.create_key(&t.live, json!({"name": "  "})).await.expect(400, Some("VALIDATION_ERROR"));

    // Growth raises the ceiling and the default; custom rates stay.
    app.patch_tenant(&t.id, json!({"plan": "growth"})).await.expect(200, None);
    let r = app.create_key(&t.live, json!({"name": "fast", "rate_limit": 200})).await.expect(201, None);
    assert_eq!(r.data()["rate_limit"], 200);
    let list = app.list_keys(&t.live).await.expect(200, None);
    let rates: Vec<_> = list.data().as_array().unwrap().iter().map(|k| k["rate_limit"].clone()).collect();
    assert_eq!(rates, vec![json!(200), json!(200), json!(10), json!(50), json!(200)]);
    // Scale has no ceiling: default keys are unlimited (null), custom ones may go high.
    app.patch_tenant(&t.id, json!({"plan": "scale"})).await.expect(200, None);
    let r = app.create_key(&t.live, json!({"name": "huge", "rate_limit": 100000})).await.expect(201, None);
    assert_eq!(r.data()["rate_limit"], 100000);
    let list = app.list_keys(&t.live).await.expect(200, None);
    assert!(list.header("x-ratelimit-limit").is_none(), "an unlimited key has no limit to report");
    assert_eq!(list.data()[0]["rate_limit"], serde_json::Value::Null);
}

#[actix_web::test]
async fn test_keys_create_only_test_keys() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    let r = app.create_key(&t.test, json!({"name": "sandbox"})).await.expect(201, None);
    assert!(r.data()["key"].as_str().unwrap().starts_with("svc_test_"));
    assert_eq!(r.data()["environment"], "test");
    let r = app
        .create_key(&t.test, json!({"name": "x", "environment": "live"}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
    assert!(r.body["error"].as_str().unwrap().starts_with("environment"));
    let r = app.create_key(&t.live, json!({"name": "x", "environment": "test"})).await.expect(201, None);
    assert!(r.data()["key"].as_str().unwrap().starts_with("svc_test_"));
    app.create_key(&t.live, json!({"name": "x", "environment": "prod"}))
        .await
        .expect(400, Some("VALIDATION_ERROR"));
}

#[actix_web::test]
async fn lists_page_with_a_cursor() {
    let app = spawn_app().await;
    let t = app.create_tenant("trial").await;
    for i in 0..3 {
        app.create_key(&t.live, json!({"name": format!("k{i}")})).await.expect(201, None);
    }
    let mut seen = vec![];
    let mut path = "/v1/api-keys?limit=2".to_owned();
    loop {
        let r = app.call("GET", &path, Some(&t.live), None).await.expect(200, None);
        let page = r.data().as_array().unwrap();
        assert!(page.len() <= 2);
        seen.extend(page.iter().map(|k| k["id"].as_str().unwrap().to_owned()));
        match r.body["next_cursor"].as_str() {
            Some(c) => path = format!("/v1/api-keys?limit=2&after={c}"),
            None => break,
        }
    }
    assert_eq!(seen.len(), 5);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, seen, "oldest first, no repeats");
    for bad in ["limit=0", "limit=101", "limit=ten", "after=nope"] {
        let r = app.call("GET", &format!("/v1/api-keys?{bad}"), Some(&t.live), None).await;
        let r = r.expect(400, Some("VALIDATION_ERROR"));
        assert!(r.body["error"].as_str().unwrap().starts_with(bad.split('=').next().unwrap()));
    }
}

#[actix_web::test]
async fn at_most_50_active_keys() {
    let app = spawn_app().await;
    let t = app.create_tenant("scale").await;
    let mut last = String::new();
    for i in 2..50 {
        let r = app.create_key(&t.live, json!({"name": format!("k{i}")})).await.expect(201, None);
        last = r.data()["id"].as_str().unwrap().to_owned();
    }
    let r = app.create_key(&t.live, json!({"name": "one too many"})).await.expect(409, Some("LIMIT_REACHED"));
    assert!(r.body["error"].as_str().unwrap().contains("50"));
    app.revoke_key(&t.live, &last).await.expect(200, None);
    app.create_key(&t.live, json!({"name": "room again"})).await.expect(201, None);
}

/// Test mode is walled off: each key sees only its own mode's messages (a message of the other
/// mode answers 404 to GET and DELETE and is not listed), and a test key revokes test keys only.
#[actix_web::test]
async fn test_mode_is_walled_off_from_live() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+14155550001", 0).await;
    // Held for an hour: still queued, so its own key may cancel it.
    let later = json!({"to": "+14155550100", "body": "later", "send_at": "2026-11-22T13:00:00Z"});
    let live =
        app.send(&t.live, later).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let test = app.send_ok(&t.test, "+14155550101").await;
    for (key, own, other) in [(&t.live, &live, &test), (&t.test, &test, &live)] {
        app.call("GET", &format!("/v1/messages/{own}"), Some(key), None).await.expect(200, None);
        app.call("GET", &format!("/v1/messages/{other}"), Some(key), None)
            .await
            .expect(404, Some("NOT_FOUND"));
        app.call("DELETE", &format!("/v1/messages/{other}"), Some(key), None)
            .await
            .expect(404, Some("NOT_FOUND"));
        let r = app.call("GET", "/v1/messages", Some(key), None).await.expect(200, None);
        let ids: Vec<&str> =
            r.data().as_array().unwrap().iter().map(|m| m["message_id"].as_str().unwrap()).collect();
        assert_eq!(ids, [own.as_str()]);
    }
    app.call("DELETE", &format!("/v1/messages/{live}"), Some(&t.live), None).await.expect(200, None);

    let made = app.create_key(&t.test, json!({"name": "ci"})).await.expect(201, None);
    let (test_key, test_id) =
        (made.data()["key"].as_str().unwrap().to_owned(), made.data()["id"].as_str().unwrap().to_owned());
    let keys = app.list_keys(&t.live).await.expect(200, None);
    let live_id = keys.data().as_array().unwrap().iter().find(|k| k["environment"] == "live").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app.revoke_key(&t.test, &live_id).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    assert!(r.body["error"].as_str().unwrap().contains("live"), "{}", r.body);
    app.list_keys(&t.live).await.expect(200, None);
    app.revoke_key(&t.test, &test_id).await.expect(200, None);
    app.list_keys(&test_key).await.expect(401, Some("INVALID_API_KEY"));
}

/// `scopes`: `send`, `read`, `manage`; a call outside its key's is 403 `INSUFFICIENT_SCOPE`
/// (after the credential); a key gives only scopes it has, its own by default.
#[actix_web::test]
async fn a_key_does_only_what_its_scopes_allow() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+14155550001", 0).await;
    let made = |key: &str, body: serde_json::Value| {
        let (api, key) = (app.api.clone(), key.to_owned());
        async move { api.call("POST", "/v1/api-keys", Some(&key), Some(body)).await }
    };
    let r = made(&t.live, json!({"name": "reader", "scopes": ["read"]})).await.expect(201, None);
    assert_eq!(r.data()["scopes"], json!(["read"]));
    let reader = r.data()["key"].as_str().unwrap().to_owned();
    let r = made(&t.live, json!({"name": "sender", "scopes": ["send", "send"]})).await.expect(201, None);
    let sender = r.data()["key"].as_str().unwrap().to_owned();
    let listed = app.list_keys(&t.live).await.expect(200, None);
    assert_eq!(listed.data()[0]["scopes"], json!(["send", "read", "manage"]), "a key from before: all three");

    let id = app.send_ok(&sender, "+14155550100").await;
    app.call("GET", &format!("/v1/messages/{id}"), Some(&reader), None).await.expect(200, None);
    for (method, path, key, body) in [
        ("POST", "/v1/messages".to_owned(), &reader, Some(json!({"to": "+14155550101", "body": "x"}))),
        ("POST", "/v1/templates".to_owned(), &reader, Some(json!({"name": "t", "body": "b"}))),
        ("DELETE", format!("/v1/api-keys/{}", listed.data()[0]["id"].as_str().unwrap()), &reader, None),
        ("GET", format!("/v1/messages/{id}"), &sender, None),
        (
            "POST",
            "/v1/webhooks".to_owned(),
            &sender,
            Some(json!({"url": "https://example.com/h", "events": ["message.failed"]})),
        ),
    ] {
        let r = app.call(method, &path, Some(key), body).await.expect(403, Some("INSUFFICIENT_SCOPE"));
        assert!(r.body["error"].as_str().unwrap().contains("scope"), "{method} {path}: {}", r.body);
    }
    // A send with a bad body and no `send` scope: the scope is answered first.
    app.send(&reader, json!({"to": "nope"})).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    app.call("GET", "/v1/messages", Some("svc_live_wrong"), None).await.expect(401, Some("INVALID_API_KEY"));

    // Creating keys needs `manage`; a key gives only what it has, its own scopes by default.
    let r = made(&t.live, json!({"name": "ops", "scopes": ["read", "manage"]})).await.expect(201, None);
    let ops = r.data()["key"].as_str().unwrap().to_owned();
    made(&reader, json!({"name": "x"})).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    made(&ops, json!({"name": "x", "scopes": ["send"]})).await.expect(403, Some("INSUFFICIENT_SCOPE"));
    let r = made(&ops, json!({"name": "x"})).await.expect(201, None);
    assert_eq!(r.data()["scopes"], json!(["read", "manage"]));
    for body in [json!({"name": "x", "scopes": []}), json!({"name": "x", "scopes": ["write"]})] {
        made(&t.live, body).await.expect(400, Some("VALIDATION_ERROR"));
    }
}

/// A tenant that revoked its last key gets one from the operator: live, all scopes by default.
#[actix_web::test]
async fn the_operator_mints_a_key_for_a_tenant_locked_out() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let keys = app.list_keys(&t.live).await.expect(200, None);
    let test_id = keys.data().as_array().unwrap().iter().find(|k| k["environment"] == "test").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let live_id = keys.data().as_array().unwrap().iter().find(|k| k["environment"] == "live").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.revoke_key(&t.live, &test_id).await.expect(200, None);
    app.revoke_key(&t.live, &live_id).await.expect(200, None);
    app.list_keys(&t.live).await.expect(401, Some("INVALID_API_KEY"));

    let path = format!("/admin/v1/tenants/{}/api-keys", t.id);
    let r = app.call("POST", &path, Some(ADMIN), Some(json!({"name": "rescue"}))).await.expect(201, None);
    assert_eq!(
        (r.data()["environment"].as_str(), &r.data()["scopes"]),
        (Some("live"), &json!(["send", "read", "manage"]))
    );
    let rescue = r.data()["key"].as_str().unwrap().to_owned();
    assert_eq!(app.list_keys(&rescue).await.expect(200, None).data().as_array().unwrap().len(), 1);
    let body = json!({"name": "look", "environment": "test", "scopes": ["read"]});
    let r = app.call("POST", &path, Some(ADMIN), Some(body)).await.expect(201, None);
    assert_eq!((r.data()["environment"].as_str(), &r.data()["scopes"]), (Some("test"), &json!(["read"])));
    app.call("POST", &path, Some(&rescue), Some(json!({"name": "x"})))
        .await
        .expect(401, Some("INVALID_API_KEY"));
    let nobody = format!("/admin/v1/tenants/{}/api-keys", ulid::Ulid::nil());
    app.call("POST", &nobody, Some(ADMIN), Some(json!({"name": "x"}))).await.expect(404, None);
}
