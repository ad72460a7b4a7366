//! Opt-outs as a recipient and a tenant meet them: STOP, START and HELP answered once from the
//! phone that got them, replies that no send rule holds back, the tenant's own opt-outs through
//! `/v1/opt-outs`, their events, and `/v1/settings`.

use serde_json::{json, Value};

use crate::events::page;
use crate::helpers::*;

const DEFAULT_OUT: &str = "You are unsubscribed and will get no more messages. Reply START to resubscribe.";
const DEFAULT_IN: &str = "You are subscribed again. Reply STOP to unsubscribe.";

/// The one job a phone has now: a reply to `to` with `body`, answering `inbound`; its record.
async fn reply_job(app: &TestApp, key: &str, token: &str, to: &str, body: &str, inbound: &Value) -> Value {
    let jobs = app.poll(token, 0).await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!((jobs[0]["to"].as_str(), jobs[0]["body"].as_str()), (Some(to), Some(body)));
    let m = app.message(key, jobs[0]["message_id"].as_str().unwrap()).await;
    assert_eq!(m["reply_to"], inbound["message_id"]);
    assert_eq!((m["direction"].as_str(), m["from"].as_str()), (Some("outbound"), inbound["to"].as_str()));
    m
}

async fn opt_outs(app: &TestApp, key: &str, query: &str) -> Value {
    app.call("GET", &format!("/v1/opt-outs{query}"), Some(key), None).await.expect(200, None).body
}

/// A STOP is confirmed once, from the phone that received it, and recorded with its keyword; a
/// repeated STOP sends nothing; HELP answers only once the tenant set a reply (even to a number
/// opted out); START opts back in with its reply; each change is an event.
#[actix_web::test]
async fn keywords_are_answered_once_from_the_phone_that_got_them() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, first) = app.agent_phone(&t.id, "+14155550001").await;
    let (_, second) = app.agent_phone(&t.id, "+14155550002").await;
    let who = "+14155550100";

    let stop = app.inbound(&second, who, " stop ").await.expect(201, None).data().clone();
    let reply = reply_job(&app, &t.live, &second, who, DEFAULT_OUT, &stop).await;
    assert!(app.poll(&first, 0).await.is_empty(), "only the phone that got the STOP answers");
    let listed = opt_outs(&app, &t.live, "").await;
    assert_eq!(
        listed["data"],
        json!([{"phone": who, "opted_out_at": START.replace("Z", ".000Z"), "via": "keyword", "keyword": "STOP"}])
    );
    app.send(&t.live, json!({"to": who, "body": "x"})).await.expect(400, Some("RECIPIENT_OPTED_OUT"));
    app.report(&second, reply["message_id"].as_str().unwrap(), json!({"status": "delivered"}))
        .await
        .expect(200, None);

    // Already opted out: nothing changes, nothing is sent.
    for again in ["STOP", "unsubscribe"] {
        app.inbound(&second, who, again).await.expect(201, None);
    }
    app.inbound(&second, who, "HELP").await.expect(201, None);
    assert!(app.poll(&second, 0).await.is_empty(), "no reply to a repeated STOP, nor to HELP unset");

    let help = "Acme alerts. Reply STOP to stop.";
    app.call("PATCH", "/v1/settings", Some(&t.live), Some(json!({"help_reply": help})))
        .await
        .expect(200, None);
    let info = app.inbound(&second, who, "Info").await.expect(201, None).data().clone();
    reply_job(&app, &t.live, &second, who, help, &info).await;

    let start = app.inbound(&first, who, "START").await.expect(201, None).data().clone();
    reply_job(&app, &t.live, &first, who, DEFAULT_IN, &start).await;
    assert_eq!(opt_outs(&app, &t.live, "").await["data"], json!([]));
    app.inbound(&first, who, "start").await.expect(201, None);
    assert!(app.poll(&first, 0).await.is_empty(), "START from a number not opted out sends nothing");
    app.send_ok(&t.live, who).await;

    let r = app.call("GET", "/v1/messages?direction=outbound", Some(&t.live), None).await.expect(200, None);
    let replies = r.data().as_array().unwrap().iter().filter(|m| !m["reply_to"].is_null()).count();
    assert_eq!(replies, 3, "a reply to STOP, INFO and START, and no other");

    let (events, _) = page(&app, &t.live, "?types=contact.opted_out,contact.opted_in").await;
    let shape = |e: &Value| {
        let mut e = e.clone();
        assert_eq!(e["event_id"].as_str().map(str::len), Some(26));
        e.as_object_mut().unwrap().remove("event_id");
        e
    };
    let at = START.replace("Z", ".000Z");
    assert_eq!(
        events.iter().map(shape).collect::<Vec<_>>(),
        [
            json!({"event": "contact.opted_out", "phone": who, "via": "keyword", "keyword": "STOP", "timestamp": at}),
            json!({"event": "contact.opted_in", "phone": who, "via": "keyword", "keyword": "START", "timestamp": at}),
        ]
    );
    // Both modes see them: an opt-out is the tenant's, not a mode's.
    assert_eq!(page(&app, &t.test, "?types=contact.opted_out").await.0.len(), 1);
}

