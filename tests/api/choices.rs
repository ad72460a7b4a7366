//! A tenant's choices on a send: the phone (`from`), the channel (`sms`), its own `metadata`;
//! and the `Retry-After` of 503 `NO_PHONE_AVAILABLE`.

use serde_json::{json, Value};

use crate::helpers::*;

/// Seconds from [`START`] (12:00 UTC) to the next UTC midnight.
const TO_MIDNIGHT: &str = "43200";

async fn phone(app: &TestApp, tenant: &str, number: &str, daily_limit: u32) -> String {
    let body = json!({"tenant_id": tenant, "number": number, "driver": "sim", "daily_limit": daily_limit});
    app.add_phone(body).await.expect(201, None).data()["id"].as_str().unwrap().to_owned()
}

/// `from` sends through that phone only, is not the recipient's sticky choice, and is checked:
/// a number that is none of the tenant's phones is 400 naming `from`; that phone unable to send
/// is 503 naming it, even while another phone could.
#[actix_web::test]
async fn from_picks_the_phone_and_is_checked() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    phone(&app, &t.id, "+14155550001", 100).await;
    let b = phone(&app, &t.id, "+14155550002", 100).await;
    let to = "+14155550100";
    let first = app.send_ok(&t.live, to).await;
    assert_eq!(app.message(&t.live, &first).await["from"], "+14155550001", "the oldest, on a tie");
    let r =
        app.send(&t.live, json!({"to": to, "body": "via b", "from": "+14155550002"})).await.expect(202, None);
    let id = r.data()["message_id"].as_str().unwrap().to_owned();
    let m = app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!(m["from"], "+14155550002");
    let again = app.send_ok(&t.live, to).await;
    assert_eq!(app.message(&t.live, &again).await["from"], "+14155550001", "from is not sticky");
    // A first message to a number through `from` still makes it a known recipient.
    let newcomer = json!({"to": "+14155550200", "body": "hi", "from": "+14155550002"});
    app.send(&t.live, newcomer).await.expect(202, None);

    let r = app.send(&t.live, json!({"to": to, "body": "x", "from": "+14155550003"})).await;
    let e = r.expect(400, Some("VALIDATION_ERROR"));
    assert!(e.body["error"].as_str().unwrap().contains("from"), "{}", e.body);
    let r = app.send(&t.live, json!({"to": to, "body": "x", "from": "0001"})).await;
    let e = r.expect(400, Some("VALIDATION_ERROR"));
    assert!(e.body["error"].as_str().unwrap().starts_with("from"), "{}", e.body);

    app.patch_phone(&b, json!({"enabled": false})).await.expect(200, None);
    let r = app.send(&t.live, json!({"to": to, "body": "x", "from": "+14155550002"})).await;
    let e = r.expect(503, Some("NO_PHONE_AVAILABLE"));
    assert!(e.body["error"].as_str().unwrap().contains("+14155550002"), "{}", e.body);
    assert_eq!(e.header("retry-after"), Some("30"), "a disabled phone may be enabled any moment");
    app.send_ok(&t.live, to).await;
}