/// A reply goes out when a send to the same number could not: in the recipient's quiet hours
/// (noon UTC is 04:00 in San Francisco), past the new-contact limit and the phone's daily limit.
/// It counts toward the phone's day.
#[actix_web::test]
async fn replies_pass_quiet_hours_and_the_days_limits() {
    let app = spawn_app().await;
    let t = app.create_tenant_default("starter").await;
    app.patch_tenant(&t.id, json!({"new_contact_daily_limit": 1})).await.expect(200, None);
    let r = app
        .add_phone(json!({"tenant_id": t.id, "number": "+14155550001", "driver": "agent", "daily_limit": 1}));
    let token = r.await.expect(201, None).data()["agent_token"].as_str().unwrap().to_owned();
    assert!(app.poll(&token, 0).await.is_empty());

    let held = app.send_ok(&t.live, "+14155550100").await;
    assert!(app.message(&t.live, &held).await["scheduled_at"].is_string(), "held by quiet hours");
    app.send(&t.live, json!({"to": "+14155550101", "body": "x"}))
        .await
        .expect(429, Some("NEW_CONTACT_LIMIT"));

    let stop = app.inbound(&token, "+14155550102", "STOP").await.expect(201, None).data().clone();
    let reply = reply_job(&app, &t.live, &token, "+14155550102", DEFAULT_OUT, &stop).await;
    assert!(reply["scheduled_at"].is_null());
    let id = reply["message_id"].as_str().unwrap();
    app.report(&token, id, json!({"status": "delivered"})).await.expect(200, None);
    app.wait_status(&t.live, id, "delivered").await;
    let phones = app.call("GET", "/v1/phones", Some(&t.live), None).await.expect(200, None);
    assert_eq!(phones.data()[0]["sent_today"], 2, "the held send and the reply");
    let r = app.get_tenant(&t.id).await.expect(200, None);
    assert_eq!(r.data()["usage"]["new_contacts_today"], 1, "a reply makes no new contact");
}

/// `POST /v1/opt-outs` records a number (again: 200 with the record it has, however made);
/// `DELETE` removes only what the API made; pages follow the cursor; another tenant sees none.
#[actix_web::test]
async fn the_api_adds_and_removes_its_own_opt_outs_only() {
    let app = spawn_app().await;
    let t = app.create_tenant("starter").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    let add = |phone: &str| {
        let (api, key, phone) = (app.api.clone(), t.live.clone(), phone.to_owned());
        async move { api.call("POST", "/v1/opt-outs", Some(&key), Some(json!({"phone": phone}))).await }
    };
    let r = add("+14155550100").await.expect(201, None);
    let made = r.data().clone();
    assert_eq!(made["via"], "api");
    assert_eq!(made["keyword"], Value::Null);
    assert_eq!(add("+14155550100").await.expect(200, None).data(), &made);
    app.send(&t.live, json!({"to": "+14155550100", "body": "x"}))
        .await
        .expect(400, Some("RECIPIENT_OPTED_OUT"));

    app.inbound(&token, "+14155550101", "Quit").await.expect(201, None);
    let r = add("+14155550101").await.expect(200, None);
    assert_eq!((r.data()["via"].as_str(), r.data()["keyword"].as_str()), (Some("keyword"), Some("QUIT")));
    app.call("DELETE", "/v1/opt-outs/%2B14155550101", Some(&t.live), None)
        .await
        .expect(409, Some("INVALID_STATUS_TRANSITION"));

    add("+14155550099").await.expect(201, None);
    let first = opt_outs(&app, &t.live, "?limit=2").await;
    let numbers =
        |v: &Value| v["data"].as_array().unwrap().iter().map(|o| o["phone"].clone()).collect::<Vec<_>>();
    assert_eq!(numbers(&first), [json!("+14155550099"), json!("+14155550100")]);
    let cursor = first["next_cursor"].as_str().unwrap();
    let rest = opt_outs(&app, &t.live, &format!("?limit=2&after={cursor}")).await;
    assert_eq!((numbers(&rest), &rest["next_cursor"]), (vec![json!("+14155550101")], &Value::Null));
    let bad = "/v1/opt-outs?after=01ARZ3NDEKTSV4RRFFQ69G5FAV";
    app.call("GET", bad, Some(&t.live), None).await.expect(400, Some("VALIDATION_ERROR"));

    let other = app.create_tenant("starter").await;
    assert_eq!(opt_outs(&app, &other.live, "").await["data"], json!([]));
    app.call("DELETE", "/v1/opt-outs/+14155550100", Some(&other.live), None)
        .await
        .expect(404, Some("NOT_FOUND"));

    let r = app.call("DELETE", "/v1/opt-outs/+14155550100", Some(&t.live), None).await.expect(200, None);
    assert_eq!(r.data(), &json!({"phone": "+14155550100", "deleted": true}));
    app.call("DELETE", "/v1/opt-outs/+14155550100", Some(&t.live), None).await.expect(404, Some("NOT_FOUND"));
    app.send_ok(&t.live, "+14155550100").await;
    assert!(
        app.poll(&token, 0).await.iter().all(|j| j["to"] != "+14155550099"),
        "no reply to an API opt-out"
    );

    let (events, _) = page(&app, &t.live, "?types=contact.opted_out,contact.opted_in").await;
    let seen: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| (e["event"].as_str().unwrap(), e["phone"].as_str().unwrap(), e["via"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [
            ("contact.opted_out", "+14155550100", "api"),
            ("contact.opted_out", "+14155550101", "keyword"),
            ("contact.opted_out", "+14155550099", "api"),
            ("contact.opted_in", "+14155550100", "api"),
        ]
    );

    for (body, code) in [
        (json!({}), "VALIDATION_ERROR"),
        (json!({"phone": "+14155550100", "why": "x"}), "VALIDATION_ERROR"),
        (json!({"phone": "14155550100"}), "INVALID_PHONE_NUMBER"),
    ] {
        app.call("POST", "/v1/opt-outs", Some(&t.live), Some(body)).await.expect(400, Some(code));
    }
    app.call("DELETE", "/v1/opt-outs/4155550100", Some(&t.live), None)
        .await
        .expect(400, Some("INVALID_PHONE_NUMBER"));
    let reader = app.create_key(&t.live, json!({"name": "r", "scopes": ["read"]})).await.expect(201, None);
    let reader = reader.data()["key"].as_str().unwrap().to_owned();
    opt_outs(&app, &reader, "").await;
    app.call("POST", "/v1/opt-outs", Some(&reader), Some(json!({"phone": "+14155550111"})))
        .await
        .expect(403, Some("INSUFFICIENT_SCOPE"));
}

/// `/v1/settings` shows the defaults, changes only what a PATCH names, refuses what could not
/// be sent, and needs `manage` to change; a reply set to null is not sent, the opt-out still is.
#[actix_web::test]
async fn settings_show_change_and_refuse_with_the_rules() {
    let app = spawn_app().await;
    let t = app.create_tenant_default("starter").await;
    let r = app.call("GET", "/v1/settings", Some(&t.live), None).await.expect(200, None);
    assert_eq!(
        r.data(),
        &json!({"opt_out_reply": DEFAULT_OUT, "opt_in_reply": DEFAULT_IN, "help_reply": null,
            "quiet_hours": {"enabled": true, "start": "21:00", "end": "08:00", "timezone": null}})
    );
    let change =
        json!({"opt_out_reply": null, "help_reply": "Help: acme.example", "quiet_hours": {"start": "22:00"}});
    let r = app.call("PATCH", "/v1/settings", Some(&t.live), Some(change)).await.expect(200, None);
    let want = json!({"opt_out_reply": null, "opt_in_reply": DEFAULT_IN, "help_reply": "Help: acme.example",
        "quiet_hours": {"enabled": true, "start": "22:00", "end": "08:00", "timezone": null}});
    assert_eq!(r.data(), &want);
    assert_eq!(app.call("GET", "/v1/settings", Some(&t.test), None).await.expect(200, None).data(), &want);
    assert_eq!(app.get_tenant(&t.id).await.expect(200, None).data()["quiet_hours"]["start"], "22:00");

    for bad in [
        json!({"opt_in_reply": ""}),
        json!({"opt_in_reply": "   "}),
        json!({"help_reply": "x".repeat(10_001)}),
        json!({"help_reply": 5}),
        json!({"quiet_hours": {"start": "25:00"}}),
        json!({"quiet_hours": [true]}),
        json!({"reply": "x"}),
    ] {
        app.call("PATCH", "/v1/settings", Some(&t.live), Some(bad))
            .await
            .expect(400, Some("VALIDATION_ERROR"));
    }
    assert_eq!(app.call("GET", "/v1/settings", Some(&t.live), None).await.expect(200, None).data(), &want);
    let sender = app.create_key(&t.live, json!({"name": "s", "scopes": ["send"]})).await.expect(201, None);
    let sender = sender.data()["key"].as_str().unwrap().to_owned();
    app.call("PATCH", "/v1/settings", Some(&sender), Some(json!({"help_reply": null})))
        .await
        .expect(403, Some("INSUFFICIENT_SCOPE"));

    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    app.inbound(&token, "+14155550100", "STOP").await.expect(201, None);
    assert!(app.poll(&token, 0).await.is_empty(), "the opt-out reply is off");
    assert_eq!(opt_outs(&app, &t.live, "").await["data"].as_array().unwrap().len(), 1);
}