/// `Retry-After` of `NO_PHONE_AVAILABLE`: to UTC midnight when every phone that could take the
/// message is online and spent for the day, else 30 s.
#[actix_web::test]
async fn no_phone_available_says_when_to_retry() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let none = app.send(&t.live, json!({"to": "+14155550100", "body": "x"})).await;
    assert_eq!(none.expect(503, Some("NO_PHONE_AVAILABLE")).header("retry-after"), Some("30"), "no phone");
    let a = phone(&app, &t.id, "+14155550001", 1).await;
    let b = phone(&app, &t.id, "+14155550002", 1).await;
    app.send_ok(&t.live, "+14155550100").await;
    let spent_a = json!({"to": "+14155550100", "body": "x", "from": "+14155550001"});
    let r = app.send(&t.live, spent_a.clone()).await;
    assert_eq!(r.expect(503, Some("NO_PHONE_AVAILABLE")).header("retry-after"), Some(TO_MIDNIGHT));
    app.send_ok(&t.live, "+14155550101").await;
    let r = app.send(&t.live, json!({"to": "+14155550102", "body": "x"})).await;
    assert_eq!(
        r.expect(503, Some("NO_PHONE_AVAILABLE")).header("retry-after"),
        Some(TO_MIDNIGHT),
        "all spent"
    );
    // One spent, one offline: the offline one may come back at any moment.
    app.patch_phone(&b, json!({"online": false})).await.expect(200, None);
    let r = app.send(&t.live, json!({"to": "+14155550102", "body": "x"})).await;
    assert_eq!(r.expect(503, Some("NO_PHONE_AVAILABLE")).header("retry-after"), Some("30"));
    // A disabled phone is not one that could take it: the spent one alone decides.
    app.patch_phone(&b, json!({"enabled": false})).await.expect(200, None);
    let r = app.send(&t.live, json!({"to": "+14155550102", "body": "x"})).await;
    assert_eq!(r.expect(503, Some("NO_PHONE_AVAILABLE")).header("retry-after"), Some(TO_MIDNIGHT));
    let _ = a;
}

/// A test key checks `from` as a live send would and shows it as the sender; nothing reaches
/// the phone.
#[actix_web::test]
async fn a_test_key_checks_from_and_shows_it() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    phone(&app, &t.id, "+14155550001", 100).await;
    let r = app.send(&t.test, json!({"to": "+14155550100", "body": "x", "from": "+14155550001"})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let m = app.wait_status(&t.test, &id, "delivered").await;
    assert_eq!((m["from"].as_str(), m["test"].as_bool()), (Some("+14155550001"), Some(true)));
    let r = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data()[0]["sent_today"], 0, "a test send uses no capacity");
    let r = app.send(&t.test, json!({"to": "+14155550100", "body": "x", "from": "+14155550009"})).await;
    r.expect(400, Some("VALIDATION_ERROR"));
}

/// `channel: sms` reaches the phone as SMS: a sim phone sends SMS to a number that has
/// iMessage, and an agent's job says `sms`; campaigns take it too.
#[actix_web::test]
async fn channel_sms_goes_out_as_sms() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let sim = phone(&app, &t.id, "+14155550001", 100).await;
    // Numbers ending in an even digit have iMessage on a sim phone.
    let auto = app.send_ok(&t.live, "+14155550100").await;
    assert_eq!(app.wait_status(&t.live, &auto, "delivered").await["channel_used"], "imessage");
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "channel": "sms"})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let m = app.wait_status(&t.live, &id, "delivered").await;
    assert_eq!((m["channel"].as_str(), m["channel_used"].as_str()), (Some("sms"), Some("sms")));

    app.patch_phone(&sim, json!({"enabled": false})).await.expect(200, None);
    let (_, token) = app.agent_phone(&t.id, "+14155550002").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let id = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "channel": "sms"})).await;
    let id = id.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let jobs = app.poll(&token, 2).await;
    assert_eq!(
        (jobs[0]["message_id"].as_str(), jobs[0]["channel"].as_str()),
        (Some(id.as_str()), Some("sms"))
    );

    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "channel": "fax"})).await;
    r.expect(400, Some("VALIDATION_ERROR"));
}

/// `metadata` is checked, kept on the record (`{}` without), echoed in every event about the
/// message, part of "the same request" for an idempotency key, and given by a campaign to
/// each of its messages.
#[actix_web::test]
async fn metadata_is_checked_kept_and_echoed() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    phone(&app, &t.id, "+14155550001", 100).await;
    let receiver = spawn_receiver().await;
    app.register_webhook(&t.live, &receiver.url, json!(["message.delivered"])).await;
    let tags = json!({"order_id": "A-17", "shop.region-eu_1": "ünïcode ✓"});
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "metadata": tags})).await;
    let id = r.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    assert_eq!(app.wait_status(&t.live, &id, "delivered").await["metadata"], tags);
    let event = receiver.wait_for(1).await[0].json();
    assert_eq!((event["message_id"].as_str(), &event["metadata"]), (Some(id.as_str()), &tags));
    let plain = app.send_ok(&t.live, "+14155550102").await;
    assert_eq!(app.message(&t.live, &plain).await["metadata"], json!({}));
    let event = receiver.wait_for(2).await[1].json();
    assert_eq!(event["metadata"], json!({}), "{event}");

    let many: serde_json::Map<String, Value> = (0..21).map(|i| (format!("k{i}"), json!("v"))).collect();
    let bad = [
        json!(many),
        json!({"": "v"}),
        json!({"has space": "v"}),
        json!({"k".repeat(41): "v"}),
        json!({"k": "v".repeat(501)}),
        json!({"k": 1}),
        json!({"k": null}),
        json!(["k"]),
    ];
    for metadata in bad {
        let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "metadata": metadata})).await;
        let e = r.expect(400, Some("VALIDATION_ERROR"));
        assert!(e.body["error"].as_str().unwrap().contains("metadata"), "{metadata}: {}", e.body);
    }
    let edge: serde_json::Map<String, Value> =
        (0..20).map(|i| (format!("{i:0>40}"), json!("é".repeat(500)))).collect();
    let r = app.send(&t.live, json!({"to": "+14155550100", "body": "x", "metadata": edge})).await;
    r.expect(202, None);

    let keyed = |m: Value| json!({"to": "+14155550104", "body": "x", "metadata": m});
    let (status, first) = app.send_idem(&t.live, "meta-1", keyed(json!({"a": "1"}))).await;
    assert_eq!(status, 202);
    let (status, again) = app.send_idem(&t.live, "meta-1", keyed(json!({"a": "1"}))).await;
    assert_eq!((status, &again["data"]["message_id"]), (202, &first["data"]["message_id"]));
    let (status, other) = app.send_idem(&t.live, "meta-1", keyed(json!({"a": "2"}))).await;
    assert_eq!((status, other["code"].as_str()), (409, Some("IDEMPOTENCY_KEY_REUSED")));

    let campaign = json!({"name": "tagged", "body": "hi", "phones": ["+14155550106"],
        "metadata": {"campaign": "winter"}, "channel": "sms"});
    let c = app.call("POST", "/v1/campaigns", Some(&t.live), Some(campaign)).await.expect(201, None);
    assert_eq!(
        (&c.data()["metadata"], c.data()["channel"].as_str()),
        (&json!({"campaign": "winter"}), Some("sms"))
    );
    let path = format!("/v1/campaigns/{}/launch", c.data()["id"].as_str().unwrap());
    app.call("POST", &path, Some(&t.live), None).await.expect(202, None);
    let sent = loop {
        let r =
            app.call("GET", "/v1/messages?to=%2B14155550106", Some(&t.live), None).await.expect(200, None);
        if let Some(m) = r.data().as_array().unwrap().first() {
            break m.clone();
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!((&sent["metadata"], sent["channel"].as_str()), (&json!({"campaign": "winter"}), Some("sms")));
    let bad = json!({"name": "x", "body": "hi", "phones": ["+14155550106"], "metadata": {"k": 2}});
    let r = app.call("POST", "/v1/campaigns", Some(&t.live), Some(bad)).await;
    r.expect(400, Some("VALIDATION_ERROR"));
}

/// `from` and `metadata` survive a restart with the record.
#[actix_web::test]
async fn from_and_metadata_survive_a_restart() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let body = json!({"to": "+14155550100", "body": "x", "from": "+14155550001", "metadata": {"k": "v"}});
    let id =
        app.send(&t.live, body).await.expect(202, None).data()["message_id"].as_str().unwrap().to_owned();
    let app = app.restart().await;
    let m = app.message(&t.live, &id).await;
    assert_eq!((m["from"].as_str(), &m["metadata"]), (Some("+14155550001"), &json!({"k": "v"})));
    let jobs = app.poll(&token, 2).await;
    assert_eq!(jobs[0]["message_id"], id.as_str());
}
